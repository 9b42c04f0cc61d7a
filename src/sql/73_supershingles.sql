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
