--
-- simhash(): parameters, caller-supplied features, bad input, and use in
-- generated columns and expression indexes.
--

-- invalid parameters: 22023
\set VERBOSITY default
SELECT simhash('abc', ngram => 0);
SELECT simhash('abc', ngram => -1);
SELECT simhash('abc', ngram => 17);
SELECT simhash('abc', ngram => 2147483647);
SELECT simhash('abc', shingle => 0);
SELECT simhash('abc', shingle => 1000000);
\set VERBOSITY sqlstate
SELECT simhash('abc', ngram => 0);
SELECT simhash('abc', shingle => -5);
\set VERBOSITY default
-- the limits themselves are fine
SELECT simhash('一二三四五六七八九十甲乙丙丁戊己庚', ngram => 16) IS NOT NULL AS ngram16,
       simhash('a b c d e f g h i j k l m n o p q', shingle => 16) IS NOT NULL AS shingle16;
-- NULL parameters: STRICT gives NULL
SELECT simhash('abc', ngram => NULL) IS NULL AS null_param;

-- caller-supplied features (e.g. from jieba or zhparser) and weights (tf-idf)
SELECT simhash(ARRAY['北京', '天安门', '广场']) AS feats,
       simhash(ARRAY['北京', '天安门', '广场'], ARRAY[1, 1, 1]::float4[]) AS unit_weights,
       simhash(ARRAY['北京', '天安门', '广场'], ARRAY[0.2, 3.5, 1.25]::float4[]) AS weighted;
SELECT simhash(ARRAY['x']) = simhash(ARRAY['x'], ARRAY[7.5]::float4[]) AS one_feature_any_positive_weight;
SELECT simhash(ARRAY['x'], ARRAY[-1]::float4[])::bigint = ~(simhash(ARRAY['x'])::bigint) AS negative_weight_inverts;
SELECT simhash(ARRAY['a', 'b', 'a']) = simhash(ARRAY['a', 'b'], ARRAY[2, 1]::float4[]) AS count_is_weight;
SELECT simhash(ARRAY[]::text[]) AS no_features,
       simhash(ARRAY[]::text[], ARRAY[]::float4[]) AS no_features_weighted,
       simhash(ARRAY['x'], ARRAY[0]::float4[]) AS zero_weight;
-- bad arrays
SELECT simhash(ARRAY['a', NULL]);
SELECT simhash(ARRAY['a', 'b'], ARRAY[1, NULL]::float4[]);
SELECT simhash(ARRAY['a', 'b'], ARRAY[1]::float4[]);
SELECT simhash(ARRAY[['a', 'b'], ['c', 'd']]);
SELECT simhash(ARRAY['a'], ARRAY['NaN']::float4[]);
SELECT simhash(ARRAY['a'], ARRAY['Infinity']::float4[]);
SELECT simhash(NULL::text[]) IS NULL AS strict_array;

-- generated columns and expression indexes
CREATE TABLE articles (
    id serial PRIMARY KEY,
    body text NOT NULL,
    fp simhash64 GENERATED ALWAYS AS (simhash(body)) STORED
);
INSERT INTO articles (body) VALUES
  ('据新华社北京电，国家统计局今天发布数据显示。'),
  ('據新華社北京電，國家統計局今天發佈數據顯示。'),
  ('An entirely different article about databases.');
SELECT id, fp, fp = simhash(body) AS consistent FROM articles ORDER BY id;
UPDATE articles SET body = body || '（完）' WHERE id = 1;
SELECT id, fp FROM articles WHERE id = 1;
SELECT a.id, b.id, a.fp <-> b.fp AS dist FROM articles a, articles b WHERE a.id < b.id ORDER BY 1, 2;
CREATE INDEX articles_fp_expr ON articles (simhash(body, ngram => 3));
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM articles WHERE simhash(body, ngram => 3) = simhash('An entirely different article about databases.', ngram => 3);
SELECT id FROM articles WHERE simhash(body, ngram => 3) = simhash('An entirely different article about databases.', ngram => 3);
RESET enable_seqscan;
DROP TABLE articles;

-- parallel query can run it (PARALLEL SAFE)
SELECT proname, pronargs, provolatile, proisstrict, proparallel
FROM pg_proc WHERE proname IN ('simhash', 'simhash_dist') ORDER BY proname, pronargs;

-- (untyped literals: see textfp_literals)
