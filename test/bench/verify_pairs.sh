#!/usr/bin/env bash
# textfp_verify_pairs with the textfp_match verdict over candidate pairs
# given in no order: A ids a, each with CAND partners (corpus rows drawn by
# a hash), among ~2 KB documents of real text (tools/make_bench_docs.py), the
# pairs query ordered by a hash of the pair, on a throwaway cluster; three
# runs, each timed by psql's \timing, and the verdicts' count.
#   test/bench/verify_pairs.sh [A [CAND]]     (default 200 ids, 20 partners each)
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
na=${1:-200}; cand=${2:-20}
tfp_bench_cluster ""
out=$TFP_TMP/vp; mkdir -p "$out"
python3 "$TFP_ROOT/tools/make_bench_docs.py" 4000 2048 > "$out/docs.tsv"
tfp_chown_pg "$out"
tfp_psql -q -c 'CREATE TABLE docs (id int PRIMARY KEY, lang text, body text)' \
         -c "\\copy docs FROM '$out/docs.tsv'" -c 'VACUUM ANALYZE docs' \
         -c "CREATE TABLE vp AS SELECT DISTINCT n AS id_a, $na + 1 + (hashint4(n * 1000 + g) & 2147483647) % (4000 - $na) AS id_b
             FROM generate_series(1, $na) n, generate_series(1, $cand) g" -c 'ANALYZE vp'
tfp_psql -At -c 'SELECT count(*) || $$ pairs of $$ || count(DISTINCT id_a) || $$ ids$$ FROM vp'
for run in 1 2 3; do
    tfp_timed last "SELECT count(*) || ' ' || count(*) FILTER (WHERE verdict)
FROM textfp_verify_pairs('SELECT id_a, id_b FROM vp ORDER BY hashint8(id_a * 100000 + id_b)', 'docs');" |
        awk -F'|' -v r="$run" '{ split($2, o, " "); printf "run %d: %.0f ms (pairs %s, copies %s)\n", r, $1, o[1], o[2] }'
done
