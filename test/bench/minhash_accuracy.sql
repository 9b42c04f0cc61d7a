-- MinHash accuracy on real text (run by test/bench/minhash_accuracy.sh).
-- psql variables: datadir (test/data), ngram and shingle (feature options).
\set ON_ERROR_STOP 1
\pset footer off
SET textfp.minhash_threshold = 0.5;

------------------------------------------------------------------ data
-- The labelled corpus: originals and their real/simulated reposts.
CREATE TABLE corpus (id int PRIMARY KEY, lang text, source text, title text, body text);
CREATE TABLE truth (id int, original_id int, transformation text);
\set corpus_file :datadir '/corpus.tsv'
\set truth_file :datadir '/corpus_truth.tsv'
COPY corpus FROM :'corpus_file';
COPY truth FROM :'truth_file';

-- Programmatic near-duplicates of every original (seeded by the id):
-- insertion of a paragraph from the pool, deletion of a paragraph,
-- substitution of ~4% of the words (en) or Han characters (zh), reordering
-- of the paragraphs, boilerplate header + footer, and two combinations.
CREATE FUNCTION perturb(body text, lang text, kind int, seed int) RETURNS text
LANGUAGE plpgsql AS $$
DECLARE
	ps text[] := string_to_array(body, E'\n');
	n int := cardinality(ps);
	pos int := 1 + abs(hashint4(seed)) % n;
	newp text := (SELECT p FROM para WHERE para.lang = perturb.lang
	               ORDER BY hashint4(id + seed) LIMIT 1);
	han text := '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严';
	out text;
BEGIN
	IF kind = 1 THEN	-- insertion
		ps := ps[1:pos] || newp || ps[pos + 1:n];
	ELSIF kind = 2 THEN	-- deletion (documents of one paragraph lose their last sentence-ish tail)
		IF n > 1 THEN
			ps := ps[1:pos - 1] || ps[pos + 1:n];
		ELSE
			ps := ARRAY[left(ps[1], (length(ps[1]) * 85) / 100)];
		END IF;
	ELSIF kind = 3 THEN	-- substitution
		IF lang = 'en' THEN
			SELECT string_agg(CASE WHEN abs(hashint4(seed * 7 + i::int)) % 100 < 4
			                       THEN (ARRAY['the', 'a', 'of', 'system', 'file', 'may', 'will', 'data'])[1 + abs(hashint4(i::int + seed)) % 8]
			                       ELSE w END, ' ' ORDER BY i)
			  INTO out FROM regexp_split_to_table(body, ' ') WITH ORDINALITY AS t(w, i);
		ELSE
			SELECT string_agg(CASE WHEN c ~ '[一-鿿]' AND abs(hashint4(seed * 7 + i::int)) % 100 < 4
			                       THEN substr(han, 1 + abs(hashint4(i::int + seed)) % length(han), 1)
			                       ELSE c END, '' ORDER BY i)
			  INTO out FROM regexp_split_to_table(body, '') WITH ORDINALITY AS t(c, i);
		END IF;
		RETURN out;
	ELSIF kind = 4 THEN	-- reordering
		SELECT array_agg(p ORDER BY hashint4(seed + i::int)) INTO ps FROM unnest(ps) WITH ORDINALITY AS t(p, i);
	ELSIF kind = 5 THEN	-- boilerplate
		IF lang = 'en' THEN
			ps := ARRAY['Reposted from the community documentation portal. All rights belong to the original authors.'] || ps
			      || ARRAY['Subscribe to our newsletter for more tutorials like this one, and share it with your friends!'];
		ELSE
			ps := ARRAY['本文转载自社区文档网站，版权归原作者所有，如有侵权请联系删除。'] || ps
			      || ARRAY['欢迎关注我们的公众号，获取更多技术教程和最新资讯！'];
		END IF;
	ELSIF kind = 6 THEN	-- insertion + substitution
		RETURN perturb(perturb(body, lang, 1, seed), lang, 3, seed + 1);
	ELSE				-- deletion + boilerplate
		RETURN perturb(perturb(body, lang, 2, seed), lang, 5, seed + 1);
	END IF;
	RETURN array_to_string(ps, E'\n');
END $$;

CREATE TABLE docs (id int PRIMARY KEY, lang text, origin int, kind text, body text);
INSERT INTO docs SELECT id, lang, NULL, 'corpus', body FROM corpus;
INSERT INTO docs
SELECT 100000 + c.id, c.lang, c.id,
       (ARRAY['insert', 'delete', 'substitute', 'reorder', 'boilerplate', 'insert+substitute', 'delete+boilerplate'])[1 + c.id % 7],
       perturb(c.body, c.lang, 1 + c.id % 7, c.id)
FROM corpus c WHERE c.id NOT IN (SELECT id FROM truth);

-- true pairs (unordered, a < b): all pairs of one cluster, a cluster being
-- an original with its corpus reposts and its generated near-duplicates.
CREATE TABLE cluster AS
SELECT d.id, coalesce(d.origin, t.original_id, d.id) AS c,
       coalesce(d.kind || CASE WHEN d.kind = 'corpus' THEN ':' || t.transformation ELSE '' END, 'original') AS kind
FROM docs d LEFT JOIN truth t ON t.id = d.id;
CREATE TABLE true_pair (a int, b int, kind text, PRIMARY KEY (a, b));
INSERT INTO true_pair
SELECT x.id, y.id,
       CASE WHEN x.kind LIKE 'corpus:%' AND y.kind LIKE 'corpus:%' THEN 'corpus repost - corpus repost'
            WHEN x.id = x.c THEN regexp_replace(y.kind, '^corpus:', '')
            WHEN y.id = y.c THEN regexp_replace(x.kind, '^corpus:', '')
            ELSE 'repost - generated' END
FROM cluster x JOIN cluster y ON x.c = y.c AND x.id < y.id;

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
\echo '== LSH search (k = 128, minhash_lsh_ops defaults rows = 3, bands = 42): precision / recall over all pairs'
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
