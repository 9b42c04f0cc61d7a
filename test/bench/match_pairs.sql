-- The pairs of test/bench/match_speed.sh and match_instructions.sh, from a
-- table docs (id, lang, body) of tools/make_bench_docs.py:
--   plain      two different documents (no common edge: model 2 only
--              splits the lines)
--   templated  the same pairs, each text inside one site template (a header
--              and a footer of 5 lines each: model 2 measures the middles)
--   copies     a document against itself with a header line added
--   one        one document against every document of its language (the
--              match of a text against its candidates: the side of the
--              first text is kept from one pair to the next)
CREATE TABLE pairs AS
SELECT 'plain' AS what, a.lang, a.body AS a, b.body AS b FROM docs a JOIN docs b ON b.id = a.id + 2
UNION ALL
SELECT 'templated', a.lang, h.t || a.body || f.t, h.t || b.body || f.t
FROM docs a JOIN docs b ON b.id = a.id + 2,
     (SELECT string_agg('Site header line ' || i || ' | Home | News | About', E'\n') || E'\n' AS t FROM generate_series(1, 5) i) h,
     (SELECT E'\n' || string_agg('Footer: related post number ' || i || ', licence CC BY-SA', E'\n') AS t FROM generate_series(1, 5) i) f
UNION ALL
SELECT 'copies', a.lang, a.body, E'Reposted from our friends.\n' || a.body FROM docs a
UNION ALL
(SELECT 'one', b.lang, f.body, b.body
 FROM docs b JOIN (SELECT DISTINCT ON (lang) lang, body FROM docs ORDER BY lang, id) f USING (lang)
 ORDER BY b.lang, b.id);
