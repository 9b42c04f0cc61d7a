--
-- Installation: textfp is a trusted extension; a non-superuser with CREATE
-- on the database installs it, into a schema of their choice, and every
-- object lands in that schema.
--
\set regdb :DBNAME
CREATE DATABASE textfp_trusted;
CREATE ROLE textfp_owner LOGIN;
GRANT CREATE ON DATABASE textfp_trusted TO textfp_owner;
\c textfp_trusted
SET client_min_messages = warning;
SET ROLE textfp_owner;
CREATE SCHEMA fp;
CREATE EXTENSION textfp SCHEMA fp;
SELECT extname, extversion, extnamespace::regnamespace AS schema,
       extowner::regrole AS owner, extrelocatable
FROM pg_extension WHERE extname = 'textfp';
-- every member object is in the extension's schema
SELECT count(*) AS objects_outside_schema
FROM pg_depend d
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'textfp'
LEFT JOIN pg_proc p ON d.classid = 'pg_proc'::regclass AND p.oid = d.objid
LEFT JOIN pg_type t ON d.classid = 'pg_type'::regclass AND t.oid = d.objid
LEFT JOIN pg_operator o ON d.classid = 'pg_operator'::regclass AND o.oid = d.objid
LEFT JOIN pg_opclass c ON d.classid = 'pg_opclass'::regclass AND c.oid = d.objid
WHERE d.deptype = 'e'
  AND coalesce(p.pronamespace, t.typnamespace, o.oprnamespace, c.opcnamespace)
      <> 'fp'::regnamespace;
-- usable with the schema qualified and with it on the search path
SELECT fp.simhash('据新华社北京电'::text) AS qualified;
SET search_path = fp, public;
SELECT simhash('据新华社北京电'::text) = fp.simhash('據新華社北京電'::text) AS on_path;
SELECT '0123456789abcdef'::simhash64 <-> 'fedcba9876543210'::simhash64 AS dist;
RESET search_path;
DROP EXTENSION textfp;
CREATE EXTENSION textfp SCHEMA fp;
DROP EXTENSION textfp;
RESET ROLE;
\c :regdb
DROP DATABASE textfp_trusted;
DROP ROLE textfp_owner;
