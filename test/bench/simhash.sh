#!/usr/bin/env bash
# Fingerprint throughput: simhash(body) side by side with md5(body) on the
# same rows, in one run, on a throwaway cluster.
#
#   test/bench/simhash.sh [N] [SIZE]      (default 100000 documents of 2048 bytes)
#
# The documents are real text (tools/make_bench_docs.py: half Chinese, half
# English, runs of consecutive sentences from test/data/pool_*.txt), stored
# with STORAGE PLAIN so no decompression is timed.  Each function is timed
# three times over the whole table with parallel query off; the per-row cost
# of a function is its time minus the time of the same scan with octet_length(body)
# (which reads only the length word).
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

N=${1:-100000}
SIZE=${2:-2048}
TFP_PG_CONF="shared_buffers = 1GB
max_parallel_workers_per_gather = 0
jit = off" tfp_setup_cluster || exit 1

tfp_log "loading $N documents of ~$SIZE bytes"
tfp_psql -d postgres <<SQL || exit 1
CREATE EXTENSION textfp;
CREATE TABLE docs (id int, lang text, body text);
ALTER TABLE docs ALTER COLUMN body SET STORAGE PLAIN;
\copy docs FROM PROGRAM 'python3 "$TFP_ROOT/tools/make_bench_docs.py" $N $SIZE'
VACUUM ANALYZE docs;
SQL

tfp_log "timing (3 rounds; ms for the whole table)"
out=$(tfp_psql -d postgres -At <<'SQL'
\timing on
SELECT count(*), sum(octet_length(body)) FROM docs;
SELECT 'warm', count(octet_length(body)) FROM docs;
SELECT 'scan', count(octet_length(body)) FROM docs;
SELECT 'md5', count(md5(body)) FROM docs;
SELECT 'simhash', count(simhash(body)) FROM docs;
SELECT 'scan', count(octet_length(body)) FROM docs;
SELECT 'md5', count(md5(body)) FROM docs;
SELECT 'simhash', count(simhash(body)) FROM docs;
SELECT 'scan', count(octet_length(body)) FROM docs;
SELECT 'md5', count(md5(body)) FROM docs;
SELECT 'simhash', count(simhash(body)) FROM docs;
SELECT 'simhash_zh', count(simhash(body)) FROM docs WHERE lang = 'zh';
SELECT 'md5_zh', count(md5(body)) FROM docs WHERE lang = 'zh';
SELECT 'simhash_en', count(simhash(body)) FROM docs WHERE lang = 'en';
SELECT 'md5_en', count(md5(body)) FROM docs WHERE lang = 'en';
SQL
) || exit 1
echo "$out" | awk -F'|' -v n="$N" '
    NR == 1 { rows = $1; bytes = $2; next }
    /^Time:/ { split($0, a, " "); t = a[2]; if (last != "") { sum[last] += t; cnt[last]++; if (!(last in best) || t < best[last]) best[last] = t } ; last = ""; next }
    { last = $1 }
    END {
        mb = bytes / 1048576
        printf "rows %d, %.1f MB, %.0f bytes/row\n", rows, mb, bytes / rows
        base = best["scan"]
        printf "%-10s %10s %12s %10s %14s\n", "function", "best ms", "rows/s", "MB/s", "us/row (net)"
        split("scan md5 simhash", fs, " ")
        for (i = 1; i <= 3; i++) { f = fs[i]
            printf "%-10s %10.1f %12.0f %10.1f %14.2f\n", f, best[f], rows / best[f] * 1000, mb / best[f] * 1000, (best[f] - base) * 1000 / rows }
        printf "simhash/md5 net cost ratio: %.2f\n", (best["simhash"] - base) / (best["md5"] - base)
        printf "by language (ms, one round): zh simhash %.1f md5 %.1f; en simhash %.1f md5 %.1f\n", best["simhash_zh"], best["md5_zh"], best["simhash_en"], best["md5_en"]
    }'
