#!/usr/bin/env python3
"""Check the relative links of textfp's Markdown pages.

    python3 test/lib/check_links.py [--root DIR] [FILE.md ...]
    python3 test/lib/check_links.py --self-test

Every relative link `[text](path)`, `[text](path#anchor)` and `[text](#anchor)` (images too) in
README.md, docs/*.md and the READMEs of src/, test/, tools/ and test/data/ must name a file or
folder that exists (relative to the linking file), and an anchor must exist in the target
Markdown page: a heading's slug by GitHub's rules (lower case; characters other than letters,
digits, marks, spaces, hyphens and underscores dropped; each space a hyphen; the second heading
with one slug gets "-1", the third "-2", ...; a code span keeps its text, a link its text), or an
explicit <a name="..."> / id="..." anchor. Links with a scheme (http:, https:, mailto:, ...),
links inside fenced code blocks and inside code spans are not links.

Output is TAP: one "ok N - FILE: TARGET" or "not ok N - FILE:LINE: TARGET (reason)" line per
link, then "1..N"; the exit status is 1 if any link is broken. Standard library only.
"""

import os
import re
import sys
import tempfile
import unicodedata
from urllib.parse import unquote

DEFAULT_FILES = ["README.md", "docs/*.md", "src/README.md", "test/README.md",
                 "tools/README.md", "test/data/README.md"]

FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
ATX = re.compile(r"^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$")
SETEXT = re.compile(r"^ {0,3}(=+|-+)[ \t]*$")
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
# [text](target "title") or ![alt](<target>); text may hold one level of brackets
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(<[^>]*>|[^\s()]*(?:\([^\s()]*\)[^\s()]*)*)"
                  r"(?:\s+(?:\"[^\"]*\"|'[^']*'))?\s*\)")
REFDEF = re.compile(r"^ {0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
EXPLICIT = re.compile(r"""<a\s[^>]*?\bname\s*=\s*["']([^"']+)["']|\bid\s*=\s*["']([^"']+)["']""",
                      re.I)
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")


def strip_code_spans(text):
    """Replace code spans by spaces of their length (so columns keep their meaning)."""
    return CODE_SPAN.sub(lambda m: " " * len(m.group(0)), text)


def heading_text(raw):
    """The plain text of a heading as GitHub renders it: code spans keep their text, links
    and images their text, HTML tags and emphasis markers go."""
    t = CODE_SPAN.sub(lambda m: m.group(2).strip(), raw)
    t = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", t)
    t = re.sub(r"<[^>]+>", "", t)
    return t


def slug(text):
    out = []
    for ch in text.strip().lower():
        if ch in " -_":
            out.append("-" if ch == " " else ch)
        elif ch.isalnum() or unicodedata.category(ch).startswith("M"):
            out.append(ch)
    return "".join(out)


def scan(path):
    """Return (anchors, links) of a Markdown file: the set of anchors it defines and the
    list of (line number, target) of its links outside code. A link may span lines within a
    paragraph, and so may a code span."""
    anchors, links, seen = set(), [], {}
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    fence = None
    prev = None  # the previous line, if it could be a setext heading's text
    para, para_start = [], 0  # the current paragraph's lines, and its first line number

    def flush():
        if not para:
            return
        text = CODE_SPAN.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), "\n".join(para))
        for l in LINK.finditer(text):
            links.append((para_start + text.count("\n", 0, l.start()), l.group(1)))
        for n, line in enumerate(text.split("\n"), para_start):
            r = REFDEF.match(line)
            if r:
                links.append((n, r.group(1)))
        del para[:]

    for n, line in enumerate(lines, 1):
        m = FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) \
                    and not line.strip().strip(fence[0]):
                fence = None
            prev = None
            continue
        if m:
            flush()
            fence = m.group(1)
            prev = None
            continue
        heading = None
        h = ATX.match(line)
        if h:
            heading = h.group(2) or ""
        elif prev is not None and SETEXT.match(line) and prev.strip() \
                and not prev.lstrip().startswith(("|", ">", "*", "-", "+")):
            heading = prev
        if heading is not None:
            base = slug(heading_text(heading))
            k = seen.get(base, 0)
            anchors.add(base if k == 0 else "%s-%d" % (base, k))
            seen[base] = k + 1
        for e in EXPLICIT.finditer(line):
            anchors.add(e.group(1) or e.group(2))
        if not line.strip() or h:
            flush()
            if h:
                para_start = n
                para.append(line)
                flush()
        else:
            if not para:
                para_start = n
            para.append(line)
        prev = line if not h and line.strip() else None
    flush()
    return anchors, links


def check(root, files):
    """Check every link of the files (paths relative to root). Returns a list of
    (file, line, target, reason or None)."""
    cache = {}

    def anchors_of(path):
        if path not in cache:
            cache[path] = scan(path)[0]
        return cache[path]

    results = []
    for rel in files:
        path = os.path.join(root, rel)
        _, links = scan(path)
        for line, target in links:
            t = target[1:-1] if target.startswith("<") else target
            if not t or SCHEME.match(t) or t.startswith("//"):
                continue
            file_part, _, anchor = t.partition("#")
            file_part, anchor = unquote(file_part), unquote(anchor)
            if file_part:
                dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part))
                if not os.path.exists(dest):
                    results.append((rel, line, target, "no such file"))
                    continue
            else:
                dest = path
            if anchor and dest.endswith(".md") and os.path.isfile(dest):
                if anchor not in anchors_of(dest) and anchor.lower() not in anchors_of(dest):
                    results.append((rel, line, target, "no such anchor"))
                    continue
            results.append((rel, line, target, None))
    return results


def tap(results, out=sys.stdout):
    failed = 0
    for i, (rel, line, target, reason) in enumerate(results, 1):
        if reason is None:
            print("ok %d - %s: %s" % (i, rel, target), file=out)
        else:
            failed += 1
            print("not ok %d - %s:%d: %s (%s)" % (i, rel, line, target, reason), file=out)
    print("1..%d" % len(results), file=out)
    return failed


def default_files(root):
    import glob
    files = []
    for pattern in DEFAULT_FILES:
        for p in sorted(glob.glob(os.path.join(root, pattern))):
            files.append(os.path.relpath(p, root))
    return files


SELF_TEST_TREE = {
    "a.md": """# Title

## Same
## Same
## `code` span and *emphasis*
## Scheduling with pg_cron: textfp_match → verdict
## 中文 标题
Setext heading
--------------
<a name="custom"></a>
<div id="other-id"></div>

good: [t](#title) [t](#same) [t](#same-1) [t](#code-span-and-emphasis)
good: [t](#scheduling-with-pg_cron-textfp_match--verdict) [t](#中文-标题) [t](#setext-heading)
good: [t](#custom) [t](#other-id) [t](b.md) [t](b.md#b-heading) [t](sub/c.md#c) [t](sub/)
good: [t](sub/c.md "title") ![img](sub/c.md) [t](#%E4%B8%AD%E6%96%87-%E6%A0%87%E9%A2%98)
skipped: [t](https://example.com/#x) [t](mailto:a@b) `[t](inline-code.md)`

```sql
SELECT '[t](fenced-missing.md)';
```

bad: [t](missing.md) [t](b.md#no-such) [t](#same-2) [t](#nope) [t](sub/c.md#b-heading)

A link whose text runs over [two
lines](#no-anchor-here), and a code span `over two
lines [t](code-span-missing.md)` that is no link.
""",
    "b.md": "# B heading\n\ntext\n",
    "sub/c.md": "# C\n\nback: [t](../a.md#title)\n",
}

SELF_TEST_EXPECT = {
    # (file, target): expected reason (None = accepted)
    ("a.md", "#title"): None, ("a.md", "#same"): None, ("a.md", "#same-1"): None,
    ("a.md", "#code-span-and-emphasis"): None,
    ("a.md", "#scheduling-with-pg_cron-textfp_match--verdict"): None,
    ("a.md", "#中文-标题"): None, ("a.md", "#setext-heading"): None,
    ("a.md", "#custom"): None, ("a.md", "#other-id"): None, ("a.md", "b.md"): None,
    ("a.md", "b.md#b-heading"): None, ("a.md", "sub/c.md#c"): None, ("a.md", "sub/"): None,
    ("a.md", "sub/c.md"): None,
    ("a.md", "#%E4%B8%AD%E6%96%87-%E6%A0%87%E9%A2%98"): None,
    ("sub/c.md", "../a.md#title"): None,
    ("a.md", "missing.md"): "no such file", ("a.md", "b.md#no-such"): "no such anchor",
    ("a.md", "#same-2"): "no such anchor", ("a.md", "#nope"): "no such anchor",
    ("a.md", "sub/c.md#b-heading"): "no such anchor",
    ("a.md", "#no-anchor-here"): "no such anchor",
}


def self_test():
    n = 0
    failed = 0

    def result(okay, name):
        nonlocal n, failed
        n += 1
        if not okay:
            failed += 1
        print("%s %d - %s" % ("ok" if okay else "not ok", n, name))

    with tempfile.TemporaryDirectory() as root:
        for rel, text in SELF_TEST_TREE.items():
            os.makedirs(os.path.dirname(os.path.join(root, rel)) or root, exist_ok=True)
            with open(os.path.join(root, rel), "w", encoding="utf-8") as f:
                f.write(text)
        got = {}
        for rel, line, target, reason in check(root, ["a.md", "sub/c.md"]):
            got.setdefault((rel, target), []).append(reason)
        for key, want in SELF_TEST_EXPECT.items():
            reasons = got.get(key)
            if want is None:
                result(bool(reasons) and all(r is None for r in reasons), "accepts %s: %s" % key)
            else:
                result(reasons == [want], "rejects %s: %s (%s; got %s)" % (key + (want, reasons)))
        for key in got:
            if key not in SELF_TEST_EXPECT:
                result(False, "unexpected link %s: %s (%s)" % (key + (got[key],)))
        for skipped in ("https://example.com/#x", "mailto:a@b", "inline-code.md",
                        "fenced-missing.md", "code-span-missing.md"):
            result(("a.md", skipped) not in got, "skips %s" % skipped)
        # the whole TAP run of the tree: exit status 1 and one "not ok" per broken link
        import io
        buf = io.StringIO()
        total = sum(len(v) for v in got.values())
        bad = tap(check(root, ["a.md", "sub/c.md"]), out=buf)
        lines = buf.getvalue().splitlines()
        result(bad == 6 and sum(l.startswith("not ok") for l in lines) == 6
               and lines[-1] == "1..%d" % total,
               "TAP of the tree: 6 broken links of %d" % total)
        result(any(l.startswith("not ok") and "a.md:" in l and ": #nope (no such anchor)" in l
                   for l in lines), "a broken link is reported with its file and line")
    print("1..%d" % n)
    return 1 if failed else 0


def main(argv):
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    files = []
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--self-test":
            return self_test()
        if a == "--root":
            root = args.pop(0)
        elif a in ("-h", "--help"):
            print(__doc__)
            return 0
        else:
            files.append(a)
    if not files:
        files = default_files(root)
    return 1 if tap(check(root, files)) else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
