-- Accuracy of pinyin_dna next to simhash (and minhash when the extension has
-- it) on the set made by tools/make_pinyin_accuracy.py (loaded by
-- test/bench/pinyin_accuracy.sh into acc_docs).
--
-- Every document (original or copy) is a query against every original
-- (except itself); the one relevant answer of a copy is its original, an
-- original has none (the other originals, many of them neighbouring
-- chapters of the same book, are the unrelated same-topic negatives).
-- For each method the threshold is the one giving the highest recall
-- with precision >= 0.99 over all queries (chosen on this set: optimistic),
-- then recall is broken down by kind of copy.
\pset footer off
SET max_parallel_workers_per_gather = 0;
CREATE TEMP TABLE fp AS
SELECT id, orig_id, kind,
       pinyin_dna(body, 64) AS dna64,
       pinyin_dna(body) AS dna32,
       pinyin_dna(body, 64, content_defined => false) AS dna64_fixed,
       pinyin_dna(body, content_defined => false) AS dna32_fixed,
       pinyin_dna(body, 128) AS dna128,
       pinyin_dna(body, 32, 50, 8) AS dna32_l8,
       simhash(body) AS sh
FROM acc_docs;
-- minhash (issue 4, another branch): used when the extension has it;
-- MINHASH_EXPR (psql variable, default minhash(body, 128)) says how to call it
SELECT EXISTS (SELECT FROM pg_proc WHERE proname = 'minhash')
   AND EXISTS (SELECT FROM pg_proc WHERE proname = 'minhash_jaccard') AS have_minhash \gset
\if :{?MINHASH_EXPR}
\else
\set MINHASH_EXPR 'minhash(body, 128)'
\endif
\if :have_minhash
\echo using :MINHASH_EXPR
CREATE TEMP TABLE mh AS SELECT id, :MINHASH_EXPR AS mh FROM acc_docs;
ALTER TABLE fp ADD COLUMN mh minhash;
UPDATE fp SET mh = m.mh FROM mh m WHERE m.id = fp.id;
\else
\echo minhash not in this build: compared with simhash only
\endif
ANALYZE fp;
SELECT kind, count(*) AS docs, round(avg(cardinality(dna64)), 1) AS avg_windows64,
       round(avg(cardinality(dna32)), 1) AS avg_windows32
FROM fp GROUP BY kind ORDER BY kind;

CREATE TEMP TABLE scores (method text, qid int, oid int, relevant bool, kind text, score float8);
INSERT INTO scores
SELECT m.method, q.id, o.id, o.id = q.orig_id AND q.kind <> 'original', q.kind,
       CASE m.method
         WHEN 'pinyin_dna w64 cd' THEN pinyin_dna_similarity(q.dna64, o.dna64)
         WHEN 'pinyin_dna w32 cd (default)' THEN pinyin_dna_similarity(q.dna32, o.dna32)
         WHEN 'pinyin_dna w128 cd' THEN pinyin_dna_similarity(q.dna128, o.dna128)
         WHEN 'pinyin_dna w32 cd l8' THEN pinyin_dna_similarity(q.dna32_l8, o.dna32_l8)
         WHEN 'pinyin_dna w64 fixed' THEN pinyin_dna_similarity(q.dna64_fixed, o.dna64_fixed)
         WHEN 'pinyin_dna w32 fixed' THEN pinyin_dna_similarity(q.dna32_fixed, o.dna32_fixed)
         WHEN 'simhash' THEN -simhash_dist(q.sh, o.sh)
       END
FROM fp q, fp o,
     unnest(ARRAY['pinyin_dna w64 cd', 'pinyin_dna w32 cd (default)', 'pinyin_dna w128 cd',
                  'pinyin_dna w32 cd l8', 'pinyin_dna w64 fixed', 'pinyin_dna w32 fixed',
                  'simhash']) m(method)
WHERE o.kind = 'original' AND o.id <> q.id;
\if :have_minhash
INSERT INTO scores
SELECT 'minhash', q.id, o.id, o.id = q.orig_id AND q.kind <> 'original', q.kind,
       minhash_jaccard(q.mh, o.mh)
FROM fp q, fp o WHERE o.kind = 'original' AND o.id <> q.id;
\endif

-- precision/recall at every threshold (score >= t)
CREATE TEMP TABLE curve AS
WITH per AS (
  SELECT method, score, count(*) FILTER (WHERE relevant) AS tp, count(*) AS n
  FROM scores GROUP BY method, score),
cum AS (
  SELECT method, score,
         sum(tp) OVER w AS tp, sum(n) OVER w AS retrieved
  FROM per WINDOW w AS (PARTITION BY method ORDER BY score DESC))
SELECT c.method, c.score AS threshold, c.tp::float8 / c.retrieved AS precision,
       c.tp::float8 / (SELECT count(*) FROM fp WHERE kind <> 'original') AS recall
FROM cum c;
CREATE TEMP TABLE chosen AS
SELECT DISTINCT ON (method) method, threshold, precision, recall
FROM curve WHERE precision >= 0.99 ORDER BY method, recall DESC, threshold DESC;

\echo
\echo == best threshold per method with precision >= 0.99 (all copies together)
SELECT method, round(threshold::numeric, 4) AS threshold,
       round(precision::numeric, 4) AS precision, round(recall::numeric, 4) AS recall
FROM chosen ORDER BY method;

\echo
\echo == recall by kind of copy at that threshold (originals have no relevant answer: 0)
SELECT c.method, s.kind,
       round((count(*) FILTER (WHERE s.relevant AND s.score >= c.threshold))::numeric /
             greatest(count(DISTINCT s.qid), 1), 3) AS recall,
       count(*) FILTER (WHERE NOT s.relevant AND s.score >= c.threshold) AS false_pos
FROM scores s JOIN chosen c USING (method)
GROUP BY c.method, s.kind ORDER BY s.kind, c.method
\crosstabview kind method recall

\echo
\echo == false positives by kind at that threshold
SELECT c.method, s.kind,
       count(*) FILTER (WHERE NOT s.relevant AND s.score >= c.threshold) AS false_pos
FROM scores s JOIN chosen c USING (method)
GROUP BY c.method, s.kind ORDER BY s.kind, c.method
\crosstabview kind method false_pos

\echo
\echo == recall per kind at precision >= 0.99 when the threshold is chosen for that kind alone
WITH per AS (
  SELECT method, kind, score, count(*) FILTER (WHERE relevant) AS tp, count(*) AS n
  FROM scores WHERE kind <> 'original' GROUP BY method, kind, score),
cum AS (
  SELECT method, kind, score, sum(tp) OVER w AS tp, sum(n) OVER w AS retrieved
  FROM per WINDOW w AS (PARTITION BY method, kind ORDER BY score DESC)),
best AS (
  SELECT method, kind, max(tp::float8 / (SELECT count(*) FROM fp f WHERE f.kind = cum.kind)) AS recall
  FROM cum WHERE tp::float8 / retrieved >= 0.99 GROUP BY method, kind)
SELECT method, kind, round(recall::numeric, 3) AS recall FROM best ORDER BY kind, method
\crosstabview kind method recall

\echo
\echo == GIN-style filter: dna %& pinyin_dna_query(q, m), default parameters (all queries)
SELECT m, count(*) FILTER (WHERE s.relevant) AS tp, count(*) FILTER (WHERE NOT s.relevant) AS fp,
       round((count(*) FILTER (WHERE s.relevant))::numeric / nullif(count(*), 0), 4) AS precision,
       round((count(*) FILTER (WHERE s.relevant))::numeric /
             (SELECT count(*) FROM fp WHERE kind <> 'original'), 4) AS recall
FROM generate_series(1, 4) m,
     LATERAL (SELECT q.id, o.id = q.orig_id AND q.kind <> 'original' AS relevant
              FROM fp q JOIN fp o ON o.kind = 'original' AND o.id <> q.id
                               AND o.dna32 %& pinyin_dna_query(q.dna32, m)) s
GROUP BY m ORDER BY m;

\echo
\echo == margin: mean similarity of copies to their original, and the highest
\echo == similarity of any unrelated pair (scores as used above: simhash = -Hamming)
SELECT method, kind, round(avg(score)::numeric, 3) AS mean_copy_score
FROM scores WHERE relevant GROUP BY method, kind ORDER BY kind, method
\crosstabview kind method mean_copy_score
SELECT method, round(max(score)::numeric, 3) AS max_unrelated_score,
       round((percentile_cont(0.999) WITHIN GROUP (ORDER BY score))::numeric, 3) AS p999_unrelated
FROM scores WHERE NOT relevant AND kind = 'original' GROUP BY method ORDER BY method;
