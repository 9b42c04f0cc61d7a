--
-- textfp_match(): is b a copy of a?  One calibrated verdict (precision 0.99
-- on held-out labelled pairs), a score and the similarities it is built
-- from.  HTML pages are read with html_text() (html => 'auto' detects them),
-- Chinese with the Taiwan wording fold (traditional script and Taiwan
-- vocabulary read as mainland simplified vocabulary; src/core/tfp_twfold.h).
-- models are frozen: a later model is a new model value (3, the default
-- since 1.3, reads moved and cut copies as copies; 2 before; 1 the first,
-- all kept and chosen by model => n: src/core/tfp_match.h).  COST 1000
-- (since 1.3; the default 1 before): a pair costs about as much as
-- textfp_align's, so that the planner evaluates it after the cheap
-- conditions of a WHERE clause, not on every row they would reject.
--

-- update: CREATE OR REPLACE
CREATE FUNCTION @extschema@.textfp_match(a text, b text, html text DEFAULT 'auto',
		model int4 DEFAULT 3,
		OUT verdict boolean, OUT score float8,
		OUT shingle_jaccard float8, OUT shingle_containment float8,
		OUT bigram_jaccard float8, OUT bigram_containment float8,
		OUT simhash_distance int4, OUT pinyin_dna_similarity float8,
		OUT pinyin_jaccard float8, OUT pinyin_containment float8,
		OUT ordered float8, OUT ordered_chars float8, OUT longest_run float8,
		OUT chinese float8, OUT html_a boolean, OUT html_b boolean)
	RETURNS record
	AS 'MODULE_PATHNAME', 'textfp_match'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION @extschema@.textfp_match(text, text, text, int4)
	IS 'is b a copy of a: a verdict (precision 0.99), a score in 0..1, and the similarities it comes from';

-- what textfp_match's models read, for tools/fit_match.py: the 12
-- similarities of the full texts (shingle Jaccard, containment, bigram
-- Jaccard, containment, simhash similarity, pinyin DNA, pinyin Jaccard,
-- containment, ordered, ordered characters, longest run, Chinese share), the
-- share of the shorter text in the common edges (a site template's leading
-- and trailing lines), then the 12 similarities of the middles left between
-- the edges (the full texts when there is none; their shingles read with
-- the lines of Han text run together: what models 2 and 3 read), the share
-- of the shorter text in long edge lines (paragraphs: src/core/tfp_match.h),
-- and (since 1.3) its share in lines the other text has nowhere (model 3)
CREATE FUNCTION @extschema@.textfp_match_features(a text, b text, html text DEFAULT 'auto')
	RETURNS float8[]
	AS 'MODULE_PATHNAME', 'textfp_match_features'
	LANGUAGE C IMMUTABLE STRICT PARALLEL SAFE COST 1000;
COMMENT ON FUNCTION @extschema@.textfp_match_features(text, text, text)
	IS 'the similarities textfp_match reads: 12 of the full texts, the edge share, 12 of the middles between the common edges, the share in long edge lines, the share in lines the other text lacks';
