
-- textfp_check_arrivals() (64_arrivals.sql has the match table and the
-- trigger): a fragment of its own, since 1.2 redefines it (the passages
-- method): the 1.1 -> 1.2 update drops the 1.1 definition and runs this.

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
		boilerplate @extschema@.textfp_boilerplate DEFAULT NULL,
		passage_min_length int4 DEFAULT 40,
		passage_max_sources int4 DEFAULT 10)
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
	index_methods constant text[] := ARRAY['simhash', 'minhash', 'pinyin_dna', 'passages'];
	verify_methods constant text[] := ARRAY['shingle_jaccard', 'textfp_match'];
	method_list constant text := 'Methods are simhash, minhash, pinyin_dna, passages (index look-ups), shingle_jaccard and textfp_match (verification of their candidates).';
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
	IF 'passages' = ANY (todo) AND (passage_min_length IS NULL OR passage_min_length < 1) THEN
		RAISE EXCEPTION 'passage_min_length must be at least 1, not %', coalesce(passage_min_length::text, 'NULL')
			USING ERRCODE = '22023', DETAIL = 'It is the shortest copied passage recorded, in Han characters (a word counts as two).';
	END IF;
	IF 'passages' = ANY (todo) AND (passage_max_sources IS NULL OR passage_max_sources < 1) THEN
		RAISE EXCEPTION 'passage_max_sources must be at least 1, not %', coalesce(passage_max_sources::text, 'NULL')
			USING ERRCODE = '22023', DETAIL = 'It is the number of sources recorded per new row, those it copies most from first.';
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
		ELSIF m = ANY (verify_methods) OR m = 'passages' THEN
			RAISE EXCEPTION 'textfp_check_arrivals: method % needs text_column', m
				USING ERRCODE = '22023', DETAIL = CASE WHEN m = 'passages'
					THEN 'It searches the passage index of the corpus''s text column with the new row''s text.'
					ELSE 'It compares the texts of the new row and of the matched row.' END;
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
		WHEN 'passages' THEN
			-- partial copies: the sources of each new row's text (its
			-- passages found in other rows, textfp_sources through the
			-- corpus's passage index; on PostgreSQL 13 and 14, which have no
			-- passage method, by reading the corpus), recorded with the
			-- share of the new row they cover as similarity and their
			-- number of passages as distance; the new row itself, a source
			-- of itself when it is in the corpus, takes one of the sources
			found_sql := pg_catalog.format(
				'SELECT n.id AS new_id, s.source_id AS matched_id, s.source_passages AS distance,
				        s.share AS similarity, n.in_corpus AS new_in_corpus
				 FROM batch n CROSS JOIN LATERAL %1$s.textfp_sources(n.v, %2$L::regclass, %3$L, %4$L,
				        min_length => %5$s, max_sources => %6$s, boilerplate => $1,
				        use_index => %7$L) s
				 WHERE s.passage = 1',
				ext, corpus::text, id_column, col, passage_min_length, passage_max_sources + 1,
				pg_catalog.current_setting('server_version_num')::int4 >= 150000);
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
			-- compared without their boilerplate lines.  The pairs reach
			-- textfp_match in order of new row (a sorted subquery, kept as
			-- it is by OFFSET 0, under a nested loop): a new row's candidates
			-- one after the other, it reads the new text once for them all
			-- (it keeps the side of an argument equal to the call before's).
			-- The sort carries both texts (beyond work_mem, in temporary
			-- files): 30% less time on 4,000 candidates of 2 KB texts with
			-- the sort on disk (test/bench/arrivals_match.sh).  Not on
			-- Citus, where the pairs are verified on the workers.
			IF citus THEN
				found_sql := pg_catalog.format(
					'SELECT k.new_id, k.matched_id, NULL::int4 AS distance, t.score AS similarity, false AS new_in_corpus
					 FROM %3$s CROSS JOIN LATERAL %1$s.textfp_match(c.%2$I, n.v%4$s) t
					 WHERE t.verdict',
					ext, col, candidates,
					CASE WHEN boilerplate IS NULL THEN '' ELSE ', boilerplate => $1' END);
			ELSE
				found_sql := pg_catalog.format(
					'SELECT x.new_id, x.matched_id, NULL::int4 AS distance, t.score AS similarity, false AS new_in_corpus
					 FROM (SELECT k.new_id, k.matched_id, c.%2$I AS cv, n.v AS nv FROM %3$s
						   ORDER BY k.new_id OFFSET 0) x
					 CROSS JOIN LATERAL %1$s.textfp_match(x.cv, x.nv%4$s) t
					 WHERE t.verdict',
					ext, col, candidates,
					CASE WHEN boilerplate IS NULL THEN '' ELSE ', boilerplate => $1' END);
			END IF;
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
COMMENT ON FUNCTION @extschema@.textfp_check_arrivals(text, regclass, regclass, text[], name, name, int4, text, name, float8, name, int4, float8, name, float8, text, @extschema@.textfp_boilerplate, int4, int4)
	IS 'check new rows (a query; NULL: the whole corpus) against an indexed corpus and record their matches in a match table, once per pair and method';
