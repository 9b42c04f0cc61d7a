#!/bin/sh
# C micro-benchmark of the pinyin core (conversion to initials, DNA windows)
# next to MD5, without PostgreSQL.  Needs libssl-dev.
#   test/bench/pinyin_micro.sh [TEXT]     (default test/data/pool_zh.txt)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -O2 -Wno-deprecated-declarations -I"$root/src" -o "$tmp/micro" \
    "$root/test/bench/pinyin_micro.c" "$root"/src/tfp_pinyin*.c "$root"/src/tfp_sort.c "$root"/src/tfp_cpu.c "$root"/src/tfp_unicode*.c -lm -lcrypto
"$tmp/micro" < "${1:-$root/test/data/pool_zh.txt}"
