--
-- minhash_similar's support function (1.3): it makes the planner load
-- textfp in a session that has not yet (so that the planner hook that keeps
-- textfp.minhash_threshold from silently staying on a Citus coordinator is
-- in place), and refuses, with 0A000 naming minhash_query, the statement it
-- is called for when that statement would be answered at the workers'
-- threshold (src/pg/minhash_citus.c).  It simplifies nothing.
CREATE FUNCTION @extschema@.minhash_similar_support(internal) RETURNS internal
	AS 'MODULE_PATHNAME', 'minhash_similar_support'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.minhash_similar_support(internal)
	IS 'planner support of minhash % minhash: refuses a threshold that would not reach Citus workers';
ALTER FUNCTION @extschema@.minhash_similar(@extschema@.minhash, @extschema@.minhash)
	SUPPORT @extschema@.minhash_similar_support;
