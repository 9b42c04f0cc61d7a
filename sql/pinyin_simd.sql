--
-- textfp.simd: the AVX-512 kernels of pinyin_dna (used where the CPU has
-- them) give the DNAs of the portable code, on real Chinese text of every
-- size and with every kind of option: window lengths up to the kernels'
-- limit of 254 letters and past it, overlaps, levels, fixed offsets.  On a
-- CPU without the kernels both runs use the portable code; the output is the
-- same either way, digests included.
--
-- (the setting exists once the library is loaded, as for every extension)
SELECT pinyin_initials('中文');
SHOW textfp.simd;
SET textfp.simd = off;
SHOW textfp.simd;
RESET textfp.simd;
SET textfp.simd = 'maybe';
CREATE TABLE simd_pool (n serial, para text);
\copy simd_pool (para) FROM 'test/data/pool_zh.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
-- documents of 1, 16, 160 and 1,600 consecutive paragraphs (about 130 B,
-- 2 KB, 20 KB and 200 KB), and the sample corpus (reposts in traditional
-- script included)
CREATE TABLE simd_docs AS
SELECT size, grp, string_agg(para, E'\n' ORDER BY n) AS body
FROM (SELECT n, para, s.size, n / s.size AS grp
      FROM simd_pool, (VALUES (1), (16), (160), (1600)) s(size)) x
GROUP BY size, grp;
CREATE TABLE simd_corpus (id int PRIMARY KEY, lang text, source text, title text, body text);
\copy simd_corpus FROM 'test/data/corpus.tsv'
INSERT INTO simd_docs SELECT 0, id, body FROM simd_corpus;
SELECT size, count(*) AS docs, round(avg(octet_length(body))) AS avg_bytes FROM simd_docs GROUP BY size ORDER BY size;
CREATE TABLE simd_opts (o int, w int, ov int, lv int, cd bool);
INSERT INTO simd_opts VALUES
  (1, 32, 50, 4, true),    -- the defaults
  (2, 8, 90, 2, true),     -- shortest window, runs of one hash
  (3, 64, 0, 8, true),
  (4, 200, 30, 5, true),
  (5, 254, 75, 3, true),   -- the kernels' longest window
  (6, 255, 50, 4, true),   -- portable in both runs
  (7, 32, 50, 4, false),   -- fixed offsets
  (8, 254, 10, 7, false),
  (9, 1024, 90, 6, true);
SET textfp.simd = on;
CREATE TABLE simd_on AS
SELECT o, size, grp, pinyin_dna(body, w, ov, lv, cd) AS dna FROM simd_docs, simd_opts;
SET textfp.simd = off;
CREATE TABLE simd_off AS
SELECT o, size, grp, pinyin_dna(body, w, ov, lv, cd) AS dna FROM simd_docs, simd_opts;
RESET textfp.simd;
SELECT o, count(*) AS docs, count(*) FILTER (WHERE a.dna = b.dna) AS equal,
       sum(cardinality(a.dna)) AS dnas
FROM simd_on a JOIN simd_off b USING (o, size, grp) GROUP BY o ORDER BY o;
-- pinned: every DNA of every document, per option set
SELECT o, md5(string_agg(dna::text, ';' ORDER BY size, grp)) AS digest
FROM simd_on GROUP BY o ORDER BY o;
DROP TABLE simd_pool, simd_docs, simd_corpus, simd_opts, simd_on, simd_off;
