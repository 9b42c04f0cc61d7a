#!/usr/bin/env bash
# Does any pg_regress test print something that autovacuum can change?
#
# An autovacuum worker may analyze a test's tables between any two of its
# statements when the machine is slow (CI), and the plans, row orders and
# statistics a test prints must not depend on whether it did.  This runs the
# regress tests (those of the default run) in a copy of the tree, each with
# an autovacuum worker's visit after every top-level statement
# (test/harden/inject_analyze.py): VACUUM (ANALYZE) from another session of
# the tables a worker would visit (test/harden/autovacuum_visit.sql), those
# the test holds locked skipped.  The output, without the injected lines, is
# compared to the expected files.  A test listed here prints what autovacuum
# can change: analyze its tables itself before what it prints, or create
# them WITH (autovacuum_enabled = off).  PLAN_STABILITY_ANALYZE_ONLY=1:
# ANALYZE only.
#
# Usage: test/harden/plan_stability.sh [NAME ...]   (default: every test)
#        TFP_PG_SCRIPT=test/harden/plan_stability.sh test/run-pg.sh 13|17 [NAME ...]
# Exit status 0 when every test's output is unchanged.  About 8 minutes on
# 2 cores.
set -uo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source-path=SCRIPTDIR source=lib.sh
. "$HERE/lib.sh"
# shellcheck source-path=SCRIPTDIR source=../lib/common.sh
. "$HERE/../lib/common.sh"
tfp_install_deps || exit 1   # python3 and the server, on a fresh machine

# the server's psql, where run-tests.sh finds PostgreSQL (on another
# version: TFP_PG_SCRIPT=$0 test/run-pg.sh 17)
tfp_resolve_pg_config || { echo "no pg_config (PG_CONFIG=${PG_CONFIG:-})"; exit 1; }
psql=$("$PG_CONFIG" --bindir)/psql
[ -x "$psql" ] || { echo "no psql at $psql"; exit 1; }
tree=$(harden_copy_tree) || exit 1
chmod 777 "$tree"   # the server's user appends to the count below
count=$tree/analyze.count
# pg_regress exports PGHOST, PGPORT and PGUSER; the database is the test's
# own.  Each visit adds its test's name to the count, or to the list of
# visits that failed: a run where none ran (no psql, no connection) proves
# nothing and fails.
cmd='VACUUM (SKIP_LOCKED, ANALYZE)'
[ "${PLAN_STABILITY_ANALYZE_ONLY:-}" = 1 ] && cmd='ANALYZE (SKIP_LOCKED)'
mark="\\setenv PGDATABASE :DBNAME \\! $psql -X -q -v ON_ERROR_STOP=1 -v cmd='$cmd' -f $HERE/autovacuum_visit.sql >/dev/null 2>&1 && echo @TEST@ >>$count || echo @TEST@ >>$count.failed"
for f in "$tree"/sql/*.sql; do
    t=$(basename "$f" .sql)
    python3 "$HERE/inject_analyze.py" "$f" "$f.injected" "${mark//@TEST@/$t}" && mv "$f.injected" "$f" || exit 1
done
echo "== regress tests with $cmd after every statement, in $tree"
args=(regress)
for t in "$@"; do args+=("sql/${t%.sql}.sql"); done
TFP_ROOT=$tree "$tree/test/run-tests.sh" "${args[@]}" >"$tree/run.log" 2>&1
echo "(its own summary counts failures: the outputs hold the injected lines; they are compared below without them)"
grep -E '^  regress|passed, .* failed$' "$tree/run.log" | tail -2

echo "== tests whose output changed"
changed=0 checked=0 injected=0
for r in "$tree"/results/*.out; do
    [ -e "$r" ] || continue
    t=$(basename "$r" .out)
    grep -vxF "${mark//@TEST@/$t}" "$r" >"$r.clean"
    checked=$((checked + 1))
    injected=$((injected + $(grep -cxF "${mark//@TEST@/$t}" "$tree/sql/$t.sql")))
    same=''
    for e in "$tree/expected/$t.out" "$tree"/expected/"$t"_[0-9].out; do
        [ -e "$e" ] && cmp -s "$e" "$r.clean" && { same=1; break; }
    done
    if [ -z "$same" ]; then
        changed=$((changed + 1))
        echo "-- $t"
        diff -U2 "$tree/expected/$t.out" "$r.clean" | head -n "${PLAN_DIFF_LINES:-40}"
    fi
done
ran=0; [ -e "$count" ] && ran=$(wc -l <"$count")
[ -s "$count.failed" ] && echo "visits that failed (the test's database gone, or a connection refused), by test:" &&
    sort "$count.failed" | uniq -c
echo "== $checked tests, $changed with output that autovacuum can change;" \
    "a visit ran after $ran of $injected statements (tree kept in $tree)"
[ "$checked" -gt 0 ] && [ "$changed" -eq 0 ] && [ "$ran" -gt 0 ]
