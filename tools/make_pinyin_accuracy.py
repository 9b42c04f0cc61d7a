#!/usr/bin/env python3
"""Build the pinyin_dna accuracy set: real Chinese articles and programmatic
copies of them.

Articles: consecutive paragraphs of test/data/pool_zh.txt (the Chinese pool
made from Debian packages by tools/make_corpus.py) joined until at least
--size bytes; every --stride-th article is kept, so neighbouring articles of
one book (same topic, different text) are the "unrelated same-topic" set.

Copies of each article (kind column):
  homophone5/10/20  that share of the Han characters replaced by a homophone
                    (same toneless reading, both characters with a single
                    Mandarin reading in Unihan kMandarin and kHanyuPinyin,
                    replacement drawn from the characters of the pool)
  s2t               simplified -> traditional with Debian's opencc (s2t.json)
  editdel           10% of the sentences deleted and 10% replaced by sentences
                    of other articles
  shuffle           paragraphs in random order (first one moved last if the
                    shuffle is the identity)
  ads               three advertising sentences inserted at the start, the
                    middle and the end
Deterministic (--seed).  Output (stdout): TSV in COPY text format:
  id, orig_id (= id for an original), kind, body

Usage: tools/make_pinyin_accuracy.py [--pool FILE] [--articles N] > set.tsv
Needs python3 and opencc (Debian package opencc).
"""
import argparse
import bz2
import os
import random
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HAN = re.compile('[\u3400-\u4dbf\u4e00-\u9fff]')
ADS = ['点击下方链接立即领取优惠券，限时抢购全场五折起！',
       '关注我们的微信公众号，获取更多精彩内容和独家福利。',
       '本文由某某网独家发布，转载请注明出处，违者必究。',
       '欢迎扫码下载官方客户端，新用户注册即送大礼包。']


def readings(ucd):
    """toneless readings of each character from kMandarin + kHanyuPinyin"""
    tone = str.maketrans('āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜüńňǹḿ',
                         'aaaaeeeeiiiioooouuuuvvvvvnnnm')
    r = {}
    path = os.path.join(ucd, 'Unihan_Readings.txt.bz2')
    opener = bz2.open if os.path.exists(path) else open
    if not os.path.exists(path):
        path = os.path.join(ucd, 'Unihan_Readings.txt')
    with opener(path, 'rt', encoding='utf-8') as f:
        for line in f:
            if not line.startswith('U+'):
                continue
            cp, field, value = line.rstrip('\n').split('\t')
            if field == 'kMandarin':
                vals = value.split()
            elif field == 'kHanyuPinyin':
                vals = [v for e in value.split() for v in e.split(':')[1].split(',')]
            else:
                continue
            c = chr(int(cp[2:], 16))
            r.setdefault(c, set()).update(v.translate(tone) for v in vals)
    return r


def sentences(p):
    return [s for s in re.split(r'(?<=[。！？；])', p) if s]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--pool', default=os.path.join(ROOT, 'test/data/pool_zh.txt'))
    ap.add_argument('--articles', type=int, default=200)
    ap.add_argument('--size', type=int, default=2000)
    ap.add_argument('--stride', type=int, default=2)
    ap.add_argument('--seed', type=int, default=20241121)
    ap.add_argument('--ucd', default='/usr/share/unicode')
    a = ap.parse_args()
    rnd = random.Random(a.seed)

    paras = [l.strip() for l in open(a.pool, encoding='utf-8') if l.strip()]
    arts, cur = [], []
    for p in paras:
        if len(HAN.findall(p)) < 0.3 * len(p):
            continue
        cur.append(p)
        if len('\n'.join(cur).encode()) >= a.size:
            arts.append(cur)
            cur = []
    arts = arts[::a.stride]
    if len(arts) > a.articles:
        step = len(arts) / a.articles
        arts = [arts[int(i * step)] for i in range(a.articles)]

    # homophones among the characters of the pool
    rd = readings(a.ucd)
    used = {}
    for p in paras:
        for c in HAN.findall(p):
            used[c] = used.get(c, 0) + 1
    single = {c: next(iter(rd[c])) for c in used if c in rd and len(rd[c]) == 1}
    by_syl = {}
    for c in sorted(single):
        by_syl.setdefault(single[c], []).append(c)
    homo = {c: [d for d in by_syl[single[c]] if d != c] for c in single}
    homo = {c: v for c, v in homo.items() if v}

    def homophones(text, rate):
        out = []
        for ch in text:
            if ch in homo and rnd.random() < rate:
                out.append(rnd.choice(homo[ch]))
            else:
                out.append(ch)
        return ''.join(out)

    bodies = ['\n'.join(x) for x in arts]
    s2t = subprocess.run(['opencc', '-c', 's2t.json'], input='\n@@@@\n'.join(bodies),
                         capture_output=True, text=True, check=True).stdout.split('\n@@@@\n')
    assert len(s2t) == len(bodies)
    all_sent = [s for b in bodies for p in b.split('\n') for s in sentences(p)]

    rows = []
    nid = 0
    for i, art in enumerate(arts):
        nid += 1
        oid = nid
        body = bodies[i]
        rows.append((oid, oid, 'original', body))
        copies = []
        for rate in (5, 10, 20):
            copies.append(('homophone%d' % rate, homophones(body, rate / 100)))
        copies.append(('s2t', s2t[i]))
        ps = []
        for p in art:
            ss = []
            for s in sentences(p):
                x = rnd.random()
                if x < 0.1:
                    continue
                ss.append(rnd.choice(all_sent) if x < 0.2 else s)
            ps.append(''.join(ss))
        copies.append(('editdel', '\n'.join(ps)))
        sh = list(art)
        rnd.shuffle(sh)
        if sh == art and len(sh) > 1:
            sh = sh[1:] + sh[:1]
        copies.append(('shuffle', '\n'.join(sh)))
        mid = len(art) // 2
        ads = rnd.sample(ADS, 3)
        copies.append(('ads', '\n'.join([ads[0]] + art[:mid] + [ads[1]] + art[mid:] + [ads[2]])))
        for kind, b in copies:
            nid += 1
            rows.append((nid, oid, kind, b))

    def esc(s):
        return s.replace('\\', '\\\\').replace('\t', '\\t').replace('\n', '\\n').replace('\r', '\\r')
    w = sys.stdout.write
    for r in rows:
        w('%d\t%d\t%s\t%s\n' % (r[0], r[1], r[2], esc(r[3])))
    sys.stderr.write('%d articles, %d rows, %d homophone source characters\n'
                     % (len(arts), len(rows), len(homo)))


if __name__ == '__main__':
    main()
