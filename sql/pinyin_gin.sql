--
-- GIN operator class pinyin_dna_ops: "rows sharing at least m window DNAs"
-- must give exactly the rows a sequential scan gives, over many random
-- queries (small value domain so that overlaps are frequent).
--
-- pseudo-random numbers 0 .. n-1 from a hash, not random(): the same data
-- on every PostgreSQL version (random() changed its generator in 15)
CREATE FUNCTION pick(a int, b int, n int) RETURNS int
LANGUAGE sql IMMUTABLE AS $$ SELECT (hashint8($1::int8 * 100003 + $2) & 2147483647) % $3 $$;
CREATE TABLE dnas (id int PRIMARY KEY, dna int8[]);
INSERT INTO dnas
SELECT i, ARRAY(SELECT pick(i, g, 301)::int8 - 5 FROM generate_series(1, pick(i, 0, 13)) g)
FROM generate_series(1, 3000) i;
-- some NULL elements, empty arrays and NULL arrays
UPDATE dnas SET dna = dna || NULL::int8 WHERE id % 97 = 0;
UPDATE dnas SET dna = '{}' WHERE id % 101 = 0;
UPDATE dnas SET dna = NULL WHERE id % 103 = 0;
CREATE TABLE queries (qid int, q int8[], m int);
INSERT INTO queries
SELECT j, ARRAY(SELECT pick(-j, g, 301)::int8 - 5 FROM generate_series(1, 1 + pick(-j, 0, 16)) g),
       1 + pick(-j, -1, 5)
FROM generate_series(1, 200) j;
INSERT INTO queries VALUES (201, '{}', 1), (202, '{1,NULL}', 1), (203, '{1,1,1}', 2);
-- sequential scan results
SET enable_indexscan = off; SET enable_bitmapscan = off;
CREATE TABLE seq AS
SELECT qid, array_agg(id ORDER BY id) AS ids
FROM queries, dnas WHERE dna %& pinyin_dna_query(q, m) GROUP BY qid;
-- the same with the index
RESET enable_indexscan; RESET enable_bitmapscan; SET enable_seqscan = off;
CREATE INDEX dnas_gin ON dnas USING gin (dna pinyin_dna_ops);
EXPLAIN (COSTS OFF) SELECT id FROM dnas WHERE dna %& pinyin_dna_query('{1,2,3}', 2);
CREATE FUNCTION idx_ids(q int8[], m int) RETURNS int[] LANGUAGE sql STABLE AS
$$ SELECT array_agg(id ORDER BY id) FROM dnas WHERE dna %& pinyin_dna_query(q, m) $$;
SELECT count(*) AS queries,
       count(*) FILTER (WHERE s.ids IS NOT DISTINCT FROM idx_ids(q, m)) AS equal,
       count(*) FILTER (WHERE s.ids IS NOT NULL) AS nonempty,
       sum(coalesce(array_length(s.ids, 1), 0)) AS total_rows
FROM queries LEFT JOIN seq s USING (qid);
-- shared counts agree with the operator at the boundary m = shared, shared + 1
SELECT count(*) AS pairs,
       count(*) FILTER (WHERE (dna %& pinyin_dna_query(q, greatest(k, 1))) = (k >= 1)
                          AND NOT (dna %& pinyin_dna_query(q, k + 1))) AS consistent
FROM (SELECT dna, q, pinyin_dna_shared(dna, q) AS k FROM dnas, queries
      WHERE dna IS NOT NULL AND qid <= 20) x;
RESET enable_seqscan;
-- real DNAs: the Chinese documents of the sample corpus (reposts included),
-- every document a query with m = 1..3
CREATE TABLE corpus (id int PRIMARY KEY, lang text, source text, title text, body text);
\copy corpus FROM 'test/data/corpus.tsv'
CREATE TABLE real_dna AS
SELECT id, pinyin_dna(body, 16) AS dna FROM corpus WHERE lang = 'zh';
SET enable_indexscan = off; SET enable_bitmapscan = off;
CREATE TABLE real_seq AS
SELECT q.id AS qid, m, array_agg(r.id ORDER BY r.id) AS ids
FROM real_dna q, generate_series(1, 3) m, real_dna r
WHERE r.dna %& pinyin_dna_query(q.dna, m) GROUP BY q.id, m;
RESET enable_indexscan; RESET enable_bitmapscan; SET enable_seqscan = off;
CREATE INDEX real_gin ON real_dna USING gin (dna pinyin_dna_ops);
CREATE FUNCTION real_idx(q int8[], m int) RETURNS int[] LANGUAGE sql STABLE AS
$$ SELECT array_agg(id ORDER BY id) FROM real_dna WHERE dna %& pinyin_dna_query(q, m) $$;
SELECT count(*) AS docs, sum(cardinality(dna)) AS dnas FROM real_dna;
SELECT g.m, count(*) AS queries,
       count(*) FILTER (WHERE s.ids IS NOT DISTINCT FROM real_idx(q.dna, g.m)) AS equal,
       sum(coalesce(array_length(s.ids, 1), 0)) AS total_rows
FROM real_dna q CROSS JOIN generate_series(1, 3) g(m)
LEFT JOIN real_seq s ON s.qid = q.id AND s.m = g.m
GROUP BY g.m ORDER BY g.m;
RESET enable_seqscan;
