#!/usr/bin/env bash
# MinHash speed: minhash(body, k) against md5(body) per ~2 KB document (side
# by side, same table, same run), rows/s for k = 64/128/256, and the LSH
# index at MINHASH_INDEX_ROWS signatures: for each operator class and option
# set of MINHASH_INDEX_SETS, built one after the other on the same table,
# the build time, the index size against the heap's, the latency (p50/p99
# over random queries), the candidates rechecked per query and the recall
# against a sequential scan at textfp.minhash_threshold = 0.5; then the
# latency of a sequential scan computing minhash_jaccard.
#
# Usage: test/bench/minhash.sh
#   env: MINHASH_SPEED_ROWS (default 20000)  documents for the speed part
#        MINHASH_INDEX_ROWS (default 1000000) signatures in the indexed table (0: skip)
#        MINHASH_INDEX_SETS (default "minhash_lsh_ops") space-separated
#                           CLASS or CLASS:OPTIONS, e.g. "minhash_lsh_1_0_ops
#                           minhash_lsh_ops:key_bits=16 minhash_lsh_ops"
#        MINHASH_QUERIES    (default 500)     index queries per set (pgbench transactions)
#        MINHASH_RECALL_QUERIES (default 100) queries for candidates and recall
#        MINHASH_SEQ_QUERIES (default 5)      sequential-scan queries (0: skip)
#        TFP_DATA           directory with pool_en.txt and pool_zh.txt
# Documents are made of random real paragraphs (test/data/pool_*.txt) by
# bench_doc() in minhash_load.sql.  Needs only the harness's Debian packages.
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
DATA=${TFP_DATA:-$TFP_ROOT/test/data}
SPEED_ROWS=${MINHASH_SPEED_ROWS:-20000}
INDEX_ROWS=${MINHASH_INDEX_ROWS:-1000000}
QUERIES=${MINHASH_QUERIES:-500}
SEQ_QUERIES=${MINHASH_SEQ_QUERIES:-5}
SETS=${MINHASH_INDEX_SETS:-minhash_lsh_ops}
RECALL_QUERIES=${MINHASH_RECALL_QUERIES:-100}
for f in pool_en.txt pool_zh.txt; do
    [ -r "$DATA/$f" ] || { tfp_err "missing $DATA/$f (set TFP_DATA)"; exit 1; }
done
TFP_PG_CONF="${TFP_PG_CONF:-}
shared_buffers = 1GB
maintenance_work_mem = 512MB
work_mem = 64MB
max_wal_size = 8GB
checkpoint_timeout = 30min
synchronous_commit = off"
export TFP_PG_CONF
tfp_setup_cluster
cp "$DATA"/pool_en.txt "$DATA"/pool_zh.txt "$TFP_TMP/"
tfp_chown_pg "$TFP_TMP"/pool_*.txt
tfp_psql -c 'CREATE EXTENSION textfp'
tfp_psql -v datadir="$TFP_TMP" -f "$TFP_ROOT/test/bench/minhash_load.sql" >/dev/null
echo "== machine: $(nproc) cores (shared with other jobs), $(uname -m); PostgreSQL $(tfp_psql -Atc 'SHOW server_version')"

echo "== speed: $SPEED_ROWS documents of ~2 KB (best of 7 interleaved rounds; per-row times include the scan, octet_length(body); vs_md5_net excludes it)"
tfp_psql -v rows="$SPEED_ROWS" <<'SQL'
\pset footer off
-- uncompressed and in line (STORAGE PLAIN): no decompression is timed, and
-- octet_length(body), which reads only the length word, is the scan itself
CREATE TABLE docs (id int, body text);
ALTER TABLE docs ALTER body SET STORAGE PLAIN;
INSERT INTO docs SELECT g, bench_doc(g) FROM generate_series(1, :rows) g;
ALTER TABLE docs SET (parallel_workers = 0);
VACUUM ANALYZE docs;
SET max_parallel_workers_per_gather = 0;
SELECT count(*) AS docs, round(avg(octet_length(body))) AS avg_bytes,
       round(avg(cardinality(shingles(body)))) AS avg_shingles FROM docs;
-- interleaved rounds (each expression once per round, best round kept), so
-- that load from other jobs on a shared machine hits all expressions alike
CREATE TEMP TABLE timing (f text, ms float8);
DO $$
DECLARE r int; f text; t0 timestamptz;
BEGIN
	FOR r IN 0..7 LOOP
		FOREACH f IN ARRAY ARRAY['octet_length(body)', 'md5(body)', 'minhash(body, 64)', 'minhash(body, 128)',
		                         'minhash(body, 256)', 'minhash(body, 1024)', 'simhash(body)',
		                         'simhash(body, 5, 3)', 'shingles(body)'] LOOP
			t0 := clock_timestamp();
			EXECUTE format('SELECT count(%s) FROM docs', f);
			IF r > 0 THEN	-- round 0 warms up
				INSERT INTO timing VALUES (f, extract(epoch FROM clock_timestamp() - t0) * 1000);
			END IF;
		END LOOP;
	END LOOP;
END $$;
CREATE TEMP TABLE speed AS
SELECT f, min(ms) AS ms, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS median_ms FROM timing GROUP BY f;
SELECT f AS expression, round(ms::numeric, 1) AS total_ms,
       round((ms * 1000 / (SELECT count(*) FROM docs))::numeric, 2) AS us_per_row,
       round(((SELECT count(*) FROM docs) / (ms / 1000))::numeric) AS rows_per_s,
       round((ms / (SELECT ms FROM speed WHERE f = 'md5(body)'))::numeric, 2) AS vs_md5,
       round(((ms - (SELECT ms FROM speed WHERE f = 'octet_length(body)')) /
              (SELECT s1.ms - s2.ms FROM speed s1, speed s2
               WHERE s1.f = 'md5(body)' AND s2.f = 'octet_length(body)'))::numeric, 2) AS vs_md5_net,
       round((median_ms * 1000 / (SELECT count(*) FROM docs))::numeric, 2) AS median_us_per_row
FROM speed ORDER BY ms;
SQL

[ "$INDEX_ROWS" -gt 0 ] || exit 0
echo "== index: $INDEX_ROWS signatures (k = 128); sets: $SETS"
tfp_psql -v rows="$INDEX_ROWS" -v nrecall="$RECALL_QUERIES" <<'SQL'
\pset footer off
\timing on
CREATE TABLE sigs (id int, m minhash);
INSERT INTO sigs SELECT g, minhash(bench_doc(g), 128) FROM generate_series(1, :rows) g;
-- queries: 1000 near-duplicates of indexed rows (a paragraph replaced, a footer added)
CREATE TABLE q AS
SELECT i, minhash(regexp_replace(bench_doc(i * 997 % :rows + 1), E'^[^\n]*', (SELECT p FROM para WHERE id = i))
                  || E'\nReposted from example.com, all rights reserved.', 128) AS m
FROM generate_series(1, 1000) i;
-- graded queries for the recall: indexed documents with 15%..54% of their
-- paragraphs replaced, so that their similarity to the source spans the
-- threshold 0.5 (about 0.3 to 0.75)
CREATE TABLE qg AS
SELECT i, minhash((SELECT string_agg(CASE WHEN abs(hashint8(i::int8 * 100 + n)) % 100 < 15 + i % 40
                                          THEN (SELECT p FROM para WHERE id = 1 + abs(hashint8(i::int8 * 7 + n)) % (SELECT max(id) FROM para))
                                          ELSE x END, E'\n' ORDER BY n)
                   FROM regexp_split_to_table(bench_doc(i * 7919 % :rows + 1), E'\n') WITH ORDINALITY AS t(x, n)), 128) AS m
FROM generate_series(1, :nrecall) i;
VACUUM ANALYZE sigs;
-- the answers of a sequential scan at 0.5 for the first nrecall queries of
-- each set
CREATE TABLE truth AS
SELECT 'q' AS qset, q.i, s.id, minhash_jaccard(s.m, q.m) AS j
FROM q JOIN sigs s ON minhash_jaccard(s.m, q.m) >= 0.5 WHERE q.i <= :nrecall
UNION ALL
SELECT 'qg', qg.i, s.id, minhash_jaccard(s.m, qg.m) FROM qg JOIN sigs s ON minhash_jaccard(s.m, qg.m) >= 0.5;
\timing off
SELECT pg_size_pretty(pg_relation_size('sigs')) AS heap, qset, count(*) AS truth_pairs,
       count(DISTINCT i) AS queries_with_answers, round(min(j)::numeric, 3) AS min_j,
       count(*) FILTER (WHERE j < 0.6) AS pairs_below_0_6
FROM truth GROUP BY qset ORDER BY qset;
CREATE TABLE result (set text, build_s numeric, index_mb numeric, index_vs_heap numeric,
                     p50_ms numeric, p99_ms numeric, candidates numeric, recall numeric,
                     graded_candidates numeric, graded_recall numeric);
-- candidates rechecked (Bitmap Heap Scan) and share of the sequential scan's
-- rows found by the index for the first nq queries of table qset, at 0.5
CREATE FUNCTION index_check(qset text, nq int, OUT candidates numeric, OUT recall numeric)
LANGUAGE plpgsql AS $$
DECLARE
	j jsonb;
	n bigint := 0;
	found bigint := 0;
	f bigint;
	qi int;
BEGIN
	PERFORM set_config('textfp.minhash_threshold', '0.5', true);
	PERFORM set_config('enable_seqscan', 'off', true);
	FOR qi IN 1..nq LOOP
		EXECUTE format('EXPLAIN (ANALYZE, FORMAT JSON) SELECT id FROM sigs WHERE m %% (SELECT m FROM %I WHERE i = $1)', qset)
			INTO j USING qi;
		IF NOT jsonb_path_exists(j, '$.** ? (@."Node Type" == "Bitmap Heap Scan")') THEN
			RAISE EXCEPTION 'the index is not used: %', j;
		END IF;
		n := n + (SELECT sum(coalesce((x ->> 'Actual Rows')::bigint, 0)
		                     + coalesce((x ->> 'Rows Removed by Index Recheck')::bigint, 0))
		          FROM jsonb_path_query(j, '$.** ? (@."Node Type" == "Bitmap Heap Scan")') x);
		EXECUTE format('SELECT count(*) FROM sigs s JOIN truth t ON t.id = s.id AND t.i = $1 AND t.qset = %L
		                WHERE s.m %% (SELECT m FROM %I WHERE i = $1)', qset, qset)
			INTO f USING qi;
		found := found + f;
	END LOOP;
	candidates := round(n::numeric / nq, 1);
	recall := round(found::numeric / greatest((SELECT count(*) FROM truth t WHERE t.i <= nq AND t.qset = index_check.qset), 1), 4);
END $$;
SQL
cat > "$TFP_TMP/idx.sql" <<'SQL'
\set i random(1, 1000)
SET textfp.minhash_threshold = 0.5;
SELECT id, minhash_jaccard(m, (SELECT m FROM q WHERE i = :i)) FROM sigs WHERE m % (SELECT m FROM q WHERE i = :i);
SQL
cat > "$TFP_TMP/seq.sql" <<'SQL'
\set i random(1, 1000)
SELECT id, minhash_jaccard(m, (SELECT m FROM q WHERE i = :i)) FROM sigs WHERE minhash_jaccard(m, (SELECT m FROM q WHERE i = :i)) >= 0.5;
SQL
tfp_chown_pg "$TFP_TMP"/idx.sql "$TFP_TMP"/seq.sql
pct() { # log file -> "p50 p99" (ms) of pgbench per-transaction latencies
    awk '{print $3}' "$1" | sort -n | awk '{a[NR]=$1} END {
        p50=a[int(NR*0.50+0.5)]; p99=a[int(NR*0.99+0.5)]; if (p99=="") p99=a[NR];
        printf "%.2f %.2f\n", p50/1000, p99/1000 }'
}
cd "$TFP_TMP"
for set in $SETS; do
    class=${set%%:*} opts=''
    [ "$class" != "$set" ] && opts="(${set#*:})"
    tfp_psql -c 'DROP INDEX IF EXISTS sigs_lsh' -c CHECKPOINT
    t0=$(date +%s.%N)
    tfp_psql -c "CREATE INDEX sigs_lsh ON sigs USING gin (m $class $opts)"
    t1=$(date +%s.%N)
    rm -f idx.*[0-9]*
    "$TFP_BINDIR/pgbench" -n -f idx.sql -t "$QUERIES" -c 1 -l --log-prefix=idx >/dev/null 2>&1
    read -r p50 p99 < <(pct "$(ls idx.* | grep -v sql | head -1)")
    tfp_psql -v set="$set" -v build="$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')" -v p50="$p50" -v p99="$p99" \
        -v nrecall="$RECALL_QUERIES" <<'SQL'
\pset footer off
INSERT INTO result
SELECT :'set', round(:build, 1), round(pg_relation_size('sigs_lsh') / 1048576.0, 1),
       round(pg_relation_size('sigs_lsh')::numeric / pg_relation_size('sigs'), 3),
       :p50, :p99, c.candidates, c.recall, g.candidates, g.recall
FROM index_check('q', :nrecall) c, index_check('qg', :nrecall) g
RETURNING *;
SQL
done
echo "== LSH index sets at $INDEX_ROWS signatures, textfp.minhash_threshold = 0.5 (build: CREATE INDEX wall seconds; candidates: rows rechecked per query; recall: share of a sequential scan's rows found, $RECALL_QUERIES near-duplicate queries and $RECALL_QUERIES graded ones; p50/p99: $QUERIES near-duplicate queries)"
tfp_psql -c '\pset footer off' -c 'SELECT * FROM result'
[ "$SEQ_QUERIES" -gt 0 ] || exit 0
"$TFP_BINDIR/pgbench" -n -f seq.sql -t "$SEQ_QUERIES" -c 1 -l --log-prefix=seq >/dev/null 2>&1
read -r p50 p99 < <(pct "$(ls seq.* | grep -v sql | head -1)")
echo "sequential scan (minhash_jaccard >= 0.5, parallel workers as configured): n=$SEQ_QUERIES p50=$p50 ms p99=$p99 ms"
