-- minhash_lsh_ops (the default class, 20-bit keys) and minhash_lsh_1_0_ops
-- (the class of 1.0, 32-bit keys): the LSH-banded GIN index for %, against
-- sequential scans.
-- Documents: 150 base texts of 60 words over a 3000-word vocabulary, each
-- with 5 variants replacing 3%..60% of its words, so pairs cover the whole
-- similarity range; plus texts without features.
CREATE TABLE mhg_doc (id int PRIMARY KEY, base int, body text);
INSERT INTO mhg_doc
SELECT b * 10 + v, b,
       (SELECT string_agg(CASE WHEN abs(hashint4(b * 1000 + i + 7919 * v)) % 100 < (ARRAY[0, 3, 10, 20, 35, 60])[v + 1]
                               THEN 'x' || abs(hashint4(b * 1000 + i + 104729 * v)) % 3000
                               ELSE 'w' || abs(hashint4(b * 1000 + i)) % 3000 END, ' ' ORDER BY i)
          FROM generate_series(1, 60) i)
FROM generate_series(1, 150) b, generate_series(0, 5) v;
INSERT INTO mhg_doc VALUES (9001, -1, ''), (9002, -1, '!!!'), (9003, -1, '   ');
CREATE TABLE mhg_sig AS SELECT id, base, minhash(body, 64) AS m64, minhash(body, 128) AS m128 FROM mhg_doc;
SELECT count(*) AS docs, count(*) FILTER (WHERE minhash_is_empty(m64)) AS empty FROM mhg_sig;

-- index vs. sequential scan for a set of queries and thresholds: returns the
-- number of (query, threshold) cases, rows found by the scan, rows found by
-- the index, rows the index returned that the scan did not (must be 0), and
-- cases where the two differ.
CREATE TABLE mhg_seq (col text, t float8, q int, ids int[], PRIMARY KEY (col, t, q));
CREATE FUNCTION compare_scans(col text, thresholds float8[], nq int)
RETURNS TABLE (cases int, seq_rows bigint, idx_rows bigint, idx_extra bigint, differ int)
LANGUAGE plpgsql AS $$
<<cs>>
DECLARE
	t float8;
	q int;
	s int[];
	x int[];
BEGIN
	cases := 0; seq_rows := 0; idx_rows := 0; idx_extra := 0; differ := 0;
	FOREACH t IN ARRAY thresholds LOOP
		PERFORM set_config('textfp.minhash_threshold', t::text, true);
		FOR q IN SELECT id FROM mhg_sig ORDER BY id LIMIT nq LOOP
			-- the sequential scan's answer, computed once per (column,
			-- threshold, query) and reused by every index layout below
			s := (SELECT c.ids FROM mhg_seq c WHERE c.col = compare_scans.col AND c.t = cs.t AND c.q = cs.q);
			IF s IS NULL THEN
				SET LOCAL enable_seqscan = on; SET LOCAL enable_bitmapscan = off; SET LOCAL enable_indexscan = off;
				EXECUTE format('SELECT coalesce(array_agg(id ORDER BY id), ''{}'') FROM mhg_sig WHERE %I %% (SELECT %I FROM mhg_sig WHERE id = $1)', col, col)
					INTO s USING q;
				INSERT INTO mhg_seq VALUES (col, t, q, s);
			END IF;
			SET LOCAL enable_seqscan = off; SET LOCAL enable_bitmapscan = on;
			EXECUTE format('SELECT coalesce(array_agg(id ORDER BY id), ''{}'') FROM mhg_sig WHERE %I %% (SELECT %I FROM mhg_sig WHERE id = $1)', col, col)
				INTO x USING q;
			cases := cases + 1;
			seq_rows := seq_rows + cardinality(s);
			idx_rows := idx_rows + cardinality(x);
			idx_extra := idx_extra + (SELECT count(*) FROM unnest(x) e WHERE e <> ALL (s));
			IF s <> x THEN differ := differ + 1; END IF;
		END LOOP;
	END LOOP;
	RESET enable_seqscan; RESET enable_bitmapscan; RESET enable_indexscan;
	RETURN NEXT;
END $$;

SET jit = off;  -- enable_seqscan = off makes plans "expensive" enough for JIT
SHOW textfp.minhash_threshold;
-- the index is used for %
CREATE INDEX mhg_sig_m64_default ON mhg_sig USING gin (m64);
SET enable_seqscan = off;
SELECT m64 AS q10 FROM mhg_sig WHERE id = 10 \gset
PREPARE mq(minhash) AS SELECT id FROM mhg_sig WHERE m64 % $1;
SET plan_cache_mode = force_generic_plan;
EXPLAIN (COSTS OFF) EXECUTE mq(:'q10');
RESET plan_cache_mode;
DEALLOCATE mq;
RESET enable_seqscan;

-- rows = 1 (one band per value): exact at every threshold
CREATE INDEX mhg_sig_m64_r1 ON mhg_sig USING gin (m64 minhash_lsh_ops (rows = 1));
DROP INDEX mhg_sig_m64_default;
SELECT * FROM compare_scans('m64', ARRAY[0.05, 0.2, 0.5, 0.8, 1.0], 60);
DROP INDEX mhg_sig_m64_r1;

-- default options (rows = 3, bands = k / 3 = 21 for k = 64): exact at and
-- above t = (k - bands + 1) / k = 44/64 = 0.6875; approximate below, but
-- never a wrong row
CREATE INDEX mhg_sig_m64_default ON mhg_sig USING gin (m64);
SELECT * FROM compare_scans('m64', ARRAY[0.6875, 0.75, 0.9, 1.0], 150);
SELECT cases, idx_extra, seq_rows >= idx_rows AS subset, idx_rows > 0.9 * seq_rows AS most
FROM compare_scans('m64', ARRAY[0.3, 0.5, 0.6], 150);

-- k = 128, bands = 16 of rows = 8: exact from t = 113/128
CREATE INDEX mhg_sig_m128 ON mhg_sig USING gin (m128 minhash_lsh_ops (bands = 16, rows = 8));
SELECT * FROM compare_scans('m128', ARRAY[0.8828125, 0.95, 1.0], 150);
SELECT cases, idx_extra, seq_rows >= idx_rows AS subset FROM compare_scans('m128', ARRAY[0.4, 0.7], 150);

-- key_bits: narrow keys make unequal bands share keys (8 bits: 256 keys for
-- 903 rows of 21 bands), which only adds candidates: still exact above the
-- bound, for every row as the query, and never a wrong row below it
CREATE INDEX mhg_sig_m64_k8 ON mhg_sig USING gin (m64 minhash_lsh_ops (key_bits = 8));
SELECT pg_get_indexdef('mhg_sig_m64_k8'::regclass);
DROP INDEX mhg_sig_m64_default;
SELECT * FROM compare_scans('m64', ARRAY[0.6875, 0.8, 1.0], 903);
SELECT cases, idx_extra, seq_rows >= idx_rows AS subset, idx_rows > 0.9 * seq_rows AS most
FROM compare_scans('m64', ARRAY[0.3, 0.5], 903);
-- one band per value with 8-bit keys: exact at every threshold
CREATE INDEX mhg_sig_m64_r1k8 ON mhg_sig USING gin (m64 minhash_lsh_ops (rows = 1, key_bits = 8));
DROP INDEX mhg_sig_m64_k8;
SELECT * FROM compare_scans('m64', ARRAY[0.05, 0.5, 0.9], 300);
DROP INDEX mhg_sig_m64_r1k8;
-- 12 and 16 bits with wide bands (k = 128, 16 bands of 8)
CREATE INDEX mhg_sig_m128_k12 ON mhg_sig USING gin (m128 minhash_lsh_ops (bands = 16, rows = 8, key_bits = 12));
DROP INDEX mhg_sig_m128;
SELECT * FROM compare_scans('m128', ARRAY[0.8828125, 0.95], 903);
DROP INDEX mhg_sig_m128_k12;
CREATE INDEX mhg_sig_m128_k16 ON mhg_sig USING gin (m128 minhash_lsh_ops (key_bits = 16));
SELECT * FROM compare_scans('m128', ARRAY[0.6796875, 0.75], 903);
DROP INDEX mhg_sig_m128_k16;
CREATE INDEX mhg_sig_m128 ON mhg_sig USING gin (m128 minhash_lsh_ops (bands = 16, rows = 8));

-- the class of 1.0 keeps 32-bit keys unless told otherwise: its index is
-- byte for byte that of minhash_lsh_ops (key_bits = 32) but for the pages'
-- LSN and checksum (their first 10 bytes), and answers alike
CREATE INDEX mhg_sig_m64_v10 ON mhg_sig USING gin (m64 minhash_lsh_1_0_ops);
CREATE INDEX mhg_sig_m64_k32 ON mhg_sig USING gin (m64 minhash_lsh_ops (key_bits = 32));
CREATE INDEX mhg_sig_m64_k12 ON mhg_sig USING gin (m64 minhash_lsh_ops (key_bits = 12));
CREATE EXTENSION pageinspect;
SELECT (SELECT string_agg(md5(substr(get_raw_page('mhg_sig_m64_v10', b::int), 11)), '' ORDER BY b)
        FROM generate_series(0, pg_relation_size('mhg_sig_m64_v10') / 8192 - 1) b)
     = (SELECT string_agg(md5(substr(get_raw_page('mhg_sig_m64_k32', b::int), 11)), '' ORDER BY b)
        FROM generate_series(0, pg_relation_size('mhg_sig_m64_k32') / 8192 - 1) b) AS same_bytes,
       pg_relation_size('mhg_sig_m64_k12') < pg_relation_size('mhg_sig_m64_k32') AS k12_smaller;
DROP INDEX mhg_sig_m64_k32, mhg_sig_m64_k12;
SELECT pg_get_indexdef('mhg_sig_m64_v10'::regclass);
SELECT * FROM compare_scans('m64', ARRAY[0.6875, 0.9], 903);
DROP INDEX mhg_sig_m64_v10;
-- the default class for minhash is minhash_lsh_ops
SELECT c.opcname, c.opcdefault FROM pg_opclass c JOIN pg_am a ON a.oid = c.opcmethod
WHERE a.amname = 'gin' AND c.opcintype = 'minhash'::regtype ORDER BY 1;
CREATE INDEX mhg_sig_m64_default ON mhg_sig USING gin (m64);
SELECT pg_get_indexdef('mhg_sig_m64_default'::regclass);

-- the similarity is returned per row; the exact Jaccard can recheck it
SET textfp.minhash_threshold = 0.5;
SELECT s.id, round(minhash_jaccard(s.m128, q.m128)::numeric, 3) AS est,
       round(shingle_jaccard(d.body, qd.body)::numeric, 3) AS exact
FROM mhg_sig s JOIN mhg_doc d USING (id), mhg_sig q JOIN mhg_doc qd USING (id)
WHERE q.id = 20 AND s.m128 % q.m128 ORDER BY est DESC, s.id;

-- empty texts: in no result, neither as query nor as row
SET textfp.minhash_threshold = 0.01;
SELECT count(*) FROM mhg_sig WHERE m64 % (SELECT m64 FROM mhg_sig WHERE id = 9001);
SELECT count(*) FROM mhg_sig WHERE m64 % (SELECT m64 FROM mhg_sig WHERE id = 10) AND base = -1;
SET textfp.minhash_threshold = 0;
SELECT count(*) FROM mhg_sig WHERE m64 % (SELECT m64 FROM mhg_sig WHERE id = 9001);
RESET textfp.minhash_threshold;

-- bad options and signatures too short for the bands (22023)
CREATE INDEX ON mhg_sig USING gin (m64 minhash_lsh_ops (rows = 0));
CREATE INDEX ON mhg_sig USING gin (m64 minhash_lsh_ops (bands = 20, rows = 4));
CREATE INDEX ON mhg_sig USING gin (m64 minhash_lsh_ops (rows = 65));
CREATE INDEX ON mhg_sig USING gin (m64 minhash_lsh_ops (key_bits = 7));
CREATE INDEX ON mhg_sig USING gin (m64 minhash_lsh_ops (key_bits = 33));
CREATE INDEX ON mhg_sig USING gin (m64 minhash_lsh_1_0_ops (key_bits = 0));
CREATE INDEX ON mhg_sig USING gin (m64 minhash_lsh_ops (key_bits = 'wide'));
CREATE INDEX ON mhg_sig USING gin (m64 minhash_lsh_ops (key_width = 20));
\set VERBOSITY sqlstate
CREATE INDEX ON mhg_sig USING gin (m64 minhash_lsh_ops (key_bits = 64));
CREATE INDEX ON mhg_sig USING gin (m64 minhash_lsh_ops (bands = 20, rows = 4));
\set VERBOSITY default
SET textfp.minhash_threshold = 1.5;

DROP FUNCTION compare_scans(text, float8[], int);
DROP TABLE mhg_sig, mhg_doc, mhg_seq;
DROP EXTENSION pageinspect;
