#!/usr/bin/env python3
"""A third labelled set of document pairs for textfp_match(): the copies that
move or drop text, which model 2 misses (issue 34), beside the negatives
that make them hard.  It reads set 2's sources, articles, site templates and
homophone and edit code (tools/make_match_set2.py, imported: its split by
source file too), so a pair of set 3 is of set 2's train or test files; a
test pair whose id hashes to 0 mod 4 is in the slice 'untouched'.

POSITIVES (label t), kind and rate:
  reorder-para    the article's paragraphs but the first (its title, which
                  a repost keeps on top), a share of them (rate 0.1, 0.25,
                  0.5, 1.0) moved to random places (Chinese and English)
  reorder-inner   the same with the last paragraph kept last too (a
                  common leading and trailing edge around moved text)
  reorder-sent    that share of the sentences (Chinese: clauses ending in
                  。！？；) after the title moved to random places
  truncate        a run of consecutive paragraphs of the article, a share
                  (rate 0.2-0.8) of its bytes, from its start, middle or end
  revision        natural revisions: the same section (page and heading) of
                  the LLVM documentation 13 and 16 (llvm-13-doc, llvm-16-doc)
                  and of the Lua 5.1 and 5.2 reference manuals, when the two
                  share at least 30% of the shorter one's character 4-grams
                  (a section rewritten beyond that is not a copy); rate: that
                  share, rounded down to a tenth
  ... with '+lines' when a and b have one clause (Chinese: up to ，。！？；)
  or sentence (English) a line (40%: short lines, which common edges bridge
  and middles drop), '+template' when b is in one of set 2's site templates (a plain),
  '+edit' when 1-5% of b's characters or words are edited (set 2's
  charedits), '+homophone' (Chinese, 10-30%).
NEGATIVES (label f): 'neighbour-same' (the next article with the same
transformation, against a), 'same-template' (a and its neighbour in one site
template, the neighbour reordered or truncated the same way) and
'revision-other' (a section against another section of the same page in
the other version).

Output: COPY text format, pair_id split kind lang label book a b rate
transforms.

    tools/make_match_set3.py > set3.tsv          [--seed N] [--per-file K]

(K pairs of articles a file, 4 K for English files.)

Needs python3 and what tools/make_match_set2.py needs, and llvm-13-doc,
llvm-16-doc, lua5.1-doc, lua5.2-doc.
"""
import argparse
import glob
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import make_match_set2 as s2  # noqa: E402

SEED = 34003


class Sections(s2.Blocks):
    """(heading, [paragraphs]) of an HTML page: set 2's text blocks, a
    section per h1-h4"""
    HEAD = {'h1', 'h2', 'h3', 'h4'}

    def __init__(self):
        super().__init__()
        self.secs, self.inhead = [], False

    def flush(self):
        t = re.sub(r'\s+', ' ', ''.join(self.cur)).strip().rstrip('¶').strip()
        self.cur = []
        if not t:
            return
        if self.inhead:
            self.secs.append([t, []])
        elif self.secs:
            self.secs[-1][1].append(t)

    def handle_starttag(self, tag, attrs):
        super().handle_starttag(tag, attrs)
        if tag in self.BLOCK:
            self.inhead = tag in self.HEAD

    def handle_endtag(self, tag):
        super().handle_endtag(tag)
        if tag in self.HEAD:
            self.inhead = False


def sections(path):
    p = Sections()
    with open(path, encoding='utf-8', errors='replace') as f:
        p.feed(f.read())
    p.flush()
    out = {}
    for head, paras in p.secs:
        key = re.sub(r'\W+', ' ', head).strip().lower()
        paras = [x for x in paras if len(re.findall(r'[A-Za-z]{2,}', x)) >= 4]
        if key and key not in out and 500 <= s2.nbytes('\n'.join(paras)) <= 4000:
            out[key] = (head, paras)
    return out


def grams4(text):
    t = re.sub(r'\s+', '', text)
    return {t[i:i + 4] for i in range(len(t) - 3)}


def revisions(rng):
    """[(book, path, (title, paras) old, new, other-section-of-new or None, share)]"""
    out = []
    pairs = [('llvm', '/usr/share/doc/llvm-13-doc/html', '/usr/share/doc/llvm-16-doc/html'),
             ('lua', '/usr/share/doc/lua5.1-doc/doc', '/usr/share/doc/lua5.2-doc')]
    for book, old, new in pairs:
        for f in sorted(glob.glob(old + '/**/*.html', recursive=True)):
            rel = os.path.relpath(f, old)
            g = os.path.join(new, rel)
            if not os.path.exists(g) or os.path.getsize(f) > 2_000_000:
                continue
            so, sn = sections(f), sections(g)
            keys = sorted(set(so) & set(sn))
            for key in keys:
                a, b = so[key], sn[key]
                ga, gb = grams4('\n'.join(a[1])), grams4('\n'.join(b[1]))
                share = len(ga & gb) / max(1, min(len(ga), len(gb)))
                if share < 0.3:
                    continue
                others = [k for k in sn if k != key and
                          len(grams4('\n'.join(sn[k][1])) & ga) < 0.2 * max(1, len(ga))]
                other = sn[rng.choice(others)] if others else None
                out.append((book + '-en', os.path.join(book, rel), a, b, other, share))
    return out


def reorder_paras(paras, rate, rng):
    paras = list(paras)
    if len(paras) < 2:
        return paras
    n = max(1, round(rate * len(paras)))
    for _ in range(20):
        moved = rng.sample(range(len(paras)), n)
        rest = [p for i, p in enumerate(paras) if i not in moved]
        for i in moved:
            rest.insert(rng.randrange(len(rest) + 1), paras[i])
        if rest != paras:
            return rest
    return paras[1:] + paras[:1]


def reorder_sents(paras, lang, rate, rng):
    sp = r'(?<=[。！？；])' if lang == 'zh' else r'(?<=[.!?])\s+'
    ps = [[s for s in re.split(sp, p) if s.strip()] for p in paras]
    flat = [(i, s) for i, p in enumerate(ps) for s in p]
    if len(flat) < 2:
        return list(paras)
    n = max(1, round(rate * len(flat)))
    moved = set(rng.sample(range(len(flat)), n))
    out = [[] for _ in ps]
    for j, (i, s) in enumerate(flat):
        if j not in moved:
            out[i].append(s)
    for j in sorted(moved):
        p = rng.randrange(len(out))
        out[p].insert(rng.randrange(len(out[p]) + 1), flat[j][1])
    sep = '' if lang == 'zh' else ' '
    return [sep.join(p) for p in out if p]


def relined(paras, lang):
    """the paragraphs after the title one clause (Chinese: up to ，。！？；)
    or sentence (English) a line"""
    sp = r'(?<=[，。！？；])' if lang == 'zh' else r'(?<=[.!?;])\s+'
    return paras[:1] + [x.strip() for p in paras[1:] for x in re.split(sp, p) if x.strip()]


def truncate(paras, rate, rng):
    """a run of consecutive paragraphs of about rate of the bytes"""
    sizes = [s2.nbytes(p) for p in paras]
    total = sum(sizes)
    where = rng.choice(['start', 'middle', 'end'])
    best = None
    for i in range(len(paras)):
        acc = 0
        for j in range(i, len(paras)):
            acc += sizes[j]
            d = abs(acc / total - rate)
            pos = i == 0 if where == 'start' else j == len(paras) - 1 if where == 'end' else (i > 0 and j < len(paras) - 1)
            key = (not pos, d)
            if best is None or key < best[0]:
                best = (key, i, j + 1)
    return list(paras[best[1]:best[2]]), where


def finish(paras, lang, extra, rng, homo, titles, st):
    text = '\n'.join(paras)
    if 'homophone' in extra:
        text = homo.apply(text, rng.choice([0.1, 0.2, 0.3]), rng)
    if 'edit' in extra:
        text = s2.charedits(text, lang, rng.choice([0.01, 0.02, 0.03, 0.05]), rng)
    paras = [x for x in text.split('\n') if x.strip()]
    if 'template' in extra:
        hd, ft = s2.template_lines(st, titles, rng, rng.uniform(0.1, 0.6), s2.nbytes('\n'.join(paras)))
        return s2.render(st, paras[0][:60], paras, hd, ft, rng)
    return '\n'.join(paras)


def build(seed, per_file):
    rng0 = random.Random(seed)
    src = s2.sources()
    used = set()
    for b, lang, path, paras in src:
        if lang == 'zh':
            for p in paras:
                used.update(s2.HANRE.findall(p))
    homo = s2.Homo(used)
    rows = []

    def add(split, kind, lang, label, book, a, b, rate, tr):
        rows.append([split, kind, lang, label, book, a, b, '%.2f' % rate, tr])

    for book, lang, path, paras in src:
        split = s2.split_of(path)
        rng = random.Random('%d/%s' % (seed, path))
        arts = s2.articles(paras, lang, rng)
        if len(arts) < 2:
            continue
        titles = [p[0][:24] for p in arts]
        idx = list(range(len(arts) - 1))
        rng.shuffle(idx)
        # English: fewer files of several-paragraph articles, more pairs each
        for i in sorted(idx[:per_file * (4 if lang == 'en' else 1)]):
            a, nb = arts[i], arts[i + 1]
            if len(a) < 3 or len(nb) < 3 or not s2.unlike((a[0], a[1:]), (nb[0], nb[1:])):
                continue
            kind = rng.choice(['reorder-para', 'reorder-inner', 'reorder-sent', 'truncate'])
            if rng.random() < 0.4:
                # one sentence a line, as many pages show an article: short
                # lines, which common edges bridge and middles drop
                a, nb = relined(a, lang), relined(nb, lang)
                kind += '+lines'
            extra = [x for x in ('template', 'edit', 'homophone')
                     if rng.random() < 0.3 and (x != 'homophone' or lang == 'zh')]
            st = s2.site(lang, rng.randrange(12))
            if kind == 'truncate':
                rate = rng.choice([0.2, 0.35, 0.5, 0.65, 0.8])
                tb, where = truncate(a, rate, rng)
                tn, _ = truncate(nb, rate, rng)
            else:
                rate = rng.choice([0.1, 0.25, 0.5, 1.0])
                # the title (the first paragraph) stays on top, as a repost keeps it
                f = reorder_paras if kind != 'reorder-sent' else lambda p, r, g: reorder_sents(p, lang, r, g)
                if kind == 'reorder-inner' and len(a) >= 4 and len(nb) >= 4:
                    tb = a[:1] + f(a[1:-1], rate, rng) + a[-1:]
                    tn = nb[:1] + f(nb[1:-1], rate, rng) + nb[-1:]
                else:
                    tb, tn = a[:1] + f(a[1:], rate, rng), nb[:1] + f(nb[1:], rate, rng)
            tr = '+'.join([kind] + extra)
            ax = '\n'.join(a)
            add(split, tr, lang, 't', book, ax, finish(tb, lang, extra, rng, homo, titles, st), rate, tr)
            add(split, 'neighbour-same', lang, 'f', book, ax, finish(tn, lang, extra, rng, homo, titles, st),
                rate, tr)
            # the site template around a (as it is) and around the neighbour
            # transformed the same way
            share = rng.uniform(0.3, 0.7)
            hd, ft = s2.template_lines(st, titles, rng, share, s2.nbytes(ax))
            hd2, ft2 = s2.template_lines(st, titles, rng, share, s2.nbytes(ax))
            add(split, 'same-template', lang, 'f', book, s2.render(st, a[0][:60], list(a), hd, ft, rng),
                s2.render(st, tn[0][:60], list(tn), hd2, ft2, rng), rate, kind + '+template')
    for book, path, old, new, other, share in revisions(rng0):
        split = s2.split_of(path)
        ax = '\n'.join([old[0]] + old[1])
        add(split, 'revision', 'en', 't', book, ax, '\n'.join([new[0]] + new[1]), int(share * 10) / 10, 'revision')
        if other is not None:
            add(split, 'revision-other', 'en', 'f', book, ax, '\n'.join([other[0]] + other[1]), 0.0,
                'revision')
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--seed', type=int, default=SEED)
    ap.add_argument('--per-file', type=int, default=3)
    args = ap.parse_args()
    rows = build(args.seed, args.per_file)
    n = {}
    for pid, r in enumerate(rows, start=1):
        split = r[0]
        if split == 'test' and s2.h32('untouched3/%d' % pid) % 4 == 0:
            split = 'untouched'
        key = (r[1].split('+')[0], r[3])
        n[key] = n.get(key, 0) + 1
        print('\t'.join(s2.escape(x) for x in [pid, split] + r[1:]))
    for k in sorted(n):
        s2.say('%-16s %s %5d' % (k[0], k[1], n[k]))


if __name__ == '__main__':
    main()
