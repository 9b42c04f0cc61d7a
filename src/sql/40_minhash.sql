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
