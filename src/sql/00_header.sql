-- textfp install script, assembled at build time from src/sql/*.sql
-- (see the Makefile): one fragment per concern, applied in file-name order.

\echo Use "CREATE EXTENSION textfp" to load this file. \quit
