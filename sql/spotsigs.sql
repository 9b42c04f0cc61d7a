--
-- SpotSigs (spotsigs()) and the set queries it is searched with: golden
-- values, examples worked by hand, bad parameters, and the GIN class
-- int8_set_ops answering "at least m shared" and "Jaccard >= t" exactly as a
-- sequential scan over many random queries.
--
-- objects of this test live in their own schema, dropped at the end
CREATE SCHEMA spotsigs_t;
SET search_path = spotsigs_t, public;
\i sql/include/err.sql
\i sql/include/golden_texts.sql

-- golden values: the stability contract (never to be updated)
SELECT id, note, cardinality(spotsigs(body)) AS spots, md5(spotsigs(body)::text) AS digest
FROM golden ORDER BY id;
SELECT spotsigs(body) FROM golden WHERE id = 6;
SELECT spotsigs(body, 3) FROM golden WHERE id = 31;
-- (the Chinese golden texts 1-3 and 36 have no antecedent character: no spots)
CREATE TABLE zh (id int, body text);
INSERT INTO zh VALUES
 (1, '我们的国家在发展，人民的生活水平不断提高。经济和社会的发展是我们共同的目标，科技的进步为未来带来了新的希望。'),
 (2, '我們的國家在發展，人民的生活水平不斷提高。經濟和社會的發展是我們共同的目標，科技的進步為未來帶來了新的希望。'),
 (3, '我们的国家在发展，人民的牛活水平不断提高。经济和社会的发展是我们共同的目标，科技的进步为未来带来了新的希望。'),
 (4, '城市的交通在改善，居民的出行更加方便。地铁和公交的线路是政府规划的重点，道路的拓宽为市民带来了便利。');
SELECT id, spotsigs(body) FROM zh ORDER BY id;
SELECT id, spotsigs(body, 2) AS chain2, spotsigs(body, 3) AS chain3 FROM zh WHERE id = 1;
-- the folds: a traditional repost, upper case and full width spot alike
SELECT (SELECT spotsigs(body) FROM golden WHERE id = 1) = (SELECT spotsigs(body) FROM golden WHERE id = 2) AS trad_eq_simp,
       (SELECT spotsigs(body) FROM golden WHERE id = 4) = (SELECT spotsigs(body) FROM golden WHERE id = 5) AS case_folded,
       (SELECT spotsigs(body) FROM golden WHERE id = 12) = (SELECT spotsigs(body) FROM golden WHERE id = 13) AS width_folded;
-- traditional script spots alike; a one-character edit (牛 for 生) loses
-- only the spots whose chain holds it; an unrelated text shares little (with
-- chain 1, spots are short: 的:发 is common)
SELECT b.id, round(set_jaccard(a.s, b.s)::numeric, 3) AS jaccard_to_1
FROM (SELECT spotsigs(body) s FROM zh WHERE id = 1) a, (SELECT id, spotsigs(body) s FROM zh) b ORDER BY b.id;

-- The paper's example, worked by hand: antecedents {a, the, is}, stopwords
-- {to, off, for, at}, chain 2 (the default is 1).  "At a rally to kick off a weeklong campaign
-- for the South Carolina primary" has three spots: a:rally:kick ("to" is
-- skipped), a:weeklong:campaign and the:south:carolina.  Each of the
-- three-word texts below has exactly one of them, so the union of their
-- spots is the sentence's set.
SELECT spotsigs('At a rally to kick off a weeklong campaign for the South Carolina primary',
                '{a,the,is}', '{to,off,for,at}', 2) =
       ARRAY(SELECT DISTINCT x FROM unnest(spotsigs('a rally kick', '{a,the,is}', '{to,off,for,at}', 2) ||
                                            spotsigs('a weeklong campaign', '{a,the,is}', '{to,off,for,at}', 2) ||
                                            spotsigs('the south carolina', '{a,the,is}', '{to,off,for,at}', 2)) x ORDER BY x)
       AS paper_example,
       cardinality(spotsigs('a rally kick', '{a,the,is}', '{to,off,for,at}', 2)) AS one_spot;
-- with chain 1 the spots are a:rally, a:weeklong, the:south
SELECT spotsigs('At a rally to kick off a weeklong campaign for the South Carolina primary',
                '{a,the,is}', '{to,off,for,at}') =
       ARRAY(SELECT DISTINCT x FROM unnest(spotsigs('a rally', '{a,the,is}', '{}') || spotsigs('a weeklong', '{a,the,is}', '{}') ||
                                            spotsigs('the south', '{a,the,is}', '{}')) x ORDER BY x) AS chain1_example;
-- Chinese, by hand: 我们的国家在发展 with the built-in lists (的 在 are
-- antecedents, 我 们 stopwords): 的:国 and 在:发 (chain 2: 的:国:家, 在:发:展)
SELECT spotsigs('我们的国家在发展') = ARRAY(SELECT DISTINCT x FROM unnest(spotsigs('的国') || spotsigs('在发')) x ORDER BY x)
       AS chinese_example, cardinality(spotsigs('我们的国家在发展')) AS spots,
       spotsigs('我们的国家在发展', 2) = ARRAY(SELECT DISTINCT x FROM unnest(spotsigs('的国家', 2) || spotsigs('在发展', 2)) x ORDER BY x)
       AS chinese_chain2;
-- chain 1: one content word after each antecedent
SELECT cardinality(spotsigs('the cat sat on the mat', 1)) AS chain1, cardinality(spotsigs('the cat sat on the mat', 2)) AS chain2,
       cardinality(spotsigs('the cat sat on the mat', 3)) AS chain3;
-- the built-in lists equal the defaults
SELECT spotsigs(body) = spotsigs(body, spotsigs_antecedents(), spotsigs_stopwords()) AS same_as_builtin_lists
FROM golden WHERE id IN (1, 6, 7, 31);
SELECT cardinality(spotsigs_antecedents()) AS antecedents, cardinality(spotsigs_stopwords()) AS stopwords,
       spotsigs_antecedents();
-- empty and short input: no spots
SELECT spotsigs(''), spotsigs('the'), spotsigs('the end'::text, 2), spotsigs('。，！'), spotsigs('the end'::text);
-- bad parameters: 22023 (and 22004 for a NULL entry)
SELECT err($$SELECT spotsigs('a b c', 0)$$) AS chain0,
       err($$SELECT spotsigs('a b c', 17)$$) AS chain17,
       err($$SELECT spotsigs('a b c', '{a}', '{}', -1)$$) AS chain_neg,
       err($$SELECT spotsigs('a b c', '{"two words"}', '{}')$$) AS two_tokens,
       err($$SELECT spotsigs('a b c', '{a}', '{"，"}')$$) AS no_token,
       err($$SELECT spotsigs('a b c', '{a,NULL}', '{}')$$) AS null_entry,
       err($$SELECT spotsigs('a b c', '{{a},{b}}', '{}')$$) AS two_dims;
-- an empty antecedent list gives no spots; untyped literals are calls
SELECT spotsigs('a rally to kick', '{}', '{}') AS no_antecedents, cardinality(spotsigs('the quick brown fox')) AS untyped,
       cardinality(spotsigs('the quick brown fox', 2)) AS untyped_chain2;

-- set functions and operators
SELECT set_shared('{1,2,3}', '{3,2,2,4}') AS shared, set_jaccard('{1,2,3}', '{3,2,2,4}') AS jaccard,
       set_jaccard('{}', '{}') AS empties;
SELECT '{1,2,3}'::int8[] %& set_overlap_query('{2,3,4}', 2) AS two_shared,
       '{1,2,3}'::int8[] %& set_overlap_query('{2,3,4}', 3) AS three_shared,
       '{1,2,3}'::int8[] %& set_overlap_query('{2,3,4}', 1) AS one,
       '{3,1,2,NULL}'::int8[] %& set_overlap_query('{2,2,NULL,3}', 2) AS unsorted_nulls;
-- J({1,2,3}, {2,3,4}) = 2/4 = 0.5
SELECT '{1,2,3}'::int8[] % set_jaccard_query('{2,3,4}', 0.5) AS at_half,
       '{1,2,3}'::int8[] % set_jaccard_query('{2,3,4}', 0.5000001) AS above_half,
       '{}'::int8[] % set_jaccard_query('{}', 1) AS empty_never;
-- the size bounds: a set of 10 values with threshold 0.5 needs at least 5
-- shared values, and nothing over 20 values can reach it
SELECT set_jaccard_min_shared(10, 0.5) AS min_shared, set_jaccard_max_size(10, 0.5) AS max_size,
       set_jaccard_min_shared(3, 1) AS all3, set_jaccard_max_size(3, 1) AS exactly3,
       set_jaccard_min_shared(7, 1e-300) AS tiny, set_jaccard_max_size(7, 1e-300) AS unbounded;
-- the bounds are tight: at n values shared and the extreme sizes the
-- operator is true, one beyond it false
SELECT n, t, bool_and((ARRAY(SELECT g::int8 FROM generate_series(1, set_jaccard_max_size(n, t)) g))
                      % set_jaccard_query(ARRAY(SELECT g::int8 FROM generate_series(1, n) g), t)) AS at_max,
       bool_or((ARRAY(SELECT g::int8 FROM generate_series(1, set_jaccard_max_size(n, t) + 1) g))
                      % set_jaccard_query(ARRAY(SELECT g::int8 FROM generate_series(1, n) g), t)) AS beyond_max,
       bool_and((ARRAY(SELECT g::int8 FROM generate_series(1, set_jaccard_min_shared(n, t)) g))
                      % set_jaccard_query(ARRAY(SELECT g::int8 FROM generate_series(1, n) g), t)) AS at_min,
       bool_or((ARRAY(SELECT g::int8 FROM generate_series(1, set_jaccard_min_shared(n, t) - 1) g))
                      % set_jaccard_query(ARRAY(SELECT g::int8 FROM generate_series(1, n) g), t)) AS below_min
FROM (VALUES (10, 0.5::float8), (7, 0.3), (1, 1), (30, 0.9), (13, 0.77)) v(n, t) GROUP BY n, t ORDER BY n, t;
SELECT err($$SELECT set_overlap_query('{1}', 0)$$) AS m0,
       err($$SELECT '{1}'::int8[] %& ROW('{1}', -1)::set_overlap_query$$) AS row_m,
       err($$SELECT set_jaccard_query('{1}', 0)$$) AS t0,
       err($$SELECT set_jaccard_query('{1}', 1.5)$$) AS t15,
       err($$SELECT set_jaccard_query('{1}', 'NaN')$$) AS tnan,
       err($$SELECT '{1}'::int8[] % ROW('{1}', NULL)::set_jaccard_query$$) AS tnull,
       err($$SELECT set_jaccard_max_size(0, 0.5)$$) AS n0,
       err($$SELECT set_jaccard_min_shared(5, -1)$$) AS tneg;
SELECT '{1}'::int8[] %& ROW(NULL, 1)::set_overlap_query AS null_set, '{1}'::int8[] % ROW(NULL, 0.5)::set_jaccard_query AS null_set2;

-- the GIN class: index results equal a sequential scan's, over random sets
-- from a small domain (many overlaps), random sizes 0..40 (many size
-- classes), NULL elements, empty and NULL arrays, values in the range of
-- the index's size keys, and random queries of both kinds
CREATE FUNCTION pick(a int, b int, n int) RETURNS int
LANGUAGE sql IMMUTABLE AS $$ SELECT (hashint8($1::int8 * 100003 + $2) & 2147483647) % $3 $$;
CREATE TABLE sets (id int PRIMARY KEY, s int8[]);
INSERT INTO sets
SELECT i, ARRAY(SELECT pick(i, g, 90)::int8 - 3 FROM generate_series(1, pick(i, 0, 41)) g)
FROM generate_series(1, 2000) i;
UPDATE sets SET s = s || NULL::int8 WHERE id % 97 = 0;
UPDATE sets SET s = '{}' WHERE id % 101 = 0;
UPDATE sets SET s = NULL WHERE id % 103 = 0;
-- values that equal size keys (-9223372036854775808 + class)
UPDATE sets SET s = s || ARRAY[-9223372036854775808 + pick(id, 7, 20)] WHERE id % 89 = 0;
CREATE TABLE queries (qid int, q int8[], m int, t float8);
INSERT INTO queries
SELECT j, ARRAY(SELECT pick(-j, g, 90)::int8 - 3 FROM generate_series(1, 1 + pick(-j, 0, 40)) g),
       1 + pick(-j, -1, 6), (ARRAY[0.1, 0.2, 0.3, 0.5, 0.7, 0.9, 1.0])[1 + pick(-j, -2, 7)]
FROM generate_series(1, 200) j;
INSERT INTO queries VALUES (201, '{}', 1, 0.5), (202, '{1,NULL}', 1, 0.5), (203, '{1,1,1}', 2, 0.5),
  (204, ARRAY[-9223372036854775808 + 3, 5], 1, 0.1), (205, ARRAY[-9223372036854775808 + 3], 1, 1);
SET enable_indexscan = off; SET enable_bitmapscan = off;
CREATE TABLE seq AS
SELECT qid, array_agg(id ORDER BY id) FILTER (WHERE s %& set_overlap_query(q, m)) AS overlap,
       array_agg(id ORDER BY id) FILTER (WHERE s % set_jaccard_query(q, t)) AS jaccard
FROM queries, sets GROUP BY qid;
RESET enable_indexscan; RESET enable_bitmapscan; SET enable_seqscan = off;
CREATE INDEX sets_gin ON sets USING gin (s int8_set_ops);
EXPLAIN (COSTS OFF) SELECT id FROM sets WHERE s %& set_overlap_query('{1,2,3}', 2);
EXPLAIN (COSTS OFF) SELECT id FROM sets WHERE s % set_jaccard_query('{1,2,3}', 0.5);
CREATE FUNCTION idx_overlap(q int8[], m int) RETURNS int[] LANGUAGE sql STABLE AS
$$ SELECT array_agg(id ORDER BY id) FROM sets WHERE s %& set_overlap_query(q, m) $$;
CREATE FUNCTION idx_jaccard(q int8[], t float8) RETURNS int[] LANGUAGE sql STABLE AS
$$ SELECT array_agg(id ORDER BY id) FROM sets WHERE s % set_jaccard_query(q, t) $$;
SELECT count(*) AS queries,
       count(*) FILTER (WHERE s.overlap IS NOT DISTINCT FROM idx_overlap(q, m)) AS overlap_equal,
       count(*) FILTER (WHERE s.jaccard IS NOT DISTINCT FROM idx_jaccard(q, t)) AS jaccard_equal,
       count(*) FILTER (WHERE s.overlap IS NOT NULL) AS overlap_nonempty,
       count(*) FILTER (WHERE s.jaccard IS NOT NULL) AS jaccard_nonempty,
       sum(coalesce(array_length(s.jaccard, 1), 0)) AS jaccard_rows
FROM queries LEFT JOIN seq s USING (qid);
-- the index skips rows by size: a query needs only the size classes that
-- can hold an answer (here 5..20 values of a 10-value query at t = 0.5)
SELECT count(*) AS rows_with_5_shared,
       count(*) FILTER (WHERE cardinality(s) > 20) AS too_long_rows
FROM sets WHERE s %& set_overlap_query(ARRAY(SELECT g::int8 FROM generate_series(1, 10) g), 5);
SELECT count(*) AS jaccard_rows FROM sets WHERE s % set_jaccard_query(ARRAY(SELECT g::int8 FROM generate_series(1, 10) g), 0.5);
-- so the index hands over only the rows with 5 shared values and 5..23
-- values (the size classes meeting 5..20), not the longer ones counted above
EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF)
SELECT id FROM sets WHERE s % set_jaccard_query('{1,2,3,4,5,6,7,8,9,10}', 0.5);
SELECT count(*) AS rows_with_5_shared_and_5_to_23_values FROM sets
WHERE s %& set_overlap_query(ARRAY(SELECT g::int8 FROM generate_series(1, 10) g), 5) AND cardinality(s) <= 23;
RESET enable_seqscan;
SELECT opcname, amname, amvalidate(c.oid)
  FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod WHERE opcname = 'int8_set_ops';

-- real spot signatures: the corpus, every document a query at t = 0.3 and
-- 0.5 and at m = 1, 3; index = sequential scan
CREATE TABLE corpus (id int PRIMARY KEY, lang text, source text, title text, body text);
\copy corpus FROM 'test/data/corpus.tsv'
CREATE TABLE real_sigs AS SELECT id, spotsigs(body) AS s FROM corpus;
SET enable_indexscan = off; SET enable_bitmapscan = off;
CREATE TABLE real_seq AS
SELECT q.id AS qid, p.t, array_agg(r.id ORDER BY r.id) AS ids
FROM real_sigs q, (VALUES (0.3::float8), (0.5)) p(t), real_sigs r
WHERE r.s % set_jaccard_query(q.s, p.t) GROUP BY q.id, p.t;
RESET enable_indexscan; RESET enable_bitmapscan; SET enable_seqscan = off;
CREATE INDEX real_gin ON real_sigs USING gin (s int8_set_ops);
CREATE FUNCTION real_idx(q int8[], t float8) RETURNS int[] LANGUAGE sql STABLE AS
$$ SELECT array_agg(id ORDER BY id) FROM real_sigs WHERE s % set_jaccard_query(q, t) $$;
SELECT p.t, count(*) AS queries,
       count(*) FILTER (WHERE s.ids IS NOT DISTINCT FROM real_idx(q.s, p.t)) AS equal,
       sum(coalesce(array_length(s.ids, 1), 0)) AS total_rows
FROM real_sigs q CROSS JOIN (VALUES (0.3::float8), (0.5)) p(t)
LEFT JOIN real_seq s ON s.qid = q.id AND s.t = p.t
GROUP BY p.t ORDER BY p.t;
RESET enable_seqscan;
RESET search_path;
SET client_min_messages = warning;
DROP SCHEMA spotsigs_t CASCADE;
RESET client_min_messages;
