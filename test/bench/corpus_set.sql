-- The labelled corpus set shared by test/bench/minhash_accuracy.sql and
-- test/bench/compare.sql: the 453-document corpus (test/data) with its answer
-- key, and one programmatic near-duplicate of every original.
-- psql variable: datadir (holding corpus.tsv and corpus_truth.tsv); needs
-- the table para of test/bench/minhash_load.sql.
-- Makes: corpus, truth, docs (id, lang, origin, kind, body), cluster and
-- true_pair (a < b, kind).
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

