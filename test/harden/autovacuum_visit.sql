-- What an autovacuum worker's visit does to a database, run from another
-- session by test/harden/plan_stability.sh: :cmd (VACUUM or ANALYZE, with
-- SKIP_LOCKED) on every permanent table and materialized view a worker
-- would visit (not those WITH (autovacuum_enabled = off), not partitioned
-- parents, not other sessions' temporary tables).
SET client_min_messages = error;
SELECT format('%s %s', :'cmd', string_agg(c.oid::regclass::text, ', '))
FROM pg_class c
WHERE c.relkind IN ('r', 'm') AND c.relpersistence = 'p'
  AND NOT EXISTS (SELECT FROM unnest(c.reloptions) o
                  WHERE o ~* '^autovacuum_enabled=(false|off|no|0)$')
HAVING count(*) > 0 \gexec
