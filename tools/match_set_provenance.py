#!/usr/bin/env python3
"""Is the zh-TW side of a real pair derived from the zh-CN text, or a
translation of its own?  Evidence for the labels of tools/make_match_set.py
(kinds taiwan and translation), measured apart from textfp.

For every pair of kind taiwan or translation (copies and their negatives),
both texts are converted with `opencc -c tw2sp.json` (Taiwan traditional ->
mainland simplified with Taiwan phrases), then:
  near    the share of the zh-TW text's sentences (split at 。！？； and line
          breaks, at least 8 Han characters) whose character-bigram Dice
          similarity with some sentence of the other text is 0.7 or more:
          a sentence copied and lightly edited
  common  the longest run of Han characters the two texts share (after
          removing everything but Han characters)
  best    the median over the zh-TW sentences of their best Dice similarity
A text made from the other (converted, then edited) keeps most sentences
near-equal and long common runs; two translations of one English text
share terms and say the same things, but in their own sentences.

    tools/match_set_provenance.py SET.tsv     (the output of make_match_set.py)

Prints one line per split, book, kind and label, and the pairs of kind
translation whose zh-TW side looks derived all the same (near >= 0.5).
Needs python3 and opencc.
"""
import re
import statistics
import subprocess
import sys
from collections import defaultdict

HAN = re.compile('[\u3400-\u4dbf\u4e00-\u9fff]')


def unescape(s):
    return re.sub(r'\\(.)', lambda m: {'n': '\n', 't': '\t', 'r': '\r'}.get(m.group(1), m.group(1)), s)


def tw2sp(texts):
    sep = '\n@@@@@@\n'
    out = subprocess.run(['opencc', '-c', 'tw2sp.json'], input=sep.join(texts), capture_output=True,
                         text=True, check=True).stdout.rstrip('\n').split(sep)
    assert len(out) == len(texts)
    return out


def sentences(t):
    return [s for s in re.split(r'[。！？；\n]', t) if len(HAN.findall(s)) >= 8]


def bigrams(s):
    h = ''.join(HAN.findall(s))
    return {h[i:i + 2] for i in range(len(h) - 1)}


def dice(x, y):
    return 2 * len(x & y) / max(1, len(x) + len(y))


def longest_common(a, b):
    a = ''.join(HAN.findall(a))
    b = ''.join(HAN.findall(b))
    best = 0
    prev = [0] * (len(b) + 1)
    for i in range(1, len(a) + 1):
        cur = [0] * (len(b) + 1)
        ai = a[i - 1]
        for j in range(1, len(b) + 1):
            if ai == b[j - 1]:
                cur[j] = prev[j - 1] + 1
                if cur[j] > best:
                    best = cur[j]
        prev = cur
    return best


def main():
    pairs = []
    with open(sys.argv[1], encoding='utf-8') as f:
        for line in f:
            p = line.rstrip('\n').split('\t')
            if p[2] in ('taiwan', 'translation'):
                pairs.append((int(p[0]), p[1], p[2], p[4], p[5], unescape(p[6]), unescape(p[7])))
    conv = tw2sp([x for p in pairs for x in (p[5], p[6])])
    groups = defaultdict(list)
    derived = []
    for n, (pid, split, kind, label, book, _, _) in enumerate(pairs):
        a, b = conv[2 * n], conv[2 * n + 1]
        sa = [bigrams(s) for s in sentences(a)]
        best = [max([dice(bigrams(s), x) for x in sa] or [0.0]) for s in sentences(b)]
        near = sum(x >= 0.7 for x in best) / max(1, len(best))
        row = (near, longest_common(a, b), statistics.median(best) if best else 0.0)
        groups[(split, book, kind, label)].append(row)
        if kind == 'translation' and label == 't' and near >= 0.5:
            derived.append((pid, split, near, row[1]))
    print('%-6s %-22s %-12s %-5s %5s  %-22s %-20s %s' % ('split', 'book', 'kind', 'label', 'pairs',
                                                        'near: median (min-max)', 'common: median (max)',
                                                        'best: median'))
    for k in sorted(groups, key=lambda k: (k[0] != 'train', k[1], k[2], k[3] != 't')):
        v = groups[k]
        near = [x[0] for x in v]
        common = [x[1] for x in v]
        print('%-6s %-22s %-12s %-5s %5d  %.2f (%.2f-%.2f)       %4d (%d)%12s %.2f' % (
            k + (len(v), statistics.median(near), min(near), max(near), statistics.median(common),
                 max(common), '', statistics.median(x[2] for x in v))))
    print('\ntranslation pairs whose zh-TW side looks derived all the same (near >= 0.5): %d'
          % len(derived))
    for pid, split, near, common in derived:
        print('  pair %d (%s): near %.2f, common %d' % (pid, split, near, common))


if __name__ == '__main__':
    main()
