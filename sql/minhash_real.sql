-- The MinHash estimator on real text (test/data/corpus.tsv, Chinese and
-- English): bias and standard deviation of minhash_jaccard - shingle_jaccard
-- for k = 64, 128, 256 against sqrt(J(1-J)/k), over pairs across the whole
-- similarity range.  Fuller tables: test/bench/minhash_accuracy.sh.
CREATE TEMP TABLE corpus (id int, lang text, source text, title text, body text);
\copy corpus FROM 'test/data/corpus.tsv'
CREATE TEMP TABLE truth (id int, original_id int, transformation text);
\copy truth FROM 'test/data/corpus_truth.tsv'

-- Pairs: every repost with its original; every original of 4+ paragraphs
-- against itself with 1..(n-1) of its paragraphs replaced by paragraphs of
-- other documents of the same language (seeded); 300 random pairs.
CREATE TEMP TABLE paras AS
SELECT c.id, c.lang, p, i::int AS i, count(*) OVER (PARTITION BY c.id) AS n
FROM corpus c, unnest(string_to_array(c.body, E'\n')) WITH ORDINALITY AS t(p, i)
WHERE c.id NOT IN (SELECT id FROM truth);
CREATE TEMP TABLE variant AS
SELECT v.id, v.m,
       string_agg(CASE WHEN abs(hashint4(v.id * 100 + p.i + 7 * v.m)) % v.n < v.m
                       THEN (SELECT q.p FROM paras q WHERE q.lang = p.lang AND q.id <> p.id
                             ORDER BY hashint4(q.id * 1000 + q.i + p.i + v.id) LIMIT 1)
                       ELSE p.p END, E'\n' ORDER BY p.i) AS body
FROM (SELECT DISTINCT id, n, m FROM paras, generate_series(1, 12) m WHERE n >= 4 AND m < n AND id % 3 = 0) v
JOIN paras p ON p.id = v.id
GROUP BY v.id, v.m;
CREATE TEMP TABLE pair AS
SELECT a.body AS a, b.body AS b FROM truth t JOIN corpus a ON a.id = t.original_id JOIN corpus b ON b.id = t.id
UNION ALL
SELECT c.body, v.body FROM variant v JOIN corpus c USING (id)
UNION ALL
SELECT a.body, b.body FROM corpus a JOIN corpus b ON b.id = (a.id * 37) % 453 + 1 AND a.id <> b.id AND a.id <= 300;
CREATE TEMP TABLE est AS
SELECT shingle_jaccard(a, b) AS j,
       minhash_jaccard(minhash(a, 64), minhash(b, 64)) AS e64,
       minhash_jaccard(minhash(a, 128), minhash(b, 128)) AS e128,
       minhash_jaccard(minhash(a, 256), minhash(b, 256)) AS e256
FROM pair;
SELECT count(*) AS pairs, count(*) FILTER (WHERE j < 0.2) AS low, count(*) FILTER (WHERE j BETWEEN 0.2 AND 0.6) AS mid,
       count(*) FILTER (WHERE j > 0.6) AS high
FROM est;
-- bias within 4 standard errors of 0; SD of the error between 0.8 and 1.1
-- times sqrt(J(1-J)/k) (one-permutation MinHash samples without
-- replacement: its SD is up to ~15% below that of k-permutation MinHash)
SELECT k, abs(avg(e - j)) < 4 * sqrt(avg(j * (1 - j) / k) / count(*)) AS unbiased,
       round((sqrt(avg((e - j) ^ 2)) / sqrt(avg(j * (1 - j) / k)))::numeric, 2) AS sd_ratio,
       sqrt(avg((e - j) ^ 2)) / sqrt(avg(j * (1 - j) / k)) BETWEEN 0.8 AND 1.1 AS sd_ok
FROM est, LATERAL (VALUES (64, e64), (128, e128), (256, e256)) v(k, e)
WHERE j > 0 AND j < 1
GROUP BY k ORDER BY k;
-- the same in the low, middle and high similarity ranges
SELECT k, width_bucket(j, 0, 1.0000001, 3) AS third,
       round((sqrt(avg((e - j) ^ 2)) / sqrt(avg(j * (1 - j) / k)))::numeric, 2) AS sd_ratio,
       sqrt(avg((e - j) ^ 2)) / sqrt(avg(j * (1 - j) / k)) BETWEEN 0.75 AND 1.15 AS sd_ok
FROM est, LATERAL (VALUES (64, e64), (128, e128), (256, e256)) v(k, e)
WHERE j > 0 AND j < 1
GROUP BY k, third ORDER BY k, third;
