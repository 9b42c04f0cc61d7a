#!/usr/bin/env python3
"""check_sql_refs.py SCRIPT.sql ... -- lint extension install and update
scripts for the references a hostile schema could capture (the
CVE-2020-14350 class; PostgreSQL's "Security Considerations for Extension
Scripts").  While a script runs, search_path is the extension's schema, which
may be one that untrusted users can create objects in (public), and bodies of
SQL and PL/pgSQL functions are resolved again at each call, with the
caller's search_path.  Reported, one line each, exit status 1 if any:

* CREATE OR REPLACE and IF NOT EXISTS (they would adopt an object an
  attacker made in advance), but for CREATE OR REPLACE FUNCTION in an update
  script textfp--A--B.sql of a function that textfp--A.sql (beside it)
  creates: a member of the extension already, which the server replaces
  only as such (since the fix of CVE-2022-2625 it refuses to replace, in an
  extension script, an object that is not a member), the one way to change
  a function's parameter defaults without dropping the users' objects that
  depend on it;
* a created object whose name is not @extschema@-qualified;
* a reference to an object the scripts define that is not
  @extschema@-qualified (in any clause: SUPPORT, RESTRICT, operator classes,
  casts, argument and return types, ...);
* inside code that is parsed later or with a search_path the script does not
  control (DO blocks, LANGUAGE sql / plpgsql function bodies without a SET
  search_path clause, views): a function call or an operator not
  schema-qualified (write pg_catalog.f(...) and OPERATOR(pg_catalog.=)).

Names that resolve by exact signature in pg_catalog, which the server always
searches first in a script (RESTRICT = eqsel, FUNCTION 1 btint4cmp(int4,
int4) ...), are allowed unqualified outside such bodies."""
import re
import sys

TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<comment>--[^\n]*|/\*.*?\*/)
  | (?P<dollar>\$(?P<tag>[A-Za-z_]*)\$.*?\$(?P=tag)\$)
  | (?P<string>[EeBbXx]?'(?:[^']|'')*')
  | (?P<qident>"(?:[^"]|"")*")
  | (?P<ext>@extschema@)
  | (?P<ident>[A-Za-z_][A-Za-z_0-9$]*)
  | (?P<number>\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)
  | (?P<cast>::)
  | (?P<assign>:=)
  | (?P<op>[-+*/<>=~!@#%^&|`?]+)
  | (?P<punct>[(),;\[\].:])
""", re.S | re.X)

# words followed by "(" that are syntax, not function calls
SYNTAX = set("""
    and or not in any all some exists array row values cast coalesce nullif
    greatest least case when then else end if elsif loop foreach while for
    exit continue return returns query using into from where select filter
    over within group by order partition extract overlay position substring
    trim as on join lateral raise perform execute with recursive interval
    with_check check references primary unique key default table setof
    operator function procedure storage grouping values insert update delete
    set is null true false like ilike similar between distinct limit offset
""".split())
# built-in type names that take a modifier: "bit(64)", "numeric(10, 2)"
TYPEMOD = set("""bit varbit varchar character char numeric decimal time timestamp
    timestamptz interval float""".split())


def tokens(text):
    pos, out = 0, []
    while pos < len(text):
        m = TOKEN.match(text, pos)
        if not m:
            raise SystemExit("cannot tokenize at: %r" % text[pos:pos + 40])
        pos = m.end()
        kind = m.lastgroup if m.lastgroup != 'tag' else 'dollar'
        if kind in ('ws', 'comment'):
            continue
        out.append((kind, m.group(kind) if kind != 'dollar' else m.group('dollar'), m.start()))
    return out


def statements(toks):
    cur = []
    for t in toks:
        if t[0] == 'punct' and t[1] == ';':
            if cur:
                yield cur
            cur = []
        else:
            cur.append(t)
    if cur:
        yield cur


def lower(t):
    return t[1].lower() if t[0] == 'ident' else t[1]


def body_text(tok):
    m = re.match(r"\$([A-Za-z_]*)\$(.*)\$\1\$$", tok, re.S)
    if m:
        return m.group(2)
    if tok.startswith("'"):
        return tok[1:-1].replace("''", "'")
    return None


# PL/pgSQL statements whose "name = value" is syntax, not an operator:
# RAISE ... USING ERRCODE = ..., GET [STACKED] DIAGNOSTICS v = ROW_COUNT
RAISE_OPTIONS = set("errcode message detail hint column constraint datatype table schema".split())


def check_body(where, body, problems, line):
    """every call and operator in code resolved later must be qualified"""
    toks = tokens(body)
    stmt = 0            # index of the first token of the current statement
    using = False       # a RAISE statement's USING seen
    for i, t in enumerate(toks):
        prev = toks[i - 1] if i else ('', '', 0)
        nxt = toks[i + 1] if i + 1 < len(toks) else ('', '', 0)
        if t[1] == ';' or lower(t) in ('then', 'loop', 'else', 'begin'):
            stmt, using = i + 1, False
            continue
        head = lower(toks[stmt]) if stmt < len(toks) else ''
        if head == 'raise' and lower(t) == 'using':
            using = True
        if t[0] == 'ident' and nxt[1] == '(':
            w = t[1].lower()
            if prev[1] == '.' or prev[0] == 'cast' or w in SYNTAX:
                continue
            # a table alias with column names: "unnest(a) AS u(x)", "f(a) u(x)"
            if lower(prev) == 'as' or prev[1] == ')':
                continue
            if prev[0] == 'ident' and prev[1].lower() in TYPEMOD | {'double', 'precision'}:
                continue
            if w in TYPEMOD and prev[0] in ('cast',):
                continue
            problems.append("%s: %s: unqualified call %s(...) in %s" % (where, line, t[1], 'body'))
        elif t[0] == 'op':
            # count(*), and "name = value" as statement syntax
            if t[1] == '*' and prev[1] == '(' and nxt[1] == ')':
                continue
            if t[1] == '=' and prev[0] == 'ident' and (
                    (using and lower(prev) in RAISE_OPTIONS) or
                    (head == 'get' and 'diagnostics' in [lower(x) for x in toks[stmt:i]])):
                continue
            if prev[1] == '(' and toks[i - 2][1].lower() == 'operator' if i >= 2 else False:
                continue
            if i >= 3 and toks[i - 1][1] == '.' and toks[i - 3][1] == '(' and \
                    toks[i - 4][1].lower() == 'operator':
                continue
            problems.append("%s: %s: unqualified operator %s in body" % (where, line, t[1]))


def created_functions(path):
    """the names of the functions an install script creates"""
    try:
        text = open(path, encoding='utf-8').read()
    except OSError:
        return set()
    return {m.group(1).lower() for m in
            re.finditer(r"CREATE\s+FUNCTION\s+@extschema@\.\"?([A-Za-z_0-9]+)", text, re.I)}


def replaced_member(path, words):
    """is this CREATE OR REPLACE FUNCTION, in an update script
    NAME--A--B.sql, one of a function NAME--A.sql creates?"""
    m = re.match(r'(.*/)?([A-Za-z_0-9]+)--([0-9.]+)--[0-9.]+\.sql$', path)
    if not m:
        return False
    k = words.index('function') + 1
    if words[k:k + 2] == ['@extschema@', '.']:
        k += 2
    if k >= len(words):
        return False
    prev = '%s%s--%s.sql' % (m.group(1) or '', m.group(2), m.group(3))
    return words[k].strip('"') in created_functions(prev)


def main(paths):
    problems = []
    # psql meta-commands (\echo ... \quit) blanked out, offsets kept
    texts = {p: re.sub(r"(?m)^\\.*$", lambda m: ' ' * len(m.group(0)),
                       open(p, encoding='utf-8').read()) for p in paths}
    # names the scripts define
    defined = set()
    for text in texts.values():
        for m in re.finditer(r"CREATE\s+(?:OR\s+REPLACE\s+)?(?:FUNCTION|TYPE|AGGREGATE|PROCEDURE|"
                             r"OPERATOR\s+CLASS|OPERATOR\s+FAMILY|VIEW|TABLE|SEQUENCE|DOMAIN)\s+"
                             r"(?:IF\s+NOT\s+EXISTS\s+)?(?:@extschema@\.)?\"?([A-Za-z_0-9]+)",
                             text, re.I):
            defined.add(m.group(1).lower())
        for m in re.finditer(r"ALTER\s+\w+(?:\s+\w+)?\s+@extschema@\.[A-Za-z_0-9]+(?:\([^)]*\))?"
                             r"(?:\s+USING\s+\w+)?\s+RENAME\s+TO\s+([A-Za-z_0-9]+)", text, re.I):
            defined.add(m.group(1).lower())
    for path, text in texts.items():
        toks = tokens(text)
        for st in statements(toks):
            line = text.count('\n', 0, st[0][2]) + 1
            words = [lower(t) for t in st]
            head = ' '.join(words[:4])
            where = "%s:%d" % (path, line)
            joined = ' '.join(words)
            if 'create or replace' in joined and not (
                    joined.startswith('create or replace function') and
                    replaced_member(path, words)):
                problems.append("%s: CREATE OR REPLACE" % where)
            if 'if not exists' in joined:
                problems.append("%s: IF NOT EXISTS" % where)
            if words[0] == 'create':
                k = 1
                while k < len(words) and words[k] in ('or', 'replace', 'trusted', 'temporary', 'temp',
                                                      'unlogged', 'materialized', 'recursive', 'default'):
                    k += 1
                kind = words[k] if k < len(words) else ''
                if kind == 'operator' and k + 1 < len(words) and words[k + 1] in ('class', 'family'):
                    k += 1
                if kind in ('function', 'type', 'aggregate', 'procedure', 'operator', 'class', 'family',
                            'view', 'table', 'sequence', 'domain') or words[k] in ('class', 'family'):
                    k += 1
                    while k < len(st) and lower(st[k]) in ('if', 'not', 'exists'):
                        k += 1
                    nt = st[k] if k < len(st) else ('', '', 0)
                    if nt[0] != 'ext':
                        problems.append("%s: %s %s not @extschema@-qualified" % (where, head, nt[1]))
            # references to the extension's own objects
            for i, t in enumerate(st):
                if t[0] != 'ident' or t[1].lower() not in defined:
                    continue
                prev = st[i - 1] if i else ('', '', 0)
                nxt = st[i + 1] if i + 1 < len(st) else ('', '', 0)
                if prev[1] == '.' and i >= 2 and st[i - 2][0] in ('ext', 'ident', 'qident'):
                    continue
                # argument and column names: "name type" inside a definition list
                if nxt[0] in ('ident', 'ext') and (prev[1] in ('(', ',') or
                                                   prev[1].lower() in ('in', 'out', 'inout', 'variadic')):
                    continue
                # named arguments in defaults / calls: "ngram => 5"
                if nxt[1] in ('=>',):
                    continue
                if prev[1].lower() in ('rename', 'to') or (prev[1].lower() == 'as' and words[0] == 'create'
                                                            and 'aggregate' not in words):
                    continue
                problems.append("%s: unqualified reference to the extension's %s" % (where, t[1]))
            # code resolved later or with another search_path
            is_do = words[0] == 'do'
            is_fn = words[0] == 'create' and ('function' in words[:4] or 'procedure' in words[:4])
            lang = None
            if 'language' in words:
                lang = words[words.index('language') + 1].strip("'").lower()
            has_set_path = any(words[i] == 'set' and i + 1 < len(words) and words[i + 1] == 'search_path'
                               for i in range(len(words)))
            if is_do or (is_fn and lang in ('sql', 'plpgsql') and not has_set_path):
                for t in st:
                    if t[0] == 'dollar' or (is_fn and t[0] == 'string' and len(t[1]) > 2):
                        check_body(where, body_text(t[1]), problems, "body")
            if words[0] == 'create' and 'view' in words[:4]:
                i = words.index('as')
                check_body(where, text[st[i + 1][2]:st[-1][2] + len(st[-1][1])], problems, "view")
    for p in problems:
        print(p)
    print("%d script(s), %d problem(s)" % (len(paths), len(problems)))
    return 1 if problems else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
