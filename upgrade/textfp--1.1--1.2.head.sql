-- textfp 1.1 -> 1.2, the hand-written part; the Makefile appends the
-- install-script fragments of the objects 1.2 redefines (src/sql/64b, 65b)
-- and of those it adds (numbered 80 and up: passage fingerprints, the
-- passage index, source retrieval, repeated spans) to make
-- textfp--1.1--1.2.sql.  test/t/100_upgrade.pl checks that an updated
-- database has the same objects and answers as a fresh 1.2 install.

\echo Use "ALTER EXTENSION textfp UPDATE TO '1.2'" to load this file. \quit

-- Redefined in 1.2 (their new definitions follow, from src/sql/64b and 65b):
-- textfp_check_arrivals gains the passages method (partial copies) and its
-- two parameters, textfp_report a section on partial copies.
DROP FUNCTION @extschema@.textfp_check_arrivals(text, regclass, regclass, text[], name, name, int4, text, name, float8, name, int4, float8, name, float8, text, @extschema@.textfp_boilerplate);
DROP FUNCTION @extschema@.textfp_report(regclass, regclass, name, name, name, name, text, int4, text, name, @extschema@.textfp_boilerplate);
