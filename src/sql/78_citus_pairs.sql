-- ---- Citus: the all-pairs search on the workers (docs/citus.md) ----
-- simhash_pairs(rel, ...) and simhash_clusters(rel, ...) of a distributed
-- table route every row to the partitions of its block keys
-- (textfp_citus_pairs_route, in an INSERT ... SELECT that Citus
-- repartitions between the workers) and run the tables of each partition
-- on its worker (textfp_citus_pairs_agg, grouped by the partition): see
-- src/pg/citus_pairs.c.  Internal to that search; textfp.citus_pairs =
-- coordinator reads the rows on the coordinator instead.

CREATE FUNCTION @extschema@.textfp_citus_pairs_route(fp int8, radius int4, nblocks int4,
		dests int4[], g int4)
	RETURNS int4
	AS 'MODULE_PATHNAME', 'textfp_citus_pairs_route'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.textfp_citus_pairs_route(int8, int4, int4, int4[], int4)
	IS 'the partition (of dests) of group g of a fingerprint in the distributed all-pairs search, NULL if a lower group goes there too (internal)';

CREATE FUNCTION @extschema@.textfp_citus_pairs_acc(internal, int4, int8, int8, int4, int4, int4[])
	RETURNS internal
	AS 'MODULE_PATHNAME', 'textfp_citus_pairs_acc'
	LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.textfp_citus_pairs_acc(internal, int4, int8, int8, int4, int4, int4[])
	IS 'transition function of textfp_citus_pairs_agg (internal)';

CREATE FUNCTION @extschema@.textfp_citus_pairs_final(internal)
	RETURNS int8[]
	AS 'MODULE_PATHNAME', 'textfp_citus_pairs_final'
	LANGUAGE C IMMUTABLE PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.textfp_citus_pairs_final(internal)
	IS 'final function of textfp_citus_pairs_agg (internal)';

CREATE AGGREGATE @extschema@.textfp_citus_pairs_agg(dest int4, id int8, fp int8, radius int4,
		nblocks int4, dests int4[]) (
	SFUNC = @extschema@.textfp_citus_pairs_acc,
	STYPE = internal,
	FINALFUNC = @extschema@.textfp_citus_pairs_final,
	PARALLEL = SAFE
);
COMMENT ON AGGREGATE @extschema@.textfp_citus_pairs_agg(int4, int8, int8, int4, int4, int4[])
	IS 'the pairs (id_a, id_b, distance triples) of partition dest of the distributed all-pairs search (internal)';
