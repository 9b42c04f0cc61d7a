--
-- New arrivals against the corpus: textfp_check_arrivals() checks a batch
-- of new rows against an indexed corpus table and records the matches in a
-- match table of the user's (textfp_create_match_table() makes one), once
-- per (new row, matched row, method): a re-run writes nothing new.  The
-- trigger function textfp_duplicate_of() fills a duplicate_of column at
-- INSERT/UPDATE time.  All are plain SQL run with the caller's privileges;
-- dynamic statements name the extension's operators and functions with
-- their schema, so they work wherever the extension is installed and
-- whatever the caller's search_path.  textfp_check_arrivals and the trigger
-- run with search_path pg_catalog, pg_temp, so that nothing in a schema
-- the caller searches can stand in for a built-in operator or function
-- (test/t/115_hostile_search_path.pl); only the caller's own query is
-- parsed with the caller's search_path.
--

CREATE FUNCTION @extschema@.textfp_create_match_table(name text)
	RETURNS regclass
	LANGUAGE plpgsql VOLATILE STRICT PARALLEL UNSAFE
AS $fn$
DECLARE
	parts text[] := pg_catalog.parse_ident(name);
	qname text;
BEGIN
	IF pg_catalog.cardinality(parts) OPERATOR(pg_catalog.>) 2 THEN
		RAISE EXCEPTION 'match table name "%" has too many parts', name
			USING ERRCODE = '42601', DETAIL = 'Give a table name, optionally with its schema.';
	END IF;
	SELECT pg_catalog.string_agg(pg_catalog.quote_ident(p), '.' ORDER BY o)
		INTO qname FROM pg_catalog.unnest(parts) WITH ORDINALITY AS u(p, o);
	EXECUTE pg_catalog.format($ddl$
		CREATE TABLE %1$s (
			new_id     bigint NOT NULL,
			matched_id bigint NOT NULL,
			method     text NOT NULL,
			distance   int4,
			similarity float8,
			matched_at timestamptz NOT NULL DEFAULT now(),
			PRIMARY KEY (new_id, matched_id, method)
		)$ddl$, qname);
	EXECUTE pg_catalog.format('CREATE INDEX ON %s (matched_id)', qname);
	EXECUTE pg_catalog.format($c$COMMENT ON TABLE %s IS 'textfp match store: new_id matched matched_id by method (distance in bits for simhash, similarity 0..1), first recorded at matched_at'$c$,
							  qname);
	RETURN qname::regclass;
END
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_create_match_table(text)
	IS 'create a match table for textfp_check_arrivals (new_id, matched_id, method, distance, similarity, matched_at)';

CREATE FUNCTION @extschema@.textfp_duplicate_of()
	RETURNS trigger
	LANGUAGE plpgsql
	SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	fp_column name;
	radius int4;
	dup_column name := 'duplicate_of';
	id_column name := 'id';
	ext text := (SELECT e.extnamespace::regnamespace::text FROM pg_catalog.pg_extension e
				 WHERE e.extname = 'textfp');
	root regclass := coalesce(pg_catalog.pg_partition_root(TG_RELID), TG_RELID);
	expr text;
	gen "char";
	t regtype;
	dup bigint;
BEGIN
	PERFORM @extschema@.textfp_refuse_citus(TG_RELID, 'the trigger textfp_duplicate_of', 'It would search one shard only. On Citus, set duplicate_of after the insert with a radius search over the whole table: docs/citus.md, "New arrivals".');
	IF TG_LEVEL <> 'ROW' OR TG_WHEN <> 'BEFORE' OR TG_OP NOT IN ('INSERT', 'UPDATE') THEN
		RAISE EXCEPTION 'textfp_duplicate_of must be fired BEFORE INSERT OR UPDATE FOR EACH ROW'
			USING ERRCODE = '39P01';
	END IF;
	IF TG_NARGS < 2 OR TG_NARGS > 4 THEN
		RAISE EXCEPTION 'textfp_duplicate_of takes 2 to 4 trigger arguments, not %', TG_NARGS
			USING ERRCODE = '22023',
				  DETAIL = 'The arguments are the fingerprint column, the radius in bits, and optionally the duplicate_of column and the id column.';
	END IF;
	fp_column := TG_ARGV[0];
	IF TG_ARGV[1] !~ '^[0-9]{1,2}$' OR TG_ARGV[1]::int4 > 64 THEN
		RAISE EXCEPTION 'textfp_duplicate_of: the radius must be a number of bits from 0 to 64, not "%"', TG_ARGV[1]
			USING ERRCODE = '22023';
	END IF;
	radius := TG_ARGV[1]::int4;
	IF TG_NARGS >= 3 THEN dup_column := TG_ARGV[2]; END IF;
	IF TG_NARGS >= 4 THEN id_column := TG_ARGV[3]; END IF;

	-- the columns: a simhash64 fingerprint, integer id and duplicate_of
	SELECT (CASE ty.typtype WHEN 'd' THEN ty.typbasetype ELSE ty.oid END)::regtype, a.attgenerated, pg_catalog.pg_get_expr(d.adbin, d.adrelid)
		INTO t, gen, expr
	FROM pg_catalog.pg_attribute a
	JOIN pg_catalog.pg_type ty ON ty.oid = a.atttypid
	LEFT JOIN pg_catalog.pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
	WHERE a.attrelid = TG_RELID AND a.attname = fp_column AND a.attnum > 0 AND NOT a.attisdropped;
	IF t IS NULL OR t <> pg_catalog.to_regtype(ext || '.simhash64') THEN
		RAISE EXCEPTION 'textfp_duplicate_of: relation % has no simhash64 column "%"', TG_RELID::regclass, fp_column
			USING ERRCODE = '42703';
	END IF;
	IF dup_column = id_column OR
	   (SELECT pg_catalog.count(*)
		FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type ty ON ty.oid = a.atttypid
		WHERE a.attrelid = TG_RELID AND a.attname IN (dup_column, id_column) AND a.attnum > 0
		  AND NOT a.attisdropped
		  AND (CASE ty.typtype WHEN 'd' THEN ty.typbasetype ELSE ty.oid END)::regtype IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype)) <> 2 THEN
		RAISE EXCEPTION 'textfp_duplicate_of: relation % needs an integer id column "%" and another integer column "%"',
			TG_RELID::regclass, id_column, dup_column
			USING ERRCODE = '42703', DETAIL = 'The nearest row''s id is written into the second.';
	END IF;

	-- in one statement: the new row's fingerprint (a generated column is
	-- not computed yet in a BEFORE trigger, so its expression is evaluated
	-- on the row), then the nearest other row within the radius (the
	-- smallest id of the nearest) in the whole table (from a partition: its
	-- root)
	EXECUTE pg_catalog.format(
		'SELECT (SELECT t.%1$I FROM %2$s t
				 WHERE t.%3$I OPERATOR(%4$s.<@) %4$s.simhash_ball(q.fp, $2) AND t.%1$I IS DISTINCT FROM q.id
				 ORDER BY %4$s.simhash_dist(t.%3$I, q.fp), t.%1$I LIMIT 1)
		 FROM (SELECT %5$s AS fp, n.%1$I AS id FROM (SELECT ($1).*) AS n) AS q',
		id_column, root, fp_column, ext,
		CASE WHEN gen = 's' THEN expr ELSE pg_catalog.format('n.%I', fp_column) END)
		USING NEW, radius INTO dup;
	NEW := pg_catalog.jsonb_populate_record(NEW, pg_catalog.jsonb_build_object(dup_column, dup));
	RETURN NEW;
END
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_duplicate_of()
	IS 'trigger (BEFORE INSERT OR UPDATE, FOR EACH ROW; arguments fp_column, radius [, duplicate_of_column [, id_column]]): set duplicate_of to the nearest other row within the radius (smallest id on ties), or NULL';
