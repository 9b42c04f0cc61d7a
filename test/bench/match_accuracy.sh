#!/usr/bin/env bash
# Accuracy of textfp_match() -- the one verdict -- next to each single
# fingerprint and the "any of three" rule, per kind of copy, on the labelled
# pairs of tools/make_match_set.py (real text from Debian packages; held out
# by book; first the evidence that the zh-TW texts of kind taiwan were made
# from the zh-CN ones and those of kind translation were not), and
# html_text() against tools/make_corpus.py's text on every page of the
# manuals; then textfp_match() pairs/s on 2 KB texts (all pairs, Chinese
# pairs, English pairs).
#
#   test/bench/match_accuracy.sh
#
# env: MATCH_SET=FILE (a set made earlier, instead of running the generator),
#      MATCH_FEATURES_OUT=FILE (also write every pair's features, for
#      tools/fit_match.py), MATCH_SKIP_HTML=1, MATCH_SKIP_SPEED=1.
# Needs the Debian packages of tools/make_corpus.py (installed as root when
# missing), opencc and unicode-data.  Output: tables on stdout.
set -euo pipefail
TFP_EXTRA_PACKAGES="${TFP_EXTRA_PACKAGES:-} opencc unicode-data python3 debian-handbook debian-reference-zh-cn debian-reference-zh-tw debian-reference-en installation-guide-amd64 installation-guide-arm64 maint-guide maint-guide-zh-cn maint-guide-zh-tw libreoffice-help-zh-cn libreoffice-help-zh-tw gnome-user-docs fortunes-zh sword-text-web sword-text-kjv diatheke debian-edu-doc-zh-cn debian-edu-doc-en"
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
tfp_setup_cluster
out=$TFP_TMP/match; mkdir -p "$out"
if [ -n "${MATCH_SET:-}" ]; then
    cp "$MATCH_SET" "$out/set.tsv"
else
    tfp_log "building the labelled set (tools/make_match_set.py)"
    python3 "$TFP_ROOT/tools/make_match_set.py" > "$out/set.tsv"
fi
tfp_chown_pg "$out"
tfp_log "are the zh-TW texts made from the zh-CN ones? (tools/match_set_provenance.py)"
python3 "$TFP_ROOT/tools/match_set_provenance.py" "$out/set.tsv"
tfp_psql -c 'CREATE EXTENSION textfp'
tfp_psql -c 'CREATE TABLE match_pairs (pair_id int PRIMARY KEY, split text, kind text, lang text, label text, book text, a text, b text)'
tfp_psql -c "\\copy match_pairs FROM '$out/set.tsv'"
fo=()
if [ -n "${MATCH_FEATURES_OUT:-}" ]; then fo=(-v "features_out=$out/features.tsv"); fi
tfp_psql "${fo[@]}" -f "$TFP_ROOT/test/bench/match_accuracy.sql"
if [ -n "${MATCH_FEATURES_OUT:-}" ]; then cp "$out/features.tsv" "$MATCH_FEATURES_OUT"; fi

if [ -z "${MATCH_SKIP_HTML:-}" ]; then
    tfp_log "html_text() on every page of the manuals against tools/make_corpus.py's text"
    python3 "$TFP_ROOT/tools/make_html_samples.py" --all > "$out/pages.tsv"
    tfp_psql -c 'CREATE TABLE pages (name text, html text, corpus_text text)'
    tfp_psql -c "\\copy pages FROM '$out/pages.tsv'"
    tfp_psql -f - <<'SQL'
\pset footer off
-- found: share of the distinct shingles of make_corpus.py's text that
-- html_text()'s text has; added: share of html_text()'s shingles that
-- make_corpus.py's text does not have (it drops tables, <pre>, notes, ...)
CREATE TEMP TABLE h AS
SELECT CASE WHEN name LIKE 'debian-reference/%' THEN 'debian-reference ' || split_part(name, '.', 2)
            ELSE regexp_replace(name, '/[^/]*$', '') END AS manual, name,
       shingles(corpus_text) AS c, shingles(html_text(html)) AS t, shingles(html_text(html, boilerplate => false)) AS t_all
FROM pages WHERE length(corpus_text) >= 50;
CREATE TEMP TABLE hs AS
SELECT manual, name,
       (SELECT count(*) FROM unnest(c) x WHERE x = ANY (t))::float8 / greatest(cardinality(c), 1) AS found,
       1 - (SELECT count(*) FROM unnest(t) x WHERE x = ANY (c))::float8 / greatest(cardinality(t), 1) AS added,
       (SELECT count(*) FROM unnest(c) x WHERE x = ANY (t_all))::float8 / greatest(cardinality(c), 1) AS found_all
FROM h;
SELECT coalesce(manual, 'all') AS manual, count(*) AS pages,
       round(avg(found)::numeric, 3) AS found_mean,
       round((percentile_cont(0.5) WITHIN GROUP (ORDER BY found))::numeric, 3) AS found_median,
       round((percentile_cont(0.1) WITHIN GROUP (ORDER BY found))::numeric, 3) AS found_p10,
       round(avg(added)::numeric, 3) AS added_mean,
       round(avg(found_all)::numeric, 3) AS found_mean_no_boilerplate_removal
FROM hs GROUP BY ROLLUP (manual) ORDER BY manual NULLS LAST;
SQL
fi

if [ -z "${MATCH_SKIP_SPEED:-}" ]; then
    tfp_log "speed: textfp_match() on pairs of 2 KB documents (tools/make_bench_docs.py), best of 3"
    python3 "$TFP_ROOT/tools/make_bench_docs.py" 4000 2048 > "$out/docs.tsv"
    tfp_psql -c 'CREATE TABLE docs (id int PRIMARY KEY, lang text, body text)' \
             -c 'ALTER TABLE docs ALTER body SET STORAGE PLAIN'
    tfp_psql -c "\\copy docs FROM '$out/docs.tsv'"
    tfp_psql -f - <<'SQL'
\pset footer off
SET max_parallel_workers_per_gather = 0;
-- the backend's CPU seconds (user + system, /proc/self/stat, Linux clock
-- ticks of 1/100 s): on a shared machine a steadier measure than the clock
CREATE FUNCTION pg_temp.cpu() RETURNS float8 LANGUAGE sql AS $f$
  SELECT (split_part(x, ' ', 12)::float8 + split_part(x, ' ', 13)::float8) / 100
  FROM (SELECT substring(pg_read_file('/proc/self/stat') FROM '\) (.*)$') AS x) s $f$;
CREATE TEMP TABLE speed (what text, round int, seconds float8, cpu float8, n int);
CREATE TEMP TABLE q (what text, sql text);
INSERT INTO q VALUES
 ('textfp_match(a, b)', 'WHERE (textfp_match(a.body, b.body)).verdict IS NOT NULL'),
 ('textfp_match(a, b), Chinese pairs', 'WHERE a.lang = ''zh'' AND (textfp_match(a.body, b.body)).verdict IS NOT NULL'),
 ('textfp_match(a, b), English pairs', 'WHERE a.lang = ''en'' AND (textfp_match(a.body, b.body)).verdict IS NOT NULL'),
 ('simhash of both and the distance', 'WHERE simhash_dist(simhash(a.body), simhash(b.body)) >= 0'),
 ('shingle_jaccard(a, b)', 'WHERE shingle_jaccard(a.body, b.body) >= 0');
DO $$
DECLARE t0 timestamptz; c0 float8; n int; x record;
BEGIN
  FOR r IN 1..3 LOOP
    FOR x IN SELECT * FROM q LOOP
      t0 := clock_timestamp();
      c0 := pg_temp.cpu();
      EXECUTE 'SELECT count(*) FROM docs a JOIN docs b ON b.id = a.id + 2 ' || x.sql INTO n;
      INSERT INTO speed VALUES (x.what, r, extract(epoch FROM clock_timestamp() - t0), pg_temp.cpu() - c0, n);
    END LOOP;
  END LOOP;
END $$;
SELECT what, max(n) AS pairs, round(min(seconds)::numeric, 3) AS best_seconds,
       round((max(n) / min(seconds))::numeric) AS pairs_per_second,
       round((1e6 * min(seconds) / max(n))::numeric, 1) AS us_per_pair,
       round((1e6 * min(cpu) / max(n))::numeric, 1) AS cpu_us_per_pair
FROM speed GROUP BY what ORDER BY what;
SQL
fi
