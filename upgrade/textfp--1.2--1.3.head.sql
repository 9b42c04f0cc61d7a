-- textfp 1.2 -> 1.3, the hand-written part; the Makefile appends the
-- install-script fragments 1.3 adds (src/sql/83: minhash_similar's support
-- function, which refuses a textfp.minhash_threshold that would not reach
-- the Citus workers) to make textfp--1.2--1.3.sql.  test/t/100_upgrade.pl
-- checks that an updated database has the same objects and answers as a
-- fresh 1.3 install.

\echo Use "ALTER EXTENSION textfp UPDATE TO '1.3'" to load this file. \quit

