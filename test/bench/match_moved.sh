#!/usr/bin/env bash
# textfp_match()'s recall on moved and shortened copies (issue 34's
# kinds), a baseline for a model that reads shared text wherever it lies:
# every document of test/data/corpus.tsv with at least four paragraphs
# (lines), and long ones (three documents of one source one after the
# other, from a quarter of them), against itself with its paragraphs permuted, reversed, the first
# two swapped, all but the first and the last permuted, its sentences
# permuted (at "。", "！", "？" and ". "),
# truncated to its first 80%, 50% and 20% of paragraphs and to its second
# half; models 1, 2 and 3 (the default).  Every pair is a copy: the figure is the share of
# them textfp_match calls one (the pairs' non-copies are measured by
# test/bench/match_accuracy.sh).
#   test/bench/match_moved.sh
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
tfp_bench_cluster ""
out=$TFP_TMP/moved; mkdir -p "$out"; cp "$TFP_ROOT/test/data/corpus.tsv" "$out/"; tfp_chown_pg "$out"
tfp_psql -q -c 'CREATE TABLE corpus (id int, lang text, src text, title text, body text)' \
         -c "\\copy corpus FROM '$out/corpus.tsv'"
tfp_psql <<'SQL'
\pset footer off
CREATE TABLE paras AS
SELECT c.id, c.lang, c.body, p.n, p.t
FROM corpus c, LATERAL unnest(string_to_array(c.body, E'\n')) WITH ORDINALITY p(t, n)
WHERE p.t <> '';
-- long documents too: three documents of one source, one after the other
INSERT INTO paras
SELECT 100000 + c.id, c.lang, NULL, p.k * 1000 + p.n, p.t
FROM corpus c, LATERAL (SELECT x.k, q.n, q.t FROM (VALUES (0), (1), (2)) x(k),
                        LATERAL (SELECT c2.body FROM corpus c2 WHERE c2.src = c.src AND c2.id >= c.id
                                 ORDER BY c2.id OFFSET x.k LIMIT 1) c2,
                        LATERAL unnest(string_to_array(c2.body, E'\n')) WITH ORDINALITY q(t, n) WHERE q.t <> '') p
WHERE c.id % 4 = 0;
UPDATE paras SET n = r.rn FROM (SELECT id, n AS old, row_number() OVER (PARTITION BY id ORDER BY n) AS rn FROM paras WHERE id >= 100000) r
WHERE paras.id = r.id AND paras.n = r.old;
CREATE TABLE docs AS
SELECT id, min(lang) AS lang, string_agg(t, E'\n' ORDER BY n) AS body, count(*) AS np
FROM paras GROUP BY id HAVING count(*) >= 4;
CREATE TABLE moved AS
SELECT 'paragraphs permuted' AS kind, d.lang, d.body AS a,
       (SELECT string_agg(t, E'\n' ORDER BY md5(n::text || d.id::text)) FROM paras p WHERE p.id = d.id) AS b, d.id FROM docs d
UNION ALL
SELECT 'paragraphs reversed', d.lang, d.body, (SELECT string_agg(t, E'\n' ORDER BY n DESC) FROM paras p WHERE p.id = d.id), d.id FROM docs d
UNION ALL
SELECT 'first two paragraphs swapped', d.lang, d.body,
       (SELECT string_agg(t, E'\n' ORDER BY CASE n WHEN 1 THEN 2 WHEN 2 THEN 1 ELSE n END) FROM paras p WHERE p.id = d.id), d.id FROM docs d
UNION ALL
SELECT 'sentences permuted', d.lang, d.body,
       (SELECT string_agg(s, ' ' ORDER BY md5(k::text || d.id::text))
        FROM regexp_split_to_table(replace(d.body, E'\n', ' '), '(?<=[。！？])|(?<=\. )') WITH ORDINALITY x(s, k) WHERE s <> ''), d.id FROM docs d
UNION ALL
SELECT 'first ' || pct || '% of paragraphs', d.lang, d.body,
       (SELECT string_agg(t, E'\n' ORDER BY n) FROM paras p WHERE p.id = d.id AND p.n <= greatest(1, round(d.np * pct / 100.0))), d.id FROM docs d, (VALUES (80), (50), (20)) v(pct)
UNION ALL
SELECT 'middle paragraphs permuted', d.lang, d.body,
       (SELECT string_agg(t, E'\n' ORDER BY CASE WHEN n = 1 THEN '' WHEN n = d.np THEN 'z' ELSE md5(n::text || d.id::text) END)
        FROM paras p WHERE p.id = d.id), d.id FROM docs d
UNION ALL
SELECT 'second half of paragraphs', d.lang, d.body,
       (SELECT string_agg(t, E'\n' ORDER BY n) FROM paras p WHERE p.id = d.id AND p.n > d.np / 2), d.id FROM docs d;
SELECT kind, CASE WHEN id >= 100000 THEN 'long' ELSE 'short' END AS size, lang, count(*) AS pairs,
       round(avg((textfp_match(a, b, model => 1)).verdict::int), 3) AS model_1,
       round(avg((textfp_match(a, b, model => 2)).verdict::int), 3) AS model_2,
       round(avg((textfp_match(a, b)).verdict::int), 3) AS model_3
FROM moved GROUP BY 1, 2, 3 ORDER BY 1, 2, 3;
SQL
