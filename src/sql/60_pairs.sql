--
-- Batch near-duplicate search: simhash_pairs() finds every pair of rows
-- within a Hamming radius by sorting block-permuted keys (no index), and
-- textfp_clusters() / simhash_clusters() group pairs into connected
-- components (union-find).  Setting textfp.progress reports their phases.
--

CREATE FUNCTION @extschema@.simhash_pairs(query text, radius int4 DEFAULT 3)
	RETURNS TABLE(id_a bigint, id_b bigint, distance int4)
	AS 'MODULE_PATHNAME', 'simhash_pairs_query'
	LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE ROWS 1000;
COMMENT ON FUNCTION @extschema@.simhash_pairs(text, int4)
	IS 'every pair of rows (id, fingerprint) of the query within the Hamming radius, id_a < id_b';

CREATE FUNCTION @extschema@.simhash_pairs(rel regclass, id_column name, fp_column name,
		radius int4 DEFAULT 3)
	RETURNS TABLE(id_a bigint, id_b bigint, distance int4)
	AS 'MODULE_PATHNAME', 'simhash_pairs_rel'
	LANGUAGE C STABLE STRICT PARALLEL RESTRICTED ROWS 1000;
COMMENT ON FUNCTION @extschema@.simhash_pairs(regclass, name, name, int4)
	IS 'every pair of rows of the table (all partitions) within the Hamming radius, id_a < id_b';

CREATE FUNCTION @extschema@.textfp_clusters(pairs_query text)
	RETURNS TABLE(id bigint, cluster_id bigint, cluster_size bigint, representative bigint)
	AS 'MODULE_PATHNAME', 'textfp_clusters'
	LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE ROWS 1000;
COMMENT ON FUNCTION @extschema@.textfp_clusters(text)
	IS 'connected components of the pairs (id_a, id_b, ...) of a query: one row per id, cluster_id = smallest id';

CREATE FUNCTION @extschema@.simhash_clusters(query text, radius int4 DEFAULT 3)
	RETURNS TABLE(id bigint, cluster_id bigint, cluster_size bigint, representative bigint)
	AS 'MODULE_PATHNAME', 'simhash_clusters_query'
	LANGUAGE C VOLATILE STRICT PARALLEL UNSAFE ROWS 1000;
COMMENT ON FUNCTION @extschema@.simhash_clusters(text, int4)
	IS 'connected components of simhash_pairs(query, radius)';

CREATE FUNCTION @extschema@.simhash_clusters(rel regclass, id_column name, fp_column name,
		radius int4 DEFAULT 3)
	RETURNS TABLE(id bigint, cluster_id bigint, cluster_size bigint, representative bigint)
	AS 'MODULE_PATHNAME', 'simhash_clusters_rel'
	LANGUAGE C STABLE STRICT PARALLEL RESTRICTED ROWS 1000;
COMMENT ON FUNCTION @extschema@.simhash_clusters(regclass, name, name, int4)
	IS 'connected components of simhash_pairs(rel, id_column, fp_column, radius)';
