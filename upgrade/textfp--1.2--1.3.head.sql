-- textfp 1.2 -> 1.3, the hand-written part; the Makefile appends the
-- install-script fragments 1.3 redefines or adds (src/sql/64b:
-- textfp_check_arrivals; src/sql/83: minhash_similar's support function,
-- which refuses a textfp.minhash_threshold that would not reach the Citus
-- workers) to make textfp--1.2--1.3.sql; here, the costs of textfp_match
-- and the drop of the function 64b defines again.  test/t/100_upgrade.pl
-- checks that an updated database has the same objects and answers as a
-- fresh 1.3 install.

\echo Use "ALTER EXTENSION textfp UPDATE TO '1.3'" to load this file. \quit

-- textfp_match's cost: 1 (the default) let the planner evaluate it before
-- the cheap conditions of a WHERE clause, on every row they would reject;
-- 1000, as textfp_align's
ALTER FUNCTION @extschema@.textfp_match(text, text, text, int4) COST 1000;
ALTER FUNCTION @extschema@.textfp_match(text, text, @extschema@.textfp_boilerplate, text, int4) COST 1000;
ALTER FUNCTION @extschema@.textfp_match_features(text, text, text) COST 1000;

-- textfp_check_arrivals: its textfp_match method verifies the candidates in
-- order of new row (each new text read once for all its candidates); the
-- fragment that follows (src/sql/64b) defines it again
DROP FUNCTION @extschema@.textfp_check_arrivals(text, regclass, regclass, text[], name, name, int4, text, name, float8, name, int4, float8, name, float8, text, @extschema@.textfp_boilerplate, int4, int4);

-- textfp_match_features gives a 27th value, model 3's unshared
COMMENT ON FUNCTION @extschema@.textfp_match_features(text, text, text)
	IS 'the similarities textfp_match reads: 12 of the full texts, the edge share, 12 of the middles between the common edges, the share in long edge lines, the share in lines the other text lacks';

-- textfp_match's default model: 3 (moved and cut copies, tfp_match.h),
-- models 1 and 2 unchanged and still chosen by model => 1 or 2.  A default
-- is changed only by defining the function again: CREATE OR REPLACE, as
-- nowhere else in these scripts, because a DROP would fail on (or, with
-- CASCADE, take) every view and function of a user that calls textfp_match;
-- both functions are members of the extension already (the replacement of
-- an object that is not one fails).  The same for textfp_verify_pairs_by
-- (textfp_verify_pairs verifies its pairs in order of id_a), defined again
-- with its arguments and results as they were.  The Makefile appends their
-- definitions from the fragments (src/sql/63, 63b and 79, the statements
-- marked "update: CREATE OR REPLACE": tools/replaced_functions.awk) after
-- this part.
