#!/bin/sh
# C micro-benchmark of the pinyin core (conversion to initials, DNA windows)
# next to MD5, without PostgreSQL.  Needs libssl-dev.
#   test/bench/pinyin_micro.sh [TEXT]     (default test/data/pool_zh.txt)
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -O2 -Wno-deprecated-declarations -I"$root/src/core" -I"$root/src/core/generated" -o "$tmp/micro" \
    "$root/test/bench/pinyin_micro.c" "$root"/src/core/tfp_pinyin*.c "$root"/src/core/generated/tfp_pinyin*.c "$root"/src/core/tfp_sort.c "$root"/src/core/tfp_cpu.c "$root"/src/core/tfp_unicode.c "$root"/src/core/tfp_features.c "$root"/src/core/generated/tfp_unicode_data.c -lm -lcrypto
"$tmp/micro" < "${1:-$root/test/data/pool_zh.txt}"
