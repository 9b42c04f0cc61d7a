--
-- Sets of 64-bit hashes (int8[]) -- spot signatures, sentence hashes,
-- super-shingles -- and the queries over them: "shares at least m values"
-- (%& set_overlap_query) and "Jaccard similarity at least t" (%
-- set_jaccard_query), both answered exactly by the GIN class int8_set_ops,
-- which skips rows by set size (SpotSigs' partitions).
-- SpotSigs (Theobald et al., SIGIR 2008): spotsigs(), with built-in or own
-- antecedent and stopword lists.
--

CREATE FUNCTION @extschema@.set_shared(a int8[], b int8[])
	RETURNS int4
	AS 'MODULE_PATHNAME', 'pinyin_dna_shared'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.set_shared(int8[], int8[])
	IS 'number of distinct non-null values two sets share';

CREATE FUNCTION @extschema@.set_jaccard(a int8[], b int8[])
	RETURNS float8
	AS 'MODULE_PATHNAME', 'pinyin_dna_similarity'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.set_jaccard(int8[], int8[])
	IS 'Jaccard similarity of two sets of distinct non-null values (0 when both are empty)';

CREATE TYPE @extschema@.set_overlap_query AS (set int8[], min_shared int4);
COMMENT ON TYPE @extschema@.set_overlap_query
	IS 'query of the %& operator: sets sharing at least min_shared values with set';

CREATE FUNCTION @extschema@.set_overlap_query(set int8[], min_shared int4)
	RETURNS @extschema@.set_overlap_query
	AS 'MODULE_PATHNAME', 'set_overlap_query_make'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.set_overlap_query(int8[], int4)
	IS 'build a set_overlap_query (min_shared >= 1)';

CREATE FUNCTION @extschema@.set_overlap_match(int8[], @extschema@.set_overlap_query)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'set_overlap_match'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR @extschema@.%& (
	LEFTARG = int8[],
	RIGHTARG = @extschema@.set_overlap_query,
	FUNCTION = @extschema@.set_overlap_match,
	RESTRICT = pg_catalog.contsel,
	JOIN = pg_catalog.contjoinsel
);
COMMENT ON OPERATOR @extschema@.%& (int8[], @extschema@.set_overlap_query)
	IS 'shares at least min_shared distinct values with the query''s set';

CREATE TYPE @extschema@.set_jaccard_query AS (set int8[], threshold float8);
COMMENT ON TYPE @extschema@.set_jaccard_query
	IS 'query of the % operator: sets whose Jaccard similarity with set is at least threshold';

CREATE FUNCTION @extschema@.set_jaccard_query(set int8[], threshold float8)
	RETURNS @extschema@.set_jaccard_query
	AS 'MODULE_PATHNAME', 'set_jaccard_query_make'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.set_jaccard_query(int8[], float8)
	IS 'build a set_jaccard_query (0 < threshold <= 1)';

CREATE FUNCTION @extschema@.set_jaccard_match(int8[], @extschema@.set_jaccard_query)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'set_jaccard_match'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR @extschema@.% (
	LEFTARG = int8[],
	RIGHTARG = @extschema@.set_jaccard_query,
	FUNCTION = @extschema@.set_jaccard_match,
	RESTRICT = pg_catalog.contsel,
	JOIN = pg_catalog.contjoinsel
);
COMMENT ON OPERATOR @extschema@.% (int8[], @extschema@.set_jaccard_query)
	IS 'Jaccard similarity with the query''s set at least its threshold';

CREATE FUNCTION @extschema@.set_jaccard_min_shared(n int4, threshold float8)
	RETURNS int4
	AS 'MODULE_PATHNAME', 'set_jaccard_min_shared'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.set_jaccard_min_shared(int4, float8)
	IS 'least size (and least number of shared values) of a set whose Jaccard similarity with a set of n values reaches the threshold';

CREATE FUNCTION @extschema@.set_jaccard_max_size(n int4, threshold float8)
	RETURNS int4
	AS 'MODULE_PATHNAME', 'set_jaccard_max_size'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.set_jaccard_max_size(int4, float8)
	IS 'largest size of a set whose Jaccard similarity with a set of n values can reach the threshold';

CREATE FUNCTION @extschema@.int8_set_gin_extract_value(int8[], internal, internal)
	RETURNS internal
	AS 'MODULE_PATHNAME', 'int8_set_gin_extract_value'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
-- the query argument is declared int8[] (the indexed type, as amvalidate
-- wants); the operators pass their set_overlap_query or set_jaccard_query
CREATE FUNCTION @extschema@.int8_set_gin_extract_query(int8[],
		internal, int2, internal, internal, internal, internal)
	RETURNS internal
	AS 'MODULE_PATHNAME', 'int8_set_gin_extract_query'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.int8_set_gin_consistent(internal, int2,
		int8[], int4, internal, internal, internal, internal)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'int8_set_gin_consistent'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.int8_set_gin_triconsistent(internal, int2,
		int8[], int4, internal, internal, internal)
	RETURNS "char"
	AS 'MODULE_PATHNAME', 'int8_set_gin_triconsistent'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR CLASS @extschema@.int8_set_ops
	FOR TYPE int8[] USING gin AS
		OPERATOR 1 @extschema@.%& (int8[], @extschema@.set_overlap_query),
		OPERATOR 2 @extschema@.% (int8[], @extschema@.set_jaccard_query),
		FUNCTION 1 pg_catalog.btint8cmp(int8, int8),
		FUNCTION 2 @extschema@.int8_set_gin_extract_value(int8[], internal, internal),
		FUNCTION 3 @extschema@.int8_set_gin_extract_query(int8[],
				internal, int2, internal, internal, internal, internal),
		FUNCTION 4 @extschema@.int8_set_gin_consistent(internal, int2,
				int8[], int4, internal, internal, internal, internal),
		FUNCTION 6 @extschema@.int8_set_gin_triconsistent(internal, int2,
				int8[], int4, internal, internal, internal),
		STORAGE int8;

-- SpotSigs
CREATE FUNCTION @extschema@.spotsigs(body text, chain int4 DEFAULT 1)
	RETURNS int8[]
	AS 'MODULE_PATHNAME', 'spotsigs'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION @extschema@.spotsigs(text, int4)
	IS 'SpotSigs: sorted distinct hashes of the spot signatures of a text (built-in antecedents and stopwords)';

CREATE FUNCTION @extschema@.spotsigs(body text, antecedents text[], stopwords text[],
		chain int4 DEFAULT 1)
	RETURNS int8[]
	AS 'MODULE_PATHNAME', 'spotsigs_lists'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 150;
COMMENT ON FUNCTION @extschema@.spotsigs(text, text[], text[], int4)
	IS 'SpotSigs with these antecedents and stopwords (each one word or one Han character)';

CREATE FUNCTION @extschema@.spotsigs_antecedents()
	RETURNS text[]
	AS 'MODULE_PATHNAME', 'spotsigs_antecedents'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.spotsigs_antecedents()
	IS 'the built-in SpotSigs antecedents (English and Chinese)';

CREATE FUNCTION @extschema@.spotsigs_stopwords()
	RETURNS text[]
	AS 'MODULE_PATHNAME', 'spotsigs_stopwords'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.spotsigs_stopwords()
	IS 'the built-in SpotSigs stopwords, skipped inside chains (English and Chinese)';
