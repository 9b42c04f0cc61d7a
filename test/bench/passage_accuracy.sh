#!/usr/bin/env bash
# Accuracy of textfp_sources() -- which stored documents a text took
# passages from -- on the labelled set of tools/make_passage_set.py (real
# Chinese and English documents of Debian packages; queries with 1-3
# passages of other documents spliced in, as they are, with edits or
# typos, with homophones, in traditional script; queries with none):
# passages found by kind, language, length and split, false sources, and
# the time per query; then (as a ceiling) textfp_align on the true pairs.
#
#   test/bench/passage_accuracy.sh [--split dev|heldout|all] [--fresh-seed N]
#                                  [--min-length N] [--out DIR]
#
# --split: which queries are scored (default dev: the held-out part is
# read once, when the design is final); --fresh-seed N: a fresh sample of
# queries over the same corpus (tools/make_passage_set.py --fresh-seed).
# env: PASSAGE_SET=DIR (a set made earlier), PASSAGE_ARGS (extra arguments
# of textfp_sources, e.g. "max_docs => 100").
# Needs the Debian packages tools/make_passage_set.py reads (it downloads
# them into $TFP_PASSAGE_CACHE) and opencc.  Output: tables on stdout.
set -euo pipefail
split=dev
fresh=
min_length=40
keep=
while [ $# -gt 0 ]; do
    case $1 in
        --split) split=$2; shift 2 ;;
        --fresh-seed) fresh=$2; shift 2 ;;
        --min-length) min_length=$2; shift 2 ;;
        --out) keep=$2; shift 2 ;;
        *) echo "usage: $0 [--split dev|heldout|all] [--fresh-seed N] [--min-length N] [--out DIR]" >&2; exit 2 ;;
    esac
done
TFP_EXTRA_PACKAGES="${TFP_EXTRA_PACKAGES:-} opencc python3"
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
tfp_bench_cluster "shared_buffers = 512MB
work_mem = 64MB"
out=$TFP_TMP/passage; mkdir -p "$out"
if [ -n "${PASSAGE_SET:-}" ]; then
    cp "$PASSAGE_SET"/*.tsv "$out/"
else
    tfp_log "building the labelled set (tools/make_passage_set.py${fresh:+ --fresh-seed $fresh})"
    python3 "$TFP_ROOT/tools/make_passage_set.py" --out "$out" ${fresh:+--fresh-seed "$fresh"} >&2
fi
tfp_chown_pg "$out"
tfp_psql -d postgres -f - <<SQL
\set ON_ERROR_STOP 1
CREATE TABLE corpus (doc_id bigint PRIMARY KEY, split text, lang text, package text, body text, origin text, version text);
\copy corpus FROM '$out/corpus.tsv'
CREATE TABLE queries (query_id text PRIMARY KEY, split text, lang text, body text);
\copy queries FROM '$out/queries.tsv'
CREATE INDEX corpus_p ON corpus USING passage (body);
ANALYZE corpus;
SELECT count(*) AS documents, pg_size_pretty(sum(octet_length(body))) AS text,
       pg_size_pretty(pg_relation_size('corpus_p')) AS passage_index FROM corpus;
-- every query of the split, timed, its sources and their passages
CREATE TABLE results (query_id text, ms float8, rank int4, source_id bigint, share float8, source_passages int4,
                      passage int4, source_start int4, source_length int4,
                      query_start int4, query_length int4, matched int4, similarity float8,
                      frequency int4);
DO \$\$
DECLARE
	qr record;
	t0 timestamptz;
	ms float8;
BEGIN
	-- once to warm the cache, then timed
	PERFORM count(*) FROM queries q, textfp_sources(q.body, 'corpus', 'doc_id', 'body',
		min_length => $min_length ${PASSAGE_ARGS:+, $PASSAGE_ARGS}) s
	WHERE '$split' = 'all' OR q.split = '$split';
	FOR qr IN SELECT * FROM queries WHERE '$split' = 'all' OR split = '$split' ORDER BY query_id LOOP
		t0 := clock_timestamp();
		CREATE TEMP TABLE r1 ON COMMIT DROP AS
		SELECT * FROM textfp_sources(qr.body, 'corpus', 'doc_id', 'body', min_length => $min_length
			${PASSAGE_ARGS:+, $PASSAGE_ARGS});
		ms := extract(epoch FROM clock_timestamp() - t0) * 1000;
		INSERT INTO results SELECT qr.query_id, ms, r1.* FROM r1;
		IF NOT FOUND THEN
			INSERT INTO results (query_id, ms) VALUES (qr.query_id, ms);
		END IF;
		DROP TABLE r1;
	END LOOP;
END
\$\$;
\copy results TO '$out/results.tsv'
SQL
tfp_psql -d postgres -c "\\copy (SELECT a.query_id, a.passage, a.source_doc_id, c.body FROM (SELECT DISTINCT query_id, 0 AS passage, source_id AS source_doc_id FROM results WHERE source_id IS NOT NULL) a JOIN corpus c ON c.doc_id = a.source_doc_id) TO '$out/reported_bodies.tsv'"
# the ceiling: textfp_align on the true pairs (min_length as above)
tfp_psql -d postgres -f - <<SQL
CREATE TABLE truth (query_id text, passage int, source_doc_id bigint, source_start int, source_length int,
                    query_start int, query_length int, units int, length int, kind text, traditional boolean,
                    rate float8, opencc text);
\copy truth FROM '$out/truth.tsv'
\copy (SELECT t.query_id, t.passage, a.b_start, a.b_length FROM truth t JOIN queries q USING (query_id) JOIN corpus c ON c.doc_id = t.source_doc_id, textfp_align(c.body, q.body, min_length => $min_length) a WHERE '$split' = 'all' OR q.split = '$split') TO '$out/aligned.tsv'
SQL
python3 "$TFP_ROOT/test/bench/passage_accuracy.py" "$out" "$split" "$min_length"
if [ -n "$keep" ]; then mkdir -p "$keep" && cp "$out"/*.tsv "$keep/"; fi
