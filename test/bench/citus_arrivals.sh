#!/usr/bin/env bash
# New arrivals and verification of candidate pairs on a Citus cluster
# against one node (docs/citus.md, "Figures"): a coordinator and two
# workers on this machine (test/lib/citus.sh), Citus 13.2:
#
#   test/bench/citus_arrivals.sh [N [B [P [SHARDS]]]]
#       (default: 200000 corpus rows, 1000 arrivals, 1243 pairs, 32 shards)
#
# A corpus of N texts of two real paragraphs each (test/data/pool_*.txt, via
# minhash_load.sql's para table) with generated simhash64 and minhash(128)
# columns and their indexes, distributed (SHARDS shards) and as a plain copy
# on the coordinator (every 100th row an edited copy of the row before it);
# B arrivals staged on the coordinator, half of them reposts of corpus rows;
# P pairs: the copies and their originals, then random rows.  Each statement in
# its own session, timed by psql's \timing:
# 1. textfp_check_arrivals of the B rows, methods simhash (radius 3, index
#    searches), minhash (0.7) and textfp_match, into a match table of its
#    own: plain corpus and table; distributed corpus and a co-located match
#    table; the distributed one again (finds the same, writes nothing);
# 2. textfp_match over the P pairs: textfp_verify_pairs of the plain table,
#    of the distributed table (two co-located steps), and a join of the
#    distributed table with itself by Citus's repartition join (the
#    verdict as jsonb: Citus cannot send the record back).
# The load average (uptime) is printed beside the figures: the machine is
# shared.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"
# shellcheck source-path=SCRIPTDIR source=../lib/citus.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/citus.sh"

N=${1:-200000}
B=${2:-1000}
P=${3:-1243}
SHARDS=${4:-32}
trap tfp_citus_cleanup EXIT

tfp_citus_cluster >/dev/null || exit 1
cp "$TFP_ROOT"/test/data/pool_en.txt "$TFP_ROOT"/test/data/pool_zh.txt "$TFP_TMP/"
tfp_chown_pg "$TFP_TMP"/pool_*.txt
tfp_psql -q -v datadir="$TFP_TMP" -f "$TFP_ROOT/test/bench/minhash_load.sql" >/dev/null || exit 1
start=$(date +%s)
tfp_psql -q <<SQL || exit 1
CREATE FUNCTION two_paras(seed int8) RETURNS text LANGUAGE sql STABLE AS \$\$
    SELECT string_agg(p, E'\n' ORDER BY k) FROM (VALUES (1), (2)) v(k)
    JOIN para ON para.id = 1 + abs(hashint8(seed * 2 + k)) % (SELECT max(id) FROM para) \$\$;
CREATE TABLE plain (id bigint PRIMARY KEY, body text NOT NULL,
    fp simhash64 GENERATED ALWAYS AS (simhash(body)) STORED,
    sig minhash GENERATED ALWAYS AS (minhash(body, 128)) STORED);
-- every 100th row an edited copy of the row before it
INSERT INTO plain (id, body) SELECT i, CASE WHEN i % 100 = 0 THEN two_paras(i - 1) || ' (edited)' ELSE two_paras(i) END
FROM generate_series(1, $N) i;
CREATE TABLE dist (LIKE plain INCLUDING ALL);
SELECT create_distributed_table('dist', 'id', shard_count => $SHARDS);
INSERT INTO dist (id, body) SELECT id, body FROM plain;
CREATE INDEX ON plain USING hamming (fp);
CREATE INDEX ON dist USING hamming (fp);
CREATE INDEX ON plain USING gin (sig);
CREATE INDEX ON dist USING gin (sig);
-- the arrivals: reposts of corpus rows, and new texts
CREATE TABLE batch AS
SELECT $N + j AS id, CASE WHEN j % 2 = 0 THEN (SELECT body FROM plain WHERE id = 1 + abs(hashint8(j)) % $N) || ' (repost)'
                          ELSE two_paras(-j) END AS body
FROM generate_series(1, $B) j;
-- the pairs: the copies and their originals, then random rows
CREATE TABLE pairs AS
(SELECT i - 1 AS id_a, i AS id_b FROM generate_series(100::bigint, $N, 100) i
 UNION ALL
 SELECT (1 + abs(hashint8(i)) % $N)::bigint, (1 + abs(hashint8(-i)) % $N)::bigint FROM generate_series(1, $P) i)
LIMIT $P;
CREATE TABLE pairs_dist AS SELECT * FROM pairs;
SELECT create_distributed_table('pairs_dist', 'id_a', colocate_with => 'dist');
SELECT textfp_create_match_table('m_plain'), textfp_create_match_table('m_dist');
SELECT create_distributed_table('m_dist', 'new_id', colocate_with => 'dist');
VACUUM ANALYZE plain, dist, batch, pairs;
SQL
tfp_log "corpus of $N rows (and its distributed copy) loaded in $(( $(date +%s) - start )) s; $(uptime)"

# one statement in a session of its own: its time and first output line
timed() { # label sql
    local out
    out=$(printf '\\timing on\n%s\n' "$2" | tfp_psql -At 2>&1)
    printf '%-62s %10s  %s\n' "$1" "$(sed -n 's/^Time: \([0-9.]*\) ms.*/\1 ms/p' <<<"$out" | tail -1)" \
        "$(grep -v '^Time:\|^Timing' <<<"$out" | tr '\n' ' ' | cut -c1-120)"
}
arr="SELECT string_agg(format('%%s %%s/%%s', method, matches_found, matches_written), ' ') FROM textfp_check_arrivals(
  'SELECT id, simhash(body) AS fp, minhash(body, 128) AS sig, body FROM batch', '%s', '%s',
  ARRAY['simhash', 'minhash', 'textfp_match'], simhash_column => 'fp', minhash_column => 'sig', text_column => 'body',
  radius => 3, min_jaccard => 0.7, simhash_search => 'index');"
echo "== $N rows, $SHARDS shards, 2 workers; $B arrivals; $P pairs; load: $(uptime | sed 's/.*load/load/')"
# shellcheck disable=SC2059
timed "arrivals, plain corpus" "$(printf "$arr" plain m_plain)"
# shellcheck disable=SC2059
timed "arrivals, distributed corpus and match table" "$(printf "$arr" dist m_dist)"
# shellcheck disable=SC2059
timed "the same again (nothing written)" "$(printf "$arr" dist m_dist)"
timed "match records equal" "SELECT (SELECT md5(string_agg(format('%s %s %s %s %s', new_id, matched_id, method, distance, round(similarity::numeric, 9)), ',' ORDER BY new_id, matched_id, method)) FROM m_plain) = (SELECT md5(string_agg(format('%s %s %s %s %s', new_id, matched_id, method, distance, round(similarity::numeric, 9)), ',' ORDER BY new_id, matched_id, method)) FROM m_dist);"
echo "load: $(uptime | sed 's/.*load/load/')"
vp="SELECT count(*) || ' pairs, ' || count(*) FILTER (WHERE verdict) || ' copies, ' || md5(string_agg(format('%%s %%s %%s %%s', id_a, id_b, verdict, round(score::numeric, 9)), ',' ORDER BY id_a, id_b)) FROM"
# shellcheck disable=SC2059
timed "textfp_verify_pairs, plain corpus" "$(printf "$vp textfp_verify_pairs('TABLE pairs', 'plain');")"
# shellcheck disable=SC2059
timed "textfp_verify_pairs, distributed (two co-located steps)" "$(printf "$vp textfp_verify_pairs('TABLE pairs', 'dist');")"
# shellcheck disable=SC2059
timed "a join by Citus's repartition join, distributed" "SET citus.enable_repartition_joins = on; $(printf "$vp (SELECT x.id_a, x.id_b, (x.t->>'verdict')::boolean AS verdict, (x.t->>'score')::float8 AS score FROM (SELECT p.id_a, p.id_b, to_jsonb(textfp_match(a.body, b.body)) AS t FROM pairs_dist p JOIN dist a ON a.id = p.id_a JOIN dist b ON b.id = p.id_b) x) s;")"
echo "load: $(uptime | sed 's/.*load/load/')"
