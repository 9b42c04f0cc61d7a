#!/usr/bin/env bash
# Every fingerprint of textfp -- simhash, minhash, pinyin_dna, spotsigs,
# longest_sentences, supershingles, imatch, imatch_randomized (and exact
# shingle Jaccard as a reference) -- on the same labelled near-duplicate sets:
# precision and recall at the threshold for precision >= 0.99 and at each
# method's natural threshold, recall per kind of copy, and rows/s.
#
#   test/bench/compare.sh [ARTICLES]          (default 200)
#
# Sets (test/bench/compare.sql describes how each is scored):
#   zh      tools/make_pinyin_accuracy.py --articles ARTICLES (real Chinese
#           articles of test/data/pool_zh.txt and 7 kinds of copies)
#   corpus  test/data/corpus.tsv + corpus_truth.tsv + one programmatic
#           near-duplicate per original (test/bench/corpus_set.sql)
#   pairs   tools/make_match_set.py (from branch verdict), when the tree has
#           it or MATCH_SET=FILE names a set it made; COMPARE_SKIP_PAIRS=1
#           leaves it out
# env: COMPARE_SPEED_COPIES (default 4: the sets' documents under 8 KB, that
#      many times, for the speed table); COMPARE_PARAMS=1 also runs
#      test/bench/compare_params.sql (the parameter choices: SpotSigs' chain,
#      sentences' k, super-shingle groups, I-Match's band and randomization).
# Self-contained: installs what is missing (opencc, unicode-data, python3;
# the packages of make_match_set.py when it runs), builds textfp, runs a
# throwaway cluster.  Timings on a shared machine are noisy.
set -euo pipefail
TFP_EXTRA_PACKAGES="${TFP_EXTRA_PACKAGES:-} opencc unicode-data python3"
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
pairs=
if [ -z "${COMPARE_SKIP_PAIRS:-}" ] && { [ -n "${MATCH_SET:-}" ] || [ -f "$ROOT/tools/make_match_set.py" ]; }; then
    pairs=1
    # the Debian packages tools/make_match_set.py reads (as test/bench/match_accuracy.sh)
    [ -n "${MATCH_SET:-}" ] || TFP_EXTRA_PACKAGES="$TFP_EXTRA_PACKAGES debian-handbook debian-reference-zh-cn debian-reference-zh-tw debian-reference-en installation-guide-amd64 installation-guide-arm64 maint-guide maint-guide-zh-cn maint-guide-zh-tw libreoffice-help-zh-cn libreoffice-help-zh-tw gnome-user-docs fortunes-zh sword-text-web sword-text-kjv diatheke debian-edu-doc-zh-cn debian-edu-doc-en"
fi
# shellcheck source=../lib/common.sh
. "$ROOT/test/lib/common.sh"
n=${1:-200}
tfp_setup_cluster
out=$TFP_TMP/compare; mkdir -p "$out"
tfp_log "building the Chinese set (tools/make_pinyin_accuracy.py --articles $n)"
python3 "$TFP_ROOT/tools/make_pinyin_accuracy.py" --articles "$n" > "$out/zh.tsv"
if [ -n "$pairs" ]; then
    if [ -n "${MATCH_SET:-}" ]; then
        cp "$MATCH_SET" "$out/pairs.tsv"
    else
        tfp_log "building the labelled pairs (tools/make_match_set.py)"
        python3 "$TFP_ROOT/tools/make_match_set.py" > "$out/pairs.tsv"
    fi
fi
# the server reads the corpus files (COPY FROM file)
cp "$TFP_ROOT"/test/data/corpus.tsv "$TFP_ROOT"/test/data/corpus_truth.tsv \
   "$TFP_ROOT"/test/data/pool_en.txt "$TFP_ROOT"/test/data/pool_zh.txt "$out/"
tfp_chown_pg "$out"
tfp_psql -c 'CREATE EXTENSION textfp'
tfp_psql -v datadir="$out" -f "$TFP_ROOT/test/bench/minhash_load.sql" >/dev/null
tfp_psql -v datadir="$out" -f "$TFP_ROOT/test/bench/corpus_set.sql" >/dev/null
tfp_psql -c 'CREATE TABLE acc_docs (id int PRIMARY KEY, orig_id int, kind text, body text)' \
         -c "\\copy acc_docs FROM '$out/zh.tsv'"
if [ -n "$pairs" ]; then
    tfp_psql -c 'CREATE TABLE match_pairs (pair_id int PRIMARY KEY, split text, kind text, lang text, label text, book text, a text, b text)' \
             -c "\\copy match_pairs FROM '$out/pairs.tsv'"
fi
tfp_psql -v have_pairs="${pairs:-0}" -v speed_copies="${COMPARE_SPEED_COPIES:-4}" \
         -f "$TFP_ROOT/test/bench/compare.sql"
if [ -n "${COMPARE_PARAMS:-}" ]; then
    tfp_psql -f "$TFP_ROOT/test/bench/compare_params.sql"
fi
