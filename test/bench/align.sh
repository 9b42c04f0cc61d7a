#!/usr/bin/env bash
# Which passages were copied: time per pair of textfp_align(),
# textfp_copied_share() and textfp_compare_html() on ~2 KB and ~100 KB
# texts, Chinese and English, for copies and for unrelated pairs, on a
# throwaway cluster.
#
#   test/bench/align.sh [PAIRS_2K] [PAIRS_100K]     (default 1000 and 20 per language)
#
# The texts are real (tools/make_bench_docs.py: runs of consecutive sentences
# from test/data/pool_*.txt).  A copy is the original with small edits (one
# character or word in 50 substituted, deleted or doubled) and its first
# paragraph moved to the end (timed; the shares found are also printed for
# copies with one edit in 10 and in 5); an unrelated pair is two documents made from
# the first and the second half of the pool (the manuals repeat some lines
# and menu paths, so even these share a little real text).  Texts are stored uncompressed (STORAGE EXTERNAL),
# so detoasting reads but does not decompress them.  Each query runs three
# times; the best time per pair is printed, with md5(a) || md5(b) on the
# same rows as a yardstick.  Last, on the sample corpus and its answer key:
# the share of each repost found in its original, and of every other pair.
set -uo pipefail
# shellcheck source-path=SCRIPTDIR source=../lib/common.sh
. "$(dirname "${BASH_SOURCE[0]}")/../lib/common.sh"

N2K=${1:-1000}
N100K=${2:-20}
TFP_PG_CONF="shared_buffers = 1GB
max_parallel_workers_per_gather = 0
jit = off" tfp_setup_cluster || exit 1

gen="$TFP_TMP/align_pairs.py"
cat > "$gen" <<'PY'
import os, random, subprocess, sys
n, size, root, tmp = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3], sys.argv[4]
# originals from the first half of each pool, unrelated texts from the second
for half in (0, 1):
    os.makedirs('%s/pool%d' % (tmp, half), exist_ok=True)
    for lang in ('zh', 'en'):
        lines = open('%s/test/data/pool_%s.txt' % (root, lang), encoding='utf-8').read().split('\n')
        part = lines[:len(lines) // 2] if half == 0 else lines[len(lines) // 2:]
        open('%s/pool%d/pool_%s.txt' % (tmp, half, lang), 'w', encoding='utf-8').write('\n'.join(part))
def docs(half, lang):
    out = subprocess.run([sys.executable, root + '/tools/make_bench_docs.py', str(n), str(size),
                          '--lang', lang, '--pool-dir', '%s/pool%d' % (tmp, half)],
                         capture_output=True, check=True).stdout
    for line in out.decode('utf-8').splitlines():
        body = line.split('\t', 2)[2]
        yield body.replace('\\n', '\n').replace('\\\\', '\\')
def esc(s):
    return s.replace('\\', '\\\\').replace('\n', '\\n').replace('\t', ' ')
rng = random.Random(size)
def edit(s, lang, rate):
    toks = list(s) if lang == 'zh' else s.split(' ')
    out = []
    for t in toks:
        r = rng.random()
        if r < rate / 3:
            out.append(rng.choice('的一是在不了有和人这中大为上个国我以要他') if lang == 'zh' else 'edited')
        elif r < 2 * rate / 3:
            continue
        elif r < rate:
            out += [t, t]
        else:
            out.append(t)
    s = ''.join(out) if lang == 'zh' else ' '.join(out)
    paras = s.split('\n')
    return '\n'.join(paras[1:] + paras[:1])
k = 0
for lang in ('zh', 'en'):
    for a, other in zip(docs(0, lang), docs(1, lang)):
        k += 1
        print('%d\t%s\t%d\t%s\t%s\t%s\t%s\t%s' % (k, lang, size, esc(a), esc(edit(a, lang, 0.02)),
              esc(edit(a, lang, 0.1)), esc(edit(a, lang, 0.2)), esc(other)))
PY

tfp_log "making pairs: $N2K of ~2 KB and $N100K of ~100 KB texts per language"
tfp_psql -d postgres <<SQL || exit 1
CREATE EXTENSION textfp;
CREATE TABLE pairs (id int, lang text, size int, a text, copy text, copy10 text, copy20 text,
                    other text);
ALTER TABLE pairs ALTER COLUMN a SET STORAGE EXTERNAL,
                  ALTER COLUMN copy SET STORAGE EXTERNAL,
                  ALTER COLUMN copy10 SET STORAGE EXTERNAL,
                  ALTER COLUMN copy20 SET STORAGE EXTERNAL,
                  ALTER COLUMN other SET STORAGE EXTERNAL;
\copy pairs FROM PROGRAM 'python3 "$gen" $N2K 2048 "$TFP_ROOT" "$TFP_TMP"'
\copy pairs FROM PROGRAM 'python3 "$gen" $N100K 102400 "$TFP_ROOT" "$TFP_TMP"'
VACUUM ANALYZE pairs;
SELECT size, lang, count(*) AS pairs, round(avg(octet_length(a))) AS bytes_a,
       round(avg(length(a))) AS chars_a
FROM pairs GROUP BY 1, 2 ORDER BY 1, 2;
SQL

tfp_log "timing (best of 3 rounds)"
q=""
for size in 2048 102400; do
  for lang in zh en; do
    w="size = $size AND lang = '$lang'"
    for r in 1 2 3; do
      q+="SELECT '$size|$lang|md5|yardstick', count(md5(a) || md5(copy)) FROM pairs WHERE $w;
SELECT '$size|$lang|textfp_align|copy', count(*) FROM pairs, textfp_align(a, copy) WHERE $w;
SELECT '$size|$lang|textfp_align|unrelated', count(*) FROM pairs, textfp_align(a, other) WHERE $w;
SELECT '$size|$lang|textfp_copied_share|copy', sum(textfp_copied_share(a, copy)) FROM pairs WHERE $w;
SELECT '$size|$lang|textfp_compare_html|copy', sum(length(textfp_compare_html(a, copy))) FROM pairs WHERE $w;
"
    done
  done
done
out=$(printf '%s\n' "\\timing on" "$q" | tfp_psql -d postgres -At) || exit 1
counts=$(tfp_psql -d postgres -At -c "SELECT size || '|' || lang, count(*) FROM pairs GROUP BY 1")
quality=$(tfp_psql -d postgres -At -F' ' <<'SQL'
SELECT size, lang, round(avg(textfp_copied_share(a, copy))::numeric, 3),
       round(avg(textfp_copied_share(a, copy10))::numeric, 3),
       round(avg(textfp_copied_share(a, copy20))::numeric, 3),
       round(avg(textfp_copied_share(a, other))::numeric, 4),
       (SELECT count(*) FROM pairs q, textfp_align(q.a, q.other)
        WHERE q.size = p.size AND q.lang = p.lang)
FROM pairs p GROUP BY size, lang ORDER BY size, lang;
SQL
) || exit 1
echo "$out" | awk -F'|' -v counts="$counts" '
    BEGIN { n = split(counts, c, "\n"); for (i = 1; i <= n; i++) { split(c[i], f, "|"); pairs[f[1] "|" f[2]] = f[3] } }
    /^Time:/ { split($0, t, " "); if (key != "" && (!(key in best) || t[2] < best[key])) best[key] = t[2]; key = ""; next }
    { key = $1 "|" $2 "|" $3 "|" $4; if (!(key in order)) order[key] = ++k }
    END {
        printf "%-7s %-4s %-22s %-10s %12s\n", "size", "lang", "function", "pair", "ms per pair"
        for (key in best) keys[order[key]] = key
        for (i = 1; i <= k; i++) if (i in keys) { split(keys[i], f, "|")
            printf "%-7s %-4s %-22s %-10s %12.3f\n", f[1], f[2], f[3], f[4], best[keys[i]] / pairs[f[1] "|" f[2]] }
    }'
echo "size lang | mean copied share of the copies with 2%, 10%, 20% of the units edited | of the unrelated pairs | passages found between the unrelated pairs"
echo "$quality"

# The sample corpus (test/data/corpus.tsv, answer key corpus_truth.tsv): how
# much of each repost textfp_copied_share finds in its original, by kind of
# repost, and the shares of every other pair of documents of one language.
tfp_log "the sample corpus: shares of the reposts, and of all other pairs"
tfp_psql -d postgres <<SQL || exit 1
CREATE TABLE docs (id int PRIMARY KEY, lang text, source text, title text, body text);
\copy docs FROM '$TFP_ROOT/test/data/corpus.tsv'
CREATE TABLE truth (id int, original_id int, transformation text);
\copy truth FROM '$TFP_ROOT/test/data/corpus_truth.tsv'
CREATE TABLE repost AS
  SELECT t.*, textfp_copied_share(o.body, r.body) AS share
  FROM truth t JOIN docs o ON o.id = t.original_id JOIN docs r ON r.id = t.id;
SELECT split_part(transformation, ':', 1) AS kind, count(*) AS pairs,
       round(min(share)::numeric, 3) AS min,
       round((percentile_cont(0.5) WITHIN GROUP (ORDER BY share))::numeric, 3) AS median,
       round(avg(share)::numeric, 3) AS mean
FROM repost GROUP BY 1 ORDER BY 1;
SELECT id, original_id, round(share::numeric, 3) AS share, transformation
FROM repost ORDER BY share, id LIMIT 6;
-- other pairs: one language, not a repost and its original nor two reposts of one original
CREATE TABLE grp AS
  SELECT d.id, d.lang, coalesce(t.original_id, d.id) AS g FROM docs d LEFT JOIN truth t ON t.id = d.id;
SELECT count(*) AS other_pairs, count(*) FILTER (WHERE s > 0) AS with_a_passage,
       count(*) FILTER (WHERE s >= 0.1) AS share_over_10pct,
       count(*) FILTER (WHERE s >= 0.5) AS share_over_half, round(max(s)::numeric, 3) AS max_share
FROM (SELECT textfp_copied_share(a.body, b.body) AS s
      FROM grp ga JOIN grp gb ON gb.lang = ga.lang AND gb.id > ga.id AND gb.g <> ga.g
      JOIN docs a ON a.id = ga.id JOIN docs b ON b.id = gb.id) x;
SQL
