#!/usr/bin/env python3
"""An exploration for textfp_match's model 3 (issue 34), not a fit that is
shipped: model 2's procedure (tools/fit_match2.py: the same 17 inputs, the
active-set logistic regression with the similarities' weights >= 0, the
threshold rule: precision 0.997 on every set's train pairs, at least 1.5)
fitted on the train pairs of three sets, with or without one order-free
input from the share d of the shorter text in lines the other text does not
have (test/bench/match_lines_shared.sh), and reported on each set's test
pairs by kind beside model 2 as shipped.  Set 3's untouched slice is not
read.

    tools/explore_match3.py INPUT SET1 F1 D1 SET2 F2 D2 SET3 F3 D3 [KIND]

INPUT: none (model 2's inputs refitted), lin (1 - d), hinge (max(0, 1 -
10 d): only when at least 90% of the shorter text's lines are in the other),
pow (1 - d)^10.  SETn: tools/make_match_set.py, tools/make_match_set2.py,
tools/make_match_set3.py; Fn: test/bench/match_features.sh; Dn:
test/bench/match_lines_shared.sh.  KIND: also list the copies of set 3 (train
and test) of that kind (a prefix; '' for all) that the fit or model 2 as
shipped misses, with their inputs, and d of set 3's same-template pairs.
Needs numpy.
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit_match2 as fm  # noqa: E402
import fit_match3  # noqa: E402  (load3)

INPUTS = {'none': None, 'lin': lambda d: 1 - d, 'hinge': lambda d: max(0.0, 1 - 10 * d),
          'pow': lambda d: (1 - d) ** 10}


def load3(set_path, feat_path):
    """set 3's rows as fit_match2.load() gives sets 1 and 2, with model 2's
    inputs"""
    rows = fit_match3.load3(set_path, feat_path)
    for r in rows:
        r['x'] = fm.inputs2(r['mid'], r['edge'], r['edge_long'])
    return rows


def brief(title, rows, z, thr):
    """the totals, and the kinds with a recall under 0.99 or a false copy"""
    fit_match3.report(title, rows, z, thr, only_below=0.99)


def main():
    a = sys.argv[1:]
    if len(a) not in (10, 11) or a[0] not in INPUTS:
        sys.exit(__doc__)
    f = INPUTS[a[0]]
    sets = [fm.load(a[1], a[2], 'set1'), fm.load(a[4], a[5], 'set2'), load3(a[7], a[8])]
    for rows, dpath in zip(sets, (a[3], a[6], a[9])):
        d = {}
        with open(dpath) as fh:
            for line in fh:
                k, v = line.split('\t')
                d[int(k)] = float(v)
        for r in rows:
            r['d'] = d[r['id']]
            r['x2'] = list(r['x'])
            if f:
                # a similarity: after model 2's 15, before the edge inputs
                r['x'] = r['x'][:fm.MONO] + [f(r['d'])] + r['x'][fm.MONO:]
    if f:
        fm.MONO += 1
    part = lambda rows, sp: [r for r in rows if r['split'] == sp]
    tr = [r for rows in sets for r in part(rows, 'train')]
    fm.weigh(tr)
    beta = fm.fit(tr)
    thr = max(1.5, fm.threshold_all(beta, [part(rows, 'train') for rows in sets], 0.997))
    print('input %s: bias %.3f, weights %s, threshold z %.3f'
          % (a[0], beta[0], ' '.join('%.3f' % w for w in beta[1:]), thr))
    for n, rows in enumerate(sets, start=1):
        t = part(rows, 'test')
        brief('  fitted, set %d test' % n, t, fm.zs(beta, t), thr)
    b2, t2 = fm.shipped(2)
    for n, rows in enumerate(sets, start=1):
        t = part(rows, 'test')
        X = np.array([[1.0] + r['x2'] for r in t])
        brief('  model 2 as shipped, set %d test' % n, t, X @ b2, t2)
    if len(a) == 11:
        # set 3's train and test pairs: the copies of that kind (prefix) that
        # model 2 as shipped or the fit misses, and d of its same-template pairs
        rows = [r for r in part(sets[2], 'train') + part(sets[2], 'test')
                if r['y'] and r['kind'].startswith(a[10])]
        z = fm.zs(beta, rows)
        z2 = np.array([[1.0] + r['x2'] for r in rows]) @ b2
        for i, r in enumerate(rows):
            if z[i] < thr or z2[i] < t2:
                print('  missed by %-8s %5d %-36s rate %s z %6.2f (model 2 %6.2f) d %.2f edge %.2f middles %s'
                      % ('both' if z[i] < thr and z2[i] < t2 else 'the fit' if z[i] < thr else 'model 2',
                         r['id'], r['kind'], r['rate'], z[i], z2[i], r['d'], r['edge'],
                         ' '.join('%s=%.2f' % nv for nv in zip(fm.NAMES, r['mid']))))
        d = sorted(r['d'] for r in part(sets[2], 'train') + part(sets[2], 'test')
                   if r['kind'] == 'same-template')
        print('  set 3 same-template pairs (train and test): %d, d least %.2f, 5th percentile %.2f'
              % (len(d), d[0], d[len(d) // 20]))

if __name__ == '__main__':
    main()
