-- (sql/align) in a database of another encoding: the examples from
-- results/align_ex.tsv and the passages they must give from
-- results/align_expected.tsv (written by the UTF8 database); lists every
-- passage missing or extra (none)
CREATE EXTENSION textfp;
CREATE TABLE ex (name text, a text, b text);
CREATE TABLE expected (name text, passage int4, a_start int4, a_length int4, b_start int4,
                       b_length int4, matched int4, similarity float8);
\copy ex FROM 'results/align_ex.tsv'
\copy expected FROM 'results/align_expected.tsv'
SELECT current_setting('server_encoding') AS enc, count(*) AS examples,
       (SELECT count(*) FROM expected) AS passages FROM ex;
SELECT 'missing' AS diff, * FROM (TABLE expected EXCEPT
  SELECT e.name, p.* FROM ex e, textfp_align(e.a, e.b) p) d
UNION ALL
SELECT 'extra', * FROM (SELECT e.name, p.* FROM ex e, textfp_align(e.a, e.b) p
  EXCEPT TABLE expected) d;
