#!/usr/bin/env python3
"""Build the labelled set of document PAIRS for textfp_match(): is b a copy of
a?  Real text from Debian packages (the sources of tools/make_corpus.py, read
with its parsers), real variants found in Debian, and documented
transformations; hard negatives.

Output (stdout): TSV in PostgreSQL's COPY text format, one pair a line:
  pair_id  split  kind  lang  label  book  a  b
split: train | test.  label: t (b is a copy of a) | f.  kind names the kind
of copy (of a negative: the kind of copy it is the hard counterpart of).
Deterministic: the same package versions and --seed give the same bytes.

SPLIT, held out by whole book: every original, its copies and its negatives
belong to the split of its book; the text a transformation inserts (edits'
substituted sentences, the surroundings of a partial copy) comes from other
books of the same split.
  train: Debian Administrator's Handbook (zh-CN, en-US), Debian Reference
         zh-cn (+ its zh-tw translation and the 2.73 sections of fortunes-zh),
         LibreOffice help modules shared, swriter, sdraw, smath (zh-CN + zh-TW),
         Debian Edu manual (zh, en), New Maintainers' Guide en, World English
         Bible
  test:  Installation Guide amd64 (zh_CN, en; + arm64), New Maintainers' Guide
         zh-cn (+ zh-tw), LibreOffice help modules scalc, sbasic, simpress,
         schart, sdatabase (zh-CN + zh-TW), Debian Reference en, GNOME help
         (zh_CN, C), King James Version

ORIGINALS: sections of 600-5,000 bytes (tools/make_corpus.py's sections:
make_docs), at most --per-book per book, spread over the book; two
originals of a book are never similar (character-4-gram Jaccard < 0.25 and
containment < 0.3, as make_corpus.py measures).

POSITIVES (label t), kind:
  repost     a with an added header and/or footer line (advert, copyright,
             "reposted from"); one in four exactly a
  s2t        Chinese: opencc s2t (traditional script), one in three s2tw
  homophone  Chinese: 5/10/15% of the Han characters that have a single
             Mandarin reading replaced by another character of that reading
             (Unihan kMandarin/kHanyuPinyin), as tools/make_pinyin_accuracy.py
  html       a as a web page: one of four site templates (news portal, blog,
             forum, documentation site) with navigation menus, sidebars,
             adverts, cookie banner, scripts, styles, comments, related-article
             lists (titles of other sections of the book), footer; the text
             escaped with named and numeric references, paragraphs as <p> or
             <br><br>
  edits      mixed edits: ~10% of the sentences deleted, ~8% replaced by
             sentences of another book, one or two inserted, typos (swapped
             letters / replaced Han characters), some punctuation made
             half-width, paragraphs merged
  partial    a contiguous 35-65% of a's sentences inside text of another book
             (before and after), about as long as a
  reword     a reworded (洗稿, regional vocabulary): 10, 15 or 20% of the
             words replaced by other words (Chinese: two Han characters by a
             Han bigram, English: a word by a word) taken from other books of
             the split, the sentences and their order kept; a third of the
             originals of each book, written after all other pairs
  taiwan     REAL: the zh-TW version of the same section made from the
             zh-CN text (Debian Reference, New Maintainers' Guide: converted
             to traditional script and Taiwan wording, then edited); paired
             by file and title (converted with opencc t2s), and only when
             both have the same shape (paragraphs within 20% or one,
             characters within a factor 1.33: same_shape), so that a section
             cut differently in the two versions is not taken for a pair
  translation REAL: the zh-TW translation of the same LibreOffice help
             section, paired as taiwan.  These are NOT copies of each other:
             the two were translated separately from the English help (other
             terms: 单元格/儲存格, 返回/傳回, 语法/Syntax; after opencc
             tw2sp a median of 12-13% of their sentences are near-equal,
             against 100% for taiwan pairs, and their longest common run of
             Han characters has a median of 11-12, against 97-113:
             tools/match_set_provenance.py), and sections cut by the two
             translations' markup do not always cover the same paragraphs
             (6 of the 80 look derived all the same).  Label t (the same section), but scored apart:
             tools/fit_match.py does not fit on them and
             test/bench/match_accuracy.sql reports how many the verdict
             calls copies, outside precision and recall; their negatives (the
             zh-TW translation of a neighbouring section) are ordinary ones
  revision   REAL: Debian Reference 2.73 (fortunes-zh) vs 2.100; the
             Installation Guide for arm64 vs amd64 (same section; identical
             sections are left out)
NEGATIVES (label f), the hard counterpart of each positive: the same
transformation of a neighbouring section of the same book (for html: the
SAME template with the same navigation around a different article; for
repost: the same header/footer; for taiwan/translation/revision: the other version of a
neighbouring section), and a plain neighbouring section.

    tools/make_match_set.py > /tmp/match_set.tsv        (about a minute)
    tools/make_match_set.py --stats
    tools/make_match_set.py --fresh --seed N > fresh1.tsv   (a fresh sample: test
        books only, none of the sections the default --per-book draws)

Needs python3, opencc, unicode-data and the packages of tools/make_corpus.py.
"""
import argparse
import glob
import html as htmlmod
import os
import random
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_corpus as mc  # noqa: E402
import make_pinyin_accuracy  # noqa: E402

SEED = 20251125
HAN = re.compile('[\u3400-\u4dbf\u4e00-\u9fff]')


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------
# books

def lo_files(lang, modules):
    d = {'zh': 'zh-CN', 'zh-tw': 'zh-TW'}[lang]
    out = []
    for m in modules:
        for f in sorted(glob.glob('/usr/share/libreoffice/help/%s/text/%s/**/*.html' % (d, m),
                                  recursive=True)):
            out.append((f, mc.html_blocks(f)))
    return out


LO_TRAIN = ['shared', 'swriter', 'sdraw', 'smath']
LO_TEST = ['scalc', 'sbasic', 'simpress', 'schart', 'sdatabase']


def docs(files, lang, **kw):
    return mc.docs_from_files(files, lang, **kw)


def bible(module, books):
    out = []
    for t, verses in mc.bible_chapters(module, books):
        paras, cur = [], ''
        for v in verses:
            cur = (cur + ' ' + v).strip()
            if mc.utf8len(cur) > 500:
                paras.append(cur)
                cur = ''
        if cur:
            paras.append(cur)
        out.append({'title': t, 'paras': mc.cut_paras(paras, 5000), 'path': ''})
    return out


def load_books():
    """[(book, lang, split, docs)] and the real variant pairs."""
    log('reading books')
    books = [
        ('handbook-zh', 'zh', 'train', docs(mc.handbook('zh'), 'zh', strict=True)),
        ('handbook-en', 'en', 'train', docs(mc.handbook('en'), 'en', strict=True)),
        ('reference-zh', 'zh', 'train', docs(mc.reference('zh-cn'), 'zh')),
        ('libreoffice-zh-train', 'zh', 'train', docs(lo_files('zh', LO_TRAIN), 'zh', strict=True,
                                                      merge_to=600)),
        ('edu-zh', 'zh', 'train', docs(mc.edu_manual('zh'), 'zh', strict=True)),
        ('edu-en', 'en', 'train', docs(mc.edu_manual('en'), 'en', strict=True)),
        ('maint-guide-en', 'en', 'train', docs(mc.maint_guide('en'), 'en')),
        ('web-bible', 'en', 'train', bible('engWEB2015eb', ['Genesis', 'Ruth', 'Luke', 'Acts'])),
        ('install-guide-zh', 'zh', 'test', docs(mc.install_guide('amd64', 'zh'), 'zh')),
        ('install-guide-en', 'en', 'test', docs(mc.install_guide('amd64', 'en'), 'en')),
        ('maint-guide-zh', 'zh', 'test', docs(mc.maint_guide('zh-cn'), 'zh')),
        ('libreoffice-zh-test', 'zh', 'test', docs(lo_files('zh', LO_TEST), 'zh', strict=True,
                                                    merge_to=600)),
        ('reference-en', 'en', 'test', docs(mc.reference('en'), 'en')),
        ('gnome-help-zh', 'zh', 'test', docs(mc.gnome_help('zh'), 'zh', strict=True)),
        ('gnome-help-en', 'en', 'test', docs(mc.gnome_help('en'), 'en', strict=True)),
        ('kjv', 'en', 'test', bible('engKJV2006eb', ['Exodus', 'Esther', 'Mark'])),
    ]
    log('reading variants')
    variants = {
        # book -> (kind, {key: other version's doc}, key function)
        'reference-zh': ('taiwan', docs(mc.reference('zh-tw'), 'zh')),
        'maint-guide-zh': ('taiwan', docs(mc.maint_guide('zh-tw'), 'zh')),
        'libreoffice-zh-train': ('translation', docs(lo_files('zh-tw', LO_TRAIN), 'zh', strict=True,
                                                merge_to=600)),
        'libreoffice-zh-test': ('translation', docs(lo_files('zh-tw', LO_TEST), 'zh', strict=True,
                                               merge_to=600)),
        'install-guide-zh': ('revision', docs(mc.install_guide('arm64', 'zh'), 'zh')),
        'install-guide-en': ('revision', docs(mc.install_guide('arm64', 'en'), 'en')),
    }
    fortunes = [{'title': t, 'paras': p, 'path': ''} for t, p in mc.fortunes_reference_273()]
    return books, variants, fortunes


def body(d):
    return mc.body_of(d['paras'])


def opencc_many(texts, config):
    """opencc over many texts in one run (joined by a separator line)."""
    if not texts:
        return []
    sep = '\n@@@@@@\n'
    out = subprocess.run(['opencc', '-c', config], input=sep.join(texts), capture_output=True,
                         text=True, check=True).stdout.rstrip('\n').split(sep)
    assert len(out) == len(texts)
    return out


def variant_key(d, tw):
    t = d['title']
    if tw:
        t = mc.opencc(t, 't2s.json') if HAN.search(t) else t
    return (os.path.basename(d['path']).split('.')[0], mc.strip_secnum(mc.norm_text(t)))


# --------------------------------------------------------------------------
# transformations

ZH_HEAD = ['【转载】', '原创不易，点个赞再走吧！', '本文转自某技术社区，作者授权发布。',
           '【教程】建议收藏，以备不时之需。']
ZH_FOOT = mc.ZH_FOOTERS + ['（完）', '喜欢这篇文章吗？欢迎分享给你的朋友。',
                           '本文仅代表作者观点，不代表本站立场。']
EN_HEAD = mc.EN_HEADERS + ['Originally posted on our community forum.',
                           'Guest post. Read time: 5 minutes.']
EN_FOOT = mc.EN_FOOTERS + ['Posted in Tutorials | 3 comments',
                           'All trademarks belong to their respective owners.']


def t_repost(d, lang, rng, boiler=None):
    paras = list(d['paras'])
    if boiler is None:
        heads, foots = (ZH_HEAD, ZH_FOOT) if lang == 'zh' else (EN_HEAD, EN_FOOT)
        r = rng.random()
        boiler = ([] if r < 0.25 or r > 0.6 else [rng.choice(heads)],
                  [] if r < 0.4 else [rng.choice(foots)] + ([rng.choice(foots)] if r > 0.85 else []))
    return '\n'.join(boiler[0] + paras + boiler[1]), boiler


def sentences(p):
    return [x for x in mc.split_sentences(p) if x.strip()]


def t_edits(d, lang, rng, donor_sents):
    out = []
    for p in d['paras']:
        ss = []
        for s in sentences(p):
            x = rng.random()
            if x < 0.10:
                continue
            if x < 0.18:
                ss.append(rng.choice(donor_sents))
            else:
                ss.append(s)
        if ss:
            out.append(('' if lang == 'zh' else ' ').join(x.strip() for x in ss))
    for _ in range(rng.randint(1, 2)):
        i = rng.randrange(len(out) + 1)
        out.insert(i, rng.choice(donor_sents))
    text = '\n'.join(out)
    chars = list(text)
    if lang == 'en':
        pos = [i for i in range(len(chars) - 1) if chars[i].isalpha() and chars[i + 1].isalpha()]
        for i in rng.sample(pos, min(len(pos), max(2, len(chars) // 300))):
            chars[i], chars[i + 1] = chars[i + 1], chars[i]
    else:
        pos = [i for i, ch in enumerate(chars) if HAN.match(ch)]
        common = '的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经'
        for i in rng.sample(pos, min(len(pos), max(2, len(pos) // 60))):
            chars[i] = rng.choice(common)
    text = ''.join(chars)
    if lang == 'zh' and rng.random() < 0.5:
        text = text.translate(str.maketrans({'，': ',', '。': '.', '：': ':', '；': ';',
                                             '（': '(', '）': ')'}))
    paras = text.split('\n')
    if len(paras) > 2 and rng.random() < 0.5:
        i = rng.randrange(len(paras) - 1)
        paras[i:i + 2] = [('' if lang == 'zh' else ' ').join(paras[i:i + 2])]
    return '\n'.join(paras)


def t_reword(text, lang, rng, vocab, rate):
    """about `rate` of the words replaced by other words (a rewording that
    keeps the sentences: 洗稿, regional vocabulary); Chinese: two-character
    groups of Han characters replaced by Han bigrams of vocab, English: words
    by words of vocab (capitalized as the word they replace)"""
    if lang == 'zh':
        out = []
        i = 0
        while i < len(text):
            if HAN.match(text[i]) and i + 1 < len(text) and HAN.match(text[i + 1]) \
                    and rng.random() < rate / 2:
                out.append(rng.choice(vocab))
                i += 2
            else:
                out.append(text[i])
                i += 1
        return ''.join(out)

    def sub(m):
        w = m.group(0)
        if rng.random() >= rate:
            return w
        v = rng.choice(vocab)
        return v.capitalize() if w[0].isupper() else v
    return re.sub(r'[A-Za-z]{3,}', sub, text)


def reword_vocab(docs, lang):
    """the words a rewording puts in: Han bigrams or English words of docs"""
    words = set()
    for x in docs:
        t = body(x)
        if lang == 'zh':
            for run in re.findall('[\u3400-\u4dbf\u4e00-\u9fff]{2,}', t):
                words.update(run[i:i + 2] for i in range(len(run) - 1))
        else:
            words.update(w.lower() for w in re.findall(r'[A-Za-z]{3,}', t))
    return sorted(words)


def t_partial(d, lang, rng, filler_docs):
    ss = [s.strip() for p in d['paras'] for s in sentences(p)]
    n = len(ss)
    k = max(2, int(n * rng.uniform(0.35, 0.65)))
    start = rng.randrange(max(1, n - k + 1))
    part = ss[start:start + k]
    joiner = '' if lang == 'zh' else ' '
    target = mc.utf8len(body(d))
    need = max(200, target - mc.utf8len(joiner.join(part)))
    fill = []
    while mc.utf8len('\n'.join(fill)) < need:
        f = rng.choice(filler_docs)
        fill.extend(f['paras'][:3])
    cut = rng.randrange(len(fill) + 1)
    return '\n'.join(fill[:cut] + [joiner.join(part)] + fill[cut:])


class Homophones:
    def __init__(self, pool_text, ucd='/usr/share/unicode'):
        rd = make_pinyin_accuracy.readings(ucd)     # toneless readings from Unihan
        used = sorted(set(HAN.findall(pool_text)))
        single = {c: next(iter(rd[c])) for c in used if c in rd and len(rd[c]) == 1}
        by = {}
        for c in sorted(single):
            by.setdefault(single[c], []).append(c)
        self.homo = {c: [x for x in by[single[c]] if x != c] for c in single}
        self.homo = {c: v for c, v in self.homo.items() if v}

    def apply(self, text, rate, rng):
        return ''.join(rng.choice(self.homo[ch]) if ch in self.homo and rng.random() < rate else ch
                       for ch in text)


# --------------------------------------------------------------------------
# HTML templates

def esc(text, rng, zh):
    """Text escaped as a page would: &amp; &lt; &gt;, and some characters as
    references (quotes, NBSP, dashes; a few CJK characters numerically)."""
    s = htmlmod.escape(text, quote=False)
    named = {'\u201c': '&ldquo;', '\u201d': '&rdquo;', '\u2014': '&mdash;', '\u2019': '&rsquo;',
             '\u00a9': '&copy;', '\u2026': '&hellip;', '"': '&quot;'}
    out = []
    for ch in s:
        if ch in named and rng.random() < 0.7:
            out.append(named[ch])
        elif zh and HAN.match(ch) and rng.random() < 0.01:
            out.append('&#%d;' % ord(ch) if rng.random() < 0.5 else '&#x%x;' % ord(ch))
        elif ch == ' ' and rng.random() < 0.03:
            out.append('&nbsp;')
        else:
            out.append(ch)
    return ''.join(out)


NAV = {'zh': ['首页', '新闻', '技术', '教程', '下载', '社区', '关于我们'],
       'en': ['Home', 'News', 'Tutorials', 'Downloads', 'Community', 'About', 'Contact']}
SIDE = {'zh': ['热门文章', '最新评论', '标签云', '友情链接'],
        'en': ['Popular posts', 'Recent comments', 'Tags', 'Friends']}
ADS = {'zh': ['限时特惠：云服务器首年仅需 99 元，立即抢购！', '扫码关注公众号，领取 Linux 学习资料大礼包。',
              '本站推荐：零基础也能学会的运维课程，报名即送电子书。'],
       'en': ['Limited offer: cloud servers from $5/month. Sign up today!',
              'Download our free e-book: 50 Linux tips every admin should know.',
              'Sponsored: the fastest VPN for developers. Try it free for 30 days.']}
ABOUT = {'zh': '本站专注于开源软件与系统管理技术分享，所有文章均来自社区投稿，欢迎转载，请注明出处。',
         'en': 'We write about open source software and system administration. '
               'All articles come from community contributors and may be shared with attribution.'}
COOKIE = {'zh': '本网站使用 Cookie 来改善您的浏览体验。继续浏览即表示您同意我们使用 Cookie。',
          'en': 'This website uses cookies to improve your experience. By continuing to browse, '
                'you agree to our use of cookies.'}
SCRIPT = ('<script type="text/javascript">var _gaq = _gaq || []; _gaq.push([\'_setAccount\', '
          '\'UA-12345-1\']); if (a < b && c > d) { document.write("<div>" + x + "</div>"); }'
          '</script>')
STYLE = ('<style>body{font-family:sans-serif;margin:0} .nav li{display:inline} '
         '#sidebar>div{padding:4px} a:hover{color:#c00}</style>')


def html_page(title, paras, lang, tpl, related, rng):
    """One of four site templates around an article (title, paragraphs)."""
    zh = lang == 'zh'
    nav = ''.join('<li><a href="/c/%d">%s</a></li>' % (i, n) for i, n in enumerate(NAV[lang]))
    rel = ''.join('<li><a href="/a/%d.html">%s</a></li>' % (i, esc(t, rng, zh))
                  for i, t in enumerate(related))
    if tpl % 2 == 0:
        art = ''.join('<p>%s</p>\n' % esc(p, rng, zh) for p in paras)
    else:
        art = '<br><br>\n'.join(esc(p, rng, zh) for p in paras)
    t = esc(title, rng, zh)
    ad = rng.choice(ADS[lang])
    side = SIDE[lang]
    if tpl == 0:            # news portal: HTML5 landmarks
        return ('<!DOCTYPE html><html lang="%s"><head><meta charset="utf-8"><title>%s - 技术新闻网'
                '</title>%s%s</head><body><header class="site-header"><a class="logo" href="/">'
                'TechNews</a><nav class="main-nav"><ul>%s</ul></nav></header>'
                '<div class="ad ad-top"><a href="/ad/1">%s</a></div><main><article>'
                '<h1>%s</h1><div class="meta">2024-05-%02d 10:%02d</div>%s</article>'
                '<section class="related"><h3>%s</h3><ul>%s</ul></section></main>'
                '<aside id="sidebar"><h3>%s</h3><ul>%s</ul><div class="about">%s</div></aside>'
                '<div id="cookie-banner">%s <button>OK</button></div>'
                '<footer><p>&copy; 2024 TechNews. All rights reserved.</p><ul>%s</ul></footer>'
                '%s</body></html>'
                % (lang, t, STYLE, SCRIPT, nav, ad, t, rng.randint(1, 28), rng.randint(0, 59), art,
                   side[0], rel, side[1], rel, ABOUT[lang], COOKIE[lang], nav, SCRIPT))
    if tpl == 1:            # blog: divs with ids/classes, <br><br> paragraphs
        return ('<html><head><title>%s | My Blog</title>%s</head><body>'
                '<div id="header"><h2>My Blog</h2><div class="menu"><ul>%s</ul></div></div>'
                '<div id="wrapper"><div class="post"><h2 class="post-title">%s</h2>'
                '<div class="post-body">%s</div><div class="share">Share: <a href="#">Weibo</a> '
                '<a href="#">Twitter</a></div></div>'
                '<div id="comments"><h3>3 comments</h3><div class="comment">%s</div></div></div>'
                '<div id="sidebar"><div class="widget"><h3>%s</h3><ul>%s</ul></div>'
                '<div class="widget"><p>%s</p></div></div>'
                '<!-- analytics -->%s<div id="footer">Powered by WordPress</div></body></html>'
                % (t, STYLE, nav, t, art, ('写得很好，收藏了！' if zh else 'Great post, thanks!'),
                   side[2], rel, ABOUT[lang], SCRIPT))
    if tpl == 2:            # forum: tables, a post among chrome
        return ('<!DOCTYPE html><html><head><title>%s - 论坛</title>%s%s</head><body>'
                '<table width="100%%" class="nav"><tr>%s</tr></table>'
                '<div class="breadcrumb"><a href="/">Forum</a> &raquo; <a href="/f/3">Linux</a> '
                '&raquo; %s</div><table class="posts"><tr><td class="author">admin<br>'
                'Posts: 1024</td><td class="postbody"><h3>%s</h3><div id="post_1">%s</div>'
                '</td></tr><tr><td class="author">guest</td><td class="postbody">%s</td></tr>'
                '</table><div class="ad"><iframe src="/ads.html">%s</iframe>%s</div>'
                '<form action="/reply"><textarea name="msg"></textarea><button>Reply</button>'
                '</form><div class="footer">Forum software &copy; 2024</div></body></html>'
                % (t, STYLE, SCRIPT, ''.join('<td><a href="/f/%d">%s</a></td>' % (i, n)
                                             for i, n in enumerate(NAV[lang])),
                   t, t, art, ('顶！' if zh else '+1, same here.'), ad, ad))
    # documentation site: role attributes, hidden menus, toc links
    return ('<!DOCTYPE html><html><head><meta http-equiv="Content-Type" content="text/html; '
            'charset=gb2312"><title>%s</title>%s</head><body><div role="banner">Docs</div>'
            '<div role="navigation" class="toc"><ul>%s</ul></div><div class="mobile-menu" '
            'hidden><ul>%s</ul></div><div class="document" role="main"><h1>%s</h1>%s'
            '<div class="prev-next"><a href="/p">&laquo; Previous</a> | <a href="/n">Next '
            '&raquo;</a></div></div><div role="complementary"><p>%s</p></div>'
            '<div role="contentinfo">Last updated 2024. Built with Sphinx.</div>%s</body></html>'
            % (t, STYLE, rel, nav, t, art, ad, SCRIPT))


# --------------------------------------------------------------------------
# the set

def shingle_sim(a, b):
    A, B = mc.shingles(a), mc.shingles(b)
    if not A or not B:
        return 0.0, 0.0
    i = len(A & B)
    return i / len(A | B), i / min(len(A), len(B))


def same_shape(x, v):
    """do two translations of a section have the same shape (paragraph count
    within 20% or 1, length in characters within a factor 1.33)?  Sections
    split differently by the two translations' markup are not pairs."""
    px, pv = len(x['paras']), len(v['paras'])
    lx = len(re.sub(r'\s', '', body(x)))
    lv = len(re.sub(r'\s', '', body(v)))
    return abs(px - pv) <= max(1, 0.2 * max(px, pv)) and 0.75 <= lx / max(lv, 1) <= 1.33


def pick_originals(d, k, rng, skip=frozenset()):
    """up to k sections of 600-5000 bytes spread over the book, pairwise
    dissimilar, none in skip; returns their indexes in d"""
    ok = [i for i, x in enumerate(d) if 600 <= mc.utf8len(body(x)) <= 5000 and i not in skip]
    chosen, sh = [], []
    for i in mc.spread(ok, int(k * 1.5)):
        if len(chosen) >= k:
            break
        s = mc.shingles(body(d[i]))
        if any(len(s & o) / max(1, len(s | o)) >= 0.25 or len(s & o) / max(1, min(len(s), len(o))) >= 0.3
               for o in sh):
            continue
        chosen.append(i)
        sh.append(s)
    return chosen


def neighbours(d, i, n=2, skip=frozenset()):
    """sections near i that share little with it (hard negatives), none in
    skip"""
    out = []
    a = body(d[i])
    for off in (1, -1, 2, -2, 3, -3, 4, -4, 5, -5, 6, -6):
        j = i + off
        if 0 <= j < len(d) and j not in skip and mc.utf8len(body(d[j])) >= 300:
            jac, cont = shingle_sim(a, body(d[j]))
            if jac < 0.25 and cont < 0.3:
                out.append(j)
        if len(out) >= n:
            break
    return out


def real_variants(d, kind, vd):
    """the other version of the sections of d that have one: ({key: other
    version}, [(index in d, other version)])"""
    tw = kind in ('taiwan', 'translation')
    vmap = {}
    for x in vd:
        vmap.setdefault(variant_key(x, tw), x)
    real = []
    for i, x in enumerate(d):
        v = vmap.get(variant_key(x, False))
        if v is None or not (400 <= mc.utf8len(body(x)) <= 6000) \
                or mc.utf8len(body(v)) < 300:
            continue
        if kind == 'revision' and shingle_sim(body(x), body(v))[0] >= 0.95:
            continue        # the same text in both versions
        if tw and not same_shape(x, v):
            continue        # not the same section: its translation differs in shape
        real.append((i, v))
    return vmap, real


def drawn(d, per_book, variant):
    """the sections build(per_book, any seed) draws from a book (variant:
    its real variants' (kind, other versions) or None): originals, real
    variants' sections, and their neighbours (none depends on the seed)"""
    orig = pick_originals(d, per_book, None)
    if variant is not None:
        orig += [i for i, _ in mc.spread(real_variants(d, *variant)[1], per_book)]
    return set(orig) | {j for i in orig for j in neighbours(d, i, 3)}


def build(per_book, seed, fresh_after=None):
    """fresh_after: the per-book of an earlier set: test books only, and
    none of the sections it drew (originals, neighbours, real variants'
    sections and their neighbours)"""
    books, variants, fortunes = load_books()
    pool_zh = open(os.path.join(HERE, '..', 'test', 'data', 'pool_zh.txt'), encoding='utf-8').read()
    homo = Homophones(pool_zh)
    rows = []           # (split, kind, lang, label, book, a, b)
    pending_cc = []     # (row index, 'a'|'b', text, config): opencc conversions done in batch

    def add(split, kind, lang, label, book, a, b):
        rows.append([split, kind, lang, label, book, a, b])
        return len(rows) - 1

    reword_jobs = []    # written after all books: the pairs above keep their ids
    donors = {}
    for book, lang, split, d in books:
        donors.setdefault((split, lang), []).append((book, d))
    for bi, (book, lang, split, d) in enumerate(books):
        if fresh_after is not None and split != 'test':
            continue
        skip = drawn(d, fresh_after, variants.get(book)) if fresh_after is not None else frozenset()
        rng = random.Random('%d/%s' % (seed, book))
        others = [x for b, dd in donors[(split, lang)] if b != book for x in dd
                  if mc.utf8len(body(x)) >= 300]
        donor_sents = [s.strip() for x in others[::7] for p in x['paras'] for s in sentences(p)
                       if 10 <= mc.utf8len(s) <= 300]
        kinds = (['repost', 's2t', 'homophone', 'html', 'edits', 'partial'] if lang == 'zh'
                 else ['repost', 'html', 'edits', 'partial'])
        orig = pick_originals(d, per_book, rng, skip)
        log('%-22s %-5s %3d sections, %3d originals' % (book, split, len(d), len(orig)))
        for n_o, i in enumerate(orig):
            a = body(d[i])
            nb = neighbours(d, i, 3, skip)
            if len(nb) < 2:
                continue
            if n_o % 3 == 0:
                reword_jobs.append((book, lang, split, d, i, nb, others))
            add(split, 'neighbour', lang, 'f', book, a, body(d[nb[0]]))
            for kk in range(2):
                kind = kinds[(n_o * 2 + kk + bi) % len(kinds)]
                x, y = d[nb[kk % len(nb)]], d[nb[(kk + 1) % len(nb)]]
                if kind == 'repost':
                    b, boiler = t_repost(d[i], lang, rng)
                    add(split, kind, lang, 't', book, a, b)
                    bx, _ = t_repost(x, lang, rng, boiler)
                    add(split, kind, lang, 'f', book, b, bx)
                    add(split, kind, lang, 'f', book, a, bx)
                elif kind == 's2t':
                    cfg = 's2tw.json' if rng.random() < 1 / 3 else 's2t.json'
                    r = add(split, kind, lang, 't', book, a, None)
                    pending_cc.append((r, 6, a, cfg))
                    r = add(split, kind, lang, 'f', book, a, None)
                    pending_cc.append((r, 6, body(x), cfg))
                    r = add(split, kind, lang, 'f', book, None, None)
                    pending_cc.append((r, 5, a, cfg))
                    pending_cc.append((r, 6, body(y), cfg))
                elif kind == 'homophone':
                    rate = (0.05, 0.10, 0.15)[rng.randrange(3)]
                    add(split, kind, lang, 't', book, a, homo.apply(a, rate, rng))
                    add(split, kind, lang, 'f', book, a, homo.apply(body(x), rate, rng))
                    add(split, kind, lang, 'f', book, homo.apply(a, rate, rng),
                        homo.apply(body(y), rate, rng))
                elif kind == 'html':
                    tpl = rng.randrange(4)
                    rel = [d[j]['title'] for j in rng.sample(range(len(d)), min(5, len(d)))]
                    b = html_page(d[i]['title'], d[i]['paras'], lang, tpl, rel, rng)
                    add(split, kind, lang, 't', book, a, b)
                    bx = html_page(x['title'], x['paras'], lang, tpl, rel, rng)
                    add(split, kind, lang, 'f', book, b, bx)
                    add(split, kind, lang, 'f', book, a, html_page(y['title'], y['paras'], lang,
                                                                   tpl, rel, rng))
                elif kind == 'edits':
                    add(split, kind, lang, 't', book, a, t_edits(d[i], lang, rng, donor_sents))
                    add(split, kind, lang, 'f', book, a, t_edits(x, lang, rng, donor_sents))
                    add(split, kind, lang, 'f', book, a, t_edits(y, lang, rng, donor_sents))
                elif kind == 'partial':
                    add(split, kind, lang, 't', book, a, t_partial(d[i], lang, rng, others))
                    add(split, kind, lang, 'f', book, a, t_partial(x, lang, rng, others))
                    add(split, kind, lang, 'f', book, a, t_partial(y, lang, rng, others))
        # real variants of the book's sections
        if book in variants:
            kind, vd = variants[book]
            vmap, real = real_variants(d, kind, vd)
            real = [(i, v) for i, v in real if i not in skip]
            for i, v in mc.spread(real, per_book):
                nb = [j for j in neighbours(d, i, 3, skip) if vmap.get(variant_key(d[j], False))]
                add(split, kind, lang, 't', book, body(d[i]), body(v))
                for j in nb[:2]:
                    add(split, kind, lang, 'f', book, body(d[i]), body(vmap[variant_key(d[j], False)]))
        if book == 'reference-zh':
            # Debian Reference 2.73 sections in fortunes-zh against 2.100
            by_title = {}
            for i, x in enumerate(d):
                by_title.setdefault(mc.strip_secnum(x['title']), i)
            for f in fortunes:
                i = by_title.get(mc.strip_secnum(f['title']))
                if i is None or mc.utf8len(body(f)) < 300:
                    continue
                if shingle_sim(body(d[i]), body(f))[0] >= 0.95:
                    continue
                add(split, 'revision', lang, 't', book, body(d[i]), body(f))
                for j in neighbours(d, i, 2):
                    add(split, 'revision', lang, 'f', book, body(d[j]), body(f))
    # rewordings (a random stream of their own, so the pairs above are as
    # before): a third of the originals of each book
    vocabs = {}
    for book, lang, split, d, i, nb, others in reword_jobs:
        rng = random.Random('%d/%s/reword/%d' % (seed, book, i))
        if book not in vocabs:
            vocabs[book] = reword_vocab(others[::7], lang)
        vocab = vocabs[book]
        rate = (0.10, 0.15, 0.20)[rng.randrange(3)]
        a = body(d[i])
        add(split, 'reword', lang, 't', book, a, t_reword(a, lang, rng, vocab, rate))
        for j in nb[:2]:
            add(split, 'reword', lang, 'f', book, a, t_reword(body(d[j]), lang, rng, vocab, rate))
    # opencc in two batches
    for cfg in ('s2t.json', 's2tw.json'):
        todo = [(r, col, t) for r, col, t, c in pending_cc if c == cfg]
        for (r, col, _), out in zip(todo, opencc_many([t for _, _, t in todo], cfg)):
            rows[r][col] = out
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--per-book', type=int, default=40)
    ap.add_argument('--seed', type=int, default=SEED)
    ap.add_argument('--stats', action='store_true')
    ap.add_argument('--fresh', action='store_true',
                    help='a fresh sample: test books only (split "fresh"), none of the sections '
                    'that the default --per-book draws (originals, neighbours, real variants)')
    a = ap.parse_args()
    rows = build(a.per_book, a.seed, ap.get_default('per_book') if a.fresh else None)
    if a.fresh:
        for r in rows:
            r[0] = 'fresh'

    if a.stats:
        from collections import Counter
        c = Counter((r[0], r[1], r[3]) for r in rows)
        for k in sorted(c):
            print('%-6s %-10s %s %5d' % (k + (c[k],)))
        print('pairs', len(rows), 'positives', sum(r[3] == 't' for r in rows))
        return
    w = sys.stdout.write
    for n, r in enumerate(rows, 1):
        w('%d\t%s\n' % (n, '\t'.join(mc.copy_escape(x) for x in r)))


if __name__ == '__main__':
    main()
