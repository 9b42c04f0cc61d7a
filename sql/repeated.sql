--
-- textfp_repeated_spans() and textfp_remove_repeated(): the spans of each
-- row's text that occur in another row (units: Han characters and words,
-- folded), and the texts without what an earlier row already has.  Chinese,
-- English, traditional-script and mixed rows, homophones (reading), each
-- span shown in both rows by substr(); the exact answer of a brute-force
-- query over word arrays (every L-gram against every L-gram) at several
-- lengths, for both functions; partitions and inheritance; rows stored out
-- of id order; other server encodings (EUC_CN, EUC_JIS_2004, SQL_ASCII);
-- bad input.
--
-- in a schema of its own, dropped at the end
CREATE SCHEMA repeated_t;
SET search_path = repeated_t, public;
\i sql/include/err.sql
-- the brute-force queries' estimates are far off: no JIT compilation
SET jit = off;

-- ---- texts: Chinese, traditional script, English (case), mixed ----
CREATE TABLE docs (id bigint, body text);
INSERT INTO docs VALUES
  (1, '据新华社北京电，国家统计局今天发布数据显示，前三季度国内生产总值同比增长百分之五点二。专家认为，经济回升向好的态势进一步巩固。'),
  (2, '專家認為，經濟回升向好的態勢進一步鞏固。據新華社北京電，國家統計局今天發布數據顯示，前三季度國內生產總值同比增長百分之五點二。來源：新華社'),
  (3, 'The quick brown fox jumps over the lazy dog, and then the QUICK brown fox jumps over the lazy cat again.'),
  (4, 'Yesterday the quick brown fox jumps over the lazy dog twice.'),
  (5, '他说：The quick brown fox jumps over the lazy dog，然后国家统计局今天发布数据显示。'),
  (6, NULL),
  (NULL, '国家统计局今天发布数据显示'),
  (7, '她說：今天天氣很好，我們去公園散步吧，再見。'),
  (8, '他说：今天天气很好，我们去公园散步吧，在见。');
-- every span with its text in both rows (folded: equal up to case, width
-- and script)
SELECT s.id, s.start, s.length, s.units, s.other_id, s.other_start,
       substr(a.body, s.start, s.length) AS span,
       substr(b.body, s.other_start, s.length) AS in_other
FROM textfp_repeated_spans('docs', min_units => 8) s
JOIN docs a ON a.id = s.id JOIN docs b ON b.id = s.other_id;
-- the rows come out by id, then start
SELECT array_agg(id ORDER BY ord) = array_agg(id ORDER BY id, start, ord) AS ordered
FROM textfp_repeated_spans('docs', min_units => 8) WITH ORDINALITY AS s(id, start, length, units, other_id, other_start, ord);
-- the reading fold: 她/他, 說/说, 再/在 are one unit each, so rows 7 and 8
-- are one text
SELECT s.id, s.units, s.other_id, substr(a.body, s.start, s.length) AS span
FROM textfp_repeated_spans('docs', min_units => 8, reading => true) s JOIN docs a ON a.id = s.id
WHERE s.id >= 7;
-- without it they share the runs between the homophones
SELECT s.id, s.units, s.other_id, substr(a.body, s.start, s.length) AS span
FROM textfp_repeated_spans('docs', min_units => 8, reading => false) s JOIN docs a ON a.id = s.id
WHERE s.id >= 7;
-- the spans are copies: textfp_align of the two substrings is one passage
-- covering both
SELECT count(*) AS spans,
       count(*) FILTER (WHERE (SELECT count(*) FROM textfp_align(substr(a.body, s.start, s.length),
                                                                 substr(b.body, s.other_start, s.length),
                                                                 min_length => 1, seed => 1)) = 1) AS one_passage
FROM textfp_repeated_spans('docs', min_units => 8) s
JOIN docs a ON a.id = s.id JOIN docs b ON b.id = s.other_id;
-- removal, first occurrence kept; a mask in place of each removed span
SELECT * FROM textfp_remove_repeated('docs', min_units => 8);
SELECT * FROM textfp_remove_repeated('docs', min_units => 8, mask => '[…]') WHERE removed_units > 0;
-- min_units 1: every unit that occurs in another row
SELECT id, sum(units) AS units, count(*) AS spans FROM textfp_repeated_spans('docs', min_units => 1)
GROUP BY id ORDER BY id;
-- longer than any text: nothing
SELECT count(*) FROM textfp_repeated_spans('docs', min_units => 100);
SELECT count(*) AS rows, sum(removed_units) AS removed FROM textfp_remove_repeated('docs', min_units => 100);

-- ---- the exact answer: a brute-force query ----
-- Texts of 3-letter words separated by single spaces, so that word p
-- (0-based) starts at character 4 p + 1; random words from a few, and
-- segments copied from earlier rows.  Pseudo-random from hashes, so the
-- same data on every version.
CREATE FUNCTION h(i bigint, m int) RETURNS int LANGUAGE sql IMMUTABLE AS
$$ SELECT (abs(hashint8(i)::bigint) % m)::int $$;
CREATE TABLE bw (id int PRIMARY KEY, w text[]);
INSERT INTO bw
SELECT i, ARRAY(SELECT (ARRAY['ant','bee','cat','dog','elk','fox','gnu','hen'])[1 + h(i * 1000 + j, 3 + h(i, 6))]
                FROM generate_series(1, 15 + h(-i, 40)) j)
FROM generate_series(1, 30) i;
-- rows 31-45: a word or two, a segment of an earlier row, more words
INSERT INTO bw
SELECT i, ARRAY['elk', 'gnu'] || s.w[h(i * 7, 10) + 1:h(i * 7, 10) + 8 + h(i * 11, 25)]
          || (SELECT w[1:h(i * 13, 6)] FROM bw WHERE id = 1 + h(i * 17, 30))
FROM generate_series(31, 45) i, LATERAL (SELECT w FROM bw WHERE id = 1 + h(i * 3, 30)) s;
-- a row copied whole, an empty one, a short one
INSERT INTO bw SELECT 46, w FROM bw WHERE id = 40;
INSERT INTO bw VALUES (47, '{}'), (48, '{cat}');
CREATE TABLE bt AS SELECT id, array_to_string(w, ' ') AS body FROM bw;
SELECT count(*) AS rows, sum(cardinality(w)) AS words FROM bw;
-- W(r, p): the first (row, position) of another row with the same L-gram;
-- spans: maximal runs of positions with consecutive witnesses
CREATE FUNCTION brute_spans(l int)
RETURNS TABLE(id int, p int, units int, other_id int, other_p int) LANGUAGE sql AS $$
  WITH g AS (SELECT id, p, w[p:p + l - 1] AS gram FROM bw, generate_series(1, cardinality(w) - l + 1) p),
  wit AS (SELECT DISTINCT ON (a.id, a.p) a.id, a.p, b.id AS wid, b.p AS wp
          FROM g a JOIN g b ON a.gram = b.gram AND a.id <> b.id
          ORDER BY a.id, a.p, b.id, b.p),
  isl AS (SELECT *, p - row_number() OVER (PARTITION BY id, wid, wp - p ORDER BY p) AS grp FROM wit)
  SELECT id, min(p), (max(p) - min(p) + l)::int, wid, min(wp) FROM isl GROUP BY id, wid, wp - p, grp
$$;
-- the function's spans in word positions (1-based)
CREATE FUNCTION fast_spans(l int)
RETURNS TABLE(id int, p int, units int, other_id int, other_p int) LANGUAGE sql AS $$
  SELECT id::int, (start - 1) / 4 + 1, units, other_id::int, (other_start - 1) / 4 + 1
  FROM textfp_repeated_spans('bt', min_units => l)
$$;
CREATE TABLE want_spans AS SELECT l, b.* FROM unnest(ARRAY[1, 2, 3, 5, 8, 13, 30]) l, brute_spans(l) b;
CREATE TABLE got_spans AS SELECT l, f.* FROM unnest(ARRAY[1, 2, 3, 5, 8, 13, 30]) l, fast_spans(l) f;
SELECT l, count(*) AS spans, sum(units) AS span_units,
       (SELECT count(*) FROM (SELECT * FROM want_spans w WHERE w.l = x.l EXCEPT ALL
                              SELECT * FROM got_spans g WHERE g.l = x.l) m) AS missing,
       (SELECT count(*) FROM (SELECT * FROM got_spans g WHERE g.l = x.l EXCEPT ALL
                              SELECT * FROM want_spans w WHERE w.l = x.l) m) AS extra
FROM want_spans x GROUP BY l ORDER BY l;
-- and in characters: word p at 4 p + 1, a span of u words 4 u - 1 long
SELECT count(*) AS bad_positions
FROM unnest(ARRAY[1, 2, 3, 5, 8, 13, 30]) l, textfp_repeated_spans('bt', min_units => l) s
WHERE length <> 4 * units - 1 OR (start - 1) % 4 <> 0 OR (other_start - 1) % 4 <> 0;
-- removal: the words covered by an L-gram of an earlier row; each run of
-- them (with the spaces inside it) replaced by the mask
CREATE FUNCTION brute_removed(l int, mask text)
RETURNS TABLE(id int, body text, removed_units int) LANGUAGE sql AS $$
  WITH g AS (SELECT id, p, w[p:p + l - 1] AS gram FROM bw, generate_series(1, cardinality(w) - l + 1) p),
  early AS (SELECT DISTINCT a.id, a.p FROM g a JOIN g b ON a.gram = b.gram AND b.id < a.id),
  cov AS (SELECT DISTINCT e.id, u FROM early e, generate_series(e.p, e.p + l - 1) u),
  words AS (SELECT bw.id, gs.u, bw.w[gs.u] AS word, c.u IS NOT NULL AS gone
            FROM bw CROSS JOIN LATERAL generate_series(1, cardinality(bw.w)) gs(u)
            LEFT JOIN cov c ON c.id = bw.id AND c.u = gs.u),
  runs AS (SELECT *, u - row_number() OVER (PARTITION BY id, gone ORDER BY u) AS grp FROM words),
  toks AS (SELECT id, min(u) AS u, CASE WHEN gone THEN coalesce(mask, '') ELSE min(word) END AS tok,
                  CASE WHEN gone THEN count(*) ELSE 0 END AS n
           FROM runs GROUP BY id, gone, CASE WHEN gone THEN grp ELSE u END)
  SELECT bw.id, coalesce((SELECT string_agg(tok, ' ' ORDER BY u) FROM toks WHERE toks.id = bw.id), ''),
         coalesce((SELECT sum(n) FROM toks WHERE toks.id = bw.id), 0)::int
  FROM bw
$$;
CREATE TABLE want_removed AS
SELECT l, mask, b.* FROM unnest(ARRAY[1, 3, 5, 8, 13]) l, unnest(ARRAY[NULL, '<X>']) mask, brute_removed(l, mask) b;
CREATE TABLE got_removed AS
SELECT l, mask, f.id::int, f.body, f.removed_units
FROM unnest(ARRAY[1, 3, 5, 8, 13]) l, unnest(ARRAY[NULL, '<X>']) mask,
     textfp_remove_repeated('bt', min_units => l, mask => mask) f;
SELECT l, mask, count(*) AS rows, sum(removed_units) AS removed,
       (SELECT count(*) FROM (SELECT * FROM want_removed w WHERE w.l = x.l AND w.mask IS NOT DISTINCT FROM x.mask
                              EXCEPT ALL SELECT * FROM got_removed g WHERE g.l = x.l AND g.mask IS NOT DISTINCT FROM x.mask) m) AS missing,
       (SELECT count(*) FROM (SELECT * FROM got_removed g WHERE g.l = x.l AND g.mask IS NOT DISTINCT FROM x.mask
                              EXCEPT ALL SELECT * FROM want_removed w WHERE w.l = x.l AND w.mask IS NOT DISTINCT FROM x.mask) m) AS extra
FROM want_removed x GROUP BY l, mask ORDER BY l, mask;
-- a few rows of it
SELECT * FROM textfp_remove_repeated('bt', min_units => 5, mask => '#') WHERE id IN (40, 46, 47, 48);

-- ---- where the rows are: partitions, inheritance, out of id order ----
CREATE TABLE bp (id int, body text) PARTITION BY RANGE (id);
CREATE TABLE bp1 PARTITION OF bp FOR VALUES FROM (MINVALUE) TO (20);
CREATE TABLE bp2 PARTITION OF bp FOR VALUES FROM (20) TO (MAXVALUE) PARTITION BY HASH (id);
CREATE TABLE bp2a PARTITION OF bp2 FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE bp2b PARTITION OF bp2 FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO bp SELECT * FROM bt;
CREATE TABLE bi (id int, body text);
CREATE TABLE bi_kid () INHERITS (bi);
INSERT INTO bi SELECT * FROM bt WHERE id % 3 = 0;
INSERT INTO bi_kid SELECT * FROM bt WHERE id % 3 <> 0;
-- stored in reverse id order, and ids as smallint
CREATE TABLE brev (id smallint, body text);
INSERT INTO brev SELECT id, body FROM bt ORDER BY id DESC;
SELECT t AS corpus,
       (SELECT count(*) FROM (SELECT * FROM textfp_repeated_spans('bt', min_units => 5)
                              EXCEPT ALL SELECT * FROM textfp_repeated_spans(t, min_units => 5)) m) AS spans_missing,
       (SELECT count(*) FROM (SELECT * FROM textfp_repeated_spans(t, min_units => 5)
                              EXCEPT ALL SELECT * FROM textfp_repeated_spans('bt', min_units => 5)) x) AS spans_extra,
       (SELECT count(*) FROM (SELECT * FROM textfp_remove_repeated('bt', min_units => 5)
                              EXCEPT ALL SELECT * FROM textfp_remove_repeated(t, min_units => 5)) m) AS removed_differ
FROM unnest(ARRAY['bp', 'bi', 'brev']::regclass[]) t;
-- out of id order in the table, in id order out of the functions
SELECT array_agg(id ORDER BY ord) = array_agg(id ORDER BY id) AS removal_in_id_order
FROM textfp_remove_repeated('brev', min_units => 5) WITH ORDINALITY AS r(id, body, removed_units, ord);
SELECT array_agg(id ORDER BY ord) = array_agg(id ORDER BY id, start) AS spans_in_id_order
FROM textfp_repeated_spans('brev', min_units => 5) WITH ORDINALITY AS r(id, start, length, units, other_id, other_start, ord);
-- other column names, a varchar column, a domain over bigint
CREATE DOMAIN ident AS bigint;
CREATE TABLE bnames (doc_no ident, txt varchar);
INSERT INTO bnames SELECT id, body FROM bt;
SELECT (SELECT count(*) FROM (SELECT * FROM textfp_repeated_spans('bt', min_units => 5)
                              EXCEPT ALL SELECT * FROM textfp_repeated_spans('bnames', 'doc_no', 'txt', 5)) m) AS spans_missing,
       (SELECT count(*) FROM textfp_repeated_spans('bnames', 'doc_no', 'txt', 5)) =
       (SELECT count(*) FROM textfp_repeated_spans('bt', min_units => 5)) AS same_count;
-- an empty table, a table of texts all shorter than min_units
CREATE TABLE bempty (id bigint, body text);
SELECT count(*) FROM textfp_repeated_spans('bempty');
SELECT count(*) FROM textfp_remove_repeated('bempty');
SELECT count(*) AS spans FROM textfp_repeated_spans('bt', min_units => 1000);
-- progress messages
ANALYZE bt;
SET textfp.progress = on;
SET client_min_messages = notice;
SELECT count(*) FROM textfp_repeated_spans('bt', min_units => 5);
RESET textfp.progress;
RESET client_min_messages;

-- ---- bad input ----
CREATE TABLE bad_types (id text, body text, n int, fid float8);
INSERT INTO bad_types VALUES ('a', 'x', 1, 1.5);
CREATE TABLE dup (id int, body text);
INSERT INTO dup VALUES (1, 'a b c'), (2, 'a b c'), (1, 'c d e');
CREATE VIEW bview AS SELECT * FROM bt;
-- row-level security (the owner and superusers bypass it: refused for
-- the role below)
CREATE TABLE brls (id int, body text, owner name);
INSERT INTO brls SELECT id, body, 'nobody' FROM bt;
ALTER TABLE brls ENABLE ROW LEVEL SECURITY;
CREATE POLICY mine ON brls USING (owner = current_user);
CREATE FOREIGN DATA WRAPPER repeated_dummy;
CREATE SERVER repeated_srv FOREIGN DATA WRAPPER repeated_dummy;
CREATE FOREIGN TABLE bforeign (id int, body text) SERVER repeated_srv;
CREATE TABLE bpf (id int, body text) PARTITION BY RANGE (id);
CREATE TABLE bpf1 PARTITION OF bpf FOR VALUES FROM (0) TO (10);
CREATE FOREIGN TABLE bpf2 PARTITION OF bpf FOR VALUES FROM (10) TO (20) SERVER repeated_srv;
-- (brls: its owner is not subject to its policies, so it is read; a role
-- that is is refused, below)
SELECT q, err(q) FROM (VALUES
  ($$SELECT * FROM textfp_repeated_spans(NULL)$$),
  ($$SELECT * FROM textfp_repeated_spans('bt', NULL)$$),
  ($$SELECT * FROM textfp_repeated_spans('bt', 'id', NULL)$$),
  ($$SELECT * FROM textfp_repeated_spans('bt', min_units => NULL)$$),
  ($$SELECT * FROM textfp_repeated_spans('bt', reading => NULL)$$),
  ($$SELECT * FROM textfp_remove_repeated('bt', reading => NULL)$$),
  ($$SELECT * FROM textfp_remove_repeated(NULL, mask => 'x')$$),
  ($$SELECT * FROM textfp_repeated_spans('bt', min_units => 0)$$),
  ($$SELECT * FROM textfp_repeated_spans('bt', min_units => -5)$$),
  ($$SELECT * FROM textfp_repeated_spans('bt', min_units => 1000001)$$),
  ($$SELECT * FROM textfp_remove_repeated('bt', min_units => 2147483647)$$),
  ($$SELECT * FROM textfp_repeated_spans('bt', 'nope')$$),
  ($$SELECT * FROM textfp_repeated_spans('bt', 'id', 'nope')$$),
  ($$SELECT * FROM textfp_repeated_spans('bad_types')$$),
  ($$SELECT * FROM textfp_repeated_spans('bad_types', 'n', 'n')$$),
  ($$SELECT * FROM textfp_repeated_spans('bad_types', 'fid', 'body')$$),
  ($$SELECT * FROM textfp_remove_repeated('dup', min_units => 2)$$),
  ($$SELECT * FROM textfp_repeated_spans('bview')$$),
  ($$SELECT count(*) FROM textfp_repeated_spans('brls', min_units => 5)$$),
  ($$SELECT * FROM textfp_repeated_spans('bforeign')$$),
  ($$SELECT * FROM textfp_remove_repeated('bpf')$$),
  ($$SELECT * FROM textfp_repeated_spans('no_such_table')$$)
) t(q);
-- the details and hints
SELECT * FROM textfp_repeated_spans('dup', min_units => 2);
SELECT * FROM textfp_repeated_spans('bview');
SELECT * FROM textfp_repeated_spans('bad_types');
-- privileges: SELECT on the table, or on both columns
CREATE ROLE regress_repeated_reader;
GRANT USAGE ON SCHEMA repeated_t TO regress_repeated_reader;
GRANT SELECT (id) ON bt TO regress_repeated_reader;
GRANT SELECT ON brls TO regress_repeated_reader;
SET ROLE regress_repeated_reader;
SELECT * FROM textfp_repeated_spans('brls', min_units => 5);
SELECT err($$SELECT * FROM textfp_remove_repeated('brls', min_units => 5)$$) AS rls;
SELECT err($$SELECT count(*) FROM textfp_repeated_spans('bt', min_units => 5)$$) AS one_column;
SELECT err($$SELECT count(*) FROM textfp_remove_repeated('bt', min_units => 5)$$) AS one_column;
RESET ROLE;
GRANT SELECT (body) ON bt TO regress_repeated_reader;
SET ROLE regress_repeated_reader;
SELECT count(*) AS both_columns FROM textfp_repeated_spans('bt', min_units => 5);
RESET ROLE;
REVOKE ALL ON bt, brls FROM regress_repeated_reader;
REVOKE ALL ON SCHEMA repeated_t FROM regress_repeated_reader;
DROP ROLE regress_repeated_reader;

-- ---- other server encodings: the same spans, in characters ----
\set regdb :DBNAME
-- (texts that EUC_CN can hold: simplified Chinese and ASCII)
CREATE TABLE docs3 AS SELECT * FROM docs WHERE id IN (1, 5);
INSERT INTO docs3 VALUES (9, '据报道，专家认为：经济回升向好的态势进一步巩固……来源：新华社 The quick brown fox jumps');
\copy docs3 TO 'results/repeated_docs.tsv'
\copy (SELECT s.id, s.start, s.length, s.units, s.other_id, s.other_start, substr(d.body, s.start, s.length) FROM textfp_repeated_spans('docs3', min_units => 6) s JOIN docs3 d ON d.id = s.id) TO 'results/repeated_want.tsv'
\copy (SELECT * FROM textfp_remove_repeated('docs3', min_units => 6, mask => '…')) TO 'results/repeated_removed.tsv'
CREATE DATABASE textfp_repeated_euc_cn ENCODING 'EUC_CN' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
\c textfp_repeated_euc_cn
SET client_encoding = 'UTF8';
CREATE EXTENSION textfp;
CREATE TABLE docs3 (id bigint, body text);
\copy docs3 FROM 'results/repeated_docs.tsv'
CREATE TABLE want (id bigint, start int, length int, units int, other_id bigint, other_start int, span text);
\copy want FROM 'results/repeated_want.tsv'
SELECT current_setting('server_encoding') AS enc, (SELECT count(*) FROM want) AS spans,
       (SELECT count(*) FROM (SELECT * FROM want EXCEPT ALL
                              SELECT s.*, substr(d.body, s.start, s.length)
                              FROM textfp_repeated_spans('docs3', min_units => 6) s JOIN docs3 d ON d.id = s.id) m) AS differ;
CREATE TABLE want_removed (id bigint, body text, removed_units int);
\copy want_removed FROM 'results/repeated_removed.tsv'
SELECT (SELECT count(*) FROM want_removed WHERE removed_units > 0) AS rows_cut,
       (SELECT count(*) FROM (SELECT * FROM want_removed EXCEPT ALL
                              SELECT * FROM textfp_remove_repeated('docs3', min_units => 6, mask => '…')) m) AS differ;
SELECT * FROM textfp_remove_repeated('docs3', min_units => 6, mask => '…') WHERE removed_units > 0;
\c :regdb
DROP DATABASE textfp_repeated_euc_cn;
-- EUC_JIS_2004: some characters are two code points in UTF-8 (か゚ is
-- U+304B U+309A), yet one character for substr()
CREATE DATABASE textfp_repeated_jis ENCODING 'EUC_JIS_2004' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
\c textfp_repeated_jis
SET client_encoding = 'UTF8';
CREATE EXTENSION textfp;
CREATE TABLE d (id int, body text);
INSERT INTO d VALUES (1, 'か゚か゚ 日本語の文章です、東京都の天気は晴れ。か゚'),
                     (2, 'はい。か゚ 東京都の天気は晴れ。日本語の文章です');
SELECT id, length(body) AS chars FROM d ORDER BY id;
SELECT s.*, substr(a.body, s.start, s.length) AS span, substr(b.body, s.other_start, s.length) AS in_other
FROM textfp_repeated_spans('d', min_units => 3) s JOIN d a ON a.id = s.id JOIN d b ON b.id = s.other_id;
SELECT * FROM textfp_remove_repeated('d', min_units => 3, mask => '#');
\c :regdb
DROP DATABASE textfp_repeated_jis;
-- SQL_ASCII: a byte is a character
CREATE DATABASE textfp_repeated_ascii ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
\c textfp_repeated_ascii
CREATE EXTENSION textfp;
CREATE TABLE d (id int, body text);
INSERT INTO d VALUES (1, 'un café au lait, s''il vous plaît, merci'), (2, 'Encore: UN CAFÉ AU LAIT, S''IL VOUS PLAÎT!');
SELECT s.*, substr(a.body, s.start, s.length) AS span, substr(b.body, s.other_start, s.length) AS in_other
FROM textfp_repeated_spans('d', min_units => 4) s JOIN d a ON a.id = s.id JOIN d b ON b.id = s.other_id;
\c :regdb
DROP DATABASE textfp_repeated_ascii;

SET search_path = repeated_t, public;
DROP SERVER repeated_srv CASCADE;
DROP FOREIGN DATA WRAPPER repeated_dummy;
DROP SCHEMA repeated_t CASCADE;
