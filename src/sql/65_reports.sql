--
-- Reports over a match table (textfp_check_arrivals' records): clusters of
-- the match graph and their sizes, duplicates per source and per day, the
-- most copied rows, and textfp_report(), one self-contained HTML page with
-- all of them.  Set-returning functions rather than views, because the
-- match table and the corpus are the user's, named in the call.  A NULL
-- method means the records of every method.
--

CREATE FUNCTION @extschema@.textfp_html_escape(t text)
	RETURNS text
	LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
AS $fn$
SELECT pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(pg_catalog.replace(
	pg_catalog.regexp_replace(t, '[\x01-\x08\x0B\x0C\x0E-\x1F\x7F]', '', 'g'),
	'&', '&amp;'), '<', '&lt;'), '>', '&gt;'), '"', '&quot;'), '''', '&#39;')
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_html_escape(text)
	IS 'the text with & < > " and '' written as character references (control characters other than tab and line breaks dropped): safe as HTML content and in quoted attributes';

CREATE FUNCTION @extschema@.textfp_match_clusters(matches regclass, method text DEFAULT NULL)
	RETURNS TABLE (id bigint, cluster_id bigint, cluster_size bigint, representative bigint)
	LANGUAGE plpgsql STABLE PARALLEL UNSAFE ROWS 1000
	SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
	IF matches IS NULL THEN
		RAISE EXCEPTION 'textfp_match_clusters: matches must not be NULL' USING ERRCODE = '22004';
	END IF;
	RETURN QUERY EXECUTE pg_catalog.format(
		'SELECT * FROM %s.textfp_clusters(%L)',
		(SELECT e.extnamespace::regnamespace::text FROM pg_catalog.pg_extension e WHERE e.extname = 'textfp'),
		pg_catalog.format('SELECT m.new_id, m.matched_id FROM %s m WHERE %L::text IS NULL OR m.method = %L',
						  matches, method, method));
END
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_match_clusters(regclass, text)
	IS 'connected components of the pairs of a match table: one row per id, cluster_id = representative = smallest id';

CREATE FUNCTION @extschema@.textfp_cluster_sizes(matches regclass, method text DEFAULT NULL)
	RETURNS TABLE (cluster_size bigint, clusters bigint, rows bigint)
	LANGUAGE sql STABLE PARALLEL UNSAFE
AS $fn$
SELECT c.cluster_size, pg_catalog.count(DISTINCT c.cluster_id), pg_catalog.count(*)
FROM @extschema@.textfp_match_clusters(matches, method) c
GROUP BY c.cluster_size ORDER BY c.cluster_size
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_cluster_sizes(regclass, text)
	IS 'cluster size distribution of a match table: clusters of each size and the rows in them';

CREATE FUNCTION @extschema@.textfp_most_copied(matches regclass, n int4 DEFAULT 20, method text DEFAULT NULL)
	RETURNS TABLE (matched_id bigint, copies bigint, best_similarity float8, least_distance int4,
				   first_copied timestamptz, last_copied timestamptz)
	LANGUAGE plpgsql STABLE PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
	IF matches IS NULL THEN
		RAISE EXCEPTION 'textfp_most_copied: matches must not be NULL' USING ERRCODE = '22004';
	END IF;
	RETURN QUERY EXECUTE pg_catalog.format(
		'SELECT m.matched_id::bigint, pg_catalog.count(DISTINCT m.new_id), pg_catalog.max(m.similarity)::float8,
				pg_catalog.min(m.distance)::int4, pg_catalog.min(m.matched_at)::timestamptz,
				pg_catalog.max(m.matched_at)::timestamptz
		 FROM %s m WHERE $1 IS NULL OR m.method = $1
		 GROUP BY m.matched_id ORDER BY 2 DESC, 1 LIMIT $2', matches)
		USING method, n;
END
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_most_copied(regclass, int4, text)
	IS 'the n rows of a match table matched by the most new rows (the most copied originals)';

CREATE FUNCTION @extschema@.textfp_duplicates_by_day(matches regclass, method text DEFAULT NULL,
		corpus regclass DEFAULT NULL, date_column name DEFAULT NULL, id_column name DEFAULT 'id')
	RETURNS TABLE (day date, copies bigint, pairs bigint, originals bigint)
	LANGUAGE plpgsql STABLE PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
	IF matches IS NULL THEN
		RAISE EXCEPTION 'textfp_duplicates_by_day: matches must not be NULL' USING ERRCODE = '22004';
	END IF;
	IF (corpus IS NULL) <> (date_column IS NULL) THEN
		RAISE EXCEPTION 'textfp_duplicates_by_day: give both corpus and date_column, or neither'
			USING ERRCODE = '22023',
				  DETAIL = 'Without them the day is the day a match was recorded; with them, the new row''s date.';
	END IF;
	RETURN QUERY EXECUTE pg_catalog.format(
		'SELECT x.d, pg_catalog.count(DISTINCT x.new_id), pg_catalog.count(DISTINCT (x.new_id, x.matched_id)),
				pg_catalog.count(DISTINCT x.matched_id)
		 FROM (SELECT %1$s AS d, m.new_id, m.matched_id FROM %2$s m %3$s
			   WHERE $1 IS NULL OR m.method = $1) x
		 GROUP BY x.d ORDER BY x.d',
		CASE WHEN corpus IS NULL THEN 'm.matched_at::date' ELSE pg_catalog.format('c.%I::date', date_column) END,
		matches,
		CASE WHEN corpus IS NULL THEN ''
			 ELSE pg_catalog.format('JOIN %s c ON c.%I = m.new_id', corpus, id_column) END)
		USING method;
END
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_duplicates_by_day(regclass, text, regclass, name, name)
	IS 'per day (of the match, or of the new row''s date column): new rows that are copies, pairs, originals copied';

CREATE FUNCTION @extschema@.textfp_duplicates_by_source(matches regclass, corpus regclass,
		source_column name, id_column name DEFAULT 'id', method text DEFAULT NULL)
	RETURNS TABLE (source text, documents bigint, copies bigint, copies_from_other_sources bigint,
				   originals bigint, originals_copied_by_other_sources bigint)
	LANGUAGE plpgsql STABLE PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
	IF matches IS NULL OR corpus IS NULL OR source_column IS NULL OR id_column IS NULL THEN
		RAISE EXCEPTION 'textfp_duplicates_by_source: matches, corpus, source_column and id_column must not be NULL'
			USING ERRCODE = '22004';
	END IF;
	-- a source: its rows; its rows that copy another (from another source);
	-- its rows that others copied (others from another source)
	RETURN QUERY EXECUTE pg_catalog.format($q$
		WITH p AS (
			SELECT DISTINCT m.new_id, m.matched_id, cn.%3$I::text AS new_source, cm.%3$I::text AS matched_source
			FROM %1$s m JOIN %2$s cn ON cn.%4$I = m.new_id JOIN %2$s cm ON cm.%4$I = m.matched_id
			WHERE $1 IS NULL OR m.method = $1),
		docs AS (SELECT c.%3$I::text AS src, pg_catalog.count(*) AS n FROM %2$s c GROUP BY 1),
		cp AS (SELECT p.new_source AS src, pg_catalog.count(DISTINCT p.new_id) AS n,
					  pg_catalog.count(DISTINCT p.new_id) FILTER (WHERE p.matched_source IS DISTINCT FROM p.new_source) AS other
			   FROM p GROUP BY 1),
		og AS (SELECT p.matched_source AS src, pg_catalog.count(DISTINCT p.matched_id) AS n,
					  pg_catalog.count(DISTINCT p.matched_id) FILTER (WHERE p.matched_source IS DISTINCT FROM p.new_source) AS other
			   FROM p GROUP BY 1)
		SELECT d.src, d.n, coalesce(cp.n, 0), coalesce(cp.other, 0), coalesce(og.n, 0), coalesce(og.other, 0)
		FROM docs d
		LEFT JOIN cp ON cp.src IS NOT DISTINCT FROM d.src
		LEFT JOIN og ON og.src IS NOT DISTINCT FROM d.src
		ORDER BY 3 DESC, 5 DESC, 1$q$,
		matches, corpus, source_column, id_column)
		USING method;
END
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_duplicates_by_source(regclass, regclass, name, name, text)
	IS 'per source (site) of the corpus: rows, rows that copy another (from another source), rows copied by others (by another source)';

