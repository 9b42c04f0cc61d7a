#!/usr/bin/env bash
# Agreement of pinyin_initials with the npm package pinyin-pro on real
# Chinese text: every 5th line of test/data/pool_zh.txt, first LINES lines
# (default 4000).  Installs pinyin-pro into a temporary directory (needs
# node and npm, Debian packages nodejs npm, and network access), builds
# tools/pinyin_letters.c against the pure core, runs tools/compare_pinyin.mjs.
#   test/bench/pinyin_compare.sh [LINES]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
n=${1:-4000}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
(cd "$tmp" && npm init -y >/dev/null && npm install --silent pinyin-pro@3 >/dev/null)
echo "pinyin-pro $(node -p "require('$tmp/node_modules/pinyin-pro/package.json').version")"
${CC:-cc} -O2 -I"$root/src/core" -I"$root/src/core/generated" -o "$tmp/letters" "$root/tools/pinyin_letters.c" "$root"/src/core/tfp_pinyin*.c "$root"/src/core/generated/tfp_pinyin*.c "$root"/src/core/tfp_sort.c "$root"/src/core/tfp_unicode.c "$root"/src/core/tfp_features.c "$root"/src/core/generated/tfp_unicode_data.c -lm
awk -v n="$n" 'NR % 5 == 0 && ++c <= n' "${POOL:-$root/test/data/pool_zh.txt}" > "$tmp/lines.txt"
"$tmp/letters" -l < "$tmp/lines.txt" > "$tmp/ours.txt"
NODE_PATH="$tmp/node_modules" node "$root/tools/compare_pinyin.mjs" "$tmp/lines.txt" "$tmp/ours.txt"
