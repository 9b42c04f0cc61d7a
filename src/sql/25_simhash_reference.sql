--
-- A deployment's own balance reference: the aggregate simhash_reference()
-- chooses, from a sample of a collection's texts, per-bit thresholds that
-- make every fingerprint bit 1 in half of them; simhash(body, reference)
-- fingerprints with those thresholds in place of the built-in centering.
--

CREATE FUNCTION @extschema@.simhash_reference_accum(internal, body text)
	RETURNS internal
	AS 'MODULE_PATHNAME', 'simhash_reference_accum'
	LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.simhash_reference_accum(internal, body text,
		ngram int4, shingle int4, fold_case boolean, fold_width boolean,
		fold_han boolean)
	RETURNS internal
	AS 'MODULE_PATHNAME', 'simhash_reference_accum'
	LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.simhash_reference_final(internal)
	RETURNS int4[]
	AS 'MODULE_PATHNAME', 'simhash_reference_final'
	LANGUAGE C IMMUTABLE PARALLEL SAFE;

-- parallel aggregation: partial states from the workers, combined in the
-- leader (the result is the same as without workers)
CREATE FUNCTION @extschema@.simhash_reference_combine(internal, internal)
	RETURNS internal
	AS 'MODULE_PATHNAME', 'simhash_reference_combine'
	LANGUAGE C IMMUTABLE PARALLEL SAFE;

CREATE FUNCTION @extschema@.simhash_reference_serialize(internal)
	RETURNS bytea
	AS 'MODULE_PATHNAME', 'simhash_reference_serialize'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE FUNCTION @extschema@.simhash_reference_deserialize(bytea, internal)
	RETURNS internal
	AS 'MODULE_PATHNAME', 'simhash_reference_deserialize'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE;

CREATE AGGREGATE @extschema@.simhash_reference(body text) (
	SFUNC = @extschema@.simhash_reference_accum,
	STYPE = internal,
	FINALFUNC = @extschema@.simhash_reference_final,
	COMBINEFUNC = @extschema@.simhash_reference_combine,
	SERIALFUNC = @extschema@.simhash_reference_serialize,
	DESERIALFUNC = @extschema@.simhash_reference_deserialize,
	PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.simhash_reference(text)
	IS 'per-bit thresholds balancing simhash(body, reference) over these texts (default feature options)';

CREATE AGGREGATE @extschema@.simhash_reference(body text, ngram int4,
		shingle int4, fold_case boolean, fold_width boolean, fold_han boolean) (
	SFUNC = @extschema@.simhash_reference_accum,
	STYPE = internal,
	FINALFUNC = @extschema@.simhash_reference_final,
	COMBINEFUNC = @extschema@.simhash_reference_combine,
	SERIALFUNC = @extschema@.simhash_reference_serialize,
	DESERIALFUNC = @extschema@.simhash_reference_deserialize,
	PARALLEL = SAFE);
COMMENT ON AGGREGATE @extschema@.simhash_reference(text, int4, int4, boolean, boolean, boolean)
	IS 'per-bit thresholds balancing simhash(body, reference) over these texts';

CREATE FUNCTION @extschema@.simhash(body text, reference int4[])
	RETURNS @extschema@.simhash64
	AS 'MODULE_PATHNAME', 'simhash_text_reference'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION @extschema@.simhash(text, int4[])
	IS 'SimHash of a text balanced by a reference from simhash_reference()';
