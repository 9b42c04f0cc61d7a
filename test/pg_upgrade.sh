#!/usr/bin/env bash
# A major-version upgrade that loses nothing: a PostgreSQL 15 cluster (this
# Debian 12 machine's) with every textfp index kind (the hamming and passage
# access methods, the GIN, GiST, btree and hash classes, minhash_lsh_ops,
# pinyin_dna_ops, int8_set_ops), generated fingerprint columns, a match
# table and a boilerplate lexicon is upgraded with pg_upgrade to
# PostgreSQL 17, as pg_upgradecluster does on the upgrade to Debian 13;
# afterwards every index is valid (btree ones checked by amcheck), every
# index probe answers as before the upgrade and as a sequential scan, the
# stored fingerprints equal fresh computations, the match table and the
# lexicon are intact, and new rows are indexed and found.
#
#   test/pg_upgrade.sh        as root; about 10 minutes (the Debian 13 root:
#                             debootstrap and apt-get, test/run-pg.sh --prepare 17)
#
# Where it runs: in a throwaway Debian 13 root with PostgreSQL 17, into which
# this machine's PostgreSQL 15 is copied (the libraries of Debian 12 it needs
# that Debian 13 lacks beside it, in /opt/pg15-libs, for the old binaries
# only), textfp built for each.  Prints "ok N - ..." lines; the last line is
# "N passed, N failed"; exit status 1 if a check failed, 3 if the root cannot
# be made.  TFP_PG_ROOT=DIR reuses a root made by test/run-pg.sh --prepare 17
# DIR; TEXTFP_KEEP_TMP=1 keeps it.  Its last result is in docs/operations.md.
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source-path=SCRIPTDIR source=lib/roots.sh
. "$src/test/lib/roots.sh"
n=0 passed=0 failed=0
step() { # description, status
    n=$((n + 1))
    if [ "$2" = 0 ]; then passed=$((passed + 1)); echo "ok $n - pg_upgrade: $1"
    else failed=$((failed + 1)); echo "not ok $n - pg_upgrade: $1"; fi
}
finish() { echo "$passed passed, $failed failed"; [ "$failed" = 0 ] && exit 0; exit 1; }
[ "$(id -u)" = 0 ] || { echo "pg_upgrade.sh: needs root (debootstrap, chroot)" >&2; exit 2; }
old=15 new=17
pg_config_old=/usr/lib/postgresql/$old/bin/pg_config
[ -x "$pg_config_old" ] || { echo "pg_upgrade.sh: PostgreSQL $old is not installed here (postgresql-server-dev-$old)" >&2; exit 2; }

root=${TFP_PG_ROOT:-$(mktemp -d /tmp/textfp-upgrade.XXXXXX)}
keep=${TEXTFP_KEEP_TMP:-}
[ -n "${TFP_PG_ROOT:-}" ] && keep=1
cleanup() { tfp_unmount_root "$root"; [ -n "$keep" ] || rm -rf --one-file-system "$root"; }
trap cleanup EXIT

# 1. the Debian 13 root with PostgreSQL 17 and the build tools
if [ ! -x "$root/usr/lib/postgresql/$new/bin/pg_upgrade" ]; then
    echo "== test/run-pg.sh --prepare $new $root  [$(date +%T)]"
    "$src/test/run-pg.sh" --prepare "$new" "$root" || { echo "pg_upgrade.sh: the Debian 13 root cannot be made here" >&2; echo "$passed passed, $failed failed"; exit 3; }
fi
tfp_mount_root "$root" ||
    { echo "pg_upgrade.sh: cannot mount /proc, /dev, /sys in the root" >&2; exit 3; }


# 2. PostgreSQL 15 of this machine, at the same paths in the root, with
# textfp built for it here
echo "== PostgreSQL $old and textfp for it  [$(date +%T)]"
b15=$(mktemp -d /tmp/textfp-upgrade-build.XXXXXX)
rm -rf "$b15/src"; tfp_copy_tree "$src" "$b15/src"
(cd "$b15/src" && make -s PG_CONFIG="$pg_config_old" TFP_NO_BITCODE=1 with_llvm=no >/dev/null &&
    mkdir -p "$root/usr/lib/postgresql" "$root/usr/share/postgresql" &&
    cp -a --remove-destination "/usr/lib/postgresql/$old" "$root/usr/lib/postgresql/" &&
    cp -a --remove-destination "/usr/share/postgresql/$old" "$root/usr/share/postgresql/" &&
    make -s PG_CONFIG="$pg_config_old" with_llvm=no install DESTDIR="$root" >/dev/null)
step "PostgreSQL $old and textfp built for it are in the root" $?
rm -rf "$b15"
# the libraries of Debian 12 they need that the root lacks (never libc's)
mkdir -p "$root/opt/pg15-libs"
for round in 1 2 3 4; do
    missing=$(for f in "$root/usr/lib/postgresql/$old/bin/"* "$root/usr/lib/postgresql/$old/lib/"*.so; do
        chroot "$root" env LD_LIBRARY_PATH=/opt/pg15-libs ldd "${f#"$root"}" 2>/dev/null; done |
        sed -n 's/^[[:space:]]*\([^ ]*\) => not found.*/\1/p' | sort -u | grep -v '^libLLVM')
    [ -n "$missing" ] || break
    for l in $missing; do
        p=$(ldconfig -p | awk -v l="$l" '$1 == l && /x86-64/ {print $NF; exit}')
        [ -n "$p" ] && cp -L "$p" "$root/opt/pg15-libs/"
    done
done
step "the old binaries find every library they need (${missing:-none missing}; copied: $(ls "$root/opt/pg15-libs" | tr '\n' ' '))" \
    "$([ -z "$missing" ] && echo 0 || echo 1)"

# 3. textfp for PostgreSQL 17, built in the root
echo "== textfp for PostgreSQL $new, in the root  [$(date +%T)]"
rm -rf "$root/work/upgrade-src"; tfp_copy_tree "$src" "$root/work/upgrade-src"
chroot "$root" /bin/bash -c "cd /work/upgrade-src && make -s PG_CONFIG=/usr/lib/postgresql/$new/bin/pg_config with_llvm=no >/dev/null &&
    make -s PG_CONFIG=/usr/lib/postgresql/$new/bin/pg_config with_llvm=no install >/dev/null && chown -R postgres: /work/upgrade-src"
step "textfp built and installed for PostgreSQL $new in the root" $?
[ "$failed" = 0 ] || finish

# 4. as postgres in the root: the old cluster, its answers, pg_upgrade, the
# new cluster's answers and checks
echo "== pg_upgrade $old -> $new  [$(date +%T)]"
chroot "$root" runuser -u postgres -- /bin/bash -c '
    set -u
    old='"$old"' new='"$new"'
    B1=/usr/lib/postgresql/$old/bin B2=/usr/lib/postgresql/$new/bin
    d=/tmp/textfp-upgrade; rm -rf "$d"; mkdir -p "$d"
    cd /work/upgrade-src
    run_old() { LD_LIBRARY_PATH=/opt/pg15-libs "$@"; }
    # no server outlives the run, whatever fails
    trap "run_old $B1/pg_ctl -D $d/old -m immediate stop >/dev/null 2>&1; $B2/pg_ctl -D $d/new -m immediate stop >/dev/null 2>&1" EXIT
    run_old $B1/initdb -D $d/old -E UTF8 --locale=C.UTF-8 -U postgres >$d/initdb-old.log 2>&1 || { echo "FAIL initdb $old"; cat $d/initdb-old.log; exit 1; }
    echo "jit = off" >>$d/old/postgresql.conf
    run_old $B1/pg_ctl -D $d/old -o "-p 5440 -k $d -c listen_addresses=" -l $d/old.log -w start >/dev/null || { echo "FAIL start $old"; tail $d/old.log; exit 1; }
    run_old $B1/psql -X -q -h $d -p 5440 -d postgres -f test/upgrade/setup.sql >$d/setup.out 2>&1 || { echo "FAIL setup"; tail -20 $d/setup.out; exit 1; }
    echo "OK setup: $(run_old $B1/psql -X -At -h $d -p 5440 -d postgres -c "SELECT count(*) || '\'' rows, '\'' || (SELECT count(*) FROM pg_index WHERE indrelid IN ('\''pd'\''::regclass, '\''articles'\''::regclass)) || '\'' indexes, '\'' || (SELECT count(*) FROM matches) || '\'' matches'\'' FROM pd")"
    run_old $B1/psql -X -q -h $d -p 5440 -d postgres -f test/upgrade/answers.sql >$d/before.txt 2>&1 || { echo "FAIL answers before"; tail $d/before.txt; exit 1; }
    run_old $B1/pg_ctl -D $d/old -w stop >/dev/null
    $B2/initdb -D $d/new -E UTF8 --locale=C.UTF-8 -U postgres >$d/initdb-new.log 2>&1 || { echo "FAIL initdb $new"; exit 1; }
    echo "jit = off" >>$d/new/postgresql.conf
    cd $d && LD_LIBRARY_PATH=/opt/pg15-libs $B2/pg_upgrade -b $B1 -B $B2 -d $d/old -D $d/new -p 5440 -P 5441 -s $d >$d/pg_upgrade.log 2>&1
    rc=$?
    if [ $rc = 0 ]; then echo "OK pg_upgrade: $(grep -c "ok$" $d/pg_upgrade.log) checks ok, \"$(grep -m1 "Upgrade Complete" $d/pg_upgrade.log)\""
    else echo "FAIL pg_upgrade (status $rc)"; tail -30 $d/pg_upgrade.log; cat $d/new/pg_upgrade_output.d/*/*.txt $d/new/pg_upgrade_output.d/*/log/* 2>/dev/null | tail -30; exit 1; fi
    cd /work/upgrade-src
    $B2/pg_ctl -D $d/new -o "-p 5441 -k $d -c listen_addresses=" -l $d/new.log -w start >/dev/null || { echo "FAIL start $new"; tail $d/new.log; exit 1; }
    $B2/psql -X -q -h $d -p 5441 -d postgres -f test/upgrade/answers.sql >$d/after.txt 2>&1 || { echo "FAIL answers after"; tail $d/after.txt; exit 1; }
    if cmp -s $d/before.txt $d/after.txt; then echo "OK the $(grep -c "^probe " $d/after.txt) index probes, the stored values, the match table and the lexicon answer as before the upgrade"
    else echo "FAIL answers differ after the upgrade"; diff $d/before.txt $d/after.txt | head -20; fi
    $B2/psql -X -q -h $d -p 5441 -d postgres -f test/upgrade/checks.sql >$d/checks.out 2>&1
    sed -n "s/^\(psql:[^ ]*: \)\{0,1\}\(NOTICE:  \)\{0,1\}\(not ok\|ok\) - /\3 - /p" $d/checks.out | sed "s/^ok - /OK /; s/^not ok - /FAIL /"
    if grep -q "ERROR" $d/checks.out; then echo "FAIL test/upgrade/checks.sql ran to its end"; grep -A3 ERROR $d/checks.out; fi
    [ "$(grep -cE "^(psql:[^ ]*: )?(NOTICE:  )?(not ok|ok) - " $d/checks.out)" = 8 ] || echo "FAIL test/upgrade/checks.sql printed $(grep -cE "^(psql:[^ ]*: )?(NOTICE:  )?(not ok|ok) - " $d/checks.out) of its 8 checks"
    echo "OK server: $($B2/psql -X -At -h $d -p 5441 -d postgres -c "SELECT version()" | cut -d, -f1), textfp $($B2/psql -X -At -h $d -p 5441 -d postgres -c "SELECT extversion FROM pg_extension WHERE extname = '\''textfp'\''")"
    $B2/pg_ctl -D $d/new -w stop >/dev/null
' >"$root/upgrade.out" 2>&1
rc=$?
while IFS= read -r line; do
    case $line in
        OK\ *) step "${line#OK }" 0 ;;
        FAIL\ *) step "${line#FAIL }" 1 ;;
        *) echo "# $line" ;;
    esac
done <"$root/upgrade.out"
[ "$rc" = 0 ] || step "the run in the root ended with status $rc" 1
finish
