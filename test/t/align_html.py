"""align_html.py MANIFEST -- check textfp_compare_html() output with an
HTML5 parser (test/t/110_align_html.pl writes the manifest: one JSON object
a line with the file of the HTML, whether it is a page, the context, the
texts, the titles and the passages textfp_align() returned).

Each output must parse without a single parse error (html5lib in strict
mode: the HTML5 parsing algorithm), have unique ids and links that resolve,
mark every passage on both sides with the same colour, and show exactly the
passage's text (substr() of the input at textfp_align's positions) inside
its mark; with context -1 the columns' text is the input (line breaks as
LF, invalid or control characters as U+FFFD).  Prints TAP-like lines
"ok - ..." / "not ok - ..."; exit status 1 if any check failed."""
import json
import re
import sys

import html5lib

NS = '{http://www.w3.org/1999/xhtml}'
failed = 0


def report(ok, what):
    global failed
    print(('ok - ' if ok else 'not ok - ') + what)
    if not ok:
        failed += 1


def text_of(el, skip_labels=True):
    """text content, without the passage number labels"""
    out = []

    def walk(e):
        if skip_labels and e.tag == NS + 'a' and 'textfp-n' in e.get('class', '').split():
            if e.tail:
                out.append(e.tail)
            return
        if e.text:
            out.append(e.text)
        for c in e:
            walk(c)
        if e.tail:
            out.append(e.tail)

    if el.text:
        out.append(el.text)
    for c in el:
        walk(c)
    return ''.join(out)


def expected_text(s):
    s = s.replace('\r\n', '\n').replace('\r', '\n')
    return ''.join('\ufffd' if (ord(c) < 32 and c not in '\t\n') or 0x7f <= ord(c) <= 0x9f
                   or 0xfdd0 <= ord(c) <= 0xfdef or (ord(c) & 0xfffe) == 0xfffe else c
                   for c in s)


def check(case):
    name = case['file']
    with open(case['file'], 'rb') as f:
        data = f.read()
    parser = html5lib.HTMLParser(strict=True, namespaceHTMLElements=True)
    try:
        if case['page']:
            doc = parser.parse(data)
        else:
            doc = parser.parseFragment(data.decode('utf-8'), container='body')
    except Exception as e:  # html5lib raises ParseError on the first error
        report(False, '%s: parses without errors (%s)' % (name, e))
        return
    report(True, '%s: parses without errors' % name)
    els = list(doc.iter())
    ids = [e.get('id') for e in els if e.get('id') is not None]
    report(len(ids) == len(set(ids)), '%s: ids unique' % name)
    hrefs = [e.get('href') for e in els if e.tag == NS + 'a' and e.get('href') is not None]
    report(all(h.startswith('#') and h[1:] in ids for h in hrefs), '%s: every link resolves' % name)
    marks = {e.get('id'): e for e in els if e.tag == NS + 'mark'}
    if case['a'] is None:       # texts not given (bytes that are not UTF-8)
        report(len(marks) % 2 == 0 and len(marks) > 0, '%s: passages marked on both sides' % name)
        return
    ok_colour = ok_text = True
    for k, p in enumerate(case['passages'], 1):
        ma = [m for i, m in marks.items() if i.endswith('-a%d' % k)]
        mb = [m for i, m in marks.items() if i.endswith('-b%d' % k)]
        if len(ma) != 1 or len(mb) != 1:
            ok_colour = ok_text = False
            continue
        if ma[0].get('class') != mb[0].get('class'):
            ok_colour = False
        a_sub = case['a'][p['a_start'] - 1:p['a_start'] - 1 + p['a_length']]
        b_sub = case['b'][p['b_start'] - 1:p['b_start'] - 1 + p['b_length']]
        if text_of(ma[0]) != expected_text(a_sub) or text_of(mb[0]) != expected_text(b_sub):
            ok_text = False
            print('# passage %d: %r | %r' % (k, text_of(ma[0])[:80], expected_text(a_sub)[:80]))
    report(len(marks) == 2 * len(case['passages']), '%s: %d passages, %d marks'
           % (name, len(case['passages']), len(marks)))
    report(ok_colour, '%s: each passage in the same colour on both sides' % name)
    report(ok_text, '%s: each mark holds its passage\'s text (substr at textfp_align\'s positions)'
           % name)
    if case['context'] == -1:
        tds = [e for e in els if e.tag == NS + 'td']
        same = len(tds) == 2 and text_of(tds[0]) == expected_text(case['a']) \
            and text_of(tds[1]) == expected_text(case['b'])
        report(same, '%s: the columns show the whole texts' % name)
    else:
        el = [e for e in els if e.tag == NS + 'span' and e.get('class') == 'textfp-elided']
        report(len(data) < 4 * (len(case['a']) + len(case['b'])) + 4096 or el,
               '%s: context %d keeps the output short' % (name, case['context']))
    summary = [e for e in els if e.get('class') == 'textfp-summary']
    report(len(summary) == 1 and re.search(r'^\d+ passages? in common: ', text_of(summary[0])),
           '%s: a summary line' % name)


for line in open(sys.argv[1], encoding='utf-8'):
    if line.strip():
        check(json.loads(line))
sys.exit(1 if failed else 0)
