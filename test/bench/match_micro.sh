#!/bin/sh
# C micro-benchmark of textfp_match()'s core (test/bench/match_micro.c) on
# N benchmark documents of 2 KB, each kind and language, model 3 (or M):
# CPU time per pair and a checksum of the outputs (equal checksums at the
# same N and ROUNDS: the same outputs), without PostgreSQL.
#   test/bench/match_micro.sh [N] [ROUNDS] [MODEL]   (default 600 3 3)
# perf: perf record -g "$tmp/micro" docs.tsv zh 3 3 plain (see the script).
set -eu
root=$(cd "$(dirname "$0")/../.." && pwd)
n=${1:-600}; rounds=${2:-3}; model=${3:-3}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
# shellcheck disable=SC2046
${CC:-cc} -O2 -g -std=gnu11 -I"$root/src/core" -I"$root/src/core/generated" -o "$tmp/micro" \
    "$root/test/bench/match_micro.c" $(ls "$root"/src/core/*.c "$root"/src/core/generated/*.c) -lm
python3 "$root/tools/make_bench_docs.py" "$n" 2048 > "$tmp/docs.tsv"
for kind in plain copies many; do
    for lang in zh en; do
        "$tmp/micro" "$tmp/docs.tsv" "$lang" "$rounds" "$model" "$kind"
    done
done
