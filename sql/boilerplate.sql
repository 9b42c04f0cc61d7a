--
-- Boilerplate learned from the corpus: textfp_line_hashes() (golden values,
-- the normal form's folds), the textfp_boilerplate type's I/O, the builder
-- over a table with sites (min_docs, min_sites, min_site_docs),
-- textfp_strip_boilerplate(), textfp_match(a, b, boilerplate => ...) and
-- its overload resolution, and bad inputs with their SQLSTATEs.
--
CREATE SCHEMA boiler_t;
SET search_path = boiler_t, public;
\i sql/include/err.sql
\pset null '(null)'
SET client_min_messages = warning;

-- golden values: frozen forever (test/unit/test_boiler.c pins the same)
SELECT textfp_line_hashes('Hello, World!') AS hello,
       textfp_line_hashes('版權所有') AS copyright_zh;
-- distinct and sorted; blank and punctuation-only lines have no hash
SELECT textfp_line_hashes(E'b\na\n\n  ---  \r\nB\rA.\n') AS lines,
       textfp_line_hashes('') AS empty, textfp_line_hashes(E'\n\n') AS blank;

-- the variants of a template line are one line: case, digits, punctuation,
-- white space; full-width forms, traditional script, Chinese punctuation
SELECT v, textfp_line_hashes(v) = textfp_line_hashes('Copyright 2024 Example News. All rights reserved.') AS same
FROM (VALUES ('COPYRIGHT © 1999 example news -- all rights reserved'),
             ('Ｃｏｐｙｒｉｇｈｔ　２０１９　Ｅｘａｍｐｌｅ　Ｎｅｗｓ．　Ａｌｌ　ｒｉｇｈｔｓ　ｒｅｓｅｒｖｅｄ．'),
             ('  copyright 2024    example news all rights reserved  '),
             ('Copyright 2024 Example News. All rights reversed.'),
             ('Copyright 24 Example News. All rights reserved.')) t(v);
SELECT v, textfp_line_hashes(v) = textfp_line_hashes('版权所有，转载请注明出处。本文发布于2024年10月15日') AS same
FROM (VALUES ('版權所有，轉載請註明出處。本文發布於2023年11月30日'),
             ('版权所有 转载请注明出处 本文发布于２０２４年１０月０１日'),
             ('【版权所有】转载请注明出处！本文发布于1999年12月31日'),
             ('版权所有，转载请注明来源。本文发布于2024年10月15日')) t(v);

-- stripping: lines of the lexicon go with their breaks, the others stay
-- byte for byte (the variants above included)
CREATE TABLE lex AS SELECT textfp_boilerplate_of(
    textfp_line_hashes(E'Home | News | Sport | Weather\nCopyright 2024 Example News. All rights reserved.\n版权所有，转载请注明出处。本文发布于2024年10月15日')) AS lex;
SELECT textfp_boilerplate_size(lex) FROM lex;
SELECT textfp_strip_boilerplate(E'HOME · NEWS · SPORT · WEATHER\r\nThe river rose by two metres overnight.\n\nCOPYRIGHT © 1999 example news -- all rights reserved\nIt fell again on Sunday.', lex) AS en,
       textfp_strip_boilerplate(E'長江水位昨夜上漲兩米。\n版權所有，轉載請註明出處。本文發布於2023年11月30日\n周日水位回落。', lex) AS zh,
       textfp_strip_boilerplate(E'Home News Sport Weather\nCopyright 2000 Example News', lex) AS only_template,
       textfp_strip_boilerplate('', lex) AS empty,
       textfp_strip_boilerplate(E'Home News Sport Weather and more\n', lex) AS not_whole_line
FROM lex;
-- the empty lexicon keeps every text as it is
SELECT textfp_strip_boilerplate(E'Home | News\n\nx', textfp_boilerplate_of('{}')) = E'Home | News\n\nx' AS kept;

-- I/O: text form, upper-case input, any order, duplicates; binary round trip
SELECT lex::text AS text_form FROM lex;
SELECT textfp_boilerplate_hashes(lex) = textfp_boilerplate_hashes(lex::text::textfp_boilerplate) AS text_round_trip,
       textfp_boilerplate_hashes(('v1 lines ' || upper(substr(lex::text, 10)))::textfp_boilerplate) = textfp_boilerplate_hashes(lex) AS upper_case_input
FROM lex;
SELECT 'v1 lines 00000000000000020000000000000001000000000000000A0000000000000002'::textfp_boilerplate AS sorted,
       'v1 lines empty'::textfp_boilerplate AS empty,
       textfp_boilerplate_size('v1 lines empty') AS size0;
CREATE TABLE lex_io (l textfp_boilerplate);
INSERT INTO lex_io SELECT lex FROM lex;
\copy lex_io TO 'results/boilerplate_lexicon.copy' WITH (FORMAT binary)
CREATE TABLE lex_io2 (l textfp_boilerplate);
\copy lex_io2 FROM 'results/boilerplate_lexicon.copy' WITH (FORMAT binary)
SELECT a.l::text = b.l::text AS binary_round_trip FROM lex_io a, lex_io2 b;

-- bad inputs: NULL gives NULL (STRICT), the rest clear errors
SELECT textfp_line_hashes(NULL) AS h, textfp_strip_boilerplate(NULL, lex) AS s1,
       textfp_strip_boilerplate('x', NULL) AS s2, textfp_boilerplate_of(NULL) AS o,
       textfp_boilerplate_size(NULL) AS n
FROM lex;
SELECT q, err(q) FROM (VALUES
    ($$SELECT 'v2 lines empty'::textfp_boilerplate$$),
    ($$SELECT 'v1 paragraphs empty'::textfp_boilerplate$$),
    ($$SELECT ''::textfp_boilerplate$$),
    ($$SELECT 'v1 lines 0123'::textfp_boilerplate$$),
    ($$SELECT 'v1 lines 000000000000000g'::textfp_boilerplate$$),
    ($$SELECT 'v1 lines '::textfp_boilerplate$$),
    ($$SELECT textfp_boilerplate_of('{1,NULL}')$$),
    ($$SELECT textfp_boilerplate_of('{{1,2},{3,4}}')$$)) t(q);
-- a lexicon of another version in binary input (COPY BINARY of a version 2
-- value written by hand: header, one row, one field of 6 bytes)
\! printf 'PGCOPY\n\377\r\n\000\000\000\000\000\000\000\000\000\000\001\000\000\000\006\002\001\000\000\000\000\377\377' > results/boilerplate_v2.copy
CREATE TABLE lex_io3 (l textfp_boilerplate);
\set VERBOSITY sqlstate
\copy lex_io3 FROM 'results/boilerplate_v2.copy' WITH (FORMAT binary)
\set VERBOSITY default
\copy lex_io3 FROM 'results/boilerplate_v2.copy' WITH (FORMAT binary)

-- A corpus of two sites.  Site en: 12 articles (pool paragraphs) in one
-- English page template, whose date and view count vary; site zh: 12 in a
-- Chinese template, written in simplified or traditional script, with
-- full-width or ASCII digits (an article is one paragraph: the template is
-- most of a page); site copy: 3 rows repeating one en article each
-- (syndication: an article's lines are then in 2 rows).
CREATE TABLE pool (n int GENERATED ALWAYS AS IDENTITY, lang text DEFAULT 'en', line text);
\copy pool (line) FROM 'test/data/pool_en.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
CREATE TABLE para AS
SELECT row_number() OVER (ORDER BY n) AS k, line FROM pool
WHERE length(line) BETWEEN 250 AND 450 AND line !~ '[\\]';
CREATE TABLE pool_zh (n int GENERATED ALWAYS AS IDENTITY, line text);
\copy pool_zh (line) FROM 'test/data/pool_zh.txt' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02')
CREATE TABLE para_zh AS
SELECT row_number() OVER (ORDER BY n) AS k, line FROM pool_zh
WHERE octet_length(line) BETWEEN 250 AND 450 AND line !~ '[\\]';
CREATE TABLE docs (id int PRIMARY KEY, site text, body text);
INSERT INTO docs
SELECT i, 'en', concat_ws(E'\n',
    'Example News - Home | World | Business | Technology | Sport | Weather',
    'Posted on ' || (date '2024-01-01' + i * 17) || ' at ' || (8 + i % 10) || ':' || (10 + i * 7 % 50) || ' by the Example News desk',
    'Share this article: Facebook | Twitter | LinkedIn | E-mail',
    (SELECT line FROM para WHERE k = i),
    'This article has been read ' || (100 + i * 337) || ' times.',
    'Subscribe to our newsletter to get the best stories of the week in your inbox every Monday morning.',
    'Related stories: Markets rally after the central bank decision | Storm warnings for the coast',
    'Copyright ' || (2010 + i) || ' Example News Ltd. All rights reserved. Terms of use | Privacy policy | Contact us')
FROM generate_series(1, 12) i;
INSERT INTO docs
SELECT 100 + i, 'zh', concat_ws(E'\n',
    CASE WHEN i % 2 = 0 THEN '新闻网 首页 | 国内 | 国际 | 财经 | 科技 | 体育' ELSE '新聞網 首頁 | 國內 | 國際 | 財經 | 科技 | 體育' END,
    CASE WHEN i % 2 = 0 THEN '发布时间：2024年' || (1 + i % 12) || '月' || (1 + i) || '日 来源：新闻网'
         ELSE '發布時間：２０２３年' || translate((1 + i % 12)::text, '0123456789', '０１２３４５６７８９') || '月'
              || translate((1 + i)::text, '0123456789', '０１２３４５６７８９') || '日　來源：新聞網' END,
    (SELECT line FROM para_zh WHERE k = i),
    CASE WHEN i % 2 = 0 THEN '责任编辑：王小明　【打印本页】【关闭窗口】' ELSE '責任編輯：王小明 【打印本頁】【關閉窗口】' END,
    CASE WHEN i % 2 = 0 THEN '相关新闻：央行宣布降准 | 沿海地区发布台风预警 | 多地出台新政支持消费'
         ELSE '相關新聞：央行宣布降準 | 沿海地區發布颱風預警 | 多地出台新政支持消費' END,
    CASE WHEN i % 2 = 0 THEN '欢迎关注新闻网微信公众号，获取每日最新资讯和深度报道。'
         ELSE '歡迎關注新聞網微信公眾號，獲取每日最新資訊和深度報道。' END,
    CASE WHEN i % 2 = 0 THEN '联系我们：新闻网编辑部 电话：010-12345678 邮箱：news@example.cn'
         ELSE '聯繫我們：新聞網編輯部　電話：０１０－８７６５４３２１　郵箱：ｎｅｗｓ＠ｅｘａｍｐｌｅ．ｃｎ' END,
    CASE WHEN i % 2 = 0 THEN '版权所有，未经授权禁止转载。' ELSE '版權所有，未經授權禁止轉載！' END)
FROM generate_series(1, 12) i;
INSERT INTO docs
SELECT 200 + i, 'copy', (SELECT line FROM para WHERE k = i)
FROM generate_series(1, 3) i;
SELECT site, count(*) AS docs, min(length(body)) AS min_chars, max(length(body)) AS max_chars FROM docs GROUP BY 1 ORDER BY 1;

-- counting with plain SQL: the lines in the most documents
SELECT h.docs, h.sites, count(*) AS lines
FROM (SELECT l.h, count(*) AS docs, count(DISTINCT d.site) AS sites
      FROM docs d, unnest(textfp_line_hashes(d.body)) l(h) GROUP BY l.h) h
GROUP BY 1, 2 ORDER BY 1 DESC, 2 DESC;

-- the builder: min_docs 5 takes template lines only (the fixed lines of
-- both templates -- the variants of the Chinese ones are one line -- and
-- the dated lines whose digit counts recur in 5 documents); min_docs 2
-- takes the syndicated paragraphs as well, min_sites 2 only them (they are
-- the only lines of two sites), the same-site rule never
SELECT textfp_boilerplate_size(textfp_build_boilerplate('docs', 'body')) AS min5,
       textfp_boilerplate_size(textfp_build_boilerplate('docs', 'body', min_docs => 2)) AS min2,
       textfp_boilerplate_size(textfp_build_boilerplate('docs', 'body', 'site', min_docs => 2, min_sites => 2)) AS two_sites,
       textfp_boilerplate_size(textfp_build_boilerplate('docs', 'body', 'site', min_docs => 2, min_site_docs => 2)) AS same_site2,
       textfp_boilerplate_size(textfp_build_boilerplate('docs', 'body', 'site', min_docs => 5, min_site_docs => 5)) AS same_site5;
-- the same-site rule keeps the templates and leaves the syndicated paragraphs
-- (in 2 rows of 2 sites): the lexicon equals a plain-SQL count
SELECT textfp_boilerplate_hashes(textfp_build_boilerplate('docs', 'body', 'site', min_docs => 2, min_site_docs => 2))
     = (SELECT array_agg(h ORDER BY h) FROM (
          SELECT x.h FROM (SELECT d.site, l.h, count(*) AS n FROM docs d, unnest(textfp_line_hashes(d.body)) l(h) GROUP BY 1, 2) x
          GROUP BY x.h HAVING bool_or(x.n >= 2)) y) AS same_as_sql;
CREATE TABLE corpus_lex AS SELECT textfp_build_boilerplate('docs', 'body', 'site', min_docs => 5, min_site_docs => 5) AS lex;
-- an article page stripped: what is left is the article (the lines that
-- differ only in their digits -- date, view count -- are one line, and in
-- at least 5 documents: boilerplate too)
-- (but doc 2's count has 3 digits, as only doc 1's: not boilerplate)
SELECT d.id, left(l, 60) AS line_left FROM docs d, corpus_lex,
     LATERAL regexp_split_to_table(textfp_strip_boilerplate(d.body, lex), E'\n') WITH ORDINALITY AS x(l, o)
WHERE d.id IN (2, 3, 103) ORDER BY d.id, x.o;
SELECT (SELECT textfp_strip_boilerplate(body, lex) FROM docs WHERE id = 3)
         = (SELECT line FROM para WHERE k = 3) || E'\n' AS en_article_left,
       (SELECT textfp_strip_boilerplate(body, lex) FROM docs WHERE id = 103)
         = (SELECT line FROM para_zh WHERE k = 3) || E'\n' AS zh_article_left
FROM corpus_lex;
SELECT site, count(*) AS docs, sum(length(body)) AS chars, sum(length(textfp_strip_boilerplate(body, lex))) AS stripped,
       count(*) FILTER (WHERE strpos(textfp_strip_boilerplate(body, lex),
                                     (SELECT line FROM para WHERE k = id % 100)) > 0
                           OR strpos(textfp_strip_boilerplate(body, lex),
                                     (SELECT line FROM para_zh WHERE k = id % 100)) > 0) AS article_kept
FROM docs, corpus_lex GROUP BY 1 ORDER BY 1;

-- builder bad inputs
SELECT q, err(q) FROM (VALUES
    ($$SELECT textfp_build_boilerplate(NULL, 'body')$$),
    ($$SELECT textfp_build_boilerplate('docs', NULL)$$),
    ($$SELECT textfp_build_boilerplate('docs', 'body', min_docs => 1)$$),
    ($$SELECT textfp_build_boilerplate('docs', 'body', min_docs => NULL)$$),
    ($$SELECT textfp_build_boilerplate('docs', 'body', 'site', min_sites => 0)$$),
    ($$SELECT textfp_build_boilerplate('docs', 'body', min_sites => 2)$$),
    ($$SELECT textfp_build_boilerplate('docs', 'nobody')$$),
    ($$SELECT textfp_build_boilerplate('docs', 'body', 'nosite')$$),
    ($$SELECT textfp_build_boilerplate('nodocs', 'body')$$)) t(q);
-- an empty table gives the empty lexicon
CREATE TABLE nodocs (body text);
SELECT textfp_build_boilerplate('nodocs', 'body')::text AS empty_corpus;

-- textfp_match: two different articles in the same template are a copy
-- without the lexicon (the template is most of each page) and not with it;
-- an article and its syndicated copy (another site, no template) are a
-- copy both ways; so are two Chinese articles in the two scripts of their
-- template, and the same Chinese article in the template and bare
CREATE TABLE pairs (n int, kind text, copy boolean, a text, b text);
INSERT INTO pairs
SELECT 1, 'same template, other article (en)', false, x.body, y.body FROM docs x, docs y WHERE x.id = 1 AND y.id = 2
UNION ALL SELECT 2, 'same template, other article (en)', false, x.body, y.body FROM docs x, docs y WHERE x.id = 5 AND y.id = 9
UNION ALL SELECT 3, 'same template, other article (zh)', false, x.body, y.body FROM docs x, docs y WHERE x.id = 101 AND y.id = 102
UNION ALL SELECT 4, 'article and its syndicated copy', true, x.body, y.body FROM docs x, docs y WHERE x.id = 1 AND y.id = 201
UNION ALL SELECT 5, 'article bare and in the template (zh)', true, x.body,
    (SELECT line FROM para_zh WHERE k = 1) FROM docs x WHERE x.id = 101
UNION ALL SELECT 6, 'article in its template, as a page', true,
    '<!DOCTYPE html><html><body><nav>Example News - Home | World | Business | Technology | Sport | Weather</nav><article><p>'
    || replace(x.body, E'\n', '</p><p>') || '</p></article></body></html>', y.body
    FROM docs x, docs y WHERE x.id = 3 AND y.id = 203;
SELECT p.n, p.kind, p.copy, m.verdict AS plain, round(m.score::numeric, 3) AS plain_score,
       s.verdict AS with_lexicon, round(s.score::numeric, 3) AS score, s.html_a, s.html_b
FROM pairs p CROSS JOIN corpus_lex l,
     LATERAL textfp_match(p.a, p.b) m, LATERAL textfp_match(p.a, p.b, boilerplate => l.lex) s
ORDER BY p.n;
-- every pair of articles of a site (two different articles in the same
-- template): copies by the plain verdict, and by the verdict with the lexicon
SELECT x.site, count(*) AS pairs,
       count(*) FILTER (WHERE (textfp_match(x.body, y.body)).verdict) AS plain_copies,
       count(*) FILTER (WHERE (textfp_match(x.body, y.body, l.lex)).verdict) AS copies_with_lexicon
FROM docs x JOIN docs y ON x.site = y.site AND x.id < y.id, corpus_lex l
WHERE x.site <> 'copy' GROUP BY 1 ORDER BY 1;
-- the same verdict as textfp_match of the stripped texts
SELECT count(*) FILTER (WHERE (textfp_match(p.a, p.b, l.lex)).score
                              = (textfp_match(textfp_strip_boilerplate(p.a, l.lex), textfp_strip_boilerplate(p.b, l.lex))).score) AS same_score
FROM pairs p, corpus_lex l WHERE p.n <> 6;
-- a text that strips to nothing is compared whole
SELECT (textfp_match(a, a, lex)).verdict AS template_only_is_itself
FROM (SELECT E'Example News - Home | World | Business | Technology | Sport | Weather\nShare this article: Facebook | Twitter | LinkedIn | E-mail' AS a) t, corpus_lex;

-- overload resolution: without a lexicon the original (4 arguments),
-- with one the overload, by name or in third place; the plan's output
-- shows the call with its defaults filled in
CREATE TABLE t (x text, m text);
INSERT INTO t VALUES ('a b c', 'never');
CREATE FUNCTION which(call text) RETURNS text LANGUAGE plpgsql AS $$
DECLARE r text;
BEGIN
  FOR r IN EXECUTE 'EXPLAIN (VERBOSE, COSTS OFF) SELECT ' || call || ' FROM t, corpus_lex l' LOOP
    IF r ~ 'Output' THEN RETURN regexp_replace(r, '^\s*Output:\s*', ''); END IF;
  END LOOP;
  RETURN NULL;
EXCEPTION WHEN OTHERS THEN
  RETURN SQLSTATE || ': ' || SQLERRM;
END $$;
SELECT call, which(call) FROM (VALUES
 ('textfp_match(t.x, t.x)'),
 ($$textfp_match(t.x, t.x, 'auto')$$),
 ('textfp_match(t.x, t.x, t.m)'),
 ($$textfp_match(t.x, t.x, 'never', 1)$$),
 ('textfp_match(t.x, t.x, model => 1)'),
 ($$textfp_match(t.x, t.x, html => 'never')$$),
 ('textfp_match(t.x, t.x, NULL)'),
 ('textfp_match(t.x, t.x, boilerplate => l.lex)'),
 ('textfp_match(t.x, t.x, l.lex)'),
 ($$textfp_match(t.x, t.x, html => 'never', boilerplate => l.lex)$$),
 ($$textfp_match(t.x, t.x, l.lex, 'always', 1)$$),
 ('textfp_match(t.x, t.x, boilerplate => l.lex, model => 1)'),
 ($$textfp_match(t.x, t.x, 'v1 lines empty')$$)) c(call);
-- bad values through the overload: the original's errors
SELECT q, err(q) FROM (VALUES
    ($$SELECT textfp_match('a', 'b', 'v1 lines empty'::textfp_boilerplate, 'sometimes')$$),
    ($$SELECT textfp_match('a', 'b', 'v1 lines empty'::textfp_boilerplate, model => 99)$$)) t(q);

-- the recipe for fingerprint columns of the stripped text (a generated
-- column cannot read a table): 1. the lexicon as a literal in the
-- expression, 2. a trigger reading the lexicon table; both give the
-- fingerprint of the stripped text
SELECT format('ALTER TABLE docs ADD COLUMN fp_clean simhash64 GENERATED ALWAYS AS '
              '(simhash(textfp_strip_boilerplate(body, %L::textfp_boilerplate))) STORED', lex::text)
FROM corpus_lex \gexec
ALTER TABLE docs ADD COLUMN fp_trig simhash64;
CREATE FUNCTION docs_fp() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.fp_trig := simhash(textfp_strip_boilerplate(NEW.body, (SELECT lex FROM corpus_lex)));
  RETURN NEW;
END $$;
CREATE TRIGGER docs_fp BEFORE INSERT OR UPDATE OF body ON docs FOR EACH ROW EXECUTE FUNCTION docs_fp();
UPDATE docs SET body = body;
SELECT count(*) AS docs, count(*) FILTER (WHERE d.fp_clean = d.fp_trig) AS same,
       count(*) FILTER (WHERE d.fp_clean = simhash(textfp_strip_boilerplate(d.body, l.lex))) AS as_stripped
FROM docs d, corpus_lex l;
-- same-template pages: their fingerprints are near, those of the stripped
-- pages are not (mean Hamming distance of the pairs of a site)
SELECT x.site, round(avg(simhash(x.body) <-> simhash(y.body)), 1) AS page_bits,
       round(avg(x.fp_clean <-> y.fp_clean), 1) AS stripped_bits
FROM docs x JOIN docs y ON x.site = y.site AND x.id < y.id WHERE x.site <> 'copy' GROUP BY 1 ORDER BY 1;

-- textfp_check_arrivals: the textfp_match method with and without the
-- lexicon, verifying the candidates of the pages' simhash (radius 20)
ALTER TABLE docs ADD COLUMN fp simhash64 GENERATED ALWAYS AS (simhash(body)) STORED;
SELECT textfp_create_match_table('boiler_t.m_plain'), textfp_create_match_table('boiler_t.m_lex');
SELECT 'without' AS lexicon, method, rows_checked, matches_found FROM textfp_check_arrivals(NULL, 'docs', 'm_plain',
    methods => '{simhash,textfp_match}', simhash_column => 'fp', radius => 20, text_column => 'body')
UNION ALL
SELECT 'with', method, rows_checked, matches_found FROM textfp_check_arrivals(NULL, 'docs', 'm_lex',
    methods => '{simhash,textfp_match}', simhash_column => 'fp', radius => 20, text_column => 'body',
    boilerplate => (SELECT lex FROM corpus_lex));
-- the pairs textfp_match confirmed with the lexicon: the syndicated copies only
SELECT m.new_id, m.matched_id, round(m.similarity::numeric, 3) AS score
FROM m_lex m WHERE m.method = 'textfp_match' ORDER BY 1, 2;
-- the report strips the passages it shows side by side
SELECT strpos(r, 'Subscribe to our newsletter') > 0 AS template_shown
FROM (SELECT textfp_report('docs', 'm_plain', title_column => NULL, method => 'textfp_match', clusters => 1) AS r) x;
SELECT strpos(r, 'Subscribe to our newsletter') > 0 AS template_shown
FROM (SELECT textfp_report('docs', 'm_plain', title_column => NULL, method => 'textfp_match', clusters => 1,
                           boilerplate => (SELECT lex FROM corpus_lex)) AS r) x;

DROP SCHEMA boiler_t CASCADE;
