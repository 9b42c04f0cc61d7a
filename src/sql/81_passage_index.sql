
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

-- ---- source retrieval on Citus (docs/citus.md, "Passages") ----
-- textfp_sources() on a Citus table runs textfp_citus_sources(): the df of
-- the query's seeds on every shard (textfp_sources_df), added up, so that
-- max_docs and each passage's frequency count the whole table as on one
-- node; then the source query of every shard with that df
-- (textfp_sources_shard, each shard through its own passage index), the
-- sources merged and ranked as textfp_sources() ranks them.

CREATE FUNCTION @extschema@.textfp_sources_df(
		query text, corpus regclass, id_column name, text_column name,
		boilerplate @extschema@.textfp_boilerplate, use_index boolean)
	RETURNS int4[]
	AS 'MODULE_PATHNAME', 'textfp_sources_df'
	LANGUAGE C STABLE PARALLEL RESTRICTED;
COMMENT ON FUNCTION @extschema@.textfp_sources_df(text, regclass, name, name, @extschema@.textfp_boilerplate, boolean)
	IS 'internal to textfp_sources on Citus: the df (passage index entries of its key) of each seed of the query in one table';

CREATE FUNCTION @extschema@.textfp_sources_shard(
		query text, corpus regclass, id_column name, text_column name,
		min_length int4, max_sources int4, max_docs int4,
		boilerplate @extschema@.textfp_boilerplate, use_index boolean,
		max_candidates int4, df int4[])
	RETURNS TABLE(rank int4, source_id int8, share float8, source_passages int4,
				  passage int4, source_start int4, source_length int4,
				  query_start int4, query_length int4, matched int4,
				  similarity float8, frequency int4, passage_units int4)
	AS 'MODULE_PATHNAME', 'textfp_sources'
	LANGUAGE C STABLE PARALLEL RESTRICTED COST 10000 ROWS 10;
COMMENT ON FUNCTION @extschema@.textfp_sources_shard(text, regclass, name, name, int4, int4, int4, @extschema@.textfp_boilerplate, boolean, int4, int4[])
	IS 'internal to textfp_sources on Citus: textfp_sources on one shard, the df of the query''s seeds given, with each passage''s length in units';

CREATE FUNCTION @extschema@.textfp_citus_sources(
		query text, corpus regclass, id_column name, text_column name,
		min_length int4, max_sources int4, max_docs int4,
		boilerplate @extschema@.textfp_boilerplate, use_index boolean,
		max_candidates int4)
	RETURNS TABLE(rank int4, source_id int8, share float8, source_passages int4,
				  passage int4, source_start int4, source_length int4,
				  query_start int4, query_length int4, matched int4,
				  similarity float8, frequency int4)
	LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	-- the shard's name in place of %s, quoted as a literal whatever it is
	shard constant text := '$tfp_shard$%s$tfp_shard$::pg_catalog.regclass';
	cmd text;
	ok text[];
	failed text;
	nlens bigint;
	df int4[];
BEGIN
	-- 1. the df of every seed of the query on every shard, added up
	cmd := pg_catalog.format('SELECT @extschema@.textfp_sources_df(%L, %s, %L, %L, %L::@extschema@.textfp_boilerplate, %L)',
							 query, shard, id_column, text_column, boilerplate::text, use_index);
	SELECT pg_catalog.array_agg(c.result) FILTER (WHERE c.success),
		   pg_catalog.string_agg('shard ' || c.shardid || ': ' || c.result, '; ') FILTER (WHERE NOT c.success)
	  INTO ok, failed
	  FROM pg_catalog.run_command_on_shards(corpus, cmd) c;
	IF failed IS NOT NULL THEN
		RAISE EXCEPTION 'textfp_sources failed on a shard of %', corpus
			USING ERRCODE = '38000', DETAIL = failed;
	END IF;
	SELECT pg_catalog.count(DISTINCT pg_catalog.cardinality(a::int4[])) INTO nlens FROM pg_catalog.unnest(ok) a;
	IF nlens > 1 THEN
		RAISE EXCEPTION 'the shards of % have passage indexes of different options', corpus
			USING ERRCODE = '22023',
				  DETAIL = 'The query has a different number of seeds on different shards.',
				  HINT = 'Recreate the passage index of the distributed table with one set of options.';
	END IF;
	SELECT coalesce(pg_catalog.array_agg(t.n ORDER BY t.i), '{}') INTO df
	  FROM (SELECT u.i, LEAST(pg_catalog.sum(u.v), 2147483647)::int4 AS n
			  FROM pg_catalog.unnest(ok) a, pg_catalog.unnest(a::int4[]) WITH ORDINALITY u(v, i)
			 GROUP BY u.i) t;

	-- 2. the sources of every shard with that df, merged
	cmd := pg_catalog.format('SELECT COALESCE(pg_catalog.json_agg(s), ''[]'') FROM '
							 '@extschema@.textfp_sources_shard(%L, %s, %L, %L, %s, %s, %s, '
							 '%L::@extschema@.textfp_boilerplate, %L, %s, %L::pg_catalog.int4[]) s',
							 query, shard, id_column, text_column, min_length, max_sources, max_docs,
							 boilerplate::text, use_index, max_candidates, df::text);
	SELECT pg_catalog.array_agg(c.shardid || ' ' || c.result) FILTER (WHERE c.success),
		   pg_catalog.string_agg('shard ' || c.shardid || ': ' || c.result, '; ') FILTER (WHERE NOT c.success)
	  INTO ok, failed
	  FROM pg_catalog.run_command_on_shards(corpus, cmd) c;
	IF failed IS NOT NULL THEN
		RAISE EXCEPTION 'textfp_sources failed on a shard of %', corpus
			USING ERRCODE = '38000', DETAIL = failed;
	END IF;
	RETURN QUERY
	WITH r AS (
		SELECT pg_catalog.split_part(o, ' ', 1)::int8 AS shardid, x.*
		  FROM pg_catalog.unnest(ok) o,
			   pg_catalog.json_to_recordset(pg_catalog.substr(o, pg_catalog.strpos(o, ' ') + 1)::json)
				 AS x(rank int4, source_id int8, share float8, source_passages int4, passage int4,
					  source_start int4, source_length int4, query_start int4, query_length int4,
					  matched int4, similarity float8, frequency int4, passage_units int4)),
	-- ranked as textfp_sources() ranks: share, longest passage (in the
	-- query's units), id
	s AS (
		SELECT r.shardid, r.source_id,
			   pg_catalog.row_number() OVER (ORDER BY pg_catalog.max(r.share) DESC,
											 pg_catalog.max(r.passage_units) DESC,
											 r.source_id, r.shardid) AS rk
		  FROM r GROUP BY r.shardid, r.source_id)
	SELECT s.rk::int4, r.source_id, r.share, r.source_passages, r.passage, r.source_start,
		   r.source_length, r.query_start, r.query_length, r.matched, r.similarity, r.frequency
	  FROM r JOIN s USING (shardid, source_id)
	 WHERE s.rk <= max_sources
	 ORDER BY s.rk, r.passage;
END
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_citus_sources(text, regclass, name, name, int4, int4, int4, @extschema@.textfp_boilerplate, boolean, int4)
	IS 'internal to textfp_sources on a Citus table: the source query of every shard, with the df of the query''s seeds in the whole table, merged and ranked';
