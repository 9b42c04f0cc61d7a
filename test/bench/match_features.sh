#!/usr/bin/env bash
# What textfp_match's models read (textfp_match_features) for every pair of
# labelled sets, for tools/fit_match.py, and textfp_match's own verdicts and
# scores (every model) to check that the fitted formulas are the C ones.
#
#   test/bench/match_features.sh SET.tsv OUT.tsv [SET.tsv OUT.tsv ...]
#
# SET.tsv: pairs as tools/make_match_set.py and tools/make_match_set2.py
# write them (pair_id split kind lang label book a b, plus any columns after
# b, ignored here).  OUT.tsv: pair_id, the 26 values of
# textfp_match_features(a, b), then model 1's verdict and z (ln(score / (1 - score))) and the
# default model's.
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
[ $# -ge 2 ] && [ $(($# % 2)) = 0 ] || { echo "usage: $0 SET.tsv OUT.tsv [...]" >&2; exit 2; }
tfp_setup_cluster
tfp_psql -c 'CREATE EXTENSION textfp'
n=0
# z from a score (the logit; +-1e300 where the score rounds to 1 or 0)
zof() { echo "CASE WHEN $1.score >= 1 THEN 1e300 WHEN $1.score <= 0 THEN -1e300 ELSE ln($1.score / (1 - $1.score)) END"; }
Z1=$(zof m1); Z=$(zof m)
while [ $# -ge 2 ]; do
    n=$((n + 1))
    set_in=$(readlink -f "$1"); out=$(readlink -f "$2"); shift 2
    tfp_log "features of $set_in"
    tfp_load_pair_set "$n" "$set_in"
    tfp_psql -c "\\copy (SELECT pair_id, array_to_string(textfp_match_features(a, b), E'\\t'), m1.verdict, $Z1, m.verdict, $Z FROM p$n, LATERAL textfp_match(a, b, model => 1) m1, LATERAL textfp_match(a, b) m ORDER BY pair_id) TO '$out'"
done
