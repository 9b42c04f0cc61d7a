#!/usr/bin/env bash
# textfp_check_arrivals' textfp_match method, verifying the candidates that
# other methods recorded: NEW new rows, CAND candidates each (corpus rows
# drawn by a hash), among ~2 KB documents of real text
# (tools/make_bench_docs.py), on a throwaway cluster; three runs, each
# timed by psql's \timing, the records of the method deleted between them.
#   test/bench/arrivals_match.sh [NEW [CAND]]     (default 200 new rows, 20 candidates each)
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
new=${1:-200}; cand=${2:-20}
tfp_bench_cluster ""
out=$TFP_TMP/arrm; mkdir -p "$out"
python3 "$TFP_ROOT/tools/make_bench_docs.py" 4000 2048 > "$out/docs.tsv"
tfp_chown_pg "$out"
tfp_psql -q -c 'CREATE TABLE docs (id int PRIMARY KEY, lang text, body text)' \
         -c "\\copy docs FROM '$out/docs.tsv'" -c 'VACUUM ANALYZE docs' \
         -c "SELECT textfp_create_match_table('m')" \
         -c "INSERT INTO m (new_id, matched_id, method)
             SELECT DISTINCT n, $new + 1 + (hashint4(n * 1000 + g) & 2147483647) % (4000 - $new), 'minhash'
             FROM generate_series(1, $new) n, generate_series(1, $cand) g"
tfp_psql -At -c 'SELECT count(*) || $$ candidates of $$ || count(DISTINCT new_id) || $$ new rows$$ FROM m'
for run in 1 2 3; do
    tfp_timed last "DELETE FROM m WHERE method = 'textfp_match';
SELECT rows_checked || ' ' || matches_found FROM textfp_check_arrivals('SELECT * FROM docs WHERE id <= $new', 'docs', 'm', '{textfp_match}', text_column => 'body');" |
        awk -F'|' -v r="$run" '{ split($2, o, " "); printf "run %d: %.0f ms (new rows %s, copies found %s)\n", r, $1, o[1], o[2] }'
done
