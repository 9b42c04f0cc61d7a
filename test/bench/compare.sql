-- Every fingerprint of textfp on the same labelled near-duplicate sets
-- (run by test/bench/compare.sh, which loads the sets):
--   zh      acc_docs (id, orig_id, kind, body): tools/make_pinyin_accuracy.py,
--           real Chinese articles and 7 kinds of copies; every document is a
--           query against every original but itself (the other originals,
--           many of them neighbouring chapters, are the negatives)
--   corpus  docs, true_pair: test/bench/corpus_set.sql, the 453-document
--           Chinese/English corpus with its answer key and one programmatic
--           near-duplicate per original; every pair of documents
--   pairs   match_pairs (pair_id, split, kind, lang, label, book, a, b):
--           tools/make_match_set.py (branch verdict), labelled pairs of real
--           text with hard negatives, held out by book: thresholds are chosen
--           on the train split and measured on the test split (psql
--           variable have_pairs = 1 when loaded)
-- For each method: the threshold with the highest recall at precision >=
-- 0.99 (chosen on the set itself for zh and corpus: optimistic), its recall
-- per kind of copy, and precision/recall at the method's natural threshold;
-- then rows/s of each fingerprint function.
\set ON_ERROR_STOP 1
\pset footer off
SET max_parallel_workers_per_gather = 0;
\if :{?have_pairs}
\else
\set have_pairs 0
\endif

------------------------------------------------------------------ documents and pairs
CREATE TABLE ev_doc (set text, id int, lang text, body text, PRIMARY KEY (set, id));
INSERT INTO ev_doc SELECT 'zh', id, 'zh', body FROM acc_docs;
INSERT INTO ev_doc SELECT 'corpus', id, lang, body FROM docs;
CREATE TABLE ev_pair (set text, a int, b int, relevant bool, kind text, split text);
INSERT INTO ev_pair
SELECT 'zh', q.id, o.id, o.id = q.orig_id AND q.kind <> 'original', q.kind, 'all'
FROM acc_docs q JOIN acc_docs o ON o.kind = 'original' AND o.id <> q.id;
INSERT INTO ev_pair
SELECT 'corpus', x.id, y.id, tp.a IS NOT NULL, coalesce(tp.kind, 'unrelated'), 'all'
FROM docs x JOIN docs y ON x.id < y.id LEFT JOIN true_pair tp ON tp.a = x.id AND tp.b = y.id;
\if :have_pairs
-- the copies of kind html are web pages: with html_text() (branch verdict)
-- their text is fingerprinted, as a user would; without it, the markup
SELECT EXISTS (SELECT FROM pg_proc WHERE proname = 'html_text') AS have_html_text \gset
INSERT INTO ev_doc SELECT 'pairs', 2 * pair_id, lang, a FROM match_pairs;
\if :have_html_text
\echo html pages: fingerprints of html_text(page)
INSERT INTO ev_doc SELECT 'pairs', 2 * pair_id + 1, lang, CASE WHEN kind = 'html' THEN html_text(b) ELSE b END FROM match_pairs;
\else
\echo html pages: fingerprints of the markup (no html_text() in this build)
INSERT INTO ev_doc SELECT 'pairs', 2 * pair_id + 1, lang, b FROM match_pairs;
\endif
-- the copies of kind 'translation' (independent zh-TW translations, see
-- test/data/README.md) are neither copies nor non-copies: left out, as in
-- test/bench/match_accuracy.sh
INSERT INTO ev_pair SELECT 'pairs', 2 * pair_id, 2 * pair_id + 1, label = 't', kind, split FROM match_pairs
WHERE NOT (label = 't' AND kind = 'translation');
\endif
SELECT set, count(*) AS pairs, count(*) FILTER (WHERE relevant) AS copies,
       (SELECT count(*) FROM ev_doc d WHERE d.set = p.set) AS documents,
       (SELECT round(avg(octet_length(body))) FROM ev_doc d WHERE d.set = p.set) AS avg_bytes
FROM ev_pair p GROUP BY set ORDER BY set;

------------------------------------------------------------------ fingerprints
-- I-Match lexicon of each set: the terms whose normalized idf
-- ln(N / df) / ln(N) lies in [0.6, 0.8] (the band measured in README)
CREATE TABLE ev_lex AS
SELECT d.set, imatch_build_lexicon(array_agg(t.term)) AS lex
FROM (SELECT set, term, count(*) AS df FROM ev_doc, unnest(imatch_terms(body)) term GROUP BY set, term) t
JOIN (SELECT set, count(*) AS n FROM ev_doc GROUP BY set) d USING (set)
WHERE ln(d.n::float8 / t.df) / ln(d.n) BETWEEN 0.6 AND 0.8
GROUP BY d.set;
CREATE TABLE ev_fp AS
SELECT d.set, d.id, simhash(body) AS sh, minhash(body, 128) AS mh, pinyin_dna(body) AS dna,
       spotsigs(body) AS ss, longest_sentences(body) AS ls, supershingles(minhash(body, 84)) AS sup,
       imatch(body, l.lex) AS im, imatch_randomized(body, l.lex) AS imr, shingles(body) AS shg
FROM ev_doc d JOIN ev_lex l USING (set);
CREATE UNIQUE INDEX ON ev_fp (set, id);
SELECT set, round(avg(cardinality(ss)), 1) AS spots, round(avg(cardinality(ls)), 1) AS sentences,
       round(avg(cardinality(dna)), 1) AS dna_windows, count(im) AS with_imatch, count(*) AS docs,
       (SELECT imatch_lexicon_size(lex) FROM ev_lex l WHERE l.set = f.set) AS lexicon_terms
FROM ev_fp f GROUP BY set ORDER BY set;

------------------------------------------------------------------ scores
-- one row per pair: the score of every method (higher = more similar) and
-- whether the method's natural rule matches
CREATE TABLE ev_score AS
SELECT p.set, p.relevant, p.kind, p.split,
       -simhash_dist(x.sh, y.sh)::float8 AS simhash,
       minhash_jaccard(x.mh, y.mh) AS minhash,
       pinyin_dna_similarity(x.dna, y.dna) AS pinyin_dna,
       set_jaccard(x.ss, y.ss) AS spotsigs,
       set_shared(x.ls, y.ls)::float8 AS sentences,
       set_shared(x.sup, y.sup)::float8 AS supershingles,
       coalesce(x.im = y.im, false)::int::float8 AS imatch,
       set_shared(x.imr, y.imr)::float8 AS imatch_randomized,
       set_jaccard(x.shg, y.shg) AS shingles_exact,
       pinyin_dna_shared(x.dna, y.dna) >= 2 AS pinyin_dna_natural
FROM ev_pair p JOIN ev_fp x ON x.set = p.set AND x.id = p.a JOIN ev_fp y ON y.set = p.set AND y.id = p.b;
-- methods: name, natural rule (score >= nat), its description, order
CREATE TABLE ev_method (method text, nat float8, rule text, ord int);
INSERT INTO ev_method VALUES
 ('simhash', -3, 'Hamming <= 3', 1),
 ('minhash', 0.5, 'estimate >= 0.5 (k = 128)', 2),
 ('pinyin_dna', NULL, '>= 2 windows shared', 3),
 ('spotsigs', 0.3, 'Jaccard >= 0.3', 4),
 ('sentences', 3, '>= 3 of 10 sentences', 5),
 ('supershingles', 2, '>= 2 of 6 (k = 84)', 6),
 ('imatch', 1, 'equal', 7),
 ('imatch_randomized', 1, 'any of 21 equal', 8),
 ('shingles_exact', 0.5, 'Jaccard >= 0.5 (exact; not a fingerprint)', 9);
CREATE TABLE ev_long AS
SELECT s.set, m.method, s.relevant, s.kind, s.split,
       CASE m.method WHEN 'simhash' THEN s.simhash WHEN 'minhash' THEN s.minhash
            WHEN 'pinyin_dna' THEN s.pinyin_dna WHEN 'spotsigs' THEN s.spotsigs
            WHEN 'sentences' THEN s.sentences WHEN 'supershingles' THEN s.supershingles
            WHEN 'imatch' THEN s.imatch WHEN 'imatch_randomized' THEN s.imatch_randomized
            WHEN 'shingles_exact' THEN s.shingles_exact END AS score,
       CASE WHEN m.method = 'pinyin_dna' THEN s.pinyin_dna_natural END AS natural_match
FROM ev_score s CROSS JOIN ev_method m;
UPDATE ev_long l SET natural_match = l.score >= m.nat FROM ev_method m
WHERE m.method = l.method AND m.nat IS NOT NULL;

-- the threshold with the highest recall at precision >= 0.99: chosen on the
-- pairs of split 'all' (zh, corpus) or 'train' (pairs), measured on 'all'
-- or 'test'
CREATE TABLE ev_choice AS
WITH per AS (
  SELECT set, method, score, count(*) FILTER (WHERE relevant) AS tp, count(*) AS n
  FROM ev_long WHERE split IN ('all', 'train') AND score > 0 OR (method = 'simhash' AND split IN ('all', 'train'))
  GROUP BY set, method, score),
cum AS (
  SELECT set, method, score, sum(tp) OVER w AS tp, sum(n) OVER w AS n
  FROM per WINDOW w AS (PARTITION BY set, method ORDER BY score DESC))
SELECT DISTINCT ON (set, method) set, method, score AS threshold
FROM cum WHERE tp::float8 / n >= 0.99 ORDER BY set, method, tp DESC, score DESC;

CREATE FUNCTION ev_fmt(m text, t float8) RETURNS text LANGUAGE sql IMMUTABLE AS $$
SELECT CASE WHEN t IS NULL THEN '-'
            WHEN m = 'simhash' THEN 'Hamming <= ' || (-t)::int
            WHEN m IN ('sentences', 'supershingles', 'imatch_randomized') THEN '>= ' || t::int || ' shared'
            WHEN m = 'imatch' THEN 'equal'
            ELSE '>= ' || round(t::numeric, 3) END $$;

\echo
\echo == precision and recall of every fingerprint, per set (zh, corpus: threshold chosen on the set;
\echo == pairs: chosen on the train split, measured on the held-out test split)
SELECT l.set, l.method,
       ev_fmt(l.method, c.threshold) AS "threshold (p >= 0.99)",
       round((count(*) FILTER (WHERE l.relevant AND l.score >= c.threshold))::numeric /
             nullif(count(*) FILTER (WHERE l.score >= c.threshold), 0), 3) AS precision,
       round((count(*) FILTER (WHERE l.relevant AND l.score >= c.threshold))::numeric /
             nullif(count(*) FILTER (WHERE l.relevant), 0), 3) AS recall,
       m.rule AS "natural rule",
       round((count(*) FILTER (WHERE l.relevant AND l.natural_match))::numeric /
             nullif(count(*) FILTER (WHERE l.natural_match), 0), 3) AS "precision (natural)",
       round((count(*) FILTER (WHERE l.relevant AND l.natural_match))::numeric /
             nullif(count(*) FILTER (WHERE l.relevant), 0), 3) AS "recall (natural)"
FROM ev_long l JOIN ev_method m USING (method) LEFT JOIN ev_choice c USING (set, method)
WHERE l.split IN ('all', 'test')
GROUP BY l.set, l.method, m.ord, c.threshold, m.rule ORDER BY l.set, m.ord;

\echo
\echo == recall by kind of copy at the threshold for precision >= 0.99 (false positives: f)
SELECT l.set || ': ' || left(l.kind, 60) AS kind, m.method,
       coalesce(round((count(*) FILTER (WHERE l.relevant AND l.score >= c.threshold))::numeric /
                      nullif(count(*) FILTER (WHERE l.relevant), 0), 2)::text, '-') ||
       coalesce(' f' || nullif(count(*) FILTER (WHERE NOT l.relevant AND l.score >= c.threshold), 0), '') AS recall
FROM ev_long l JOIN ev_method m USING (method) LEFT JOIN ev_choice c USING (set, method)
WHERE l.split IN ('all', 'test') AND l.kind <> 'unrelated' AND l.kind <> 'original'
GROUP BY l.set, l.kind, m.method, m.ord ORDER BY 1, m.ord
\crosstabview kind method recall

------------------------------------------------------------------ speed
-- rows/s of each fingerprint over the documents of the sets (each body
-- stored uncompressed in line), best of 3 rounds, md5 as the yardstick
CREATE TABLE sp_doc (body text);
ALTER TABLE sp_doc ALTER body SET STORAGE PLAIN;
INSERT INTO sp_doc SELECT body FROM ev_doc, generate_series(1, :speed_copies) WHERE octet_length(body) < 8000;
VACUUM ANALYZE sp_doc;
SELECT count(*) AS speed_rows, round(avg(octet_length(body))) AS avg_bytes FROM sp_doc;
CREATE TABLE sp_lex AS SELECT lex FROM ev_lex WHERE set = 'corpus';
CREATE TABLE speed (what text, round int, seconds float8);
DO $$
DECLARE
	t0 timestamptz;
	n bigint;
	e text;
	exprs text[] := ARRAY['octet_length(body)', 'md5(body)', 'simhash(body)', 'minhash(body, 128)',
	                      'pinyin_dna(body)', 'spotsigs(body)', 'longest_sentences(body)',
	                      'supershingles(minhash(body, 84))', 'imatch(body, (SELECT lex FROM sp_lex))',
	                      'imatch_randomized(body, (SELECT lex FROM sp_lex))', 'shingles(body)'];
BEGIN
	FOR r IN 1..3 LOOP
		FOREACH e IN ARRAY exprs LOOP
			t0 := clock_timestamp();
			EXECUTE format('SELECT count(%s) FROM sp_doc', e) INTO n;
			INSERT INTO speed VALUES (e, r, extract(epoch FROM clock_timestamp() - t0));
		END LOOP;
	END LOOP;
END $$;
\echo
\echo == speed (best of 3; net = minus the scan, octet_length(body)); a shared machine is noisy
WITH b AS (SELECT what, min(seconds) AS s FROM speed GROUP BY what),
     n AS (SELECT count(*) AS rows FROM sp_doc),
     scan AS (SELECT s FROM b WHERE what = 'octet_length(body)'),
     md5 AS (SELECT s FROM b WHERE what = 'md5(body)')
SELECT b.what AS function, round(n.rows / b.s) AS "rows/s",
       round((1e6 * (b.s - scan.s) / n.rows)::numeric, 2) AS "us per row, net",
       round(((b.s - scan.s) / (md5.s - scan.s))::numeric, 2) AS "x md5, net"
FROM b, n, scan, md5 WHERE b.what <> 'octet_length(body)' ORDER BY b.s;
