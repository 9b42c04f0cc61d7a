-- Block skew of real fingerprints (docs/hamming.md, "interleave"):
--   psql -f test/bench/hamming_skew.sql   (from the repository root, textfp installed)
-- Fingerprints of the sentence pools in test/data; per-bit bias, and the
-- largest / mean posting list of the 5-block layouts (contiguous, interleaved).
CREATE TEMP TABLE pool (line text);
\copy pool FROM PROGRAM 'cat test/data/pool_en.txt test/data/pool_zh.txt | tr -d "\\\\"' WITH (FORMAT text, DELIMITER E'\x01')
CREATE TEMP TABLE fps AS SELECT simhash(line)::bigint AS h, length(line) AS len FROM pool WHERE line <> '';
SELECT count(*) AS texts, count(DISTINCT h) AS distinct_fp, round(avg(len)) AS avg_chars FROM fps;
SELECT round(max(abs(f - 0.5))::numeric, 3) AS max_bit_bias, round(avg(abs(f - 0.5))::numeric, 3) AS avg_bit_bias
  FROM (SELECT b, avg(((h >> b) & 1)::float) AS f FROM fps, generate_series(0, 63) b GROUP BY b) s;
WITH rows AS (SELECT row_number() OVER () AS id, h FROM fps),
contig AS (SELECT j, (h >> (64 - 13 * (j + 1) + CASE WHEN j = 4 THEN 1 ELSE 0 END))
                     & (CASE WHEN j = 4 THEN 4095 ELSE 8191 END) AS v
             FROM rows, generate_series(0, 4) j),
inter AS (SELECT id, b % 5 AS j, sum(((h >> b) & 1) << (b / 5)) AS v
            FROM rows, generate_series(0, 63) b GROUP BY id, b % 5)
SELECT 'contiguous' AS layout, max(n) AS max_list, round(avg(n), 2) AS mean_list
  FROM (SELECT j, v, count(*) AS n FROM contig GROUP BY j, v) s
UNION ALL
SELECT 'interleave', max(n), round(avg(n), 2)
  FROM (SELECT j, v, count(*) AS n FROM inter GROUP BY j, v) s;
