#!/usr/bin/env python3
"""
gen_tw_fold.py -- generate src/core/generated/tfp_twfold_data.c, the table of the Taiwan
wording fold (src/core/tfp_twfold.c) that textfp_match() applies to both texts.

Source: the dictionaries of OpenCC's tw2sp conversion (Taiwan traditional
to mainland simplified, with phrases) as Debian ships them in the packages
opencc (the tools opencc and opencc_dict) and libopencc-data (the .ocd2
dictionaries in /usr/share/opencc; Apache-2.0):

  TWPhrasesRev           Taiwan phrases and their mainland wording
                         (軟體 -> 軟件, 預設 -> 缺省 默認, 記憶體 -> 內存)
  TWVariantsRevPhrases   Taiwan character variants in phrases
  TWVariantsRev          Taiwan character variants (裡 -> 裏, 著 -> 着)
  TSPhrases              traditional -> simplified phrases (乾隆, 瞭解)
  TSCharacters           traditional -> simplified characters
  TWPhrases              mainland wording -> Taiwan phrases (the consistency
                         check below)

Every key of the first five is converted with `opencc -c tw2sp.json` (the
whole conversion chain, as opencc converts text) and both key and result
are folded with textfp's own character fold (tfp_cp_fold with case, width
and Han folds: Unihan traditional -> simplified, from tools/gen_unicode.py),
because the fold runs on text already folded that way.  An entry is kept
when the two differ (a Han character the Unihan fold leaves, e.g. 週 -> 周,
佔 -> 占, or a phrase: 檔案 -> 文件, 網路 -> 网络), and an unchanged entry
only when a changing key occurs inside it (it stops that key, as 著名 stops
著 in OpenCC).  The fold is applied to BOTH texts of a pair, so it must also
leave mainland wording alone or map it the same way:
  * keys that are mainland words with another meaning are dropped (文件 is a
    Taiwan "document" -> 文档, but a mainland "file"; 程序 a Taiwan
    "process", a mainland "program"): found by converting every mainland
    word of TWPhrases and its first Taiwan rendering, which must fold alike;
  * a Taiwan phrase with several mainland renderings (預設 -> 缺省 默認,
    介面 -> 接口 界面) maps to opencc's choice, and the other renderings are
    folded to it too (默认 -> 缺省), so either mainland wording meets it;
    a rendering that is the Taiwan phrase itself (模擬 -> 仿真 模擬) keeps
    the phrase unchanged;
  * keys or renderings with non-Han characters (SQL隱碼攻擊) are left out;
  * the result is idempotent: the fold of every value is itself.

Usage:
    tools/gen_tw_fold.py            write src/core/generated/tfp_twfold_data.c
    tools/gen_tw_fold.py --check    exit 1 if the committed file differs
    tools/gen_tw_fold.py --stats    counts and the dropped keys (stderr)

Needs python3, opencc, libopencc-data and unicode-data (apt-get install
opencc unicode-data).  Deterministic: the same package versions give the
same file.  The table is part of textfp_match()'s model: regenerating it
from another opencc version changes the features, so a released model
would need a new version.
"""

import argparse
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OUTPUT = os.path.join(ROOT, 'src', 'core', 'generated', 'tfp_twfold_data.c')
OPENCC_DIR = '/usr/share/opencc'
sys.path.insert(0, HERE)
import gen_unicode  # noqa: E402

# group order = priority for equal keys (OpenCC's tw2sp groups, then t2s)
PHRASE_DICTS = ['TWPhrasesRev', 'TWVariantsRevPhrases', 'TSPhrases']
CHAR_DICTS = ['TWVariantsRev', 'TSCharacters']
MAX_GROWTH = 3          # value code points per key code point (bound)
INDEX_BITS = 11         # the index of first code points: 2048 slots
INDEX_SIZE = 1 << INDEX_BITS


def die(msg):
    sys.stderr.write('gen_tw_fold.py: error: %s\n' % msg)
    sys.exit(2)


def read_dict(name):
    """{key: [values]} of an OpenCC .ocd2 dictionary (via opencc_dict)"""
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, name + '.txt')
        subprocess.run(['opencc_dict', '-i', os.path.join(OPENCC_DIR, name + '.ocd2'),
                        '-o', out, '-f', 'ocd2', '-t', 'text'], check=True,
                       stdout=subprocess.DEVNULL)
        res = {}
        with open(out, encoding='utf-8') as f:
            for line in f:
                k, v = line.rstrip('\n').split('\t')
                res[k] = v.split(' ')
        return res


def tw2sp(texts):
    """opencc -c tw2sp.json of each text (one a line)"""
    inp = ''.join(t + '\n' for t in texts)
    out = subprocess.run(['opencc', '-c', 'tw2sp.json'], input=inp, capture_output=True,
                         text=True, check=True).stdout.split('\n')
    if len(out) != len(texts) + 1 or out[-1] != '':
        die('opencc returned %d lines for %d' % (len(out) - 1, len(texts)))
    return out[:-1]


def opencc_version():
    out = subprocess.run(['dpkg-query', '-W', '-f', '${Version}', 'libopencc-data'],
                         capture_output=True, text=True)
    return out.stdout.strip() or 'unknown'


class Fold:
    """textfp's character fold (tfp_cp_fold, flags case|width|han) and class"""

    def __init__(self):
        K = gen_unicode.read_header()
        u = gen_unicode.load(gen_unicode.UCD(gen_unicode.DEFAULT_UCD))
        self.version = u['version']
        folds, _ = gen_unicode.build_folds(u, K)
        flags = K['TFP_FOLD_CASE'] | K['TFP_FOLD_WIDTH'] | K['TFP_FOLD_HAN']
        self.map = {cp: r[flags] for cp, r in folds.items()}
        cls = gen_unicode.build_classes(u, K)
        self.han = K['TFP_CC_HAN']
        self.cls = cls

    def text(self, s):
        """the folded code points of s, or None if one is not a Han letter"""
        out = []
        for ch in s:
            r = self.map.get(ord(ch), [ord(ch)])
            if len(r) != 1 or self.cls[r[0]] != self.han or r[0] < 0x2E80:
                return None
            out.append(r[0])
        return tuple(out)


def apply(table, run):
    """the fold of a run of folded code points: greedy longest match, left
    to right (the algorithm of tfp_twfold.c)"""
    maxlen = max(len(k) for k in table)
    out = []
    i = 0
    while i < len(run):
        for n in range(min(maxlen, len(run) - i), 0, -1):
            v = table.get(tuple(run[i:i + n]))
            if v is not None:
                out.extend(v)
                i += n
                break
        else:
            out.append(run[i])
            i += 1
    return tuple(out)


def build(stats):
    fold = Fold()
    dicts = {n: read_dict(n) for n in PHRASE_DICTS + CHAR_DICTS + ['TWPhrases']}
    rev = dicts['TWPhrasesRev']
    keys = []                        # (priority, key text)
    seen = set()
    for prio, name in enumerate(PHRASE_DICTS + CHAR_DICTS):
        for k in sorted(dicts[name]):
            if k not in seen:
                seen.add(k)
                keys.append((prio, k))
    conv = dict(zip([k for _, k in keys], tw2sp([k for _, k in keys])))
    log = []
    table = {}                       # folded key -> folded value
    prio_of = {}
    nonhan = 0
    for prio, k in keys:
        fk, fv = fold.text(k), fold.text(conv[k])
        if fk is None or fv is None:
            nonhan += 1
            continue
        if k in rev and k in rev[k]:
            fv = fk                  # a Taiwan phrase that is mainland wording too
        if len(fv) > MAX_GROWTH * len(fk):
            die('%s -> %s grows more than %d times' % (k, conv[k], MAX_GROWTH))
        if fk in table and table[fk] != fv:
            if prio_of[fk] <= prio:
                log.append('conflict %s: keeps %s, not %s' % (
                    ''.join(map(chr, fk)), ''.join(map(chr, table[fk])), ''.join(map(chr, fv))))
                continue
        table[fk] = fv
        prio_of[fk] = prio
    # the other mainland renderings of a Taiwan phrase fold to opencc's choice
    unify = {}
    for k in sorted(rev):
        fk = fold.text(k)
        if fk is None or fk not in table or len(rev[k]) < 2 or k in rev[k]:
            continue
        for c in rev[k][1:]:
            fc = fold.text(c)
            if fc is None or fc == table[fk]:
                continue
            if fc in table and table[fc] != fc:
                log.append('unify %s -> %s: %s is a key already' % (c, conv[k], c))
                continue
            if fc in unify and unify[fc] != table[fk]:
                log.append('unify %s: both %s and %s' % (
                    c, ''.join(map(chr, unify[fc])), ''.join(map(chr, table[fk]))))
                continue
            unify[fc] = table[fk]
    for fc, fv in unify.items():
        table[fc] = fv
    # mainland words that a key would change into another word: drop the key
    fwd = dicts['TWPhrases']
    dropped = []
    while True:
        bad = []
        for m in sorted(fwd):
            fm, ft = fold.text(m), fold.text(fwd[m][0])
            if fm is None or ft is None:
                continue
            if apply(table, fm) != apply(table, ft) and fm in table and table[fm] != fm:
                bad.append(fm)
        if not bad:
            break
        for fm in bad:
            dropped.append('%s -> %s' % (''.join(map(chr, fm)), ''.join(map(chr, table[fm]))))
            del table[fm]
    # idempotent: every value folds to itself.  A value that a key inside it
    # would change (哈萨克 -> 哈萨克斯坦 changes 哈萨克斯坦 again) becomes an
    # unchanged entry of its own, which stops that key; a value that is the
    # key of another entry takes that entry's value.
    for _ in range(5):
        changed = False
        for fk, fv in sorted(table.items()):
            if apply(table, fv) == fv:
                continue
            changed = True
            if fv not in table:
                table[fv] = fv
            else:
                table[fk] = apply(table, fv)
        if not changed:
            break
    else:
        die('the fold of the values does not settle')
    # keep an unchanged entry only as a stop for a changing key inside it
    changing = [k for k, v in table.items() if k != v]
    final = {}
    for k, v in table.items():
        if k != v or any(len(c) < len(k) and any(k[i:i + len(c)] == c
                                                   for i in range(len(k) - len(c) + 1))
                         for c in changing):
            final[k] = v
    # report the consistency of mainland and Taiwan wording after the fold
    agree = total = 0
    differ = []
    for m in sorted(fwd):
        fm, ft = fold.text(m), fold.text(fwd[m][0])
        if fm is None or ft is None:
            continue
        total += 1
        if apply(final, fm) == apply(final, ft):
            agree += 1
        else:
            differ.append('%s / %s -> %s / %s' % (m, fwd[m][0], ''.join(map(chr, apply(final, fm))),
                                                 ''.join(map(chr, apply(final, ft)))))
    info = dict(entries=len(final), changing=sum(k != v for k, v in final.items()),
                nonhan=nonhan, unify=len(unify), dropped=dropped, log=log,
                agree=agree, total=total, opencc=opencc_version(), unicode=fold.version)
    if stats:
        w = sys.stderr.write
        w('entries %(entries)d (%(changing)d change text, the rest stop a key inside them); '
          'non-Han keys left out %(nonhan)d; mainland renderings unified %(unify)d\n' % info)
        w('mainland words of TWPhrases folding like their Taiwan wording: %d of %d\n'
          % (agree, total))
        for d in differ:
            w('folds unlike its Taiwan wording: %s\n' % d)
        for fc in sorted(unify):
            w('unified: %s -> %s\n' % (''.join(map(chr, fc)), ''.join(map(chr, unify[fc]))))
        for d in dropped:
            w('dropped (a mainland word too): %s\n' % d)
        for line in log:
            w('%s\n' % line)
    return final, info


def c_file(table, info):
    entries = sorted(table.items())
    pool = []
    recs = []
    for k, v in entries:
        off = len(pool)
        pool.extend(k)
        pool.extend(v)
        recs.append((off, len(k), len(v)))
    maxkey = max(len(k) for k, _ in entries)
    for k, v in entries:
        if len(v) > MAX_GROWTH * len(k) or len(k) > 255:
            die('%s -> %s: longer than the limits' % (''.join(map(chr, k)), ''.join(map(chr, v))))
    # the index: first code point -> its entries (consecutive, keys sorted),
    # open addressing with linear probing, INDEX_SIZE slots
    index = [None] * INDEX_SIZE
    firsts = {}
    for i, (k, _) in enumerate(entries):
        firsts.setdefault(k[0], [i, 0])[1] += 1
    if len(firsts) * 2 > INDEX_SIZE:
        die('%d first code points: raise INDEX_SIZE' % len(firsts))
    maxprobe = 0
    for c in sorted(firsts):
        h = ((c * 0x9E3779B1) & 0xFFFFFFFF) >> (32 - INDEX_BITS)
        n = 1
        while index[h] is not None:
            h = (h + 1) % INDEX_SIZE
            n += 1
        maxprobe = max(maxprobe, n)
        index[h] = (c, firsts[c][0], firsts[c][1])
    o = []
    w = o.append
    w('/*\n * tfp_twfold_data.c -- the table of the Taiwan wording fold (tfp_twfold.c)\n *\n'
      ' * GENERATED by tools/gen_tw_fold.py from OpenCC\'s tw2sp dictionaries\n'
      ' * (Debian libopencc-data %s, Apache-2.0) and the Unicode %s character\n'
      ' * fold.  DO NOT EDIT: change the generator and regenerate.\n *\n'
      ' * %d entries (%d change the text; the others stop a key inside them),\n'
      ' * sorted by key; keys and values are code points after tfp_cp_fold().\n */\n'
      % (info['opencc'], info['unicode'], info['entries'], info['changing']))
    w('#include "tfp_twfold.h"\n\n')
    w('#if TFP_TWFOLD_MAX_KEY < %d || TFP_TWFOLD_MAX_GROWTH < %d || TFP_TWFOLD_INDEX_BITS != %d\n'
      '#error "tfp_twfold.h changed: rerun tools/gen_tw_fold.py"\n#endif\n\n'
      % (maxkey, MAX_GROWTH, INDEX_BITS))
    w('const int tfp_twfold_nentries = %d;\n\n' % len(entries))
    w('/* key code points, then value code points, of each entry */\n')
    w('const uint32_t tfp_twfold_pool[%d] = {\n' % len(pool))
    for i in range(0, len(pool), 8):
        w('\t' + ' '.join('0x%04X,' % c for c in pool[i:i + 8]) + '\n')
    w('};\n\n/* offset in the pool, key length, value length */\n')
    w('const tfp_twfold_entry tfp_twfold_entries[%d] = {\n' % len(entries))
    for (off, kl, vl), (k, v) in zip(recs, entries):
        w('\t{%d, %d, %d},\t\t/* %s -> %s */\n' % (off, kl, vl, ''.join(map(chr, k)),
                                                 ''.join(map(chr, v))))
    w('};\n\n/* slot (c * 0x9E3779B1 mod 2^32) >> %d of the first code point c of\n'
      ' * the keys, or the next free one: c, its first entry, its number of\n'
      ' * entries (code point 0: an empty slot; at most %d probes) */\n'
      % (32 - INDEX_BITS, maxprobe))
    w('const tfp_twfold_first tfp_twfold_index[%d] = {\n' % INDEX_SIZE)
    for i in range(0, INDEX_SIZE, 4):
        w('\t' + ' '.join('{0x%04X, %d, %d},' % (x if x else (0, 0, 0)) for x in index[i:i + 4])
          + '\n')
    w('};\n')
    return ''.join(o)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--check', action='store_true')
    ap.add_argument('--stats', action='store_true')
    ap.add_argument('-o', '--output', default=OUTPUT)
    a = ap.parse_args()
    table, info = build(a.stats)
    text = c_file(table, info)
    if a.check:
        with open(a.output, encoding='utf-8') as f:
            if f.read() != text:
                sys.stderr.write('gen_tw_fold.py: %s is out of date\n' % a.output)
                sys.exit(1)
        sys.stderr.write('gen_tw_fold.py: %s is up to date\n' % a.output)
        return
    with open(a.output, 'w', encoding='utf-8', newline='\n') as f:
        f.write(text)


if __name__ == '__main__':
    main()
