#!/usr/bin/env python3
"""Fit textfp_match()'s model on the TRAIN split of the labelled pairs and
write src/core/generated/tfp_match_model.c.

Input: the features of every pair, as test/bench/match_accuracy.sh writes
them with MATCH_FEATURES_OUT=FILE (columns: pair_id, split, kind, lang,
copy, j5, c5, j2, c2, sim, dna, pj, pc, ord, zh, ord1, run, book; see
src/core/tfp_match.h).  Only rows
of split 'train' are used, and not the positives of kind 'translation'
(sections translated separately from one English text: not copies of each
other, not unrelated either; tools/make_match_set.py): the model is a logistic regression (Newton's
method, a small L2 penalty) on the inputs of src/core/tfp_match.c's
tfp_match_inputs() (the same formulas below), and the verdict's threshold is
the lowest z at which precision on the train pairs is at least a target:
--precision, or by default the least of TARGETS at which cross-validation
within the train split by whole books (each fold holds out one book in all
its languages and versions: the part of the name before its first '-',
as handbook-zh and handbook-en) gives precision 0.99 or more on every
held-out book and 0.995 on all of them together.  --cv prints each fold's
figures at the chosen target.  The test split is never read.

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
OUT = os.path.join(HERE, '..', 'src', 'core', 'generated', 'tfp_match_model.c')
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
                         'y': 1 if p[4] == 't' else 0, 'book': p[17],
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


TRANSLATIONS_SCORED = False     # --translations-as-copies: count them as copies


def scored(rows):
    """the rows that count as copies or non-copies (not the translations)"""
    if TRANSLATIONS_SCORED:
        return list(rows)
    return [r for r in rows if not (r['y'] and r['kind'] == 'translation')]


def report(beta, thr, rows, title):
    tr = [r for r in rows if r['y'] and r['kind'] == 'translation' and not TRANSLATIONS_SCORED]
    rows = scored(rows)
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
            rec = ('%.3f (%d)' % (sum(z_of(beta, r['x']) >= thr for r in kp) / len(kp), len(kp))
                   if kp else '-')
            print('  %-11s recall %-10s  false positives %d of %d' %
                  (k, rec, sum(z_of(beta, r['x']) >= thr for r in kn), len(kn)))
    if tr:
        print('  (translations called copies: %d of %d)' % (sum(z_of(beta, r['x']) >= thr for r in tr),
                                                          len(tr)))


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
                ' * tfp_match_inputs() (model 1; tools/fit_match.py), tfp_match_inputs2()\n'
                ' * (model 2; tools/fit_match2.py) or tfp_match_inputs3() (model 3;\n'
                ' * tools/fit_match3.py), the verdict\'s threshold of z, and the\n'
                ' * precision and recall at that threshold on the train pairs they were\n'
                ' * fitted on.  A released model is frozen; a new one is a new version.\n */\n'
                '#include "tfp_match.h"\n\n'
                'const tfp_match_model tfp_match_models[] = {\n')
        for v in sorted(models):
            f.write('\t%s,\n' % models[v])
        f.write('};\nconst int\ttfp_match_nmodels = %d;\n' % len(models))


TARGETS = [0.99, 0.993, 0.995, 0.997, 0.998, 0.999, 1.0]


def cv_folds(train):
    """one fold per book: (name, fit rows, held-out rows)"""
    family = lambda r: r['book'].split('-')[0]
    return [(f, scored([r for r in train if family(r) != f]), [r for r in train if family(r) == f])
            for f in sorted({family(r) for r in train})]


def choose_target(train):
    """the least target of TARGETS whose threshold, fitted without a book,
    keeps precision >= 0.99 on every held-out book and >= 0.995 on all of
    them together (a margin: the test split's books are other books again)"""
    folds = [(fit(tr), tr, te) for _, tr, te in cv_folds(train)]
    for target in TARGETS:
        worst = 1.0
        tp = n = 0
        for b, tr, te in folds:
            t = threshold(b, tr, target)
            sel = [r for r in scored(te) if z_of(b, r['x']) >= t]
            if sel:
                worst = min(worst, sum(r['y'] for r in sel) / len(sel))
            tp += sum(r['y'] for r in sel)
            n += len(sel)
        print('target %.3f: held-out books: least precision %.4f, all %.4f'
              % (target, worst, tp / max(1, n)))
        if worst >= 0.99 and tp >= 0.995 * n:
            return target
    return TARGETS[-1]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('features')
    ap.add_argument('--precision', type=float, default=None)
    ap.add_argument('--cv', action='store_true')
    ap.add_argument('--write', action='store_true')
    ap.add_argument('--version', type=int, default=1)
    ap.add_argument('--translations-as-copies', action='store_true',
                    help='fit and score the translation pairs as copies (an experiment: '
                    'the set labels them t, but they are not copies of each other)')
    a = ap.parse_args()
    global TRANSLATIONS_SCORED
    TRANSLATIONS_SCORED = a.translations_as_copies
    rows = load(a.features)
    train = [r for r in rows if r['split'] == 'train']
    fitted = scored(train)
    target = a.precision if a.precision is not None else choose_target(train)
    beta = fit(fitted)
    thr = threshold(beta, fitted, target)
    print('target precision on train %.3f' % target)
    print('model: bias %.4f, weights %s, threshold z %.4f' %
          (beta[0], ' '.join('%.3f' % w for w in beta[1:]), thr))
    report(beta, thr, train, 'train')
    if a.cv:
        for name, tr, te in cv_folds(train):
            b = fit(tr)
            report(b, threshold(b, tr, target), te, 'cv, book %s held out' % name)
    if a.write:
        sel = [r for r in fitted if z_of(beta, r['x']) >= thr]
        tp = sum(r['y'] for r in sel)
        write_model(beta, thr, tp / len(sel), tp / sum(r['y'] for r in fitted), a.version)
        print('wrote', OUT)


if __name__ == '__main__':
    main()
