--
-- The dedup system on a hash-partitioned article table (generated
-- fingerprint columns, GIN indexes made on each partition, one on the
-- parent): Hamming-radius, MinHash and pinyin DNA searches use the
-- partitions' indexes and answer as on the same rows in a plain table; so
-- do simhash_pairs, simhash_clusters, textfp_check_arrivals (also into a
-- partitioned match table), the reports and the duplicate_of trigger.
--
-- in a schema of its own, dropped at the end (other tests use the same names)
CREATE SCHEMA part_t;
SET search_path = part_t, public;
SET client_min_messages = warning;

\set corpus_table flat
\i sql/include/corpus_fp.sql
CREATE TABLE parted (LIKE flat INCLUDING GENERATED, PRIMARY KEY (id)) PARTITION BY HASH (id);
DO $$
BEGIN
  FOR r IN 0 .. 3 LOOP
    EXECUTE format('CREATE TABLE parted_%s PARTITION OF parted FOR VALUES WITH (MODULUS 4, REMAINDER %s)', r, r);
    EXECUTE format('CREATE INDEX parted_%s_fp ON parted_%s USING gin (fp)', r, r);
    EXECUTE format('CREATE INDEX parted_%s_dna ON parted_%s USING gin (dna pinyin_dna_ops)', r, r);
  END LOOP;
END $$;
CREATE INDEX parted_sig ON parted USING gin (sig);   -- on the parent: one per partition
INSERT INTO parted (id, lang, source, title, body) SELECT id, lang, source, title, body FROM flat;
CREATE INDEX ON flat USING gin (fp);
CREATE INDEX ON flat USING gin (sig);
CREATE INDEX ON flat USING gin (dna pinyin_dna_ops);
ANALYZE flat, parted;
SELECT c.relname, count(*) AS rows FROM parted p JOIN pg_class c ON c.oid = p.tableoid GROUP BY 1 ORDER BY 1;
SELECT (SELECT count(*) FROM (TABLE flat EXCEPT ALL TABLE parted) d) AS differ;

-- each partition's index answers the searches
SET enable_seqscan = off;
EXPLAIN (COSTS OFF) SELECT id FROM parted WHERE simhash_dist(fp, '0123456789abcdef') <= 3;
PREPARE by_sig(minhash) AS SELECT id FROM parted WHERE sig % $1;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE by_sig(NULL);
RESET plan_cache_mode;
EXPLAIN (COSTS OFF) SELECT id FROM parted WHERE dna %& pinyin_dna_query('{1,2}', 2);
-- and a join, as textfp_check_arrivals writes it: one probe per outer row
EXPLAIN (COSTS OFF)
SELECT n.id, c.id FROM (SELECT * FROM flat WHERE id < 10) n JOIN parted c ON c.fp <@ simhash_ball(n.fp, 3);
RESET enable_seqscan;

-- the same answers as the plain table, for 150 rows' fingerprints as queries
CREATE FUNCTION ids(q text) RETURNS text LANGUAGE plpgsql AS
$$ DECLARE r text; BEGIN EXECUTE 'SELECT string_agg(id::text, '','' ORDER BY id) FROM ' || q INTO r; RETURN r; END $$;
SET enable_seqscan = off;
SELECT count(*) AS queries,
       count(*) FILTER (WHERE ids(format('parted WHERE simhash_dist(fp, %L) <= %s', fp, id % 9))
                      = ids(format('flat WHERE simhash_dist(fp, %L) <= %s', fp, id % 9))) AS simhash_equal,
       count(*) FILTER (WHERE ids(format('parted WHERE sig %% %L::minhash', sig))
                      = ids(format('flat WHERE sig %% %L::minhash', sig))) AS minhash_equal,
       count(*) FILTER (WHERE ids(format('parted WHERE dna %%& pinyin_dna_query(%L, 2)', dna))
                      IS NOT DISTINCT FROM ids(format('flat WHERE dna %%& pinyin_dna_query(%L, 2)', dna))) AS dna_equal
FROM flat WHERE id % 3 = 0;
RESET enable_seqscan;
-- and as a sequential scan of the plain table
SET enable_indexscan = off;
SET enable_bitmapscan = off;
CREATE TABLE seq AS
SELECT id, ids(format('flat WHERE simhash_dist(fp, %L) <= %s', fp, id % 9)) AS s FROM flat WHERE id % 3 = 0;
RESET enable_indexscan;
RESET enable_bitmapscan;
SELECT count(*) FILTER (WHERE s = ids(format('parted WHERE simhash_dist(fp, %L) <= %s', f.fp, f.id % 9))) AS equal
FROM seq JOIN flat f USING (id);

-- all pairs and clusters: the same from the partitioned table
SELECT r, (SELECT count(*) FROM simhash_pairs('flat', 'id', 'fp', r)) AS pairs,
       (SELECT count(*) FROM (SELECT * FROM simhash_pairs('flat', 'id', 'fp', r)
                              EXCEPT ALL SELECT * FROM simhash_pairs('parted', 'id', 'fp', r)) d) AS missing,
       (SELECT count(*) FROM (SELECT * FROM simhash_pairs('parted', 'id', 'fp', r)
                              EXCEPT ALL SELECT * FROM simhash_pairs('flat', 'id', 'fp', r)) d) AS extra
FROM unnest(ARRAY[3, 8, 12]) r;
SELECT count(*) AS rows,
       (SELECT count(*) FROM (SELECT * FROM simhash_clusters('flat', 'id', 'fp', 8)
                              EXCEPT ALL SELECT * FROM simhash_clusters('parted', 'id', 'fp', 8)) d) AS differ
FROM simhash_clusters('parted', 'id', 'fp', 8);

-- new arrivals: the same records against either table, into a plain match
-- table and into one hash-partitioned by new_id
SELECT textfp_create_match_table('m_flat');
CREATE TABLE m_parted (new_id bigint, matched_id bigint, method text, distance int4, similarity float8,
                       matched_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (new_id, matched_id, method))
    PARTITION BY HASH (new_id);
CREATE TABLE m_parted_0 PARTITION OF m_parted FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE m_parted_1 PARTITION OF m_parted FOR VALUES WITH (MODULUS 2, REMAINDER 1);
-- (simhash by index searches; the re-run by the all-pairs search records
-- nothing new)
SELECT * FROM textfp_check_arrivals('SELECT * FROM flat WHERE id % 4 = 1 OR id > 380', 'flat', 'm_flat',
    '{simhash,minhash,pinyin_dna,shingle_jaccard}', radius => 8, simhash_search => 'index',
    min_jaccard => 0.6, text_column => 'body');
SELECT * FROM textfp_check_arrivals('SELECT * FROM parted WHERE id % 4 = 1 OR id > 380', 'parted', 'm_parted',
    '{simhash,minhash,pinyin_dna,shingle_jaccard}', radius => 8, simhash_search => 'index',
    min_jaccard => 0.6, text_column => 'body');
SELECT * FROM textfp_check_arrivals('SELECT * FROM parted WHERE id % 4 = 1 OR id > 380', 'parted', 'm_parted',
    '{simhash,minhash,pinyin_dna,shingle_jaccard}', radius => 8, simhash_search => 'scan',
    min_jaccard => 0.6, text_column => 'body');
SELECT (SELECT count(*) FROM m_flat) AS records,
       (SELECT count(*) FROM (SELECT new_id, matched_id, method, distance, similarity FROM m_flat
                              EXCEPT ALL SELECT new_id, matched_id, method, distance, similarity FROM m_parted) d) AS missing,
       (SELECT count(*) FROM (SELECT new_id, matched_id, method, distance, similarity FROM m_parted
                              EXCEPT ALL SELECT new_id, matched_id, method, distance, similarity FROM m_flat) d) AS extra;
-- the whole corpus
TRUNCATE m_flat, m_parted;
SELECT method, matches_found FROM textfp_check_arrivals(NULL, 'flat', 'm_flat', '{simhash,pinyin_dna}', radius => 8);
SELECT method, matches_found FROM textfp_check_arrivals(NULL, 'parted', 'm_parted', '{simhash,pinyin_dna}', radius => 8);
SELECT (SELECT count(*) FROM (SELECT new_id, matched_id, method, distance, similarity FROM m_flat
                              EXCEPT ALL SELECT new_id, matched_id, method, distance, similarity FROM m_parted) d) AS missing,
       (SELECT count(*) FROM (SELECT new_id, matched_id, method, distance, similarity FROM m_parted
                              EXCEPT ALL SELECT new_id, matched_id, method, distance, similarity FROM m_flat) d) AS extra;

-- the reports: the same rows, and the same page but for the names
UPDATE m_parted SET matched_at = '2026-01-01'; UPDATE m_flat SET matched_at = '2026-01-01';
SELECT (SELECT count(*) FROM (SELECT * FROM textfp_duplicates_by_source('m_flat', 'flat', 'source')
                              EXCEPT ALL SELECT * FROM textfp_duplicates_by_source('m_parted', 'parted', 'source')) d) AS by_source,
       (SELECT count(*) FROM (SELECT * FROM textfp_duplicates_by_day('m_flat')
                              EXCEPT ALL SELECT * FROM textfp_duplicates_by_day('m_parted')) d) AS by_day,
       (SELECT count(*) FROM (SELECT * FROM textfp_most_copied('m_flat')
                              EXCEPT ALL SELECT * FROM textfp_most_copied('m_parted')) d) AS most_copied,
       (SELECT count(*) FROM (SELECT * FROM textfp_cluster_sizes('m_flat')
                              EXCEPT ALL SELECT * FROM textfp_cluster_sizes('m_parted')) d) AS cluster_sizes;
SELECT length(a) > 10000 AS long_page, a = b AS same_page
FROM (SELECT regexp_replace(textfp_report('flat', 'm_flat', source_column => 'source'),
                            '<p class="meta">[^<]*</p>|<title>[^<]*</title>|<h1>[^<]*</h1>', '', 'g') AS a,
             regexp_replace(textfp_report('parted', 'm_parted', source_column => 'source'),
                            '<p class="meta">[^<]*</p>|<title>[^<]*</title>|<h1>[^<]*</h1>', '', 'g') AS b) p;

-- the trigger on the partitioned table: a row's nearest row may lie in any
-- partition
CREATE TABLE posts (id bigint PRIMARY KEY, body text, fp simhash64 GENERATED ALWAYS AS (simhash(body)) STORED,
                    duplicate_of bigint) PARTITION BY HASH (id);
CREATE TABLE posts_0 PARTITION OF posts FOR VALUES WITH (MODULUS 3, REMAINDER 0);
CREATE TABLE posts_1 PARTITION OF posts FOR VALUES WITH (MODULUS 3, REMAINDER 1);
CREATE TABLE posts_2 PARTITION OF posts FOR VALUES WITH (MODULUS 3, REMAINDER 2);
CREATE INDEX ON posts USING gin (fp);
CREATE TRIGGER posts_dup BEFORE INSERT OR UPDATE OF body ON posts
    FOR EACH ROW EXECUTE FUNCTION textfp_duplicate_of('fp', '8');
INSERT INTO posts (id, body) SELECT id, body FROM flat ORDER BY id;
SELECT count(*) AS rows,
       count(duplicate_of) AS duplicates,
       count(*) FILTER (WHERE (SELECT q.tableoid FROM posts q WHERE q.id = p.duplicate_of) <> p.tableoid) AS across_partitions,
       count(*) FILTER (WHERE p.duplicate_of IS NOT DISTINCT FROM (
           SELECT q.id FROM flat q WHERE q.id < p.id AND simhash_dist(q.fp, p.fp) <= 8
           ORDER BY simhash_dist(q.fp, p.fp), q.id LIMIT 1)) AS as_brute_force
FROM posts p;

RESET search_path;
DROP SCHEMA part_t CASCADE;
RESET client_min_messages;
