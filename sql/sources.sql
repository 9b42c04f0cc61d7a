--
-- textfp_sources(): the stored documents a text took passages from.  Texts
-- spliced from one to three stored documents (as they are, with edits,
-- with homophones, in traditional script) find their sources with the
-- passages' positions in both texts; through the passage index the answer
-- is the one of reading the whole table; boilerplate lines, how common a
-- passage is, partitioned corpora, and bad input.
--
-- From PostgreSQL 15 the corpus has a passage index; on 13 and 14 (no
-- passage method) the same answers come from reading the table.
-- (a schema of its own: the tables of the tests of a stream share a database)
CREATE SCHEMA sources_t;
SET search_path = sources_t, public;
SELECT pg_catalog.current_setting('server_version_num')::int4 >= 150000 AS use_index \gset
\i sql/include/err.sql
SET jit = off;
-- a uniform number in [0, 1) from a string: the same on every version
-- (random() changed its algorithm in PostgreSQL 15)
CREATE FUNCTION u(seed text) RETURNS float8 LANGUAGE sql IMMUTABLE AS $$
  SELECT (('x' || substr(md5(seed), 1, 8))::bit(32)::int::bigint + 2147483648) / 4294967296.0
$$;
CREATE TABLE doc (id int PRIMARY KEY, lang text, body text) WITH (autovacuum_enabled = off);
\copy doc FROM PROGRAM 'cut -f1,2,5 test/data/corpus.tsv'
\if :use_index
CREATE INDEX doc_p ON doc USING passage (body);
\endif

-- a text made of three passages of three documents, with filler around
CREATE TABLE q (qid int, body text, sources int[]);
INSERT INTO q VALUES (1,
  '开头是一段与文库无关的文字，讲的是天气和交通。' || substr((SELECT body FROM doc WHERE id = 3), 20, 120) ||
  ' Some unrelated English filler between the passages. ' || substr((SELECT body FROM doc WHERE id = 300), 50, 200) ||
  '中间又有几句新写的话。' || substr((SELECT body FROM doc WHERE id = 7), 1, 100) || '结尾也是新的。',
  '{3,300,7}');
SELECT rank, source_id, round(share::numeric, 3) AS share, source_passages, passage,
       source_start, source_length, query_start, query_length, matched,
       round(similarity::numeric, 3) AS similarity, frequency
FROM q, textfp_sources(q.body, 'doc', use_index => :'use_index') WHERE qid = 1;
-- the passages are where the positions say, in both texts
SELECT s.source_id, substr(d.body, s.source_start, 12) AS source_text,
       substr(q.body, s.query_start, 12) AS query_text
FROM q, textfp_sources(q.body, 'doc', use_index => :'use_index') s JOIN doc d ON d.id = s.source_id
WHERE qid = 1 ORDER BY s.rank, s.passage;

-- edits and homophones: a Chinese passage with one character in ten
-- dropped, and one with its most common characters replaced by homophones
-- (的/地, 是/事, 在/再, ...: toneless readings), is still one passage of its
-- source; with every eighth character dropped no run of 13 units is left,
-- and nothing is found (the guarantee's bound)
INSERT INTO q VALUES (2,
  '新闻稿：' || regexp_replace(substr((SELECT body FROM doc WHERE id = 12), 10, 150), '(.{9})(.)', '\1', 'g') || '。完。',
  '{12}');
INSERT INTO q VALUES (3,
  '摘录如下：' || translate(substr((SELECT body FROM doc WHERE id = 20), 1, 150), '的是在和一有不以为中个这', '地事再合衣又布已位钟各者') || '以上。',
  '{20}');
INSERT INTO q VALUES (4,
  '摘录如下：' || regexp_replace(substr((SELECT body FROM doc WHERE id = 20), 1, 150), '(.{7})(.)', '\1', 'g') || '以上。',
  '{20}');
SELECT (SELECT count(*) FROM regexp_matches(substr(body, 1, 150), '[的是在和一有不以为中个这]', 'g')) AS homophones_in_150
FROM doc WHERE id = 20;
SELECT qid, rank, source_id, source_passages, source_length, query_length, round(similarity::numeric, 2) AS similarity
FROM q, textfp_sources(q.body, 'doc', use_index => :'use_index') WHERE qid IN (2, 3, 4) ORDER BY qid, rank, passage;

-- the index gives the answers of reading the table, over 80 spliced texts
-- (1-3 passages of 60-300 characters of random documents, 1 in 4 with some
-- characters or words dropped)
INSERT INTO q
SELECT 100 + g,
       string_agg(
         CASE WHEN u(g || 'e' || p.j) < 0.25
              THEN regexp_replace(substr(d.body, p.s, p.l), '(.{9})(.)', '\1', 'g')
              ELSE substr(d.body, p.s, p.l) END,
         ' 这里是新写的过渡句子，和文库没有关系。 ' ORDER BY p.j),
       array_agg(d.id ORDER BY p.j)
FROM generate_series(1, 80) g,
     LATERAL (SELECT j, 1 + (u(g || 'd' || j) * 452)::int AS id, 1 + (u(g || 's' || j) * 200)::int AS s,
                     60 + (u(g || 'l' || j) * 240)::int AS l
              FROM generate_series(1, 1 + (g % 3)) j) p
JOIN doc d ON d.id = p.id
GROUP BY g;
CREATE FUNCTION sources_of(qbody text, idx boolean) RETURNS text LANGUAGE sql AS $$
  SELECT coalesce(string_agg(format('%s:%s:%s:%s+%s/%s+%s:%s', rank, source_id, round(share::numeric, 4),
                                    passage, source_start, source_length, query_start, query_length),
                             ' ' ORDER BY rank, passage), '')
  FROM textfp_sources(qbody, 'doc', use_index => idx)
$$;
SELECT count(*) AS texts,
       count(*) FILTER (WHERE sources_of(body, :'use_index') IS DISTINCT FROM sources_of(body, false)) AS differ
FROM q WHERE qid >= 100;
-- and the true sources are found: every source whose passage textfp_align
-- finds (at min_length 40) when given the true pair is found (a source is
-- the document the passage was cut from, or another document holding the
-- same text); the rest are passages too short (an English one of 60
-- characters is about 20 length units) or too edited for alignment itself.
-- The few alignable ones missed have a tenth of their characters dropped,
-- evenly: runs of 9 units, below the 13 of the guarantee (at 5% of edits a
-- 40-unit passage keeps a run of 13)
SELECT count(*) AS passages,
       count(*) FILTER (WHERE aligned) AS alignable,
       count(*) FILTER (WHERE aligned AND found) AS found_of_alignable,
       count(*) FILTER (WHERE found) AS found
FROM (SELECT EXISTS (SELECT 1 FROM textfp_align((SELECT body FROM doc WHERE id = src), q.body, min_length => 40)) AS aligned,
             EXISTS (SELECT 1 FROM textfp_sources(q.body, 'doc', use_index => :'use_index') s
                     WHERE s.source_id = src OR
                           (SELECT body FROM doc WHERE id = s.source_id) = (SELECT body FROM doc WHERE id = src)) AS found
      FROM q, unnest(q.sources) src WHERE qid >= 100) x;
-- a text with nothing copied finds nothing
SELECT count(*) AS sources FROM textfp_sources('这是一段完全新写的文字，没有从任何文档中复制，讲述一个关于小猫和花园的故事。The cat sat in the garden all afternoon and watched the birds.', 'doc', use_index => :'use_index');

-- min_length, max_sources, max_docs
SELECT min_length, count(DISTINCT source_id) AS sources, min(matched) AS shortest
FROM q, (VALUES (16), (40), (100)) ml(min_length),
     textfp_sources(q.body, 'doc', min_length => ml.min_length, use_index => :'use_index')
WHERE qid = 1 GROUP BY min_length ORDER BY min_length;
SELECT count(DISTINCT source_id) AS sources FROM q, textfp_sources(q.body, 'doc', max_sources => 1, use_index => :'use_index') WHERE qid = 1;

-- common text: a template line in 29 documents; with max_docs => 20 its
-- seeds found in more than 20 documents are not looked up (fewer sources,
-- found through its rarer seeds), and how common the passage is shows in
-- frequency (the median, over its seeds, of the documents holding them)
CREATE TABLE site (id int, body text) WITH (autovacuum_enabled = off);
INSERT INTO site SELECT id, body || E'\n本文由本站编辑整理发布，转载请注明出处并保留原文链接，谢谢合作。' FROM doc WHERE id <= 60 AND lang = 'zh';
INSERT INTO site SELECT id, body FROM doc WHERE id > 60;
\if :use_index
CREATE INDEX site_p ON site USING passage (body);
\endif
SELECT max_docs, count(DISTINCT source_id) AS sources, max(frequency) AS max_frequency
FROM (VALUES (0), (20), (1000)) md(max_docs),
     textfp_sources('转载说明：本文由本站编辑整理发布，转载请注明出处并保留原文链接，谢谢合作。', 'site',
                    min_length => 20, max_docs => md.max_docs, max_sources => 100, use_index => :'use_index')
GROUP BY max_docs ORDER BY max_docs;
-- the boilerplate lexicon of the site: its lines are not searched
CREATE TABLE lex AS SELECT textfp_build_boilerplate('site', 'body', min_docs => 20) AS lex;
SELECT textfp_boilerplate_size(lex) > 0 AS has_lines FROM lex;
SELECT count(DISTINCT source_id) AS sources_without_lexicon
FROM textfp_sources('转载说明：本文由本站编辑整理发布，转载请注明出处并保留原文链接，谢谢合作。', 'site', min_length => 20, use_index => :'use_index');
SELECT count(DISTINCT source_id) AS sources_with_lexicon
FROM lex, textfp_sources(E'转载说明：\n本文由本站编辑整理发布，转载请注明出处并保留原文链接，谢谢合作。', 'site', min_length => 20,
                         boilerplate => lex.lex, use_index => :'use_index');

-- a partitioned corpus (an index on each partition)
CREATE TABLE part (id int, lang text, body text) PARTITION BY LIST (lang);
CREATE TABLE part_zh PARTITION OF part FOR VALUES IN ('zh');
CREATE TABLE part_en PARTITION OF part FOR VALUES IN ('en');
INSERT INTO part SELECT * FROM doc;
\if :use_index
CREATE INDEX ON part USING passage (body);
\endif
SELECT count(*) FILTER (WHERE sources_of(body, :'use_index') IS DISTINCT FROM
         (SELECT coalesce(string_agg(format('%s:%s:%s:%s+%s/%s+%s:%s', rank, source_id, round(share::numeric, 4),
                                            passage, source_start, source_length, query_start, query_length),
                                     ' ' ORDER BY rank, passage), '')
          FROM textfp_sources(q.body, 'part', use_index => :'use_index'))) AS differ_partitioned
FROM q WHERE qid < 120;

-- max_docs and frequency count the whole corpus, not each partition: the
-- site table in two partitions (14 and 15 of the 29 template rows in each,
-- so max_docs => 20 binds only over both) answers as one table
CREATE TABLE site2 (id int, body text) PARTITION BY LIST ((id % 2));
CREATE TABLE site2_0 PARTITION OF site2 FOR VALUES IN (0);
CREATE TABLE site2_1 PARTITION OF site2 FOR VALUES IN (1);
INSERT INTO site2 SELECT * FROM site;
\if :use_index
CREATE INDEX ON site2 USING passage (body);
\endif
CREATE FUNCTION src_text(t text, corpus regclass, md int, ui boolean) RETURNS text LANGUAGE sql AS $$
  SELECT coalesce(string_agg(format('%s:%s:%s:%s:%s+%s/%s+%s:%s:%s:%s', rank, source_id, share, passage,
                                    source_start, source_length, query_start, query_length, matched,
                                    similarity, frequency), ' ' ORDER BY rank, passage), '')
  FROM textfp_sources(t, corpus, min_length => 20, max_docs => md, max_sources => 100, use_index => ui)
$$;
SELECT md.max_docs,
       src_text(x.t, 'site', md.max_docs, :'use_index') = src_text(x.t, 'site2', md.max_docs, :'use_index') AS same_as_one_table
FROM (VALUES (0), (20), (1000)) md(max_docs),
     (VALUES ('转载说明：本文由本站编辑整理发布，转载请注明出处并保留原文链接，谢谢合作。')) x(t)
ORDER BY 1;

-- the pieces of textfp_sources() on Citus (docs/citus.md), on one table:
-- the df of each seed of the query, and the source query with the df given
-- (as the shards get it, added up), which answers as textfp_sources() with
-- each passage's length in units besides
SELECT cardinality(textfp_sources_df(x.t, 'site', 'id', 'body', NULL, :'use_index'))
         = passage_fp_count(passage_fp(x.t)) AS one_df_per_seed,
       (SELECT max(v) FROM unnest(textfp_sources_df(x.t, 'site', 'id', 'body', NULL, :'use_index')) v) >= 29
         AS the_template_line_is_common,
       (SELECT string_agg(format('%s:%s:%s:%s:%s+%s/%s+%s:%s:%s:%s', rank, source_id, share, passage,
                                 source_start, source_length, query_start, query_length, matched,
                                 similarity, frequency), ' ' ORDER BY rank, passage)
        FROM textfp_sources_shard(x.t, 'site', 'id', 'body', 20, 100, 20, NULL, :'use_index', 100,
                                  textfp_sources_df(x.t, 'site', 'id', 'body', NULL, :'use_index')))
         = src_text(x.t, 'site', 20, :'use_index') AS shard_form_same,
       (SELECT bool_and(passage_units BETWEEN 20 AND query_length)
        FROM textfp_sources_shard(x.t, 'site', 'id', 'body', 20, 100, 0, NULL, :'use_index', 100,
                                  textfp_sources_df(x.t, 'site', 'id', 'body', NULL, :'use_index'))) AS units_of_the_passage
FROM (VALUES ('转载说明：本文由本站编辑整理发布，转载请注明出处并保留原文链接，谢谢合作。')) x(t);

-- bad input
CREATE TABLE noidx (id int, body text);
CREATE TABLE textid (id text, body text);
CREATE TABLE intbody (id int, body int);
CREATE VIEW v AS SELECT * FROM doc;
CREATE TABLE rls (id int, body text);
ALTER TABLE rls ENABLE ROW LEVEL SECURITY;
ALTER TABLE rls FORCE ROW LEVEL SECURITY;
SELECT q, err(q) FROM (VALUES
  ($$SELECT * FROM textfp_sources('x', 'doc', min_length => 0)$$),
  ($$SELECT * FROM textfp_sources('x', 'doc', max_sources => 0)$$),
  ($$SELECT * FROM textfp_sources('x', 'doc', max_docs => -1)$$),
  ($$SELECT * FROM textfp_sources('x', 'doc', max_candidates => 0)$$),
  ($$SELECT * FROM textfp_sources('x', 'doc', id_column => NULL)$$),
  ($$SELECT * FROM textfp_sources('x', 'doc', id_column => 'nope')$$),
  ($$SELECT * FROM textfp_sources('x', 'doc', text_column => 'nope')$$),
  ($$SELECT * FROM textfp_sources('x', 'textid', use_index => false)$$),
  ($$SELECT * FROM textfp_sources('x', 'intbody', use_index => false)$$),
  ($$SELECT * FROM textfp_sources('x', 'v', use_index => false)$$),
  ($$SELECT * FROM textfp_sources('x', 0)$$),
  ($$SELECT * FROM textfp_sources_shard('本文由本站编辑整理发布', 'doc', 'id', 'body', 40, 10, 0, NULL, false, 100, '{1,2}')$$),
  ($$SELECT * FROM textfp_sources_shard('本文由本站编辑整理发布', 'doc', 'id', 'body', 40, 10, 0, NULL, false, 100, '{NULL}')$$),
  ($$SELECT * FROM textfp_sources_shard('本文由本站编辑整理发布', 'doc', 'id', 'body', 40, 10, 0, NULL, false, 100, '{-1}')$$),
  ($$SELECT * FROM textfp_sources_shard('本文由本站编辑整理发布', 'doc', 'id', 'body', 40, 10, 0, NULL, false, 100, NULL)$$)
) t(q);
-- no passage index: a clear error (its hint names the index to create)
SELECT split_part(err($$SELECT * FROM textfp_sources('x', 'noidx')$$), ':', 1) AS no_index_sqlstate;
-- NULL query or corpus: no rows; the empty text: no rows
SELECT count(*) FROM textfp_sources(NULL, 'doc', use_index => :'use_index');
SELECT count(*) FROM textfp_sources('x', NULL);
SELECT count(*) FROM textfp_sources('', 'doc', use_index => :'use_index');
-- privileges: SELECT on the table (or on both columns) is needed
CREATE ROLE textfp_sources_reader;
GRANT USAGE ON SCHEMA public, sources_t TO textfp_sources_reader;
SET ROLE textfp_sources_reader;
SELECT split_part(err($$SELECT * FROM textfp_sources('x', 'doc', use_index => false)$$), ':', 1) AS no_privilege;
RESET ROLE;
GRANT SELECT (id, body) ON doc TO textfp_sources_reader;
SELECT body AS q1 FROM q WHERE qid = 1 \gset
SET ROLE textfp_sources_reader;
SELECT count(*) AS with_column_privilege FROM textfp_sources(:'q1', 'doc', use_index => :'use_index');
-- row-level security applies to this user: refused (the rows are read
-- through the index, not through a query the policies would filter)
RESET ROLE;
GRANT SELECT ON rls TO textfp_sources_reader;
SET ROLE textfp_sources_reader;
SELECT err($$SELECT * FROM textfp_sources('x', 'rls', use_index => false)$$) AS row_security;
RESET ROLE;
REVOKE ALL ON doc, rls FROM textfp_sources_reader;
REVOKE ALL ON SCHEMA public, sources_t FROM textfp_sources_reader;
DROP ROLE textfp_sources_reader;
RESET search_path;
DROP SCHEMA sources_t CASCADE;
