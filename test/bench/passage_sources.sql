-- Helpers of test/bench/passage_sources.sh (run by it after the tables
-- docs and queries are loaded; nothing here is timed by itself).
--
-- qres: one row per (pass, max_candidates, query): the wall time of
-- textfp_sources() measured inside the backend (clock_timestamp() around
-- the statement, in a PL/pgSQL loop over the queries in qid order) and
-- its output rows.

CREATE TYPE srow AS (rank int4, source_id int8, share float8, source_passages int4,
                     passage int4, source_start int4, source_length int4, query_start int4,
                     query_length int4, matched int4, similarity float8, frequency int4);

CREATE TABLE qres (pass int, mc int, qid int, ms float8, nrows int, out srow[],
                   PRIMARY KEY (pass, mc, qid));

-- every query once, in qid order; qids [lo, hi]; the rows of pass p
CREATE FUNCTION run_queries(p int, mc int DEFAULT 100, lo int DEFAULT 1, hi int DEFAULT 2147483647)
RETURNS float8 LANGUAGE plpgsql AS $$
DECLARE
    r record;
    t0 timestamptz;
    t1 timestamptz;
    o srow[];
    total float8 := 0;
BEGIN
    FOR r IN SELECT qid, body FROM queries WHERE qid BETWEEN lo AND hi ORDER BY qid LOOP
        t0 := clock_timestamp();
        SELECT array_agg(s::srow) INTO o
          FROM textfp_sources(r.body, 'docs', max_candidates => mc) s;
        t1 := clock_timestamp();
        INSERT INTO qres VALUES (p, mc, r.qid, extract(epoch FROM t1 - t0) * 1000,
                                 coalesce(cardinality(o), 0), o);
        total := total + extract(epoch FROM t1 - t0) * 1000;
    END LOOP;
    RETURN total;
END $$;

-- latency figures of a set of times (ms): n, p50, p90, p99, max, mean
CREATE FUNCTION lat(ms float8[]) RETURNS text LANGUAGE sql IMMUTABLE AS $$
    SELECT format('%s | %s | %s | %s | %s | %s', count(*),
                  round(percentile_disc(0.5) WITHIN GROUP (ORDER BY x)::numeric, 2),
                  round(percentile_disc(0.9) WITHIN GROUP (ORDER BY x)::numeric, 2),
                  round(percentile_disc(0.99) WITHIN GROUP (ORDER BY x)::numeric, 2),
                  round(max(x)::numeric, 2), round(avg(x)::numeric, 2))
      FROM unnest(ms) x
$$;

-- the distinct sources a result reports
CREATE FUNCTION found_ids(o srow[]) RETURNS int8[] LANGUAGE sql IMMUTABLE AS $$
    SELECT coalesce(array_agg(DISTINCT x.source_id ORDER BY x.source_id), '{}')
      FROM unnest(o) x
$$;
