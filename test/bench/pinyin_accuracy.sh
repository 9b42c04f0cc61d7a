#!/usr/bin/env bash
# Precision/recall of pinyin_dna next to simhash (and minhash, if the
# extension has it) on real Chinese articles and programmatic copies.
#   test/bench/pinyin_accuracy.sh [ARTICLES]        (default 200)
# Builds the set with tools/make_pinyin_accuracy.py from test/data/pool_zh.txt
# (POOL=FILE to use another pool; needs python3 and Debian's opencc), loads
# it into a throwaway cluster and runs test/bench/pinyin_accuracy.sql.
# MINHASH_EXPR="minhash(body, 128)" (default) says how minhash is called
# when the extension has it (after merging the minhash branch).
set -euo pipefail
TFP_EXTRA_PACKAGES="${TFP_EXTRA_PACKAGES:-} opencc unicode-data python3"
. "$(dirname "$0")/../lib/common.sh"
n=${1:-200}
pool=${POOL:-$TFP_ROOT/test/data/pool_zh.txt}
out=$TFP_ROOT/test/bench/out; mkdir -p "$out"
python3 "$TFP_ROOT/tools/make_pinyin_accuracy.py" --pool "$pool" --articles "$n" > "$out/pinyin_accuracy.tsv"
tfp_setup_cluster
tfp_psql -c 'CREATE EXTENSION textfp'
tfp_psql -c 'CREATE TABLE acc_docs (id int PRIMARY KEY, orig_id int, kind text, body text)'
tfp_psql -c "\\copy acc_docs FROM '$out/pinyin_accuracy.tsv'"
tfp_psql ${MINHASH_EXPR:+-v "MINHASH_EXPR=$MINHASH_EXPR"} -f "$TFP_ROOT/test/bench/pinyin_accuracy.sql"
