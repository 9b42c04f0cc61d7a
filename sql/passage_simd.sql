--
-- textfp.simd: the AVX-512 kernels of passage_fp (the k-gram hashes, the
-- windows' minima, the seeds' context bytes and long runs of ASCII, used
-- where the CPU has them) give the portable code's fingerprints, on real
-- Chinese and English text of several sizes (across the batches of 256
-- units the core streams) and with options that reach every path: the
-- defaults, the shortest k-grams and windows, the longest, words and han
-- units mixed, the reading fold off.  On a CPU without the kernels both
-- runs use the portable code; the output is the same either way, digests
-- included.
--
CREATE TABLE psimd_pool (n serial, lang text, para text);
\copy psimd_pool (para) FROM 'test/data/pool_zh.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
UPDATE psimd_pool SET lang = 'zh';
\copy psimd_pool (para) FROM 'test/data/pool_en.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
UPDATE psimd_pool SET lang = 'en' WHERE lang IS NULL;
-- documents of 1, 16 and 160 consecutive paragraphs (about 300 B, 3 KB
-- and 20-40 KB), of each language, 400 of each size at most
CREATE TABLE psimd_docs AS
SELECT lang, size, grp, body
FROM (SELECT lang, size, grp, string_agg(para, E'\n' ORDER BY n) AS body,
             row_number() OVER (PARTITION BY lang, size ORDER BY grp) AS i
      FROM (SELECT n, lang, para, s.size, n / s.size AS grp
            FROM psimd_pool, (VALUES (1), (16), (160)) s(size)) x
      GROUP BY lang, size, grp) y
WHERE i <= 400;
SELECT lang, size, count(*) AS docs, round(avg(octet_length(body)), -1) AS avg_bytes
FROM psimd_docs GROUP BY lang, size ORDER BY lang, size;
CREATE TABLE psimd_opts (o int, k int, w int, reading bool);
INSERT INTO psimd_opts VALUES
  (1, 5, 9, true),      -- the defaults
  (2, 1, 1, true),      -- every k-gram a seed
  (3, 3, 2, false),
  (4, 4, 10, true),
  (5, 16, 64, true),    -- the longest
  (6, 2, 64, false),
  (7, 8, 33, true);
SET textfp.simd = on;
CREATE TABLE psimd_on AS
SELECT o, lang, size, grp, passage_fp(body, k, w, reading) AS fp FROM psimd_docs, psimd_opts;
SET textfp.simd = off;
CREATE TABLE psimd_off AS
SELECT o, lang, size, grp, passage_fp(body, k, w, reading) AS fp FROM psimd_docs, psimd_opts;
RESET textfp.simd;
SELECT o, count(*) AS docs, count(*) FILTER (WHERE a.fp::text = b.fp::text) AS equal,
       sum(passage_fp_count(a.fp)) AS seeds
FROM psimd_on a JOIN psimd_off b USING (o, lang, size, grp) GROUP BY o ORDER BY o;
-- pinned: every fingerprint of every document, per option set
SELECT o, md5(string_agg(fp::text, ';' ORDER BY lang, size, grp)) AS digest
FROM psimd_on GROUP BY o ORDER BY o;
DROP TABLE psimd_pool, psimd_docs, psimd_opts, psimd_on, psimd_off;
