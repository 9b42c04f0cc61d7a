#!/usr/bin/env bash
# Bit balance of simhash(text) on real text that the centering reference
# did not see: each fingerprint bit's share of 1s (ideal 50%), centered (the
# default) and plain (center => false), over the paragraphs and over 2 KB
# runs of paragraphs of Debian's manual pages (English: package manpages and
# whatever else is installed; Chinese: manpages-zh), next to the sample
# corpus's own paragraphs.  A C program over the pure core, no PostgreSQL.
#
#   test/bench/bit_balance.sh          (as root it installs what is missing)
#
# Reported in README, "Bit balance and centering".
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
if [ "$(id -u)" = 0 ]; then
    need=""
    for p in manpages manpages-zh gcc libc6-dev libxxhash-dev python3; do
        dpkg -s "$p" >/dev/null 2>&1 || need="$need $p"
    done
    [ -z "$need" ] || DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null
fi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
${CC:-cc} -O2 -I"$root/src/core" -I"$root/src/core/generated" -o "$tmp/bit_balance" "$root/tools/bit_balance.c" \
    "$root/src/core/tfp_features.c" "$root/src/core/tfp_simhash.c" "$root/src/core/tfp_simhash_balance.c" "$root/src/core/generated/tfp_simhash_ref.c" \
    "$root/src/core/tfp_unicode.c" "$root/src/core/generated/tfp_unicode_data.c" -lm

echo "== sample corpus (test/data/pool_*.txt: the reference's own text), paragraphs"
for lang in zh en; do
    echo " $lang"
    awk 'length($0) >= 12' "$root/test/data/pool_$lang.txt" | "$tmp/bit_balance"
done
for lang in zh en; do
    for mode in para 2k; do
        echo "== manual pages, $lang, $([ $mode = para ] && echo 'distinct paragraphs' || echo 'distinct 2 KB runs of paragraphs')"
        python3 "$root/tools/man_text.py" "$lang" "$mode" 40000 | "$tmp/bit_balance"
    done
done
