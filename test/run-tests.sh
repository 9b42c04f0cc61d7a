#!/usr/bin/env bash
# Build textfp and run its test suites on a throwaway cluster.  The last line
# printed is "N passed, N failed", totalled over every suite (and, with
# --full, every PostgreSQL version); exit status 1 if anything failed or a
# step broke.  See test/README.md.
#
# Usage: test/run-tests.sh [--full] [unit|docs|regress|tap] [sql/NAME[.sql]] [test/t/NAME.pl] ...
#   no argument: the fast default (minutes): the C unit tests once, the
#     docs' links, the pg_regress tests (every SQL object; in parallel
#     streams; $REGRESS_FULL_ONLY in --full only), and the TAP tests that
#     guard correctness ($TAP_DEFAULT below: replica, standby, crash,
#     dump/restore, upgrade).
#   --full (what CI runs): also the unit tests under ASan + UBSan, every TAP
#     test (sqlsmith, limits, logical replication, postgres_fdw, pg_cron, the
#     report in Chromium, the SQL sweep ...; 2 files at a time from
#     PostgreSQL 15 on), the Debian package (test/package.sh), and, as root
#     on PostgreSQL 15, pg_regress and the TAP tests $TAP_VERSIONED on
#     PostgreSQL 13 and 17 (test/run-pg.sh; the unit tests and the other
#     TAP tests exercise code that is the same on every version), in the
#     background beside 15.  A skipped part of it fails the run.
#   --no-san, --no-stress, --no-other-versions: leave those parts out of --full.
#   Env: TEXTFP_SKIP_TAP=1, TEXTFP_KEEP_TMP=1, TFP_REGRESS_JOBS (streams of
#   pg_regress, default the cores, at most 4), TFP_TAP_PARALLEL=0 (TAP after
#   pg_regress, not beside it), TFP_TAP_JOBS (TAP files at a time),
#   TFP_OTHER_VERSIONS (--full: default "13 17"; empty: PostgreSQL 15
#   only), TFP_OTHER_ARGS (what they run, default "--full regress" and the
#   files of $TAP_VERSIONED), TFP_PACKAGE=0 (--full without the package), and the
#   settings listed in test/lib/common.sh.
set -uo pipefail

# shellcheck source-path=SCRIPTDIR source=lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib/common.sh"

PASSED=0
FAILED=0
SUMMARY=()       # one line per suite, printed before the total

# The TAP tests of the default run: those that guard correctness across a
# server's life: a streaming replica's answers (001), the hamming index on a
# standby, after a crash and under concurrent writers (032), the passage
# index the same (034), dump/restore
# (050), every upgrade path (100).  --full runs every test/t/*.pl.
TAP_DEFAULT="001_simhash_replica 032_hamming_am 034_passage_am 050_dump_restore 100_upgrade"
# pg_regress tests of --full only: stress that the TAP limits test (130)
# covers too (a 500 MiB text).  Every SQL object is in the others.
REGRESS_FULL_ONLY="simhash_large"
# The regress clusters run without autovacuum: what a test prints depends
# only on its own statements, however slow the machine.  That the outputs do
# not change when a worker visits between statements anyway (make
# installcheck on a live server) is what test/harden/plan_stability.sh
# checks.  A TFP_PG_CONF of the caller's comes after, and so can set it.
REGRESS_PG_CONF="autovacuum = off${TFP_PG_CONF:+
$TFP_PG_CONF}"
# The stress tests: the SQL sweep (040), sqlsmith (120), limits (130).  They
# exercise the C code, which is the same on every PostgreSQL version, so the
# --full run on 13 and 17 leaves them out (--no-stress) and 15 runs them.
TAP_STRESS="040_sql_sweep 120_sqlsmith_smoke 130_limits"
# With several TAP jobs, the slowest files start first (prove runs them in
# the order given): the last measured order, longest first.
TAP_SLOW_FIRST="140_citus 033_hamming_merge 130_limits 141_citus_pairs 142_citus_arrivals 143_citus_sources 040_sql_sweep 032_hamming_am 120_sqlsmith_smoke"

note() { SUMMARY+=("$(printf '  %-8s %s' "$1" "$2")"); }
# What failed, in a few lines each (stdin), printed again just before the
# summary: a CI log that keeps only its tail still names the failing test and
# the start of its diff.  Kept in a file (made where finish is armed, which
# removes it), so that background suites add too.
FAIL_DIGEST=''
fail_digest() { # heading; the detail lines on stdin
    [ -n "$FAIL_DIGEST" ] || { cat >/dev/null; return 0; }
    { echo "-- $1"; head -n "${TFP_DIGEST_LINES:-30}"; } >>"$FAIL_DIGEST"
}
# A suite or test that was skipped: listed in the summary; in --full (what
# CI runs) it was promised, so it counts as a failure with its reason, except
# where the feature does not exist on this PostgreSQL version ($SKIP_BY_VERSION).
SKIPPED=()
SKIP_BY_VERSION='needs PostgreSQL 15 or later|supports PostgreSQL 15-17, this is'
skipped() { # suite what reason
    if [ -n "$FULL" ] && ! [[ $3 =~ $SKIP_BY_VERSION ]]; then
        FAILED=$((FAILED + 1)); SKIPPED+=("$1: $2: $3 (fails --full)")
        echo "$2: skipped, which --full does not allow: $3" | fail_digest "$1"
    else
        SKIPPED+=("$1: $2: $3")
    fi
}
broke() { # step message: a step that broke counts as one failure
    FAILED=$((FAILED + 1)); note "$1" "BROKEN: $2"; tfp_err "$1: $2"
}

# ------------------------------------------------------------ arguments
RUN_UNIT='' RUN_DOCS='' RUN_REGRESS='' RUN_TAP=''
REGRESS_TESTS=() TAP_FILES=()
FULL='' RUN_SAN='' OTHER_VERSIONS=''
NO_SAN='' NO_OTHER='' NO_STRESS=''
args=()
for a in "$@"; do
    case $a in
        --full) FULL=1 ;;
        # used by the --full run itself for PostgreSQL 13 and 17 (test/run-pg.sh)
        --no-san) NO_SAN=1 ;;
        --no-other-versions) NO_OTHER=1 ;;
        --no-stress) NO_STRESS=1 ;;
        -h|--help) sed -n '2,26p' "$0"; exit 0 ;;
        *) args+=("$a") ;;
    esac
done
if [ ${#args[@]} -eq 0 ]; then
    RUN_UNIT=1 RUN_DOCS=1 RUN_REGRESS=1 RUN_TAP=1
    [ -n "$FULL" ] && [ -z "$NO_SAN" ] && RUN_SAN=1
    [ -n "$FULL" ] && [ -z "$NO_OTHER" ] && [ "$TFP_PG_MAJOR" = 15 ] && tfp_is_root &&
        OTHER_VERSIONS=${TFP_OTHER_VERSIONS-13 17}
fi
for a in "${args[@]}"; do
    case $a in
        unit) RUN_UNIT=1; [ -n "$FULL" ] && [ -z "$NO_SAN" ] && RUN_SAN=1 ;;
        docs) RUN_DOCS=1 ;;
        regress) RUN_REGRESS=1 ;;
        tap) RUN_TAP=1 ;;
        sql/*|*.sql) t=${a#sql/}; REGRESS_TESTS+=("${t%.sql}"); RUN_REGRESS=1 ;;
        *.pl) t=${a#test/}; TAP_FILES+=("test/${t#./}"); RUN_TAP=1 ;;
        *) echo "unknown argument: $a (use --full, unit, docs, regress, tap, sql/NAME, test/t/NAME.pl)" >&2; exit 2 ;;
    esac
done
[ -n "${TEXTFP_SKIP_TAP:-}" ] && RUN_TAP=''
# the fast default builds no LLVM bitcode; --full builds what a user installs
[ -z "$FULL" ] && TFP_NO_BITCODE=${TFP_NO_BITCODE-1}


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
    if [ -n "${PACKAGE_LOG:-}" ]; then
        kill "$PACKAGE_PID" 2>/dev/null; wait "$PACKAGE_PID" 2>/dev/null; rm -f "$PACKAGE_LOG" "$PACKAGE_LOG.rc"
    fi
    if [ -n "$OTHER_DIR" ]; then
        # interrupted or broke before collecting: stop the other versions
        kill $(jobs -p) 2>/dev/null; wait; unmount_other_roots
        rm -rf --one-file-system "$OTHER_DIR"
    fi
    tfp_cleanup
    if [ -n "$FAIL_DIGEST" ]; then
        if [ -s "$FAIL_DIGEST" ]; then
            echo "== failures (their first lines; the whole output is above)"
            head -n 150 "$FAIL_DIGEST"
        fi
        rm -f "$FAIL_DIGEST"
    fi
    echo "== summary"
    [ ${#SUMMARY[@]} -gt 0 ] && printf '%s\n' "${SUMMARY[@]}"
    if [ ${#SKIPPED[@]} -gt 0 ]; then
        echo "  skipped:"; printf '    %s\n' "${SKIPPED[@]}"
    fi
    echo "$PASSED passed, $FAILED failed"
    [ "$FAILED" -eq 0 ] && [ "$rc" -eq 0 ] && exit 0
    exit 1
}
# Keep the original stdout/stderr as fds 3/4 for finish.  Commands that
# leave processes behind (pg_ctl start, prove) get 3/4 closed, so that a
# stray postmaster never holds a CI log pipe open.
exec 3>&1 4>&2
FAIL_DIGEST=$(mktemp /tmp/textfp-failures.XXXXXX) || FAIL_DIGEST=''
trap finish EXIT
trap 'exit 130' INT TERM

# ------------------------------------------------------------ suites

# Build (make targets test/unit/NAME.EXT, all at once with make's jobs) and
# run each test/unit/*.c on its own, as many at a time as there are cores,
# their output printed in name order; count TAP lines; a program that fails
# without a "not ok" line counts as one failure.
# unit_programs EXT SUITE DESCRIPTION [ENV=VALUE ...]
unit_programs() {
    local ext=$1 suite=$2 desc=$3; shift 3
    local srcs=() bins=() c bin out rc p f up=0 uf=0 i w pids=()
    local jobs=${TFP_UNIT_JOBS:-$(nproc 2>/dev/null || echo 2)} d=$TFP_TMP/unit-$ext
    mapfile -t srcs < <(cd "$TFP_ROOT" && ls test/unit/*.c 2>/dev/null | LC_ALL=C sort)
    if [ ${#srcs[@]} -eq 0 ]; then note "$suite" "no tests"; return; fi
    for c in "${srcs[@]}"; do bins+=("${c%.c}.$ext"); done
    mkdir -p "$d"; rm -f "$d"/*
    # one make for all (parallel); if it fails, each on its own to name the culprits
    if ! tfp_make -s "${bins[@]}"; then
        for i in "${!bins[@]}"; do
            tfp_make -s "${bins[i]}" >"$d/$i.make" 2>&1 ||
                echo "not ok - ${srcs[i]} does not compile ($desc)" >"$d/$i.out"
        done
    fi
    # $jobs workers, worker w running programs w, w + jobs, ... in turn
    for ((w = 0; w < jobs; w++)); do
        ( for ((i = w; i < ${#bins[@]}; i += jobs)); do
              if [ -e "$d/$i.out" ]; then echo 1 >"$d/$i.rc"; continue; fi
              (cd "$TFP_ROOT" && env "$@" "./${bins[i]}") >"$d/$i.out" 2>&1
              echo $? >"$d/$i.rc"
          done ) &
        pids+=($!)
    done
    wait "${pids[@]}"
    for i in "${!bins[@]}"; do
        bin=${bins[i]}
        echo "# $bin"
        cat "$d/$i.make" 2>/dev/null
        out=$(cat "$d/$i.out" 2>/dev/null); rc=$(cat "$d/$i.rc" 2>/dev/null || echo 1)
        printf '%s\n' "$out"
        p=$(printf '%s\n' "$out" | grep -cE '^ok( |$)')
        f=$(printf '%s\n' "$out" | grep -cE '^not ok( |$)')
        if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
            f=1; echo "not ok - $bin exited with status $rc"
            echo "not ok - exited with status $rc" | fail_digest "$suite: $bin"
        elif [ "$f" -gt 0 ]; then
            printf '%s\n' "$out" | grep -E '^not ok( |$)' | fail_digest "$suite: $bin"
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
    run_layers
    unit_programs bin unit "-O2"
}

run_unit_san() {
    tfp_log "unit tests under ASan + UBSan"
    if ! tfp_make -s test/unit/test_core.san >/dev/null 2>&1; then
        note unit-san "skipped: the compiler cannot build with -fsanitize=address,undefined"
        skipped unit-san "the sanitizer build" "the compiler cannot build with -fsanitize=address,undefined"
        return
    fi
    unit_programs san unit-san "ASan + UBSan" ASAN_OPTIONS=detect_leaks=0
}

# The line between the wings (tools/check_core.sh, run by make): the core
# passes, and a planted PostgreSQL include (in a header; in a .c file through
# a header it cannot find) fails.
run_layers() {
    local d=$TFP_TMP/layers p=0 f=0 cc=${CC:-cc}
    mkdir -p "$d"
    layer_check() { # description expected-status files...
        local desc=$1 want=$2; shift 2
        "$TFP_ROOT/tools/check_core.sh" "$cc" "$@" >/dev/null 2>&1
        if [ "$?" -eq "$want" ]; then p=$((p + 1)); echo "ok - layers: $desc"
        else f=$((f + 1)); echo "not ok - layers: $desc"; fi
    }
    layer_check "src/core/ needs no PostgreSQL header" 0 "$TFP_ROOT"/src/core/*.[ch] "$TFP_ROOT"/src/core/generated/*.c
    { cat "$TFP_ROOT/src/core/tfp_sort.h"; echo '#include "utils/builtins.h"'; } >"$d/tfp_sort.h"
    layer_check "a core header naming utils/builtins.h fails" 1 "$d/tfp_sort.h"
    printf '#include <stdint.h>\n#include "fmgr.h"\nint x;\n' >"$d/planted.c"
    layer_check "a core file naming fmgr.h fails" 1 "$d/planted.c"
    printf '#include "tfp_planted_pg.h"\nint x;\n' >"$d/planted2.c"
    layer_check "a core file that needs a header from outside the core fails" 1 "$d/planted2.c"
    PASSED=$((PASSED + p)); FAILED=$((FAILED + f))
    note layers "$p passed, $f failed (tools/check_core.sh)"
    run_release_check
}

# The release discipline (tools/check_release.sh: one version everywhere,
# every release frozen, no change of SQL objects after a release without a
# new version), and that it fails on a copy whose install script differs
# from the frozen one of its released version.
run_release_check() {
    local out p=0 f=0 d=$TFP_TMP/release
    out=$("$TFP_ROOT/tools/check_release.sh" 2>&1)
    echo "$out"
    p=$(grep -c '^ok ' <<<"$out"); f=$(grep -c '^not ok ' <<<"$out")
    [ "$p" -gt 0 ] || f=$((f + 1))
    mkdir -p "$d/tools" "$d/debian"
    cp -r "$TFP_ROOT"/{textfp.control,Makefile,META.json,CHANGELOG.md,upgrade} "$TFP_ROOT"/textfp--*.sql "$d/" &&
        cp "$TFP_ROOT/debian/changelog" "$d/debian/" && cp "$TFP_ROOT/tools/check_release.sh" "$d/tools/"
    # the copy releases the version (its CHANGELOG heading dated, its two
    # scripts frozen), which passes; then a change of its install script fails
    local v pv
    v=$(make_var EXTVERSION) pv=$(make_var PREVVERSION)
    sed -i "s/^## $v — unreleased\$/## $v — 2099-01-01/" "$d/CHANGELOG.md"
    cp "$d/textfp--$v.sql" "$d/textfp--$pv--$v.sql" "$d/upgrade/"
    if "$d/tools/check_release.sh" >"$d/out" 2>&1 && grep -q "^ok - release: $v is released" "$d/out"; then
        p=$((p + 1)); echo "ok - release: the version released in a copy passes the check"
    else
        f=$((f + 1)); echo "not ok - release: the version released in a copy passes the check"; cat "$d/out"
    fi
    echo "-- a comment added after the release" >>"$d/textfp--$v.sql"
    if "$d/tools/check_release.sh" >"$d/out" 2>&1; then
        f=$((f + 1)); echo "not ok - release: a changed install script of a released version fails the check"
    else
        p=$((p + 1)); echo "ok - release: a changed install script of a released version fails the check"
    fi
    PASSED=$((PASSED + p)); FAILED=$((FAILED + f))
    [ "$f" -gt 0 ] && grep '^not ok' <<<"$out" | fail_digest release
    note release "$p passed, $f failed (tools/check_release.sh)"
}

# Every relative link and anchor of README.md and docs/ resolves
# (test/lib/check_links.py; its --self-test first shows that it can fail).
run_docs() {
    local out p f rc
    tfp_log "docs: links and anchors"
    command -v python3 >/dev/null 2>&1 || { broke docs "python3 is missing"; return; }
    out=$TFP_TMP/log/docs.out
    (cd "$TFP_ROOT" && python3 test/lib/check_links.py --self-test && python3 test/lib/check_links.py) >"$out" 2>&1
    rc=$?
    p=$(grep -cE '^ok [0-9]+' "$out")
    f=$(grep -cE '^not ok [0-9]+' "$out")
    grep -E '^not ok' "$out"
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; tail -20 "$out"; fi
    PASSED=$((PASSED + p)); FAILED=$((FAILED + f))
    note docs "$p passed, $f failed (links and anchors of README.md and docs/)"
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
        # the stress tests among them run in --full only
        if [ -z "$FULL" ]; then
            local t0 kept0=()
            for t0 in "${tests[@]}"; do
                case " $REGRESS_FULL_ONLY " in *" $t0 "*) ;; *) kept0+=("$t0") ;; esac
            done
            tests=("${kept0[@]}")
        fi
    fi
    if [ ${#tests[@]} -eq 0 ]; then note regress "no tests"; return; fi
    read -r -a opts <<<"$(make_var REGRESS_OPTS)"
    [ ${#opts[@]} -gt 0 ] || opts=(--load-extension="$(tfp_extension)")
    # PGXS adds --dbname=contrib_regression; the streams give it
    local o kept=()
    for o in "${opts[@]}"; do case $o in --dbname=*) ;; *) kept+=("$o") ;; esac; done
    opts=("${kept[@]}")
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
    # The tests run in $jobs streams at once, each a pg_regress of its own
    # against a cluster of its own (the first stream uses the main one): in
    # one cluster, a stream's long transaction would hold back the others'
    # snapshots (an index built with indcheckxmin would not be used, plans
    # would change).  The longest tests first, each to the stream with the
    # least work so far.  Outputs are gathered into results/ and
    # regression.diffs of the tree, as one run would.
    local jobs=${TFP_REGRESS_JOBS:-$(nproc 2>/dev/null || echo 2)} j w best
    [ "$jobs" -gt 4 ] && jobs=4
    [ "$jobs" -gt ${#tests[@]} ] && jobs=${#tests[@]}
    [ "$jobs" -ge 1 ] || jobs=1
    local -a load=() stream=() order=()
    for ((j = 0; j < jobs; j++)); do load[j]=0; stream[j]=''; done
    mapfile -t order < <(for t in "${tests[@]}"; do echo "$(regress_weight "$t") $t"; done | sort -k1,1nr -k2,2 | cut -d' ' -f2)
    for t in "${order[@]}"; do
        best=0
        for ((j = 1; j < jobs; j++)); do [ "${load[j]}" -lt "${load[best]}" ] && best=$j; done
        stream[best]+=" $t"; w=$(regress_weight "$t"); load[best]=$((load[best] + w))
    done
    out=$TFP_TMP/log/regress.out
    (cd "$TFP_ROOT" && rm -rf results regression.diffs regression.out && mkdir -p results)
    local pids=()
    for ((j = 0; j < jobs; j++)); do
        # shellcheck disable=SC2086
        (   if [ "$j" -gt 0 ]; then
                TFP_CLUSTER_NAME=$j TFP_PORT=$((TFP_PORT + j)) TFP_CLUSTER_STARTED=
                TFP_PG_CONF=$REGRESS_PG_CONF
                tfp_start_cluster >/dev/null || { echo "stream $j: cluster setup failed"; exit 2; }
                trap tfp_stop_cluster EXIT
            fi
            cd "$TFP_ROOT" &&
            "$TFP_PG_REGRESS" --inputdir="$inputdir" --outputdir="$TFP_TMP/regress$j" --bindir="$TFP_BINDIR" \
                --host="$TFP_SOCKDIR" --port="$TFP_PORT" --user="$TFP_DBUSER" \
                --dbname=contrib_regression "${opts[@]}" ${stream[j]}
        ) >"$out.$j" 2>&1 3>&- 4>&- &
        pids+=($!)
    done
    rc=0
    for ((j = 0; j < jobs; j++)); do
        wait "${pids[j]}" || rc=1
        echo "-- stream $((j + 1)) of $jobs:${stream[j]}"
        cat "$out.$j"
        cat "$out.$j" >>"$out"
        cp "$TFP_TMP/regress$j"/results/*.out "$TFP_ROOT/results/" 2>/dev/null
        cat "$TFP_TMP/regress$j/regression.diffs" >>"$TFP_ROOT/regression.diffs" 2>/dev/null
    done
    # PG15: "test NAME ... ok 12 ms" / "... FAILED";  PG16+: "ok 1 - NAME" / "not ok 1 - NAME"
    p=$(grep -cE '\.\.\. +(ok|failed \(ignored\))( |$)|^ok [0-9]+ ' "$out")
    f=$(grep -cE '\.\.\. +FAILED( |$)|^not ok [0-9]+ ' "$out")
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "pg_regress failed (status $rc)"; fi
    PASSED=$((PASSED + p)); FAILED=$((FAILED + f))
    note regress "$p passed, $f failed ($jobs streams$([ -z "$FULL" ] && [ ${#REGRESS_TESTS[@]} -eq 0 ] && echo "; --full adds: $REGRESS_FULL_ONLY"))"
    if [ "$f" -gt 0 ]; then
        local name
        # PG15: "test NAME ... FAILED" (or indented, in a group); PG16+: "not ok N - NAME"
        for name in $(sed -nE 's/^(test +| +)?([A-Za-z0-9_]+) +\.\.\. +FAILED.*/\2/p; s/^not ok [0-9]+ +[-+] +([A-Za-z0-9_]+).*/\1/p' "$out"); do
            awk -v n="$name" '/^diff /{on = ($0 ~ ("/results/" n "\\.out"))} on' "$TFP_ROOT/regression.diffs" |
                fail_digest "regress: $name"
        done
        [ "$rc" -ne 0 ] && ! grep -qE '\.\.\. +FAILED|^not ok ' "$out" && tail -n 20 "$out" | fail_digest "regress: pg_regress status $rc"
        tfp_show "$TFP_ROOT/regression.diffs" "${TFP_DIFF_LINES:-400}"
        for j in "$TFP_TMP"/log/postgres*.log; do tfp_show "$j" 40; done
    fi
}

# Rough seconds of a regression test on two cores (for the streams' balance;
# a test not listed counts as 2).
regress_weight() {
    case $1 in
        hamming) echo 45 ;;  simhash_index_prop) echo 25 ;;  hamming_merge|minhash_gin) echo 20 ;;
        parallel) echo 19 ;;  pinyin_simd) echo 17 ;;  simhash_large) echo 10 ;;  passage_simd) echo 6 ;;
        simhash_reference) echo 8 ;;  simhash_bits) echo 7 ;;
        partitioned|imatch|supershingles|arrivals|minhash_real|sets_large) echo 5 ;;
        pinyin_gin|simhash_index_ops|spotsigs|html_text) echo 4 ;;
        minhash_type|sentences|clusters|align) echo 3 ;;
        *) echo 2 ;;
    esac
}

# Citus for test/t/140_citus.pl: ../shared/citus (source, patch, build.sh)
# copied to a fixed path readable by the server's OS user, so that build.sh
# (whose stamp names its own path) reuses a finished build from one run to
# the next.  On PostgreSQL 15 (in CI: on the host), or wherever
# TEXTFP_CITUS=1 (16 and 17: TEXTFP_CITUS=1 test/run-pg.sh 17 ..., whose
# Citus build test/run-pg.sh keeps in a cache directory of the host).
TFP_CITUS_SRC=${TFP_CITUS_SRC:-/var/tmp/textfp-citus-src-$(id -un)}
citus_source() {
    local from=$TFP_ROOT/../shared/citus f
    [ -x "$from/build.sh" ] || return 1
    [ "$TFP_PG_MAJOR" = 15 ] || [ "${TEXTFP_CITUS:-}" = 1 ] || return 1
    mkdir -p "$TFP_CITUS_SRC" || return 1
    for f in "$from"/*; do
        cmp -s "$f" "$TFP_CITUS_SRC/${f##*/}" || cp "$f" "$TFP_CITUS_SRC/" || return 1
    done
    chmod -R a+rX "$TFP_CITUS_SRC"
    return 0
}

# --full: Citus for 140-143 is built from the start, in the background, into
# the work directory the tests use (its build is the longest step of the TAP
# run: started there, it held the TAP files behind it); a test that starts
# first waits on the work directory's lock (test/t/CitusTap.pm) and reuses
# the build.  No LLVM bitcode (the JIT's inlining copies, a third of the
# build): the Citus nodes run with jit = off.  A failed build here is
# retried, and reported, by the test.
TEXTFP_CITUS_WORKDIR=${TEXTFP_CITUS_WORKDIR:-/tmp/textfp-citus-$TFP_PG_MAJOR-$(if tfp_is_root; then echo "$TFP_PG_OSUSER"; else id -un; fi)}
start_citus_build() {
    [ -n "$FULL" ] && [ -n "$RUN_TAP" ] && [ ${#TAP_FILES[@]} -eq 0 ] && [ -z "${TEXTFP_SKIP_TAP:-}" ] || return 0
    citus_source || return 0
    local wd=$TEXTFP_CITUS_WORKDIR dest=$TFP_TMP/citus-prebuild
    tfp_log "Citus: built in $wd, in the background"
    mkdir -p "$dest" && tfp_chown_pg "$dest"
    tfp_as_pg env MAKEFLAGS=with_llvm=no flock "$wd.lock" \
        "$TFP_CITUS_SRC/build.sh" --pg-config "$PG_CONFIG" --workdir "$wd" --destdir "$dest" \
        >"$TFP_TMP/log/citus-build.log" 2>&1 </dev/null 3>&- 4>&- &
}

run_tap() {
    local files=() tapdir pgxs_perl out rc p f pass_env=() v
    if [ ${#TAP_FILES[@]} -gt 0 ]; then
        files=("${TAP_FILES[@]}")
    elif [ -n "$FULL" ]; then
        mapfile -t files < <(cd "$TFP_ROOT" && ls test/t/*.pl 2>/dev/null | LC_ALL=C sort)
        if [ -n "$NO_STRESS" ]; then
            for v in $TAP_STRESS; do files=("${files[@]/test\/t\/$v.pl}"); done
        fi
        # the report in Chromium (090) is promised on 15, where chromium is
        # installed (test/lib/common.sh); elsewhere it is left out, not skipped
        if [ "$TFP_PG_MAJOR" != 15 ] && [ "${TFP_CHROMIUM:-}" != 1 ]; then
            files=("${files[@]/test\/t\/090_report_render.pl}")
            note tap "090_report_render runs on PostgreSQL 15 (or with TFP_CHROMIUM=1)"
        fi
        # so are the Citus tests (140-149), whose Citus build is the
        # costliest step of CI; on 16 and 17 with TEXTFP_CITUS=1
        if [ "$TFP_PG_MAJOR" != 15 ] && [ "${TEXTFP_CITUS:-}" != 1 ]; then
            mapfile -t files < <(printf '%s\n' "${files[@]}" | grep -v '^test/t/14[0-9]_citus')
            note tap "140-143 (Citus) run on PostgreSQL 15 (or with TEXTFP_CITUS=1)"
        fi
    else
        for v in $TAP_DEFAULT; do files+=("test/t/$v.pl"); done
    fi
    mapfile -t files < <(printf '%s\n' "${files[@]}" | grep .)
    if [ ${#files[@]} -eq 0 ]; then note tap "no tests"; return; fi
    # Jobs: TFP_TAP_JOBS, else 2 for --full from PostgreSQL 15 on (its test
    # modules reserve ports with lock files; 13's do not), else 1.
    local jobs=${TFP_TAP_JOBS:-1}
    if [ -z "${TFP_TAP_JOBS:-}" ] && [ -n "$FULL" ] && [ "$TFP_PG_MAJOR" -ge 15 ]; then jobs=2; fi
    if [ "$jobs" -gt 1 ]; then
        local ordered=() x
        for v in $TAP_SLOW_FIRST; do
            for x in "${files[@]}"; do [ "$x" = "test/t/$v.pl" ] && ordered+=("$x"); done
        done
        for x in "${files[@]}"; do
            case " ${ordered[*]} " in *" $x "*) ;; *) ordered+=("$x") ;; esac
        done
        files=("${ordered[@]}")
    fi
    tfp_log "TAP tests (${#files[@]} files, $jobs at a time)"
    # Run from a copy of test/ inside the temp dir: the repository may not be
    # readable by the server's OS user (e.g. under /root).
    tapdir=$TFP_TMP/tap
    mkdir -p "$tapdir/tmp_check/log" "$tapdir/tmp"
    # (not test/unit: the sanitizer build may be writing there right now)
    tfp_tar_create -C "$TFP_ROOT" --exclude=./test/bench/out --exclude=./test/unit ./test | tar -C "$tapdir" -xf - ||
        { broke tap "cannot copy test/"; return; }
    tfp_chown_pg "$tapdir"
    pgxs_perl=$("$PG_CONFIG" --pkglibdir)/pgxs/src/test/perl
    citus_source && pass_env+=("TEXTFP_CITUS_SRC=$TFP_CITUS_SRC")
    for v in PG_TEST_EXTRA PG_TEST_TIMEOUT_DEFAULT PG_TEST_NOCLEAN PROVE_FLAGS TEXTFP_LIMITS TEXTFP_SQLSMITH_SECONDS TEXTFP_CITUS_WORKDIR; do
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
        sh -c 'cd "$TESTDIR" && exec prove -v --timer -j"$0" ${PROVE_FLAGS:-} "$@"' "$jobs" "${files[@]}" \
        2>&1 | tee "$out"
    rc=${PIPESTATUS[0]}
    # top-level assertions only (subtests are indented); TODO failures pass;
    # skipped assertions and files are not passes: they are listed (and in
    # --full fail, see skipped)
    p=$(grep -E '^ok [0-9]+|^not ok [0-9]+.*# *TODO' "$out" | grep -cviE '^ok [0-9]+[^#]*# *skip')
    local file='' line nskip=${#SKIPPED[@]}
    while IFS= read -r line; do
        if [[ $line =~ ^\[[0-9:]+\]\ (test/t/[^ ]+\.pl)\ \.+\ ?(skipped:\ (.*))?$ ]]; then
            file=${BASH_REMATCH[1]}
            [ -n "${BASH_REMATCH[2]}" ] && skipped tap "$file" "${BASH_REMATCH[3]}"
        elif [[ $line =~ ^ok\ ([0-9]+)[^#]*#\ *[sS][kK][iI][pP]\ *(.*)$ ]]; then
            skipped tap "$file, test ${BASH_REMATCH[1]}" "${BASH_REMATCH[2]}"
        fi
    done <"$out"
    f=$(grep -E '^not ok [0-9]+' "$out" | grep -cvE '# *TODO')
    if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then f=1; echo "prove failed (status $rc)"; fi
    PASSED=$((PASSED + p)); FAILED=$((FAILED + f))
    nskip=$(( ${#SKIPPED[@]} - nskip ))
    note tap "$p passed, $f failed$([ "$nskip" -gt 0 ] && echo ", $nskip skipped$([ -n "$FULL" ] && echo ' (each a failure in --full but where the version lacks the feature)')") (${#files[@]} files)"
    cp -r "$tapdir/tmp_check/log" "$TFP_TMP/log/tap" 2>/dev/null
    if [ "$rc" -ne 0 ]; then
        local t
        { grep -E '^not ok [0-9]+' "$out" | grep -vE '# *TODO'
          sed -n '/^Test Summary Report/,/^Files=/p' "$out"; } | fail_digest "tap"
        for t in $(sed -nE 's/^(test\/t\/[^ ]+\.pl) +\(Wstat.*/\1/p' "$out"); do
            t=${t##*/}
            tfp_show "$tapdir/tmp_check/log/regress_log_${t%.pl}" 120
        done
    fi
}

# ------------------------------------------------------------ other versions
# --full as root on PostgreSQL 15: the suites on 13 and 17 as well, each in a
# throwaway root of the Debian release that ships it (test/run-pg.sh), in the
# background beside 15: the root is made (debootstrap and package downloads:
# network-bound), then its tests run ($OTHER_ARGS: pg_regress and TAP; the
# unit tests and sanitizer builds run on 15 only).  A root that cannot be
# made here (run-pg.sh exit 3) fails the run with the reason (--full
# promised it); failing tests fail.
OTHER_DIR=''
# What PostgreSQL 13 and 17 run: pg_regress (every SQL object), and the TAP
# tests of what differs from one server version to the next: replication
# and a standby (001, 060), the access methods on a standby, after a crash
# and under writers (032, 034; on 13 they skip: no access method there),
# dump/restore (050), the update paths (100) and the install scripts under
# a hostile search_path (115).  The rest exercises the same C code and SQL
# on every version and runs on 15.
TAP_VERSIONED="001_simhash_replica 032_hamming_am 034_passage_am 050_dump_restore 060_logical_replication 100_upgrade 115_hostile_search_path"
OTHER_ARGS=${TFP_OTHER_ARGS:---full regress $(for v in $TAP_VERSIONED; do printf 'test/t/%s.pl ' "$v"; done)}
start_other_versions() {
    [ -n "$OTHER_VERSIONS" ] || return 0
    OTHER_DIR=$(mktemp -d /tmp/textfp-roots.XXXXXX) || { broke other "cannot create a temporary directory"; OTHER_VERSIONS=''; return; }
    # debootstrap on the host first, so that the background jobs and this
    # run's own apt-get do not both run the host's apt-get
    if ! command -v debootstrap >/dev/null 2>&1; then
        tfp_log "installing debootstrap (PostgreSQL $OTHER_VERSIONS)"
        { DEBIAN_FRONTEND=noninteractive apt-get -q update &&
          DEBIAN_FRONTEND=noninteractive apt-get -q -y install debootstrap; } </dev/null >"$OTHER_DIR/debootstrap-install" 2>&1 3>&- 4>&-
    fi
    local major
    for major in $OTHER_VERSIONS; do
        tfp_log "PostgreSQL $major: test/run-pg.sh $major $OTHER_ARGS, in the background"
        { "$TFP_ROOT/test/run-pg.sh" --prepare "$major" "$OTHER_DIR/pg$major" >"$OTHER_DIR/prepare$major" 2>&1
          rc=$?
          if [ "$rc" = 0 ]; then
              # shellcheck disable=SC2086
              # (no LLVM bitcode there: the JIT's inlining copies, built and
              # installed on 15)
              TFP_NO_BITCODE=1 TFP_PG_ROOT="$OTHER_DIR/pg$major" "$TFP_ROOT/test/run-pg.sh" "$major" \
                  $OTHER_ARGS >"$OTHER_DIR/log$major" 2>&1
              rc=$?
          fi
          echo "$rc" >"$OTHER_DIR/rc$major"; } </dev/null 3>&- 4>&- &
    done
}

unmount_other_roots() {
    local r m
    for r in "$OTHER_DIR"/pg*; do
        [ -d "$r" ] || continue
        for m in var/cache/textfp-citus sys dev proc; do umount -R "$r/$m" 2>/dev/null || umount -l "$r/$m" 2>/dev/null || true; done
    done
}

# The counts of the last "N passed, N failed" line of a log ("0 0" if none
# or no log), as "passed failed".
last_counts() { # LOG
    local last
    last=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$1" 2>/dev/null | tail -1)
    if [ -n "$last" ]; then
        echo "${last%% passed*} $(echo "${last#*passed, }" | cut -d' ' -f1)"
    else
        echo "0 0"
    fi
}

# Wait for the other versions, print their output, add their counts.
collect_other_versions() {
    [ -n "$OTHER_DIR" ] || return 0
    local major rc p f
    wait
    for major in $OTHER_VERSIONS; do
        echo "== PostgreSQL $major (test/run-pg.sh $major $OTHER_ARGS)"
        cat "$OTHER_DIR/prepare$major" "$OTHER_DIR/log$major" 2>/dev/null
        rc=$(cat "$OTHER_DIR/rc$major" 2>/dev/null || echo 1)
        if [ "$rc" = 3 ]; then
            note "pg$major" "skipped: its Debian root could not be made here (see above)"
            skipped "pg$major" "PostgreSQL $major" "its Debian root could not be made here: $(tail -n 1 "$OTHER_DIR/prepare$major" 2>/dev/null)"
            continue
        fi
        read -r p f < <(last_counts "$OTHER_DIR/log$major")
        # a run that failed without a failing test (build, setup) counts as one
        [ "$rc" != 0 ] && [ "$f" = 0 ] && f=1
        if [ "$f" != 0 ]; then
            { sed -n '/^== failures/,/^== summary/p' "$OTHER_DIR/log$major" | sed '1d;$d'
              sed -n '/^== summary/,$p' "$OTHER_DIR/log$major"; } | TFP_DIGEST_LINES=60 fail_digest "PostgreSQL $major"
        fi
        PASSED=$((PASSED + p)); FAILED=$((FAILED + f))
        note "pg$major" "$p passed, $f failed (PostgreSQL $major)"
        # what it skipped (its own --full already failed what it may not skip)
        local sk
        while IFS= read -r sk; do SKIPPED+=("pg$major ${sk#    }"); done < <(
            sed -n '/^== summary/,$p' "$OTHER_DIR/log$major" | sed -n '/^  skipped:$/,/^[0-9]* passed, /p' | grep '^    ')
    done
    unmount_other_roots
    rm -rf --one-file-system "$OTHER_DIR"
    OTHER_DIR=''
}

# ------------------------------------------------------------ the package
# --full as root (on PostgreSQL 15, not asked otherwise by TFP_PACKAGE=0):
# test/package.sh in the background: the Debian package built, linted,
# installed in a clean Debian 12 root and tested there (its build tools
# join this run's own apt-get, so that the two never hold dpkg's lock at
# once).  A root that cannot be made (exit 3) fails the run too.
PACKAGE=''
if [ -n "$FULL" ] && [ ${#args[@]} -eq 0 ] && [ "$TFP_PG_MAJOR" = 15 ] && tfp_is_root &&
    [ "${TFP_PACKAGE:-1}" != 0 ]; then
    PACKAGE=1
    TFP_EXTRA_PACKAGES="${TFP_EXTRA_PACKAGES:-} debhelper postgresql-server-dev-all lintian fakeroot dpkg-dev debootstrap"
    # the package builds, installs and tests the LLVM bitcode (JIT inlining)
    # as PGXS does; this run's own build need not build it once more
    TFP_NO_BITCODE=${TFP_NO_BITCODE-1}
fi
PACKAGE_LOG=''
start_package() {
    [ -n "$PACKAGE" ] || return 0
    PACKAGE_LOG=$(mktemp /tmp/textfp-package-log.XXXXXX)
    tfp_log "package: test/package.sh, in the background"
    { "$TFP_ROOT/test/package.sh" >"$PACKAGE_LOG" 2>&1; echo "$?" >"$PACKAGE_LOG.rc"; } </dev/null 3>&- 4>&- &
    PACKAGE_PID=$!
}
collect_package() {
    [ -n "$PACKAGE_LOG" ] || return 0
    local rc p f
    wait "$PACKAGE_PID"
    echo "== the Debian package (test/package.sh)"
    cat "$PACKAGE_LOG"
    rc=$(cat "$PACKAGE_LOG.rc" 2>/dev/null || echo 1)
    read -r p f < <(last_counts "$PACKAGE_LOG")
    if [ "$rc" = 3 ]; then
        skipped package "the Debian package's clean root" "$(grep '^package.sh:' "$PACKAGE_LOG" | tail -1)"
    elif [ "$rc" != 0 ] && [ "$f" = 0 ]; then
        f=1
    fi
    [ "$f" != 0 ] && grep '^not ok' "$PACKAGE_LOG" | fail_digest package
    PASSED=$((PASSED + p)); FAILED=$((FAILED + f))
    note package "$p passed, $f failed (test/package.sh)"
    rm -f "$PACKAGE_LOG" "$PACKAGE_LOG.rc"
    PACKAGE_LOG=''
}

# ------------------------------------------------------------ main
main() {
    # pg_cron (080) and Chromium (090) serve TAP tests of --full only
    if [ -n "$RUN_TAP" ] && { [ -n "$FULL" ] || [ ${#TAP_FILES[@]} -gt 0 ]; }; then
        TFP_EXTRA_PACKAGES="${TFP_EXTRA_PACKAGES:-} $TFP_TAP_PACKAGES"
    fi
    [ -n "$FULL" ] || TFP_OPTIONAL_PACKAGES=''
    start_other_versions
    tfp_install_deps || { broke deps "missing dependencies"; return; }
    start_package
    tfp_make_tmp || { broke setup "cannot create a temporary directory"; return; }
    start_citus_build
    local built=1 installed='' tap_bg=''
    tfp_build || { built=; broke build "make failed"; }
    # The TAP tests run beside the unit tests, the docs' check and pg_regress
    # (they mostly wait: server starts, replication, pgbench), from as soon
    # as the extension is installed, their output printed after the rest;
    # TFP_TAP_PARALLEL=0 runs them after pg_regress instead.
    if [ -n "$built" ] && [ -n "$RUN_REGRESS$RUN_TAP" ]; then
        if tfp_private_install; then
            installed=1
        else
            broke install "make install into the private tree failed"
        fi
    fi
    if [ -n "$installed" ] && [ -n "$RUN_TAP" ] && [ -n "$RUN_REGRESS$RUN_UNIT$RUN_DOCS" ] &&
        [ "${TFP_TAP_PARALLEL:-1}" = 1 ]; then
        bg_start tap run_tap; tap_bg=1
    fi
    [ -n "$RUN_UNIT" ] && run_unit
    [ -n "$RUN_DOCS" ] && run_docs
    # The sanitizer builds (--full) run beside what follows (they need no
    # server), their output printed after it.
    if [ -n "$RUN_SAN" ] && [ -n "$RUN_REGRESS$RUN_TAP" ] && [ -n "$built" ]; then
        bg_start unit-san run_unit_san
    elif [ -n "$RUN_SAN" ]; then
        run_unit_san
    fi
    if [ -n "$installed" ]; then
        if [ -n "$RUN_REGRESS" ]; then
            if TFP_PG_CONF=$REGRESS_PG_CONF tfp_start_cluster && tfp_verify_install; then
                run_regress
            else
                broke regress "cluster setup failed"
            fi
            tfp_stop_cluster
        fi
        if [ -n "$tap_bg" ]; then bg_collect tap; elif [ -n "$RUN_TAP" ]; then run_tap; fi
    fi
    bg_collect unit-san
    return 0
}

# A suite in the background: bg_start NAME FUNCTION runs the function in a
# subshell with counters of its own, its output to a log; bg_collect NAME
# waits for it, prints that output and adds its counts and summary lines
# (nothing if it was not started).
declare -A BG_PID=()
bg_start() { # name function
    local name=$1 fn=$2
    tfp_log "$name: in the background (its output follows the rest)"
    rm -f "$TFP_TMP/$name.counts" "$TFP_TMP/$name.summary" "$TFP_TMP/$name.skipped"
    ( PASSED=0 FAILED=0 SUMMARY=() SKIPPED=()
      "$fn"
      echo "$PASSED $FAILED" >"$TFP_TMP/$name.counts"
      [ ${#SUMMARY[@]} -gt 0 ] && printf '%s\n' "${SUMMARY[@]}" >"$TFP_TMP/$name.summary"
      [ ${#SKIPPED[@]} -gt 0 ] && printf '%s\n' "${SKIPPED[@]}" >"$TFP_TMP/$name.skipped"
    ) </dev/null >"$TFP_TMP/log/$name-run.out" 2>&1 3>&- 4>&- &
    BG_PID[$name]=$!
}
bg_collect() { # name
    local name=$1 p f lines=()
    [ -n "${BG_PID[$name]:-}" ] || return 0
    wait "${BG_PID[$name]}"
    unset "BG_PID[$name]"
    cat "$TFP_TMP/log/$name-run.out"
    if read -r p f <"$TFP_TMP/$name.counts" 2>/dev/null; then
        PASSED=$((PASSED + p)); FAILED=$((FAILED + f))
        [ -s "$TFP_TMP/$name.summary" ] && mapfile -t lines <"$TFP_TMP/$name.summary" && SUMMARY+=("${lines[@]}")
        [ -s "$TFP_TMP/$name.skipped" ] && mapfile -t lines <"$TFP_TMP/$name.skipped" && SKIPPED+=("${lines[@]}")
    else
        broke "$name" "the background run left no counts"
    fi
}

main
collect_package
collect_other_versions
DONE=1
exit 0
