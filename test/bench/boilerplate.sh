#!/usr/bin/env bash
# Boilerplate lexicon and stripping (textfp_build_boilerplate,
# textfp_strip_boilerplate), on a throwaway cluster:
#
#   test/bench/boilerplate.sh [N [SITES]]   (default: 1000000 documents, 200 sites)
#
# 1. N documents of SITES sites: each is 3 paragraphs drawn at random from
#    test/data/pool_en.txt and pool_zh.txt (32,000 paragraphs: each recurs
#    in about 3N/32,000 documents, across sites) in its site's page
#    template: 3 lines before (site name, a dated line, a share line) and
#    2 after (a view count, a copyright line).  Loaded once, timed.
# 2. the lexicon, built over the table: by documents (min_docs 5: at this
#    size the random paragraphs recur too and are taken with the templates)
#    and by Henzinger's same-site rule (min_docs 5, min_site_docs 5: the
#    lines one site repeats in 5 of its pages -- its template, not the
#    paragraphs spread over all sites); lines kept, seconds.
# 3. throughput over the whole table (MB/s of text, one backend, no
#    parallel workers): a scan (sum of lengths), md5(body), textfp_line_hashes,
#    textfp_strip_boilerplate with the same-site lexicon; and the share of
#    the text that stripping removed.
# Each statement runs in its own session, timed by psql's \timing.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

N=${1:-1000000}
SITES=${2:-200}
DATA=$TFP_ROOT/test/data
tfp_bench_cluster "shared_buffers = 2GB
work_mem = 256MB
maintenance_work_mem = 1GB" || exit 1

# a timed statement in a new session: prints "ms|output"
timed() { tfp_timed sum "$1"; }

tfp_log "1. $N documents of $SITES sites (3 random pool paragraphs in the site's template)"
tfp_psql -d postgres -q <<SQL || exit 1
CREATE TABLE para (id serial PRIMARY KEY, line text);
\copy para (line) FROM '$DATA/pool_en.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
\copy para (line) FROM '$DATA/pool_zh.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
DELETE FROM para WHERE length(line) < 40;
CREATE TABLE p AS SELECT row_number() OVER (ORDER BY id)::int AS k, line FROM para;
CREATE UNIQUE INDEX ON p (k);
ANALYZE p;
CREATE TABLE docs (id int PRIMARY KEY, site int, body text);
ALTER TABLE docs ALTER body SET STORAGE EXTERNAL;
SQL
r=$(timed "INSERT INTO docs
SELECT i, s, concat_ws(E'\n',
    'The ' || initcap(translate(substr(md5(s::text), 1, 8), '0123456789', 'ghijklmnop')) || ' Post - Home | News | Opinion | Sport | Culture',
    'Published ' || (date '2020-01-01' + i % 1500) || ' ' || lpad((i % 24)::text, 2, '0') || ':' || lpad((i % 60)::text, 2, '0'),
    'Share on ' || (ARRAY['Twitter', 'Weibo', 'Facebook', 'WeChat'])[1 + s % 4] || ' | Print | E-mail this page to a friend',
    (SELECT line FROM p WHERE k = 1 + (hashint8(i * 3) & 2147483647) % (SELECT count(*) FROM p)),
    (SELECT line FROM p WHERE k = 1 + (hashint8(i * 3 + 1) & 2147483647) % (SELECT count(*) FROM p)),
    (SELECT line FROM p WHERE k = 1 + (hashint8(i * 3 + 2) & 2147483647) % (SELECT count(*) FROM p)),
    'Read ' || (1000 + i % 9000) || ' times',
    'Copyright ' || translate(substr(md5(s::text), 1, 8), '0123456789', 'ghijklmnop') || ' Media Group. All rights reserved.')
FROM (SELECT i, i % $SITES AS s FROM generate_series(1, $N) i) g;")
echo "loaded in ${r%%|*} ms"
tfp_psql -d postgres -q -c 'VACUUM ANALYZE docs' || exit 1
tfp_psql -d postgres -At -c "SELECT count(*) || ' documents, ' || pg_size_pretty(sum(octet_length(body))) || ' of text, '
    || round(avg(octet_length(body))) || ' bytes each' FROM docs"

tfp_log "2. the lexicon"
r=$(timed "CREATE TABLE lex_docs AS SELECT textfp_build_boilerplate('docs', 'body', min_docs => 5) AS lex;
SELECT textfp_boilerplate_size(lex) FROM lex_docs;")
printf '%-52s %9.1f s   %s lines\n' "by documents (min_docs 5)" "$(echo "${r%%|*}" | awk '{ print $1 / 1000 }')" "${r#*|}"
r=$(timed "CREATE TABLE lex_sites AS SELECT textfp_build_boilerplate('docs', 'body', 'site', min_docs => 5, min_site_docs => 5) AS lex;
SELECT textfp_boilerplate_size(lex) FROM lex_sites;")
printf '%-52s %9.1f s   %s lines\n' "same-site rule (min_docs 5, min_site_docs 5)" "$(echo "${r%%|*}" | awk '{ print $1 / 1000 }')" "${r#*|}"

tfp_log "3. throughput over the table (one backend)"
bytes=$(tfp_psql -d postgres -Atc 'SELECT sum(octet_length(body)) FROM docs')
run() { # label sql
    local r ms
    r=$(timed "$2")
    ms=${r%%|*}
    awk -v l="$1" -v ms="$ms" -v b="$bytes" -v o="${r#*|}" 'BEGIN { printf "%-52s %9.0f ms %8.1f MB/s   %s\n", l, ms, b / 1e6 / (ms / 1000), o }'
}
run "scan (sum of octet_length)" "SELECT sum(octet_length(body)) FROM docs"
run "md5(body)" "SELECT count(md5(body)) FROM docs"
run "textfp_line_hashes(body)" "SELECT sum(cardinality(textfp_line_hashes(body))) FROM docs"
run "textfp_strip_boilerplate(body, same-site lexicon)" \
    "SELECT round(100 - 100.0 * sum(octet_length(textfp_strip_boilerplate(body, l.lex))) / sum(octet_length(body)), 1) || '% of the text removed' FROM docs, lex_sites l"
run "textfp_strip_boilerplate(body, documents lexicon)" \
    "SELECT round(100 - 100.0 * sum(octet_length(textfp_strip_boilerplate(body, l.lex))) / sum(octet_length(body)), 1) || '% of the text removed' FROM docs, lex_docs l"
