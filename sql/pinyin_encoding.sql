--
-- pinyin functions give the same results in a non-UTF8 database (EUC_CN).
--
\set regdb :DBNAME
CREATE TABLE t (body text);
INSERT INTO t VALUES ('中华人民共和国'), ('重庆银行行长会计'),
  ('据新华社北京电，国家统计局今天发布数据显示，今年前三季度国内生产总值同比增长百分之五点二。'),
  ('Hello, ＡＢＣ 世界！'), ('');
\copy (SELECT body, pinyin(body), pinyin_initials(body), pinyin_dna(body, 16) FROM t) TO 'results/pinyin_utf8.tsv'
CREATE DATABASE textfp_py_euc_cn ENCODING 'EUC_CN' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
\c textfp_py_euc_cn
SET client_encoding = 'UTF8';
CREATE EXTENSION textfp;
CREATE TABLE g (body text, py text, ini text, dna int8[]);
\copy g FROM 'results/pinyin_utf8.tsv'
SELECT current_setting('server_encoding') AS enc, count(*) AS texts,
       count(*) FILTER (WHERE pinyin(body) = py AND pinyin_initials(body) = ini
                          AND pinyin_dna(body, 16) = dna) AS equal
FROM g;
SELECT body, pinyin(body), py FROM g WHERE pinyin(body) <> py OR pinyin_dna(body, 16) <> dna;
\c :regdb
DROP DATABASE textfp_py_euc_cn;
