--
-- textfp demo: near-duplicate groups in a real sample corpus.
--
-- Run by test/run-demo.sh on a throwaway cluster (psql runs from the
-- repository root).  The corpus is test/data/corpus.tsv: 453 Chinese and
-- English documents from Debian packages, 73 of them reposts of others (28
-- real -- zh-TW vs zh-CN translations, two architectures' installation
-- guides, two releases of a manual -- and 45 simulated edits); the answer key
-- is test/data/corpus_truth.tsv, used only to score the result at the end.
--
\set ON_ERROR_STOP 1
\pset footer off
SET client_min_messages = warning;
CREATE EXTENSION IF NOT EXISTS textfp;

\echo
\echo '== 1. An article table with a generated simhash column'
CREATE TABLE articles (
    id     int PRIMARY KEY,
    lang   text,
    source text,
    title  text,
    body   text NOT NULL,
    fp     simhash64 GENERATED ALWAYS AS (simhash(body)) STORED
);
\copy articles (id, lang, source, title, body) FROM 'test/data/corpus.tsv'
SELECT count(*) AS articles,
       count(*) FILTER (WHERE lang = 'zh') AS chinese,
       count(*) FILTER (WHERE lang = 'en') AS english,
       pg_size_pretty(sum(octet_length(body))) AS text
FROM articles;

\echo
\echo '== 2. A sample of fingerprints'
SELECT id, lang, left(title, 40) AS title, fp FROM articles ORDER BY id LIMIT 5;

\echo
\echo '== 3. Candidate pairs: fingerprints within 12 bits, text overlap checked'
-- SimHash finds candidates by Hamming distance; the pair is kept when the two
-- texts also share at least 40% of their character 3-grams (a cheap exact
-- check on the candidates only).
CREATE TEMP TABLE pairs AS
SELECT a.id AS a, b.id AS b, a.fp <-> b.fp AS bits
FROM articles a JOIN articles b ON a.id < b.id
WHERE a.fp <-> b.fp <= 12;
CREATE FUNCTION pg_temp.grams(t text) RETURNS text[] LANGUAGE sql IMMUTABLE AS $$
  SELECT array_agg(DISTINCT substr(s, i, 3))
  FROM (SELECT regexp_replace(lower(t), '\s+', ' ', 'g') AS s) x, generate_series(1, greatest(length(s) - 2, 1)) i
$$;
CREATE TEMP TABLE grams AS SELECT id, pg_temp.grams(body) AS g FROM articles
WHERE id IN (SELECT a FROM pairs UNION SELECT b FROM pairs);
ALTER TABLE pairs ADD COLUMN overlap numeric;
UPDATE pairs p SET overlap = round((SELECT count(*) FROM (SELECT unnest(ga.g) INTERSECT SELECT unnest(gb.g)) i)::numeric
                                   / least(cardinality(ga.g), cardinality(gb.g)), 2)
FROM grams ga, grams gb WHERE ga.id = p.a AND gb.id = p.b;
SELECT bits, count(*) AS pairs, count(*) FILTER (WHERE overlap >= 0.4) AS confirmed
FROM pairs GROUP BY bits ORDER BY bits;
DELETE FROM pairs WHERE overlap < 0.4;

\echo
\echo '== 4. Near-duplicate groups (connected components of confirmed pairs)'
CREATE TEMP TABLE grp AS
WITH RECURSIVE edges AS (
    SELECT a AS x, b AS y FROM pairs UNION SELECT b, a FROM pairs
), reach(x, y) AS (
    SELECT x, x FROM (SELECT x FROM edges UNION SELECT y FROM edges) n
    UNION
    SELECT r.x, e.y FROM reach r JOIN edges e ON e.x = r.y
)
SELECT x AS id, min(y) AS grp FROM reach GROUP BY x;
SELECT count(DISTINCT grp) AS groups, count(*) AS documents_in_groups FROM grp;
\echo
SELECT g.grp AS "group", a.id, a.lang, a.source, left(a.title, 38) AS title,
       a.fp, a.fp <-> first_value(a.fp) OVER w AS bits_from_first
FROM grp g JOIN articles a USING (id)
WINDOW w AS (PARTITION BY g.grp ORDER BY a.id)
ORDER BY g.grp, a.id
LIMIT 60;

\echo
\echo '== 5. Looking up one new arrival: which stored articles is it a copy of?'
-- an exact Hamming-radius index; the literal simhash_dist(...) <= k uses it
-- (the table is tiny, so the planner is told to prefer the index here)
CREATE INDEX articles_fp ON articles USING gin (fp);
ANALYZE articles;
SET enable_seqscan = off;
PREPARE arrival(text) AS
SELECT a.id, left(a.title, 40) AS title, a.fp <-> simhash($1) AS bits
FROM articles a
WHERE simhash_dist(a.fp, simhash($1)) <= 6
ORDER BY bits;
EXPLAIN (COSTS OFF) EXECUTE arrival('x');
-- a repost of article 64 with a different header and footer
SELECT '转载自某网站：' || body || ' 本文版权归原作者所有，如有侵权请联系删除。' AS repost
FROM articles WHERE id = 64 \gset
EXECUTE arrival(:'repost');
RESET enable_seqscan;

\echo
\echo '== 6. Scored against the answer key (test/data/corpus_truth.tsv)'
CREATE TEMP TABLE truth (id int, original_id int, transformation text);
\copy truth FROM 'test/data/corpus_truth.tsv'
CREATE TEMP TABLE truth_pairs AS
SELECT DISTINCT least(t1.id, t2.id) AS a, greatest(t1.id, t2.id) AS b
FROM (SELECT id, coalesce((SELECT original_id FROM truth WHERE id = t.id), id) AS root FROM articles t) t1
JOIN (SELECT id, coalesce((SELECT original_id FROM truth WHERE id = t.id), id) AS root FROM articles t) t2
  ON t1.root = t2.root AND t1.id < t2.id;
SELECT (SELECT count(*) FROM truth_pairs) AS true_pairs,
       (SELECT count(*) FROM pairs) AS found_pairs,
       (SELECT count(*) FROM pairs p JOIN truth_pairs t USING (a, b)) AS correct,
       round((SELECT count(*) FROM pairs p JOIN truth_pairs t USING (a, b))::numeric
             / nullif((SELECT count(*) FROM pairs), 0), 3) AS precision,
       round((SELECT count(*) FROM pairs p JOIN truth_pairs t USING (a, b))::numeric
             / nullif((SELECT count(*) FROM truth_pairs), 0), 3) AS recall;
\echo 'missed reposts, by kind of copy:'
SELECT tr.transformation, count(*) AS missed
FROM truth_pairs t JOIN truth tr ON tr.id IN (t.a, t.b) AND tr.original_id IN (t.a, t.b)
WHERE NOT EXISTS (SELECT 1 FROM pairs p WHERE p.a = t.a AND p.b = t.b)
GROUP BY 1 ORDER BY 2 DESC, 1;
