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
