
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
