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

CREATE FUNCTION @extschema@.textfp_check_arrivals(
		new_rows text,
		corpus regclass,
		matches regclass,
		methods text[] DEFAULT ARRAY['simhash'],
		id_column name DEFAULT 'id',
		simhash_column name DEFAULT NULL,
		radius int4 DEFAULT 3,
		simhash_search text DEFAULT 'auto',
		minhash_column name DEFAULT NULL,
		min_jaccard float8 DEFAULT 0.5,
		dna_column name DEFAULT NULL,
		min_shared int4 DEFAULT 2,
		min_dna_similarity float8 DEFAULT 0,
		text_column name DEFAULT NULL,
		min_shingle_jaccard float8 DEFAULT 0.3,
		query_search_path text DEFAULT pg_catalog.current_setting('search_path'),
		boilerplate @extschema@.textfp_boilerplate DEFAULT NULL)
	RETURNS TABLE (method text, rows_checked bigint, matches_found bigint, matches_written bigint)
	LANGUAGE plpgsql VOLATILE PARALLEL UNSAFE
	-- its statements are index searches and short joins whose cost
	-- estimates can be large: JIT compilation would only add seconds
	SET jit = off
	-- its own statements resolve names in pg_catalog only; the caller's
	-- query new_rows is parsed with query_search_path (by default the
	-- caller's search_path: a default is evaluated before the SET applies)
	SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	-- the extension's schema, quoted: dynamic statements name its objects
	ext text := (SELECT e.extnamespace::regnamespace::text FROM pg_catalog.pg_extension e
				 WHERE e.extname = 'textfp');
	-- methods that look candidates up in an index of the corpus, and those
	-- that verify the candidates recorded for the new rows
	index_methods constant text[] := ARRAY['simhash', 'minhash', 'pinyin_dna'];
	verify_methods constant text[] := ARRAY['shingle_jaccard', 'textfp_match'];
	method_list constant text := 'Methods are simhash, minhash, pinyin_dna (index look-ups), shingle_jaccard and textfp_match (verification of their candidates).';
	todo text[];
	todo_cols name[] := '{}';
	m text;
	i int4;
	col name;
	cols name[];
	want regtype;
	coltype regtype;
	idtype regtype;
	batch text;
	found_sql text;
	candidates text;
	keep text;
	sql text;
	n_rows bigint;
	n_found bigint;
	n_written bigint;
	n_corpus bigint;
	n_batch bigint;
	all_in_corpus boolean;
	search text;
	old_threshold text;
	-- the function's own search_path (its SET clause), restored after the
	-- caller's query is parsed with query_search_path
	own_path constant text := pg_catalog.current_setting('search_path');
	progress boolean := coalesce(pg_catalog.current_setting('textfp.progress', true), 'off') = 'on';
	-- corpus or matches is a Citus table: the same searches in statements
	-- Citus can plan (src/sql/79_citus_arrivals.sql, docs/citus.md)
	citus boolean;
	step record;
BEGIN
	citus := @extschema@.textfp_citus_arrivals_mode(corpus, matches);
	IF corpus IS NULL OR matches IS NULL OR methods IS NULL OR id_column IS NULL THEN
		RAISE EXCEPTION 'textfp_check_arrivals: corpus, matches, methods and id_column must not be NULL'
			USING ERRCODE = '22004',
				  DETAIL = 'new_rows may be NULL: then every row of the corpus is checked against the others.';
	END IF;
	IF query_search_path IS NULL THEN
		RAISE EXCEPTION 'textfp_check_arrivals: query_search_path must not be NULL'
			USING ERRCODE = '22004',
				  DETAIL = 'It is the search_path with which the query new_rows is parsed: by default the caller''s.';
	END IF;
	IF pg_catalog.cardinality(methods) = 0 THEN
		RAISE EXCEPTION 'textfp_check_arrivals: no method given' USING ERRCODE = '22023', DETAIL = method_list;
	END IF;
	FOREACH m IN ARRAY methods LOOP
		IF m IS NULL OR NOT (m = ANY (index_methods || verify_methods)) THEN
			RAISE EXCEPTION 'textfp_check_arrivals: unknown method "%"', m
				USING ERRCODE = '22023', DETAIL = method_list;
		END IF;
	END LOOP;
	-- index methods first, then verifying ones, each once
	SELECT pg_catalog.array_agg(x ORDER BY x = ANY (verify_methods), pg_catalog.array_position(methods, x))
		INTO todo FROM (SELECT DISTINCT x FROM pg_catalog.unnest(methods) AS u(x)) d;
	IF 'simhash' = ANY (todo) AND (radius IS NULL OR radius < 0 OR radius > 64) THEN
		RAISE EXCEPTION 'radius must be between 0 and 64, not %', coalesce(radius::text, 'NULL')
			USING ERRCODE = '22023', DETAIL = 'The radius is the largest Hamming distance of a match, in bits.';
	END IF;
	IF 'simhash' = ANY (todo) AND (simhash_search IS NULL OR simhash_search NOT IN ('auto', 'index', 'scan')) THEN
		RAISE EXCEPTION 'simhash_search must be auto, index or scan, not %', coalesce(simhash_search, 'NULL')
			USING ERRCODE = '22023',
				  DETAIL = 'index: one index search per new row; scan: one all-pairs search (simhash_pairs) over the corpus and the new rows; auto: the cheaper by an estimate.';
	END IF;
	IF 'minhash' = ANY (todo) AND (min_jaccard IS NULL OR NOT (min_jaccard > 0 AND min_jaccard <= 1)) THEN
		RAISE EXCEPTION 'min_jaccard must be greater than 0 and at most 1, not %', coalesce(min_jaccard::text, 'NULL')
			USING ERRCODE = '22023', DETAIL = 'It is the least estimated Jaccard similarity of a match.';
	END IF;
	IF 'pinyin_dna' = ANY (todo) AND (min_shared IS NULL OR min_shared < 1) THEN
		RAISE EXCEPTION 'min_shared must be at least 1, not %', coalesce(min_shared::text, 'NULL')
			USING ERRCODE = '22023', DETAIL = 'It is the least number of window DNAs a match shares.';
	END IF;
	IF 'pinyin_dna' = ANY (todo) AND (min_dna_similarity IS NULL OR NOT (min_dna_similarity BETWEEN 0 AND 1)) THEN
		RAISE EXCEPTION 'min_dna_similarity must be between 0 and 1, not %', coalesce(min_dna_similarity::text, 'NULL')
			USING ERRCODE = '22023', DETAIL = 'It is the least Jaccard similarity of the window DNA sets of a match.';
	END IF;
	IF 'shingle_jaccard' = ANY (todo) AND (min_shingle_jaccard IS NULL OR NOT (min_shingle_jaccard BETWEEN 0 AND 1)) THEN
		RAISE EXCEPTION 'min_shingle_jaccard must be between 0 and 1, not %', coalesce(min_shingle_jaccard::text, 'NULL')
			USING ERRCODE = '22023', DETAIL = 'It is the least exact Jaccard similarity of the shingle sets of a match.';
	END IF;

	-- the corpus's id column: an integer
	SELECT (CASE ty.typtype WHEN 'd' THEN ty.typbasetype ELSE ty.oid END)::regtype INTO idtype
	FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type ty ON ty.oid = a.atttypid
	WHERE a.attrelid = corpus AND a.attname = id_column AND a.attnum > 0 AND NOT a.attisdropped;
	IF idtype IS NULL THEN
		RAISE EXCEPTION 'column "%" of relation % does not exist', id_column, corpus
			USING ERRCODE = '42703', HINT = 'Name the corpus''s id column with id_column.';
	END IF;
	IF idtype NOT IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype) THEN
		RAISE EXCEPTION 'textfp_check_arrivals: the id column "%" must be of an integer type, not %', id_column, idtype
			USING ERRCODE = '42804', DETAIL = 'Match records hold bigint ids.';
	END IF;
	-- the match table: its columns, and the unique key ON CONFLICT needs
	SELECT pg_catalog.string_agg(pg_catalog.quote_ident(c), ', ' ORDER BY o) INTO sql
	FROM pg_catalog.unnest(ARRAY['new_id', 'matched_id', 'method', 'distance', 'similarity', 'matched_at'])
		WITH ORDINALITY AS u(c, o)
	WHERE NOT EXISTS (SELECT FROM pg_catalog.pg_attribute a WHERE a.attrelid = matches AND a.attname = u.c
					  AND a.attnum > 0 AND NOT a.attisdropped);
	IF sql IS NOT NULL THEN
		RAISE EXCEPTION 'relation % is not a match table: no column %', matches, sql
			USING ERRCODE = '42703',
				  DETAIL = 'A match table has the columns new_id, matched_id, method, distance, similarity and matched_at.',
				  HINT = 'Make one with textfp_create_match_table(name).';
	END IF;
	IF NOT EXISTS (
		SELECT FROM pg_catalog.pg_index x
		WHERE x.indrelid = matches AND x.indisunique AND x.indpred IS NULL AND x.indexprs IS NULL
		  AND x.indnatts = 3
		  AND (SELECT pg_catalog.array_agg(a.attname::text ORDER BY a.attname)
			   FROM pg_catalog.pg_attribute a
			   WHERE a.attrelid = matches AND a.attnum = ANY (x.indkey::int2[]))
			  = ARRAY['matched_id', 'method', 'new_id']) THEN
		RAISE EXCEPTION 'match table % has no unique key on (new_id, matched_id, method)', matches
			USING ERRCODE = '42P10',
				  DETAIL = 'Records are written once per pair and method (INSERT ... ON CONFLICT), so that a re-run adds nothing.',
				  HINT = 'Make one with textfp_create_match_table(name), or add PRIMARY KEY (new_id, matched_id, method).';
	END IF;

	-- the column of each method: named, or the corpus's only column of its
	-- type (for pinyin_dna: the only int8[] column with a pinyin_dna_ops
	-- index, or the only int8[] column)
	FOREACH m IN ARRAY todo LOOP
		col := CASE m WHEN 'simhash' THEN simhash_column WHEN 'minhash' THEN minhash_column
					  WHEN 'pinyin_dna' THEN dna_column ELSE text_column END;
		want := CASE m WHEN 'simhash' THEN pg_catalog.to_regtype(ext || '.simhash64')
					   WHEN 'minhash' THEN pg_catalog.to_regtype(ext || '.minhash')
					   WHEN 'pinyin_dna' THEN 'int8[]'::regtype ELSE 'text'::regtype END;
		IF col IS NOT NULL THEN
			SELECT (CASE ty.typtype WHEN 'd' THEN ty.typbasetype ELSE ty.oid END)::regtype INTO coltype
			FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type ty ON ty.oid = a.atttypid
			WHERE a.attrelid = corpus AND a.attname = col AND a.attnum > 0 AND NOT a.attisdropped;
			IF coltype IS NULL THEN
				RAISE EXCEPTION 'column "%" of relation % does not exist', col, corpus USING ERRCODE = '42703';
			END IF;
			IF coltype <> want AND NOT (want = 'text'::regtype AND coltype = 'varchar'::regtype) THEN
				RAISE EXCEPTION 'textfp_check_arrivals: method % needs a column of type %, and "%" is %', m, want, col, coltype
					USING ERRCODE = '42804';
			END IF;
		ELSIF m = ANY (verify_methods) THEN
			RAISE EXCEPTION 'textfp_check_arrivals: method % needs text_column', m
				USING ERRCODE = '22023', DETAIL = 'It compares the texts of the new row and of the matched row.';
		ELSE
			SELECT pg_catalog.array_agg(a.attname ORDER BY a.attnum) INTO cols
			FROM pg_catalog.pg_attribute a JOIN pg_catalog.pg_type ty ON ty.oid = a.atttypid
			WHERE a.attrelid = corpus AND a.attnum > 0 AND NOT a.attisdropped
			  AND (CASE ty.typtype WHEN 'd' THEN ty.typbasetype ELSE ty.oid END)::regtype = want;
			IF m = 'pinyin_dna' AND pg_catalog.cardinality(cols) > 1 THEN
				SELECT pg_catalog.array_agg(DISTINCT a.attname) INTO cols
				FROM pg_catalog.pg_index x
				JOIN pg_catalog.pg_opclass o ON o.oid = x.indclass[0]
				JOIN pg_catalog.pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = x.indkey[0]
				WHERE (x.indrelid = corpus OR x.indrelid IN (SELECT t.relid FROM pg_catalog.pg_partition_tree(corpus) t))
				  AND o.opcname = 'pinyin_dna_ops'
				  AND o.opcnamespace = (SELECT e.extnamespace FROM pg_catalog.pg_extension e WHERE e.extname = 'textfp')
				  AND a.attname = ANY (cols);
			END IF;
			IF coalesce(pg_catalog.cardinality(cols), 0) <> 1 THEN
				RAISE EXCEPTION 'textfp_check_arrivals: relation % has % columns for method %', corpus,
					CASE WHEN cols IS NULL THEN 'no' ELSE 'several' END, m
					USING ERRCODE = '22023',
						  DETAIL = pg_catalog.format('Method %s reads a column of type %s%s.', m, want,
								CASE WHEN cols IS NULL THEN '' ELSE ': ' || pg_catalog.array_to_string(cols, ', ') END),
						  HINT = pg_catalog.format('Name it with %s.', CASE m WHEN 'simhash' THEN 'simhash_column'
								WHEN 'minhash' THEN 'minhash_column' ELSE 'dna_column' END);
			END IF;
			col := cols[1];
		END IF;
		todo_cols := todo_cols || col;
	END LOOP;

	-- the new rows, once: their ids and the methods' columns, in a
	-- temporary table with an index on the ids (the rule below looks ids up)
	IF new_rows IS NOT NULL THEN
		new_rows := pg_catalog.rtrim(new_rows, E'; \t\r\n');
		SELECT pg_catalog.string_agg(pg_catalog.format('b.%I AS %I', c, t), ', ' ORDER BY o) INTO sql
		FROM ROWS FROM (pg_catalog.unnest(todo_cols), pg_catalog.unnest(todo)) WITH ORDINALITY AS u(c, t, o);
		IF pg_catalog.to_regclass('pg_temp.textfp_arrivals_batch') IS NOT NULL THEN
			DROP TABLE pg_temp.textfp_arrivals_batch;
		END IF;
		PERFORM pg_catalog.set_config('search_path', query_search_path, true);
		EXECUTE pg_catalog.format('CREATE TEMP TABLE textfp_arrivals_batch ON COMMIT DROP AS
								   SELECT b.%1$I AS id, %2$s FROM (%3$s) AS b WHERE b.%1$I IS NOT NULL',
								  id_column, sql, new_rows);
		PERFORM pg_catalog.set_config('search_path', own_path, true);
		-- which new rows are rows of the corpus (rather than staged)
		ALTER TABLE pg_temp.textfp_arrivals_batch ADD COLUMN in_corpus boolean NOT NULL DEFAULT false;
		IF citus THEN
			-- the batch's ids sent to the workers (a materialized CTE)
			EXECUTE pg_catalog.format('WITH k AS MATERIALIZED (SELECT DISTINCT b.id FROM pg_temp.textfp_arrivals_batch b),
											h AS MATERIALIZED (SELECT c.%1$I AS id FROM %2$s c JOIN k ON k.id = c.%1$I)
									   UPDATE pg_temp.textfp_arrivals_batch SET in_corpus = true
									   WHERE id IN (SELECT h.id FROM h)', id_column, corpus);
		ELSE
			EXECUTE pg_catalog.format('UPDATE pg_temp.textfp_arrivals_batch SET in_corpus = true
									   WHERE id IN (SELECT c.%I FROM %s c)', id_column, corpus);
		END IF;
		CREATE INDEX ON pg_temp.textfp_arrivals_batch (id);
		ANALYZE pg_temp.textfp_arrivals_batch;
		SELECT pg_catalog.count(*) INTO n_batch FROM pg_temp.textfp_arrivals_batch;
	END IF;

	FOR i IN 1 .. pg_catalog.cardinality(todo) LOOP
		m := todo[i];
		col := todo_cols[i];
		-- the new rows with a value for the method: (id, v); or every row of
		-- the corpus
		IF new_rows IS NOT NULL THEN
			batch := pg_catalog.format('SELECT b.id, b.%1$I AS v, b.in_corpus FROM pg_temp.textfp_arrivals_batch b WHERE b.%1$I IS NOT NULL', m);
		ELSE
			batch := pg_catalog.format('SELECT c.%1$I AS id, c.%2$I AS v, true AS in_corpus FROM %3$s c WHERE c.%1$I IS NOT NULL AND c.%2$I IS NOT NULL',
									   id_column, col, corpus::text);
		END IF;
		candidates := pg_catalog.format(
			'(SELECT DISTINCT r.new_id, r.matched_id FROM %1$s r WHERE r.method <> ALL (%2$L::text[])) k
			 JOIN batch n ON n.id = k.new_id
			 JOIN %3$s c ON c.%4$I = k.matched_id',
			matches::text, verify_methods, corpus::text, id_column);
		IF citus AND m = ANY (verify_methods) AND new_rows IS NOT NULL THEN
			-- on Citus, the batch is the candidates of the new rows with the
			-- new row's text (k.v), each joined with the corpus on the shard
			-- of its matched row
			EXECUTE pg_catalog.format('SELECT pg_catalog.count(*) FROM pg_temp.textfp_arrivals_batch b WHERE b.%I IS NOT NULL', m)
				INTO n_rows;
			IF pg_catalog.to_regclass('pg_temp.textfp_arrivals_cand') IS NOT NULL THEN
				DROP TABLE pg_temp.textfp_arrivals_cand;
			END IF;
			EXECUTE pg_catalog.format(
				'CREATE TEMP TABLE textfp_arrivals_cand ON COMMIT DROP AS
				 WITH k AS MATERIALIZED (SELECT DISTINCT b.id FROM pg_temp.textfp_arrivals_batch b WHERE b.%2$I IS NOT NULL),
					  r AS MATERIALIZED (SELECT DISTINCT r.new_id, r.matched_id FROM %1$s r JOIN k ON k.id = r.new_id
										 WHERE r.method <> ALL (%3$L::text[]))
				 SELECT r.new_id, r.matched_id, b.%2$I AS v
				 FROM r JOIN pg_temp.textfp_arrivals_batch b ON b.id = r.new_id WHERE b.%2$I IS NOT NULL',
				matches::text, m, verify_methods);
			batch := 'SELECT x.new_id, x.matched_id, x.v FROM pg_temp.textfp_arrivals_cand x';
			-- (the matched ids written in: Citus prunes the shards, and each
			-- shard reads its rows by its id index rather than all its texts)
			candidates := pg_catalog.format(
				'batch k JOIN %1$s c ON c.%2$I = k.matched_id AND c.%2$I = ANY (%3$L::bigint[])
				 CROSS JOIN LATERAL (SELECT k.v) AS n(v)',
				corpus::text, id_column,
				coalesce((SELECT pg_catalog.array_agg(DISTINCT x.matched_id) FROM pg_temp.textfp_arrivals_cand x), '{}'));
		END IF;
		CASE m
		WHEN 'simhash' THEN
			-- are all new rows rows of the corpus, with the same fingerprint?
			-- (today's rows of the corpus: then the all-pairs search reads
			-- the corpus's heap directly, below)
			IF new_rows IS NOT NULL AND simhash_search <> 'index' AND citus THEN
				EXECUTE pg_catalog.format(
					'WITH k AS MATERIALIZED (SELECT DISTINCT b.id, b.simhash FROM pg_temp.textfp_arrivals_batch b WHERE b.simhash IS NOT NULL),
						  h AS MATERIALIZED (SELECT DISTINCT k.id, k.simhash FROM %s c JOIN k ON k.id = c.%I AND c.%I OPERATOR(%s.=) k.simhash)
					 SELECT (SELECT pg_catalog.count(*) FROM k) = (SELECT pg_catalog.count(*) FROM h)',
					corpus, id_column, col, ext) INTO all_in_corpus;
			ELSIF new_rows IS NOT NULL AND simhash_search <> 'index' THEN
				EXECUTE pg_catalog.format(
					'SELECT NOT EXISTS (SELECT FROM pg_temp.textfp_arrivals_batch b WHERE b.simhash IS NOT NULL
					   AND NOT EXISTS (SELECT FROM %s c WHERE c.%I = b.id AND c.%I OPERATOR(%s.=) b.simhash))',
					corpus, id_column, col, ext) INTO all_in_corpus;
			END IF;
			search := simhash_search;
			IF search = 'auto' AND citus THEN
				-- on Citus: each shard searches its index for the new rows;
				-- the whole corpus (no new rows) by simhash_pairs (the
				-- coordinator reads the fingerprints: a self-join of the
				-- corpus on the distance is beyond Citus)
				search := CASE WHEN new_rows IS NULL AND radius <= 32 THEN 'scan' ELSE 'index' END;
			ELSIF search = 'auto' THEN
				-- an index search per new row against an all-pairs search
				-- over the corpus (its rows must fit in maintenance_work_mem,
				-- 16 bytes each): measured by test/bench/arrivals.sh, a search
				-- costs as much as sorting about 300 corpus rows at radii up
				-- to 4 when the heap is read directly, 60 when the corpus is
				-- read through a query, and 1,000 at larger radii
				SELECT pg_catalog.sum(greatest(c.reltuples, 0))::bigint INTO n_corpus FROM pg_catalog.pg_class c
				WHERE c.oid = corpus OR c.oid IN (SELECT t.relid FROM pg_catalog.pg_partition_tree(corpus) t);
				search := CASE WHEN radius <= 32
									AND (new_rows IS NULL
										 OR n_batch * CASE WHEN radius > 4 THEN 1000 WHEN all_in_corpus THEN 300 ELSE 60 END
											>= n_corpus)
									AND (n_corpus + coalesce(n_batch, 0)) * 20 <
										(SELECT g.setting::bigint * 1024 FROM pg_catalog.pg_settings g
										 WHERE g.name = 'maintenance_work_mem')
							   THEN 'scan' ELSE 'index' END;
			END IF;
			IF search = 'scan' AND radius > 32 THEN
				RAISE EXCEPTION 'textfp_check_arrivals: simhash_search => scan works up to radius 32, not %', radius
					USING ERRCODE = '22023', DETAIL = 'It is simhash_pairs'' limit.';
			END IF;
			IF search = 'scan' AND new_rows IS NULL THEN
				-- all pairs of the corpus, each once, the larger id as the new row
				found_sql := pg_catalog.format(
					'SELECT p.id_b AS new_id, p.id_a AS matched_id, p.distance, 1 - p.distance / 64.0::float8 AS similarity,
							true AS new_in_corpus
					 FROM %1$s.simhash_pairs(%2$L::regclass, %3$L, %4$L, %5$s) AS p',
					ext, corpus::text, id_column, col, radius);
			ELSIF search = 'scan' THEN
				-- all pairs of the corpus's rows and the new rows (a new row's
				-- own version instead of the corpus's), kept where a new row
				-- meets a corpus row: the new row, or of two new rows of the
				-- corpus the larger id, is new_id; two staged rows never pair.
				-- When every new row is a row of the corpus with the same
				-- fingerprint (today's rows of the corpus), the pairs of the
				-- corpus alone are those pairs, and its heap is read directly.
				found_sql := pg_catalog.format(
					'SELECT x.new_id, x.matched_id, p.distance, 1 - p.distance / 64.0::float8 AS similarity, x.new_in_corpus
					 FROM %1$s.simhash_pairs(%2$s, %3$s) AS p
					 LEFT JOIN batch a ON a.id = p.id_a
					 LEFT JOIN batch b ON b.id = p.id_b
					 CROSS JOIN LATERAL (SELECT
						CASE WHEN b.id IS NOT NULL AND (a.id IS NULL OR a.in_corpus) THEN p.id_b ELSE p.id_a END AS new_id,
						CASE WHEN b.id IS NOT NULL AND (a.id IS NULL OR a.in_corpus) THEN p.id_a ELSE p.id_b END AS matched_id,
						CASE WHEN b.id IS NOT NULL AND (a.id IS NULL OR a.in_corpus) THEN b.in_corpus ELSE a.in_corpus END AS new_in_corpus) x
					 WHERE (a.id IS NOT NULL OR b.id IS NOT NULL)
					   AND NOT (a.id IS NOT NULL AND b.id IS NOT NULL AND NOT a.in_corpus AND NOT b.in_corpus)',
					ext,
					CASE WHEN all_in_corpus
						 THEN pg_catalog.format('%L::regclass, %L, %L', corpus::text, id_column, col)
						 WHEN citus THEN pg_catalog.quote_literal(pg_catalog.format(
							'WITH o AS MATERIALIZED (SELECT DISTINCT b.id FROM pg_temp.textfp_arrivals_batch b)
							 SELECT c.%1$I, c.%2$I FROM %3$s c LEFT JOIN o ON o.id = c.%1$I WHERE o.id IS NULL
							 UNION ALL SELECT b.id, b.simhash FROM pg_temp.textfp_arrivals_batch b',
							id_column, col, corpus::text))
						 ELSE pg_catalog.quote_literal(pg_catalog.format(
							'SELECT c.%1$I, c.%2$I FROM %3$s c WHERE NOT EXISTS (SELECT FROM pg_temp.textfp_arrivals_batch o WHERE o.id = c.%1$I)
							 UNION ALL SELECT b.id, b.simhash FROM pg_temp.textfp_arrivals_batch b',
							id_column, col, corpus::text)) END,
					radius);
			ELSE
				found_sql := pg_catalog.format(
					'SELECT n.id AS new_id, c.%1$I AS matched_id, %2$s.simhash_dist(n.v, c.%3$I) AS distance,
					        1 - %2$s.simhash_dist(n.v, c.%3$I) / 64.0::float8 AS similarity, n.in_corpus AS new_in_corpus
					 FROM batch n JOIN %4$s c ON c.%3$I OPERATOR(%2$s.<@) %2$s.simhash_ball(n.v, %5$s)',
					id_column, ext, col, corpus::text, radius);
			END IF;
		WHEN 'minhash' THEN
			-- (on Citus the threshold travels in the operand: the workers do
			-- not see the setting; the same rows, docs/citus.md)
			found_sql := pg_catalog.format(
				'SELECT n.id AS new_id, c.%1$I AS matched_id, NULL::int4 AS distance,
				        %2$s.minhash_jaccard(n.v, c.%3$I) AS similarity, n.in_corpus AS new_in_corpus
				 FROM batch n JOIN %4$s c ON c.%3$I OPERATOR(%2$s.%%) %5$s',
				id_column, ext, col, corpus::text,
				CASE WHEN citus THEN pg_catalog.format('%s.minhash_query(n.v, %s)', ext, min_jaccard) ELSE 'n.v' END);
		WHEN 'pinyin_dna' THEN
			found_sql := pg_catalog.format(
				'SELECT * FROM (
				   SELECT n.id AS new_id, c.%1$I AS matched_id, NULL::int4 AS distance,
				          %2$s.pinyin_dna_similarity(n.v, c.%3$I) AS similarity, n.in_corpus AS new_in_corpus
				   FROM batch n JOIN %4$s c ON c.%3$I OPERATOR(%2$s.%%&) %2$s.pinyin_dna_query(n.v, %5$s)) s
				 WHERE s.similarity >= %6$s',
				id_column, ext, col, corpus::text, min_shared, min_dna_similarity);
		WHEN 'shingle_jaccard' THEN
			IF citus AND new_rows IS NULL THEN
				found_sql := pg_catalog.format(
					'SELECT v.id_b AS new_id, v.id_a AS matched_id, NULL::int4 AS distance, v.score AS similarity, false AS new_in_corpus
					 FROM %1$s.textfp_verify_pairs_by(%2$L, %3$L::regclass, %4$L, %5$L, %6$L, %7$s, NULL, %8$L) v WHERE v.verdict',
					ext, pg_catalog.format('SELECT DISTINCT r.matched_id AS id_a, r.new_id AS id_b FROM %s r WHERE r.method <> ALL (%L::text[])',
										   matches::text, verify_methods),
					corpus::text, col, id_column, m, min_shingle_jaccard, own_path);
			ELSE
			-- the texts of the candidates the index methods recorded for
			-- these rows, as they were recorded: n.v the new row's, c.%I
			-- the corpus row's
			found_sql := pg_catalog.format(
				'SELECT * FROM (
				   SELECT k.new_id, k.matched_id, NULL::int4 AS distance,
				          %1$s.shingle_jaccard(n.v, c.%2$I) AS similarity, false AS new_in_corpus
				   FROM %3$s) s
				 WHERE s.similarity >= %4$s',
				ext, col, candidates, min_shingle_jaccard);
			END IF;
		WHEN 'textfp_match' THEN
			IF citus AND new_rows IS NULL THEN
				-- on Citus, the pairs of two corpus rows: two co-located steps
				found_sql := pg_catalog.format(
					'SELECT v.id_b AS new_id, v.id_a AS matched_id, NULL::int4 AS distance, v.score AS similarity, false AS new_in_corpus
					 FROM %1$s.textfp_verify_pairs_by(%2$L, %3$L::regclass, %4$L, %5$L, %6$L, NULL, $1, %7$L) v WHERE v.verdict',
					ext, pg_catalog.format('SELECT DISTINCT r.matched_id AS id_a, r.new_id AS id_b FROM %s r WHERE r.method <> ALL (%L::text[])',
										   matches::text, verify_methods),
					corpus::text, col, id_column, m, own_path);
			ELSE
			-- the calibrated verdict (precision 0.99): is the new row a copy
			-- of the corpus row?  Its score is the similarity.  With a
			-- boilerplate lexicon ($1 of the statement), both texts are
			-- compared without their boilerplate lines.
			found_sql := pg_catalog.format(
				'SELECT k.new_id, k.matched_id, NULL::int4 AS distance, t.score AS similarity, false AS new_in_corpus
				 FROM %3$s CROSS JOIN LATERAL %1$s.textfp_match(c.%2$I, n.v%4$s) t
				 WHERE t.verdict',
				ext, col, candidates,
				CASE WHEN boilerplate IS NULL THEN '' ELSE ', boilerplate => $1' END);
			END IF;
		END CASE;

		-- one record per pair and method: no self-match; a pair of two new
		-- rows that are both in the corpus once, with the larger id as the
		-- new row (every row, when the whole corpus is checked), as each
		-- finds the other; where duplicate ids give a pair several times,
		-- its best score
		IF m = ANY (verify_methods) THEN
			keep := 'true';
		ELSIF new_rows IS NULL THEN
			keep := 'f.matched_id < f.new_id';
		ELSE
			keep := 'f.new_id <> f.matched_id AND NOT (f.new_in_corpus AND EXISTS (
						SELECT FROM pg_temp.textfp_arrivals_batch o WHERE o.id = f.matched_id AND o.id > f.new_id))';
		END IF;
		sql := pg_catalog.format($q$
			WITH batch AS MATERIALIZED (%1$s),
			found AS (
				SELECT DISTINCT ON (f.new_id, f.matched_id) f.new_id, f.matched_id, f.distance, f.similarity
				FROM (%2$s) f
				WHERE %3$s
				ORDER BY f.new_id, f.matched_id, f.distance, f.similarity DESC),
			ins AS (
				INSERT INTO %4$s AS m (new_id, matched_id, method, distance, similarity, matched_at)
				SELECT f.new_id, f.matched_id, %5$L, f.distance, f.similarity, pg_catalog.now() FROM found f
				ON CONFLICT (new_id, matched_id, method) DO UPDATE
					SET distance = excluded.distance, similarity = excluded.similarity,
						matched_at = excluded.matched_at
					WHERE (m.distance, m.similarity) IS DISTINCT FROM (excluded.distance, excluded.similarity)
				RETURNING 1)
			SELECT (SELECT pg_catalog.count(*) FROM batch), (SELECT pg_catalog.count(*) FROM found),
				   (SELECT pg_catalog.count(*) FROM ins)$q$,
			batch, found_sql, keep, matches::text, m);
		IF citus THEN
			IF NOT (m = ANY (verify_methods) AND new_rows IS NOT NULL) THEN
				EXECUTE pg_catalog.format('SELECT pg_catalog.count(*) FROM (%s) b', batch) INTO n_rows;
			END IF;
			step := @extschema@.textfp_citus_arrivals_step(
				CASE WHEN m = ANY (verify_methods) AND new_rows IS NULL THEN 'SELECT 1' ELSE batch END,
				found_sql, keep, matches, m, boilerplate);
			n_found := step.matches_found;
			n_written := step.matches_written;
		ELSE
			IF m = 'minhash' THEN
				old_threshold := pg_catalog.current_setting('textfp.minhash_threshold');
				PERFORM pg_catalog.set_config('textfp.minhash_threshold', min_jaccard::text, true);
			END IF;
			EXECUTE sql INTO n_rows, n_found, n_written USING boilerplate;
			IF m = 'minhash' THEN
				PERFORM pg_catalog.set_config('textfp.minhash_threshold', old_threshold, true);
			END IF;
		END IF;
		IF progress THEN
			RAISE NOTICE 'textfp_check_arrivals: %: % rows checked, % matches, % written', m
				|| CASE WHEN m = 'simhash' THEN ' (' || search || ')' ELSE '' END, n_rows, n_found, n_written;
		END IF;
		method := m;
		rows_checked := n_rows;
		matches_found := n_found;
		matches_written := n_written;
		RETURN NEXT;
	END LOOP;
	IF new_rows IS NOT NULL THEN
		DROP TABLE pg_temp.textfp_arrivals_batch;
	END IF;
END
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_check_arrivals(text, regclass, regclass, text[], name, name, int4, text, name, float8, name, int4, float8, name, float8, text, @extschema@.textfp_boilerplate)
	IS 'check new rows (a query; NULL: the whole corpus) against an indexed corpus and record their matches in a match table, once per pair and method';

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
