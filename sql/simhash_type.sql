--
-- The simhash type: text and binary I/O, casts, ordering, hashing, Hamming
-- distance, and the btree/hash operator classes at work.
--

-- text I/O: 16 hex digits, lowercase out, either case in
SELECT '0123456789abcdef'::simhash64, 'FEDCBA9876543210'::simhash64,
       '0000000000000000'::simhash64, 'ffffffffffffffff'::simhash64;
SELECT 'AbCdEf0123456789'::simhash64::text = 'abcdef0123456789' AS case_folded;

-- malformed literals: 22P02, naming the type
\set VERBOSITY default
SELECT 'xyz'::simhash64;
SELECT '0123456789abcde'::simhash64;          -- 15 digits
SELECT '0123456789abcdef0'::simhash64;        -- 17 digits
SELECT '0123456789abcdeg'::simhash64;         -- not hex
SELECT '01234567 89abcdef'::simhash64;        -- embedded space
SELECT ' 0123456789abcdef'::simhash64;        -- leading space
SELECT '0123456789abcdef '::simhash64;        -- trailing space
SELECT ''::simhash64;
SELECT '0x23456789abcdef'::simhash64;
\set VERBOSITY sqlstate
SELECT 'xyz'::simhash64;
\set VERBOSITY default

-- binary I/O round trip through send/recv
SELECT simhash_recv_roundtrip FROM (
  SELECT bool_and(simhash64_send(v) = int8send(v::bigint)) AS simhash_recv_roundtrip
  FROM (VALUES ('0123456789abcdef'::simhash64), ('ffffffffffffffff'), ('8000000000000001')) t(v)) s;
CREATE TEMP TABLE bin_io (v simhash64);
INSERT INTO bin_io VALUES ('0123456789abcdef'), ('ffffffffffffffff'), ('0000000000000000'), (NULL);
CREATE TEMP TABLE bin_io2 (LIKE bin_io);
-- COPY BINARY out and in again (client-side file in pg_regress's results/)
\copy bin_io TO 'results/simhash_bin.copy' WITH (FORMAT binary)
\copy bin_io2 FROM 'results/simhash_bin.copy' WITH (FORMAT binary)
SELECT count(*) AS same_after_binary_copy FROM bin_io a JOIN bin_io2 b ON a.v = b.v;
SELECT count(*) FILTER (WHERE v IS NULL) AS nulls_after_binary_copy FROM bin_io2;

-- casts to and from bigint: the same 64 bits; bit 63 is the sign bit
SELECT '8000000000000000'::simhash64::bigint AS min_bigint,
       '7fffffffffffffff'::simhash64::bigint AS max_bigint,
       'ffffffffffffffff'::simhash64::bigint AS minus_one,
       (-1)::bigint::simhash64 AS from_minus_one,
       1::bigint::simhash64 AS from_one,
       (-9223372036854775808)::bigint::simhash64 AS from_min;
SELECT bool_and(x::simhash64::bigint = x) AS bigint_round_trip
FROM (SELECT (hashtextextended(g::text, 7)) AS x FROM generate_series(1, 1000) g) s;

-- casts to and from bit(64): the first bit of the string is bit 63
SELECT '8000000000000001'::simhash64::bit(64) AS msb_and_lsb;
SELECT '0123456789abcdef'::simhash64::bit(64) AS pattern;
SELECT B'1000000000000000000000000000000000000000000000000000000000000010'::simhash64 AS from_bits;
SELECT bool_and(x::simhash64::bit(64)::simhash64 = x::simhash64) AS bit_round_trip,
       bool_and(x::simhash64::bit(64) = x::bit(64)) AS same_as_bigint_to_bit
FROM (SELECT hashtextextended(g::text, 11) AS x FROM generate_series(1, 1000) g) s;
SELECT B'101'::simhash64;                     -- wrong length: 22026
SELECT repeat('1', 65)::bit(65)::simhash64;

-- ordering is the unsigned order of the 64-bit value
SELECT '7fffffffffffffff'::simhash64 < '8000000000000000'::simhash64 AS unsigned_order,
       '0000000000000000'::simhash64 < 'ffffffffffffffff'::simhash64 AS zero_lowest,
       'ffffffffffffffff'::simhash64 > 'fffffffffffffffe'::simhash64 AS gt,
       'ffffffffffffffff'::simhash64 >= 'ffffffffffffffff'::simhash64 AS ge,
       '0000000000000001'::simhash64 <= '0000000000000001'::simhash64 AS le,
       '0000000000000001'::simhash64 <> '0000000000000002'::simhash64 AS ne,
       '0000000000000001'::simhash64 = '0000000000000001'::simhash64 AS eq;
SELECT v FROM (VALUES ('8000000000000000'::simhash64), ('7fffffffffffffff'),
  ('ffffffffffffffff'), ('0000000000000000'), ('0000000000000001')) t(v) ORDER BY v;

-- Hamming distance, function and operator, commutative
SELECT simhash_dist('0000000000000000', 'ffffffffffffffff') AS d64,
       simhash_dist('0123456789abcdef', '0123456789abcdef') AS d0,
       '0000000000000000'::simhash64 <-> '8000000000000001'::simhash64 AS d2,
       simhash_dist('f0f0f0f0f0f0f0f0', '0f0f0f0f0f0f0f0f') AS d64b;
SELECT bool_and(a <-> b = b <-> a) AS commutative,
       bool_and(a <-> b = length(replace((a::bit(64) # b::bit(64))::text, '0', ''))) AS equals_bit_count
FROM (SELECT hashtextextended(g::text, 1)::simhash64 AS a,
             hashtextextended(g::text, 2)::simhash64 AS b
      FROM generate_series(1, 2000) g) s;
SELECT simhash_dist(NULL, '0000000000000000') IS NULL AS strict_null;

-- btree and hash opclasses: UNIQUE, GROUP BY, DISTINCT, joins
CREATE TEMP TABLE fps (id int, fp simhash64);
INSERT INTO fps SELECT g, (hashint4(g % 100)::bigint * 4294967291)::simhash64
FROM generate_series(1, 1000) g;
CREATE UNIQUE INDEX fps_uniq ON fps (id, fp);
CREATE INDEX fps_btree ON fps (fp);
CREATE INDEX fps_hash ON fps USING hash (fp);
CREATE TEMP TABLE uniq (fp simhash64 UNIQUE);
INSERT INTO uniq VALUES ('0123456789abcdef');
INSERT INTO uniq VALUES ('0123456789ABCDEF');   -- duplicate key
SELECT count(DISTINCT fp) AS distinct_fps FROM fps;
SELECT count(*) AS groups FROM (SELECT fp FROM fps GROUP BY fp) g;
SET enable_hashagg = off;
SELECT count(*) AS sorted_groups FROM (SELECT fp FROM fps GROUP BY fp) g;
RESET enable_hashagg;
SET enable_sort = off;
SET enable_seqscan = off;
SET enable_bitmapscan = off;
EXPLAIN (COSTS OFF) SELECT * FROM fps WHERE fp = '0000000000000000';
SELECT count(*) FROM fps WHERE fp = (SELECT fp FROM fps WHERE id = 7);
SELECT count(*) FROM fps WHERE fp >= '8000000000000000';
SELECT count(*) FROM fps WHERE fp::bigint < 0;
RESET enable_seqscan;
RESET enable_bitmapscan;
RESET enable_sort;
-- hash join
SET enable_mergejoin = off; SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM fps a JOIN fps b ON a.fp = b.fp;
SELECT count(*) AS hash_join_rows FROM fps a JOIN fps b ON a.fp = b.fp;
RESET enable_mergejoin; RESET enable_nestloop;
-- merge join
SET enable_hashjoin = off; SET enable_nestloop = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM fps a JOIN fps b ON a.fp = b.fp;
SELECT count(*) AS merge_join_rows FROM fps a JOIN fps b ON a.fp = b.fp;
RESET enable_hashjoin; RESET enable_nestloop;
-- hash partitioning uses the extended hash function
CREATE TEMP TABLE part (fp simhash64) PARTITION BY HASH (fp);
CREATE TEMP TABLE part0 PARTITION OF part FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TEMP TABLE part1 PARTITION OF part FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO part SELECT fp FROM fps;
SELECT (SELECT count(*) FROM part0) + (SELECT count(*) FROM part1) AS partitioned_rows,
       (SELECT count(*) FROM part0) BETWEEN 1 AND 999 AS both_used;

-- the catalog: every function immutable, strict, parallel safe (aggregates
-- are not strict: they skip NULLs themselves; minhash_similar reads a setting;
-- the batch searches and the reports read tables or run queries; the
-- arrivals check and its trigger write tables)
SELECT p.proname, p.provolatile, p.proisstrict, p.proparallel
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.classid = 'pg_proc'::regclass
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'textfp'
WHERE (p.provolatile <> 'i' OR NOT p.proisstrict OR p.proparallel <> 's')
  AND NOT 'internal'::regtype = ANY (p.proargtypes) AND p.prorettype <> 'internal'::regtype
ORDER BY 1, 2, 3, 4;
