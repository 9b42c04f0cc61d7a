#!/usr/bin/env bash
# The server under AddressSanitizer + UndefinedBehaviorSanitizer: textfp
# built with -fsanitize=address,undefined -fno-sanitize-recover=all (in a copy
# of the tree, so the normal build is not touched) and loaded into the
# server, whose binary runs with the ASan runtime preloaded (PostgreSQL
# itself is not instrumented: the runtime must come first, so LD_PRELOAD of
# libasan through a wrapper of bin/postgres, see test/harden/lib.sh);
# then the whole pg_regress suite and every TAP test (test/run-tests.sh --full
# regress tap).  Every sanitizer report (files asan.PID / ubsan.PID) and
# every crash or internal error from textfp in the server logs is a finding.
#
# Usage: test/harden/asan.sh [SUITE ...]   (as root; default: regress tap)
# Results are recorded in docs/hardening.md.
#
# What works on Debian 12 (gcc 12): the runtime preloaded, then
# test/harden/nls_off.c (without it the server hangs at start in glibc's
# bindtextdomain(), with gcc's and clang's runtimes alike, a known
# incompatibility of preloaded runtimes); ASAN_OPTIONS detect_leaks=0 (the
# postmaster never frees what it allocates at start), abort_on_error=1 (a
# report aborts the backend: the test fails and the postmaster restarts),
# log_path (reports of the forked backends go to files, not to the server
# log); handle_segv is left on (PostgreSQL has no SIGSEGV handler).
# Limits: PostgreSQL's own allocator (palloc) is not instrumented, so an
# overrun inside a memory-context block is seen only where it crosses the
# block's malloc'd end (chunks over 8 kB get their own block); globals,
# the stack, and every malloc'd block are fully checked, and UBSan checks
# every textfp expression.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=lib.sh
. "$HERE/lib.sh"

suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(--full regress tap)
command -v gcc >/dev/null || { echo "gcc is needed" >&2; exit 1; }
libasan=$(gcc -print-file-name=libasan.so)
[ -e "$libasan" ] || { echo "libasan not found (gcc -print-file-name=libasan.so)" >&2; exit 1; }

tree=$(harden_copy_tree) || exit 1
# Debian's server hangs in bindtextdomain() with the runtime preloaded:
# translation off (test/harden/nls_off.c), preloaded after the runtime
gcc -shared -fPIC -O2 -o "$tree/nls_off.so" "$HERE/nls_off.c" || exit 1
reports=$tree/sanitizer-reports
mkdir -p "$reports" && chmod 1777 "$reports"
harden_write_wrapper "$tree/postgres-asan" "" <<EOF
LD_PRELOAD=$libasan:$tree/nls_off.so\${LD_PRELOAD:+:\$LD_PRELOAD}
ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:log_path=$reports/asan:print_summary=1
UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$reports/ubsan
export LD_PRELOAD ASAN_OPTIONS UBSAN_OPTIONS
EOF

echo "== textfp under ASan + UBSan in $tree (suites: ${suites[*]})"
start=$(date +%s)
TFP_ROOT=$tree TFP_SERVER_WRAPPER=$tree/postgres-asan \
    COPT="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
    "$tree/test/run-tests.sh" "${suites[@]}" 2>&1 | tee "$tree/run.log"
rc=${PIPESTATUS[0]}
elapsed=$(( $(date +%s) - start ))

# the module really was built with the sanitizers
so=$(find "$tree" -maxdepth 1 -name 'textfp.so' | head -1)
instrumented=no
[ -n "$so" ] && [ "$(nm -D "$so" 2>/dev/null | grep -c '__asan_report')" -gt 0 ] && instrumented=yes

echo "== sanitizer reports and server logs"
found=0
logs=$(find "$tree/tmp_check/log" -name '*.log' ! -name 'regress_log_*' ! -name 'initdb.log' \
    ! -name 'install.log' ! -name 'pg_ctl.log' 2>/dev/null | sort)
for l in $logs; do
    python3 "$HERE/server_log_report.py" "$l" "$tree" >"$l.report" 2>&1 || {
        found=1; echo "-- $l"; grep '^FINDING' -A3 "$l.report"; }
done
python3 "$HERE/server_log_report.py" /dev/null "$tree" --sanitizer-dir "$reports" >"$tree/sanitizer.report" 2>&1 || found=1
grep -A40 '^FINDING' "$tree/sanitizer.report" | head -200
nrep=$(find "$reports" -type f | wc -l)
echo "== summary"
echo "ASan + UBSan (gcc $(gcc -dumpversion)), PostgreSQL $("$(command -v pg_config || echo /usr/lib/postgresql/15/bin/pg_config)" --version 2>/dev/null)"
echo "module instrumented: $instrumented; duration: ${elapsed}s"
grep -E '^  (regress|tap)|passed, .* failed$' "$tree/run.log" | tail -3
echo "sanitizer report files: $nrep; findings: $(grep -c '^FINDING' "$tree/sanitizer.report")"
echo "(tree, logs and reports kept in $tree)"
[ "$rc" = 0 ] && [ "$found" = 0 ] && [ "$instrumented" = yes ]
