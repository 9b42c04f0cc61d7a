#!/usr/bin/env bash
# Build textfp and run every test suite on a throwaway cluster:
#   C unit tests (test/unit/*.c), pg_regress (sql/*.sql), TAP (test/t/*.pl).
# The last line printed is "N passed, N failed"; exit status 1 if anything
# failed or a step broke.  See test/README.md.
#
# Usage: test/run-tests.sh [unit|regress|tap] [sql/NAME[.sql]] [test/t/NAME.pl] ...
#   no argument: everything.  Env: TEXTFP_SKIP_TAP=1, TEXTFP_KEEP_TMP=1, and
#   the settings listed in test/lib/common.sh.
set -uo pipefail

# shellcheck source-path=SCRIPTDIR source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

PASSED=0
FAILED=0
SUMMARY=()       # one line per suite, printed before the total

note() { SUMMARY+=("$(printf '  %-8s %s' "$1" "$2")"); }
broke() { # step message: a step that broke counts as one failure
    FAILED=$((FAILED + 1)); note "$1" "BROKEN: $2"; tfp_err "$1: $2"
}

# ------------------------------------------------------------ arguments
RUN_UNIT='' RUN_REGRESS='' RUN_TAP=''
REGRESS_TESTS=() TAP_FILES=()
if [ $# -eq 0 ]; then
    RUN_UNIT=1 RUN_REGRESS=1 RUN_TAP=1
fi
for a in "$@"; do
    case $a in
        unit) RUN_UNIT=1 ;;
        regress) RUN_REGRESS=1 ;;
        tap) RUN_TAP=1 ;;
        sql/*|*.sql) t=${a#sql/}; REGRESS_TESTS+=("${t%.sql}"); RUN_REGRESS=1 ;;
        *.pl) t=${a#test/}; TAP_FILES+=("test/${t#./}"); RUN_TAP=1 ;;
        -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
        *) echo "unknown argument: $a (use unit, regress, tap, sql/NAME, test/t/NAME.pl)" >&2; exit 2 ;;
    esac
done
[ -n "${TEXTFP_SKIP_TAP:-}" ] && RUN_TAP=

# shellcheck disable=SC2317  # invoked by the EXIT trap
finish() {
    local rc=$?
    trap - EXIT INT TERM
    # a trap can fire inside a redirected command: print to the real output
    exec 1>&3 2>&4
    # an unexpected exit (a step died) must count as a failure
    if [ -z "${DONE:-}" ]; then
        FAILED=$((FAILED + 1)); note "harness" "BROKEN: exited early (status $rc)"
    fi
    tfp_cleanup
    echo "== summary"
    [ ${#SUMMARY[@]} -gt 0 ] && printf '%s\n' "${SUMMARY[@]}"
    echo "$PASSED passed, $FAILED failed"
    [ "$FAILED" -eq 0 ] && [ "$rc" -eq 0 ] && exit 0
    exit 1
}
# Keep the original stdout/stderr as fds 3/4 for finish.  Commands that
# leave processes behind (pg_ctl start, prove) get 3/4 closed, so that a
# stray postmaster never holds a CI log pipe open.
exec 3>&1 4>&2
trap finish EXIT
trap 'exit 130' INT TERM

# ------------------------------------------------------------ suites

# Build (make target test/unit/NAME.EXT) and run each test/unit/*.c on its
# own, count TAP lines; a program that fails without a "not ok" line counts
# as one failure.  unit_programs EXT SUITE DESCRIPTION [ENV=VALUE ...]
unit_programs() {
    local ext=$1 suite=$2 desc=$3; shift 3
    local srcs=() c bin out rc p f up=0 uf=0
    mapfile -t srcs < <(cd "$TFP_ROOT" && ls test/unit/*.c 2>/dev/null | LC_ALL=C sort)
    if [ ${#srcs[@]} -eq 0 ]; then note "$suite" "no tests"; return; fi
    for c in "${srcs[@]}"; do
        bin=${c%.c}.$ext
        echo "# $bin"
        if ! tfp_make -s "$bin"; then
            uf=$((uf + 1)); echo "not ok - $c does not compile ($desc)"; continue
        fi
        out=$(cd "$TFP_ROOT" && env "$@" "./$bin" 2>&1); rc=$?
        printf '%s\n' "$out"
        p=$(printf '%s\n' "$out" | grep -cE '^ok( |$)')
        f=$(printf '%s\n' "$out" | grep -cE '^not ok( |$)')
        if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
            f=1; echo "not ok - $bin exited with status $rc"
        fi
        up=$((up + p)); uf=$((uf + f))
    done
    PASSED=$((PASSED + up)); FAILED=$((FAILED + uf))
    note "$suite" "$up passed, $uf failed (${#srcs[@]} programs, $desc)"
}

# C unit tests of the core, plainly and under AddressSanitizer +
# UndefinedBehaviorSanitizer (a report aborts the program: a failure).
run_unit() {
    tfp_log "unit tests"
    unit_programs bin unit "-O2"
    tfp_log "unit tests under ASan + UBSan"
    if ! tfp_make -s test/unit/test_core.san >/dev/null 2>&1; then
        note unit-san "skipped: the compiler cannot build with -fsanitize=address,undefined"
        return
    fi
    unit_programs san unit-san "ASan + UBSan" ASAN_OPTIONS=detect_leaks=0
}

# Value of a variable of the Makefile (e.g. REGRESS, REGRESS_OPTS).
# shellcheck disable=SC2016  # $(VAR) is for make
make_var() {
    tfp_make -s --no-print-directory -f Makefile \
        -f <(printf 'tfp-print-var:\n\t@echo $(%s)\n' "$1") tfp-print-var 2>/dev/null
}

run_regress() {
    local tests opts out rc p f
    if [ ${#REGRESS_TESTS[@]} -gt 0 ]; then
        tests=("${REGRESS_TESTS[@]}")
    else
        read -r -a tests <<<"$(make_var REGRESS)"
    fi
    if [ ${#tests[@]} -eq 0 ]; then note regress "no tests"; return; fi
    read -r -a opts <<<"$(make_var REGRESS_OPTS)"
    [ ${#opts[@]} -gt 0 ] || opts=(--load-extension="$(tfp_extension)")
    tfp_log "pg_regress (${#tests[@]} tests)"
    # pg_regress aborts the whole run on a missing expected file: give such
    # tests an empty one (in a shadow input dir) so they just fail with their
    # whole output in regression.diffs and results/NAME.out.
    local inputdir=. t d missing=()
    for t in "${tests[@]}"; do
        compgen -G "$TFP_ROOT/expected/${t}.out" >/dev/null ||
            compgen -G "$TFP_ROOT/expected/${t}_[0-9].out" >/dev/null || missing+=("$t")
    done
    if [ ${#missing[@]} -gt 0 ]; then
        tfp_warn "no expected output for: ${missing[*]} (they will fail)"
        inputdir=$TFP_TMP/regress-input
        mkdir -p "$inputdir/expected"
        for d in sql input output data; do
            [ -e "$TFP_ROOT/$d" ] && ln -s "$TFP_ROOT/$d" "$inputdir/$d"
        done
        for t in "$TFP_ROOT"/expected/*; do
            [ -e "$t" ] && ln -s "$t" "$inputdir/expected/"
        done
        for t in "${missing[@]}"; do : >"$inputdir/expected/$t.out"; done
    fi
    out=$TFP_TMP/log/regress.out
    (cd "$TFP_ROOT" && rm -rf results regression.diffs regression.out &&
        "$TFP_PG_REGRESS" --inputdir="$inputdir" --outputdir=. --bindir="$TFP_BINDIR" \
            --host="$TFP_SOCKDIR" --port="$TFP_PORT" --user="$TFP_DBUSER" \
            --dbname=contrib_regression "${opts[@]}" "${tests[@]}") 2>&1 | tee "$out"
    rc=${PIPESTATUS[0]}
    # PG15: "test NAME ... ok 12 ms" / "... FAILED";  PG16+: "ok 1 - NAME" / "not ok 1 - NAME"
    p=$(grep -cE '\.\.\. +(ok|failed \(ignored\))( |$)|^ok [0-9]+ ' "$out")
    f=$(grep -cE '\.\.\. +FAILED( |$)|^not ok [0-9]+ ' "$out")
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "pg_regress failed (status $rc)"; fi
    PASSED=$((PASSED + p)); FAILED=$((FAILED + f))
    note regress "$p passed, $f failed"
    if [ "$f" -gt 0 ]; then
        tfp_show "$TFP_ROOT/regression.diffs" "${TFP_DIFF_LINES:-400}"
        tfp_show "$TFP_TMP/log/postgres.log" 40
    fi
}

run_tap() {
    local files=() tapdir pgxs_perl out rc p f pass_env=() v
    if [ ${#TAP_FILES[@]} -gt 0 ]; then
        files=("${TAP_FILES[@]}")
    else
        mapfile -t files < <(cd "$TFP_ROOT" && ls test/t/*.pl 2>/dev/null | LC_ALL=C sort)
    fi
    if [ ${#files[@]} -eq 0 ]; then note tap "no tests"; return; fi
    tfp_log "TAP tests (${#files[@]} files)"
    # Run from a copy of test/ inside the temp dir: the repository may not be
    # readable by the server's OS user (e.g. under /root).
    tapdir=$TFP_TMP/tap
    mkdir -p "$tapdir/tmp_check/log" "$tapdir/tmp"
    tar -C "$TFP_ROOT" --exclude=./test/bench/out -cf - ./test | tar -C "$tapdir" -xf - ||
        { broke tap "cannot copy test/"; return; }
    tfp_chown_pg "$tapdir"
    pgxs_perl=$("$PG_CONFIG" --pkglibdir)/pgxs/src/test/perl
    for v in PG_TEST_EXTRA PG_TEST_TIMEOUT_DEFAULT PG_TEST_NOCLEAN PROVE_FLAGS TEXTFP_LIMITS TEXTFP_SQLSMITH_SECONDS; do
        [ -n "${!v:-}" ] && pass_env+=("$v=${!v}")
    done
    out=$TFP_TMP/log/prove.out
    # Clean environment: private binaries first on PATH (they find the
    # privately installed extension), C.UTF-8 so nodes' initdb picks UTF8.
    # PG15 reads TESTDIR; PG16+ reads TESTDATADIR/TESTLOGDIR.
    # shellcheck disable=SC2016
    tfp_as_pg env -i 3>&- 4>&- \
        HOME="$tapdir" TMPDIR="$tapdir/tmp" LANG=C.UTF-8 \
        PATH="$TFP_BINDIR:/usr/local/bin:/usr/bin:/bin" \
        PERL5LIB="$pgxs_perl:$tapdir/test/t:$tapdir/test/lib${PERL5LIB:+:$PERL5LIB}" \
        PG_REGRESS="$TFP_PG_REGRESS" \
        TESTDIR="$tapdir" TESTDATADIR="$tapdir/tmp_check" TESTLOGDIR="$tapdir/tmp_check/log" \
        TEXTFP_SRCDIR="$tapdir" TEXTFP_DATADIR="$tapdir/test/data" \
        "${pass_env[@]}" \
        sh -c 'cd "$TESTDIR" && exec prove -v ${PROVE_FLAGS:-} "$@"' prove "${files[@]}" \
        2>&1 | tee "$out"
    rc=${PIPESTATUS[0]}
    # top-level assertions only (subtests are indented); TODO failures pass
    p=$(grep -cE '^ok [0-9]+|^not ok [0-9]+.*# *TODO' "$out")
    f=$(grep -E '^not ok [0-9]+' "$out" | grep -cvE '# *TODO')
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "prove failed (status $rc)"; fi
    PASSED=$((PASSED + p)); FAILED=$((FAILED + f))
    note tap "$p passed, $f failed (${#files[@]} files)"
    cp -r "$tapdir/tmp_check/log" "$TFP_TMP/log/tap" 2>/dev/null
    if [ "$rc" -ne 0 ]; then
        local t
        for t in $(sed -nE 's/^(test\/t\/[^ ]+\.pl) +\(Wstat.*/\1/p' "$out"); do
            t=${t##*/}
            tfp_show "$tapdir/tmp_check/log/regress_log_${t%.pl}" 120
        done
    fi
}

# ------------------------------------------------------------ main
main() {
    [ -n "$RUN_TAP" ] && TFP_EXTRA_PACKAGES="${TFP_EXTRA_PACKAGES:-} $TFP_TAP_PACKAGES"
    tfp_install_deps || { broke deps "missing dependencies"; return; }
    local built=1
    tfp_build || { built=; broke build "make failed"; }
    [ -n "$RUN_UNIT" ] && run_unit
    [ -n "$built" ] || return
    [ -n "$RUN_REGRESS$RUN_TAP" ] || return
    tfp_make_tmp || { broke setup "cannot create a temporary directory"; return; }
    tfp_private_install || { broke install "make install into the private tree failed"; return; }
    if [ -n "$RUN_REGRESS" ]; then
        if tfp_start_cluster && tfp_verify_install; then
            run_regress
        else
            broke regress "cluster setup failed"
        fi
        tfp_stop_cluster
    fi
    [ -n "$RUN_TAP" ] && run_tap
    return 0
}

main
DONE=1
exit 0
