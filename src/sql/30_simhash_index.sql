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
