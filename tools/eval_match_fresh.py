#!/usr/bin/env python3
"""textfp_match()'s shipped models on a fresh labelled sample, read once:
the verdicts and scores that SQL computed (test/bench/match_features.sh)
and the z of models 3 (the default) and 2 recomputed from the features with
the shipped coefficients (tools/fit_match3.py's and tools/fit_match2.py's
formulas; every verdict of the default is checked against SQL's),
reported as tools/fit_match2.py reports the held-out parts: precision,
recall, false copies, recall at precision 0.99 with the score as a ranking,
by kind, transformation, template-share decile, homophone and edit rate,
and the same-template pairs.  Nothing is fitted or chosen here.

    tools/eval_match_fresh.py NAME SET.tsv FEATURES.tsv [NAME SET.tsv FEATURES.tsv ...]

NAME: set1 (tools/make_match_set.py --fresh) or set2
(tools/make_match_set2.py --fresh-after 26002): set2 gets the strata.
The figures are also given by the split column (set 2: how fresh the
pair's articles are; set 1: 'fresh').
Needs numpy (python3-numpy).
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fit_match2 as fm  # noqa: E402
import fit_match3  # noqa: E402


def misses(title, rows, z, thr, n=12):
    """the false copies and the lowest-scoring missed copies"""
    fc = [(z[i], r) for i, r in enumerate(rows) if not r['y'] and z[i] >= thr]
    mc = sorted((z[i], r) for i, r in enumerate(rows) if r['y'] and z[i] < thr)
    print('  %s: false copies %d, missed copies %d' % (title, len(fc), len(mc)))
    for what, lst in (('false copy', sorted(fc, key=lambda t: -t[0])), ('missed', mc[:n])):
        for zz, r in lst:
            print('    %-10s pair %d  %s %-34s z %7.3f  tshare %s hrate %.2f erate %.2f'
                  % (what, r['id'], r['lang'], r['kind'], zz, r['tshare'], r['hrate'], r['erate']))


def main():
    args = sys.argv[1:]
    if not args or len(args) % 3:
        sys.exit('usage: %s NAME SET.tsv FEATURES.tsv [...]' % sys.argv[0])
    beta3, thr3 = fm.shipped(3)
    beta2, thr2 = fm.shipped(2)
    _, thr1 = fm.shipped(1)
    for k in range(0, len(args), 3):
        name, set_path, feat_path = args[k:k + 3]
        rows = fm.load(set_path, feat_path, name)
        fit_match3.need_unshared(rows, feat_path)
        z2 = fm.zs(beta2, rows)
        z3 = np.array([[1.0] + fit_match3.inputs3(r) for r in rows]) @ beta3
        # the feature path against SQL's textfp_match(a, b) on every pair
        differ = sum((z3[i] >= thr3) != r['vd'] for i, r in enumerate(rows))
        near = [i for i, r in enumerate(rows) if abs(r['zd']) < 30]
        dz = max(abs(z3[i] - rows[i]['zd']) for i in near)
        print('%s (%s): %d pairs; model 3 verdicts of the features and shipped coefficients that differ '
              'from SQL textfp_match(a, b): %d; largest |z - z(SQL)| %.2g (|z| < 30, %d pairs)'
              % (name, set_path, len(rows), differ, dz, len(near)))
        if differ:
            sys.exit('the feature path does not give the shipped verdicts')
        z1 = np.array([r['z1'] for r in rows])
        d1 = sum((z1[i] >= thr1) != r['v1'] for i, r in enumerate(rows))
        print('model 1: verdicts of SQL z >= %.6f that differ from its SQL verdict: %d' % (thr1, d1))
        for title, z, thr in (('model 3 (default)', z3, thr3), ('model 2', z2, thr2)):
            fm.report('%s, %s fresh' % (title, name), rows, z, thr)
            for split in sorted({r['split'] for r in rows}):
                ix = [i for i, r in enumerate(rows) if r['split'] == split]
                y = np.array([rows[i]['y'] for i in ix])
                p, rc, tp, fp = fm.pr(z[ix] >= thr, y)
                print('  freshness %-8s pairs %4d, copies %4d: precision %.4f, recall %.4f, false copies %d, '
                      'ranking recall at precision 0.99 %.3f' % (split, len(ix), int(y.sum()), p, rc, fp,
                                                                 fm.recall_at(z[ix], y, 0.99)))
            misses(title, rows, z, thr)
        fm.report('model 1, %s fresh' % name, rows, z1, thr1)
        print()


if __name__ == '__main__':
    main()
