#!/usr/bin/env python3
"""Fit textfp_match()'s model on the TRAIN split of the labelled pairs and
write src/tfp_match_model.c.

Input: the features of every pair, as test/bench/match_accuracy.sh writes
them with MATCH_FEATURES_OUT=FILE (columns: pair_id, split, kind, lang,
copy, j5, c5, j2, c2, sim, dna, pj, pc, ord, zh, ord1, run; see src/tfp_match.h).  Only rows
of split 'train' are used: the model is a logistic regression (Newton's
method, a small L2 penalty) on the inputs of src/tfp_match.c's
tfp_match_inputs() (the same formulas below), and the verdict's threshold is
the lowest z at which precision on the train pairs is at least --precision
(default 0.997: the least target at which five-fold cross-validation within
the train split, folds of whole books, gave precision 0.99 or more on the
held-out folds; --cv prints that check).  --cv also reports leave-one-book-out
cross-validation within the train split (never the test split).

    tools/fit_match.py FEATURES.tsv [--cv] [--write]   (--write: the C file)

A model, once released, is frozen: fitting a new one is a new version
(--version N adds it to the file and keeps the earlier ones).
Standard library only.
"""
import argparse
import math
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, '..', 'src', 'tfp_match_model.c')
NX = 16


def inputs(f):
    """tfp_match_inputs(), version 1 (the same formulas, the same order)"""
    j5, c5, j2, c2, sim, dna, pj, pc, ordr, zh, ord1, run = f
    rr, rc = math.sqrt(run), math.sqrt(c5)
    return [j5, rc, j2, math.sqrt(c2), sim, zh * dna, zh * math.sqrt(pc), zh, ordr, ord1,
            zh * ord1, math.sqrt(ord1), rr, math.sqrt(run * c5), ord1 * c2, max(rr, rc, ord1)]


def load(path):
    rows = []
    with open(path) as fh:
        for line in fh:
            p = line.rstrip('\n').split('\t')
            rows.append({'id': int(p[0]), 'split': p[1], 'kind': p[2], 'lang': p[3],
                         'y': 1 if p[4] == 't' else 0, 'book': None,
                         'x': inputs([float(v) for v in p[5:17]])})
    return rows


def solve(a, b):
    """a x = b, Gaussian elimination with partial pivoting"""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        p = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[p] = m[p], m[c]
        for r in range(n):
            if r != c and m[r][c] != 0:
                f = m[r][c] / m[c][c]
                for k in range(c, n + 1):
                    m[r][k] -= f * m[c][k]
    return [m[i][n] / m[i][i] for i in range(n)]


def fit(rows, l2=1e-2, iters=60):
    """logistic regression by Newton's method; returns [bias, w...]"""
    d = NX + 1
    beta = [0.0] * d
    for _ in range(iters):
        g = [0.0] * d
        h = [[0.0] * d for _ in range(d)]
        for r in rows:
            x = [1.0] + r['x']
            z = sum(bi * xi for bi, xi in zip(beta, x))
            p = 1 / (1 + math.exp(-max(min(z, 40), -40)))
            w = p * (1 - p)
            for i in range(d):
                g[i] += (r['y'] - p) * x[i]
                xi = w * x[i]
                for j in range(i, d):
                    h[i][j] += xi * x[j]
        for i in range(d):
            for j in range(i):
                h[i][j] = h[j][i]
            g[i] -= l2 * beta[i]
            h[i][i] += l2
        step = solve(h, g)
        beta = [b + s for b, s in zip(beta, step)]
        if max(abs(s) for s in step) < 1e-9:
            break
    return beta


def z_of(beta, x):
    z = beta[0]
    for w, v in zip(beta[1:], x):
        z += w * v
    return z


def threshold(beta, rows, precision):
    """the lowest z with precision >= the target over the rows scoring above it"""
    sc = sorted(((z_of(beta, r['x']), r['y']) for r in rows), key=lambda t: -t[0])
    tp = fp = 0
    best = None
    i = 0
    while i < len(sc):
        j = i
        while j < len(sc) and sc[j][0] == sc[i][0]:
            tp += sc[j][1]
            fp += 1 - sc[j][1]
            j += 1
        if tp / (tp + fp) >= precision:
            best = sc[i][0]
        i = j
    return best


def report(beta, thr, rows, title):
    kinds = sorted({r['kind'] for r in rows})
    pos = [r for r in rows if r['y']]
    sel = [r for r in rows if z_of(beta, r['x']) >= thr]
    tp = sum(r['y'] for r in sel)
    print('%s: pairs %d, copies %d, precision %.4f, recall %.4f' %
          (title, len(rows), len(pos), tp / max(1, len(sel)), tp / max(1, len(pos))))
    for k in kinds:
        kp = [r for r in pos if r['kind'] == k]
        kn = [r for r in rows if r['kind'] == k and not r['y']]
        if kp or kn:
            print('  %-10s recall %.3f (%d)  false positives %d of %d' %
                  (k, sum(z_of(beta, r['x']) >= thr for r in kp) / max(1, len(kp)), len(kp),
                   sum(z_of(beta, r['x']) >= thr for r in kn), len(kn)))


def write_model(beta, thr, prec, rec, version):
    models = {}
    if os.path.exists(OUT):
        for m in re.finditer(r'\{(\d+), ([-0-9.e+]+), \{([^}]*)\}, ([-0-9.e+]+), ([0-9.e+-]+), ([0-9.e+-]+)\}',
                             open(OUT).read()):
            if int(m.group(1)) != version:
                models[int(m.group(1))] = m.group(0)
    models[version] = '{%d, %r, {%s}, %r, %.4f, %.4f}' % (
        version, beta[0], ', '.join(repr(w) for w in beta[1:]), thr, prec, rec)
    with open(OUT, 'w') as f:
        f.write('/*\n * tfp_match_model.c -- GENERATED by tools/fit_match.py; do not edit.\n *\n'
                ' * textfp_match() models by version: bias, weights of the inputs of\n'
                ' * tfp_match_inputs(), the verdict\'s threshold of z, and the precision and\n'
                ' * recall at that threshold on the train split they were fitted on.  A\n'
                ' * released model is frozen; a new one is a new version.\n */\n'
                '#include "tfp_match.h"\n\n'
                'const tfp_match_model tfp_match_models[] = {\n')
        for v in sorted(models):
            f.write('\t%s,\n' % models[v])
        f.write('};\nconst int\ttfp_match_nmodels = %d;\n' % len(models))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('features')
    ap.add_argument('--precision', type=float, default=0.997)
    ap.add_argument('--cv', action='store_true')
    ap.add_argument('--write', action='store_true')
    ap.add_argument('--version', type=int, default=1)
    a = ap.parse_args()
    rows = load(a.features)
    train = [r for r in rows if r['split'] == 'train']
    beta = fit(train)
    thr = threshold(beta, train, a.precision)
    print('model: bias %.4f, weights %s, threshold z %.4f' %
          (beta[0], ' '.join('%.3f' % w for w in beta[1:]), thr))
    report(beta, thr, train, 'train')
    if a.cv:
        # folds of contiguous pair ids: the generator writes the pairs book
        # by book, so a fold holds out (about) whole books
        n = len(train)
        for k in range(5):
            lo, hi = n * k // 5, n * (k + 1) // 5
            tr = train[:lo] + train[hi:]
            te = train[lo:hi]
            b = fit(tr)
            t = threshold(b, tr, a.precision)
            report(b, t, te, 'cv fold %d' % k)
    if a.write:
        sel = [r for r in train if z_of(beta, r['x']) >= thr]
        tp = sum(r['y'] for r in sel)
        write_model(beta, thr, tp / len(sel), tp / sum(r['y'] for r in train), a.version)
        print('wrote', OUT)


if __name__ == '__main__':
    main()
