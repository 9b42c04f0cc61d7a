#!/usr/bin/env bash
# New arrivals against an indexed corpus (textfp_check_arrivals), on a
# throwaway cluster:
#
#   test/bench/arrivals.sh [N [B]]     (default: 1000000 corpus rows, 10000 new rows)
#   env: ARRIVALS_TEXT_ROWS (default 100000; 0 skips)  documents of the text part
#        ARRIVALS_TEXT_BATCH (default 1000)             new documents checked there
#
# 1. simhash: N random fingerprints with a GIN index (default layout); a
#    batch of B new rows staged in a table of their own, 1% of them 1..3 bits
#    from a corpus row; textfp_check_arrivals at radius 3 by index searches
#    (first run: writes the matches; second run: the same work, nothing
#    written), by the all-pairs search and as auto chooses; the same B rows
#    as rows of the corpus (the newest ids); radius 6 by the all-pairs search
#    and by index searches on an index with 3 blocks; rows/s.
# 2. the duplicate_of trigger: B rows inserted into the corpus with and
#    without it (radius 3; the index with fastupdate = off).
# 3. minhash and pinyin DNA: ARRIVALS_TEXT_ROWS documents of ~2 KB made of
#    real paragraphs (test/data/pool_*.txt, minhash_load.sql's bench_doc),
#    GIN indexes on minhash(body, 128) and pinyin_dna(body); a batch of
#    ARRIVALS_TEXT_BATCH new documents, half of them reposts of stored ones;
#    each method alone, then shingle_jaccard verifying their candidates.
# Each check runs in its own session, timed by psql's \timing.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

N=${1:-1000000}
B=${2:-10000}
TEXT_ROWS=${ARRIVALS_TEXT_ROWS:-100000}
TEXT_BATCH=${ARRIVALS_TEXT_BATCH:-1000}
DATA=$TFP_ROOT/test/data
tfp_bench_cluster "shared_buffers = 1GB
maintenance_work_mem = 1GB
work_mem = 64MB" || exit 1

# a timed statement in a new session: prints "ms|output"
timed() { tfp_timed last "$1"; }
# run a check and print its rows/s: label rows sql
check() {
    local label=$1 rows=$2 r ms out
    r=$(timed "$3")
    ms=${r%%|*} out=${r#*|}
    awk -v l="$label" -v ms="$ms" -v n="$rows" -v o="$out" 'BEGIN { printf "%-58s %9.0f ms %10.0f rows/s   %s\n", l, ms, n * 1000 / ms, o }'
}

tfp_log "1. simhash: $N corpus fingerprints with a GIN index, $B new rows"
tfp_psql -d postgres <<SQL || exit 1
CREATE FUNCTION h64(i bigint) RETURNS bigint LANGUAGE sql IMMUTABLE AS
\$\$ SELECT (hashint8(i)::bigint << 32) # (hashint8(-i)::bigint & 4294967295) \$\$;
CREATE TABLE corpus (id bigint PRIMARY KEY, fp simhash64);
INSERT INTO corpus SELECT i, h64(i)::simhash64 FROM generate_series(1, $N) i;
-- the new rows: every 100th is a corpus row with 1..3 bits flipped
CREATE TABLE arrivals (id bigint PRIMARY KEY, fp simhash64);
INSERT INTO arrivals SELECT $N + j, CASE WHEN j % 100 <> 0 THEN h64($N + j)
    ELSE h64(1 + abs(hashint8(-j)) % $N) # (1::bigint << (j % 64)::int)
         # CASE WHEN j % 3 > 0 THEN 1::bigint << ((j / 64) % 64)::int ELSE 0 END
         # CASE WHEN j % 3 > 1 THEN 1::bigint << ((j / 4096) % 64)::int ELSE 0 END END::simhash64
  FROM generate_series(1, $B) j;
\timing on
CREATE INDEX corpus_fp ON corpus USING gin (fp);
\timing off
VACUUM ANALYZE corpus, arrivals;
SELECT textfp_create_match_table('matches');
SQL
staged() { # label radius search [new rows]
    check "$1" "$B" "SELECT string_agg(matches_found || ' found, ' || matches_written || ' written', '') FROM textfp_check_arrivals('${4:-TABLE arrivals}', 'corpus', 'matches', radius => $2, simhash_search => '$3');"
}
staged "staged rows, radius 3, index searches (writes)" 3 index
staged "staged rows, radius 3, index searches again (writes nothing)" 3 index
staged "staged rows, radius 3, all-pairs search" 3 scan
staged "staged rows, radius 3, auto" 3 auto
tfp_psql -d postgres -q -c "TRUNCATE matches" -c "INSERT INTO corpus SELECT * FROM arrivals" -c "VACUUM ANALYZE corpus" || exit 1
staged "the same rows as the newest corpus rows, index searches" 3 index "SELECT * FROM corpus WHERE id > $N"
staged "the same rows as the newest corpus rows, all-pairs search" 3 scan "SELECT * FROM corpus WHERE id > $N"
tfp_psql -d postgres -q -c "DELETE FROM corpus WHERE id > $N" -c "VACUUM ANALYZE corpus" || exit 1
staged "staged rows, radius 6, all-pairs search" 6 scan
# index searches at radius 6, beyond the default layout's pigeonhole bound
# (5 blocks), on the layout for radii 6-10 (3 blocks)
tfp_psql -d postgres -q -c "DROP INDEX corpus_fp" -c "\\timing on" \
    -c "CREATE INDEX corpus_fp3 ON corpus USING gin (fp simhash64_gin_ops (blocks = 3))" -c "VACUUM ANALYZE corpus" || exit 1
staged "staged rows, radius 6, index searches (blocks = 3)" 6 index
tfp_psql -d postgres -q -c "DROP INDEX corpus_fp3" -c "CREATE INDEX corpus_fp ON corpus USING gin (fp)" || exit 1

tfp_log "2. the duplicate_of trigger: $B rows inserted into the corpus"
# fastupdate off: each row's search must not scan a growing pending list
tfp_psql -d postgres -q -c "ALTER TABLE corpus ADD duplicate_of bigint" \
    -c "ALTER INDEX corpus_fp SET (fastupdate = off)" -c "VACUUM ANALYZE corpus" || exit 1
check "INSERT without the trigger" "$B" "INSERT INTO corpus (id, fp) SELECT id, fp FROM arrivals;"
tfp_psql -d postgres -q -c "DELETE FROM corpus WHERE id > $N" -c "VACUUM ANALYZE corpus" \
    -c "CREATE TRIGGER dup BEFORE INSERT ON corpus FOR EACH ROW EXECUTE FUNCTION textfp_duplicate_of('fp', '3')" || exit 1
check "INSERT with textfp_duplicate_of('fp', '3')" "$B" "INSERT INTO corpus (id, fp) SELECT id, fp FROM arrivals;"
tfp_psql -d postgres -Atc "SELECT count(duplicate_of) || ' of the new rows got a duplicate_of' FROM corpus WHERE id > $N"
tfp_psql -d postgres -qc "DROP TABLE corpus, arrivals, matches" || exit 1

[ "$TEXT_ROWS" -gt 0 ] || exit 0
tfp_log "3. minhash and pinyin DNA: $TEXT_ROWS documents, $TEXT_BATCH new ones"
cp "$DATA"/pool_en.txt "$DATA"/pool_zh.txt "$TFP_TMP/"
tfp_chown_pg "$TFP_TMP"/pool_*.txt
tfp_psql -d postgres -v datadir="$TFP_TMP" -f "$TFP_ROOT/test/bench/minhash_load.sql" >/dev/null || exit 1
tfp_psql -d postgres <<SQL || exit 1
CREATE TABLE docs (id bigint PRIMARY KEY, body text,
                   sig minhash GENERATED ALWAYS AS (minhash(body, 128)) STORED,
                   dna int8[] GENERATED ALWAYS AS (pinyin_dna(body)) STORED);
INSERT INTO docs (id, body) SELECT i, bench_doc(i) FROM generate_series(1, $TEXT_ROWS) i;
-- half of the new documents repost a stored one with a header, the others are new
CREATE TABLE new_docs (LIKE docs INCLUDING GENERATED);
INSERT INTO new_docs (id, body)
SELECT $TEXT_ROWS + j, CASE WHEN j % 2 = 0 THEN '转载自某网站：' || (SELECT body FROM docs WHERE id = 1 + abs(hashint8(j)) % $TEXT_ROWS)
                       ELSE bench_doc($TEXT_ROWS + j) END
FROM generate_series(1, $TEXT_BATCH) j;
\timing on
CREATE INDEX docs_sig ON docs USING gin (sig);
CREATE INDEX docs_dna ON docs USING gin (dna pinyin_dna_ops);
\timing off
VACUUM ANALYZE docs, new_docs;
SELECT textfp_create_match_table('doc_matches');
SQL
# the documents share paragraphs of the pools, so many share some DNA
# windows: pinyin_dna keeps those sharing 30% of their DNA sets
for m in minhash pinyin_dna; do
    check "$m, staged documents" "$TEXT_BATCH" \
        "SELECT string_agg(matches_found || ' found, ' || matches_written || ' written', '') FROM textfp_check_arrivals('TABLE new_docs', 'docs', 'doc_matches', '{$m}', min_dna_similarity => 0.3);"
done
check "shingle_jaccard verifying their candidates" "$TEXT_BATCH" \
    "SELECT string_agg(matches_found || ' found, ' || matches_written || ' written', '') FROM textfp_check_arrivals('TABLE new_docs', 'docs', 'doc_matches', '{shingle_jaccard}', text_column => 'body');"
