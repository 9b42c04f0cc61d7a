-- textfp 1.1 -> 1.2, the hand-written part; the Makefile appends the
-- install-script fragments new in 1.2 (src/sql/, numbered 80 and up) to make
-- textfp--1.1--1.2.sql.  test/t/100_upgrade.pl checks that an updated
-- database has the same objects and answers as a fresh 1.2 install.
-- 1.2 only adds objects (passage fingerprints, the passage index, source
-- retrieval, repeated spans): nothing of 1.1 changes.

\echo Use "ALTER EXTENSION textfp UPDATE TO '1.2'" to load this file. \quit
