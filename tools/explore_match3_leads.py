#!/usr/bin/env python3
"""Leads for textfp_match's model 3 (issue 34) that were explored and not
shipped (docs/match.md, "Leads tried on 2026-12-04"): nothing here is the C
code's, and the figures it prints are not the shipped model's.

    tools/explore_match3_leads.py derep SET.tsv > DSET.tsv
        the pairs with every line that occurs twice or more in its own text
        (white space at its ends ignored, 8 characters or more) dropped
        from that text; then test/bench/match_features.sh on the DSETs and
        `shipped` or tools/fit_match3.py on them
    tools/explore_match3_leads.py runs SET.tsv > RUNS.tsv
        per pair: the longest run of character 5-grams of one text found in
        the other, on the texts without tags and white space, both ways, as
        a share of the shorter text's 5-grams, with gaps of 0, 2, 5 and 10
        5-grams allowed; then the longest common substring in characters
        and both texts' lengths
    tools/explore_match3_leads.py fit COLUMN SET1 F1 R1 SET2 F2 R2 SET3 F3 R3
        model 3's inputs and one more (COLUMN of RUNS.tsv: 0-3 the runs,
        lcs100: min(1, longest common substring / 100)), refitted as
        tools/fit_match3.py does, reported on the test pairs (kinds under
        0.95 or with a false copy)
    tools/explore_match3_leads.py shipped SET1 F1 SET2 F2 SET3 F3
        the shipped model 3 on these features (e.g. those of the DSETs)

SETn: tools/make_match_set.py, make_match_set2.py, make_match_set3.py; Fn:
test/bench/match_features.sh.  Needs numpy; `runs` uses two processes.
"""
import collections
import html
import os
import re
import sys
from multiprocessing import Pool

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit_match2 as fm  # noqa: E402
import fit_match3 as f3  # noqa: E402

TAG = re.compile(r'<[^>]*>')
WS = re.compile(r'\s+')
HIDDEN = re.compile(r'(?is)<(script|style|title)[^>]*>.*?</\1>')
GAPS = (0, 2, 5, 10)
K = 5


def escape(t):
    return t.replace('\\', '\\\\').replace('\t', '\\t').replace('\n', '\\n')


def derep(t):
    """t without its lines that occur twice or more in it"""
    lines = t.split('\n')
    count = collections.Counter(ln.strip() for ln in lines if len(ln.strip()) >= 8)
    return '\n'.join(ln for ln in lines if count.get(ln.strip(), 0) < 2)


def bare(t):
    """the text without tags (and what script, style and title hold) and
    without white space"""
    if '<' in t:
        t = html.unescape(TAG.sub(' ', HIDDEN.sub(' ', t)))
    return WS.sub('', t)


def longest_run(grams, other, gap):
    """the longest run of grams found in other, up to gap grams not found
    inside it (not counted)"""
    best = cur = miss = 0
    for g in grams:
        if g in other:
            cur += 1
            miss = 0
            best = max(best, cur)
        else:
            miss += 1
            if miss > gap:
                cur = 0
    return best


def longest_common(a, b):
    """the length of the longest common substring (binary search on it)"""
    if len(a) > len(b):
        a, b = b, a
    lo, hi = 0, len(a)
    while lo < hi:
        m = (lo + hi + 1) // 2
        s = {a[i:i + m] for i in range(len(a) - m + 1)}
        if any(b[i:i + m] in s for i in range(len(b) - m + 1)):
            lo = m
        else:
            hi = m - 1
    return lo


def runs_of(line):
    p = line.rstrip('\n').split('\t')
    a, b = bare(fm.unescape(p[6])).lower(), bare(fm.unescape(p[7])).lower()
    ga = [a[i:i + K] for i in range(len(a) - K + 1)]
    gb = [b[i:i + K] for i in range(len(b) - K + 1)]
    sa, sb = set(ga), set(gb)
    mn = max(1, min(len(ga), len(gb)))
    v = ['%.4f' % min(1.0, max(longest_run(ga, sb, g), longest_run(gb, sa, g)) / mn) for g in GAPS]
    return '\t'.join([p[0]] + v + [str(longest_common(a, b)), str(len(a)), str(len(b))]) + '\n'


def load(paths):
    a = type('Args', (), dict(zip(('set1', 'f1', 'set2', 'f2', 'set3', 'f3'), paths)))
    return f3.load_all(a)


def report(sets, beta, thr):
    for n, rows in enumerate(sets, start=1):
        t = [r for r in rows if r['split'] == 'test']
        f3.report('set %d test' % n, t, fm.zs(beta, t), thr, only_below=0.95)


def fit(column, args):
    paths = [args[i] for i in (0, 1, 3, 4, 6, 7)]
    sets = load(paths)
    for rows, rpath in zip(sets, (args[2], args[5], args[8])):
        extra = {}
        with open(rpath) as fh:
            for line in fh:
                p = line.rstrip('\n').split('\t')
                extra[int(p[0])] = p[1:]
        for r in rows:
            e = extra[r['id']]
            v = min(1.0, int(e[4]) / 100.0) if column == 'lcs100' else float(e[int(column)])
            x = f3.inputs3(r)
            r['x'] = x[:17] + [v] + x[17:]   # a similarity: weight >= 0
    fm.MONO = 18
    tr = [r for rows in sets for r in rows if r['split'] == 'train']
    fm.weigh(tr)
    beta = fm.fit(tr)
    thr = max(1.5, fm.threshold_all(beta, [[r for r in rows if r['split'] == 'train'] for rows in sets],
                                    0.997))
    print('input %s: weight %.3f, threshold z %.3f' % (column, beta[18], thr))
    report(sets, beta, thr)


def main():
    a = sys.argv[1:]
    if a[:1] == ['derep'] and len(a) == 2:
        with open(a[1], encoding='utf-8') as fh:
            for line in fh:
                p = line.rstrip('\n').split('\t')
                p[6], p[7] = escape(derep(fm.unescape(p[6]))), escape(derep(fm.unescape(p[7])))
                sys.stdout.write('\t'.join(p) + '\n')
    elif a[:1] == ['runs'] and len(a) == 2:
        with open(a[1], encoding='utf-8') as fh, Pool(2) as pool:
            for out in pool.imap(runs_of, fh, chunksize=20):
                sys.stdout.write(out)
    elif a[:1] == ['fit'] and len(a) == 11:
        fit(a[1], a[2:])
    elif a[:1] == ['shipped'] and len(a) == 7:
        beta, thr = fm.shipped(3)
        report(load(a[1:]), beta, thr)
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
