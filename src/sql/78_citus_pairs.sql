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
