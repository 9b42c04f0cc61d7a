--
-- html_text(): the text of an HTML document (tokenizer in the spirit of the
-- HTML Standard, character references, paragraphs, boilerplate removal),
-- for fingerprints of web pages: simhash(html_text(body)).  Version 1 is
-- frozen: a change of output will be a new version value.
--

CREATE FUNCTION @extschema@.html_text(html text, boilerplate boolean DEFAULT true,
		main_content boolean DEFAULT true, alt_text boolean DEFAULT false,
		version int4 DEFAULT 1)
	RETURNS text
	AS 'MODULE_PATHNAME', 'html_text'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.html_text(text, boolean, boolean, boolean, int4)
	IS 'the text of an HTML document: paragraphs separated by LF, references decoded, scripts, styles and (with boilerplate) navigation, ads and hidden parts dropped';
