--
-- simhash_pairs(): every pair within the radius, each once, id_a < id_b --
-- the same bag of rows as the brute-force self-join
--   a.id < b.id AND simhash_dist(a.fp, b.fp) <= r
-- over random fingerprints with planted near-duplicates, at radii 0..12
-- and 32, from a query, a table, a partitioned table, a view, in parts
-- (small maintenance_work_mem); NULLs and duplicate ids; bad input.
--
-- in a schema of its own, dropped at the end (other tests use the same names)
CREATE SCHEMA pairs_t;
SET search_path = pairs_t, public;
\i sql/include/err.sql
-- 64 pseudo-random bits from a hash, not random(): the same data on every
-- PostgreSQL version
CREATE FUNCTION h64(i bigint) RETURNS bigint LANGUAGE sql IMMUTABLE AS
$$ SELECT (hashint8(i)::bigint << 32) # (hashint8(i + 1000003)::bigint & 4294967295) $$;
-- near-duplicate of v: k pseudo-random bits flipped (a bit may flip twice)
CREATE FUNCTION flip(v bigint, i bigint, k int) RETURNS bigint LANGUAGE sql IMMUTABLE AS
$$ SELECT coalesce(v # (SELECT bit_or(1::bigint << (abs(hashint8(i * 64 + g)) % 64)::int)
                        FROM generate_series(1, k) g), v) $$;
-- 2,400 random rows, 600 near-duplicates of them at 0..7 bits
CREATE TABLE pt (id bigint, fp simhash64);
INSERT INTO pt SELECT i, h64(i)::simhash64 FROM generate_series(1, 2400) i;
INSERT INTO pt SELECT 2400 + j, flip(h64(1 + abs(hashint8(-j)) % 2400), j, j % 8)::simhash64
FROM generate_series(1, 600) j;
-- the brute-force answer once, up to radius 12
CREATE TABLE brute AS
SELECT a.id AS id_a, b.id AS id_b, simhash_dist(a.fp, b.fp) AS distance
FROM pt a JOIN pt b ON a.id < b.id AND simhash_dist(a.fp, b.fp) <= 12;
-- for each radius: pairs of the brute force, pairs found, missing, extra
CREATE FUNCTION compare(q text, r int)
RETURNS TABLE (radius int, want bigint, got bigint, missing bigint, extra bigint)
LANGUAGE sql AS $$
WITH got AS (SELECT * FROM simhash_pairs(q, r)),
     want AS (SELECT * FROM brute WHERE distance <= r)
SELECT r, (SELECT count(*) FROM want), (SELECT count(*) FROM got),
       (SELECT count(*) FROM (SELECT * FROM want EXCEPT ALL SELECT * FROM got) m),
       (SELECT count(*) FROM (SELECT * FROM got EXCEPT ALL SELECT * FROM want) x)
$$;
SELECT c.* FROM generate_series(0, 12) r, compare('SELECT id, fp FROM pt', r) c;
-- the default radius is 3
SELECT count(*) FROM simhash_pairs('SELECT id, fp FROM pt');
-- id_a < id_b always; the distance is the true one
SELECT count(*) FILTER (WHERE id_a >= id_b) AS unordered,
       count(*) FILTER (WHERE p.distance <> simhash_dist(a.fp, b.fp)) AS wrong_distance
FROM simhash_pairs('SELECT id, fp FROM pt', 8) p
JOIN pt a ON a.id = p.id_a JOIN pt b ON b.id = p.id_b;
-- radius 32 (the maximum) on 300 rows: about half of all pairs
SELECT count(*) AS want,
       (SELECT count(*) FROM simhash_pairs('SELECT id, fp FROM pt WHERE id <= 300', 32)) AS got,
       (SELECT count(*) FROM (SELECT a.id, b.id, simhash_dist(a.fp, b.fp) FROM pt a JOIN pt b
                                ON a.id < b.id AND simhash_dist(a.fp, b.fp) <= 32
                              WHERE a.id <= 300 AND b.id <= 300
                              EXCEPT ALL
                              SELECT * FROM simhash_pairs('SELECT id, fp FROM pt WHERE id <= 300', 32)) m) AS missing
FROM pt a JOIN pt b ON a.id < b.id AND simhash_dist(a.fp, b.fp) <= 32
WHERE a.id <= 300 AND b.id <= 300;

-- integer ids of any width, bigint fingerprints, extra columns are an error
SELECT count(*) FROM simhash_pairs('SELECT id::int4, fp::bigint FROM pt', 5);
SELECT count(*) FROM simhash_pairs('SELECT id::int2, fp FROM pt WHERE id < 30000', 5);

-- NULL ids and fingerprints are skipped; equal ids never pair (like a.id < b.id);
-- a pair of ids may come out once per pair of rows
CREATE TABLE dup (id bigint, fp simhash64);
INSERT INTO dup VALUES (1, '0000000000000000'), (1, '0000000000000001'), (2, '0000000000000003'),
  (2, '0000000000000000'), (3, NULL), (NULL, '0000000000000000'), (4, 'ffffffffffffffff'),
  (5, 'fffffffffffffff0'), (6, '00000000000000ff');
SELECT * FROM simhash_pairs('SELECT id, fp FROM dup', 4) ORDER BY 1, 2, 3;
SELECT a.id, b.id, simhash_dist(a.fp, b.fp) FROM dup a JOIN dup b
  ON a.id < b.id AND simhash_dist(a.fp, b.fp) <= 4 ORDER BY 1, 2, 3;
-- fewer than two rows, no rows
SELECT count(*) FROM simhash_pairs('SELECT 1, ''0000000000000000''::simhash64', 3);
SELECT count(*) FROM simhash_pairs('SELECT id, fp FROM pt WHERE false', 3);

-- the table form: the same pairs as the query form, from a table, a
-- partitioned table with a default partition and differently placed
-- columns, an inheritance parent with a child, a view (read through a query)
SELECT count(*) AS pairs,
       (SELECT count(*) FROM (SELECT * FROM simhash_pairs('pt', 'id', 'fp', 5)
                              EXCEPT ALL SELECT * FROM simhash_pairs('SELECT id, fp FROM pt', 5)) d) AS differ
FROM simhash_pairs('pt', 'id', 'fp', 5);
CREATE TABLE ppt (fp simhash64, id bigint) PARTITION BY RANGE (id);
CREATE TABLE ppt_1 PARTITION OF ppt FOR VALUES FROM (1) TO (1000);
CREATE TABLE ppt_2 (junk text, id bigint, fp simhash64);
ALTER TABLE ppt_2 DROP COLUMN junk;
ALTER TABLE ppt ATTACH PARTITION ppt_2 FOR VALUES FROM (1000) TO (2000);
CREATE TABLE ppt_3 PARTITION OF ppt FOR VALUES FROM (2000) TO (2600) PARTITION BY HASH (id);
CREATE TABLE ppt_3a PARTITION OF ppt_3 FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE ppt_3b PARTITION OF ppt_3 FOR VALUES WITH (MODULUS 2, REMAINDER 1);
CREATE TABLE ppt_d PARTITION OF ppt DEFAULT;
INSERT INTO ppt (id, fp) SELECT id, fp FROM pt;
SELECT count(*) AS pairs,
       (SELECT count(*) FROM (SELECT * FROM simhash_pairs('ppt', 'id', 'fp', 5)
                              EXCEPT ALL SELECT * FROM brute WHERE distance <= 5) d) AS extra,
       (SELECT count(*) FROM (SELECT * FROM brute WHERE distance <= 5
                              EXCEPT ALL SELECT * FROM simhash_pairs('ppt', 'id', 'fp', 5)) d) AS missing
FROM simhash_pairs('ppt', 'id', 'fp', 5);
CREATE TABLE ipt (id bigint, fp simhash64);
CREATE TABLE ipt_child (extra int) INHERITS (ipt);
INSERT INTO ipt SELECT * FROM pt WHERE id % 2 = 0;
INSERT INTO ipt_child SELECT id, fp, 0 FROM pt WHERE id % 2 = 1;
SELECT (SELECT count(*) FROM simhash_pairs('ipt', 'id', 'fp', 5)) AS parent_and_child,
       (SELECT count(*) FROM brute WHERE distance <= 5) AS want;
CREATE VIEW pt_view AS SELECT id AS vid, fp AS vfp FROM pt WHERE id <= 2700;
SELECT (SELECT count(*) FROM simhash_pairs('pt_view', 'vid', 'vfp', 5)) AS view_pairs,
       (SELECT count(*) FROM brute WHERE distance <= 5 AND id_b <= 2700) AS want;

-- in parts: maintenance_work_mem 1MB holds 40,000 rows and a fifth of
-- their sort entries; the same pairs as with room for all
CREATE TABLE big (id bigint, fp simhash64);
INSERT INTO big SELECT i, h64(i)::simhash64 FROM generate_series(1, 36000) i;
INSERT INTO big SELECT 36000 + j, flip(h64(1 + abs(hashint8(-j)) % 36000), j, j % 6)::simhash64
FROM generate_series(1, 4000) j;
-- analyzed now, not whenever autovacuum comes: the progress notices give
-- percentages of the table's estimated size once it has one
ANALYZE big;
CREATE TABLE big_whole AS SELECT * FROM simhash_pairs('big', 'id', 'fp', 4);
SET maintenance_work_mem = '1MB';
SET textfp.progress = on;
CREATE TABLE big_parts AS SELECT * FROM simhash_pairs('big', 'id', 'fp', 4);
RESET textfp.progress;
SELECT (SELECT count(*) FROM big_whole) AS whole,
       (SELECT count(*) FROM (SELECT * FROM big_whole EXCEPT ALL SELECT * FROM big_parts) d) AS missing,
       (SELECT count(*) FROM (SELECT * FROM big_parts EXCEPT ALL SELECT * FROM big_whole) d) AS extra;
-- too many rows for 1MB; too many rows with one key
SELECT err($$SELECT count(*) FROM simhash_pairs('SELECT i, 0::bigint FROM generate_series(1, 70000) i', 3)$$);
SELECT err($$SELECT count(*) FROM simhash_pairs('SELECT i, 0::bigint FROM generate_series(1, 40000) i', 3)$$);
RESET maintenance_work_mem;

-- privileges: SELECT on the table, or on both columns, like a query
CREATE ROLE pairs_user;
GRANT USAGE ON SCHEMA pairs_t TO pairs_user;
GRANT SELECT (id) ON pt TO pairs_user;
CREATE TABLE rls (id bigint, fp simhash64, owner text);
INSERT INTO rls SELECT id, fp, CASE WHEN id % 2 = 0 THEN 'pairs_user' ELSE 'other' END FROM pt;
ALTER TABLE rls ENABLE ROW LEVEL SECURITY;
CREATE POLICY mine ON rls USING (owner = current_user);
GRANT SELECT ON rls TO pairs_user;
SET ROLE pairs_user;
SELECT err($$SELECT count(*) FROM simhash_pairs('pt', 'id', 'fp')$$);
SELECT err($$SELECT count(*) FROM simhash_pairs('SELECT id, fp FROM pt')$$);
RESET ROLE;
GRANT SELECT (fp) ON pt TO pairs_user;
SET ROLE pairs_user;
SELECT count(*) FROM simhash_pairs('pt', 'id', 'fp');
-- row-level security applies: only the even ids
SELECT count(*) AS pairs, count(*) FILTER (WHERE id_a % 2 = 1 OR id_b % 2 = 1) AS odd
FROM simhash_pairs('rls', 'id', 'fp', 5);
RESET ROLE;
SELECT count(*) AS want FROM brute WHERE distance <= 5 AND id_a % 2 = 0 AND id_b % 2 = 0;
REVOKE ALL ON pt, rls FROM pairs_user;
REVOKE USAGE ON SCHEMA pairs_t FROM pairs_user;
DROP ROLE pairs_user;

-- bad input
\set VERBOSITY terse
SELECT err($$SELECT * FROM simhash_pairs('SELECT id, fp FROM pt', -1)$$);
SELECT err($$SELECT * FROM simhash_pairs('SELECT id, fp FROM pt', 33)$$);
SELECT err($$SELECT * FROM simhash_pairs('pt', 'id', 'fp', 33)$$);
SELECT err($$SELECT * FROM simhash_pairs('SELECT id, fp, 1 FROM pt')$$);
SELECT err($$SELECT * FROM simhash_pairs('SELECT id FROM pt')$$);
SELECT err($$SELECT * FROM simhash_pairs('SELECT id::text, fp FROM pt')$$);
SELECT err($$SELECT * FROM simhash_pairs('SELECT id::numeric, fp FROM pt')$$);
SELECT err($$SELECT * FROM simhash_pairs('SELECT id, fp::bigint::int4 FROM pt WHERE false')$$);
SELECT err($$SELECT * FROM simhash_pairs('SELECT id, fp FROM no_such_table')$$);
SELECT err($$SELECT * FROM simhash_pairs('SELEC id, fp FROM pt')$$);
SELECT err($$SELECT * FROM simhash_pairs('INSERT INTO pt VALUES (1, 0::bigint::simhash64)')$$);
SELECT err($$SELECT * FROM simhash_pairs('pt', 'nope', 'fp')$$);
SELECT err($$SELECT * FROM simhash_pairs('pt', 'id', 'nope')$$);
SELECT err($$SELECT * FROM simhash_pairs('pt', 'fp', 'id')$$);
SELECT err($$SELECT * FROM simhash_pairs('pt', 'ctid', 'fp')$$);
SELECT err($$SELECT * FROM simhash_pairs('no_such_table', 'id', 'fp')$$);
SELECT err($$SELECT * FROM simhash_pairs(0::oid::regclass, 'id', 'fp')$$);
SELECT * FROM simhash_pairs(NULL, 3);
SELECT * FROM simhash_pairs('SELECT id, fp FROM pt', NULL);
SELECT * FROM simhash_pairs('pt', NULL, 'fp');
\set VERBOSITY default
RESET search_path;
DROP SCHEMA pairs_t CASCADE;
