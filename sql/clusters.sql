--
-- textfp_clusters(): connected components of a pair graph (one row per id
-- occurring in a pair, cluster_id = representative = smallest id of the
-- component); simhash_clusters() over simhash_pairs(); against hand-worked
-- graphs and a recursive-CTE computation; MinHash and pinyin DNA
-- candidates as pair queries.
--
-- in a schema of its own, dropped at the end (other tests use the same names)
CREATE SCHEMA clusters_t;
SET search_path = clusters_t, public;
\i sql/include/err.sql
-- hand-worked: a chain 1-2-3-4 (edges given out of order and reversed), a
-- star around 10, a separate edge 30-31 given twice, a self-pair 40-40,
-- NULL ids skipped, a third column ignored
CREATE TABLE g (a int, b bigint, note text);
INSERT INTO g VALUES (3, 4, 'x'), (2, 1, 'y'), (3, 2, NULL), (10, 13, ''), (12, 10, ''),
  (10, 11, ''), (30, 31, ''), (31, 30, ''), (40, 40, ''), (NULL, 50, ''), (51, NULL, '');
SELECT * FROM textfp_clusters('SELECT a, b, note FROM g') ORDER BY id;
-- a chain joined to the star by one more edge
SELECT * FROM textfp_clusters('SELECT a, b FROM g UNION ALL SELECT 4, 12') ORDER BY id;
-- negative and large ids
SELECT * FROM textfp_clusters($$VALUES (-9223372036854775808, 9223372036854775807), (0::bigint, -1::bigint)$$)
ORDER BY id;
-- no pairs
SELECT count(*) FROM textfp_clusters('SELECT 1, 2 WHERE false');

-- random graphs against a recursive CTE: the component of a node is the
-- set of nodes reachable from it; its smallest id is the cluster id
CREATE FUNCTION pick(a int, b int, n int) RETURNS int
LANGUAGE sql IMMUTABLE AS $$ SELECT (hashint8($1::int8 * 100003 + $2) & 2147483647) % $3 $$;
CREATE TABLE edges (g int, a bigint, b bigint);
INSERT INTO edges SELECT g, pick(g, i, 400), pick(g, -i, 400)
FROM generate_series(1, 4) g, generate_series(1, 100 * g) i;
CREATE FUNCTION cte_clusters(gg int)
RETURNS TABLE (id bigint, cluster_id bigint, cluster_size bigint, representative bigint)
LANGUAGE sql AS $$
WITH RECURSIVE und AS (SELECT a, b FROM edges WHERE g = gg UNION SELECT b, a FROM edges WHERE g = gg),
reach (n, m) AS (SELECT a, a FROM und UNION SELECT r.n, u.b FROM reach r JOIN und u ON u.a = r.m),
comp AS (SELECT n, min(m) AS c FROM reach GROUP BY n)
SELECT n, c, count(*) OVER (PARTITION BY c), c FROM comp
$$;
SELECT g, (SELECT count(*) FROM cte_clusters(g)) AS ids,
       (SELECT count(DISTINCT cluster_id) FROM cte_clusters(g)) AS clusters,
       (SELECT max(cluster_size) FROM cte_clusters(g)) AS largest,
       (SELECT count(*) FROM (SELECT * FROM cte_clusters(g) EXCEPT ALL
               SELECT * FROM textfp_clusters(format('SELECT a, b FROM edges WHERE g = %s', g))) d) AS missing,
       (SELECT count(*) FROM (SELECT * FROM textfp_clusters(format('SELECT a, b FROM edges WHERE g = %s', g))
               EXCEPT ALL SELECT * FROM cte_clusters(g)) d) AS extra
FROM generate_series(1, 4) g;

-- simhash_clusters: the components of simhash_pairs, from a query and a table
CREATE FUNCTION h64(i bigint) RETURNS bigint LANGUAGE sql IMMUTABLE AS
$$ SELECT (hashint8(i)::bigint << 32) # (hashint8(i + 1000003)::bigint & 4294967295) $$;
CREATE TABLE fps (id bigint, fp simhash64);
INSERT INTO fps SELECT i, h64(i)::simhash64 FROM generate_series(1, 1500) i;
-- chains of near-duplicates: each new row is one bit away from an earlier one
INSERT INTO fps SELECT 1500 + j, (h64(1 + abs(hashint8(-j)) % 1500) # (1::bigint << (j % 64)))::simhash64
FROM generate_series(1, 400) j;
INSERT INTO fps SELECT id + 400, (fp::bigint # (1::bigint << ((id * 7) % 64)::int))::simhash64
FROM fps WHERE id BETWEEN 1501 AND 1900 AND id % 3 = 0;
INSERT INTO edges SELECT 5, id_a, id_b FROM simhash_pairs('fps', 'id', 'fp', 3);
SELECT (SELECT count(*) FROM cte_clusters(5)) AS ids,
       (SELECT max(cluster_size) FROM cte_clusters(5)) AS largest,
       (SELECT count(*) FROM (SELECT * FROM cte_clusters(5) EXCEPT ALL
               SELECT * FROM simhash_clusters('fps', 'id', 'fp', 3)) d) AS missing_rel,
       (SELECT count(*) FROM (SELECT * FROM simhash_clusters('fps', 'id', 'fp', 3)
               EXCEPT ALL SELECT * FROM cte_clusters(5)) d) AS extra_rel,
       (SELECT count(*) FROM (SELECT * FROM cte_clusters(5) EXCEPT ALL
               SELECT * FROM simhash_clusters('SELECT id, fp FROM fps')) d) AS missing_query,
       (SELECT count(*) FROM (SELECT * FROM simhash_clusters('SELECT id, fp FROM fps')
               EXCEPT ALL SELECT * FROM cte_clusters(5)) d) AS extra_query;
-- duplicate ids: rows of one id never pair, so an id alone is no cluster
SELECT * FROM simhash_clusters($$VALUES (1, '0000000000000000'::simhash64), (1, '0000000000000001'),
  (2, 'ffffffffffffffff'), (3, 'fffffffffffffff7'), (4, '00000000000000ff')$$, 2) ORDER BY id;

-- MinHash candidates: pairs of documents whose signatures are similar (the %
-- operator at textfp.minhash_threshold), grouped into clusters
CREATE TABLE docs (id int, body text);
INSERT INTO docs
SELECT b * 10 + v,
       (SELECT string_agg(CASE WHEN abs(hashint4(b * 1000 + i + 7919 * v)) % 100 < (ARRAY[0, 5, 10, 80])[v + 1]
                               THEN 'x' || abs(hashint4(b * 1000 + i + 104729 * v)) % 3000
                               ELSE 'w' || abs(hashint4(b * 1000 + i)) % 3000 END, ' ' ORDER BY i)
          FROM generate_series(1, 60) i)
FROM generate_series(1, 30) b, generate_series(0, 3) v;
CREATE TABLE sigs AS SELECT id, minhash(body, 128) AS sig FROM docs;
SET textfp.minhash_threshold = 0.5;
CREATE TABLE mh AS SELECT * FROM textfp_clusters(
  'SELECT a.id, b.id FROM sigs a JOIN sigs b ON a.sig % b.sig AND a.id < b.id');
-- variants 0..2 of a base text (<= 10% of words replaced) share a cluster;
-- variant 3 (80% replaced) is in none
SELECT count(*) AS ids, count(DISTINCT cluster_id) AS clusters,
       count(*) FILTER (WHERE cluster_id <> id / 10 * 10) AS not_with_base,
       count(*) FILTER (WHERE id % 10 = 3) AS far_variants
FROM mh;
RESET textfp.minhash_threshold;

-- pinyin DNA candidates: Chinese texts sharing at least half their window DNAs
CREATE TABLE zh (id int, body text);
INSERT INTO zh VALUES
  (1, '床前明月光，疑是地上霜。举头望明月，低头思故乡。春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。'),
  (2, '床前明月光，疑是地上霜。举头望明月，低头思故乡。春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少！'),
  (3, '床前名月光，疑是地上霜。举头望明月，低头思故乡。春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。'),
  (4, '白日依山尽，黄河入海流。欲穷千里目，更上一层楼。红豆生南国，春来发几枝。愿君多采撷，此物最相思。'),
  (5, '白日依山尽，黄河入海流。欲穷千里目，更上一层楼。红豆生南国，春来发几枝。愿君多采撷，此物最相思。'),
  (6, '千山鸟飞绝，万径人踪灭。孤舟蓑笠翁，独钓寒江雪。');
CREATE TABLE dna AS SELECT id, pinyin_dna(body, 8) AS d FROM zh;
SELECT * FROM textfp_clusters(
  'SELECT a.id, b.id FROM dna a JOIN dna b ON a.id < b.id AND pinyin_dna_similarity(a.d, b.d) >= 0.5')
ORDER BY id;

-- bad input
\set VERBOSITY terse
SELECT err($$SELECT * FROM textfp_clusters('SELECT 1')$$);
SELECT err($$SELECT * FROM textfp_clusters('SELECT 1, ''a''')$$);
SELECT err($$SELECT * FROM textfp_clusters('SELECT 1.5, 2')$$);
SELECT err($$SELECT * FROM textfp_clusters('SELEC 1, 2')$$);
SELECT err($$SELECT * FROM simhash_clusters('SELECT id, fp FROM fps', 40)$$);
SELECT err($$SELECT * FROM simhash_clusters('fps', 'id', 'nope')$$);
SELECT * FROM textfp_clusters(NULL);
\set VERBOSITY default
RESET search_path;
DROP SCHEMA clusters_t CASCADE;
