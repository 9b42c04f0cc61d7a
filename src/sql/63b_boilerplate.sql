--
-- Boilerplate learned from the corpus (CCNet's line deduplication, Henzinger's
-- same-site templates): every line of a text normalized (case, width,
-- traditional script, digits, punctuation) and hashed; the lines that recur in
-- many documents (and, optionally, sites) of a table kept as a lexicon value,
-- textfp_boilerplate, built once and stored; textfp_strip_boilerplate()
-- removes them from a text, and textfp_match(a, b, boilerplate) compares two
-- texts without them.  The definition of a line hash (src/core/tfp_boiler.h)
-- is frozen as version 1.  This fragment comes after 63_match.sql (its
-- textfp_match overload) and before 64_arrivals.sql (which takes a lexicon).
--

CREATE TYPE @extschema@.textfp_boilerplate;

CREATE FUNCTION @extschema@.textfp_boilerplate_in(cstring)
	RETURNS @extschema@.textfp_boilerplate
	AS 'MODULE_PATHNAME', 'textfp_boilerplate_in'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.textfp_boilerplate_out(@extschema@.textfp_boilerplate)
	RETURNS cstring
	AS 'MODULE_PATHNAME', 'textfp_boilerplate_out'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.textfp_boilerplate_recv(internal)
	RETURNS @extschema@.textfp_boilerplate
	AS 'MODULE_PATHNAME', 'textfp_boilerplate_recv'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.textfp_boilerplate_send(@extschema@.textfp_boilerplate)
	RETURNS bytea
	AS 'MODULE_PATHNAME', 'textfp_boilerplate_send'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- line hashes are random bits: stored uncompressed (external), so that a
-- call reads only the header of a lexicon it has already loaded
CREATE TYPE @extschema@.textfp_boilerplate (
	INPUT = @extschema@.textfp_boilerplate_in,
	OUTPUT = @extschema@.textfp_boilerplate_out,
	RECEIVE = @extschema@.textfp_boilerplate_recv,
	SEND = @extschema@.textfp_boilerplate_send,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = double,
	STORAGE = external
);
COMMENT ON TYPE @extschema@.textfp_boilerplate
	IS 'boilerplate lexicon: the normalized hashes of the lines that recur in a corpus (version 1)';

CREATE FUNCTION @extschema@.textfp_line_hashes(body text)
	RETURNS int8[]
	AS 'MODULE_PATHNAME', 'textfp_line_hashes'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 50;
COMMENT ON FUNCTION @extschema@.textfp_line_hashes(text)
	IS 'the distinct normalized hashes of the lines of a text, sorted (blank and punctuation-only lines have none): count them over a table to find boilerplate';

-- (not named textfp_boilerplate: textfp_boilerplate('{...}') would be a cast)
CREATE FUNCTION @extschema@.textfp_boilerplate_of(hashes int8[])
	RETURNS @extschema@.textfp_boilerplate
	AS 'MODULE_PATHNAME', 'textfp_boilerplate_of'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.textfp_boilerplate_of(int8[])
	IS 'a boilerplate lexicon of these line hashes (from textfp_line_hashes())';

CREATE FUNCTION @extschema@.textfp_boilerplate_size(@extschema@.textfp_boilerplate)
	RETURNS int4
	AS 'MODULE_PATHNAME', 'textfp_boilerplate_size'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.textfp_boilerplate_size(@extschema@.textfp_boilerplate)
	IS 'number of line hashes in a boilerplate lexicon';

CREATE FUNCTION @extschema@.textfp_boilerplate_hashes(@extschema@.textfp_boilerplate)
	RETURNS int8[]
	AS 'MODULE_PATHNAME', 'textfp_boilerplate_hashes'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.textfp_boilerplate_hashes(@extschema@.textfp_boilerplate)
	IS 'the line hashes of a boilerplate lexicon, sorted (to combine or inspect lexicons)';

CREATE FUNCTION @extschema@.textfp_strip_boilerplate(body text,
		boilerplate @extschema@.textfp_boilerplate)
	RETURNS text
	AS 'MODULE_PATHNAME', 'textfp_strip_boilerplate'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 50;
COMMENT ON FUNCTION @extschema@.textfp_strip_boilerplate(text, @extschema@.textfp_boilerplate)
	IS 'the text without its lines (and their line breaks) whose normalized hash is in the lexicon; every other line byte for byte';

CREATE FUNCTION @extschema@.textfp_is_html(body text)
	RETURNS boolean
	AS 'MODULE_PATHNAME', 'textfp_is_html'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.textfp_is_html(text)
	IS 'whether the text starts like an HTML document (what html => ''auto'' of textfp_match reads as a page)';

-- The lexicon of a table: the line hashes that occur in at least min_docs
-- rows, and in at least min_sites distinct values of site_column with at
-- least min_site_docs rows each (Henzinger's same-site templates: min_sites
-- 1, min_site_docs 5 keeps the lines that one site repeats, not an article
-- that five sites copied once each).  A row is a document; NULL texts are
-- skipped; rows with a NULL site are one site together.  One aggregation
-- over the table: work_mem bounds its memory (a hash aggregate spills).
CREATE FUNCTION @extschema@.textfp_build_boilerplate(
		corpus regclass,
		text_column name,
		site_column name DEFAULT NULL,
		min_docs int4 DEFAULT 5,
		min_sites int4 DEFAULT 1,
		min_site_docs int4 DEFAULT 1)
	RETURNS @extschema@.textfp_boilerplate
	LANGUAGE plpgsql STABLE PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	ext text := (SELECT e.extnamespace::regnamespace::text FROM pg_catalog.pg_extension e
				 WHERE e.extname = 'textfp');
	col name;
	result @extschema@.textfp_boilerplate;
BEGIN
	IF corpus IS NULL OR text_column IS NULL OR min_docs IS NULL OR min_sites IS NULL
			OR min_site_docs IS NULL THEN
		RAISE EXCEPTION 'textfp_build_boilerplate: corpus, text_column, min_docs, min_sites and min_site_docs must not be NULL'
			USING ERRCODE = '22004', DETAIL = 'site_column may be NULL: then the rows are not grouped by site.';
	END IF;
	IF min_docs < 2 THEN
		RAISE EXCEPTION 'textfp_build_boilerplate: min_docs must be at least 2, not %', min_docs
			USING ERRCODE = '22023', DETAIL = 'A line is boilerplate when it recurs in at least min_docs rows.';
	END IF;
	IF min_sites < 1 OR min_site_docs < 1 THEN
		RAISE EXCEPTION 'textfp_build_boilerplate: min_sites and min_site_docs must be at least 1, not % and %',
			min_sites, min_site_docs
			USING ERRCODE = '22023',
				  DETAIL = 'A line is boilerplate when at least min_sites sites have it in at least min_site_docs rows each.';
	END IF;
	IF site_column IS NULL AND (min_sites > 1 OR min_site_docs > 1) THEN
		RAISE EXCEPTION 'textfp_build_boilerplate: min_sites and min_site_docs need a site_column'
			USING ERRCODE = '22023', DETAIL = 'Without site_column the rows are not grouped by site.';
	END IF;
	FOREACH col IN ARRAY ARRAY[text_column, site_column] LOOP
		IF col IS NOT NULL AND NOT EXISTS (SELECT FROM pg_catalog.pg_attribute a WHERE a.attrelid = corpus
										   AND a.attname = col AND a.attnum > 0 AND NOT a.attisdropped) THEN
			RAISE EXCEPTION 'column "%" of relation % does not exist', col, corpus
				USING ERRCODE = '42703';
		END IF;
	END LOOP;
	IF site_column IS NULL THEN
		EXECUTE pg_catalog.format(
			'SELECT %1$s.textfp_boilerplate_of(coalesce(pg_catalog.array_agg(s.h), ''{}''::pg_catalog.int8[]))
			 FROM (SELECT l.h FROM %2$s c CROSS JOIN LATERAL pg_catalog.unnest(%1$s.textfp_line_hashes(c.%3$I::text)) l(h)
				   GROUP BY l.h HAVING pg_catalog.count(*) >= $1) s',
			ext, corpus, text_column)
			INTO result USING min_docs;
	ELSE
		EXECUTE pg_catalog.format(
			'SELECT %1$s.textfp_boilerplate_of(coalesce(pg_catalog.array_agg(s.h), ''{}''::pg_catalog.int8[]))
			 FROM (SELECT x.h FROM (
					 SELECT c.%4$I AS site, l.h, pg_catalog.count(*) AS n
					 FROM %2$s c CROSS JOIN LATERAL pg_catalog.unnest(%1$s.textfp_line_hashes(c.%3$I::text)) l(h)
					 GROUP BY 1, 2) x
				   GROUP BY x.h
				   HAVING pg_catalog.sum(x.n) >= $1
					  AND pg_catalog.count(*) FILTER (WHERE x.n >= $3) >= $2) s',
			ext, corpus, text_column, site_column)
			INTO result USING min_docs, min_sites, min_site_docs;
	END IF;
	RETURN result;
END
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_build_boilerplate(regclass, name, name, int4, int4, int4)
	IS 'the boilerplate lexicon of a table: the normalized lines in at least min_docs rows (and min_sites sites with min_site_docs rows each)';

-- textfp_match with the boilerplate of both texts left out.  The lexicon is
-- the third argument and has no default, so textfp_match(a, b),
-- textfp_match(a, b, 'never') and textfp_match(a, b, model => 1) still call
-- the original (an untyped literal in third place prefers its text html),
-- and textfp_match(a, b, boilerplate => lex) this one.  A page is read with
-- html_text() first, as the original does (html_text's defaults are its
-- options), and its lines stripped after; a text that strips to nothing
-- (every line of it boilerplate, e.g. an article syndicated more than
-- min_docs times) is compared whole, as without a lexicon.  The OUT columns
-- and the default model are the original's (keep them so).
-- update: CREATE OR REPLACE
CREATE FUNCTION @extschema@.textfp_match(a text, b text,
		boilerplate @extschema@.textfp_boilerplate,
		html text DEFAULT 'auto', model int4 DEFAULT 3,
		OUT verdict boolean, OUT score float8,
		OUT shingle_jaccard float8, OUT shingle_containment float8,
		OUT bigram_jaccard float8, OUT bigram_containment float8,
		OUT simhash_distance int4, OUT pinyin_dna_similarity float8,
		OUT pinyin_jaccard float8, OUT pinyin_containment float8,
		OUT ordered float8, OUT ordered_chars float8, OUT longest_run float8,
		OUT chinese float8, OUT html_a boolean, OUT html_b boolean)
	RETURNS record
	LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE COST 1000
AS $fn$
SELECT m.verdict, m.score, m.shingle_jaccard, m.shingle_containment,
	   m.bigram_jaccard, m.bigram_containment, m.simhash_distance,
	   m.pinyin_dna_similarity, m.pinyin_jaccard, m.pinyin_containment,
	   m.ordered, m.ordered_chars, m.longest_run, m.chinese, p.ha, p.hb
FROM (SELECT html OPERATOR(pg_catalog.=) 'always'
			 OR (html OPERATOR(pg_catalog.=) 'auto' AND @extschema@.textfp_is_html(a)) AS ha,
			 html OPERATOR(pg_catalog.=) 'always'
			 OR (html OPERATOR(pg_catalog.=) 'auto' AND @extschema@.textfp_is_html(b)) AS hb) p,
	 LATERAL (SELECT CASE WHEN p.ha THEN @extschema@.html_text(a) ELSE a END AS ta,
					 CASE WHEN p.hb THEN @extschema@.html_text(b) ELSE b END AS tb) t,
	 LATERAL (SELECT @extschema@.textfp_strip_boilerplate(t.ta, boilerplate) AS sa,
					 @extschema@.textfp_strip_boilerplate(t.tb, boilerplate) AS sb) s,
	 LATERAL @extschema@.textfp_match(
		CASE WHEN pg_catalog.cardinality(@extschema@.textfp_line_hashes(s.sa)) OPERATOR(pg_catalog.=) 0
			 THEN t.ta ELSE s.sa END,
		CASE WHEN pg_catalog.cardinality(@extschema@.textfp_line_hashes(s.sb)) OPERATOR(pg_catalog.=) 0
			 THEN t.tb ELSE s.sb END,
		-- the texts are read already: 'never', but a bad html value goes
		-- to the original, for its error
		CASE WHEN html OPERATOR(pg_catalog.=) ANY ('{auto,always,never}'::text[]) THEN 'never' ELSE html END,
		model) m
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_match(text, text, @extschema@.textfp_boilerplate, text, int4)
	IS 'textfp_match of the two texts without their boilerplate lines (pages read with html_text first)';
