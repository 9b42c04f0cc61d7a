--
-- The stability contract of spotsigs(), longest_sentences(), imatch(),
-- imatch_randomized() and supershingles() across server encodings and
-- locales: every golden text (and a Chinese paragraph with spots)
-- representable in an encoding gives there the values it gives in UTF8
-- (pinned by the spotsigs, sentences, imatch and supershingles tests).
--
\set regdb :DBNAME
CREATE SCHEMA sets_encoding_t;
SET search_path = sets_encoding_t, public;
\i sql/include/golden_texts.sql
INSERT INTO golden VALUES
 (100, 'zh with spots', '我们的国家在发展，人民的生活水平不断提高。经济和社会的发展是我们共同的目标。'),
 (101, 'zh-TW with spots', '我們的國家在發展，人民的生活水平不斷提高。經濟和社會的發展是我們共同的目標。'),
 (102, 'en with spots', 'There is a house in the city. It was a long night, and the rain was cold. Is this the end?');
CREATE FUNCTION representable(t text, enc name) RETURNS boolean
LANGUAGE plpgsql IMMUTABLE STRICT AS $$
BEGIN
  RETURN convert_from(convert_to(t, enc), enc) = t;
EXCEPTION WHEN untranslatable_character OR character_not_in_repertoire THEN
  RETURN false;
END $$;
-- a lexicon of the texts' terms in 2..6 texts, as a literal
SELECT imatch_build_lexicon(array_agg(term))::text AS lex
FROM (SELECT term FROM golden, unnest(imatch_terms(body)) term GROUP BY term HAVING count(*) BETWEEN 2 AND 6) t \gset
CREATE VIEW vals AS
SELECT id, body, spotsigs(body) AS ss, longest_sentences(body) AS ls, imatch(body, :'lex') AS im,
       imatch_randomized(body, :'lex', 8, 0.5) AS imr, supershingles(minhash(body, 84)) AS sup
FROM golden;
SELECT count(*) AS texts, count(*) FILTER (WHERE cardinality(ss) > 0) AS with_spots,
       count(*) FILTER (WHERE cardinality(ls) > 0) AS with_sentences,
       count(im) AS with_imatch, count(*) FILTER (WHERE cardinality(sup) > 0) AS with_supershingles FROM vals;
\copy (SELECT * FROM vals WHERE representable(body, 'EUC_CN')) TO 'results/sets_euc_cn.tsv'
\copy (SELECT * FROM vals WHERE representable(body, 'EUC_TW')) TO 'results/sets_euc_tw.tsv'
\copy (SELECT * FROM vals WHERE representable(body, 'LATIN1')) TO 'results/sets_latin1.tsv'
\copy (SELECT * FROM vals) TO 'results/sets_all.tsv'

-- in each database: the table of expected values, and the count of texts
-- whose values differ there
\set make_g 'CREATE TABLE g (id int, body text, ss int8[], ls int8[], im int8, imr int8[], sup int8[]);'
SELECT format('count(*) FILTER (WHERE spotsigs(body) <> ss OR longest_sentences(body) <> ls '
              'OR imatch(body, %L) IS DISTINCT FROM im OR imatch_randomized(body, %L, 8, 0.5) <> imr '
              'OR supershingles(minhash(body, 84)) <> sup) AS mismatches', :'lex', :'lex') AS mismatches \gset

-- EUC_CN
CREATE DATABASE textfp_sets_euc_cn ENCODING 'EUC_CN' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
\c textfp_sets_euc_cn
SET client_encoding = 'UTF8';
CREATE EXTENSION textfp;
:make_g
\copy g FROM 'results/sets_euc_cn.tsv'
SELECT current_setting('server_encoding') AS enc, count(*) AS texts,
       :mismatches FROM g;
-- EUC_TW
CREATE DATABASE textfp_sets_euc_tw ENCODING 'EUC_TW' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
\c textfp_sets_euc_tw
SET client_encoding = 'UTF8';
CREATE EXTENSION textfp;
:make_g
\copy g FROM 'results/sets_euc_tw.tsv'
SELECT current_setting('server_encoding') AS enc, count(*) AS texts,
       :mismatches FROM g;
-- LATIN1
CREATE DATABASE textfp_sets_latin1 ENCODING 'LATIN1' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
\c textfp_sets_latin1
SET client_encoding = 'UTF8';
CREATE EXTENSION textfp;
:make_g
\copy g FROM 'results/sets_latin1.tsv'
SELECT current_setting('server_encoding') AS enc, count(*) AS texts,
       :mismatches FROM g;
-- UTF8 under the C locale
CREATE DATABASE textfp_sets_c ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0;
\c textfp_sets_c
SET client_encoding = 'UTF8';
CREATE EXTENSION textfp;
:make_g
\copy g FROM 'results/sets_all.tsv'
SELECT (SELECT datctype FROM pg_database WHERE datname = current_database()) AS ctype, count(*) AS texts,
       :mismatches FROM g;
-- the built-in lists in a database whose encoding has the Chinese entries
SELECT spotsigs_antecedents() = ARRAY['a','an','the','is','are','was','were','there','this','that','的','了','在','是','和','与','对','将','把','被','从','为'] AS lists_in_utf8;

\c :regdb
DROP DATABASE textfp_sets_euc_cn;
DROP DATABASE textfp_sets_euc_tw;
DROP DATABASE textfp_sets_latin1;
DROP DATABASE textfp_sets_c;
SET client_min_messages = warning;
DROP SCHEMA sets_encoding_t CASCADE;
RESET client_min_messages;
