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
