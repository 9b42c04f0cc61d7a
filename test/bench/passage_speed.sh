#!/usr/bin/env bash
# The passage fingerprint's speed per byte beside md5's, in SQL, over the
# same ~2 KB documents of real text (tools/make_bench_docs.py: Chinese and
# English), stored uncompressed and in line (STORAGE PLAIN) so that neither
# function's time includes decompression; the backend's CPU time, median of
# 7 rounds with the order alternating (test/bench/passage_speed.sql).
#   test/bench/passage_speed.sh [DOCS]          (default 4000 documents)
#   STORAGE=default test/bench/passage_speed.sh   the column's default storage
#   (long texts compressed, as a table holds them; both functions then
#   include the decompression)
# and the core alone, beside OpenSSL's MD5 in one C program (best of 15
# rounds), when libssl-dev is there: test/bench/passage_micro.c.
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
n=${1:-4000}
tfp_bench_cluster ""
out=$TFP_TMP/pspeed; mkdir -p "$out"
python3 "$TFP_ROOT/tools/make_bench_docs.py" "$n" 2048 > "$out/docs.tsv"
tfp_chown_pg "$out"
tfp_psql -c 'CREATE TABLE docs (id int PRIMARY KEY, lang text, body text)' \
         -c "$( [ "${STORAGE:-plain}" = default ] || echo 'ALTER TABLE docs ALTER body SET STORAGE PLAIN')" \
         -c "\\copy docs FROM '$out/docs.tsv'" -c 'VACUUM ANALYZE docs'
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
tfp_psql -f "$TFP_ROOT/test/bench/passage_speed.sql"
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ -e /usr/include/openssl/md5.h ]; then
    cc -O2 -Wno-deprecated-declarations -I"$TFP_ROOT/src/core" -I"$TFP_ROOT/src/core/generated" \
       -o "$out/micro" "$TFP_ROOT/test/bench/passage_micro.c" "$TFP_ROOT"/src/core/tfp_passage.c \
       "$TFP_ROOT"/src/core/tfp_passage_x86.c "$TFP_ROOT"/src/core/tfp_cpu.c \
       "$TFP_ROOT"/src/core/tfp_unicode.c "$TFP_ROOT"/src/core/tfp_features.c \
       "$TFP_ROOT"/src/core/generated/tfp_unicode_data.c -lcrypto
    tfp_psql -Atc "SELECT string_agg(body, E'\n') FROM docs WHERE lang = 'zh'" > "$out/zh.txt"
    tfp_psql -Atc "SELECT string_agg(body, E'\n') FROM docs WHERE lang = 'en'" > "$out/en.txt"
    echo "== the core alone (C), 2 KB pieces"
    "$out/micro" "$out/zh.txt" zh; "$out/micro" "$out/en.txt" en
fi
