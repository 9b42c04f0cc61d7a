--
-- The stability contract across server encodings and locales: every golden
-- text representable in an encoding gives, in a database of that encoding,
-- the fingerprint it gives in UTF8 (its value pinned by simhash_golden).
--
\set regdb :DBNAME
SELECT simhash('国家统计局发布数据'::text) AS simp_fp \gset
\i sql/include/golden_texts.sql

\i sql/include/representable.sql

SELECT enc, count(*) FILTER (WHERE representable(body, enc)) AS representable
FROM golden, unnest(ARRAY['EUC_CN', 'EUC_TW', 'LATIN1', 'SQL_ASCII']::name[]) enc
GROUP BY enc ORDER BY enc;

\copy (SELECT id, body, simhash(body) FROM golden WHERE representable(body, 'EUC_CN')) TO 'results/golden_euc_cn.tsv'
\copy (SELECT id, body, simhash(body) FROM golden WHERE representable(body, 'EUC_TW')) TO 'results/golden_euc_tw.tsv'
\copy (SELECT id, body, simhash(body) FROM golden WHERE representable(body, 'LATIN1')) TO 'results/golden_latin1.tsv'
\copy (SELECT id, body, simhash(body) FROM golden) TO 'results/golden_all.tsv'

-- EUC_CN (simplified Chinese), C locale
CREATE DATABASE textfp_enc_euc_cn ENCODING 'EUC_CN' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
\c textfp_enc_euc_cn
SET client_encoding = 'UTF8';
CREATE EXTENSION textfp;
CREATE TABLE g (id int, body text, expected simhash64);
\copy g FROM 'results/golden_euc_cn.tsv'
SELECT current_setting('server_encoding') AS enc, count(*) AS texts,
       count(*) FILTER (WHERE simhash(body) <> expected) AS mismatches FROM g;
SELECT id, simhash(body), expected FROM g WHERE simhash(body) <> expected;

-- EUC_TW (traditional Chinese), C locale
CREATE DATABASE textfp_enc_euc_tw ENCODING 'EUC_TW' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
\c textfp_enc_euc_tw
SET client_encoding = 'UTF8';
CREATE EXTENSION textfp;
CREATE TABLE g (id int, body text, expected simhash64);
\copy g FROM 'results/golden_euc_tw.tsv'
SELECT current_setting('server_encoding') AS enc, count(*) AS texts,
       count(*) FILTER (WHERE simhash(body) <> expected) AS mismatches FROM g;
SELECT id, simhash(body), expected FROM g WHERE simhash(body) <> expected;
-- traditional text in a traditional-Chinese database folds to simplified
SELECT simhash('國家統計局發布數據'::text) = :'simp_fp' AS trad_in_euc_tw_equals_simplified_in_utf8;

-- LATIN1, C locale
CREATE DATABASE textfp_enc_latin1 ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
\c textfp_enc_latin1
SET client_encoding = 'UTF8';
CREATE EXTENSION textfp;
CREATE TABLE g (id int, body text, expected simhash64);
\copy g FROM 'results/golden_latin1.tsv'
SELECT current_setting('server_encoding') AS enc, count(*) AS texts,
       count(*) FILTER (WHERE simhash(body) <> expected) AS mismatches FROM g;
SELECT id, simhash(body), expected FROM g WHERE simhash(body) <> expected;

-- SQL_ASCII: bytes are read as UTF-8
CREATE DATABASE textfp_enc_sql_ascii ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
\c textfp_enc_sql_ascii
SET client_encoding = 'UTF8';
CREATE EXTENSION textfp;
CREATE TABLE g (id int, body text, expected simhash64);
\copy g FROM 'results/golden_all.tsv'
SELECT current_setting('server_encoding') AS enc, count(*) AS texts,
       count(*) FILTER (WHERE simhash(body) <> expected) AS mismatches FROM g;
SELECT id, simhash(body), expected FROM g WHERE simhash(body) <> expected;

-- UTF8 under the C locale and under C.UTF-8
CREATE DATABASE textfp_loc_c ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
\c textfp_loc_c
SET client_encoding = 'UTF8';
CREATE EXTENSION textfp;
CREATE TABLE g (id int, body text, expected simhash64);
\copy g FROM 'results/golden_all.tsv'
SELECT (SELECT datctype FROM pg_database WHERE datname = current_database()) AS ctype, count(*) AS texts,
       count(*) FILTER (WHERE simhash(body) <> expected) AS mismatches FROM g;

CREATE DATABASE textfp_loc_c_utf8 ENCODING 'UTF8' LC_COLLATE 'C.UTF-8' LC_CTYPE 'C.UTF-8' TEMPLATE template0;
\c textfp_loc_c_utf8
SET client_encoding = 'UTF8';
CREATE EXTENSION textfp;
CREATE TABLE g (id int, body text, expected simhash64);
\copy g FROM 'results/golden_all.tsv'
SELECT (SELECT datctype FROM pg_database WHERE datname = current_database()) AS ctype, count(*) AS texts,
       count(*) FILTER (WHERE simhash(body) <> expected) AS mismatches FROM g;
-- ... and with a column collation that is not the default
SELECT count(*) FILTER (WHERE simhash(body COLLATE "C") <> expected) AS mismatches_collate_c FROM g;

\c :regdb
DROP DATABASE textfp_enc_euc_cn;
DROP DATABASE textfp_enc_euc_tw;
DROP DATABASE textfp_enc_latin1;
DROP DATABASE textfp_enc_sql_ascii;
DROP DATABASE textfp_loc_c;
DROP DATABASE textfp_loc_c_utf8;
DROP TABLE golden;
DROP FUNCTION representable(text, name);
