
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
