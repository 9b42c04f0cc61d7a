-- textfp install script, assembled at build time from src/sql/*.sql
-- (see the Makefile): one fragment per concern, applied in file-name order.

\echo Use "CREATE EXTENSION textfp" to load this file. \quit
--
-- The 64-bit fingerprint type simhash: I/O, casts, ordering, hashing,
-- Hamming distance.
--

CREATE TYPE @extschema@.simhash;

CREATE FUNCTION @extschema@.simhash_in(cstring) RETURNS @extschema@.simhash
	AS 'MODULE_PATHNAME', 'simhash_in'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash_out(@extschema@.simhash) RETURNS cstring
	AS 'MODULE_PATHNAME', 'simhash_out'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash_recv(internal) RETURNS @extschema@.simhash
	AS 'MODULE_PATHNAME', 'simhash_recv'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash_send(@extschema@.simhash) RETURNS bytea
	AS 'MODULE_PATHNAME', 'simhash_send'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- LIKE int8: 8 bytes, double alignment, passed by value where Datum is 64-bit
CREATE TYPE @extschema@.simhash (
	INPUT = @extschema@.simhash_in,
	OUTPUT = @extschema@.simhash_out,
	RECEIVE = @extschema@.simhash_recv,
	SEND = @extschema@.simhash_send,
	LIKE = pg_catalog.int8
);
COMMENT ON TYPE @extschema@.simhash IS '64-bit text fingerprint compared by Hamming distance';

-- casts: the same 64 bits as bigint; as bit(64) the first bit is bit 63
CREATE FUNCTION @extschema@.simhash_from_bigint(bigint) RETURNS @extschema@.simhash
	AS 'MODULE_PATHNAME', 'simhash_from_bigint'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.simhash_to_bigint(@extschema@.simhash) RETURNS bigint
	AS 'MODULE_PATHNAME', 'simhash_to_bigint'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.simhash_from_bit(bit) RETURNS @extschema@.simhash
	AS 'MODULE_PATHNAME', 'simhash_from_bit'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash_to_bit(@extschema@.simhash) RETURNS bit
	AS 'MODULE_PATHNAME', 'simhash_to_bit'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE CAST (bigint AS @extschema@.simhash)
	WITH FUNCTION @extschema@.simhash_from_bigint(bigint);
CREATE CAST (@extschema@.simhash AS bigint)
	WITH FUNCTION @extschema@.simhash_to_bigint(@extschema@.simhash);
CREATE CAST (bit AS @extschema@.simhash)
	WITH FUNCTION @extschema@.simhash_from_bit(bit);
CREATE CAST (@extschema@.simhash AS bit)
	WITH FUNCTION @extschema@.simhash_to_bit(@extschema@.simhash);

-- comparison, in the order of the unsigned 64-bit value
CREATE FUNCTION @extschema@.simhash_eq(@extschema@.simhash, @extschema@.simhash) RETURNS boolean
	AS 'MODULE_PATHNAME', 'simhash_eq' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.simhash_ne(@extschema@.simhash, @extschema@.simhash) RETURNS boolean
	AS 'MODULE_PATHNAME', 'simhash_ne' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.simhash_lt(@extschema@.simhash, @extschema@.simhash) RETURNS boolean
	AS 'MODULE_PATHNAME', 'simhash_lt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.simhash_le(@extschema@.simhash, @extschema@.simhash) RETURNS boolean
	AS 'MODULE_PATHNAME', 'simhash_le' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.simhash_gt(@extschema@.simhash, @extschema@.simhash) RETURNS boolean
	AS 'MODULE_PATHNAME', 'simhash_gt' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.simhash_ge(@extschema@.simhash, @extschema@.simhash) RETURNS boolean
	AS 'MODULE_PATHNAME', 'simhash_ge' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.simhash_cmp(@extschema@.simhash, @extschema@.simhash) RETURNS int4
	AS 'MODULE_PATHNAME', 'simhash_cmp' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.simhash_sortsupport(internal) RETURNS void
	AS 'MODULE_PATHNAME', 'simhash_sortsupport' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash_hash(@extschema@.simhash) RETURNS int4
	AS 'MODULE_PATHNAME', 'simhash_hash' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.simhash_hash_extended(@extschema@.simhash, bigint) RETURNS bigint
	AS 'MODULE_PATHNAME', 'simhash_hash_extended' LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR @extschema@.= (
	LEFTARG = @extschema@.simhash, RIGHTARG = @extschema@.simhash,
	FUNCTION = @extschema@.simhash_eq,
	COMMUTATOR = OPERATOR(@extschema@.=), NEGATOR = OPERATOR(@extschema@.<>),
	RESTRICT = eqsel, JOIN = eqjoinsel, HASHES, MERGES
);
CREATE OPERATOR @extschema@.<> (
	LEFTARG = @extschema@.simhash, RIGHTARG = @extschema@.simhash,
	FUNCTION = @extschema@.simhash_ne,
	COMMUTATOR = OPERATOR(@extschema@.<>), NEGATOR = OPERATOR(@extschema@.=),
	RESTRICT = neqsel, JOIN = neqjoinsel
);
CREATE OPERATOR @extschema@.< (
	LEFTARG = @extschema@.simhash, RIGHTARG = @extschema@.simhash,
	FUNCTION = @extschema@.simhash_lt,
	COMMUTATOR = OPERATOR(@extschema@.>), NEGATOR = OPERATOR(@extschema@.>=),
	RESTRICT = scalarltsel, JOIN = scalarltjoinsel
);
CREATE OPERATOR @extschema@.<= (
	LEFTARG = @extschema@.simhash, RIGHTARG = @extschema@.simhash,
	FUNCTION = @extschema@.simhash_le,
	COMMUTATOR = OPERATOR(@extschema@.>=), NEGATOR = OPERATOR(@extschema@.>),
	RESTRICT = scalarlesel, JOIN = scalarlejoinsel
);
CREATE OPERATOR @extschema@.> (
	LEFTARG = @extschema@.simhash, RIGHTARG = @extschema@.simhash,
	FUNCTION = @extschema@.simhash_gt,
	COMMUTATOR = OPERATOR(@extschema@.<), NEGATOR = OPERATOR(@extschema@.<=),
	RESTRICT = scalargtsel, JOIN = scalargtjoinsel
);
CREATE OPERATOR @extschema@.>= (
	LEFTARG = @extschema@.simhash, RIGHTARG = @extschema@.simhash,
	FUNCTION = @extschema@.simhash_ge,
	COMMUTATOR = OPERATOR(@extschema@.<=), NEGATOR = OPERATOR(@extschema@.<),
	RESTRICT = scalargesel, JOIN = scalargejoinsel
);

CREATE OPERATOR CLASS @extschema@.simhash_ops
	DEFAULT FOR TYPE @extschema@.simhash USING btree AS
	OPERATOR 1 @extschema@.< ,
	OPERATOR 2 @extschema@.<= ,
	OPERATOR 3 @extschema@.= ,
	OPERATOR 4 @extschema@.>= ,
	OPERATOR 5 @extschema@.> ,
	FUNCTION 1 @extschema@.simhash_cmp(@extschema@.simhash, @extschema@.simhash),
	FUNCTION 2 @extschema@.simhash_sortsupport(internal);

CREATE OPERATOR CLASS @extschema@.simhash_ops
	DEFAULT FOR TYPE @extschema@.simhash USING hash AS
	OPERATOR 1 @extschema@.= ,
	FUNCTION 1 @extschema@.simhash_hash(@extschema@.simhash),
	FUNCTION 2 @extschema@.simhash_hash_extended(@extschema@.simhash, bigint);

-- Hamming distance: the number of differing bits, 0..64
CREATE FUNCTION @extschema@.simhash_dist(@extschema@.simhash, @extschema@.simhash) RETURNS int4
	AS 'MODULE_PATHNAME', 'simhash_dist'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.simhash_dist(@extschema@.simhash, @extschema@.simhash)
	IS 'Hamming distance between two fingerprints (number of differing bits)';

CREATE OPERATOR @extschema@.<-> (
	LEFTARG = @extschema@.simhash, RIGHTARG = @extschema@.simhash,
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
	RETURNS @extschema@.simhash
	AS 'MODULE_PATHNAME', 'simhash_text'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION @extschema@.simhash(text, int4, int4, boolean, boolean, boolean, boolean)
	IS 'SimHash of a text: Han n-grams and word shingles, occurrence-weighted';

CREATE FUNCTION @extschema@.simhash(features text[])
	RETURNS @extschema@.simhash
	AS 'MODULE_PATHNAME', 'simhash_features'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.simhash(text[])
	IS 'SimHash of caller-supplied features, each of weight 1';

CREATE FUNCTION @extschema@.simhash(features text[], weights float4[])
	RETURNS @extschema@.simhash
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
	RETURNS @extschema@.simhash
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

CREATE TYPE @extschema@.simhash_ball;

CREATE FUNCTION @extschema@.simhash_ball_in(cstring) RETURNS @extschema@.simhash_ball
	AS 'MODULE_PATHNAME', 'simhash_ball_in'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash_ball_out(@extschema@.simhash_ball) RETURNS cstring
	AS 'MODULE_PATHNAME', 'simhash_ball_out'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash_ball_recv(internal) RETURNS @extschema@.simhash_ball
	AS 'MODULE_PATHNAME', 'simhash_ball_recv'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash_ball_send(@extschema@.simhash_ball) RETURNS bytea
	AS 'MODULE_PATHNAME', 'simhash_ball_send'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE @extschema@.simhash_ball (
	INPUT = @extschema@.simhash_ball_in,
	OUTPUT = @extschema@.simhash_ball_out,
	RECEIVE = @extschema@.simhash_ball_recv,
	SEND = @extschema@.simhash_ball_send,
	INTERNALLENGTH = 16,
	ALIGNMENT = double
);
COMMENT ON TYPE @extschema@.simhash_ball IS
	'Hamming ball: the fingerprints within a radius of a centre (text form: 16 hex digits/radius)';

-- Two arguments, so never mistaken for a cast to the type simhash_ball.
CREATE FUNCTION @extschema@.simhash_ball(center @extschema@.simhash, radius int4)
	RETURNS @extschema@.simhash_ball
	AS 'MODULE_PATHNAME', 'simhash_ball_make'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.simhash_ball(@extschema@.simhash, int4) IS
	'the ball of fingerprints within radius bits of center (radius < 0: empty; >= 64: all)';
CREATE FUNCTION @extschema@.simhash_ball_open(center @extschema@.simhash, bound int4)
	RETURNS @extschema@.simhash_ball
	AS 'MODULE_PATHNAME', 'simhash_ball_open'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
COMMENT ON FUNCTION @extschema@.simhash_ball_open(@extschema@.simhash, int4) IS
	'the fingerprints at distance < bound from center (the ball of radius bound - 1)';
CREATE FUNCTION @extschema@.simhash_ball_center(@extschema@.simhash_ball)
	RETURNS @extschema@.simhash
	AS 'MODULE_PATHNAME', 'simhash_ball_center'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.simhash_ball_radius(@extschema@.simhash_ball)
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

CREATE FUNCTION @extschema@.simhash_in_ball(@extschema@.simhash, @extschema@.simhash_ball)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'simhash_in_ball'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;
CREATE FUNCTION @extschema@.simhash_ball_contains(@extschema@.simhash_ball, @extschema@.simhash)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'simhash_ball_contains'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF;

CREATE OPERATOR @extschema@.<@ (
	LEFTARG = @extschema@.simhash, RIGHTARG = @extschema@.simhash_ball,
	FUNCTION = @extschema@.simhash_in_ball,
	COMMUTATOR = OPERATOR(@extschema@.@>),
	RESTRICT = @extschema@.simhash_ball_restrict,
	JOIN = @extschema@.simhash_ball_joinsel
);
CREATE OPERATOR @extschema@.@> (
	LEFTARG = @extschema@.simhash_ball, RIGHTARG = @extschema@.simhash,
	FUNCTION = @extschema@.simhash_ball_contains,
	COMMUTATOR = OPERATOR(@extschema@.<@),
	RESTRICT = @extschema@.simhash_ball_restrict,
	JOIN = @extschema@.simhash_ball_joinsel
);

-- simhash_within(a, b, k) = simhash_dist(a, b) <= k, indexable via its support function
CREATE FUNCTION @extschema@.simhash_within_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'simhash_within_support'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash_within(a @extschema@.simhash, b @extschema@.simhash, radius int4)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'simhash_within'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE LEAKPROOF
	SUPPORT @extschema@.simhash_within_support;
COMMENT ON FUNCTION @extschema@.simhash_within(@extschema@.simhash, @extschema@.simhash, int4) IS
	'true when the fingerprints differ in at most radius bits (uses a simhash index)';

-- simhash_dist's support function only makes the planner load the library,
-- whose set_rel_pathlist hook indexes "simhash_dist(fp, q) <= k"
CREATE FUNCTION @extschema@.simhash_dist_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'simhash_dist_support'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
ALTER FUNCTION @extschema@.simhash_dist(@extschema@.simhash, @extschema@.simhash)
	SUPPORT @extschema@.simhash_dist_support;

-- ---- GIN: multi-index hashing (default for simhash) ----

CREATE FUNCTION @extschema@.simhash_gin_extract_value(@extschema@.simhash, internal, internal)
	RETURNS internal
	AS 'MODULE_PATHNAME', 'simhash_gin_extract_value'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash_gin_extract_query(@extschema@.simhash, internal, int2,
		internal, internal, internal, internal)
	RETURNS internal
	AS 'MODULE_PATHNAME', 'simhash_gin_extract_query'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash_gin_consistent(internal, int2, @extschema@.simhash, int4,
		internal, internal, internal, internal)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'simhash_gin_consistent'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash_gin_triconsistent(internal, int2, @extschema@.simhash, int4,
		internal, internal, internal)
	RETURNS "char"
	AS 'MODULE_PATHNAME', 'simhash_gin_triconsistent'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash_gin_options(internal)
	RETURNS void
	AS 'MODULE_PATHNAME', 'simhash_gin_options'
	LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE OPERATOR CLASS @extschema@.simhash_gin_ops
	DEFAULT FOR TYPE @extschema@.simhash USING gin AS
	OPERATOR 1 @extschema@.<@ (@extschema@.simhash, @extschema@.simhash_ball),
	FUNCTION 1 pg_catalog.btint4cmp(int4, int4),
	FUNCTION 2 @extschema@.simhash_gin_extract_value(@extschema@.simhash, internal, internal),
	FUNCTION 3 @extschema@.simhash_gin_extract_query(@extschema@.simhash, internal, int2,
		internal, internal, internal, internal),
	FUNCTION 4 @extschema@.simhash_gin_consistent(internal, int2, @extschema@.simhash, int4,
		internal, internal, internal, internal),
	FUNCTION 6 @extschema@.simhash_gin_triconsistent(internal, int2, @extschema@.simhash, int4,
		internal, internal, internal),
	FUNCTION 7 @extschema@.simhash_gin_options(internal),
	STORAGE int4;

-- ---- GiST: nearest neighbours ----
-- (Radius search is the GIN class's job: the GiST lower bound prunes far
-- less, so the class does not offer <@ and the planner never prefers it.)

CREATE TYPE @extschema@.simhash_gkey;
CREATE FUNCTION @extschema@.simhash_gkey_in(cstring) RETURNS @extschema@.simhash_gkey
	AS 'MODULE_PATHNAME', 'simhash_gkey_in'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash_gkey_out(@extschema@.simhash_gkey) RETURNS cstring
	AS 'MODULE_PATHNAME', 'simhash_gkey_out'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE TYPE @extschema@.simhash_gkey (
	INPUT = @extschema@.simhash_gkey_in,
	OUTPUT = @extschema@.simhash_gkey_out,
	INTERNALLENGTH = 16,
	ALIGNMENT = double
);
COMMENT ON TYPE @extschema@.simhash_gkey IS
	'internal key of the simhash GiST operator class (common bits and their mask)';

CREATE FUNCTION @extschema@.simhash_gist_consistent(internal, @extschema@.simhash, int2, oid, internal)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'simhash_gist_consistent'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash_gist_distance(internal, @extschema@.simhash, int2, oid, internal)
	RETURNS float8
	AS 'MODULE_PATHNAME', 'simhash_gist_distance'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash_gist_union(internal, internal)
	RETURNS @extschema@.simhash_gkey
	AS 'MODULE_PATHNAME', 'simhash_gist_union'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash_gist_compress(internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'simhash_gist_compress'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash_gist_decompress(internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'simhash_gist_decompress'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash_gist_penalty(internal, internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'simhash_gist_penalty'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash_gist_picksplit(internal, internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'simhash_gist_picksplit'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash_gist_same(@extschema@.simhash_gkey, @extschema@.simhash_gkey, internal)
	RETURNS internal
	AS 'MODULE_PATHNAME', 'simhash_gist_same'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash_gist_fetch(internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'simhash_gist_fetch'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.simhash_gist_sortsupport(internal) RETURNS void
	AS 'MODULE_PATHNAME', 'simhash_gist_sortsupport'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR CLASS @extschema@.simhash_gist_ops
	FOR TYPE @extschema@.simhash USING gist AS
	OPERATOR 15 @extschema@.<-> (@extschema@.simhash, @extschema@.simhash)
		FOR ORDER BY pg_catalog.integer_ops,
	FUNCTION 1 @extschema@.simhash_gist_consistent(internal, @extschema@.simhash, int2, oid, internal),
	FUNCTION 2 @extschema@.simhash_gist_union(internal, internal),
	FUNCTION 3 @extschema@.simhash_gist_compress(internal),
	FUNCTION 4 @extschema@.simhash_gist_decompress(internal),
	FUNCTION 5 @extschema@.simhash_gist_penalty(internal, internal, internal),
	FUNCTION 6 @extschema@.simhash_gist_picksplit(internal, internal),
	FUNCTION 7 @extschema@.simhash_gist_same(@extschema@.simhash_gkey, @extschema@.simhash_gkey, internal),
	FUNCTION 8 @extschema@.simhash_gist_distance(internal, @extschema@.simhash, int2, oid, internal),
	FUNCTION 9 @extschema@.simhash_gist_fetch(internal),
	STORAGE @extschema@.simhash_gkey;

-- sorted GiST build (support function 11) exists from PostgreSQL 14
DO $$
BEGIN
	IF current_setting('server_version_num')::int >= 140000 THEN
		EXECUTE 'ALTER OPERATOR FAMILY @extschema@.simhash_gist_ops USING gist ADD '
			'FUNCTION 11 (@extschema@.simhash) @extschema@.simhash_gist_sortsupport(internal)';
	END IF;
END
$$;
--
-- MinHash: the minhash signature type, minhash(), minhash_jaccard(), the %
-- operator (textfp.minhash_threshold), equality and order with btree and hash
-- classes, the exact shingles()/shingle_jaccard() and the LSH-banded GIN
-- operator class minhash_lsh_ops.  See docs/minhash.md.
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

CREATE OPERATOR CLASS @extschema@.minhash_lsh_ops
	DEFAULT FOR TYPE @extschema@.minhash USING gin AS
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
