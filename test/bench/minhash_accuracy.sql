-- MinHash accuracy on real text (run by test/bench/minhash_accuracy.sh).
-- psql variables: datadir (test/data), ngram and shingle (feature options).
\set ON_ERROR_STOP 1
\pset footer off
SET textfp.minhash_threshold = 0.5;

------------------------------------------------------------------ data
\ir corpus_set.sql

SELECT count(*) AS docs, count(*) FILTER (WHERE origin IS NOT NULL) AS generated,
       (SELECT count(*) FROM true_pair) AS true_pairs,
       round(avg(octet_length(body))) AS avg_bytes FROM docs;

------------------------------------------------------------------ signatures
CREATE TABLE sig AS
SELECT id, minhash(body, 64, :ngram, :shingle) AS m64, minhash(body, 128, :ngram, :shingle) AS m128, minhash(body, 256, :ngram, :shingle) AS m256,
       shingles(body, :ngram, :shingle) AS sh
FROM docs;
SELECT count(*) FILTER (WHERE minhash_is_empty(m128)) AS empty_signatures,
       round(avg(cardinality(sh))) AS avg_shingles, min(cardinality(sh)) AS min_shingles FROM sig;

------------------------------------------------------------------ precision / recall of the LSH search
CREATE INDEX sig_m128 ON sig USING gin (m128);
CREATE TABLE pr (t float8, predicted int, correct int, true_pairs int);
DO $$
DECLARE t float8;
BEGIN
	FOREACH t IN ARRAY ARRAY[0.3, 0.4, 0.5, 0.6, 0.7, 0.8] LOOP
		PERFORM set_config('textfp.minhash_threshold', t::text, true);
		SET LOCAL enable_seqscan = off;
		INSERT INTO pr
		SELECT t, count(*), count(tp.a), (SELECT count(*) FROM true_pair)
		FROM (SELECT DISTINCT x.id AS a, y.id AS b
		      FROM sig x JOIN sig y ON y.m128 % x.m128 AND x.id < y.id) p
		LEFT JOIN true_pair tp USING (a, b);
	END LOOP;
END $$;
\echo '== LSH search (k = 128, minhash_lsh_ops defaults rows = 3, bands = 42, key_bits = 20): precision / recall over all pairs'
SELECT t AS threshold, predicted, correct, true_pairs,
       round(correct::numeric / nullif(predicted, 0), 3) AS precision,
       round(correct::numeric / true_pairs, 3) AS recall
FROM pr ORDER BY t;
\echo '== recall by kind of near-duplicate at threshold 0.5, with the exact Jaccard range'
SET textfp.minhash_threshold = 0.5;
SELECT split_part(kind, '(', 1) AS kind, count(*) AS pairs,
       count(*) FILTER (WHERE found) AS found,
       round(min(j)::numeric, 2) AS min_j, round(avg(j)::numeric, 2) AS avg_j
FROM (SELECT tp.kind, shingle_jaccard(x.sh, y.sh) AS j,
             EXISTS (SELECT 1 FROM sig z WHERE z.m128 % x.m128 AND z.id = y.id) AS found
      FROM true_pair tp JOIN sig x ON x.id = tp.a JOIN sig y ON y.id = tp.b) s
GROUP BY 1 ORDER BY 1;
\echo '== false positives at threshold 0.5 (pairs found that are not labelled)'
SELECT x.id AS a, y.id AS b, round(minhash_jaccard(x.m128, y.m128)::numeric, 2) AS est,
       round(shingle_jaccard(x.sh, y.sh)::numeric, 2) AS exact,
       (SELECT source FROM corpus WHERE id = x.id) AS source_a, (SELECT source FROM corpus WHERE id = y.id % 100000) AS source_b
FROM sig x JOIN sig y ON y.m128 % x.m128 AND x.id < y.id
WHERE NOT EXISTS (SELECT 1 FROM true_pair tp WHERE tp.a = x.id AND tp.b = y.id)
ORDER BY 3 DESC LIMIT 20;

------------------------------------------------------------------ estimator on real text pairs
-- Pairs across the whole similarity range: every true pair, 2000 random
-- pairs (J ~ 0), and documents of 12 pool paragraphs against a copy with m
-- of them replaced by other paragraphs (m = 1..11).
CREATE TABLE mix AS
SELECT d * 100 + m AS id, d, m,
       (SELECT string_agg(p, E'\n' ORDER BY i) FROM (
            SELECT i, (SELECT p FROM para WHERE id = 1 + abs(hashint8(d::int8 * 1000 + i + CASE WHEN i <= m THEN 500 ELSE 0 END)) % (SELECT max(id) FROM para)) AS p
            FROM generate_series(1, 12) i) s) AS body
FROM generate_series(1, 150) d, generate_series(0, 11) m;
CREATE TABLE est_pair AS
SELECT 'mix' AS src, shingle_jaccard(a.body, b.body, :ngram, :shingle) AS j,
       minhash_jaccard(minhash(a.body, 64, :ngram, :shingle), minhash(b.body, 64, :ngram, :shingle)) AS e64,
       minhash_jaccard(minhash(a.body, 128, :ngram, :shingle), minhash(b.body, 128, :ngram, :shingle)) AS e128,
       minhash_jaccard(minhash(a.body, 256, :ngram, :shingle), minhash(b.body, 256, :ngram, :shingle)) AS e256,
       cardinality(shingles(a.body, :ngram, :shingle)) + cardinality(shingles(b.body, :ngram, :shingle)) AS sizes
FROM mix a JOIN mix b ON a.d = b.d AND a.m = 0 AND b.m > 0;
INSERT INTO est_pair
SELECT 'true', shingle_jaccard(x.sh, y.sh), minhash_jaccard(x.m64, y.m64), minhash_jaccard(x.m128, y.m128),
       minhash_jaccard(x.m256, y.m256), cardinality(x.sh) + cardinality(y.sh)
FROM true_pair tp JOIN sig x ON x.id = tp.a JOIN sig y ON y.id = tp.b;
INSERT INTO est_pair
SELECT 'random', shingle_jaccard(x.sh, y.sh), minhash_jaccard(x.m64, y.m64), minhash_jaccard(x.m128, y.m128),
       minhash_jaccard(x.m256, y.m256), cardinality(x.sh) + cardinality(y.sh)
FROM (SELECT id, row_number() OVER (ORDER BY hashint4(id)) r FROM sig) a
JOIN (SELECT id, row_number() OVER (ORDER BY hashint4(id + 1)) r FROM sig) b USING (r)
JOIN sig x ON x.id = a.id JOIN sig y ON y.id = b.id WHERE a.id <> b.id;

\echo '== estimator error on real text pairs: bias and SD of (estimate - exact) vs sqrt(J(1-J)/k), by exact-Jaccard bin'
SELECT k, width_bucket(j, 0, 1.0000001, 5) AS bin,
       round(min(j)::numeric, 2) AS j_from, round(max(j)::numeric, 2) AS j_to, count(*) AS pairs,
       round(avg(e - j)::numeric, 4) AS bias,
       round((avg(e - j) / (sqrt(avg(j * (1 - j) / k)) / sqrt(count(*))))::numeric, 1) AS bias_in_se,
       round(sqrt(avg((e - j) ^ 2))::numeric, 4) AS sd_error,
       round(sqrt(avg(j * (1 - j) / k))::numeric, 4) AS sd_theory,
       round((sqrt(avg((e - j) ^ 2)) / nullif(sqrt(avg(j * (1 - j) / k)), 0))::numeric, 3) AS ratio
FROM est_pair, LATERAL (VALUES (64, e64), (128, e128), (256, e256)) v(k, e)
WHERE j > 0 AND j < 1
GROUP BY k, bin ORDER BY k, bin;
SELECT k, count(*) AS pairs,
       round((sqrt(avg((e - j) ^ 2)) / sqrt(avg(j * (1 - j) / k)))::numeric, 3) AS ratio_all,
       round(avg(sizes)) AS avg_shingles_ab
FROM est_pair, LATERAL (VALUES (64, e64), (128, e128), (256, e256)) v(k, e)
WHERE j > 0 AND j < 1
GROUP BY k ORDER BY k;

------------------------------------------------------------------ candidate curve
-- A pair is an LSH candidate when it shares a band: compared on the text
-- form (8 hex digits per value after the header, same header for the same
-- parameters).  Empirical candidate rate by exact-Jaccard bin vs the mean of
-- 1 - (1 - J^r)^b over the pairs of the bin.
CREATE FUNCTION shares_band(a minhash, b minhash, bands int, r int) RETURNS boolean
LANGUAGE sql IMMUTABLE AS $$
	SELECT NOT minhash_is_empty(a) AND NOT minhash_is_empty(b) AND EXISTS (
		SELECT 1 FROM generate_series(0, bands - 1) j
		WHERE substr(a::text, length(a::text) - 8 * minhash_k(a) + 1 + 8 * r * j, 8 * r)
		    = substr(b::text, length(b::text) - 8 * minhash_k(b) + 1 + 8 * r * j, 8 * r))
$$;
CREATE TABLE curve_pair AS
SELECT shingle_jaccard(a.body, b.body, :ngram, :shingle) AS j, minhash(a.body, 128, :ngram, :shingle) AS ma, minhash(b.body, 128, :ngram, :shingle) AS mb
FROM mix a JOIN mix b ON a.d = b.d AND a.m = 0 AND b.m > 0;
\echo '== candidate curve, k = 128: empirical share of pairs sharing a band vs theory 1-(1-J^r)^b'
SELECT r, b, width_bucket(j, 0, 1.0000001, 10) AS bin, count(*) AS pairs,
       round(avg(j)::numeric, 2) AS avg_j,
       round(avg(shares_band(ma, mb, b, r)::int)::numeric, 3) AS empirical,
       round(avg(1 - (1 - j ^ r) ^ b)::numeric, 3) AS theory
FROM curve_pair, (VALUES (3, 42), (4, 32), (8, 16)) v(r, b)
GROUP BY r, b, bin ORDER BY r, bin;
