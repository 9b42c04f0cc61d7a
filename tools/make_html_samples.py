#!/usr/bin/env python3
"""Real HTML pages of Debian's manuals with the text tools/make_corpus.py
extracts from them, to check html_text() against (sql/html_text.sql, and
test/bench/match_accuracy.sh over every page).

Output: TSV in PostgreSQL's COPY text format, one page a line:
  name, html, corpus_text
where corpus_text is what make_corpus.py's BlockParser keeps of the page
(its paragraphs and headings, joined by LF).  make_corpus.py drops more than
html_text() does (tables, <pre>, code, tables of contents, notes): the check
is how much of corpus_text html_text() finds, not equality.

    tools/make_html_samples.py            # rewrite test/data/html_pages.tsv
                                          # (the four committed sample pages)
    tools/make_html_samples.py --all      # every page of the manuals, stdout

Needs python3 and the Debian packages of tools/make_corpus.py (PACKAGES).
"""
import argparse
import glob
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import make_corpus  # noqa: E402

SAMPLES = [
    '/usr/share/doc/debian-handbook/html/zh-CN/sect.dist-upgrade.html',
    '/usr/share/doc/installation-guide-amd64/en/ch02s01.html',
    '/usr/share/doc/maint-guide-zh-cn/html/checkit.zh-cn.html',
    '/usr/share/libreoffice/help/zh-CN/text/swriter/guide/arrange_chapters.html',
]
ALL = [
    '/usr/share/doc/debian-handbook/html/zh-CN/*.html',
    '/usr/share/doc/debian-handbook/html/en-US/*.html',
    '/usr/share/debian-reference/ch*.zh-cn.html',
    '/usr/share/debian-reference/ch*.zh-tw.html',
    '/usr/share/debian-reference/ch*.en.html',
    '/usr/share/doc/installation-guide-amd64/zh_CN/*.html',
    '/usr/share/doc/installation-guide-amd64/en/*.html',
    '/usr/share/doc/maint-guide-zh-cn/html/*.zh-cn.html',
    '/usr/share/doc/maint-guide/html/*.en.html',
    '/usr/share/libreoffice/help/zh-CN/text/swriter/guide/*.html',
    '/usr/share/libreoffice/help/zh-TW/text/swriter/guide/*.html',
]


def row(path):
    with open(path, encoding='utf-8', errors='replace') as f:
        html = f.read()
    text = '\n'.join(t for _, _, t in make_corpus.html_blocks(path))
    name = os.path.relpath(path, '/usr/share')
    return '%s\t%s\t%s\n' % (name, make_corpus.copy_escape(html), make_corpus.copy_escape(text))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--all', action='store_true')
    ap.add_argument('--out', default=os.path.join(HERE, '..', 'test', 'data', 'html_pages.tsv'))
    a = ap.parse_args()
    if a.all:
        for pat in ALL:
            for p in sorted(glob.glob(pat)):
                sys.stdout.write(row(p))
        return
    with open(a.out, 'w', encoding='utf-8', newline='\n') as f:
        for p in SAMPLES:
            f.write(row(p))


if __name__ == '__main__':
    main()
