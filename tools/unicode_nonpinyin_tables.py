import re,sys
t=open(sys.argv[1]).read()
# split into top-level definitions; keep those not about pinyin
parts=re.split(r'\n(?=const |#define |extern )',t)
print('\n'.join(p for p in parts if 'pinyin' not in p.lower() and 'generated' not in p.lower()))
