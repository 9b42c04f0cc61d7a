-- test/harden/sqlsmith_setup.sql: the database sqlsmith runs against (psql,
-- as a superuser, in a database owned by the role that runs sqlsmith, from
-- the repository root or with -v srcdir=DIR): textfp, tables with a column
-- of every kind of fingerprint the extension makes and one index per
-- operator class (found in the catalog by test/lib/probes.sql, so new types
-- and classes are included), fingerprints of random bits, NULLs, empty
-- texts, a partitioned table; everything owned by the database owner, so
-- that sqlsmith's INSERT, UPDATE, DELETE and MERGE reach the indexes.
\set ON_ERROR_STOP 1
\if :{?srcdir}
\else
\set srcdir .
\endif
CREATE EXTENSION textfp;
\set probes :srcdir '/test/lib/probes.sql'
\set corpus :srcdir '/test/data/corpus.tsv'
\i :probes

CREATE TABLE docs (id int PRIMARY KEY, lang text, source text, title text, body text);
COPY docs FROM :'corpus';
INSERT INTO docs (id, lang, body)
SELECT 100000 + id, lang, replace(body, '的', '地') || ' 转载' FROM docs WHERE id % 5 = 0;
INSERT INTO docs (id, lang, body) VALUES (900001, 'xx', ''), (900002, 'xx', NULL), (900003, 'xx', '！？。');

-- one generated column per kind of fingerprint, one index per class
DO $$
DECLARE c record;
BEGIN
	FOR c IN SELECT * FROM tfp_probe.columns() LOOP
		EXECUTE pg_catalog.format('ALTER TABLE docs ADD COLUMN %I %s GENERATED ALWAYS AS (%s) STORED',
			c.col, c.typ, pg_catalog.format(c.expr, 'body'));
	END LOOP;
	FOR c IN SELECT DISTINCT index_ddl FROM tfp_probe.probes('docs') WHERE index_ddl IS NOT NULL LOOP
		EXECUTE c.index_ddl;
	END LOOP;
END
$$;

-- random 64-bit fingerprints, as simhash64 and bigint, with duplicates and NULLs
CREATE TABLE fps (id bigint, fp simhash64, b bigint, t text);
INSERT INTO fps
SELECT i, CASE WHEN i % 97 = 0 THEN NULL ELSE ((hashint8(i % 5000)::bigint << 32) # (hashint8(-i)::bigint & 4294967295))::simhash64 END,
       (hashint8(i)::bigint << 32) # hashint8(i + 1), md5(i::text)
FROM generate_series(1, 20000) i;
CREATE INDEX ON fps USING gin (fp);
CREATE INDEX ON fps USING gin (fp simhash64_gin_ops (blocks = 3));
CREATE INDEX ON fps USING gist (fp simhash64_gist_ops);
CREATE INDEX ON fps (fp);

-- a partitioned table of fingerprints
CREATE TABLE parts (id int, fp simhash64, body text) PARTITION BY HASH (fp);
CREATE TABLE parts_0 PARTITION OF parts FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE parts_1 PARTITION OF parts FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO parts SELECT id, simhash(body), left(body, 200) FROM docs;
CREATE INDEX ON parts USING gin (fp);

ANALYZE;
DROP SCHEMA tfp_probe CASCADE;

DO $$
DECLARE r record;
BEGIN
	FOR r IN SELECT c.relname FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace
	         AND c.relkind IN ('r', 'p') LOOP
		EXECUTE pg_catalog.format('ALTER TABLE %I OWNER TO %I', r.relname,
			(SELECT pg_catalog.pg_get_userbyid(datdba) FROM pg_database WHERE datname = current_database()));
	END LOOP;
END
$$;
