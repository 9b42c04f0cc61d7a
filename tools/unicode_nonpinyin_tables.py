#!/usr/bin/env python3
"""Print the parts of a generated src/core/generated/tfp_unicode_data.c that are NOT about
pinyin (class and fold tables, geometry, version), to prove that a change of
the pinyin part of tools/gen_unicode.py leaves the frozen tables alone:

    git show BASE:src/core/generated/tfp_unicode_data.c > /tmp/old.c
    tools/unicode_nonpinyin_tables.py /tmp/old.c > /tmp/a
    tools/unicode_nonpinyin_tables.py src/core/generated/tfp_unicode_data.c > /tmp/b
    cmp /tmp/a /tmp/b
"""
import re
import sys

t = open(sys.argv[1], encoding='utf-8').read()
# top-level definitions; drop those naming pinyin and the header comment
parts = re.split(r'\n(?=const |#define |extern )', t)
print('\n'.join(p for p in parts
                if 'pinyin' not in p.lower() and 'generated' not in p.lower()))
