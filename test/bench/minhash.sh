#!/usr/bin/env bash
# MinHash speed: minhash(body, k) against md5(body) per ~2 KB document (side
# by side, same table, same run), rows/s for k = 64/128/256, and the latency
# of the LSH index (p50/p99 over random queries) at MINHASH_INDEX_ROWS
# signatures against a sequential scan computing minhash_jaccard.
#
# Usage: test/bench/minhash.sh
#   env: MINHASH_SPEED_ROWS (default 20000)  documents for the speed part
#        MINHASH_INDEX_ROWS (default 1000000) signatures in the indexed table (0: skip)
#        MINHASH_QUERIES    (default 500)     index queries (pgbench transactions)
#        MINHASH_SEQ_QUERIES (default 5)      sequential-scan queries
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
echo "== index: $INDEX_ROWS signatures (k = 128), minhash_lsh_ops defaults (rows = 3, bands = 42)"
tfp_psql -v rows="$INDEX_ROWS" <<'SQL'
\pset footer off
\timing on
CREATE TABLE sigs (id int, m minhash);
INSERT INTO sigs SELECT g, minhash(bench_doc(g), 128) FROM generate_series(1, :rows) g;
-- queries: 1000 near-duplicates of indexed rows (a paragraph replaced, a footer added)
CREATE TABLE q AS
SELECT i, minhash(regexp_replace(bench_doc(i * 997 % :rows + 1), E'^[^\n]*', (SELECT p FROM para WHERE id = i))
                  || E'\nReposted from example.com, all rights reserved.', 128) AS m
FROM generate_series(1, 1000) i;
CREATE INDEX sigs_lsh ON sigs USING gin (m);
\timing off
VACUUM ANALYZE sigs;
SELECT pg_size_pretty(pg_relation_size('sigs')) AS heap, pg_size_pretty(pg_relation_size('sigs_lsh')) AS index;
SET textfp.minhash_threshold = 0.5;
SELECT count(*) AS queries, avg(n) AS avg_rows_returned, min(n), max(n)
FROM (SELECT (SELECT count(*) FROM sigs WHERE sigs.m % q.m) AS n FROM q WHERE i <= 50) s;
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) SELECT id, minhash_jaccard(m, (SELECT m FROM q WHERE i = 7)) FROM sigs WHERE m % (SELECT m FROM q WHERE i = 7);
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
pct() { # log file -> p50 p99 (ms) of pgbench per-transaction latencies
    awk '{print $3}' "$1" | sort -n | awk '{a[NR]=$1} END {
        p50=a[int(NR*0.50+0.5)]; p99=a[int(NR*0.99+0.5)]; if (p99=="") p99=a[NR];
        printf "n=%d p50=%.2f ms p99=%.2f ms\n", NR, p50/1000, p99/1000 }'
}
cd "$TFP_TMP"
"$TFP_BINDIR/pgbench" -n -f idx.sql -t "$QUERIES" -c 1 -l --log-prefix=idx >/dev/null 2>&1
echo "index (textfp.minhash_threshold = 0.5, %): $(pct "$(ls idx.* | grep -v sql | head -1)")"
"$TFP_BINDIR/pgbench" -n -f seq.sql -t "$SEQ_QUERIES" -c 1 -l --log-prefix=seq >/dev/null 2>&1
echo "sequential scan (minhash_jaccard >= 0.5, parallel workers as configured): $(pct "$(ls seq.* | grep -v sql | head -1)")"
