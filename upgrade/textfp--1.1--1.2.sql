-- textfp 1.1 -> 1.2, the hand-written part; the Makefile appends the
-- install-script fragments of the objects 1.2 redefines (src/sql/64b, 65b)
-- and of those it adds (numbered 80 and up: passage fingerprints, the
-- passage index, source retrieval, repeated spans) to make
-- textfp--1.1--1.2.sql.  test/t/100_upgrade.pl checks that an updated
-- database has the same objects and answers as a fresh 1.2 install.

\echo Use "ALTER EXTENSION textfp UPDATE TO '1.2'" to load this file. \quit

-- Version 1.1 gained objects while it was in development (before 1.2 was
-- released on 2026-12-02: the boilerplate lexicon, minhash_query,
-- textfp_verify_pairs, ...); a database that installed such an early 1.1
-- lacks them, and this update, made for the released 1.1, would leave them
-- missing.  It refuses instead, naming what is missing and the way out.
DO $check$
DECLARE
	want_routines text[] := '{hamming_handler, hamming_index_stats, html_text, imatch, imatch_build_lexicon,
		imatch_lexicon_in, imatch_lexicon_out, imatch_lexicon_recv, imatch_lexicon_send,
		imatch_lexicon_size, imatch_randomized, imatch_terms, int8_set_gin_consistent,
		int8_set_gin_extract_query, int8_set_gin_extract_value, int8_set_gin_triconsistent,
		longest_sentences, minhash, minhash_cmp, minhash_eq, minhash_ge,
		minhash_gin_consistent, minhash_gin_extract_query, minhash_gin_extract_value,
		minhash_gin_options, minhash_gin_triconsistent, minhash_gt, minhash_hash,
		minhash_hash_extended, minhash_in, minhash_is_empty, minhash_jaccard, minhash_k,
		minhash_le, minhash_lsh_options, minhash_lt, minhash_ne, minhash_out, minhash_query,
		minhash_recv, minhash_send, minhash_similar, pinyin, pinyin_dna,
		pinyin_dna_gin_consistent, pinyin_dna_gin_extract_query,
		pinyin_dna_gin_extract_value, pinyin_dna_gin_triconsistent, pinyin_dna_match,
		pinyin_dna_query, pinyin_dna_shared, pinyin_dna_similarity, pinyin_initials,
		set_jaccard, set_jaccard_match, set_jaccard_max_size, set_jaccard_min_shared,
		set_jaccard_query, set_overlap_match, set_overlap_query, set_shared,
		shingle_jaccard, shingles, simhash, simhash64_ball_in, simhash64_ball_out,
		simhash64_ball_recv, simhash64_ball_send, simhash64_cmp, simhash64_eq,
		simhash64_from_bigint, simhash64_from_bit, simhash64_ge, simhash64_gin_consistent,
		simhash64_gin_extract_query, simhash64_gin_extract_value, simhash64_gin_options,
		simhash64_gin_triconsistent, simhash64_gist_compress, simhash64_gist_consistent,
		simhash64_gist_decompress, simhash64_gist_distance, simhash64_gist_fetch,
		simhash64_gist_penalty, simhash64_gist_picksplit, simhash64_gist_same,
		simhash64_gist_sortsupport, simhash64_gist_union, simhash64_gkey_in,
		simhash64_gkey_out, simhash64_gt, simhash64_hash, simhash64_hash_extended,
		simhash64_in, simhash64_le, simhash64_lt, simhash64_ne, simhash64_out,
		simhash64_recv, simhash64_send, simhash64_sortsupport, simhash64_to_bigint,
		simhash64_to_bit, simhash_ball, simhash_ball_center, simhash_ball_contains,
		simhash_ball_joinsel, simhash_ball_open, simhash_ball_radius, simhash_ball_restrict,
		simhash_clusters, simhash_dist, simhash_dist_support, simhash_in_ball,
		simhash_pairs, simhash_reference, simhash_reference_accum,
		simhash_reference_combine, simhash_reference_deserialize, simhash_reference_final,
		simhash_reference_serialize, simhash_within, simhash_within_support, spotsigs,
		spotsigs_antecedents, spotsigs_stopwords, supershingles, textfp_align,
		textfp_boilerplate_hashes, textfp_boilerplate_in, textfp_boilerplate_of,
		textfp_boilerplate_out, textfp_boilerplate_recv, textfp_boilerplate_send,
		textfp_boilerplate_size, textfp_build_boilerplate, textfp_check_arrivals,
		textfp_citus_arrivals_mode, textfp_citus_arrivals_step, textfp_citus_pairs_acc,
		textfp_citus_pairs_agg, textfp_citus_pairs_final, textfp_citus_pairs_first,
		textfp_citus_pairs_pack, textfp_citus_table, textfp_cluster_sizes, textfp_clusters,
		textfp_compare_css, textfp_compare_html, textfp_copied_share,
		textfp_create_match_table, textfp_duplicate_of, textfp_duplicates_by_day,
		textfp_duplicates_by_source, textfp_html_escape, textfp_is_html, textfp_line_hashes,
		textfp_match, textfp_match_clusters, textfp_match_features, textfp_most_copied,
		textfp_refuse_citus, textfp_report, textfp_strip_boilerplate, textfp_verify_pairs,
		textfp_verify_pairs_by}';
	want_types text[] := '{imatch_lexicon, minhash, minhash_query, pinyin_dna_query, set_jaccard_query,
		set_overlap_query, simhash64, simhash64_ball, simhash64_gkey, textfp_boilerplate}';
	ext oid := (SELECT e.oid FROM pg_catalog.pg_extension e WHERE e.extname OPERATOR(pg_catalog.=) 'textfp');
	missing text[];
	detail text;
BEGIN
	SELECT pg_catalog.array_agg(w ORDER BY w) INTO missing FROM (
		SELECT w FROM pg_catalog.unnest(want_routines) w
		WHERE NOT EXISTS (SELECT FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_proc p ON p.oid OPERATOR(pg_catalog.=) d.objid
			WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_proc'::pg_catalog.regclass
			  AND d.deptype OPERATOR(pg_catalog.=) 'e' AND d.refobjid OPERATOR(pg_catalog.=) ext
			  AND p.proname OPERATOR(pg_catalog.=) w)
		UNION ALL
		SELECT 'type ' OPERATOR(pg_catalog.||) w FROM pg_catalog.unnest(want_types) w
		WHERE NOT EXISTS (SELECT FROM pg_catalog.pg_depend d JOIN pg_catalog.pg_type t ON t.oid OPERATOR(pg_catalog.=) d.objid
			WHERE d.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_type'::pg_catalog.regclass
			  AND d.deptype OPERATOR(pg_catalog.=) 'e' AND d.refobjid OPERATOR(pg_catalog.=) ext
			  AND t.typname OPERATOR(pg_catalog.=) w)) m;
	IF missing IS NOT NULL THEN
		detail := 'Missing: ' OPERATOR(pg_catalog.||) pg_catalog.array_to_string(missing[1:12], ', ')
			OPERATOR(pg_catalog.||) CASE WHEN pg_catalog.cardinality(missing) OPERATOR(pg_catalog.>) 12 THEN ', ...' ELSE '' END
			OPERATOR(pg_catalog.||) '.';
		RAISE EXCEPTION 'this database has a development build of textfp 1.1 that lacks % objects of the released 1.1', pg_catalog.cardinality(missing)
			USING ERRCODE = 'object_not_in_prerequisite_state',
				  DETAIL = detail,
				  HINT = 'Dump the database with pg_dump and restore it where textfp 1.2 is installed '
					'(the restore creates the extension at 1.2 whole), or drop the extension with its '
					'dependent objects and create it again.';
	END IF;
END
$check$;

-- Redefined in 1.2 (their new definitions follow, from src/sql/64b and 65b):
-- textfp_check_arrivals gains the passages method (partial copies) and its
-- two parameters, textfp_report a section on partial copies.
DROP FUNCTION @extschema@.textfp_check_arrivals(text, regclass, regclass, text[], name, name, int4, text, name, float8, name, int4, float8, name, float8, text, @extschema@.textfp_boilerplate);
DROP FUNCTION @extschema@.textfp_report(regclass, regclass, name, name, name, name, text, int4, text, name, @extschema@.textfp_boilerplate);

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
COMMENT ON FUNCTION @extschema@.textfp_check_arrivals(text, regclass, regclass, text[], name, name, int4, text, name, float8, name, int4, float8, name, float8, text, @extschema@.textfp_boilerplate, int4, int4)
	IS 'check new rows (a query; NULL: the whole corpus) against an indexed corpus and record their matches in a match table, once per pair and method';

-- textfp_report() (65_reports.sql has the other reports): a fragment of its
-- own, since 1.2 redefines it (partial copies): the 1.1 -> 1.2 update drops
-- the 1.1 definition and runs this.

CREATE FUNCTION @extschema@.textfp_report(
		corpus regclass,
		matches regclass,
		title_column name DEFAULT 'title',
		body_column name DEFAULT 'body',
		source_column name DEFAULT NULL,
		id_column name DEFAULT 'id',
		method text DEFAULT NULL,
		clusters int4 DEFAULT 10,
		heading text DEFAULT NULL,
		fp_column name DEFAULT NULL,
		boilerplate @extschema@.textfp_boilerplate DEFAULT NULL)
	RETURNS text
	LANGUAGE plpgsql STABLE PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	ext text := (SELECT e.extnamespace::regnamespace::text FROM pg_catalog.pg_extension e
				 WHERE e.extname = 'textfp');
	h text;
	sql text;
	dist_sql text;
	r record;
	c record;
	n_docs bigint;
	n_records bigint;
	n_pairs bigint;
	n_copies bigint;
	n_originals bigint;
	n_clusters bigint := 0;
	n_clustered bigint := 0;
	largest bigint := 0;
	maxd int4;
	maxn bigint;
	bw float8;
	x float8;
	y float8;
	partner bigint;
	col name;
	title_expr text;
	body_expr text;
	source_expr text;
	excerpt constant int4 := 200;
	ta text;
	ba text;
	tb text;
	bb text;
	shown constant int4 := 20;
BEGIN
	PERFORM @extschema@.textfp_refuse_citus(guard.rel, 'textfp_report', 'Citus cannot join the match table to the corpus on both ids of a pair: run it on plain copies of the two tables (docs/citus.md, "Reports").') FROM pg_catalog.unnest(ARRAY[corpus, matches]) AS guard(rel);
	IF corpus IS NULL OR matches IS NULL OR id_column IS NULL THEN
		RAISE EXCEPTION 'textfp_report: corpus, matches and id_column must not be NULL' USING ERRCODE = '22004';
	END IF;
	IF clusters IS NULL OR clusters < 0 OR clusters > 1000 THEN
		RAISE EXCEPTION 'textfp_report: clusters must be between 0 and 1000, not %', coalesce(clusters::text, 'NULL')
			USING ERRCODE = '22023', DETAIL = 'It is the number of largest clusters shown with their rows.';
	END IF;
	FOREACH col IN ARRAY ARRAY[id_column, title_column, body_column, source_column, fp_column] LOOP
		IF col IS NOT NULL AND NOT EXISTS (SELECT FROM pg_catalog.pg_attribute a WHERE a.attrelid = corpus
										   AND a.attname = col AND a.attnum > 0 AND NOT a.attisdropped) THEN
			RAISE EXCEPTION 'column "%" of relation % does not exist', col, corpus
				USING ERRCODE = '42703', HINT = 'Name the corpus''s columns with id_column, title_column, body_column, source_column and fp_column (NULL: none).';
		END IF;
	END LOOP;
	title_expr := CASE WHEN title_column IS NULL THEN 'NULL::text' ELSE pg_catalog.format('c.%I::text', title_column) END;
	body_expr := CASE WHEN body_column IS NULL THEN 'NULL::text' ELSE pg_catalog.format('c.%I::text', body_column) END;
	source_expr := CASE WHEN source_column IS NULL THEN 'NULL::text' ELSE pg_catalog.format('c.%I::text', source_column) END;
	heading := coalesce(heading, 'Near-duplicates in ' || corpus::text);

	-- summary figures
	EXECUTE pg_catalog.format('SELECT pg_catalog.count(*) FROM %s', corpus) INTO n_docs;
	EXECUTE pg_catalog.format(
		'SELECT pg_catalog.count(*), pg_catalog.count(DISTINCT (m.new_id, m.matched_id)),
				pg_catalog.count(DISTINCT m.new_id), pg_catalog.count(DISTINCT m.matched_id)
		 FROM %s m WHERE $1 IS NULL OR m.method = $1', matches)
		INTO n_records, n_pairs, n_copies, n_originals USING method;
	SELECT coalesce(pg_catalog.sum(s.clusters), 0), coalesce(pg_catalog.sum(s.rows), 0),
		   coalesce(pg_catalog.max(s.cluster_size), 0)
		INTO n_clusters, n_clustered, largest
	FROM @extschema@.textfp_cluster_sizes(matches, method) s;

	h := '<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src ''none''; style-src ''unsafe-inline''">
<meta name="generator" content="textfp">
<title>' || @extschema@.textfp_html_escape(heading) || '</title>
<style>
body { font-family: system-ui, "Noto Sans", "Noto Sans CJK SC", sans-serif; margin: 2em auto; max-width: 1100px; color: #222; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: .2em; }
h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ccc; }
h3 { font-size: 1.05em; margin-bottom: .3em; }
p.meta { color: #666; margin-top: 0; }
.figures { display: flex; flex-wrap: wrap; gap: .8em; }
.figure { background: #f3f6fa; border: 1px solid #d8e0ea; border-radius: 6px; padding: .6em 1em; min-width: 9em; }
.figure b { display: block; font-size: 1.6em; color: #1f4e8c; }
table { border-collapse: collapse; margin: .5em 0; }
th, td { border: 1px solid #ddd; padding: .25em .6em; text-align: left; vertical-align: top; }
th { background: #f3f6fa; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.bar { display: inline-block; height: .8em; background: #5b8fd1; }
.none { color: #888; font-style: italic; }
svg text { font-size: 10px; fill: #333; }
' || @extschema@.textfp_compare_css() || '
</style>
</head>
<body>
<h1>' || @extschema@.textfp_html_escape(heading) || '</h1>
<p class="meta">corpus ' || @extschema@.textfp_html_escape(corpus::text) || ', match table '
		|| @extschema@.textfp_html_escape(matches::text) || ', '
		|| CASE WHEN method IS NULL THEN 'all methods' ELSE 'method ' || @extschema@.textfp_html_escape(method) END
		|| '; generated ' || pg_catalog.to_char(pg_catalog.now(), 'YYYY-MM-DD HH24:MI:SS TZ') || '</p>
<h2 id="summary">Summary</h2>
<div class="figures">';
	FOR r IN SELECT * FROM (VALUES (n_docs, 'rows in the corpus'), (n_copies, 'rows that copy another'),
								   (n_originals, 'rows copied'), (n_pairs, 'pairs'), (n_records, 'match records'),
								   (n_clusters, 'clusters'), (n_clustered, 'rows in clusters'),
								   (largest, 'largest cluster')) v(n, what) LOOP
		h := h || pg_catalog.format('<div class="figure"><b>%s</b>%s</div>',
									pg_catalog.to_char(r.n, 'FM999,999,999,999,990'), r.what);
	END LOOP;
	h := h || '</div>
<h3>Records by method</h3>
<table><tr><th>method</th><th>records</th><th>new rows</th><th>first recorded</th><th>last recorded</th></tr>';
	FOR r IN EXECUTE pg_catalog.format(
		'SELECT m.method::text AS method, pg_catalog.count(*) AS n, pg_catalog.count(DISTINCT m.new_id) AS copies,
				pg_catalog.min(m.matched_at) AS first, pg_catalog.max(m.matched_at) AS last
		 FROM %s m WHERE $1 IS NULL OR m.method = $1 GROUP BY 1 ORDER BY 1', matches) USING method LOOP
		h := h || pg_catalog.format('<tr><td>%s</td><td class="n">%s</td><td class="n">%s</td><td>%s</td><td>%s</td></tr>',
									@extschema@.textfp_html_escape(r.method), r.n, r.copies,
									pg_catalog.to_char(r.first, 'YYYY-MM-DD HH24:MI'), pg_catalog.to_char(r.last, 'YYYY-MM-DD HH24:MI'));
	END LOOP;
	h := h || '</table>';

	-- the histogram of the Hamming distances of the pairs, as SVG: between
	-- the corpus's simhash64 fingerprints (fp_column, or its only simhash64
	-- column), else those the simhash records hold
	IF fp_column IS NULL THEN
		SELECT pg_catalog.min(a.attname) INTO fp_column FROM pg_catalog.pg_attribute a
		WHERE a.attrelid = corpus AND a.attnum > 0 AND NOT a.attisdropped
		  AND a.atttypid = pg_catalog.to_regtype(ext || '.simhash64')
		HAVING pg_catalog.count(*) = 1;
	END IF;
	IF fp_column IS NOT NULL THEN
		dist_sql := pg_catalog.format(
			'SELECT %1$s.simhash_dist(a.%2$I, b.%2$I) AS distance
			 FROM (SELECT DISTINCT m.new_id, m.matched_id FROM %3$s m WHERE $1 IS NULL OR m.method = $1) p
			 JOIN %4$s a ON a.%5$I = p.new_id JOIN %4$s b ON b.%5$I = p.matched_id
			 WHERE a.%2$I IS NOT NULL AND b.%2$I IS NOT NULL',
			ext, fp_column, matches, corpus, id_column);
	ELSE
		dist_sql := pg_catalog.format(
			'SELECT m.distance FROM %s m
			 WHERE m.method = ''simhash'' AND ($1 IS NULL OR m.method = $1) AND m.distance IS NOT NULL', matches);
	END IF;
	h := h || '
<h2 id="distances">Hamming distances</h2>
<p class="meta">' || CASE WHEN fp_column IS NOT NULL
		THEN 'between the fingerprints (column ' || @extschema@.textfp_html_escape(fp_column) || ') of the two rows of each pair'
		ELSE 'of the simhash records' END || '</p>';
	EXECUTE pg_catalog.format('SELECT pg_catalog.max(x.distance), pg_catalog.max(x.n) FROM (
		SELECT d.distance, pg_catalog.count(*) AS n FROM (%s) d GROUP BY 1) x', dist_sql)
		INTO maxd, maxn USING method;
	IF maxd IS NULL THEN
		h := h || '<p class="none">No Hamming distances: no pairs, or no simhash fingerprints.</p>';
	ELSE
		maxd := greatest(maxd, 3);
		bw := 600.0 / (maxd + 1);
		h := h || pg_catalog.format('
<svg xmlns="http://www.w3.org/2000/svg" width="660" height="230" viewBox="0 0 660 230" role="img" aria-label="pairs by Hamming distance">
<title>pairs by Hamming distance (bits)</title>
<line x1="40" y1="190" x2="645" y2="190" stroke="#888"/>
<text x="340" y="225" text-anchor="middle">Hamming distance (bits)</text>
<text x="12" y="105" text-anchor="middle" transform="rotate(-90 12 105)">pairs</text>');
		FOR r IN EXECUTE pg_catalog.format(
			'SELECT s.d, coalesce(x.n, 0) AS n FROM pg_catalog.generate_series(0, $2) s(d)
			 LEFT JOIN (SELECT d.distance, pg_catalog.count(*) AS n FROM (%s) d GROUP BY 1) x ON x.distance = s.d
			 ORDER BY s.d', dist_sql) USING method, maxd LOOP
			x := 42 + r.d * bw;
			y := 170.0 * r.n / maxn;
			h := h || pg_catalog.format('
<rect x="%s" y="%s" width="%s" height="%s" fill="#5b8fd1"><title>%s bits: %s pairs</title></rect>',
				round(x::numeric, 1), round((190 - y)::numeric, 1), round(greatest(bw - 2, 1)::numeric, 1),
				round(y::numeric, 1), r.d, r.n);
			IF r.n > 0 AND bw >= 14 THEN
				h := h || pg_catalog.format('<text x="%s" y="%s" text-anchor="middle">%s</text>',
					round((x + bw / 2 - 1)::numeric, 1), round((186 - y)::numeric, 1), r.n);
			END IF;
			IF bw >= 14 OR r.d % 4 = 0 THEN
				h := h || pg_catalog.format('<text x="%s" y="203" text-anchor="middle">%s</text>',
					round((x + bw / 2 - 1)::numeric, 1), r.d);
			END IF;
		END LOOP;
		h := h || '
</svg>';
	END IF;

	-- per day (the last 31 days with matches) and per source
	h := h || '
<h2 id="days">Copies found per day</h2>';
	maxn := NULL;
	FOR r IN SELECT d.*, pg_catalog.max(d.copies) OVER () AS top
			 FROM @extschema@.textfp_duplicates_by_day(matches, method) d ORDER BY d.day DESC LIMIT 31 LOOP
		IF maxn IS NULL THEN
			maxn := r.top;
			h := h || '<table><tr><th>day</th><th>new rows that copy another</th><th>pairs</th><th>rows copied</th><th></th></tr>';
		END IF;
		h := h || pg_catalog.format('<tr><td>%s</td><td class="n">%s</td><td class="n">%s</td><td class="n">%s</td><td><span class="bar" style="width: %spx"></span></td></tr>',
									r.day, r.copies, r.pairs, r.originals, round(200.0 * r.copies / greatest(r.top, 1)));
	END LOOP;
	h := h || CASE WHEN maxn IS NULL THEN '<p class="none">No matches recorded.</p>' ELSE '</table>' END;
	IF source_column IS NOT NULL THEN
		h := h || '
<h2 id="sources">By source</h2>
<table><tr><th>source</th><th>rows</th><th>rows that copy another</th><th>&hellip; from another source</th><th>rows copied</th><th>&hellip; by another source</th></tr>';
		FOR r IN SELECT * FROM @extschema@.textfp_duplicates_by_source(matches, corpus, source_column, id_column, method) LOOP
			h := h || pg_catalog.format('<tr><td>%s</td><td class="n">%s</td><td class="n">%s</td><td class="n">%s</td><td class="n">%s</td><td class="n">%s</td></tr>',
				coalesce(@extschema@.textfp_html_escape(r.source), '<span class="none">none</span>'),
				r.documents, r.copies, r.copies_from_other_sources, r.originals, r.originals_copied_by_other_sources);
		END LOOP;
		h := h || '</table>';
	END IF;

	-- the most copied rows
	h := h || '
<h2 id="copied">Most copied</h2>';
	maxn := NULL;
	FOR r IN EXECUTE pg_catalog.format(
		'SELECT t.*, %1$s AS title, %2$s AS source FROM %3$s.textfp_most_copied($1, 10, $2) t
		 LEFT JOIN %4$s c ON c.%5$I = t.matched_id ORDER BY t.copies DESC, t.matched_id',
		title_expr, source_expr, ext, corpus, id_column) USING matches, method LOOP
		IF maxn IS NULL THEN
			maxn := 0;
			h := h || '<table><tr><th>id</th><th>title</th>' || CASE WHEN source_column IS NULL THEN '' ELSE '<th>source</th>' END
				|| '<th>copies</th><th>best similarity</th><th>first copied</th><th>last copied</th></tr>';
		END IF;
		h := h || pg_catalog.format('<tr><td class="n">%s</td><td>%s</td>%s<td class="n">%s</td><td class="n">%s</td><td>%s</td><td>%s</td></tr>',
			r.matched_id, coalesce(@extschema@.textfp_html_escape(r.title), ''),
			CASE WHEN source_column IS NULL THEN '' ELSE '<td>' || coalesce(@extschema@.textfp_html_escape(r.source), '') || '</td>' END,
			r.copies, coalesce(round(r.best_similarity::numeric, 3)::text, ''),
			pg_catalog.to_char(r.first_copied, 'YYYY-MM-DD HH24:MI'), pg_catalog.to_char(r.last_copied, 'YYYY-MM-DD HH24:MI'));
	END LOOP;
	h := h || CASE WHEN maxn IS NULL THEN '<p class="none">No matches recorded.</p>' ELSE '</table>' END;

	-- partial copies: the rows that took passages from others (the
	-- passages method of textfp_check_arrivals: similarity is the share of
	-- the new row copied, distance the number of passages), the largest
	-- shares first, and the first of them side by side with their passages
	IF method IS NULL OR method = 'passages' THEN
		maxn := NULL;
		FOR r IN EXECUTE pg_catalog.format(
			'SELECT m.new_id, m.matched_id, m.similarity, m.distance, %1$s AS title, %2$s AS source,
					%3$s AS body, s.title AS s_title, s.source AS s_source, s.body AS s_body,
					pg_catalog.row_number() OVER (ORDER BY m.similarity DESC, m.new_id, m.matched_id) AS k
			 FROM %4$s m
			 LEFT JOIN %5$s c ON c.%6$I = m.new_id
			 LEFT JOIN LATERAL (SELECT %1$s AS title, %2$s AS source, %3$s AS body
								FROM %5$s c WHERE c.%6$I = m.matched_id LIMIT 1) s ON true
			 WHERE m.method = ''passages''
			 ORDER BY m.similarity DESC, m.new_id, m.matched_id LIMIT $1',
			title_expr, source_expr, body_expr, matches, corpus, id_column) USING shown LOOP
			IF maxn IS NULL THEN
				maxn := 0;
				h := h || '
<h2 id="partial">Partial copies</h2>
<p class="meta">rows that took passages from another row (method passages): the share of the row inside the passages, the number of passages</p>
<table><tr><th>id</th><th>title</th>' || CASE WHEN source_column IS NULL THEN '' ELSE '<th>source</th>' END
					|| '<th>copied from</th><th>its title</th>' || CASE WHEN source_column IS NULL THEN '' ELSE '<th>its source</th>' END
					|| '<th>share copied</th><th>passages</th></tr>';
			END IF;
			h := h || pg_catalog.format('<tr><td class="n">%s</td><td>%s</td>%s<td class="n"><a href="#partial-%s-%s">%s</a></td><td>%s</td>%s<td class="n">%s</td><td class="n">%s</td></tr>',
				r.new_id, coalesce(@extschema@.textfp_html_escape(r.title), ''),
				CASE WHEN source_column IS NULL THEN '' ELSE '<td>' || coalesce(@extschema@.textfp_html_escape(r.source), '') || '</td>' END,
				r.new_id, r.matched_id, r.matched_id, coalesce(@extschema@.textfp_html_escape(r.s_title), ''),
				CASE WHEN source_column IS NULL THEN '' ELSE '<td>' || coalesce(@extschema@.textfp_html_escape(r.s_source), '') || '</td>' END,
				coalesce(round(r.similarity::numeric, 3)::text, ''), coalesce(r.distance::text, ''));
		END LOOP;
		IF maxn IS NOT NULL THEN
			h := h || '</table>';
			IF body_column IS NOT NULL THEN
				FOR r IN EXECUTE pg_catalog.format(
					'SELECT m.new_id, m.matched_id, m.similarity, %1$s AS title, %2$s AS body,
							s.title AS s_title, s.body AS s_body
					 FROM %3$s m
					 LEFT JOIN %4$s c ON c.%5$I = m.new_id
					 LEFT JOIN LATERAL (SELECT %1$s AS title, %2$s AS body FROM %4$s c
										WHERE c.%5$I = m.matched_id LIMIT 1) s ON true
					 WHERE m.method = ''passages''
					 ORDER BY m.similarity DESC, m.new_id, m.matched_id LIMIT $1',
					title_expr, body_expr, matches, corpus, id_column) USING clusters LOOP
					h := h || pg_catalog.format('
<h3 id="partial-%s-%s">Row %s: %s%% from row %s</h3>', r.new_id, r.matched_id, r.new_id,
						round(100 * r.similarity::numeric), r.matched_id);
					IF r.body IS NULL OR r.s_body IS NULL THEN
						h := h || '<p class="none">no text to compare</p>';
					ELSE
						-- only the passages, with some context: the source on the left
						h := h || '
' || @extschema@.textfp_compare_html(r.s_body, r.body, min_length => 40, context => 60,
								a_title => pg_catalog.concat_ws(' ', '#' || r.matched_id, r.s_title),
								b_title => pg_catalog.concat_ws(' ', '#' || r.new_id, r.title));
					END IF;
				END LOOP;
			END IF;
		END IF;
	END IF;

	-- cluster sizes, and the largest clusters with their rows and a
	-- side-by-side comparison of the representative and its closest copy
	h := h || '
<h2 id="clusters">Clusters</h2>';
	IF n_clusters = 0 THEN
		h := h || '<p class="none">No clusters.</p>';
	ELSE
		h := h || '<table><tr><th>cluster size</th><th>clusters</th><th>rows</th><th></th></tr>';
		FOR r IN SELECT s.*, pg_catalog.max(s.clusters) OVER () AS top
				 FROM @extschema@.textfp_cluster_sizes(matches, method) s ORDER BY s.cluster_size LOOP
			h := h || pg_catalog.format('<tr><td class="n">%s</td><td class="n">%s</td><td class="n">%s</td><td><span class="bar" style="width: %spx"></span></td></tr>',
				r.cluster_size, r.clusters, r.rows, round(200.0 * r.clusters / r.top));
		END LOOP;
		h := h || '</table>';
	END IF;
	FOR c IN SELECT k.cluster_id, k.cluster_size, pg_catalog.array_agg(k.id ORDER BY k.id) AS members
			 FROM @extschema@.textfp_match_clusters(matches, method) k
			 GROUP BY k.cluster_id, k.cluster_size
			 ORDER BY k.cluster_size DESC, k.cluster_id LIMIT clusters LOOP
		h := h || pg_catalog.format('
<h3 id="cluster-%1$s">Cluster %1$s: %2$s rows</h3>
<table><tr><th>id</th><th>title</th>%3$s<th>closest match</th></tr>',
			c.cluster_id, c.cluster_size, CASE WHEN source_column IS NULL THEN '' ELSE '<th>source</th>' END);
		FOR r IN EXECUTE pg_catalog.format(
			'SELECT x.id, %1$s AS title, %2$s AS source, b.method, b.distance, b.similarity, b.other
			 FROM pg_catalog.unnest($1) WITH ORDINALITY AS x(id, o)
			 LEFT JOIN %3$s c ON c.%4$I = x.id
			 LEFT JOIN LATERAL (
				SELECT m.method, m.distance, m.similarity,
					   CASE WHEN m.new_id = x.id THEN m.matched_id ELSE m.new_id END AS other
				FROM %5$s m WHERE (m.new_id = x.id OR m.matched_id = x.id) AND ($2 IS NULL OR m.method = $2)
				ORDER BY m.distance NULLS LAST, m.similarity DESC NULLS LAST, 4 LIMIT 1) b ON true
			 WHERE x.o <= $3 ORDER BY x.id',
			title_expr, source_expr, corpus, id_column, matches) USING c.members, method, shown LOOP
			h := h || pg_catalog.format('<tr><td class="n">%s</td><td>%s</td>%s<td>%s</td></tr>',
				r.id, coalesce(@extschema@.textfp_html_escape(r.title), ''),
				CASE WHEN source_column IS NULL THEN '' ELSE '<td>' || coalesce(@extschema@.textfp_html_escape(r.source), '') || '</td>' END,
				CASE WHEN r.method IS NULL THEN '' ELSE
					pg_catalog.format('%s, %s (%s)', r.other,
						CASE WHEN r.distance IS NOT NULL THEN r.distance || ' bits'
							 ELSE 'similarity ' || round(r.similarity::numeric, 3) END,
						@extschema@.textfp_html_escape(r.method)) END);
		END LOOP;
		h := h || '</table>';
		IF c.cluster_size > shown THEN
			h := h || pg_catalog.format('<p class="none">and %s more rows</p>', c.cluster_size - shown);
		END IF;
		IF body_column IS NOT NULL THEN
			-- the representative (smallest id) and its closest recorded copy
			EXECUTE pg_catalog.format(
				'SELECT CASE WHEN m.new_id = $1 THEN m.matched_id ELSE m.new_id END FROM %s m
				 WHERE (m.new_id = $1 OR m.matched_id = $1) AND ($2 IS NULL OR m.method = $2)
				 ORDER BY m.distance NULLS LAST, m.similarity DESC NULLS LAST, 1 LIMIT 1', matches)
				INTO partner USING c.cluster_id, method;
			partner := coalesce(partner, c.members[2]);
			-- side by side, the copied passages highlighted (textfp_align);
			-- long texts cut to the passages and some context around them
			sql := pg_catalog.format('SELECT %s, %s FROM %s c WHERE c.%I = $1 LIMIT 1',
									 title_expr, body_expr, corpus, id_column);
			EXECUTE sql INTO ta, ba USING c.cluster_id;
			EXECUTE sql INTO tb, bb USING partner;
			IF boilerplate IS NOT NULL THEN
				-- the passages side by side without the template lines
				ba := @extschema@.textfp_strip_boilerplate(ba, boilerplate);
				bb := @extschema@.textfp_strip_boilerplate(bb, boilerplate);
			END IF;
			IF ba IS NULL OR bb IS NULL THEN
				h := h || '<p class="none">no text to compare</p>';
			ELSE
				h := h || '
' || @extschema@.textfp_compare_html(ba, bb, context => excerpt,
						a_title => pg_catalog.concat_ws(' ', '#' || c.cluster_id, ta),
						b_title => pg_catalog.concat_ws(' ', '#' || partner, tb));
			END IF;
		END IF;
	END LOOP;
	RETURN h || '
</body>
</html>
';
END
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_report(regclass, regclass, name, name, name, name, text, int4, text, name, @extschema@.textfp_boilerplate)
	IS 'a self-contained HTML page about a match table: summary figures, Hamming distance histogram, copies per day and source, most copied rows, cluster sizes, the largest clusters with their copied passages side by side';

-- ---- passage fingerprints (new in 1.2) ----
-- passage_fp(body): the winnowed k-gram hashes of a text with their
-- positions and context bytes (src/core/tfp_passage.h: any run two
-- texts share of length w + k, a Han character 1 and a word 2, gives them
-- a matching seed; w + k - 1 for Han characters only), its
-- accessors, passage_fp_shared() and the query operator %& passage_query.

CREATE TYPE @extschema@.passage_fingerprint;

CREATE FUNCTION @extschema@.passage_fingerprint_in(cstring)
	RETURNS @extschema@.passage_fingerprint
	AS 'MODULE_PATHNAME', 'passage_fingerprint_in'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.passage_fingerprint_out(@extschema@.passage_fingerprint)
	RETURNS cstring
	AS 'MODULE_PATHNAME', 'passage_fingerprint_out'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.passage_fingerprint_recv(internal)
	RETURNS @extschema@.passage_fingerprint
	AS 'MODULE_PATHNAME', 'passage_fingerprint_recv'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.passage_fingerprint_send(@extschema@.passage_fingerprint)
	RETURNS bytea
	AS 'MODULE_PATHNAME', 'passage_fingerprint_send'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE TYPE @extschema@.passage_fingerprint (
	INPUT = @extschema@.passage_fingerprint_in,
	OUTPUT = @extschema@.passage_fingerprint_out,
	RECEIVE = @extschema@.passage_fingerprint_recv,
	SEND = @extschema@.passage_fingerprint_send,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = double,
	STORAGE = external
);
COMMENT ON TYPE @extschema@.passage_fingerprint
	IS 'passage fingerprint of a text: winnowed k-gram hashes with their positions and context bytes';

CREATE FUNCTION @extschema@.passage_fp(
		body text,
		k int4 DEFAULT 5,
		w int4 DEFAULT 9,
		reading boolean DEFAULT true)
	RETURNS @extschema@.passage_fingerprint
	AS 'MODULE_PATHNAME', 'passage_fp_text'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION @extschema@.passage_fp(text, int4, int4, boolean)
	IS 'passage fingerprint (winnowing of k-grams of Han characters and words, homophones one unit with reading): any run of text two texts share of length w + k (a Han character 1, a word 2; w + k - 1 for Han characters only) gives them a matching seed';

CREATE FUNCTION @extschema@.passage_fp_hashes(fp @extschema@.passage_fingerprint)
	RETURNS int8[]
	AS 'MODULE_PATHNAME', 'passage_fp_hashes'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.passage_fp_hashes(@extschema@.passage_fingerprint)
	IS 'the distinct seed hashes of a passage fingerprint, sorted (a set for int8_set_ops)';

CREATE FUNCTION @extschema@.passage_fp_seeds(fp @extschema@.passage_fingerprint,
		OUT hash int8, OUT unit int4, OUT left_context int4, OUT right_context int4)
	RETURNS SETOF record
	AS 'MODULE_PATHNAME', 'passage_fp_seeds'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE ROWS 100;
COMMENT ON FUNCTION @extschema@.passage_fp_seeds(@extschema@.passage_fingerprint)
	IS 'the seeds of a passage fingerprint: hash, first unit (0-based) of its k-gram, context bytes';

CREATE FUNCTION @extschema@.passage_fp_count(fp @extschema@.passage_fingerprint)
	RETURNS int4
	AS 'MODULE_PATHNAME', 'passage_fp_count'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.passage_fp_count(@extschema@.passage_fingerprint)
	IS 'the number of seeds of a passage fingerprint';

CREATE FUNCTION @extschema@.passage_fp_units(fp @extschema@.passage_fingerprint)
	RETURNS int4
	AS 'MODULE_PATHNAME', 'passage_fp_units'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.passage_fp_units(@extschema@.passage_fingerprint)
	IS 'the number of units (Han characters and words) of the text a passage fingerprint was made of';

CREATE FUNCTION @extschema@.passage_fp_shared(a @extschema@.passage_fingerprint, b @extschema@.passage_fingerprint)
	RETURNS int4
	AS 'MODULE_PATHNAME', 'passage_fp_shared'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.passage_fp_shared(@extschema@.passage_fingerprint, @extschema@.passage_fingerprint)
	IS 'the number of seeds of b with a matching seed in a (equal hash and a context byte): evidence of shared runs of text';

CREATE TYPE @extschema@.passage_query AS (fp @extschema@.passage_fingerprint, min_shared int4);
COMMENT ON TYPE @extschema@.passage_query
	IS 'texts sharing at least min_shared seeds with a passage fingerprint, for %& and the passage index';

CREATE FUNCTION @extschema@.passage_query(fp @extschema@.passage_fingerprint, min_shared int4)
	RETURNS @extschema@.passage_query
	AS 'MODULE_PATHNAME', 'passage_query_make'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.passage_query(@extschema@.passage_fingerprint, int4)
	IS 'build a passage_query (min_shared >= 1)';

CREATE FUNCTION @extschema@.passage_query(
		query text,
		min_shared int4,
		k int4 DEFAULT 5,
		w int4 DEFAULT 9,
		reading boolean DEFAULT true)
	RETURNS @extschema@.passage_query
	AS 'MODULE_PATHNAME', 'passage_query_text'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION @extschema@.passage_query(text, int4, int4, int4, boolean)
	IS 'a passage_query of a text''s passage fingerprint (min_shared >= 1)';

CREATE FUNCTION @extschema@.passage_fp_match(@extschema@.passage_fingerprint, @extschema@.passage_query)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'passage_fp_match'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE OPERATOR @extschema@.%& (
	LEFTARG = @extschema@.passage_fingerprint,
	RIGHTARG = @extschema@.passage_query,
	FUNCTION = @extschema@.passage_fp_match,
	RESTRICT = pg_catalog.contsel,
	JOIN = pg_catalog.contjoinsel
);
COMMENT ON OPERATOR @extschema@.%& (@extschema@.passage_fingerprint, @extschema@.passage_query)
	IS 'the fingerprint shares at least min_shared seeds with the query''s';

CREATE FUNCTION @extschema@.passage_text_match(text, @extschema@.passage_query)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'passage_text_match'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
CREATE OPERATOR @extschema@.%& (
	LEFTARG = text,
	RIGHTARG = @extschema@.passage_query,
	FUNCTION = @extschema@.passage_text_match,
	RESTRICT = pg_catalog.contsel,
	JOIN = pg_catalog.contjoinsel
);
COMMENT ON OPERATOR @extschema@.%& (text, @extschema@.passage_query)
	IS 'the text''s passage fingerprint (with the query''s options) shares at least min_shared seeds with the query''s';

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

-- ---- corpus-wide repeated spans (new in 1.2) ----
-- textfp_repeated_spans(corpus): every span of a row's text that also occurs
-- in another row (at least min_units units: Han characters and words,
-- folded as the passage fingerprint folds them), with the first other row
-- it occurs in; textfp_remove_repeated(corpus): every row's text without
-- the spans an earlier row already has (training-data deduplication, first
-- occurrence kept).  Exact; the definition is in src/core/tfp_repeat.h.

CREATE FUNCTION @extschema@.textfp_repeated_spans(
		corpus regclass,
		id_column name DEFAULT 'id',
		text_column name DEFAULT 'body',
		min_units int4 DEFAULT 50,
		reading boolean DEFAULT false)
	RETURNS TABLE(id int8, start int4, length int4, units int4, other_id int8, other_start int4)
	AS 'MODULE_PATHNAME', 'textfp_repeated_spans'
	LANGUAGE C STABLE PARALLEL RESTRICTED COST 10000 ROWS 1000;
COMMENT ON FUNCTION @extschema@.textfp_repeated_spans(regclass, name, name, int4, boolean)
	IS 'every maximal span of at least min_units units (Han characters and words, folded; homophones one unit with reading) of a row''s text that occurs in another row of the table: its position in characters, and where it occurs in the first other row (by id) that has it';

CREATE FUNCTION @extschema@.textfp_remove_repeated(
		corpus regclass,
		id_column name DEFAULT 'id',
		text_column name DEFAULT 'body',
		min_units int4 DEFAULT 50,
		mask text DEFAULT NULL,
		reading boolean DEFAULT false)
	RETURNS TABLE(id int8, body text, removed_units int4)
	AS 'MODULE_PATHNAME', 'textfp_remove_repeated'
	LANGUAGE C STABLE PARALLEL RESTRICTED COST 10000 ROWS 1000;
COMMENT ON FUNCTION @extschema@.textfp_remove_repeated(regclass, name, name, int4, text, boolean)
	IS 'every row''s text, in id order, without the spans of at least min_units units that a row of a smaller id has too (first occurrence kept; each removed span replaced by mask when it is not null), and the number of units removed';
