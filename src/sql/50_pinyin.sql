--
-- pinyin(), pinyin_initials(): Chinese text to toneless pinyin.
-- pinyin_dna(): Daguan's pinyin "DNA" (set of window DNAs, int8[]), its
-- similarity, and the GIN operator class pinyin_dna_ops for
-- "shares at least m window DNAs" (operator %&).
--

CREATE FUNCTION @extschema@.pinyin(body text)
	RETURNS text
	AS 'MODULE_PATHNAME', 'pinyin'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 50;
COMMENT ON FUNCTION @extschema@.pinyin(text)
	IS 'toneless pinyin of the Han characters, one syllable per character; other text folded';

CREATE FUNCTION @extschema@.pinyin_initials(body text)
	RETURNS text
	AS 'MODULE_PATHNAME', 'pinyin_initials'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 50;
COMMENT ON FUNCTION @extschema@.pinyin_initials(text)
	IS 'first letters of the pinyin syllables; other text folded';

CREATE FUNCTION @extschema@.pinyin_dna(
		body text,
		window_length int4 DEFAULT 32,
		overlap int4 DEFAULT 50,
		levels int4 DEFAULT 4,
		content_defined boolean DEFAULT true)
	RETURNS int8[]
	AS 'MODULE_PATHNAME', 'pinyin_dna'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 50;
COMMENT ON FUNCTION @extschema@.pinyin_dna(text, int4, int4, int4, boolean)
	IS 'pinyin DNA of a Chinese text: sorted distinct DNAs of its windows of pinyin initials';

CREATE FUNCTION @extschema@.pinyin_dna_similarity(a int8[], b int8[])
	RETURNS float8
	AS 'MODULE_PATHNAME', 'pinyin_dna_similarity'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.pinyin_dna_similarity(int8[], int8[])
	IS 'Jaccard similarity of two sets of window DNAs (0 when both are empty)';

CREATE FUNCTION @extschema@.pinyin_dna_shared(a int8[], b int8[])
	RETURNS int4
	AS 'MODULE_PATHNAME', 'pinyin_dna_shared'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.pinyin_dna_shared(int8[], int8[])
	IS 'number of distinct window DNAs two sets share';

CREATE TYPE @extschema@.pinyin_dna_query AS (dna int8[], min_shared int4);
COMMENT ON TYPE @extschema@.pinyin_dna_query
	IS 'query of the %& operator: rows sharing at least min_shared of these window DNAs';

CREATE FUNCTION @extschema@.pinyin_dna_query(dna int8[], min_shared int4)
	RETURNS @extschema@.pinyin_dna_query
	AS 'MODULE_PATHNAME', 'pinyin_dna_query_make'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.pinyin_dna_query(int8[], int4)
	IS 'build a pinyin_dna_query (min_shared >= 1)';

CREATE FUNCTION @extschema@.pinyin_dna_match(int8[], @extschema@.pinyin_dna_query)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'pinyin_dna_match'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR @extschema@.%& (
	LEFTARG = int8[],
	RIGHTARG = @extschema@.pinyin_dna_query,
	FUNCTION = @extschema@.pinyin_dna_match,
	RESTRICT = contsel,
	JOIN = contjoinsel
);
COMMENT ON OPERATOR @extschema@.%& (int8[], @extschema@.pinyin_dna_query)
	IS 'shares at least min_shared distinct values with the query''s dna';

CREATE FUNCTION @extschema@.pinyin_dna_gin_extract_value(int8[], internal, internal)
	RETURNS internal
	AS 'MODULE_PATHNAME', 'pinyin_dna_gin_extract_value'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.pinyin_dna_gin_extract_query(@extschema@.pinyin_dna_query,
		internal, int2, internal, internal, internal, internal)
	RETURNS internal
	AS 'MODULE_PATHNAME', 'pinyin_dna_gin_extract_query'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.pinyin_dna_gin_consistent(internal, int2,
		@extschema@.pinyin_dna_query, int4, internal, internal, internal, internal)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'pinyin_dna_gin_consistent'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.pinyin_dna_gin_triconsistent(internal, int2,
		@extschema@.pinyin_dna_query, int4, internal, internal, internal)
	RETURNS "char"
	AS 'MODULE_PATHNAME', 'pinyin_dna_gin_triconsistent'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE OPERATOR CLASS @extschema@.pinyin_dna_ops
	FOR TYPE int8[] USING gin AS
		OPERATOR 1 @extschema@.%& (int8[], @extschema@.pinyin_dna_query),
		FUNCTION 1 btint8cmp(int8, int8),
		FUNCTION 2 @extschema@.pinyin_dna_gin_extract_value(int8[], internal, internal),
		FUNCTION 3 @extschema@.pinyin_dna_gin_extract_query(@extschema@.pinyin_dna_query,
				internal, int2, internal, internal, internal, internal),
		FUNCTION 4 @extschema@.pinyin_dna_gin_consistent(internal, int2,
				@extschema@.pinyin_dna_query, int4, internal, internal, internal, internal),
		FUNCTION 6 @extschema@.pinyin_dna_gin_triconsistent(internal, int2,
				@extschema@.pinyin_dna_query, int4, internal, internal, internal),
		STORAGE int8;
