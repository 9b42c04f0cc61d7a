"""sql_sweep.py FUNCS SEED PER [values] -- write a psql script that calls every
function of the extension PER times with arguments drawn from pools of edge
values of each argument type (NULL, empty, huge, negative, non-finite,
multi-dimensional and non-1-based arrays, malformed literals), in random
order.  FUNCS: lines "name|type, type, ..." (test/t/040_sql_sweep.pl runs it),
and lines "!type|expression" giving a function of the extension that makes a
value of a type without a pool here from a text (%s), so that functions on
types added later are called too (with NULL and values made from edge-case
texts).  Functions with an `internal` argument (index and planner support)
are skipped: they cannot be called from SQL.  Any other function that cannot
be called (no values for one of its types) is named on stderr as
"not called: ...".  With "values", each call prints the md5 of its result
(for comparing two databases' answers, test/t/100_upgrade.pl) instead of
whether it is NULL."""
import sys, random, re
random.seed(int(sys.argv[2]))
lines=[l.rstrip('\n') for l in open(sys.argv[1]) if l.strip()]
funcs=[l.split('|',1) for l in lines if not l.startswith('!')]
makers=[l[1:].split('|',1) for l in lines if l.startswith('!')]
pool={
 'text':["''","'a'","'中文'::text","repeat('中华人民共和国 abc ',5000)","E'\\\\x00'","'   '","NULL","repeat('x',100000)","'a b c d e f g h'","'重庆 会计 還是'"],
 'integer':["0","1","-1","2","3","8","64","65","1024","1025","4096","4097","2147483647","(-2147483648)","NULL","63","7","100","90","91"],
 'bigint':["0","-1","1","9223372036854775807","(-9223372036854775808)","NULL"],
 'boolean':["true","false","NULL"],
 'real[]':["'{}'::real[]","'{1,2}'::real[]","'{NULL,1}'::real[]","'{NaN,1}'::real[]","'{Infinity,-Infinity}'::real[]","'{{1,2},{3,4}}'::real[]","NULL","'{-1,1}'::real[]","'{1e38,1e38}'::real[]","'[0:1]={1,2}'::real[]"],
 'bigint[]':["'{}'::int8[]","'{1,2,3}'::int8[]","'{NULL}'::int8[]","'{3,2,1,1}'::int8[]","'{{1,2},{3,4}}'::int8[]","NULL","array_fill(7::int8, ARRAY[100000])","'[-5:-4]={1,2}'::int8[]","ARRAY(SELECT g::int8 FROM generate_series(1,5000) g)"],
 'integer[]':["'{}'::int4[]","'{1,2,3}'::int4[]","'{NULL}'::int4[]","NULL","array_fill(0, ARRAY[68])","array_fill(1, ARRAY[68])","array_fill(65536, ARRAY[68])","array_fill(NULL::int, ARRAY[68])","'{{1,2},{3,4}}'::int4[]","(SELECT simhash_reference(x) FROM (VALUES ('abc def'),('中文 文本'),('xyz')) v(x))","array_fill(0, ARRAY[69])","array_fill(-70000, ARRAY[68])","array_cat(ARRAY[1,2,1,0],array_fill(0, ARRAY[64]))","array_cat(ARRAY[1,0,1,0],array_fill(0, ARRAY[64]))","array_cat(ARRAY[1,2,99,0],array_fill(0, ARRAY[64]))","array_cat(ARRAY[1,2,1,8],array_fill(0, ARRAY[64]))","array_cat(ARRAY[2,2,1,0],array_fill(0, ARRAY[64]))","array_cat(ARRAY[1,2,1,7],array_fill(0, ARRAY[64]))","array_cat(ARRAY[1,1000000,1,0],array_fill(0, ARRAY[64]))"],
 'bit':["B'1'","repeat('1',64)::bit(64)","repeat('0',63)::bit(63)::bit","NULL"],
 'simhash64':["'0000000000000000'::simhash64","'ffffffffffffffff'::simhash64","'0123456789abcdef'::simhash64","NULL","simhash('中文 text'::text)"],
 'simhash64_gkey':["NULL","'0000000000000000&ffffffffffffffff'::simhash64_gkey"],
 'regclass':["'sweep_t'","'sweep_m'","'pg_class'","0::oid","NULL","'sweep_v'"],
 'oid':["'sweep_t'::regclass::oid","'sweep_m'::regclass::oid","'pg_class'::regclass::oid","0::oid","NULL","'sweep_v'::regclass::oid","4294967295::oid"],
 'name':["'id'","'fp'","'body'","''","NULL","'nope'","repeat('x',100)","'id'"],
 'text[]':["'{}'::text[]","'{a,b}'::text[]","'{NULL}'::text[]","'{{a,b},{c,d}}'::text[]","NULL","array_fill('x'::text, ARRAY[100000])","'[5:6]={a,b}'::text[]","'{simhash}'","'{simhash,minhash,pinyin_dna,shingle_jaccard}'","'{shingle_jaccard}'"],
 'minhash':["minhash('abc def ghi'::text, 8)","minhash('中文文本内容'::text, 128)","minhash(''::text, 4)","NULL","minhash(repeat('x y ',1000), 4096)"],
 'cstring':["'abc'::cstring","''::cstring","NULL","'0123456789abcdef'::cstring","'v1 k=2 ngram=5 shingle=3 fold=7 0000000100000002'::cstring","'v1 k=2 ngram=5 shingle=3 fold=7 00000001'::cstring","'v1 k=0 ngram=5 shingle=3 fold=7'::cstring","'v1 k=-1 ngram=5 shingle=3 fold=7 '::cstring","'v1 k=99999999999999999999 ngram=5 shingle=3 fold=7 00'::cstring","'v1 k=1 ngram=0 shingle=0 fold=99 00000001'::cstring","'v1 k=1 ngram=5 shingle=3 fold=7 0000000g'::cstring","'0123456789abcdef/3'::cstring","'0123456789abcdef/65'::cstring","'0123456789abcdef/-1'::cstring","'0123456789abcdef/'::cstring","'0123456789abcdef/99999999999'::cstring","'0123456789abcdef /3'::cstring","'(0123456789abcdef,3)'::cstring","'0123456789abcdef,3'::cstring","'{0123456789abcdef,3}'::cstring","'v1 ngram=2 shingle=1 fold=7 00'::cstring","'v1 ngram=2 shingle=1 fold=7 empty'::cstring","'v1 ngram=2 shingle=1 fold=9 0000000000000000'::cstring","'v1 lines empty'::cstring","'v1 lines 00'::cstring","'v2 lines empty'::cstring","'v1 lines 000000000000000100000000000000010000000000000000'::cstring"],
 'simhash64_ball':["NULL","simhash_ball('0123456789abcdef'::simhash64, 3)","simhash_ball('ffffffffffffffff'::simhash64, 64)","simhash_ball('0000000000000000'::simhash64, 0)"],'pinyin_dna_query':["NULL","pinyin_dna_query('{1,2}'::int8[],1)","pinyin_dna_query('{}'::int8[],1)","ROW(NULL::int8[], NULL::int4)::pinyin_dna_query","ROW('{1}'::int8[], -5)::pinyin_dna_query","ROW('{{1,2},{3,4}}'::int8[], 1)::pinyin_dna_query"],
 'double precision':["0","0.5","1","1.5","-1","'NaN'","'Infinity'","'-Infinity'","1e-300","0.9999999999","NULL"],
 'imatch_lexicon':["imatch_build_lexicon(imatch_terms('the quick brown fox 中文文本内容'))","'v1 ngram=2 shingle=1 fold=7 empty'::imatch_lexicon","NULL","imatch_build_lexicon(ARRAY(SELECT hashint8(g) FROM generate_series(1,20000) g), 3, 2)","'v1 ngram=16 shingle=16 fold=0 0000000000000000'::imatch_lexicon"],
 'textfp_boilerplate':["textfp_boilerplate_of(textfp_line_hashes(E'Home | News\\nCopyright 2024\\n中文 版权所有'))","'v1 lines empty'::textfp_boilerplate","NULL","textfp_boilerplate_of(ARRAY(SELECT hashint8(g) FROM generate_series(1,20000) g))","'v1 lines 0000000000000000'::textfp_boilerplate"],
 'set_overlap_query':["set_overlap_query('{1,2,3}',1)","set_overlap_query('{}',1)","ROW(NULL::int8[],NULL::int4)::set_overlap_query","ROW('{1}'::int8[],-5)::set_overlap_query","ROW('{{1,2},{3,4}}'::int8[],2)::set_overlap_query","ROW(ARRAY[-9223372036854775808,3]::int8[],1)::set_overlap_query","NULL"],
 'minhash_query':["minhash_query(minhash('abc def ghi'::text, 8),0.5)","minhash_query(minhash(''::text, 4),0)","ROW(NULL::minhash,NULL::float8)::minhash_query","ROW(minhash('abc'::text, 8),'NaN')::minhash_query","ROW(minhash('abc'::text, 8),-1)::minhash_query","ROW(NULL::minhash,0.5)::minhash_query","NULL"],
 'set_jaccard_query':["set_jaccard_query('{1,2,3}',0.5)","set_jaccard_query('{}',1)","ROW(NULL::int8[],NULL::float8)::set_jaccard_query","ROW('{1}'::int8[],'NaN')::set_jaccard_query","ROW('{1}'::int8[],-1)::set_jaccard_query","ROW(ARRAY[-9223372036854775808]::int8[],1e-300)::set_jaccard_query","NULL"],
}
texts=["''","'a'","'中文 文本 測試 text'","repeat('中华人民共和国 abc ',500)","'   '"]
for t,expr in makers:
    if t not in pool:
        pool[t]=["NULL"]+[expr.replace('%s',x+'::text') for x in texts]
out=[]
for name,args in funcs:
    types=[t.strip() for t in args.split(',')] if args.strip() else []
    # OUT parameters are not passed; IN / VARIADIC name the mode only
    types=[re.sub(r'^(IN|VARIADIC) ','',t) for t in types if not t.startswith('OUT ')]
    if 'internal' in types:
        continue
    if any(t not in pool for t in types):
        sys.stderr.write("not called: %s(%s): no values for %s\n"%(name,args,", ".join(t for t in types if t not in pool)))
        continue
    for _ in range(int(sys.argv[3])):
        vals=[random.choice(pool[t]) for t in types]
        out.append(("SELECT md5(%s(%s)::text);" if len(sys.argv) > 4 and sys.argv[4] == 'values' else "SELECT md5(%s(%s)::text) IS NULL;")%(name,", ".join("%s::%s"%(v,t) if not v.startswith("NULL") else "NULL::%s"%t for v,t in zip(vals,types))))
# the aggregate simhash_reference (not a function, so not in FUNCS): once
# without options, 60 times with options from the pools
rows="(VALUES (''),('a'),(NULL),('中文 文本 测试'),(repeat('ab cd ',1000))) v(b)"
out.append("SELECT md5(simhash_reference(b)::text) FROM %s;"%rows)
for _ in range(60):
    opts=", ".join(random.choice(pool[t]) for t in ['integer','integer','boolean','boolean','boolean'])
    out.append("SELECT md5(simhash_reference(b, %s)::text) FROM %s;"%(opts,rows))
random.shuffle(out)
# every error shows its SQLSTATE (the test looks for XX000)
print("\\set VERBOSITY verbose")
print("\n".join(out))
