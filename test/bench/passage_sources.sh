#!/usr/bin/env bash
# Passage retrieval benchmark: the passage fingerprint against md5, the
# "passage" index (build, size) against a GIN over the seed hashes, and
# textfp_sources() (latency, where its time goes, quality on synthetic
# queries whose true sources are known), on a throwaway cluster.
#
#   test/bench/passage_sources.sh [N [Q]]   (default: 1000000 documents, 1000 queries)
#
# Data: tools/gen_passage_corpus.c (seed 1): N documents of ~2 KB, odd ids
# Chinese, even ids English, with ~2% near-copies, 20 famous passages and
# ~5% boilerplate endings, loaded by \copy FROM PROGRAM into
# docs (id bigint primary key, lang text, body text) with the default
# storage (so about half the rows, those over ~2 KB, are TOASTed out of
# line, uncompressed: this is measured as it is); Q query texts of ~3 KB
# (gen queries Q --corpus-n N) into queries (qid, lang, body, sources int8[]),
# 20% without a passage, the others 1-3 passages of 40-400 units from
# random originals, 60% of them edited.
#
#  1. load: time (generator and COPY together), sizes.
#  2. passage_fp against md5 over the whole table, one backend, no parallel
#     workers: sum(passage_fp_count(passage_fp(body))) vs count(md5(body)),
#     interleaved, RUNS rounds, median; all rows, zh rows, en rows.  Again on
#     an in-line copy (STORAGE PLAIN: no TOAST fetch), with the scan
#     (sum(octet_length(body))) subtracted ("net").
#  3. CREATE INDEX docs_p ON docs USING passage (body): time, size,
#     passage_index_stats.  GIN over passage_fp_hashes(passage_fp(body))
#     int8_set_ops: on docs if N <= PASSAGE_GIN_ROWS, else on the first
#     PASSAGE_GIN_ROWS ids (a passage index is built on the same sample for
#     comparison) and extrapolated linearly to N.
#  4. textfp_sources(body, 'docs') for every query, timed inside the backend
#     (clock_timestamp() around the statement in a PL/pgSQL loop, qid order,
#     test/bench/passage_sources.sql): pass 1 warms the caches and is not
#     counted, pass 2 is measured (same session); then passes with
#     max_candidates 1, 10, 30.  A pgbench run (random qids, one client,
#     -M prepared) cross-checks the latency from the client.
#     Quality: true sources found; the reported sources that are not true
#     ones, classified (a near-copy of a true source, a passage that other
#     documents share, or neither) with their passage lengths; the seeds
#     that true sources and the others share with their query; the rows
#     that share 1, 2, 3+ seeds with a query (the candidates).
#  5. where the time goes: perf record (DWARF call graphs) of the backend
#     during a pass over the first PASSAGE_PERF_QUERIES queries; each
#     sample counted in the outermost part of textfp_sources() its stack is
#     in (look-up, candidates, windows of weak candidates, TOAST, heap,
#     alignment, ...), with the alignments' own parts.  EXPLAIN (ANALYZE,
#     BUFFERS) of a median, the slowest and a no-source query (rerun).
#  6. a summary of every figure, with the machine's load at each step.
#
# Env: PASSAGE_RUNS (3) rounds of the speed comparison; PASSAGE_PLAIN=0
#      skips the in-line copy; PASSAGE_GIN_ROWS (200000; 0 skips the GIN);
#      PASSAGE_MC ("1 10 30") further max_candidates passes;
#      PASSAGE_PGBENCH_SECONDS (20; 0 skips); PASSAGE_PERF=0 skips perf;
#      PASSAGE_PERF_QUERIES (300); PASSAGE_CAND_SAMPLE (100 up to N = 200000,
#      else 30) queries whose candidate rows are counted; PASSAGE_CODE names
#      the code measured when the tree is no git checkout (a git archive).
# Output: the figures on stdout; the summary also in
# test/bench/out/passage_sources-N.txt.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

N=${1:-1000000}
Q=${2:-1000}
RUNS=${PASSAGE_RUNS:-3}
PLAIN=${PASSAGE_PLAIN:-1}
GIN_ROWS=${PASSAGE_GIN_ROWS:-200000}
MCS=${PASSAGE_MC-1 10 30}
PGB_SECS=${PASSAGE_PGBENCH_SECONDS:-20}
PERF=${PASSAGE_PERF:-1}
PERF_Q=${PASSAGE_PERF_QUERIES:-300}
# (each row sharing a seed is rechecked: ~30,000 rows a query at 1M)
CAND_SAMPLE=${PASSAGE_CAND_SAMPLE:-$(( ${1:-1000000} <= 200000 ? 100 : 30 ))}
CMDLINE="test/bench/passage_sources.sh $*"

tfp_bench_cluster "shared_buffers = 4GB
work_mem = 64MB
maintenance_work_mem = 1GB" || exit 1

P() { tfp_psql -d postgres "$@"; }
Pv() { tfp_psql -d postgres -At "$@"; }
OUT=$TFP_ROOT/test/bench/out
mkdir -p "$OUT"
SUM=$TFP_TMP/summary.txt
: >"$SUM"
LOADS=$TFP_TMP/loads.txt
: >"$LOADS"
sum() { printf '%s\n' "$*" >>"$SUM"; }
load() { # step: note the machine's load
    local l
    l=$(cut -d' ' -f1-3 /proc/loadavg)
    printf '%-34s %s\n' "$1" "$l" >>"$LOADS"
    echo "   (load average: $l)"
}
median() { sort -g | awk '{ a[NR] = $1 } END { if (NR) print (NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2) }'; }
# one statement in a new session, after a call of each function on a short
# text (the library and its tables are loaded untimed): its ms
ms() { tfp_timed last "SELECT passage_fp_count(passage_fp('warm up 热身')), md5('warm up');
$1" | cut -d'|' -f1; }

# perf script -F ip,sym (stacks leaf first, a blank line between samples) ->
# a table of the parts of textfp_sources(), and of the alignments in them
PHASES_AWK=$(cat <<'AWK'
# perf script -F ip,sym output (stacks leaf first, blank line between samples)
function flush(   i, j, top, ph, sb, f) {
    if (n == 0) return
    total++
    top = 0
    for (i = n; i >= 1; i--) if (fr[i] == "textfp_sources") { top = i; break }
    if (!top) { outside++; n = 0; return }
    inside++
    ph = ""; sb = ""
    for (i = 1; i < top; i++) if (fr[i] ~ /^(detoast_attr|heap_fetch_toast_slice|toast_fetch_datum)$/) { ph = "TOAST fetch (detoast_attr)"; break }
    for (i = top - 1; i >= 1 && ph == ""; i--) {
        f = fr[i]
        if (f == "src_query_prepare") ph = "the query's units and seeds (src_query_prepare)"
        else if (f ~ /^(corpus_leaves|corpus_opts|passage_index_of)$/) ph = "opening the corpus and its index"
        else if (f ~ /^(src_hits_index|pas_lookup)$/) ph = "index look-up (pas_lookup)"
        else if (f == "src_candidates") ph = "grouping and ranking the candidates (src_candidates)"
        else if (f ~ /^(table_index_fetch_tuple|heapam_index_fetch_tuple|heap_hot_search_buffer|table_slot_create|table_index_fetch_begin)$/) ph = "heap fetch of the candidates"
        else if (f ~ /^slot_/) ph = "heap fetch of the candidates"
        else if (f == "textfp_align_text") ph = "the candidate's text (textfp_align_text)"
        else if (f == "window_confirms") ph = "weak candidates: windows (window_confirms)"
        else if (f == "tfp_align") ph = "full alignment (tfp_align)"
        else if (f == "textfp_align_map_chars") ph = "passages: characters (textfp_align_map_chars)"
        else if (f == "tfp_src_frequency") ph = "passages: frequency (tfp_src_frequency)"
        else if (f ~ /^(tuplestore_|textfp_srf_materialize)/) ph = "output rows"
        if (ph != "") {
            for (j = i - 1; j >= 1; j--)
                if (fr[j] ~ /^(read_units|make_seeds|make_anchors|chain|tfp_align_choose|tfp_align_char_offsets|clamp_side|release_all|tfp_passage_units|tfp_src_window|tfp_align)$/ && fr[j] != fr[i]) {
                    sb = fr[j]; if (sb == "tfp_align") { for (j = j - 1; j >= 1; j--) if (fr[j] ~ /^(read_units|make_seeds|make_anchors|chain|tfp_align_choose|tfp_align_char_offsets)$/) { sb = "tfp_align > " fr[j]; break } }
                    break
                }
        }
    }
    if (ph == "") ph = "textfp_sources, other"
    cnt[ph]++
    if (sb != "") scnt[ph SUBSEP sb]++
    n = 0
}
/^[^ \t]/ { flush(); next }
/^[ \t]*$/ { flush(); next }
{
    s = $0; sub(/^[ \t]*[0-9a-f]+ /, "", s); sub(/ \(inlined\)$/, "", s); sub(/\+0x[0-9a-f]+$/, "", s)
    fr[++n] = s
}
END {
    flush()
    if (!inside) { print "(no samples inside textfp_sources)"; exit }
    printf "| all samples of the backend | %d | | |\n", total
    printf "| outside textfp_sources (PL/pgSQL loop, executor, INSERT of the results) | %d | %.1f%% of all | |\n", outside, 100 * outside / total
    printf "| **textfp_sources** | %d | 100%% | %.2f ms |\n", inside, mean
    for (p in cnt) order[p] = cnt[p]
    m = 0
    for (p in cnt) keys[++m] = p
    for (i = 1; i <= m; i++) for (j = i + 1; j <= m; j++) if (cnt[keys[j]] > cnt[keys[i]]) { t = keys[i]; keys[i] = keys[j]; keys[j] = t }
    for (i = 1; i <= m; i++) {
        p = keys[i]
        printf "| %s | %d | %.1f%% | %.2f ms |\n", p, cnt[p], 100 * cnt[p] / inside, mean * cnt[p] / inside
        ns = 0
        for (k in scnt) { split(k, a, SUBSEP); if (a[1] == p) sk[++ns] = k }
        for (x = 1; x <= ns; x++) for (y = x + 1; y <= ns; y++) if (scnt[sk[y]] > scnt[sk[x]]) { t = sk[x]; sk[x] = sk[y]; sk[y] = t }
        for (x = 1; x <= ns; x++) { split(sk[x], a, SUBSEP); printf "|     %s | %d | %.1f%% | %.2f ms |\n", a[2], scnt[sk[x]], 100 * scnt[sk[x]] / inside, mean * scnt[sk[x]] / inside }
    }
}
AWK
)

GEN=$TFP_TMP/gen
gcc -O2 -o "$GEN" "$TFP_ROOT/tools/gen_passage_corpus.c" 2>"$TFP_TMP/gen.log" ||
    { cat "$TFP_TMP/gen.log"; tfp_err "cannot build tools/gen_passage_corpus.c"; exit 1; }
chmod 755 "$GEN"
# the code measured: the commit, and the files of src/ changed since (others edit the tree)
# (PASSAGE_CODE: a description of the code, for a copy that is no git checkout)
if TREE="commit $(git -C "$TFP_ROOT" rev-parse --short HEAD 2>/dev/null)"; then
    CHANGED=$(git -C "$TFP_ROOT" --no-optional-locks status --short -- src 2>/dev/null | awk '{ print $2 }' | tr '\n' ' ')
    [ -n "$CHANGED" ] && TREE+=" with uncommitted changes to $CHANGED"
else
    TREE=${PASSAGE_CODE:-"$TFP_ROOT (not a git checkout)"}
fi
echo "== N = $N documents, Q = $Q queries; $(nproc) cores, $(free -g | awk '/^Mem:/ { print $2 }') GB; code: $TREE"
load "start"

# ------------------------------------------------------------------ 1. load
tfp_log "1. loading $N documents (gen corpus $N --seed 1)"
load "load"
P -c 'CREATE TABLE docs (id bigint PRIMARY KEY, lang text, body text)' || exit 1
t0=$(date +%s.%N)
P -c "\\copy docs(id, lang, body) FROM PROGRAM '$GEN corpus $N --seed 1'" 2>"$TFP_TMP/gen_corpus.log" ||
    { cat "$TFP_TMP/gen_corpus.log"; exit 1; }
LOAD_S=$(echo "$(date +%s.%N) - $t0" | bc)
grep -E '^corpus' "$TFP_TMP/gen_corpus.log" | sed 's/^/   /'
t0=$(date +%s.%N)
P -c 'VACUUM ANALYZE docs' || exit 1
VAC_S=$(echo "$(date +%s.%N) - $t0" | bc)
IFS='|' read -r ROWS TEXT_B TEXT_ZH TEXT_EN HEAP_B TOAST_B PKEY_B <<<"$(Pv -c "
SELECT count(*), sum(octet_length(body)), sum(octet_length(body)) FILTER (WHERE lang = 'zh'),
       sum(octet_length(body)) FILTER (WHERE lang = 'en'),
       pg_relation_size('docs'), pg_table_size('docs') - pg_relation_size('docs')
         - pg_relation_size('docs', 'fsm') - pg_relation_size('docs', 'vm'),
       pg_relation_size('docs_pkey')
  FROM docs")"
# rows stored out of line: the TOAST table's chunks say it exactly
EXTERNAL=$(Pv -c "SELECT count(DISTINCT chunk_id) FROM pg_toast.pg_toast_$(Pv -c "SELECT 'docs'::regclass::oid")")
mb() { awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'; }
printf '   loaded %s rows in %.1f s (generator and COPY together; VACUUM ANALYZE %.1f s)\n' "$ROWS" "$LOAD_S" "$VAC_S"
printf '   text %s MB (zh %s, en %s; %.0f bytes a row); heap %s MB, TOAST %s MB (%s rows out of line), primary key %s MB\n' \
    "$(mb "$TEXT_B")" "$(mb "$TEXT_ZH")" "$(mb "$TEXT_EN")" "$(echo "$TEXT_B / $ROWS" | bc -l)" \
    "$(mb "$HEAP_B")" "$(mb "$TOAST_B")" "$EXTERNAL" "$(mb "$PKEY_B")"

# ------------------------------------------------------------------ 2. speed
tfp_log "2. passage_fp against md5 ($RUNS rounds, interleaved, median)"
load "speed"
SPEED=$TFP_TMP/speed.txt
: >"$SPEED"
speed() { # table label where bytes
    local tab=$1 label=$2 where=$3 bytes=$4 q f m_scan m_md5 m_fp
    for _ in $(seq "$RUNS"); do
        for f in scan md5 fp; do
            case $f in
                scan) q="SELECT sum(octet_length(body)) FROM $tab $where" ;;
                md5) q="SELECT count(md5(body)) FROM $tab $where" ;;
                fp) q="SELECT sum(passage_fp_count(passage_fp(body))) FROM $tab $where" ;;
            esac
            ms "$q" >>"$TFP_TMP/sp-$tab-$label-$f"
        done
    done
    m_scan=$(median <"$TFP_TMP/sp-$tab-$label-scan")
    m_md5=$(median <"$TFP_TMP/sp-$tab-$label-md5")
    m_fp=$(median <"$TFP_TMP/sp-$tab-$label-fp")
    awk -v t="$tab" -v l="$label" -v s="$m_scan" -v m="$m_md5" -v f="$m_fp" -v b="$bytes" 'BEGIN {
        mbs = b / 1e6
        printf "| %s, %s | %.0f | %.0f | %.0f | %.0f | %.0f | %.2f | %.2f |\n", t, l, s, m, f,
            mbs / (m / 1000), mbs / (f / 1000), m / f, (m - s) / (f - s) }' | tee -a "$SPEED"
}
echo "| table, rows | scan ms | md5 ms | passage_fp ms | md5 MB/s | passage_fp MB/s | speed × md5 | × md5, net of the scan |"
echo "| --- | --- | --- | --- | --- | --- | --- | --- |"
speed docs all "" "$TEXT_B"
speed docs zh "WHERE lang = 'zh'" "$TEXT_ZH"
speed docs en "WHERE lang = 'en'" "$TEXT_EN"
if [ "$PLAIN" = 1 ]; then
    P -q <<'SQL' || exit 1
CREATE TABLE docs_plain (id bigint, lang text, body text);
ALTER TABLE docs_plain ALTER body SET STORAGE PLAIN;
INSERT INTO docs_plain SELECT * FROM docs;
VACUUM ANALYZE docs_plain;
SQL
    speed docs_plain all "" "$TEXT_B"
    speed docs_plain zh "WHERE lang = 'zh'" "$TEXT_ZH"
    speed docs_plain en "WHERE lang = 'en'" "$TEXT_EN"
    P -c 'DROP TABLE docs_plain'
fi
echo "   (speed × md5 = md5's time / passage_fp's time, target >= 0.5; net: both minus the scan, which"
echo "    reads the heap but not the TOASTed values; seeds $(Pv -c "SELECT sum(passage_fp_count(passage_fp(body))) FROM docs"))"

# ------------------------------------------------------------------ 3. index
tfp_log "3. CREATE INDEX docs_p ON docs USING passage (body)"
load "passage index build"
IDX_MS=$(ms 'CREATE INDEX docs_p ON docs USING passage (body)')
IDX_B=$(Pv -c "SELECT pg_relation_size('docs_p')")
P -c 'ANALYZE docs'
P -x -c "SELECT * FROM passage_index_stats('docs_p')"
ENTRIES=$(Pv -c "SELECT sorted_entries + pending_entries FROM passage_index_stats('docs_p')")
printf '   build %.1f s; %s MB = %.3f × the text (%.2f bytes an entry, %s entries)\n' \
    "$(echo "$IDX_MS / 1000" | bc -l)" "$(mb "$IDX_B")" "$(echo "$IDX_B / $TEXT_B" | bc -l)" \
    "$(echo "$IDX_B / $ENTRIES" | bc -l)" "$ENTRIES"

GIN_LINE="(skipped)"
if [ "$GIN_ROWS" -gt 0 ]; then
    load "GIN build"
    if [ "$N" -le "$GIN_ROWS" ]; then
        G=$N
        GTAB=docs
        tfp_log "   GIN over passage_fp_hashes on docs ($N rows)"
    else
        G=$GIN_ROWS
        GTAB=docs_sample
        tfp_log "   GIN over passage_fp_hashes on the first $G ids (extrapolated to N = $N)"
        P -q -c "CREATE TABLE docs_sample AS SELECT * FROM docs WHERE id <= $G" -c 'VACUUM ANALYZE docs_sample' || exit 1
        SP_MS=$(ms 'CREATE INDEX docs_sample_p ON docs_sample USING passage (body)')
        SP_B=$(Pv -c "SELECT pg_relation_size('docs_sample_p')")
        printf '   passage index on the sample: %.1f s, %s MB\n' "$(echo "$SP_MS / 1000" | bc -l)" "$(mb "$SP_B")"
    fi
    GIN_MS=$(ms "CREATE INDEX docs_g ON $GTAB USING gin (passage_fp_hashes(passage_fp(body)) int8_set_ops)")
    GIN_B=$(Pv -c "SELECT pg_relation_size('docs_g')")
    printf '   GIN on %s rows: %.1f s, %s MB\n' "$G" "$(echo "$GIN_MS / 1000" | bc -l)" "$(mb "$GIN_B")"
    if [ "$G" != "$N" ]; then
        GIN_LINE=$(awk -v g="$G" -v n="$N" -v t="$GIN_MS" -v b="$GIN_B" -v st="$SP_MS" -v sb="$SP_B" -v it="$IDX_MS" -v ib="$IDX_B" -v tb="$TEXT_B" 'BEGIN {
            f = n / g
            printf "| GIN over passage_fp_hashes (int8_set_ops), first %d ids, measured | build %.1f s, %.1f MB = %.3f × their text; the passage index on the same rows: %.1f s, %.1f MB | |\n", g, t / 1000, b / 1048576, b / (tb * g / n), st / 1000, sb / 1048576
            printf "| GIN, extrapolated linearly to %d rows | build ~%.0f s, ~%.0f MB = ~%.2f × the text (for the passage index, %d rows took %.2f × the sample time and %.2f × its size, for %.0f × the rows) | |\n", n, t * f / 1000, b * f / 1048576, b * f / tb, n, it / st, ib / sb, f }')
        P -q -c 'DROP TABLE docs_sample'
    else
        GIN_LINE=$(awk -v t="$GIN_MS" -v b="$GIN_B" -v tb="$TEXT_B" -v n="$N" 'BEGIN {
            printf "| GIN over passage_fp_hashes (int8_set_ops), %d rows | build %.1f s, %.1f MB = %.3f × the text | |\n", n, t / 1000, b / 1048576, b / tb }')
        P -q -c 'DROP INDEX docs_g'
    fi
    echo "$GIN_LINE"
fi

# ------------------------------------------------------------------ 4. queries
tfp_log "4. $Q queries (gen queries $Q --corpus-n $N --seed 1)"
load "queries"
P -q <<SQL 2>"$TFP_TMP/gen_queries.log" || { cat "$TFP_TMP/gen_queries.log"; exit 1; }
CREATE TABLE queries (qid int PRIMARY KEY, lang text, body text, sources int8[]);
\\copy queries FROM PROGRAM '$GEN queries $Q --corpus-n $N --seed 1'
ANALYZE queries;
SQL
grep -E '^queries' "$TFP_TMP/gen_queries.log" | sed 's/^/   /'
P -q -f "$TFP_ROOT/test/bench/passage_sources.sql" || exit 1
P -c "SELECT lang, count(*) AS queries, round(avg(octet_length(body))) AS bytes,
        round(avg(passage_fp_units(passage_fp(body)))) AS units, round(avg(passage_fp_count(passage_fp(body)))) AS seeds,
        sum(cardinality(sources)) AS true_sources, count(*) FILTER (WHERE cardinality(sources) = 0) AS without
      FROM queries GROUP BY ROLLUP (lang) ORDER BY lang"

tfp_log "   pass 1 (warm-up, not counted), pass 2 (measured), then max_candidates $MCS; one session"
load "query passes"
{
    echo "SELECT 'pass 1 (warm-up): ' || round(run_queries(1)::numeric / 1000, 1) || ' s';"
    echo "SELECT 'pass 2 (measured): ' || round(run_queries(2)::numeric / 1000, 1) || ' s';"
    for mc in $MCS; do
        echo "SELECT 'max_candidates $mc: ' || round(run_queries(2, $mc)::numeric / 1000, 1) || ' s';"
    done
} | Pv | sed 's/^/   /' || exit 1
load "after the query passes"

echo
echo "latency of textfp_sources(body, 'docs') in ms, pass 2 (max_candidates 100, the default):"
P -c "SELECT CASE WHEN gl = 1 THEN 'all' ELSE lang END AS lang, CASE WHEN gc = 1 THEN 'all' ELSE c::text END AS true_sources,
        split_part(l, ' | ', 1) AS n, split_part(l, ' | ', 2) AS p50, split_part(l, ' | ', 3) AS p90,
        split_part(l, ' | ', 4) AS p99, split_part(l, ' | ', 5) AS max, split_part(l, ' | ', 6) AS mean
      FROM (SELECT q.lang, cardinality(q.sources) AS c, lat(array_agg(r.ms)) AS l,
                   GROUPING(q.lang) AS gl, GROUPING(cardinality(q.sources)) AS gc
              FROM qres r JOIN queries q USING (qid) WHERE r.pass = 2 AND r.mc = 100
             GROUP BY GROUPING SETS ((), (q.lang), (cardinality(q.sources)), (q.lang, cardinality(q.sources)))) s
      ORDER BY gl DESC, lang, gc DESC, c"
LAT_ALL=$(Pv -c "SELECT lat(array_agg(ms)) FROM qres WHERE pass = 2 AND mc = 100")
LAT_ZH=$(Pv -c "SELECT lat(array_agg(ms)) FROM qres r JOIN queries q USING (qid) WHERE pass = 2 AND mc = 100 AND q.lang = 'zh'")
LAT_EN=$(Pv -c "SELECT lat(array_agg(ms)) FROM qres r JOIN queries q USING (qid) WHERE pass = 2 AND mc = 100 AND q.lang = 'en'")
LAT_W1=$(Pv -c "SELECT lat(array_agg(ms)) FROM qres WHERE pass = 1 AND mc = 100")

echo
echo "by max_candidates (pass 2 and the passes after it): latency and quality"
P -c "SELECT r.mc AS max_candidates, split_part(lat(array_agg(r.ms)), ' | ', 2) AS p50,
        split_part(lat(array_agg(r.ms)), ' | ', 4) AS p99, split_part(lat(array_agg(r.ms)), ' | ', 6) AS mean,
        sum(cardinality(q.sources)) AS true_sources,
        sum((SELECT count(*) FROM unnest(q.sources) s WHERE s = ANY (found_ids(r.out)))) AS found,
        round(sum((SELECT count(*) FROM unnest(q.sources) s WHERE s = ANY (found_ids(r.out))))::numeric
              / nullif(sum(cardinality(q.sources)), 0), 4) AS share_found,
        count(*) FILTER (WHERE q.sources <@ found_ids(r.out)) AS queries_all_found,
        sum(cardinality(found_ids(r.out))) AS reported,
        sum((SELECT count(*) FROM unnest(found_ids(r.out)) f WHERE f <> ALL (q.sources))) AS not_true
      FROM qres r JOIN queries q USING (qid) WHERE r.pass = 2 GROUP BY r.mc ORDER BY r.mc"
MC_TABLE=$(Pv -F ' | ' -c "SELECT r.mc, split_part(lat(array_agg(r.ms)), ' | ', 2), split_part(lat(array_agg(r.ms)), ' | ', 4),
        split_part(lat(array_agg(r.ms)), ' | ', 6),
        round(sum((SELECT count(*) FROM unnest(q.sources) s WHERE s = ANY (found_ids(r.out))))::numeric
              / nullif(sum(cardinality(q.sources)), 0), 4),
        sum((SELECT count(*) FROM unnest(found_ids(r.out)) f WHERE f <> ALL (q.sources)))
      FROM qres r JOIN queries q USING (qid) WHERE r.pass = 2 GROUP BY r.mc ORDER BY r.mc")
IFS='|' read -r TRUE_N FOUND_N REPORTED_N EXTRA_N <<<"$(Pv -c "
SELECT sum(cardinality(q.sources)), sum((SELECT count(*) FROM unnest(q.sources) s WHERE s = ANY (found_ids(r.out)))),
       sum(cardinality(found_ids(r.out))), sum((SELECT count(*) FROM unnest(found_ids(r.out)) f WHERE f <> ALL (q.sources)))
  FROM qres r JOIN queries q USING (qid) WHERE r.pass = 2 AND r.mc = 100")"

echo
echo "true sources not reported (pass 2, max_candidates 100; best: the longest passage textfp_align finds"
echo "between the source and the query with min_length 16, in Han characters, a word counting as two):"
P -c "SELECT r.qid, q.lang, s AS source_id, passage_fp_shared(passage_fp(d.body), passage_fp(q.body)) AS shared_seeds,
        (SELECT max(a.matched) FROM textfp_align(d.body, q.body) a) AS best_matched,
        (SELECT count(*) FROM textfp_align(d.body, q.body) a) AS passages_16,
        cardinality(found_ids(r.out)) AS reported
      FROM qres r JOIN queries q USING (qid), unnest(q.sources) s, docs d
      WHERE r.pass = 2 AND r.mc = 100 AND s <> ALL (found_ids(r.out)) AND d.id = s ORDER BY r.qid, s LIMIT 30"
MISSED=$(Pv -c "SELECT coalesce(string_agg('q' || r.qid || ' source ' || s || ' (best passage ' || (SELECT coalesce(max(a.matched), 0) FROM textfp_align(d.body, q.body) a) || ')', ', '), 'none')
      FROM qres r JOIN queries q USING (qid), unnest(q.sources) s, docs d
      WHERE r.pass = 2 AND r.mc = 100 AND s <> ALL (found_ids(r.out)) AND d.id = s")

echo
echo "reported sources that are not true sources (pass 2, max_candidates 100), what they are:"
P -q <<'SQL'
CREATE TABLE extra AS
SELECT r.qid, q.lang, cardinality(q.sources) AS ntrue, x.source_id, max(x.share) AS share,
       max(x.matched) AS matched, max(x.query_length) AS query_length, max(x.frequency) AS frequency,
       min(x.query_start) AS query_start, NULL::float8 AS near
  FROM qres r JOIN queries q USING (qid), unnest(r.out) x
 WHERE r.pass = 2 AND r.mc = 100 AND x.source_id <> ALL (q.sources)
 GROUP BY r.qid, q.lang, q.sources, x.source_id;
-- near: how much of it a true source of its query holds (a near-copy: >= 0.5)
UPDATE extra e SET near = (SELECT max(textfp_copied_share(t.body, d.body))
                             FROM queries q, docs t, docs d
                            WHERE q.qid = e.qid AND t.id = ANY (q.sources) AND d.id = e.source_id);
SQL
P -c "SELECT CASE WHEN near >= 0.5 THEN 'near-copy of a true source (copied_share >= 0.5)'
                  WHEN frequency >= 2 THEN 'its passage is in other documents too (frequency >= 2)'
                  ELSE 'neither' END AS what,
        count(*) AS sources, count(*) FILTER (WHERE lang = 'zh') AS zh, count(*) FILTER (WHERE lang = 'en') AS en,
        count(*) FILTER (WHERE ntrue = 0) AS in_no_source_queries,
        min(matched) AS min_matched, percentile_disc(0.5) WITHIN GROUP (ORDER BY matched) AS med_matched,
        max(matched) AS max_matched, percentile_disc(0.5) WITHIN GROUP (ORDER BY query_length) AS med_chars,
        percentile_disc(0.5) WITHIN GROUP (ORDER BY frequency) AS med_frequency, round(max(share)::numeric, 3) AS max_share
      FROM extra GROUP BY 1 ORDER BY 2 DESC"
EXTRA_CLASS=$(Pv -F ' | ' -c "SELECT CASE WHEN near >= 0.5 THEN 'near-copy of a true source' WHEN frequency >= 2 THEN 'passage shared by other documents (frequency >= 2)' ELSE 'neither' END,
        count(*), min(matched) || '-' || max(matched), percentile_disc(0.5) WITHIN GROUP (ORDER BY frequency)
      FROM extra GROUP BY 1 ORDER BY 2 DESC")
echo "   (matched: the passage's length in Han characters, a word counting as two; frequency: median index"
echo "    entries of the passage's seeds; a sample of the passages:)"
Pv -c "SELECT '   q' || e.qid || ' -> ' || e.source_id || ' (' || e.lang || ', matched ' || e.matched || ', frequency ' || e.frequency || '): '
        || replace(left(substr(q.body, e.query_start, e.query_length), 110), E'\n', ' ')
      FROM extra e JOIN queries q USING (qid) ORDER BY hashint8(e.qid * 1000003 + e.source_id) LIMIT 8"

echo
echo "seeds a source shares with its query (passage_fp_shared), true sources against the others reported:"
P -c "SELECT 'true sources' AS rows, count(*), min(sh), percentile_disc(0.01) WITHIN GROUP (ORDER BY sh) AS p1,
        percentile_disc(0.1) WITHIN GROUP (ORDER BY sh) AS p10, percentile_disc(0.5) WITHIN GROUP (ORDER BY sh) AS p50, max(sh)
      FROM (SELECT passage_fp_shared(passage_fp(d.body), passage_fp(q.body)) AS sh
              FROM queries q, unnest(q.sources) s, docs d WHERE d.id = s) t
      UNION ALL
      SELECT 'reported, not true', count(*), min(sh), percentile_disc(0.01) WITHIN GROUP (ORDER BY sh),
        percentile_disc(0.1) WITHIN GROUP (ORDER BY sh), percentile_disc(0.5) WITHIN GROUP (ORDER BY sh), max(sh)
      FROM (SELECT passage_fp_shared(passage_fp(d.body), passage_fp(q.body)) AS sh
              FROM extra e JOIN queries q USING (qid) JOIN docs d ON d.id = e.source_id) t"
TRUE_MIN_SHARED=$(Pv -c "SELECT min(passage_fp_shared(passage_fp(d.body), passage_fp(q.body))) FROM queries q, unnest(q.sources) s, docs d WHERE d.id = s")

if [ "$CAND_SAMPLE" -gt 0 ]; then
    echo
    echo "rows sharing seeds with a query (body %& passage_query(q, 1), no max_docs cap; first $CAND_SAMPLE queries):"
    P -q <<SQL
CREATE TABLE cands AS
SELECT q.qid, passage_fp_shared(passage_fp(d.body), passage_fp(q.body)) AS sh
  FROM (SELECT * FROM queries ORDER BY qid LIMIT $CAND_SAMPLE) q, docs d
 WHERE d.body %& passage_query(q.body, 1);
SQL
    P -c "SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY c1) AS p50_rows_1plus, percentile_disc(0.9) WITHIN GROUP (ORDER BY c1) AS p90_rows_1plus,
            max(c1) AS max_rows_1plus, percentile_disc(0.5) WITHIN GROUP (ORDER BY c2) AS p50_rows_2plus,
            percentile_disc(0.5) WITHIN GROUP (ORDER BY c3) AS p50_rows_3plus, count(*) FILTER (WHERE c1 > 100) AS queries_over_100_rows
          FROM (SELECT q.qid, count(c.sh) AS c1, count(c.sh) FILTER (WHERE c.sh >= 2) AS c2, count(c.sh) FILTER (WHERE c.sh >= 3) AS c3
                  FROM (SELECT qid FROM queries ORDER BY qid LIMIT $CAND_SAMPLE) q LEFT JOIN cands c USING (qid) GROUP BY q.qid) s"
    CANDS=$(Pv -F ' / ' -c "SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY c1), percentile_disc(0.5) WITHIN GROUP (ORDER BY c2),
            percentile_disc(0.5) WITHIN GROUP (ORDER BY c3)
          FROM (SELECT q.qid, count(c.sh) AS c1, count(c.sh) FILTER (WHERE c.sh >= 2) AS c2, count(c.sh) FILTER (WHERE c.sh >= 3) AS c3
                  FROM (SELECT qid FROM queries ORDER BY qid LIMIT $CAND_SAMPLE) q LEFT JOIN cands c USING (qid) GROUP BY q.qid) s")
fi

PGB_LINE="(skipped)"
if [ "$PGB_SECS" -gt 0 ]; then
    tfp_log "   pgbench cross-check: $PGB_SECS s, one client, random qids, -M prepared"
    load "pgbench"
    d=$TFP_TMP/pgb
    mkdir -p "$d"; chmod 777 "$d"
    cat >"$d/q.sql" <<Q
\set q random(1, $Q)
SELECT count(*) FROM textfp_sources((SELECT body FROM queries WHERE qid = :q), 'docs');
Q
    chmod 644 "$d/q.sql"
    (cd "$d" && pgbench -n -M prepared -c 1 -T "$PGB_SECS" -f "$d/q.sql" --log --log-prefix="$d/log" >"$d/out.txt" 2>&1) ||
        cat "$d/out.txt"
    PGB_LINE=$(awk '{ print $3 / 1000 }' "$d"/log* | sort -g | awk '{ a[NR] = $1; s += $1 } END {
        i50 = int(NR * 0.5 + 0.999); i99 = int(NR * 0.99 + 0.999)
        printf "%d transactions: p50 %.2f ms, p99 %.2f ms, mean %.2f ms", NR, a[i50], a[i99], s / NR }')
    echo "   $PGB_LINE"
fi

# ------------------------------------------------------------------ 5. where the time goes
echo
tfp_log "5. EXPLAIN (ANALYZE, BUFFERS)"
MEDQ=$(Pv -c "SELECT qid FROM qres WHERE pass = 2 AND mc = 100 ORDER BY ms OFFSET (SELECT count(*) / 2 FROM qres WHERE pass = 2 AND mc = 100) LIMIT 1")
MAXQ=$(Pv -c "SELECT qid FROM qres WHERE pass = 2 AND mc = 100 ORDER BY ms DESC LIMIT 1")
NONEQ=$(Pv -c "SELECT qid FROM queries WHERE cardinality(sources) = 0 ORDER BY qid LIMIT 1")
for qq in "$MEDQ:median" "$MAXQ:slowest" "$NONEQ:no source"; do
    qid=${qq%%:*}
    [ -n "$qid" ] || continue
    for mc in 100 1; do
        echo "-- query $qid (${qq#*:} of pass 2), max_candidates $mc"
        P -c '\o /dev/null' -c "SELECT count(*) FROM textfp_sources((SELECT body FROM queries WHERE qid = $qid), 'docs', max_candidates => $mc)" -c '\o' -c "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) SELECT * FROM textfp_sources((SELECT body FROM queries WHERE qid = $qid), 'docs', max_candidates => $mc)" |
            grep -vE '^ *QUERY PLAN|^-+$|^\(| rows\)$' | sed 's/^/   /'
    done
done
echo "-- the index look-up alone for query $MAXQ (bitmap scan of body %& passage_query(q, 1): every seed, no max_docs cap)"
P -c '\o /dev/null' -c "SELECT count(*) FROM docs WHERE body %& passage_query((SELECT body FROM queries WHERE qid = $MAXQ), 1)" -c '\o' \
  -c "EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) SELECT count(*) FROM docs WHERE body %& passage_query((SELECT body FROM queries WHERE qid = $MAXQ), 1)" |
    grep -vE '^ *QUERY PLAN|^-+$|^\(| rows\)$' | sed 's/^/   /'

BREAKDOWN="(perf skipped)"
if [ "$PERF" = 1 ] && command -v perf >/dev/null 2>&1; then
    NPQ=$(( PERF_Q < Q ? PERF_Q : Q ))
    tfp_log "   perf record (DWARF call graphs, 499 Hz) of a pass over queries 1..$NPQ"
    load "perf pass"
    pf=$TFP_TMP/perf.data
    Pv -c "SELECT pg_backend_pid()" -c "SELECT pg_sleep(1.5)" -c "SELECT run_queries(3, 100, 1, $NPQ)" >"$TFP_TMP/perf_pass.txt" &
    ppid=$!
    bpid=
    for _ in $(seq 50); do
        bpid=$(head -n 1 "$TFP_TMP/perf_pass.txt" 2>/dev/null)
        [ -n "$bpid" ] && break
        sleep 0.1
    done
    if [ -n "$bpid" ]; then
        perf record -q -F 499 --call-graph dwarf,16384 -p "$bpid" -o "$pf" >"$TFP_TMP/perf.log" 2>&1 &
        rpid=$!
        wait "$ppid"
        kill -INT "$rpid" 2>/dev/null
        wait "$rpid" 2>/dev/null
        PERF_MEAN=$(Pv -c "SELECT avg(ms) FROM qres WHERE pass = 3")
        # every sample's stack, classified by the part of textfp_sources() it is in
        # (the outermost known frame under textfp_sources; inlined frames included)
        perf script -i "$pf" -F ip,sym 2>/dev/null | awk -v mean="$PERF_MEAN" "$PHASES_AWK" >"$TFP_TMP/phases.txt"
        BREAKDOWN=$(cat "$TFP_TMP/phases.txt")
        echo "| part of textfp_sources() | samples | share | ms per query (of a mean of $(printf '%.2f' "$PERF_MEAN") ms under perf) |"
        echo "| --- | --- | --- | --- |"
        echo "$BREAKDOWN"
        echo "   top functions by self time:"
        perf report -i "$pf" --no-children --stdio -g none --percent-limit 1.5 --sort sym 2>/dev/null |
            grep -E '^ *[0-9.]+%' | head -14 | sed 's/^/   /'
    else
        wait "$ppid"
        echo "   (could not find the backend's pid)"
    fi
fi

# ------------------------------------------------------------------ 6. summary
load "end"
f1() { printf '%.1f' "$1"; }
{
    echo "# passage_sources: N = $N documents, Q = $Q queries ($(date '+%F %T'))"
    echo
    echo "machine: $(nproc) cores, $(free -g | awk '/^Mem:/ { print $2 }') GB, $(uname -m); PostgreSQL $(Pv -c 'SHOW server_version');"
    echo "code: $TREE (built at the start of the run)"
    echo "shared_buffers 4GB, maintenance_work_mem 1GB, work_mem 64MB, max_wal_size 8GB, fsync off, no parallel workers, jit off"
    echo "load average (1, 5, 15 min) at each step:"
    sed 's/^/    /' "$LOADS"
    echo
    echo "| figure | value | target |"
    echo "| --- | --- | --- |"
    printf '| load (gen corpus %s, \\copy) | %.1f s; %s rows, text %s MB (%.0f bytes a row), heap %s MB + TOAST %s MB (%s rows out of line) | |\n' \
        "$N" "$LOAD_S" "$ROWS" "$(mb "$TEXT_B")" "$(echo "$TEXT_B / $ROWS" | bc -l)" "$(mb "$HEAP_B")" "$(mb "$TOAST_B")" "$EXTERNAL"
    awk -F' [|] ' '{ net = $1 ~ /plain/ ? sprintf(", net of the scan %.2f ×", $8) : ""
        printf "| passage_fp speed, %s | %s MB/s vs md5 %s MB/s: %.2f × md5%s | >= 0.5 × md5 |\n", substr($1, 3), $6, $5, $7, net }' "$SPEED"
    printf '| passage index build | %.1f s | <= 600 s |\n' "$(echo "$IDX_MS / 1000" | bc -l)"
    printf '| passage index size | %s MB = %.3f × the text (%.2f bytes an entry, %s entries) | <= 1 × |\n' \
        "$(mb "$IDX_B")" "$(echo "$IDX_B / $TEXT_B" | bc -l)" "$(echo "$IDX_B / $ENTRIES" | bc -l)" "$ENTRIES"
    echo "$GIN_LINE"
    echo "| textfp_sources, all queries, pass 2: n / p50 / p90 / p99 / max / mean ms | ${LAT_ALL// | / \/ } | p50 <= 20, p99 <= 100 |"
    echo "| textfp_sources, zh | ${LAT_ZH// | / \/ } | |"
    echo "| textfp_sources, en | ${LAT_EN// | / \/ } | |"
    echo "| (pass 1, warm-up) | ${LAT_W1// | / \/ } | |"
    echo "| pgbench cross-check (client side) | $PGB_LINE | |"
    echo "$MC_TABLE" | awk -F' \\| ' '{ printf "| max_candidates %s: p50 / p99 / mean ms; share of true sources found; reported not true | %s / %s / %s; %s; %s | |\n", $1, $2, $3, $4, $5, $6 }'
    printf '| true sources found (max_candidates 100) | %s of %s = %.4f | |\n' "$FOUND_N" "$TRUE_N" "$(echo "$FOUND_N / $TRUE_N" | bc -l)"
    echo "| true sources not found | $MISSED | |"
    printf '| reported sources not true sources | %s of %s reported = %.4f | |\n' "$EXTRA_N" "$REPORTED_N" "$(echo "$EXTRA_N / $REPORTED_N" | bc -l)"
    [ -n "$EXTRA_CLASS" ] && echo "$EXTRA_CLASS" | awk -F' \\| ' '{ printf "|    %s | %s (matched %s, median frequency %s) | |\n", $1, $2, $3, $4 }'
    echo "| fewest seeds a true source shares with its query | $TRUE_MIN_SHARED | |"
    [ -n "${CANDS:-}" ] && echo "| median rows sharing >= 1 / >= 2 / >= 3 seeds with a query (first $CAND_SAMPLE) | $CANDS | |"
    echo
    echo "where textfp_sources' time goes (perf samples of the backend during a pass over the first ${NPQ:-?} queries;"
    echo "each sample counted once, in the outermost part of textfp_sources it is in):"
    echo "| part | samples | share | ms per query (under perf) |"
    echo "| --- | --- | --- | --- |"
    echo "$BREAKDOWN"
    echo
    echo "commands: $CMDLINE  (PASSAGE_RUNS=$RUNS PASSAGE_PLAIN=$PLAIN PASSAGE_GIN_ROWS=$GIN_ROWS PASSAGE_MC=\"$MCS\" PASSAGE_PGBENCH_SECONDS=$PGB_SECS PASSAGE_PERF=$PERF PASSAGE_PERF_QUERIES=$PERF_Q PASSAGE_CAND_SAMPLE=$CAND_SAMPLE)"
    echo "  gcc -O2 -o \$TMP/gen tools/gen_passage_corpus.c"
    echo "  \\copy docs(id, lang, body) FROM PROGRAM '\$TMP/gen corpus $N --seed 1'"
    printf '%s\n' "  SELECT count(md5(body)) FROM docs;  SELECT sum(passage_fp_count(passage_fp(body))) FROM docs;  (each in a new session, \\timing)"
    echo "  CREATE INDEX docs_p ON docs USING passage (body);"
    echo "  CREATE INDEX docs_g ON ${GTAB:-docs} USING gin (passage_fp_hashes(passage_fp(body)) int8_set_ops);"
    echo "  \\copy queries FROM PROGRAM '\$TMP/gen queries $Q --corpus-n $N --seed 1'"
    echo "  SELECT run_queries(1); SELECT run_queries(2);  (test/bench/passage_sources.sql: textfp_sources(body, 'docs') per query, clock_timestamp() around it)"
} >"$SUM"
echo
echo "================================================================ summary"
cat "$SUM"
cp "$SUM" "$OUT/passage_sources-$N.txt"
echo "(also in test/bench/out/passage_sources-$N.txt)"
