#!/usr/bin/env python3
"""
gen_unicode.py -- generate src/core/generated/tfp_unicode_data.c, the Unicode tables behind
src/core/tfp_unicode.c (tfp_cp_class, tfp_cp_fold, tfp_pinyin).

Input: the Unicode Character Database as installed by Debian's unicode-data
package (/usr/share/unicode): UnicodeData.txt, CaseFolding.txt, Scripts.txt,
ScriptExtensions.txt, PropertyValueAliases.txt, DerivedCoreProperties.txt and
the Unihan files (Unihan_Readings.txt, Unihan_Variants.txt; plain, .bz2, or
inside Unihan.zip).  Python 3 standard library only.  The output is
deterministic: the same input files always give a byte-identical file.

Usage:
    tools/gen_unicode.py                 write src/core/generated/tfp_unicode_data.c
    tools/gen_unicode.py --check         regenerate to a temporary file and
                                         diff against the committed one
                                         (exit status 1 if they differ)
    tools/gen_unicode.py --ucd DIR       read the UCD from DIR
    tools/gen_unicode.py --stats         print table sizes and coverage

The numeric constants (TFP_CC_*, TFP_FOLD_*, TFP_FOLD_MAX) are read from
src/core/tfp_unicode.h so the header stays the single source of truth.

Remember: fingerprints depend on these tables.  Regenerating from a different
Unicode version changes TFP_UNICODE_VERSION and is a new algorithm version.
"""

import argparse
import bz2
import difflib
import io
import os
import re
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
HEADER = os.path.join(ROOT, 'src', 'core', 'tfp_unicode.h')
OUTPUT = os.path.join(ROOT, 'src', 'core', 'generated', 'tfp_unicode_data.c')
DEFAULT_UCD = '/usr/share/unicode'

MAX_CP = 0x110000

# Scripts written without spaces between words.  Letters and digits (L*, N*)
# of these scripts are class HAN: the tokenizer cannot rely on separators
# inside a run of them.  Common/Inherited letters whose Script_Extensions lie
# entirely within this set (e.g. U+30FC KATAKANA-HIRAGANA PROLONGED SOUND MARK,
# U+3031..3035 kana repeat marks) are HAN as well.  Names as in Scripts.txt.
NOSPACE_SCRIPTS = frozenset([
    'Han',               # Chinese, Japanese kanji (incl. U+3007, compat ideographs)
    'Hiragana',
    'Katakana',
    'Bopomofo',
    'Yi',
    'Thai',
    'Lao',
    'Khmer',
    'Myanmar',
    'Tai_Le',
    'New_Tai_Lue',
    'Tai_Tham',
    'Tai_Viet',
    'Javanese',
    'Balinese',
    # other ideographic / logographic scripts, written without spaces
    'Tangut',
    'Nushu',
    'Khitan_Small_Script',
])

# Unihan fields giving a Mandarin reading, in order of preference.
PINYIN_FIELDS = ('kMandarin', 'kHanyuPinlu', 'kXHC1983', 'kHanyuPinyin',
                 'kTGHZ2013')

# Diacritics removed from pinyin readings (after canonical decomposition):
# tone marks (macron, acute, caron, grave) and the circumflex of "ê".
# U+0308 (diaeresis, as in "ü") is written "v".
# Code points with no reading in PINYIN_FIELDS borrow the reading of a variant
# that has one (variants of a character are, by Unihan's definition, the same
# morpheme written differently, so they are read the same in nearly all
# cases), in this order of preference; then compatibility ideographs take the
# reading of their canonical decomposition.  Breadth first: a character gets
# the reading of its nearest variant with a reading (ties broken by field
# order, then code point).
PINYIN_VARIANT_FIELDS = ('kTraditionalVariant', 'kSimplifiedVariant',
                         'kZVariant', 'kSemanticVariant',
                         'kSpecializedSemanticVariant')

PINYIN_STRIP = frozenset([0x0300, 0x0301, 0x0302, 0x0304, 0x030C])
PINYIN_UMLAUT = 0x0308

# The two-stage tables use blocks of 1 << shift entries; the generator picks
# the shift (within this range) giving the smallest tables.
SHIFTS = range(4, 10)


def die(msg):
    sys.stderr.write('gen_unicode.py: error: %s\n' % msg)
    sys.exit(2)


# ---------------------------------------------------------------------------
# Input files

class UCD:
    def __init__(self, path):
        self.path = path
        self._zip = None
        zips = sorted(f for f in os.listdir(path)
                      if f.startswith('Unihan') and f.endswith('.zip'))
        if zips:
            self._zip = os.path.join(path, zips[0])

    def open(self, name):
        """Text lines of a UCD file (plain, .bz2, or member of Unihan.zip)."""
        p = os.path.join(self.path, name)
        if os.path.exists(p):
            with open(p, encoding='utf-8') as f:
                return f.read().splitlines()
        if os.path.exists(p + '.bz2'):
            with bz2.open(p + '.bz2', 'rt', encoding='utf-8') as f:
                return f.read().splitlines()
        if self._zip and name.startswith('Unihan'):
            with zipfile.ZipFile(self._zip) as z:
                return z.read(name).decode('utf-8').splitlines()
        die('cannot find %s in %s' % (name, self.path))


def data_lines(lines):
    """Non-comment, non-empty lines with the trailing comment removed."""
    for line in lines:
        line = line.split('#', 1)[0].strip()
        if line:
            yield line


def cp_range(s):
    s = s.strip()
    if '..' in s:
        a, b = s.split('..')
        return int(a, 16), int(b, 16)
    return int(s, 16), int(s, 16)


def file_version(lines, name):
    m = re.match(r'#\s*\S+-(\d+\.\d+\.\d+)\.txt', lines[0])
    if not m:
        die('no version line in %s' % name)
    return m.group(1)


def read_header():
    """The TFP_* constants of src/core/tfp_unicode.h."""
    consts = {}
    with open(HEADER, encoding='utf-8') as f:
        for line in f:
            m = re.match(r'#define\s+(TFP_\w+)\s+(0x[0-9A-Fa-f]+|\d+)', line)
            if m:
                consts[m.group(1)] = int(m.group(2), 0)
    need = ['TFP_CC_SEP', 'TFP_CC_WORD', 'TFP_CC_HAN', 'TFP_CC_MARK',
            'TFP_CC_IGNORE', 'TFP_FOLD_WIDTH', 'TFP_FOLD_CASE',
            'TFP_FOLD_HAN', 'TFP_FOLD_MAX']
    for n in need:
        if n not in consts:
            die('%s not defined in %s' % (n, HEADER))
    if (consts['TFP_FOLD_WIDTH'], consts['TFP_FOLD_CASE'],
            consts['TFP_FOLD_HAN']) != (1, 2, 4):
        die('the fold tables assume TFP_FOLD_WIDTH/CASE/HAN = 1/2/4')
    return consts


# ---------------------------------------------------------------------------
# Unicode properties

def load(ucd):
    versions = {}

    # UnicodeData.txt: general category and decomposition mapping.
    gc = ['Cn'] * MAX_CP
    decomp = {}         # cp -> (is_compat, [cps])
    first = None
    for line in ucd.open('UnicodeData.txt'):
        if not line.strip():
            continue
        f = line.split(';')
        cp = int(f[0], 16)
        if f[1].endswith(', First>'):
            first = cp
            continue
        if f[1].endswith(', Last>'):
            for c in range(first, cp + 1):
                gc[c] = f[2]
            first = None
            continue
        gc[cp] = f[2]
        if f[5]:
            d = f[5].split()
            compat = d[0].startswith('<')
            if compat:
                d = d[1:]
            decomp[cp] = (compat, [int(x, 16) for x in d])

    # Scripts.txt, with long names; ScriptExtensions.txt uses short aliases.
    lines = ucd.open('Scripts.txt')
    versions['Scripts'] = file_version(lines, 'Scripts.txt')
    script = [None] * MAX_CP
    for line in data_lines(lines):
        r, sc = [x.strip() for x in line.split(';')]
        a, b = cp_range(r)
        for c in range(a, b + 1):
            script[c] = sc
    alias = {}
    for line in data_lines(ucd.open('PropertyValueAliases.txt')):
        f = [x.strip() for x in line.split(';')]
        if f[0] == 'sc':
            alias[f[1]] = f[2]
    lines = ucd.open('ScriptExtensions.txt')
    versions['ScriptExtensions'] = file_version(lines, 'ScriptExtensions.txt')
    scx = {}
    for line in data_lines(lines):
        r, scs = [x.strip() for x in line.split(';')]
        a, b = cp_range(r)
        names = frozenset(alias[s] for s in scs.split())
        for c in range(a, b + 1):
            scx[c] = names

    lines = ucd.open('DerivedCoreProperties.txt')
    versions['DerivedCoreProperties'] = file_version(
        lines, 'DerivedCoreProperties.txt')
    ignorable = set()
    for line in data_lines(lines):
        f = [x.strip() for x in line.split(';')]
        if f[1] == 'Default_Ignorable_Code_Point':
            a, b = cp_range(f[0])
            ignorable.update(range(a, b + 1))

    lines = ucd.open('CaseFolding.txt')
    versions['CaseFolding'] = file_version(lines, 'CaseFolding.txt')
    casefold = {}
    for line in data_lines(lines):
        f = [x.strip() for x in line.split(';')]
        if f[1] in ('C', 'F'):
            casefold[int(f[0], 16)] = [int(x, 16) for x in f[2].split()]

    # Unihan
    def unihan(fname, fields):
        out = {k: {} for k in fields}
        lines = ucd.open(fname)
        for line in lines:
            m = re.match(r'#\s*Unicode version:\s*(\S+)', line)
            if m:
                versions[fname] = m.group(1)
            if not line.startswith('U+'):
                continue
            cp, field, value = line.split('\t', 2)
            if field in out:
                out[field][int(cp[2:], 16)] = value.strip()
        return out

    variants = unihan('Unihan_Variants.txt',
                      ['kSimplifiedVariant'] + list(PINYIN_VARIANT_FIELDS))
    simp = {}
    for cp, value in variants['kSimplifiedVariant'].items():
        for v in value.split():
            t = int(v[2:], 16)
            if t != cp:
                simp[cp] = t
                break
    readings = unihan('Unihan_Readings.txt', PINYIN_FIELDS)

    vs = set(versions.values())
    if len(vs) != 1:
        die('inconsistent Unicode versions: %r' % versions)
    version = vs.pop()

    return dict(version=version, gc=gc, decomp=decomp, script=script, scx=scx,
                ignorable=ignorable, casefold=casefold, simp=simp,
                readings=readings, variants=variants)


# ---------------------------------------------------------------------------
# Classes

def build_classes(u, K):
    gc, script, scx = u['gc'], u['script'], u['scx']
    ign = u['ignorable']
    cls = [K['TFP_CC_SEP']] * MAX_CP
    for cp in range(MAX_CP):
        g = gc[cp]
        if cp in ign:
            c = K['TFP_CC_IGNORE']
        elif g[0] == 'M':
            c = K['TFP_CC_MARK']
        elif g[0] in 'LN':
            sc = script[cp]
            if sc in NOSPACE_SCRIPTS or (
                    sc in ('Common', 'Inherited') and cp in scx
                    and scx[cp] <= NOSPACE_SCRIPTS):
                c = K['TFP_CC_HAN']
            else:
                c = K['TFP_CC_WORD']
        else:
            c = K['TFP_CC_SEP']     # Z*, P*, S*, C*, unassigned
        cls[cp] = c
    return cls


# ---------------------------------------------------------------------------
# Folding

def build_folds(u, K):
    decomp, casefold, simp = u['decomp'], u['casefold'], u['simp']
    W, C, H = K['TFP_FOLD_WIDTH'], K['TFP_FOLD_CASE'], K['TFP_FOLD_HAN']

    def full_decomp(cp, compat, memo):
        key = (cp, compat)
        if key in memo:
            return memo[key]
        d = decomp.get(cp)
        if d is None or (d[0] and not compat):
            r = [cp]
        else:
            r = []
            for c in d[1]:
                r += full_decomp(c, compat, memo)
        memo[key] = r
        return r

    memo = {}

    def step(seq, flags):
        compat = bool(flags & W)
        out = []
        for c in seq:
            out += full_decomp(c, compat, memo)
        if flags & C:
            tmp = []
            for c in out:
                for d in casefold.get(c, [c]):
                    tmp += full_decomp(d, compat, memo)
            out = tmp
        if flags & H:
            out = [simp.get(c, c) for c in out]
        return out

    def fold(cp, flags):
        seq = [cp]
        seen = {(cp,)}
        while True:
            nxt = step(seq, flags)
            if nxt == seq:
                return seq
            t = tuple(nxt)
            if t in seen:
                die('fold cycle for U+%04X flags %d: %r' % (cp, flags, nxt))
            seen.add(t)
            seq = nxt

    # Hangul syllables have no decomposition in UnicodeData.txt, so they are
    # not decomposed; check it stays that way.
    assert not any(0xAC00 <= c <= 0xD7A3 for c in decomp)

    domain = sorted(set(decomp) | set(casefold) | set(simp)
                    | set(range(0x41, 0x5B)))
    folds = {}      # cp -> [result for flags 0..7]
    maxlen = 0
    for cp in domain:
        res = [fold(cp, f) for f in range(8)]
        if any(r != [cp] for r in res):
            folds[cp] = res
            maxlen = max(maxlen, max(len(r) for r in res))
    # Fixed point: every output code point folds to itself.
    for cp, res in folds.items():
        for f, r in enumerate(res):
            for c in r:
                if c in folds and folds[c][f] != [c]:
                    die('U+%04X flags %d: not a fixed point' % (cp, f))
    if maxlen > K['TFP_FOLD_MAX']:
        die('longest fold is %d code points, TFP_FOLD_MAX is %d: raise it'
            % (maxlen, K['TFP_FOLD_MAX']))
    # tfp_cp_fold() has an ASCII fast path; it must agree with the data.
    for cp in range(0x80):
        for f in range(8):
            exp = [cp + 32] if (f & C) and 0x41 <= cp <= 0x5A else [cp]
            got = folds[cp][f] if cp in folds else [cp]
            if got != exp:
                die('ASCII fast path disagrees for U+%04X flags %d' % (cp, f))
    return folds, maxlen


def encode_folds(folds):
    """
    Records: rec[i] = (base << 3) | mask, where mask holds the flag bits the
    result depends on; seq[base + sel[mask][flags & 7]] is 0 for "unchanged",
    (zigzag(delta) << 5) | 1 for the single code point cp + delta, or else
    (pool offset << 5) | length.  zigzag(d) is 2d for d >= 0, -2d-1 for d < 0.  Index 0 of rec is unused (0 in stage 2
    means the code point folds to itself under all flags).
    """
    pool = []
    pool_index = {}
    seqs = []
    recs = [0]
    rec_index = {}
    cp_rec = {}

    def sel(mask, f):
        i = n = 0
        for b in range(3):
            if mask & (1 << b):
                if f & (1 << b):
                    i |= 1 << n
                n += 1
        return i

    def expand(mask, i):
        f = n = 0
        for b in range(3):
            if mask & (1 << b):
                if i & (1 << n):
                    f |= 1 << b
                n += 1
        return f

    for cp in sorted(folds):
        res = folds[cp]
        mask = 0
        for b in range(3):
            if any(res[f] != res[f ^ (1 << b)] for f in range(8)):
                mask |= 1 << b
        ents = []
        for i in range(1 << bin(mask).count('1')):
            r = res[expand(mask, i)]
            if r == [cp]:
                ents.append(0)
                continue
            if len(r) == 1:
                # relative, so that records are shared (e.g. all "+1")
                d = r[0] - cp
                ents.append(((2 * d if d >= 0 else -2 * d - 1) << 5) | 1)
                continue
            t = tuple(r)
            if t not in pool_index:
                pool_index[t] = len(pool)
                pool.extend(r)
            ents.append((pool_index[t] << 5) | len(r))
        key = (mask, tuple(ents))
        if key not in rec_index:
            rec_index[key] = len(recs)
            recs.append((len(seqs) << 3) | mask)
            seqs.extend(ents)
        cp_rec[cp] = rec_index[key]
    assert len(recs) < 65536 and len(pool) < (1 << 27)
    assert len(seqs) < (1 << 29)
    seltab = [[sel(m, f) for f in range(8)] for m in range(8)]
    return cp_rec, recs, seqs, pool, seltab


# ---------------------------------------------------------------------------
# Pinyin

def build_pinyin(u):
    decomp = u['decomp']
    rd = u['readings']

    def nfd(cp):
        d = decomp.get(cp)
        if d is None or d[0]:
            return [cp]
        r = []
        for c in d[1]:
            r += nfd(c)
        return r

    def toneless(s):
        out = []
        for ch in s:
            for c in nfd(ord(ch)):
                if c in PINYIN_STRIP:
                    continue
                if c == PINYIN_UMLAUT:
                    if not out or out[-1] != 'u':
                        die('unexpected diaeresis in reading %r' % s)
                    out[-1] = 'v'
                    continue
                out.append(chr(c).lower())
        r = ''.join(out)
        if not re.fullmatch(r'[a-z]+', r):
            die('cannot convert reading %r (%r)' % (s, r))
        return r

    def first_reading(field, value):
        if field == 'kMandarin':
            return value.split()[0]
        if field == 'kHanyuPinlu':
            # "zhōng(4875) zhòng(66)": take the most frequent
            best = None
            for v in value.split():
                m = re.fullmatch(r'(.+)\((\d+)\)', v)
                if not m:
                    die('bad kHanyuPinlu value %r' % value)
                if best is None or int(m.group(2)) > best[1]:
                    best = (m.group(1), int(m.group(2)))
            return best[0]
        # kXHC1983 "1494.100:zhōng 1501.040:zhòng",
        # kHanyuPinyin "10028.100:zhōng,zhòng", kTGHZ2013 "480.020:zhōng"
        entry = value.split()[0]
        if ':' not in entry:
            die('bad %s value %r' % (field, value))
        return entry.split(':', 1)[1].split(',')[0]

    pinyin = {}
    source = {f: 0 for f in PINYIN_FIELDS}
    cps = set()
    for f in PINYIN_FIELDS:
        cps |= set(rd[f])
    for cp in sorted(cps):
        for f in PINYIN_FIELDS:
            if cp in rd[f]:
                pinyin[cp] = toneless(first_reading(f, rd[f][cp]))
                source[f] += 1
                break

    # variant fallback, breadth first over the variant graph
    var = u['variants']
    edges = {}
    for f in PINYIN_VARIANT_FIELDS:
        for cp, value in sorted(var[f].items()):
            for v in value.split():
                t = int(v.split('<')[0][2:], 16)
                if t != cp:
                    edges.setdefault(cp, []).append(t)
                    edges.setdefault(t, [])
    # reverse edges too (Unihan does not always list both directions);
    # forward edges of a code point come before reverse ones
    rev = {}
    for cp in sorted(edges):
        for t in edges[cp]:
            rev.setdefault(t, []).append(cp)
    source['variant'] = 0
    frontier = sorted(pinyin)
    while True:
        new = {}
        for cp in sorted(edges):
            if cp in pinyin:
                continue
            for t in edges[cp] + rev.get(cp, []):
                if t in pinyin:
                    new[cp] = pinyin[t]
                    break
        if not new:
            break
        pinyin.update(new)
        source['variant'] += len(new)
    source['decomposition'] = 0
    for cp, d in sorted(decomp.items()):
        if (not d[0] and len(d[1]) == 1 and cp not in pinyin
                and d[1][0] in pinyin):
            pinyin[cp] = pinyin[d[1][0]]
            source['decomposition'] += 1
    return pinyin, source


# ---------------------------------------------------------------------------
# Two-stage tables and C output

def two_stage(values, default, limit, elem_size):
    """
    Split values[0:limit] (limit a multiple of every block size) into
    stage 1 (block numbers) and stage 2 (deduplicated blocks), choosing the
    block size with the smallest total.  Returns (shift, stage1, stage2,
    stage1_elem_size).
    """
    best = None
    for shift in SHIFTS:
        size = 1 << shift
        lim = (limit + size - 1) >> shift << shift
        blocks = {}
        order = []
        stage1 = []
        zero = tuple([default] * size)
        blocks[zero] = 0
        order.append(zero)
        for b in range(0, lim, size):
            blk = tuple(values[b:b + size]) if b + size <= len(values) else \
                tuple(values[b:] + [default] * (b + size - len(values)))
            if blk not in blocks:
                blocks[blk] = len(order)
                order.append(blk)
            stage1.append(blocks[blk])
        s1size = 1 if len(order) <= 256 else 2
        total = len(stage1) * s1size + len(order) * size * elem_size
        if best is None or total < best[0]:
            best = (total, shift, stage1, [v for blk in order for v in blk],
                    s1size)
    return best[1:]


def c_array(out, ctype, name, values, comment=None, per_line=None):
    if comment:
        out.write('/* %s */\n' % comment)
    out.write('const %s %s[%d] = {\n' % (ctype, name, len(values)))
    line = ''
    for i, v in enumerate(values):
        s = '%d,' % v
        if len(line) + len(s) > 78 or (per_line and i and i % per_line == 0):
            out.write(line + '\n')
            line = ''
        line += s
    if line:
        out.write(line + '\n')
    out.write('};\n\n')


def utype(maxval):
    if maxval < 256:
        return 'uint8_t', 1
    if maxval < 65536:
        return 'uint16_t', 2
    return 'uint32_t', 4


def generate(ucd_path, stats=False):
    K = read_header()
    u = load(UCD(ucd_path))

    cls = build_classes(u, K)
    folds, maxlen = build_folds(u, K)
    cp_rec, recs, seqs, pool, seltab = encode_folds(folds)
    pinyin, source = build_pinyin(u)

    # Class table: everything from cls_limit on is SEP.
    sep = K['TFP_CC_SEP']
    cls_limit = max(cp for cp in range(MAX_CP) if cls[cp] != sep) + 1
    c_shift, c_s1, c_s2, c_s1size = two_stage(cls, sep, cls_limit, 1)

    fold_vals = [0] * (max(cp_rec) + 1)
    for cp, r in cp_rec.items():
        fold_vals[cp] = r
    f_shift, f_s1, f_s2, f_s1size = two_stage(fold_vals, 0, len(fold_vals), 2)

    # syllable numbers by decreasing frequency (small numbers, short source)
    freq = {}
    for s in pinyin.values():
        freq[s] = freq.get(s, 0) + 1
    syls = sorted(freq, key=lambda s: (-freq[s], s))
    syl_id = {s: i + 1 for i, s in enumerate(syls)}
    py_vals = [0] * (max(pinyin) + 1)
    for cp, s in pinyin.items():
        py_vals[cp] = syl_id[s]
    p_ctype, p_size = utype(len(syls))
    p_shift, p_s1, p_s2, p_s1size = two_stage(py_vals, 0, len(py_vals), p_size)
    py_pool = '\0'      # offset 0: unused (id 0 = no reading)
    py_off = [0]
    for s in syls:
        py_off.append(len(py_pool))
        py_pool += s + '\0'
    assert len(py_pool) < 65536

    def s1type(n):
        return 'uint8_t' if n == 1 else 'uint16_t'

    out = io.StringIO()
    w = out.write
    w('/*\n'
      ' * tfp_unicode_data.c -- Unicode tables for tfp_unicode.c\n'
      ' *\n'
      ' * GENERATED by tools/gen_unicode.py from the Unicode %s Character\n'
      ' * Database (Debian unicode-data).  DO NOT EDIT: change the generator\n'
      ' * and regenerate (see tools/README.md).\n'
      ' *\n'
      ' * tfp_unicode.c includes this file with TFP_UNICODE_DATA_DECLS_ONLY\n'
      ' * defined to get the declarations and table geometry below.\n'
      ' */\n' % u['version'])
    w('#ifndef TFP_UNICODE_DATA_DECLS\n#define TFP_UNICODE_DATA_DECLS\n\n')
    w('#include <stdint.h>\n\n#include "tfp_unicode.h"\n\n')
    w('#if TFP_CC_SEP != %d || TFP_CC_WORD != %d || TFP_CC_HAN != %d || '
      'TFP_CC_MARK != %d || TFP_CC_IGNORE != %d || TFP_FOLD_MAX < %d\n'
      '#error "tfp_unicode.h changed: rerun tools/gen_unicode.py"\n'
      '#endif\n\n' % (K['TFP_CC_SEP'], K['TFP_CC_WORD'], K['TFP_CC_HAN'],
                      K['TFP_CC_MARK'], K['TFP_CC_IGNORE'], maxlen))
    w('#define TFP_UNICODE_DATA_VERSION "%s"\n\n' % u['version'])
    w('/* tfp_cp_class: code points >= TFP_CLASS_LIMIT are TFP_CC_SEP */\n')
    w('#define TFP_CLASS_SHIFT %d\n' % c_shift)
    w('#define TFP_CLASS_LIMIT 0x%X\n' % (len(c_s1) << c_shift))
    w('extern const %s tfp_class_stage1[%d];\n' % (s1type(c_s1size), len(c_s1)))
    w('extern const uint8_t tfp_class_stage2[%d];\n\n' % len(c_s2))
    w('/* tfp_cp_fold: code points >= TFP_FOLD_LIMIT fold to themselves */\n')
    w('#define TFP_FOLD_SHIFT %d\n' % f_shift)
    w('#define TFP_FOLD_LIMIT 0x%X\n' % (len(f_s1) << f_shift))
    w('extern const %s tfp_fold_stage1[%d];\n' % (s1type(f_s1size), len(f_s1)))
    w('extern const uint16_t tfp_fold_stage2[%d];\n' % len(f_s2))
    w('extern const uint32_t tfp_fold_rec[%d];\n' % len(recs))
    w('extern const uint32_t tfp_fold_seq[%d];\n' % len(seqs))
    w('extern const uint32_t tfp_fold_pool[%d];\n' % len(pool))
    w('extern const uint8_t tfp_fold_sel[8][8];\n\n')
    w('/* tfp_pinyin: code points >= TFP_PINYIN_LIMIT have no reading */\n')
    w('#define TFP_PINYIN_SHIFT %d\n' % p_shift)
    w('#define TFP_PINYIN_LIMIT 0x%X\n' % (len(p_s1) << p_shift))
    w('extern const %s tfp_pinyin_stage1[%d];\n' % (s1type(p_s1size), len(p_s1)))
    w('extern const %s tfp_pinyin_stage2[%d];\n' % (p_ctype, len(p_s2)))
    w('extern const uint16_t tfp_pinyin_off[%d];\n' % len(py_off))
    w('extern const char tfp_pinyin_pool[%d];\n\n' % len(py_pool))
    w('#endif\t\t\t\t\t\t\t/* TFP_UNICODE_DATA_DECLS */\n\n')
    w('#ifndef TFP_UNICODE_DATA_DECLS_ONLY\n\n')

    c_array(out, s1type(c_s1size), 'tfp_class_stage1', c_s1,
            'class: block number of each %d-code-point block' % (1 << c_shift))
    c_array(out, 'uint8_t', 'tfp_class_stage2', c_s2,
            'class: TFP_CC_* of each code point, %d blocks' % (len(c_s2) >> c_shift),
            per_line=1 << min(c_shift, 5))
    c_array(out, s1type(f_s1size), 'tfp_fold_stage1', f_s1,
            'fold: block number of each %d-code-point block' % (1 << f_shift))
    c_array(out, 'uint16_t', 'tfp_fold_stage2', f_s2,
            'fold: index into tfp_fold_rec (0: unchanged under all flags)')
    c_array(out, 'uint32_t', 'tfp_fold_rec', recs,
            'fold records: (index into tfp_fold_seq << 3) | mask of the '
            'flags the result depends on')
    c_array(out, 'uint32_t', 'tfp_fold_seq', seqs,
            'fold results, one per combination of the flags in the record\n'
            '   mask (selected by tfp_fold_sel): 0 (unchanged), '
            '(zigzag(delta) << 5) | 1 for\n   the code point cp + delta '
            '(zigzag(d) = d >= 0 ? 2d : -2d-1), or\n   '
            '(offset into tfp_fold_pool << 5) | length (2..TFP_FOLD_MAX)')
    c_array(out, 'uint32_t', 'tfp_fold_pool', pool,
            'fold results: code points')
    w('/* tfp_fold_sel[mask][flags]: flags & mask, compressed to the low bits */\n')
    w('const uint8_t tfp_fold_sel[8][8] = {\n')
    for row in seltab:
        w('{%s},\n' % ','.join(str(x) for x in row))
    w('};\n\n')
    c_array(out, s1type(p_s1size), 'tfp_pinyin_stage1', p_s1,
            'pinyin: block number of each %d-code-point block' % (1 << p_shift))
    c_array(out, p_ctype, 'tfp_pinyin_stage2', p_s2,
            'pinyin: syllable number (0: no reading)')
    c_array(out, 'uint16_t', 'tfp_pinyin_off', py_off,
            'pinyin: offset of each syllable in tfp_pinyin_pool')
    w('/* pinyin syllables, NUL-terminated */\n')
    w('const char tfp_pinyin_pool[%d] =' % len(py_pool))
    line = '\n"\\0"'
    for s in syls:
        item = '"%s\\0"' % s
        if len(line) + len(item) > 78:
            w(line)
            line = '\n'
        line += item
    w(line + ';\n\n')
    w('#endif\t\t\t\t\t\t\t/* TFP_UNICODE_DATA_DECLS_ONLY */\n')

    text = out.getvalue()
    if stats:
        cjk = [cp for cp in range(MAX_CP)
               if u['script'][cp] == 'Han' and u['gc'][cp] == 'Lo'
               and not (0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F)]
        compat = [cp for cp in range(MAX_CP)
                  if (0xF900 <= cp <= 0xFAFF or 0x2F800 <= cp <= 0x2FA1F)
                  and u['gc'][cp] == 'Lo']
        missing = [cp for cp in cjk if cp not in pinyin]
        ncls = {}
        for c in cls:
            ncls[c] = ncls.get(c, 0) + 1
        e = sys.stderr.write
        e('Unicode %s\n' % u['version'])
        e('classes: %s\n' % ', '.join('%d:%d' % kv for kv in sorted(ncls.items())))
        e('class: shift %d, stage1 %d x %dB, stage2 %d blocks (%d bytes)\n'
          % (c_shift, len(c_s1), c_s1size, len(c_s2) >> c_shift, len(c_s2)))
        e('fold: %d code points change; shift %d, stage1 %d x %dB, stage2 %d '
          'blocks (%d bytes), %d records, %d results, pool %d code points; '
          'longest %d\n'
          % (len(folds), f_shift, len(f_s1), f_s1size, len(f_s2) >> f_shift,
             2 * len(f_s2), len(recs), len(seqs), len(pool), maxlen))
        e('pinyin: %d code points (%s), %d syllables; shift %d, stage1 %d x '
          '%dB, stage2 %d blocks (%d bytes)\n'
          % (len(pinyin), ', '.join('%s %d' % kv for kv in source.items()),
             len(syls), p_shift, len(p_s1), p_s1size, len(p_s2) >> p_shift,
             p_size * len(p_s2)))
        e('pinyin: %d of %d CJK unified ideographs have no reading; '
          '%d of %d compatibility ideographs have one\n'
          % (len(missing), len(cjk), sum(1 for c in compat if c in pinyin),
             len(compat)))
        blocks = {}
        for cp in missing:
            for lo, hi, name in CJK_BLOCKS:
                if lo <= cp <= hi:
                    blocks[name] = blocks.get(name, 0) + 1
                    break
        e('  missing by block: %s\n' % ', '.join(
            '%s %d' % kv for kv in blocks.items()))
        e('output: %d bytes\n' % len(text))
    return text


CJK_BLOCKS = [
    (0x4E00, 0x9FFF, 'URO'), (0x3400, 0x4DBF, 'ExtA'),
    (0x20000, 0x2A6DF, 'ExtB'), (0x2A700, 0x2B73F, 'ExtC'),
    (0x2B740, 0x2B81F, 'ExtD'), (0x2B820, 0x2CEAF, 'ExtE'),
    (0x2CEB0, 0x2EBEF, 'ExtF'), (0x30000, 0x3134F, 'ExtG'),
    (0x31350, 0x323AF, 'ExtH'), (0, MAX_CP, 'other'),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    ap.add_argument('--ucd', default=DEFAULT_UCD,
                    help='Unicode Character Database directory (default %s)'
                    % DEFAULT_UCD)
    ap.add_argument('--check', action='store_true',
                    help='compare a fresh generation with %s' % OUTPUT)
    ap.add_argument('--stats', action='store_true',
                    help='print table sizes and coverage to stderr')
    ap.add_argument('-o', '--output', default=OUTPUT)
    args = ap.parse_args()

    text = generate(args.ucd, args.stats)
    if args.check:
        with tempfile.NamedTemporaryFile('w', encoding='utf-8', suffix='.c',
                                         delete=False) as tmp:
            tmp.write(text)
        try:
            with open(args.output, encoding='utf-8') as f:
                old = f.read()
            with open(tmp.name, encoding='utf-8') as f:
                new = f.read()
        finally:
            os.unlink(tmp.name)
        if old != new:
            diff = difflib.unified_diff(old.splitlines(True),
                                        new.splitlines(True),
                                        args.output, '(regenerated)', n=1)
            sys.stdout.writelines(list(diff)[:200])
            sys.stderr.write('gen_unicode.py: %s is out of date\n'
                             % args.output)
            sys.exit(1)
        sys.stderr.write('gen_unicode.py: %s is up to date\n' % args.output)
        return
    with open(args.output, 'w', encoding='utf-8', newline='\n') as f:
        f.write(text)


if __name__ == '__main__':
    main()
