-- Parallel query.  The fingerprint functions are PARALLEL SAFE, so the
-- planner runs them in parallel workers: a worker must compute what the
-- leader computes, see the session's textfp.minhash_threshold, and parallel
-- index scans must find the rows serial ones find.  Regular tables (parallel
-- workers cannot read temporary ones); the leader does not scan
-- (parallel_leader_participation = off), so the workers compute.
CREATE TABLE par (id int, lang text, source text, title text, body text);
\copy par (id, lang, source, title, body) FROM 'test/data/corpus.tsv'
-- copies that keep the first 9/10, 8/10, ... 3/10 of the text: their
-- Jaccard similarities to the original spread over 0.3 .. 0.9
INSERT INTO par (id, lang, source, title, body)
SELECT id + 1000 * g, lang, source, title, left(body, length(body) * (10 - g) / 10)
FROM par, generate_series(1, 7) g;
-- stored values computed serially (an UPDATE does not run in parallel)
ALTER TABLE par ADD COLUMN fp simhash64, ADD COLUMN sig minhash, ADD COLUMN dna int8[],
	ADD COLUMN ini text;
UPDATE par SET fp = simhash(body), sig = minhash(body, 64), dna = pinyin_dna(body),
	ini = pinyin_initials(body);
VACUUM ANALYZE par;

-- EXPLAIN ANALYZE lines that say how many workers ran, on what
CREATE FUNCTION workers(q text) RETURNS SETOF text LANGUAGE plpgsql AS $$
DECLARE l text;
BEGIN
	FOR l IN EXECUTE 'EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF, SUMMARY OFF) ' || q LOOP
		IF l ~ 'Workers (Planned|Launched)|Parallel|Partial|Index Scan on' THEN
			RETURN NEXT regexp_replace(regexp_replace(ltrim(l, ' ->'), ' \(actual.*', ''),
			                           '( on \w+).*', '\1');
		END IF;
	END LOOP;
END $$;

SET max_parallel_workers_per_gather = 2;
SET parallel_setup_cost = 0;
SET parallel_tuple_cost = 0;
SET min_parallel_table_scan_size = 0;
SET min_parallel_index_scan_size = 0;
SET parallel_leader_participation = off;

-- the workers recompute every stored value
SELECT workers($$SELECT count(*) FROM par WHERE fp <> simhash(body)$$);
SELECT count(*) AS rows,
       count(*) FILTER (WHERE fp <> simhash(body)) AS simhash_differs,
       count(*) FILTER (WHERE sig <> minhash(body, 64)) AS minhash_differs,
       count(*) FILTER (WHERE dna <> pinyin_dna(body)) AS dna_differs,
       count(*) FILTER (WHERE ini <> pinyin_initials(body)) AS initials_differ
FROM par;

-- the session's textfp.minhash_threshold reaches the workers: for each
-- threshold the parallel count equals the serial one (and they differ)
CREATE TABLE par_sim (threshold float8, parallel bigint, serial bigint);
DO $$
DECLARE t float8; p bigint; s bigint;
BEGIN
	FOREACH t IN ARRAY ARRAY[0.3, 0.5, 0.7, 0.95] LOOP
		PERFORM set_config('textfp.minhash_threshold', t::text, true);
		PERFORM set_config('max_parallel_workers_per_gather', '2', true);
		SELECT count(*) INTO p FROM par WHERE sig % (SELECT sig FROM par WHERE id = 7);
		PERFORM set_config('max_parallel_workers_per_gather', '0', true);
		SELECT count(*) INTO s FROM par WHERE sig % (SELECT sig FROM par WHERE id = 7);
		INSERT INTO par_sim VALUES (t, p, s);
	END LOOP;
END $$;
SELECT * FROM par_sim ORDER BY threshold;
SET textfp.minhash_threshold = 0.7;
SELECT workers($$SELECT count(*) FROM par WHERE sig % (SELECT sig FROM par WHERE id = 7)$$);
RESET textfp.minhash_threshold;

-- GIN index scans run by a worker (the whole plan in one worker: the
-- setting is force_parallel_mode before PostgreSQL 16, debug_parallel_query
-- from 16 on) answer as serial scans do
CREATE INDEX par_fp ON par USING gin (fp);
CREATE INDEX par_dna ON par USING gin (dna pinyin_dna_ops);
SET enable_seqscan = off;
SELECT set_config(CASE WHEN current_setting('server_version_num')::int >= 160000
                       THEN 'debug_parallel_query' ELSE 'force_parallel_mode' END, 'on', false);
-- probes: 45 originals; their matches found by joins whose inner side is a
-- GIN scan (one per probe)
CREATE VIEW hamming_pairs AS
SELECT count(*) AS n FROM par q JOIN par p ON simhash_dist(p.fp, q.fp) <= 10
WHERE q.id < 1000 AND q.id % 10 = 3;
CREATE VIEW dna_pairs AS
SELECT count(*) AS n FROM par q JOIN par p ON p.dna %& pinyin_dna_query(q.dna, 3)
WHERE q.id < 1000 AND q.id % 10 = 3;
SELECT workers('SELECT * FROM hamming_pairs');
SELECT workers('SELECT * FROM dna_pairs');
SELECT n AS hamming_pairs FROM hamming_pairs;
SELECT n AS dna_pairs FROM dna_pairs;
SELECT set_config(CASE WHEN current_setting('server_version_num')::int >= 160000
                       THEN 'debug_parallel_query' ELSE 'force_parallel_mode' END, 'off', false);
SET max_parallel_workers_per_gather = 0;
SELECT (SELECT n FROM hamming_pairs) AS hamming_pairs_serial, (SELECT n FROM dna_pairs) AS dna_pairs_serial;
RESET enable_seqscan;
SET enable_bitmapscan = off; SET enable_indexscan = off;
SELECT (SELECT n FROM hamming_pairs) AS hamming_pairs_seqscan, (SELECT n FROM dna_pairs) AS dna_pairs_seqscan;
RESET enable_bitmapscan; RESET enable_indexscan;

-- the reference aggregate runs in parallel (partial states in the workers,
-- combined in the leader) and gives the serial result: on the corpus, and
-- on 150,000 texts, more than one state keeps (65,536 rows), so the
-- workers' states thin their samples and the combination thins again
-- (four words repeated 1 to 128 times each: the per-bit shares of the
-- feature count take many values, so the thresholds, medians, depend on
-- exactly which rows are sampled)
CREATE TABLE par_short AS
SELECT g, repeat('ka ', 1 + (hashint4(4 * g) & 127)) || repeat('lo ', 1 + (hashint4(4 * g + 1) & 127)) ||
          repeat('mu ', 1 + (hashint4(4 * g + 2) & 127)) || repeat('ne ', 1 + (hashint4(4 * g + 3) & 127)) AS body
FROM generate_series(1, 150000) g;
ANALYZE par_short;
SET max_parallel_workers_per_gather = 0;
SELECT simhash_reference(body) AS ref_corpus FROM par \gset
SELECT simhash_reference(body) AS ref_short FROM par_short \gset
SELECT simhash_reference(body, 3, 2, true, true, true) AS ref_short3 FROM par_short \gset
SET max_parallel_workers_per_gather = 2;
SELECT workers('SELECT simhash_reference(body) FROM par');
SELECT workers('SELECT simhash_reference(body) FROM par_short');
SELECT simhash_reference(body) = :'ref_corpus' AS corpus_same FROM par;
SELECT simhash_reference(body) = :'ref_short' AS short_same FROM par_short;
SELECT simhash_reference(body, 3, 2, true, true, true) = :'ref_short3' AS short3_same FROM par_short;
SET parallel_leader_participation = on;
SELECT simhash_reference(body) = :'ref_short' AS short_leader_too_same FROM par_short;
SET parallel_leader_participation = off;

-- partial states of different levels, combined in a fixed order: a
-- partition-wise aggregate over a small partition (10,000 rows: every row
-- kept) then a large one (140,000 rows: a quarter kept), so the first state
-- must be thinned to the second's level
CREATE TABLE par_pt (k int, c int, body text) PARTITION BY LIST (k);
CREATE TABLE par_pt_small PARTITION OF par_pt FOR VALUES IN (1);
CREATE TABLE par_pt_large PARTITION OF par_pt FOR VALUES IN (2);
INSERT INTO par_pt SELECT CASE WHEN g <= 10000 THEN 1 ELSE 2 END, 0, body FROM par_short;
ANALYZE par_pt;
SET max_parallel_workers_per_gather = 0;
SET enable_partitionwise_aggregate = on;
SET enable_sort = off;
EXPLAIN (COSTS OFF) SELECT c, simhash_reference(body) FROM par_pt GROUP BY c;
SELECT simhash_reference(body) = :'ref_short' AS same_as_serial FROM par_pt GROUP BY c;
RESET enable_partitionwise_aggregate;
RESET enable_sort;

-- options must agree across the states, as across rows
SET max_parallel_workers_per_gather = 2;
SET parallel_leader_participation = off;
SELECT simhash_reference(body, CASE WHEN id % 2 = 0 THEN 2 ELSE 3 END, 1, true, true, true) FROM par;

RESET ALL;
DROP VIEW hamming_pairs, dna_pairs;
DROP TABLE par, par_sim, par_short, par_pt;
DROP FUNCTION workers(text);
