--
-- textfp demo: the dedup system on a real sample corpus.
--
-- Run by test/run-demo.sh on a throwaway cluster (psql runs from the
-- repository root).  The corpus is test/data/corpus.tsv: 453 Chinese and
-- English documents from Debian packages, 73 of them reposts of others (28
-- real -- zh-TW vs zh-CN translations, two architectures' installation
-- guides, two releases of a manual -- and 45 simulated edits); the answer key
-- is test/data/corpus_truth.tsv, used only to score the result at the end.
-- The first 400 documents are the stored corpus; documents 401-453 arrive
-- "today" and are checked against it.  The HTML report is written to
-- tmp_check/demo_report.html.
--
\set ON_ERROR_STOP 1
\pset footer off
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS textfp;

\echo
\echo '== 1. An article table with generated fingerprints: simhash, minhash, pinyin DNA'
CREATE TABLE articles (
    id           int PRIMARY KEY,
    lang         text,
    source       text,
    title        text,
    body         text NOT NULL,
    published    date NOT NULL DEFAULT current_date,
    fp           simhash64 GENERATED ALWAYS AS (simhash(body)) STORED,
    sig          minhash GENERATED ALWAYS AS (minhash(body, 128)) STORED,
    dna          int8[] GENERATED ALWAYS AS (pinyin_dna(body)) STORED,
    duplicate_of int
);
CREATE TEMP TABLE corpus (id int, lang text, source text, title text, body text);
\copy corpus FROM 'test/data/corpus.tsv'
INSERT INTO articles (id, lang, source, title, body, published)
SELECT id, lang, source, title, body, current_date - 1 - id % 30 FROM corpus WHERE id <= 400;
CREATE INDEX articles_fp ON articles USING gin (fp);
CREATE INDEX articles_sig ON articles USING gin (sig);
CREATE INDEX articles_dna ON articles USING gin (dna pinyin_dna_ops);
ANALYZE articles;
SELECT count(*) AS articles,
       count(*) FILTER (WHERE lang = 'zh') AS chinese,
       count(*) FILTER (WHERE lang = 'en') AS english,
       pg_size_pretty(sum(octet_length(body))) AS text
FROM articles;
SELECT id, lang, left(title, 30) AS title, fp, minhash_k(sig) AS k, cardinality(dna) AS dna_windows
FROM articles ORDER BY id LIMIT 5;

\echo
\echo '== 2. Batch dedup of the stored corpus: all pairs within 12 bits (simhash_pairs)'
SELECT distance AS bits, count(*) AS pairs FROM simhash_pairs('articles', 'id', 'fp', 12)
GROUP BY 1 ORDER BY 1;

\echo
\echo '== 2b. Boilerplate learned from the corpus: the normalized lines that recur in 5 or more'
\echo '       documents, kept as one lexicon value (built once, stored: textfp_build_boilerplate)'
CREATE TABLE lexicons (name text PRIMARY KEY, lex textfp_boilerplate NOT NULL, built_at timestamptz DEFAULT now());
INSERT INTO lexicons (name, lex) SELECT 'articles', textfp_build_boilerplate('articles', 'body', min_docs => 5);
SELECT name, textfp_boilerplate_size(lex) AS lines FROM lexicons;
\echo 'the lines it holds, and in how many articles each occurs:'
SELECT left(l, 40) AS line, count(DISTINCT a.id) AS articles
FROM articles a, lexicons x, regexp_split_to_table(a.body, E'\n') l
WHERE x.name = 'articles' AND textfp_line_hashes(l) && textfp_boilerplate_hashes(x.lex)
GROUP BY 1 ORDER BY 2 DESC, 1;

\echo
\echo '== 3. The match store: every near-duplicate pair of the corpus, by three fingerprints,'
\echo '      verified by the exact Jaccard similarity of the two texts'' shingles and by the'
\echo '      calibrated verdict textfp_match'
SELECT textfp_create_match_table('article_matches');
SELECT * FROM textfp_check_arrivals(NULL, 'articles', 'article_matches',
    methods => '{simhash,minhash,pinyin_dna,shingle_jaccard,textfp_match}',
    radius => 12, min_jaccard => 0.3, min_shared => 2, min_dna_similarity => 0.05,
    text_column => 'body', min_shingle_jaccard => 0.25,
    boilerplate => (SELECT lex FROM lexicons WHERE name = 'articles'));

\echo
\echo '== 4. Clusters of the pairs textfp_match confirmed (union-find): sizes, and the largest'
SELECT * FROM textfp_cluster_sizes('article_matches', 'textfp_match');
SELECT c.cluster_id, c.cluster_size AS size, a.id, a.source, left(a.title, 36) AS title
FROM textfp_match_clusters('article_matches', 'textfp_match') c JOIN articles a USING (id)
WHERE c.cluster_size >= 3 ORDER BY c.cluster_size DESC, c.cluster_id, a.id;

\echo
\echo '== 5. New arrivals: 53 documents arrive today'
-- at insert time, a trigger points each new row at the nearest stored row
-- within 6 bits (a cheap first answer; the check below is the thorough one)
CREATE TRIGGER articles_duplicate_of BEFORE INSERT OR UPDATE OF body ON articles
    FOR EACH ROW EXECUTE FUNCTION textfp_duplicate_of('fp', '6');
INSERT INTO articles (id, lang, source, title, body)
SELECT id, lang, source, title, body FROM corpus WHERE id > 400;
SELECT id, duplicate_of, left(title, 34) AS title,
       fp <-> (SELECT fp FROM articles o WHERE o.id = a.duplicate_of) AS bits
FROM articles a WHERE published = current_date AND duplicate_of IS NOT NULL ORDER BY id;
\echo
\echo 'the daily job: today''s rows against the corpus (pg_cron would run it, e.g.'
\echo '  SELECT cron.schedule(''textfp-arrivals'', ''15 3 * * *'', $$SELECT * FROM textfp_check_arrivals(...)$$);)'
\set arrivals 'SELECT * FROM textfp_check_arrivals(''SELECT * FROM articles WHERE published >= current_date'', ''articles'', ''article_matches'', methods => ''{simhash,minhash,pinyin_dna,shingle_jaccard,textfp_match}'', radius => 12, min_jaccard => 0.3, min_dna_similarity => 0.05, text_column => ''body'', min_shingle_jaccard => 0.25, boilerplate => (SELECT lex FROM lexicons WHERE name = ''articles''))'
:arrivals;
\echo 'run again: nothing new is written'
:arrivals;
SELECT m.new_id, m.matched_id, round(m.similarity::numeric, 2) AS score,
       left(n.title, 30) AS new_title, o.source AS matched_source
FROM article_matches m JOIN articles n ON n.id = m.new_id JOIN articles o ON o.id = m.matched_id
WHERE m.method = 'textfp_match' AND n.published = current_date
ORDER BY m.new_id, m.matched_id LIMIT 20;

\echo
\echo '== 6. Reports: duplicates per source, per day, the most copied'
SELECT * FROM textfp_duplicates_by_source('article_matches', 'articles', 'source', method => 'textfp_match')
WHERE copies > 0 LIMIT 12;
SELECT * FROM textfp_duplicates_by_day('article_matches', 'textfp_match', 'articles', 'published')
ORDER BY day DESC LIMIT 7;
SELECT t.matched_id, t.copies, round(t.best_similarity::numeric, 2) AS best, left(a.title, 40) AS title
FROM textfp_most_copied('article_matches', 5, 'textfp_match') t JOIN articles a ON a.id = t.matched_id;

\echo
\echo '== 7. The HTML report'
\! mkdir -p tmp_check
\pset format unaligned
\pset tuples_only on
\o tmp_check/demo_report.html
SELECT textfp_report('articles', 'article_matches', source_column => 'source', clusters => 12,
                     method => 'textfp_match', heading => 'textfp demo: confirmed near-duplicates in the sample corpus',
                     boilerplate => (SELECT lex FROM lexicons WHERE name = 'articles'));
\o
\pset format aligned
\pset tuples_only off
SELECT pg_size_pretty(octet_length(textfp_report('articles', 'article_matches', source_column => 'source',
                                                  clusters => 12, method => 'textfp_match'))::bigint) AS report_size;
\! echo "written to $(pwd)/tmp_check/demo_report.html (open it in a browser)"

\echo
\echo '== 8. Scored against the answer key (test/data/corpus_truth.tsv)'
CREATE TEMP TABLE truth (id int, original_id int, transformation text);
\copy truth FROM 'test/data/corpus_truth.tsv'
CREATE TEMP TABLE truth_pairs AS
WITH root AS (SELECT a.id, coalesce(t.original_id, a.id) AS r FROM articles a LEFT JOIN truth t USING (id))
SELECT x.id AS a, y.id AS b FROM root x JOIN root y ON x.r = y.r AND x.id < y.id;
CREATE TEMP TABLE found AS
SELECT DISTINCT method, least(new_id, matched_id)::int AS a, greatest(new_id, matched_id)::int AS b
FROM article_matches;
SELECT f.method, (SELECT count(*) FROM truth_pairs) AS true_pairs, count(*) AS found_pairs,
       count(t.a) AS correct,
       round(count(t.a)::numeric / count(*), 3) AS precision,
       round(count(t.a)::numeric / (SELECT count(*) FROM truth_pairs), 3) AS recall
FROM found f LEFT JOIN truth_pairs t USING (a, b)
GROUP BY f.method ORDER BY recall DESC;
\echo 'reposts textfp_match did not confirm, by kind of copy:'
SELECT tr.transformation, count(*) AS missed
FROM truth_pairs t JOIN truth tr ON tr.id IN (t.a, t.b) AND tr.original_id IN (t.a, t.b)
WHERE NOT EXISTS (SELECT FROM found f WHERE f.method = 'textfp_match' AND f.a = t.a AND f.b = t.b)
GROUP BY 1 ORDER BY 2 DESC, 1;

\echo
\echo '== 9. Same template, different articles: what a boilerplate lexicon is for.  A news site'
\echo '      publishes 12 different articles (paragraphs of test/data/pool_en.txt) in one page'
\echo '      template whose date and counters vary; the template is most of each page'
CREATE TEMP TABLE pool (n int GENERATED ALWAYS AS IDENTITY, line text);
\copy pool (line) FROM 'test/data/pool_en.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
CREATE TABLE site_pages (id int PRIMARY KEY, body text NOT NULL,
                         fp simhash64 GENERATED ALWAYS AS (simhash(body)) STORED);
INSERT INTO site_pages
SELECT i, concat_ws(E'\n',
    'Example News - Home | World | Business | Technology | Sport | Weather',
    'Posted on ' || (date '2024-01-01' + i * 17) || ' at ' || (10 + i % 10) || ':' || (10 + i * 7 % 50) || ' by the Example News desk',
    'Share this article: Facebook | Twitter | LinkedIn | E-mail',
    p.line,
    'This article has been read ' || (1000 + i * 337) || ' times.',
    'Subscribe to our newsletter to get the best stories of the week in your inbox every Monday morning.',
    'Related stories: Markets rally after the central bank decision | Storm warnings for the coast',
    'Copyright ' || (2010 + i) || ' Example News Ltd. All rights reserved. Terms of use | Privacy policy | Contact us')
FROM generate_series(1, 12) i
JOIN (SELECT row_number() OVER (ORDER BY n) AS k, line FROM pool WHERE length(line) BETWEEN 250 AND 450) p ON p.k = i;
CREATE INDEX site_pages_fp ON site_pages USING gin (fp);
INSERT INTO lexicons (name, lex) SELECT 'site_pages', textfp_build_boilerplate('site_pages', 'body', min_docs => 5);
SELECT name, textfp_boilerplate_size(lex) AS lines FROM lexicons ORDER BY name;
\echo 'one page, line by line: the lines of the lexicon are its template (the dated and counted'
\echo 'lines too: digits are one digit in a normalized line); textfp_strip_boilerplate leaves the rest'
SELECT x.o AS line, left(x.l, 60) AS text, textfp_line_hashes(x.l) && textfp_boilerplate_hashes(k.lex) AS boilerplate
FROM site_pages p, lexicons k, regexp_split_to_table(p.body, E'\n') WITH ORDINALITY AS x(l, o)
WHERE p.id = 1 AND k.name = 'site_pages' ORDER BY x.o;
SELECT length(body) AS page_chars, length(textfp_strip_boilerplate(body, lex)) AS stripped_chars
FROM site_pages, lexicons WHERE id = 1 AND name = 'site_pages';
\echo 'the 66 pairs of pages: simhash distance of the pages and of the stripped pages'
SELECT round(avg(a.fp <-> b.fp), 1) AS page_bits,
       round(avg(simhash(textfp_strip_boilerplate(a.body, x.lex)) <-> simhash(textfp_strip_boilerplate(b.body, x.lex))), 1) AS stripped_bits
FROM site_pages a JOIN site_pages b ON a.id < b.id, lexicons x WHERE x.name = 'site_pages';
\echo 'the dedup check of the site, without and with the lexicon (textfp_match confirms simhash''s candidates):'
SELECT textfp_create_match_table('page_matches_plain'), textfp_create_match_table('page_matches_lexicon');
SELECT 'without' AS lexicon, * FROM textfp_check_arrivals(NULL, 'site_pages', 'page_matches_plain',
    methods => '{simhash,textfp_match}', radius => 16, text_column => 'body')
UNION ALL
SELECT 'with', * FROM textfp_check_arrivals(NULL, 'site_pages', 'page_matches_lexicon',
    methods => '{simhash,textfp_match}', radius => 16, text_column => 'body',
    boilerplate => (SELECT lex FROM lexicons WHERE name = 'site_pages'));
\echo 'the same question for one pair, by hand: model 1 (textfp_match''s first model, still'
\echo 'selectable) calls the two pages copies; model 3 (the default) sees that they share only'
\echo 'their leading and trailing lines; with the lexicon the template is gone before either looks:'
SELECT m1.verdict AS model1_verdict, round(m1.score::numeric, 3) AS model1_score,
       m.verdict AS model3_verdict, round(m.score::numeric, 3) AS model3_score,
       s.verdict AS with_lexicon, round(s.score::numeric, 3) AS score_with_lexicon
FROM site_pages a, site_pages b, lexicons x,
     LATERAL textfp_match(a.body, b.body, model => 1) m1,
     LATERAL textfp_match(a.body, b.body) m,
     LATERAL textfp_match(a.body, b.body, boilerplate => x.lex) s
WHERE a.id = 1 AND b.id = 2 AND x.name = 'site_pages';

\echo
\echo '== 10. Passages copied from anywhere in the corpus: a rewritten article (洗稿) made of'
\echo '       passages of three stored articles (one in traditional script, one with homophones),'
\echo '       found through the passage index in one call'
CREATE INDEX articles_passages ON articles USING passage (body);
SELECT pg_size_pretty(pg_relation_size('articles_passages')) AS passage_index,
       pg_size_pretty(sum(octet_length(body))) AS text FROM articles;
CREATE TEMP TABLE rewritten AS
SELECT '综合报道：本文整理自网络，有删改。' ||
       substr((SELECT body FROM articles WHERE id = 5), 1, 140) ||
       '另据了解，相关工作仍在推进之中，记者将持续关注。' ||
       translate(substr((SELECT body FROM articles WHERE id = 20), 60, 150), '这为个们说时', '這為個們說時') ||
       '对此，业内人士表示，还需要进一步观察。' ||
       translate(substr((SELECT body FROM articles WHERE id = 34), 1, 160), '的是在和一', '地事再合衣') ||
       '（完）' AS body;
SELECT rank, source_id, round(share::numeric, 2) AS share, passage, source_start, source_length,
       query_start, query_length, round(similarity::numeric, 2) AS similarity, frequency,
       left(a.title, 24) AS source_title
FROM rewritten r, textfp_sources(r.body, 'articles') s JOIN articles a ON a.id = s.source_id
ORDER BY rank, passage;
SELECT array_agg(DISTINCT source_id ORDER BY source_id) = '{5,20,34}' AS all_three_found
FROM rewritten r, textfp_sources(r.body, 'articles');
\echo 'it arrives as a new article; the daily job''s passages method records the partial copies'
\echo '(similarity: the share of the new article copied; distance: the number of passages)'
INSERT INTO articles (id, lang, source, title, body)
SELECT 1000, 'zh', 'aggregator', '综合报道', body FROM rewritten;
SELECT * FROM textfp_check_arrivals('SELECT * FROM articles WHERE id = 1000', 'articles', 'article_matches',
    methods => '{passages}', text_column => 'body');
SELECT m.new_id, m.matched_id, m.distance AS passages, round(m.similarity::numeric, 2) AS share,
       left(a.title, 30) AS source_title
FROM article_matches m JOIN articles a ON a.id = m.matched_id
WHERE m.method = 'passages' AND m.new_id = 1000 ORDER BY m.similarity DESC;
\pset format unaligned
\pset tuples_only on
\o tmp_check/demo_passages.html
SELECT textfp_report('articles', 'article_matches', source_column => 'source', clusters => 5,
                     method => 'passages', heading => 'textfp demo: partial copies');
\o
\pset format aligned
\pset tuples_only off
\! echo "partial copies with their passages side by side: $(pwd)/tmp_check/demo_passages.html"

