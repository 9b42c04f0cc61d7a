# shellcheck shell=bash
# Helpers of the long hardening runs (test/harden/asan.sh, valgrind.sh):
# a copy of the source tree to build with other flags, and the wrapper that
# runs the server binary under a sanitizer runtime or valgrind
# (test/lib/common.sh installs it through TFP_SERVER_WRAPPER).

HARDEN_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
HARDEN_SRC=$(cd "$HARDEN_DIR/../.." && pwd)

# Copy the source files (not build products: what .gitignore names is left
# out, as test/run-pg.sh does) to a new directory; echo its path.
harden_copy_tree() {
    local dest excl=(--exclude=./.git) pat
    dest=$(mktemp -d "${TFP_TMPDIR:-/tmp}/textfp-harden.XXXXXX") || return 1
    chmod 755 "$dest"
    while IFS= read -r pat; do
        case $pat in '' | '#'*) continue ;; esac
        pat=${pat%/}
        case $pat in /*) excl+=("--exclude=.$pat") ;; *) excl+=("--exclude=$pat") ;; esac
    done <"$HARDEN_SRC/.gitignore"
    tar -C "$HARDEN_SRC" "${excl[@]}" -cf - . | tar -C "$dest" -xf - || return 1
    echo "$dest"
}

# Write a wrapper script to $1 that sets the environment lines given on
# stdin and runs the real server, under the command prefix $2 (e.g. valgrind
# and its options) for a server (postmaster) run only: initdb's bootstrap and
# single-user runs and -V / -C queries run the binary directly.
harden_write_wrapper() {
    local file=$1 prefix=$2
    {
        echo '#!/bin/sh'
        echo '# written by test/harden/lib.sh: the server under a sanitizer runtime or valgrind'
        cat
        echo 'real="$(dirname "$0")/postgres.real"'
        echo 'for a in "$@"; do'
        echo '    case $a in --boot|--single|-V|--version|-C|--describe-config) exec "$real" "$@" ;; esac'
        echo 'done'
        echo "exec $prefix \"\$real\" \"\$@\""
    } >"$file"
    chmod 755 "$file"
}
