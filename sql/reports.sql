--
-- Reports over a match table: clusters of the match graph and their sizes,
-- the most copied rows, duplicates per day and per source, on a hand-made
-- match table whose answers are worked out below; textfp_html_escape; and
-- the HTML page of textfp_report(): complete, balanced, self-contained, and
-- every text from the tables escaped (titles and bodies with markup).
--
-- in a schema of its own, dropped at the end (other tests use the same names)
CREATE SCHEMA reports_t;
SET search_path = reports_t, public;
\i sql/include/err.sql
SET client_min_messages = warning;
SET TimeZone = 'UTC';

CREATE TABLE docs (id int PRIMARY KEY, site text, title text, body text, published date);
INSERT INTO docs VALUES
  (1, 'a.example', 'Original <one>', 'The first text, copied twice. Its second sentence is long enough to be found again in a copy.', '2026-01-01'),
  (2, 'b.example', '<script>alert("x")</script> & co', 'A copy with <b>markup</b> & "quotes" and ''apostrophes''. Its second sentence is long enough to be found again in a copy!', '2026-01-01'),
  (3, 'c.example', 'Copy three', E'Control\x01characters\x7f and a tab\there.', '2026-01-02'),
  (4, 'a.example', '第四篇', '床前明月光，疑是地上霜。', '2026-01-02'),
  (5, 'a.example', '第五篇', '床前明月光，疑是地上霜！', '2026-01-02'),
  (6, 'b.example', 'Six', 'six', '2026-01-03'),
  (7, 'b.example', 'Seven', 'seven', '2026-01-03'),
  (8, 'c.example', 'Eight', 'eight', '2026-01-03'),
  (9, NULL, 'Nine', 'nine', '2026-01-04'),
  (10, 'c.example', 'Ten', repeat('ten ', 400), '2026-01-04'),
  (11, 'a.example', 'Eleven, never matched', 'eleven', '2026-01-04');
SELECT textfp_create_match_table('rm');
-- clusters {1,2,3}, {4,5}, {6,7,8}, {9,10}; with simhash only {1,2,3}, {4,5}, {7,8}
INSERT INTO rm VALUES
  (2, 1, 'simhash', 3, 1 - 3 / 64.0, '2026-01-01 10:00'),
  (3, 1, 'simhash', 5, 1 - 5 / 64.0, '2026-01-01 11:00'),
  (3, 2, 'minhash', NULL, 0.8, '2026-01-02 09:00'),
  (3, 1, 'minhash', NULL, 0.7, '2026-01-02 09:00'),
  (5, 4, 'simhash', 0, 1, '2026-01-02 09:00'),
  (7, 6, 'pinyin_dna', NULL, 0.3, '2026-01-03 08:00'),
  (8, 7, 'simhash', 2, 1 - 2 / 64.0, '2026-01-03 08:00'),
  (10, 9, 'minhash', NULL, 0.6, '2026-01-03 23:59');

SELECT * FROM textfp_match_clusters('rm') ORDER BY id;
SELECT * FROM textfp_match_clusters('rm', 'simhash') ORDER BY id;
-- the same as textfp_clusters over the pairs
SELECT count(*) AS differ FROM (
  SELECT * FROM textfp_match_clusters('rm') EXCEPT ALL
  SELECT * FROM textfp_clusters('SELECT new_id, matched_id FROM reports_t.rm')) d;
SELECT * FROM textfp_cluster_sizes('rm');
SELECT * FROM textfp_cluster_sizes('rm', 'simhash');
SELECT * FROM textfp_cluster_sizes('rm', 'no such method');
SELECT * FROM textfp_most_copied('rm');
SELECT * FROM textfp_most_copied('rm', 2, 'simhash');
SELECT * FROM textfp_duplicates_by_day('rm');
SELECT * FROM textfp_duplicates_by_day('rm', 'minhash');
SELECT * FROM textfp_duplicates_by_day('rm', NULL, 'docs', 'published');
SELECT * FROM textfp_duplicates_by_source('rm', 'docs', 'site');
SELECT * FROM textfp_duplicates_by_source('rm', 'docs', 'site', 'id', 'simhash');

-- textfp_html_escape
SELECT textfp_html_escape($$<a href="x">Tom & Jerry's</a>$$);
SELECT textfp_html_escape(E'tab\tnew\nline\r\x01\x1f\x7f中文 &amp;') = E'tab\tnew\nline\r中文 &amp;amp;' AS controls_dropped;
SELECT textfp_html_escape('') = '' AS empty, textfp_html_escape(NULL) IS NULL AS strict;

-- the HTML page
CREATE TABLE page AS SELECT textfp_report('docs', 'rm', source_column => 'site', heading => 'Report <&> "test"') AS h;
-- tag balance: every element opened is closed
CREATE FUNCTION n(h text, pat text) RETURNS int LANGUAGE sql AS
$$ SELECT count(*)::int FROM regexp_matches(h, pat, 'g') $$;
CREATE FUNCTION balance(h text) RETURNS TABLE (tag text, opened int, closed int) LANGUAGE sql AS $$
  SELECT t, n(h, '<' || t || '[ >]'), n(h, '</' || t || '>')
  FROM unnest(ARRAY['html', 'head', 'title', 'style', 'body', 'h1', 'h2', 'h3', 'h4', 'p', 'div', 'span',
                    'table', 'tr', 'th', 'td', 'svg', 'rect', 'text', 'b', 'a', 'ol', 'li', 'mark']) t
$$;
SELECT b.* FROM page, balance(h) b;
SELECT left(h, 15) AS starts, right(h, 8) AS ends,
       n(h, '<h2 id="(summary|distances|days|sources|copied|clusters)">') AS sections,
       n(h, '<h3 id="cluster-') AS clusters_shown,
       n(h, '<rect ') AS histogram_bars,
       n(h, '<div class="textfp-compare"') AS side_by_side,
       n(h, '<mark ') AS passages_marked
FROM page;
-- nothing from outside: no script, no external reference, no event handler
SELECT n(lower(h), '<script') AS scripts, n(lower(h), 'src=|href="[^#]|url\(|@import') AS references,
       n(lower(h), '\son[a-z]+=') AS handlers,
       n(h, 'https?:') - n(h, 'xmlns="http://www.w3.org/2000/svg"') AS urls,
       n(h, '[\x01-\x08\x0b\x0c\x0e-\x1f\x7f]') AS control_chars
FROM page;
-- the texts escaped where they appear
SELECT position('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; co' IN h) > 0 AS title_escaped,
       position('Original &lt;one&gt;' IN h) > 0 AS title_in_table,
       position('A copy with &lt;b&gt;markup&lt;/b&gt; &amp; ' IN h) > 0 AS body_escaped,
       position('<title>Report &lt;&amp;&gt; &quot;test&quot;</title>' IN h) > 0 AS heading_escaped,
       position('床前明月光' IN h) > 0 AS chinese,
       position('Eleven' IN h) = 0 AS unmatched_row_absent
FROM page;
-- the summary figures and the histogram of the simhash records' distances
-- (the corpus has no simhash64 column): 0, 2, 3, 5 bits, bars for 0..5
SELECT (regexp_match(h, '<b>([0-9,]+)</b>rows in the corpus'))[1] AS rows,
       (regexp_match(h, '<b>([0-9,]+)</b>rows that copy another'))[1] AS copies,
       (regexp_match(h, '<b>([0-9,]+)</b>pairs'))[1] AS pairs,
       (regexp_match(h, '<b>([0-9,]+)</b>match records'))[1] AS records,
       (regexp_match(h, '<b>([0-9,]+)</b>clusters'))[1] AS clusters,
       (regexp_match(h, '<b>([0-9,]+)</b>largest cluster'))[1] AS largest,
       array(SELECT m[1] FROM regexp_matches(h, '<title>([0-9]+ bits: [0-9]+) pairs</title>', 'g') m) AS bars
FROM page;
-- a long body is cut to an excerpt
SELECT n(h, 'ten ten') > 0 AS has_excerpt, n(h, '(ten ){200}') AS whole_body FROM page;
-- with a simhash64 column in the corpus, the distances of all pairs (of any
-- method) between the rows' fingerprints
CREATE TABLE docs_fp AS SELECT d.*, (hashint4(id)::bigint # (hashint4(id + 100)::bigint << 32))::simhash64 AS fp FROM docs d;
UPDATE docs_fp SET fp = (SELECT fp FROM docs_fp WHERE id = 1) WHERE id IN (2, 3);
SELECT array(SELECT m[1] FROM regexp_matches(h, '<title>([0-9]+ bits: [1-9][0-9]*) pairs</title>', 'g') m) AS bars,
       array(SELECT d || ' bits: ' || count(*) FROM (
               SELECT DISTINCT r.new_id, r.matched_id, simhash_dist(a.fp, b.fp) AS d
               FROM rm r JOIN docs_fp a ON a.id = r.new_id JOIN docs_fp b ON b.id = r.matched_id) p
             GROUP BY d ORDER BY d) AS want,
       n(h, 'column fp') AS explained
FROM (SELECT textfp_report('docs_fp', 'rm') AS h) p;
SELECT err($$SELECT textfp_report('docs_fp', 'rm', fp_column => 'title')$$);
SELECT err($$SELECT textfp_report('docs_fp', 'rm', fp_column => 'nope')$$);
-- fewer parts: one method, no title/body/source columns, no cluster shown, an empty match table
SELECT n(h, '<h3 id="cluster-') AS clusters_shown, n(h, '<rect ') AS bars, n(h, 'pinyin_dna') AS pinyin
FROM (SELECT textfp_report('docs', 'rm', method => 'simhash') AS h) p;
SELECT n(h, '<div class="textfp-compare"') AS side_by_side, n(h, 'Original') AS titles, b.*
FROM (SELECT textfp_report('docs', 'rm', title_column => NULL, body_column => NULL, clusters => 0) AS h) p,
     balance(h) b WHERE b.opened <> b.closed;
SELECT textfp_create_match_table('empty_rm');
SELECT n(h, 'No matches recorded') AS none_recorded, n(h, 'No Hamming distances') AS no_histogram,
       n(h, 'No clusters') AS no_clusters
FROM (SELECT textfp_report('docs', 'empty_rm') AS h) p;

-- bad input
\set VERBOSITY terse
SELECT err($$SELECT textfp_report('docs', NULL)$$);
SELECT err($$SELECT textfp_report(NULL, 'rm')$$);
SELECT err($$SELECT textfp_report('docs', 'rm', title_column => 'nope')$$);
SELECT err($$SELECT textfp_report('docs', 'rm', clusters => -1)$$);
SELECT err($$SELECT textfp_report('docs', 'rm', id_column => 'title')$$);
SELECT err($$SELECT textfp_report('docs', 'docs')$$);
SELECT err($$SELECT * FROM textfp_match_clusters(NULL)$$);
SELECT err($$SELECT * FROM textfp_match_clusters('docs')$$);
SELECT err($$SELECT * FROM textfp_most_copied(NULL)$$);
SELECT err($$SELECT * FROM textfp_most_copied('rm', -1)$$);
SELECT err($$SELECT * FROM textfp_duplicates_by_day('rm', NULL, 'docs')$$);
SELECT err($$SELECT * FROM textfp_duplicates_by_day('rm', NULL, 'docs', 'nope')$$);
SELECT err($$SELECT * FROM textfp_duplicates_by_day(NULL)$$);
SELECT err($$SELECT * FROM textfp_duplicates_by_source('rm', 'docs', 'nope')$$);
SELECT err($$SELECT * FROM textfp_duplicates_by_source('rm', 'docs', NULL)$$);
\set VERBOSITY default

RESET search_path;
DROP SCHEMA reports_t CASCADE;
RESET client_min_messages;
RESET TimeZone;
