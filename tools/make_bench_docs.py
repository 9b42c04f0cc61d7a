#!/usr/bin/env python3
"""Write N benchmark documents made of real text to stdout.

Usage: tools/make_bench_docs.py N [SIZE] [--seed S] [--runs R] [--lang mix|zh|en]
                                [--pool-dir DIR]

Output: one document per line, tab-separated, PostgreSQL COPY text format:
    id  lang  body
ids are 1..N; with --lang mix (default) odd ids are Chinese, even ids English.
body is about SIZE bytes of UTF-8 (default 2048), paragraph breaks written as
the two characters \\n and backslashes doubled, so that
    \\copy bench(id, lang, body) FROM PROGRAM 'tools/make_bench_docs.py 100000'
loads the text literally.

Each document is R runs (default 4) of consecutive real sentences taken from
test/data/pool_zh.txt or pool_en.txt, each run starting at a pseudo-random
sentence start (random.Random(seed), so the output is reproducible) and ending
at the sentence boundary nearest to SIZE/R bytes; the runs are joined with a
paragraph break.  --runs 1 gives one run of ~SIZE bytes per document, but the
pools hold only ~2.5-3.3 MB per language: 100k docs of 2 KB then cover each
pool ~35 times, about half of the documents come out as exact copies of
another one and every document overlaps by half or more with ~35 others.
With the default 4 runs two documents share at most about one run (a quarter
of their text), so they stay far apart for any near-duplicate threshold.
Needs only python3 (standard library).
"""

import argparse
import bisect
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
# A sentence ends after a CJK terminator, after ASCII .!?; followed by a space,
# or at a paragraph end (newline).
RE_END = re.compile('(?:\u3002|\uff01|\uff1f|\uff1b|[.!?;](?= )|\n)'.encode('utf-8'))


class Pool:
    def __init__(self, path, size):
        with open(path, 'rb') as f:
            self.data = f.read()
        if not self.data.endswith(b'\n'):
            self.data += b'\n'
        ends = [m.end() for m in RE_END.finditer(self.data)]
        self.ends = ends
        # a sentence starts where the previous one ended (spaces skipped later)
        starts = [0] + ends[:-1]
        limit = len(self.data) - 2 * size - 1
        if limit <= 0:
            sys.exit('%s is too small for documents of %d bytes' % (path, size))
        self.starts = [s for s in starts if s <= limit]

    def run(self, rng, nbytes):
        data = self.data
        s = self.starts[rng.randrange(len(self.starts))]
        while data[s:s + 1] in (b' ', b'\n'):
            s += 1
        goal = s + nbytes
        i = bisect.bisect_right(self.ends, goal)
        below = self.ends[i - 1] if i > 0 else s
        above = self.ends[i] if i < len(self.ends) else len(data)
        e = below if goal - below <= above - goal else above
        if e - s < nbytes // 2 or e - s > nbytes * 3 // 2:
            # no sentence boundary near the goal: cut on a UTF-8 character boundary
            e = goal
            while data[e] & 0xC0 == 0x80:
                e -= 1
        return data[s:e].strip()


def main():
    ap = argparse.ArgumentParser(description='Write N benchmark documents of real text.')
    ap.add_argument('n', type=int)
    ap.add_argument('size', type=int, nargs='?', default=2048,
                    help='target document size in bytes (default 2048)')
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--runs', type=int, default=4,
                    help='independent runs of sentences per document (default 4)')
    ap.add_argument('--lang', choices=('mix', 'zh', 'en'), default='mix')
    ap.add_argument('--pool-dir', default=os.path.join(HERE, '..', 'test', 'data'))
    a = ap.parse_args()
    if a.n < 0 or a.size < 64 or a.runs < 1:
        ap.error('need N >= 0, SIZE >= 64, RUNS >= 1')

    langs = ['zh', 'en'] if a.lang == 'mix' else [a.lang]
    pools = {l: Pool(os.path.join(a.pool_dir, 'pool_%s.txt' % l), a.size) for l in langs}
    for l in langs:
        per = a.n / len(langs)
        cover = per * a.size / len(pools[l].data)
        if cover > 1 and a.runs == 1:
            print('make_bench_docs: note: %d %s docs of %d bytes cover the %d-byte pool '
                  '%.0f times; with --runs 1 many docs are exact copies and each overlaps '
                  'by half or more with ~%.0f others (use --runs 3 or more)'
                  % (per, l, a.size, len(pools[l].data), cover, cover),
                  file=sys.stderr)

    rng = random.Random(a.seed)
    out = sys.stdout.buffer
    buf = []
    seg = max(a.size // a.runs, 16)
    for i in range(1, a.n + 1):
        lang = ('zh' if i % 2 else 'en') if len(langs) == 2 else langs[0]
        p = pools[lang]
        if a.runs == 1:
            body = p.run(rng, a.size)
        else:
            parts = [p.run(rng, seg) for _ in range(a.runs - 1)]
            parts.append(p.run(rng, a.size - seg * (a.runs - 1)))
            body = b'\n'.join(parts)
        body = body.replace(b'\\', b'\\\\').replace(b'\n', b'\\n').replace(b'\t', b' ')
        buf.append(b'%d\t%s\t%s\n' % (i, lang.encode(), body))
        if len(buf) >= 2000:
            out.write(b''.join(buf))
            buf = []
    out.write(b''.join(buf))
    out.flush()


if __name__ == '__main__':
    main()
