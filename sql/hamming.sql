--
-- The hamming index access method: exact radius search and exact nearest
-- neighbours.  Over thousands of random queries the index returns what a
-- sequential scan (and a sort) returns, before and after inserts into the
-- pending list, deletes and VACUUM; NULL keys; bad input.
--
-- The access method needs PostgreSQL 15 or later (see src/sql/75_hamming.sql):
-- on 13 and 14 the extension has no hamming method and this test stops here.
SELECT pg_catalog.current_setting('server_version_num')::int4 < 150000 AS no_hamming \gset
SELECT amname FROM pg_am WHERE amname = 'hamming';
\if :no_hamming
\quit
\endif
-- (the disabled plans of the comparisons would cost enough to be JIT-compiled)
SET jit = off;
SELECT setseed(0.29);
-- (no autovacuum on the table: the pending list, runs, merges and reltuples
-- printed below must depend only on this test's statements, not on when an
-- autovacuum worker happens to visit the table)
CREATE TABLE hm (id int, fp simhash64) WITH (autovacuum_enabled = off);
INSERT INTO hm SELECT g, (((random() * 4294967296)::bigint << 32) # (random() * 4294967296)::bigint)::simhash64
  FROM generate_series(1, 6000) g;
-- planted near-duplicates: up to 6 random bit flips of a random row
INSERT INTO hm SELECT 10000 + g, (h.fp::bigint
    # (1::bigint << (random() * 63)::int) # (1::bigint << (random() * 63)::int)
    # (CASE WHEN random() < 0.5 THEN 1::bigint << (random() * 63)::int ELSE 0 END)
    # (CASE WHEN random() < 0.3 THEN 7::bigint << (random() * 60)::int ELSE 0 END))::simhash64
  FROM generate_series(1, 2000) g JOIN hm h ON h.id = 1 + (g % 500);
-- many equal keys, and keys that differ from them in one chunk only
INSERT INTO hm SELECT 20000 + g, '00ff00ff00ff00ff' FROM generate_series(1, 700) g;
INSERT INTO hm SELECT 21000 + g, ('00ff00ff00ff00ff'::simhash64::bigint # (g::bigint << 48))::simhash64
  FROM generate_series(1, 300) g;
INSERT INTO hm SELECT 30000 + g, NULL FROM generate_series(1, 20) g;
CREATE TABLE hm_q AS
  SELECT i, (i % 10) + CASE WHEN i % 50 = 0 THEN 10 ELSE 0 END AS k,
         CASE WHEN i % 3 = 0 THEN (SELECT fp FROM hm WHERE id = 1 + (i * 7919) % 500)
              WHEN i % 3 = 1 THEN (SELECT fp FROM hm WHERE id = 10001 + (i * 104729) % 2000)
              ELSE (((random() * 4294967296)::bigint << 32) # (random() * 4294967296)::bigint)::simhash64
         END AS q
    FROM generate_series(1, 1500) i;
ANALYZE hm;

-- radius search: the index (index scan, then bitmap scan) against a sequential scan
CREATE FUNCTION hm_radius(form text, nq int) RETURNS TABLE (queries int, mismatches int, matched bigint)
LANGUAGE plpgsql AS $$
DECLARE r record; a int[]; c int[]; b int[]; n int := 0; bad int := 0; tot bigint := 0;
BEGIN
  FOR r IN SELECT * FROM hm_q WHERE i <= nq ORDER BY i LOOP
    SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off; SET LOCAL enable_indexscan = on;
    EXECUTE format('SELECT array_agg(id ORDER BY id) FROM hm WHERE %s', form) INTO a USING r.q, r.k;
    SET LOCAL enable_bitmapscan = on; SET LOCAL enable_indexscan = off;
    EXECUTE format('SELECT array_agg(id ORDER BY id) FROM hm WHERE %s', form) INTO c USING r.q, r.k;
    SET LOCAL enable_seqscan = on; SET LOCAL enable_bitmapscan = off; SET LOCAL enable_indexscan = off;
    EXECUTE format('SELECT array_agg(id ORDER BY id) FROM hm WHERE %s', form) INTO b USING r.q, r.k;
    RESET enable_indexscan; RESET enable_bitmapscan; RESET enable_seqscan;
    n := n + 1;
    tot := tot + coalesce(cardinality(b), 0);
    IF a IS DISTINCT FROM b OR c IS DISTINCT FROM b THEN bad := bad + 1; END IF;
  END LOOP;
  RETURN QUERY SELECT n, bad, tot;
END $$;

-- nearest neighbours: the distances come out in the sorted order, and every
-- row strictly nearer than the last distance returned is the sort's
CREATE FUNCTION hm_knn(lim int, nq int, filter text DEFAULT 'true')
RETURNS TABLE (queries int, mismatches int, rows_seen bigint)
LANGUAGE plpgsql AS $$
DECLARE r record; da int[]; db int[]; ia int[]; ib int[]; n int := 0; bad int := 0; tot bigint := 0;
BEGIN
  FOR r IN SELECT * FROM hm_q WHERE i <= nq ORDER BY i LOOP
    SET LOCAL enable_seqscan = off; SET LOCAL enable_sort = off;
    EXECUTE format('SELECT array_agg(d ORDER BY o), array_agg(id ORDER BY id) FILTER (WHERE d < max_d)
                      FROM (SELECT *, max(d) OVER () AS max_d FROM
                             (SELECT id, fp <-> $1 AS d, row_number() OVER () AS o
                                FROM (SELECT id, fp FROM hm WHERE %s ORDER BY fp <-> $1 LIMIT $2) s) s2) s3',
                   replace(filter, '$k', r.k::text)) INTO da, ia USING r.q, lim;
    RESET enable_seqscan; RESET enable_sort;
    SET LOCAL enable_indexscan = off; SET LOCAL enable_bitmapscan = off;
    EXECUTE format('SELECT array_agg(d ORDER BY o), array_agg(id ORDER BY id) FILTER (WHERE d < max_d)
                      FROM (SELECT *, max(d) OVER () AS max_d FROM
                             (SELECT id, fp <-> $1 AS d, row_number() OVER () AS o
                                FROM (SELECT id, fp FROM hm WHERE %s ORDER BY fp <-> $1, id LIMIT $2) s) s2) s3',
                   replace(filter, '$k', r.k::text)) INTO db, ib USING r.q, lim;
    RESET enable_indexscan; RESET enable_bitmapscan;
    n := n + 1;
    tot := tot + coalesce(cardinality(da), 0);
    IF da IS DISTINCT FROM db OR ia IS DISTINCT FROM ib THEN bad := bad + 1; END IF;
  END LOOP;
  RETURN QUERY SELECT n, bad, tot;
END $$;

CREATE INDEX hm_idx ON hm USING hamming (fp);
-- the index answers both kinds of query
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM hm WHERE simhash_dist(fp, '0000000000000000') <= 3;
EXPLAIN (COSTS OFF) SELECT id FROM hm ORDER BY fp <-> '0000000000000000' LIMIT 10;
EXPLAIN (COSTS OFF) SELECT id FROM hm WHERE fp <@ simhash_ball('0000000000000000', 5)
  ORDER BY fp <-> '0000000000000000' LIMIT 10;
RESET enable_seqscan;
-- the planner picks it by itself for a top-10
EXPLAIN (COSTS OFF) SELECT id FROM hm ORDER BY fp <-> '0000000000000000' LIMIT 10;

SELECT queries, mismatches, matched > 3000 AS many_matches FROM hm_radius('simhash_dist(fp, $1) <= $2', 1500);
SELECT queries, mismatches, matched > 1000 AS many_matches FROM hm_radius('fp <@ simhash_ball($1, $2)', 600);
SELECT queries, mismatches, rows_seen FROM hm_knn(1, 300);
SELECT queries, mismatches, rows_seen FROM hm_knn(10, 600);
SELECT queries, mismatches, rows_seen FROM hm_knn(100, 150);
-- far beyond the first pass's distance window (a second pass)
SELECT queries, mismatches, rows_seen FROM hm_knn(3000, 20);
-- a radius bound and an order: the rounds run around the ORDER BY key
SELECT queries, mismatches, rows_seen > 0 AS some FROM hm_knn(20, 300, 'fp <@ simhash_ball($1, $k + 8)');
SELECT queries, mismatches, rows_seen > 0 AS some FROM hm_knn(20, 300, 'simhash_dist(fp, ''00ff00ff00ff00ff'') <= $k + 20');

-- an ORDER BY without LIMIT returns every row, NULL keys last
SET enable_seqscan = off; SET enable_sort = off;
SELECT count(*) AS all_rows, count(fp) AS keys,
       bool_and(d IS NULL OR prev IS NULL OR d >= prev) AS ordered,
       min(rn) FILTER (WHERE fp IS NULL) > max(rn) FILTER (WHERE fp IS NOT NULL) AS nulls_last
  FROM (SELECT fp, d, lag(d) OVER (ORDER BY rn) AS prev, rn
          FROM (SELECT fp, fp <-> '123456789abcdef0' AS d, row_number() OVER () AS rn
                  FROM (SELECT fp FROM hm ORDER BY fp <-> '123456789abcdef0') s) s2) s3;
-- ORDER BY a NULL key: every row, in some order
SELECT count(*) FROM (SELECT id FROM hm ORDER BY fp <-> NULL::simhash64) s;
-- two ORDER BY keys: ties of the first are ordered by the second
EXPLAIN (COSTS OFF) SELECT id FROM hm ORDER BY fp <-> '00ff00ff00ff00ff', fp <-> '0000000000000000' LIMIT 5;
SELECT array_agg(a ORDER BY rn) = array_agg(a ORDER BY a, b, rn) AS first_ordered,
       bool_and(b >= pb OR a <> pa OR pb IS NULL) AS second_ordered
  FROM (SELECT a, b, rn, lag(a) OVER (ORDER BY rn) AS pa, lag(b) OVER (ORDER BY rn) AS pb
          FROM (SELECT fp <-> '00ff00ff00ff00ff' AS a, fp <-> '0000000000000000' AS b, row_number() OVER () AS rn
                  FROM (SELECT fp FROM hm ORDER BY fp <-> '00ff00ff00ff00ff', fp <-> '0000000000000000' LIMIT 1500) s) s2) s3;
RESET enable_seqscan; RESET enable_sort;
-- empty balls and NULL balls find nothing
SET enable_seqscan = off;
SELECT count(*) FROM hm WHERE fp <@ simhash_ball('00ff00ff00ff00ff', -1);
SELECT count(*) FROM hm WHERE fp <@ NULL::simhash64_ball;
SELECT count(*) FROM hm WHERE fp <@ simhash_ball('00ff00ff00ff00ff', 64);
SELECT count(*) FROM hm WHERE fp <@ simhash_ball('00ff00ff00ff00ff', 0);
RESET enable_seqscan;

-- rows inserted after the build go to the pending list; deletes and VACUUM
SELECT * FROM hamming_index_stats('hm_idx');
INSERT INTO hm SELECT 40000 + g, (((random() * 4294967296)::bigint << 32) # (random() * 4294967296)::bigint)::simhash64
  FROM generate_series(1, 1500) g;
INSERT INTO hm SELECT 50000 + g, (h.fp::bigint # (1::bigint << (g % 64)))::simhash64
  FROM generate_series(1, 600) g JOIN hm h ON h.id = 1 + (g % 500);
INSERT INTO hm SELECT 60000 + g, NULL FROM generate_series(1, 5) g;
DELETE FROM hm WHERE id % 7 = 0;
VACUUM hm;
SELECT queries, mismatches, matched > 1500 AS many_matches FROM hm_radius('simhash_dist(fp, $1) <= $2', 900);
SELECT queries, mismatches, rows_seen FROM hm_knn(10, 300);
-- the index counts its live rows (pg_class.reltuples after VACUUM)
SELECT reltuples = (SELECT count(*) FROM hm) AS counted FROM pg_class WHERE relname = 'hm_idx';
SELECT sorted_rows, pending_rows, pending_pages FROM hamming_index_stats('hm_idx');
-- REINDEX sorts the pending rows in
REINDEX INDEX hm_idx;
SELECT sorted_rows = (SELECT count(fp) FROM hm) AS all_sorted, pending_rows, runs, merges FROM hamming_index_stats('hm_idx');
SELECT queries, mismatches, rows_seen FROM hm_knn(10, 300);
SELECT queries, mismatches, matched > 500 AS many_matches FROM hm_radius('simhash_dist(fp, $1) <= $2', 300);

-- the 2-table layout (tables = 2) gives the same answers; ALTER INDEX ...
-- SET takes effect at the next build
ALTER INDEX hm_idx SET (tables = 2);
SELECT tables FROM hamming_index_stats('hm_idx');
REINDEX INDEX hm_idx;
SELECT sorted_rows = (SELECT count(fp) FROM hm) AS all_sorted, tables FROM hamming_index_stats('hm_idx');
SELECT queries, mismatches, matched > 3000 AS many_matches FROM hm_radius('simhash_dist(fp, $1) <= $2', 1500);
SELECT queries, mismatches, matched > 1000 AS many_matches FROM hm_radius('fp <@ simhash_ball($1, $2)', 600);
SELECT queries, mismatches, rows_seen FROM hm_knn(1, 300);
SELECT queries, mismatches, rows_seen FROM hm_knn(10, 600);
SELECT queries, mismatches, rows_seen FROM hm_knn(100, 150);
SELECT queries, mismatches, rows_seen FROM hm_knn(3000, 20);
SELECT queries, mismatches, rows_seen > 0 AS some FROM hm_knn(20, 300, 'fp <@ simhash_ball($1, $k + 8)');
-- its pending list, deletes and VACUUM
INSERT INTO hm SELECT 70000 + g, (h.fp::bigint # (3::bigint << (g % 63)))::simhash64
  FROM generate_series(1, 800) g JOIN hm h ON h.id = 1 + (g % 500);
DELETE FROM hm WHERE id % 11 = 0;
VACUUM hm;
SELECT reltuples = (SELECT count(*) FROM hm) AS counted FROM pg_class WHERE relname = 'hm_idx';
SELECT queries, mismatches, matched > 1500 AS many_matches FROM hm_radius('simhash_dist(fp, $1) <= $2', 900);
SELECT queries, mismatches, rows_seen FROM hm_knn(10, 300);
REINDEX INDEX hm_idx;
SELECT queries, mismatches, rows_seen FROM hm_knn(10, 300);
SELECT queries, mismatches, matched > 500 AS many_matches FROM hm_radius('simhash_dist(fp, $1) <= $2', 300);
ALTER INDEX hm_idx RESET (tables);
REINDEX INDEX hm_idx;
SELECT tables FROM hamming_index_stats('hm_idx');

-- a larger table, where radius searches run rounds of 2 and 3 bits per
-- chunk before the scan of a whole table pays (radii 0..15)
CREATE TABLE hm_big AS
  SELECT g AS id, (((random() * 4294967296)::bigint << 32) # (random() * 4294967296)::bigint)::simhash64 AS fp
    FROM generate_series(1, 200000) g;
INSERT INTO hm_big SELECT 300000 + g, (b.fp::bigint # (5::bigint << (g % 60)) # (1::bigint << ((g * 7) % 64)))::simhash64
  FROM generate_series(1, 2000) g JOIN hm_big b ON b.id = g * 13;
CREATE INDEX ON hm_big USING hamming (fp);
CREATE TABLE hm_big_q AS
  SELECT i, i % 16 AS k, CASE WHEN i % 2 = 0 THEN (SELECT fp FROM hm_big WHERE id = i * 13)
    ELSE (((random() * 4294967296)::bigint << 32) # (random() * 4294967296)::bigint)::simhash64 END AS q
    FROM generate_series(1, 120) i;
SET enable_seqscan = off; SET enable_bitmapscan = off;
CREATE TABLE hm_big_ix AS SELECT i, b.id FROM hm_big_q q, LATERAL (SELECT id FROM hm_big WHERE simhash_dist(fp, q.q) <= q.k) b;
CREATE TABLE hm_big_knn AS SELECT i, b.d, b.rn FROM hm_big_q q,
  LATERAL (SELECT fp <-> q.q AS d, row_number() OVER () AS rn FROM (SELECT fp FROM hm_big ORDER BY fp <-> q.q LIMIT 5) s) b WHERE i <= 40;
RESET enable_seqscan; RESET enable_bitmapscan;
SET enable_indexscan = off; SET enable_bitmapscan = off;
CREATE TABLE hm_big_sq AS SELECT i, b.id FROM hm_big_q q, LATERAL (SELECT id FROM hm_big WHERE simhash_dist(fp, q.q) <= q.k) b;
SELECT (SELECT count(*) FROM hm_big_sq) > 120 AS found,
       (SELECT count(*) FROM (SELECT * FROM hm_big_sq EXCEPT SELECT * FROM hm_big_ix) d) AS missed,
       (SELECT count(*) FROM (SELECT * FROM hm_big_ix EXCEPT SELECT * FROM hm_big_sq) d) AS extra;
SELECT count(*) AS knn_mismatches FROM
  (SELECT i, d, rn FROM hm_big_knn
   EXCEPT SELECT i, d, row_number() OVER (PARTITION BY i ORDER BY d) FROM
     (SELECT q.i, b.d FROM hm_big_q q, LATERAL (SELECT fp <-> q.q AS d FROM hm_big ORDER BY 1 LIMIT 5) b WHERE i <= 40) x) y;
RESET enable_indexscan; RESET enable_bitmapscan;
-- the same with 2 tables: rounds of up to 5 bits of a 32-bit part
DROP INDEX hm_big_fp_idx;
CREATE INDEX ON hm_big USING hamming (fp) WITH (tables = 2);
SET enable_seqscan = off; SET enable_bitmapscan = off;
CREATE TABLE hm_big_ix2 AS SELECT i, b.id FROM hm_big_q q, LATERAL (SELECT id FROM hm_big WHERE simhash_dist(fp, q.q) <= q.k) b;
CREATE TABLE hm_big_knn2 AS SELECT i, b.d, b.rn FROM hm_big_q q,
  LATERAL (SELECT fp <-> q.q AS d, row_number() OVER () AS rn FROM (SELECT fp FROM hm_big ORDER BY fp <-> q.q LIMIT 5) s) b WHERE i <= 40;
RESET enable_seqscan;
SET enable_indexscan = off; SET enable_bitmapscan = on;
CREATE TABLE hm_big_bm2 AS SELECT i, b.id FROM hm_big_q q, LATERAL (SELECT id FROM hm_big WHERE fp <@ simhash_ball(q.q, q.k)) b;
RESET enable_indexscan; RESET enable_bitmapscan;
SELECT (SELECT count(*) FROM (SELECT * FROM hm_big_sq EXCEPT SELECT * FROM hm_big_ix2) d) AS missed,
       (SELECT count(*) FROM (SELECT * FROM hm_big_ix2 EXCEPT SELECT * FROM hm_big_sq) d) AS extra,
       (SELECT count(*) FROM (SELECT * FROM hm_big_sq EXCEPT SELECT * FROM hm_big_bm2) d) AS bitmap_missed,
       (SELECT count(*) FROM (SELECT * FROM hm_big_bm2 EXCEPT SELECT * FROM hm_big_sq) d) AS bitmap_extra;
SELECT count(*) AS knn_mismatches FROM
  (SELECT i, d, rn FROM hm_big_knn2 EXCEPT SELECT i, d, rn FROM hm_big_knn) y;
CREATE TABLE hm_big_copy AS SELECT * FROM hm_big WHERE id <= 30000;
DROP TABLE hm_big, hm_big_q, hm_big_ix, hm_big_sq, hm_big_knn, hm_big_ix2, hm_big_knn2, hm_big_bm2;

-- small and empty tables, only NULLs, TRUNCATE, an unlogged table
CREATE TABLE hm_small (id int, fp simhash64);
CREATE INDEX hm_small_idx ON hm_small USING hamming (fp);
SET enable_seqscan = off;
SELECT count(*) FROM hm_small WHERE simhash_dist(fp, '0000000000000000') <= 3;
SELECT id FROM hm_small ORDER BY fp <-> '0000000000000000' LIMIT 3;
INSERT INTO hm_small VALUES (1, '0000000000000007'), (2, NULL), (3, '0000000000000001'), (4, 'ffffffffffffffff');
SELECT id, fp <-> '0000000000000000' AS d FROM hm_small ORDER BY fp <-> '0000000000000000';
SELECT id FROM hm_small WHERE simhash_dist(fp, '0000000000000000') <= 3 ORDER BY id;
TRUNCATE hm_small;
SELECT count(*) FROM (SELECT id FROM hm_small ORDER BY fp <-> '0000000000000000') s;
INSERT INTO hm_small VALUES (5, NULL);
REINDEX INDEX hm_small_idx;
SELECT id FROM hm_small ORDER BY fp <-> '0000000000000000';
-- a temporary table (local buffers)
CREATE TEMP TABLE hm_temp AS SELECT id, fp FROM hm_big_copy;
CREATE INDEX ON hm_temp USING hamming (fp);
SELECT count(*) AS mismatches FROM (
  SELECT g, (SELECT array_agg(d) FROM (SELECT fp <-> t.fp AS d FROM hm_temp ORDER BY fp <-> t.fp LIMIT 10) s) AS a
    FROM hm_temp t, generate_series(1, 20) g WHERE t.id = g * 101
  EXCEPT ALL
  SELECT g, (SELECT array_agg(d ORDER BY d) FROM (SELECT fp <-> t.fp AS d FROM hm_temp ORDER BY (fp <-> t.fp) + 0 LIMIT 10) s) AS a
    FROM hm_temp t, generate_series(1, 20) g WHERE t.id = g * 101) x;
EXPLAIN (COSTS OFF) SELECT id FROM hm_temp ORDER BY fp <-> '0000000000000000' LIMIT 3;
CREATE UNLOGGED TABLE hm_unlogged (fp simhash64);
CREATE INDEX ON hm_unlogged USING hamming (fp);
INSERT INTO hm_unlogged VALUES ('00000000000000ff'), ('0000000000000000');
SELECT fp FROM hm_unlogged ORDER BY fp <-> '0000000000000001' LIMIT 1;
RESET enable_seqscan;

-- bad input
CREATE INDEX ON hm USING hamming (fp) WITH (fillfactor = 50);
CREATE INDEX ON hm USING hamming (fp) WITH (tables = 3);
CREATE INDEX ON hm USING hamming (fp) WITH (tables = 1);
CREATE INDEX ON hm USING hamming (fp) WITH (tables = 8);
CREATE INDEX ON hm USING hamming (fp) WITH (tables = 'two');
ALTER INDEX hm_idx SET (tables = 3);
CREATE INDEX ON hm USING hamming (fp, id);
CREATE UNIQUE INDEX ON hm USING hamming (fp);
CREATE INDEX ON hm USING hamming (id);
CREATE INDEX ON hm USING hamming (fp simhash64_gin_ops);
SELECT * FROM hamming_index_stats('hm');
CREATE INDEX hm_btree ON hm (id);
SELECT * FROM hamming_index_stats('hm_btree');
SELECT * FROM hamming_index_stats(0);
-- the SQLSTATEs of those errors
\set VERBOSITY sqlstate
CREATE INDEX ON hm USING hamming (fp) WITH (fillfactor = 50);
CREATE INDEX ON hm USING hamming (fp) WITH (tables = 3);
CREATE INDEX ON hm USING hamming (fp) WITH (tables = 8);
CREATE INDEX ON hm USING hamming (fp) WITH (tables = 'two');
ALTER INDEX hm_idx SET (tables = 3);
CREATE INDEX ON hm USING hamming (fp, id);
CREATE UNIQUE INDEX ON hm USING hamming (fp);
SELECT * FROM hamming_index_stats('hm');
SELECT * FROM hamming_index_stats(0);
\set VERBOSITY default
CREATE ROLE regress_hm_nobody;
SET ROLE regress_hm_nobody;
SELECT * FROM hamming_index_stats('hm_idx');
\set VERBOSITY sqlstate
SELECT * FROM hamming_index_stats('hm_idx');
\set VERBOSITY default
RESET ROLE;
DROP ROLE regress_hm_nobody;
-- the operator class passes the method's own validation
SELECT opcname, amvalidate(oid) FROM pg_opclass WHERE opcmethod = (SELECT oid FROM pg_am WHERE amname = 'hamming');
SELECT amname, amtype, pg_indexam_has_property(oid, 'can_order') AS can_order,
       pg_indexam_has_property(oid, 'can_multi_col') AS multi_col
  FROM pg_am WHERE amname = 'hamming';
SELECT pg_index_column_has_property('hm_idx'::regclass, 1, 'distance_orderable') AS distance_orderable;
DROP TABLE hm, hm_q, hm_small, hm_unlogged, hm_temp, hm_big_copy;
DROP FUNCTION hm_radius(text, int), hm_knn(int, int, text);
