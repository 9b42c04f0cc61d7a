
-- ---- the passage index access method (new in 1.2) ----
-- The seeds of every row's passage fingerprint with their positions, found
-- by key: "body %& passage_query(q, m)" (recheck: 34 bits of a hash are
-- kept), and the candidates of textfp_sources().

CREATE FUNCTION @extschema@.passage_handler(internal) RETURNS index_am_handler
	AS 'MODULE_PATHNAME', 'passage_handler'
	LANGUAGE C;

-- The access method and its operator classes need PostgreSQL 15 or later:
-- up to 14 only a superuser may drop an access method, so the non-superuser
-- owner of this trusted extension could not drop it (as for hamming).
DO $do$
BEGIN
	IF pg_catalog.current_setting('server_version_num')::int4 OPERATOR(pg_catalog.>=) 150000 THEN
		EXECUTE $sql$CREATE ACCESS METHOD passage TYPE INDEX HANDLER @extschema@.passage_handler$sql$;
		EXECUTE $sql$COMMENT ON ACCESS METHOD passage IS
			'textfp: the seeds of passage fingerprints with their positions, for texts sharing passages (%& passage_query, textfp_sources)'$sql$;
		EXECUTE $sql$CREATE OPERATOR CLASS @extschema@.passage_text_ops
			DEFAULT FOR TYPE text USING passage AS
			OPERATOR 1 @extschema@.%& (text, @extschema@.passage_query)$sql$;
		EXECUTE $sql$CREATE OPERATOR CLASS @extschema@.passage_fingerprint_ops
			DEFAULT FOR TYPE @extschema@.passage_fingerprint USING passage AS
			OPERATOR 1 @extschema@.%& (@extschema@.passage_fingerprint, @extschema@.passage_query)$sql$;
	END IF;
END
$do$;

CREATE FUNCTION @extschema@.passage_index_stats(index regclass,
	OUT k int4, OUT w int4, OUT reading boolean, OUT rows_indexed bigint,
	OUT sorted_entries bigint, OUT pending_entries bigint, OUT runs int4,
	OUT run_entries bigint[], OUT merges bigint)
	AS 'MODULE_PATHNAME', 'passage_index_stats'
	LANGUAGE C STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.passage_index_stats(regclass) IS
	'a passage index''s fingerprint options, the rows it indexed (build and inserts), the entries (seeds) of its sorted runs and of its pending list, its runs and their entries, and the merges since the build';

-- ---- source retrieval (new in 1.2) ----

CREATE FUNCTION @extschema@.textfp_sources(
		query text,
		corpus regclass,
		id_column name DEFAULT 'id',
		text_column name DEFAULT 'body',
		min_length int4 DEFAULT 40,
		max_sources int4 DEFAULT 10,
		max_docs int4 DEFAULT 1000,
		boilerplate @extschema@.textfp_boilerplate DEFAULT NULL,
		use_index boolean DEFAULT true,
		max_candidates int4 DEFAULT 100)
	RETURNS TABLE(rank int4, source_id int8, share float8, source_passages int4,
				  passage int4, source_start int4, source_length int4,
				  query_start int4, query_length int4, matched int4,
				  similarity float8, frequency int4)
	AS 'MODULE_PATHNAME', 'textfp_sources'
	LANGUAGE C STABLE PARALLEL RESTRICTED COST 10000 ROWS 10;
COMMENT ON FUNCTION @extschema@.textfp_sources(text, regclass, name, name, int4, int4, int4, @extschema@.textfp_boilerplate, boolean, int4)
	IS 'the stored rows a text took passages from (through the passage index of the text column), each with its passages as textfp_align reports them, ranked by the share of the text they cover';
