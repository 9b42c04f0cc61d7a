--
-- The passage index access method: over every stored document and
-- hundreds of spliced and edited queries, "body %& passage_query(q, m)"
-- through the index returns what a sequential scan returns, after the
-- build, after inserts into the pending list and merges, after deletes and
-- VACUUM; on a passage_fingerprint column; storage parameters, statistics
-- and bad input.
--
-- The access method needs PostgreSQL 15 or later (src/sql/81_passage_index.sql):
-- on 13 and 14 the extension has no passage method and this test stops here.
SELECT pg_catalog.current_setting('server_version_num')::int4 < 150000 AS no_passage \gset
SELECT amname FROM pg_am WHERE amname = 'passage';
\if :no_passage
\quit
\endif
-- (a schema of its own: the tables of the tests of a stream share a database)
CREATE SCHEMA passage_index_t;
SET search_path = passage_index_t, public;
\i sql/include/err.sql
SET jit = off;
-- a uniform number in [0, 1) from a string: the same on every version and
-- plan (random()'s values depend on the order the rows are computed in)
CREATE FUNCTION u(seed text) RETURNS float8 LANGUAGE sql IMMUTABLE AS $$
  SELECT (('x' || substr(md5(seed), 1, 8))::bit(32)::int::bigint + 2147483648) / 4294967296.0
$$;
-- (no autovacuum: the runs, merges and pending entries printed below depend
-- only on this test's statements)
CREATE TABLE doc (id int PRIMARY KEY, lang text, body text) WITH (autovacuum_enabled = off);
\copy doc FROM PROGRAM 'cut -f1,2,5 test/data/corpus.tsv'
INSERT INTO doc VALUES (100000, 'none', NULL), (100001, 'none', ''), (100002, 'none', '短');
CREATE INDEX doc_p ON doc USING passage (body);
SELECT k, w, reading, rows_indexed, sorted_entries > 30000 AS many, pending_entries, runs, merges
FROM passage_index_stats('doc_p');
SELECT pg_relation_size('doc_p') < 2 * (SELECT sum(octet_length(body)) FROM doc) AS size_under_twice_the_text;

-- the queries: every 5th document whole, and spliced texts of two documents
-- with a few characters or words changed
CREATE TABLE q (qid int, body text);
INSERT INTO q SELECT id, body FROM doc WHERE id % 5 = 0 AND body IS NOT NULL;
INSERT INTO q
SELECT 10000 + g,
       '无关的开头。' || substr(a.body, 1 + (u(g || 'a0') * 200)::int, 80 + (u(g || 'a1') * 300)::int) ||
       ' unrelated words in between ' ||
       regexp_replace(substr(b.body, 1 + (u(g || 'b0') * 200)::int, 80 + (u(g || 'b1') * 300)::int), '[的是在了e]', 'X', 'g')
FROM generate_series(1, 150) g
JOIN doc a ON a.id = 1 + (g * 7) % 453
JOIN doc b ON b.id = 1 + (g * 13 + 5) % 453;

-- the index's answers, and a reference that needs no index: the seeds of
-- every row and query in tables, joined on hash and a context byte, the
-- query seeds matched per row counted (the definition of %&)
CREATE FUNCTION answers(tab regclass) RETURNS TABLE (qid int, m int, ids int[])
LANGUAGE plpgsql AS $$
BEGIN
  RETURN QUERY EXECUTE format(
    'SELECT q.qid, m, (SELECT array_agg(d.id ORDER BY d.id) FROM %s d
                       WHERE d.body %%& passage_query(q.body, m))
     FROM q, (VALUES (1), (2), (4)) ms(m)', tab);
END $$;
CREATE FUNCTION reference() RETURNS TABLE (qid int, m int, ids int[])
LANGUAGE sql AS $$
  WITH ds AS MATERIALIZED (SELECT d.id, s.* FROM doc d, passage_fp_seeds(passage_fp(d.body)) s),
       qs AS MATERIALIZED (SELECT q.qid, s.* FROM q, passage_fp_seeds(passage_fp(q.body)) s),
       c AS MATERIALIZED (
         SELECT qs.qid, ds.id, count(DISTINCT qs.unit) AS shared
         FROM qs JOIN ds ON ds.hash = qs.hash
          AND (ds.left_context = qs.left_context OR ds.right_context = qs.right_context)
         GROUP BY 1, 2)
  SELECT q.qid, m, (SELECT array_agg(c.id ORDER BY c.id) FROM c WHERE c.qid = q.qid AND c.shared >= m)
  FROM q, (VALUES (1), (2), (4)) ms(m)
$$;
CREATE TABLE seq AS SELECT * FROM reference();
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM doc WHERE body %& passage_query('国家统计局今天发布数据显示前三季度', 1);
SELECT count(*) AS probes, sum(cardinality(s.ids)) AS rows_found,
       count(*) FILTER (WHERE s.ids IS DISTINCT FROM i.ids) AS differ
FROM seq s JOIN answers('doc') i USING (qid, m);
RESET enable_seqscan;

-- inserts: copies of documents with edits, into the pending list; merges
INSERT INTO doc
SELECT 200000 + g * 1000 + id, lang,
       CASE g % 3 WHEN 0 THEN body
                  WHEN 1 THEN '转载：' || regexp_replace(body, '[的s]', '', 'g')
                  ELSE substr(body, 1 + length(body) / 3) || ' 来源：网络' END
FROM doc, generate_series(1, 4) g WHERE id < 100000;
SELECT rows_indexed, pending_entries > 0 OR merges > 0 AS inserts_indexed, runs >= 1 AS has_runs, merges > 0 AS merged
FROM passage_index_stats('doc_p');
CREATE TABLE seq2 AS SELECT * FROM reference();
SET enable_seqscan = off;
SELECT count(*) AS probes, sum(cardinality(s.ids)) AS rows_found,
       count(*) FILTER (WHERE s.ids IS DISTINCT FROM i.ids) AS differ
FROM seq2 s JOIN answers('doc') i USING (qid, m);
RESET enable_seqscan;

-- deletes, VACUUM (marks, merges the pending list, frees pages)
DELETE FROM doc WHERE id % 4 = 1;
VACUUM doc;
SELECT pending_entries, runs >= 1 AS has_runs FROM passage_index_stats('doc_p');
CREATE TABLE seq3 AS SELECT * FROM reference();
SET enable_seqscan = off;
SELECT count(*) AS probes, sum(cardinality(s.ids)) AS rows_found,
       count(*) FILTER (WHERE s.ids IS DISTINCT FROM i.ids) AS differ
FROM seq3 s JOIN answers('doc') i USING (qid, m);
RESET enable_seqscan;
-- REINDEX gives one run with the same answers
REINDEX INDEX doc_p;
SELECT pending_entries, runs, merges FROM passage_index_stats('doc_p');
SET enable_seqscan = off;
SELECT count(*) FILTER (WHERE s.ids IS DISTINCT FROM i.ids) AS differ_after_reindex
FROM seq3 s JOIN answers('doc') i USING (qid, m);
RESET enable_seqscan;

-- a passage_fingerprint column (a generated one) and its index
CREATE TABLE docfp (id int, body text,
                    fp passage_fingerprint GENERATED ALWAYS AS (passage_fp(body)) STORED)
  WITH (autovacuum_enabled = off);
INSERT INTO docfp (id, body) SELECT id, body FROM doc WHERE id < 100000;
CREATE INDEX docfp_p ON docfp USING passage (fp);
SET enable_seqscan = off;
SELECT count(*) FILTER (WHERE (SELECT array_agg(d.id ORDER BY d.id) FROM docfp d
                               WHERE d.fp %& passage_query(passage_fp(q.body), 2))
                        IS DISTINCT FROM
                              (SELECT array_agg(d.id ORDER BY d.id) FROM doc d
                               WHERE d.id < 100000 AND d.body %& passage_query(q.body, 2))) AS differ
FROM q;
RESET enable_seqscan;
-- fingerprints of other options cannot go into it, nor search it
SELECT err($$INSERT INTO docfp (id, body) VALUES (1, 'x')$$) AS same_options;
CREATE TABLE docfp2 (id int, fp passage_fingerprint);
CREATE INDEX docfp2_p ON docfp2 USING passage (fp);
SELECT err($$INSERT INTO docfp2 VALUES (1, passage_fp('国家统计局今天发布数据显示前三季度', 3, 4))$$);

-- storage parameters
CREATE TABLE small (id int, body text);
INSERT INTO small SELECT id, body FROM doc WHERE id < 60;
CREATE INDEX small_p ON small USING passage (body) WITH (k = 3, w = 4, reading = false);
SELECT k, w, reading FROM passage_index_stats('small_p');
SET enable_seqscan = off;
SELECT err($$SELECT count(*) FROM small WHERE body %& passage_query('国家统计局今天发布数据显示前三季度', 1)$$);
SELECT count(*) FILTER (WHERE
         (SELECT array_agg(s.id ORDER BY s.id) FROM small s WHERE s.body %& passage_query(q.body, 1, 3, 4, false))
         IS DISTINCT FROM
         (SELECT array_agg(s.id ORDER BY s.id) FROM small s WHERE s.body || '' %& passage_query(q.body, 1, 3, 4, false))) AS differ
FROM q;
RESET enable_seqscan;
SELECT q, err(q) FROM (VALUES
  ($$CREATE INDEX ON small USING passage (body) WITH (k = 0)$$),
  ($$CREATE INDEX ON small USING passage (body) WITH (k = 17)$$),
  ($$CREATE INDEX ON small USING passage (body) WITH (w = 65)$$),
  ($$CREATE INDEX ON small USING passage (body) WITH (reading = maybe)$$),
  ($$CREATE INDEX ON small USING passage (body) WITH (tables = 2)$$),
  ($$CREATE INDEX ON small USING passage (id)$$),
  ($$CREATE INDEX ON small USING passage (body, body)$$),
  ($$CREATE UNIQUE INDEX ON small USING passage (body)$$),
  ($$SELECT * FROM passage_index_stats('small')$$),
  ($$SELECT * FROM passage_index_stats('doc_pkey')$$),
  ($$SELECT * FROM passage_index_stats(0)$$)
) t(q);

-- concurrently built, unlogged, and empty
CREATE INDEX CONCURRENTLY small_p2 ON small USING passage (body);
CREATE UNLOGGED TABLE ul (id int, body text);
CREATE INDEX ul_p ON ul USING passage (body);
INSERT INTO ul SELECT id, body FROM doc WHERE id < 30;
SET enable_seqscan = off;
SELECT count(*) FROM ul WHERE body %& passage_query((SELECT body FROM doc WHERE id = 7), 3);
SELECT count(*) FROM small WHERE body %& passage_query((SELECT body FROM doc WHERE id = 7), 3);
RESET enable_seqscan;
CREATE TABLE empty (body text);
CREATE INDEX empty_p ON empty USING passage (body);
SELECT rows_indexed, sorted_entries, runs FROM passage_index_stats('empty_p');
SELECT count(*) FROM empty WHERE body %& passage_query('一段不在表里的文字，足够长，能有种子', 1);
RESET search_path;
DROP SCHEMA passage_index_t CASCADE;
