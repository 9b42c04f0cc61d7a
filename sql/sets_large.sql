--
-- A 60 MiB text of repeated sentences: spotsigs(), longest_sentences(),
-- imatch() and imatch_randomized() give the few distinct values it has
-- (collected without keeping every occurrence), and are cancellable.
--
CREATE SCHEMA sets_large_t;
SET search_path = sets_large_t, public;
CREATE TABLE big (t text);
INSERT INTO big
SELECT repeat(u, (60 * 1024 * 1024) / octet_length(u))
FROM (VALUES ('The cat sat on the mat, and the dog was in the garden. 我们的国家在发展，人民的生活在提高。')) v(u);
SELECT octet_length(t) / (1024 * 1024) AS mib FROM big;
CREATE TABLE lex AS SELECT imatch_build_lexicon(imatch_terms('cat sat mat dog garden 国家 发展 人民 生活 提高')) AS lex;
SELECT cardinality(spotsigs(t)) AS spots, spotsigs(t) = spotsigs('The cat sat on the mat, and the dog was in the garden. 我们的国家在发展，人民的生活在提高。 The cat') AS same_spots,
       longest_sentences(t, 3) = longest_sentences('The cat sat on the mat, and the dog was in the garden. 我们的国家在发展，人民的生活在提高。', 3) AS same_sentences,
       imatch(t, lex) = imatch('cat sat mat dog garden 国家 发展 人民 生活 提高', lex) AS same_imatch,
       cardinality(imatch_randomized(t, lex)) AS randomized
FROM big, lex;
-- cancellation: the timeout fires while the text is being read
SET statement_timeout = '100ms';
SELECT spotsigs(t) FROM big;
SELECT longest_sentences(t) FROM big;
SELECT imatch(t, lex) FROM big, lex;
RESET statement_timeout;
RESET search_path;
SET client_min_messages = warning;
DROP SCHEMA sets_large_t CASCADE;
RESET client_min_messages;
