--
-- The passages method of textfp_check_arrivals: partial copies (the new
-- row's sources, the share of it they cover as similarity, their number of
-- passages as distance) recorded once per pair, a re-run writing nothing;
-- the whole corpus against itself; the partial-copies section of the HTML
-- report; bad parameters.
--
-- From PostgreSQL 15 the corpus has a passage index; on 13 and 14 the
-- method reads the corpus (the same records).
-- (a schema of its own: the tables of the tests of a stream share a database)
CREATE SCHEMA arrivals_passages_t;
SET search_path = arrivals_passages_t, public;
SELECT pg_catalog.current_setting('server_version_num')::int4 >= 150000 AS use_index \gset
\i sql/include/err.sql
SET jit = off;
CREATE TABLE doc (id bigint PRIMARY KEY, lang text, source text, title text, body text)
  WITH (autovacuum_enabled = off);
\copy doc FROM 'test/data/corpus.tsv'
\if :use_index
CREATE INDEX ON doc USING passage (body);
\endif
SELECT textfp_create_match_table('m');
-- two new rows: one made of passages of three stored rows, one of nothing
INSERT INTO doc VALUES
  (1000, 'zh', 'aggregator', '综合报道',
   '综合报道：' || substr((SELECT body FROM doc WHERE id = 5), 1, 140) || '另据了解，相关工作仍在推进之中。' ||
   substr((SELECT body FROM doc WHERE id = 20), 60, 150) || '对此，业内人士表示，还需要进一步观察。' ||
   substr((SELECT body FROM doc WHERE id = 34), 1, 160) || '（完）'),
  (1001, 'zh', 'new', '新文章', '这是一篇完全新写的文章，讲述一只小猫在花园里度过的一个下午，它看着鸟儿飞来飞去。');
SELECT * FROM textfp_check_arrivals('SELECT * FROM doc WHERE id >= 1000', 'doc', 'm',
    methods => '{passages}', text_column => 'body');
SELECT new_id, matched_id, method, distance AS passages, round(similarity::numeric, 3) AS share
FROM m ORDER BY new_id, similarity DESC, matched_id;
-- a re-run writes nothing
SELECT * FROM textfp_check_arrivals('SELECT * FROM doc WHERE id >= 1000', 'doc', 'm',
    methods => '{passages}', text_column => 'body');
-- a new row staged outside the corpus is checked the same way
CREATE TABLE staged (id bigint, body text);
INSERT INTO staged SELECT 2000, body FROM doc WHERE id = 1000;
SELECT * FROM textfp_check_arrivals('SELECT * FROM staged', 'doc', 'm',
    methods => '{passages}', text_column => 'body');
SELECT matched_id FROM m WHERE new_id = 2000 ORDER BY matched_id;
-- passage_min_length and passage_max_sources
SELECT textfp_create_match_table('m2');
SELECT * FROM textfp_check_arrivals('SELECT * FROM doc WHERE id = 1000', 'doc', 'm2',
    methods => '{passages}', text_column => 'body', passage_max_sources => 1);
SELECT * FROM textfp_check_arrivals('SELECT * FROM doc WHERE id = 1000', 'doc', 'm2',
    methods => '{passages}', text_column => 'body', passage_min_length => 200);
-- the whole corpus against itself: every pair once, the larger id as the
-- new row (the corpus holds reposts of other rows: whole copies are
-- passages too)
SELECT textfp_create_match_table('m3');
SELECT * FROM textfp_check_arrivals(NULL, 'doc', 'm3', methods => '{passages}', text_column => 'body');
SELECT count(*) AS records, count(*) FILTER (WHERE new_id > matched_id) AS later_copies_earlier,
       count(*) FILTER (WHERE similarity > 0.9) AS whole_copies
FROM m3;
-- with textfp_match after it: its candidates include the passages records
SELECT * FROM textfp_check_arrivals('SELECT * FROM doc WHERE id = 1000', 'doc', 'm',
    methods => '{passages,textfp_match}', text_column => 'body');

-- the HTML report: a section of partial copies with their passages
SELECT textfp_report('doc', 'm', source_column => 'source', method => 'passages') AS html \gset
SELECT :'html' LIKE '%<h2 id="partial">Partial copies</h2>%' AS has_section,
       (SELECT count(*) FROM regexp_matches(:'html', '<h3 id="partial-1000-', 'g')) AS compared,
       (SELECT count(*) FROM regexp_matches(:'html', 'class="textfp-compare"', 'g')) AS comparisons;
SELECT textfp_report('doc', 'm', method => 'textfp_match') LIKE '%id="partial"%' AS other_method_has_none;

-- bad parameters
SELECT q, err(q) FROM (VALUES
  ($$SELECT * FROM textfp_check_arrivals('SELECT * FROM doc', 'doc', 'm', methods => '{passages}')$$),
  ($$SELECT * FROM textfp_check_arrivals('SELECT * FROM doc', 'doc', 'm', methods => '{passages}', text_column => 'body', passage_min_length => 0)$$),
  ($$SELECT * FROM textfp_check_arrivals('SELECT * FROM doc', 'doc', 'm', methods => '{passages}', text_column => 'body', passage_max_sources => 0)$$),
  ($$SELECT * FROM textfp_check_arrivals('SELECT * FROM doc', 'doc', 'm', methods => '{passages}', text_column => 'id')$$),
  ($$SELECT * FROM textfp_check_arrivals('SELECT * FROM doc', 'doc', 'm', methods => '{passage}', text_column => 'body')$$)
) t(q);
RESET search_path;
DROP SCHEMA arrivals_passages_t CASCADE;
