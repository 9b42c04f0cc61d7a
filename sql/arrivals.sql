--
-- textfp_check_arrivals(): new rows against an indexed corpus, recorded in
-- a match table.  The records of each method equal a brute-force join (no
-- index) under the documented rules: no self-match, a pair of two new rows
-- of the corpus once with the larger id as the new row; a re-run writes
-- nothing; the whole corpus (new_rows NULL, simhash_pairs for simhash)
-- equals checking every row; rows staged outside the corpus; the
-- verifying method; errors.  Then the trigger textfp_duplicate_of().
--
-- in a schema of its own, dropped at the end (other tests use the same names)
CREATE SCHEMA arrivals_t;
SET search_path = arrivals_t, public;
\i sql/include/err.sql
SET client_min_messages = warning;

-- the sample corpus with a generated fingerprint of each kind, each indexed
\set corpus_table articles
\i sql/include/corpus_fp.sql
CREATE TABLE truth (id int, original_id int, transformation text);
\copy truth FROM 'test/data/corpus_truth.tsv'
CREATE INDEX articles_fp ON articles USING gin (fp);
CREATE INDEX articles_sig ON articles USING gin (sig);
CREATE INDEX articles_dna ON articles USING gin (dna pinyin_dna_ops);
ANALYZE articles;

-- the match table
SELECT textfp_create_match_table('matches');
\d matches

-- the new rows: every repost of the answer key, and every fifth row
CREATE TABLE batch_ids AS
SELECT id FROM articles WHERE id IN (SELECT id FROM truth) OR id % 5 = 0;
SELECT count(*) AS new_rows FROM batch_ids;
-- the plans: one index probe per new row
SET enable_seqscan = off;
SELECT * FROM textfp_check_arrivals('SELECT * FROM articles WHERE id IN (SELECT id FROM batch_ids)',
    'articles', 'matches', '{simhash,minhash,pinyin_dna}', radius => 6, simhash_search => 'index',
    min_jaccard => 0.7, min_shared => 2, min_dna_similarity => 0.05);
RESET enable_seqscan;

-- the same records by brute force (sequential scans, no index)
CREATE FUNCTION brute(new_rows int[], r int, jac float8, shared int, dsim float8)
RETURNS TABLE (new_id bigint, matched_id bigint, method text, distance int4, similarity float8)
LANGUAGE sql SET enable_indexscan = off SET enable_bitmapscan = off AS $$
  SELECT n.id, c.id, x.method, x.distance, x.similarity
  FROM articles n JOIN articles c ON c.id <> n.id
  CROSS JOIN LATERAL (VALUES
      ('simhash', simhash_dist(n.fp, c.fp), 1 - simhash_dist(n.fp, c.fp) / 64.0::float8,
       simhash_dist(n.fp, c.fp) <= r),
      ('minhash', NULL, minhash_jaccard(n.sig, c.sig), minhash_jaccard(n.sig, c.sig) >= jac),
      ('pinyin_dna', NULL, pinyin_dna_similarity(n.dna, c.dna),
       pinyin_dna_shared(n.dna, c.dna) >= shared AND pinyin_dna_similarity(n.dna, c.dna) >= dsim))
    AS x(method, distance, similarity, ok)
  WHERE n.id = ANY (new_rows) AND x.ok AND NOT (c.id = ANY (new_rows) AND c.id > n.id)
$$;
CREATE FUNCTION compare(want_query text)
RETURNS TABLE (method text, want bigint, got bigint, missing bigint, extra bigint)
LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE 'CREATE TEMP TABLE want AS ' || want_query;
  RETURN QUERY
  SELECT ms.m, (SELECT count(*) FROM want w WHERE w.method = ms.m),
         (SELECT count(*) FROM matches r WHERE r.method = ms.m),
         (SELECT count(*) FROM (SELECT w.new_id, w.matched_id, w.distance, w.similarity FROM want w WHERE w.method = ms.m
                                EXCEPT ALL
                                SELECT r.new_id, r.matched_id, r.distance, r.similarity FROM matches r WHERE r.method = ms.m) d),
         (SELECT count(*) FROM (SELECT r.new_id, r.matched_id, r.distance, r.similarity FROM matches r WHERE r.method = ms.m
                                EXCEPT ALL
                                SELECT w.new_id, w.matched_id, w.distance, w.similarity FROM want w WHERE w.method = ms.m) d)
  FROM (SELECT DISTINCT w.method AS m FROM want w UNION SELECT DISTINCT r.method FROM matches r) ms ORDER BY 1;
  DROP TABLE want;
END $$;
SELECT * FROM compare($$SELECT * FROM brute((SELECT array_agg(id) FROM batch_ids), 6, 0.7, 2, 0.05)$$);
-- simhash by the all-pairs search over the corpus and the new rows instead:
-- the same records
CREATE TABLE by_index AS SELECT * FROM matches WHERE method = 'simhash';
DELETE FROM matches WHERE method = 'simhash';
SELECT * FROM textfp_check_arrivals('SELECT * FROM articles WHERE id IN (SELECT id FROM batch_ids)',
    'articles', 'matches', radius => 6, simhash_search => 'scan');
SELECT (SELECT count(*) FROM (SELECT new_id, matched_id, distance FROM by_index
                              EXCEPT ALL SELECT new_id, matched_id, distance FROM matches WHERE method = 'simhash') d) AS missing,
       (SELECT count(*) FROM (SELECT new_id, matched_id, distance FROM matches WHERE method = 'simhash'
                              EXCEPT ALL SELECT new_id, matched_id, distance FROM by_index) d) AS extra;
-- each pair once: no pair of new rows in both directions, none with itself
SELECT count(*) FILTER (WHERE a.new_id = a.matched_id) AS self,
       count(*) FILTER (WHERE EXISTS (SELECT FROM matches b WHERE b.method = a.method
                                     AND b.new_id = a.matched_id AND b.matched_id = a.new_id)) AS both_ways
FROM matches a;
-- the reposts found, by kind of copy (the answer key's pairs among the records)
SELECT split_part(t.transformation, ':', 1) AS kind, count(*) AS reposts,
       count(*) FILTER (WHERE EXISTS (SELECT FROM matches m WHERE m.method = 'simhash'
           AND (m.new_id, m.matched_id) IN ((t.id, t.original_id), (t.original_id, t.id)))) AS simhash,
       count(*) FILTER (WHERE EXISTS (SELECT FROM matches m WHERE m.method = 'minhash'
           AND (m.new_id, m.matched_id) IN ((t.id, t.original_id), (t.original_id, t.id)))) AS minhash,
       count(*) FILTER (WHERE EXISTS (SELECT FROM matches m
           WHERE (m.new_id, m.matched_id) IN ((t.id, t.original_id), (t.original_id, t.id)))) AS any_method
FROM truth t GROUP BY 1 ORDER BY 1;

-- a re-run records nothing new and changes nothing (not even matched_at)
CREATE TABLE before AS SELECT * FROM matches;
SELECT * FROM textfp_check_arrivals('SELECT * FROM articles WHERE id IN (SELECT id FROM batch_ids)',
    'articles', 'matches', '{pinyin_dna,simhash,minhash}',
    radius => 6, min_jaccard => 0.7, min_shared => 2, min_dna_similarity => 0.05);
SELECT (SELECT count(*) FROM (TABLE before EXCEPT ALL TABLE matches) d) AS lost,
       (SELECT count(*) FROM (TABLE matches EXCEPT ALL TABLE before) d) AS changed;
-- a changed score is updated in place
UPDATE matches SET distance = 63, similarity = 0
WHERE method = 'simhash' AND (new_id, matched_id) = (SELECT new_id, matched_id FROM matches
                                                    WHERE method = 'simhash' ORDER BY 1, 2 LIMIT 1);
SELECT matches_written FROM textfp_check_arrivals('SELECT * FROM articles WHERE id IN (SELECT id FROM batch_ids)',
    'articles', 'matches', radius => 6);
SELECT count(*) AS changed FROM (SELECT new_id, matched_id, method, distance, similarity FROM matches
                                 EXCEPT ALL SELECT new_id, matched_id, method, distance, similarity FROM before) d;
-- the minhash method set textfp.minhash_threshold for its search only
SHOW textfp.minhash_threshold;

-- the whole corpus (new_rows NULL): every row against the others, each
-- pair once with the larger id as the new row; simhash by the batch search
-- (radius <= 32) and by index probes (above) give the same records
TRUNCATE matches;
SELECT * FROM textfp_check_arrivals(NULL, 'articles', 'matches', '{simhash,minhash,pinyin_dna}',
    radius => 8, min_jaccard => 0.7, min_dna_similarity => 0.05);
SELECT * FROM compare($$SELECT * FROM brute((SELECT array_agg(id) FROM articles), 8, 0.7, 2, 0.05)$$);
DELETE FROM matches WHERE method = 'simhash';
SELECT * FROM textfp_check_arrivals(NULL, 'articles', 'matches', radius => 8, simhash_search => 'index');
SELECT * FROM compare($$SELECT * FROM brute((SELECT array_agg(id) FROM articles), 8, 0.7, 2, 0.05)$$);
-- beyond radius 32 (the batch search's limit) the whole corpus is checked by
-- index probes; on the first 120 rows
CREATE TABLE first120 AS SELECT * FROM articles WHERE id <= 120;
CREATE INDEX ON first120 USING gin (fp);
TRUNCATE matches;
SELECT rows_checked, matches_found FROM textfp_check_arrivals(NULL, 'first120', 'matches', radius => 34);
SET enable_bitmapscan = off;
SET enable_indexscan = off;
SELECT count(*) AS want,
       (SELECT count(*) FROM (SELECT n.id, c.id, simhash_dist(n.fp, c.fp) FROM first120 n JOIN first120 c
                                ON c.id < n.id AND simhash_dist(n.fp, c.fp) <= 34
                              EXCEPT ALL SELECT new_id, matched_id, distance FROM matches) d) AS missing,
       (SELECT count(*) FROM (SELECT new_id, matched_id, distance FROM matches
                              EXCEPT ALL SELECT n.id, c.id, simhash_dist(n.fp, c.fp) FROM first120 n JOIN first120 c
                                ON c.id < n.id AND simhash_dist(n.fp, c.fp) <= 34) d) AS extra
FROM first120 n JOIN first120 c ON c.id < n.id AND simhash_dist(n.fp, c.fp) <= 34;
RESET enable_bitmapscan;
RESET enable_indexscan;
-- and the same as a batch of every row
CREATE TABLE whole AS SELECT * FROM matches;
TRUNCATE matches;
SELECT rows_checked, matches_found FROM textfp_check_arrivals('TABLE first120', 'first120', 'matches', radius => 34);
SELECT (SELECT count(*) FROM (SELECT new_id, matched_id, distance FROM whole
                              EXCEPT ALL SELECT new_id, matched_id, distance FROM matches) d) AS differ;

-- rows staged outside the corpus (ids of the corpus's id space, not yet
-- inserted): matched against the corpus only, not against each other
CREATE TABLE staging (LIKE articles INCLUDING GENERATED);
INSERT INTO staging (id, lang, source, title, body)
SELECT 100000 + a.id, a.lang, 'mirror', a.title, '转载：' || a.body || ' (source: example.org)'
FROM articles a WHERE a.id % 40 = 1
UNION ALL
SELECT 200000 + a.id, a.lang, 'mirror', a.title, '转载：' || a.body || ' (source: example.org)'
FROM articles a WHERE a.id % 40 = 1;
TRUNCATE matches;
SELECT * FROM textfp_check_arrivals('TABLE staging', 'articles', 'matches', radius => 6, simhash_search => 'index');
SELECT count(*) AS records,
       count(*) FILTER (WHERE matched_id = new_id % 100000) AS of_their_source,
       count(*) FILTER (WHERE matched_id >= 100000) AS within_staging
FROM matches;
SELECT (SELECT count(*) FROM staging) AS staged,
       (SELECT count(DISTINCT new_id) FROM matches) AS staged_with_match;
CREATE TABLE staged_by_index AS SELECT * FROM matches;
TRUNCATE matches;
SELECT * FROM textfp_check_arrivals('TABLE staging', 'articles', 'matches', radius => 6, simhash_search => 'scan');
SELECT count(*) AS differ FROM (
  (SELECT new_id, matched_id, distance FROM matches EXCEPT ALL SELECT new_id, matched_id, distance FROM staged_by_index)
  UNION ALL
  (SELECT new_id, matched_id, distance FROM staged_by_index EXCEPT ALL SELECT new_id, matched_id, distance FROM matches)) d;
-- staged rows and corpus rows in one batch: a staged row matches the
-- corpus rows of the batch too, also those of larger ids (the staged rows
-- have negative ids here); two corpus rows of the batch pair once
CREATE TABLE mixed AS
SELECT -id AS id, lang, source, title, body FROM staging
UNION ALL SELECT id, lang, source, title, body FROM articles WHERE id % 40 IN (1, 2, 3);
ALTER TABLE mixed ADD fp simhash64 GENERATED ALWAYS AS (simhash(body)) STORED;
CREATE TABLE want_mixed AS
SELECT n.id AS new_id, c.id AS matched_id, simhash_dist(n.fp, c.fp) AS distance
FROM mixed n JOIN articles c ON c.id <> n.id AND simhash_dist(n.fp, c.fp) <= 8
WHERE NOT (n.id IN (SELECT id FROM articles) AND c.id IN (SELECT id FROM mixed) AND c.id > n.id);
CREATE FUNCTION compare_mixed()
RETURNS TABLE (want bigint, got bigint, missing bigint, extra bigint) LANGUAGE sql AS $$
  SELECT (SELECT count(*) FROM want_mixed), (SELECT count(*) FROM matches),
         (SELECT count(*) FROM (SELECT new_id, matched_id, distance FROM want_mixed
                                EXCEPT ALL SELECT new_id, matched_id, distance FROM matches) d),
         (SELECT count(*) FROM (SELECT new_id, matched_id, distance FROM matches
                                EXCEPT ALL SELECT new_id, matched_id, distance FROM want_mixed) d)
$$;
TRUNCATE matches;
SELECT matches_found FROM textfp_check_arrivals('TABLE mixed', 'articles', 'matches', radius => 8, simhash_search => 'index');
SELECT * FROM compare_mixed();
TRUNCATE matches;
SELECT matches_found FROM textfp_check_arrivals('TABLE mixed', 'articles', 'matches', radius => 8, simhash_search => 'scan');
SELECT * FROM compare_mixed();

-- the verifying method checks the texts of the candidates recorded for the
-- new rows by the index methods (exact Jaccard of their shingle sets)
TRUNCATE matches;
SELECT * FROM textfp_check_arrivals('SELECT * FROM articles WHERE id IN (SELECT id FROM batch_ids)',
    'articles', 'matches', '{shingle_jaccard,simhash,minhash}', radius => 10, min_jaccard => 0.3,
    text_column => 'body', min_shingle_jaccard => 0.4);
SELECT count(*) AS candidates,
       count(*) FILTER (WHERE shingle_jaccard(n.body, c.body) >= 0.4) AS verified,
       (SELECT count(*) FROM matches WHERE method = 'shingle_jaccard') AS recorded,
       (SELECT count(*) FROM matches v WHERE v.method = 'shingle_jaccard'
          AND v.similarity IS DISTINCT FROM (SELECT shingle_jaccard(n.body, c.body) FROM articles n, articles c
                                             WHERE n.id = v.new_id AND c.id = v.matched_id)) AS wrong_score
FROM (SELECT DISTINCT new_id, matched_id FROM matches WHERE method <> 'shingle_jaccard') k
JOIN articles n ON n.id = k.new_id JOIN articles c ON c.id = k.matched_id;

-- the calibrated verdict as a verifying method: the candidates textfp_match
-- calls copies, its score as the similarity; against the answer key
SELECT * FROM textfp_check_arrivals('SELECT * FROM articles WHERE id IN (SELECT id FROM batch_ids)',
    'articles', 'matches', '{textfp_match}', text_column => 'body');
SELECT count(*) AS candidates,
       count(*) FILTER (WHERE (textfp_match(c.body, n.body)).verdict) AS copies,
       (SELECT count(*) FROM matches WHERE method = 'textfp_match') AS recorded,
       (SELECT count(*) FROM matches v WHERE v.method = 'textfp_match'
          AND v.similarity IS DISTINCT FROM (SELECT (textfp_match(c.body, n.body)).score FROM articles n, articles c
                                             WHERE n.id = v.new_id AND c.id = v.matched_id)) AS wrong_score,
       (SELECT count(*) FROM matches v WHERE v.method = 'textfp_match'
          AND EXISTS (SELECT FROM truth t WHERE (t.id, t.original_id) IN ((v.new_id, v.matched_id), (v.matched_id, v.new_id))
                         OR (SELECT original_id FROM truth WHERE id = v.new_id) = (SELECT original_id FROM truth WHERE id = v.matched_id))) AS in_answer_key
FROM (SELECT DISTINCT new_id, matched_id FROM matches WHERE method NOT IN ('shingle_jaccard', 'textfp_match')) k
JOIN articles n ON n.id = k.new_id JOIN articles c ON c.id = k.matched_id;

-- progress notices; duplicate ids in the new rows; an id of a domain type;
-- the extension's schema off the search_path; a varchar text column
SET client_min_messages = notice;
SET textfp.progress = on;
SELECT method, rows_checked FROM textfp_check_arrivals(
    'SELECT * FROM articles WHERE id < 60 UNION ALL SELECT * FROM articles WHERE id < 60',
    'articles', 'matches', '{simhash,pinyin_dna}', radius => 6);
-- simhash_search => auto: index searches for few new rows, the all-pairs
-- search from a 300th of the corpus's rows on (new rows of the corpus)
CREATE TABLE many (id int PRIMARY KEY, fp simhash64);
INSERT INTO many SELECT i, ((hashint4(i)::bigint << 32) # (hashint4(-i)::bigint & 4294967295))::simhash64
FROM generate_series(1, 3000) i;
CREATE INDEX ON many USING gin (fp);
ANALYZE many;
SET client_min_messages = notice;
SELECT method, rows_checked FROM textfp_check_arrivals('SELECT * FROM many WHERE id <= 2', 'many', 'matches');
SELECT method, rows_checked FROM textfp_check_arrivals('SELECT * FROM many WHERE id <= 10', 'many', 'matches');
RESET textfp.progress;
SET client_min_messages = warning;
CREATE DOMAIN doc_id AS int8 CHECK (VALUE > 0);
CREATE TABLE dom (id doc_id PRIMARY KEY, body varchar, fp simhash64);
INSERT INTO dom SELECT id, body, fp FROM articles WHERE id <= 100;
SET search_path = arrivals_t;
SELECT method, rows_checked, matches_found FROM public.textfp_check_arrivals('TABLE dom', 'dom', 'matches',
    '{simhash,shingle_jaccard}', radius => 6, text_column => 'body');
SET search_path = arrivals_t, public;
-- the function's own statements run with search_path pg_catalog, pg_temp;
-- the query new_rows is parsed with query_search_path, by default the
-- caller's (every call above names the tables of arrivals_t unqualified),
-- and the caller's search_path is the same afterwards, after an error too
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE dom', 'dom', 'matches',
    '{simhash}', radius => 6, query_search_path => 'pg_catalog')$$);
SHOW search_path;
SELECT method, rows_checked FROM textfp_check_arrivals('TABLE dom', 'dom', 'matches',
    '{simhash}', radius => 6, query_search_path => 'arrivals_t');
SHOW search_path;

-- privileges: SELECT on the corpus and the new rows, INSERT and UPDATE on
-- the match table
CREATE ROLE arrivals_user;
GRANT USAGE ON SCHEMA arrivals_t TO arrivals_user;
GRANT SELECT ON articles, batch_ids TO arrivals_user;
GRANT SELECT, INSERT ON matches TO arrivals_user;
SET ROLE arrivals_user;
SELECT err($$SELECT * FROM textfp_check_arrivals('SELECT * FROM articles WHERE id IN (SELECT id FROM batch_ids)',
                                                 'articles', 'matches')$$);
RESET ROLE;
GRANT UPDATE ON matches TO arrivals_user;
SET ROLE arrivals_user;
SELECT method, matches_written FROM textfp_check_arrivals(
    'SELECT * FROM articles WHERE id IN (SELECT id FROM batch_ids)', 'articles', 'matches', radius => 5);
RESET ROLE;
REVOKE ALL ON articles, batch_ids, matches FROM arrivals_user;
REVOKE USAGE ON SCHEMA arrivals_t FROM arrivals_user;
DROP ROLE arrivals_user;

-- textfp_create_match_table: qualified and quoted names
SELECT textfp_create_match_table('arrivals_t."Odd Matches"');
SELECT textfp_create_match_table('"Two Part"');
SELECT err($$SELECT textfp_create_match_table('matches')$$);
SELECT err($$SELECT textfp_create_match_table('a.b.c.d')$$);
SELECT err($$SELECT textfp_create_match_table('no_such_schema.m')$$);
SELECT err($$SELECT textfp_create_match_table('bad name')$$);
SELECT textfp_create_match_table(NULL);

-- bad input
\set VERBOSITY terse
CREATE TABLE two_fp (id int, a simhash64, b simhash64);
CREATE TABLE no_key (new_id bigint, matched_id bigint, method text, distance int, similarity float8, matched_at timestamptz);
CREATE TABLE not_matches (new_id bigint, matched_id bigint, method text);
CREATE TABLE text_ids (id text, fp simhash64);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE articles', NULL, 'matches')$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE articles', 'articles', NULL)$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE articles', 'articles', 'matches', NULL)$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE articles', 'articles', 'matches', query_search_path => NULL)$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE articles', 'articles', 'matches', '{}')$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE articles', 'articles', 'matches', '{simhash,nope}')$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE articles', 'articles', 'matches', '{NULL}')$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE articles', 'articles', 'matches', radius => -1)$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE articles', 'articles', 'matches', radius => 65)$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE articles', 'articles', 'matches', radius => NULL)$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE articles', 'articles', 'matches', simhash_search => 'fast')$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE articles', 'articles', 'matches', simhash_search => NULL)$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE articles', 'articles', 'matches', radius => 33, simhash_search => 'scan')$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE articles', 'articles', 'matches', '{minhash}', min_jaccard => 0)$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE articles', 'articles', 'matches', '{minhash}', min_jaccard => 'NaN')$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE articles', 'articles', 'matches', '{pinyin_dna}', min_shared => 0)$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE articles', 'articles', 'matches', '{pinyin_dna}', min_dna_similarity => 1.5)$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE articles', 'articles', 'matches', '{shingle_jaccard}')$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE articles', 'articles', 'matches', '{textfp_match}')$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE articles', 'articles', 'matches', '{shingle_jaccard}', text_column => 'body', min_shingle_jaccard => -0.1)$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE articles', 'articles', 'matches', '{shingle_jaccard}', text_column => 'fp')$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE articles', 'articles', 'matches', simhash_column => 'sig')$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE articles', 'articles', 'matches', simhash_column => 'nope')$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE articles', 'articles', 'matches', id_column => 'nope')$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE articles', 'articles', 'matches', id_column => 'title')$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE two_fp', 'two_fp', 'matches')$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE text_ids', 'text_ids', 'matches')$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE dom', 'dom', 'matches', '{minhash}')$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE articles', 'articles', 'no_key')$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE articles', 'articles', 'not_matches')$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('SELEC 1', 'articles', 'matches')$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('SELECT id FROM articles', 'articles', 'matches')$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('SELECT id, fp::bigint AS fp FROM articles', 'articles', 'matches')$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('SELECT title AS id, fp FROM articles', 'articles', 'matches')$$);
SELECT err($$SELECT * FROM textfp_check_arrivals('TABLE articles', 'no_such_table', 'matches')$$);
-- a trailing semicolon is fine
SELECT method, rows_checked FROM textfp_check_arrivals('SELECT * FROM articles WHERE id < 3; ', 'articles', 'matches');
\set VERBOSITY default

--
-- The trigger textfp_duplicate_of(fp_column, radius [, duplicate_of_column
-- [, id_column]]): at INSERT and UPDATE, duplicate_of = the nearest other
-- row within the radius (the smallest id of the nearest), else NULL; the
-- fingerprint of a generated column is computed from the new row.
--
CREATE TABLE posts (
    id           bigserial PRIMARY KEY,
    body         text,
    fp           simhash64 GENERATED ALWAYS AS (simhash(body)) STORED,
    duplicate_of bigint
);
CREATE INDEX ON posts USING gin (fp);
CREATE TRIGGER posts_dup BEFORE INSERT OR UPDATE OF body ON posts
    FOR EACH ROW EXECUTE FUNCTION textfp_duplicate_of('fp', '6');
INSERT INTO posts (body) SELECT body FROM articles WHERE id <= 120 ORDER BY id;
-- the trigger's answers equal a brute-force search over the rows before each
SELECT count(*) AS rows,
       count(*) FILTER (WHERE p.duplicate_of IS NOT DISTINCT FROM (
           SELECT q.id FROM posts q WHERE q.id < p.id AND simhash_dist(q.fp, p.fp) <= 6
           ORDER BY simhash_dist(q.fp, p.fp), q.id LIMIT 1)) AS as_brute_force,
       count(duplicate_of) AS duplicates
FROM posts p;
-- reposts: nearest row, smallest id on ties
INSERT INTO posts (body) VALUES ((SELECT body FROM articles WHERE id = 64)),
    ((SELECT body FROM articles WHERE id = 64) || ' 转载'), (NULL), ('');
SELECT p.id, p.duplicate_of, simhash_dist(p.fp, q.fp) AS bits FROM posts p LEFT JOIN posts q ON q.id = p.duplicate_of
WHERE p.id > 120 ORDER BY p.id;
-- an update re-checks the row: now unlike anything, then a copy again
UPDATE posts SET body = 'nothing like any other row, not at all' WHERE id = 121;
UPDATE posts SET body = body WHERE id = 122;
SELECT id, duplicate_of FROM posts WHERE id IN (121, 122) ORDER BY id;
-- a plain (not generated) fingerprint column, other column names
CREATE TABLE notes (note_id int PRIMARY KEY, fp simhash64, copy_of int);
CREATE TRIGGER notes_dup BEFORE INSERT ON notes
    FOR EACH ROW EXECUTE FUNCTION textfp_duplicate_of('fp', '3', 'copy_of', 'note_id');
INSERT INTO notes VALUES (1, '0000000000000000', 99), (2, 'ffffffffffffffff', NULL),
    (3, '0000000000000007', NULL), (4, '0000000000000003', NULL), (5, '000000000000000f', NULL);
SELECT * FROM notes ORDER BY note_id;
-- misuse
\set VERBOSITY terse
CREATE TABLE bad_use (id int, fp simhash64, duplicate_of int, txt text);
-- the error of an insert with the trigger made by "CREATE TRIGGER t <how>"
CREATE FUNCTION trigger_err(how text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text;
BEGIN
  EXECUTE 'CREATE TRIGGER t ' || how;
  r := err($q$INSERT INTO bad_use VALUES (1, '0000000000000000')$q$);
  DROP TRIGGER t ON bad_use;
  RETURN r;
END $$;
SELECT how, trigger_err(how) FROM unnest(ARRAY[
  $$AFTER INSERT ON bad_use FOR EACH ROW EXECUTE FUNCTION textfp_duplicate_of('fp', '3')$$,
  $$BEFORE INSERT ON bad_use FOR EACH STATEMENT EXECUTE FUNCTION textfp_duplicate_of('fp', '3')$$,
  $$BEFORE INSERT ON bad_use FOR EACH ROW EXECUTE FUNCTION textfp_duplicate_of('fp')$$,
  $$BEFORE INSERT ON bad_use FOR EACH ROW EXECUTE FUNCTION textfp_duplicate_of('fp', '3', 'a', 'b', 'c')$$,
  $$BEFORE INSERT ON bad_use FOR EACH ROW EXECUTE FUNCTION textfp_duplicate_of('fp', '65')$$,
  $$BEFORE INSERT ON bad_use FOR EACH ROW EXECUTE FUNCTION textfp_duplicate_of('fp', 'x3')$$,
  $$BEFORE INSERT ON bad_use FOR EACH ROW EXECUTE FUNCTION textfp_duplicate_of('fp', '-1')$$,
  $$BEFORE INSERT ON bad_use FOR EACH ROW EXECUTE FUNCTION textfp_duplicate_of('txt', '3')$$,
  $$BEFORE INSERT ON bad_use FOR EACH ROW EXECUTE FUNCTION textfp_duplicate_of('nope', '3')$$,
  $$BEFORE INSERT ON bad_use FOR EACH ROW EXECUTE FUNCTION textfp_duplicate_of('fp', '3', 'txt')$$,
  $$BEFORE INSERT ON bad_use FOR EACH ROW EXECUTE FUNCTION textfp_duplicate_of('fp', '3', 'id', 'id')$$,
  $$BEFORE INSERT ON bad_use FOR EACH ROW EXECUTE FUNCTION textfp_duplicate_of('fp', '3', 'duplicate_of', 'nope')$$]) how;
SELECT err($$SELECT textfp_duplicate_of()$$);
\set VERBOSITY default

-- textfp_verify_pairs on one node: each pair's textfp_match verdict and
-- score, the same as a join calling textfp_match, whatever order the pairs
-- come in (it verifies them in order of id_a, reading a text once for its
-- pairs: the same answers to the last bit); ids that are no rows and NULL
-- ids give nothing, duplicate pairs each their verdict
CREATE TABLE vp_pairs AS
SELECT a.id AS id_a, b.id AS id_b FROM articles a, articles b
WHERE a.id <> b.id AND (a.id % 7 = 0 OR b.id = a.id + 1) AND hashint4(a.id * 1000 + b.id) % 25 = 0;
CREATE TABLE vp_join AS
SELECT p.id_a::bigint, p.id_b::bigint, t.verdict, t.score
FROM vp_pairs p JOIN articles a ON a.id = p.id_a JOIN articles b ON b.id = p.id_b
CROSS JOIN LATERAL textfp_match(a.body, b.body) t;
SELECT count(*) AS pairs, count(*) FILTER (WHERE verdict) AS copies,
       count(DISTINCT id_a) AS ids_a FROM vp_join;
SELECT o.how, (WITH v AS MATERIALIZED (SELECT * FROM textfp_verify_pairs(o.q, 'articles'))
               SELECT count(*) FROM ((SELECT * FROM v EXCEPT ALL SELECT * FROM vp_join)
                                     UNION ALL (SELECT * FROM vp_join EXCEPT ALL SELECT * FROM v)) d) AS differ
FROM (VALUES ('as stored', 'SELECT id_a, id_b FROM vp_pairs'),
             ('by a hash', 'SELECT id_a, id_b FROM vp_pairs ORDER BY hashint4(id_a * 7 + id_b)'),
             ('by id_b, descending', 'SELECT id_a, id_b FROM vp_pairs ORDER BY id_b DESC, id_a')) o(how, q);
SELECT count(*) AS verdicts FROM textfp_verify_pairs(
  'SELECT 1 AS id_a, 2 AS id_b UNION ALL SELECT 1, 2 UNION ALL SELECT NULL, 3 UNION ALL SELECT 1, 99999', 'articles');

RESET search_path;
DROP SCHEMA arrivals_t CASCADE;
RESET client_min_messages;
