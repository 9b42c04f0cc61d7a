--
-- longest_sentences(): golden values, examples worked by hand, empty and
-- short input, bad parameters, and "at least m sentences in common" through
-- the GIN class int8_set_ops, equal to a sequential scan.
--
-- objects of this test live in their own schema, dropped at the end
CREATE SCHEMA sentences_t;
SET search_path = sentences_t, public;
\i sql/include/err.sql
\i sql/include/golden_texts.sql

-- golden values: the stability contract (never to be updated)
SELECT id, note, cardinality(longest_sentences(body)) AS n, md5(longest_sentences(body)::text) AS digest
FROM golden ORDER BY id;
SELECT id, longest_sentences(body, 3) FROM golden WHERE id IN (1, 6, 20, 36) ORDER BY id;
-- the folds: traditional, upper case, full width, decomposed marks
SELECT (SELECT longest_sentences(body) FROM golden WHERE id = 1) = (SELECT longest_sentences(body) FROM golden WHERE id = 2) AS trad_eq_simp,
       (SELECT longest_sentences(body) FROM golden WHERE id = 4) = (SELECT longest_sentences(body) FROM golden WHERE id = 5) AS case_folded,
       (SELECT longest_sentences(body) FROM golden WHERE id = 12) = (SELECT longest_sentences(body) FROM golden WHERE id = 13) AS width_folded,
       (SELECT longest_sentences(body) FROM golden WHERE id = 10) = (SELECT longest_sentences(body) FROM golden WHERE id = 11) AS composed;

-- Worked by hand: "A b c. D e! F g h i? J" has the sentences "A b c" (3
-- tokens), "D e" (2), "F g h i" (4), "J" (1).  The two longest are "F g h i"
-- and "A b c": the fingerprint is the set of the hashes of those two
-- sentences alone (punctuation and case are not part of a sentence).
SELECT longest_sentences('A b c. D e! F g h i? J', 2) =
       ARRAY(SELECT x FROM unnest(longest_sentences('f G H I', 1) || longest_sentences('a, b, c', 1)) x ORDER BY x)
       AS two_longest,
       cardinality(longest_sentences('A b c. D e! F g h i? J', 10)) AS all_four;
-- Chinese: 。！？ end sentences, a character is a token: 今天天气很好 (6)
-- 我们去公园散步吧 (8) 好 (1); the longest is the second
SELECT longest_sentences('今天天气很好。我们去公园散步吧！好？', 1) = longest_sentences('我们去公园散步吧', 1) AS zh_longest,
       longest_sentences('今天天气很好。我们去公园散步吧！好？', 1) = longest_sentences('我們去公園散步吧', 1) AS traditional_same;
-- a sentence repeated counts once; 3.14 and example.com do not end sentences
SELECT cardinality(longest_sentences('Same words here. Same words here! Other one.', 3)) AS repeated_once,
       cardinality(longest_sentences('Pi is 3.14 today. Visit example.com now.', 5)) AS two_sentences;
-- a paragraph break ends a sentence, a line feed does not
SELECT cardinality(longest_sentences(E'first line\nsame sentence', 5)) AS one,
       cardinality(longest_sentences(E'first paragraph\n\nsecond paragraph', 5)) AS two;
-- empty and short input
SELECT longest_sentences(''), longest_sentences('。！？...'), cardinality(longest_sentences('one')) AS one_word;
-- bad parameters: 22023
SELECT err($$SELECT longest_sentences('a. b.', 0)$$) AS k0,
       err($$SELECT longest_sentences('a. b.', 257)$$) AS k257,
       err($$SELECT longest_sentences('a. b.', -5)$$) AS kneg;
SELECT cardinality(longest_sentences(repeat('Sentence number x. ', 10) || 'Another one here. ', 256)) AS k256;

-- search: rows sharing at least m of the query's sentences, index =
-- sequential scan; documents made of shared and private sentences
CREATE FUNCTION pick(a int, b int, n int) RETURNS int
LANGUAGE sql IMMUTABLE AS $$ SELECT (hashint8($1::int8 * 100003 + $2) & 2147483647) % $3 $$;
CREATE TABLE docs (id int PRIMARY KEY, body text, ls int8[]);
INSERT INTO docs (id, body)
SELECT i, (SELECT string_agg(CASE WHEN pick(i, g, 3) = 0 THEN 'private sentence ' || i || ' ' || g
                                  ELSE 'shared sentence ' || repeat('w ', pick(i, -g, 9)) || pick(i, g, 40) END, '. ')
           FROM generate_series(1, 1 + pick(i, 0, 14)) g)
FROM generate_series(1, 2000) i;
UPDATE docs SET ls = longest_sentences(body, 5);
SET enable_indexscan = off; SET enable_bitmapscan = off;
CREATE TABLE seq AS
SELECT q.id AS qid, m, array_agg(d.id ORDER BY d.id) AS ids
FROM docs q, generate_series(1, 3) m, docs d
WHERE q.id <= 150 AND d.ls %& set_overlap_query(q.ls, m) GROUP BY q.id, m;
RESET enable_indexscan; RESET enable_bitmapscan; SET enable_seqscan = off;
CREATE INDEX docs_ls ON docs USING gin (ls int8_set_ops);
EXPLAIN (COSTS OFF) SELECT id FROM docs WHERE ls %& set_overlap_query('{1,2}', 2);
CREATE FUNCTION idx(q int8[], m int) RETURNS int[] LANGUAGE sql STABLE AS
$$ SELECT array_agg(id ORDER BY id) FROM docs WHERE ls %& set_overlap_query(q, m) $$;
SELECT g.m, count(*) AS queries, count(*) FILTER (WHERE s.ids IS NOT DISTINCT FROM idx(q.ls, g.m)) AS equal,
       sum(coalesce(array_length(s.ids, 1), 0)) AS total_rows
FROM docs q CROSS JOIN generate_series(1, 3) g(m)
LEFT JOIN seq s ON s.qid = q.id AND s.m = g.m
WHERE q.id <= 150 GROUP BY g.m ORDER BY g.m;
RESET enable_seqscan;
RESET search_path;
SET client_min_messages = warning;
DROP SCHEMA sentences_t CASCADE;
RESET client_min_messages;
