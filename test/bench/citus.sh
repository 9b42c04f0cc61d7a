#!/usr/bin/env bash
# textfp on a Citus cluster (docs/citus.md): a coordinator and two workers on
# this machine (127.0.0.1), Citus 13.2 built by ../shared/citus/build.sh into
# the private server copy (reused from its work directory after the first
# build):
#
#   test/bench/citus.sh [N [SHARDS]]      (default: 200000 rows, 32 shards)
#
# A distributed table of N random simhash64 fingerprints with a hamming index
# on every shard, and a plain copy on the coordinator; then, each statement
# in its own transaction (psql \timing, median of 40):
# 1. the top 10 (ORDER BY fp <-> q LIMIT 10, q a literal) with the default
#    citus.max_cached_conns_per_worker (1) and with 16;
# 2. a radius-3 search, the same two ways; the plain table's, for scale;
# 3. simhash_pairs at radius 3 of the distributed table (on the workers:
#    citus_pairs.sh measures it in detail) and of the plain table.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

N=${1:-200000}
SHARDS=${2:-32}
# shellcheck source-path=SCRIPTDIR source=../lib/citus.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/citus.sh"
trap tfp_citus_cleanup EXIT

tfp_citus_cluster >/dev/null || exit 1
tfp_psql <<SQL || exit 1
CREATE TABLE plain (id bigint PRIMARY KEY, fp simhash64 NOT NULL);
INSERT INTO plain
SELECT i, ((hashint8(i)::bigint << 32) # (hashint8(-i)::bigint & 4294967295))::simhash64
FROM generate_series(1, $N) i;
CREATE TABLE dist (LIKE plain INCLUDING ALL);
SELECT create_distributed_table('dist', 'id', shard_count => $SHARDS);
INSERT INTO dist SELECT * FROM plain;
CREATE INDEX ON plain USING hamming (fp);
CREATE INDEX ON dist USING hamming (fp);
VACUUM ANALYZE plain; VACUUM ANALYZE dist;
SQL

# median of the \timing lines of a script of 40 statements
median() {
    tfp_psql -f - | sed -n 's/^Time: \([0-9.]*\) ms.*/\1/p' | sort -n | awk '{a[NR]=$1} END {printf "%.1f ms", a[int((NR+1)/2)]}'
}
mapfile -t FPS < <(tfp_psql -At -c "SELECT fp FROM plain WHERE id % ($N / 40) = 1 ORDER BY id LIMIT 40")
queries() { # setting statement-template
    echo '\timing on'
    [ -n "$1" ] && echo "SET citus.max_cached_conns_per_worker = $1;"
    local f
    for f in "${FPS[@]}"; do
        printf "$2\n" "'$f'::simhash64"
    done
}
echo "== $N rows, $SHARDS shards, 2 workers"
top='SELECT id FROM dist ORDER BY fp <-> %s LIMIT 10 \\g /dev/null'
rad='SELECT id FROM dist WHERE fp <@ simhash_ball(%s, 3) \\g /dev/null'
echo "top 10, citus.max_cached_conns_per_worker = 1 (default): $(queries '' "$top" | median)"
echo "top 10, citus.max_cached_conns_per_worker = 16:          $(queries 16 "$top" | median)"
echo "top 10, plain table:                                     $(queries '' "${top/dist/plain}" | median)"
echo "radius 3, default:                                       $(queries '' "$rad" | median)"
echo "radius 3, citus.max_cached_conns_per_worker = 16:        $(queries 16 "$rad" | median)"
echo "radius 3, plain table:                                   $(queries '' "${rad/dist/plain}" | median)"
pairs() {
    printf '\\timing on\nSELECT count(*) FROM simhash_pairs(%s, 3) \\g /dev/null\n' "$1" |
        tfp_psql -f - | sed -n 's/^Time: \([0-9.]*\) ms.*/\1 ms/p'
}
echo "simhash_pairs('dist', 'id', 'fp', 3):                    $(pairs "'dist', 'id', 'fp'")"
echo "simhash_pairs('plain', 'id', 'fp', 3):                   $(pairs "'plain', 'id', 'fp'")"
