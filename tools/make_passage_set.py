#!/usr/bin/env python3
"""A labelled set for PASSAGE SOURCE RETRIEVAL: given a query text, which
stored corpus documents did it copy passages from?  Real Chinese (simplified)
and English text from Debian packages; see test/bench/passage_set.md.

CORPUS: about 2,200 documents, half zh, half en, each 1-4 KB of UTF-8 prose:
the paragraphs of one file of a Debian package (HTML, Mallard, roff, pod,
fortune), markup stripped, code, tables, navigation and headings dropped,
cut at paragraph boundaries (at a heading when possible) into 1-4 KB pieces.

SPLITS by Debian source package (SPLIT_OF): 'dev' (60%) and 'heldout'
(40%), both languages in both, no source package in both.  The packages of
tools/make_match_set2.py (harden-doc, gimp-help, manpages-zh, debian-faq,
developers-reference, debian-policy) are all in dev.  The held-out split is
for one final reading: do not look at it while tuning.

QUERIES: 560 (336 dev, 224 heldout; half zh, half en), 1-5 KB each: 440
with 1-3 passages (each a contiguous span of a different corpus document of
the query's split and language, 60-400 Han characters / 150-1,000
characters, cut at sentence, else clause boundaries) inserted at sentence
boundaries into FILLER: real text of the same split and language from
pieces that are not in the corpus and share no exact 40-character (zh) /
80-character (en) substring with any corpus document; 120 are filler only.
Passages: 40% verbatim; the rest edited: zh 1-5% of the Han characters
replaced, deleted or doubled, en 1-5% of the words with one typo (a letter
inserted, deleted, replaced or two transposed); a fifth of the zh edited
ones instead homophone: 10-30% of the Han characters that have exactly one
Unihan kMandarin reading replaced by a frequent corpus character of the same
toneless reading.  15% of the zh passages (any kind) then go through opencc
(s2t.json or s2twp.json, half each).

OUTPUT (--out DIR, PostgreSQL COPY text format):
  corpus.tsv   doc_id split lang package body origin version
  queries.tsv  query_id split lang body
  truth.tsv    query_id passage source_doc_id source_start source_length
               query_start query_length units length kind traditional rate
               opencc
  also.tsv     query_id passage other_doc_id shared
  manifest.txt counts, packages and versions, seeds
Positions are 1-based character positions as substr() counts them.

    tools/make_passage_set.py [--out DIR] [--seed N] [--stats]
    tools/make_passage_set.py --fresh-seed N --out DIR2   # fresh queries, same corpus

Deterministic: the same package versions and seeds give the same bytes.
Packages are fetched with `apt-get download` and unpacked with dpkg-deb
into $TFP_PASSAGE_CACHE (default /var/cache/textfp-passage-set); nothing is
installed but opencc (apt-get install, as root).  Python 3 standard library.
"""
import argparse
import bisect
import bz2
import collections
import glob
import gzip
import hashlib
import html
import html.parser
import itertools
import os
import random
import re
import shutil
import subprocess
import sys
import tarfile
import time
import unicodedata
import xml.etree.ElementTree as ET

SEED = 1
GENERATOR_VERSION = 1

# --------------------------------------------------------------------------
# Sources.  Each row: source package (the split unit), binary package,
# language, extractor, glob patterns (relative to the unpacked package),
# cap (at most this many corpus documents; None: no cap of its own).

DEV, HELD = 'dev', 'heldout'

SOURCES = [
    # ---- dev ----
    ('debian-reference', 'debian-reference-zh-cn', 'zh', 'html',
     ['usr/share/debian-reference/*.zh-cn.html'], None),
    ('debian-reference', 'debian-reference-en', 'en', 'html',
     ['usr/share/debian-reference/*.en.html'], None),
    ('debian-faq', 'debian-faq-zh-cn', 'zh', 'html',
     ['usr/share/doc/debian/FAQ/zh-cn/*.html'], None),
    ('debian-faq', 'debian-faq', 'en', 'html',
     ['usr/share/doc/debian/FAQ/*.en.html'], None),
    ('harden-doc', 'harden-doc', 'zh', 'html',
     ['usr/share/doc/harden-doc/html/zh-CN/*.html'], None),
    ('harden-doc', 'harden-doc', 'en', 'html',
     ['usr/share/doc/harden-doc/html/en-US/*.html'], None),
    ('maint-guide', 'maint-guide-zh-cn', 'zh', 'html',
     ['usr/share/doc/maint-guide-zh-cn/html/*.zh-cn.html'], None),
    ('maint-guide', 'maint-guide', 'en', 'html',
     ['usr/share/doc/maint-guide/html/*.en.html'], None),
    ('manpages-zh', 'manpages-zh', 'zh', 'roff',
     ['usr/share/man/zh_CN/man*/*.gz'], None),
    ('gimp-help', 'gimp-help-zh-cn', 'zh', 'html',
     ['usr/share/gimp/2.0/help/zh_CN/**/*.html'], None),
    ('fortune-zh', 'fortunes-zh', 'zh', 'fortune',
     ['usr/share/games/fortunes/song100', 'usr/share/games/fortunes/tang300'], 20),
    ('developers-reference', 'developers-reference', 'en', 'html',
     ['usr/share/developers-reference/*.html'], None),
    ('debian-policy', 'debian-policy', 'en', 'html',
     ['usr/share/doc/debian-policy/policy.html/*.html'], None),
    ('perl', 'perl-doc', 'en', 'pod',
     ['usr/share/perl/5.36.0/pod/*.pod'], None),
    ('installation-guide', 'installation-guide-amd64', 'zh', 'html',
     ['usr/share/doc/installation-guide-amd64/zh_CN/*.html'], None),
    ('installation-guide', 'installation-guide-amd64', 'en', 'html',
     ['usr/share/doc/installation-guide-amd64/en/*.html'], None),
    # ---- heldout ----
    ('debian-handbook', 'debian-handbook', 'zh', 'html',
     ['usr/share/doc/debian-handbook/html/zh-CN/*.html'], None),
    ('debian-handbook', 'debian-handbook', 'en', 'html',
     ['usr/share/doc/debian-handbook/html/en-US/*.html'], None),
    ('debian-edu-doc', 'debian-edu-doc-zh-cn', 'zh', 'html',
     ['usr/share/doc/debian-edu-doc-zh-cn/debian-edu-bookworm-manual.html'], None),
    ('debian-edu-doc', 'debian-edu-doc-legacy-zh-cn', 'zh', 'html',
     ['usr/share/doc/debian-edu-doc-legacy-zh-cn/*.html'], None),
    ('debian-edu-doc', 'debian-edu-doc-en', 'en', 'html',
     ['usr/share/doc/debian-edu-doc-en/debian-edu-bookworm-manual.html'], None),
    ('gnome-user-docs', 'gnome-user-docs', 'zh', 'mallard',
     ['usr/share/help/zh_CN/gnome-help/*.page'], None),
    ('gnome-user-docs', 'gnome-user-docs', 'en', 'mallard',
     ['usr/share/help/C/gnome-help/*.page'], None),
    ('evince', 'evince-common', 'zh', 'mallard', ['usr/share/help/zh_CN/evince/*.page'], None),
    ('evince', 'evince-common', 'en', 'mallard', ['usr/share/help/C/evince/*.page'], None),
    ('gedit', 'gedit-common', 'zh', 'mallard', ['usr/share/help/zh_CN/gedit/*.page'], None),
    ('gedit', 'gedit-common', 'en', 'mallard', ['usr/share/help/C/gedit/*.page'], None),
    ('eog', 'eog', 'zh', 'mallard', ['usr/share/help/zh_CN/eog/*.page'], None),
    ('eog', 'eog', 'en', 'mallard', ['usr/share/help/C/eog/*.page'], None),
    ('totem', 'totem-common', 'zh', 'mallard', ['usr/share/help/zh_CN/totem/*.page'], None),
    ('totem', 'totem-common', 'en', 'mallard', ['usr/share/help/C/totem/*.page'], None),
    ('libreoffice', 'libreoffice-help-zh-cn', 'zh', 'html',
     ['usr/share/libreoffice/help/zh-CN/text/**/*.html'], None),
    ('kicad', 'kicad-doc-zh', 'zh', 'html', ['usr/share/doc/kicad/help/zh/*.html'], None),
    ('lilypond', 'lilypond-doc-html-zh', 'zh', 'html',
     ['usr/share/doc/lilypond/html/Documentation/**/*.zh.html'], None),
    ('python3.11', 'python3.11-doc', 'en', 'html',
     ['usr/share/doc/python3.11/html/*/*.html'], None),
    ('postgresql-15', 'postgresql-doc-15', 'en', 'html',
     ['usr/share/doc/postgresql-doc-15/html/*.html'], None),
    ('git', 'git-doc', 'en', 'html', ['usr/share/doc/git-doc/*.html'], None),
]

SPLIT_OF = {
    'debian-reference': DEV, 'debian-faq': DEV, 'harden-doc': DEV, 'maint-guide': DEV,
    'manpages-zh': DEV, 'gimp-help': DEV, 'fortune-zh': DEV, 'libreoffice': HELD,
    'developers-reference': DEV, 'debian-policy': DEV, 'perl': DEV,
    'installation-guide': DEV,
    'debian-handbook': HELD, 'debian-edu-doc': HELD,
    'gnome-user-docs': HELD, 'evince': HELD, 'gedit': HELD, 'eog': HELD, 'totem': HELD,
    'kicad': HELD, 'lilypond': HELD, 'python3.11': HELD, 'postgresql-15': HELD, 'git': HELD,
}
# files left out: single-page copies of a manual, and perl's release notes
# (perl5*delta: much of each repeats the others)
EXCLUDE = re.compile(r'(^|/)(developers-reference\.html|[^/]*big-page[^/]*|perl\d*delta\.pod)$')
TUNED_BEFORE = {'harden-doc', 'gimp-help', 'manpages-zh', 'debian-faq',
                'developers-reference', 'debian-policy'}   # tools/make_match_set2.py
assert all(SPLIT_OF[s] == DEV for s in TUNED_BEFORE)
assert all(row[0] in SPLIT_OF for row in SOURCES)

EXPECTED_VERSIONS = {   # the versions the figures in test/bench/passage_set.md come from
    'debian-reference-zh-cn': '2.100',
    'debian-reference-en': '2.100',
    'debian-faq-zh-cn': '11.1',
    'debian-faq': '11.1',
    'harden-doc': '3.19+nmu1',
    'maint-guide-zh-cn': '1.2.53',
    'maint-guide': '1.2.53',
    'manpages-zh': '1.6.4.0-1',
    'gimp-help-zh-cn': '2.10.34-2',
    'fortunes-zh': '2.98',
    'developers-reference': '12.18',
    'debian-policy': '4.6.2.0',
    'perl-doc': '5.36.0-7+deb12u4',
    'installation-guide-amd64': '20230508+deb12u1',
    'debian-handbook': '11.20220922',
    'debian-edu-doc-zh-cn': '2.12.23~deb12u1',
    'debian-edu-doc-legacy-zh-cn': '2.12.23~deb12u1',
    'debian-edu-doc-en': '2.12.23~deb12u1',
    'gnome-user-docs': '43.0-2',
    'evince-common': '43.1-2+deb12u1',
    'gedit-common': '44.2-1',
    'eog': '43.2-1+deb12u1',
    'totem-common': '43.0-2',
    'libreoffice-help-zh-cn': '4:7.4.7-1+deb12u14',
    'kicad-doc-zh': '6.0.11+dfsg-1',
    'lilypond-doc-html-zh': '2.24.1-2',
    'python3.11-doc': '3.11.2-6+deb12u9',
    'postgresql-doc-15': '15.20-0+deb12u1',
    'git-doc': '1:2.39.5-0+deb12u3',
    'unicode-data': '15.0.0-1',
}

TOOL_PACKAGES = ['unicode-data']          # unpacked into the cache like the others
TOOL_PATTERNS = {'unicode-data': ['usr/share/unicode/Unihan_Readings.txt*']}
OPENCC_PACKAGE = 'opencc'                 # installed: the opencc program

# Corpus documents wanted per split and language; queries per split and
# language (spliced, filler only).
CORPUS_N = {(DEV, 'zh'): 660, (DEV, 'en'): 660, (HELD, 'zh'): 440, (HELD, 'en'): 440}
QUERY_N = {(DEV, 'zh'): (132, 36), (DEV, 'en'): (132, 36),
           (HELD, 'zh'): (88, 24), (HELD, 'en'): (88, 24)}

PIECE_MIN, PIECE_MAX = 1024, 4096        # bytes of UTF-8
SOURCE_PIECES_MAX = 1000                 # files of a source read until it has this many pieces
QUERY_MIN, QUERY_MAX = 1024, 5120
FILLER_MIN = 300                         # bytes of filler at least in a spliced query
PASSAGE_RANGE = {'zh': (60, 400), 'en': (150, 1000)}   # Han chars / characters
SHARED_MIN = {'zh': 40, 'en': 80}        # exact shared substring (characters)
VERBATIM_SHARE = 0.40
HOMOPHONE_SHARE_OF_EDITED = 0.20
TRADITIONAL_SHARE = 0.15
EDIT_RATE = (0.01, 0.05)
HOMOPHONE_RATE = (0.10, 0.30)
FREQ_MIN = 5                             # a replacement character occurs >= 5 times in the zh corpus

HAN_RANGES = [(0x3005, 0x3007), (0x3021, 0x3029), (0x3038, 0x303C), (0x3040, 0x30FF),
              (0x3100, 0x312F), (0x31A0, 0x31BF), (0x31F0, 0x31FF), (0x3400, 0x4DBF),
              (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0xFF66, 0xFF9D), (0x20000, 0x323AF),
              (0x0E00, 0x0EFF), (0x1000, 0x109F), (0x1780, 0x17FF), (0xA000, 0xA4CF)]
IGNORABLE = set('\u00ad\u200b\u200c\u200d\u2060\ufeff') | {chr(c) for c in range(0xfe00, 0xfe10)}
RE_HAN = re.compile('[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]')
CJK = '\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef\u3000-\u303f\u2018-\u201d\u2026\u2014\u00b7'
RE_NL_CJK = re.compile('(?<=[' + CJK + r'])[ \t\r]*\n\s*(?=[' + CJK + '])')
RE_WS = re.compile(r'\s+')
RE_CTRL = re.compile('[\x00-\x08\x0b-\x1f\x7f\ufffd]')


def say(*a):
    print(*a, file=sys.stderr, flush=True)


def h64(*parts):
    return int(hashlib.sha256('\x1f'.join(map(str, parts)).encode()).hexdigest()[:16], 16)


def rng_for(*parts):
    return random.Random(h64(*parts))


# --------------------------------------------------------------------------
# Packages

def cache_dir():
    return os.environ.get('TFP_PASSAGE_CACHE', '/var/cache/textfp-passage-set')


def deb_packages():
    pk = []
    for row in SOURCES:
        if row[1] not in pk:
            pk.append(row[1])
    return pk + TOOL_PACKAGES


def apt_update_once(state):
    if state.get('updated'):
        return
    if os.geteuid() == 0:
        say('apt-get update')
        subprocess.run(['apt-get', 'update', '-qq'], check=False,
                       env=dict(os.environ, DEBIAN_FRONTEND='noninteractive'))
    state['updated'] = True


def ensure_opencc(state):
    if shutil.which('opencc'):
        return
    if os.geteuid() != 0:
        sys.exit('missing: the opencc program (Debian package opencc); as root: '
                 'apt-get install opencc')
    apt_update_once(state)
    say('installing with apt-get: opencc')
    subprocess.run(['apt-get', 'install', '-y', '--no-install-recommends', OPENCC_PACKAGE],
                   check=True, env=dict(os.environ, DEBIAN_FRONTEND='noninteractive'),
                   stdout=subprocess.DEVNULL)


def wanted_prefixes(pkg):
    """The directories of a package that the extractors read."""
    pats = [pt for row in SOURCES if row[1] == pkg for pt in row[4]]
    pats += TOOL_PATTERNS.get(pkg, [])
    out = []
    for pt in pats:
        head = re.split(r'[*?\[]', pt, maxsplit=1)[0]
        out.append(head if head == pt else head[:head.rfind('/') + 1])
    return out + ['usr/share/doc/%s/copyright' % pkg]


def unpack(deb, dest, pkg):
    """Unpack the regular files of deb under the wanted directories (no
    symbolic or hard links: they are aliases, or point outside the cache)."""
    prefixes = wanted_prefixes(pkg)
    os.makedirs(dest, exist_ok=True)
    proc = subprocess.Popen(['dpkg-deb', '--fsys-tarfile', deb], stdout=subprocess.PIPE)
    n = 0
    with tarfile.open(fileobj=proc.stdout, mode='r|') as tf:
        for m in tf:
            name = m.name[2:] if m.name.startswith('./') else m.name
            if not m.isfile() or '..' in name.split('/') or name.startswith('/'):
                continue
            if not any(name.startswith(pr) for pr in prefixes):
                continue
            path = os.path.join(dest, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with tf.extractfile(m) as src, open(path, 'wb') as out:
                shutil.copyfileobj(src, out)
            n += 1
    if proc.wait() != 0:
        sys.exit('dpkg-deb --fsys-tarfile %s failed' % deb)
    return n


def ensure_debs(state):
    """Download and unpack every package into the cache; {package: version}."""
    root = cache_dir()
    xdir, ddir = os.path.join(root, 'x'), os.path.join(root, 'debs')
    try:
        os.makedirs(xdir, exist_ok=True)
        os.makedirs(ddir, exist_ok=True)
    except PermissionError:
        sys.exit('cannot write %s: run as root or set TFP_PASSAGE_CACHE to a writable '
                 'directory' % root)
    versions = {}
    todo = []
    for p in deb_packages():
        vf = os.path.join(xdir, p + '.version')
        if os.path.exists(vf):
            with open(vf) as f:
                versions[p] = f.read().strip()
        else:
            todo.append(p)
    if todo:
        t0 = time.time()
        say('downloading with apt-get download (into %s): %s' % (ddir, ' '.join(todo)))
        if os.geteuid() == 0:
            try:
                shutil.chown(ddir, user='_apt')
            except (LookupError, OSError):
                pass
        r = subprocess.run(['apt-get', 'download'] + todo, cwd=ddir)
        if r.returncode != 0:
            apt_update_once(state)
            r = subprocess.run(['apt-get', 'download'] + todo, cwd=ddir)
        if r.returncode != 0:
            sys.exit('apt-get download failed for some of: %s\n(as root, run apt-get update '
                     'first; packages of Debian 12 main)' % ' '.join(todo))
        for p in todo:
            debs = sorted(glob.glob(os.path.join(ddir, p + '_*.deb')))
            if not debs:
                sys.exit('no .deb for %s in %s' % (p, ddir))
            deb = debs[-1]
            ver = subprocess.run(['dpkg-deb', '-f', deb, 'Version'], capture_output=True,
                                 text=True, check=True).stdout.strip()
            dest = os.path.join(xdir, p)
            shutil.rmtree(dest, ignore_errors=True)
            unpack(deb, dest, p)
            os.remove(deb)
            with open(os.path.join(xdir, p + '.version'), 'w') as f:
                f.write(ver + '\n')
            versions[p] = ver
        say('downloaded and unpacked %d packages in %.1f s' % (len(todo), time.time() - t0))
    for p in deb_packages():
        if EXPECTED_VERSIONS.get(p) != versions[p]:
            say('WARNING: %s is %s, the documented set was made from %s: the output will differ'
                % (p, versions[p], EXPECTED_VERSIONS.get(p)))
    return versions


# --------------------------------------------------------------------------
# Text normalisation and classification

def norm(s):
    s = RE_CTRL.sub('', s.replace('\u00a0', ' ').replace('\u3000', ' ').replace('\t', ' '))
    s = RE_NL_CJK.sub('', s)
    return RE_WS.sub(' ', s).strip()


def is_han_class(ch):
    c = ord(ch)
    for a, b in HAN_RANGES:
        if a <= c <= b:
            return unicodedata.category(ch)[0] in 'LN'
    return False


def units_of(text):
    """(Han characters, words): textfp's tokens, approximated."""
    han = words = 0
    in_word = False
    for ch in text:
        if ch in IGNORABLE:
            continue
        cat = unicodedata.category(ch)
        if is_han_class(ch):
            han += 1
            in_word = False
        elif cat[0] in 'LN':
            if not in_word:
                words += 1
            in_word = True
        elif cat[0] == 'M':
            pass
        else:
            in_word = False
    return han, words


def han_count(s):
    return len(RE_HAN.findall(s))


CODE_SYMS = '{}[]<>=;|\\$_*&#@^~`'


def looks_like_code(s):
    t = s.strip()
    if re.match(r'^([$#%>] |\$\w|//|/\*|<\w)', t):
        return True
    sym = sum(t.count(c) for c in CODE_SYMS)
    return sym > 0.05 * max(len(t), 1)


def prose_para(s, lang):
    if not s or looks_like_code(s):
        return False
    chars = len(s.replace(' ', ''))
    if lang == 'zh':
        h = han_count(s)
        return h >= 10 and h >= 0.4 * chars
    if han_count(s):
        return False
    letters = sum(ch.isalpha() for ch in s)
    words = len(s.split())
    return words >= 8 and letters >= 0.75 * chars


def prose_piece(text, lang):
    chars = len(re.sub(r'\s', '', text))
    if lang == 'zh':
        return han_count(text) >= max(150, 0.5 * chars)
    letters = sum(ch.isalpha() for ch in text)
    return letters >= 0.78 * chars and len(re.findall(r'[.?!](\s|$)', text)) >= 4


# --------------------------------------------------------------------------
# Extractors: file -> list of items ('h', text) heading / ('p', text) prose /
# ('x', '') dropped block (code, table, non-prose paragraph)

BLOCK = {'p', 'div', 'li', 'dt', 'dd', 'td', 'th', 'tr', 'title', 'blockquote', 'section',
         'article', 'ul', 'ol', 'dl', 'table', 'br', 'caption', 'figcaption', 'main', 'body',
         'html', 'hr', 'figure', 'pre', 'center', 'form'}
HEAD = {'h1', 'h2', 'h3', 'h4', 'h5', 'h6'}
SKIP_TAGS = {'head', 'script', 'style', 'pre', 'noscript', 'header', 'footer', 'aside', 'nav',
             'table', 'button', 'select', 'textarea', 'svg', 'math', 'form', 'object'}
SKIP_CLASSES = {'navheader', 'navfooter', 'toc', 'relatedtopics', 'docnav', 'screen',
                'programlisting', 'synopsis', 'literallayout', 'list-of-tables',
                'list-of-figures', 'list-of-examples', 'index', 'bascode', 'howtoget',
                'legalnotice', 'revhistory', 'authorgroup', 'informaltable', 'table',
                'figure', 'mediaobject', 'cmdsynopsis', 'funcsynopsis', 'contents-treeview',
                'example', 'informalexample', 'highlight', 'sphinxsidebar', 'related',
                'footer', 'header', 'navigation', 'nav-footer', 'breadcrumb', 'headerlink',
                'sig', 'listingblock', 'literalblock', 'copyright', 'titlepage',
                'footnotes', 'footnote', 'calstable', 'simplelist', 'qandaset-toc',
                'nav-panel', 'sidebar', 'search', 'menubar', 'translations', 'note-title',
                'doc-footer', 'nav-prev', 'nav-next', 'example-contents'}
SKIP_IDS = {'DEBUG', 'SearchFrame', 'DonationFrame', 'TopLeftHeader', 'Contents',
            'Bookmarks', 'header', 'footer', 'toc', 'footnotes', 'search', 'sidebar',
            'tocframe', 'languages'}
VOID = {'br', 'img', 'meta', 'link', 'hr', 'input', 'col', 'area', 'base', 'wbr', 'source',
        'embed', 'param', 'track'}


class Blocks(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.skip, self.buf, self.head, self.items = [], 0, [], False, []

    def flush(self, dropped=False):
        t = norm(''.join(self.buf))
        self.buf = []
        if t:
            self.items.append(('h' if self.head else 'p', t))
        elif dropped and self.items and self.items[-1][0] != 'x':
            self.items.append(('x', ''))
        self.head = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        cls = set((a.get('class') or '').split())
        sk = tag in SKIP_TAGS or bool(cls & SKIP_CLASSES) or a.get('id') in SKIP_IDS
        if tag in BLOCK or tag in HEAD:
            if not self.skip:
                self.flush(dropped=sk)
            if tag in HEAD and not self.skip:
                self.head = True
        if tag in VOID:
            return
        self.stack.append((tag, sk))
        if sk:
            self.skip += 1

    def handle_endtag(self, tag):
        if tag in VOID or not any(t == tag for t, _ in self.stack):
            return
        while self.stack:
            t, sk = self.stack.pop()
            if sk:
                self.skip -= 1
            if t == tag:
                break
        if (tag in BLOCK or tag in HEAD) and not self.skip:
            self.flush()

    def handle_data(self, data):
        if not self.skip:
            self.buf.append(data)

    def close(self):
        super().close()
        self.flush()


def read_text(path):
    if path.endswith('.gz'):
        with gzip.open(path, 'rb') as f:
            raw = f.read()
    else:
        with open(path, 'rb') as f:
            raw = f.read()
    return raw.decode('utf-8', errors='replace')


def extract_html(path):
    p = Blocks()
    p.feed(read_text(path))
    p.close()
    return p.items


MAL = '{http://projectmallard.org/1.0/}'
MAL_SKIP = {'info', 'screen', 'code', 'comment', 'media', 'links', 'example', 'synopsis',
            'table', 'tree', 'terms-title'}


def extract_mallard(path):
    try:
        root = ET.fromstring(read_text(path))
    except ET.ParseError:
        return []
    items = []

    def text_of(el):
        parts = []

        def rec(e):
            if e.text:
                parts.append(e.text)
            for c in e:
                if c.tag.replace(MAL, '') != 'comment':
                    rec(c)
                if c.tail:
                    parts.append(c.tail)
        rec(el)
        return norm(''.join(parts))

    def walk(el):
        for c in el:
            name = c.tag.replace(MAL, '') if isinstance(c.tag, str) else ''
            if name in MAL_SKIP:
                if name in ('screen', 'code', 'table', 'example', 'synopsis'):
                    items.append(('x', ''))
                continue
            if name == 'title':
                items.append(('h', text_of(c)))
            elif name == 'p':
                items.append(('p', text_of(c)))
            else:
                walk(c)
    walk(root)
    return items


ROFF_ESC = [
    (re.compile(r'\\f(\[[^\]]*\]|\(..|.)'), ''), (re.compile(r'\\s[+-]?\d+'), ''),
    (re.compile(r'\\\*(\[[^\]]*\]|\(..|.)'), ''), (re.compile(r'\\\((em|en)'), '\u2014'),
    (re.compile(r'\\\((lq|rq|dq)'), '"'), (re.compile(r'\\\((oq|cq|aq)'), "'"),
    (re.compile(r'\\\((bu|pc)'), '\u00b7'), (re.compile(r'\\\(..'), ''),
    (re.compile(r'\\\[[^\]]*\]'), ''), (re.compile(r'\\[&|^c%:/,~0]'), ''),
    (re.compile(r'\\[-e]'), '-'), (re.compile(r'\\ '), ' '), (re.compile(r'\\"'), ''),
]


def roff_inline(s):
    s = s.replace('\\\\', '\x00')
    s = s.replace('\\-', '-').replace('\\e', '\\')
    for r, t in ROFF_ESC:
        s = r.sub(t, s)
    return s.replace('\x00', '\\')


def extract_roff(path):
    items, buf, nofill = [], [], False

    def flush(drop=False):
        t = norm('\n'.join(buf))
        buf.clear()
        if t:
            items.append(('p', t))
        elif drop:
            items.append(('x', ''))
    lines = read_text(path).split('\n')
    i = 0
    while i < len(lines):
        ln = lines[i]
        i += 1
        if ln.startswith(('.\\"', "'\\\"", '\\"')):
            continue
        if ln.startswith(('.', "'")):
            m = re.match(r"[.'\s]*(\w+)\s*(.*)", ln)
            if not m:
                continue
            mac, arg = m.group(1), m.group(2)
            if mac in ('nf', 'EX'):
                flush()
                nofill = True
                items.append(('x', ''))
            elif mac in ('fi', 'EE'):
                nofill = False
            elif mac in ('SH', 'SS'):
                flush()
                if not arg and i < len(lines):
                    arg = lines[i]
                    i += 1
                items.append(('h', norm(roff_inline(arg.replace('"', '')))))
            elif mac in ('PP', 'LP', 'P', 'br', 'sp', 'IP', 'TP', 'HP', 'RS', 'RE', 'TH'):
                flush()
                if mac == 'TP' and i < len(lines):      # the tag line: an option, not prose
                    i += 1
                    items.append(('x', ''))
            elif mac in ('B', 'I', 'BR', 'IR', 'RB', 'RI', 'BI', 'IB', 'SM', 'SB'):
                if not nofill:
                    parts = [x or y for x, y in re.findall(r'"([^"]*)"|(\S+)', arg)]
                    glue = ' ' if mac in ('B', 'I', 'SM', 'SB') else ''
                    buf.append(roff_inline(glue.join(parts)))
            continue
        if nofill:
            continue
        if not ln.strip():
            flush()
            continue
        buf.append(roff_inline(ln))
    flush()
    return items


POD_CODE = re.compile(r'[A-Z]<(?:<+\s(.*?)\s>+|([^<>]*))>', re.S)
POD_ESC = {'lt': '<', 'gt': '>', 'verbar': '|', 'sol': '/', 'quot': '"', 'amp': '&'}


def pod_escape(e):
    if e in POD_ESC:
        return POD_ESC[e]
    if e.isalpha():
        return html.unescape('&%s;' % e)
    try:
        if e.lower().startswith('0x'):
            return chr(int(e, 16))
        return chr(int(e, 8) if e.startswith('0') else int(e))
    except ValueError:
        return ''


def pod_inline(s):
    for _ in range(8):
        def rep(m):
            whole = m.group(0)
            inner = m.group(1) if m.group(1) is not None else m.group(2)
            code = whole[0]
            if code == 'E':
                return pod_escape(inner)
            if code in 'XZ':
                return ''
            if code == 'L':
                if '|' in inner:
                    return inner.split('|', 1)[0]
                return inner.split('/')[0].strip('"') or inner
            return inner
        s2 = POD_CODE.sub(rep, s)
        if s2 == s:
            break
        s = s2
    return s


def extract_pod(path):
    items = []
    skip = False
    for para in re.split(r'\n[ \t]*\n', read_text(path)):
        if not para.strip():
            continue
        if para.startswith('='):
            cmd = para.split(None, 1)[0]
            rest = para[len(cmd):].strip()
            if cmd == '=begin':
                skip = True
            elif cmd == '=end':
                skip = False
            elif cmd.startswith('=head'):
                items.append(('h', norm(pod_inline(rest))))
            elif cmd == '=item':
                items.append(('x', ''))
            continue
        if skip:
            continue
        if para[0] in ' \t':
            items.append(('x', ''))
            continue
        items.append(('p', norm(pod_inline(para))))
    return items


def extract_fortune(path):
    """A fortune file: each fortune (poem) a paragraph, attribution lines dropped."""
    items = []
    text = re.sub(r'\x1b\[3\dm.*?\x1b\[m', '\n', read_text(path))   # title, author
    for f in text.split('\n%\n'):
        lines = [ln.strip() for ln in f.strip().split('\n') if ln.strip()]
        body = [ln for ln in lines if han_count(ln) >= 4 and not re.match(r'^[-—〔]', ln)]
        if len(body) >= 2:
            items.append(('p', norm(''.join(body))))
    return items


EXTRACTORS = {'html': extract_html, 'mallard': extract_mallard, 'roff': extract_roff,
              'pod': extract_pod, 'fortune': extract_fortune}


# --------------------------------------------------------------------------
# Pieces

def sentence_cuts(text, lang):
    """Offsets where a sentence ends (after its punctuation and closers)."""
    if lang == 'zh':
        pat = r'[。！？；…]+[”’」』）)】]*|[.!?]+[”’」』）)】"\')\]]*(?=\s|$)|\n'
    else:
        pat = r'[.!?]+["\')\]]*(?=\s|$)|\n'
    return [m.end() for m in re.finditer(pat, text)]


def split_long_para(p, lang, limit):
    """A paragraph longer than limit bytes, cut at sentence ends."""
    out, cur = [], ''
    start = 0
    for c in sentence_cuts(p, lang) + [len(p)]:
        sent = p[start:c]
        start = c
        if cur and len((cur + sent).encode()) > limit:
            out.append(cur.strip())
            cur = ''
        cur += sent
    if cur.strip():
        out.append(cur.strip())
    return [o for o in out if len(o.encode()) <= PIECE_MAX]


def make_pieces(items, lang, key):
    """Consecutive prose paragraphs of one file -> pieces of 1-4 KB."""
    rng = rng_for('piece', key)
    pieces, cur, size = [], [], 0
    target = rng.uniform(1400, 3600)

    def emit():
        nonlocal cur, size, target
        if size >= PIECE_MIN:
            pieces.append('\n'.join(cur))
        elif pieces and cur and len(pieces[-1].encode()) + 1 + size <= PIECE_MAX:
            pieces[-1] = pieces[-1] + '\n' + '\n'.join(cur)
        cur, size = [], 0
        target = rng.uniform(1400, 3600)

    for kind, text in items:
        if kind == 'h' or kind == 'x' or not prose_para(text, lang):
            if size >= PIECE_MIN and (kind == 'h' or size >= 0.6 * target):
                emit()
            continue
        b = len(text.encode())
        parts = [text] if b <= 3000 else split_long_para(text, lang, 2500)
        for part in parts:
            pb = len(part.encode()) + (1 if cur else 0)
            if size + pb > PIECE_MAX:
                if size >= PIECE_MIN:
                    emit()
                else:
                    cur, size = [], 0
                pb = len(part.encode())
            cur.append(part)
            size += pb
            if size >= target:
                emit()
    emit()
    return pieces


def collect(versions):
    """All candidate pieces: list of dict(src, pkg, lang, split, origin, body)."""
    xdir = os.path.join(cache_dir(), 'x')
    out, seen = [], set()
    per = collections.Counter()
    for src, pkg, lang, ext, pats, cap in SOURCES:
        base = os.path.join(xdir, pkg)
        files = []
        for pat in pats:
            files += glob.glob(os.path.join(base, pat), recursive=True)
        files = sorted(set(f for f in files if os.path.isfile(f) and not os.path.islink(f)
                           and not EXCLUDE.search(os.path.relpath(f, base))))
        # files in a fixed pseudo-random order, until the source has enough
        files.sort(key=lambda f: h64('file', pkg, os.path.relpath(f, base)))
        n0 = len(out)
        for f in files:
            if len(out) - n0 >= SOURCE_PIECES_MAX:
                break
            rel = os.path.relpath(f, base)
            items = EXTRACTORS[ext](f)
            for k, body in enumerate(make_pieces(items, lang, pkg + '/' + rel)):
                if not prose_piece(body, lang):
                    continue
                hsh = hashlib.sha256(re.sub(r'\s', '', body).encode()).digest()
                if hsh in seen:
                    continue
                seen.add(hsh)
                out.append(dict(src=src, pkg=pkg, lang=lang, split=SPLIT_OF[src],
                                origin='%s#%d' % (rel, k + 1), body=body, cap=cap))
        per[(src, pkg, lang)] = len(out) - n0
    return out, per


# --------------------------------------------------------------------------
# Corpus selection

def allocate(avail, want, caps):
    """Equal shares per source, capped by what it has (water filling)."""
    alloc = {k: 0 for k in avail}
    left = want
    open_ = sorted(k for k in avail if avail[k] > 0)
    while left > 0 and open_:
        share = max(1, left // len(open_))
        nxt = []
        for k in open_:
            lim = min(avail[k], caps.get(k) or avail[k])
            give = min(share, lim - alloc[k], left)
            alloc[k] += give
            left -= give
            if alloc[k] < lim:
                nxt.append(k)
            if left == 0:
                break
        open_ = nxt
    return alloc


def select_corpus(pieces, seed, filler_reserve):
    """Corpus documents (about CORPUS_N per split and language); the rest of
    the pieces are filler candidates.  filler_reserve: share of each
    source's pieces kept out of the corpus for filler (at least)."""
    by = collections.defaultdict(list)
    for p in pieces:
        by[(p['split'], p['lang'], p['src'], p['pkg'])].append(p)
    corpus, filler = [], []
    for (split, lang), want in sorted(CORPUS_N.items()):
        keys = sorted(k for k in by if k[0] == split and k[1] == lang)
        avail = {k: int(len(by[k]) * (1 - filler_reserve)) for k in keys}
        caps = {k: by[k][0]['cap'] for k in keys}
        alloc = allocate(avail, want, caps)
        for k in keys:
            lst = list(by[k])
            rng_for('corpus', seed, *k).shuffle(lst)
            corpus += lst[:alloc[k]]
            if not by[k][0]['cap']:
                filler += lst[alloc[k]:]
    corpus.sort(key=lambda p: (p['split'] != DEV, p['lang'] != 'zh', p['src'], p['pkg'],
                               p['origin']))
    for i, p in enumerate(corpus):
        p['id'] = i + 1
    return corpus, filler


# --------------------------------------------------------------------------
# Exact shared substrings (length >= K) between texts and the corpus

def shared_with_corpus(texts, corpus):
    """texts: list of (key, lang, text).  Returns {key: {doc_id: longest}}
    for the corpus documents sharing an exact substring of at least
    SHARED_MIN[lang] characters with the text.  Any such substring contains
    one of the text's blocks of m characters taken every d = K - m + 1."""
    res = collections.defaultdict(dict)
    for lang in ('zh', 'en'):
        K = SHARED_MIN[lang]
        m = K // 2
        d = K - m + 1
        blocks = collections.defaultdict(list)
        for key, lg, t in texts:
            if lg != lang:
                continue
            for j in range(0, len(t) - m + 1, d):
                blocks[t[j:j + m]].append((key, t, j))
        if not blocks:
            continue
        for doc in corpus:
            b = doc['body']
            for p in range(len(b) - m + 1):
                hits = blocks.get(b[p:p + m])
                if not hits:
                    continue
                for key, t, j in hits:
                    # extend the match left and right
                    l = 0
                    while j - l > 0 and p - l > 0 and t[j - l - 1] == b[p - l - 1]:
                        l += 1
                    r = m
                    while j + r < len(t) and p + r < len(b) and t[j + r] == b[p + r]:
                        r += 1
                    L = l + r
                    if L >= K and L > res[key].get(doc['id'], 0):
                        res[key][doc['id']] = L
    return res


# --------------------------------------------------------------------------
# Homophones (Unihan kMandarin) and character frequencies

TONE_MARKS = {'\u0300', '\u0301', '\u0304', '\u030c'}


def toneless(r):
    d = unicodedata.normalize('NFD', r.lower())
    return unicodedata.normalize('NFC', ''.join(c for c in d if c not in TONE_MARKS))


def load_readings():
    udir = os.path.join(cache_dir(), 'x', 'unicode-data', 'usr', 'share', 'unicode')
    for cand in (os.path.join(udir, 'Unihan_Readings.txt.bz2'),
                 os.path.join(udir, 'Unihan_Readings.txt'),
                 '/usr/share/unicode/Unihan_Readings.txt.bz2',
                 '/usr/share/unicode/Unihan_Readings.txt'):
        if os.path.exists(cand):
            opener = bz2.open if cand.endswith('.bz2') else open
            with opener(cand, 'rt', encoding='utf-8') as f:
                data = f.read()
            break
    else:
        sys.exit('Unihan_Readings.txt not found (package unicode-data)')
    single = {}
    for ln in data.split('\n'):
        if '\tkMandarin\t' not in ln:
            continue
        cp, _, val = ln.split('\t')
        vals = val.split()
        if len(vals) == 1:
            single[chr(int(cp[2:], 16))] = toneless(vals[0])
    return single


class Han:
    """Frequent corpus characters, and homophones among them."""

    def __init__(self, corpus):
        cnt = collections.Counter()
        for d in corpus:
            if d['lang'] == 'zh':
                cnt.update(RE_HAN.findall(d['body']))
        self.freq = cnt
        self.reading = load_readings()
        frequent = sorted(c for c, n in cnt.items() if n >= FREQ_MIN)
        self.pool = frequent
        self.pool_w = list(itertools.accumulate(cnt[c] for c in frequent))
        byr = collections.defaultdict(list)
        for c in frequent:
            if c in self.reading:
                byr[self.reading[c]].append(c)
        self.by_reading = {r: (cs, list(itertools.accumulate(cnt[c] for c in cs)))
                           for r, cs in byr.items()}

    def any_char(self, rng, not_):
        for _ in range(20):
            c = rng.choices(self.pool, cum_weights=self.pool_w)[0]
            if c != not_:
                return c
        return '的' if not_ != '的' else '是'

    def homophones(self, ch):
        """(candidates, cumulative weights): frequent characters other than ch
        with ch's toneless reading; None if ch has not exactly one reading."""
        r = self.reading.get(ch)
        if r is None or r not in self.by_reading:
            return None
        cs, _ = self.by_reading[r]
        others = [c for c in cs if c != ch]
        if not others:
            return None
        return others, list(itertools.accumulate(self.freq[c] for c in others))

    def homophone(self, rng, ch):
        cand = self.homophones(ch)
        return rng.choices(cand[0], cum_weights=cand[1])[0] if cand else None


# --------------------------------------------------------------------------
# Passages

def boundaries(text, lang):
    """(sentence starts, sentence ends, clause starts, clause ends)."""
    n = len(text)

    def skip_ws(i):
        while i < n and text[i].isspace():
            i += 1
        return i

    def back_ws(i):
        while i > 0 and text[i - 1].isspace():
            i -= 1
        return i
    s_ends = set()
    for c in sentence_cuts(text, lang):
        s_ends.add(back_ws(c))
    s_ends.add(back_ws(n))
    s_starts = {skip_ws(0)} | {skip_ws(e) for e in s_ends if skip_ws(e) < n}
    if lang == 'zh':
        cl = r'[，、：,:;]'
    else:
        cl = r'[,;:](?=\s)'
    c_ends = {m.end() for m in re.finditer(cl, text)} | s_ends
    c_starts = {skip_ws(e) for e in c_ends if skip_ws(e) < n} | s_starts
    s_ends.discard(0)
    c_ends.discard(0)
    return sorted(s_starts), sorted(s_ends), sorted(c_starts), sorted(c_ends)


def cut_passage(doc, rng, used_spans):
    """A span (start, end) of doc (0-based, end exclusive) of PASSAGE_RANGE
    length, at sentence else clause boundaries, avoiding used_spans."""
    text, lang = doc['body'], doc['lang']
    lo, hi = PASSAGE_RANGE[lang]
    if lang == 'zh':
        pref = [0]
        for ch in text:
            pref.append(pref[-1] + (1 if RE_HAN.match(ch) else 0))

        def length(s, e):
            return pref[e] - pref[s]
    else:
        def length(s, e):
            return e - s
    total = length(0, len(text))
    hi_eff = min(hi, total)
    if hi_eff < lo:
        return None
    target = rng.uniform(lo, hi_eff)

    def free(s, e):
        return all(e <= a or s >= b for a, b in used_spans)
    ss, se, cs, ce = boundaries(text, lang)
    for starts, ends in ((ss, se), (cs, ce)):
        order = list(starts)
        rng.shuffle(order)
        for s in order:
            best = None
            for e in ends[bisect.bisect_right(ends, s):]:
                L = length(s, e)
                if L > hi_eff:
                    break
                if L >= lo and free(s, e) and (best is None or abs(L - target) < abs(best[0] - target)):
                    best = (L, e)
            if best:
                return s, best[1]
    # no boundaries fit: any word/character boundary
    for _ in range(50):
        if lang == 'zh':
            hs = [i for i, ch in enumerate(text) if RE_HAN.match(ch)]
            k = int(target)
            if len(hs) < k:
                return None
            i = rng.randrange(0, len(hs) - k + 1)
            s, e = hs[i], hs[i + k - 1] + 1
        else:
            s = rng.randrange(0, max(1, len(text) - int(target)))
            while s > 0 and not text[s - 1].isspace():
                s -= 1
            e = min(len(text), s + int(target))
            while e < len(text) and not text[e].isspace():
                e += 1
            while e > s and text[e - 1].isspace():
                e -= 1
        if lo <= length(s, e) <= hi and free(s, e):
            return s, e
    return None


def edit_zh(text, rng, rate, han):
    pos = [i for i, ch in enumerate(text) if RE_HAN.match(ch)]
    n = max(1, round(rate * len(pos)))
    chosen = sorted(rng.sample(pos, min(n, len(pos))), reverse=True)
    t = list(text)
    for i in chosen:
        op = rng.choice(('replace', 'delete', 'double'))
        if op == 'replace':
            t[i] = han.any_char(rng, t[i])
        elif op == 'delete':
            del t[i]
        else:
            t.insert(i, t[i])
    return ''.join(t), len(chosen) / len(pos)


def typo(word, rng):
    letters = 'abcdefghijklmnopqrstuvwxyz'
    up = word.isupper() and len(word) > 1
    ops = ['insert', 'delete', 'replace']
    if any(word[i] != word[i + 1] for i in range(len(word) - 1)):
        ops.append('transpose')
    op = rng.choice(ops)
    if op == 'insert':
        i = rng.randrange(0, len(word) + 1)
        c = rng.choice(letters)
        return word[:i] + (c.upper() if up else c) + word[i:]
    if op == 'delete':
        i = rng.randrange(0, len(word))
        return word[:i] + word[i + 1:]
    if op == 'replace':
        i = rng.randrange(0, len(word))
        c = rng.choice([x for x in letters if x != word[i].lower()])
        c = c.upper() if word[i].isupper() else c
        return word[:i] + c + word[i + 1:]
    i = rng.choice([i for i in range(len(word) - 1) if word[i] != word[i + 1]])
    return word[:i] + word[i + 1] + word[i] + word[i + 2:]


def edit_en(text, rng, rate):
    words = [m for m in re.finditer(r'[A-Za-z]{2,}', text)]
    n_units = units_of(text)[1]
    n = max(1, round(rate * n_units))
    chosen = sorted(rng.sample(range(len(words)), min(n, len(words))), reverse=True)
    t = text
    for k in chosen:
        m = words[k]
        t = t[:m.start()] + typo(m.group(0), rng) + t[m.end():]
    return t, len(chosen) / n_units


def homophone_zh(text, rng, rate, han):
    pos = [i for i, ch in enumerate(text) if ch in han.reading]
    elig = [i for i in pos if han.homophones(text[i]) is not None]
    if not elig:
        return text, 0.0
    n = max(1, round(rate * len(elig)))
    t = list(text)
    chosen = sorted(rng.sample(elig, min(n, len(elig))))
    for i in chosen:
        t[i] = han.homophone(rng, t[i])
    return ''.join(t), len(chosen) / len(elig)


def opencc_convert(text, config):
    r = subprocess.run(['opencc', '-c', config], input=text, capture_output=True, text=True,
                       check=True)
    out = r.stdout
    if not text.endswith('\n') and out.endswith('\n'):
        out = out[:-1]
    return out


def shares(n, weights, rng):
    """Exactly proportional labels for n items, shuffled."""
    labels = []
    acc = 0.0
    for lab, w in weights:
        acc += w * n
        labels += [lab] * (round(acc) - len(labels))
    labels += [weights[-1][0]] * (n - len(labels))
    rng.shuffle(labels)
    return labels


# --------------------------------------------------------------------------
# Filler

def filler_sentences(piece, lang):
    """A filler piece as [(sentence, ends_paragraph)]."""
    out = []
    for para in piece.split('\n'):
        start = 0
        cuts = [c for c in sentence_cuts(para, lang) if c < len(para)] + [len(para)]
        for c in cuts:
            s = para[start:c].strip()
            start = c
            if s:
                out.append([s, False])
        if out:
            out[-1][1] = True
    return out


class FillerPool:
    def __init__(self, pieces, rng, avoid=()):
        fresh = [p for p in pieces if p['key'] not in avoid]
        old = [p for p in pieces if p['key'] in avoid]
        rng.shuffle(fresh)
        rng.shuffle(old)
        self.order = fresh + old
        self.i = 0
        self.used = set()
        self.wrapped = False

    def take(self, nbytes, lang):
        """Sentences of consecutive filler pieces, about nbytes in all."""
        sents, size = [], 0
        while size < nbytes:
            if self.i >= len(self.order):
                self.i = 0
                self.wrapped = True
            p = self.order[self.i]
            self.i += 1
            self.used.add(p['key'])
            for s, endp in filler_sentences(p['body'], lang):
                b = len(s.encode()) + 1
                if size + b > nbytes and (sents or size >= nbytes):
                    size = nbytes
                    break
                sents.append([s, endp])
                size += b
            if sents:
                sents[-1][1] = True
        return sents


# --------------------------------------------------------------------------
# Queries

def build_queries(corpus, fillers, han, seed, tag, avoid_spans=None, avoid_docs=None,
                  avoid_filler=()):
    """Queries, truth rows, and what they used."""
    queries, truth = [], []
    used_spans = collections.defaultdict(list)
    used_docs = set()
    used_filler = set()
    qn = 0
    for (split, lang), (n_sp, n_empty) in sorted(QUERY_N.items()):
        rng = rng_for('queries', seed, split, lang)
        docs = [d for d in corpus if d['split'] == split and d['lang'] == lang]
        order = list(docs)
        rng.shuffle(order)
        if avoid_docs:
            order = ([d for d in order if d['id'] not in avoid_docs]
                     + [d for d in order if d['id'] in avoid_docs])
        doc_i = 0
        pool = FillerPool([f for f in fillers if f['split'] == split and f['lang'] == lang],
                          rng, avoid_filler)
        npass = shares(n_sp, [(1, 1 / 3), (2, 1 / 3), (3, 1 / 3)], rng)
        total_p = sum(npass)
        if lang == 'zh':
            kinds = shares(total_p, [('verbatim', VERBATIM_SHARE),
                                     ('edited', (1 - VERBATIM_SHARE) * (1 - HOMOPHONE_SHARE_OF_EDITED)),
                                     ('homophone', (1 - VERBATIM_SHARE) * HOMOPHONE_SHARE_OF_EDITED)],
                           rng)
            trad = shares(total_p, [('s2t.json', TRADITIONAL_SHARE / 2),
                                    ('s2twp.json', TRADITIONAL_SHARE / 2),
                                    ('', 1 - TRADITIONAL_SHARE)], rng)
        else:
            kinds = shares(total_p, [('verbatim', VERBATIM_SHARE), ('edited', 1 - VERBATIM_SHARE)],
                           rng)
            trad = [''] * total_p
        layout = ['spliced'] * n_sp + ['empty'] * n_empty
        rng.shuffle(layout)
        k_i = 0
        sp_i = 0
        for kind_q in layout:
            qn += 1
            qid = '%sq%03d' % (tag, qn)
            target = rng.uniform(QUERY_MIN, QUERY_MAX)
            passages = []
            if kind_q == 'spliced':
                k = npass[sp_i]
                sp_i += 1
                srcs = []
                while len(passages) < k:
                    if doc_i >= len(order):
                        doc_i = 0
                    d = order[doc_i]
                    doc_i += 1
                    if d['id'] in srcs:
                        continue
                    span = cut_passage(d, rng, used_spans[d['id']] +
                                       (avoid_spans.get(d['id'], []) if avoid_spans else []))
                    if span is None:
                        continue
                    s, e = span
                    used_spans[d['id']].append((s, e))
                    used_docs.add(d['id'])
                    srcs.append(d['id'])
                    orig = d['body'][s:e]
                    kind, conf = kinds[k_i], trad[k_i]
                    k_i += 1
                    prng = rng_for('passage', seed, qid, len(passages))
                    rate = 0.0
                    if kind == 'verbatim':
                        text = orig
                    elif kind == 'homophone':
                        text, rate = homophone_zh(orig, prng, prng.uniform(*HOMOPHONE_RATE), han)
                    elif lang == 'zh':
                        text, rate = edit_zh(orig, prng, prng.uniform(*EDIT_RATE), han)
                    else:
                        text, rate = edit_en(orig, prng, prng.uniform(*EDIT_RATE))
                    if conf:
                        text = opencc_convert(text, conf)
                    passages.append(dict(doc=d, s=s, e=e, orig=orig, text=text, kind=kind,
                                         conf=conf, rate=rate))
            pbytes = sum(len(p['text'].encode()) for p in passages)
            fbytes = max(target - pbytes - 2 * len(passages), FILLER_MIN if passages else QUERY_MIN)
            sents = pool.take(fbytes, lang)
            # insertion points: sentence boundaries 0..len(sents)
            n_s = len(sents)
            if passages:
                pts = sorted(rng.sample(range(n_s + 1), len(passages))
                             if n_s + 1 >= len(passages)
                             else [rng.randrange(n_s + 1) for _ in passages])
            else:
                pts = []
            body = ''
            last_para_end = True       # at the start: a new paragraph
            pi = 0
            placed = []

            def sep(par_end):
                if not body:
                    return ''
                if par_end or rng.random() < 0.5:
                    return '\n'
                return '' if lang == 'zh' else ' '
            for si in range(n_s + 1):
                while pi < len(pts) and pts[pi] == si:
                    p = passages[pi]
                    body += sep(last_para_end)
                    placed.append((len(body), p))
                    body += p['text']
                    last_para_end = rng.random() < 0.5
                    pi += 1
                if si < n_s:
                    s_text, endp = sents[si]
                    body += sep(last_para_end)
                    body += s_text
                    last_para_end = endp
            for pno, (qs, p) in enumerate(placed, 1):
                truth.append(dict(qid=qid, passage=pno, p=p, qstart=qs))
            queries.append(dict(id=qid, split=split, lang=lang, body=body,
                                passages=[p for _, p in placed]))
        if pool.wrapped:
            say('WARNING: filler pool of %s/%s used more than once' % (split, lang))
        used_filler |= pool.used
    return queries, truth, used_spans, used_docs, used_filler


# --------------------------------------------------------------------------
# Output

def copy_escape(s):
    return (str(s).replace('\\', '\\\\').replace('\t', '\\t').replace('\n', '\\n')
            .replace('\r', '\\r'))


def copy_unescape(s):
    out, i = [], 0
    while i < len(s):
        c = s[i]
        if c == '\\' and i + 1 < len(s):
            n = s[i + 1]
            out.append({'t': '\t', 'n': '\n', 'r': '\r', '\\': '\\'}.get(n, n))
            i += 2
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def write_tsv(path, header, rows):
    with open(path, 'w', encoding='utf-8', newline='\n') as f:
        for r in rows:
            f.write('\t'.join(copy_escape(x) for x in r) + '\n')
    return len(rows)


def read_tsv(path):
    with open(path, encoding='utf-8', newline='\n') as f:
        return [[copy_unescape(x) for x in ln.rstrip('\n').split('\t')] for ln in f]


CORPUS_COLS = ['doc_id', 'split', 'lang', 'package', 'body', 'origin', 'version']
QUERY_COLS = ['query_id', 'split', 'lang', 'body']
TRUTH_COLS = ['query_id', 'passage', 'source_doc_id', 'source_start', 'source_length',
              'query_start', 'query_length', 'units', 'length', 'kind', 'traditional', 'rate',
              'opencc']
ALSO_COLS = ['query_id', 'passage', 'other_doc_id', 'shared']


def verify(out, corpus, queries, truth):
    """Re-read the files and check every offset."""
    docs = {int(r[0]): r for r in read_tsv(os.path.join(out, 'corpus.tsv'))}
    qs = {r[0]: r for r in read_tsv(os.path.join(out, 'queries.tsv'))}
    tr = read_tsv(os.path.join(out, 'truth.tsv'))
    assert len(docs) == len(corpus) and len(qs) == len(queries) and len(tr) == len(truth)
    for r, t in zip(tr, truth):
        src = docs[int(r[2])][4]
        s, sl, q0, ql = int(r[3]), int(r[4]), int(r[5]), int(r[6])
        assert src[s - 1:s - 1 + sl] == t['p']['orig'], r[:3]
        assert qs[r[0]][3][q0 - 1:q0 - 1 + ql] == t['p']['text'], r[:3]
        assert qs[r[0]][1] == docs[int(r[2])][1] and qs[r[0]][2] == docs[int(r[2])][2]
        if r[9] == 'verbatim' and not r[12]:
            assert src[s - 1:s - 1 + sl] == qs[r[0]][3][q0 - 1:q0 - 1 + ql]
    for d in docs.values():
        n = len(d[4].encode())
        assert PIECE_MIN <= n <= PIECE_MAX, (d[0], n)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n\n')[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--out', default='tmp_check/passage_set', help='output directory')
    ap.add_argument('--seed', type=int, default=SEED, help='the seed of the corpus and queries')
    ap.add_argument('--fresh-seed', type=int, default=None,
                    help='a fresh sample of queries over the same corpus')
    ap.add_argument('--stats', action='store_true', help='print the counts')
    ap.add_argument('--inventory', action='store_true',
                    help='print the candidate pieces per source and stop')
    a = ap.parse_args()
    t0 = time.time()
    state = {}
    ensure_opencc(state)
    versions = ensure_debs(state)
    t1 = time.time()
    pieces, per = collect(versions)
    say('extracted %d candidate pieces in %.1f s' % (len(pieces), time.time() - t1))
    if a.inventory:
        for (src, pkg, lang), n in sorted(per.items(), key=lambda x: (SPLIT_OF[x[0][0]], x[0][2], x[0][0])):
            print('%-8s %-3s %-22s %-30s %6d' % (SPLIT_OF[src], lang, src, pkg, n))
        return
    t1 = time.time()
    corpus, filler_cand = select_corpus(pieces, a.seed, filler_reserve=0.25)
    # filler candidates: a random sample of what the queries need (x3), and
    # only pieces sharing no long exact substring with the corpus
    need = collections.Counter()
    for (split, lang), (n_sp, n_empty) in QUERY_N.items():
        need[(split, lang)] = int((n_sp + n_empty) * 3.2 * 2)
    cand = []
    for key in sorted(need):
        lst = [p for p in filler_cand if (p['split'], p['lang']) == key]
        rng_for('filler', a.seed, *key).shuffle(lst)
        cand += lst[:need[key]]
    for i, p in enumerate(cand):
        p['key'] = '%s/%s' % (p['pkg'], p['origin'])
    sh = shared_with_corpus([(p['key'], p['lang'], p['body']) for p in cand], corpus)
    fillers = [p for p in cand if p['key'] not in sh]
    say('filler: %d candidate pieces, %d share >= 40/80 characters with the corpus, %d kept'
        % (len(cand), len(cand) - len(fillers), len(fillers)))
    say('filler checked in %.1f s' % (time.time() - t1))
    t1 = time.time()
    han = Han(corpus)
    queries, truth, spans, docs_used, fill_used = build_queries(corpus, fillers, han, a.seed, '')
    tag = ''
    if a.fresh_seed is not None:
        tag = 'f%d' % a.fresh_seed
        default_filler = fill_used
        queries, truth, _, _, fill_used = build_queries(
            corpus, fillers, han, a.fresh_seed, tag + '-', avoid_spans=spans,
            avoid_docs=docs_used, avoid_filler=default_filler)
        say('fresh queries: %d filler pieces, %d of them also used by seed %d'
            % (len(fill_used), len(fill_used & default_filler), a.seed))
    say('queries built in %.1f s' % (time.time() - t1))
    t1 = time.time()
    also = shared_with_corpus([((t['qid'], t['passage']), t['p']['doc']['lang'], t['p']['orig'])
                               for t in truth], corpus)
    say('other sources found in %.1f s' % (time.time() - t1))
    os.makedirs(a.out, exist_ok=True)
    write_tsv(os.path.join(a.out, 'corpus.tsv'), CORPUS_COLS,
              [(d['id'], d['split'], d['lang'], d['pkg'], d['body'], d['origin'],
                versions[d['pkg']]) for d in corpus])
    write_tsv(os.path.join(a.out, 'queries.tsv'), QUERY_COLS,
              [(q['id'], q['split'], q['lang'], q['body']) for q in queries])
    trows, arows = [], []
    for t in truth:
        p = t['p']
        hanu, words = units_of(p['orig'])
        trows.append((t['qid'], t['passage'], p['doc']['id'], p['s'] + 1, p['e'] - p['s'],
                      t['qstart'] + 1, len(p['text']), hanu + words, hanu + 2 * words,
                      p['kind'], 't' if p['conf'] else 'f', '%.4f' % p['rate'],
                      p['conf'].replace('.json', '')))
        for did, L in sorted(also.get((t['qid'], t['passage']), {}).items()):
            if did != p['doc']['id']:
                arows.append((t['qid'], t['passage'], did, L))
    write_tsv(os.path.join(a.out, 'truth.tsv'), TRUTH_COLS, trows)
    write_tsv(os.path.join(a.out, 'also.tsv'), ALSO_COLS, arows)
    verify(a.out, corpus, queries, truth)
    stats = make_stats(corpus, queries, trows, arows, versions, a, fillers, fill_used)
    with open(os.path.join(a.out, 'manifest.txt'), 'w') as f:
        f.write(stats)
    if a.stats:
        print(stats, end='')
    say('wrote %s: %d documents, %d queries, %d passages, %d other sources, in %.1f s'
        % (a.out, len(corpus), len(queries), len(trows), len(arows), time.time() - t0))


def make_stats(corpus, queries, trows, arows, versions, a, fillers, fill_used):
    L = []
    L.append('textfp passage source retrieval set, tools/make_passage_set.py version %d'
             % GENERATOR_VERSION)
    L.append('seed %d%s' % (a.seed, '' if a.fresh_seed is None else
                            ', queries from fresh seed %d (avoiding the passages, source '
                            'documents and filler of seed %d where possible)'
                            % (a.fresh_seed, a.seed)))
    L.append('columns: corpus.tsv %s; queries.tsv %s; truth.tsv %s; also.tsv %s'
             % (' '.join(CORPUS_COLS), ' '.join(QUERY_COLS), ' '.join(TRUTH_COLS),
                ' '.join(ALSO_COLS)))
    L.append('')
    L.append('corpus documents (split lang: count, KB of UTF-8):')
    c = collections.Counter((d['split'], d['lang']) for d in corpus)
    kb = collections.Counter()
    for d in corpus:
        kb[(d['split'], d['lang'])] += len(d['body'].encode())
    for k in sorted(c):
        L.append('  %-8s %s %5d  %7.0f KB' % (k[0], k[1], c[k], kb[k] / 1024))
    L.append('  total       %5d  %7.0f KB' % (len(corpus), sum(kb.values()) / 1024))
    L.append('')
    L.append('corpus documents per package (split lang source package version: count):')
    cp = collections.Counter((d['split'], d['lang'], d['src'], d['pkg']) for d in corpus)
    for k in sorted(cp):
        L.append('  %-8s %s %-22s %-28s %-32s %4d' % (k[0], k[1], k[2], k[3], versions[k[3]], cp[k]))
    L.append('')
    L.append('filler pieces kept (split lang: available, used by these queries):')
    fc = collections.Counter((f['split'], f['lang']) for f in fillers)
    fu = collections.Counter((f['split'], f['lang']) for f in fillers if f['key'] in fill_used)
    for k in sorted(fc):
        L.append('  %-8s %s %5d %5d' % (k[0], k[1], fc[k], fu[k]))
    L.append('')
    L.append('queries (split lang: spliced, filler only, KB min/median/max):')
    qc = collections.defaultdict(lambda: [0, 0, []])
    for q in queries:
        e = qc[(q['split'], q['lang'])]
        e[0 if q['passages'] else 1] += 1
        e[2].append(len(q['body'].encode()) / 1024)
    for k in sorted(qc):
        s = sorted(qc[k][2])
        L.append('  %-8s %s %4d %4d   %.1f / %.1f / %.1f' % (k[0], k[1], qc[k][0], qc[k][1],
                                                             s[0], s[len(s) // 2], s[-1]))
    L.append('')
    L.append('passages (split lang kind traditional: count, units min/median/max):')
    qsplit = {q['id']: (q['split'], q['lang']) for q in queries}
    pc = collections.defaultdict(list)
    for r in trows:
        pc[qsplit[r[0]] + (r[9], r[10])].append(r[7])
    for k in sorted(pc):
        s = sorted(pc[k])
        L.append('  %-8s %s %-10s %s %4d   %d / %d / %d' % (k + (len(s), s[0], s[len(s) // 2], s[-1])))
    L.append('  total %d passages' % len(trows))
    npq = collections.Counter()
    for q in queries:
        npq[len(q['passages'])] += 1
    L.append('  passages per query: ' + ', '.join('%d: %d' % kv for kv in sorted(npq.items())))
    L.append('')
    have = collections.Counter((r[0], r[1]) for r in arows)
    L.append('other sources (also.tsv): %d rows; %d of %d passages have one or more '
             '(max %d)' % (len(arows), len(have), len(trows), max(have.values() or [0])))
    L.append('')
    L.append('packages and versions:')
    for p in sorted(versions):
        L.append('  %-30s %s' % (p, versions[p]))
    try:
        ov = subprocess.run(['dpkg-query', '-W', '-f=${Version}', OPENCC_PACKAGE],
                            capture_output=True, text=True).stdout.strip()
    except OSError:
        ov = '?'
    L.append('  %-30s %s (installed)' % (OPENCC_PACKAGE, ov or '?'))
    L.append('')
    L.append('splits by source package: dev: %s; heldout: %s'
             % (' '.join(sorted(s for s in SPLIT_OF if SPLIT_OF[s] == DEV)),
                ' '.join(sorted(s for s in SPLIT_OF if SPLIT_OF[s] == HELD))))
    L.append('the heldout split is for one final reading: do not look at it while tuning')
    return '\n'.join(L) + '\n'


if __name__ == '__main__':
    main()
