#!/usr/bin/env bash
# Hamming-radius search benchmark (issue 3): textfp GIN (multi-index hashing)
# vs. a parallel sequential scan, vs. the do-it-yourself GIN array_ops
# baseline, and a btree on the bigint (build time / size yardstick); the
# hamming access method (radius 3, and exact KNN top-10 for planted and for
# random query keys); KNN top-10 with the GiST class.  All on the same
# table, in one run.
#
# Usage: test/bench/hamming.sh [N ...]            (default: 1000000)
# Env:   HAMMING_LAYOUTS   GIN opclass option sets to compare, ';'-separated
#                          (default "blocks=5"; e.g. "blocks=4;blocks=5;blocks=6")
#        HAMMING_SECONDS   pgbench duration per latency figure (default 15)
#                          ("" skips GIN)
#        HAMMING_SKIP_DIY=1, HAMMING_SKIP_KNN=1 (GiST), HAMMING_SKIP_AM=1
#        HAMMING_AM_TABLES layouts of the hamming method to compare (default
#                          "4 2": its storage parameter "tables")
#        HAMMING_MWM       maintenance_work_mem (default 1GB)
# Output: a table on stdout, also written to test/bench/out/hamming-N.txt.
# Data: N-N/100 uniformly random 64-bit fingerprints, plus N/100 planted
# near-duplicates (a copy of a random row with up to 3 random bits flipped).
# Query keys: 1000 fingerprints that have a planted near-duplicate.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

SECS=${HAMMING_SECONDS:-15}
LAYOUTS=${HAMMING_LAYOUTS-blocks=5}
export TFP_PG_CONF="${TFP_PG_CONF:-}
shared_buffers = 2GB
maintenance_work_mem = ${HAMMING_MWM:-1GB}
work_mem = 64MB
max_parallel_workers_per_gather = 2
jit = off
random_page_cost = 1.1"
tfp_setup_cluster
OUT=$TFP_ROOT/test/bench/out
mkdir -p "$OUT"
P() { psql -X -q -v ON_ERROR_STOP=1 "$@"; }
now() { date +%s.%N; }
elapsed() { echo "$(now) - $1" | bc; }           # seconds
msize() { P -Atc "SELECT round(pg_relation_size('$1') / 1048576.0, 1)"; }

P -c 'CREATE EXTENSION textfp'
P <<'SQL'
CREATE FUNCTION rnd64() RETURNS bigint LANGUAGE sql VOLATILE AS
$$ SELECT ((random() * 4294967296)::bigint << 32) # (random() * 4294967296)::bigint $$;
-- the do-it-yourself baseline: four 16-bit blocks tagged with their number
CREATE FUNCTION diy_blocks(h bigint) RETURNS int4[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT ARRAY[((h >> 48) & 65535)::int4, 65536 + ((h >> 32) & 65535)::int4,
               131072 + ((h >> 16) & 65535)::int4, 196608 + (h & 65535)::int4] $$;
CREATE FUNCTION diy_hamming(a bigint, b bigint) RETURNS int LANGUAGE sql IMMUTABLE PARALLEL SAFE AS
$$ SELECT bit_count((a # b)::bit(64))::int $$;
SQL

pct() { # file col p
    sort -n "$1" | awk -v p="$2" '{a[NR]=$1} END {i=int(NR*p/100+0.999); if(i<1)i=1; printf "%.3f", a[i]/1000}'
}
# pgbench latency of a query file: prints "p50 p99" in ms
latency() { # name sqlfile [PGOPTIONS]
    local d=$TFP_TMP/pgb-$1
    rm -rf "$d"; mkdir -p "$d"; chmod 777 "$d"
    (cd "$d" && PGOPTIONS="${3:-}" pgbench -n -M prepared -c 1 -T "$SECS" -f "$2" \
        --log --log-prefix="$d/log" >"$d/out.txt" 2>&1) || { cat "$d/out.txt" >&2; return 1; }
    awk '{print $3}' "$d"/log* >"$d/lat"
    echo "$(pct "$d/lat" 50) $(pct "$d/lat" 99) $(wc -l <"$d/lat")"
}

run() {
    local N=$1 t res f
    local R=$TFP_TMP/res-$N.txt
    : >"$R"
    tfp_log "N = $N: generating data"
    P -v N="$N" <<'SQL'
DROP TABLE IF EXISTS bench, qkeys, qrand;
CREATE TABLE bench (id int, h bigint, fp simhash64);
INSERT INTO bench SELECT g, r, r::simhash64
  FROM (SELECT g, rnd64() AS r FROM generate_series(1, :N - :N / 100) g) s;
INSERT INTO bench SELECT :N - :N / 100 + g, x, x::simhash64
  FROM (SELECT g, h # (1::bigint << (random() * 63)::int) # (1::bigint << (random() * 63)::int)
                     # (1::bigint << (random() * 63)::int) AS x
          FROM (SELECT g, (random() * (:N - :N / 100 - 1))::int + 1 AS src
                  FROM generate_series(1, :N / 100) g) s
          JOIN bench b ON b.id = s.src) t;
CREATE TABLE qkeys (i int PRIMARY KEY, h bigint, fp simhash64);
INSERT INTO qkeys SELECT row_number() OVER (), h, fp
  FROM (SELECT b.h, b.fp FROM bench b WHERE b.id > :N - :N / 100 ORDER BY b.id LIMIT 1000) s;
CREATE TABLE qrand (i int PRIMARY KEY, fp simhash64);
INSERT INTO qrand SELECT g, rnd64()::simhash64 FROM generate_series(1, 1000) g;
VACUUM ANALYZE bench; VACUUM ANALYZE qkeys; VACUUM ANALYZE qrand;
SQL
    cat >"$TFP_TMP/q_dist.sql" <<'Q'
\set i random(1, 1000)
SELECT id FROM bench WHERE simhash_dist(fp, (SELECT fp FROM qkeys WHERE i = :i)) <= 3;
Q
    cat >"$TFP_TMP/q_diy.sql" <<'Q'
\set i random(1, 1000)
SELECT id FROM bench WHERE diy_blocks(h) && diy_blocks((SELECT h FROM qkeys WHERE i = :i))
  AND diy_hamming(h, (SELECT h FROM qkeys WHERE i = :i)) <= 3;
Q
    cat >"$TFP_TMP/q_knn.sql" <<'Q'
\set i random(1, 1000)
SELECT id FROM bench ORDER BY fp <-> (SELECT fp FROM qkeys WHERE i = :i) LIMIT 10;
Q
    cat >"$TFP_TMP/q_knn_rand.sql" <<'Q'
\set i random(1, 1000)
SELECT id FROM bench ORDER BY fp <-> (SELECT fp FROM qrand WHERE i = :i) LIMIT 10;
Q
    chmod 644 "$TFP_TMP"/q_*.sql

    echo "table: $(P -Atc "SELECT pg_size_pretty(pg_relation_size('bench'))")" >>"$R"

    tfp_log "btree on bigint"
    t=$(now); P -c 'CREATE INDEX bench_btree ON bench (h)'; f=$(elapsed "$t")
    printf '| btree (h bigint) | build %.1f s | %s MB |\n' "$f" "$(msize bench_btree)" >>"$R"
    P -c 'DROP INDEX bench_btree'

    tfp_log "sequential scan, 2 workers"
    res=$(SECS=$(( SECS < 10 ? SECS : 10 )); latency seq "$TFP_TMP/q_dist.sql" \
          "-c enable_bitmapscan=off -c enable_indexscan=off -c max_parallel_workers_per_gather=2")
    printf '| seq scan (2 workers) | radius 3: p50 %s ms, p99 %s ms (%s queries) |\n' $res >>"$R"
    SEQ50=${res%% *}

    local IFS_SAVE=$IFS L name
    IFS=';'
    for L in $LAYOUTS; do
        IFS=$IFS_SAVE
        name=bench_gin_${L//[^a-z0-9]/_}
        tfp_log "textfp GIN ($L)"
        t=$(now); P -c "CREATE INDEX $name ON bench USING gin (fp simhash64_gin_ops ($L))"; f=$(elapsed "$t")
        P -c 'VACUUM ANALYZE bench'
        res=$(latency "gin" "$TFP_TMP/q_dist.sql")
        printf '| textfp GIN (%s) | build %.1f s | %s MB | radius 3: p50 %s ms, p99 %s ms (%s queries) |\n' \
            "$L" "$f" "$(msize "$name")" $res >>"$R"
        # exactness: the index and a sequential scan return the same rows
        P -At -v ON_ERROR_STOP=1 >"$TFP_TMP/exact.txt" <<'SQL'
CREATE TEMP TABLE ix AS SELECT q.i, b.id FROM qkeys q, LATERAL (SELECT id FROM bench WHERE simhash_dist(fp, q.fp) <= 3) b WHERE q.i <= 20;
SET enable_bitmapscan = off; SET enable_indexscan = off;
CREATE TEMP TABLE sq AS SELECT q.i, b.id FROM qkeys q, LATERAL (SELECT id FROM bench WHERE simhash_dist(fp, q.fp) <= 3) b WHERE q.i <= 20;
SELECT (SELECT count(*) FROM sq) || ' rows by seq scan, ' ||
       (SELECT count(*) FROM (SELECT * FROM sq EXCEPT SELECT * FROM ix) d) || ' missed, ' ||
       (SELECT count(*) FROM (SELECT * FROM ix EXCEPT SELECT * FROM sq) d) || ' extra';
SQL
        echo "|   exactness over 20 keys: $(cat "$TFP_TMP/exact.txt")" >>"$R"
        P -c "DROP INDEX $name"
        IFS=';'
    done
    IFS=$IFS_SAVE

    if [ -z "${HAMMING_SKIP_DIY:-}" ]; then
        tfp_log "DIY GIN array_ops"
        t=$(now); P -c 'CREATE INDEX bench_diy ON bench USING gin (diy_blocks(h))'; f=$(elapsed "$t")
        P -c 'ANALYZE bench'
        # without parallel workers: its row estimate (1/3 of the table)
        # otherwise gives it a Gather whose start-up dominates
        res=$(latency diy "$TFP_TMP/q_diy.sql" "-c max_parallel_workers_per_gather=0")
        printf '| DIY GIN array_ops | build %.1f s | %s MB | radius 3: p50 %s ms, p99 %s ms (%s queries) |\n' \
            "$f" "$(msize bench_diy)" $res >>"$R"
        P -c 'DROP INDEX bench_diy'
    fi

    local T
    for T in ${HAMMING_AM_TABLES:-4 2}; do
        [ -z "${HAMMING_SKIP_AM:-}" ] || break
        tfp_log "textfp hamming access method, tables = $T"
        t=$(now); P -c "CREATE INDEX bench_ham ON bench USING hamming (fp) WITH (tables = $T)"; f=$(elapsed "$t")
        P -c 'VACUUM ANALYZE bench'
        printf '| textfp hamming (tables = %s) | build %.1f s | %s MB |\n' "$T" "$f" "$(msize bench_ham)" >>"$R"
        res=$(latency ham "$TFP_TMP/q_dist.sql")
        printf '|   radius 3: p50 %s ms, p99 %s ms (%s queries)\n' $res >>"$R"
        res=$(latency hamk "$TFP_TMP/q_knn.sql")
        printf '|   KNN top-10, planted keys: p50 %s ms, p99 %s ms (%s queries)\n' $res >>"$R"
        res=$(latency hamkr "$TFP_TMP/q_knn_rand.sql")
        printf '|   KNN top-10, random keys: p50 %s ms, p99 %s ms (%s queries)\n' $res >>"$R"
        # exactness: radius-3 rows and top-10 distances equal to a sequential
        # scan's (and sort's), 20 planted and 20 random keys
        P -At -v ON_ERROR_STOP=1 >"$TFP_TMP/exact.txt" <<'SQL'
CREATE TEMP TABLE keys AS SELECT i, fp FROM qkeys WHERE i <= 20 UNION ALL SELECT 100 + i, fp FROM qrand WHERE i <= 20;
CREATE TEMP TABLE ix AS SELECT k.i, b.id FROM keys k, LATERAL (SELECT id FROM bench WHERE simhash_dist(fp, k.fp) <= 3) b;
CREATE TEMP TABLE ixk AS SELECT k.i, b.d, b.rn FROM keys k,
  LATERAL (SELECT fp <-> k.fp AS d, row_number() OVER () AS rn FROM (SELECT fp FROM bench ORDER BY fp <-> k.fp LIMIT 10) s) b;
SET enable_bitmapscan = off; SET enable_indexscan = off;
CREATE TEMP TABLE sq AS SELECT k.i, b.id FROM keys k, LATERAL (SELECT id FROM bench WHERE simhash_dist(fp, k.fp) <= 3) b;
CREATE TEMP TABLE sqk AS SELECT k.i, b.d, row_number() OVER (PARTITION BY k.i ORDER BY b.d) AS rn FROM keys k,
  LATERAL (SELECT fp <-> k.fp AS d FROM bench ORDER BY 1 LIMIT 10) b;
SELECT (SELECT count(*) FROM sq) || ' rows by seq scan, ' ||
       (SELECT count(*) FROM (SELECT * FROM sq EXCEPT SELECT * FROM ix) d) || ' missed, ' ||
       (SELECT count(*) FROM (SELECT * FROM ix EXCEPT SELECT * FROM sq) d) || ' extra; top-10 distances: ' ||
       (SELECT count(*) FROM (SELECT * FROM sqk EXCEPT SELECT * FROM ixk) d) || ' of ' ||
       (SELECT count(*) FROM sqk) || ' differ; 10th neighbour of random keys ' ||
       (SELECT min(d) || '-' || max(d) FROM sqk WHERE rn = 10 AND i > 100) || ' bits away';
SQL
        echo "|   exactness over 40 keys: $(cat "$TFP_TMP/exact.txt")" >>"$R"
        P -c 'DROP INDEX bench_ham'
    done

    if [ -z "${HAMMING_SKIP_KNN:-}" ]; then
        tfp_log "GiST KNN"
        t=$(now); P -c 'CREATE INDEX bench_gist ON bench USING gist (fp simhash64_gist_ops)'; f=$(elapsed "$t")
        res=$(latency knn "$TFP_TMP/q_knn.sql")
        printf '| textfp GiST | build %.1f s | %s MB | KNN top-10: p50 %s ms, p99 %s ms (%s queries) |\n' \
            "$f" "$(msize bench_gist)" $res >>"$R"
        P -c 'DROP INDEX bench_gist'
    fi
    {
        echo "## N = $N  ($(date -u +%F), $(nproc) cores shared with other jobs; $(psql -Atc 'SHOW server_version'))"
        cat "$R"
    } | tee "$OUT/hamming-$N.txt"
}

for N in "${@:-1000000}"; do run "$N"; done
