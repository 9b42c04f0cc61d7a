#!/usr/bin/env bash
# MinHash accuracy on real text (test/data): precision/recall of the LSH
# search on the labelled corpus plus programmatic near-duplicates, the
# estimator's bias and error SD against the exact Jaccard for k = 64/128/256,
# and the empirical LSH candidate curve against 1-(1-s^r)^b.
#
# Usage: test/bench/minhash_accuracy.sh
#   env: TFP_DATA (dir with corpus.tsv, corpus_truth.tsv, pool_*.txt; default
#        test/data), MINHASH_NGRAM / MINHASH_SHINGLE (default 5 / 3)
# Needs only the harness's Debian packages.  Output: tables on stdout.
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
DATA=${TFP_DATA:-$TFP_ROOT/test/data}
for f in corpus.tsv corpus_truth.tsv pool_en.txt pool_zh.txt; do
    [ -r "$DATA/$f" ] || { tfp_err "missing $DATA/$f (set TFP_DATA)"; exit 1; }
done
DATA=$(cd "$DATA" && pwd)
tfp_setup_cluster
# the server reads the data files (COPY FROM file): make them readable for it
cp "$DATA"/corpus.tsv "$DATA"/corpus_truth.tsv "$DATA"/pool_en.txt "$DATA"/pool_zh.txt "$TFP_TMP/"
tfp_chown_pg "$TFP_TMP"/corpus.tsv "$TFP_TMP"/corpus_truth.tsv "$TFP_TMP"/pool_*.txt
tfp_psql -c 'CREATE EXTENSION textfp'
tfp_psql -v datadir="$TFP_TMP" -f "$TFP_ROOT/test/bench/minhash_load.sql" >/dev/null
echo "== feature options: ngram = ${MINHASH_NGRAM:-5}, shingle = ${MINHASH_SHINGLE:-3}"
tfp_psql -v datadir="$TFP_TMP" -v ngram="${MINHASH_NGRAM:-5}" -v shingle="${MINHASH_SHINGLE:-3}" -f "$TFP_ROOT/test/bench/minhash_accuracy.sql"
