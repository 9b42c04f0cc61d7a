#!/usr/bin/env bash
# Every test on another PostgreSQL major version, from a Debian 12 machine:
# the Debian release that ships it (13: Debian 11 "bullseye"; 17: Debian 13
# "trixie") is made into a throwaway root with debootstrap (from Debian's own
# mirror), the source tree is copied into it (tracked and untracked files,
# not build products) and test/run-tests.sh runs there with TFP_PG_MAJOR set;
# the harness installs postgresql-MAJOR and the rest inside.
# The last line is the suite's "N passed, N failed"; exit status as usual,
# except 3 when the root cannot be made (debootstrap, mirror, mounts), so
# that a caller can tell that from failing tests.
#
#   test/run-pg.sh MAJOR [SUITE ...]     as root; MAJOR 13 or 17; the
#                                        other arguments go to run-tests.sh
#   test/run-pg.sh --prepare MAJOR DIR   only make the root in DIR and
#                                        install the harness's packages
#                                        there (the network-bound part; a
#                                        later run with TFP_PG_ROOT=DIR
#                                        skips it); exit 3 if it fails
#
# Settings: TFP_PG_SCRIPT (what runs in the root instead of
# test/run-tests.sh, e.g. test/harden/plan_stability.sh), TFP_PG_ROOT (default: a new directory under /tmp, removed at the
# end unless TEXTFP_KEEP_TMP=1), TFP_DEBIAN_MIRROR (default
# http://deb.debian.org/debian).  Takes about 5 minutes, most of it
# debootstrap and apt-get.
set -euo pipefail
src=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source-path=SCRIPTDIR source=lib/roots.sh
. "$src/test/lib/roots.sh"
mirror=${TFP_DEBIAN_MIRROR:-http://deb.debian.org/debian}
prepare=
if [ "${1:-}" = --prepare ]; then
    prepare=1
    shift
    [ $# -eq 2 ] || { echo "usage: test/run-pg.sh --prepare 13|17 DIR" >&2; exit 2; }
    TFP_PG_ROOT=$2
fi
major=${1:-}
case $major in
    13) suite=bullseye; release="Debian 11" ;;
    17) suite=trixie; release="Debian 13" ;;
    *) echo "usage: test/run-pg.sh 13|17 [SUITE ...]" >&2; exit 2 ;;
esac
shift
setup_failed() { echo "run-pg.sh $major: $*" >&2; exit 3; }
if [ "$(id -u)" != 0 ]; then
    echo "run-pg.sh: needs root (debootstrap, chroot, mounts)" >&2
    exit 2
fi
if ! command -v debootstrap >/dev/null 2>&1; then
    { DEBIAN_FRONTEND=noninteractive apt-get -q update &&
      DEBIAN_FRONTEND=noninteractive apt-get -q -y install debootstrap; } >/dev/null 2>&1 ||
        setup_failed "cannot install debootstrap"
fi
root=${TFP_PG_ROOT:-$(mktemp -d /tmp/textfp-pg$major.XXXXXX)}
mkdir -p "$root"
chmod 755 "$root"				# its / (mktemp makes it 0700: postgres could not run a thing)

# Citus's build in the root (test/t/CitusTap.pm, PostgreSQL 15 to 17) goes
# to a cache directory of the host, bind-mounted there, so that it is made
# once per machine like the host's own (build.sh reuses a finished build);
# TFP_CITUS_CACHE sets the host directory
citus_cache=
case $major in 17) citus_cache=${TFP_CITUS_CACHE:-/var/tmp/textfp-citus-cache} ;; esac
unmount() {
    if [ -n "$citus_cache" ]; then umount "$root/var/cache/textfp-citus" 2>/dev/null || true; fi
    tfp_unmount_root "$root"
}
# what a chroot into the root needs: name resolution, /proc, /dev, /sys
# (undone by unmount)
mount_root() {
    tfp_mount_root "$root" || setup_failed "cannot mount /proc, /dev, /sys in the root"
    if [ -n "$citus_cache" ] && mkdir -p "$citus_cache" "$root/var/cache/textfp-citus"; then
        chmod 1777 "$citus_cache"
        mountpoint -q "$root/var/cache/textfp-citus" ||
            mount --bind "$citus_cache" "$root/var/cache/textfp-citus" || citus_cache=
    fi
}
cleanup() {
    unmount
    [ -n "${TEXTFP_KEEP_TMP:-}" ] || rm -rf --one-file-system "$root"
}
if [ -n "$prepare" ]; then trap unmount EXIT; else trap cleanup EXIT; fi

if [ ! -x "$root/usr/bin/apt-get" ]; then
    echo "== debootstrap $suite into $root  [$(date +%T)]"
    debootstrap --variant=minbase "$suite" "$root" "$mirror" > "$root.debootstrap.log" 2>&1 || {
        tail -20 "$root.debootstrap.log"; rm -f "$root.debootstrap.log"
        setup_failed "debootstrap of $release failed"; }
    rm -f "$root.debootstrap.log"
fi
if [ -n "$prepare" ]; then
    # the packages test/run-tests.sh would install there (test/lib/common.sh)
    pkgs=$(TFP_PG_MAJOR=$major bash -c '. "$1/test/lib/common.sh" && echo "$TFP_DEB_PACKAGES $TFP_TAP_PACKAGES"' x "$src")
    mount_root
    # shellcheck disable=SC2086
    chroot "$root" /bin/bash -c 'DEBIAN_FRONTEND=noninteractive apt-get -q update &&
        DEBIAN_FRONTEND=noninteractive apt-get -q -y --no-install-recommends install '"$pkgs" \
        > "$root.apt.log" 2>&1 || { tail -20 "$root.apt.log"; rm -f "$root.apt.log"
                                     setup_failed "apt-get install in the $release root failed"; }
    rm -f "$root.apt.log"
    echo "== $release root ready in $root  [$(date +%T)]"
    exit 0
fi
mkdir -p "$root/work/main"
# the source files, not build products: everything but .git and what
# .gitignore names (a fresh Debian 12 has no git to ask)
tfp_copy_tree "$src" "$root/work/main"
# (-L: ../shared may be a symbolic link, whose target the root does not have)
[ -d "$src/../shared" ] && cp -aL "$src/../shared" "$root/work/shared"
mount_root
# the cached Citus build belongs to the root's postgres user (its uid may
# differ from one root to the next)
chroot "$root" /bin/bash -c '
    if [ -n "'"$citus_cache"'" ]; then
        export TEXTFP_CITUS_WORKDIR=/var/cache/textfp-citus/citus-'"$major"'
        id postgres >/dev/null 2>&1 && chown -R postgres: /var/cache/textfp-citus/. 2>/dev/null
    fi
    cd /work/main && TFP_PG_MAJOR='"$major"' '"${TFP_PG_SCRIPT:-test/run-tests.sh}"' "$@"' run-pg "$@"
