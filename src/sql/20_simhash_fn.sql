--
-- simhash(): SimHash fingerprints of texts (feature extraction version 1, see
-- README) and of caller-supplied features.
--

CREATE FUNCTION @extschema@.simhash(
		body text,
		ngram int4 DEFAULT 2,
		shingle int4 DEFAULT 1,
		fold_case boolean DEFAULT true,
		fold_width boolean DEFAULT true,
		fold_han boolean DEFAULT true,
		center boolean DEFAULT true)
	RETURNS @extschema@.simhash64
	AS 'MODULE_PATHNAME', 'simhash_text'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION @extschema@.simhash(text, int4, int4, boolean, boolean, boolean, boolean)
	IS 'SimHash of a text: Han n-grams and word shingles, occurrence-weighted';

CREATE FUNCTION @extschema@.simhash(features text[])
	RETURNS @extschema@.simhash64
	AS 'MODULE_PATHNAME', 'simhash_features'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.simhash(text[])
	IS 'SimHash of caller-supplied features, each of weight 1';

CREATE FUNCTION @extschema@.simhash(features text[], weights float4[])
	RETURNS @extschema@.simhash64
	AS 'MODULE_PATHNAME', 'simhash_weighted'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.simhash(text[], float4[])
	IS 'SimHash of caller-supplied features with weights (e.g. tf-idf)';
