#!/usr/bin/env bash
# simhash_pairs throughput: N random fingerprints with 1% rows made
# near-duplicates (1..3 bits from an earlier row), on a throwaway cluster.
#
#   test/bench/pairs.sh [N ...]        (default: 1000000 10000000)
#
# For each N: the table form (heap read directly) at radius 3 three times,
# the query form (cursor) once, radii 0, 1, 5 once; each run in a new
# session, timed by psql \timing, with the backend's peak resident memory
# (VmHWM of /proc/<pid>/status after the run, minus its value before it).
# shared_buffers is small so that the scan reads through its ring buffer
# and VmHWM counts mostly the search's own memory.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

SIZES=("$@")
[ ${#SIZES[@]} -gt 0 ] || SIZES=(1000000 10000000)
TFP_PG_CONF="shared_buffers = 128MB
maintenance_work_mem = 1GB
work_mem = 64MB
max_parallel_workers_per_gather = 0
jit = off" tfp_setup_cluster || exit 1
tfp_psql -d postgres -c 'CREATE EXTENSION textfp' || exit 1

# one timed run in a new session: prints "ms rows hwm_kB"
run() { # sql
    tfp_psql -d postgres -At <<SQL | awk '
        /^Time:/ { ms = $2 } /^hwm/ { split($0, a, "|"); h[++k] = a[2] } /^rows/ { split($0, a, "|"); rows = a[2] }
        END { printf "%10.0f ms %10d pairs %8.0f MB peak\n", ms, rows, (h[2] - h[1]) / 1024 }'
SELECT 'hwm', (regexp_match(pg_read_file('/proc/' || pg_backend_pid() || '/status'), 'VmHWM:\s+(\d+)'))[1];
\timing on
SELECT 'rows', count(*) FROM $1;
\timing off
SELECT 'hwm', (regexp_match(pg_read_file('/proc/' || pg_backend_pid() || '/status'), 'VmHWM:\s+(\d+)'))[1];
SQL
}

for N in "${SIZES[@]}"; do
    tfp_log "loading $N fingerprints (1% near-duplicates)"
    tfp_psql -d postgres <<SQL || exit 1
DROP TABLE IF EXISTS fps;
CREATE TABLE fps (id bigint, fp simhash64);
-- fingerprints from a hash of the row number; every 100th row is h64(id / 2)
-- with 1..3 bits flipped: a near-duplicate of row id / 2 where that row is
-- not itself such a copy (half of them: N / 200 planted pairs)
CREATE FUNCTION pg_temp.h64(i bigint) RETURNS bigint LANGUAGE sql IMMUTABLE AS
\$\$ SELECT (hashint8(i)::bigint << 32) # (hashint8(-i)::bigint & 4294967295) \$\$;
INSERT INTO fps SELECT i, CASE WHEN i % 100 <> 0 THEN pg_temp.h64(i)
    ELSE pg_temp.h64(i / 2) # (1::bigint << (i % 64)::int)
         # CASE WHEN i % 3 > 0 THEN 1::bigint << ((i / 64) % 64)::int ELSE 0 END
         # CASE WHEN i % 3 > 1 THEN 1::bigint << ((i / 4096) % 64)::int ELSE 0 END END::simhash64
  FROM generate_series(1, $N) i;
VACUUM ANALYZE fps;
SQL
    tfp_log "N = $N: table form, radius 3 (three runs)"
    for _ in 1 2 3; do run "simhash_pairs('fps', 'id', 'fp', 3)"; done
    tfp_log "N = $N: query form, radius 3"
    run "simhash_pairs('SELECT id, fp FROM fps', 3)"
    tfp_log "N = $N: read only (SELECT count(*) FROM fps, for comparison)"
    run "fps"
    for r in 0 1 5; do
        tfp_log "N = $N: table form, radius $r"
        run "simhash_pairs('fps', 'id', 'fp', $r)"
    done
    tfp_log "N = $N: simhash_clusters, radius 3"
    run "simhash_clusters('fps', 'id', 'fp', 3)"
done
