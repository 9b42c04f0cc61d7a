--
-- I-Match (Chowdhury et al. 2002): one strong hash of the sorted set of a
-- text's terms that a lexicon keeps (normally the terms whose idf lies in a
-- band, chosen from collection statistics), and the randomized I-Match of
-- Kolcz et al. 2004 (several randomized lexicons, a match on any).  The
-- lexicon is a value (type imatch_lexicon), so the fingerprint is immutable
-- given the text and the lexicon.
--

CREATE TYPE @extschema@.imatch_lexicon;

CREATE FUNCTION @extschema@.imatch_lexicon_in(cstring)
	RETURNS @extschema@.imatch_lexicon
	AS 'MODULE_PATHNAME', 'imatch_lexicon_in'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.imatch_lexicon_out(@extschema@.imatch_lexicon)
	RETURNS cstring
	AS 'MODULE_PATHNAME', 'imatch_lexicon_out'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.imatch_lexicon_recv(internal)
	RETURNS @extschema@.imatch_lexicon
	AS 'MODULE_PATHNAME', 'imatch_lexicon_recv'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
CREATE FUNCTION @extschema@.imatch_lexicon_send(@extschema@.imatch_lexicon)
	RETURNS bytea
	AS 'MODULE_PATHNAME', 'imatch_lexicon_send'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

-- term hashes are random bits: stored uncompressed (external), so that a
-- call reads only the header of a lexicon it has already loaded
CREATE TYPE @extschema@.imatch_lexicon (
	INPUT = @extschema@.imatch_lexicon_in,
	OUTPUT = @extschema@.imatch_lexicon_out,
	RECEIVE = @extschema@.imatch_lexicon_recv,
	SEND = @extschema@.imatch_lexicon_send,
	INTERNALLENGTH = VARIABLE,
	ALIGNMENT = double,
	STORAGE = external
);
COMMENT ON TYPE @extschema@.imatch_lexicon
	IS 'I-Match lexicon: the term hashes I-Match keeps, with the feature options of its terms';

-- the terms of a text: its distinct features, by default Han bigrams and words
CREATE FUNCTION @extschema@.imatch_terms(
		body text,
		ngram int4 DEFAULT 2,
		shingle int4 DEFAULT 1,
		fold_case boolean DEFAULT true,
		fold_width boolean DEFAULT true,
		fold_han boolean DEFAULT true)
	RETURNS int8[]
	AS 'MODULE_PATHNAME', 'shingles_text'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION @extschema@.imatch_terms(text, int4, int4, boolean, boolean, boolean)
	IS 'the distinct terms (Han n-grams and words) of a text as sorted hashes, for document frequencies';

-- (not named imatch_lexicon: imatch_lexicon('{...}') would be a cast)
CREATE FUNCTION @extschema@.imatch_build_lexicon(
		terms int8[],
		ngram int4 DEFAULT 2,
		shingle int4 DEFAULT 1,
		fold_case boolean DEFAULT true,
		fold_width boolean DEFAULT true,
		fold_han boolean DEFAULT true)
	RETURNS @extschema@.imatch_lexicon
	AS 'MODULE_PATHNAME', 'imatch_build_lexicon'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.imatch_build_lexicon(int8[], int4, int4, boolean, boolean, boolean)
	IS 'an I-Match lexicon of these term hashes (from imatch_terms() with the same options)';

CREATE FUNCTION @extschema@.imatch_lexicon_size(@extschema@.imatch_lexicon)
	RETURNS int4
	AS 'MODULE_PATHNAME', 'imatch_lexicon_size'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;
COMMENT ON FUNCTION @extschema@.imatch_lexicon_size(@extschema@.imatch_lexicon)
	IS 'number of terms in an I-Match lexicon';

CREATE FUNCTION @extschema@.imatch(body text, lexicon @extschema@.imatch_lexicon)
	RETURNS int8
	AS 'MODULE_PATHNAME', 'imatch'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION @extschema@.imatch(text, @extschema@.imatch_lexicon)
	IS 'I-Match fingerprint: hash of the sorted distinct terms of the text in the lexicon (NULL if none)';

CREATE FUNCTION @extschema@.imatch_randomized(
		body text,
		lexicon @extschema@.imatch_lexicon,
		lexicons int4 DEFAULT 20,
		drop_fraction float8 DEFAULT 0.7)
	RETURNS int8[]
	AS 'MODULE_PATHNAME', 'imatch_randomized'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 150;
COMMENT ON FUNCTION @extschema@.imatch_randomized(text, @extschema@.imatch_lexicon, int4, float8)
	IS 'randomized I-Match: the signatures of the whole lexicon and of randomized sub-lexicons (match on any: &&)';
