--
-- The hamming index access method's runs (split from sql/hamming, so that
-- the two halves run in different pg_regress streams): rows inserted after
-- the build merge into runs (by inserts and by VACUUM), and index and bitmap
-- scans equal a sequential scan and a sort through the runs.
--
-- The access method needs PostgreSQL 15 or later (see src/sql/75_hamming.sql):
-- on 13 and 14 the extension has no hamming method and this test stops here.
SELECT pg_catalog.current_setting('server_version_num')::int4 < 150000 AS no_hamming \gset
SELECT amname FROM pg_am WHERE amname = 'hamming';
\if :no_hamming
\quit
\endif
SET jit = off;
SELECT setseed(0.31);
-- merges: 40,000 rows, then 24 batches of 1,000 inserts (random rows,
-- near-duplicates of earlier rows, a few NULLs) with a VACUUM after every
-- fourth.  The pending list's bound is 2,048 rows, so inserts merge too;
-- past 1/16 of the main run a merge rewrites it.  Index and bitmap scans
-- equal a sequential scan and a sort, through the runs, before and after
-- deletes, VACUUM and REINDEX.
-- (no autovacuum on the table: the runs, merges, pending rows and reltuples
-- printed below must depend only on this test's statements; an autovacuum
-- merges the pending list, an auto-analyze estimates reltuples from a sample)
CREATE TABLE hm2 WITH (autovacuum_enabled = off) AS SELECT g AS id, (((random() * 4294967296)::bigint << 32) # (random() * 4294967296)::bigint)::simhash64 AS fp
  FROM generate_series(1, 40000) g;
CREATE INDEX hm2_idx ON hm2 USING hamming (fp);
CREATE PROCEDURE hm2_add(b int) LANGUAGE sql AS $$
  INSERT INTO hm2 SELECT 100000 + b * 1000 + g, CASE WHEN g % 97 = 0 THEN NULL WHEN g % 3 = 0
      THEN (h.fp::bigint # (1::bigint << (g % 64)) # (1::bigint << ((g * 7) % 64)))::simhash64
      ELSE (((random() * 4294967296)::bigint << 32) # (random() * 4294967296)::bigint)::simhash64 END
    FROM generate_series(1, 1000) g LEFT JOIN hm2 h ON h.id = 1 + (g * 31 + b) % 40000 $$;
CALL hm2_add(0); CALL hm2_add(1); CALL hm2_add(2); CALL hm2_add(3);
VACUUM hm2;
CALL hm2_add(4); CALL hm2_add(5); CALL hm2_add(6); CALL hm2_add(7);
VACUUM hm2;
CALL hm2_add(8); CALL hm2_add(9); CALL hm2_add(10); CALL hm2_add(11);
VACUUM hm2;
CALL hm2_add(12); CALL hm2_add(13); CALL hm2_add(14); CALL hm2_add(15);
VACUUM hm2;
CALL hm2_add(16); CALL hm2_add(17); CALL hm2_add(18); CALL hm2_add(19);
VACUUM hm2;
CALL hm2_add(20); CALL hm2_add(21); CALL hm2_add(22);
SELECT sorted_rows + pending_rows BETWEEN (SELECT count(fp) FROM hm2) AND (SELECT count(*) FROM hm2) AS all_rows,
       runs, merges >= 6 AS merged, cardinality(run_rows) = runs AS listed, pending_rows > 0 AS pending
  FROM hamming_index_stats('hm2_idx');
CREATE TABLE hm2_q AS
  SELECT i, i % 12 AS k, CASE WHEN i % 2 = 0 THEN (SELECT fp FROM hm2 WHERE id = 100000 + i * 97)
    ELSE (((random() * 4294967296)::bigint << 32) # (random() * 4294967296)::bigint)::simhash64 END AS q
    FROM generate_series(1, 160) i;
CREATE FUNCTION hm2_check() RETURNS TABLE (radius_rows bigint, radius_diff bigint, bitmap_diff bigint, knn_diff bigint)
LANGUAGE plpgsql AS $$
BEGIN
  SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = off;
  CREATE TEMP TABLE ix AS SELECT i, b.id FROM hm2_q q, LATERAL (SELECT id FROM hm2 WHERE simhash_dist(fp, q.q) <= q.k) b;
  CREATE TEMP TABLE ixk AS SELECT i, b.d, b.rn FROM hm2_q q,
    LATERAL (SELECT fp <-> q.q AS d, row_number() OVER () AS rn FROM (SELECT fp FROM hm2 ORDER BY fp <-> q.q LIMIT 12) s) b;
  SET LOCAL enable_bitmapscan = on; SET LOCAL enable_indexscan = off;
  CREATE TEMP TABLE bm AS SELECT i, b.id FROM hm2_q q, LATERAL (SELECT id FROM hm2 WHERE fp <@ simhash_ball(q.q, q.k)) b;
  SET LOCAL enable_seqscan = on; SET LOCAL enable_bitmapscan = off;
  CREATE TEMP TABLE sq AS SELECT i, b.id FROM hm2_q q, LATERAL (SELECT id FROM hm2 WHERE simhash_dist(fp, q.q) <= q.k) b;
  CREATE TEMP TABLE sqk AS SELECT i, b.d, row_number() OVER (PARTITION BY i ORDER BY b.d) AS rn FROM hm2_q q,
    LATERAL (SELECT fp <-> q.q AS d FROM hm2 WHERE fp IS NOT NULL ORDER BY 1 LIMIT 12) b;
  RETURN QUERY SELECT (SELECT count(*) FROM sq),
    (SELECT count(*) FROM ((SELECT * FROM sq EXCEPT SELECT * FROM ix) UNION ALL (SELECT * FROM ix EXCEPT SELECT * FROM sq)) d),
    (SELECT count(*) FROM ((SELECT * FROM sq EXCEPT SELECT * FROM bm) UNION ALL (SELECT * FROM bm EXCEPT SELECT * FROM sq)) d),
    (SELECT count(*) FROM ((SELECT * FROM sqk EXCEPT SELECT * FROM ixk) UNION ALL (SELECT * FROM ixk EXCEPT SELECT * FROM sqk)) d);
  DROP TABLE ix, ixk, bm, sq, sqk;
END $$;
SELECT radius_rows > 50 AS found, radius_diff, bitmap_diff, knn_diff FROM hm2_check();
-- reading far beyond the distance window, and every row in order, NULLs last
SET enable_seqscan = off; SET enable_sort = off;
SELECT count(*) = (SELECT count(*) FROM hm2) AS all_rows,
       bool_and(d IS NULL OR prev IS NULL OR d >= prev) AS ordered,
       count(*) FILTER (WHERE fp IS NULL) = (SELECT count(*) FROM hm2 WHERE fp IS NULL) AS nulls
  FROM (SELECT fp, d, lag(d) OVER (ORDER BY rn) AS prev, rn
          FROM (SELECT fp, fp <-> '123456789abcdef0' AS d, row_number() OVER () AS rn
                  FROM (SELECT fp FROM hm2 ORDER BY fp <-> '123456789abcdef0') s) s2) s3;
RESET enable_seqscan; RESET enable_sort;
-- deletes in every run and in the pending list, VACUUM (which merges)
DELETE FROM hm2 WHERE id % 5 = 0;
VACUUM hm2;
SELECT reltuples = (SELECT count(*) FROM hm2) AS counted FROM pg_class WHERE relname = 'hm2_idx';
SELECT pending_rows, runs FROM hamming_index_stats('hm2_idx');
SELECT radius_rows > 50 AS found, radius_diff, bitmap_diff, knn_diff FROM hm2_check();
-- the size stays within three times a fresh build's (at 60,000 rows the
-- directories, 1 MB per run and per version, weigh as much as the rows)
SELECT pg_relation_size('hm2_idx') AS merged_size \gset
REINDEX INDEX hm2_idx;
SELECT :merged_size <= 3 * pg_relation_size('hm2_idx') AS size_bounded, runs, merges, pending_rows
  FROM hamming_index_stats('hm2_idx');
SELECT radius_rows > 50 AS found, radius_diff, bitmap_diff, knn_diff FROM hm2_check();
-- two tables
ALTER INDEX hm2_idx SET (tables = 2);
REINDEX INDEX hm2_idx;
CALL hm2_add(30); CALL hm2_add(31); CALL hm2_add(32);
VACUUM hm2;
CALL hm2_add(33); CALL hm2_add(34); CALL hm2_add(35);
SELECT tables, runs, merges > 0 AS merged FROM hamming_index_stats('hm2_idx');
SELECT radius_rows > 50 AS found, radius_diff, bitmap_diff, knn_diff FROM hm2_check();
DROP TABLE hm2, hm2_q;
DROP FUNCTION hm2_check();
DROP PROCEDURE hm2_add(int);

