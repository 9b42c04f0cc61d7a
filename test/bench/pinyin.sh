#!/usr/bin/env bash
# Speed of pinyin_dna(body) next to md5(body), simhash(body), pinyin(body)
# and pinyin_initials(body) (and pinyin_dna with its portable code only,
# textfp.simd = off), side by side in one run, on ~2 KB Chinese
# documents (consecutive paragraphs of test/data/pool_zh.txt; POOL=FILE for
# another pool).
#   test/bench/pinyin.sh [DOCS] [ROUNDS]       (default 5000 docs, 5 rounds)
# Each function is evaluated over all rows (sum of pg_column_size, so the result is
# used); the best of ROUNDS runs is reported, in microseconds per row.
set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
ndocs=${1:-5000}
rounds=${2:-5}
pool=${POOL:-$TFP_ROOT/test/data/pool_zh.txt}
out=$TFP_ROOT/test/bench/out; mkdir -p "$out"
python3 - "$pool" "$ndocs" > "$out/pinyin_bench_docs.tsv" <<'PY'
import sys
paras = [l.strip() for l in open(sys.argv[1], encoding='utf-8') if l.strip()]
n = int(sys.argv[2]); docs = []; cur = []; i = 0
while len(docs) < n:
    cur.append(paras[i % len(paras)]); i += 1
    if len('\n'.join(cur).encode()) >= 2000:
        docs.append('\n'.join(cur)); cur = []
for d in docs:
    print(d.replace('\\', '\\\\').replace('\t', '\\t').replace('\n', '\\n'))
PY
tfp_setup_cluster
tfp_psql -c 'CREATE EXTENSION textfp'
tfp_psql -c 'CREATE TABLE docs (body text)'
# uncompressed and in line (STORAGE PLAIN, as test/bench/simhash.sh): no
# decompression or TOAST fetch is timed, so octet_length(body), which reads
# only the length word, is the cost of the scan itself
tfp_psql -c 'ALTER TABLE docs ALTER body SET STORAGE PLAIN'
tfp_psql -c "\\copy docs FROM '$out/pinyin_bench_docs.tsv'" -c 'VACUUM ANALYZE docs'
tfp_psql -At -c "SELECT count(*) || ' docs, avg ' || round(avg(octet_length(body))) || ' bytes, avg '
  || round(avg(length(regexp_replace(body, '[^\u4e00-\u9fff]', '', 'g')))) || ' Han characters' FROM docs"
tfp_psql <<SQL
SET max_parallel_workers_per_gather = 0;
CREATE TEMP TABLE t (fn text, round int, ms float8);
CREATE TEMP TABLE fns (fn text, expr text, simd bool DEFAULT true);
INSERT INTO fns (fn, expr) VALUES
  ('(scan: octet_length(body))', 'octet_length(body)'),
  ('md5(body)', 'md5(body)'),
  ('pinyin_dna(body)', 'pinyin_dna(body)'),
  ('pinyin_dna(body, 64)', 'pinyin_dna(body, 64)'),
  ('pinyin_dna(body, content_defined => false)', 'pinyin_dna(body, content_defined => false)'),
  ('pinyin_initials(body)', 'pinyin_initials(body)'),
  ('pinyin(body)', 'pinyin(body)'),
  ('simhash(body)', 'simhash(body)');
INSERT INTO fns VALUES ('pinyin_dna(body), textfp.simd = off', 'pinyin_dna(body)', false);
-- rounds interleave the functions, so that a busy moment of the (shared)
-- machine does not hit one function only; the best round counts
DO \$\$
DECLARE t0 timestamptz; r int; f record; x bigint;
BEGIN
  PERFORM count(*) FROM docs WHERE length(body) > 0;   -- warm up
  PERFORM sum(cardinality(pinyin_dna(body))) FROM docs;
  FOR r IN 1..$rounds LOOP
    FOR f IN SELECT * FROM fns LOOP
      -- the portable code where asked (same results; AVX-512 kernels otherwise)
      PERFORM set_config('textfp.simd', f.simd::text, true);
      t0 := clock_timestamp();
      EXECUTE format('SELECT sum(pg_column_size(%s)) FROM docs', f.expr) INTO x;
      INSERT INTO t VALUES (f.fn, r, extract(epoch FROM clock_timestamp() - t0) * 1000);
    END LOOP;
  END LOOP;
END \$\$;
-- per row: best round; "net" subtracts the scan (octet_length); the
-- ratios are to md5(body), including the scan and net
WITH b AS (SELECT fn, min(ms) * 1000 / (SELECT count(*) FROM docs) AS us FROM t GROUP BY fn),
     s AS (SELECT us FROM b WHERE fn LIKE '(scan%'),
     m AS (SELECT us FROM b WHERE fn = 'md5(body)')
SELECT b.fn, round(b.us::numeric, 2) AS us_per_row,
       round((b.us - s.us)::numeric, 2) AS us_net,
       round((b.us / m.us)::numeric, 2) AS x_md5,
       round(((b.us - s.us) / nullif(m.us - s.us, 0))::numeric, 2) AS x_md5_net
FROM b, s, m ORDER BY b.us;
SQL
