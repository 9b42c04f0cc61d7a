#!/usr/bin/env bash
# The all-pairs search of a Citus-distributed table on its workers
# (src/pg/citus_pairs.c, docs/citus.md) against the single node: a
# coordinator and two workers on this machine (test/lib/citus.sh),
#
#   [RUNS=3] test/bench/citus_pairs.sh [N [RADIUS [SHARDS]]]   (default 1000000 3 32)
#
# N random simhash64 fingerprints plus N/100 planted near copies (2 bits
# off) in a plain table on the coordinator and in a table distributed by id
# in SHARDS shards; then, RUNS times in turn (the large runs take minutes):
# 1. simhash_pairs('plain', 'id', 'fp', RADIUS): the single node;
# 2. simhash_pairs('dist', ...): on the workers, its phases from the
#    textfp.progress messages (plan and intermediate table, the shuffle of
#    the rows packed in bundles, the workers' search and the pairs' return;
#    the progress messages add a count of the moved rows, about 0.1 s at
#    10 million, to the shuffle);
# 3. the same with textfp.citus_pairs = coordinator (all rows read by the
#    coordinator; CITUS_PAIRS_COORD=0 skips it).
# RUNS times in turn (default 1), then the medians.  The pair counts must
# agree.  The load average (uptime) is printed before
# and after: the machine may be shared.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

N=${1:-1000000}
R=${2:-3}
SHARDS=${3:-32}
RUNS=${RUNS:-1}
# the single node holds 16 bytes a row and as much again for the sort
export CITUS_CONF="maintenance_work_mem = 2GB"
# shellcheck source-path=SCRIPTDIR source=../lib/citus.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/citus.sh"
tfp_citus_cluster >/dev/null || exit 1
start=$(date +%s)
tfp_psql <<SQL || exit 1
CREATE TABLE plain (id bigint, fp simhash64);
INSERT INTO plain
SELECT i, ((hashint8(i)::bigint << 32) # (hashint8(-i)::bigint & 4294967295))::simhash64
FROM generate_series(1, $N) i;
INSERT INTO plain
SELECT $N + id, (fp::bigint # (1::bigint << (id % 64)::int) # (1::bigint << ((id * 7 + 1) % 64)::int))::simhash64
FROM plain WHERE id % 100 = 0;
CREATE TABLE dist (LIKE plain);
SELECT create_distributed_table('dist', 'id', shard_count => $SHARDS);
INSERT INTO dist SELECT * FROM plain;
VACUUM ANALYZE plain; VACUUM ANALYZE dist;
SQL
tfp_log "$N rows loaded in $(( $(date +%s) - start )) s"

# the milliseconds of a statement (psql \timing), its output to $out
timed() { # settings statement
    printf '\\timing on\n%s\n%s\n' "$1" "$2" | tfp_psql -f - >"$TFP_TMP/out" 2>"$TFP_TMP/err"
    sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' "$TFP_TMP/out" | tail -1
}
count() { grep -E '^ *[0-9]+$' "$TFP_TMP/out" | tr -d ' ' | tail -1; }
load() { uptime | sed 's/.*load average: /load /'; }

echo "== $(tfp_psql -At -c 'SELECT count(*) FROM plain') rows, radius $R, $SHARDS shards, 2 workers, $RUNS runs"
echo "before: $(load)"
q="SELECT count(*) FROM simhash_pairs('%s', 'id', 'fp', $R);"
ts_single=() ts_dist=() ts_coord=() fail=
for run in $(seq 1 "$RUNS"); do
    echo "-- run $run"
    # shellcheck disable=SC2059
    t_single=$(timed '' "$(printf "$q" plain)"); c_single=$(count)
    echo "single node:         $t_single ms, $c_single pairs"
    # shellcheck disable=SC2059
    t_dist=$(timed 'SET textfp.progress = on;' "$(printf "$q" dist)"); c_dist=$(count)
    echo "on the workers:      $t_dist ms, $c_dist pairs ($(awk -v a="$t_dist" -v b="$t_single" 'BEGIN { printf "%.2f", a / b }') x the single node)"
    sed -n 's/.*NOTICE:  simhash_pairs: /    /p' "$TFP_TMP/err"
    made=$(sed -n 's/.*shards of .* (\([0-9]*\) ms)$/\1/p' "$TFP_TMP/err")
    shuf=$(sed -n 's/.*shuffled \([0-9]*\) rows (\([0-9.]*\) a row) in \([0-9]*\) bundles (\([0-9]*\) ms)$/\1 \2 \3 \4/p' "$TFP_TMP/err")
    read -r moved per bundles shuf_end <<<"$shuf"
    done_ms=$(sed -n 's/.*pairs from the workers (\([0-9]*\) ms)$/\1/p' "$TFP_TMP/err")
    awk -v n="$N" -v made="$made" -v moved="$moved" -v per="$per" -v b="$bundles" -v s="$shuf_end" -v d="$done_ms" 'BEGIN {
        printf "    plan + intermediate table %d ms; shuffle %d ms: %d rows moved (%.2f a row) in %d bundles, %.2f us a moved row, %.2f us a source row; search %d ms\n",
            made, s - made, moved, per, b, 1000 * (s - made) / moved, 1000 * (s - made) / (n * 1.01), d - s }'
    c_coord=$c_single
    if [ "${CITUS_PAIRS_COORD:-1}" != 0 ]; then
        # shellcheck disable=SC2059
        t_coord=$(timed 'SET textfp.citus_pairs = coordinator;' "$(printf "$q" dist)"); c_coord=$(count)
        echo "on the coordinator:  $t_coord ms, $c_coord pairs"
        ts_coord+=("$t_coord")
    fi
    ts_single+=("$t_single"); ts_dist+=("$t_dist")
    if [ "$c_single" != "$c_dist" ] || [ "$c_coord" != "$c_single" ]; then fail=1; fi
done
echo "after: $(load)"
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
m_single=$(median "${ts_single[@]}"); m_dist=$(median "${ts_dist[@]}")
echo "median of $RUNS: single node $m_single ms, on the workers $m_dist ms ($(awk -v a="$m_dist" -v b="$m_single" 'BEGIN { printf "%.2f", a / b }') x)${ts_coord[0]:+, on the coordinator $(median "${ts_coord[@]}") ms}"
if [ -n "$fail" ]; then
    tfp_err "the pair counts differ"; exit 1
fi
