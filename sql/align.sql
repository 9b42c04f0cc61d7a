--
-- Which passages were copied: textfp_align() (the matching passages, their
-- positions checked with substr()), textfp_copied_share(),
-- textfp_compare_html() and textfp_compare_css(); bad parameters, limits,
-- cancellation; the same passages in EUC_CN, SQL_ASCII and EUC_JIS_2004
-- databases.
--
\i sql/include/err.sql

-- each passage with the text substr() takes from both sides
CREATE FUNCTION show(a text, b text, min_length int4 DEFAULT 16, seed int4 DEFAULT 4,
                     max_gap int4 DEFAULT 12, fold_han boolean DEFAULT true)
RETURNS TABLE(n int4, a_pos text, b_pos text, matched int4, sim numeric,
              a_text text, b_text text)
LANGUAGE sql AS $$
  SELECT p.passage, p.a_start || '+' || p.a_length, p.b_start || '+' || p.b_length,
         p.matched, round(p.similarity::numeric, 3),
         substr(a, p.a_start, p.a_length), substr(b, p.b_start, p.b_length)
  FROM textfp_align(a, b, min_length, seed, max_gap, fold_han => fold_han) p
$$;

CREATE TABLE ex (name text PRIMARY KEY, a text, b text);
INSERT INTO ex VALUES
-- an exact copy inside other text
('zh exact copy',
 '国家统计局今天发布数据显示，前三季度国内生产总值同比增长百分之五点二。专家认为，经济回升向好的态势进一步巩固。',
 '据本报讯，国家统计局今天发布数据显示，前三季度国内生产总值同比增长百分之五点二。专家认为，经济回升向好的态势进一步巩固。（记者 张三）'),
-- typos: 椐 for 据, 做 for 作, a dropped 的
('zh typos',
 '国家统计局今天发布数据显示，前三季度国内生产总值同比增长百分之五点二。专家认为，消费对经济增长的拉动作用明显增强。',
 '国家统计局今天发布数椐显示，前三季度国内生产总值同比增长百分之五点二。专家认为，消费对经济增长拉动做用明显增强。'),
-- a sentence inserted in the middle: two passages
('zh inserted sentence',
 '国家统计局今天发布数据显示，前三季度国内生产总值同比增长百分之五点二。下一步要继续加大宏观政策调控力度，推动经济持续健康发展。',
 '国家统计局今天发布数据显示，前三季度国内生产总值同比增长百分之五点二。今天上午，市气象台发布暴雨橙色预警信号。下一步要继续加大宏观政策调控力度，推动经济持续健康发展。'),
-- a sentence deleted: two passages
('zh deleted sentence',
 '国家统计局今天发布数据显示，前三季度国内生产总值同比增长百分之五点二。专家认为，经济回升向好的态势进一步巩固。下一步要继续加大宏观政策调控力度，推动经济持续健康发展。',
 '国家统计局今天发布数据显示，前三季度国内生产总值同比增长百分之五点二。下一步要继续加大宏观政策调控力度，推动经济持续健康发展。'),
-- paragraphs reordered: one passage per run in the same order
('zh reordered paragraphs',
 E'第一段：国家统计局今天发布数据显示，前三季度国内生产总值同比增长。\n第二段：专家认为，经济回升向好的态势进一步巩固，消费拉动作用增强。\n第三段：下一步要继续加大宏观政策调控力度，推动经济持续健康发展。',
 E'第三段：下一步要继续加大宏观政策调控力度，推动经济持续健康发展。\n第一段：国家统计局今天发布数据显示，前三季度国内生产总值同比增长。\n第二段：专家认为，经济回升向好的态势进一步巩固，消费拉动作用增强。'),
-- traditional script (and full-width digits)
('zh traditional copy',
 '国家统计局今天发布数据显示，前三季度国内生产总值同比增长百分之五点二，2023年经济回升。',
 '國家統計局今天發布數據顯示，前三季度國內生產總值同比增長百分之五點二，２０２３年經濟回升。'),
-- English: case, punctuation and spacing; a changed, an inserted, a deleted word
('en edited copy',
 'The committee reviewed the annual budget and approved the new spending plan for schools. Several members raised concerns about the rising cost of transport in rural districts.',
 'THE COMMITTEE reviewed -- the yearly budget, and approved the new spending plan for all schools!  Several members raised concerns about the cost of transport in rural districts.'),
-- a partial copy: one paragraph of a, embedded in other text
('en partial copy',
 E'Heavy rain is expected across the northern coast tonight.\nThe committee reviewed the annual budget and approved the new spending plan for schools.\nA final report will be published next month.',
 E'In other news, the city council met on Tuesday. The committee reviewed the annual budget and approved the new spending plan for schools. Reporters were not allowed in the room, and no statement was issued.'),
-- the same paragraph twice in b: matched once (passages are one to one)
('repeated in b',
 'Several members raised concerns about the rising cost of transport in rural districts.',
 'Several members raised concerns about the rising cost of transport in rural districts. And again: several members raised concerns about the rising cost of transport in rural districts.'),
-- unrelated texts, and a short shared phrase below min_length
('unrelated',
 '今天上午，市气象台发布暴雨橙色预警信号，提醒市民注意防范强降雨天气。',
 'The committee reviewed the annual budget and approved the new spending plan for schools.'),
('short phrase',
 'Heavy rain is expected across the northern coast tonight, the committee said.',
 'The committee reviewed the annual budget; heavy rain is expected.'),
('empty', '', ''),
('punctuation only', '，。！？ ... --- ', '，。！？ ... --- ');

SELECT e.name, s.* FROM ex e, show(e.a, e.b) s ORDER BY e.name, s.n;

-- substr() of every passage: the passage's first and last units are in it
-- whole (nothing cut inside a character), and every example has the
-- number of passages worked out by hand
SELECT e.name, count(p.*) AS passages,
       bool_and(p.a_start >= 1 AND p.a_start + p.a_length - 1 <= length(e.a)
                AND p.b_start >= 1 AND p.b_start + p.b_length - 1 <= length(e.b)) AS within
FROM ex e LEFT JOIN LATERAL textfp_align(e.a, e.b) p ON true
GROUP BY e.name ORDER BY e.name;

-- how much of b was copied from a (and of a from b)
SELECT name, round(textfp_copied_share(a, b)::numeric, 3) AS share_of_b_from_a,
       round(textfp_copied_share(b, a)::numeric, 3) AS share_of_a_from_b
FROM ex ORDER BY name;

-- options: fold_han off keeps the scripts apart; min_length, seed, max_gap
SELECT * FROM show((SELECT a FROM ex WHERE name = 'zh traditional copy'),
                   (SELECT b FROM ex WHERE name = 'zh traditional copy'), fold_han => false);
SELECT * FROM show('国家统计局今天发布数据显示。', '据报道，国家统计局今天发布数据显示。', min_length => 12);
SELECT * FROM show('国家统计局今天发布数据显示前三季度国内生产总值同比增长',
                   '国家统计局今天发布数据显示啊啊啊啊啊前三季度国内生产总值同比增长', 8, 4, 4);
SELECT * FROM show('国家统计局今天发布数据显示前三季度国内生产总值同比增长',
                   '国家统计局今天发布数据显示啊啊啊啊啊前三季度国内生产总值同比增长', 8, 4, 5);
SELECT count(*) AS seed_5 FROM textfp_align('一二三四五六七八九十甲乙丙丁戊己庚辛壬癸',
                                            '一二三四X六七八九X甲乙丙丁X己庚辛壬X', 10, 5, 8);
SELECT * FROM show('一二三四五六七八九十甲乙丙丁戊己庚辛壬癸', '一二三四X六七八九X甲乙丙丁X己庚辛壬X', 10, 4, 8);

-- NULLs: strict
SELECT count(*) AS null_rows FROM textfp_align(NULL, 'a');
SELECT textfp_copied_share('a', NULL) IS NULL AS null_share,
       textfp_compare_html(NULL, 'a') IS NULL AS null_html,
       textfp_align IS NULL AS null_option
FROM (SELECT count(*) FROM textfp_align('a', 'b', NULL)) t(textfp_align);

-- the same input gives the same output, in any order of rows
SELECT count(DISTINCT (SELECT string_agg(t::text, ';') FROM textfp_align(e.a, e.b) t)) = 1 AS stable
FROM ex e, generate_series(1, 3) WHERE e.name = 'zh reordered paragraphs';

-- bad parameters (22023) and impossible sizes (54000)
SELECT err($$SELECT * FROM textfp_align('a', 'b', min_length => 0)$$);
SELECT err($$SELECT * FROM textfp_align('a', 'b', min_length => 1000000001)$$);
SELECT err($$SELECT * FROM textfp_align('a', 'b', seed => 0)$$);
SELECT err($$SELECT * FROM textfp_align('a', 'b', seed => 33)$$);
SELECT err($$SELECT textfp_copied_share('a', 'b', max_gap => -1)$$);
SELECT err($$SELECT textfp_copied_share('a', 'b', max_gap => 65)$$);
SELECT err($$SELECT textfp_compare_html('a', 'b', context => -2)$$);
SELECT err($$SELECT textfp_copied_share(repeat('x ', 4194305), 'x')$$);
SELECT textfp_copied_share(repeat('x ', 4194304), 'x') AS at_the_limit;

-- HTML: a fragment with the passages marked on both sides, escaped text
SELECT textfp_compare_html('<b>Tom & Jerry</b> say: ' || a, 'Intro. ' || b,
                           a_title => 'original <1>', b_title => 'copy "2"')
FROM ex WHERE name = 'en edited copy';
-- the page: doctype, style sheet, the fragment
WITH h AS (SELECT textfp_compare_html(a, b, page => true) AS page,
                  textfp_compare_html(a, b) AS frag
           FROM ex WHERE name = 'zh reordered paragraphs')
SELECT left(page, 15) AS doctype,
       position(textfp_compare_css() IN page) > 0 AS has_css,
       position(frag IN page) > 0 AS has_fragment,
       right(page, 16) = E'</body>\n</html>\n' AS closed,
       (length(frag) - length(replace(frag, '<mark ', ''))) / 6 AS marks
FROM h;
-- context: only the passages and a few characters around them
SELECT textfp_compare_html(repeat('无关的内容。', 50) || '国家统计局今天发布数据显示，前三季度国内生产总值同比增长。' || repeat('其他文字。', 50),
                           repeat('另一些话。', 40) || '国家统计局今天发布数据显示，前三季度国内生产总值同比增长。' || repeat('结尾。', 40),
                           context => 6);
SELECT length(textfp_compare_css()) > 500 AS css,
       textfp_compare_css() LIKE '%.textfp-compare .textfp-c7{%' AS scoped;

-- cancellation: the statement timeout stops a long alignment
CREATE TABLE big AS SELECT repeat('中华人民共和国国家统计局发布数据', 100000) AS t;
SET statement_timeout = '100ms';
SELECT textfp_copied_share(t, t) FROM big;
RESET statement_timeout;
DROP TABLE big;

-- other encodings: the same passages, positions in the database's characters
\set regdb :DBNAME
\i sql/include/representable.sql
CREATE VIEW ex_euc_cn AS
  SELECT * FROM ex WHERE representable(a, 'EUC_CN') AND representable(b, 'EUC_CN');
SELECT string_agg(name, ', ' ORDER BY name) AS not_in_euc_cn
FROM ex WHERE name NOT IN (SELECT name FROM ex_euc_cn);
\copy (SELECT * FROM ex_euc_cn) TO 'results/align_ex.tsv'
\copy (SELECT e.name, p.* FROM ex_euc_cn e, textfp_align(e.a, e.b) p) TO 'results/align_expected.tsv'
CREATE DATABASE textfp_align_euc_cn ENCODING 'EUC_CN' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
\c textfp_align_euc_cn
SET client_encoding = 'UTF8';
\i sql/include/align_compare.sql
SELECT e.name, p.passage, substr(e.b, p.b_start, p.b_length) AS b_text
FROM ex e, textfp_align(e.a, e.b) p WHERE e.name = 'zh typos';
\c :regdb

-- SQL_ASCII: positions are bytes, as substr() counts them there: those of
-- the UTF8 database's passages
\copy (SELECT * FROM ex) TO 'results/align_ex.tsv'
\copy (SELECT e.name, p.passage, octet_length(substr(e.a, 1, p.a_start - 1)) + 1, octet_length(substr(e.a, p.a_start, p.a_length)), octet_length(substr(e.b, 1, p.b_start - 1)) + 1, octet_length(substr(e.b, p.b_start, p.b_length)), p.matched, p.similarity FROM ex e, textfp_align(e.a, e.b) p) TO 'results/align_expected.tsv'
CREATE DATABASE textfp_align_sql_ascii ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
\c textfp_align_sql_ascii
SET client_encoding = 'SQL_ASCII';
\i sql/include/align_compare.sql
-- bytes that are not UTF-8 are separators, and U+FFFD in the HTML
SELECT * FROM textfp_align(E'\377 the committee reviewed the annual budget and approved it',
                           E'the committee \377 reviewed the annual budget and approved it');
SELECT position('&#xFFFD;' IN textfp_compare_html(E'abc \377 def', 'x')) > 0 AS replaced;
\c :regdb

-- EUC_JIS_2004: a kana with the semi-voiced mark is one character there,
-- two code points in Unicode; positions are still the database's characters
CREATE DATABASE textfp_align_jis ENCODING 'EUC_JIS_2004' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
\c textfp_align_jis
SET client_encoding = 'UTF8';
CREATE EXTENSION textfp;
SELECT length('か゚き゚') AS chars_of_two_semivoiced_kana;
SELECT p.*, substr(a, p.a_start, p.a_length) AS a_text, substr(b, p.b_start, p.b_length) AS b_text
FROM (VALUES ('か゚き゚く゚ これは日本語の文章で、カタカナとひらがなが混ざっています。',
              'はい、か゚き゚く゚ これは日本語の文章で、カタカナとひらがなが混ざっています。')) v(a, b),
     textfp_align(a, b) p;
\c :regdb
DROP DATABASE textfp_align_euc_cn;
DROP DATABASE textfp_align_sql_ascii;
DROP DATABASE textfp_align_jis;
DROP VIEW ex_euc_cn;
DROP FUNCTION representable(text, name);
DROP FUNCTION show(text, text, int4, int4, int4, boolean);
DROP TABLE ex;
