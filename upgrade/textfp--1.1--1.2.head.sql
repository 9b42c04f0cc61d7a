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
