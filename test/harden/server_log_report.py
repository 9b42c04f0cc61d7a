#!/usr/bin/env python3
"""server_log_report.py LOG SRC [--sanitizer-dir DIR] -- findings of a
server log written with log_error_verbosity = verbose (and, to show the
queries, log_min_error_statement = error), for the random-SQL run
(test/harden/sqlsmith.sh, TAP 120_sqlsmith_smoke) and the sanitizer and
valgrind runs:

* crashes: a server process terminated by a signal or an exception, a PANIC
  (with the query it was running);
* internal errors from textfp: SQLSTATE XX000-XX999 whose LOCATION is a C
  file of textfp (SRC: the source tree, whose src/**/*.c are textfp's, or the
  module textfp.so, which names them in its error locations);
* with --sanitizer-dir: AddressSanitizer / UndefinedBehaviorSanitizer
  reports (files DIR/asan.*, DIR/ubsan.*) and valgrind error blocks
  (DIR/*.vg) whose stack has a frame in textfp.

Also prints, not as findings, textfp's other errors by SQLSTATE and
message, and internal errors located in PostgreSQL itself (with their
query) for triage.  Exit status 1 if there is any finding."""
import collections
import glob
import os
import re
import sys

args = sys.argv[1:]
sandir = None
if '--sanitizer-dir' in args:
    i = args.index('--sanitizer-dir')
    sandir = args[i + 1]
    del args[i:i + 2]
log, srcdir = args[0], args[1]
if os.path.isdir(srcdir):
    ours = {os.path.basename(p) for p in glob.glob(os.path.join(srcdir, 'src', '**', '*.c'), recursive=True)}
else:
    ours = set(re.findall(rb'src/(?:\w+/)*(\w+\.c)\x00', open(srcdir, 'rb').read()))
    ours = {o.decode() for o in ours}
if not ours:
    sys.exit("no C file of textfp found in %s" % srcdir)

HEAD = re.compile(r'^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? \S+ \[\d+\] ')
entries, cur = [], None
with open(log, encoding='utf-8', errors='replace') as f:
    for line in f:
        if HEAD.match(line):
            cur = [line.rstrip('\n')]
            entries.append(cur)
        elif cur is not None:
            cur.append(line.rstrip('\n'))

findings, ours_errors, core_internal = [], collections.Counter(), []
i = 0
while i < len(entries):
    e = entries[i]
    text = '\n'.join(e)
    m = re.search(r'(ERROR|FATAL|PANIC):  ([0-9A-Z]{5}): (.*)', e[0])
    loc, stmt = None, None
    j = i + 1
    while j < len(entries) and j <= i + 3:
        nxt = '\n'.join(entries[j])
        lm = re.search(r'LOCATION:  \S+, ([\w.]+):\d+', nxt)
        if lm and loc is None:
            loc = lm.group(1)
        sm = re.search(r'STATEMENT:  (.*)', nxt, re.S)
        if sm and stmt is None:
            stmt = sm.group(1)
        if re.search(r'(ERROR|FATAL|PANIC|LOG|WARNING):  ', entries[j][0]) and \
                not re.search(r'(LOCATION|STATEMENT|DETAIL|HINT|CONTEXT):  ', entries[j][0]):
            break
        j += 1
    if re.search(r'terminated by signal|terminated by exception|was terminated by|'
                 r'server process \(PID \d+\) exited with exit code [1-9]', text):
        ctx = ''
        for k in range(i + 1, min(i + 3, len(entries))):
            if 'Failed process was running' in entries[k][0]:
                ctx = '\n'.join(entries[k])
        findings.append('crash: %s\n    %s' % (e[0][:300], ctx[:2000]))
    elif m and m.group(1) == 'PANIC':
        findings.append('PANIC: %s' % e[0][:300])
    elif m:
        state, msg = m.group(2), m.group(3)
        if loc in ours:
            if state.startswith('XX'):
                findings.append('internal error from textfp (%s): %s %s\n    query: %s'
                                % (loc, state, msg[:300], (stmt or '?')[:2000]))
            else:
                ours_errors[(state, re.sub(r'"[^"]*"|\b\d+\b', '…', msg)[:120], loc)] += 1
        elif state.startswith('XX'):
            core_internal.append('%s %s (%s)\n    query: %s' % (state, msg[:200], loc, (stmt or '?')[:600]))
    i += 1

# sanitizer reports written to the server's stderr (the server log)
with open(log, encoding='utf-8', errors='replace') as f:
    lines = f.read().split('\n')
for k, line in enumerate(lines):
    if re.search(r': runtime error: |==\d+==ERROR: (Address|Undefined)Sanitizer', line):
        findings.append('sanitizer report in the server log:\n    ' + '\n    '.join(lines[k:k + 30]))

if sandir:
    for p in sorted(glob.glob(os.path.join(sandir, 'asan.*')) + glob.glob(os.path.join(sandir, 'ubsan.*'))):
        rep = open(p, errors='replace').read()
        if rep.strip():
            findings.append('sanitizer report %s:\n%s' % (os.path.basename(p), rep[:4000]))
    for p in sorted(glob.glob(os.path.join(sandir, '*.vg'))):
        for blk in re.findall(r'VALGRINDERROR-BEGIN\n(.*?)VALGRINDERROR-END', open(p, errors='replace').read(), re.S):
            if 'textfp.so' in blk or any(s in blk for s in ours):
                findings.append('valgrind (%s):\n%s' % (os.path.basename(p), blk[:4000]))

print('-- textfp errors with a proper SQLSTATE (not findings): %d kinds, %d errors'
      % (len(ours_errors), sum(ours_errors.values())))
for (state, msg, loc), n in ours_errors.most_common(25):
    print('  %6d  %s  %s  (%s)' % (n, state, msg, loc))
print('-- internal errors located in PostgreSQL itself (not textfp; for triage): %d' % len(core_internal))
for c in collections.Counter(x.split('\n')[0] for x in core_internal).most_common(10):
    print('  %6d  %s' % (c[1], c[0]))
print('-- findings: %d' % len(findings))
for f in findings:
    print('FINDING: ' + f)
sys.exit(1 if findings else 0)
