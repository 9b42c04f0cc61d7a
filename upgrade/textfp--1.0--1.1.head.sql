-- textfp 1.0 -> 1.1, the hand-written part; the Makefile appends the
-- install-script fragments new in 1.1 (src/sql/, numbered 60 and up) to make
-- textfp--1.0--1.1.sql.  test/t/100_upgrade.pl checks that an updated
-- database has the same objects and answers as a fresh 1.1 install.

\echo Use "ALTER EXTENSION textfp UPDATE TO '1.1'" to load this file. \quit

-- The fingerprint type simhash becomes simhash64, so that simhash('text') on
-- an untyped literal calls the function instead of casting to the type.  Its
-- ball and GiST key types, support functions and operator classes follow.
-- The functions keep their 1.0 C symbols (src/compat_1_0.c exports them).
ALTER TYPE @extschema@.simhash RENAME TO simhash64;
ALTER TYPE @extschema@.simhash_ball RENAME TO simhash64_ball;
ALTER TYPE @extschema@.simhash_gkey RENAME TO simhash64_gkey;

ALTER FUNCTION @extschema@.simhash_in(cstring) RENAME TO simhash64_in;
ALTER FUNCTION @extschema@.simhash_out(@extschema@.simhash64) RENAME TO simhash64_out;
ALTER FUNCTION @extschema@.simhash_recv(internal) RENAME TO simhash64_recv;
ALTER FUNCTION @extschema@.simhash_send(@extschema@.simhash64) RENAME TO simhash64_send;
ALTER FUNCTION @extschema@.simhash_from_bigint(bigint) RENAME TO simhash64_from_bigint;
ALTER FUNCTION @extschema@.simhash_to_bigint(@extschema@.simhash64) RENAME TO simhash64_to_bigint;
ALTER FUNCTION @extschema@.simhash_from_bit(bit) RENAME TO simhash64_from_bit;
ALTER FUNCTION @extschema@.simhash_to_bit(@extschema@.simhash64) RENAME TO simhash64_to_bit;
ALTER FUNCTION @extschema@.simhash_eq(@extschema@.simhash64, @extschema@.simhash64) RENAME TO simhash64_eq;
ALTER FUNCTION @extschema@.simhash_ne(@extschema@.simhash64, @extschema@.simhash64) RENAME TO simhash64_ne;
ALTER FUNCTION @extschema@.simhash_lt(@extschema@.simhash64, @extschema@.simhash64) RENAME TO simhash64_lt;
ALTER FUNCTION @extschema@.simhash_le(@extschema@.simhash64, @extschema@.simhash64) RENAME TO simhash64_le;
ALTER FUNCTION @extschema@.simhash_gt(@extschema@.simhash64, @extschema@.simhash64) RENAME TO simhash64_gt;
ALTER FUNCTION @extschema@.simhash_ge(@extschema@.simhash64, @extschema@.simhash64) RENAME TO simhash64_ge;
ALTER FUNCTION @extschema@.simhash_cmp(@extschema@.simhash64, @extschema@.simhash64) RENAME TO simhash64_cmp;
ALTER FUNCTION @extschema@.simhash_sortsupport(internal) RENAME TO simhash64_sortsupport;
ALTER FUNCTION @extschema@.simhash_hash(@extschema@.simhash64) RENAME TO simhash64_hash;
ALTER FUNCTION @extschema@.simhash_hash_extended(@extschema@.simhash64, bigint) RENAME TO simhash64_hash_extended;
ALTER FUNCTION @extschema@.simhash_ball_in(cstring) RENAME TO simhash64_ball_in;
ALTER FUNCTION @extschema@.simhash_ball_out(@extschema@.simhash64_ball) RENAME TO simhash64_ball_out;
ALTER FUNCTION @extschema@.simhash_ball_recv(internal) RENAME TO simhash64_ball_recv;
ALTER FUNCTION @extschema@.simhash_ball_send(@extschema@.simhash64_ball) RENAME TO simhash64_ball_send;
ALTER FUNCTION @extschema@.simhash_gin_extract_value(@extschema@.simhash64, internal, internal) RENAME TO simhash64_gin_extract_value;
ALTER FUNCTION @extschema@.simhash_gin_extract_query(@extschema@.simhash64, internal, int2, internal, internal, internal, internal) RENAME TO simhash64_gin_extract_query;
ALTER FUNCTION @extschema@.simhash_gin_consistent(internal, int2, @extschema@.simhash64, int4, internal, internal, internal, internal) RENAME TO simhash64_gin_consistent;
ALTER FUNCTION @extschema@.simhash_gin_triconsistent(internal, int2, @extschema@.simhash64, int4, internal, internal, internal) RENAME TO simhash64_gin_triconsistent;
ALTER FUNCTION @extschema@.simhash_gin_options(internal) RENAME TO simhash64_gin_options;
ALTER FUNCTION @extschema@.simhash_gkey_in(cstring) RENAME TO simhash64_gkey_in;
ALTER FUNCTION @extschema@.simhash_gkey_out(@extschema@.simhash64_gkey) RENAME TO simhash64_gkey_out;
ALTER FUNCTION @extschema@.simhash_gist_consistent(internal, @extschema@.simhash64, int2, oid, internal) RENAME TO simhash64_gist_consistent;
ALTER FUNCTION @extschema@.simhash_gist_distance(internal, @extschema@.simhash64, int2, oid, internal) RENAME TO simhash64_gist_distance;
ALTER FUNCTION @extschema@.simhash_gist_union(internal, internal) RENAME TO simhash64_gist_union;
ALTER FUNCTION @extschema@.simhash_gist_compress(internal) RENAME TO simhash64_gist_compress;
ALTER FUNCTION @extschema@.simhash_gist_decompress(internal) RENAME TO simhash64_gist_decompress;
ALTER FUNCTION @extschema@.simhash_gist_penalty(internal, internal, internal) RENAME TO simhash64_gist_penalty;
ALTER FUNCTION @extschema@.simhash_gist_picksplit(internal, internal) RENAME TO simhash64_gist_picksplit;
ALTER FUNCTION @extschema@.simhash_gist_same(@extschema@.simhash64_gkey, @extschema@.simhash64_gkey, internal) RENAME TO simhash64_gist_same;
ALTER FUNCTION @extschema@.simhash_gist_fetch(internal) RENAME TO simhash64_gist_fetch;
ALTER FUNCTION @extschema@.simhash_gist_sortsupport(internal) RENAME TO simhash64_gist_sortsupport;

ALTER OPERATOR FAMILY @extschema@.simhash_ops USING btree RENAME TO simhash64_ops;
ALTER OPERATOR CLASS @extschema@.simhash_ops USING btree RENAME TO simhash64_ops;
ALTER OPERATOR FAMILY @extschema@.simhash_ops USING hash RENAME TO simhash64_ops;
ALTER OPERATOR CLASS @extschema@.simhash_ops USING hash RENAME TO simhash64_ops;
ALTER OPERATOR FAMILY @extschema@.simhash_gin_ops USING gin RENAME TO simhash64_gin_ops;
ALTER OPERATOR CLASS @extschema@.simhash_gin_ops USING gin RENAME TO simhash64_gin_ops;
ALTER OPERATOR FAMILY @extschema@.simhash_gist_ops USING gist RENAME TO simhash64_gist_ops;
ALTER OPERATOR CLASS @extschema@.simhash_gist_ops USING gist RENAME TO simhash64_gist_ops;

-- The LSH class of 1.0 keeps its indexes (their keys are 32-bit band
-- hashes) under the name minhash_lsh_1_0_ops and stops being the default:
-- 74_minhash_lsh.sql, appended below, creates the new default class
-- minhash_lsh_ops (20-bit keys by default).  There is no DDL to clear
-- opcdefault, hence the catalog update.
ALTER OPERATOR FAMILY @extschema@.minhash_lsh_ops USING gin RENAME TO minhash_lsh_1_0_ops;
ALTER OPERATOR CLASS @extschema@.minhash_lsh_ops USING gin RENAME TO minhash_lsh_1_0_ops;
UPDATE pg_catalog.pg_opclass SET opcdefault = false
WHERE opcname = 'minhash_lsh_1_0_ops'
  AND opcnamespace = '@extschema@'::pg_catalog.regnamespace
  AND opcmethod = (SELECT oid FROM pg_catalog.pg_am WHERE amname = 'gin');
