#!/usr/bin/env python3
"""Fit textfp_match()'s model 3 and report it, by kind, on three labelled
sets made apart: tools/make_match_set.py (set 1), tools/make_match_set2.py
(set 2) and tools/make_match_set3.py (set 3: moved, cut and revised copies
and their hard negatives).

Inputs: each set's TSV and its features as test/bench/match_features.sh
writes them (pair_id, the 27 values of textfp_match_features(a, b), model
1's verdict and z, the default model's verdict and z).

The model: tfp_match_inputs3() of src/core/tfp_match.c (the same formulas
below: model 2's 17 inputs with two order-free similarities after its 15
similarities, max(0, 1 - 10 unshared) and zh * pc * ord1), fitted by model
2's procedure (tools/fit_match2.py: the active-set logistic regression with
every similarity's weight >= 0, each set weighing the same) on the train
pairs of the three sets; the threshold of z the lowest at which each set's
train pairs have precision >= --precision (0.997), at least
--min-threshold (1.5, model 2's floor).  The test pairs are reported, not
fitted on; the untouched slices of sets 2 and 3 only with --untouched
(once, with the final model).

    tools/fit_match3.py SET1 F1 SET2 F2 SET3 F3 [--write] [--untouched] [--check]

--write: src/core/generated/tfp_match_model.c with model 3 added (models 1
and 2 kept as they are).  --check: the z of the default model that SQL
computed (F*.tsv, after --write, a rebuild and match_features.sh again)
against this script's formulas.  Needs numpy (python3-numpy).
"""
import argparse
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fit_match  # noqa: E402  (write_model)
import fit_match2 as fm  # noqa: E402  (load, fit, thresholds, reports)

NX3 = 19


def inputs3(r):
    """tfp_match_inputs3(), version 3 (the same formulas, the same order)"""
    x = fm.inputs2(r['mid'], r['edge'], r['edge_long'])
    f = dict(zip(fm.NAMES, r['mid']))
    return x[:15] + [max(0.0, 1.0 - 10.0 * r['unshared']), f['zh'] * f['pc'] * f['ord1']] + x[15:]


def load3(set_path, feat_path):
    """set 3's rows (its columns after b are rate and transforms)"""
    meta = {}
    with open(set_path, encoding='utf-8') as fh:
        for line in fh:
            p = line.rstrip('\n').split('\t')
            meta[int(p[0])] = {'id': int(p[0]), 'split': p[1], 'kind': p[2], 'lang': p[3],
                               'y': int(p[4] == 't'), 'book': p[5], 'set': 'set3', 'tshare': None,
                               'hrate': 0.0, 'erate': 0.0, 'rate': p[8]}
    rows = []
    with open(feat_path) as fh:
        for line in fh:
            p = line.rstrip('\n').split('\t')
            v = [float(x) for x in fm.unescape(p[1]).split('\t')]
            r = meta[int(p[0])]
            fm.set_features(r, v)
            r['vd'], r['zd'] = p[4] == 't', float(p[5])
            rows.append(r)
    return rows


def need_unshared(rows, path):
    """exit unless every row has model 3's 27th feature"""
    if any(r['unshared'] is None for r in rows):
        sys.exit('%s: 26 features a pair, not 27: made before model 3 '
                 '(run test/bench/match_features.sh again)' % path)


def load_all(a):
    sets = [fm.load(a.set1, a.f1, 'set1'), fm.load(a.set2, a.f2, 'set2'), load3(a.set3, a.f3)]
    for rows, path in zip(sets, (a.f1, a.f2, a.f3)):
        need_unshared(rows, path)
        for r in rows:
            r['x2'] = r['x'] if 'x' in r else fm.inputs2(r['mid'], r['edge'], r['edge_long'])
            r['x'] = inputs3(r)
    return sets


def group(r):
    k = r['kind']
    if r['set'] == 'set3':
        k = k.split('+')[0] + ('+lines' if '+lines' in k else '')
    return r['lang'] + ' ' + k


def report(title, rows, z, thr, only_below=None):
    """the totals, every kind (copies: recall; non-copies: false copies;
    marked '<' under recall 0.95 or with a false copy), the same-template
    pairs; with only_below, only the kinds with a recall under it or a false
    copy"""
    y = np.array([r['y'] for r in rows])
    sel = z >= thr
    p, rc, _, fp = fm.pr(sel, y)
    print('%s: %d pairs, %d copies, precision %.4f, recall %.4f, false copies %d, '
          'ranking recall at precision 0.999 %.3f'
          % (title, len(rows), int(y.sum()), p, rc, fp, fm.recall_at(z, y, 0.999)))
    g = {}
    for i, r in enumerate(rows):
        g.setdefault(group(r), []).append(i)
    for k in sorted(g):
        ix = g[k]
        yy, ss = y[ix], sel[ix]
        npos, nneg = int(yy.sum()), len(ix) - int(yy.sum())
        low = lambda floor: (npos and ss[yy == 1].mean() < floor) or (nneg and ss[yy == 0].sum())
        if only_below is not None and not low(only_below):
            continue
        flag = ' <' if low(0.95) else ''
        print('    %-36s recall %-13s false copies %d of %d%s'
              % (k, '%.3f (%d)' % (ss[yy == 1].mean(), npos) if npos else '-',
                 int(ss[yy == 0].sum()), nneg, flag))
    ix = [i for i, r in enumerate(rows) if r['kind'] == 'same-template']
    if ix:
        print('    same-template non-copies called copies: %d of %d verdicts "copy" (%.2f%%)'
              % (int(sel[ix].sum()), int(sel.sum()), 100.0 * sel[ix].sum() / max(1, sel.sum())))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    for n in ('set1', 'f1', 'set2', 'f2', 'set3', 'f3'):
        ap.add_argument(n)
    ap.add_argument('--precision', type=float, default=0.997)
    ap.add_argument('--min-threshold', type=float, default=1.5)
    ap.add_argument('--write', action='store_true')
    ap.add_argument('--untouched', action='store_true')
    ap.add_argument('--check', action='store_true')
    a = ap.parse_args()
    sets = load_all(a)
    part = lambda rows, sp: [r for r in rows if r['split'] == sp]
    if a.check:
        beta, thr = fm.shipped(3)
        rows = [r for s in sets for r in s if abs(r['zd']) < 30]
        z = np.array([[1.0] + r['x'] for r in rows]) @ beta
        d = max(abs(z[i] - r['zd']) for i, r in enumerate(rows))
        v = sum((z[i] >= thr) != r['vd'] for i, r in enumerate(rows))
        print('check: %d pairs, largest |z(SQL) - z(this script)| %.2g, verdicts that differ %d'
              % (len(rows), d, v))
        return
    fm.MONO = 17                # inputs 0..16 are similarities: weights >= 0
    tr = [r for rows in sets for r in part(rows, 'train')]
    fm.weigh(tr)
    beta = fm.fit(tr)
    thr = max(a.min_threshold,
              fm.threshold_all(beta, [part(rows, 'train') for rows in sets], a.precision))
    print('model 3: bias %.4f, weights %s, threshold z %.4f'
          % (beta[0], ' '.join('%.3f' % w for w in beta[1:]), thr))
    b2, t2 = fm.shipped(2)
    slices = ['test'] + (['untouched'] if a.untouched else [])
    for sp in slices:
        for n, rows in enumerate(sets, start=1):
            t = part(rows, sp)
            if not t:
                continue
            report('model 3, set %d %s' % (n, sp), t, fm.zs(beta, t), thr)
            report('model 2 as shipped, set %d %s' % (n, sp), t,
                   np.array([[1.0] + r['x2'] for r in t]) @ b2, t2)
    if a.write:
        z = fm.zs(beta, tr)
        y = np.array([r['y'] for r in tr])
        p, rc, _, _ = fm.pr(z >= thr, y)
        fit_match.write_model(list(beta), float(thr), p, rc, 3)
        print('wrote', fit_match.OUT)


if __name__ == '__main__':
    main()
