-- Accuracy of textfp_match() and of each single fingerprint on the labelled
-- pairs of tools/make_match_set.py (loaded by test/bench/match_accuracy.sh
-- into match_pairs).  textfp_match's threshold was fitted on the TRAIN split
-- (tools/fit_match.py); the thresholds of the single methods and of the
-- "any of three" rule are chosen here on the TRAIN split (highest recall
-- with precision >= 0.99 there).  Every figure is measured on the held-out
-- TEST split unless it says train.  The pairs of kind 'translation' (the
-- same LibreOffice help section translated separately into zh-CN and zh-TW:
-- not copies of each other, not unrelated either; see
-- tools/make_match_set.py) are kept out of precision and recall and out of
-- every threshold's choice: how many each method calls copies is shown
-- apart.
\set ON_ERROR_STOP 1
\pset footer off
SET max_parallel_workers_per_gather = 0;
CREATE TEMP TABLE m AS
SELECT p.pair_id, p.split, p.kind, p.lang, p.book, p.label = 't' AS copy, t.*,
       minhash_jaccard(minhash(p.a, 128), minhash(p.b, 128)) AS mh,
       -simhash_dist(simhash(p.a), simhash(p.b)) AS sh,
       CASE WHEN p.lang = 'zh' THEN pinyin_dna_similarity(pinyin_dna(p.a), pinyin_dna(p.b)) END AS dna,
       minhash_jaccard(minhash(CASE WHEN t.html_a THEN html_text(p.a) ELSE p.a END, 128),
                       minhash(CASE WHEN t.html_b THEN html_text(p.b) ELSE p.b END, 128)) AS mh_html
FROM match_pairs p, LATERAL textfp_match(p.a, p.b) t;
-- scored: counts as a copy or a non-copy (not a translation pair)
ALTER TABLE m ADD COLUMN scored boolean;
UPDATE m SET scored = NOT (copy AND kind = 'translation');
\if :{?features_out}
COPY (SELECT pair_id, split, kind, lang, copy, shingle_jaccard, shingle_containment, bigram_jaccard, bigram_containment, 1 - simhash_distance / 64.0, pinyin_dna_similarity, pinyin_jaccard, pinyin_containment, ordered, chinese, ordered_chars, longest_run, book FROM m ORDER BY pair_id) TO :'features_out';
\endif
SELECT split, count(*) FILTER (WHERE scored) AS pairs, count(*) FILTER (WHERE copy AND scored) AS copies,
       count(*) FILTER (WHERE NOT copy) AS not_copies,
       count(*) FILTER (WHERE NOT scored) AS translations_apart
FROM m GROUP BY split ORDER BY split DESC;

-- single methods: (method, score) per pair, higher = more similar
CREATE TEMP TABLE s AS
SELECT pair_id, split, kind, lang, copy, scored, v.method, v.score
FROM m, LATERAL (VALUES ('minhash k=128', mh), ('simhash (-bits)', sh::float8),
                        ('pinyin_dna', dna), ('minhash k=128 of html_text', mh_html)) v(method, score)
WHERE v.score IS NOT NULL;
-- the threshold of each method: highest train recall with train precision >= 0.99
CREATE TEMP TABLE thr AS
WITH per AS (SELECT method, score, count(*) FILTER (WHERE copy) AS tp, count(*) AS n
             FROM s WHERE split = 'train' AND scored GROUP BY method, score),
cum AS (SELECT method, score, sum(tp) OVER w AS tp, sum(n) OVER w AS n
        FROM per WINDOW w AS (PARTITION BY method ORDER BY score DESC))
SELECT DISTINCT ON (method) method, score AS threshold
FROM cum WHERE tp::float8 / n >= 0.99 ORDER BY method, tp DESC, score DESC;
-- "any of three": minhash >= t1 or simhash bits <= t2 or pinyin_dna >= t3,
-- the triple with the highest train recall at train precision >= 0.99
-- (candidates: 16 quantiles of each method's train copies' scores)
CREATE TEMP TABLE cand AS
SELECT method, percentile_disc(q) WITHIN GROUP (ORDER BY score) AS t
FROM s, generate_series(0.0, 0.75, 0.05) q
WHERE split = 'train' AND copy AND scored AND method IN ('minhash k=128', 'simhash (-bits)', 'pinyin_dna')
GROUP BY method, q;
INSERT INTO cand VALUES ('pinyin_dna', 2.0), ('simhash (-bits)', 1.0), ('minhash k=128', 2.0);
CREATE TEMP TABLE any3 AS
WITH g AS (SELECT a.t AS t1, b.t AS t2, c.t AS t3
           FROM (SELECT DISTINCT t FROM cand WHERE method = 'minhash k=128') a,
                (SELECT DISTINCT t FROM cand WHERE method = 'simhash (-bits)') b,
                (SELECT DISTINCT t FROM cand WHERE method = 'pinyin_dna') c),
e AS (SELECT g.t1, g.t2, g.t3, count(*) FILTER (WHERE x.copy) AS tp, count(*) AS n
      FROM g JOIN m x ON x.split = 'train' AND x.scored
       AND (x.mh >= g.t1 OR x.sh >= g.t2 OR coalesce(x.dna, 0) >= g.t3)
      GROUP BY g.t1, g.t2, g.t3)
SELECT t1, t2, t3 FROM e WHERE tp::float8 / n >= 0.99 ORDER BY tp DESC, t1 DESC, t2 DESC, t3 DESC LIMIT 1;
INSERT INTO s
SELECT pair_id, split, kind, lang, copy, scored, 'any of three',
       CASE WHEN mh >= t1 OR sh >= t2 OR coalesce(dna, 0) >= t3 THEN 1.0 ELSE 0.0 END
FROM m, any3;
INSERT INTO thr VALUES ('any of three', 1.0);
INSERT INTO s SELECT pair_id, split, kind, lang, copy, scored, 'textfp_match', CASE WHEN verdict THEN 1.0 ELSE 0.0 END FROM m;
INSERT INTO thr VALUES ('textfp_match', 1.0);

\echo
\echo == thresholds (chosen on the train split; any of three: minhash >= t1, simhash bits <= -t2, pinyin_dna >= t3)
SELECT method, round(threshold::numeric, 4) AS threshold FROM thr ORDER BY method;
SELECT round(t1::numeric, 4) AS t1, -t2 AS bits, round(t3::numeric, 4) AS t3 FROM any3;

\echo
\echo == held-out TEST split: precision and recall of each method (pinyin_dna: Chinese pairs only)
SELECT s.method,
       round((count(*) FILTER (WHERE copy AND score >= threshold))::numeric
             / nullif(count(*) FILTER (WHERE score >= threshold), 0), 4) AS precision,
       round((count(*) FILTER (WHERE copy AND score >= threshold))::numeric
             / count(*) FILTER (WHERE copy), 4) AS recall,
       count(*) FILTER (WHERE NOT copy AND score >= threshold) AS false_pos,
       count(*) FILTER (WHERE copy) AS copies
FROM s JOIN thr USING (method) WHERE split = 'test' AND scored GROUP BY s.method ORDER BY s.method;

\echo
\echo == held-out TEST split: recall per kind of copy
SELECT s.method, s.kind,
       round((count(*) FILTER (WHERE copy AND score >= threshold))::numeric
             / nullif(count(*) FILTER (WHERE copy), 0), 3) AS recall
FROM s JOIN thr USING (method) WHERE split = 'test' AND scored AND s.kind NOT IN ('neighbour', 'translation')
GROUP BY s.method, s.kind ORDER BY s.kind, s.method
\crosstabview kind method recall

\echo
\echo == held-out TEST split: translations (not scored): share each method calls copies
SELECT s.method, s.split,
       round((count(*) FILTER (WHERE score >= threshold))::numeric / count(*), 3) AS called_copies,
       count(*) AS pairs
FROM s JOIN thr USING (method) WHERE NOT scored
GROUP BY s.method, s.split ORDER BY s.split DESC, s.method
\crosstabview method split called_copies

\echo
\echo == held-out TEST split: false positives per kind of hard negative
SELECT s.method, s.kind, count(*) FILTER (WHERE NOT copy AND score >= threshold) AS false_pos,
       count(*) FILTER (WHERE NOT copy) AS negatives
FROM s JOIN thr USING (method) WHERE split = 'test' AND scored
GROUP BY s.method, s.kind ORDER BY s.kind, s.method
\crosstabview kind method false_pos

\echo
\echo == textfp_match per language (test) and on the train split
SELECT split, lang,
       round((count(*) FILTER (WHERE copy AND verdict))::numeric / nullif(count(*) FILTER (WHERE verdict), 0), 4) AS precision,
       round((count(*) FILTER (WHERE copy AND verdict))::numeric / count(*) FILTER (WHERE copy), 4) AS recall,
       count(*) FILTER (WHERE copy) AS copies, count(*) FILTER (WHERE NOT copy) AS negatives
FROM m WHERE scored GROUP BY ROLLUP (split, lang) ORDER BY split DESC, lang;

\echo
\echo == textfp_match on the test split if the translations counted as copies (as the set was first labelled)
SELECT round((count(*) FILTER (WHERE copy AND verdict))::numeric / nullif(count(*) FILTER (WHERE verdict), 0), 4) AS precision,
       round((count(*) FILTER (WHERE copy AND verdict))::numeric / count(*) FILTER (WHERE copy), 4) AS recall,
       round((count(*) FILTER (WHERE copy AND verdict AND kind IN ('taiwan', 'translation')))::numeric
             / count(*) FILTER (WHERE copy AND kind IN ('taiwan', 'translation')), 3) AS zh_tw_recall
FROM m WHERE split = 'test';

\echo
\echo == textfp_match: precision at other score thresholds (test)
SELECT t AS score_at_least,
       round((count(*) FILTER (WHERE copy AND score >= t))::numeric / nullif(count(*) FILTER (WHERE score >= t), 0), 4) AS precision,
       round((count(*) FILTER (WHERE copy AND score >= t))::numeric / count(*) FILTER (WHERE copy), 4) AS recall
FROM m, unnest(ARRAY[0.5, 0.8, 0.9, 0.92, 0.95, 0.98, 0.99]) t WHERE split = 'test' AND scored GROUP BY t ORDER BY t;

\echo
\echo == the copies textfp_match misses on the test split (kind, features)
SELECT pair_id, kind, lang, round(score::numeric, 3) AS score,
       round(shingle_jaccard::numeric, 2) AS j5, round(shingle_containment::numeric, 2) AS c5,
       round(bigram_containment::numeric, 2) AS c2, simhash_distance AS bits,
       round(ordered_chars::numeric, 2) AS ord1, round(longest_run::numeric, 2) AS run
FROM m WHERE split = 'test' AND copy AND scored AND NOT verdict ORDER BY kind, score DESC LIMIT 40;

\echo
\echo == the non-copies textfp_match calls copies on the test split
SELECT pair_id, kind, lang, round(score::numeric, 3) AS score,
       round(shingle_jaccard::numeric, 2) AS j5, round(shingle_containment::numeric, 2) AS c5,
       round(bigram_containment::numeric, 2) AS c2, simhash_distance AS bits,
       round(ordered_chars::numeric, 2) AS ord1, round(longest_run::numeric, 2) AS run
FROM m WHERE split = 'test' AND NOT copy AND verdict ORDER BY kind, score DESC;
