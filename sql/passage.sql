--
-- The passage fingerprint: passage_fp() and the passage_fingerprint type,
-- golden values (never to change), folds and homophones, the guarantee on
-- real text (a copied run of w + k - 1 Han characters always shares a
-- matching seed), the text and binary forms, the %& operator, every server
-- encoding, and bad input.
--
-- (a schema of its own: the tables of the tests of a stream share a database)
CREATE SCHEMA passage_t;
SET search_path = passage_t, public;
\i sql/include/err.sql
\i sql/include/golden_texts.sql

-- the catalog: IMMUTABLE, STRICT, PARALLEL SAFE (usable in a generated column)
SELECT p.oid::regprocedure AS function, provolatile, proisstrict, proparallel
FROM pg_proc p JOIN pg_depend d ON d.objid = p.oid AND d.deptype = 'e'
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'textfp'
WHERE proname ~ '^passage_(fp|query|text_match|fingerprint)' ORDER BY p.oid::regprocedure::text COLLATE "C";

-- golden values: the whole fingerprint of every golden text, as its md5
-- (and a few in full below), pinned forever
SELECT id, note, passage_fp_count(passage_fp(body)) AS seeds, passage_fp_units(passage_fp(body)) AS units,
       md5(passage_fp(body)::text) AS fp_md5
FROM golden ORDER BY id;
SELECT passage_fp(body) FROM golden WHERE id IN (1, 4, 7, 20) ORDER BY id;
SELECT id, md5(passage_fp(body, 3, 4)::text) AS k3_w4, md5(passage_fp(body, 8, 16, false)::text) AS k8_w16_plain
FROM golden WHERE id IN (1, 2, 3, 6, 7, 20, 22) ORDER BY id;

-- folds: the traditional repost (2) of the news (1) has its fingerprint;
-- case, width, decomposition, punctuation and spacing never matter
SELECT a.id, b.id, passage_fp(a.body)::text = passage_fp(b.body)::text AS same
FROM golden a JOIN golden b ON (a.id, b.id) IN ((1, 2), (4, 5), (10, 11), (12, 13))
ORDER BY 1;
SELECT passage_fp('Hello,   WORLD! 中華人民共和國')::text = passage_fp('hello world 中华人民共和国')::text AS folded;

-- homophones: under the reading fold 在/再, 他/她, 的/地 are one unit
SELECT passage_fp('他在北京的时候买了一本书')::text = passage_fp('她再北京地时候买了一本书')::text AS homophones_equal,
       passage_fp('他在北京的时候买了一本书', reading => false)::text
       = passage_fp('她再北京地时候买了一本书', reading => false)::text AS without_reading;

-- the guarantee on real text: a run of t = w + k - 1 Han characters of the news
-- copied into unrelated text always shares a seed with an equal context
-- byte (passage_fp_shared counts them), whatever the run, for three (k, w)
CREATE TABLE runs AS
SELECT k, w, i,
       substr(g.body, i, w + k - 1) AS run
FROM golden g, (VALUES (5, 9), (3, 4), (2, 8)) kw(k, w),
     generate_series(1, 60) i
WHERE g.id = 1 AND length(regexp_replace(substr(g.body, i, w + k - 1), '[，。、]', '', 'g')) = w + k - 1;
SELECT k, w, count(*) AS runs,
       count(*) FILTER (WHERE passage_fp_shared(
           passage_fp('前面完全无关的一段文字讲的是天气' || run || '后面也是无关的话题比如体育比赛', k, w),
           passage_fp('另外一篇文章的开头说的是交通情况' || run || '结尾说的是明天的安排和计划', k, w)) >= 1) AS found
FROM runs GROUP BY k, w ORDER BY k, w;

-- the text form round trips, and so does the binary form
SELECT count(*) AS texts,
       count(*) FILTER (WHERE passage_fp(body)::text::passage_fingerprint::text = passage_fp(body)::text) AS text_round_trips
FROM golden;
CREATE TABLE fps AS SELECT id, passage_fp(body) AS fp FROM golden;
\copy fps TO 'results/passage_fps.bin' WITH (FORMAT binary)
CREATE TABLE fps2 (LIKE fps);
\copy fps2 FROM 'results/passage_fps.bin' WITH (FORMAT binary)
SELECT count(*) AS rows, count(*) FILTER (WHERE a.fp::text = b.fp::text) AS binary_round_trips
FROM fps a JOIN fps2 b USING (id);

-- accessors
SELECT * FROM passage_fp_seeds(passage_fp('The quick brown fox jumps over the lazy dog and runs far away into the dark forest'));
SELECT passage_fp_hashes(passage_fp('The quick brown fox jumps over the lazy dog and runs far away into the dark forest'));
SELECT cardinality(passage_fp_hashes(passage_fp(body))) <= passage_fp_count(passage_fp(body)) AS distinct_le_seeds
FROM golden WHERE id = 6;

-- in a generated column, with the operator %& (at least m seeds shared)
CREATE TABLE art (id int, body text,
                  fp passage_fingerprint GENERATED ALWAYS AS (passage_fp(body)) STORED);
INSERT INTO art (id, body) SELECT id, body FROM golden;
SELECT id FROM art WHERE fp %& passage_query(passage_fp('转载：' || (SELECT body FROM golden WHERE id = 1)), 2) ORDER BY id;
SELECT id FROM art WHERE body %& passage_query('转载：' || (SELECT body FROM golden WHERE id = 1), 2) ORDER BY id;
SELECT id, passage_fp_shared(fp, passage_fp((SELECT body FROM golden WHERE id = 1))) AS shared
FROM art WHERE id IN (1, 2, 3, 4) ORDER BY id;

-- the same fingerprints in databases of other encodings
\i sql/include/representable.sql
\copy (SELECT id, body, passage_fp(body)::text FROM golden WHERE representable(body, 'EUC_CN')) TO 'results/pfp_euc_cn.tsv'
\copy (SELECT id, body, passage_fp(body)::text FROM golden WHERE representable(body, 'LATIN1')) TO 'results/pfp_latin1.tsv'
\copy (SELECT id, body, passage_fp(body)::text FROM golden) TO 'results/pfp_all.tsv'
\set regdb :DBNAME
CREATE DATABASE textfp_pfp_euc_cn ENCODING 'EUC_CN' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
\c textfp_pfp_euc_cn
SET client_encoding = 'UTF8';
CREATE EXTENSION textfp;
CREATE TABLE g (id int, body text, expected text);
\copy g FROM 'results/pfp_euc_cn.tsv'
SELECT current_setting('server_encoding') AS enc, count(*) AS texts,
       count(*) FILTER (WHERE passage_fp(body)::text <> expected) AS mismatches FROM g;
CREATE DATABASE textfp_pfp_latin1 ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
\c textfp_pfp_latin1
SET client_encoding = 'UTF8';
CREATE EXTENSION textfp;
CREATE TABLE g (id int, body text, expected text);
\copy g FROM 'results/pfp_latin1.tsv'
SELECT current_setting('server_encoding') AS enc, count(*) AS texts,
       count(*) FILTER (WHERE passage_fp(body)::text <> expected) AS mismatches FROM g;
CREATE DATABASE textfp_pfp_sql_ascii ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
\c textfp_pfp_sql_ascii
SET client_encoding = 'SQL_ASCII';
CREATE EXTENSION textfp;
CREATE TABLE g (id int, body text, expected text);
\copy g FROM 'results/pfp_all.tsv'
SELECT current_setting('server_encoding') AS enc, count(*) AS texts,
       count(*) FILTER (WHERE passage_fp(body)::text <> expected) AS mismatches FROM g;
\c :regdb
SET search_path = passage_t, public;
DROP DATABASE textfp_pfp_euc_cn;
DROP DATABASE textfp_pfp_latin1;
DROP DATABASE textfp_pfp_sql_ascii;
\i sql/include/err.sql

-- bad input
SELECT q, err(q) FROM (VALUES
  ($$SELECT passage_fp('abc', 0)$$),
  ($$SELECT passage_fp('abc', 17)$$),
  ($$SELECT passage_fp('abc', 5, 0)$$),
  ($$SELECT passage_fp('abc', 5, 65)$$),
  ($$SELECT passage_query('abc', 0)$$),
  ($$SELECT passage_query(passage_fp('abc'), -1)$$),
  ($$SELECT passage_fp_shared(passage_fp('abc'), passage_fp('abc', 3, 4))$$),
  ($$SELECT passage_fp('abc') %& passage_query(passage_fp('abc', 3, 4), 1)$$),
  ($$SELECT 'abc'::passage_fingerprint$$),
  ($$SELECT 'v1 k=5 w=9 reading=1 units=3 '::passage_fingerprint$$),
  ($$SELECT 'v2 k=5 w=9 reading=1 units=3 empty'::passage_fingerprint$$),
  ($$SELECT 'v1 k=0 w=9 reading=1 units=3 empty'::passage_fingerprint$$),
  ($$SELECT 'v1 k=5 w=9 reading=2 units=3 empty'::passage_fingerprint$$),
  ($$SELECT 'v1 k=5 w=9 reading=1 units=20 0123456789abcdef@0:a1b2 0123456789abcdef@0:a1b2'::passage_fingerprint$$),
  ($$SELECT 'v1 k=5 w=9 reading=1 units=20 0123456789abcdef@16:a1b2'::passage_fingerprint$$),
  ($$SELECT 'v1 k=5 w=9 reading=1 units=20 0123456789abcdeg@1:a1b2'::passage_fingerprint$$),
  ($$SELECT 'v1 k=5 w=9 reading=1 units=20 0123456789abcdef@1:a1b'::passage_fingerprint$$),
  ($$SELECT 'v1 k=5 w=9 reading=1 units=20 0123456789abcdef@1:a1b2  0123456789abcdef@2:a1b2'::passage_fingerprint$$),
  ($$SELECT 'v1 k=5 w=9 reading=1 units=99999999999 empty'::passage_fingerprint$$),
  ($$SELECT 'v1 k=05 w=9 reading=1 units=3 empty'::passage_fingerprint$$)
) t(q);
-- a valid value typed in, with upper-case hex digits
SELECT 'v1 k=5 w=9 reading=1 units=20 0123456789ABCDEF@1:A1B2 fedcba9876543210@7:0000'::passage_fingerprint;
SELECT 'v1 k=5 w=9 reading=0 units=0 empty'::passage_fingerprint;
-- NULL in, NULL out; the empty text has no seeds
SELECT passage_fp(NULL) IS NULL AS null_in, passage_fp('') AS empty,
       passage_fp_count(passage_fp('一二三四')) AS under_k;
RESET search_path;
DROP SCHEMA passage_t CASCADE;
