#!/usr/bin/env bash
# Random SQL against textfp: sqlsmith (Debian package) for a bounded time
# on a throwaway cluster with textfp preloaded (planner hook active in every
# session), against test/harden/sqlsmith_setup.sql's database: a column of
# every fingerprint kind and one index per operator class, found in the
# catalog.  sqlsmith runs as the database owner (not a superuser) with
# --exclude-catalog, so its queries are built on those tables and their types'
# operators and functions.  Afterwards test/harden/server_log_report.py reads
# the server log: a crash, or an internal error (XX000) located in textfp's
# C files, is a finding.  Prints a summary; exit status 1 on findings.
#
# Usage: test/harden/sqlsmith.sh [SECONDS] [SEED]    (as root; default 600 s, seed 1)
# Env: SQLSMITH_KEEP_LOG=1 keeps the whole server log in tmp_check/log (it
#      grows by ~40 MB a minute: every failing query is logged).
# Results are recorded in docs/hardening.md.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib/common.sh
. "$HERE/../lib/common.sh"

SECONDS_TO_RUN=${1:-600}
SEED=${2:-1}
TFP_EXTRA_PACKAGES="${TFP_EXTRA_PACKAGES:-} sqlsmith"

TFP_PG_CONF="shared_preload_libraries = 'textfp'
log_error_verbosity = verbose
log_min_error_statement = error
log_min_messages = warning
track_functions = all" tfp_setup_cluster || exit 1
command -v sqlsmith >/dev/null || { tfp_err "sqlsmith is not installed"; exit 1; }

tfp_log "setting up database smith"
tfp_psql -c 'CREATE ROLE smith LOGIN' -c 'CREATE DATABASE smith OWNER smith' || exit 1
tfp_psql -d smith -v srcdir="$TFP_ROOT" -f "$TFP_ROOT/test/harden/sqlsmith_setup.sql" >/dev/null || exit 1
tfp_psql -d smith -At -c "SELECT 'tables: ' || string_agg(relname || ' (' || reltuples::bigint || ' rows)', ', ' ORDER BY relname) FROM pg_class WHERE relnamespace = 'public'::regnamespace AND relkind = 'r'" \
    -c "SELECT 'indexes: ' || count(*) FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid WHERE c.relnamespace = 'public'::regnamespace"

out=$TFP_TMP/log/sqlsmith
tfp_log "sqlsmith for ${SECONDS_TO_RUN}s, seed $SEED"
start=$(date +%s)
# sqlsmith keeps generating until stopped; timeout ends it (status 124)
(cd "$TFP_TMP" && tfp_as_pg timeout "$SECONDS_TO_RUN" sqlsmith \
    --target="host=$PGHOST port=$PGPORT dbname=smith user=smith" \
    --exclude-catalog --seed="$SEED" --verbose >"$out.out" 2>"$out.err")
rc=$?
elapsed=$(( $(date +%s) - start ))
queries=$(grep -a -o 'queries: [0-9]*' "$out.err" | tail -1 | cut -d' ' -f2)
errate=$(grep -a -o 'error rate: [0-9.]*' "$out.err" | tail -1 | cut -d' ' -f3)
[ "$rc" = 124 ] || [ "$rc" = 0 ] || tfp_warn "sqlsmith ended with status $rc (see $out.err)"

# the server is still up?
alive=$(tfp_psql -d smith -At -c 'SELECT 1' 2>&1)
# how much of textfp the queries reached (function call counts)
sleep 1
reach=$(tfp_psql -d smith -At -c "
    SELECT count(*) FILTER (WHERE s.calls > 0) || ' of ' || count(*) || ' functions called, '
           || coalesce(sum(s.calls), 0) || ' calls'
    FROM pg_proc p JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
    JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'textfp' AND d.deptype = 'e'
    LEFT JOIN pg_stat_user_functions s ON s.funcid = p.oid" 2>&1)
tfp_log "report"
python3 "$HERE/server_log_report.py" "$TFP_TMP/log/postgres.log" "$TFP_ROOT" | tee "$out.report"
found=${PIPESTATUS[0]}
echo "== summary"
echo "sqlsmith $(dpkg-query -W -f='${Version}' sqlsmith 2>/dev/null), PostgreSQL $(tfp_psql -At -c 'SHOW server_version'), seed $SEED"
echo "duration: ${elapsed}s, queries: ${queries:-?}, sqlsmith error rate: ${errate:-?}"
echo "server alive at the end: $([ "$alive" = 1 ] && echo yes || echo "NO ($alive)")"
echo "textfp reached: $reach (C functions called by SQL; index support functions are not counted)"
echo "findings: $(grep -c '^FINDING' "$out.report")"
if [ -z "${SQLSMITH_KEEP_LOG:-}" ]; then
    # keep the report, not the whole log (tens of MB a minute)
    mv "$TFP_TMP/log/postgres.log" "$TFP_TMP/postgres.log.full"
    tail -n 2000 "$TFP_TMP/postgres.log.full" >"$TFP_TMP/log/postgres.log.tail"
fi
[ "$found" = 0 ] && [ "$alive" = 1 ] && [ -n "${queries:-}" ]
