#!/usr/bin/env bash
# Load and soak: pgbench with concurrent inserts, updates and deletes and a
# lookup through every index (Hamming GIN, the planner hook's literal form,
# GiST KNN, LSH, pinyin DNA, btree and hash: one index per operator class,
# found in the catalog by test/lib/probes.sql, so classes added later are
# included) for a bounded time on a table of a million documents, then:
#   * no client aborted, no deadlock, no error in the server log;
#   * nothing lost: the row count and a checksum of the texts equal a
#     ledger that every write updates in its own transaction (inserts add,
#     deletes subtract, updates add new minus old);
#   * every stored fingerprint equals a fresh computation from its text;
#   * every index answers as a sequential scan (random probes per class);
#   * amcheck: bt_index_check(heapallindexed) of every btree index,
#     verify_heapam of the table (PostgreSQL 14+), gin_index_check where the
#     amcheck version has it (PostgreSQL 18+).
# Prints throughput and latency (per script: mean, p50, p95, p99).
#
# Usage: test/bench/soak.sh [ROWS] [SECONDS] [CLIENTS]   (as root; default
#        1000000 600 4).  Results are recorded in docs/hardening.md.
# Documents: 2-4 random real paragraphs (test/data/pool_*.txt), 1% of them
# near-copies of others, so the lookups find something.
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../lib/common.sh
. "$HERE/../lib/common.sh"
ROWS=${1:-1000000}
SECS=${2:-600}
CLIENTS=${3:-4}
DATA=$TFP_ROOT/test/data

TFP_PG_CONF="${TFP_PG_CONF:-}
shared_buffers = 1GB
maintenance_work_mem = 1GB
work_mem = 32MB
max_wal_size = 8GB
checkpoint_timeout = 15min
log_lock_waits = on
deadlock_timeout = 1s
log_min_messages = warning
log_error_verbosity = verbose
max_connections = 40" tfp_setup_cluster || exit 1
export PATH="$TFP_BINDIR:$PATH"
cp "$DATA"/pool_en.txt "$DATA"/pool_zh.txt "$TFP_TMP/" && tfp_chown_pg "$TFP_TMP"/pool_*.txt
psql() { tfp_psql "$@"; }
t() { date +%s.%N; }
since() { awk -v a="$1" -v b="$(t)" 'BEGIN { printf "%.0f", b - a }'; }

echo "== machine: $(nproc) cores, shared with other developers' jobs (timings are noisy); PostgreSQL $(psql -Atc 'SHOW server_version')"
t0=$(t)
psql -q -v datadir="$TFP_TMP" -v rows="$ROWS" -f - <<'SQL' || exit 1
CREATE EXTENSION textfp;
CREATE EXTENSION amcheck;
CREATE TABLE para (id serial PRIMARY KEY, p text);
CREATE TEMP TABLE para_in (p text);
\set pool_en :datadir '/pool_en.txt'
\set pool_zh :datadir '/pool_zh.txt'
COPY para_in FROM :'pool_en' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02');
COPY para_in FROM :'pool_zh' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02');
INSERT INTO para (p) SELECT p FROM para_in WHERE octet_length(p) BETWEEN 40 AND 600;
CREATE TABLE docs (id bigserial PRIMARY KEY, body text NOT NULL);
INSERT INTO docs (body)
SELECT (SELECT string_agg(p, E'\n') FROM para
        WHERE id IN (1 + abs(hashint8(g * 4)) % n, 1 + abs(hashint8(g * 4 + 1)) % n,
                     1 + abs(hashint8(g * 4 + 2)) % n))
FROM generate_series(1, :rows) g, (SELECT max(id) AS n FROM para) m;
-- near-copies: 1% of the rows are an earlier row with a small edit
UPDATE docs d SET body = replace(s.body, '的', '地') || ' 转载'
FROM docs s WHERE d.id % 100 = 0 AND s.id = d.id - 37;
CREATE TABLE ledger (client int PRIMARY KEY, n bigint NOT NULL, cs bigint NOT NULL);
INSERT INTO ledger SELECT g, 0, 0 FROM generate_series(0, 64) g;
UPDATE ledger SET n = (SELECT count(*) FROM docs), cs = (SELECT sum(hashtext(body)::int8) FROM docs) WHERE client = 0;
SQL
echo "== $ROWS documents loaded in $(since "$t0") s"

# a generated column of every fingerprint kind, one index per class
psql -q -f "$TFP_ROOT/test/lib/probes.sql" || exit 1
mapfile -t cols < <(psql -At -F '|' -c 'SELECT col, typ, expr FROM tfp_probe.columns()')
t0=$(t)
for c in "${cols[@]}"; do
    IFS='|' read -r col typ expr <<<"$c"
    psql -q -c "ALTER TABLE docs ADD COLUMN $col $typ GENERATED ALWAYS AS (${expr//%s/body}) STORED" || exit 1
done
echo "== fingerprint columns (${#cols[@]}: $(printf '%s ' "${cols[@]}")) in $(since "$t0") s"
mapfile -t idx < <(psql -At -c "SELECT DISTINCT index_name || '|' || index_ddl FROM tfp_probe.probes('docs') WHERE index_ddl IS NOT NULL ORDER BY 1")
for i in "${idx[@]}"; do
    t0=$(t)
    psql -q -c "${i#*|}" || exit 1
    echo "   index ${i%%|*}: $(since "$t0") s, $(psql -At -c "SELECT pg_size_pretty(pg_relation_size('${i%%|*}'))")"
done
psql -q -c 'VACUUM ANALYZE docs' -c 'CHECKPOINT'
maxid=$(psql -At -c 'SELECT max(id) FROM docs')

# pgbench scripts: three writers and one lookup per index class
pb=$TFP_TMP/pgbench
mkdir -p "$pb"
cat >"$pb/insert.sql" <<'EOF'
\set src random(1, :maxid)
WITH s AS (SELECT body FROM docs WHERE id = :src),
     i AS (INSERT INTO docs (body) SELECT body || ' +' || :client_id FROM s RETURNING hashtext(body)::int8 AS h)
UPDATE ledger SET n = n + (SELECT count(*) FROM i), cs = cs + coalesce((SELECT sum(h) FROM i), 0)
WHERE client = :client_id + 1;
EOF
cat >"$pb/update.sql" <<'EOF'
\set id random(1, :maxid)
WITH o AS (SELECT id, body FROM docs WHERE id = :id FOR UPDATE),
     u AS (UPDATE docs d SET body = left(o.body, 3000) || ' ~' FROM o WHERE d.id = o.id
           RETURNING hashtext(o.body)::int8 AS oh, hashtext(d.body)::int8 AS nh)
UPDATE ledger SET cs = cs + coalesce((SELECT sum(nh - oh) FROM u), 0) WHERE client = :client_id + 1;
EOF
cat >"$pb/delete.sql" <<'EOF'
\set id random(1, :maxid)
WITH d AS (DELETE FROM docs WHERE id = :id RETURNING hashtext(body)::int8 AS h)
UPDATE ledger SET n = n - (SELECT count(*) FROM d), cs = cs - coalesce((SELECT sum(h) FROM d), 0)
WHERE client = :client_id + 1;
EOF
scripts=("-f" "$pb/insert.sql@3" "-f" "$pb/update.sql@3" "-f" "$pb/delete.sql@1")
names=(insert update delete)
mapfile -t looks < <(psql -At -c "SELECT DISTINCT ON (index_name) index_name || '|' || replace(probe, '\$ID', ':id') FROM tfp_probe.probes('docs') WHERE probe IS NOT NULL ORDER BY index_name, (oper LIKE '=(%') DESC, probe")
k=0
for l in "${looks[@]}"; do
    name=${l%%|*} probe=${l#*|}
    k=$((k + 1))
    if [[ $probe == "ORDER BY"* ]]; then q="SELECT id FROM docs $probe;"; else q="SELECT count(*) FROM docs WHERE $probe;"; fi
    printf '\\set id random(1, :maxid)\n%s\n' "$q" >"$pb/look$k.sql"
    scripts+=("-f" "$pb/look$k.sql@1"); names+=("lookup $name")
done
fpcol=$(psql -At -c "SELECT col FROM tfp_probe.columns() WHERE typ = 'simhash64'::regtype")
if [ -n "$fpcol" ]; then
    k=$((k + 1))
    printf '\\set id random(1, :maxid)\nSELECT count(*) FROM docs WHERE simhash_dist(%s, (SELECT %s FROM docs WHERE id = :id)) <= 3;\n' \
        "$fpcol" "$fpcol" >"$pb/look$k.sql"
    scripts+=("-f" "$pb/look$k.sql@1"); names+=("lookup simhash_dist(fp, q) <= 3 (planner hook)")
fi
tfp_chown_pg "$pb"

before=$(psql -At -c "SELECT deadlocks || ' ' || xact_rollback FROM pg_stat_database WHERE datname = current_database()")
echo "== pgbench: $CLIENTS clients, ${SECS} s, ${#names[@]} scripts"
t0=$(t)
(cd "$pb" && tfp_as_pg "$TFP_BINDIR/pgbench" -n -c "$CLIENTS" -j 2 -T "$SECS" -D maxid="$maxid" -P 60 \
    -l --log-prefix="$pb/tx" "${scripts[@]}" postgres) >"$pb/out" 2>&1
brc=$?
cat "$pb/out" | grep -vE '^progress' | sed -n '1,200p' | grep -vE '^ +[0-9.]+ +[0-9]+ +\\set' | head -80
grep -E '^progress' "$pb/out" | tail -3
after=$(psql -At -c "SELECT deadlocks || ' ' || xact_rollback FROM pg_stat_database WHERE datname = current_database()")

echo "== latency per script (ms): mean p50 p95 p99, transactions"
python3 - "$pb" "${names[@]}" <<'EOF'
import glob, sys, statistics
d, names = sys.argv[1], sys.argv[2:]
lat = {}
for f in glob.glob(d + '/tx*'):
    for line in open(f):
        p = line.split()
        # client_id transaction_no time script_no time_epoch time_us
        lat.setdefault(int(p[3]), []).append(int(p[2]) / 1000.0)
for s in sorted(lat):
    v = sorted(lat[s]); n = len(v)
    q = lambda x: v[min(n - 1, int(x * n))]
    print('  %-60s %8.2f %8.2f %8.2f %8.2f %8d' % (names[s] if s < len(names) else s,
          statistics.mean(v), q(0.5), q(0.95), q(0.99), n))
EOF

echo "== checks"
fail=0
check() { # name expected actual (an empty actual value is a failure)
    if [ -n "$3" ] && [ "$2" = "$3" ]; then echo "ok: $1 ($3)"; else echo "NOT OK: $1: expected $2, got $3"; fail=1; fi
}
check "pgbench exit status" 0 "$brc"
check "no client aborted" 0 "$(grep -c 'aborted' "$pb/out")"
check "deadlocks, rollbacks during the run (before: $before)" "$before" "$after"
check "row count and text checksum equal the ledger" \
    "$(psql -At -c "SELECT sum(n) || ' ' || sum(cs) FROM ledger")" \
    "$(psql -At -c "SELECT count(*) || ' ' || coalesce(sum(hashtext(body)::int8), 0) FROM docs")"
for c in "${cols[@]}"; do
    IFS='|' read -r col typ expr <<<"$c"
    check "stored $col equals ${expr//%s/body} for every row" 0 \
        "$(psql -At -c "SELECT count(*) FROM docs WHERE $col IS DISTINCT FROM ${expr//%s/body}")"
done
# index = sequential scan, 8 random rows per class (MinHash % above the LSH
# class's exactness bound, (k - bands + 1) / k = 0.6875 for k = 64 and the
# default 21 bands of 3: below it LSH is the documented approximation)
bad=0 total=0
mapfile -t ids < <(psql -At -c "SELECT id FROM docs TABLESAMPLE SYSTEM (1) REPEATABLE (7) ORDER BY hashint8(id) LIMIT 8")
mapfile -t probes < <(psql -At -c "SELECT probe FROM tfp_probe.probes('docs') WHERE probe IS NOT NULL")
for p in "${probes[@]}"; do
    for id in "${ids[@]}"; do
        q=$(psql -At -c "SELECT tfp_probe.query('docs', \$p\$$p\$p\$, $id)")
        a=$(psql -At -c "SET textfp.minhash_threshold = 0.7; SET enable_seqscan = off; $q")
        b=$(psql -At -c "SET textfp.minhash_threshold = 0.7; SET enable_indexscan = off; SET enable_bitmapscan = off; $q")
        total=$((total + 1))
        [ "$a" = "$b" ] || { bad=$((bad + 1)); echo "   differs: $q"; }
    done
done
check "index probes answering as a sequential scan (of $total)" 0 "$bad"
check "bt_index_check(heapallindexed) of every btree index" 0 "$(psql -At -c "
    SELECT count(*) FROM (SELECT bt_index_check(c.oid, true) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
    JOIN pg_am a ON a.oid = c.relam WHERE i.indrelid = 'docs'::regclass AND a.amname = 'btree') s WHERE false" 2>&1)"
if [ "$(psql -At -c "SELECT current_setting('server_version_num')::int >= 140000")" = t ]; then
    check "verify_heapam(docs): corrupt tuples" 0 "$(psql -At -c "SELECT count(*) FROM verify_heapam('docs')" 2>&1)"
fi
if [ -n "$(psql -At -c "SELECT to_regproc('gin_index_check')")" ]; then
    check "gin_index_check of every GIN index" 0 "$(psql -At -c "
        SELECT count(*) FROM (SELECT gin_index_check(c.oid) FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        JOIN pg_am a ON a.oid = c.relam WHERE i.indrelid = 'docs'::regclass AND a.amname = 'gin') s WHERE false" 2>&1)"
else
    echo "(no gin_index_check in this amcheck: PostgreSQL 18+)"
fi
check "errors in the server log" 0 "$(grep -cE 'ERROR|PANIC|terminated by signal' "$TFP_TMP/log/postgres.log")"
echo "== summary: $ROWS rows, $CLIENTS clients, ${SECS} s; final rows $(psql -At -c 'SELECT count(*) FROM docs'); $([ $fail = 0 ] && echo 'all checks passed' || echo 'CHECKS FAILED')"
exit $fail
