#!/usr/bin/env python3
"""Write a copy of a pg_regress script with a line run after each top-level
statement (test/harden/plan_stability.sh: an autovacuum worker's visit,
VACUUM and ANALYZE from another session).

An autovacuum worker may visit a test's tables between any two of its
statements.  Run with these copies, a test whose output still equals its
expected file does not depend on whether that happened; one whose output
changes prints a plan, an order or a statistic that autovacuum can change
under CI's load.

Usage: inject_analyze.py IN.sql OUT.sql LINE

The split is a psql script's, closely enough for the tests: a statement ends
at a line whose last character outside comments and quotes (single quotes,
double quotes, dollar quotes) is ';'.  Nothing is added inside a COPY ...
FROM stdin's data or after a psql meta-command line.
"""
import re
import sys

DOLLAR = re.compile(r"\$([A-Za-z_][A-Za-z_0-9]*)?\$")


def scan(line, state):
    """Advance the quote state over one line; return (state, last
    significant character outside quotes and comments)."""
    i, n, last = 0, len(line), ""
    while i < n:
        c = line[i]
        if state["block"]:
            if line.startswith("*/", i):
                state["block"] -= 1
                i += 2
                continue
            if line.startswith("/*", i):
                state["block"] += 1
                i += 2
                continue
            i += 1
            continue
        if state["dollar"] is not None:
            end = line.find(state["dollar"], i)
            if end < 0:
                return state, last
            i = end + len(state["dollar"])
            state["dollar"] = None
            last = "$"
            continue
        if state["quote"]:
            q = state["quote"]
            if c == q:
                if i + 1 < n and line[i + 1] == q:
                    i += 2
                    continue
                state["quote"] = None
                last = q
            i += 1
            continue
        if line.startswith("--", i):
            break
        if line.startswith("/*", i):
            state["block"] = 1
            i += 2
            continue
        if c in "'\"":
            state["quote"] = c
            i += 1
            continue
        if c == "$":
            m = DOLLAR.match(line, i)
            if m and (i == 0 or not (line[i - 1].isalnum() or line[i - 1] == "_")):
                state["dollar"] = m.group(0)
                i = m.end()
                continue
        if not c.isspace():
            last = c
        i += 1
    return state, last


def main():
    src, dst, mark = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(src, encoding="utf-8") as f:
        lines = f.read().split("\n")
    out = []
    state = {"quote": None, "dollar": None, "block": 0}
    in_copy = False
    stmt = []  # the lines of the statement read so far (none: between statements)
    for line in lines:
        out.append(line)
        if in_copy:
            if line.strip() == "\\.":
                in_copy = False
            continue
        if not stmt and line.lstrip().startswith("\\"):
            continue
        state, last = scan(line, state)
        quoted = state["quote"] is not None or state["dollar"] is not None or state["block"]
        if last or quoted or stmt:
            stmt.append(line)
        if stmt and not quoted and last == ";":
            text = " ".join(stmt)
            stmt = []
            if re.search(r"\bCOPY\b.*\bFROM\s+stdin\b", text, re.I | re.S):
                in_copy = True
                continue
            out.append(mark)
    with open(dst, "w", encoding="utf-8") as f:
        f.write("\n".join(out))


if __name__ == "__main__":
    main()
