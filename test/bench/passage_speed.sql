-- The passage fingerprint's speed per byte beside md5's, on the documents
-- in table docs (id, lang, body; storage PLAIN: no decompression in either):
-- 7 rounds, the order of the two functions alternating, the backend's CPU
-- time per round (/proc/self/stat), the median round.  See
-- test/bench/passage_speed.sh.
\pset footer off
SET max_parallel_workers_per_gather = 0;
SET jit = off;
CREATE FUNCTION pg_temp.cpu() RETURNS float8 LANGUAGE sql AS $f$
  SELECT (split_part(x, ' ', 12)::float8 + split_part(x, ' ', 13)::float8) / 100
  FROM (SELECT substring(pg_read_file('/proc/self/stat') FROM '\) (.*)$') AS x) s $f$;
CREATE TEMP TABLE speed (fn text, lang text, round int, cpu float8);
-- warm: the table in shared buffers, textfp's tables built
SELECT count(md5(body)), count(passage_fp(body)) FROM docs;
DO $$
DECLARE c0 float8; l text; f text; k bigint;
BEGIN
  FOR r IN 1..7 LOOP
    FOREACH l IN ARRAY ARRAY['zh', 'en'] LOOP
      FOREACH f IN ARRAY CASE WHEN r % 2 = 1 THEN ARRAY['md5', 'passage_fp', 'octet_length']
                              ELSE ARRAY['octet_length', 'passage_fp', 'md5'] END LOOP
        c0 := pg_temp.cpu();
        -- 40 passes over the documents of the language (a round of md5 is then
        -- about 40 of the 10 ms ticks of /proc/self/stat)
        EXECUTE format('SELECT count(%s(body)) FROM docs, generate_series(1, 40) WHERE lang = $1', f)
          INTO k USING l;
        INSERT INTO speed VALUES (f, l, r, pg_temp.cpu() - c0);
      END LOOP;
    END LOOP;
  END LOOP;
END $$;
WITH bytes AS (SELECT lang, 40 * sum(octet_length(body)) AS b FROM docs GROUP BY lang),
med AS (SELECT fn, lang, percentile_cont(0.5) WITHIN GROUP (ORDER BY cpu) AS cpu
        FROM speed GROUP BY fn, lang)
SELECT m.lang, m.fn AS function,
       round((b.b / 1e6 / m.cpu)::numeric) AS mb_per_cpu_second,
       round((x.cpu / m.cpu)::numeric, 2) AS vs_md5
FROM med m JOIN bytes b USING (lang) JOIN med x ON x.lang = m.lang AND x.fn = 'md5'
ORDER BY m.lang DESC, m.fn = 'md5' DESC, m.fn;
