
-- ---- the hamming index access method ----
-- Multi-index hashing with the fingerprints kept in the index: exact radius
-- search (fp <@ simhash_ball(q, k), and simhash_dist(fp, q) <= k through the
-- planner hook) and exact nearest neighbours (ORDER BY fp <-> q LIMIT n).

CREATE FUNCTION @extschema@.hamming_handler(internal) RETURNS index_am_handler
	AS 'MODULE_PATHNAME', 'hamming_handler'
	LANGUAGE C;

-- The access method and its operator class need PostgreSQL 15 or later: up
-- to 14 only a superuser may drop an access method, so the non-superuser
-- owner of this trusted extension could not drop it.
DO $do$
BEGIN
	IF pg_catalog.current_setting('server_version_num')::int4 OPERATOR(pg_catalog.>=) 150000 THEN
		EXECUTE $sql$CREATE ACCESS METHOD hamming TYPE INDEX HANDLER @extschema@.hamming_handler$sql$;
		EXECUTE $sql$COMMENT ON ACCESS METHOD hamming IS
			'textfp: exact Hamming radius search and nearest neighbours of simhash64 fingerprints'$sql$;
		EXECUTE $sql$CREATE OPERATOR CLASS @extschema@.simhash64_hamming_ops
			DEFAULT FOR TYPE @extschema@.simhash64 USING hamming AS
			OPERATOR 1 @extschema@.<@ (@extschema@.simhash64, @extschema@.simhash64_ball),
			OPERATOR 15 @extschema@.<-> (@extschema@.simhash64, @extschema@.simhash64)
				FOR ORDER BY pg_catalog.integer_ops$sql$;
	END IF;
END
$do$;

CREATE FUNCTION @extschema@.hamming_index_stats(index regclass,
	OUT sorted_rows bigint, OUT pending_rows bigint, OUT pending_pages bigint,
	OUT tables int4, OUT runs int4, OUT run_rows bigint[], OUT merges bigint)
	AS 'MODULE_PATHNAME', 'hamming_index_stats'
	LANGUAGE C STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.hamming_index_stats(regclass) IS
	'rows of a hamming index''s sorted part and of its pending list (inserted since the last merge), the number of tables of its layout, its sorted runs and their rows, and the merges since the build';
