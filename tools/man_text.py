#!/usr/bin/env python3
"""man_text.py -- real text from Debian's installed manual pages, for
test/bench/bit_balance.sh (text that is not part of test/data, from which
simhash's centering reference was made).

    tools/man_text.py zh|en para|2k [LIMIT]

Reads the troff sources under /usr/share/man/zh_CN/man*/ (package
manpages-zh) or /usr/share/man/man[1-8]/ (English), strips the markup
crudely (requests, font escapes, special characters), and prints one text
per line: each distinct paragraph of at least 12 characters ("para"), or runs
of consecutive paragraphs of a page of at least 2,048 bytes ("2k"), with
"\\n" between paragraphs.  Exact duplicates (licence boilerplate shared by
many pages) are printed once.  The order is shuffled with a fixed seed, and
at most LIMIT texts (default 40000) are printed.
"""
import glob
import gzip
import random
import re
import sys

REQUEST_BREAK = re.compile(r"^[.'](SH|SS|PP|P|LP|TP|IP|sp|br|HP|RS|RE|nf|fi|TH)\b")
REQUEST_TEXT = re.compile(r"^[.'](?:B|I|BR|IR|RB|RI|BI|IB|SM)\s+(.*)")


def paragraphs(path):
    try:
        raw = gzip.open(path, 'rb').read() if path.endswith('.gz') else open(path, 'rb').read()
        src = raw.decode('utf-8')
    except (OSError, UnicodeDecodeError, EOFError):
        return []
    paras, cur = [], []
    for line in src.split('\n'):
        if line.startswith(('.', "'")):
            m = REQUEST_TEXT.match(line)
            if m:
                cur.append(m.group(1).replace('"', ''))
            elif REQUEST_BREAK.match(line) and cur:
                paras.append(' '.join(cur))
                cur = []
            continue
        line = re.sub(r'\\f(\[[^\]]*\]|\(..|.)', '', line)
        line = re.sub(r'\\\*(\[[^\]]*\]|\(..|.)', '', line)
        line = re.sub(r'\\\(..', ' ', line)
        line = re.sub(r'\\-', '-', line)
        line = re.sub(r'\\e', '\\\\', line)
        line = re.sub(r'\\.', '', line)
        if line.strip():
            cur.append(line.strip())
        elif cur:
            paras.append(' '.join(cur))
            cur = []
    if cur:
        paras.append(' '.join(cur))
    return [' '.join(p.split()) for p in paras if p.strip()]


def main():
    lang, mode = sys.argv[1], sys.argv[2]
    limit = int(sys.argv[3]) if len(sys.argv) > 3 else 40000
    pattern = '/usr/share/man/zh_CN/man*/*' if lang == 'zh' else '/usr/share/man/man[1-8]/*'
    out, seen = [], set()
    for path in sorted(glob.glob(pattern)):
        paras = paragraphs(path)
        if mode == 'para':
            texts = [p for p in paras if len(p) >= 12]
        else:
            texts, cur = [], []
            for p in paras:
                cur.append(p)
                if len('\\n'.join(cur).encode()) >= 2048:
                    texts.append('\\n'.join(cur))
                    cur = []
        for t in texts:
            if t not in seen:
                seen.add(t)
                out.append(t)
    random.Random(1).shuffle(out)
    for t in out[:limit]:
        print(t)


if __name__ == '__main__':
    main()
