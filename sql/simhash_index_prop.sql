--
-- Property test: over thousands of random queries (radii 0..8; query keys
-- from planted near-duplicate groups, from the table, and random), the GIN
-- index returns exactly the rows of a sequential scan, for several layouts
--
SELECT setseed(0.17);
CREATE TABLE hp (id int, fp simhash64);
INSERT INTO hp SELECT g, (((random() * 4294967296)::bigint << 32) # (random() * 4294967296)::bigint)::simhash64
  FROM generate_series(1, 8000) g;
-- planted near-duplicates: up to 6 random bit flips of a random row, several per group
INSERT INTO hp SELECT 10000 + g, (h.fp::bigint
    # (1::bigint << (random() * 63)::int) # (1::bigint << (random() * 63)::int)
    # (CASE WHEN random() < 0.5 THEN 1::bigint << (random() * 63)::int ELSE 0 END)
    # (CASE WHEN random() < 0.3 THEN 7::bigint << (random() * 60)::int ELSE 0 END))::simhash64
  FROM generate_series(1, 3000) g JOIN hp h ON h.id = 1 + (g % 600);
INSERT INTO hp SELECT 20000 + g, '00ff00ff00ff00ff' FROM generate_series(1, 1000) g;
INSERT INTO hp SELECT 30000 + g, NULL FROM generate_series(1, 20) g;
CREATE TABLE hp_q AS
  SELECT i, i % 9 AS k,
         CASE WHEN i % 3 = 0 THEN (SELECT fp FROM hp WHERE id = 1 + (i * 7919) % 600)
              WHEN i % 3 = 1 THEN (SELECT fp FROM hp WHERE id = 10001 + (i * 104729) % 3000)
              ELSE (((random() * 4294967296)::bigint << 32) # (random() * 4294967296)::bigint)::simhash64
         END AS q
    FROM generate_series(1, 2000) i;
ANALYZE hp;

-- The sequential scan's answer to every query, computed once: every form
-- below (simhash_dist <= k, simhash_within, <@ simhash_ball) means the same
-- set of rows, so each index layout is compared with this one answer.
CREATE TABLE hp_seq AS
  SELECT q.i, (SELECT array_agg(id ORDER BY id) FROM hp WHERE simhash_dist(fp, q.q) <= q.k) AS ids
    FROM hp_q q;
SELECT count(*) AS queries, count(*) FILTER (WHERE ids IS NULL) AS empty,
       sum(cardinality(ids)) > 2000 AS many_matches FROM hp_seq;

CREATE FUNCTION hp_compare(form text) RETURNS TABLE (queries int, mismatches int, matched bigint)
LANGUAGE plpgsql AS $$
DECLARE r record; a int[]; n int := 0; bad int := 0; tot bigint := 0;
BEGIN
  SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = on;
  FOR r IN SELECT q.*, s.ids FROM hp_q q JOIN hp_seq s USING (i) ORDER BY i LOOP
    EXECUTE format('SELECT array_agg(id ORDER BY id) FROM hp WHERE %s', form) INTO a USING r.q, r.k;
    n := n + 1;
    tot := tot + coalesce(cardinality(a), 0);
    IF a IS DISTINCT FROM r.ids THEN bad := bad + 1; END IF;
  END LOOP;
  RETURN QUERY SELECT n, bad, tot;
END $$;
CREATE INDEX hp_gin ON hp USING gin (fp);
-- the index is really used by the "index" side
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM hp WHERE simhash_dist(fp, '0000000000000000') <= 8;
RESET enable_seqscan;
SELECT queries, mismatches, matched > 2000 AS many_matches FROM hp_compare('simhash_dist(fp, $1) <= $2');
SELECT queries, mismatches, matched > 2000 AS many_matches FROM hp_compare('simhash_within($1, fp, $2)');
DROP INDEX hp_gin;
CREATE INDEX hp_gin ON hp USING gin (fp simhash64_gin_ops (blocks = 3));
SELECT queries, mismatches, matched > 2000 AS many_matches FROM hp_compare('fp <@ simhash_ball($1, $2)');
DROP INDEX hp_gin;
CREATE INDEX hp_gin ON hp USING gin (fp simhash64_gin_ops (blocks = 16, interleave = false));
SELECT queries, mismatches, matched > 2000 AS many_matches FROM hp_compare('simhash_dist(fp, $1) <= $2');
DROP INDEX hp_gin;
-- blocks that do not cover all 64 bits (width cap), consecutive and interleaved
CREATE INDEX hp_gin ON hp USING gin (fp simhash64_gin_ops (blocks = 5, width = 9, interleave = false));
SELECT queries, mismatches, matched > 2000 AS many_matches FROM hp_compare('simhash_dist(fp, $1) <= $2');
DROP INDEX hp_gin;
CREATE INDEX hp_gin ON hp USING gin (fp simhash64_gin_ops (blocks = 4, width = 7));
SELECT queries, mismatches, matched > 2000 AS many_matches FROM hp_compare('fp <@ simhash_ball($1, $2)');
DROP TABLE hp, hp_q, hp_seq;
DROP FUNCTION hp_compare(text);
