#!/usr/bin/env bash
# The pg_regress suite with the server under valgrind (memcheck), using
# PostgreSQL's own suppressions (src/tools/valgrind.supp of the server's
# major version, taken from Debian's postgresql-NN source package with
# apt-get source, through a private source list: nothing system-wide is
# changed), shared_buffers small.  Every forked backend logs to its own file;
# an error block with a textfp frame (test/harden/server_log_report.py), or
# a crash or internal error from textfp in the server log, is a finding.
# Debian's server binary is stripped, so PostgreSQL's suppressions (by
# function name) miss its padding writes to WAL and relation map files:
# those errors are counted, not findings.  JIT is off (loading llvmjit.so
# makes ld.so's strncmp over-read, a known false positive).
# textfp is built as usual (-O2 -g); the AVX-512 kernels are not reached
# (valgrind's CPU has no AVX-512, so the portable code runs).
#
# Usage: test/harden/valgrind.sh [sql/NAME ...]   (as root; default: every
#        regress test; a full run takes hours on 2 cores, so name tests)
# Env:   VALGRIND_TIMEOUT (seconds, default 7200): the suite is stopped then,
#        and what ran is reported; VALGRIND_EXTRA (more valgrind options,
#        e.g. --track-origins=yes).
# Results are recorded in docs/hardening.md.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$HERE/lib.sh"
# shellcheck source=../lib/common.sh
. "$HERE/../lib/common.sh"

tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=(regress)
TFP_EXTRA_PACKAGES="${TFP_EXTRA_PACKAGES:-} valgrind bzip2 xz-utils"
tfp_install_deps || exit 1

# PostgreSQL's suppressions for this major version (cached in tmp_check/)
supp=$HARDEN_SRC/tmp_check/valgrind-pg$TFP_PG_MAJOR.supp
if [ ! -s "$supp" ]; then
    echo "== fetching src/tools/valgrind.supp from Debian's postgresql-$TFP_PG_MAJOR source"
    apt=$(mktemp -d)
    codename=$(. /etc/os-release && echo "$VERSION_CODENAME")
    mkdir -p "$apt/lists/partial" "$apt/src"
    # the release's main suite (the file is the same for every minor release)
    printf 'deb-src http://deb.debian.org/debian %s main\n' "$codename" >"$apt/sources.list"
    aptopts=(-o "Dir::Etc::SourceList=$apt/sources.list" -o "Dir::Etc::SourceParts=/nonexistent"
             -o "Dir::State::Lists=$apt/lists" -o "Dir::Cache::Archives=$apt/src" -q)
    if apt-get "${aptopts[@]}" update >/dev/null 2>&1 &&
       (cd "$apt/src" && apt-get "${aptopts[@]}" source --download-only "postgresql-$TFP_PG_MAJOR" >/dev/null 2>&1); then
        orig=$(ls "$apt"/src/postgresql-"$TFP_PG_MAJOR"_*.orig.tar.* 2>/dev/null | head -1)
        mkdir -p "$(dirname "$supp")"
        tar -xaf "$orig" -O --wildcards '*/src/tools/valgrind.supp' >"$supp" 2>/dev/null
    fi
    rm -rf "$apt"
    [ -s "$supp" ] || { rm -f "$supp"; tfp_err "could not get PostgreSQL's valgrind.supp"; exit 1; }
fi
echo "== suppressions: $supp ($(grep -c '^{' "$supp") entries)"

tree=$(harden_copy_tree) || exit 1
reports=$tree/valgrind-reports
mkdir -p "$reports" && chmod 1777 "$reports"
cp "$supp" "$tree/valgrind.supp" && chmod 644 "$tree/valgrind.supp"
harden_write_wrapper "$tree/postgres-valgrind" \
    "valgrind --quiet --tool=memcheck --leak-check=no --num-callers=40 --trace-children=no --suppressions=$tree/valgrind.supp --error-markers=VALGRINDERROR-BEGIN,VALGRINDERROR-END --gen-suppressions=all --log-file=$reports/%p.vg ${VALGRIND_EXTRA:-}" </dev/null

echo "== pg_regress under valgrind in $tree (tests: ${tests[*]}; at most ${VALGRIND_TIMEOUT:-7200}s)"
start=$(date +%s)
TFP_ROOT=$tree TFP_SERVER_WRAPPER=$tree/postgres-valgrind \
    TFP_PG_CONF="shared_buffers = 16MB
max_connections = 20
log_error_verbosity = verbose
max_parallel_workers_per_gather = 0
max_worker_processes = 4
jit = off" \
    timeout "${VALGRIND_TIMEOUT:-7200}" "$tree/test/run-tests.sh" "${tests[@]}" 2>&1 | tee "$tree/run.log"
rc=${PIPESTATUS[0]}
elapsed=$(( $(date +%s) - start ))

echo "== valgrind reports and server log"
found=0
python3 "$HERE/server_log_report.py" "$(ls "$tree"/tmp_check/log/postgres.log 2>/dev/null || echo /dev/null)" "$tree" \
    --sanitizer-dir "$reports" >"$tree/valgrind.report" 2>&1 || found=1
grep -A60 '^FINDING' "$tree/valgrind.report" | head -300
ran=$(grep -cE '^(test |ok |not ok )|\.\.\. +(ok|FAILED)' "$tree/run.log")
other=$(cat "$reports"/*.vg 2>/dev/null | grep -c 'VALGRINDERROR-BEGIN')
echo "== summary"
echo "valgrind $(valgrind --version), suppressions $(basename "$supp"), duration: ${elapsed}s"
grep -E '^  regress|passed, .* failed$' "$tree/run.log" | tail -2
echo "tests that ran: $ran; backends logged: $(find "$reports" -name '*.vg' | wc -l); valgrind errors: $other in all, with a textfp frame: $(grep -c '^FINDING: valgrind' "$tree/valgrind.report")"
[ "$rc" = 124 ] && echo "(stopped by VALGRIND_TIMEOUT)"
echo "(tree, logs and reports kept in $tree)"
[ "$rc" = 0 ] && [ "$found" = 0 ]
