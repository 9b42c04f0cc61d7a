--
-- Top-k longest sentences: the hashes of a text's k longest normalized
-- sentences (Chinese and Western sentence punctuation), a set searched with
-- %& set_overlap_query(q, m) ("at least m sentences in common") and the GIN
-- class int8_set_ops.
--

CREATE FUNCTION @extschema@.longest_sentences(body text, k int4 DEFAULT 10)
	RETURNS int8[]
	AS 'MODULE_PATHNAME', 'longest_sentences'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 100;
COMMENT ON FUNCTION @extschema@.longest_sentences(text, int4)
	IS 'sorted hashes of the k longest distinct normalized sentences of a text';
