--
-- Which passages were copied: textfp_align() lists the matching passages of
-- two texts (positions in characters, as substr() counts them),
-- textfp_copied_share() the share of b found in a, textfp_compare_html() a
-- side-by-side HTML comparison (textfp_compare_css() its style sheet).
-- Lengths are in Han characters, a word of other scripts counting as two.
--

CREATE FUNCTION @extschema@.textfp_align(
		a text,
		b text,
		min_length int4 DEFAULT 16,
		seed int4 DEFAULT 4,
		max_gap int4 DEFAULT 12,
		fold_case boolean DEFAULT true,
		fold_width boolean DEFAULT true,
		fold_han boolean DEFAULT true)
	RETURNS TABLE(passage int4, a_start int4, a_length int4, b_start int4,
				  b_length int4, matched int4, similarity float8)
	AS 'MODULE_PATHNAME', 'textfp_align'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000 ROWS 10;
COMMENT ON FUNCTION @extschema@.textfp_align(text, text, int4, int4, int4, boolean, boolean, boolean)
	IS 'the passages of b that match passages of a, one to one, robust to small edits: substr(a, a_start, a_length) matches substr(b, b_start, b_length)';

CREATE FUNCTION @extschema@.textfp_copied_share(
		a text,
		b text,
		min_length int4 DEFAULT 16,
		seed int4 DEFAULT 4,
		max_gap int4 DEFAULT 12,
		fold_case boolean DEFAULT true,
		fold_width boolean DEFAULT true,
		fold_han boolean DEFAULT true)
	RETURNS float8
	AS 'MODULE_PATHNAME', 'textfp_copied_share'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION @extschema@.textfp_copied_share(text, text, int4, int4, int4, boolean, boolean, boolean)
	IS 'share (0 to 1) of the length of b inside passages found in a (textfp_align): how much of b was copied from a';

CREATE FUNCTION @extschema@.textfp_compare_html(
		a text,
		b text,
		min_length int4 DEFAULT 16,
		seed int4 DEFAULT 4,
		max_gap int4 DEFAULT 12,
		fold_case boolean DEFAULT true,
		fold_width boolean DEFAULT true,
		fold_han boolean DEFAULT true,
		context int4 DEFAULT -1,
		page boolean DEFAULT false,
		a_title text DEFAULT 'a',
		b_title text DEFAULT 'b')
	RETURNS text
	AS 'MODULE_PATHNAME', 'textfp_compare_html'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION @extschema@.textfp_compare_html(text, text, int4, int4, int4, boolean, boolean, boolean, int4, boolean, text, text)
	IS 'side-by-side HTML comparison of a and b with the passages of textfp_align highlighted: a fragment (<div class="textfp-compare">) or, with page, a whole document';

CREATE FUNCTION @extschema@.textfp_compare_css()
	RETURNS text
	AS 'MODULE_PATHNAME', 'textfp_compare_css'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.textfp_compare_css()
	IS 'the style sheet of textfp_compare_html fragments (rules scoped by .textfp-compare), for the <head> of a page that embeds them';
