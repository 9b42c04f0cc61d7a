#!/usr/bin/env bash
# Accuracy of textfp_match() -- the one verdict -- next to each single
# fingerprint and the "any of three" rule, per kind of copy, on the labelled
# pairs of tools/make_match_set.py (real text from Debian packages; held out
# by book), and html_text() against tools/make_corpus.py's text on every
# page of the manuals; then textfp_match() pairs/s on 2 KB texts.
#
#   test/bench/match_accuracy.sh
#
# env: MATCH_SET=FILE (a set made earlier, instead of running the generator),
#      MATCH_FEATURES_OUT=FILE (also write every pair's features, for
#      tools/fit_match.py), MATCH_SKIP_HTML=1, MATCH_SKIP_SPEED=1.
# Needs the Debian packages of tools/make_corpus.py (installed as root when
# missing), opencc and unicode-data.  Output: tables on stdout.
set -euo pipefail
TFP_EXTRA_PACKAGES="${TFP_EXTRA_PACKAGES:-} opencc unicode-data python3 debian-handbook debian-reference-zh-cn debian-reference-zh-tw debian-reference-en installation-guide-amd64 installation-guide-arm64 maint-guide maint-guide-zh-cn maint-guide-zh-tw libreoffice-help-zh-cn libreoffice-help-zh-tw gnome-user-docs fortunes-zh sword-text-web sword-text-kjv diatheke debian-edu-doc-zh-cn debian-edu-doc-en"
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
tfp_setup_cluster
out=$TFP_TMP/match; mkdir -p "$out"
if [ -n "${MATCH_SET:-}" ]; then
    cp "$MATCH_SET" "$out/set.tsv"
else
    tfp_log "building the labelled set (tools/make_match_set.py)"
    python3 "$TFP_ROOT/tools/make_match_set.py" > "$out/set.tsv"
fi
tfp_chown_pg "$out"
tfp_psql -c 'CREATE EXTENSION textfp'
tfp_psql -c 'CREATE TABLE match_pairs (pair_id int PRIMARY KEY, split text, kind text, lang text, label text, book text, a text, b text)'
tfp_psql -c "\\copy match_pairs FROM '$out/set.tsv'"
fo=()
if [ -n "${MATCH_FEATURES_OUT:-}" ]; then fo=(-v "features_out=$out/features.tsv"); fi
tfp_psql "${fo[@]}" -f "$TFP_ROOT/test/bench/match_accuracy.sql"
if [ -n "${MATCH_FEATURES_OUT:-}" ]; then cp "$out/features.tsv" "$MATCH_FEATURES_OUT"; fi
