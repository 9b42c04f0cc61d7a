#!/usr/bin/env bash
# The Debian package, built and installed as an administrator would: from a
# copy of the source tree (tracked and untracked files, not build products),
# `dpkg-buildpackage -us -uc` builds postgresql-15-textfp (debian/:
# pg_buildext, one package per version of debian/pgversions that the
# machine supports), lintian finds no error in it, and then, in a clean
# Debian 12 root made with debootstrap, `apt-get install ./...deb` installs
# it (with the PostgreSQL server it depends on) and its autopkgtest,
# debian/tests/installcheck (`pg_buildext installcheck`: the pg_regress
# suite against the installed package, on a throwaway cluster), passes.
#
#   test/package.sh           as root; about 8 minutes, most of it
#                             debootstrap, apt-get and the regression suite
#
# Prints "ok N - ..." / "not ok N - ..." for each step; the last line is
# "N passed, N failed"; exit status 1 if a step failed, 3 if the clean root
# cannot be made here (debootstrap, mirror, mounts).  TFP_DEBIAN_MIRROR
# (default http://deb.debian.org/debian), TFP_DEBIAN_SECURITY_MIRROR
# (http://deb.debian.org/debian-security); TEXTFP_KEEP_TMP=1 keeps the work
# directory.  test/run-tests.sh --full runs it in the background as the
# "package" suite.
set -uo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source-path=SCRIPTDIR source=lib/roots.sh
. "$src/test/lib/roots.sh"
mirror=${TFP_DEBIAN_MIRROR:-http://deb.debian.org/debian}
n=0 passed=0 failed=0
step() { # description, status
    n=$((n + 1))
    if [ "$2" = 0 ]; then passed=$((passed + 1)); echo "ok $n - package: $1"
    else failed=$((failed + 1)); echo "not ok $n - package: $1"; fi
}
finish() {
    echo "$passed passed, $failed failed"
    [ "$failed" = 0 ] && exit 0
    exit 1
}
if [ "$(id -u)" != 0 ]; then
    echo "package.sh: needs root (apt-get, debootstrap, chroot)" >&2
    exit 2
fi

# the tools of the build, as the package's Build-Depends and a packager's
# machine have them
need=()
for p in debhelper postgresql-server-dev-all libxxhash-dev lintian fakeroot dpkg-dev debootstrap; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || need+=("$p")
done
if [ ${#need[@]} -gt 0 ]; then
    echo "== apt-get install ${need[*]}  [$(date +%T)]"
    { DEBIAN_FRONTEND=noninteractive apt-get -q update &&
      DEBIAN_FRONTEND=noninteractive apt-get -q -y --no-install-recommends install "${need[@]}"; } </dev/null >/tmp/textfp-package-apt.log 2>&1
    rc=$?
    [ "$rc" = 0 ] || tail -20 /tmp/textfp-package-apt.log
    rm -f /tmp/textfp-package-apt.log
    step "the build tools are installed (${need[*]})" "$rc"
    [ "$rc" = 0 ] || finish
fi

work=$(mktemp -d /tmp/textfp-package.XXXXXX)
chmod 755 "$work"
root=$work/root
root_pid=''
cleanup() {
    # the root still being made (a step failed before it was waited for)
    if [ -n "$root_pid" ]; then pkill -TERM -P "$root_pid" 2>/dev/null; kill "$root_pid" 2>/dev/null; wait "$root_pid" 2>/dev/null; fi
    tfp_unmount_root "$root"
    [ -n "${TEXTFP_KEEP_TMP:-}" ] || rm -rf --one-file-system "$work"
}
trap cleanup EXIT

version=$(sed -n '1s/^textfp (\([^)]*\)).*/\1/p' "$src/debian/changelog")
tree=$work/textfp-$version
tfp_copy_tree "$src" "$tree"

# 0. the clean Debian 12 root, made in the background while the package
# builds (debootstrap, then the server the package will depend on and the
# autopkgtest's own dependencies, debian/tests/control but for "@"), so that
# only the package itself is installed there once it exists
tdeps=$(sed -n '/^Depends:/,/^[A-Z]/p' "$src/debian/tests/control" | sed '1s/^Depends://; /^[A-Z]/d' |
        tr ',' '\n' | sed 's/^ *//; s/ *$//' | grep -v '^@$' | grep . | tr '\n' ' ')
servers=$(for v in $(cd "$src" && pg_buildext supported-versions 2>/dev/null); do printf 'postgresql-%s ' "$v"; done)
make_root() {
    echo "== debootstrap bookworm into $root  [$(date +%T)]"
    if ! debootstrap --variant=minbase bookworm "$root" "$mirror" >"$work/debootstrap.log" 2>&1; then
        tail -20 "$work/debootstrap.log"
        echo "package.sh: a clean Debian 12 root cannot be made here"
        return 3
    fi
    # a Debian 12 as installed: its updates and security suites beside the
    # release (debootstrap sets up the release alone), where the build
    # machine's server, and so the package's dependency on it, may come from
    cat >"$root/etc/apt/sources.list" <<EOF
deb $mirror bookworm main
deb $mirror bookworm-updates main
deb ${TFP_DEBIAN_SECURITY_MIRROR:-http://deb.debian.org/debian-security} bookworm-security main
EOF
    tfp_mount_root "$root" || { echo "package.sh: cannot mount /proc, /dev, /sys in the root"; return 3; }
    echo "== apt-get install $servers$tdeps in the root  [$(date +%T)]"
    chroot "$root" /bin/bash -c 'DEBIAN_FRONTEND=noninteractive apt-get -q update &&
        DEBIAN_FRONTEND=noninteractive apt-get -q -y --no-install-recommends install '"$servers$tdeps" \
        </dev/null >"$work/deps.log" 2>&1 || { tail -30 "$work/deps.log"; echo "package.sh: apt-get install in the clean root failed"; return 3; }
    return 0
}
make_root >"$work/root.log" 2>&1 &
root_pid=$!

# 1. build (the build-time test is the installcheck below, in the clean root)
echo "== dpkg-buildpackage -us -uc ($version)  [$(date +%T)]"
(cd "$tree" && DEB_BUILD_OPTIONS=nocheck dpkg-buildpackage -us -uc) >"$work/build.log" 2>&1
rc=$?
[ "$rc" = 0 ] || tail -40 "$work/build.log"
step "dpkg-buildpackage -us -uc builds the package" "$rc"
[ "$rc" = 0 ] || finish
debs=("$work"/postgresql-*-textfp_"$version"_*.deb)
step "it made ${#debs[@]} package(s): $(cd "$work" && echo postgresql-*-textfp_"$version"_*.deb)" "$([ -e "${debs[0]}" ] && echo 0 || echo 1)"
[ -e "${debs[0]}" ] || finish
contents=$(dpkg-deb -c "${debs[0]}")
for f in textfp.so extension/textfp.control "extension/textfp--${version%.0}.sql"; do
    grep -q "/$f\$" <<<"$contents"; step "the package holds $f" $?
done

# 2. lintian: no error
echo "== lintian  [$(date +%T)]"
lintian --fail-on error --no-tag-display-limit "$work"/textfp_"$version"_*.changes >"$work/lintian.log" 2>&1
rc=$?
cat "$work/lintian.log"
step "lintian reports no error" "$rc"

# 3. in the clean Debian 12 root: install the package with apt-get, run its
# autopkgtest there
wait "$root_pid"
rc=$?
root_pid=''
cat "$work/root.log"
if [ "$rc" != 0 ]; then
    echo "$(grep '^package.sh:' "$work/root.log" | tail -1)" >&2
    echo "$passed passed, $failed failed"
    exit 3
fi
mkdir -p "$root/work"
cp "${debs[@]}" "$root/work/"
tfp_copy_tree "$src" "$root/work/src"
echo "== apt-get install ./$(basename "${debs[0]}") $tdeps in the root  [$(date +%T)]"
# shellcheck disable=SC2016
chroot "$root" /bin/bash -c 'cd /work && DEBIAN_FRONTEND=noninteractive apt-get -q update &&
    DEBIAN_FRONTEND=noninteractive apt-get -q -y --no-install-recommends install ./postgresql-*-textfp_*.deb '"$tdeps" \
    </dev/null >"$work/install.log" 2>&1
rc=$?
[ "$rc" = 0 ] || tail -30 "$work/install.log"
step "apt-get install ./$(basename "${debs[0]}") in a clean Debian 12 root" "$rc"
[ "$rc" = 0 ] || finish
for f in "${debs[@]}"; do
    pkg=$(dpkg-deb -f "$f" Package)
    chroot "$root" dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'
    step "$pkg is installed there, with $(chroot "$root" dpkg-query -W -f='${Depends}' "$pkg")" $?
done
echo "== debian/tests/installcheck in the root  [$(date +%T)]"
chroot "$root" /bin/bash -c 'cd /work/src && debian/tests/installcheck' </dev/null >"$work/installcheck.log" 2>&1
rc=$?
# pg_regress's own lines (PostgreSQL 15: "test NAME ... ok"), and its summary
grep -E '^(test |ok |not ok |     [A-Za-z]|=+$| All [0-9]+ tests passed| [0-9]+ of [0-9]+ tests failed)' "$work/installcheck.log" | grep -v '^=*$'
[ "$rc" = 0 ] || tail -60 "$work/installcheck.log"
tests=$(grep -cE '^test .* \.\.\. +ok|^ok [0-9]+ ' "$work/installcheck.log")
step "the installed package passes its regression suite (pg_buildext installcheck: $tests tests ok)" "$([ "$rc" = 0 ] && [ "$tests" -gt 0 ] && echo 0 || echo 1)"
finish
