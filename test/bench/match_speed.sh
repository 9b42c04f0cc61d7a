#!/usr/bin/env bash
# textfp_match() pairs/s on ~2 KB texts, model 1 (the code path of the
# release before model 2), model 2 and model 3 (the default), beside md5 of both
# texts of each pair, interleaved in one session (5 rounds, the order
# alternating), the median round and the backend's CPU time per pair
# (/proc/self/stat; steadier than the clock on a shared machine, whose load
# is printed before and after):
#   plain      pairs of different documents of tools/make_bench_docs.py
#              (no common edge: model 2 only splits the lines)
#   templated  the same pairs, each text inside one site template (a header
#              and a footer of 10 lines: model 2 also measures the middles)
#   copies     a document against itself with a header line added
#
# then the same pairs of model 3 and md5 as statements of their own (as an
# application sends them; the wall clock, the median of 3), in a new session.
#
#   test/bench/match_speed.sh [N]        (N documents, default 2000)
#
# On a loaded machine even the CPU time varies by 20-30% from round to
# round; test/bench/match_instructions.sh counts instructions instead.
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
n=${1:-2000}
tfp_setup_cluster
out=$TFP_TMP/speed; mkdir -p "$out"
python3 "$TFP_ROOT/tools/make_bench_docs.py" "$n" 2048 > "$out/docs.tsv"
tfp_chown_pg "$out"
tfp_psql -c 'CREATE EXTENSION textfp' \
         -c 'CREATE TABLE docs (id int PRIMARY KEY, lang text, body text)' \
         -c 'ALTER TABLE docs ALTER body SET STORAGE PLAIN' \
         -c "\\copy docs FROM '$out/docs.tsv'"
tfp_psql -f "$TFP_ROOT/test/bench/match_pairs.sql"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
tfp_psql -f - <<'SQL'
\pset footer off
SET max_parallel_workers_per_gather = 0;
CREATE FUNCTION pg_temp.cpu() RETURNS float8 LANGUAGE sql AS $f$
  SELECT (split_part(x, ' ', 12)::float8 + split_part(x, ' ', 13)::float8) / 100
  FROM (SELECT substring(pg_read_file('/proc/self/stat') FROM '\) (.*)$') AS x) s $f$;
CREATE TEMP TABLE speed (what text, model int, round int, seconds float8, cpu float8, n int);
-- model 0: md5 of both texts of each pair, the yardstick.  The pairs of a
-- kind come from a subquery that is not pulled up (OFFSET 0), so that
-- textfp_match runs on them only, whatever order the planner gives the
-- conditions (with textfp_match's cost of 1 before 1.3 it ran on every
-- pair of the table, and the figures were three times too low).
DO $$
DECLARE t0 timestamptz; c0 float8; k int; w text; m int;
BEGIN
  FOR r IN 1..5 LOOP
    FOREACH w IN ARRAY ARRAY['plain', 'templated', 'copies', 'one'] LOOP
      FOREACH m IN ARRAY CASE WHEN r % 2 = 1 THEN ARRAY[0, 1, 2, 3] ELSE ARRAY[3, 2, 1, 0] END LOOP
        t0 := clock_timestamp(); c0 := pg_temp.cpu();
        IF m = 0 THEN
          -- ten times over (a round of one would be two 10 ms ticks)
          SELECT count(*) / 10 INTO k
          FROM (SELECT a, b FROM pairs, generate_series(1, 10) WHERE what = w OFFSET 0) p
          WHERE md5(p.a) IS NOT NULL AND md5(p.b) IS NOT NULL;
        ELSE
          SELECT count(*) INTO k FROM (SELECT a, b FROM pairs WHERE what = w OFFSET 0) p
          WHERE (textfp_match(p.a, p.b, model => m)).verdict IS NOT NULL;
        END IF;
        INSERT INTO speed VALUES (w, m, r, extract(epoch FROM clock_timestamp() - t0) / CASE m WHEN 0 THEN 10 ELSE 1 END,
                                  (pg_temp.cpu() - c0) / CASE m WHEN 0 THEN 10 ELSE 1 END, k);
      END LOOP;
    END LOOP;
  END LOOP;
END $$;
WITH med AS (
  SELECT what, model, max(n) AS pairs,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY seconds) AS seconds,
         percentile_cont(0.5) WITHIN GROUP (ORDER BY cpu) AS cpu
  FROM speed GROUP BY what, model)
SELECT m.what, CASE m.model WHEN 0 THEN 'md5 (both texts)' ELSE 'model ' || m.model END AS function,
       m.pairs, round((m.pairs / m.seconds)::numeric) AS pairs_per_second,
       round((1e6 * m.cpu / m.pairs)::numeric, 1) AS cpu_us_per_pair,
       round((m.cpu / NULLIF(x.cpu, 0))::numeric, 1) AS vs_md5
FROM med m JOIN med x ON x.what = m.what AND x.model = 0
ORDER BY m.what, m.model;
SQL
# The same pairs as statements of their own, as an application sends them
# (the rounds above run inside one DO block): model 3 and md5, 3 rounds in
# one new session, the median wall-clock time per statement.
{
  echo 'SET max_parallel_workers_per_gather = 0;'
  echo 'CREATE TEMP TABLE stmt (what text, fn text, ms float8, n int);'
  for r in 1 2 3; do
    for w in plain templated copies one; do
      echo "SELECT clock_timestamp() AS t0 \\gset"
      echo "SELECT count(*) AS k FROM (SELECT a, b FROM pairs WHERE what = '$w' OFFSET 0) p WHERE (textfp_match(p.a, p.b)).verdict IS NOT NULL \\gset"
      echo "INSERT INTO stmt SELECT '$w', 'model 3', extract(epoch FROM clock_timestamp() - :'t0'::timestamptz) * 1000, :k;"
      echo "SELECT clock_timestamp() AS t0 \\gset"
      echo "SELECT count(*) AS k FROM (SELECT a, b FROM pairs WHERE what = '$w' OFFSET 0) p WHERE md5(p.a) IS NOT NULL AND md5(p.b) IS NOT NULL \\gset"
      echo "INSERT INTO stmt SELECT '$w', 'md5 (both texts)', extract(epoch FROM clock_timestamp() - :'t0'::timestamptz) * 1000, :k;"
    done
  done
  echo '\pset footer off'
  echo "WITH m AS (SELECT what, fn, max(n) AS n,
                  percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS ms FROM stmt GROUP BY what, fn)
SELECT a.what, a.fn AS \"function (a statement each)\", a.n AS pairs,
       round((a.n / (a.ms / 1000))::numeric) AS pairs_per_second,
       round((a.ms / NULLIF(x.ms, 0))::numeric, 1) AS vs_md5
FROM m a JOIN m x ON x.what = a.what AND x.fn = 'md5 (both texts)'
ORDER BY a.what, a.fn DESC;"
} | tfp_psql -f -
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
