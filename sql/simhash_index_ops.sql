--
-- Hamming-radius search: simhash_ball, <@, simhash_within, the literal
-- simhash_dist(fp, q) <= k, GIN and GiST operator classes, plans
--
-- ball type I/O and constructors (radius clamped to -1 .. 64)
SELECT '0123456789abcdef/3'::simhash64_ball, '0123456789ABCDEF/-1'::simhash64_ball,
       '0123456789abcdef/64'::simhash64_ball;
SELECT simhash_ball('00000000000000ff'::simhash64, 2),
       simhash_ball('00000000000000ff'::simhash64, -100),
       simhash_ball('00000000000000ff'::simhash64, 1000),
       simhash_ball_open('00000000000000ff'::simhash64, -2147483648),
       simhash_ball_open('00000000000000ff'::simhash64, 4);
SELECT simhash_ball_center('00000000000000ff/7'), simhash_ball_radius('00000000000000ff/7');
-- bad input: 22P02
SELECT '0123456789abcdef'::simhash64_ball;
SELECT '0123456789abcdef/65'::simhash64_ball;
SELECT '0123456789abcde/3'::simhash64_ball;
SELECT '0123456789abcdef/3x'::simhash64_ball;
SELECT '0123456789abcdef/'::simhash64_ball;
-- predicates agree with simhash_dist for every radius, including out-of-range ones
SELECT k, '00000000000000ff'::simhash64 <@ simhash_ball('000000000000000f', k) AS in_ball,
       simhash_ball('000000000000000f', k) @> '00000000000000ff'::simhash64 AS contains,
       simhash_within('00000000000000ff', '000000000000000f', k) AS within,
       simhash_dist('00000000000000ff', '000000000000000f') <= k AS dist
  FROM unnest(ARRAY[-2147483648, -1, 0, 3, 4, 5, 64, 2147483647]) k;
-- NULLs: strict
SELECT NULL::simhash64 <@ simhash_ball('0000000000000000', 64), simhash_within(NULL, '0000000000000000', 3);

-- operator classes validate
SELECT opcname, amname, amvalidate(c.oid)
  FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
 WHERE opcname LIKE 'simhash%' AND amname <> 'hamming' ORDER BY 1, 2;  -- hamming: sql/hamming
SELECT opcname, opcdefault FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
 WHERE amname = 'gin' AND opcname LIKE 'simhash%';

-- data: random fingerprints, planted near-duplicates, 2000 identical values, NULLs
-- (from a hash, not random(): the same data on every PostgreSQL version)
CREATE TABLE hx (id int, fp simhash64);
INSERT INTO hx SELECT g, (((hashint8(2 * g)::bigint & 4294967295) << 32) #
                          (hashint8(2 * g + 1)::bigint & 4294967295))::simhash64
  FROM generate_series(1, 20000) g;
INSERT INTO hx SELECT 100000 + id, (fp::bigint # (1::bigint << (id % 64)) # (1::bigint << ((id * 7) % 64)))::simhash64
  FROM hx WHERE id <= 500;
INSERT INTO hx SELECT 200000 + g, 'f0f0f0f0f0f0f0f0' FROM generate_series(1, 2000) g;
INSERT INTO hx SELECT 300000 + g, NULL FROM generate_series(1, 50) g;
-- expected answers by sequential scan
CREATE TABLE hx_q AS SELECT id AS qid, fp AS q FROM hx WHERE id IN (1, 2, 3, 250, 499, 7777, 200001);
CREATE TABLE hx_truth AS
  SELECT qid, k, array_agg(h.id ORDER BY h.id) AS ids
    FROM hx_q, generate_series(0, 9) k, hx h
   WHERE simhash_dist(h.fp, q) <= k GROUP BY qid, k;
SELECT count(*) AS truth_groups, sum(cardinality(ids)) AS truth_rows,
       count(*) FILTER (WHERE cardinality(ids) > 1) AS groups_with_neighbours FROM hx_truth;

CREATE INDEX hx_gin ON hx USING gin (fp);
CREATE INDEX hx_gist ON hx USING gist (fp simhash64_gist_ops);
ANALYZE hx;

-- every query form, natural plans
EXPLAIN (COSTS OFF) SELECT id FROM hx WHERE fp <@ simhash_ball('f0f0f0f0f0f0f0f1', 3);
EXPLAIN (COSTS OFF) SELECT id FROM hx WHERE simhash_within(fp, '0123456789abcdef', 3);
EXPLAIN (COSTS OFF) SELECT id FROM hx WHERE simhash_within('0123456789abcdef', fp, 3);
EXPLAIN (COSTS OFF) SELECT id FROM hx WHERE simhash_dist(fp, '0123456789abcdef') <= 3;
EXPLAIN (COSTS OFF) SELECT id FROM hx WHERE simhash_dist(fp, '0123456789abcdef') < 4;
EXPLAIN (COSTS OFF) SELECT id FROM hx WHERE simhash_dist(fp, '0123456789abcdef') BETWEEN 0 AND 3;
EXPLAIN (COSTS OFF) SELECT id FROM hx WHERE 3 >= simhash_dist('0123456789abcdef', fp);
EXPLAIN (COSTS OFF) SELECT id FROM hx WHERE 4 > simhash_dist('0123456789abcdef', fp);
EXPLAIN (COSTS OFF) SELECT id FROM hx WHERE fp <-> '0123456789abcdef' <= 3;
EXPLAIN (COSTS OFF) SELECT id FROM hx ORDER BY fp <-> '0123456789abcdef' LIMIT 5;
-- lower bounds and other comparisons are not indexable
EXPLAIN (COSTS OFF) SELECT id FROM hx WHERE simhash_dist(fp, '0123456789abcdef') >= 3;
-- selectivity: the MCV value is counted, random centres follow the binomial
-- tail (the planner's row estimate of each query; costs differ by version)
CREATE FUNCTION plan_rows(q text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE j json;
BEGIN
  EXECUTE 'EXPLAIN (FORMAT JSON) ' || q INTO j;
  RETURN (j->0->'Plan'->>'Plan Rows')::bigint;
END $$;
SELECT plan_rows($$SELECT id FROM hx WHERE simhash_dist(fp, 'f0f0f0f0f0f0f0f0') <= 3$$) AS mcv_centre,
       plan_rows($$SELECT id FROM hx WHERE simhash_within(fp, '0123456789abcdef', 3)$$) AS random_centre;
DROP FUNCTION plan_rows(text);

-- generic plans with parameters
SET plan_cache_mode = force_generic_plan;
PREPARE p1(simhash64, int) AS SELECT id FROM hx WHERE fp <@ simhash_ball($1, $2);
PREPARE p2(simhash64, int) AS SELECT id FROM hx WHERE simhash_within(fp, $1, $2);
PREPARE p3(simhash64) AS SELECT id FROM hx WHERE simhash_dist(fp, $1) <= 3;
PREPARE p4(simhash64, int) AS SELECT id FROM hx WHERE simhash_dist($1, fp) < $2;
PREPARE p5(simhash64) AS SELECT id FROM hx WHERE 3 >= simhash_dist($1, fp);
PREPARE p6(simhash64) AS SELECT id FROM hx ORDER BY fp <-> $1 LIMIT 3;
EXPLAIN (COSTS OFF) EXECUTE p1('0123456789abcdef', 3);
EXPLAIN (COSTS OFF) EXECUTE p2('0123456789abcdef', 3);
EXPLAIN (COSTS OFF) EXECUTE p3('0123456789abcdef');
EXPLAIN (COSTS OFF) EXECUTE p4('0123456789abcdef', 4);
EXPLAIN (COSTS OFF) EXECUTE p5('0123456789abcdef');
EXPLAIN (COSTS OFF) EXECUTE p6('0123456789abcdef');
-- results of the prepared statements equal the truth
SELECT qid, k, (SELECT array_agg(id ORDER BY id) FROM hx WHERE fp <@ simhash_ball(q, k)) = ids AS ok
  FROM hx_truth JOIN hx_q USING (qid) WHERE k IN (0, 3, 8) ORDER BY 1, 2;
RESET plan_cache_mode;

-- joins: nested loop with the index on the inner side
EXPLAIN (COSTS OFF) SELECT q.qid, h.id FROM hx_q q JOIN hx h ON simhash_dist(h.fp, q.q) <= 3;
EXPLAIN (COSTS OFF) SELECT q.qid, h.id FROM hx_q q JOIN hx h ON simhash_within(h.fp, q.q, 3);
EXPLAIN (COSTS OFF) SELECT q.qid, h.id FROM hx_q q JOIN hx h ON h.fp <@ simhash_ball(q.q, 3);
-- join results equal the truth
SELECT count(*) AS mismatches FROM (
  (SELECT qid, id FROM hx_q q JOIN hx h ON simhash_dist(h.fp, q.q) <= 3
   EXCEPT SELECT qid, unnest(ids) FROM hx_truth WHERE k = 3)
  UNION ALL
  (SELECT qid, unnest(ids) FROM hx_truth WHERE k = 3
   EXCEPT SELECT qid, id FROM hx_q q JOIN hx h ON simhash_within(h.fp, q.q, 3))) d;

-- every form with the index equals the truth, every radius 0..9
CREATE FUNCTION hx_check(form text) RETURNS TABLE (query_form text, checked int, wrong int)
LANGUAGE plpgsql AS $$
DECLARE r record; got int[]; n int := 0; bad int := 0;
BEGIN
  FOR r IN SELECT t.qid, t.k, t.ids, q.q FROM hx_truth t JOIN hx_q q USING (qid) LOOP
    EXECUTE format('SELECT array_agg(id ORDER BY id) FROM hx WHERE %s', form)
      INTO got USING r.q, r.k;
    n := n + 1;
    IF got IS DISTINCT FROM r.ids THEN bad := bad + 1; END IF;
  END LOOP;
  RETURN QUERY SELECT form, n, bad;
END $$;
SET enable_seqscan = off;
SELECT * FROM hx_check('fp <@ simhash_ball($1, $2)');
SELECT * FROM hx_check('simhash_within(fp, $1, $2)');
SELECT * FROM hx_check('simhash_dist(fp, $1) <= $2');
SELECT * FROM hx_check('simhash_dist($1, fp) < $2 + 1');
SELECT * FROM hx_check('$2 >= simhash_dist($1, fp)');
-- KNN: the 5 nearest by the GiST index are at the true 5 smallest distances
SELECT qid, (SELECT array_agg(d) FROM (SELECT fp <-> q AS d FROM hx ORDER BY fp <-> q LIMIT 5) s)
          = (SELECT array_agg(d) FROM (SELECT simhash_dist(fp, q) AS d FROM hx WHERE fp IS NOT NULL
                                        ORDER BY 1 OFFSET 0 LIMIT 5) s) AS knn_ok
  FROM hx_q ORDER BY qid;
EXPLAIN (COSTS OFF) SELECT fp <-> '0123456789abcdef' FROM hx ORDER BY fp <-> '0123456789abcdef' LIMIT 5;
RESET enable_seqscan;

-- other layouts: opclass options, and a wide radius (probes, full scan)
DROP INDEX hx_gin;
CREATE INDEX hx_gin4 ON hx USING gin (fp simhash64_gin_ops (blocks = 4, interleave = false));
SET enable_seqscan = off;
SELECT * FROM hx_check('fp <@ simhash_ball($1, $2)');
CREATE TABLE hx_wide AS SELECT k, (SELECT count(*) FROM hx WHERE fp <@ simhash_ball('f0f0f0f0f0f0f0f0', k)) AS idx
  FROM unnest(ARRAY[-1, 12, 20, 40, 64, 100]) k;
RESET enable_seqscan;
SET enable_bitmapscan = off;
SELECT k, idx, (SELECT count(*) FROM hx WHERE fp <@ simhash_ball('f0f0f0f0f0f0f0f0', k)) AS seq
  FROM hx_wide ORDER BY k;
RESET enable_bitmapscan;
CREATE INDEX hx_bad ON hx USING gin (fp simhash64_gin_ops (blocks = 2));
CREATE INDEX hx_bad ON hx USING gin (fp simhash64_gin_ops (blocks = 17));

-- REINDEX, VACUUM after deletes and updates
DELETE FROM hx WHERE id % 3 = 0;
UPDATE hx SET fp = (fp::bigint # 1)::simhash64 WHERE id % 3 = 1 AND id > 100000;
VACUUM hx;
REINDEX INDEX hx_gin4;
REINDEX INDEX hx_gist;
SET enable_seqscan = off;
SELECT count(*) AS idx FROM hx WHERE simhash_dist(fp, 'f0f0f0f0f0f0f0f1') <= 2;
RESET enable_seqscan;
SET enable_bitmapscan = off; SET enable_indexscan = off;
SELECT count(*) AS seq FROM hx WHERE simhash_dist(fp, 'f0f0f0f0f0f0f0f1') <= 2;
RESET enable_bitmapscan; RESET enable_indexscan;
DROP TABLE hx, hx_q, hx_truth, hx_wide;
DROP FUNCTION hx_check(text);

-- partitioned tables, LATERAL, LEFT JOIN (parameterized paths on each partition)
CREATE TABLE hpt (id int, fp simhash64) PARTITION BY RANGE (id);
CREATE TABLE hpt1 PARTITION OF hpt FOR VALUES FROM (0) TO (5000);
CREATE TABLE hpt2 PARTITION OF hpt FOR VALUES FROM (5000) TO (10000);
INSERT INTO hpt SELECT g, ((g::bigint * 2654435761) # (g::bigint << 40))::simhash64 FROM generate_series(1, 9999) g;
INSERT INTO hpt SELECT id + 1, (fp::bigint # 6)::simhash64 FROM hpt WHERE id % 1000 = 0 AND id < 9000;
CREATE INDEX ON hpt USING gin (fp);
ANALYZE hpt;
EXPLAIN (COSTS OFF) SELECT id FROM hpt WHERE simhash_dist(fp, '0123456789abcdef') <= 3;
EXPLAIN (COSTS OFF) SELECT a.id, b.id FROM hpt a LEFT JOIN hpt b ON simhash_dist(a.fp, b.fp) <= 2 AND a.id <> b.id
  WHERE a.id < 3000;
-- OR and volatile bounds are not indexed (and still correct)
EXPLAIN (COSTS OFF) SELECT id FROM hpt WHERE simhash_dist(fp, '0123456789abcdef') <= 3 OR id = 5;
EXPLAIN (COSTS OFF) SELECT id FROM hpt WHERE simhash_dist(fp, '0123456789abcdef') <= random()::int;
CREATE TABLE hpt_idx AS SELECT a.id AS a, b.id AS b FROM hpt a LEFT JOIN hpt b
  ON simhash_dist(a.fp, b.fp) <= 2 AND a.id <> b.id WHERE a.id < 3000;
SET enable_bitmapscan = off; SET enable_indexscan = off;
CREATE TABLE hpt_seq AS SELECT a.id AS a, b.id AS b FROM hpt a LEFT JOIN hpt b
  ON simhash_dist(a.fp, b.fp) <= 2 AND a.id <> b.id WHERE a.id < 3000;
RESET enable_bitmapscan; RESET enable_indexscan;
SELECT (SELECT count(*) FROM hpt_seq) AS seq_rows, (SELECT count(b) FROM hpt_seq) AS seq_pairs,
       (SELECT count(*) FROM (SELECT * FROM hpt_idx EXCEPT ALL SELECT * FROM hpt_seq) d) +
       (SELECT count(*) FROM (SELECT * FROM hpt_seq EXCEPT ALL SELECT * FROM hpt_idx) d) AS differences;
DROP TABLE hpt, hpt_idx, hpt_seq;
