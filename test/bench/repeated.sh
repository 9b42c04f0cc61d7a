#!/usr/bin/env bash
# Corpus-wide repeated spans: textfp_repeated_spans() and
# textfp_remove_repeated() over N documents of ~2 KB, on a throwaway cluster.
#
#   test/bench/repeated.sh [N ...]        (default: 100000)
#
# The documents come from tools/gen_passage_corpus.c (new Chinese and English
# text with the pools' local statistics: 2% near-copies of earlier documents,
# famous passages in 10 to 10,000 documents per million, boilerplate
# endings; half Chinese, half English), or, where that generator is missing,
# from tools/make_bench_docs.py (runs of real sentences, so far more
# repetition).  For each N: the load (not part of the figures), a read of
# every text for comparison (sum of lengths: the heap scan and detoasting),
# then each search once in a new session, timed by psql \timing, with the
# backend's peak resident memory (VmHWM of /proc/<pid>/status after the run
# minus its value before) and the rows per second of the whole search.  The
# phases of the first search are shown (textfp.progress).  shared_buffers
# is small so that VmHWM counts mostly the search's own memory.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(100000)
tfp_bench_cluster "shared_buffers = 128MB
work_mem = 64MB
maintenance_work_mem = 1GB" || exit 1

gen=
if [ -f "$TFP_ROOT/tools/gen_passage_corpus.c" ] &&
    gcc -O2 -o "$TFP_TMP/gen_passage_corpus" "$TFP_ROOT/tools/gen_passage_corpus.c" 2> "$TFP_TMP/gen.log"; then
    gen="$TFP_TMP/gen_passage_corpus corpus %N --seed 1"
    echo "== documents: tools/gen_passage_corpus.c"
else
    gen="python3 $TFP_ROOT/tools/make_bench_docs.py %N 2048"
    echo "== documents: tools/make_bench_docs.py (tools/gen_passage_corpus.c missing or not built)"
fi

# one timed run in a new session: prints "ms|hwm_before|hwm_after|result"
run() { # sql (a query returning one row)
    tfp_psql -d postgres -At <<SQL 2>&1 | awk '
        /^Time:/ { ms = $2; next }
        /^hwm\|/ { split($0, a, "|"); h[++k] = a[2]; next }
        /^NOTICE:/ { print "   " $0 > "/dev/stderr"; next }
        { out = out (out == "" ? "" : " ") $0 }
        END { printf "%s|%s|%s|%s\n", ms, h[1], h[2], out }'
SET client_min_messages = notice;
SELECT 'hwm', (regexp_match(pg_read_file('/proc/' || pg_backend_pid() || '/status'), 'VmHWM:\s+(\d+)'))[1];
$PRE
\timing on
$1;
\timing off
SELECT 'hwm', (regexp_match(pg_read_file('/proc/' || pg_backend_pid() || '/status'), 'VmHWM:\s+(\d+)'))[1];
SQL
}

# print a run: label, time, rows/s, peak memory, result
report() { # label N sql
    local r ms h1 h2 out
    r=$(run "$3")
    IFS='|' read -r ms h1 h2 out <<< "$r"
    awk -v l="$1" -v n="$2" -v ms="$ms" -v h1="$h1" -v h2="$h2" -v out="$out" 'BEGIN {
        printf "%-44s %9.1f s %9.0f rows/s %7.0f MB peak   %s\n", l, ms / 1000, n / (ms / 1000), (h2 - h1) / 1024, out }'
}

for N in "${SIZES[@]}"; do
    tfp_log "loading $N documents"
    cmd=${gen//%N/$N}
    t0=$SECONDS
    tfp_psql -d postgres <<SQL || exit 1
DROP TABLE IF EXISTS docs;
CREATE TABLE docs (id bigint PRIMARY KEY, lang text, body text);
\copy docs(id, lang, body) FROM PROGRAM '$cmd'
VACUUM ANALYZE docs;
SQL
    tfp_psql -d postgres -At -c "SELECT 'loaded ' || count(*) || ' documents, ' || pg_size_pretty(sum(octet_length(body))) || ' of text, table ' || pg_size_pretty(pg_total_relation_size('docs')) || ' in $((SECONDS - t0)) s' FROM docs"
    PRE= report "read every text (sum of lengths)" "$N" \
        "SELECT sum(length(body)) FROM docs"
    PRE="SET textfp.progress = on;" report "repeated_spans, min_units 50 (phases)" "$N" \
        "SELECT count(*) AS spans, sum(units) AS units, count(DISTINCT id) AS rows FROM textfp_repeated_spans('docs', min_units => 50)"
    PRE= report "repeated_spans, min_units 50" "$N" \
        "SELECT count(*) AS spans, sum(units) AS units, count(DISTINCT id) AS rows FROM textfp_repeated_spans('docs', min_units => 50)"
    PRE= report "remove_repeated, min_units 50" "$N" \
        "SELECT count(*) FILTER (WHERE removed_units > 0) AS rows_cut, sum(removed_units) AS units, sum(length(body)) AS chars_left FROM textfp_remove_repeated('docs', min_units => 50)"
    PRE= report "repeated_spans, min_units 20" "$N" \
        "SELECT count(*) AS spans, sum(units) AS units, count(DISTINCT id) AS rows FROM textfp_repeated_spans('docs', min_units => 20)"
    PRE= report "repeated_spans, min_units 200" "$N" \
        "SELECT count(*) AS spans, sum(units) AS units, count(DISTINCT id) AS rows FROM textfp_repeated_spans('docs', min_units => 200)"
    PRE= report "repeated_spans, min_units 50, reading" "$N" \
        "SELECT count(*) AS spans, sum(units) AS units, count(DISTINCT id) AS rows FROM textfp_repeated_spans('docs', min_units => 50, reading => true)"
done
