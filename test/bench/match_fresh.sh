#!/usr/bin/env bash
# textfp_match()'s shipped models on fresh held-out samples, read once:
# set 2's generator with a new seed on its test files only, none of the
# (article, neighbour) pairs the set of seed 26002 drew there, the pairs whose
# articles share no paragraph with its draws first (tools/make_match_set2.py
# --fresh-after 26002; its split column says how fresh), and set 1's
# generator on its test books only, without the sections its default build
# draws (tools/make_match_set.py --fresh); every pair's verdict and score from
# textfp_match(a, b) on a throwaway cluster (test/bench/match_features.sh),
# reported by tools/eval_match_fresh.py (docs/match.md, "A fresh sample,
# read once").
#
#   test/bench/match_fresh.sh [SEED] [PER_FILE] [PER_BOOK]
#       (default 20261128 1000 40, every pair set 2's test files hold: the
#       figures of docs/match.md)
#
# env: MATCH_FRESH_DIR (default /tmp/match_fresh): the sets and features.
# Needs the packages of tools/make_match_set.py and tools/make_match_set2.py,
# and python3-numpy.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
seed=${1:-20261128}; per_file=${2:-1000}; per_book=${3:-40}
dir=${MATCH_FRESH_DIR:-/tmp/match_fresh}; mkdir -p "$dir"
py=/usr/bin/python3     # Debian's, with python3-numpy
echo "== fresh set 2: seed $seed, per file $per_file"
"$py" "$root/tools/make_match_set2.py" --seed "$seed" --per-file "$per_file" --fresh-after 26002 > "$dir/fresh2.tsv"
echo "== fresh set 1: seed $seed, per book $per_book"
"$py" "$root/tools/make_match_set.py" --seed "$seed" --per-book "$per_book" --fresh > "$dir/fresh1.tsv"
"$here/match_features.sh" "$dir/fresh2.tsv" "$dir/f2.tsv" "$dir/fresh1.tsv" "$dir/f1.tsv"
"$py" "$root/tools/eval_match_fresh.py" set2 "$dir/fresh2.tsv" "$dir/f2.tsv" set1 "$dir/fresh1.tsv" "$dir/f1.tsv"
