-- ---- Arrivals and verification on Citus (docs/citus.md) ----
-- textfp_check_arrivals on a distributed corpus (or into a distributed or
-- reference match table) runs the same searches as on one node, but in
-- statements Citus can plan: the batch of new rows stays in a temporary
-- table on the coordinator and reaches the workers as a materialized CTE
-- (an intermediate result, a copy on every worker), so every shard looks
-- the batch up in its own indexes and computes verdicts beside its own
-- texts; only ids and scores come back.  The matches are kept and
-- deduplicated on the coordinator and written with one INSERT ... ON
-- CONFLICT.  textfp_verify_pairs verifies candidate pairs of a distributed
-- corpus in two co-located steps (never a repartition join): the pairs
-- distributed by the first id fetch its text, the rows move (worker to
-- worker) to the shard of the second id, and textfp_match runs there.

-- true when textfp_check_arrivals must take its Citus path: corpus or
-- matches is a Citus table; refuses (0A000) a shard of one, where the
-- function would see one shard's rows only
CREATE FUNCTION @extschema@.textfp_citus_arrivals_mode(corpus regclass, matches regclass)
	RETURNS boolean
	LANGUAGE plpgsql STABLE PARALLEL SAFE
	SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	kinds text[] := ARRAY[@extschema@.textfp_citus_table(corpus), @extschema@.textfp_citus_table(matches)];
BEGIN
	-- a relation Citus does not know as a table may still be a shard
	PERFORM @extschema@.textfp_refuse_citus(guard.rel, 'textfp_check_arrivals',
			'Call it on the coordinator with the distributed table: docs/citus.md, "New arrivals".')
	FROM ROWS FROM (pg_catalog.unnest(ARRAY[corpus, matches]), pg_catalog.unnest(kinds)) AS guard(rel, kind)
	WHERE guard.kind IS NULL;
	-- Citus routes a statement on a reference or Citus-local table to one
	-- placement, where the batch (a temporary table) does not exist
	IF kinds[1] IN ('reference', 'citus local') OR kinds[2] = 'citus local' THEN
		RAISE EXCEPTION 'textfp_check_arrivals does not work on the % table %',
			coalesce(nullif(kinds[1], 'distributed'), kinds[2]),
			CASE WHEN kinds[1] IN ('reference', 'citus local') THEN corpus ELSE matches END
			USING ERRCODE = '0A000',
				  DETAIL = 'Citus runs its statements on one placement of the table, where the batch of new rows does not exist.',
				  HINT = 'Use a distributed corpus (create_distributed_table) or a plain one, and a distributed, reference or plain match table: docs/citus.md, "New arrivals".';
	END IF;
	RETURN kinds[1] IS NOT NULL OR kinds[2] IS NOT NULL;
END
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_citus_arrivals_mode(regclass, regclass)
	IS 'internal to textfp_check_arrivals: is corpus or matches a Citus table (0A000 for a shard of one)';

-- One method's step of textfp_check_arrivals on Citus: the found pairs of
-- found_sql (which reads the CTE batch, batch_sql), kept where keep holds
-- (it may read pg_temp.textfp_arrivals_batch), one per pair (the best),
-- written into matches.  Returns how many were found and how many written.
-- Each statement is one Citus can plan: the batch a materialized CTE (an
-- intermediate result sent to the workers), the found pairs gathered into
-- a temporary table, the rest on the coordinator.
CREATE FUNCTION @extschema@.textfp_citus_arrivals_step(batch_sql text, found_sql text, keep text,
		matches regclass, method text, boilerplate @extschema@.textfp_boilerplate,
		OUT matches_found bigint, OUT matches_written bigint)
	RETURNS record
	LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp
AS $fn$
BEGIN
	IF pg_catalog.to_regclass('pg_temp.textfp_arrivals_found') IS NOT NULL THEN
		DROP TABLE pg_temp.textfp_arrivals_found;
	END IF;
	IF pg_catalog.to_regclass('pg_temp.textfp_arrivals_kept') IS NOT NULL THEN
		DROP TABLE pg_temp.textfp_arrivals_kept;
	END IF;
	CREATE TEMP TABLE textfp_arrivals_found (new_id bigint, matched_id bigint, distance int4,
		similarity float8, new_in_corpus boolean) ON COMMIT DROP;
	EXECUTE pg_catalog.format(
		'INSERT INTO pg_temp.textfp_arrivals_found
		 SELECT f.new_id, f.matched_id, f.distance, f.similarity, f.new_in_corpus
		 FROM (WITH batch AS MATERIALIZED (%s) SELECT * FROM (%s) f) f', batch_sql, found_sql)
		USING boilerplate;
	EXECUTE pg_catalog.format(
		'CREATE TEMP TABLE textfp_arrivals_kept ON COMMIT DROP AS
		 SELECT DISTINCT ON (f.new_id, f.matched_id) f.new_id, f.matched_id, f.distance, f.similarity
		 FROM pg_temp.textfp_arrivals_found f
		 WHERE %s
		 ORDER BY f.new_id, f.matched_id, f.distance, f.similarity DESC', keep);
	SELECT pg_catalog.count(*) INTO matches_found FROM pg_temp.textfp_arrivals_kept;
	-- (counted from RETURNING: Citus's row count of an INSERT ... SELECT
	-- through the coordinator is of the rows it sent, written or not)
	EXECUTE pg_catalog.format(
		'WITH ins AS (
			INSERT INTO %s AS m (new_id, matched_id, method, distance, similarity, matched_at)
			SELECT f.new_id, f.matched_id, %L, f.distance, f.similarity, pg_catalog.now()
			FROM pg_temp.textfp_arrivals_kept f
			ON CONFLICT (new_id, matched_id, method) DO UPDATE
				SET distance = excluded.distance, similarity = excluded.similarity,
					matched_at = excluded.matched_at
				WHERE (m.distance, m.similarity) IS DISTINCT FROM (excluded.distance, excluded.similarity)
			RETURNING 1)
		 SELECT pg_catalog.count(*) FROM ins',
		matches, method) INTO matches_written;
	DROP TABLE pg_temp.textfp_arrivals_found, pg_temp.textfp_arrivals_kept;
END
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_citus_arrivals_step(text, text, text, regclass, text, @extschema@.textfp_boilerplate)
	IS 'internal to textfp_check_arrivals on Citus: run one method''s search and record its matches';

-- The pairs (id_a, id_b) of the query pairs whose two ids are rows of
-- corpus, with the verdict of method on their texts: textfp_match(text of
-- id_a, text of id_b) (its verdict and score), or shingle_jaccard(text of
-- id_b, text of id_a) (verdict: at least min_similarity).  On a
-- distributed corpus in two co-located steps, on any other in one join.
-- update: CREATE OR REPLACE
CREATE FUNCTION @extschema@.textfp_verify_pairs_by(pairs text, corpus regclass, text_column name,
		id_column name, method text, min_similarity float8,
		boilerplate @extschema@.textfp_boilerplate, query_search_path text)
	RETURNS TABLE (id_a bigint, id_b bigint, verdict boolean, score float8)
	LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp
	SET jit = off
AS $fn$
DECLARE
	ext text := (SELECT e.extnamespace::regnamespace::text FROM pg_catalog.pg_extension e
				 WHERE e.extname = 'textfp');
	kind text;
	idtype regtype;
	ttype regtype;
	distcol text;
	own_path constant text := pg_catalog.current_setting('search_path');
	tab_a text;
	tab_b text;
	verdict_sql text;
BEGIN
	IF pairs IS NULL OR corpus IS NULL OR text_column IS NULL OR id_column IS NULL THEN
		RAISE EXCEPTION 'textfp_verify_pairs: pairs, corpus, text_column and id_column must not be NULL'
			USING ERRCODE = '22004';
	END IF;
	IF query_search_path IS NULL THEN
		RAISE EXCEPTION 'textfp_verify_pairs: query_search_path must not be NULL' USING ERRCODE = '22004';
	END IF;
	kind := @extschema@.textfp_citus_table(corpus);
	IF kind IS NULL THEN
		-- a shard of a Citus table holds part of the rows
		PERFORM @extschema@.textfp_refuse_citus(corpus, 'textfp_verify_pairs',
			'Call it on the coordinator with the distributed table.');
	END IF;
	SELECT (CASE ty.typtype WHEN 'd' THEN ty.typbasetype ELSE ty.oid END)::regtype INTO idtype
	FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type ty ON ty.oid = a.atttypid
	WHERE a.attrelid = corpus AND a.attname = id_column AND a.attnum > 0 AND NOT a.attisdropped;
	SELECT (CASE ty.typtype WHEN 'd' THEN ty.typbasetype ELSE ty.oid END)::regtype INTO ttype
	FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type ty ON ty.oid = a.atttypid
	WHERE a.attrelid = corpus AND a.attname = text_column AND a.attnum > 0 AND NOT a.attisdropped;
	IF idtype IS NULL OR ttype IS NULL THEN
		RAISE EXCEPTION 'column "%" of relation % does not exist', CASE WHEN idtype IS NULL THEN id_column ELSE text_column END, corpus
			USING ERRCODE = '42703', HINT = 'Name the corpus''s columns with id_column and text_column.';
	END IF;
	IF idtype NOT IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype) THEN
		RAISE EXCEPTION 'textfp_verify_pairs: the id column "%" must be of an integer type, not %', id_column, idtype
			USING ERRCODE = '42804';
	END IF;
	IF ttype NOT IN ('text'::regtype, 'varchar'::regtype) THEN
		RAISE EXCEPTION 'textfp_verify_pairs: the text column "%" must be of type text, not %', text_column, ttype
			USING ERRCODE = '42804';
	END IF;
	pairs := pg_catalog.rtrim(pairs, E'; \t\r\n');
	-- a and b: the two rows' texts, in the statements below
	verdict_sql := CASE method
		WHEN 'textfp_match' THEN pg_catalog.format('(SELECT t.verdict, t.score FROM %s.textfp_match(a, b%s) t)',
			ext, CASE WHEN boilerplate IS NULL THEN '' ELSE ', boilerplate => $1' END)
		ELSE pg_catalog.format('(SELECT s >= %s, s FROM %s.shingle_jaccard(b, a) s)', min_similarity, ext) END;

	IF kind IS DISTINCT FROM 'distributed' THEN
		-- one join (Citus plans it on a reference table's placement).  The
		-- pairs come sorted by id_a (their ids only: a sort that carried
		-- the texts could write both texts of every pair to temporary
		-- files), kept so by OFFSET 0: where the plan keeps their order
		-- (a nested loop or a hash join they probe), textfp_match meets an
		-- id_a's pairs one after the other and reads its text once for
		-- them all (it keeps the side of an argument equal to the call
		-- before's); the answers do not depend on it
		PERFORM pg_catalog.set_config('search_path', query_search_path, true);
		RETURN QUERY EXECUTE pg_catalog.format(
			'SELECT p.id_a::bigint, p.id_b::bigint, v.verdict, v.score
			 FROM (SELECT q.id_a, q.id_b FROM (%1$s) q ORDER BY q.id_a OFFSET 0) p
			 JOIN %2$s x ON x.%3$I = p.id_a
			 JOIN %2$s y ON y.%3$I = p.id_b
			 CROSS JOIN LATERAL (SELECT x.%4$I::text AS a, y.%4$I::text AS b) t0
			 CROSS JOIN LATERAL %5$s AS v(verdict, score)',
			pairs, corpus, id_column, text_column, verdict_sql) USING boilerplate;
		PERFORM pg_catalog.set_config('search_path', own_path, true);
		RETURN;
	END IF;

	-- Distributed: Citus joins two distributed tables only on their
	-- distribution columns, so the corpus must be distributed by its id
	EXECUTE 'SELECT pg_catalog.column_to_column_name(p.logicalrelid, p.partkey) FROM pg_catalog.pg_dist_partition p WHERE p.logicalrelid = $1'
		INTO distcol USING corpus;
	IF distcol IS DISTINCT FROM id_column THEN
		RAISE EXCEPTION 'textfp_verify_pairs: the distributed table % is distributed by "%", not by its id column "%"', corpus, distcol, id_column
			USING ERRCODE = '0A000',
				  DETAIL = 'The pairs are joined with the corpus on the ids, and Citus joins distributed tables only on their distribution columns.',
				  HINT = 'Distribute the corpus by its id (create_distributed_table(corpus, id_column)).';
	END IF;
	-- step 0: the pairs, distributed by id_a and co-located with the
	-- corpus (scratch tables of this call, dropped at its end, gone with
	-- the transaction on an error)
	SELECT pg_catalog.format('%I.%I', n.nspname, 'textfp_pairs_' || pg_catalog.pg_backend_pid() || '_a'),
	       pg_catalog.format('%I.%I', n.nspname, 'textfp_pairs_' || pg_catalog.pg_backend_pid() || '_b')
		INTO tab_a, tab_b
	FROM pg_catalog.pg_class c JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace WHERE c.oid = corpus;
	EXECUTE pg_catalog.format('CREATE TABLE %s (id_a %s, id_b %s)', tab_a, idtype, idtype);
	PERFORM pg_catalog.create_distributed_table(tab_a::regclass, 'id_a', colocate_with => corpus::text);
	PERFORM pg_catalog.set_config('search_path', query_search_path, true);
	EXECUTE pg_catalog.format('INSERT INTO %s (id_a, id_b) SELECT q.id_a, q.id_b FROM (%s) q
							   WHERE q.id_a IS NOT NULL AND q.id_b IS NOT NULL', tab_a, pairs);
	PERFORM pg_catalog.set_config('search_path', own_path, true);
	-- (statistics, so that each shard joins the few pairs by the corpus's
	-- id index rather than reading all its texts)
	EXECUTE pg_catalog.format('ANALYZE %s', tab_a);
	-- step 1: beside each pair, the text of id_a, moved to the shard of
	-- id_b (a co-located join; Citus repartitions the inserted rows
	-- between the workers)
	EXECUTE pg_catalog.format('CREATE TABLE %s (id_a %s, id_b %s, text_a text)', tab_b, idtype, idtype);
	PERFORM pg_catalog.create_distributed_table(tab_b::regclass, 'id_b', colocate_with => corpus::text);
	EXECUTE pg_catalog.format('INSERT INTO %1$s (id_a, id_b, text_a) SELECT p.id_a, p.id_b, x.%4$I
							   FROM %2$s p JOIN %3$s x ON x.%5$I = p.id_a',
							  tab_b, tab_a, corpus, text_column, id_column);
	EXECUTE pg_catalog.format('ANALYZE %s', tab_b);
	-- step 2: beside the text of id_b, the verdict (a co-located join)
	RETURN QUERY EXECUTE pg_catalog.format(
		'SELECT p.id_a::bigint, p.id_b::bigint, v.verdict, v.score
		 FROM %1$s p JOIN %2$s y ON y.%3$I = p.id_b
		 CROSS JOIN LATERAL (SELECT p.text_a AS a, y.%4$I::text AS b) t0
		 CROSS JOIN LATERAL %5$s AS v(verdict, score)',
		tab_b, corpus, id_column, text_column, verdict_sql) USING boilerplate;
	EXECUTE pg_catalog.format('DROP TABLE %s, %s', tab_a, tab_b);
END
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_verify_pairs_by(text, regclass, name, name, text, float8, @extschema@.textfp_boilerplate, text)
	IS 'internal to textfp_verify_pairs and textfp_check_arrivals: verdicts on the texts of pairs of corpus rows';

CREATE FUNCTION @extschema@.textfp_verify_pairs(pairs text, corpus regclass,
		text_column name DEFAULT 'body', id_column name DEFAULT 'id',
		boilerplate @extschema@.textfp_boilerplate DEFAULT NULL,
		query_search_path text DEFAULT pg_catalog.current_setting('search_path'))
	RETURNS TABLE (id_a bigint, id_b bigint, verdict boolean, score float8)
	LANGUAGE sql VOLATILE PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp
AS $fn$
	SELECT * FROM @extschema@.textfp_verify_pairs_by(pairs, corpus, text_column, id_column,
		'textfp_match', NULL, boilerplate, query_search_path)
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_verify_pairs(text, regclass, name, name, @extschema@.textfp_boilerplate, text)
	IS 'textfp_match(text of id_a, text of id_b) for each pair (id_a, id_b) of the query pairs whose ids are rows of corpus; on a distributed corpus in two co-located steps';
