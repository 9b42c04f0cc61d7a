--
-- supershingles(): Broder's super-shingles over minhash signatures: golden
-- values, relations worked by hand, empty signatures, bad parameters, and
-- "at least 2 shared" through the GIN class int8_set_ops, equal to a
-- sequential scan.
--
-- objects of this test live in their own schema, dropped at the end
CREATE SCHEMA supershingles_t;
SET search_path = supershingles_t, public;
\i sql/include/err.sql
\i sql/include/golden_texts.sql

-- golden values: the stability contract (never to be updated); Henzinger's
-- setting, 84 values in 6 groups of 14
SELECT id, note, cardinality(supershingles(minhash(body, 84))) AS n, md5(supershingles(minhash(body, 84))::text) AS digest
FROM golden ORDER BY id;
SELECT id, supershingles(minhash(body, 84)) FROM golden WHERE id IN (1, 4, 14) ORDER BY id;
SELECT supershingles(minhash(body, 84, ngram => 2, shingle => 1), 14) FROM golden WHERE id = 6;
-- the folds reach through the signature
SELECT (SELECT supershingles(minhash(body, 84)) FROM golden WHERE id = 1) = (SELECT supershingles(minhash(body, 84)) FROM golden WHERE id = 2) AS trad_eq_simp,
       (SELECT supershingles(minhash(body, 84)) FROM golden WHERE id = 4) = (SELECT supershingles(minhash(body, 84)) FROM golden WHERE id = 5) AS case_folded;

-- Worked by hand: with one value per group (groups = k), super-shingle j
-- is value j hashed with its position, so two signatures share exactly as
-- many super-shingles as they have equal positions: minhash_jaccard * k.
SELECT bool_and(set_shared(supershingles(a.m, 16), supershingles(b.m, 16)) = round(minhash_jaccard(a.m, b.m) * 16))
       AS shared_equals_equal_positions,
       count(*) FILTER (WHERE minhash_jaccard(a.m, b.m) BETWEEN 0.01 AND 0.99) AS partial_pairs
FROM (SELECT id, minhash(body, 16, 2, 1) m FROM golden WHERE NOT minhash_is_empty(minhash(body, 16))) a,
     (SELECT id, minhash(body, 16, 2, 1) m FROM golden WHERE NOT minhash_is_empty(minhash(body, 16))) b;
-- one group of all values: equal iff the signatures are equal
SELECT supershingles(minhash('a b c d e f', 8), 1) = supershingles(minhash('a b c d e f', 8), 1) AS same,
       supershingles(minhash('a b c d e f', 8), 1) = supershingles(minhash('a b c d e g', 8), 1) AS differs;
-- different parameters share nothing (they enter the hash)
SELECT set_shared(supershingles(minhash(body, 84)), supershingles(minhash(body, 84, fold_case => false))) AS folds_differ,
       set_shared(supershingles(minhash(body, 84), 6), supershingles(minhash(body, 84), 12)) AS groups_differ
FROM golden WHERE id = 6;
-- a text without features: no super-shingle (similar to nothing)
SELECT supershingles(minhash('', 84)) AS empty, supershingles(minhash('。！', 6), 3) AS punctuation;
-- bad parameters: 22023
SELECT err($$SELECT supershingles(minhash('a b', 84), 5)$$) AS not_divisor,
       err($$SELECT supershingles(minhash('a b', 84), 0)$$) AS zero,
       err($$SELECT supershingles(minhash('a b', 8), 16)$$) AS too_many,
       err($$SELECT supershingles(minhash('a b', 8), -2)$$) AS negative;

-- search: at least 2 of 6 super-shingles in common (Henzinger), index =
-- sequential scan; documents are the corpus and edited copies of it
CREATE TABLE corpus (id int PRIMARY KEY, lang text, source text, title text, body text);
\copy corpus FROM 'test/data/corpus.tsv'
CREATE TABLE docs AS
SELECT id, supershingles(minhash(body, 84)) AS ss FROM corpus
UNION ALL
SELECT 10000 + id, supershingles(minhash(regexp_replace(body, '(\S+)\s+(\S+)', '\2 \1'), 84)) FROM corpus WHERE id % 3 = 0
UNION ALL
SELECT 20000 + id, supershingles(minhash(left(body, (length(body) * 9) / 10), 84)) FROM corpus WHERE id % 2 = 0;
SET enable_indexscan = off; SET enable_bitmapscan = off;
CREATE TABLE seq AS
SELECT q.id AS qid, m, array_agg(d.id ORDER BY d.id) AS ids
FROM docs q, generate_series(1, 3) m, docs d
WHERE d.ss %& set_overlap_query(q.ss, m) GROUP BY q.id, m;
RESET enable_indexscan; RESET enable_bitmapscan; SET enable_seqscan = off;
CREATE INDEX docs_ss ON docs USING gin (ss int8_set_ops);
CREATE FUNCTION idx(q int8[], m int) RETURNS int[] LANGUAGE sql STABLE AS
$$ SELECT array_agg(id ORDER BY id) FROM docs WHERE ss %& set_overlap_query(q, m) $$;
SELECT g.m, count(*) AS queries, count(*) FILTER (WHERE s.ids IS NOT DISTINCT FROM idx(q.ss, g.m)) AS equal,
       sum(coalesce(array_length(s.ids, 1), 0)) AS total_rows
FROM docs q CROSS JOIN generate_series(1, 3) g(m)
LEFT JOIN seq s ON s.qid = q.id AND s.m = g.m
GROUP BY g.m ORDER BY g.m;
RESET enable_seqscan;
RESET search_path;
SET client_min_messages = warning;
DROP SCHEMA supershingles_t CASCADE;
RESET client_min_messages;
