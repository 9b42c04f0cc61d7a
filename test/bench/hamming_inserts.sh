#!/usr/bin/env bash
# The hamming index under a steady stream of inserts (issue 28, point 4):
# build it on N rows, insert N more rows in 100 batches of N/100 (each
# its own transaction) with autovacuum on, then compare radius-3 and
# top-10 latencies, exactness and size with a fresh build on the same 2N
# rows.
#
# Usage: test/bench/hamming_inserts.sh [N ...]      (default: 1000000)
# Env:   HAMMING_SECONDS  pgbench duration per latency figure (default 15)
#        HAMMING_TABLES   the index's storage parameter "tables" (default 4)
# Settings: autovacuum on with autovacuum_naptime = 1s, the other
# autovacuum settings at their defaults (autovacuum_vacuum_insert_threshold
# 1000, autovacuum_vacuum_insert_scale_factor 0.2); shared_buffers 2GB.
# Data as test/bench/hamming.sh: N-N/100 uniformly random fingerprints and
# N/100 planted near-duplicates, the same mix in every batch.  Latency:
# pgbench -M prepared, one client, per query (round trip and an InitPlan
# fetching the key included); the index after the inserts and a fresh build
# on a copy of the same rows are measured in turns (3 rounds of
# HAMMING_SECONDS/3 per query kind each), p50 and p99 over all rounds.
# Output: a table on stdout, also written to test/bench/out/hamming-inserts-N.txt.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

SECS=${HAMMING_SECONDS:-15}
TABLES=${HAMMING_TABLES:-4}
export TFP_PG_CONF="${TFP_PG_CONF:-}
shared_buffers = 2GB
maintenance_work_mem = 1GB
work_mem = 64MB
max_parallel_workers_per_gather = 2
jit = off
random_page_cost = 1.1
autovacuum = on
autovacuum_naptime = 1s"
tfp_setup_cluster
OUT=$TFP_ROOT/test/bench/out
mkdir -p "$OUT"
P() { psql -X -q -v ON_ERROR_STOP=1 "$@"; }
now() { date +%s.%N; }
elapsed() { echo "$(now) - $1" | bc; }
msize() { P -Atc "SELECT round(pg_relation_size('$1') / 1048576.0, 1)"; }

P -c 'CREATE EXTENSION textfp'
P <<'SQL'
SET check_function_bodies = off;
CREATE FUNCTION rnd64() RETURNS bigint LANGUAGE sql VOLATILE AS
$$ SELECT ((random() * 4294967296)::bigint << 32) # (random() * 4294967296)::bigint $$;
-- n rows from id "first" on: n - n/100 random, n/100 planted near-duplicates of earlier rows
CREATE PROCEDURE add_rows(first int, n int) LANGUAGE sql AS $$
INSERT INTO bench SELECT first + g, rnd64()::simhash64 FROM generate_series(0, n - n / 100 - 1) g;
INSERT INTO bench SELECT first + n - n / 100 + g,
    (b.fp::bigint # (1::bigint << (random() * 63)::int) # (1::bigint << (random() * 63)::int)
                  # (1::bigint << (random() * 63)::int))::simhash64
  FROM generate_series(0, n / 100 - 1) g JOIN bench b ON b.id = 1 + ((g::bigint * 7919) % (first - 1))::int;
$$;
SQL

pct() { sort -n "$1" | awk -v p="$2" '{a[NR]=$1} END {i=int(NR*p/100+0.999); if(i<1)i=1; printf "%.3f", a[i]/1000}'; }
# pgbench latencies of a query file, appended to $TFP_TMP/lat-NAME
latency() { # name sqlfile seconds
    local d=$TFP_TMP/pgb-$1
    rm -rf "$d"; mkdir -p "$d"; chmod 777 "$d"
    (cd "$d" && pgbench -n -M prepared -c 1 -T "$3" -f "$2" \
        --log --log-prefix="$d/log" >"$d/out.txt" 2>&1) || { cat "$d/out.txt" >&2; return 1; }
    awk '{print $3}' "$d"/log* >>"$TFP_TMP/lat-$1"
}
queries() { # table
    cat >"$TFP_TMP/q_dist_$1.sql" <<Q
\\set i random(1, 1000)
SELECT id FROM $1 WHERE simhash_dist(fp, (SELECT fp FROM qkeys WHERE i = :i)) <= 3;
Q
    cat >"$TFP_TMP/q_knn_$1.sql" <<Q
\\set i random(1, 1000)
SELECT id FROM $1 ORDER BY fp <-> (SELECT fp FROM qkeys WHERE i = :i) LIMIT 10;
Q
    cat >"$TFP_TMP/q_knn_rand_$1.sql" <<Q
\\set i random(1, 1000)
SELECT id FROM $1 ORDER BY fp <-> (SELECT fp FROM qrand WHERE i = :i) LIMIT 10;
Q
    chmod 644 "$TFP_TMP"/q_*.sql
}
exactness() { # table
    P -At <<SQL
CREATE TEMP TABLE keys AS SELECT i, fp FROM qkeys WHERE i <= 20 UNION ALL SELECT 100 + i, fp FROM qrand WHERE i <= 20;
SET enable_seqscan = off; SET enable_bitmapscan = off;
CREATE TEMP TABLE ix AS SELECT k.i, b.id FROM keys k, LATERAL (SELECT id FROM $1 WHERE simhash_dist(fp, k.fp) <= 3) b;
CREATE TEMP TABLE ixk AS SELECT k.i, b.d, b.rn FROM keys k,
  LATERAL (SELECT fp <-> k.fp AS d, row_number() OVER () AS rn FROM (SELECT fp FROM $1 ORDER BY fp <-> k.fp LIMIT 10) s) b;
RESET enable_seqscan; SET enable_indexscan = off;
CREATE TEMP TABLE sq AS SELECT k.i, b.id FROM keys k, LATERAL (SELECT id FROM $1 WHERE simhash_dist(fp, k.fp) <= 3) b;
CREATE TEMP TABLE sqk AS SELECT k.i, b.d, row_number() OVER (PARTITION BY k.i ORDER BY b.d) AS rn FROM keys k,
  LATERAL (SELECT fp <-> k.fp AS d FROM $1 ORDER BY 1 LIMIT 10) b;
SELECT (SELECT count(*) FROM (SELECT * FROM sq EXCEPT SELECT * FROM ix) d) + (SELECT count(*) FROM (SELECT * FROM ix EXCEPT SELECT * FROM sq) d)
     + (SELECT count(*) FROM (SELECT * FROM sqk EXCEPT SELECT * FROM ixk) d)
       || ' differences (' || (SELECT count(*) FROM sq) || ' radius rows, ' || (SELECT count(*) FROM sqk) || ' top-10 rows)';
SQL
}
row() { # label table index
    local k
    printf '| %s | %s MB |' "$1" "$(msize "$3")" >>"$RES"
    for k in dist knn knn_rand; do
        printf ' %s / %s ms |' "$(pct "$TFP_TMP/lat-$k-$2" 50)" "$(pct "$TFP_TMP/lat-$k-$2" 99)" >>"$RES"
    done
    printf ' %s |\n' "$(exactness "$2")" >>"$RES"
}

run() {
    local N=$1 B=$(( $1 / 100 )) i t f
    RES=$TFP_TMP/res-$N.txt
    : >"$RES"
    tfp_log "N = $N: $N rows, the hamming index, then $N rows in 100 batches"
    P -c 'DROP TABLE IF EXISTS bench, bench2, qkeys, qrand'
    P -c 'CREATE TABLE bench (id int, fp simhash64)'
    P -c "INSERT INTO bench SELECT g, rnd64()::simhash64 FROM generate_series(1, $N - $N / 100) g"
    P -c "INSERT INTO bench SELECT $N - $N / 100 + g, (b.fp::bigint # (1::bigint << (random() * 63)::int)
            # (1::bigint << (random() * 63)::int) # (1::bigint << (random() * 63)::int))::simhash64
          FROM generate_series(1, $N / 100) g JOIN bench b ON b.id = 1 + (g * 7919) % ($N - $N / 100)"
    P -c 'VACUUM ANALYZE bench'
    t=$(now); P -c "CREATE INDEX bench_ham ON bench USING hamming (fp) WITH (tables = $TABLES)"; f=$(elapsed "$t")
    echo "build of N rows: $(printf '%.1f' "$f") s, $(msize bench_ham) MB" >>"$RES"
    t=$(now)
    for i in $(seq 0 99); do
        P -c "CALL add_rows($N + 1 + $i * $B, $B)"
    done
    f=$(elapsed "$t")
    # query keys: 1000 planted near-duplicates inserted by the batches
    P -c "CREATE TABLE qkeys AS SELECT row_number() OVER (ORDER BY random())::int AS i, fp FROM bench
            WHERE id > $N AND (id - $N - 1) % $B >= $B - $B / 100 LIMIT 1000"
    P -c 'CREATE TABLE qrand AS SELECT g AS i, rnd64()::simhash64 AS fp FROM generate_series(1, 1000) g'
    P -c 'ANALYZE qkeys; ANALYZE qrand'
    echo "inserts: $N rows in 100 batches, $(printf '%.1f' "$f") s; then: $(P -Atc "SELECT format('%s sorted rows in %s runs %s, %s pending, %s merges', sorted_rows, runs, run_rows, pending_rows, merges) FROM hamming_index_stats('bench_ham')"); autovacuum ran $(P -Atc "SELECT autovacuum_count FROM pg_stat_user_tables WHERE relname = 'bench'") times" >>"$RES"
    echo "| index | size | radius 3 p50 / p99 | top-10 planted p50 / p99 | top-10 random p50 / p99 | exactness (40 keys) |" >>"$RES"
    echo "|---|---|---|---|---|---|" >>"$RES"
    # the fresh build: the same rows in a copy of the table
    P -c 'DROP TABLE IF EXISTS bench2' -c 'CREATE TABLE bench2 AS SELECT * FROM bench' -c 'VACUUM ANALYZE bench2'
    t=$(now); P -c "CREATE INDEX bench2_ham ON bench2 USING hamming (fp) WITH (tables = $TABLES)"; f=$(elapsed "$t")
    P -c 'ANALYZE bench'
    queries bench; queries bench2
    rm -f "$TFP_TMP"/lat-*
    # the two indexes take turns, so that the machine's load weighs on both alike
    for i in 1 2 3; do
        for t in bench bench2; do
            for k in dist knn knn_rand; do
                latency "$k-$t" "$TFP_TMP/q_${k}_$t.sql" $(( (SECS + 2) / 3 ))
            done
        done
    done
    for t in bench bench2; do
        echo "plans on $t: $(P -Atc "EXPLAIN (COSTS OFF) SELECT id FROM $t WHERE simhash_dist(fp, (SELECT fp FROM qkeys WHERE i = 1)) <= 3" | grep -o '[A-Za-z ]*Scan[a-z ]*' | head -1 | xargs) (radius), $(P -Atc "EXPLAIN (COSTS OFF) SELECT id FROM $t ORDER BY fp <-> (SELECT fp FROM qrand WHERE i = 1) LIMIT 10" | grep -o '[A-Za-z ]*Scan[a-z ]*' | tail -1 | xargs) (top-10)" >>"$RES"
    done
    row "after the inserts (autovacuum on)" bench bench_ham
    row "fresh build on the same 2N rows ($(printf '%.1f' "$f") s)" bench2 bench2_ham
    {
        echo "## N = $N, tables = $TABLES ($(date -u +%F), $(nproc) cores shared with other jobs; $(psql -Atc 'SHOW server_version'))"
        cat "$RES"
    } | tee "$OUT/hamming-inserts-$N.txt"
}

for N in "${@:-1000000}"; do run "$N"; done
