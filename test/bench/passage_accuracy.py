#!/usr/bin/env python3
"""Score textfp_sources() results against the truth of tools/make_passage_set.py.

Usage: test/bench/passage_accuracy.py DIR SPLIT MIN_LENGTH
(test/bench/passage_accuracy.sh writes DIR: the set's corpus.tsv, queries.tsv,
truth.tsv, also.tsv, and results.tsv, aligned.tsv).

A spliced passage is FOUND when a reported source is its source document (or
another document of also.tsv holding a copy of it) with a reported passage
that covers at least half of the passage's span in the query.  The CEILING
is the same question for textfp_align() on the true pair alone.  A reported
source that is no true source of its query is a FALSE source when it shares
with the query neither a run of at least 24 characters nor a passage: one of
its reported passages whose two sides, folded (case, width, spacing and
punctuation), have a difflib similarity ratio of at least 0.5.  Sources that
share real text the set did not plant (a quotation, a template line, a
paragraph two man pages word alike) are counted apart as "incidental".
Needs only python3.
"""
import collections
import difflib
import os
import sys
import unicodedata


def unescape(s):
    """PostgreSQL COPY text format field."""
    if s == '\\N':
        return None
    out = []
    i = 0
    while i < len(s):
        c = s[i]
        if c == '\\' and i + 1 < len(s):
            n = s[i + 1]
            out.append({'n': '\n', 't': '\t', 'r': '\r', '\\': '\\'}.get(n, n))
            i += 2
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def rows(path):
    with open(path, encoding='utf-8') as f:
        for line in f:
            yield [unescape(x) for x in line.rstrip('\n').split('\t')]


def fold(s):
    s = unicodedata.normalize('NFKC', s).lower()
    return ''.join(c for c in s if unicodedata.category(c)[0] in 'LN')


def longest_common(a, b):
    m = difflib.SequenceMatcher(None, a, b, autojunk=False)
    return m.find_longest_match(0, len(a), 0, len(b)).size


def pct(values, p):
    if not values:
        return float('nan')
    v = sorted(values)
    k = min(len(v) - 1, max(0, int(round(p / 100.0 * (len(v) - 1)))))
    return v[k]


def main():
    d, split, min_length = sys.argv[1], sys.argv[2], int(sys.argv[3])
    corpus = {int(r[0]): r for r in rows(os.path.join(d, 'corpus.tsv'))}
    queries = {r[0]: r for r in rows(os.path.join(d, 'queries.tsv'))
               if split == 'all' or r[1] == split}
    truth = [r for r in rows(os.path.join(d, 'truth.tsv')) if r[0] in queries]
    also = collections.defaultdict(set)
    for r in rows(os.path.join(d, 'also.tsv')):
        also[(r[0], int(r[1]))].add(int(r[2]))
    reported = collections.defaultdict(list)    # query -> [(source, qstart, qlen)]
    ms = {}
    for r in rows(os.path.join(d, 'results.tsv')):
        q = r[0]
        ms[q] = float(r[1])
        if r[3] is not None:
            reported[q].append((int(r[3]), int(r[9]), int(r[10]), float(r[4]), int(r[7]), int(r[8])))
    aligned = collections.defaultdict(list)     # (query, passage) -> [(qstart, qlen)]
    for r in rows(os.path.join(d, 'aligned.tsv')):
        aligned[(r[0], int(r[1]))].append((int(r[2]), int(r[3])))

    def covers(spans, start, length):
        end = start + length
        return any(min(end, s + n) - max(start, s) >= length / 2.0 for s, n in spans)

    true_sources = collections.defaultdict(set)
    strata = collections.defaultdict(lambda: [0, 0, 0])    # key -> [passages, found, ceiling]
    missed = []
    for t in truth:
        q, p, src = t[0], int(t[1]), int(t[2])
        qstart, qlen, units, length = int(t[5]), int(t[6]), int(t[7]), int(t[8])
        kind = t[9] + ('+traditional' if t[10] == 't' else '')
        ok_sources = {src} | also[(q, p)]
        true_sources[q] |= ok_sources
        found = covers([(r[1], r[2]) for r in reported[q] if r[0] in ok_sources], qstart, qlen)
        ceiling = covers(aligned[(q, p)], qstart, qlen)
        lang = queries[q][2]
        for key in [('all',), ('lang', lang), ('kind', lang, kind), ('units>=40', units >= 40),
                    ('length>=%d' % min_length, length >= min_length), ('split', queries[q][1]),
                    ('kind>=40 units', lang, t[9], units >= 40)]:
            s = strata[key]
            s[0] += 1
            s[1] += found
            s[2] += ceiling
        if not found:
            missed.append((q, p, lang, kind, units, float(t[11]), ceiling))

    print('\n== passages found (a reported source covering half of the passage in the query),'
          ' and the ceiling (textfp_align on the true pair)')
    print('%-44s %8s %8s %8s %8s' % ('stratum', 'passages', 'found', 'share', 'ceiling'))
    for key in sorted(strata, key=lambda k: (len(k), [str(x) for x in k])):
        n, f, c = strata[key]
        print('%-44s %8d %8d %8.3f %8.3f' % (' '.join(str(x) for x in key), n, f, f / n, c / n))

    # false sources
    n_rep = 0
    false = []
    incidental = []
    for q, reps in reported.items():
        qbody = fold(queries[q][3])
        for sid in sorted({r[0] for r in reps}):
            n_rep += 1
            if sid in true_sources[q]:
                continue
            lcs = longest_common(qbody, fold(corpus[sid][4]))
            share = max(r[3] for r in reps if r[0] == sid)
            ratio = max(difflib.SequenceMatcher(
                None, fold(corpus[sid][4][r[4] - 1:r[4] - 1 + r[5]]),
                fold(queries[q][3][r[1] - 1:r[1] - 1 + r[2]]), autojunk=False).ratio()
                for r in reps if r[0] == sid)
            (incidental if lcs >= 24 or ratio >= 0.5 else false).append((q, sid, lcs, share, ratio))
    spliced = {t[0] for t in truth}
    none_queries = [q for q in queries if q not in spliced]
    print('\n== reported sources: %d; true %d, incidental (a shared run of 24+ characters, or a passage'
          ' of similarity ratio 0.5+) %d, false %d (%.2f%%)' % (n_rep, n_rep - len(false) - len(incidental), len(incidental),
                                  len(false), 100.0 * len(false) / max(n_rep, 1)))
    print('   queries with nothing spliced: %d, with a source reported: %d'
          % (len(none_queries), sum(1 for q in none_queries if reported.get(q))))
    for q, sid, lcs, share, ratio in sorted(false)[:20]:
        print('   false: %s source %d (longest shared run %d, share %.3f, passage ratio %.2f)' % (q, sid, lcs, share, ratio))
    for q, sid, lcs, share, ratio in sorted(incidental)[:10]:
        print('   incidental: %s source %d (longest shared run %d, share %.3f, passage ratio %.2f)' % (q, sid, lcs, share, ratio))

    t = list(ms.values())
    print('\n== time per query (ms, second pass, %d queries): p50 %.1f  p90 %.1f  p99 %.1f  max %.1f'
          % (len(t), pct(t, 50), pct(t, 90), pct(t, 99), max(t) if t else float('nan')))
    print('\n== missed passages (query passage lang kind units rate ceiling), up to 40:')
    for m in missed[:40]:
        print('   %s %d %s %-22s %4d %.3f %s' % (m[0], m[1], m[2], m[3], m[4], m[5],
                                                  'alignable' if m[6] else 'not-alignable'))


if __name__ == '__main__':
    main()
