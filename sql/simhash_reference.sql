--
-- A deployment's own balance reference: simhash_reference() over a sample of
-- a collection, simhash(body, reference) with it.
--
-- The data: the paragraphs of the text pools (test/data/pool_zh.txt,
-- pool_en.txt), numbered; even-numbered ones make the reference, odd-numbered
-- ones are the held-out texts it is measured on.
-- (raw.n numbers the lines in file order: a heap scan need not return them so)
CREATE TEMP TABLE para (id serial, lang text, body text);
CREATE TEMP TABLE raw (n serial, body text);
\copy raw (body) FROM 'test/data/pool_zh.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
INSERT INTO para (lang, body) SELECT 'zh', body FROM raw WHERE length(body) >= 12 ORDER BY n;
TRUNCATE raw;
\copy raw (body) FROM 'test/data/pool_en.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
INSERT INTO para (lang, body) SELECT 'en', body FROM raw WHERE length(body) >= 12 ORDER BY n;
SELECT lang, count(*) FROM para GROUP BY lang ORDER BY lang;

-- the reference: 68 int4 (layout 1, ngram 2, shingle 1, folds 7, 64
-- thresholds); golden: stable for this input
CREATE TEMP TABLE ref AS
SELECT simhash_reference(body) AS r FROM para WHERE id % 2 = 0;
SELECT cardinality(r) AS len, r[1:4] AS header, md5(r::text) AS digest,
       min(t) >= -65536 AND max(t) <= 65536 AS in_range
FROM ref, unnest(r[5:68]) t GROUP BY r;

-- held-out paragraphs: every bit's share of 1s (in %), with the reference,
-- with the built-in centering (the default; these pools are its own source
-- text, so it does well here) and plain.  With the reference every bit is
-- within 50% +- 2.5% and the mean deviation is under 1%.  (Short paragraphs:
-- a text of a few features has few possible sums, which limits any
-- threshold; on 2 KB documents the held-out bits stay within 50% +- 2%,
-- README "Bit balance".)
CREATE TEMP TABLE fps AS
SELECT simhash(body, r) AS own, simhash(body) AS centered,
       simhash(body, center => false) AS plain
FROM para, ref WHERE id % 2 = 1;
SELECT kind, count(*) AS bits, round(100 * min(share)::numeric, 1) AS lowest,
       round(100 * max(share)::numeric, 1) AS highest,
       round(100 * avg(abs(share - 0.5))::numeric, 2) AS mean_dev
FROM (SELECT kind, b, avg(((fp::bigint >> b) & 1)::float8) AS share
      FROM fps, LATERAL (VALUES ('own', own), ('centered', centered), ('plain', plain)) v(kind, fp),
           generate_series(0, 63) b
      GROUP BY kind, b) x
GROUP BY kind ORDER BY kind;

-- in-sample on ~2 KB documents (consecutive paragraphs): the thresholds do
-- what they were chosen for
CREATE TEMP TABLE docs AS
SELECT lang, string_agg(body, E'\n' ORDER BY id) AS body
FROM (SELECT id, lang, body, sum(octet_length(body)) OVER (PARTITION BY lang ORDER BY id) / 2000 AS grp
      FROM para) p
GROUP BY lang, grp;
CREATE TEMP TABLE docref AS SELECT simhash_reference(body) AS r FROM docs;
SELECT count(DISTINCT body) > 2500 AS docs,
       (SELECT min(share) >= 0.49 AND max(share) <= 0.51
        FROM (SELECT b, avg(((simhash(body, r)::bigint >> b) & 1)::float8) AS share
              FROM docs, docref, generate_series(0, 63) b GROUP BY b) x) AS in_sample_within_1pct
FROM docs;

-- golden fingerprints with the reference (stable for this reference)
SELECT simhash('据新华社北京电，国家统计局今天发布数据显示'::text, r) AS zh,
       simhash('The quick brown fox jumps over the lazy dog'::text, r) AS en,
       simhash(''::text, r) AS empty
FROM ref;

-- zero thresholds: the plain (uncentered) fingerprint, with the reference's
-- feature options (here ngram 3, shingle 2, no folds)
SELECT bool_and(simhash(body, ARRAY[1, 3, 2, 0] || array_fill(0, ARRAY[64]))
                = simhash(body, ngram => 3, shingle => 2, fold_case => false,
                          fold_width => false, fold_han => false, center => false)) AS zero_is_plain
FROM para WHERE id % 50 = 0;
-- the options are stored in the reference
SELECT r[1:4] AS header FROM (SELECT simhash_reference(body, 3, 2, false, true, false) AS r
                              FROM para WHERE id % 10 = 0) x;

-- the sample: the same reference whatever the order of the rows, also past
-- the 65,536 rows the aggregate keeps (it keeps rows by a hash of their
-- contents)
CREATE TEMP TABLE many AS
SELECT id * 3 + k AS id, body || ' ' || k AS body FROM para, generate_series(1, 3) k;
SELECT count(*) > 65536 AS past_cap,
       (SELECT simhash_reference(body ORDER BY id) FROM many)
     = (SELECT simhash_reference(body ORDER BY id DESC) FROM many) AS order_independent
FROM many;

-- no rows, only NULLs, only texts without features: no reference (NULL)
SELECT simhash_reference(body) IS NULL AS no_rows FROM para WHERE false;
SELECT simhash_reference(NULL::text) IS NULL AS nulls_only;
SELECT simhash_reference(b) IS NULL AS no_features FROM unnest(ARRAY['', '，。！', '   ']) b;
SELECT simhash(NULL::text, r) IS NULL AS strict FROM ref;

-- bad input
\i sql/include/err.sql
SELECT q, err(q) FROM unnest(ARRAY[
  $$SELECT simhash('x'::text, '{1,2,1,7}'::int4[])$$,
  $$SELECT simhash('x'::text, ARRAY[2, 2, 1, 7] || array_fill(0, ARRAY[64]))$$,
  $$SELECT simhash('x'::text, ARRAY[1, 0, 1, 7] || array_fill(0, ARRAY[64]))$$,
  $$SELECT simhash('x'::text, ARRAY[1, 2, 17, 7] || array_fill(0, ARRAY[64]))$$,
  $$SELECT simhash('x'::text, ARRAY[1, 2, 1, 8] || array_fill(0, ARRAY[64]))$$,
  $$SELECT simhash('x'::text, ARRAY[1, 2, 1, 7] || array_fill(65537, ARRAY[64]))$$,
  $$SELECT simhash('x'::text, ARRAY[1, 2, 1, 7, NULL] || array_fill(0, ARRAY[63]))$$,
  $$SELECT simhash('x'::text, array_fill(0, ARRAY[2, 34]))$$,
  $$SELECT simhash_reference(body, 0, 1, true, true, true) FROM para$$,
  $$SELECT simhash_reference(body, 2, 1, NULL, true, true) FROM para$$,
  $$SELECT simhash_reference(body, 1 + id % 2, 1, true, true, true) FROM para$$]) q;
\set VERBOSITY default
SELECT simhash('x'::text, '{1,2,1,7}'::int4[]);
\set VERBOSITY terse
