#!/usr/bin/env python3
"""Regenerate textfp's committed text data from installed Debian packages.

Writes (relative to the repository root):
  test/data/corpus.tsv        sample corpus: id, lang, source, title, body
  test/data/corpus_truth.tsv  reposts: id, original_id, transformation
  test/data/pool_zh.txt       Chinese paragraph pool for tools/make_bench_docs.py
  test/data/pool_en.txt       English paragraph pool for tools/make_bench_docs.py

Needs: python3 (standard library only), the Debian packages in PACKAGES, and
the `diatheke` and `opencc` programs they provide.  Run as root it installs
missing packages itself with apt-get.  Everything is deterministic: the same
package versions give byte-identical output.  See test/data/README.md.

Usage: tools/make_corpus.py [--outdir DIR] [--no-install]
"""

import argparse
import glob
import gzip
import html
import html.parser
import os
import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

# --------------------------------------------------------------------------
# Packages and the versions the committed files were made from.
PACKAGES = {
    'debian-handbook': '11.20220922',
    'debian-reference-zh-cn': '2.100',
    'debian-reference-zh-tw': '2.100',
    'debian-reference-en': '2.100',
    'installation-guide-amd64': '20230508+deb12u1',
    'installation-guide-arm64': '20230508+deb12u1',
    'maint-guide': '1.2.53',
    'maint-guide-zh-cn': '1.2.53',
    'maint-guide-zh-tw': '1.2.53',
    'libreoffice-help-zh-cn': '4:7.4.7-1+deb12u14',
    'gnome-user-docs': '43.0-2',
    'debian-edu-doc-zh-cn': '2.12.23~deb12u1',
    'debian-edu-doc-en': '2.12.23~deb12u1',
    'fortunes-zh': '2.98',
    'sword-text-web': '426.0-1',
    'sword-text-kjv': '14.3-1',
    'diatheke': '1.9.0+dfsg-4+b4',
    'opencc': '1.1.6+ds1-1',
}

SEED = 20240607

HAN = '\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff'
CJK_PUNCT = '\u3000-\u303f\uff00-\uffef\u2018-\u201d\u2026\u2014\u00b7'
RE_HAN = re.compile('[' + HAN + ']')
RE_CJK = '[' + HAN + CJK_PUNCT + ']'
RE_NL_BETWEEN_CJK = re.compile('(?<=' + RE_CJK + r')\s*\n\s*(?=' + RE_CJK + ')')
RE_WS = re.compile(r'\s+')


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# --------------------------------------------------------------------------
# Package handling

def installed_version(pkg):
    r = subprocess.run(['dpkg-query', '-W', '-f=${db:Status-Status} ${Version}', pkg],
                       capture_output=True, text=True)
    if r.returncode != 0:
        return None
    st, _, ver = r.stdout.partition(' ')
    return ver if st == 'installed' else None


def ensure_packages(allow_install):
    missing = [p for p in PACKAGES if installed_version(p) is None]
    if missing:
        if not allow_install or os.geteuid() != 0:
            sys.exit('missing Debian packages (install them as root): apt-get install '
                     + ' '.join(missing))
        log('installing:', ' '.join(missing))
        env = dict(os.environ, DEBIAN_FRONTEND='noninteractive')
        subprocess.run(['apt-get', 'update'], check=True, env=env,
                       stdout=subprocess.DEVNULL)
        subprocess.run(['apt-get', 'install', '-y', '--no-install-recommends'] + missing,
                       check=True, env=env, stdout=subprocess.DEVNULL)
    for p, want in PACKAGES.items():
        have = installed_version(p)
        if have != want:
            log('WARNING: %s is %s, the committed data was made from %s; output will differ'
                % (p, have, want))


# --------------------------------------------------------------------------
# Text normalisation

def norm_text(s):
    """Collapse whitespace; a line break between two CJK characters vanishes."""
    s = s.replace('\u00a0', ' ').replace('\t', ' ')
    s = RE_NL_BETWEEN_CJK.sub('', s)
    return RE_WS.sub(' ', s).strip()


def han_count(s):
    return len(RE_HAN.findall(s))


def looks_like_code(s):
    t = s.strip()
    if re.match(r'^[$#%>] ', t):
        return True
    sym = sum(t.count(c) for c in '{}[]<>=;|\\$/_*&')
    return sym > 0.08 * max(len(t), 1)


def keep_para(s, lang, strict=False):
    """Is paragraph s running text of language lang (not code, not a table)?"""
    if not s or looks_like_code(s):
        return False
    chars = len(s.replace(' ', ''))
    if lang == 'zh':
        h = han_count(s)
        if strict:
            return h >= 8 and h >= 0.35 * chars
        return h >= 3 and h >= 0.2 * chars
    if han_count(s):
        return False
    letters = sum(ch.isalpha() for ch in s)
    words = len(s.split())
    if strict:
        return words >= 6 and letters >= 0.72 * chars
    return words >= 3 and letters >= 0.6 * chars


# --------------------------------------------------------------------------
# HTML -> list of blocks ('h', level, text) / ('p', 0, text)

BLOCK_TAGS = {'p', 'div', 'li', 'dt', 'dd', 'td', 'th', 'tr', 'title', 'blockquote',
              'section', 'article', 'ul', 'ol', 'dl', 'table', 'br', 'caption',
              'figcaption', 'main', 'body', 'html', 'hr', 'figure'}
HEAD_TAGS = {'h1': 1, 'h2': 2, 'h3': 3, 'h4': 4, 'h5': 5, 'h6': 6}
SKIP_TAGS = {'head', 'script', 'style', 'pre', 'noscript', 'header', 'footer', 'aside',
             'nav', 'table', 'button', 'select', 'textarea', 'svg', 'math', 'code'}
SKIP_CLASSES = {'navheader', 'navfooter', 'toc', 'relatedtopics', 'debug', 'docnav',
                'screen', 'programlisting', 'synopsis', 'literallayout', 'list-of-tables',
                'list-of-figures', 'list-of-examples', 'index', 'bascode', 'howtoget',
                'legalnotice', 'revhistory', 'authorgroup', 'table', 'informaltable',
                'figure', 'mediaobject', 'cmdsynopsis', 'funcsynopsis', 'contents-treeview',
                'example', 'informalexample'}
SKIP_IDS = {'DEBUG', 'SearchFrame', 'DonationFrame', 'TopLeftHeader', 'Contents',
            'Bookmarks'}
VOID_TAGS = {'br', 'img', 'meta', 'link', 'hr', 'input', 'col', 'area', 'base', 'wbr',
             'source', 'embed', 'param', 'track'}


class BlockParser(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []          # (tag, skipping)
        self.skip = 0
        self.buf = []
        self.kind = ('p', 0)
        self.blocks = []

    def flush(self):
        t = norm_text(''.join(self.buf))
        self.buf = []
        if t:
            self.blocks.append((self.kind[0], self.kind[1], t))
        self.kind = ('p', 0)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        classes = set((a.get('class') or '').split())
        sk = (tag in SKIP_TAGS or bool(classes & SKIP_CLASSES)
              or a.get('id') in SKIP_IDS)
        if tag == 'code' and 'code' in SKIP_TAGS:
            sk = False   # inline <code> is part of a sentence; block code is in <pre>
        if tag in BLOCK_TAGS or tag in HEAD_TAGS:
            if not self.skip:
                self.flush()
            if tag in HEAD_TAGS:
                self.kind = ('h', HEAD_TAGS[tag])
        if tag == 'br':
            return
        if tag in VOID_TAGS:
            return
        self.stack.append((tag, sk))
        if sk:
            self.skip += 1

    def handle_endtag(self, tag):
        if tag in VOID_TAGS:
            return
        if not any(t == tag for t, _ in self.stack):
            return
        while self.stack:
            t, sk = self.stack.pop()
            if sk:
                self.skip -= 1
            if t == tag:
                break
        if (tag in BLOCK_TAGS or tag in HEAD_TAGS) and not self.skip:
            self.flush()

    def handle_data(self, data):
        if not self.skip:
            self.buf.append(data)

    def close(self):
        super().close()
        self.flush()


def html_blocks(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        p = BlockParser()
        p.feed(f.read())
        p.close()
    return p.blocks


# Mallard (.page) help files of gnome-user-docs
MAL = '{http://projectmallard.org/1.0/}'
MAL_SKIP = {'info', 'screen', 'code', 'comment', 'media', 'links', 'example', 'synopsis',
            'table', 'note-title'}


def mallard_blocks(path):
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError:
        return []
    out = []

    def text_of(el):
        parts = []

        def rec(e):
            if e.text:
                parts.append(e.text)
            for c in e:
                if c.tag.replace(MAL, '') not in ('comment',):
                    rec(c)
                if c.tail:
                    parts.append(c.tail)
        rec(el)
        return norm_text(''.join(parts))

    def walk(el, depth):
        for c in el:
            name = c.tag.replace(MAL, '')
            if name in MAL_SKIP:
                continue
            if name == 'title':
                t = text_of(c)
                if t:
                    out.append(('h', depth, t) if el.tag in (MAL + 'page', MAL + 'section')
                               else ('p', 0, t))
            elif name == 'p':
                t = text_of(c)
                if t:
                    out.append(('p', 0, t))
            else:
                walk(c, depth + (1 if name == 'section' else 0))
    walk(root, 1)
    return out


# --------------------------------------------------------------------------
# Blocks -> sections (title, [paragraphs])

def sections_from_blocks(blocks, lang, strict=False, min_level=9):
    """Split at every heading; keep paragraphs that are running text."""
    secs = []
    cur = None
    for kind, level, text in blocks:
        if kind == 'h':
            cur = {'title': text, 'paras': [], 'level': level}
            secs.append(cur)
        elif cur is not None and keep_para(text, lang, strict):
            cur['paras'].append(text)
    return [s for s in secs if s['paras']]


def utf8len(s):
    return len(s.encode('utf-8'))


def body_of(paras):
    return '\n'.join(paras)


def cut_paras(paras, limit):
    """Leading paragraphs whose joined size is <= limit (at least one, cut if needed)."""
    out, n = [], 0
    for p in paras:
        add = utf8len(p) + (1 if out else 0)
        if n + add > limit:
            break
        out.append(p)
        n += add
    if not out:
        out = [cut_sentences(paras[0], limit)]
    return out


RE_SENT_END = re.compile(r'(?<=[。！？!?；])|(?<=[.;:])(?= )')


def split_sentences(p):
    parts = [x for x in RE_SENT_END.split(p)]
    return [x for x in parts if x.strip()]


def cut_sentences(p, limit):
    out = ''
    for s in split_sentences(p):
        if utf8len(out + s) > limit:
            break
        out += s
    if not out:
        b = p.encode('utf-8')[:limit]
        out = b.decode('utf-8', 'ignore')
    return out.strip()


def make_docs(secs, minb=300, maxb=6000, merge_to=800):
    """Merge small consecutive sections; cut big ones.  Returns (title, paras)."""
    docs = []
    i = 0
    while i < len(secs):
        title = secs[i]['title']
        paras = list(secs[i]['paras'])
        j = i + 1
        while utf8len(body_of(paras)) < merge_to and j < len(secs) \
                and secs[j]['level'] >= secs[i]['level']:
            paras.append(secs[j]['title'])
            paras.extend(secs[j]['paras'])
            j += 1
        i = j
        paras = cut_paras(paras, maxb)
        if utf8len(body_of(paras)) >= minb:
            docs.append((title, paras))
    return docs


# --------------------------------------------------------------------------
# Sources

def handbook(lang):
    d = {'zh': 'zh-CN', 'zh-tw': 'zh-TW', 'en': 'en-US'}[lang]
    files = sorted(glob.glob('/usr/share/doc/debian-handbook/html/%s/*.html' % d))
    out = []
    for f in files:
        if os.path.basename(f) in ('index.html',):
            continue
        out.append((f, html_blocks(f)))
    return out


def docbook_files(pattern):
    return [(f, html_blocks(f)) for f in sorted(glob.glob(pattern))]


def reference(lang):
    return docbook_files('/usr/share/debian-reference/ch*.%s.html' % lang)


def install_guide(arch, lang):
    d = {'zh': 'zh_CN', 'en': 'en'}[lang]
    return docbook_files('/usr/share/doc/installation-guide-%s/%s/ch*.html' % (arch, d))


def maint_guide(lang):
    if lang == 'en':
        return docbook_files('/usr/share/doc/maint-guide/html/*.en.html')
    return docbook_files('/usr/share/doc/maint-guide-%s/html/*.%s.html' % (lang, lang))


def edu_manual(lang):
    d = {'zh': 'debian-edu-doc-zh-cn', 'en': 'debian-edu-doc-en'}[lang]
    return docbook_files('/usr/share/doc/%s/debian-edu-bookworm-manual.html' % d)


def gnome_help(lang):
    d = {'zh': 'zh_CN', 'en': 'C'}[lang]
    return [(f, mallard_blocks(f))
            for f in sorted(glob.glob('/usr/share/help/%s/gnome-help/*.page' % d))]


def libreoffice_help():
    files = sorted(glob.glob('/usr/share/libreoffice/help/zh-CN/text/**/*.html',
                             recursive=True))
    return [(f, html_blocks(f)) for f in files]


RE_ANSI = re.compile(r'\x1b\[[0-9;]*m')
BOX = re.compile('[\u2500-\u257f]')


def unwrap_lines(lines):
    """Join hard-wrapped lines of one paragraph."""
    out = ''
    for ln in lines:
        ln = ln.strip()
        if not ln:
            continue
        if out and not (re.match(RE_CJK, out[-1]) or re.match(RE_CJK, ln[0])):
            out += ' '
        out += ln
    return out


def fortunes_entries(name):
    with open('/usr/share/games/fortunes/' + name, encoding='utf-8') as f:
        raw = f.read()
    return [RE_ANSI.sub('', e) for e in raw.split('\n%\n')]


def fortunes_reference_273():
    """Debian Reference 2.73 sections that fortunes-zh ships as fortunes."""
    out = []
    for e in fortunes_entries('chinese'):
        if 'Debian 参考手册（版本 2.73）' not in e:
            continue
        lines = e.split('\n')
        title = lines[0].strip()
        body_lines = [ln for ln in lines[1:] if not ln.strip().startswith('--')]
        paras, cur = [], []
        for ln in body_lines:
            if BOX.search(ln):
                continue
            if not ln.strip() or re.match(r'^\s*\*\s', ln):
                if cur:
                    paras.append(unwrap_lines(cur))
                cur = []
                if ln.strip():
                    cur = [ln.strip()[1:]]
                continue
            cur.append(ln)
        if cur:
            paras.append(unwrap_lines(cur))
        paras = [norm_text(p) for p in paras if keep_para(norm_text(p), 'zh')]
        if paras:
            out.append((title, paras))
    return out


def classical_poems():
    """tang300 / song100 of fortunes-zh: (file, title, author, poem lines) in file order."""
    out = []
    for name in ('tang300', 'song100'):
        for e in fortunes_entries(name):
            lines = [ln.strip() for ln in e.strip().split('\n') if ln.strip()]
            if len(lines) < 3:
                continue
            title = re.sub(r'^题目[:：]', '', lines[0])
            author = re.sub(r'^作者[:：]', '', lines[1])
            out.append((name, title, author, lines[2:]))
    return out


BIBLE_BOOKS = ['Genesis', 'Exodus', 'Joshua', 'Judges', 'Ruth', 'I Samuel', 'II Samuel',
               'I Kings', 'II Kings', 'Esther', 'Job', 'Jonah', 'Daniel', 'Matthew',
               'Mark', 'Luke', 'John', 'Acts']


def bible_chapters(module, books):
    """[(title, [verse texts])] for each chapter of the given books."""
    out = []
    for book in books:
        r = subprocess.run(['diatheke', '-b', module, '-f', 'OSIS', '-k', book],
                           capture_output=True, text=True, check=True)
        chap = {}
        order = []
        for ln in r.stdout.split('\n'):
            m = re.match(r'^(.+?) (\d+):(\d+): (.*)$', ln)
            if not m:
                continue
            name, c, text = m.group(1), int(m.group(2)), m.group(4)
            text = text.replace('</w><w>', '</w> <w>')
            text = re.sub(r'<note\b.*?</note>', '', text)
            text = html.unescape(re.sub(r'<[^>]+>', '', text))
            text = norm_text(text)
            key = '%s %d' % (name, c)
            if key not in chap:
                chap[key] = []
                order.append(key)
            if text:
                chap[key].append(text)
        out.extend((k, chap[k]) for k in order)
    return out


# --------------------------------------------------------------------------
# Similarity (used to keep originals apart and to select real reposts)

def shingles(s, k=4):
    s = re.sub(r'[\s\W_]+', '', s.lower())
    return {s[i:i + k] for i in range(max(len(s) - k + 1, 1))}


def jaccard(a, b):
    if not a or not b:
        return 0.0
    return len(a & b) / len(a | b)


# --------------------------------------------------------------------------
# Simulated reposts

# Homophone / near-homophone pairs commonly confused in Chinese writing.
HOMOPHONES = {
    '在': '再', '再': '在', '做': '作', '作': '做', '已': '以', '以': '已',
    '像': '象', '即': '既', '的': '地', '地': '得', '他': '她', '那': '哪',
    '期': '其', '其': '期', '是': '事', '和': '合', '式': '试', '件': '键',
    '及': '级', '须': '需', '需': '须', '份': '分', '载': '在', '制': '治',
    '定': '订', '程': '成', '序': '续', '型': '形', '设': '社', '配': '佩',
    '系': '细', '理': '里', '运': '云', '行': '形', '文': '问', '用': '拥',
    '到': '道', '道': '到', '动': '东', '时': '石', '会': '汇', '可': '克',
    '新': '心', '户': '护', '意': '义', '义': '意', '启': '起', '部': '布',
}

ZH_FOOTERS = [
    '（本文转载自网络，版权归原作者所有，如有侵权请联系删除。）',
    '更多精彩内容，欢迎关注我们的公众号，每天为你推送实用技巧。',
    '责任编辑：小林　　来源：网友投稿',
    '声明：本站部分文章来自互联网，仅供学习交流使用，转载请注明出处。',
]
ZH_HEADERS = [
    '【转载】',
    '原创不易，点个赞再走吧！',
]
EN_FOOTERS = [
    'This article was originally published elsewhere and is reposted here with minor edits.',
    'Subscribe to our newsletter for more articles like this one, delivered every week.',
    'Copyright (c) the respective authors. Shared for educational purposes only.',
    'Share this post with your friends if you found it useful!',
]
EN_HEADERS = [
    'REPOST:',
    'Sponsored content - read on for the full story.',
]
EN_SWAPS = {
    'the': 'a', 'is': 'was', 'and': 'as well as', 'can': 'may', 'use': 'utilize',
    'you': 'one', 'said': 'spoke', 'which': 'that', 'also': 'too', 'file': 'document',
    'system': 'machine', 'help': 'assist', 'show': 'display', 'large': 'big',
    'begin': 'start', 'many': 'numerous', 'often': 'frequently', 'to': 'in order to',
    'into': 'in', 'upon': 'on', 'unto': 'to', 'shall': 'will', 'thee': 'you',
}


def opencc(text, config='s2t.json'):
    r = subprocess.run(['opencc', '-c', config], input=text, capture_output=True,
                       text=True, check=True)
    return r.stdout.rstrip('\n')


def t_homophones(paras, rng, frac=0.03):
    body = body_of(paras)
    idx = [i for i, ch in enumerate(body) if ch in HOMOPHONES]
    k = max(3, int(frac * han_count(body)))
    pick = set(rng.sample(idx, min(k, len(idx))))
    out = ''.join(HOMOPHONES[ch] if i in pick else ch for i, ch in enumerate(body))
    return out.split('\n'), 'homophones(%d chars)' % len(pick)


def t_en_words(paras, rng, frac=0.04):
    body = body_of(paras)
    toks = re.split(r'(\W+)', body)
    idx = [i for i, t in enumerate(toks) if t.lower() in EN_SWAPS]
    k = max(3, int(frac * len(body.split())))
    pick = rng.sample(idx, min(k, len(idx)))
    for i in pick:
        w = EN_SWAPS[toks[i].lower()]
        toks[i] = w.capitalize() if toks[i][:1].isupper() else w
    return ''.join(toks).split('\n'), 'word-substitution(%d words)' % len(pick)


def t_typos(paras, rng, n=6):
    body = list(body_of(paras))
    pos = [i for i in range(len(body) - 1) if body[i].isalpha() and body[i + 1].isalpha()
           and body[i] != body[i + 1]]
    pick = rng.sample(pos, min(n, len(pos)))
    for i in pick:
        body[i], body[i + 1] = body[i + 1], body[i]
    return ''.join(body).split('\n'), 'typos(%d swapped letters)' % len(pick)


def all_sentences(paras):
    return [(pi, s) for pi, p in enumerate(paras) for s in split_sentences(p)]


def t_delete_sentence(paras, rng):
    sents = all_sentences(paras)
    if len(sents) < 4:
        return None
    drop = rng.randrange(len(sents))
    out = [''] * len(paras)
    for i, (pi, s) in enumerate(sents):
        if i != drop:
            out[pi] += s
    return [p.strip() for p in out if p.strip()], 'delete-sentence'


def t_insert_sentence(paras, rng, donor):
    dsents = [s for _, s in all_sentences(donor) if 10 <= utf8len(s) <= 300]
    if not dsents:
        return None
    s = rng.choice(dsents).strip()
    out = list(paras)
    i = rng.randrange(len(out))
    sep = '' if RE_HAN.search(s) else ' '
    out[i] = out[i] + sep + s
    return out, 'insert-sentence'


def t_reorder(paras, rng):
    if len(paras) < 3:
        return None
    out = list(paras)
    while out == paras:
        rng.shuffle(out)
    return out, 'reorder-paragraphs'


def t_footer(paras, rng, lang):
    f = rng.choice(ZH_FOOTERS if lang == 'zh' else EN_FOOTERS)
    return list(paras) + [f], 'append-footer'


def t_header(paras, rng, lang):
    h = rng.choice(ZH_HEADERS if lang == 'zh' else EN_HEADERS)
    return [h] + list(paras), 'prepend-header'


def t_truncate(paras, rng):
    body = body_of(paras)
    keep = int(len(body) * rng.uniform(0.8, 0.9))
    return body[:keep].rstrip().split('\n'), 'truncate(%d%%)' % round(100 * keep / len(body))


def t_halfwidth(paras, rng):
    tr = str.maketrans({'，': ',', '。': '.', '：': ':', '；': ';', '（': '(', '）': ')',
                        '！': '!', '？': '?', '“': '"', '”': '"', '「': '"', '」': '"'})
    return [p.translate(tr) for p in paras], 'halfwidth-punctuation'


def t_s2t(paras, rng):
    return opencc(body_of(paras)).split('\n'), 'opencc-s2t'


def t_merge_paragraphs(paras, rng):
    if len(paras) < 2:
        return None
    sep = '' if RE_HAN.search(paras[0]) else ' '
    return [sep.join(paras)], 'merge-paragraphs'


ZH_RECIPES = [
    ['homophones'], ['s2t'], ['footer'], ['delete', 'footer'], ['insert'],
    ['reorder'], ['halfwidth', 'footer'], ['homophones', 'header'], ['truncate'],
    ['s2t', 'footer'], ['merge', 'homophones'], ['delete', 'delete'],
]
EN_RECIPES = [
    ['words'], ['typos'], ['footer'], ['delete', 'footer'], ['insert'], ['reorder'],
    ['header', 'footer'], ['truncate'], ['words', 'footer'], ['merge', 'typos'],
    ['delete', 'delete'], ['insert', 'words'],
]


def apply_recipe(recipe, paras, lang, rng, donor):
    names = []
    cur = list(paras)
    for step in recipe:
        if step == 'homophones':
            r = t_homophones(cur, rng)
        elif step == 's2t':
            r = t_s2t(cur, rng)
        elif step == 'footer':
            r = t_footer(cur, rng, lang)
        elif step == 'header':
            r = t_header(cur, rng, lang)
        elif step == 'delete':
            r = t_delete_sentence(cur, rng)
        elif step == 'insert':
            r = t_insert_sentence(cur, rng, donor)
        elif step == 'reorder':
            r = t_reorder(cur, rng)
        elif step == 'halfwidth':
            r = t_halfwidth(cur, rng)
        elif step == 'truncate':
            r = t_truncate(cur, rng)
        elif step == 'merge':
            r = t_merge_paragraphs(cur, rng)
        elif step == 'words':
            r = t_en_words(cur, rng)
        elif step == 'typos':
            r = t_typos(cur, rng)
        else:
            raise ValueError(step)
        if r is None:
            return None
        cur, name = r
        names.append(name)
    return cur, 'simulated:' + '+'.join(names)


# --------------------------------------------------------------------------
# Corpus assembly

def spread(items, k):
    """k items evenly spread over the list (deterministic)."""
    if len(items) <= k:
        return list(items)
    step = len(items) / k
    return [items[int(i * step)] for i in range(k)]


def docs_from_files(files, lang, strict=False, **kw):
    docs = []
    for path, blocks in files:
        for title, paras in make_docs(sections_from_blocks(blocks, lang, strict), **kw):
            docs.append({'title': title, 'paras': paras, 'path': path})
    return docs


def strip_secnum(t):
    return re.sub(r'^(第\s*\d+\s*章|[A-Z]?\d+(\.\d+)*\.?|附录\s*[A-Z]\.?)\s*', '', t).strip()


def build(outdir):
    rng = random.Random(SEED)
    rows = []       # dicts: lang, source, title, paras, key
    truth = []      # (repost_key, original_key, transformation)

    def add(lang, source, title, paras, key):
        rows.append({'lang': lang, 'source': source, 'title': norm_text(title),
                     'paras': [p for p in paras if p], 'key': key})

    # ---- Chinese originals
    log('reading Chinese sources')
    zh_sets = [
        ('debian-handbook-zh', docs_from_files(handbook('zh'), 'zh', strict=True), 60),
        ('libreoffice-help-zh', docs_from_files(libreoffice_help(), 'zh', strict=True,
                                                merge_to=600), 45),
        ('install-guide-zh', docs_from_files(install_guide('amd64', 'zh'), 'zh'), 20),
        ('maint-guide-zh', docs_from_files(maint_guide('zh-cn'), 'zh'), 12),
        ('debian-edu-zh', docs_from_files(edu_manual('zh'), 'zh', strict=True), 10),
        ('gnome-help-zh', docs_from_files(gnome_help('zh'), 'zh', strict=True), 18),
    ]
    ref_zh = docs_from_files(reference('zh-cn'), 'zh')
    # ---- English originals
    log('reading English sources')
    en_sets = [
        ('debian-handbook-en', docs_from_files(handbook('en'), 'en', strict=True), 50),
        ('install-guide-en', docs_from_files(install_guide('amd64', 'en'), 'en'), 18),
        ('debian-reference-en', docs_from_files(reference('en'), 'en'), 20),
        ('maint-guide-en', docs_from_files(maint_guide('en'), 'en'), 8),
        ('gnome-help-en', docs_from_files(gnome_help('en'), 'en', strict=True), 18),
    ]
    web = [(t, v) for t, v in bible_chapters('engWEB2015eb',
                                            ['Genesis', 'Ruth', 'I Samuel', 'Luke', 'Acts'])]
    kjv = [(t, v) for t, v in bible_chapters('engKJV2006eb',
                                            ['Exodus', 'Esther', 'Jonah', 'Mark'])]

    def bible_docs(chs):
        out = []
        for t, verses in chs:
            paras = []
            cur = ''
            for v in verses:   # ~5 verses a paragraph
                cur = (cur + ' ' + v).strip()
                if utf8len(cur) > 500:
                    paras.append(cur)
                    cur = ''
            if cur:
                paras.append(cur)
            paras = cut_paras(paras, 6000)
            if utf8len(body_of(paras)) >= 300:
                out.append({'title': t, 'paras': paras, 'path': ''})
        return out
    en_sets.append(('web-bible', bible_docs(web), 45))
    en_sets.append(('kjv', bible_docs(kjv), 20))

    # ---- real reposts first: Debian Reference 2.100 vs copies elsewhere
    log('pairing real duplicates')
    real_pairs = []   # (lang, src_o, doc_o, src_r, doc_r, label)

    ref_by_title = {}
    for d in ref_zh:
        ref_by_title.setdefault(strip_secnum(d['title']), d)
    cands = []
    for title, paras in fortunes_reference_273():
        o = ref_by_title.get(strip_secnum(title))
        if not o:
            continue
        j = jaccard(shingles(body_of(o['paras'])), shingles(body_of(paras)))
        if 0.4 <= j < 0.97 and 300 <= utf8len(body_of(paras)) <= 6000:
            cands.append((j, title, paras, o))
    for j, title, paras, o in spread(sorted(cands, key=lambda c: c[1]), 10):
        real_pairs.append(('zh', 'debian-reference-zh', o,
                           'fortunes-zh', {'title': title, 'paras': paras},
                           'real:Debian Reference 2.73 section as shipped in fortunes-zh'
                           ' (file chinese) vs debian-reference-zh-cn 2.100'))
    # zh-tw translation of the same Debian Reference sections
    ref_tw = docs_from_files(reference('zh-tw'), 'zh')
    tw_by_title = {}
    for d in ref_tw:
        tw_by_title.setdefault(strip_secnum(opencc(d['title'], 't2s.json')), d)
    cands = []
    for o in ref_zh:
        r = tw_by_title.get(strip_secnum(o['title']))
        if not r:
            continue
        j = jaccard(shingles(body_of(o['paras'])),
                    shingles(opencc(body_of(r['paras']), 't2s.json')))
        if 0.5 <= j < 0.97:
            cands.append((o, r))
    used = {id(p[2]) for p in real_pairs}
    cands = [c for c in cands if id(c[0]) not in used]
    for o, r in spread(cands, 6):
        real_pairs.append(('zh', 'debian-reference-zh', o, 'debian-reference-zh-tw', r,
                           'real:debian-reference-zh-tw 2.100 (traditional script, Taiwan'
                           ' wording) vs debian-reference-zh-cn 2.100'))
    # maint-guide zh-tw vs zh-cn
    mg_cn = docs_from_files(maint_guide('zh-cn'), 'zh')
    mg_tw = {strip_secnum(opencc(d['title'], 't2s.json')): d
             for d in docs_from_files(maint_guide('zh-tw'), 'zh')}
    cands = []
    for o in mg_cn:
        r = mg_tw.get(strip_secnum(o['title']))
        if r:
            j = jaccard(shingles(body_of(o['paras'])),
                        shingles(opencc(body_of(r['paras']), 't2s.json')))
            if 0.5 <= j < 0.97:
                cands.append((o, r))
    for o, r in spread(cands, 3):
        real_pairs.append(('zh', 'maint-guide-zh', o, 'maint-guide-zh-tw', r,
                           'real:maint-guide-zh-tw 1.2.53 vs maint-guide-zh-cn 1.2.53'))
    # installation guide: the same section for amd64 and arm64
    for lang, k in (('zh', 4), ('en', 5)):
        a = docs_from_files(install_guide('amd64', lang), lang)
        b = {d['title']: d for d in docs_from_files(install_guide('arm64', lang), lang)}
        cands = []
        for o in a:
            r = b.get(o['title'])
            if r:
                j = jaccard(shingles(body_of(o['paras'])), shingles(body_of(r['paras'])))
                if 0.5 <= j < 0.95:
                    cands.append((o, r))
        for o, r in spread(cands, k):
            real_pairs.append((lang, 'install-guide-' + lang, o, 'install-guide-arm64-' + lang,
                               r, 'real:installation-guide-arm64 vs installation-guide-amd64'
                               ' (same section, architecture-specific edits)'))

    # ---- pick originals, keeping them pairwise dissimilar
    log('selecting originals')
    chosen_sh = []

    def too_close(paras):
        sh = shingles(body_of(paras))
        for o in chosen_sh:
            if jaccard(sh, o) >= 0.25:
                return True
        chosen_sh.append(sh)
        return False

    nkey = [0]

    def newkey():
        nkey[0] += 1
        return nkey[0]

    originals = {'zh': [], 'en': []}
    for lang, so, o, sr, r, label in real_pairs:
        if too_close(o['paras']):
            continue
        ko, kr = newkey(), newkey()
        add(lang, so, o['title'], o['paras'], ko)
        add(lang, sr, r['title'], r['paras'], kr)
        truth.append((kr, ko, label))
    used_titles = {(row['source'], row['title']) for row in rows}
    for lang, sets in (('zh', zh_sets), ('en', en_sets)):
        for src, docs, k in sets:
            docs = [d for d in docs if (src, norm_text(d['title'])) not in used_titles]
            picked = 0
            for d in spread(docs, int(k * 1.6)):
                if picked >= k:
                    break
                if too_close(d['paras']):
                    continue
                key = newkey()
                add(lang, src, d['title'], d['paras'], key)
                originals[lang].append(rows[-1])
                picked += 1
    # a few documents of classical Chinese poems (tang300 / song100)
    poems = classical_poems()
    for start in range(0, len(poems), len(poems) // 8):
        group = poems[start:start + 5]
        paras = []
        for _, t, a, lines in group:
            paras.append('%s %s' % (t, a))
            paras.append(''.join(lines))
        if utf8len(body_of(paras)) >= 300:
            key = newkey()
            name = {'tang300': '唐诗三百首', 'song100': '宋诗一百首'}[group[0][0]]
            add('zh', 'fortunes-zh-' + group[0][0], '%s选读：%s等' % (name, group[0][1]),
                paras, key)

    # ---- simulated reposts
    log('simulating reposts')
    step = 0
    for lang, recipes, n in (('zh', ZH_RECIPES, 20), ('en', EN_RECIPES, 18)):
        pool = originals[lang]
        picks = rng.sample(pool, n)
        for i, o in enumerate(picks):
            donor = rng.choice(pool)
            nrep = 2 if i % 6 == 0 else 1          # some groups of three
            for rep in range(nrep):
                recipe = recipes[step % len(recipes)]
                step += 1
                r = apply_recipe(recipe, o['paras'], lang, rng, donor['paras'])
                if r is None:
                    r = apply_recipe(['footer'], o['paras'], lang, rng, donor['paras'])
                paras, label = r
                title = o['title']
                if 's2t' in recipe:
                    title = opencc(title)
                key = newkey()
                add(lang, o['source'], title, paras, key)
                truth.append((key, o['key'], label))

    # ---- shuffle, number, write
    rng.shuffle(rows)
    idmap = {}
    for i, row in enumerate(rows, 1):
        idmap[row['key']] = i
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, 'corpus.tsv'), 'w', encoding='utf-8', newline='\n') as f:
        for i, row in enumerate(rows, 1):
            f.write('%d\t%s\t%s\t%s\t%s\n' % (i, row['lang'], row['source'],
                                              copy_escape(row['title']),
                                              copy_escape(body_of(row['paras']))))
    truth_rows = sorted((idmap[r], idmap[o], t) for r, o, t in truth)
    with open(os.path.join(outdir, 'corpus_truth.tsv'), 'w', encoding='utf-8',
              newline='\n') as f:
        for r, o, t in truth_rows:
            f.write('%d\t%d\t%s\n' % (r, o, t))
    nzh = sum(r['lang'] == 'zh' for r in rows)
    log('corpus: %d docs (%d zh, %d en), %d reposts' % (len(rows), nzh, len(rows) - nzh,
                                                         len(truth)))
    return zh_sets, en_sets


def copy_escape(s):
    """PostgreSQL COPY text format: backslash, newline, CR and tab escaped."""
    return (s.replace('\\', '\\\\').replace('\n', '\\n').replace('\r', '\\r')
            .replace('\t', '\\t'))


# --------------------------------------------------------------------------
# Paragraph pools for the benchmark generator

def pool_paras(files, lang):
    out = []
    for _, blocks in files:
        for kind, _, text in blocks:
            if kind == 'p' and keep_para(text, lang, strict=True):
                out.append(text)
    return out


def write_pool(path, groups, cap):
    """groups: [(name, [paragraphs], max_bytes)].  Exact duplicate paragraphs dropped."""
    seen = set()
    total = 0
    stats = []
    with open(path, 'w', encoding='utf-8', newline='\n') as f:
        for name, paras, maxb in groups:
            n = 0
            for p in paras:
                if p in seen:
                    continue
                b = utf8len(p) + 1
                if n + b > maxb or total + b > cap:
                    break
                seen.add(p)
                f.write(p + '\n')
                n += b
                total += b
            stats.append((name, n))
    for name, n in stats:
        log('  %-28s %8d bytes' % (name, n))
    log('  %-28s %8d bytes' % (path, total))


def build_pools(outdir):
    log('pool_zh.txt')
    zh = [
        ('debian-handbook zh-CN', pool_paras(handbook('zh'), 'zh'), 10 ** 9),
        ('debian-reference-zh-cn', pool_paras(reference('zh-cn'), 'zh'), 10 ** 9),
        ('installation-guide zh_CN', pool_paras(install_guide('amd64', 'zh'), 'zh'), 10 ** 9),
        ('maint-guide-zh-cn', pool_paras(maint_guide('zh-cn'), 'zh'), 10 ** 9),
        ('debian-edu-doc-zh-cn', pool_paras(edu_manual('zh'), 'zh'), 10 ** 9),
        ('gnome-user-docs zh_CN', pool_paras(gnome_help('zh'), 'zh'), 10 ** 9),
        ('libreoffice-help-zh-cn', pool_paras(libreoffice_help(), 'zh'), 10 ** 9),
    ]
    write_pool(os.path.join(outdir, 'pool_zh.txt'), zh, 3_300_000)
    log('pool_en.txt')

    def bible_paras(module, books):
        out = []
        for _, verses in bible_chapters(module, books):
            cur = ''
            for v in verses:
                cur = (cur + ' ' + v).strip()
                if utf8len(cur) > 400:
                    out.append(cur)
                    cur = ''
            if cur:
                out.append(cur)
        return out
    en = [
        ('debian-handbook en-US', pool_paras(handbook('en'), 'en'), 10 ** 9),
        ('debian-reference-en', pool_paras(reference('en'), 'en'), 10 ** 9),
        ('installation-guide en', pool_paras(install_guide('amd64', 'en'), 'en'), 10 ** 9),
        ('maint-guide en', pool_paras(maint_guide('en'), 'en'), 10 ** 9),
        ('debian-edu-doc-en', pool_paras(edu_manual('en'), 'en'), 10 ** 9),
        ('gnome-user-docs C', pool_paras(gnome_help('en'), 'en'), 10 ** 9),
        ('World English Bible', bible_paras('engWEB2015eb', BIBLE_BOOKS), 10 ** 9),
    ]
    write_pool(os.path.join(outdir, 'pool_en.txt'), en, 3_300_000)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument('--outdir', default=os.path.join(here, '..', 'test', 'data'))
    ap.add_argument('--no-install', action='store_true')
    ap.add_argument('--skip-pools', action='store_true')
    a = ap.parse_args()
    ensure_packages(not a.no_install)
    build(a.outdir)
    if not a.skip_pools:
        build_pools(a.outdir)


if __name__ == '__main__':
    main()
