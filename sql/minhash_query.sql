-- sig % minhash_query(q, threshold): the minhash % operator with its
-- threshold in the operand (it travels to Citus workers with the query;
-- docs/citus.md).  It must answer exactly as sig % q with
-- textfp.minhash_threshold set to the threshold, by sequential scan and by
-- the minhash_lsh_ops index; and textfp_citus_table / textfp_refuse_citus
-- do nothing without Citus.
\i sql/include/err.sql
-- 120 base texts of 60 words, each with 5 variants replacing 3%..60% of its
-- words (pairs over the whole similarity range), and texts without features
CREATE TABLE mq_doc (id int PRIMARY KEY, body text);
INSERT INTO mq_doc
SELECT b * 10 + v,
       (SELECT string_agg(CASE WHEN abs(hashint4(b * 1000 + i + 7919 * v)) % 100 < (ARRAY[0, 3, 10, 20, 35, 60])[v + 1]
                               THEN 'x' || abs(hashint4(b * 1000 + i + 104729 * v)) % 3000
                               ELSE 'w' || abs(hashint4(b * 1000 + i)) % 3000 END, ' ' ORDER BY i)
          FROM generate_series(1, 60) i)
FROM generate_series(1, 120) b, generate_series(0, 5) v;
INSERT INTO mq_doc VALUES (9001, ''), (9002, '!!!');
CREATE TABLE mq_sig AS SELECT id, minhash(body, 64) AS m FROM mq_doc;
CREATE INDEX mq_sig_m ON mq_sig USING gin (m);
ANALYZE mq_sig;
SET jit = off;

-- for each threshold and 40 queries: the ids the GUC form finds by
-- sequential scan against the query form's, and the ids the GUC form finds
-- through the index against the query form's (below the exact bound of
-- minhash_gin.c the LSH index may miss rows, lsh_missed: the same for both)
CREATE FUNCTION mq_compare(thresholds float8[], nq int)
RETURNS TABLE (cases int, guc_rows bigint, differ_seq int, differ_idx int, lsh_missed bigint, idx_used boolean)
LANGUAGE plpgsql AS $$
DECLARE
	t float8;
	q int;
	g int[];
	gi int[];
	s int[];
	x int[];
	plan text;
BEGIN
	cases := 0; guc_rows := 0; differ_seq := 0; differ_idx := 0; lsh_missed := 0; idx_used := true;
	FOREACH t IN ARRAY thresholds LOOP
		FOR q IN SELECT id FROM mq_sig ORDER BY id LIMIT nq LOOP
			SET LOCAL enable_seqscan = on; SET LOCAL enable_bitmapscan = off; SET LOCAL enable_indexscan = off;
			PERFORM set_config('textfp.minhash_threshold', t::text, true);
			SELECT coalesce(array_agg(id ORDER BY id), '{}') INTO g
			FROM mq_sig WHERE m % (SELECT m FROM mq_sig WHERE id = q);
			-- the setting must not matter to the query form
			PERFORM set_config('textfp.minhash_threshold', (1 - t)::text, true);
			SELECT coalesce(array_agg(id ORDER BY id), '{}') INTO s
			FROM mq_sig WHERE m % minhash_query((SELECT m FROM mq_sig WHERE id = q), t);
			SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = on;
			PERFORM set_config('textfp.minhash_threshold', t::text, true);
			SELECT coalesce(array_agg(id ORDER BY id), '{}') INTO gi
			FROM mq_sig WHERE m % (SELECT m FROM mq_sig WHERE id = q);
			PERFORM set_config('textfp.minhash_threshold', (1 - t)::text, true);
			EXECUTE 'EXPLAIN (COSTS OFF) SELECT id FROM mq_sig WHERE m % minhash_query((SELECT m FROM mq_sig WHERE id = $1), $2)'
				INTO plan USING q, t;
			idx_used := idx_used AND plan LIKE 'Bitmap Heap Scan%';
			SELECT coalesce(array_agg(id ORDER BY id), '{}') INTO x
			FROM mq_sig WHERE m % minhash_query((SELECT m FROM mq_sig WHERE id = q), t);
			cases := cases + 1;
			guc_rows := guc_rows + cardinality(g);
			IF g <> s THEN differ_seq := differ_seq + 1; END IF;
			IF gi <> x THEN differ_idx := differ_idx + 1; END IF;
			lsh_missed := lsh_missed + (SELECT count(*) FROM unnest(g) e WHERE e <> ALL (x));
		END LOOP;
	END LOOP;
	RESET enable_seqscan; RESET enable_bitmapscan; RESET enable_indexscan;
	RESET textfp.minhash_threshold;
	RETURN NEXT;
END $$;
SELECT * FROM mq_compare(ARRAY[0, 0.1, 0.3, 0.5, 0.7, 0.9, 1.0]::float8[], 40);

-- the index answers it
SET enable_seqscan = off;
-- (a generic plan shows the parameter: EXPLAIN prints InitPlans differently from PostgreSQL 17 on)
SELECT m AS q10 FROM mq_sig WHERE id = 10 \gset
SET plan_cache_mode = force_generic_plan;
PREPARE mq_q(minhash) AS SELECT id FROM mq_sig WHERE m % minhash_query($1, 0.5);
EXPLAIN (COSTS OFF) EXECUTE mq_q(:'q10');
DEALLOCATE mq_q;
RESET plan_cache_mode;
SELECT array_agg(id ORDER BY id) FROM mq_sig WHERE m % minhash_query(:'q10', 0.5);
RESET enable_seqscan;
SELECT array_agg(id ORDER BY id) FROM mq_sig WHERE minhash_jaccard(m, :'q10') >= 0.5;
-- a prepared statement with the threshold as a parameter (generic plan)
PREPARE mqp(minhash, float8) AS SELECT count(*) FROM mq_sig WHERE m % minhash_query($1, $2);
SET plan_cache_mode = force_generic_plan;
EXECUTE mqp(:'q10', 0.8);
EXECUTE mqp(:'q10', 0.2);
RESET plan_cache_mode;
SET textfp.minhash_threshold = 0.2;
SELECT count(*) FROM mq_sig WHERE m % :'q10'::minhash;
RESET textfp.minhash_threshold;

-- the value, and NULLs: a NULL signature or threshold makes the query NULL
-- (no row); a composite built by hand with a NULL signature matches
-- nothing, one with a NULL threshold is an error
SELECT minhash_query(:'q10', 0.75) = ROW(:'q10'::minhash, 0.75)::minhash_query AS same;
SELECT minhash_query(NULL, 0.5) IS NULL AS a, minhash_query(:'q10', NULL) IS NULL AS b,
       (:'q10'::minhash % NULL::minhash_query) IS NULL AS c;
SELECT count(*) FROM mq_sig WHERE m % ROW(NULL, 0.5)::minhash_query;
SET enable_seqscan = off;
SELECT count(*) FROM mq_sig WHERE m % ROW(NULL, 0.5)::minhash_query;
RESET enable_seqscan;
-- empty texts are similar to nothing, even at threshold 0
SELECT count(*) FROM mq_sig WHERE m % minhash_query(minhash('', 64), 0);

-- bad input
SELECT q, err(q) FROM (VALUES
	($$SELECT minhash_query(minhash('a b c', 64), -0.1)$$),
	($$SELECT minhash_query(minhash('a b c', 64), 1.5)$$),
	($$SELECT minhash_query(minhash('a b c', 64), 'NaN')$$),
	($$SELECT minhash_query(minhash('a b c', 64), '-Infinity')$$),
	($$SELECT minhash('a b c', 64) % ROW(minhash('a b c', 64), 2)::minhash_query$$),
	($$SELECT minhash('a b c', 64) % ROW(minhash('a b c', 64), NULL)::minhash_query$$),
	($$SELECT minhash('a b c', 64) % minhash_query(minhash('a b c', 128), 0.5)$$),
	($$SET enable_seqscan = off; SELECT count(*) FROM mq_sig WHERE m % ROW(minhash('a b', 64), 7)::minhash_query$$)
) AS t(q);
RESET enable_seqscan;

-- without Citus no table is a Citus table, and the guard passes
SELECT textfp_citus_table('mq_sig') IS NULL AS not_citus;
SELECT 'passes' AS guard FROM (SELECT textfp_refuse_citus('mq_sig', 'f', 'use g')) AS s;
DROP TABLE mq_sig, mq_doc;
DROP FUNCTION mq_compare(float8[], int);
