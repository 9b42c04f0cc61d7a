--
-- pinyin(), pinyin_initials(), pinyin_dna(): conversions, golden values,
-- parameters and errors.
--
-- known conversions
SELECT pinyin_initials('中华人民共和国') AS prc, pinyin('中华人民共和国') AS prc_full;
SELECT t, pinyin(t), pinyin_initials(t)
FROM unnest(ARRAY['重庆', '会计', '银行行长', '长大', '长城很长', '重新', '重要',
                  '还是', '还款', '音乐', '快乐', '角色', '银行', '行走', '调整', '调查',
                  '西藏', '收藏', '便宜', '方便', '厦门', '大厦', '佛教', '仿佛']) t;
-- traditional = simplified where the pronunciation is the same
SELECT pinyin('中華人民共和國') = pinyin('中华人民共和国') AS prc,
       pinyin('會計師在銀行') = pinyin('会计师在银行') AS bank,
       pinyin('據新華社北京電，國家統計局今天發布數據顯示') =
       pinyin('据新华社北京电，国家统计局今天发布数据显示') AS news;
-- non-Chinese text passes through, folded; punctuation separates
-- (unaligned: psql before 15 counts an emoji one column wide, not two)
\pset format unaligned
SELECT t, pinyin(t), pinyin_initials(t)
FROM (VALUES ('Hello, 世界!'), ('ＰｏｓｔｇｒｅＳＱＬ１５'), ('Café crème'),
             ('2024年10月'), ('東京都はひらがな'), ('Straße'), ('😀中文😀')) v(t);
\pset format aligned
-- empty and separator-only input
SELECT pinyin('') AS empty, pinyin_initials('') AS empty_i,
       pinyin('，。！？ ') AS punct, pinyin_dna('') AS dna_empty,
       pinyin_dna('hello world') AS dna_latin;
SELECT pinyin(NULL) IS NULL AS strict;
-- golden DNAs (stable forever: a change is a new algorithm version)
SELECT pinyin_dna('中文') AS short, pinyin_dna('中华人民共和国', 8, 50, 8) AS prc8;
SELECT pinyin_dna(body) AS dna, pinyin_dna(body, window_length => 16, overlap => 75, levels => 2) AS dna16,
       pinyin_dna(body, 32, content_defined => false) AS fixed32
FROM (VALUES ('据新华社北京电，国家统计局今天发布数据显示，今年前三季度国内生产总值同比增长百分之五点二。'
              '本章以不同的视角回到之前已经讲过的几个方面：现在我们将学习大规模部署系统，而非仅仅安装单台计算机。'
              '我们将学习手动创建卷而非在安装系统时创建，以防将来时情况有变需要修改。')) v(body);
-- the same DNA for traditional text and for homophones (同音字替代)
SELECT pinyin_dna('國家統計局今天發布數據顯示，今年前三季度國內生產總值同比增長百分之五點二', 16)
     = pinyin_dna('国家统计局今天发布数据显示，今年前三季度国内生产总值同比增长百分之五点二', 16) AS trad,
       pinyin_dna('国家统计局今天发布数据显示，今年前三季度国内生产总值同比增长百分之五点二', 16)
     = pinyin_dna('国家统记局今天发布数据显视，今年前三季度国内生产总值同比增长百分之五点二', 16) AS homophones;
-- similarity and shared counts
SELECT pinyin_dna_similarity('{1,2,3}', '{2,3,4}') AS half,
       pinyin_dna_similarity('{}', '{}') AS empty,
       pinyin_dna_similarity('{1,1,2,NULL}', '{2,1}') AS dups_nulls,
       pinyin_dna_shared('{5,6,7}', '{7,6,1}') AS shared;
SELECT pinyin_dna_query('{1,2,3}', 2) AS q, '{2,3,9}'::int8[] %& pinyin_dna_query('{1,2,3}', 2) AS yes,
       '{3,9}'::int8[] %& pinyin_dna_query('{1,2,3}', 2) AS no;
-- large input (6.8 MB: interrupt checks, the chunked conversion path)
SELECT length(pinyin_initials(t)) AS initials_len, cardinality(pinyin_dna(t)) AS dnas,
       pinyin_dna(t) = pinyin_dna(repeat('中华人民共和国重庆银行 ', 3000)) AS periodic
FROM (SELECT repeat('中华人民共和国重庆银行 ', 200000) AS t) x;
-- a text whose content-defined windows all start too late for a whole window
-- is one window of all its letters, up to 3 x window_length of them (2,002
-- and 3,003 letters here; these once wrote past the threshold table)
SELECT pinyin_dna(repeat('中华人民共和国重庆银行', 182), 1024, 0) AS whole_2002,
       pinyin_dna(repeat('中华人民共和国重庆银行', 273), 1024, 0, 8) AS whole_3003,
       cardinality(pinyin_dna(repeat('中华人民共和国重庆银行', 400), 1024, 0)) AS windows_4400;
-- bad parameters: 22023
\i sql/include/err.sql
SELECT q, err(q) FROM unnest(ARRAY[
  $$SELECT pinyin_dna('中文', 7)$$,
  $$SELECT pinyin_dna('中文', 1025)$$,
  $$SELECT pinyin_dna('中文', 64, -1)$$,
  $$SELECT pinyin_dna('中文', 64, 91)$$,
  $$SELECT pinyin_dna('中文', 64, 50, 1)$$,
  $$SELECT pinyin_dna('中文', 64, 50, 9)$$,
  $$SELECT pinyin_dna('中文', 8, 90, 2)$$,
  $$SELECT pinyin_dna('中文', 1024, 0, 8)$$,
  $$SELECT pinyin_dna_query('{1}', 0)$$,
  $$SELECT '{1}'::int8[] %& ROW('{1}', 0)::pinyin_dna_query$$,
  $$SELECT '{1}'::int8[] %& ROW('{1}', NULL)::pinyin_dna_query$$,
  $$SELECT '{1}'::int8[] %& ROW(NULL, 1)::pinyin_dna_query$$]) q;
\set VERBOSITY default
SELECT pinyin_dna('中文', 7);
\set VERBOSITY terse
-- invalid UTF-8 cannot reach the functions in a UTF8 database; the pure core
-- treats invalid bytes as separators (test/unit/test_pinyin.c)
