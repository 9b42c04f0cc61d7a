--
-- html_text(): the text of HTML documents.  Hand examples of every rule,
-- options, bad input; a Chinese page whose meta declares GBK (the text is
-- what the database holds, the declaration is ignored); the same results in
-- an EUC_CN database; and real pages of Debian's manuals
-- (test/data/html_pages.tsv, made by tools/make_html_samples.py) against
-- the text tools/make_corpus.py extracts from them, with their outputs
-- pinned (the function is stable forever: a change is a new version).
--
\i sql/include/err.sql
\pset null '(null)'
-- references, white space, paragraphs
SELECT html_text('<p>Fish &amp; chips &lt;3 &copy 2024 &euro; &#x4E2D;&#25991; &#128; &#0; &notit; &amp=</p>');
SELECT html_text(E'<p>one\n   two</p><p>three<br>four<br><br>five</p><div>six<div>seven</div></div>');
SELECT html_text(E'<p>中文\n文本 and English\ntext，\n好的</p>') AS cjk_line_breaks;
-- scripts, styles, comments, raw text, head
SELECT html_text($$<!DOCTYPE html><html><head><title>Title</title>
<style>p { color: red }</style><script>if (a < b) document.write("</p><p>no");</script>
</head><body><!-- <p>commented</p> --><p>Body text</p>
<script><!-- document.write('<script>x</script>'); --></script><noscript>enable JS</noscript>
<template><p>inert</p></template><p>end</p></body></html>$$);
-- lists, tables, pre
SELECT html_text(E'<ul><li>one<li>two<ol><li>two.a</ol><li>three</ul><dl><dt>term<dd>definition</dl>');
SELECT html_text('<table><caption>Prices</caption><tr><th>Item<th>Price<tr><td>Tea<td>3.50<tr><td>Cake<td><p>4</p><p>(2 pieces)</p></table>');
SELECT html_text(E'<pre>\n  int x;\n    return 0;  \n</pre><p>after pre</p>');
-- broken markup
SELECT html_text('<P CLASS=intro>Upper <B>case <I>tags</P>and <p title="a > b" data-x=''y'' z=w>attributes</p><div><span>mis</div>nested</span>');
SELECT html_text('<p>cut <a href="x') AS cut_attribute, html_text('a < b and c<') AS lone_lt,
       html_text('<svg><text>drawn</text></svg><p>after svg') AS svg;
-- boilerplate: navigation, header, ads, forms, footer, hidden parts, links
\set page '<html><head><title>News - Site</title><meta charset="gbk"></head><body><header><a href="/">站点首页</a><nav><ul><li><a href="/n">新闻</a><li><a href="/s">体育</a></ul></nav></header><div class="ad-banner">广告：全场五折，立即抢购！</div><main><article><h1>统计局发布前三季度数据</h1><p>据新华社北京电，国家统计局今天发布数据显示，前三季度国内生产总值同比增长百分之五点二。</p><p hidden>隐藏的内容</p><p>专家表示，<a href="/x">经济</a>运行总体平稳，稳中有进。</p><aside>相关阅读</aside></article><section class="related"><h3>相关新闻</h3><ul><li><a href="/1">另一条新闻标题一</a><li><a href="/2">另一条新闻标题二</a></ul></section></main><form action="/search"><input name="q"><button>搜索</button></form><footer>版权所有 &copy; 2024</footer></body></html>'
SELECT html_text(:'page') AS boilerplate_removed;
SELECT html_text(:'page', boilerplate => false) AS everything;
SELECT html_text(:'page', main_content => false) AS without_main_content;
SELECT html_text('<p>a <img src="x.png" alt="a picture &amp; more"> b</p>', alt_text => true) AS alt,
       html_text('<p>a <img src="x.png" alt="a picture"> b</p>') AS no_alt;
SELECT html_text('<div><a href="/">Home</a> | <a href="/about">About</a> | <a href="/contact">Contact</a></div><p>This paragraph is the content of the page, with <a href="/x">one link</a>.</p>') AS link_density;
-- NULL, empty, text without markup, bad parameters
SELECT html_text(NULL) AS null_in, html_text('') AS empty, html_text('   ') AS blank,
       html_text('plain text, no markup') AS plain;
SELECT err($$SELECT html_text('<p>x', version => 2)$$) AS version_2,
       err($$SELECT html_text('<p>x', version => 0)$$) AS version_0;
-- fingerprints of pages: the HTML copy of a text has the text's fingerprint
SELECT simhash(html_text(:'page')) = simhash(html_text(:'page', boilerplate => true, main_content => true, alt_text => false, version => 1)) AS defaults,
       simhash_dist(simhash(html_text(:'page')),
                    simhash(E'统计局发布前三季度数据\n据新华社北京电，国家统计局今天发布数据显示，前三季度国内生产总值同比增长百分之五点二。\n专家表示，经济运行总体平稳，稳中有进。')) AS bits_from_plain_text;
-- in a generated column
CREATE TABLE pages (id int PRIMARY KEY, html text,
                    fp simhash64 GENERATED ALWAYS AS (simhash(html_text(html))) STORED);
INSERT INTO pages VALUES (1, :'page'), (2, '<p>x</p>');
SELECT id, fp FROM pages ORDER BY id;
-- real pages: how much of make_corpus.py's text html_text() finds (share
-- of its distinct 5-gram/3-word shingles), and how much html_text() adds
CREATE TABLE real_pages (name text, html text, corpus_text text);
\copy real_pages FROM 'test/data/html_pages.tsv'
SELECT name, octet_length(html) AS html_bytes,
       round((SELECT count(*) FROM unnest(shingles(corpus_text)) s
              WHERE s = ANY (shingles(html_text(html))))::numeric
             / cardinality(shingles(corpus_text)), 3) AS found,
       round(1 - (SELECT count(*) FROM unnest(shingles(html_text(html))) s
                  WHERE s = ANY (shingles(corpus_text)))::numeric
             / cardinality(shingles(html_text(html))), 3) AS added,
       md5(html_text(html)) AS pinned,
       md5(html_text(html, boilerplate => false)) AS pinned_all
FROM real_pages ORDER BY name;
SELECT left(html_text(html), 300) AS start FROM real_pages WHERE name LIKE '%checkit%';
-- the same results in an EUC_CN database (output converted back; a
-- reference the encoding cannot represent becomes '?')
\set regdb :DBNAME
CREATE FUNCTION euc_cn_ok(t text) RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  PERFORM convert_to(t, 'EUC_CN');
  RETURN true;
EXCEPTION WHEN untranslatable_character THEN
  RETURN false;
END $$;
-- the pages as EUC_CN can hold them (other characters written as
-- references), and their texts with what EUC_CN cannot hold as '?'
CREATE FUNCTION euc_cn_map(t text, other text) RETURNS text LANGUAGE sql AS $$
  SELECT string_agg(CASE WHEN ascii(c) < 128 OR euc_cn_ok(c) THEN c
                         ELSE coalesce(other, '&#' || ascii(c) || ';') END, '' ORDER BY i)
  FROM regexp_split_to_table(t, '') WITH ORDINALITY AS x(c, i) $$;
CREATE TABLE enc_src AS
SELECT name, euc_cn_map(html, NULL) AS html
FROM (SELECT name, html FROM real_pages UNION ALL SELECT 'page', :'page') p;
\copy (SELECT name, html, euc_cn_map(html_text(html), '?'), euc_cn_map(html_text(html, boilerplate => false), '?') FROM enc_src) TO 'results/html_text_utf8.tsv'
CREATE DATABASE textfp_html_euc_cn ENCODING 'EUC_CN' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
\c textfp_html_euc_cn
SET client_encoding = 'UTF8';
CREATE EXTENSION textfp;
CREATE TABLE g (name text, html text, t text, t_all text);
\copy g FROM 'results/html_text_utf8.tsv'
SELECT current_setting('server_encoding') AS enc, count(*) AS pages,
       count(*) FILTER (WHERE html_text(html) = t AND html_text(html, boilerplate => false) = t_all) AS equal
FROM g;
SELECT html_text('<p>&#x1F600; &eacute; &#x4E2D; &hearts;</p>') AS unrepresentable;
\c :regdb
DROP DATABASE textfp_html_euc_cn;
