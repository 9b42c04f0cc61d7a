--
-- I-Match: the imatch_lexicon type, imatch() and imatch_randomized():
-- golden values, examples worked by hand, empty and all-filtered texts, the
-- lexicon's I/O, bad parameters, the per-call lexicon cache, and equality /
-- "match on any" search through indexes, equal to sequential scans.
--
-- objects of this test live in their own schema, dropped at the end
CREATE SCHEMA imatch_t;
SET search_path = imatch_t, public;
\i sql/include/err.sql
\i sql/include/golden_texts.sql

-- A lexicon from the golden texts' document frequencies: terms in 2 to 5
-- of the 38 texts (the idf band of this example)
CREATE TABLE df AS
SELECT term, count(*) AS df FROM golden, unnest(imatch_terms(body)) term GROUP BY term;
CREATE TABLE lexicon AS
SELECT imatch_build_lexicon(array_agg(term)) AS lex FROM df WHERE df BETWEEN 2 AND 5;
SELECT imatch_lexicon_size(lex) AS terms, md5(lex::text) AS digest FROM lexicon;

-- golden values: the stability contract (never to be updated)
SELECT g.id, g.note, imatch(g.body, l.lex), cardinality(imatch_randomized(g.body, l.lex)) AS n,
       md5(imatch_randomized(g.body, l.lex)::text) AS randomized
FROM golden g, lexicon l ORDER BY g.id;
SELECT imatch_randomized(g.body, l.lex, 4, 0.5) FROM golden g, lexicon l WHERE g.id = 6;
SELECT imatch_build_lexicon(imatch_terms('the quick brown fox'));
SELECT imatch('the quick brown fox', imatch_build_lexicon(imatch_terms('the quick brown fox')));

-- Worked by hand: the lexicon of 'quick brown fox' keeps the words quick,
-- brown, fox.  Every text whose kept terms are exactly those three words
-- has the same I-Match, whatever else it holds and in whatever order; a
-- text keeping two of them has another.
CREATE TABLE qbf AS SELECT imatch_build_lexicon(imatch_terms('quick brown fox')) AS lex;
SELECT t, imatch(t, lex) = imatch('quick brown fox', lex) AS same_as_qbf
FROM qbf, unnest(ARRAY['the quick brown fox', 'Fox!  BROWN, quick...', 'a quick brown fox jumps over a lazy dog',
                       'the quick red fox', 'ＱＵＩＣＫ ｂｒｏｗｎ ｆｏｘ']) t;
-- Chinese: terms are Han bigrams; the lexicon of 国家统计局 keeps 国家 家统
-- 统计 计局, so every text containing 国家统计局 and no other of them has
-- its I-Match, traditional script included
SELECT t, imatch(t, imatch_build_lexicon(imatch_terms('国家统计局'))) = imatch('国家统计局', imatch_build_lexicon(imatch_terms('国家统计局'))) AS same
FROM unnest(ARRAY['据国家统计局发布', '國家統計局今天說', '国家统计', '统计局']) t;
-- the plain I-Match is one of the randomized signatures
SELECT bool_and(imatch(g.body, l.lex) = ANY (imatch_randomized(g.body, l.lex))) AS plain_in_randomized,
       count(*) AS texts
FROM golden g, lexicon l WHERE imatch(g.body, l.lex) IS NOT NULL;
-- the feature options travel with the lexicon: a lexicon of Han trigrams
-- reads the text's trigrams
SELECT imatch('中华人民共和国', imatch_build_lexicon(imatch_terms('中华人民共和国', 3), 3)) IS NOT NULL AS trigram_lexicon,
       imatch('中华人民共和国', imatch_build_lexicon(imatch_terms('中华人民共和国', 3))) IS NULL AS bigram_lexicon_of_trigrams;

-- Empty and all-filtered texts have no fingerprint: NULL (and no randomized
-- signature), so they match nothing -- not one another (no universal
-- collision, as one hash of an empty set would be)
SELECT imatch('', lex) IS NULL AS empty, imatch('nothing here at all', lex) IS NULL AS all_filtered,
       imatch_randomized('', lex) AS empty_randomized, imatch_randomized('nothing here', lex) AS filtered_randomized,
       coalesce(imatch('zebra', lex) = imatch('yak', lex), false) AS zebra_matches_yak
FROM qbf;
SELECT imatch('anything', 'v1 ngram=2 shingle=1 fold=7 empty') IS NULL AS empty_lexicon;

-- the lexicon type: text form, canonical (sorted, distinct), upper-case hex
-- accepted, binary I/O
SELECT 'v1 ngram=2 shingle=1 fold=7 00000000000000030000000000000001FFFFFFFFFFFFFFFF0000000000000003'::imatch_lexicon;
SELECT 'v1 ngram=3 shingle=2 fold=0 empty'::imatch_lexicon, imatch_lexicon_size('v1 ngram=3 shingle=2 fold=0 empty');
SELECT lex::text::imatch_lexicon::text = lex::text AS text_round_trip FROM lexicon;
CREATE TABLE lex_io (l imatch_lexicon);
INSERT INTO lex_io SELECT lex FROM lexicon UNION ALL SELECT 'v1 ngram=16 shingle=16 fold=0 empty';
\copy lex_io TO 'results/imatch_lexicon.copy' WITH (FORMAT binary)
CREATE TABLE lex_io2 (LIKE lex_io);
\copy lex_io2 FROM 'results/imatch_lexicon.copy' WITH (FORMAT binary)
SELECT count(*) AS binary_round_trips FROM lex_io a JOIN lex_io2 b ON a.l::text = b.l::text;
-- malformed literals: 22P02; values out of range: 22023
SELECT err($$SELECT 'x'::imatch_lexicon$$) AS no_version,
       err($$SELECT 'v1 ngram=2 fold=7 empty'::imatch_lexicon$$) AS missing_field,
       err($$SELECT 'v1 ngram=2 shingle=1 fold=7 '::imatch_lexicon$$) AS no_terms,
       err($$SELECT 'v1 ngram=2 shingle=1 fold=7 0123'::imatch_lexicon$$) AS short_term,
       err($$SELECT 'v1 ngram=2 shingle=1 fold=7 000000000000000g'::imatch_lexicon$$) AS not_hex;
SELECT err($$SELECT 'v2 ngram=2 shingle=1 fold=7 empty'::imatch_lexicon$$) AS version2,
       err($$SELECT 'v1 ngram=0 shingle=1 fold=7 empty'::imatch_lexicon$$) AS ngram0,
       err($$SELECT 'v1 ngram=2 shingle=17 fold=7 empty'::imatch_lexicon$$) AS shingle17,
       err($$SELECT 'v1 ngram=2 shingle=1 fold=8 empty'::imatch_lexicon$$) AS fold8;

-- bad parameters: 22023 (22004 for NULL terms)
SELECT err($$SELECT imatch_randomized('a b', imatch_build_lexicon('{1}'), 0)$$) AS lexicons0,
       err($$SELECT imatch_randomized('a b', imatch_build_lexicon('{1}'), 65)$$) AS lexicons65,
       err($$SELECT imatch_randomized('a b', imatch_build_lexicon('{1}'), 4, 1)$$) AS drop1,
       err($$SELECT imatch_randomized('a b', imatch_build_lexicon('{1}'), 4, -0.1)$$) AS drop_neg,
       err($$SELECT imatch_randomized('a b', imatch_build_lexicon('{1}'), 4, 'NaN')$$) AS drop_nan;
SELECT err($$SELECT imatch_build_lexicon('{1,NULL}')$$) AS null_term,
       err($$SELECT imatch_build_lexicon('{{1,2},{3,4}}')$$) AS two_dims,
       err($$SELECT imatch_build_lexicon('{1}', 0)$$) AS ngram0,
       err($$SELECT imatch_terms('a', 2, 17)$$) AS shingle17;

-- the lexicon cache: one statement with a different lexicon on every row
-- gives what one statement per lexicon gives
CREATE TABLE lexs AS
SELECT i, imatch_build_lexicon(array_agg(term)) AS lex FROM df, generate_series(1, 3) i
WHERE df BETWEEN i AND i + 3 GROUP BY i;
CREATE TABLE per_lexicon (i int, id int, im int8);
INSERT INTO per_lexicon SELECT 1, g.id, imatch(g.body, l.lex) FROM golden g, lexs l WHERE l.i = 1;
INSERT INTO per_lexicon SELECT 2, g.id, imatch(g.body, l.lex) FROM golden g, lexs l WHERE l.i = 2;
INSERT INTO per_lexicon SELECT 3, g.id, imatch(g.body, l.lex) FROM golden g, lexs l WHERE l.i = 3;
SELECT count(*) AS rows, count(*) FILTER (WHERE x.im IS NOT DISTINCT FROM p.im) AS equal,
       count(DISTINCT x.im) AS distinct_values
FROM (SELECT l.i, g.id, imatch(g.body, l.lex) AS im
      FROM golden g CROSS JOIN lexs l ORDER BY g.id, l.i) x
JOIN per_lexicon p USING (i, id);
-- a large lexicon stored out of line (TOAST) and read by slices, and the
-- same lexicon in memory, give the same fingerprints
CREATE TABLE big (lex imatch_lexicon);
INSERT INTO big SELECT imatch_build_lexicon(array_agg(term) || ARRAY(SELECT hashint8(g)::int8 FROM generate_series(1, 50000) g)) FROM df;
SELECT pg_column_size(lex) > 400000 AS large, imatch_lexicon_size(lex) FROM big;
SELECT count(*) AS texts,
       count(*) FILTER (WHERE imatch(g.body, (SELECT lex FROM big)) IS NOT DISTINCT FROM imatch(g.body, (SELECT lex::text::imatch_lexicon FROM big))) AS equal,
       count(*) FILTER (WHERE imatch(g.body, (SELECT lex FROM big)) IS NOT NULL) AS fingerprinted
FROM golden g;
-- two lexicons stored out of line, alternating row by row in one statement
CREATE TABLE big2 AS
SELECT i, imatch_build_lexicon(array_agg(term) || ARRAY(SELECT hashint8(g)::int8 FROM generate_series(1, 50000) g)) AS lex
FROM df, generate_series(1, 2) i WHERE df BETWEEN i AND i + 2 GROUP BY i;
SELECT count(*) AS rows,
       count(*) FILTER (WHERE x.im IS NOT DISTINCT FROM CASE x.i WHEN 1 THEN imatch(x.body, (SELECT lex FROM big2 WHERE i = 1))
                                                              ELSE imatch(x.body, (SELECT lex FROM big2 WHERE i = 2)) END) AS equal,
       count(DISTINCT x.im) AS distinct_values
FROM (SELECT b.i, g.body, imatch(g.body, b.lex) AS im FROM golden g CROSS JOIN big2 b ORDER BY g.id, b.i) x;

-- search: I-Match equality through a btree index, randomized I-Match "any
-- signature in common" through GIN (array_ops with &&, int8_set_ops with
-- %&), equal to sequential scans; the corpus with edited copies
CREATE TABLE corpus (id int PRIMARY KEY, lang text, source text, title text, body text);
\copy corpus FROM 'test/data/corpus.tsv'
CREATE TABLE docs AS
SELECT id, body FROM corpus
UNION ALL SELECT 10000 + id, replace(replace(body, 'the', 'a'), '的', '之') FROM corpus WHERE id % 3 = 0
UNION ALL SELECT 20000 + id, 'Reposted: ' || body FROM corpus WHERE id % 4 = 0;
CREATE TABLE cdf AS SELECT term, count(*) AS df FROM docs, unnest(imatch_terms(body)) term GROUP BY term;
CREATE TABLE clex AS
SELECT imatch_build_lexicon(array_agg(term)) AS lex FROM cdf, (SELECT count(*) AS n FROM docs) c
WHERE ln(c.n::float8 / df) / ln(c.n) BETWEEN 0.6 AND 0.8;
CREATE TABLE fp AS
SELECT id, imatch(body, (SELECT lex FROM clex)) AS im, imatch_randomized(body, (SELECT lex FROM clex)) AS imr FROM docs;
-- analyzed now, not whenever autovacuum comes: the plan shown below
-- depends on it
ANALYZE fp;
SELECT count(*) AS docs, count(im) AS with_imatch, count(DISTINCT im) AS distinct_imatch,
       count(*) FILTER (WHERE cardinality(imr) > 0) AS with_randomized FROM fp;
SET enable_indexscan = off; SET enable_bitmapscan = off;
CREATE TABLE seq AS
SELECT q.id AS qid, array_agg(d.id ORDER BY d.id) FILTER (WHERE d.im = q.im) AS eq,
       array_agg(d.id ORDER BY d.id) FILTER (WHERE d.imr && q.imr) AS anyr
FROM fp q, fp d GROUP BY q.id;
RESET enable_indexscan; RESET enable_bitmapscan; SET enable_seqscan = off;
CREATE INDEX fp_im ON fp (im);
CREATE INDEX fp_imr ON fp USING gin (imr);
CREATE INDEX fp_imr_set ON fp USING gin (imr int8_set_ops);
CREATE FUNCTION idx_eq(q int8) RETURNS int[] LANGUAGE sql STABLE AS
$$ SELECT array_agg(id ORDER BY id) FROM fp WHERE im = q $$;
CREATE FUNCTION idx_any(q int8[]) RETURNS int[] LANGUAGE sql STABLE AS
$$ SELECT array_agg(id ORDER BY id) FROM fp WHERE imr && q $$;
CREATE FUNCTION idx_set(q int8[]) RETURNS int[] LANGUAGE sql STABLE AS
$$ SELECT array_agg(id ORDER BY id) FROM fp WHERE imr %& set_overlap_query(q, 1) $$;
EXPLAIN (COSTS OFF) SELECT id FROM fp WHERE im = 42;
SELECT count(*) AS queries,
       count(*) FILTER (WHERE s.eq IS NOT DISTINCT FROM idx_eq(f.im)) AS eq_equal,
       count(*) FILTER (WHERE s.anyr IS NOT DISTINCT FROM idx_any(f.imr)) AS any_equal,
       count(*) FILTER (WHERE s.anyr IS NOT DISTINCT FROM idx_set(f.imr)) AS set_equal,
       sum(coalesce(array_length(s.eq, 1), 0)) AS eq_rows, sum(coalesce(array_length(s.anyr, 1), 0)) AS any_rows
FROM fp f JOIN seq s ON s.qid = f.id;
RESET enable_seqscan;
RESET search_path;
SET client_min_messages = warning;
DROP SCHEMA imatch_t CASCADE;
RESET client_min_messages;
