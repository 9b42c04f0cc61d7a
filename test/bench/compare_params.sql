-- The parameter choices of the fingerprints of issue 19, measured on the
-- sets of test/bench/compare.sql (run after it, on its tables ev_doc and
-- ev_pair: COMPARE_PARAMS=1 test/bench/compare.sh): SpotSigs' chain,
-- the number of sentences k, super-shingle groups, the I-Match idf band and
-- the randomization.  For each variant, the recall at the threshold with
-- the highest recall at precision >= 0.99 (zh, corpus: chosen on the set;
-- pairs: chosen on train, measured on test), as in compare.sql.
\set ON_ERROR_STOP 1
\pset footer off
SET max_parallel_workers_per_gather = 0;

CREATE TABLE pv_score (set text, variant text, relevant bool, split text, score float8);

-- best recall at precision >= 0.99 of each (set, variant)
CREATE FUNCTION pv_report() RETURNS TABLE (set text, variant text, threshold float8, recall numeric)
LANGUAGE sql AS $$
WITH per AS (
  SELECT set, variant, score, count(*) FILTER (WHERE relevant) AS tp, count(*) AS n
  FROM pv_score WHERE split IN ('all', 'train') AND score > 0 GROUP BY set, variant, score),
cum AS (
  SELECT set, variant, score, sum(tp) OVER w AS tp, sum(n) OVER w AS n
  FROM per WINDOW w AS (PARTITION BY set, variant ORDER BY score DESC)),
choice AS (
  SELECT DISTINCT ON (set, variant) set, variant, score AS threshold
  FROM cum WHERE tp::float8 / n >= 0.99 ORDER BY set, variant, tp DESC, score DESC)
SELECT v.set, v.variant, c.threshold,
       round((count(*) FILTER (WHERE v.relevant AND v.score >= c.threshold))::numeric /
             nullif(count(*) FILTER (WHERE v.relevant), 0), 3)
FROM pv_score v LEFT JOIN choice c USING (set, variant)
WHERE v.split IN ('all', 'test')
GROUP BY v.set, v.variant, c.threshold ORDER BY 2, 1 $$;

-- SpotSigs: chain 1, 2 (default), 3
CREATE TABLE pv_fp AS
SELECT set, id, spotsigs(body, 1) AS c1, spotsigs(body, 2) AS c2, spotsigs(body, 3) AS c3,
       longest_sentences(body, 5) AS k5, longest_sentences(body, 10) AS k10, longest_sentences(body, 16) AS k16,
       supershingles(minhash(body, 84), 6) AS g6, supershingles(minhash(body, 84), 14) AS g14
FROM ev_doc;
CREATE UNIQUE INDEX ON pv_fp (set, id);
INSERT INTO pv_score
SELECT p.set, v.variant, p.relevant, p.split,
       CASE v.variant
         WHEN 'spotsigs chain 1' THEN set_jaccard(x.c1, y.c1)
         WHEN 'spotsigs chain 2' THEN set_jaccard(x.c2, y.c2)
         WHEN 'spotsigs chain 3' THEN set_jaccard(x.c3, y.c3)
         WHEN 'sentences k 5' THEN set_shared(x.k5, y.k5)
         WHEN 'sentences k 10' THEN set_shared(x.k10, y.k10)
         WHEN 'sentences k 16' THEN set_shared(x.k16, y.k16)
         WHEN 'supershingles 6 x 14' THEN set_shared(x.g6, y.g6)
         WHEN 'supershingles 14 x 6' THEN set_shared(x.g14, y.g14) END
FROM ev_pair p JOIN pv_fp x ON x.set = p.set AND x.id = p.a JOIN pv_fp y ON y.set = p.set AND y.id = p.b,
     unnest(ARRAY['spotsigs chain 1', 'spotsigs chain 2', 'spotsigs chain 3', 'sentences k 5',
                  'sentences k 10', 'sentences k 16', 'supershingles 6 x 14', 'supershingles 14 x 6']) v(variant);

-- I-Match: idf bands, and randomization (lexicons / fraction left out)
CREATE TABLE pv_df AS
SELECT set, term, count(*) AS df FROM ev_doc, unnest(imatch_terms(body)) term GROUP BY set, term;
CREATE TABLE pv_lex AS
SELECT d.set, b.lo, b.hi, imatch_build_lexicon(array_agg(t.term)) AS lex
FROM pv_df t JOIN (SELECT set, count(*) AS n FROM ev_doc GROUP BY set) d USING (set),
     (VALUES (0.4, 0.6), (0.5, 0.8), (0.6, 0.8)) b(lo, hi)
WHERE ln(d.n::float8 / t.df) / ln(d.n) BETWEEN b.lo AND b.hi
GROUP BY d.set, b.lo, b.hi;
CREATE TABLE pv_im AS
SELECT e.set, e.id, l.lo, l.hi, imatch(e.body, l.lex) AS im,
       imatch_randomized(e.body, l.lex, 10, 0.3) AS r10_3, imatch_randomized(e.body, l.lex, 20, 0.7) AS r20_7,
       imatch_randomized(e.body, l.lex, 40, 0.7) AS r40_7
FROM ev_doc e JOIN pv_lex l USING (set);
CREATE INDEX ON pv_im (set, id);
INSERT INTO pv_score
SELECT p.set, 'imatch [' || x.lo || ', ' || x.hi || '] ' || v.variant, p.relevant, p.split,
       CASE v.variant
         WHEN 'plain' THEN coalesce(x.im = y.im, false)::int
         WHEN 'randomized 10 / 0.3' THEN set_shared(x.r10_3, y.r10_3)
         WHEN 'randomized 20 / 0.7' THEN set_shared(x.r20_7, y.r20_7)
         WHEN 'randomized 40 / 0.7' THEN set_shared(x.r40_7, y.r40_7) END
FROM ev_pair p JOIN pv_im x ON x.set = p.set AND x.id = p.a
JOIN pv_im y ON y.set = p.set AND y.id = p.b AND y.lo = x.lo AND y.hi = x.hi,
     unnest(ARRAY['plain', 'randomized 10 / 0.3', 'randomized 20 / 0.7', 'randomized 40 / 0.7']) v(variant);

\echo
\echo == recall at precision >= 0.99 of each variant (threshold: Jaccard, or values shared)
SELECT variant, set, round(threshold::numeric, 3) AS threshold, recall FROM pv_report()
\crosstabview variant set recall
