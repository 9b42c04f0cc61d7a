#!/usr/bin/env bash
# textfp_match()'s cost per pair in instructions, model 1 (the code path of
# the release before model 2), model 2 and model 3 (the default): a count that
# does not depend on the machine's load, unlike CPU time on a shared
# machine (test/bench/match_speed.sh).  Valgrind's callgrind counts the
# instructions executed inside textfp_match() (--toggle-collect) by a
# single-user backend, for each kind of pair of test/bench/match_speed.sh
# (plain, templated, copies), on a sample of P Chinese and P English pairs.
#
#   test/bench/match_instructions.sh [N] [P]   (N documents, default 1000;
#                                               P pairs per language, default 50)
#
# Needs valgrind.  About 30 s per line of output.  To compare two builds,
# run it in each tree (the instruction counts of the same pairs).
set -euo pipefail
# shellcheck source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
n=${1:-1000}
per=${2:-50}
command -v valgrind >/dev/null || { tfp_err "valgrind is needed"; exit 2; }
tfp_setup_cluster
out=$TFP_TMP/instr; mkdir -p "$out"
python3 "$TFP_ROOT/tools/make_bench_docs.py" "$n" 2048 > "$out/docs.tsv"
tfp_chown_pg "$out"
tfp_psql -c 'CREATE EXTENSION textfp' \
         -c 'CREATE TABLE docs (id int PRIMARY KEY, lang text, body text)' \
         -c "\\copy docs FROM '$out/docs.tsv'"
tfp_psql -f "$TFP_ROOT/test/bench/match_pairs.sql"
tfp_psql -f - <<SQL
CREATE TABLE sample AS
SELECT * FROM (SELECT *, row_number() OVER (PARTITION BY what, lang ORDER BY md5(a)) AS k FROM pairs) s
WHERE k <= $per;
CHECKPOINT;
SQL
tfp_stop_cluster
printf '%-10s %-5s %5s %14s %14s %14s %7s %7s\n' what lang pairs model_1 model_2 model_3 '2/1' '3/2'
for w in plain templated copies; do
    for lang in zh en; do
        ir=()
        for m in 1 2 3; do
            # one line: a single-user backend ends a statement at a newline
            echo "SELECT count(*) FROM (SELECT * FROM sample WHERE what = '$w' AND lang = '$lang' OFFSET 0) s WHERE (textfp_match(a, b, model => $m)).verdict IS NOT NULL;" > "$out/q.sql"
            tfp_chown_pg "$out"
            tfp_as_pg valgrind --tool=callgrind --toggle-collect=textfp_match \
                --callgrind-out-file="$out/cg.out" \
                "$TFP_BINDIR/postgres" --single -D "$TFP_PGDATA" -c shared_buffers=16MB postgres < "$out/q.sql" > "$out/cg.log" 2>&1 ||
                { cat "$out/cg.log"; exit 1; }
            grep -q 'count = "'"$per"'"' "$out/cg.log" || { cat "$out/cg.log"; exit 1; }
            ir+=("$(awk '/^summary:/ {print $2}' "$out/cg.out")")
        done
        awk -v w="$w" -v l="$lang" -v p="$per" -v a="${ir[0]}" -v b="${ir[1]}" -v c="${ir[2]}" \
            'BEGIN { printf "%-10s %-5s %5d %14.0f %14.0f %14.0f %7.3f %7.3f\n", w, l, p, a / p, b / p, c / p, b / a, c / b }'
    done
done
