
-- ---- corpus-wide repeated spans (new in 1.2) ----
-- textfp_repeated_spans(corpus): every span of a row's text that also occurs
-- in another row (at least min_units units: Han characters and words,
-- folded as the passage fingerprint folds them), with the first other row
-- it occurs in; textfp_remove_repeated(corpus): every row's text without
-- the spans an earlier row already has (training-data deduplication, first
-- occurrence kept).  Exact; the definition is in src/core/tfp_repeat.h.

CREATE FUNCTION @extschema@.textfp_repeated_spans(
		corpus regclass,
		id_column name DEFAULT 'id',
		text_column name DEFAULT 'body',
		min_units int4 DEFAULT 50,
		reading boolean DEFAULT false)
	RETURNS TABLE(id int8, start int4, length int4, units int4, other_id int8, other_start int4)
	AS 'MODULE_PATHNAME', 'textfp_repeated_spans'
	LANGUAGE C STABLE PARALLEL RESTRICTED COST 10000 ROWS 1000;
COMMENT ON FUNCTION @extschema@.textfp_repeated_spans(regclass, name, name, int4, boolean)
	IS 'every maximal span of at least min_units units (Han characters and words, folded; homophones one unit with reading) of a row''s text that occurs in another row of the table: its position in characters, and where it occurs in the first other row (by id) that has it';

CREATE FUNCTION @extschema@.textfp_remove_repeated(
		corpus regclass,
		id_column name DEFAULT 'id',
		text_column name DEFAULT 'body',
		min_units int4 DEFAULT 50,
		mask text DEFAULT NULL,
		reading boolean DEFAULT false)
	RETURNS TABLE(id int8, body text, removed_units int4)
	AS 'MODULE_PATHNAME', 'textfp_remove_repeated'
	LANGUAGE C STABLE PARALLEL RESTRICTED COST 10000 ROWS 1000;
COMMENT ON FUNCTION @extschema@.textfp_remove_repeated(regclass, name, name, int4, text, boolean)
	IS 'every row''s text, in id order, without the spans of at least min_units units that a row of a smaller id has too (first occurrence kept; each removed span replaced by mask when it is not null), and the number of units removed';
