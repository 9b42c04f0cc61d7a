-- textfp install script, assembled at build time from src/sql/*.sql
-- (see the Makefile): one fragment per concern, applied in file-name order.

\echo Use "CREATE EXTENSION textfp" to load this file. \quit
--
-- The 64-bit fingerprint type simhash64: I/O, casts, ordering, hashing,
-- Hamming distance.
--

CREATE TYPE @extschema@.simhash64;

CREATE FUNCTION @extschema@.simhash64_in(cstring) RETURNS @extschema@.simhash64
	AS 'MODULE_PATHNAME', 'simhash64_in'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash64_out(@extschema@.simhash64) RETURNS cstring
	AS 'MODULE_PATHNAME', 'simhash64_out'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash64_recv(internal) RETURNS @extschema@.simhash64
	AS 'MODULE_PATHNAME', 'simhash64_recv'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash64_send(@extschema@.simhash64) RETURNS bytea
	AS 'MODULE_PATHNAME', 'simhash64_send'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- LIKE int8: 8 bytes, double alignment, passed by value where Datum is 64-bit
CREATE TYPE @extschema@.simhash64 (
	INPUT = @extschema@.simhash64_in,
	OUTPUT = @extschema@.simhash64_out,
	RECEIVE = @extschema@.simhash64_recv,
	SEND = @extschema@.simhash64_send,
	LIKE = pg_catalog.int8
);
COMMENT ON TYPE @extschema@.simhash64 IS '64-bit text fingerprint compared by Hamming distance';

-- casts: the same 64 bits as bigint; as bit(64) the first bit is bit 63
CREATE FUNCTION @extschema@.simhash64_from_bigint(bigint) RETURNS @extschema@.simhash64
	AS 'MODULE_PATHNAME', 'simhash64_from_bigint'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.simhash64_to_bigint(@extschema@.simhash64) RETURNS bigint
	AS 'MODULE_PATHNAME', 'simhash64_to_bigint'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.simhash64_from_bit(bit) RETURNS @extschema@.simhash64
	AS 'MODULE_PATHNAME', 'simhash64_from_bit'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash64_to_bit(@extschema@.simhash64) RETURNS bit
	AS 'MODULE_PATHNAME', 'simhash64_to_bit'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE CAST (bigint AS @extschema@.simhash64)
	WITH FUNCTION @extschema@.simhash64_from_bigint(bigint);
CREATE CAST (@extschema@.simhash64 AS bigint)
	WITH FUNCTION @extschema@.simhash64_to_bigint(@extschema@.simhash64);
CREATE CAST (bit AS @extschema@.simhash64)
	WITH FUNCTION @extschema@.simhash64_from_bit(bit);
CREATE CAST (@extschema@.simhash64 AS bit)
	WITH FUNCTION @extschema@.simhash64_to_bit(@extschema@.simhash64);

-- comparison, in the order of the unsigned 64-bit value
CREATE FUNCTION @extschema@.simhash64_eq(@extschema@.simhash64, @extschema@.simhash64) RETURNS boolean
	AS 'MODULE_PATHNAME', 'simhash64_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.simhash64_ne(@extschema@.simhash64, @extschema@.simhash64) RETURNS boolean
	AS 'MODULE_PATHNAME', 'simhash64_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.simhash64_lt(@extschema@.simhash64, @extschema@.simhash64) RETURNS boolean
	AS 'MODULE_PATHNAME', 'simhash64_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.simhash64_le(@extschema@.simhash64, @extschema@.simhash64) RETURNS boolean
	AS 'MODULE_PATHNAME', 'simhash64_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.simhash64_gt(@extschema@.simhash64, @extschema@.simhash64) RETURNS boolean
	AS 'MODULE_PATHNAME', 'simhash64_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.simhash64_ge(@extschema@.simhash64, @extschema@.simhash64) RETURNS boolean
	AS 'MODULE_PATHNAME', 'simhash64_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.simhash64_cmp(@extschema@.simhash64, @extschema@.simhash64) RETURNS int4
	AS 'MODULE_PATHNAME', 'simhash64_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.simhash64_sortsupport(internal) RETURNS void
	AS 'MODULE_PATHNAME', 'simhash64_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash64_hash(@extschema@.simhash64) RETURNS int4
	AS 'MODULE_PATHNAME', 'simhash64_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.simhash64_hash_extended(@extschema@.simhash64, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME', 'simhash64_hash_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR @extschema@.= (
	LEFTARG = @extschema@.simhash64, RIGHTARG = @extschema@.simhash64,
	FUNCTION = @extschema@.simhash64_eq,
	COMMUTATOR = OPERATOR(@extschema@.=), NEGATOR = OPERATOR(@extschema@.<>),
	RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR @extschema@.<> (
	LEFTARG = @extschema@.simhash64, RIGHTARG = @extschema@.simhash64,
	FUNCTION = @extschema@.simhash64_ne,
	COMMUTATOR = OPERATOR(@extschema@.<>), NEGATOR = OPERATOR(@extschema@.=),
	RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR @extschema@.< (
	LEFTARG = @extschema@.simhash64, RIGHTARG = @extschema@.simhash64,
	FUNCTION = @extschema@.simhash64_lt,
	COMMUTATOR = OPERATOR(@extschema@.>), NEGATOR = OPERATOR(@extschema@.>=),
	RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR @extschema@.<= (
	LEFTARG = @extschema@.simhash64, RIGHTARG = @extschema@.simhash64,
	FUNCTION = @extschema@.simhash64_le,
	COMMUTATOR = OPERATOR(@extschema@.>=), NEGATOR = OPERATOR(@extschema@.>),
	RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR @extschema@.> (
	LEFTARG = @extschema@.simhash64, RIGHTARG = @extschema@.simhash64,
	FUNCTION = @extschema@.simhash64_gt,
	COMMUTATOR = OPERATOR(@extschema@.<), NEGATOR = OPERATOR(@extschema@.<=),
	RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR @extschema@.>= (
	LEFTARG = @extschema@.simhash64, RIGHTARG = @extschema@.simhash64,
	FUNCTION = @extschema@.simhash64_ge,
	COMMUTATOR = OPERATOR(@extschema@.<=), NEGATOR = OPERATOR(@extschema@.<),
	RESTRICT = scalargesel, JOIN = scalargejoinsel
);

CREATE OPERATOR CLASS @extschema@.simhash64_ops
	DEFAULT FOR TYPE @extschema@.simhash64 USING btree AS
	OPERATOR 1 @extschema@.< ,
	OPERATOR 2 @extschema@.<= ,
	OPERATOR 3 @extschema@.= ,
	OPERATOR 4 @extschema@.>= ,
	OPERATOR 5 @extschema@.> ,
	FUNCTION 1 @extschema@.simhash64_cmp(@extschema@.simhash64, @extschema@.simhash64),
	FUNCTION 2 @extschema@.simhash64_sortsupport(internal);

CREATE OPERATOR CLASS @extschema@.simhash64_ops
	DEFAULT FOR TYPE @extschema@.simhash64 USING hash AS
	OPERATOR 1 @extschema@.= ,
	FUNCTION 1 @extschema@.simhash64_hash(@extschema@.simhash64),
	FUNCTION 2 @extschema@.simhash64_hash_extended(@extschema@.simhash64, bigint);

-- Hamming distance: the number of differing bits, 0..64
CREATE FUNCTION @extschema@.simhash_dist(@extschema@.simhash64, @extschema@.simhash64) RETURNS int4
	AS 'MODULE_PATHNAME', 'simhash_dist'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.simhash_dist(@extschema@.simhash64, @extschema@.simhash64)
	IS 'Hamming distance between two fingerprints (number of differing bits)';

CREATE OPERATOR @extschema@.<-> (
	LEFTARG = @extschema@.simhash64, RIGHTARG = @extschema@.simhash64,
	FUNCTION = @extschema@.simhash_dist,
	COMMUTATOR = OPERATOR(@extschema@.<->)
);
--
-- simhash(): SimHash fingerprints of texts (feature extraction version 1, see
-- README) and of caller-supplied features.
--

CREATE FUNCTION @extschema@.simhash(
		body text,
		ngram int4 DEFAULT 2,
		shingle int4 DEFAULT 1,
		fold_case boolean DEFAULT true,
		fold_width boolean DEFAULT true,
		fold_han boolean DEFAULT true,
		center boolean DEFAULT true)
	RETURNS @extschema@.simhash64
	AS 'MODULE_PATHNAME', 'simhash_text'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION @extschema@.simhash(text, int4, int4, boolean, boolean, boolean, boolean)
	IS 'SimHash of a text: Han n-grams and word shingles, occurrence-weighted';

CREATE FUNCTION @extschema@.simhash(features text[])
	RETURNS @extschema@.simhash64
	AS 'MODULE_PATHNAME', 'simhash_features'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.simhash(text[])
	IS 'SimHash of caller-supplied features, each of weight 1';

CREATE FUNCTION @extschema@.simhash(features text[], weights float4[])
	RETURNS @extschema@.simhash64
	AS 'MODULE_PATHNAME', 'simhash_weighted'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.simhash(text[], float4[])
	IS 'SimHash of caller-supplied features with weights (e.g. tf-idf)';
--
-- A deployment's own balance reference: the aggregate simhash_reference()
-- chooses, from a sample of a collection's texts, per-bit thresholds that
-- make every fingerprint bit 1 in half of them; simhash(body, reference)
-- fingerprints with those thresholds in place of the built-in centering.
--

CREATE FUNCTION @extschema@.simhash_reference_accum(internal, body text)
	RETURNS internal
	AS 'MODULE_PATHNAME', 'simhash_reference_accum'
	LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.simhash_reference_accum(internal, body text,
		ngram int4, shingle int4, fold_case boolean, fold_width boolean,
		fold_han boolean)
	RETURNS internal
	AS 'MODULE_PATHNAME', 'simhash_reference_accum'
	LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.simhash_reference_final(internal)
	RETURNS int4[]
	AS 'MODULE_PATHNAME', 'simhash_reference_final'
	LANGUAGE C IMMUTABLE PARALLEL SAFE;

-- parallel aggregation: partial states from the workers, combined in the
-- leader (the result is the same as without workers)
CREATE FUNCTION @extschema@.simhash_reference_combine(internal, internal)
	RETURNS internal
	AS 'MODULE_PATHNAME', 'simhash_reference_combine'
	LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.simhash_reference_serialize(internal)
	RETURNS bytea
	AS 'MODULE_PATHNAME', 'simhash_reference_serialize'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.simhash_reference_deserialize(bytea, internal)
	RETURNS internal
	AS 'MODULE_PATHNAME', 'simhash_reference_deserialize'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE AGGREGATE @extschema@.simhash_reference(body text) (
	SFUNC = @extschema@.simhash_reference_accum,
	STYPE = internal,
	FINALFUNC = @extschema@.simhash_reference_final,
	COMBINEFUNC = @extschema@.simhash_reference_combine,
	SERIALFUNC = @extschema@.simhash_reference_serialize,
	DESERIALFUNC = @extschema@.simhash_reference_deserialize,
	PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.simhash_reference(text)
	IS 'per-bit thresholds balancing simhash(body, reference) over these texts (default feature options)';

CREATE AGGREGATE @extschema@.simhash_reference(body text, ngram int4,
		shingle int4, fold_case boolean, fold_width boolean, fold_han boolean) (
	SFUNC = @extschema@.simhash_reference_accum,
	STYPE = internal,
	FINALFUNC = @extschema@.simhash_reference_final,
	COMBINEFUNC = @extschema@.simhash_reference_combine,
	SERIALFUNC = @extschema@.simhash_reference_serialize,
	DESERIALFUNC = @extschema@.simhash_reference_deserialize,
	PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.simhash_reference(text, int4, int4, boolean, boolean, boolean)
	IS 'per-bit thresholds balancing simhash(body, reference) over these texts';

CREATE FUNCTION @extschema@.simhash(body text, reference int4[])
	RETURNS @extschema@.simhash64
	AS 'MODULE_PATHNAME', 'simhash_text_reference'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION @extschema@.simhash(text, int4[])
	IS 'SimHash of a text balanced by a reference from simhash_reference()';
--
-- Exact Hamming-radius search: the simhash_ball type, "fp <@ ball",
-- simhash_within(), GIN (multi-index hashing, default) and GiST (radius and
-- nearest-neighbour) operator classes, planner support for the literal
-- "simhash_dist(fp, q) <= k".  See docs/hamming.md.
--

CREATE TYPE @extschema@.simhash64_ball;

CREATE FUNCTION @extschema@.simhash64_ball_in(cstring) RETURNS @extschema@.simhash64_ball
	AS 'MODULE_PATHNAME', 'simhash64_ball_in'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash64_ball_out(@extschema@.simhash64_ball) RETURNS cstring
	AS 'MODULE_PATHNAME', 'simhash64_ball_out'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash64_ball_recv(internal) RETURNS @extschema@.simhash64_ball
	AS 'MODULE_PATHNAME', 'simhash64_ball_recv'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash64_ball_send(@extschema@.simhash64_ball) RETURNS bytea
	AS 'MODULE_PATHNAME', 'simhash64_ball_send'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE @extschema@.simhash64_ball (
	INPUT = @extschema@.simhash64_ball_in,
	OUTPUT = @extschema@.simhash64_ball_out,
	RECEIVE = @extschema@.simhash64_ball_recv,
	SEND = @extschema@.simhash64_ball_send,
	INTERNALLENGTH = 16,
	ALIGNMENT = double
);
COMMENT ON TYPE @extschema@.simhash64_ball IS
	'Hamming ball: the fingerprints within a radius of a centre (text form: 16 hex digits/radius)';

-- Two arguments, so never mistaken for a cast to the type simhash_ball.
CREATE FUNCTION @extschema@.simhash_ball(center @extschema@.simhash64, radius int4)
	RETURNS @extschema@.simhash64_ball
	AS 'MODULE_PATHNAME', 'simhash_ball_make'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.simhash_ball(@extschema@.simhash64, int4) IS
	'the ball of fingerprints within radius bits of center (radius < 0: empty; >= 64: all)';
CREATE FUNCTION @extschema@.simhash_ball_open(center @extschema@.simhash64, bound int4)
	RETURNS @extschema@.simhash64_ball
	AS 'MODULE_PATHNAME', 'simhash_ball_open'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.simhash_ball_open(@extschema@.simhash64, int4) IS
	'the fingerprints at distance < bound from center (the ball of radius bound - 1)';
CREATE FUNCTION @extschema@.simhash_ball_center(@extschema@.simhash64_ball)
	RETURNS @extschema@.simhash64
	AS 'MODULE_PATHNAME', 'simhash_ball_center'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.simhash_ball_radius(@extschema@.simhash64_ball)
	RETURNS int4
	AS 'MODULE_PATHNAME', 'simhash_ball_radius'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE FUNCTION @extschema@.simhash_ball_restrict(internal, oid, internal, int4)
	RETURNS float8
	AS 'MODULE_PATHNAME', 'simhash_ball_restrict'
	LANGUAGE C STABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash_ball_joinsel(internal, oid, internal, int2, internal)
	RETURNS float8
	AS 'MODULE_PATHNAME', 'simhash_ball_joinsel'
	LANGUAGE C STABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.simhash_in_ball(@extschema@.simhash64, @extschema@.simhash64_ball)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'simhash_in_ball'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.simhash_ball_contains(@extschema@.simhash64_ball, @extschema@.simhash64)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'simhash_ball_contains'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR @extschema@.<@ (
	LEFTARG = @extschema@.simhash64, RIGHTARG = @extschema@.simhash64_ball,
	FUNCTION = @extschema@.simhash_in_ball,
	COMMUTATOR = OPERATOR(@extschema@.@>),
	RESTRICT = @extschema@.simhash_ball_restrict,
	JOIN = @extschema@.simhash_ball_joinsel
);
CREATE OPERATOR @extschema@.@> (
	LEFTARG = @extschema@.simhash64_ball, RIGHTARG = @extschema@.simhash64,
	FUNCTION = @extschema@.simhash_ball_contains,
	COMMUTATOR = OPERATOR(@extschema@.<@),
	RESTRICT = @extschema@.simhash_ball_restrict,
	JOIN = @extschema@.simhash_ball_joinsel
);

-- simhash_within(a, b, k) = simhash_dist(a, b) <= k, indexable via its support function
CREATE FUNCTION @extschema@.simhash_within_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'simhash_within_support'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash_within(a @extschema@.simhash64, b @extschema@.simhash64, radius int4)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'simhash_within'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT @extschema@.simhash_within_support;
COMMENT ON FUNCTION @extschema@.simhash_within(@extschema@.simhash64, @extschema@.simhash64, int4) IS
	'true when the fingerprints differ in at most radius bits (uses a simhash index)';

-- simhash_dist's support function only makes the planner load the library,
-- whose set_rel_pathlist hook indexes "simhash_dist(fp, q) <= k"
CREATE FUNCTION @extschema@.simhash_dist_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'simhash_dist_support'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
ALTER FUNCTION @extschema@.simhash_dist(@extschema@.simhash64, @extschema@.simhash64)
	SUPPORT @extschema@.simhash_dist_support;

-- ---- GIN: multi-index hashing (default for simhash) ----

CREATE FUNCTION @extschema@.simhash64_gin_extract_value(@extschema@.simhash64, internal, internal)
	RETURNS internal
	AS 'MODULE_PATHNAME', 'simhash64_gin_extract_value'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash64_gin_extract_query(@extschema@.simhash64, internal, int2,
		internal, internal, internal, internal)
	RETURNS internal
	AS 'MODULE_PATHNAME', 'simhash64_gin_extract_query'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash64_gin_consistent(internal, int2, @extschema@.simhash64, int4,
		internal, internal, internal, internal)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'simhash64_gin_consistent'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash64_gin_triconsistent(internal, int2, @extschema@.simhash64, int4,
		internal, internal, internal)
	RETURNS "char"
	AS 'MODULE_PATHNAME', 'simhash64_gin_triconsistent'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash64_gin_options(internal)
	RETURNS void
	AS 'MODULE_PATHNAME', 'simhash64_gin_options'
	LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE OPERATOR CLASS @extschema@.simhash64_gin_ops
	DEFAULT FOR TYPE @extschema@.simhash64 USING gin AS
	OPERATOR 1 @extschema@.<@ (@extschema@.simhash64, @extschema@.simhash64_ball),
	FUNCTION 1 pg_catalog.btint4cmp(int4, int4),
	FUNCTION 2 @extschema@.simhash64_gin_extract_value(@extschema@.simhash64, internal, internal),
	FUNCTION 3 @extschema@.simhash64_gin_extract_query(@extschema@.simhash64, internal, int2,
		internal, internal, internal, internal),
	FUNCTION 4 @extschema@.simhash64_gin_consistent(internal, int2, @extschema@.simhash64, int4,
		internal, internal, internal, internal),
	FUNCTION 6 @extschema@.simhash64_gin_triconsistent(internal, int2, @extschema@.simhash64, int4,
		internal, internal, internal),
	FUNCTION 7 @extschema@.simhash64_gin_options(internal),
	STORAGE int4;

-- ---- GiST: nearest neighbours ----
-- (Radius search is the GIN class's job: the GiST lower bound prunes far
-- less, so the class does not offer <@ and the planner never prefers it.)

CREATE TYPE @extschema@.simhash64_gkey;
CREATE FUNCTION @extschema@.simhash64_gkey_in(cstring) RETURNS @extschema@.simhash64_gkey
	AS 'MODULE_PATHNAME', 'simhash64_gkey_in'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash64_gkey_out(@extschema@.simhash64_gkey) RETURNS cstring
	AS 'MODULE_PATHNAME', 'simhash64_gkey_out'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE TYPE @extschema@.simhash64_gkey (
	INPUT = @extschema@.simhash64_gkey_in,
	OUTPUT = @extschema@.simhash64_gkey_out,
	INTERNALLENGTH = 16,
	ALIGNMENT = double
);
COMMENT ON TYPE @extschema@.simhash64_gkey IS
	'internal key of the simhash GiST operator class (common bits and their mask)';

CREATE FUNCTION @extschema@.simhash64_gist_consistent(internal, @extschema@.simhash64, int2, oid, internal)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'simhash64_gist_consistent'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash64_gist_distance(internal, @extschema@.simhash64, int2, oid, internal)
	RETURNS float8
	AS 'MODULE_PATHNAME', 'simhash64_gist_distance'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash64_gist_union(internal, internal)
	RETURNS @extschema@.simhash64_gkey
	AS 'MODULE_PATHNAME', 'simhash64_gist_union'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash64_gist_compress(internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'simhash64_gist_compress'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash64_gist_decompress(internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'simhash64_gist_decompress'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash64_gist_penalty(internal, internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'simhash64_gist_penalty'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash64_gist_picksplit(internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'simhash64_gist_picksplit'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash64_gist_same(@extschema@.simhash64_gkey, @extschema@.simhash64_gkey, internal)
	RETURNS internal
	AS 'MODULE_PATHNAME', 'simhash64_gist_same'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash64_gist_fetch(internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'simhash64_gist_fetch'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash64_gist_sortsupport(internal) RETURNS void
	AS 'MODULE_PATHNAME', 'simhash64_gist_sortsupport'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR CLASS @extschema@.simhash64_gist_ops
	FOR TYPE @extschema@.simhash64 USING gist AS
	OPERATOR 15 @extschema@.<-> (@extschema@.simhash64, @extschema@.simhash64)
		FOR ORDER BY pg_catalog.integer_ops,
	FUNCTION 1 @extschema@.simhash64_gist_consistent(internal, @extschema@.simhash64, int2, oid, internal),
	FUNCTION 2 @extschema@.simhash64_gist_union(internal, internal),
	FUNCTION 3 @extschema@.simhash64_gist_compress(internal),
	FUNCTION 4 @extschema@.simhash64_gist_decompress(internal),
	FUNCTION 5 @extschema@.simhash64_gist_penalty(internal, internal, internal),
	FUNCTION 6 @extschema@.simhash64_gist_picksplit(internal, internal),
	FUNCTION 7 @extschema@.simhash64_gist_same(@extschema@.simhash64_gkey, @extschema@.simhash64_gkey, internal),
	FUNCTION 8 @extschema@.simhash64_gist_distance(internal, @extschema@.simhash64, int2, oid, internal),
	FUNCTION 9 @extschema@.simhash64_gist_fetch(internal),
	STORAGE @extschema@.simhash64_gkey;

-- sorted GiST build (support function 11) exists from PostgreSQL 14
DO $$
BEGIN
	IF pg_catalog.current_setting('server_version_num')::pg_catalog.int4 OPERATOR(pg_catalog.>=) 140000 THEN
		EXECUTE 'ALTER OPERATOR FAMILY @extschema@.simhash64_gist_ops USING gist ADD '
			'FUNCTION 11 (@extschema@.simhash64) @extschema@.simhash64_gist_sortsupport(internal)';
	END IF;
END
$$;
--
-- MinHash: the minhash signature type, minhash(), minhash_jaccard(), the %
-- operator (textfp.minhash_threshold), equality and order with btree and hash
-- classes, the exact shingles()/shingle_jaccard() and the LSH-banded GIN
-- support functions with the operator class of 1.0 (its default class for
-- minhash, minhash_lsh_ops there, minhash_lsh_1_0_ops since 1.1; the default
-- class of 1.1 is in 74_minhash_lsh.sql).  See docs/minhash.md.
--

CREATE TYPE @extschema@.minhash;

CREATE FUNCTION @extschema@.minhash_in(cstring)
	RETURNS @extschema@.minhash
	AS 'MODULE_PATHNAME', 'minhash_in'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.minhash_out(@extschema@.minhash)
	RETURNS cstring
	AS 'MODULE_PATHNAME', 'minhash_out'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.minhash_recv(internal)
	RETURNS @extschema@.minhash
	AS 'MODULE_PATHNAME', 'minhash_recv'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.minhash_send(@extschema@.minhash)
	RETURNS bytea
	AS 'MODULE_PATHNAME', 'minhash_send'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE @extschema@.minhash (
	INPUT = @extschema@.minhash_in,
	OUTPUT = @extschema@.minhash_out,
	RECEIVE = @extschema@.minhash_recv,
	SEND = @extschema@.minhash_send,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = int4,
	STORAGE = external
);
COMMENT ON TYPE @extschema@.minhash
	IS 'MinHash signature of a text''s shingle set (k values, with its parameters)';

CREATE FUNCTION @extschema@.minhash(
		body text,
		k int4,
		ngram int4 DEFAULT 5,
		shingle int4 DEFAULT 3,
		fold_case boolean DEFAULT true,
		fold_width boolean DEFAULT true,
		fold_han boolean DEFAULT true)
	RETURNS @extschema@.minhash
	AS 'MODULE_PATHNAME', 'minhash_text'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION @extschema@.minhash(text, int4, int4, int4, boolean, boolean, boolean)
	IS 'MinHash signature (one-permutation hashing, optimal densification) of a text''s Han n-grams and word shingles';

CREATE FUNCTION @extschema@.minhash_jaccard(a @extschema@.minhash, b @extschema@.minhash)
	RETURNS float8
	AS 'MODULE_PATHNAME', 'minhash_jaccard'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.minhash_jaccard(@extschema@.minhash, @extschema@.minhash)
	IS 'Unbiased estimate of the Jaccard similarity of the shingle sets (0 if either is empty)';

CREATE FUNCTION @extschema@.minhash_similar(a @extschema@.minhash, b @extschema@.minhash)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'minhash_similar'
	LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.minhash_similar(@extschema@.minhash, @extschema@.minhash)
	IS 'minhash_jaccard(a, b) >= textfp.minhash_threshold and > 0 (the % operator)';

CREATE OPERATOR @extschema@.% (
	LEFTARG = @extschema@.minhash,
	RIGHTARG = @extschema@.minhash,
	FUNCTION = @extschema@.minhash_similar,
	COMMUTATOR = OPERATOR(@extschema@.%),
	RESTRICT = contsel,
	JOIN = contjoinsel
);
COMMENT ON OPERATOR @extschema@.% (@extschema@.minhash, @extschema@.minhash)
	IS 'estimated Jaccard similarity >= textfp.minhash_threshold (indexable by minhash_lsh_ops)';

CREATE FUNCTION @extschema@.minhash_k(@extschema@.minhash)
	RETURNS int4
	AS 'MODULE_PATHNAME', 'minhash_k'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.minhash_k(@extschema@.minhash)
	IS 'number of values k of a minhash signature';

CREATE FUNCTION @extschema@.minhash_is_empty(@extschema@.minhash)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'minhash_is_empty'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.minhash_is_empty(@extschema@.minhash)
	IS 'true for the signature of a text without any shingle (similar to nothing)';

-- Equality and a fixed total order (not a similarity), so that minhash
-- columns work with DISTINCT, GROUP BY, UNION, UNIQUE, hash and merge joins
-- and hash partitioning; signatures with different parameters are unequal.
CREATE FUNCTION @extschema@.minhash_eq(@extschema@.minhash, @extschema@.minhash) RETURNS boolean
	AS 'MODULE_PATHNAME', 'minhash_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.minhash_ne(@extschema@.minhash, @extschema@.minhash) RETURNS boolean
	AS 'MODULE_PATHNAME', 'minhash_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.minhash_lt(@extschema@.minhash, @extschema@.minhash) RETURNS boolean
	AS 'MODULE_PATHNAME', 'minhash_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.minhash_le(@extschema@.minhash, @extschema@.minhash) RETURNS boolean
	AS 'MODULE_PATHNAME', 'minhash_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.minhash_gt(@extschema@.minhash, @extschema@.minhash) RETURNS boolean
	AS 'MODULE_PATHNAME', 'minhash_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.minhash_ge(@extschema@.minhash, @extschema@.minhash) RETURNS boolean
	AS 'MODULE_PATHNAME', 'minhash_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.minhash_cmp(@extschema@.minhash, @extschema@.minhash) RETURNS int4
	AS 'MODULE_PATHNAME', 'minhash_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.minhash_hash(@extschema@.minhash) RETURNS int4
	AS 'MODULE_PATHNAME', 'minhash_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.minhash_hash_extended(@extschema@.minhash, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME', 'minhash_hash_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR @extschema@.= (
	LEFTARG = @extschema@.minhash, RIGHTARG = @extschema@.minhash,
	FUNCTION = @extschema@.minhash_eq,
	COMMUTATOR = OPERATOR(@extschema@.=), NEGATOR = OPERATOR(@extschema@.<>),
	RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR @extschema@.<> (
	LEFTARG = @extschema@.minhash, RIGHTARG = @extschema@.minhash,
	FUNCTION = @extschema@.minhash_ne,
	COMMUTATOR = OPERATOR(@extschema@.<>), NEGATOR = OPERATOR(@extschema@.=),
	RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR @extschema@.< (
	LEFTARG = @extschema@.minhash, RIGHTARG = @extschema@.minhash,
	FUNCTION = @extschema@.minhash_lt,
	COMMUTATOR = OPERATOR(@extschema@.>), NEGATOR = OPERATOR(@extschema@.>=),
	RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR @extschema@.<= (
	LEFTARG = @extschema@.minhash, RIGHTARG = @extschema@.minhash,
	FUNCTION = @extschema@.minhash_le,
	COMMUTATOR = OPERATOR(@extschema@.>=), NEGATOR = OPERATOR(@extschema@.>),
	RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR @extschema@.> (
	LEFTARG = @extschema@.minhash, RIGHTARG = @extschema@.minhash,
	FUNCTION = @extschema@.minhash_gt,
	COMMUTATOR = OPERATOR(@extschema@.<), NEGATOR = OPERATOR(@extschema@.<=),
	RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR @extschema@.>= (
	LEFTARG = @extschema@.minhash, RIGHTARG = @extschema@.minhash,
	FUNCTION = @extschema@.minhash_ge,
	COMMUTATOR = OPERATOR(@extschema@.<=), NEGATOR = OPERATOR(@extschema@.<),
	RESTRICT = scalargesel, JOIN = scalargejoinsel
);

CREATE OPERATOR CLASS @extschema@.minhash_ops
	DEFAULT FOR TYPE @extschema@.minhash USING btree AS
	OPERATOR 1 @extschema@.< ,
	OPERATOR 2 @extschema@.<= ,
	OPERATOR 3 @extschema@.= ,
	OPERATOR 4 @extschema@.>= ,
	OPERATOR 5 @extschema@.> ,
	FUNCTION 1 @extschema@.minhash_cmp(@extschema@.minhash, @extschema@.minhash);

CREATE OPERATOR CLASS @extschema@.minhash_ops
	DEFAULT FOR TYPE @extschema@.minhash USING hash AS
	OPERATOR 1 @extschema@.= ,
	FUNCTION 1 @extschema@.minhash_hash(@extschema@.minhash),
	FUNCTION 2 @extschema@.minhash_hash_extended(@extschema@.minhash, bigint);

CREATE FUNCTION @extschema@.shingles(
		body text,
		ngram int4 DEFAULT 5,
		shingle int4 DEFAULT 3,
		fold_case boolean DEFAULT true,
		fold_width boolean DEFAULT true,
		fold_han boolean DEFAULT true)
	RETURNS int8[]
	AS 'MODULE_PATHNAME', 'shingles_text'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION @extschema@.shingles(text, int4, int4, boolean, boolean, boolean)
	IS 'the distinct hashed shingles (Han n-grams and word shingles) of a text, sorted';

CREATE FUNCTION @extschema@.shingle_jaccard(
		a text,
		b text,
		ngram int4 DEFAULT 5,
		shingle int4 DEFAULT 3,
		fold_case boolean DEFAULT true,
		fold_width boolean DEFAULT true,
		fold_han boolean DEFAULT true)
	RETURNS float8
	AS 'MODULE_PATHNAME', 'shingle_jaccard_text'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 200;
COMMENT ON FUNCTION @extschema@.shingle_jaccard(text, text, int4, int4, boolean, boolean, boolean)
	IS 'exact Jaccard similarity of the shingle sets of two texts (0 if both are empty)';

CREATE FUNCTION @extschema@.shingle_jaccard(a int8[], b int8[])
	RETURNS float8
	AS 'MODULE_PATHNAME', 'shingle_jaccard_sets'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.shingle_jaccard(int8[], int8[])
	IS 'exact Jaccard similarity of two shingle sets from shingles() (0 if both are empty)';

-- LSH-banded GIN index for %
CREATE FUNCTION @extschema@.minhash_gin_extract_value(@extschema@.minhash, internal, internal)
	RETURNS internal
	AS 'MODULE_PATHNAME', 'minhash_gin_extract_value'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.minhash_gin_extract_query(@extschema@.minhash, internal, int2, internal, internal, internal, internal)
	RETURNS internal
	AS 'MODULE_PATHNAME', 'minhash_gin_extract_query'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.minhash_gin_consistent(internal, int2, @extschema@.minhash, int4, internal, internal, internal, internal)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'minhash_gin_consistent'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.minhash_gin_triconsistent(internal, int2, @extschema@.minhash, int4, internal, internal, internal)
	RETURNS "char"
	AS 'MODULE_PATHNAME', 'minhash_gin_triconsistent'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.minhash_gin_options(internal)
	RETURNS void
	AS 'MODULE_PATHNAME', 'minhash_gin_options'
	LANGUAGE C IMMUTABLE PARALLEL SAFE;

-- The class of 1.0, whose indexes hold 32-bit band keys: kept for them
-- (upgrade/textfp--1.0--1.1.head.sql renames it and clears its default).
CREATE OPERATOR CLASS @extschema@.minhash_lsh_1_0_ops
	FOR TYPE @extschema@.minhash USING gin AS
		OPERATOR 1 @extschema@.% (@extschema@.minhash, @extschema@.minhash),
		FUNCTION 1 pg_catalog.btint4cmp(int4, int4),
		FUNCTION 2 @extschema@.minhash_gin_extract_value(@extschema@.minhash, internal, internal),
		FUNCTION 3 @extschema@.minhash_gin_extract_query(@extschema@.minhash, internal, int2, internal, internal, internal, internal),
		FUNCTION 4 @extschema@.minhash_gin_consistent(internal, int2, @extschema@.minhash, int4, internal, internal, internal, internal),
		FUNCTION 6 @extschema@.minhash_gin_triconsistent(internal, int2, @extschema@.minhash, int4, internal, internal, internal),
		FUNCTION 7 @extschema@.minhash_gin_options(internal),
		STORAGE int4;
--
-- pinyin(), pinyin_initials(): Chinese text to toneless pinyin.
-- pinyin_dna(): Daguan's pinyin "DNA" (set of window DNAs, int8[]), its
-- similarity, and the GIN operator class pinyin_dna_ops for
-- "shares at least m window DNAs" (operator %&).
--

CREATE FUNCTION @extschema@.pinyin(body text)
	RETURNS text
	AS 'MODULE_PATHNAME', 'pinyin'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 50;
COMMENT ON FUNCTION @extschema@.pinyin(text)
	IS 'toneless pinyin of the Han characters, one syllable per character; other text folded';

CREATE FUNCTION @extschema@.pinyin_initials(body text)
	RETURNS text
	AS 'MODULE_PATHNAME', 'pinyin_initials'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 50;
COMMENT ON FUNCTION @extschema@.pinyin_initials(text)
	IS 'first letters of the pinyin syllables; other text folded';

CREATE FUNCTION @extschema@.pinyin_dna(
		body text,
		window_length int4 DEFAULT 32,
		overlap int4 DEFAULT 50,
		levels int4 DEFAULT 4,
		content_defined boolean DEFAULT true)
	RETURNS int8[]
	AS 'MODULE_PATHNAME', 'pinyin_dna'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 50;
COMMENT ON FUNCTION @extschema@.pinyin_dna(text, int4, int4, int4, boolean)
	IS 'pinyin DNA of a Chinese text: sorted distinct DNAs of its windows of pinyin initials';

CREATE FUNCTION @extschema@.pinyin_dna_similarity(a int8[], b int8[])
	RETURNS float8
	AS 'MODULE_PATHNAME', 'pinyin_dna_similarity'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.pinyin_dna_similarity(int8[], int8[])
	IS 'Jaccard similarity of two sets of window DNAs (0 when both are empty)';

CREATE FUNCTION @extschema@.pinyin_dna_shared(a int8[], b int8[])
	RETURNS int4
	AS 'MODULE_PATHNAME', 'pinyin_dna_shared'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.pinyin_dna_shared(int8[], int8[])
	IS 'number of distinct window DNAs two sets share';

CREATE TYPE @extschema@.pinyin_dna_query AS (dna int8[], min_shared int4);
COMMENT ON TYPE @extschema@.pinyin_dna_query
	IS 'query of the %& operator: rows sharing at least min_shared of these window DNAs';

CREATE FUNCTION @extschema@.pinyin_dna_query(dna int8[], min_shared int4)
	RETURNS @extschema@.pinyin_dna_query
	AS 'MODULE_PATHNAME', 'pinyin_dna_query_make'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.pinyin_dna_query(int8[], int4)
	IS 'build a pinyin_dna_query (min_shared >= 1)';

CREATE FUNCTION @extschema@.pinyin_dna_match(int8[], @extschema@.pinyin_dna_query)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'pinyin_dna_match'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR @extschema@.%& (
	LEFTARG = int8[],
	RIGHTARG = @extschema@.pinyin_dna_query,
	FUNCTION = @extschema@.pinyin_dna_match,
	RESTRICT = contsel,
	JOIN = contjoinsel
);
COMMENT ON OPERATOR @extschema@.%& (int8[], @extschema@.pinyin_dna_query)
	IS 'shares at least min_shared distinct values with the query''s dna';

CREATE FUNCTION @extschema@.pinyin_dna_gin_extract_value(int8[], internal, internal)
	RETURNS internal
	AS 'MODULE_PATHNAME', 'pinyin_dna_gin_extract_value'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.pinyin_dna_gin_extract_query(@extschema@.pinyin_dna_query,
		internal, int2, internal, internal, internal, internal)
	RETURNS internal
	AS 'MODULE_PATHNAME', 'pinyin_dna_gin_extract_query'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.pinyin_dna_gin_consistent(internal, int2,
		@extschema@.pinyin_dna_query, int4, internal, internal, internal, internal)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'pinyin_dna_gin_consistent'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.pinyin_dna_gin_triconsistent(internal, int2,
		@extschema@.pinyin_dna_query, int4, internal, internal, internal)
	RETURNS "char"
	AS 'MODULE_PATHNAME', 'pinyin_dna_gin_triconsistent'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR CLASS @extschema@.pinyin_dna_ops
	FOR TYPE int8[] USING gin AS
		OPERATOR 1 @extschema@.%& (int8[], @extschema@.pinyin_dna_query),
		FUNCTION 1 btint8cmp(int8, int8),
		FUNCTION 2 @extschema@.pinyin_dna_gin_extract_value(int8[], internal, internal),
		FUNCTION 3 @extschema@.pinyin_dna_gin_extract_query(@extschema@.pinyin_dna_query,
				internal, int2, internal, internal, internal, internal),
		FUNCTION 4 @extschema@.pinyin_dna_gin_consistent(internal, int2,
				@extschema@.pinyin_dna_query, int4, internal, internal, internal, internal),
		FUNCTION 6 @extschema@.pinyin_dna_gin_triconsistent(internal, int2,
				@extschema@.pinyin_dna_query, int4, internal, internal, internal),
		STORAGE int8;
--
-- Batch near-duplicate search: simhash_pairs() finds every pair of rows
-- within a Hamming radius by sorting block-permuted keys (no index), and
-- textfp_clusters() / simhash_clusters() group pairs into connected
-- components (union-find).  Setting textfp.progress reports their phases.
--

CREATE FUNCTION @extschema@.simhash_pairs(query text, radius int4 DEFAULT 3)
	RETURNS TABLE(id_a bigint, id_b bigint, distance int4)
	AS 'MODULE_PATHNAME', 'simhash_pairs_query'
	LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE ROWS 1000;
COMMENT ON FUNCTION @extschema@.simhash_pairs(text, int4)
	IS 'every pair of rows (id, fingerprint) of the query within the Hamming radius, id_a < id_b';

CREATE FUNCTION @extschema@.simhash_pairs(rel regclass, id_column name, fp_column name,
		radius int4 DEFAULT 3)
	RETURNS TABLE(id_a bigint, id_b bigint, distance int4)
	AS 'MODULE_PATHNAME', 'simhash_pairs_rel'
	LANGUAGE C STABLE STRICT PARALLEL RESTRICTED ROWS 1000;
COMMENT ON FUNCTION @extschema@.simhash_pairs(regclass, name, name, int4)
	IS 'every pair of rows of the table (all partitions) within the Hamming radius, id_a < id_b';

CREATE FUNCTION @extschema@.textfp_clusters(pairs_query text)
	RETURNS TABLE(id bigint, cluster_id bigint, cluster_size bigint, representative bigint)
	AS 'MODULE_PATHNAME', 'textfp_clusters'
	LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE ROWS 1000;
COMMENT ON FUNCTION @extschema@.textfp_clusters(text)
	IS 'connected components of the pairs (id_a, id_b, ...) of a query: one row per id, cluster_id = smallest id';

CREATE FUNCTION @extschema@.simhash_clusters(query text, radius int4 DEFAULT 3)
	RETURNS TABLE(id bigint, cluster_id bigint, cluster_size bigint, representative bigint)
	AS 'MODULE_PATHNAME', 'simhash_clusters_query'
	LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE ROWS 1000;
COMMENT ON FUNCTION @extschema@.simhash_clusters(text, int4)
	IS 'connected components of simhash_pairs(query, radius)';

CREATE FUNCTION @extschema@.simhash_clusters(rel regclass, id_column name, fp_column name,
		radius int4 DEFAULT 3)
	RETURNS TABLE(id bigint, cluster_id bigint, cluster_size bigint, representative bigint)
	AS 'MODULE_PATHNAME', 'simhash_clusters_rel'
	LANGUAGE C STABLE STRICT PARALLEL RESTRICTED ROWS 1000;
COMMENT ON FUNCTION @extschema@.simhash_clusters(regclass, name, name, int4)
	IS 'connected components of simhash_pairs(rel, id_column, fp_column, radius)';
--
-- html_text(): the text of an HTML document (tokenizer in the spirit of the
-- HTML Standard, character references, paragraphs, boilerplate removal),
-- for fingerprints of web pages: simhash(html_text(body)).  Version 1 is
-- frozen: a change of output will be a new version value.
--

CREATE FUNCTION @extschema@.html_text(html text, boilerplate boolean DEFAULT true,
		main_content boolean DEFAULT true, alt_text boolean DEFAULT false,
		version int4 DEFAULT 1)
	RETURNS text
	AS 'MODULE_PATHNAME', 'html_text'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.html_text(text, boolean, boolean, boolean, int4)
	IS 'the text of an HTML document: paragraphs separated by LF, references decoded, scripts, styles and (with boilerplate) navigation, ads and hidden parts dropped';
--
-- Which passages were copied: textfp_align() lists the matching passages of
-- two texts (positions in characters, as substr() counts them),
-- textfp_copied_share() the share of b found in a, textfp_compare_html() a
-- side-by-side HTML comparison (textfp_compare_css() its style sheet).
-- Lengths are in Han characters, a word of other scripts counting as two.
--

CREATE FUNCTION @extschema@.textfp_align(
		a text,
		b text,
		min_length int4 DEFAULT 16,
		seed int4 DEFAULT 4,
		max_gap int4 DEFAULT 12,
		fold_case boolean DEFAULT true,
		fold_width boolean DEFAULT true,
		fold_han boolean DEFAULT true)
	RETURNS TABLE(passage int4, a_start int4, a_length int4, b_start int4,
				  b_length int4, matched int4, similarity float8)
	AS 'MODULE_PATHNAME', 'textfp_align'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000 ROWS 10;
COMMENT ON FUNCTION @extschema@.textfp_align(text, text, int4, int4, int4, boolean, boolean, boolean)
	IS 'the passages of b that match passages of a, one to one, robust to small edits: substr(a, a_start, a_length) matches substr(b, b_start, b_length)';

CREATE FUNCTION @extschema@.textfp_copied_share(
		a text,
		b text,
		min_length int4 DEFAULT 16,
		seed int4 DEFAULT 4,
		max_gap int4 DEFAULT 12,
		fold_case boolean DEFAULT true,
		fold_width boolean DEFAULT true,
		fold_han boolean DEFAULT true)
	RETURNS float8
	AS 'MODULE_PATHNAME', 'textfp_copied_share'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION @extschema@.textfp_copied_share(text, text, int4, int4, int4, boolean, boolean, boolean)
	IS 'share (0 to 1) of the length of b inside passages found in a (textfp_align): how much of b was copied from a';

CREATE FUNCTION @extschema@.textfp_compare_html(
		a text,
		b text,
		min_length int4 DEFAULT 16,
		seed int4 DEFAULT 4,
		max_gap int4 DEFAULT 12,
		fold_case boolean DEFAULT true,
		fold_width boolean DEFAULT true,
		fold_han boolean DEFAULT true,
		context int4 DEFAULT -1,
		page boolean DEFAULT false,
		a_title text DEFAULT 'a',
		b_title text DEFAULT 'b')
	RETURNS text
	AS 'MODULE_PATHNAME', 'textfp_compare_html'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION @extschema@.textfp_compare_html(text, text, int4, int4, int4, boolean, boolean, boolean, int4, boolean, text, text)
	IS 'side-by-side HTML comparison of a and b with the passages of textfp_align highlighted: a fragment (<div class="textfp-compare">) or, with page, a whole document';

CREATE FUNCTION @extschema@.textfp_compare_css()
	RETURNS text
	AS 'MODULE_PATHNAME', 'textfp_compare_css'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.textfp_compare_css()
	IS 'the style sheet of textfp_compare_html fragments (rules scoped by .textfp-compare), for the <head> of a page that embeds them';
--
-- textfp_match(): is b a copy of a?  One calibrated verdict (precision 0.99
-- on held-out labelled pairs), a score and the similarities it is built
-- from.  HTML pages are read with html_text() (html => 'auto' detects them),
-- Chinese with the Taiwan wording fold (traditional script and Taiwan
-- vocabulary read as mainland simplified vocabulary; src/core/tfp_twfold.h).
-- model 1 is frozen: a later model will be a new model value.
--

CREATE FUNCTION @extschema@.textfp_match(a text, b text, html text DEFAULT 'auto',
		model int4 DEFAULT 2,
		OUT verdict boolean, OUT score float8,
		OUT shingle_jaccard float8, OUT shingle_containment float8,
		OUT bigram_jaccard float8, OUT bigram_containment float8,
		OUT simhash_distance int4, OUT pinyin_dna_similarity float8,
		OUT pinyin_jaccard float8, OUT pinyin_containment float8,
		OUT ordered float8, OUT ordered_chars float8, OUT longest_run float8,
		OUT chinese float8, OUT html_a boolean, OUT html_b boolean)
	RETURNS record
	AS 'MODULE_PATHNAME', 'textfp_match'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.textfp_match(text, text, text, int4)
	IS 'is b a copy of a: a verdict (precision 0.99), a score in 0..1, and the similarities it comes from';

-- what textfp_match's models read, for tools/fit_match.py: the 12
-- similarities of the full texts (shingle Jaccard, containment, bigram
-- Jaccard, containment, simhash similarity, pinyin DNA, pinyin Jaccard,
-- containment, ordered, ordered characters, longest run, Chinese share), the
-- share of the shorter text in the common edges (a site template's leading
-- and trailing lines), then the 12 similarities of the middles left between
-- the edges (the full texts when there is none; their shingles read with
-- the lines of Han text run together: what model 2 reads), and the share
-- of the shorter text in long edge lines (paragraphs: src/core/tfp_match.h)
CREATE FUNCTION @extschema@.textfp_match_features(a text, b text, html text DEFAULT 'auto')
	RETURNS float8[]
	AS 'MODULE_PATHNAME', 'textfp_match_features'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.textfp_match_features(text, text, text)
	IS 'the similarities textfp_match reads: 12 of the full texts, the edge share, 12 of the middles between the common edges, the share in long edge lines';
--
-- Boilerplate learned from the corpus (CCNet's line deduplication, Henzinger's
-- same-site templates): every line of a text normalized (case, width,
-- traditional script, digits, punctuation) and hashed; the lines that recur in
-- many documents (and, optionally, sites) of a table kept as a lexicon value,
-- textfp_boilerplate, built once and stored; textfp_strip_boilerplate()
-- removes them from a text, and textfp_match(a, b, boilerplate) compares two
-- texts without them.  The definition of a line hash (src/core/tfp_boiler.h)
-- is frozen as version 1.  This fragment comes after 63_match.sql (its
-- textfp_match overload) and before 64_arrivals.sql (which takes a lexicon).
--

CREATE TYPE @extschema@.textfp_boilerplate;

CREATE FUNCTION @extschema@.textfp_boilerplate_in(cstring)
	RETURNS @extschema@.textfp_boilerplate
	AS 'MODULE_PATHNAME', 'textfp_boilerplate_in'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.textfp_boilerplate_out(@extschema@.textfp_boilerplate)
	RETURNS cstring
	AS 'MODULE_PATHNAME', 'textfp_boilerplate_out'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.textfp_boilerplate_recv(internal)
	RETURNS @extschema@.textfp_boilerplate
	AS 'MODULE_PATHNAME', 'textfp_boilerplate_recv'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.textfp_boilerplate_send(@extschema@.textfp_boilerplate)
	RETURNS bytea
	AS 'MODULE_PATHNAME', 'textfp_boilerplate_send'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- line hashes are random bits: stored uncompressed (external), so that a
-- call reads only the header of a lexicon it has already loaded
CREATE TYPE @extschema@.textfp_boilerplate (
	INPUT = @extschema@.textfp_boilerplate_in,
	OUTPUT = @extschema@.textfp_boilerplate_out,
	RECEIVE = @extschema@.textfp_boilerplate_recv,
	SEND = @extschema@.textfp_boilerplate_send,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = double,
	STORAGE = external
);
COMMENT ON TYPE @extschema@.textfp_boilerplate
	IS 'boilerplate lexicon: the normalized hashes of the lines that recur in a corpus (version 1)';

CREATE FUNCTION @extschema@.textfp_line_hashes(body text)
	RETURNS int8[]
	AS 'MODULE_PATHNAME', 'textfp_line_hashes'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 50;
COMMENT ON FUNCTION @extschema@.textfp_line_hashes(text)
	IS 'the distinct normalized hashes of the lines of a text, sorted (blank and punctuation-only lines have none): count them over a table to find boilerplate';

-- (not named textfp_boilerplate: textfp_boilerplate('{...}') would be a cast)
CREATE FUNCTION @extschema@.textfp_boilerplate_of(hashes int8[])
	RETURNS @extschema@.textfp_boilerplate
	AS 'MODULE_PATHNAME', 'textfp_boilerplate_of'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.textfp_boilerplate_of(int8[])
	IS 'a boilerplate lexicon of these line hashes (from textfp_line_hashes())';

CREATE FUNCTION @extschema@.textfp_boilerplate_size(@extschema@.textfp_boilerplate)
	RETURNS int4
	AS 'MODULE_PATHNAME', 'textfp_boilerplate_size'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.textfp_boilerplate_size(@extschema@.textfp_boilerplate)
	IS 'number of line hashes in a boilerplate lexicon';

CREATE FUNCTION @extschema@.textfp_boilerplate_hashes(@extschema@.textfp_boilerplate)
	RETURNS int8[]
	AS 'MODULE_PATHNAME', 'textfp_boilerplate_hashes'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.textfp_boilerplate_hashes(@extschema@.textfp_boilerplate)
	IS 'the line hashes of a boilerplate lexicon, sorted (to combine or inspect lexicons)';

CREATE FUNCTION @extschema@.textfp_strip_boilerplate(body text,
		boilerplate @extschema@.textfp_boilerplate)
	RETURNS text
	AS 'MODULE_PATHNAME', 'textfp_strip_boilerplate'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 50;
COMMENT ON FUNCTION @extschema@.textfp_strip_boilerplate(text, @extschema@.textfp_boilerplate)
	IS 'the text without its lines (and their line breaks) whose normalized hash is in the lexicon; every other line byte for byte';

CREATE FUNCTION @extschema@.textfp_is_html(body text)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'textfp_is_html'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.textfp_is_html(text)
	IS 'whether the text starts like an HTML document (what html => ''auto'' of textfp_match reads as a page)';

-- The lexicon of a table: the line hashes that occur in at least min_docs
-- rows, and in at least min_sites distinct values of site_column with at
-- least min_site_docs rows each (Henzinger's same-site templates: min_sites
-- 1, min_site_docs 5 keeps the lines that one site repeats, not an article
-- that five sites copied once each).  A row is a document; NULL texts are
-- skipped; rows with a NULL site are one site together.  One aggregation
-- over the table: work_mem bounds its memory (a hash aggregate spills).
CREATE FUNCTION @extschema@.textfp_build_boilerplate(
		corpus regclass,
		text_column name,
		site_column name DEFAULT NULL,
		min_docs int4 DEFAULT 5,
		min_sites int4 DEFAULT 1,
		min_site_docs int4 DEFAULT 1)
	RETURNS @extschema@.textfp_boilerplate
	LANGUAGE plpgsql STABLE PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	ext text := (SELECT e.extnamespace::regnamespace::text FROM pg_catalog.pg_extension e
				 WHERE e.extname = 'textfp');
	col name;
	result @extschema@.textfp_boilerplate;
BEGIN
	IF corpus IS NULL OR text_column IS NULL OR min_docs IS NULL OR min_sites IS NULL
			OR min_site_docs IS NULL THEN
		RAISE EXCEPTION 'textfp_build_boilerplate: corpus, text_column, min_docs, min_sites and min_site_docs must not be NULL'
			USING ERRCODE = '22004', DETAIL = 'site_column may be NULL: then the rows are not grouped by site.';
	END IF;
	IF min_docs < 2 THEN
		RAISE EXCEPTION 'textfp_build_boilerplate: min_docs must be at least 2, not %', min_docs
			USING ERRCODE = '22023', DETAIL = 'A line is boilerplate when it recurs in at least min_docs rows.';
	END IF;
	IF min_sites < 1 OR min_site_docs < 1 THEN
		RAISE EXCEPTION 'textfp_build_boilerplate: min_sites and min_site_docs must be at least 1, not % and %',
			min_sites, min_site_docs
			USING ERRCODE = '22023',
				  DETAIL = 'A line is boilerplate when at least min_sites sites have it in at least min_site_docs rows each.';
	END IF;
	IF site_column IS NULL AND (min_sites > 1 OR min_site_docs > 1) THEN
		RAISE EXCEPTION 'textfp_build_boilerplate: min_sites and min_site_docs need a site_column'
			USING ERRCODE = '22023', DETAIL = 'Without site_column the rows are not grouped by site.';
	END IF;
	FOREACH col IN ARRAY ARRAY[text_column, site_column] LOOP
		IF col IS NOT NULL AND NOT EXISTS (SELECT FROM pg_catalog.pg_attribute a WHERE a.attrelid = corpus
										   AND a.attname = col AND a.attnum > 0 AND NOT a.attisdropped) THEN
			RAISE EXCEPTION 'column "%" of relation % does not exist', col, corpus
				USING ERRCODE = '42703';
		END IF;
	END LOOP;
	IF site_column IS NULL THEN
		EXECUTE pg_catalog.format(
			'SELECT %1$s.textfp_boilerplate_of(coalesce(pg_catalog.array_agg(s.h), ''{}''::pg_catalog.int8[]))
			 FROM (SELECT l.h FROM %2$s c CROSS JOIN LATERAL pg_catalog.unnest(%1$s.textfp_line_hashes(c.%3$I::text)) l(h)
				   GROUP BY l.h HAVING pg_catalog.count(*) >= $1) s',
			ext, corpus, text_column)
			INTO result USING min_docs;
	ELSE
		EXECUTE pg_catalog.format(
			'SELECT %1$s.textfp_boilerplate_of(coalesce(pg_catalog.array_agg(s.h), ''{}''::pg_catalog.int8[]))
			 FROM (SELECT x.h FROM (
					 SELECT c.%4$I AS site, l.h, pg_catalog.count(*) AS n
					 FROM %2$s c CROSS JOIN LATERAL pg_catalog.unnest(%1$s.textfp_line_hashes(c.%3$I::text)) l(h)
					 GROUP BY 1, 2) x
				   GROUP BY x.h
				   HAVING pg_catalog.sum(x.n) >= $1
					  AND pg_catalog.count(*) FILTER (WHERE x.n >= $3) >= $2) s',
			ext, corpus, text_column, site_column)
			INTO result USING min_docs, min_sites, min_site_docs;
	END IF;
	RETURN result;
END
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_build_boilerplate(regclass, name, name, int4, int4, int4)
	IS 'the boilerplate lexicon of a table: the normalized lines in at least min_docs rows (and min_sites sites with min_site_docs rows each)';

-- textfp_match with the boilerplate of both texts left out.  The lexicon is
-- the third argument and has no default, so textfp_match(a, b),
-- textfp_match(a, b, 'never') and textfp_match(a, b, model => 1) still call
-- the original (an untyped literal in third place prefers its text html),
-- and textfp_match(a, b, boilerplate => lex) this one.  A page is read with
-- html_text() first, as the original does (html_text's defaults are its
-- options), and its lines stripped after; a text that strips to nothing
-- (every line of it boilerplate, e.g. an article syndicated more than
-- min_docs times) is compared whole, as without a lexicon.  The OUT columns
-- and the default model are the original's (keep them so).
CREATE FUNCTION @extschema@.textfp_match(a text, b text,
		boilerplate @extschema@.textfp_boilerplate,
		html text DEFAULT 'auto', model int4 DEFAULT 2,
		OUT verdict boolean, OUT score float8,
		OUT shingle_jaccard float8, OUT shingle_containment float8,
		OUT bigram_jaccard float8, OUT bigram_containment float8,
		OUT simhash_distance int4, OUT pinyin_dna_similarity float8,
		OUT pinyin_jaccard float8, OUT pinyin_containment float8,
		OUT ordered float8, OUT ordered_chars float8, OUT longest_run float8,
		OUT chinese float8, OUT html_a boolean, OUT html_b boolean)
	RETURNS record
	LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $fn$
SELECT m.verdict, m.score, m.shingle_jaccard, m.shingle_containment,
	   m.bigram_jaccard, m.bigram_containment, m.simhash_distance,
	   m.pinyin_dna_similarity, m.pinyin_jaccard, m.pinyin_containment,
	   m.ordered, m.ordered_chars, m.longest_run, m.chinese, p.ha, p.hb
FROM (SELECT html OPERATOR(pg_catalog.=) 'always'
			 OR (html OPERATOR(pg_catalog.=) 'auto' AND @extschema@.textfp_is_html(a)) AS ha,
			 html OPERATOR(pg_catalog.=) 'always'
			 OR (html OPERATOR(pg_catalog.=) 'auto' AND @extschema@.textfp_is_html(b)) AS hb) p,
	 LATERAL (SELECT CASE WHEN p.ha THEN @extschema@.html_text(a) ELSE a END AS ta,
					 CASE WHEN p.hb THEN @extschema@.html_text(b) ELSE b END AS tb) t,
	 LATERAL (SELECT @extschema@.textfp_strip_boilerplate(t.ta, boilerplate) AS sa,
					 @extschema@.textfp_strip_boilerplate(t.tb, boilerplate) AS sb) s,
	 LATERAL @extschema@.textfp_match(
		CASE WHEN pg_catalog.cardinality(@extschema@.textfp_line_hashes(s.sa)) OPERATOR(pg_catalog.=) 0
			 THEN t.ta ELSE s.sa END,
		CASE WHEN pg_catalog.cardinality(@extschema@.textfp_line_hashes(s.sb)) OPERATOR(pg_catalog.=) 0
			 THEN t.tb ELSE s.sb END,
		-- the texts are read already: 'never', but a bad html value goes
		-- to the original, for its error
		CASE WHEN html OPERATOR(pg_catalog.=) ANY ('{auto,always,never}'::text[]) THEN 'never' ELSE html END,
		model) m
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_match(text, text, @extschema@.textfp_boilerplate, text, int4)
	IS 'textfp_match of the two texts without their boilerplate lines (pages read with html_text first)';
--
-- New arrivals against the corpus: textfp_check_arrivals() checks a batch
-- of new rows against an indexed corpus table and records the matches in a
-- match table of the user's (textfp_create_match_table() makes one), once
-- per (new row, matched row, method): a re-run writes nothing new.  The
-- trigger function textfp_duplicate_of() fills a duplicate_of column at
-- INSERT/UPDATE time.  All are plain SQL run with the caller's privileges;
-- dynamic statements name the extension's operators and functions with
-- their schema, so they work wherever the extension is installed and
-- whatever the caller's search_path.  textfp_check_arrivals and the trigger
-- run with search_path pg_catalog, pg_temp, so that nothing in a schema
-- the caller searches can stand in for a built-in operator or function
-- (test/t/115_hostile_search_path.pl); only the caller's own query is
-- parsed with the caller's search_path.
--

CREATE FUNCTION @extschema@.textfp_create_match_table(name text)
	RETURNS regclass
	LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
AS $fn$
DECLARE
	parts text[] := pg_catalog.parse_ident(name);
	qname text;
BEGIN
	IF pg_catalog.cardinality(parts) OPERATOR(pg_catalog.>) 2 THEN
		RAISE EXCEPTION 'match table name "%" has too many parts', name
			USING ERRCODE = '42601', DETAIL = 'Give a table name, optionally with its schema.';
	END IF;
	SELECT pg_catalog.string_agg(pg_catalog.quote_ident(p), '.' ORDER BY o)
		INTO qname FROM pg_catalog.unnest(parts) WITH ORDINALITY AS u(p, o);
	EXECUTE pg_catalog.format($ddl$
		CREATE TABLE %1$s (
			new_id     bigint NOT NULL,
			matched_id bigint NOT NULL,
			method     text NOT NULL,
			distance   int4,
			similarity float8,
			matched_at timestamptz NOT NULL DEFAULT now(),
			PRIMARY KEY (new_id, matched_id, method)
		)$ddl$, qname);
	EXECUTE pg_catalog.format('CREATE INDEX ON %s (matched_id)', qname);
	EXECUTE pg_catalog.format($c$COMMENT ON TABLE %s IS 'textfp match store: new_id matched matched_id by method (distance in bits for simhash, similarity 0..1), first recorded at matched_at'$c$,
							  qname);
	RETURN qname::regclass;
END
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_create_match_table(text)
	IS 'create a match table for textfp_check_arrivals (new_id, matched_id, method, distance, similarity, matched_at)';

CREATE FUNCTION @extschema@.textfp_duplicate_of()
	RETURNS trigger
	LANGUAGE plpgsql
	SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	fp_column name;
	radius int4;
	dup_column name := 'duplicate_of';
	id_column name := 'id';
	ext text := (SELECT e.extnamespace::regnamespace::text FROM pg_catalog.pg_extension e
				 WHERE e.extname = 'textfp');
	root regclass := coalesce(pg_catalog.pg_partition_root(TG_RELID), TG_RELID);
	expr text;
	gen "char";
	t regtype;
	dup bigint;
BEGIN
	PERFORM @extschema@.textfp_refuse_citus(TG_RELID, 'the trigger textfp_duplicate_of', 'It would search one shard only. On Citus, set duplicate_of after the insert with a radius search over the whole table: docs/citus.md, "New arrivals".');
	IF TG_LEVEL <> 'ROW' OR TG_WHEN <> 'BEFORE' OR TG_OP NOT IN ('INSERT', 'UPDATE') THEN
		RAISE EXCEPTION 'textfp_duplicate_of must be fired BEFORE INSERT OR UPDATE FOR EACH ROW'
			USING ERRCODE = '39P01';
	END IF;
	IF TG_NARGS < 2 OR TG_NARGS > 4 THEN
		RAISE EXCEPTION 'textfp_duplicate_of takes 2 to 4 trigger arguments, not %', TG_NARGS
			USING ERRCODE = '22023',
				  DETAIL = 'The arguments are the fingerprint column, the radius in bits, and optionally the duplicate_of column and the id column.';
	END IF;
	fp_column := TG_ARGV[0];
	IF TG_ARGV[1] !~ '^[0-9]{1,2}$' OR TG_ARGV[1]::int4 > 64 THEN
		RAISE EXCEPTION 'textfp_duplicate_of: the radius must be a number of bits from 0 to 64, not "%"', TG_ARGV[1]
			USING ERRCODE = '22023';
	END IF;
	radius := TG_ARGV[1]::int4;
	IF TG_NARGS >= 3 THEN dup_column := TG_ARGV[2]; END IF;
	IF TG_NARGS >= 4 THEN id_column := TG_ARGV[3]; END IF;

	-- the columns: a simhash64 fingerprint, integer id and duplicate_of
	SELECT (CASE ty.typtype WHEN 'd' THEN ty.typbasetype ELSE ty.oid END)::regtype, a.attgenerated, pg_catalog.pg_get_expr(d.adbin, d.adrelid)
		INTO t, gen, expr
	FROM pg_catalog.pg_attribute a
	JOIN pg_catalog.pg_type ty ON ty.oid = a.atttypid
	LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
	WHERE a.attrelid = TG_RELID AND a.attname = fp_column AND a.attnum > 0 AND NOT a.attisdropped;
	IF t IS NULL OR t <> pg_catalog.to_regtype(ext || '.simhash64') THEN
		RAISE EXCEPTION 'textfp_duplicate_of: relation % has no simhash64 column "%"', TG_RELID::regclass, fp_column
			USING ERRCODE = '42703';
	END IF;
	IF dup_column = id_column OR
	   (SELECT pg_catalog.count(*)
		FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type ty ON ty.oid = a.atttypid
		WHERE a.attrelid = TG_RELID AND a.attname IN (dup_column, id_column) AND a.attnum > 0
		  AND NOT a.attisdropped
		  AND (CASE ty.typtype WHEN 'd' THEN ty.typbasetype ELSE ty.oid END)::regtype IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype)) <> 2 THEN
		RAISE EXCEPTION 'textfp_duplicate_of: relation % needs an integer id column "%" and another integer column "%"',
			TG_RELID::regclass, id_column, dup_column
			USING ERRCODE = '42703', DETAIL = 'The nearest row''s id is written into the second.';
	END IF;

	-- in one statement: the new row's fingerprint (a generated column is
	-- not computed yet in a BEFORE trigger, so its expression is evaluated
	-- on the row), then the nearest other row within the radius (the
	-- smallest id of the nearest) in the whole table (from a partition: its
	-- root)
	EXECUTE pg_catalog.format(
		'SELECT (SELECT t.%1$I FROM %2$s t
				 WHERE t.%3$I OPERATOR(%4$s.<@) %4$s.simhash_ball(q.fp, $2) AND t.%1$I IS DISTINCT FROM q.id
				 ORDER BY %4$s.simhash_dist(t.%3$I, q.fp), t.%1$I LIMIT 1)
		 FROM (SELECT %5$s AS fp, n.%1$I AS id FROM (SELECT ($1).*) AS n) AS q',
		id_column, root, fp_column, ext,
		CASE WHEN gen = 's' THEN expr ELSE pg_catalog.format('n.%I', fp_column) END)
		USING NEW, radius INTO dup;
	NEW := pg_catalog.jsonb_populate_record(NEW, pg_catalog.jsonb_build_object(dup_column, dup));
	RETURN NEW;
END
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_duplicate_of()
	IS 'trigger (BEFORE INSERT OR UPDATE, FOR EACH ROW; arguments fp_column, radius [, duplicate_of_column [, id_column]]): set duplicate_of to the nearest other row within the radius (smallest id on ties), or NULL';

-- textfp_check_arrivals() (64_arrivals.sql has the match table and the
-- trigger): a fragment of its own, since 1.2 redefines it (the passages
-- method): the 1.1 -> 1.2 update drops the 1.1 definition and runs this.

CREATE FUNCTION @extschema@.textfp_check_arrivals(
		new_rows text,
		corpus regclass,
		matches regclass,
		methods text[] DEFAULT ARRAY['simhash'],
		id_column name DEFAULT 'id',
		simhash_column name DEFAULT NULL,
		radius int4 DEFAULT 3,
		simhash_search text DEFAULT 'auto',
		minhash_column name DEFAULT NULL,
		min_jaccard float8 DEFAULT 0.5,
		dna_column name DEFAULT NULL,
		min_shared int4 DEFAULT 2,
		min_dna_similarity float8 DEFAULT 0,
		text_column name DEFAULT NULL,
		min_shingle_jaccard float8 DEFAULT 0.3,
		query_search_path text DEFAULT pg_catalog.current_setting('search_path'),
		boilerplate @extschema@.textfp_boilerplate DEFAULT NULL,
		passage_min_length int4 DEFAULT 40,
		passage_max_sources int4 DEFAULT 10)
	RETURNS TABLE (method text, rows_checked bigint, matches_found bigint, matches_written bigint)
	LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
	-- its statements are index searches and short joins whose cost
	-- estimates can be large: JIT compilation would only add seconds
	SET jit = off
	-- its own statements resolve names in pg_catalog only; the caller's
	-- query new_rows is parsed with query_search_path (by default the
	-- caller's search_path: a default is evaluated before the SET applies)
	SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	-- the extension's schema, quoted: dynamic statements name its objects
	ext text := (SELECT e.extnamespace::regnamespace::text FROM pg_catalog.pg_extension e
				 WHERE e.extname = 'textfp');
	-- methods that look candidates up in an index of the corpus, and those
	-- that verify the candidates recorded for the new rows
	index_methods constant text[] := ARRAY['simhash', 'minhash', 'pinyin_dna', 'passages'];
	verify_methods constant text[] := ARRAY['shingle_jaccard', 'textfp_match'];
	method_list constant text := 'Methods are simhash, minhash, pinyin_dna, passages (index look-ups), shingle_jaccard and textfp_match (verification of their candidates).';
	todo text[];
	todo_cols name[] := '{}';
	m text;
	i int4;
	col name;
	cols name[];
	want regtype;
	coltype regtype;
	idtype regtype;
	batch text;
	found_sql text;
	candidates text;
	keep text;
	sql text;
	n_rows bigint;
	n_found bigint;
	n_written bigint;
	n_corpus bigint;
	n_batch bigint;
	all_in_corpus boolean;
	search text;
	old_threshold text;
	-- the function's own search_path (its SET clause), restored after the
	-- caller's query is parsed with query_search_path
	own_path constant text := pg_catalog.current_setting('search_path');
	progress boolean := coalesce(pg_catalog.current_setting('textfp.progress', true), 'off') = 'on';
	-- corpus or matches is a Citus table: the same searches in statements
	-- Citus can plan (src/sql/79_citus_arrivals.sql, docs/citus.md)
	citus boolean;
	step record;
BEGIN
	citus := @extschema@.textfp_citus_arrivals_mode(corpus, matches);
	IF corpus IS NULL OR matches IS NULL OR methods IS NULL OR id_column IS NULL THEN
		RAISE EXCEPTION 'textfp_check_arrivals: corpus, matches, methods and id_column must not be NULL'
			USING ERRCODE = '22004',
				  DETAIL = 'new_rows may be NULL: then every row of the corpus is checked against the others.';
	END IF;
	IF query_search_path IS NULL THEN
		RAISE EXCEPTION 'textfp_check_arrivals: query_search_path must not be NULL'
			USING ERRCODE = '22004',
				  DETAIL = 'It is the search_path with which the query new_rows is parsed: by default the caller''s.';
	END IF;
	IF pg_catalog.cardinality(methods) = 0 THEN
		RAISE EXCEPTION 'textfp_check_arrivals: no method given' USING ERRCODE = '22023', DETAIL = method_list;
	END IF;
	FOREACH m IN ARRAY methods LOOP
		IF m IS NULL OR NOT (m = ANY (index_methods || verify_methods)) THEN
			RAISE EXCEPTION 'textfp_check_arrivals: unknown method "%"', m
				USING ERRCODE = '22023', DETAIL = method_list;
		END IF;
	END LOOP;
	-- index methods first, then verifying ones, each once
	SELECT pg_catalog.array_agg(x ORDER BY x = ANY (verify_methods), pg_catalog.array_position(methods, x))
		INTO todo FROM (SELECT DISTINCT x FROM pg_catalog.unnest(methods) AS u(x)) d;
	IF 'simhash' = ANY (todo) AND (radius IS NULL OR radius < 0 OR radius > 64) THEN
		RAISE EXCEPTION 'radius must be between 0 and 64, not %', coalesce(radius::text, 'NULL')
			USING ERRCODE = '22023', DETAIL = 'The radius is the largest Hamming distance of a match, in bits.';
	END IF;
	IF 'simhash' = ANY (todo) AND (simhash_search IS NULL OR simhash_search NOT IN ('auto', 'index', 'scan')) THEN
		RAISE EXCEPTION 'simhash_search must be auto, index or scan, not %', coalesce(simhash_search, 'NULL')
			USING ERRCODE = '22023',
				  DETAIL = 'index: one index search per new row; scan: one all-pairs search (simhash_pairs) over the corpus and the new rows; auto: the cheaper by an estimate.';
	END IF;
	IF 'minhash' = ANY (todo) AND (min_jaccard IS NULL OR NOT (min_jaccard > 0 AND min_jaccard <= 1)) THEN
		RAISE EXCEPTION 'min_jaccard must be greater than 0 and at most 1, not %', coalesce(min_jaccard::text, 'NULL')
			USING ERRCODE = '22023', DETAIL = 'It is the least estimated Jaccard similarity of a match.';
	END IF;
	IF 'pinyin_dna' = ANY (todo) AND (min_shared IS NULL OR min_shared < 1) THEN
		RAISE EXCEPTION 'min_shared must be at least 1, not %', coalesce(min_shared::text, 'NULL')
			USING ERRCODE = '22023', DETAIL = 'It is the least number of window DNAs a match shares.';
	END IF;
	IF 'pinyin_dna' = ANY (todo) AND (min_dna_similarity IS NULL OR NOT (min_dna_similarity BETWEEN 0 AND 1)) THEN
		RAISE EXCEPTION 'min_dna_similarity must be between 0 and 1, not %', coalesce(min_dna_similarity::text, 'NULL')
			USING ERRCODE = '22023', DETAIL = 'It is the least Jaccard similarity of the window DNA sets of a match.';
	END IF;
	IF 'passages' = ANY (todo) AND (passage_min_length IS NULL OR passage_min_length < 1) THEN
		RAISE EXCEPTION 'passage_min_length must be at least 1, not %', coalesce(passage_min_length::text, 'NULL')
			USING ERRCODE = '22023', DETAIL = 'It is the shortest copied passage recorded, in Han characters (a word counts as two).';
	END IF;
	IF 'passages' = ANY (todo) AND (passage_max_sources IS NULL OR passage_max_sources < 1) THEN
		RAISE EXCEPTION 'passage_max_sources must be at least 1, not %', coalesce(passage_max_sources::text, 'NULL')
			USING ERRCODE = '22023', DETAIL = 'It is the number of sources recorded per new row, those it copies most from first.';
	END IF;
	IF 'shingle_jaccard' = ANY (todo) AND (min_shingle_jaccard IS NULL OR NOT (min_shingle_jaccard BETWEEN 0 AND 1)) THEN
		RAISE EXCEPTION 'min_shingle_jaccard must be between 0 and 1, not %', coalesce(min_shingle_jaccard::text, 'NULL')
			USING ERRCODE = '22023', DETAIL = 'It is the least exact Jaccard similarity of the shingle sets of a match.';
	END IF;

	-- the corpus's id column: an integer
	SELECT (CASE ty.typtype WHEN 'd' THEN ty.typbasetype ELSE ty.oid END)::regtype INTO idtype
	FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type ty ON ty.oid = a.atttypid
	WHERE a.attrelid = corpus AND a.attname = id_column AND a.attnum > 0 AND NOT a.attisdropped;
	IF idtype IS NULL THEN
		RAISE EXCEPTION 'column "%" of relation % does not exist', id_column, corpus
			USING ERRCODE = '42703', HINT = 'Name the corpus''s id column with id_column.';
	END IF;
	IF idtype NOT IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype) THEN
		RAISE EXCEPTION 'textfp_check_arrivals: the id column "%" must be of an integer type, not %', id_column, idtype
			USING ERRCODE = '42804', DETAIL = 'Match records hold bigint ids.';
	END IF;
	-- the match table: its columns, and the unique key ON CONFLICT needs
	SELECT pg_catalog.string_agg(pg_catalog.quote_ident(c), ', ' ORDER BY o) INTO sql
	FROM pg_catalog.unnest(ARRAY['new_id', 'matched_id', 'method', 'distance', 'similarity', 'matched_at'])
		WITH ORDINALITY AS u(c, o)
	WHERE NOT EXISTS (SELECT FROM pg_catalog.pg_attribute a WHERE a.attrelid = matches AND a.attname = u.c
					  AND a.attnum > 0 AND NOT a.attisdropped);
	IF sql IS NOT NULL THEN
		RAISE EXCEPTION 'relation % is not a match table: no column %', matches, sql
			USING ERRCODE = '42703',
				  DETAIL = 'A match table has the columns new_id, matched_id, method, distance, similarity and matched_at.',
				  HINT = 'Make one with textfp_create_match_table(name).';
	END IF;
	IF NOT EXISTS (
		SELECT FROM pg_catalog.pg_index x
		WHERE x.indrelid = matches AND x.indisunique AND x.indpred IS NULL AND x.indexprs IS NULL
		  AND x.indnatts = 3
		  AND (SELECT pg_catalog.array_agg(a.attname::text ORDER BY a.attname)
			   FROM pg_catalog.pg_attribute a
			   WHERE a.attrelid = matches AND a.attnum = ANY (x.indkey::int2[]))
			  = ARRAY['matched_id', 'method', 'new_id']) THEN
		RAISE EXCEPTION 'match table % has no unique key on (new_id, matched_id, method)', matches
			USING ERRCODE = '42P10',
				  DETAIL = 'Records are written once per pair and method (INSERT ... ON CONFLICT), so that a re-run adds nothing.',
				  HINT = 'Make one with textfp_create_match_table(name), or add PRIMARY KEY (new_id, matched_id, method).';
	END IF;

	-- the column of each method: named, or the corpus's only column of its
	-- type (for pinyin_dna: the only int8[] column with a pinyin_dna_ops
	-- index, or the only int8[] column)
	FOREACH m IN ARRAY todo LOOP
		col := CASE m WHEN 'simhash' THEN simhash_column WHEN 'minhash' THEN minhash_column
					  WHEN 'pinyin_dna' THEN dna_column ELSE text_column END;
		want := CASE m WHEN 'simhash' THEN pg_catalog.to_regtype(ext || '.simhash64')
					   WHEN 'minhash' THEN pg_catalog.to_regtype(ext || '.minhash')
					   WHEN 'pinyin_dna' THEN 'int8[]'::regtype ELSE 'text'::regtype END;
		IF col IS NOT NULL THEN
			SELECT (CASE ty.typtype WHEN 'd' THEN ty.typbasetype ELSE ty.oid END)::regtype INTO coltype
			FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type ty ON ty.oid = a.atttypid
			WHERE a.attrelid = corpus AND a.attname = col AND a.attnum > 0 AND NOT a.attisdropped;
			IF coltype IS NULL THEN
				RAISE EXCEPTION 'column "%" of relation % does not exist', col, corpus USING ERRCODE = '42703';
			END IF;
			IF coltype <> want AND NOT (want = 'text'::regtype AND coltype = 'varchar'::regtype) THEN
				RAISE EXCEPTION 'textfp_check_arrivals: method % needs a column of type %, and "%" is %', m, want, col, coltype
					USING ERRCODE = '42804';
			END IF;
		ELSIF m = ANY (verify_methods) OR m = 'passages' THEN
			RAISE EXCEPTION 'textfp_check_arrivals: method % needs text_column', m
				USING ERRCODE = '22023', DETAIL = CASE WHEN m = 'passages'
					THEN 'It searches the passage index of the corpus''s text column with the new row''s text.'
					ELSE 'It compares the texts of the new row and of the matched row.' END;
		ELSE
			SELECT pg_catalog.array_agg(a.attname ORDER BY a.attnum) INTO cols
			FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type ty ON ty.oid = a.atttypid
			WHERE a.attrelid = corpus AND a.attnum > 0 AND NOT a.attisdropped
			  AND (CASE ty.typtype WHEN 'd' THEN ty.typbasetype ELSE ty.oid END)::regtype = want;
			IF m = 'pinyin_dna' AND pg_catalog.cardinality(cols) > 1 THEN
				SELECT pg_catalog.array_agg(DISTINCT a.attname) INTO cols
				FROM pg_catalog.pg_index x
				JOIN pg_catalog.pg_opclass o ON o.oid = x.indclass[0]
				JOIN pg_catalog.pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = x.indkey[0]
				WHERE (x.indrelid = corpus OR x.indrelid IN (SELECT t.relid FROM pg_catalog.pg_partition_tree(corpus) t))
				  AND o.opcname = 'pinyin_dna_ops'
				  AND o.opcnamespace = (SELECT e.extnamespace FROM pg_catalog.pg_extension e WHERE e.extname = 'textfp')
				  AND a.attname = ANY (cols);
			END IF;
			IF coalesce(pg_catalog.cardinality(cols), 0) <> 1 THEN
				RAISE EXCEPTION 'textfp_check_arrivals: relation % has % columns for method %', corpus,
					CASE WHEN cols IS NULL THEN 'no' ELSE 'several' END, m
					USING ERRCODE = '22023',
						  DETAIL = pg_catalog.format('Method %s reads a column of type %s%s.', m, want,
								CASE WHEN cols IS NULL THEN '' ELSE ': ' || pg_catalog.array_to_string(cols, ', ') END),
						  HINT = pg_catalog.format('Name it with %s.', CASE m WHEN 'simhash' THEN 'simhash_column'
								WHEN 'minhash' THEN 'minhash_column' ELSE 'dna_column' END);
			END IF;
			col := cols[1];
		END IF;
		todo_cols := todo_cols || col;
	END LOOP;

	-- the new rows, once: their ids and the methods' columns, in a
	-- temporary table with an index on the ids (the rule below looks ids up)
	IF new_rows IS NOT NULL THEN
		new_rows := pg_catalog.rtrim(new_rows, E'; \t\r\n');
		SELECT pg_catalog.string_agg(pg_catalog.format('b.%I AS %I', c, t), ', ' ORDER BY o) INTO sql
		FROM ROWS FROM (pg_catalog.unnest(todo_cols), pg_catalog.unnest(todo)) WITH ORDINALITY AS u(c, t, o);
		IF pg_catalog.to_regclass('pg_temp.textfp_arrivals_batch') IS NOT NULL THEN
			DROP TABLE pg_temp.textfp_arrivals_batch;
		END IF;
		PERFORM pg_catalog.set_config('search_path', query_search_path, true);
		EXECUTE pg_catalog.format('CREATE TEMP TABLE textfp_arrivals_batch ON COMMIT DROP AS
								   SELECT b.%1$I AS id, %2$s FROM (%3$s) AS b WHERE b.%1$I IS NOT NULL',
								  id_column, sql, new_rows);
		PERFORM pg_catalog.set_config('search_path', own_path, true);
		-- which new rows are rows of the corpus (rather than staged)
		ALTER TABLE pg_temp.textfp_arrivals_batch ADD COLUMN in_corpus boolean NOT NULL DEFAULT false;
		IF citus THEN
			-- the batch's ids sent to the workers (a materialized CTE)
			EXECUTE pg_catalog.format('WITH k AS MATERIALIZED (SELECT DISTINCT b.id FROM pg_temp.textfp_arrivals_batch b),
											h AS MATERIALIZED (SELECT c.%1$I AS id FROM %2$s c JOIN k ON k.id = c.%1$I)
									   UPDATE pg_temp.textfp_arrivals_batch SET in_corpus = true
									   WHERE id IN (SELECT h.id FROM h)', id_column, corpus);
		ELSE
			EXECUTE pg_catalog.format('UPDATE pg_temp.textfp_arrivals_batch SET in_corpus = true
									   WHERE id IN (SELECT c.%I FROM %s c)', id_column, corpus);
		END IF;
		CREATE INDEX ON pg_temp.textfp_arrivals_batch (id);
		ANALYZE pg_temp.textfp_arrivals_batch;
		SELECT pg_catalog.count(*) INTO n_batch FROM pg_temp.textfp_arrivals_batch;
	END IF;

	FOR i IN 1 .. pg_catalog.cardinality(todo) LOOP
		m := todo[i];
		col := todo_cols[i];
		-- the new rows with a value for the method: (id, v); or every row of
		-- the corpus
		IF new_rows IS NOT NULL THEN
			batch := pg_catalog.format('SELECT b.id, b.%1$I AS v, b.in_corpus FROM pg_temp.textfp_arrivals_batch b WHERE b.%1$I IS NOT NULL', m);
		ELSE
			batch := pg_catalog.format('SELECT c.%1$I AS id, c.%2$I AS v, true AS in_corpus FROM %3$s c WHERE c.%1$I IS NOT NULL AND c.%2$I IS NOT NULL',
									   id_column, col, corpus::text);
		END IF;
		candidates := pg_catalog.format(
			'(SELECT DISTINCT r.new_id, r.matched_id FROM %1$s r WHERE r.method <> ALL (%2$L::text[])) k
			 JOIN batch n ON n.id = k.new_id
			 JOIN %3$s c ON c.%4$I = k.matched_id',
			matches::text, verify_methods, corpus::text, id_column);
		IF citus AND m = ANY (verify_methods) AND new_rows IS NOT NULL THEN
			-- on Citus, the batch is the candidates of the new rows with the
			-- new row's text (k.v), each joined with the corpus on the shard
			-- of its matched row
			EXECUTE pg_catalog.format('SELECT pg_catalog.count(*) FROM pg_temp.textfp_arrivals_batch b WHERE b.%I IS NOT NULL', m)
				INTO n_rows;
			IF pg_catalog.to_regclass('pg_temp.textfp_arrivals_cand') IS NOT NULL THEN
				DROP TABLE pg_temp.textfp_arrivals_cand;
			END IF;
			EXECUTE pg_catalog.format(
				'CREATE TEMP TABLE textfp_arrivals_cand ON COMMIT DROP AS
				 WITH k AS MATERIALIZED (SELECT DISTINCT b.id FROM pg_temp.textfp_arrivals_batch b WHERE b.%2$I IS NOT NULL),
					  r AS MATERIALIZED (SELECT DISTINCT r.new_id, r.matched_id FROM %1$s r JOIN k ON k.id = r.new_id
										 WHERE r.method <> ALL (%3$L::text[]))
				 SELECT r.new_id, r.matched_id, b.%2$I AS v
				 FROM r JOIN pg_temp.textfp_arrivals_batch b ON b.id = r.new_id WHERE b.%2$I IS NOT NULL',
				matches::text, m, verify_methods);
			batch := 'SELECT x.new_id, x.matched_id, x.v FROM pg_temp.textfp_arrivals_cand x';
			-- (the matched ids written in: Citus prunes the shards, and each
			-- shard reads its rows by its id index rather than all its texts)
			candidates := pg_catalog.format(
				'batch k JOIN %1$s c ON c.%2$I = k.matched_id AND c.%2$I = ANY (%3$L::bigint[])
				 CROSS JOIN LATERAL (SELECT k.v) AS n(v)',
				corpus::text, id_column,
				coalesce((SELECT pg_catalog.array_agg(DISTINCT x.matched_id) FROM pg_temp.textfp_arrivals_cand x), '{}'));
		END IF;
		CASE m
		WHEN 'simhash' THEN
			-- are all new rows rows of the corpus, with the same fingerprint?
			-- (today's rows of the corpus: then the all-pairs search reads
			-- the corpus's heap directly, below)
			IF new_rows IS NOT NULL AND simhash_search <> 'index' AND citus THEN
				EXECUTE pg_catalog.format(
					'WITH k AS MATERIALIZED (SELECT DISTINCT b.id, b.simhash FROM pg_temp.textfp_arrivals_batch b WHERE b.simhash IS NOT NULL),
						  h AS MATERIALIZED (SELECT DISTINCT k.id, k.simhash FROM %s c JOIN k ON k.id = c.%I AND c.%I OPERATOR(%s.=) k.simhash)
					 SELECT (SELECT pg_catalog.count(*) FROM k) = (SELECT pg_catalog.count(*) FROM h)',
					corpus, id_column, col, ext) INTO all_in_corpus;
			ELSIF new_rows IS NOT NULL AND simhash_search <> 'index' THEN
				EXECUTE pg_catalog.format(
					'SELECT NOT EXISTS (SELECT FROM pg_temp.textfp_arrivals_batch b WHERE b.simhash IS NOT NULL
					   AND NOT EXISTS (SELECT FROM %s c WHERE c.%I = b.id AND c.%I OPERATOR(%s.=) b.simhash))',
					corpus, id_column, col, ext) INTO all_in_corpus;
			END IF;
			search := simhash_search;
			IF search = 'auto' AND citus THEN
				-- on Citus: each shard searches its index for the new rows;
				-- the whole corpus (no new rows) by simhash_pairs (the
				-- coordinator reads the fingerprints: a self-join of the
				-- corpus on the distance is beyond Citus)
				search := CASE WHEN new_rows IS NULL AND radius <= 32 THEN 'scan' ELSE 'index' END;
			ELSIF search = 'auto' THEN
				-- an index search per new row against an all-pairs search
				-- over the corpus (its rows must fit in maintenance_work_mem,
				-- 16 bytes each): measured by test/bench/arrivals.sh, a search
				-- costs as much as sorting about 300 corpus rows at radii up
				-- to 4 when the heap is read directly, 60 when the corpus is
				-- read through a query, and 1,000 at larger radii
				SELECT pg_catalog.sum(greatest(c.reltuples, 0))::bigint INTO n_corpus FROM pg_catalog.pg_class c
				WHERE c.oid = corpus OR c.oid IN (SELECT t.relid FROM pg_catalog.pg_partition_tree(corpus) t);
				search := CASE WHEN radius <= 32
									AND (new_rows IS NULL
										 OR n_batch * CASE WHEN radius > 4 THEN 1000 WHEN all_in_corpus THEN 300 ELSE 60 END
											>= n_corpus)
									AND (n_corpus + coalesce(n_batch, 0)) * 20 <
										(SELECT g.setting::bigint * 1024 FROM pg_catalog.pg_settings g
										 WHERE g.name = 'maintenance_work_mem')
							   THEN 'scan' ELSE 'index' END;
			END IF;
			IF search = 'scan' AND radius > 32 THEN
				RAISE EXCEPTION 'textfp_check_arrivals: simhash_search => scan works up to radius 32, not %', radius
					USING ERRCODE = '22023', DETAIL = 'It is simhash_pairs'' limit.';
			END IF;
			IF search = 'scan' AND new_rows IS NULL THEN
				-- all pairs of the corpus, each once, the larger id as the new row
				found_sql := pg_catalog.format(
					'SELECT p.id_b AS new_id, p.id_a AS matched_id, p.distance, 1 - p.distance / 64.0::float8 AS similarity,
							true AS new_in_corpus
					 FROM %1$s.simhash_pairs(%2$L::regclass, %3$L, %4$L, %5$s) AS p',
					ext, corpus::text, id_column, col, radius);
			ELSIF search = 'scan' THEN
				-- all pairs of the corpus's rows and the new rows (a new row's
				-- own version instead of the corpus's), kept where a new row
				-- meets a corpus row: the new row, or of two new rows of the
				-- corpus the larger id, is new_id; two staged rows never pair.
				-- When every new row is a row of the corpus with the same
				-- fingerprint (today's rows of the corpus), the pairs of the
				-- corpus alone are those pairs, and its heap is read directly.
				found_sql := pg_catalog.format(
					'SELECT x.new_id, x.matched_id, p.distance, 1 - p.distance / 64.0::float8 AS similarity, x.new_in_corpus
					 FROM %1$s.simhash_pairs(%2$s, %3$s) AS p
					 LEFT JOIN batch a ON a.id = p.id_a
					 LEFT JOIN batch b ON b.id = p.id_b
					 CROSS JOIN LATERAL (SELECT
						CASE WHEN b.id IS NOT NULL AND (a.id IS NULL OR a.in_corpus) THEN p.id_b ELSE p.id_a END AS new_id,
						CASE WHEN b.id IS NOT NULL AND (a.id IS NULL OR a.in_corpus) THEN p.id_a ELSE p.id_b END AS matched_id,
						CASE WHEN b.id IS NOT NULL AND (a.id IS NULL OR a.in_corpus) THEN b.in_corpus ELSE a.in_corpus END AS new_in_corpus) x
					 WHERE (a.id IS NOT NULL OR b.id IS NOT NULL)
					   AND NOT (a.id IS NOT NULL AND b.id IS NOT NULL AND NOT a.in_corpus AND NOT b.in_corpus)',
					ext,
					CASE WHEN all_in_corpus
						 THEN pg_catalog.format('%L::regclass, %L, %L', corpus::text, id_column, col)
						 WHEN citus THEN pg_catalog.quote_literal(pg_catalog.format(
							'WITH o AS MATERIALIZED (SELECT DISTINCT b.id FROM pg_temp.textfp_arrivals_batch b)
							 SELECT c.%1$I, c.%2$I FROM %3$s c LEFT JOIN o ON o.id = c.%1$I WHERE o.id IS NULL
							 UNION ALL SELECT b.id, b.simhash FROM pg_temp.textfp_arrivals_batch b',
							id_column, col, corpus::text))
						 ELSE pg_catalog.quote_literal(pg_catalog.format(
							'SELECT c.%1$I, c.%2$I FROM %3$s c WHERE NOT EXISTS (SELECT FROM pg_temp.textfp_arrivals_batch o WHERE o.id = c.%1$I)
							 UNION ALL SELECT b.id, b.simhash FROM pg_temp.textfp_arrivals_batch b',
							id_column, col, corpus::text)) END,
					radius);
			ELSE
				found_sql := pg_catalog.format(
					'SELECT n.id AS new_id, c.%1$I AS matched_id, %2$s.simhash_dist(n.v, c.%3$I) AS distance,
					        1 - %2$s.simhash_dist(n.v, c.%3$I) / 64.0::float8 AS similarity, n.in_corpus AS new_in_corpus
					 FROM batch n JOIN %4$s c ON c.%3$I OPERATOR(%2$s.<@) %2$s.simhash_ball(n.v, %5$s)',
					id_column, ext, col, corpus::text, radius);
			END IF;
		WHEN 'minhash' THEN
			-- (on Citus the threshold travels in the operand: the workers do
			-- not see the setting; the same rows, docs/citus.md)
			found_sql := pg_catalog.format(
				'SELECT n.id AS new_id, c.%1$I AS matched_id, NULL::int4 AS distance,
				        %2$s.minhash_jaccard(n.v, c.%3$I) AS similarity, n.in_corpus AS new_in_corpus
				 FROM batch n JOIN %4$s c ON c.%3$I OPERATOR(%2$s.%%) %5$s',
				id_column, ext, col, corpus::text,
				CASE WHEN citus THEN pg_catalog.format('%s.minhash_query(n.v, %s)', ext, min_jaccard) ELSE 'n.v' END);
		WHEN 'pinyin_dna' THEN
			found_sql := pg_catalog.format(
				'SELECT * FROM (
				   SELECT n.id AS new_id, c.%1$I AS matched_id, NULL::int4 AS distance,
				          %2$s.pinyin_dna_similarity(n.v, c.%3$I) AS similarity, n.in_corpus AS new_in_corpus
				   FROM batch n JOIN %4$s c ON c.%3$I OPERATOR(%2$s.%%&) %2$s.pinyin_dna_query(n.v, %5$s)) s
				 WHERE s.similarity >= %6$s',
				id_column, ext, col, corpus::text, min_shared, min_dna_similarity);
		WHEN 'passages' THEN
			-- partial copies: the sources of each new row's text (its
			-- passages found in other rows, textfp_sources through the
			-- corpus's passage index; on PostgreSQL 13 and 14, which have no
			-- passage method, by reading the corpus), recorded with the
			-- share of the new row they cover as similarity and their
			-- number of passages as distance; the new row itself, a source
			-- of itself when it is in the corpus, takes one of the sources
			found_sql := pg_catalog.format(
				'SELECT n.id AS new_id, s.source_id AS matched_id, s.source_passages AS distance,
				        s.share AS similarity, n.in_corpus AS new_in_corpus
				 FROM batch n CROSS JOIN LATERAL %1$s.textfp_sources(n.v, %2$L::regclass, %3$L, %4$L,
				        min_length => %5$s, max_sources => %6$s, boilerplate => $1,
				        use_index => %7$L) s
				 WHERE s.passage = 1',
				ext, corpus::text, id_column, col, passage_min_length, passage_max_sources + 1,
				pg_catalog.current_setting('server_version_num')::int4 >= 150000);
		WHEN 'shingle_jaccard' THEN
			IF citus AND new_rows IS NULL THEN
				found_sql := pg_catalog.format(
					'SELECT v.id_b AS new_id, v.id_a AS matched_id, NULL::int4 AS distance, v.score AS similarity, false AS new_in_corpus
					 FROM %1$s.textfp_verify_pairs_by(%2$L, %3$L::regclass, %4$L, %5$L, %6$L, %7$s, NULL, %8$L) v WHERE v.verdict',
					ext, pg_catalog.format('SELECT DISTINCT r.matched_id AS id_a, r.new_id AS id_b FROM %s r WHERE r.method <> ALL (%L::text[])',
										   matches::text, verify_methods),
					corpus::text, col, id_column, m, min_shingle_jaccard, own_path);
			ELSE
			-- the texts of the candidates the index methods recorded for
			-- these rows, as they were recorded: n.v the new row's, c.%I
			-- the corpus row's
			found_sql := pg_catalog.format(
				'SELECT * FROM (
				   SELECT k.new_id, k.matched_id, NULL::int4 AS distance,
				          %1$s.shingle_jaccard(n.v, c.%2$I) AS similarity, false AS new_in_corpus
				   FROM %3$s) s
				 WHERE s.similarity >= %4$s',
				ext, col, candidates, min_shingle_jaccard);
			END IF;
		WHEN 'textfp_match' THEN
			IF citus AND new_rows IS NULL THEN
				-- on Citus, the pairs of two corpus rows: two co-located steps
				found_sql := pg_catalog.format(
					'SELECT v.id_b AS new_id, v.id_a AS matched_id, NULL::int4 AS distance, v.score AS similarity, false AS new_in_corpus
					 FROM %1$s.textfp_verify_pairs_by(%2$L, %3$L::regclass, %4$L, %5$L, %6$L, NULL, $1, %7$L) v WHERE v.verdict',
					ext, pg_catalog.format('SELECT DISTINCT r.matched_id AS id_a, r.new_id AS id_b FROM %s r WHERE r.method <> ALL (%L::text[])',
										   matches::text, verify_methods),
					corpus::text, col, id_column, m, own_path);
			ELSE
			-- the calibrated verdict (precision 0.99): is the new row a copy
			-- of the corpus row?  Its score is the similarity.  With a
			-- boilerplate lexicon ($1 of the statement), both texts are
			-- compared without their boilerplate lines.
			found_sql := pg_catalog.format(
				'SELECT k.new_id, k.matched_id, NULL::int4 AS distance, t.score AS similarity, false AS new_in_corpus
				 FROM %3$s CROSS JOIN LATERAL %1$s.textfp_match(c.%2$I, n.v%4$s) t
				 WHERE t.verdict',
				ext, col, candidates,
				CASE WHEN boilerplate IS NULL THEN '' ELSE ', boilerplate => $1' END);
			END IF;
		END CASE;

		-- one record per pair and method: no self-match; a pair of two new
		-- rows that are both in the corpus once, with the larger id as the
		-- new row (every row, when the whole corpus is checked), as each
		-- finds the other; where duplicate ids give a pair several times,
		-- its best score
		IF m = ANY (verify_methods) THEN
			keep := 'true';
		ELSIF new_rows IS NULL THEN
			keep := 'f.matched_id < f.new_id';
		ELSE
			keep := 'f.new_id <> f.matched_id AND NOT (f.new_in_corpus AND EXISTS (
						SELECT FROM pg_temp.textfp_arrivals_batch o WHERE o.id = f.matched_id AND o.id > f.new_id))';
		END IF;
		sql := pg_catalog.format($q$
			WITH batch AS MATERIALIZED (%1$s),
			found AS (
				SELECT DISTINCT ON (f.new_id, f.matched_id) f.new_id, f.matched_id, f.distance, f.similarity
				FROM (%2$s) f
				WHERE %3$s
				ORDER BY f.new_id, f.matched_id, f.distance, f.similarity DESC),
			ins AS (
				INSERT INTO %4$s AS m (new_id, matched_id, method, distance, similarity, matched_at)
				SELECT f.new_id, f.matched_id, %5$L, f.distance, f.similarity, pg_catalog.now() FROM found f
				ON CONFLICT (new_id, matched_id, method) DO UPDATE
					SET distance = excluded.distance, similarity = excluded.similarity,
						matched_at = excluded.matched_at
					WHERE (m.distance, m.similarity) IS DISTINCT FROM (excluded.distance, excluded.similarity)
				RETURNING 1)
			SELECT (SELECT pg_catalog.count(*) FROM batch), (SELECT pg_catalog.count(*) FROM found),
				   (SELECT pg_catalog.count(*) FROM ins)$q$,
			batch, found_sql, keep, matches::text, m);
		IF citus THEN
			IF NOT (m = ANY (verify_methods) AND new_rows IS NOT NULL) THEN
				EXECUTE pg_catalog.format('SELECT pg_catalog.count(*) FROM (%s) b', batch) INTO n_rows;
			END IF;
			step := @extschema@.textfp_citus_arrivals_step(
				CASE WHEN m = ANY (verify_methods) AND new_rows IS NULL THEN 'SELECT 1' ELSE batch END,
				found_sql, keep, matches, m, boilerplate);
			n_found := step.matches_found;
			n_written := step.matches_written;
		ELSE
			IF m = 'minhash' THEN
				old_threshold := pg_catalog.current_setting('textfp.minhash_threshold');
				PERFORM pg_catalog.set_config('textfp.minhash_threshold', min_jaccard::text, true);
			END IF;
			EXECUTE sql INTO n_rows, n_found, n_written USING boilerplate;
			IF m = 'minhash' THEN
				PERFORM pg_catalog.set_config('textfp.minhash_threshold', old_threshold, true);
			END IF;
		END IF;
		IF progress THEN
			RAISE NOTICE 'textfp_check_arrivals: %: % rows checked, % matches, % written', m
				|| CASE WHEN m = 'simhash' THEN ' (' || search || ')' ELSE '' END, n_rows, n_found, n_written;
		END IF;
		method := m;
		rows_checked := n_rows;
		matches_found := n_found;
		matches_written := n_written;
		RETURN NEXT;
	END LOOP;
	IF new_rows IS NOT NULL THEN
		DROP TABLE pg_temp.textfp_arrivals_batch;
	END IF;
END
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_check_arrivals(text, regclass, regclass, text[], name, name, int4, text, name, float8, name, int4, float8, name, float8, text, @extschema@.textfp_boilerplate, int4, int4)
	IS 'check new rows (a query; NULL: the whole corpus) against an indexed corpus and record their matches in a match table, once per pair and method';
--
-- Reports over a match table (textfp_check_arrivals' records): clusters of
-- the match graph and their sizes, duplicates per source and per day, the
-- most copied rows, and textfp_report(), one self-contained HTML page with
-- all of them.  Set-returning functions rather than views, because the
-- match table and the corpus are the user's, named in the call.  A NULL
-- method means the records of every method.
--

CREATE FUNCTION @extschema@.textfp_html_escape(t text)
	RETURNS text
	LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $fn$
SELECT pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(
	pg_catalog.regexp_replace(t, '[\x01-\x08\x0B\x0C\x0E-\x1F\x7F]', '', 'g'),
	'&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&#39;')
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_html_escape(text)
	IS 'the text with & < > " and '' written as character references (control characters other than tab and line breaks dropped): safe as HTML content and in quoted attributes';

CREATE FUNCTION @extschema@.textfp_match_clusters(matches regclass, method text DEFAULT NULL)
	RETURNS TABLE (id bigint, cluster_id bigint, cluster_size bigint, representative bigint)
	LANGUAGE plpgsql STABLE PARALLEL UNSAFE ROWS 1000
	SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
	IF matches IS NULL THEN
		RAISE EXCEPTION 'textfp_match_clusters: matches must not be NULL' USING ERRCODE = '22004';
	END IF;
	RETURN QUERY EXECUTE pg_catalog.format(
		'SELECT * FROM %s.textfp_clusters(%L)',
		(SELECT e.extnamespace::regnamespace::text FROM pg_catalog.pg_extension e WHERE e.extname = 'textfp'),
		pg_catalog.format('SELECT m.new_id, m.matched_id FROM %s m WHERE %L::text IS NULL OR m.method = %L',
						  matches, method, method));
END
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_match_clusters(regclass, text)
	IS 'connected components of the pairs of a match table: one row per id, cluster_id = representative = smallest id';

CREATE FUNCTION @extschema@.textfp_cluster_sizes(matches regclass, method text DEFAULT NULL)
	RETURNS TABLE (cluster_size bigint, clusters bigint, rows bigint)
	LANGUAGE sql STABLE PARALLEL UNSAFE
AS $fn$
SELECT c.cluster_size, pg_catalog.count(DISTINCT c.cluster_id), pg_catalog.count(*)
FROM @extschema@.textfp_match_clusters(matches, method) c
GROUP BY c.cluster_size ORDER BY c.cluster_size
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_cluster_sizes(regclass, text)
	IS 'cluster size distribution of a match table: clusters of each size and the rows in them';

CREATE FUNCTION @extschema@.textfp_most_copied(matches regclass, n int4 DEFAULT 20, method text DEFAULT NULL)
	RETURNS TABLE (matched_id bigint, copies bigint, best_similarity float8, least_distance int4,
				   first_copied timestamptz, last_copied timestamptz)
	LANGUAGE plpgsql STABLE PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
	IF matches IS NULL THEN
		RAISE EXCEPTION 'textfp_most_copied: matches must not be NULL' USING ERRCODE = '22004';
	END IF;
	RETURN QUERY EXECUTE pg_catalog.format(
		'SELECT m.matched_id::bigint, pg_catalog.count(DISTINCT m.new_id), pg_catalog.max(m.similarity)::float8,
				pg_catalog.min(m.distance)::int4, pg_catalog.min(m.matched_at)::timestamptz,
				pg_catalog.max(m.matched_at)::timestamptz
		 FROM %s m WHERE $1 IS NULL OR m.method = $1
		 GROUP BY m.matched_id ORDER BY 2 DESC, 1 LIMIT $2', matches)
		USING method, n;
END
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_most_copied(regclass, int4, text)
	IS 'the n rows of a match table matched by the most new rows (the most copied originals)';

CREATE FUNCTION @extschema@.textfp_duplicates_by_day(matches regclass, method text DEFAULT NULL,
		corpus regclass DEFAULT NULL, date_column name DEFAULT NULL, id_column name DEFAULT 'id')
	RETURNS TABLE (day date, copies bigint, pairs bigint, originals bigint)
	LANGUAGE plpgsql STABLE PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
	IF matches IS NULL THEN
		RAISE EXCEPTION 'textfp_duplicates_by_day: matches must not be NULL' USING ERRCODE = '22004';
	END IF;
	IF (corpus IS NULL) <> (date_column IS NULL) THEN
		RAISE EXCEPTION 'textfp_duplicates_by_day: give both corpus and date_column, or neither'
			USING ERRCODE = '22023',
				  DETAIL = 'Without them the day is the day a match was recorded; with them, the new row''s date.';
	END IF;
	RETURN QUERY EXECUTE pg_catalog.format(
		'SELECT x.d, pg_catalog.count(DISTINCT x.new_id), pg_catalog.count(DISTINCT (x.new_id, x.matched_id)),
				pg_catalog.count(DISTINCT x.matched_id)
		 FROM (SELECT %1$s AS d, m.new_id, m.matched_id FROM %2$s m %3$s
			   WHERE $1 IS NULL OR m.method = $1) x
		 GROUP BY x.d ORDER BY x.d',
		CASE WHEN corpus IS NULL THEN 'm.matched_at::date' ELSE pg_catalog.format('c.%I::date', date_column) END,
		matches,
		CASE WHEN corpus IS NULL THEN ''
			 ELSE pg_catalog.format('JOIN %s c ON c.%I = m.new_id', corpus, id_column) END)
		USING method;
END
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_duplicates_by_day(regclass, text, regclass, name, name)
	IS 'per day (of the match, or of the new row''s date column): new rows that are copies, pairs, originals copied';

CREATE FUNCTION @extschema@.textfp_duplicates_by_source(matches regclass, corpus regclass,
		source_column name, id_column name DEFAULT 'id', method text DEFAULT NULL)
	RETURNS TABLE (source text, documents bigint, copies bigint, copies_from_other_sources bigint,
				   originals bigint, originals_copied_by_other_sources bigint)
	LANGUAGE plpgsql STABLE PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
	IF matches IS NULL OR corpus IS NULL OR source_column IS NULL OR id_column IS NULL THEN
		RAISE EXCEPTION 'textfp_duplicates_by_source: matches, corpus, source_column and id_column must not be NULL'
			USING ERRCODE = '22004';
	END IF;
	-- a source: its rows; its rows that copy another (from another source);
	-- its rows that others copied (others from another source)
	RETURN QUERY EXECUTE pg_catalog.format($q$
		WITH p AS (
			SELECT DISTINCT m.new_id, m.matched_id, cn.%3$I::text AS new_source, cm.%3$I::text AS matched_source
			FROM %1$s m JOIN %2$s cn ON cn.%4$I = m.new_id JOIN %2$s cm ON cm.%4$I = m.matched_id
			WHERE $1 IS NULL OR m.method = $1),
		docs AS (SELECT c.%3$I::text AS src, pg_catalog.count(*) AS n FROM %2$s c GROUP BY 1),
		cp AS (SELECT p.new_source AS src, pg_catalog.count(DISTINCT p.new_id) AS n,
					  pg_catalog.count(DISTINCT p.new_id) FILTER (WHERE p.matched_source IS DISTINCT FROM p.new_source) AS other
			   FROM p GROUP BY 1),
		og AS (SELECT p.matched_source AS src, pg_catalog.count(DISTINCT p.matched_id) AS n,
					  pg_catalog.count(DISTINCT p.matched_id) FILTER (WHERE p.matched_source IS DISTINCT FROM p.new_source) AS other
			   FROM p GROUP BY 1)
		SELECT d.src, d.n, coalesce(cp.n, 0), coalesce(cp.other, 0), coalesce(og.n, 0), coalesce(og.other, 0)
		FROM docs d
		LEFT JOIN cp ON cp.src IS NOT DISTINCT FROM d.src
		LEFT JOIN og ON og.src IS NOT DISTINCT FROM d.src
		ORDER BY 3 DESC, 5 DESC, 1$q$,
		matches, corpus, source_column, id_column)
		USING method;
END
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_duplicates_by_source(regclass, regclass, name, name, text)
	IS 'per source (site) of the corpus: rows, rows that copy another (from another source), rows copied by others (by another source)';


-- textfp_report() (65_reports.sql has the other reports): a fragment of its
-- own, since 1.2 redefines it (partial copies): the 1.1 -> 1.2 update drops
-- the 1.1 definition and runs this.

CREATE FUNCTION @extschema@.textfp_report(
		corpus regclass,
		matches regclass,
		title_column name DEFAULT 'title',
		body_column name DEFAULT 'body',
		source_column name DEFAULT NULL,
		id_column name DEFAULT 'id',
		method text DEFAULT NULL,
		clusters int4 DEFAULT 10,
		heading text DEFAULT NULL,
		fp_column name DEFAULT NULL,
		boilerplate @extschema@.textfp_boilerplate DEFAULT NULL)
	RETURNS text
	LANGUAGE plpgsql STABLE PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	ext text := (SELECT e.extnamespace::regnamespace::text FROM pg_catalog.pg_extension e
				 WHERE e.extname = 'textfp');
	h text;
	sql text;
	dist_sql text;
	r record;
	c record;
	n_docs bigint;
	n_records bigint;
	n_pairs bigint;
	n_copies bigint;
	n_originals bigint;
	n_clusters bigint := 0;
	n_clustered bigint := 0;
	largest bigint := 0;
	maxd int4;
	maxn bigint;
	bw float8;
	x float8;
	y float8;
	partner bigint;
	col name;
	title_expr text;
	body_expr text;
	source_expr text;
	excerpt constant int4 := 200;
	ta text;
	ba text;
	tb text;
	bb text;
	shown constant int4 := 20;
BEGIN
	PERFORM @extschema@.textfp_refuse_citus(guard.rel, 'textfp_report', 'Citus cannot join the match table to the corpus on both ids of a pair: run it on plain copies of the two tables (docs/citus.md, "Reports").') FROM pg_catalog.unnest(ARRAY[corpus, matches]) AS guard(rel);
	IF corpus IS NULL OR matches IS NULL OR id_column IS NULL THEN
		RAISE EXCEPTION 'textfp_report: corpus, matches and id_column must not be NULL' USING ERRCODE = '22004';
	END IF;
	IF clusters IS NULL OR clusters < 0 OR clusters > 1000 THEN
		RAISE EXCEPTION 'textfp_report: clusters must be between 0 and 1000, not %', coalesce(clusters::text, 'NULL')
			USING ERRCODE = '22023', DETAIL = 'It is the number of largest clusters shown with their rows.';
	END IF;
	FOREACH col IN ARRAY ARRAY[id_column, title_column, body_column, source_column, fp_column] LOOP
		IF col IS NOT NULL AND NOT EXISTS (SELECT FROM pg_catalog.pg_attribute a WHERE a.attrelid = corpus
										   AND a.attname = col AND a.attnum > 0 AND NOT a.attisdropped) THEN
			RAISE EXCEPTION 'column "%" of relation % does not exist', col, corpus
				USING ERRCODE = '42703', HINT = 'Name the corpus''s columns with id_column, title_column, body_column, source_column and fp_column (NULL: none).';
		END IF;
	END LOOP;
	title_expr := CASE WHEN title_column IS NULL THEN 'NULL::text' ELSE pg_catalog.format('c.%I::text', title_column) END;
	body_expr := CASE WHEN body_column IS NULL THEN 'NULL::text' ELSE pg_catalog.format('c.%I::text', body_column) END;
	source_expr := CASE WHEN source_column IS NULL THEN 'NULL::text' ELSE pg_catalog.format('c.%I::text', source_column) END;
	heading := coalesce(heading, 'Near-duplicates in ' || corpus::text);

	-- summary figures
	EXECUTE pg_catalog.format('SELECT pg_catalog.count(*) FROM %s', corpus) INTO n_docs;
	EXECUTE pg_catalog.format(
		'SELECT pg_catalog.count(*), pg_catalog.count(DISTINCT (m.new_id, m.matched_id)),
				pg_catalog.count(DISTINCT m.new_id), pg_catalog.count(DISTINCT m.matched_id)
		 FROM %s m WHERE $1 IS NULL OR m.method = $1', matches)
		INTO n_records, n_pairs, n_copies, n_originals USING method;
	SELECT coalesce(pg_catalog.sum(s.clusters), 0), coalesce(pg_catalog.sum(s.rows), 0),
		   coalesce(pg_catalog.max(s.cluster_size), 0)
		INTO n_clusters, n_clustered, largest
	FROM @extschema@.textfp_cluster_sizes(matches, method) s;

	h := '<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src ''none''; style-src ''unsafe-inline''">
<meta name="generator" content="textfp">
<title>' || @extschema@.textfp_html_escape(heading) || '</title>
<style>
body { font-family: system-ui, "Noto Sans", "Noto Sans CJK SC", sans-serif; margin: 2em auto; max-width: 1100px; color: #222; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: .2em; }
h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ccc; }
h3 { font-size: 1.05em; margin-bottom: .3em; }
p.meta { color: #666; margin-top: 0; }
.figures { display: flex; flex-wrap: wrap; gap: .8em; }
.figure { background: #f3f6fa; border: 1px solid #d8e0ea; border-radius: 6px; padding: .6em 1em; min-width: 9em; }
.figure b { display: block; font-size: 1.6em; color: #1f4e8c; }
table { border-collapse: collapse; margin: .5em 0; }
th, td { border: 1px solid #ddd; padding: .25em .6em; text-align: left; vertical-align: top; }
th { background: #f3f6fa; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.bar { display: inline-block; height: .8em; background: #5b8fd1; }
.none { color: #888; font-style: italic; }
svg text { font-size: 10px; fill: #333; }
' || @extschema@.textfp_compare_css() || '
</style>
</head>
<body>
<h1>' || @extschema@.textfp_html_escape(heading) || '</h1>
<p class="meta">corpus ' || @extschema@.textfp_html_escape(corpus::text) || ', match table '
		|| @extschema@.textfp_html_escape(matches::text) || ', '
		|| CASE WHEN method IS NULL THEN 'all methods' ELSE 'method ' || @extschema@.textfp_html_escape(method) END
		|| '; generated ' || pg_catalog.to_char(pg_catalog.now(), 'YYYY-MM-DD HH24:MI:SS TZ') || '</p>
<h2 id="summary">Summary</h2>
<div class="figures">';
	FOR r IN SELECT * FROM (VALUES (n_docs, 'rows in the corpus'), (n_copies, 'rows that copy another'),
								   (n_originals, 'rows copied'), (n_pairs, 'pairs'), (n_records, 'match records'),
								   (n_clusters, 'clusters'), (n_clustered, 'rows in clusters'),
								   (largest, 'largest cluster')) v(n, what) LOOP
		h := h || pg_catalog.format('<div class="figure"><b>%s</b>%s</div>',
									pg_catalog.to_char(r.n, 'FM999,999,999,999,990'), r.what);
	END LOOP;
	h := h || '</div>
<h3>Records by method</h3>
<table><tr><th>method</th><th>records</th><th>new rows</th><th>first recorded</th><th>last recorded</th></tr>';
	FOR r IN EXECUTE pg_catalog.format(
		'SELECT m.method::text AS method, pg_catalog.count(*) AS n, pg_catalog.count(DISTINCT m.new_id) AS copies,
				pg_catalog.min(m.matched_at) AS first, pg_catalog.max(m.matched_at) AS last
		 FROM %s m WHERE $1 IS NULL OR m.method = $1 GROUP BY 1 ORDER BY 1', matches) USING method LOOP
		h := h || pg_catalog.format('<tr><td>%s</td><td class="n">%s</td><td class="n">%s</td><td>%s</td><td>%s</td></tr>',
									@extschema@.textfp_html_escape(r.method), r.n, r.copies,
									pg_catalog.to_char(r.first, 'YYYY-MM-DD HH24:MI'), pg_catalog.to_char(r.last, 'YYYY-MM-DD HH24:MI'));
	END LOOP;
	h := h || '</table>';

	-- the histogram of the Hamming distances of the pairs, as SVG: between
	-- the corpus's simhash64 fingerprints (fp_column, or its only simhash64
	-- column), else those the simhash records hold
	IF fp_column IS NULL THEN
		SELECT pg_catalog.min(a.attname) INTO fp_column FROM pg_catalog.pg_attribute a
		WHERE a.attrelid = corpus AND a.attnum > 0 AND NOT a.attisdropped
		  AND a.atttypid = pg_catalog.to_regtype(ext || '.simhash64')
		HAVING pg_catalog.count(*) = 1;
	END IF;
	IF fp_column IS NOT NULL THEN
		dist_sql := pg_catalog.format(
			'SELECT %1$s.simhash_dist(a.%2$I, b.%2$I) AS distance
			 FROM (SELECT DISTINCT m.new_id, m.matched_id FROM %3$s m WHERE $1 IS NULL OR m.method = $1) p
			 JOIN %4$s a ON a.%5$I = p.new_id JOIN %4$s b ON b.%5$I = p.matched_id
			 WHERE a.%2$I IS NOT NULL AND b.%2$I IS NOT NULL',
			ext, fp_column, matches, corpus, id_column);
	ELSE
		dist_sql := pg_catalog.format(
			'SELECT m.distance FROM %s m
			 WHERE m.method = ''simhash'' AND ($1 IS NULL OR m.method = $1) AND m.distance IS NOT NULL', matches);
	END IF;
	h := h || '
<h2 id="distances">Hamming distances</h2>
<p class="meta">' || CASE WHEN fp_column IS NOT NULL
		THEN 'between the fingerprints (column ' || @extschema@.textfp_html_escape(fp_column) || ') of the two rows of each pair'
		ELSE 'of the simhash records' END || '</p>';
	EXECUTE pg_catalog.format('SELECT pg_catalog.max(x.distance), pg_catalog.max(x.n) FROM (
		SELECT d.distance, pg_catalog.count(*) AS n FROM (%s) d GROUP BY 1) x', dist_sql)
		INTO maxd, maxn USING method;
	IF maxd IS NULL THEN
		h := h || '<p class="none">No Hamming distances: no pairs, or no simhash fingerprints.</p>';
	ELSE
		maxd := greatest(maxd, 3);
		bw := 600.0 / (maxd + 1);
		h := h || pg_catalog.format('
<svg xmlns="http://www.w3.org/2000/svg" width="660" height="230" viewBox="0 0 660 230" role="img" aria-label="pairs by Hamming distance">
<title>pairs by Hamming distance (bits)</title>
<line x1="40" y1="190" x2="645" y2="190" stroke="#888"/>
<text x="340" y="225" text-anchor="middle">Hamming distance (bits)</text>
<text x="12" y="105" text-anchor="middle" transform="rotate(-90 12 105)">pairs</text>');
		FOR r IN EXECUTE pg_catalog.format(
			'SELECT s.d, coalesce(x.n, 0) AS n FROM pg_catalog.generate_series(0, $2) s(d)
			 LEFT JOIN (SELECT d.distance, pg_catalog.count(*) AS n FROM (%s) d GROUP BY 1) x ON x.distance = s.d
			 ORDER BY s.d', dist_sql) USING method, maxd LOOP
			x := 42 + r.d * bw;
			y := 170.0 * r.n / maxn;
			h := h || pg_catalog.format('
<rect x="%s" y="%s" width="%s" height="%s" fill="#5b8fd1"><title>%s bits: %s pairs</title></rect>',
				round(x::numeric, 1), round((190 - y)::numeric, 1), round(greatest(bw - 2, 1)::numeric, 1),
				round(y::numeric, 1), r.d, r.n);
			IF r.n > 0 AND bw >= 14 THEN
				h := h || pg_catalog.format('<text x="%s" y="%s" text-anchor="middle">%s</text>',
					round((x + bw / 2 - 1)::numeric, 1), round((186 - y)::numeric, 1), r.n);
			END IF;
			IF bw >= 14 OR r.d % 4 = 0 THEN
				h := h || pg_catalog.format('<text x="%s" y="203" text-anchor="middle">%s</text>',
					round((x + bw / 2 - 1)::numeric, 1), r.d);
			END IF;
		END LOOP;
		h := h || '
</svg>';
	END IF;

	-- per day (the last 31 days with matches) and per source
	h := h || '
<h2 id="days">Copies found per day</h2>';
	maxn := NULL;
	FOR r IN SELECT d.*, pg_catalog.max(d.copies) OVER () AS top
			 FROM @extschema@.textfp_duplicates_by_day(matches, method) d ORDER BY d.day DESC LIMIT 31 LOOP
		IF maxn IS NULL THEN
			maxn := r.top;
			h := h || '<table><tr><th>day</th><th>new rows that copy another</th><th>pairs</th><th>rows copied</th><th></th></tr>';
		END IF;
		h := h || pg_catalog.format('<tr><td>%s</td><td class="n">%s</td><td class="n">%s</td><td class="n">%s</td><td><span class="bar" style="width: %spx"></span></td></tr>',
									r.day, r.copies, r.pairs, r.originals, round(200.0 * r.copies / greatest(r.top, 1)));
	END LOOP;
	h := h || CASE WHEN maxn IS NULL THEN '<p class="none">No matches recorded.</p>' ELSE '</table>' END;
	IF source_column IS NOT NULL THEN
		h := h || '
<h2 id="sources">By source</h2>
<table><tr><th>source</th><th>rows</th><th>rows that copy another</th><th>&hellip; from another source</th><th>rows copied</th><th>&hellip; by another source</th></tr>';
		FOR r IN SELECT * FROM @extschema@.textfp_duplicates_by_source(matches, corpus, source_column, id_column, method) LOOP
			h := h || pg_catalog.format('<tr><td>%s</td><td class="n">%s</td><td class="n">%s</td><td class="n">%s</td><td class="n">%s</td><td class="n">%s</td></tr>',
				coalesce(@extschema@.textfp_html_escape(r.source), '<span class="none">none</span>'),
				r.documents, r.copies, r.copies_from_other_sources, r.originals, r.originals_copied_by_other_sources);
		END LOOP;
		h := h || '</table>';
	END IF;

	-- the most copied rows
	h := h || '
<h2 id="copied">Most copied</h2>';
	maxn := NULL;
	FOR r IN EXECUTE pg_catalog.format(
		'SELECT t.*, %1$s AS title, %2$s AS source FROM %3$s.textfp_most_copied($1, 10, $2) t
		 LEFT JOIN %4$s c ON c.%5$I = t.matched_id ORDER BY t.copies DESC, t.matched_id',
		title_expr, source_expr, ext, corpus, id_column) USING matches, method LOOP
		IF maxn IS NULL THEN
			maxn := 0;
			h := h || '<table><tr><th>id</th><th>title</th>' || CASE WHEN source_column IS NULL THEN '' ELSE '<th>source</th>' END
				|| '<th>copies</th><th>best similarity</th><th>first copied</th><th>last copied</th></tr>';
		END IF;
		h := h || pg_catalog.format('<tr><td class="n">%s</td><td>%s</td>%s<td class="n">%s</td><td class="n">%s</td><td>%s</td><td>%s</td></tr>',
			r.matched_id, coalesce(@extschema@.textfp_html_escape(r.title), ''),
			CASE WHEN source_column IS NULL THEN '' ELSE '<td>' || coalesce(@extschema@.textfp_html_escape(r.source), '') || '</td>' END,
			r.copies, coalesce(round(r.best_similarity::numeric, 3)::text, ''),
			pg_catalog.to_char(r.first_copied, 'YYYY-MM-DD HH24:MI'), pg_catalog.to_char(r.last_copied, 'YYYY-MM-DD HH24:MI'));
	END LOOP;
	h := h || CASE WHEN maxn IS NULL THEN '<p class="none">No matches recorded.</p>' ELSE '</table>' END;

	-- partial copies: the rows that took passages from others (the
	-- passages method of textfp_check_arrivals: similarity is the share of
	-- the new row copied, distance the number of passages), the largest
	-- shares first, and the first of them side by side with their passages
	IF method IS NULL OR method = 'passages' THEN
		maxn := NULL;
		FOR r IN EXECUTE pg_catalog.format(
			'SELECT m.new_id, m.matched_id, m.similarity, m.distance, %1$s AS title, %2$s AS source,
					%3$s AS body, s.title AS s_title, s.source AS s_source, s.body AS s_body,
					pg_catalog.row_number() OVER (ORDER BY m.similarity DESC, m.new_id, m.matched_id) AS k
			 FROM %4$s m
			 LEFT JOIN %5$s c ON c.%6$I = m.new_id
			 LEFT JOIN LATERAL (SELECT %1$s AS title, %2$s AS source, %3$s AS body
								FROM %5$s c WHERE c.%6$I = m.matched_id LIMIT 1) s ON true
			 WHERE m.method = ''passages''
			 ORDER BY m.similarity DESC, m.new_id, m.matched_id LIMIT $1',
			title_expr, source_expr, body_expr, matches, corpus, id_column) USING shown LOOP
			IF maxn IS NULL THEN
				maxn := 0;
				h := h || '
<h2 id="partial">Partial copies</h2>
<p class="meta">rows that took passages from another row (method passages): the share of the row inside the passages, the number of passages</p>
<table><tr><th>id</th><th>title</th>' || CASE WHEN source_column IS NULL THEN '' ELSE '<th>source</th>' END
					|| '<th>copied from</th><th>its title</th>' || CASE WHEN source_column IS NULL THEN '' ELSE '<th>its source</th>' END
					|| '<th>share copied</th><th>passages</th></tr>';
			END IF;
			h := h || pg_catalog.format('<tr><td class="n">%s</td><td>%s</td>%s<td class="n"><a href="#partial-%s-%s">%s</a></td><td>%s</td>%s<td class="n">%s</td><td class="n">%s</td></tr>',
				r.new_id, coalesce(@extschema@.textfp_html_escape(r.title), ''),
				CASE WHEN source_column IS NULL THEN '' ELSE '<td>' || coalesce(@extschema@.textfp_html_escape(r.source), '') || '</td>' END,
				r.new_id, r.matched_id, r.matched_id, coalesce(@extschema@.textfp_html_escape(r.s_title), ''),
				CASE WHEN source_column IS NULL THEN '' ELSE '<td>' || coalesce(@extschema@.textfp_html_escape(r.s_source), '') || '</td>' END,
				coalesce(round(r.similarity::numeric, 3)::text, ''), coalesce(r.distance::text, ''));
		END LOOP;
		IF maxn IS NOT NULL THEN
			h := h || '</table>';
			IF body_column IS NOT NULL THEN
				FOR r IN EXECUTE pg_catalog.format(
					'SELECT m.new_id, m.matched_id, m.similarity, %1$s AS title, %2$s AS body,
							s.title AS s_title, s.body AS s_body
					 FROM %3$s m
					 LEFT JOIN %4$s c ON c.%5$I = m.new_id
					 LEFT JOIN LATERAL (SELECT %1$s AS title, %2$s AS body FROM %4$s c
										WHERE c.%5$I = m.matched_id LIMIT 1) s ON true
					 WHERE m.method = ''passages''
					 ORDER BY m.similarity DESC, m.new_id, m.matched_id LIMIT $1',
					title_expr, body_expr, matches, corpus, id_column) USING clusters LOOP
					h := h || pg_catalog.format('
<h3 id="partial-%s-%s">Row %s: %s%% from row %s</h3>', r.new_id, r.matched_id, r.new_id,
						round(100 * r.similarity::numeric), r.matched_id);
					IF r.body IS NULL OR r.s_body IS NULL THEN
						h := h || '<p class="none">no text to compare</p>';
					ELSE
						-- only the passages, with some context: the source on the left
						h := h || '
' || @extschema@.textfp_compare_html(r.s_body, r.body, min_length => 40, context => 60,
								a_title => pg_catalog.concat_ws(' ', '#' || r.matched_id, r.s_title),
								b_title => pg_catalog.concat_ws(' ', '#' || r.new_id, r.title));
					END IF;
				END LOOP;
			END IF;
		END IF;
	END IF;

	-- cluster sizes, and the largest clusters with their rows and a
	-- side-by-side comparison of the representative and its closest copy
	h := h || '
<h2 id="clusters">Clusters</h2>';
	IF n_clusters = 0 THEN
		h := h || '<p class="none">No clusters.</p>';
	ELSE
		h := h || '<table><tr><th>cluster size</th><th>clusters</th><th>rows</th><th></th></tr>';
		FOR r IN SELECT s.*, pg_catalog.max(s.clusters) OVER () AS top
				 FROM @extschema@.textfp_cluster_sizes(matches, method) s ORDER BY s.cluster_size LOOP
			h := h || pg_catalog.format('<tr><td class="n">%s</td><td class="n">%s</td><td class="n">%s</td><td><span class="bar" style="width: %spx"></span></td></tr>',
				r.cluster_size, r.clusters, r.rows, round(200.0 * r.clusters / r.top));
		END LOOP;
		h := h || '</table>';
	END IF;
	FOR c IN SELECT k.cluster_id, k.cluster_size, pg_catalog.array_agg(k.id ORDER BY k.id) AS members
			 FROM @extschema@.textfp_match_clusters(matches, method) k
			 GROUP BY k.cluster_id, k.cluster_size
			 ORDER BY k.cluster_size DESC, k.cluster_id LIMIT clusters LOOP
		h := h || pg_catalog.format('
<h3 id="cluster-%1$s">Cluster %1$s: %2$s rows</h3>
<table><tr><th>id</th><th>title</th>%3$s<th>closest match</th></tr>',
			c.cluster_id, c.cluster_size, CASE WHEN source_column IS NULL THEN '' ELSE '<th>source</th>' END);
		FOR r IN EXECUTE pg_catalog.format(
			'SELECT x.id, %1$s AS title, %2$s AS source, b.method, b.distance, b.similarity, b.other
			 FROM pg_catalog.unnest($1) WITH ORDINALITY AS x(id, o)
			 LEFT JOIN %3$s c ON c.%4$I = x.id
			 LEFT JOIN LATERAL (
				SELECT m.method, m.distance, m.similarity,
					   CASE WHEN m.new_id = x.id THEN m.matched_id ELSE m.new_id END AS other
				FROM %5$s m WHERE (m.new_id = x.id OR m.matched_id = x.id) AND ($2 IS NULL OR m.method = $2)
				ORDER BY m.distance NULLS LAST, m.similarity DESC NULLS LAST, 4 LIMIT 1) b ON true
			 WHERE x.o <= $3 ORDER BY x.id',
			title_expr, source_expr, corpus, id_column, matches) USING c.members, method, shown LOOP
			h := h || pg_catalog.format('<tr><td class="n">%s</td><td>%s</td>%s<td>%s</td></tr>',
				r.id, coalesce(@extschema@.textfp_html_escape(r.title), ''),
				CASE WHEN source_column IS NULL THEN '' ELSE '<td>' || coalesce(@extschema@.textfp_html_escape(r.source), '') || '</td>' END,
				CASE WHEN r.method IS NULL THEN '' ELSE
					pg_catalog.format('%s, %s (%s)', r.other,
						CASE WHEN r.distance IS NOT NULL THEN r.distance || ' bits'
							 ELSE 'similarity ' || round(r.similarity::numeric, 3) END,
						@extschema@.textfp_html_escape(r.method)) END);
		END LOOP;
		h := h || '</table>';
		IF c.cluster_size > shown THEN
			h := h || pg_catalog.format('<p class="none">and %s more rows</p>', c.cluster_size - shown);
		END IF;
		IF body_column IS NOT NULL THEN
			-- the representative (smallest id) and its closest recorded copy
			EXECUTE pg_catalog.format(
				'SELECT CASE WHEN m.new_id = $1 THEN m.matched_id ELSE m.new_id END FROM %s m
				 WHERE (m.new_id = $1 OR m.matched_id = $1) AND ($2 IS NULL OR m.method = $2)
				 ORDER BY m.distance NULLS LAST, m.similarity DESC NULLS LAST, 1 LIMIT 1', matches)
				INTO partner USING c.cluster_id, method;
			partner := coalesce(partner, c.members[2]);
			-- side by side, the copied passages highlighted (textfp_align);
			-- long texts cut to the passages and some context around them
			sql := pg_catalog.format('SELECT %s, %s FROM %s c WHERE c.%I = $1 LIMIT 1',
									 title_expr, body_expr, corpus, id_column);
			EXECUTE sql INTO ta, ba USING c.cluster_id;
			EXECUTE sql INTO tb, bb USING partner;
			IF boilerplate IS NOT NULL THEN
				-- the passages side by side without the template lines
				ba := @extschema@.textfp_strip_boilerplate(ba, boilerplate);
				bb := @extschema@.textfp_strip_boilerplate(bb, boilerplate);
			END IF;
			IF ba IS NULL OR bb IS NULL THEN
				h := h || '<p class="none">no text to compare</p>';
			ELSE
				h := h || '
' || @extschema@.textfp_compare_html(ba, bb, context => excerpt,
						a_title => pg_catalog.concat_ws(' ', '#' || c.cluster_id, ta),
						b_title => pg_catalog.concat_ws(' ', '#' || partner, tb));
			END IF;
		END IF;
	END LOOP;
	RETURN h || '
</body>
</html>
';
END
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_report(regclass, regclass, name, name, name, name, text, int4, text, name, @extschema@.textfp_boilerplate)
	IS 'a self-contained HTML page about a match table: summary figures, Hamming distance histogram, copies per day and source, most copied rows, cluster sizes, the largest clusters with their copied passages side by side';
--
-- I-Match (Chowdhury et al. 2002): one strong hash of the sorted set of a
-- text's terms that a lexicon keeps (normally the terms whose idf lies in a
-- band, chosen from collection statistics), and the randomized I-Match of
-- Kolcz et al. 2004 (several randomized lexicons, a match on any).  The
-- lexicon is a value (type imatch_lexicon), so the fingerprint is immutable
-- given the text and the lexicon.
--

CREATE TYPE @extschema@.imatch_lexicon;

CREATE FUNCTION @extschema@.imatch_lexicon_in(cstring)
	RETURNS @extschema@.imatch_lexicon
	AS 'MODULE_PATHNAME', 'imatch_lexicon_in'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.imatch_lexicon_out(@extschema@.imatch_lexicon)
	RETURNS cstring
	AS 'MODULE_PATHNAME', 'imatch_lexicon_out'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.imatch_lexicon_recv(internal)
	RETURNS @extschema@.imatch_lexicon
	AS 'MODULE_PATHNAME', 'imatch_lexicon_recv'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.imatch_lexicon_send(@extschema@.imatch_lexicon)
	RETURNS bytea
	AS 'MODULE_PATHNAME', 'imatch_lexicon_send'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- term hashes are random bits: stored uncompressed (external), so that a
-- call reads only the header of a lexicon it has already loaded
CREATE TYPE @extschema@.imatch_lexicon (
	INPUT = @extschema@.imatch_lexicon_in,
	OUTPUT = @extschema@.imatch_lexicon_out,
	RECEIVE = @extschema@.imatch_lexicon_recv,
	SEND = @extschema@.imatch_lexicon_send,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = double,
	STORAGE = external
);
COMMENT ON TYPE @extschema@.imatch_lexicon
	IS 'I-Match lexicon: the term hashes I-Match keeps, with the feature options of its terms';

-- the terms of a text: its distinct features, by default Han bigrams and words
CREATE FUNCTION @extschema@.imatch_terms(
		body text,
		ngram int4 DEFAULT 2,
		shingle int4 DEFAULT 1,
		fold_case boolean DEFAULT true,
		fold_width boolean DEFAULT true,
		fold_han boolean DEFAULT true)
	RETURNS int8[]
	AS 'MODULE_PATHNAME', 'shingles_text'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION @extschema@.imatch_terms(text, int4, int4, boolean, boolean, boolean)
	IS 'the distinct terms (Han n-grams and words) of a text as sorted hashes, for document frequencies';

-- (not named imatch_lexicon: imatch_lexicon('{...}') would be a cast)
CREATE FUNCTION @extschema@.imatch_build_lexicon(
		terms int8[],
		ngram int4 DEFAULT 2,
		shingle int4 DEFAULT 1,
		fold_case boolean DEFAULT true,
		fold_width boolean DEFAULT true,
		fold_han boolean DEFAULT true)
	RETURNS @extschema@.imatch_lexicon
	AS 'MODULE_PATHNAME', 'imatch_build_lexicon'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.imatch_build_lexicon(int8[], int4, int4, boolean, boolean, boolean)
	IS 'an I-Match lexicon of these term hashes (from imatch_terms() with the same options)';

CREATE FUNCTION @extschema@.imatch_lexicon_size(@extschema@.imatch_lexicon)
	RETURNS int4
	AS 'MODULE_PATHNAME', 'imatch_lexicon_size'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.imatch_lexicon_size(@extschema@.imatch_lexicon)
	IS 'number of terms in an I-Match lexicon';

CREATE FUNCTION @extschema@.imatch(body text, lexicon @extschema@.imatch_lexicon)
	RETURNS int8
	AS 'MODULE_PATHNAME', 'imatch'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION @extschema@.imatch(text, @extschema@.imatch_lexicon)
	IS 'I-Match fingerprint: hash of the sorted distinct terms of the text in the lexicon (NULL if none)';

CREATE FUNCTION @extschema@.imatch_randomized(
		body text,
		lexicon @extschema@.imatch_lexicon,
		lexicons int4 DEFAULT 20,
		drop_fraction float8 DEFAULT 0.7)
	RETURNS int8[]
	AS 'MODULE_PATHNAME', 'imatch_randomized'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 150;
COMMENT ON FUNCTION @extschema@.imatch_randomized(text, @extschema@.imatch_lexicon, int4, float8)
	IS 'randomized I-Match: the signatures of the whole lexicon and of randomized sub-lexicons (match on any: &&)';
--
-- Sets of 64-bit hashes (int8[]) -- spot signatures, sentence hashes,
-- super-shingles -- and the queries over them: "shares at least m values"
-- (%& set_overlap_query) and "Jaccard similarity at least t" (%
-- set_jaccard_query), both answered exactly by the GIN class int8_set_ops,
-- which skips rows by set size (SpotSigs' partitions).
-- SpotSigs (Theobald et al., SIGIR 2008): spotsigs(), with built-in or own
-- antecedent and stopword lists.
--

CREATE FUNCTION @extschema@.set_shared(a int8[], b int8[])
	RETURNS int4
	AS 'MODULE_PATHNAME', 'pinyin_dna_shared'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.set_shared(int8[], int8[])
	IS 'number of distinct non-null values two sets share';

CREATE FUNCTION @extschema@.set_jaccard(a int8[], b int8[])
	RETURNS float8
	AS 'MODULE_PATHNAME', 'pinyin_dna_similarity'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.set_jaccard(int8[], int8[])
	IS 'Jaccard similarity of two sets of distinct non-null values (0 when both are empty)';

CREATE TYPE @extschema@.set_overlap_query AS (set int8[], min_shared int4);
COMMENT ON TYPE @extschema@.set_overlap_query
	IS 'query of the %& operator: sets sharing at least min_shared values with set';

CREATE FUNCTION @extschema@.set_overlap_query(set int8[], min_shared int4)
	RETURNS @extschema@.set_overlap_query
	AS 'MODULE_PATHNAME', 'set_overlap_query_make'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.set_overlap_query(int8[], int4)
	IS 'build a set_overlap_query (min_shared >= 1)';

CREATE FUNCTION @extschema@.set_overlap_match(int8[], @extschema@.set_overlap_query)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'set_overlap_match'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR @extschema@.%& (
	LEFTARG = int8[],
	RIGHTARG = @extschema@.set_overlap_query,
	FUNCTION = @extschema@.set_overlap_match,
	RESTRICT = pg_catalog.contsel,
	JOIN = pg_catalog.contjoinsel
);
COMMENT ON OPERATOR @extschema@.%& (int8[], @extschema@.set_overlap_query)
	IS 'shares at least min_shared distinct values with the query''s set';

CREATE TYPE @extschema@.set_jaccard_query AS (set int8[], threshold float8);
COMMENT ON TYPE @extschema@.set_jaccard_query
	IS 'query of the % operator: sets whose Jaccard similarity with set is at least threshold';

CREATE FUNCTION @extschema@.set_jaccard_query(set int8[], threshold float8)
	RETURNS @extschema@.set_jaccard_query
	AS 'MODULE_PATHNAME', 'set_jaccard_query_make'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.set_jaccard_query(int8[], float8)
	IS 'build a set_jaccard_query (0 < threshold <= 1)';

CREATE FUNCTION @extschema@.set_jaccard_match(int8[], @extschema@.set_jaccard_query)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'set_jaccard_match'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR @extschema@.% (
	LEFTARG = int8[],
	RIGHTARG = @extschema@.set_jaccard_query,
	FUNCTION = @extschema@.set_jaccard_match,
	RESTRICT = pg_catalog.contsel,
	JOIN = pg_catalog.contjoinsel
);
COMMENT ON OPERATOR @extschema@.% (int8[], @extschema@.set_jaccard_query)
	IS 'Jaccard similarity with the query''s set at least its threshold';

CREATE FUNCTION @extschema@.set_jaccard_min_shared(n int4, threshold float8)
	RETURNS int4
	AS 'MODULE_PATHNAME', 'set_jaccard_min_shared'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.set_jaccard_min_shared(int4, float8)
	IS 'least size (and least number of shared values) of a set whose Jaccard similarity with a set of n values reaches the threshold';

CREATE FUNCTION @extschema@.set_jaccard_max_size(n int4, threshold float8)
	RETURNS int4
	AS 'MODULE_PATHNAME', 'set_jaccard_max_size'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.set_jaccard_max_size(int4, float8)
	IS 'largest size of a set whose Jaccard similarity with a set of n values can reach the threshold';

CREATE FUNCTION @extschema@.int8_set_gin_extract_value(int8[], internal, internal)
	RETURNS internal
	AS 'MODULE_PATHNAME', 'int8_set_gin_extract_value'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
-- the query argument is declared int8[] (the indexed type, as amvalidate
-- wants); the operators pass their set_overlap_query or set_jaccard_query
CREATE FUNCTION @extschema@.int8_set_gin_extract_query(int8[],
		internal, int2, internal, internal, internal, internal)
	RETURNS internal
	AS 'MODULE_PATHNAME', 'int8_set_gin_extract_query'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.int8_set_gin_consistent(internal, int2,
		int8[], int4, internal, internal, internal, internal)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'int8_set_gin_consistent'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.int8_set_gin_triconsistent(internal, int2,
		int8[], int4, internal, internal, internal)
	RETURNS "char"
	AS 'MODULE_PATHNAME', 'int8_set_gin_triconsistent'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR CLASS @extschema@.int8_set_ops
	FOR TYPE int8[] USING gin AS
		OPERATOR 1 @extschema@.%& (int8[], @extschema@.set_overlap_query),
		OPERATOR 2 @extschema@.% (int8[], @extschema@.set_jaccard_query),
		FUNCTION 1 pg_catalog.btint8cmp(int8, int8),
		FUNCTION 2 @extschema@.int8_set_gin_extract_value(int8[], internal, internal),
		FUNCTION 3 @extschema@.int8_set_gin_extract_query(int8[],
				internal, int2, internal, internal, internal, internal),
		FUNCTION 4 @extschema@.int8_set_gin_consistent(internal, int2,
				int8[], int4, internal, internal, internal, internal),
		FUNCTION 6 @extschema@.int8_set_gin_triconsistent(internal, int2,
				int8[], int4, internal, internal, internal),
		STORAGE int8;

-- SpotSigs
CREATE FUNCTION @extschema@.spotsigs(body text, chain int4 DEFAULT 1)
	RETURNS int8[]
	AS 'MODULE_PATHNAME', 'spotsigs'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION @extschema@.spotsigs(text, int4)
	IS 'SpotSigs: sorted distinct hashes of the spot signatures of a text (built-in antecedents and stopwords)';

CREATE FUNCTION @extschema@.spotsigs(body text, antecedents text[], stopwords text[],
		chain int4 DEFAULT 1)
	RETURNS int8[]
	AS 'MODULE_PATHNAME', 'spotsigs_lists'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 150;
COMMENT ON FUNCTION @extschema@.spotsigs(text, text[], text[], int4)
	IS 'SpotSigs with these antecedents and stopwords (each one word or one Han character)';

CREATE FUNCTION @extschema@.spotsigs_antecedents()
	RETURNS text[]
	AS 'MODULE_PATHNAME', 'spotsigs_antecedents'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.spotsigs_antecedents()
	IS 'the built-in SpotSigs antecedents (English and Chinese)';

CREATE FUNCTION @extschema@.spotsigs_stopwords()
	RETURNS text[]
	AS 'MODULE_PATHNAME', 'spotsigs_stopwords'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.spotsigs_stopwords()
	IS 'the built-in SpotSigs stopwords, skipped inside chains (English and Chinese)';
--
-- Top-k longest sentences: the hashes of a text's k longest normalized
-- sentences (Chinese and Western sentence punctuation), a set searched with
-- %& set_overlap_query(q, m) ("at least m sentences in common") and the GIN
-- class int8_set_ops.
--

CREATE FUNCTION @extschema@.longest_sentences(body text, k int4 DEFAULT 10)
	RETURNS int8[]
	AS 'MODULE_PATHNAME', 'longest_sentences'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION @extschema@.longest_sentences(text, int4)
	IS 'sorted hashes of the k longest distinct normalized sentences of a text';
--
-- Broder's super-shingles (Broder 1997; Henzinger 2006: 84 min-hashes, 6
-- super-shingles, a match on at least 2) over a minhash signature, a set
-- searched with %& set_overlap_query(q, 2) and the GIN class int8_set_ops.
--

CREATE FUNCTION @extschema@.supershingles(sig @extschema@.minhash, groups int4 DEFAULT 6)
	RETURNS int8[]
	AS 'MODULE_PATHNAME', 'supershingles'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.supershingles(@extschema@.minhash, int4)
	IS 'super-shingles of a minhash signature: hashes of its groups of k / groups consecutive values';
--
-- MinHash LSH: the default GIN operator class for minhash since 1.1.  It
-- has the support functions of the class of 1.0 (40_minhash.sql) and only
-- another options function, whose default key width (key_bits) is 20
-- instead of 32: at 1M signatures an index of 0.60x the table instead of
-- 3.1x, built in 94 s instead of 205 s; the same answers above the
-- exactness bound and never fewer rows below it, for more rows rechecked
-- (src/pg/minhash_gin.c, README "MinHash LSH search").
--

CREATE FUNCTION @extschema@.minhash_lsh_options(internal)
	RETURNS void
	AS 'MODULE_PATHNAME', 'minhash_lsh_options'
	LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE OPERATOR CLASS @extschema@.minhash_lsh_ops
	DEFAULT FOR TYPE @extschema@.minhash USING gin AS
		OPERATOR 1 @extschema@.% (@extschema@.minhash, @extschema@.minhash),
		FUNCTION 1 pg_catalog.btint4cmp(int4, int4),
		FUNCTION 2 @extschema@.minhash_gin_extract_value(@extschema@.minhash, internal, internal),
		FUNCTION 3 @extschema@.minhash_gin_extract_query(@extschema@.minhash, internal, int2, internal, internal, internal, internal),
		FUNCTION 4 @extschema@.minhash_gin_consistent(internal, int2, @extschema@.minhash, int4, internal, internal, internal, internal),
		FUNCTION 6 @extschema@.minhash_gin_triconsistent(internal, int2, @extschema@.minhash, int4, internal, internal, internal),
		FUNCTION 7 @extschema@.minhash_lsh_options(internal),
		STORAGE int4;
COMMENT ON OPERATOR CLASS @extschema@.minhash_lsh_ops USING gin
	IS 'LSH bands of minhash signatures for % (options bands, rows, key_bits; 20-bit keys by default)';
COMMENT ON OPERATOR CLASS @extschema@.minhash_lsh_1_0_ops USING gin
	IS 'the LSH class of textfp 1.0 (32-bit keys by default), kept for the indexes it built; use minhash_lsh_ops';

-- ---- the hamming index access method ----
-- Multi-index hashing with the fingerprints kept in the index: exact radius
-- search (fp <@ simhash_ball(q, k), and simhash_dist(fp, q) <= k through the
-- planner hook) and exact nearest neighbours (ORDER BY fp <-> q LIMIT n).

CREATE FUNCTION @extschema@.hamming_handler(internal) RETURNS index_am_handler
	AS 'MODULE_PATHNAME', 'hamming_handler'
	LANGUAGE C;

-- The access method and its operator class need PostgreSQL 15 or later: up
-- to 14 only a superuser may drop an access method, so the non-superuser
-- owner of this trusted extension could not drop it.
DO $do$
BEGIN
	IF pg_catalog.current_setting('server_version_num')::int4 OPERATOR(pg_catalog.>=) 150000 THEN
		EXECUTE $sql$CREATE ACCESS METHOD hamming TYPE INDEX HANDLER @extschema@.hamming_handler$sql$;
		EXECUTE $sql$COMMENT ON ACCESS METHOD hamming IS
			'textfp: exact Hamming radius search and nearest neighbours of simhash64 fingerprints'$sql$;
		EXECUTE $sql$CREATE OPERATOR CLASS @extschema@.simhash64_hamming_ops
			DEFAULT FOR TYPE @extschema@.simhash64 USING hamming AS
			OPERATOR 1 @extschema@.<@ (@extschema@.simhash64, @extschema@.simhash64_ball),
			OPERATOR 15 @extschema@.<-> (@extschema@.simhash64, @extschema@.simhash64)
				FOR ORDER BY pg_catalog.integer_ops$sql$;
	END IF;
END
$do$;

CREATE FUNCTION @extschema@.hamming_index_stats(index regclass,
	OUT sorted_rows bigint, OUT pending_rows bigint, OUT pending_pages bigint,
	OUT tables int4, OUT runs int4, OUT run_rows bigint[], OUT merges bigint)
	AS 'MODULE_PATHNAME', 'hamming_index_stats'
	LANGUAGE C STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hamming_index_stats(regclass) IS
	'rows of a hamming index''s sorted part and of its pending list (inserted since the last merge), the number of tables of its layout, its sorted runs and their rows, and the merges since the build';

-- ---- Citus (docs/citus.md) ----
-- On a Citus cluster the coordinator's table of a distributed or reference
-- table is an empty shell; its rows are in shards on the workers.  Functions
-- that read a relation's heap or index directly read it through a query
-- instead where they can (simhash_pairs, simhash_clusters: src/pg/citus.c),
-- and the others refuse with 0A000 and name what works: none answers from
-- the shell.  Settings stay on the node where they are set, so the minhash
-- % operator also takes its threshold in its right operand.

CREATE FUNCTION @extschema@.textfp_citus_table(rel regclass)
	RETURNS text
	AS 'MODULE_PATHNAME', 'textfp_citus_table'
	LANGUAGE C STABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.textfp_citus_table(regclass)
	IS 'the kind of Citus table rel is (distributed, reference, citus local), or NULL: not one, or Citus not installed';

-- Raise 0A000 if rel is a Citus table, or a shard of one (a trigger fires
-- on the shards): fn reads the relation on this node only.  alternative is
-- the hint: what works instead.
CREATE FUNCTION @extschema@.textfp_refuse_citus(rel regclass, fn text, alternative text)
	RETURNS void
	LANGUAGE plpgsql STABLE PARALLEL SAFE
	SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	kind text;
BEGIN
	IF rel IS NULL OR pg_catalog.to_regclass('pg_catalog.pg_dist_partition') IS NULL THEN
		RETURN;
	END IF;
	kind := @extschema@.textfp_citus_table(rel);
	IF kind IS NULL
	   AND pg_catalog.to_regprocedure('pg_catalog.relation_is_a_known_shard(regclass)') IS NOT NULL THEN
		EXECUTE 'SELECT CASE WHEN pg_catalog.relation_is_a_known_shard($1) THEN ''shard of a Citus'' END'
			INTO kind USING rel;
	END IF;
	IF kind IS NOT NULL THEN
		RAISE EXCEPTION '% does not work on the % table %', fn, kind, rel
			USING ERRCODE = '0A000',
				  DETAIL = 'It reads the table on this node only, and Citus keeps the rows in shards on other nodes: it would answer from part of the rows, or none.',
				  HINT = alternative;
	END IF;
END
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_refuse_citus(regclass, text, text)
	IS 'raise 0A000 (with the hint alternative) if rel is a Citus table or shard: fn reads it on this node only';

-- sig % minhash_query(q, threshold): the % operator with its threshold in
-- the operand (src/pg/minhash_query.c), answered by minhash_lsh_ops
CREATE TYPE @extschema@.minhash_query AS (sig @extschema@.minhash, threshold float8);
COMMENT ON TYPE @extschema@.minhash_query
	IS 'query of the % operator: signatures whose estimated Jaccard similarity with sig is at least threshold';

CREATE FUNCTION @extschema@.minhash_query(sig @extschema@.minhash, threshold float8)
	RETURNS @extschema@.minhash_query
	AS 'MODULE_PATHNAME', 'minhash_query'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.minhash_query(@extschema@.minhash, float8)
	IS 'build a minhash_query (0 <= threshold <= 1, as textfp.minhash_threshold)';

CREATE FUNCTION @extschema@.minhash_similar(a @extschema@.minhash, q @extschema@.minhash_query)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'minhash_similar_query'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.minhash_similar(@extschema@.minhash, @extschema@.minhash_query)
	IS 'minhash_jaccard(a, q.sig) >= q.threshold and > 0 (the % operator)';

CREATE OPERATOR @extschema@.% (
	LEFTARG = @extschema@.minhash,
	RIGHTARG = @extschema@.minhash_query,
	FUNCTION = @extschema@.minhash_similar,
	RESTRICT = pg_catalog.contsel,
	JOIN = pg_catalog.contjoinsel
);
COMMENT ON OPERATOR @extschema@.% (@extschema@.minhash, @extschema@.minhash_query)
	IS 'estimated Jaccard similarity >= the query''s threshold (indexable by minhash_lsh_ops; travels to Citus workers)';

ALTER OPERATOR FAMILY @extschema@.minhash_lsh_ops USING gin
	ADD OPERATOR 2 @extschema@.% (@extschema@.minhash, @extschema@.minhash_query);
-- ---- Citus: the all-pairs search on the workers (docs/citus.md) ----
-- simhash_pairs(rel, ...) and simhash_clusters(rel, ...) of a distributed
-- table: on every shard, textfp_citus_pairs_first passes one row, for which
-- textfp_citus_pairs_pack reads the shard and returns its rows routed to
-- the partitions of their block keys, packed in bundles; an INSERT ...
-- SELECT that Citus repartitions between the workers moves the bundles;
-- textfp_citus_pairs_agg, grouped by the partition, runs each partition's
-- tables on its worker: see src/pg/citus_pairs.c and citus_pairs_worker.c.
-- Internal to that search; textfp.citus_pairs = coordinator reads the rows
-- on the coordinator instead.

CREATE FUNCTION @extschema@.textfp_citus_pairs_first(rel oid)
	RETURNS bool
	AS 'MODULE_PATHNAME', 'textfp_citus_pairs_first'
	LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE;
COMMENT ON FUNCTION @extschema@.textfp_citus_pairs_first(oid)
	IS 'true for the first row of each relation of the statement, false after (internal to the distributed all-pairs search)';

CREATE FUNCTION @extschema@.textfp_citus_pairs_pack(rel oid, id_column name, fp_column name,
		radius int4, nblocks int4, dests int4[])
	RETURNS TABLE (dest int4, rows bytea)
	AS 'MODULE_PATHNAME', 'textfp_citus_pairs_pack'
	LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE ROWS 16;
COMMENT ON FUNCTION @extschema@.textfp_citus_pairs_pack(oid, name, name, int4, int4, int4[])
	IS 'the rows of one shard routed to the partitions (of dests) of the distributed all-pairs search, in bundles of 16 bytes a row (internal)';

CREATE FUNCTION @extschema@.textfp_citus_pairs_acc(internal, int4, bytea, int4, int4, int4[])
	RETURNS internal
	AS 'MODULE_PATHNAME', 'textfp_citus_pairs_acc'
	LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.textfp_citus_pairs_acc(internal, int4, bytea, int4, int4, int4[])
	IS 'transition function of textfp_citus_pairs_agg (internal)';

CREATE FUNCTION @extschema@.textfp_citus_pairs_final(internal)
	RETURNS int8[]
	AS 'MODULE_PATHNAME', 'textfp_citus_pairs_final'
	LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.textfp_citus_pairs_final(internal)
	IS 'final function of textfp_citus_pairs_agg (internal)';

CREATE AGGREGATE @extschema@.textfp_citus_pairs_agg(dest int4, rows bytea, radius int4,
		nblocks int4, dests int4[]) (
	SFUNC = @extschema@.textfp_citus_pairs_acc,
	STYPE = internal,
	FINALFUNC = @extschema@.textfp_citus_pairs_final,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.textfp_citus_pairs_agg(int4, bytea, int4, int4, int4[])
	IS 'the pairs (id_a, id_b, distance triples) of partition dest of the distributed all-pairs search, from its bundles (internal)';
-- ---- Arrivals and verification on Citus (docs/citus.md) ----
-- textfp_check_arrivals on a distributed corpus (or into a distributed or
-- reference match table) runs the same searches as on one node, but in
-- statements Citus can plan: the batch of new rows stays in a temporary
-- table on the coordinator and reaches the workers as a materialized CTE
-- (an intermediate result, a copy on every worker), so every shard looks
-- the batch up in its own indexes and computes verdicts beside its own
-- texts; only ids and scores come back.  The matches are kept and
-- deduplicated on the coordinator and written with one INSERT ... ON
-- CONFLICT.  textfp_verify_pairs verifies candidate pairs of a distributed
-- corpus in two co-located steps (never a repartition join): the pairs
-- distributed by the first id fetch its text, the rows move (worker to
-- worker) to the shard of the second id, and textfp_match runs there.

-- true when textfp_check_arrivals must take its Citus path: corpus or
-- matches is a Citus table; refuses (0A000) a shard of one, where the
-- function would see one shard's rows only
CREATE FUNCTION @extschema@.textfp_citus_arrivals_mode(corpus regclass, matches regclass)
	RETURNS boolean
	LANGUAGE plpgsql STABLE PARALLEL SAFE
	SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	kinds text[] := ARRAY[@extschema@.textfp_citus_table(corpus), @extschema@.textfp_citus_table(matches)];
BEGIN
	-- a relation Citus does not know as a table may still be a shard
	PERFORM @extschema@.textfp_refuse_citus(guard.rel, 'textfp_check_arrivals',
			'Call it on the coordinator with the distributed table: docs/citus.md, "New arrivals".')
	FROM ROWS FROM (pg_catalog.unnest(ARRAY[corpus, matches]), pg_catalog.unnest(kinds)) AS guard(rel, kind)
	WHERE guard.kind IS NULL;
	-- Citus routes a statement on a reference or Citus-local table to one
	-- placement, where the batch (a temporary table) does not exist
	IF kinds[1] IN ('reference', 'citus local') OR kinds[2] = 'citus local' THEN
		RAISE EXCEPTION 'textfp_check_arrivals does not work on the % table %',
			coalesce(nullif(kinds[1], 'distributed'), kinds[2]),
			CASE WHEN kinds[1] IN ('reference', 'citus local') THEN corpus ELSE matches END
			USING ERRCODE = '0A000',
				  DETAIL = 'Citus runs its statements on one placement of the table, where the batch of new rows does not exist.',
				  HINT = 'Use a distributed corpus (create_distributed_table) or a plain one, and a distributed, reference or plain match table: docs/citus.md, "New arrivals".';
	END IF;
	RETURN kinds[1] IS NOT NULL OR kinds[2] IS NOT NULL;
END
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_citus_arrivals_mode(regclass, regclass)
	IS 'internal to textfp_check_arrivals: is corpus or matches a Citus table (0A000 for a shard of one)';

-- One method's step of textfp_check_arrivals on Citus: the found pairs of
-- found_sql (which reads the CTE batch, batch_sql), kept where keep holds
-- (it may read pg_temp.textfp_arrivals_batch), one per pair (the best),
-- written into matches.  Returns how many were found and how many written.
-- Each statement is one Citus can plan: the batch a materialized CTE (an
-- intermediate result sent to the workers), the found pairs gathered into
-- a temporary table, the rest on the coordinator.
CREATE FUNCTION @extschema@.textfp_citus_arrivals_step(batch_sql text, found_sql text, keep text,
		matches regclass, method text, boilerplate @extschema@.textfp_boilerplate,
		OUT matches_found bigint, OUT matches_written bigint)
	RETURNS record
	LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
	IF pg_catalog.to_regclass('pg_temp.textfp_arrivals_found') IS NOT NULL THEN
		DROP TABLE pg_temp.textfp_arrivals_found;
	END IF;
	IF pg_catalog.to_regclass('pg_temp.textfp_arrivals_kept') IS NOT NULL THEN
		DROP TABLE pg_temp.textfp_arrivals_kept;
	END IF;
	CREATE TEMP TABLE textfp_arrivals_found (new_id bigint, matched_id bigint, distance int4,
		similarity float8, new_in_corpus boolean) ON COMMIT DROP;
	EXECUTE pg_catalog.format(
		'INSERT INTO pg_temp.textfp_arrivals_found
		 SELECT f.new_id, f.matched_id, f.distance, f.similarity, f.new_in_corpus
		 FROM (WITH batch AS MATERIALIZED (%s) SELECT * FROM (%s) f) f', batch_sql, found_sql)
		USING boilerplate;
	EXECUTE pg_catalog.format(
		'CREATE TEMP TABLE textfp_arrivals_kept ON COMMIT DROP AS
		 SELECT DISTINCT ON (f.new_id, f.matched_id) f.new_id, f.matched_id, f.distance, f.similarity
		 FROM pg_temp.textfp_arrivals_found f
		 WHERE %s
		 ORDER BY f.new_id, f.matched_id, f.distance, f.similarity DESC', keep);
	SELECT pg_catalog.count(*) INTO matches_found FROM pg_temp.textfp_arrivals_kept;
	-- (counted from RETURNING: Citus's row count of an INSERT ... SELECT
	-- through the coordinator is of the rows it sent, written or not)
	EXECUTE pg_catalog.format(
		'WITH ins AS (
			INSERT INTO %s AS m (new_id, matched_id, method, distance, similarity, matched_at)
			SELECT f.new_id, f.matched_id, %L, f.distance, f.similarity, pg_catalog.now()
			FROM pg_temp.textfp_arrivals_kept f
			ON CONFLICT (new_id, matched_id, method) DO UPDATE
				SET distance = excluded.distance, similarity = excluded.similarity,
					matched_at = excluded.matched_at
				WHERE (m.distance, m.similarity) IS DISTINCT FROM (excluded.distance, excluded.similarity)
			RETURNING 1)
		 SELECT pg_catalog.count(*) FROM ins',
		matches, method) INTO matches_written;
	DROP TABLE pg_temp.textfp_arrivals_found, pg_temp.textfp_arrivals_kept;
END
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_citus_arrivals_step(text, text, text, regclass, text, @extschema@.textfp_boilerplate)
	IS 'internal to textfp_check_arrivals on Citus: run one method''s search and record its matches';

-- The pairs (id_a, id_b) of the query pairs whose two ids are rows of
-- corpus, with the verdict of method on their texts: textfp_match(text of
-- id_a, text of id_b) (its verdict and score), or shingle_jaccard(text of
-- id_b, text of id_a) (verdict: at least min_similarity).  On a
-- distributed corpus in two co-located steps, on any other in one join.
CREATE FUNCTION @extschema@.textfp_verify_pairs_by(pairs text, corpus regclass, text_column name,
		id_column name, method text, min_similarity float8,
		boilerplate @extschema@.textfp_boilerplate, query_search_path text)
	RETURNS TABLE (id_a bigint, id_b bigint, verdict boolean, score float8)
	LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp
	SET jit = off
AS $fn$
DECLARE
	ext text := (SELECT e.extnamespace::regnamespace::text FROM pg_catalog.pg_extension e
				 WHERE e.extname = 'textfp');
	kind text;
	idtype regtype;
	ttype regtype;
	distcol text;
	own_path constant text := pg_catalog.current_setting('search_path');
	tab_a text;
	tab_b text;
	verdict_sql text;
BEGIN
	IF pairs IS NULL OR corpus IS NULL OR text_column IS NULL OR id_column IS NULL THEN
		RAISE EXCEPTION 'textfp_verify_pairs: pairs, corpus, text_column and id_column must not be NULL'
			USING ERRCODE = '22004';
	END IF;
	IF query_search_path IS NULL THEN
		RAISE EXCEPTION 'textfp_verify_pairs: query_search_path must not be NULL' USING ERRCODE = '22004';
	END IF;
	kind := @extschema@.textfp_citus_table(corpus);
	IF kind IS NULL THEN
		-- a shard of a Citus table holds part of the rows
		PERFORM @extschema@.textfp_refuse_citus(corpus, 'textfp_verify_pairs',
			'Call it on the coordinator with the distributed table.');
	END IF;
	SELECT (CASE ty.typtype WHEN 'd' THEN ty.typbasetype ELSE ty.oid END)::regtype INTO idtype
	FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type ty ON ty.oid = a.atttypid
	WHERE a.attrelid = corpus AND a.attname = id_column AND a.attnum > 0 AND NOT a.attisdropped;
	SELECT (CASE ty.typtype WHEN 'd' THEN ty.typbasetype ELSE ty.oid END)::regtype INTO ttype
	FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type ty ON ty.oid = a.atttypid
	WHERE a.attrelid = corpus AND a.attname = text_column AND a.attnum > 0 AND NOT a.attisdropped;
	IF idtype IS NULL OR ttype IS NULL THEN
		RAISE EXCEPTION 'column "%" of relation % does not exist', CASE WHEN idtype IS NULL THEN id_column ELSE text_column END, corpus
			USING ERRCODE = '42703', HINT = 'Name the corpus''s columns with id_column and text_column.';
	END IF;
	IF idtype NOT IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype) THEN
		RAISE EXCEPTION 'textfp_verify_pairs: the id column "%" must be of an integer type, not %', id_column, idtype
			USING ERRCODE = '42804';
	END IF;
	IF ttype NOT IN ('text'::regtype, 'varchar'::regtype) THEN
		RAISE EXCEPTION 'textfp_verify_pairs: the text column "%" must be of type text, not %', text_column, ttype
			USING ERRCODE = '42804';
	END IF;
	pairs := pg_catalog.rtrim(pairs, E'; \t\r\n');
	-- a and b: the two rows' texts, in the statements below
	verdict_sql := CASE method
		WHEN 'textfp_match' THEN pg_catalog.format('(SELECT t.verdict, t.score FROM %s.textfp_match(a, b%s) t)',
			ext, CASE WHEN boilerplate IS NULL THEN '' ELSE ', boilerplate => $1' END)
		ELSE pg_catalog.format('(SELECT s >= %s, s FROM %s.shingle_jaccard(b, a) s)', min_similarity, ext) END;

	IF kind IS DISTINCT FROM 'distributed' THEN
		-- one join (Citus plans it on a reference table's placement)
		PERFORM pg_catalog.set_config('search_path', query_search_path, true);
		RETURN QUERY EXECUTE pg_catalog.format(
			'SELECT p.id_a::bigint, p.id_b::bigint, v.verdict, v.score
			 FROM (SELECT q.id_a, q.id_b FROM (%1$s) q) p
			 JOIN %2$s x ON x.%3$I = p.id_a
			 JOIN %2$s y ON y.%3$I = p.id_b
			 CROSS JOIN LATERAL (SELECT x.%4$I::text AS a, y.%4$I::text AS b) t0
			 CROSS JOIN LATERAL %5$s AS v(verdict, score)',
			pairs, corpus, id_column, text_column, verdict_sql) USING boilerplate;
		PERFORM pg_catalog.set_config('search_path', own_path, true);
		RETURN;
	END IF;

	-- Distributed: Citus joins two distributed tables only on their
	-- distribution columns, so the corpus must be distributed by its id
	EXECUTE 'SELECT pg_catalog.column_to_column_name(p.logicalrelid, p.partkey) FROM pg_catalog.pg_dist_partition p WHERE p.logicalrelid = $1'
		INTO distcol USING corpus;
	IF distcol IS DISTINCT FROM id_column THEN
		RAISE EXCEPTION 'textfp_verify_pairs: the distributed table % is distributed by "%", not by its id column "%"', corpus, distcol, id_column
			USING ERRCODE = '0A000',
				  DETAIL = 'The pairs are joined with the corpus on the ids, and Citus joins distributed tables only on their distribution columns.',
				  HINT = 'Distribute the corpus by its id (create_distributed_table(corpus, id_column)).';
	END IF;
	-- step 0: the pairs, distributed by id_a and co-located with the
	-- corpus (scratch tables of this call, dropped at its end, gone with
	-- the transaction on an error)
	SELECT pg_catalog.format('%I.%I', n.nspname, 'textfp_pairs_' || pg_catalog.pg_backend_pid() || '_a'),
	       pg_catalog.format('%I.%I', n.nspname, 'textfp_pairs_' || pg_catalog.pg_backend_pid() || '_b')
		INTO tab_a, tab_b
	FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = corpus;
	EXECUTE pg_catalog.format('CREATE TABLE %s (id_a %s, id_b %s)', tab_a, idtype, idtype);
	PERFORM pg_catalog.create_distributed_table(tab_a::regclass, 'id_a', colocate_with => corpus::text);
	PERFORM pg_catalog.set_config('search_path', query_search_path, true);
	EXECUTE pg_catalog.format('INSERT INTO %s (id_a, id_b) SELECT q.id_a, q.id_b FROM (%s) q
							   WHERE q.id_a IS NOT NULL AND q.id_b IS NOT NULL', tab_a, pairs);
	PERFORM pg_catalog.set_config('search_path', own_path, true);
	-- (statistics, so that each shard joins the few pairs by the corpus's
	-- id index rather than reading all its texts)
	EXECUTE pg_catalog.format('ANALYZE %s', tab_a);
	-- step 1: beside each pair, the text of id_a, moved to the shard of
	-- id_b (a co-located join; Citus repartitions the inserted rows
	-- between the workers)
	EXECUTE pg_catalog.format('CREATE TABLE %s (id_a %s, id_b %s, text_a text)', tab_b, idtype, idtype);
	PERFORM pg_catalog.create_distributed_table(tab_b::regclass, 'id_b', colocate_with => corpus::text);
	EXECUTE pg_catalog.format('INSERT INTO %1$s (id_a, id_b, text_a) SELECT p.id_a, p.id_b, x.%4$I
							   FROM %2$s p JOIN %3$s x ON x.%5$I = p.id_a',
							  tab_b, tab_a, corpus, text_column, id_column);
	EXECUTE pg_catalog.format('ANALYZE %s', tab_b);
	-- step 2: beside the text of id_b, the verdict (a co-located join)
	RETURN QUERY EXECUTE pg_catalog.format(
		'SELECT p.id_a::bigint, p.id_b::bigint, v.verdict, v.score
		 FROM %1$s p JOIN %2$s y ON y.%3$I = p.id_b
		 CROSS JOIN LATERAL (SELECT p.text_a AS a, y.%4$I::text AS b) t0
		 CROSS JOIN LATERAL %5$s AS v(verdict, score)',
		tab_b, corpus, id_column, text_column, verdict_sql) USING boilerplate;
	EXECUTE pg_catalog.format('DROP TABLE %s, %s', tab_a, tab_b);
END
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_verify_pairs_by(text, regclass, name, name, text, float8, @extschema@.textfp_boilerplate, text)
	IS 'internal to textfp_verify_pairs and textfp_check_arrivals: verdicts on the texts of pairs of corpus rows';

CREATE FUNCTION @extschema@.textfp_verify_pairs(pairs text, corpus regclass,
		text_column name DEFAULT 'body', id_column name DEFAULT 'id',
		boilerplate @extschema@.textfp_boilerplate DEFAULT NULL,
		query_search_path text DEFAULT pg_catalog.current_setting('search_path'))
	RETURNS TABLE (id_a bigint, id_b bigint, verdict boolean, score float8)
	LANGUAGE sql VOLATILE PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp
AS $fn$
	SELECT * FROM @extschema@.textfp_verify_pairs_by(pairs, corpus, text_column, id_column,
		'textfp_match', NULL, boilerplate, query_search_path)
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_verify_pairs(text, regclass, name, name, @extschema@.textfp_boilerplate, text)
	IS 'textfp_match(text of id_a, text of id_b) for each pair (id_a, id_b) of the query pairs whose ids are rows of corpus; on a distributed corpus in two co-located steps';

-- ---- passage fingerprints (new in 1.2) ----
-- passage_fp(body): the winnowed k-gram hashes of a text with their
-- positions and context bytes (src/core/tfp_passage.h: any run two
-- texts share of length w + k, a Han character 1 and a word 2, gives them
-- a matching seed; w + k - 1 for Han characters only), its
-- accessors, passage_fp_shared() and the query operator %& passage_query.

CREATE TYPE @extschema@.passage_fingerprint;

CREATE FUNCTION @extschema@.passage_fingerprint_in(cstring)
	RETURNS @extschema@.passage_fingerprint
	AS 'MODULE_PATHNAME', 'passage_fingerprint_in'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.passage_fingerprint_out(@extschema@.passage_fingerprint)
	RETURNS cstring
	AS 'MODULE_PATHNAME', 'passage_fingerprint_out'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.passage_fingerprint_recv(internal)
	RETURNS @extschema@.passage_fingerprint
	AS 'MODULE_PATHNAME', 'passage_fingerprint_recv'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.passage_fingerprint_send(@extschema@.passage_fingerprint)
	RETURNS bytea
	AS 'MODULE_PATHNAME', 'passage_fingerprint_send'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE @extschema@.passage_fingerprint (
	INPUT = @extschema@.passage_fingerprint_in,
	OUTPUT = @extschema@.passage_fingerprint_out,
	RECEIVE = @extschema@.passage_fingerprint_recv,
	SEND = @extschema@.passage_fingerprint_send,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = double,
	STORAGE = external
);
COMMENT ON TYPE @extschema@.passage_fingerprint
	IS 'passage fingerprint of a text: winnowed k-gram hashes with their positions and context bytes';

CREATE FUNCTION @extschema@.passage_fp(
		body text,
		k int4 DEFAULT 5,
		w int4 DEFAULT 9,
		reading boolean DEFAULT true)
	RETURNS @extschema@.passage_fingerprint
	AS 'MODULE_PATHNAME', 'passage_fp_text'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION @extschema@.passage_fp(text, int4, int4, boolean)
	IS 'passage fingerprint (winnowing of k-grams of Han characters and words, homophones one unit with reading): any run of text two texts share of length w + k (a Han character 1, a word 2; w + k - 1 for Han characters only) gives them a matching seed';

CREATE FUNCTION @extschema@.passage_fp_hashes(fp @extschema@.passage_fingerprint)
	RETURNS int8[]
	AS 'MODULE_PATHNAME', 'passage_fp_hashes'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.passage_fp_hashes(@extschema@.passage_fingerprint)
	IS 'the distinct seed hashes of a passage fingerprint, sorted (a set for int8_set_ops)';

CREATE FUNCTION @extschema@.passage_fp_seeds(fp @extschema@.passage_fingerprint,
		OUT hash int8, OUT unit int4, OUT left_context int4, OUT right_context int4)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'passage_fp_seeds'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 100;
COMMENT ON FUNCTION @extschema@.passage_fp_seeds(@extschema@.passage_fingerprint)
	IS 'the seeds of a passage fingerprint: hash, first unit (0-based) of its k-gram, context bytes';

CREATE FUNCTION @extschema@.passage_fp_count(fp @extschema@.passage_fingerprint)
	RETURNS int4
	AS 'MODULE_PATHNAME', 'passage_fp_count'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.passage_fp_count(@extschema@.passage_fingerprint)
	IS 'the number of seeds of a passage fingerprint';

CREATE FUNCTION @extschema@.passage_fp_units(fp @extschema@.passage_fingerprint)
	RETURNS int4
	AS 'MODULE_PATHNAME', 'passage_fp_units'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.passage_fp_units(@extschema@.passage_fingerprint)
	IS 'the number of units (Han characters and words) of the text a passage fingerprint was made of';

CREATE FUNCTION @extschema@.passage_fp_shared(a @extschema@.passage_fingerprint, b @extschema@.passage_fingerprint)
	RETURNS int4
	AS 'MODULE_PATHNAME', 'passage_fp_shared'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.passage_fp_shared(@extschema@.passage_fingerprint, @extschema@.passage_fingerprint)
	IS 'the number of seeds of b with a matching seed in a (equal hash and a context byte): evidence of shared runs of text';

CREATE TYPE @extschema@.passage_query AS (fp @extschema@.passage_fingerprint, min_shared int4);
COMMENT ON TYPE @extschema@.passage_query
	IS 'texts sharing at least min_shared seeds with a passage fingerprint, for %& and the passage index';

CREATE FUNCTION @extschema@.passage_query(fp @extschema@.passage_fingerprint, min_shared int4)
	RETURNS @extschema@.passage_query
	AS 'MODULE_PATHNAME', 'passage_query_make'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.passage_query(@extschema@.passage_fingerprint, int4)
	IS 'build a passage_query (min_shared >= 1)';

CREATE FUNCTION @extschema@.passage_query(
		query text,
		min_shared int4,
		k int4 DEFAULT 5,
		w int4 DEFAULT 9,
		reading boolean DEFAULT true)
	RETURNS @extschema@.passage_query
	AS 'MODULE_PATHNAME', 'passage_query_text'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION @extschema@.passage_query(text, int4, int4, int4, boolean)
	IS 'a passage_query of a text''s passage fingerprint (min_shared >= 1)';

CREATE FUNCTION @extschema@.passage_fp_match(@extschema@.passage_fingerprint, @extschema@.passage_query)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'passage_fp_match'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OPERATOR @extschema@.%& (
	LEFTARG = @extschema@.passage_fingerprint,
	RIGHTARG = @extschema@.passage_query,
	FUNCTION = @extschema@.passage_fp_match,
	RESTRICT = pg_catalog.contsel,
	JOIN = pg_catalog.contjoinsel
);
COMMENT ON OPERATOR @extschema@.%& (@extschema@.passage_fingerprint, @extschema@.passage_query)
	IS 'the fingerprint shares at least min_shared seeds with the query''s';

CREATE FUNCTION @extschema@.passage_text_match(text, @extschema@.passage_query)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'passage_text_match'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
CREATE OPERATOR @extschema@.%& (
	LEFTARG = text,
	RIGHTARG = @extschema@.passage_query,
	FUNCTION = @extschema@.passage_text_match,
	RESTRICT = pg_catalog.contsel,
	JOIN = pg_catalog.contjoinsel
);
COMMENT ON OPERATOR @extschema@.%& (text, @extschema@.passage_query)
	IS 'the text''s passage fingerprint (with the query''s options) shares at least min_shared seeds with the query''s';

-- ---- the passage index access method (new in 1.2) ----
-- The seeds of every row's passage fingerprint with their positions, found
-- by key: "body %& passage_query(q, m)" (recheck: 34 bits of a hash are
-- kept), and the candidates of textfp_sources().

CREATE FUNCTION @extschema@.passage_handler(internal) RETURNS index_am_handler
	AS 'MODULE_PATHNAME', 'passage_handler'
	LANGUAGE C;

-- The access method and its operator classes need PostgreSQL 15 or later:
-- up to 14 only a superuser may drop an access method, so the non-superuser
-- owner of this trusted extension could not drop it (as for hamming).
DO $do$
BEGIN
	IF pg_catalog.current_setting('server_version_num')::int4 OPERATOR(pg_catalog.>=) 150000 THEN
		EXECUTE $sql$CREATE ACCESS METHOD passage TYPE INDEX HANDLER @extschema@.passage_handler$sql$;
		EXECUTE $sql$COMMENT ON ACCESS METHOD passage IS
			'textfp: the seeds of passage fingerprints with their positions, for texts sharing passages (%& passage_query, textfp_sources)'$sql$;
		EXECUTE $sql$CREATE OPERATOR CLASS @extschema@.passage_text_ops
			DEFAULT FOR TYPE text USING passage AS
			OPERATOR 1 @extschema@.%& (text, @extschema@.passage_query)$sql$;
		EXECUTE $sql$CREATE OPERATOR CLASS @extschema@.passage_fingerprint_ops
			DEFAULT FOR TYPE @extschema@.passage_fingerprint USING passage AS
			OPERATOR 1 @extschema@.%& (@extschema@.passage_fingerprint, @extschema@.passage_query)$sql$;
	END IF;
END
$do$;

CREATE FUNCTION @extschema@.passage_index_stats(index regclass,
	OUT k int4, OUT w int4, OUT reading boolean, OUT rows_indexed bigint,
	OUT sorted_entries bigint, OUT pending_entries bigint, OUT runs int4,
	OUT run_entries bigint[], OUT merges bigint)
	AS 'MODULE_PATHNAME', 'passage_index_stats'
	LANGUAGE C STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.passage_index_stats(regclass) IS
	'a passage index''s fingerprint options, the rows it indexed (build and inserts), the entries (seeds) of its sorted runs and of its pending list, its runs and their entries, and the merges since the build';

-- ---- source retrieval (new in 1.2) ----

CREATE FUNCTION @extschema@.textfp_sources(
		query text,
		corpus regclass,
		id_column name DEFAULT 'id',
		text_column name DEFAULT 'body',
		min_length int4 DEFAULT 40,
		max_sources int4 DEFAULT 10,
		max_docs int4 DEFAULT 1000,
		boilerplate @extschema@.textfp_boilerplate DEFAULT NULL,
		use_index boolean DEFAULT true,
		max_candidates int4 DEFAULT 100)
	RETURNS TABLE(rank int4, source_id int8, share float8, source_passages int4,
				  passage int4, source_start int4, source_length int4,
				  query_start int4, query_length int4, matched int4,
				  similarity float8, frequency int4)
	AS 'MODULE_PATHNAME', 'textfp_sources'
	LANGUAGE C STABLE PARALLEL RESTRICTED COST 10000 ROWS 10;
COMMENT ON FUNCTION @extschema@.textfp_sources(text, regclass, name, name, int4, int4, int4, @extschema@.textfp_boilerplate, boolean, int4)
	IS 'the stored rows a text took passages from (through the passage index of the text column), each with its passages as textfp_align reports them, ranked by the share of the text they cover';

-- ---- source retrieval on Citus (docs/citus.md, "Passages") ----
-- textfp_sources() on a Citus table runs textfp_citus_sources(): the df of
-- the query's seeds on every shard (textfp_sources_df), added up, so that
-- max_docs and each passage's frequency count the whole table as on one
-- node; then the source query of every shard with that df
-- (textfp_sources_shard, each shard through its own passage index), the
-- sources merged and ranked as textfp_sources() ranks them.

CREATE FUNCTION @extschema@.textfp_sources_df(
		query text, corpus regclass, id_column name, text_column name,
		boilerplate @extschema@.textfp_boilerplate, use_index boolean)
	RETURNS int4[]
	AS 'MODULE_PATHNAME', 'textfp_sources_df'
	LANGUAGE C STABLE PARALLEL RESTRICTED;
COMMENT ON FUNCTION @extschema@.textfp_sources_df(text, regclass, name, name, @extschema@.textfp_boilerplate, boolean)
	IS 'internal to textfp_sources on Citus: the df (passage index entries of its key) of each seed of the query in one table';

CREATE FUNCTION @extschema@.textfp_sources_shard(
		query text, corpus regclass, id_column name, text_column name,
		min_length int4, max_sources int4, max_docs int4,
		boilerplate @extschema@.textfp_boilerplate, use_index boolean,
		max_candidates int4, df int4[])
	RETURNS TABLE(rank int4, source_id int8, share float8, source_passages int4,
				  passage int4, source_start int4, source_length int4,
				  query_start int4, query_length int4, matched int4,
				  similarity float8, frequency int4, passage_units int4)
	AS 'MODULE_PATHNAME', 'textfp_sources'
	LANGUAGE C STABLE PARALLEL RESTRICTED COST 10000 ROWS 10;
COMMENT ON FUNCTION @extschema@.textfp_sources_shard(text, regclass, name, name, int4, int4, int4, @extschema@.textfp_boilerplate, boolean, int4, int4[])
	IS 'internal to textfp_sources on Citus: textfp_sources on one shard, the df of the query''s seeds given, with each passage''s length in units';

CREATE FUNCTION @extschema@.textfp_citus_sources(
		query text, corpus regclass, id_column name, text_column name,
		min_length int4, max_sources int4, max_docs int4,
		boilerplate @extschema@.textfp_boilerplate, use_index boolean,
		max_candidates int4)
	RETURNS TABLE(rank int4, source_id int8, share float8, source_passages int4,
				  passage int4, source_start int4, source_length int4,
				  query_start int4, query_length int4, matched int4,
				  similarity float8, frequency int4)
	LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	-- the shard's name in place of %s, quoted as a literal whatever it is
	shard constant text := '$tfp_shard$%s$tfp_shard$::pg_catalog.regclass';
	cmd text;
	ok text[];
	failed text;
	nlens bigint;
	df int4[];
BEGIN
	-- 1. the df of every seed of the query on every shard, added up
	cmd := pg_catalog.format('SELECT @extschema@.textfp_sources_df(%L, %s, %L, %L, %L::@extschema@.textfp_boilerplate, %L)',
							 query, shard, id_column, text_column, boilerplate::text, use_index);
	SELECT pg_catalog.array_agg(c.result) FILTER (WHERE c.success),
		   pg_catalog.string_agg('shard ' || c.shardid || ': ' || c.result, '; ') FILTER (WHERE NOT c.success)
	  INTO ok, failed
	  FROM pg_catalog.run_command_on_shards(corpus, cmd) c;
	IF failed IS NOT NULL THEN
		RAISE EXCEPTION 'textfp_sources failed on a shard of %', corpus
			USING ERRCODE = '38000', DETAIL = failed;
	END IF;
	SELECT pg_catalog.count(DISTINCT pg_catalog.cardinality(a::int4[])) INTO nlens FROM pg_catalog.unnest(ok) a;
	IF nlens > 1 THEN
		RAISE EXCEPTION 'the shards of % have passage indexes of different options', corpus
			USING ERRCODE = '22023',
				  DETAIL = 'The query has a different number of seeds on different shards.',
				  HINT = 'Recreate the passage index of the distributed table with one set of options.';
	END IF;
	SELECT coalesce(pg_catalog.array_agg(t.n ORDER BY t.i), '{}') INTO df
	  FROM (SELECT u.i, LEAST(pg_catalog.sum(u.v), 2147483647)::int4 AS n
			  FROM pg_catalog.unnest(ok) a, pg_catalog.unnest(a::int4[]) WITH ORDINALITY u(v, i)
			 GROUP BY u.i) t;

	-- 2. the sources of every shard with that df, merged
	cmd := pg_catalog.format('SELECT COALESCE(pg_catalog.json_agg(s), ''[]'') FROM '
							 '@extschema@.textfp_sources_shard(%L, %s, %L, %L, %s, %s, %s, '
							 '%L::@extschema@.textfp_boilerplate, %L, %s, %L::pg_catalog.int4[]) s',
							 query, shard, id_column, text_column, min_length, max_sources, max_docs,
							 boilerplate::text, use_index, max_candidates, df::text);
	SELECT pg_catalog.array_agg(c.shardid || ' ' || c.result) FILTER (WHERE c.success),
		   pg_catalog.string_agg('shard ' || c.shardid || ': ' || c.result, '; ') FILTER (WHERE NOT c.success)
	  INTO ok, failed
	  FROM pg_catalog.run_command_on_shards(corpus, cmd) c;
	IF failed IS NOT NULL THEN
		RAISE EXCEPTION 'textfp_sources failed on a shard of %', corpus
			USING ERRCODE = '38000', DETAIL = failed;
	END IF;
	RETURN QUERY
	WITH r AS (
		SELECT pg_catalog.split_part(o, ' ', 1)::int8 AS shardid, x.*
		  FROM pg_catalog.unnest(ok) o,
			   pg_catalog.json_to_recordset(pg_catalog.substr(o, pg_catalog.strpos(o, ' ') + 1)::json)
				 AS x(rank int4, source_id int8, share float8, source_passages int4, passage int4,
					  source_start int4, source_length int4, query_start int4, query_length int4,
					  matched int4, similarity float8, frequency int4, passage_units int4)),
	-- ranked as textfp_sources() ranks: share, longest passage (in the
	-- query's units), id
	s AS (
		SELECT r.shardid, r.source_id,
			   pg_catalog.row_number() OVER (ORDER BY pg_catalog.max(r.share) DESC,
											 pg_catalog.max(r.passage_units) DESC,
											 r.source_id, r.shardid) AS rk
		  FROM r GROUP BY r.shardid, r.source_id)
	SELECT s.rk::int4, r.source_id, r.share, r.source_passages, r.passage, r.source_start,
		   r.source_length, r.query_start, r.query_length, r.matched, r.similarity, r.frequency
	  FROM r JOIN s USING (shardid, source_id)
	 WHERE s.rk <= max_sources
	 ORDER BY s.rk, r.passage;
END
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_citus_sources(text, regclass, name, name, int4, int4, int4, @extschema@.textfp_boilerplate, boolean, int4)
	IS 'internal to textfp_sources on a Citus table: the source query of every shard, with the df of the query''s seeds in the whole table, merged and ranked';

-- ---- corpus-wide repeated spans (new in 1.2) ----
-- textfp_repeated_spans(corpus): every span of a row's text that also occurs
-- in another row (at least min_units units: Han characters and words,
-- folded as the passage fingerprint folds them), with the first other row
-- it occurs in; textfp_remove_repeated(corpus): every row's text without
-- the spans an earlier row already has (training-data deduplication, first
-- occurrence kept).  Exact; the definition is in src/core/tfp_repeat.h.

CREATE FUNCTION @extschema@.textfp_repeated_spans(
		corpus regclass,
		id_column name DEFAULT 'id',
		text_column name DEFAULT 'body',
		min_units int4 DEFAULT 50,
		reading boolean DEFAULT false)
	RETURNS TABLE(id int8, start int4, length int4, units int4, other_id int8, other_start int4)
	AS 'MODULE_PATHNAME', 'textfp_repeated_spans'
	LANGUAGE C STABLE PARALLEL RESTRICTED COST 10000 ROWS 1000;
COMMENT ON FUNCTION @extschema@.textfp_repeated_spans(regclass, name, name, int4, boolean)
	IS 'every maximal span of at least min_units units (Han characters and words, folded; homophones one unit with reading) of a row''s text that occurs in another row of the table: its position in characters, and where it occurs in the first other row (by id) that has it';

CREATE FUNCTION @extschema@.textfp_remove_repeated(
		corpus regclass,
		id_column name DEFAULT 'id',
		text_column name DEFAULT 'body',
		min_units int4 DEFAULT 50,
		mask text DEFAULT NULL,
		reading boolean DEFAULT false)
	RETURNS TABLE(id int8, body text, removed_units int4)
	AS 'MODULE_PATHNAME', 'textfp_remove_repeated'
	LANGUAGE C STABLE PARALLEL RESTRICTED COST 10000 ROWS 1000;
COMMENT ON FUNCTION @extschema@.textfp_remove_repeated(regclass, name, name, int4, text, boolean)
	IS 'every row''s text, in id order, without the spans of at least min_units units that a row of a smaller id has too (first occurrence kept; each removed span replaced by mask when it is not null), and the number of units removed';
