-- shingles() and shingle_jaccard(): exact shingle sets for verification;
-- the estimator against them; encodings.
\set regdb :DBNAME
\i sql/include/golden_texts.sql

-- the shingle set: distinct feature hashes, sorted as int8
SELECT shingles('one two three four five');
SELECT cardinality(shingles('one two three four five')) AS n3,
       cardinality(shingles('one two three four five', 5, 1)) AS n1,
       cardinality(shingles('one two one two one two', 5, 1)) AS distinct_words,
       cardinality(shingles('中华人民共和国', 5)) AS han5,
       cardinality(shingles('中华人民共和国', 2)) AS han2;
SELECT shingles(''), shingles('!!! ...');
SELECT s = (SELECT array_agg(DISTINCT x ORDER BY x) FROM unnest(s) x) AS sorted_distinct
FROM (SELECT shingles(body, 2, 1) AS s FROM golden WHERE id = 33) t;
-- fewer words than `shingle`: one shingle of all of them (not an empty set)
SELECT cardinality(shingles('fingerprint')) AS one_word, cardinality(shingles('two words')) AS two_words;

-- exact Jaccard
SELECT shingle_jaccard('a b c d e f', 'a b c d e f') AS same,
       shingle_jaccard('a b c d e f', 'a b c d e g') AS one_changed,
       shingle_jaccard('a b c d e f', 'A B C D E F') AS folded,
       shingle_jaccard('a b c d e f', 'A B C D E F', 5, 3, false) AS unfolded,
       shingle_jaccard('a b c d e f', 'u v w x y z') AS disjoint,
       shingle_jaccard('', '') AS both_empty,
       shingle_jaccard('', 'a') AS one_empty;
SELECT shingle_jaccard(a.body, b.body) = shingle_jaccard(shingles(a.body), shingles(b.body)) AS same_from_arrays
FROM golden a, golden b WHERE a.id = 1 AND b.id = 3;
SELECT shingle_jaccard('{1,2,3}'::int8[], '{3,2,2,4}'::int8[]) AS half,
       shingle_jaccard('{}'::int8[], '{}'::int8[]) AS empties;
SELECT shingle_jaccard('{1,NULL}'::int8[], '{1}'::int8[]);
SELECT shingle_jaccard('{{1,2},{3,4}}'::int8[], '{1}'::int8[]);
SELECT shingle_jaccard('a'::text, 'b'::text, 0);
SELECT shingles('a'::text, 5, 99);

-- GIN && over shingle sets finds texts sharing a shingle
CREATE TABLE mhf_sh AS SELECT id, body, shingles(body) AS s FROM golden;
CREATE INDEX ON mhf_sh USING gin (s);
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM mhf_sh WHERE s && shingles('据新华社北京电，国家统计局今天发布');
SELECT id FROM mhf_sh WHERE s && shingles('据新华社北京电，国家统计局今天发布') ORDER BY id;
RESET enable_seqscan;

-- the estimator against the exact Jaccard (synthetic word texts, pairs over
-- the whole range): mean error ~ 0, SD of the error close to
-- sqrt(J(1-J)/k).  Real-text measurements: test/bench/minhash_accuracy.sh.
CREATE TABLE mhf_doc AS
SELECT b * 10 + v AS id, b AS base,
       (SELECT string_agg(CASE WHEN abs(hashint4(b * 1000 + i + 7919 * v)) % 100 < (ARRAY[0, 5, 15, 30, 50, 75])[v + 1]
                               THEN 'x' || abs(hashint4(b * 1000 + i + 104729 * v)) % 50000
                               ELSE 'w' || abs(hashint4(b * 1000 + i)) % 50000 END, ' ' ORDER BY i)
          FROM generate_series(1, 400) i) AS body
FROM generate_series(1, 100) b, generate_series(0, 5) v;
CREATE TABLE mhf_pair AS
SELECT a.id AS a, b.id AS b, shingle_jaccard(a.body, b.body) AS j,
       minhash_jaccard(minhash(a.body, 64), minhash(b.body, 64)) AS e64,
       minhash_jaccard(minhash(a.body, 128), minhash(b.body, 128)) AS e128,
       minhash_jaccard(minhash(a.body, 256), minhash(b.body, 256)) AS e256
FROM mhf_doc a JOIN mhf_doc b ON a.base = b.base AND a.id < b.id;
SELECT k, count(*) AS pairs,
       round(min(j)::numeric, 2) AS min_j, round(max(j)::numeric, 2) AS max_j,
       abs(avg(e - j)) < 4 * sqrt(avg(j * (1 - j) / k) / count(*)) AS unbiased,
       round((sqrt(avg((e - j) ^ 2)) / sqrt(avg(j * (1 - j) / k)))::numeric, 2) AS sd_ratio,
       sqrt(avg((e - j) ^ 2)) / sqrt(avg(j * (1 - j) / k)) BETWEEN 0.8 AND 1.1 AS sd_ok
FROM mhf_pair, LATERAL (VALUES (64, e64), (128, e128), (256, e256)) v(k, e)
GROUP BY k ORDER BY k;

-- same signature in any server encoding
\copy (SELECT id, body, minhash(body, 16)::text, shingles(body) FROM golden WHERE id IN (1, 3, 4, 7, 14, 17, 33)) TO 'results/minhash_euc_cn.tsv'
CREATE DATABASE textfp_mh_euc_cn ENCODING 'EUC_CN' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
\c textfp_mh_euc_cn
SET client_encoding = 'UTF8';
CREATE EXTENSION textfp;
CREATE TABLE g (id int, body text, expected text, expected_shingles int8[]);
\copy g FROM 'results/minhash_euc_cn.tsv'
SELECT current_setting('server_encoding') AS enc, count(*) AS texts,
       count(*) FILTER (WHERE minhash(body, 16)::text <> expected) AS mismatches,
       count(*) FILTER (WHERE shingles(body) <> expected_shingles) AS shingle_mismatches
FROM g;
\c :regdb
DROP DATABASE textfp_mh_euc_cn;
DROP TABLE golden, mhf_sh, mhf_doc, mhf_pair;
