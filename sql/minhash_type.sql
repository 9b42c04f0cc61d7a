-- minhash type: golden values, text I/O round trip, strict input validation,
-- binary send/recv, compatibility of parameters, k range, short/empty texts.
\i sql/include/golden_texts.sql

-- Golden values (stable forever): k = 8 with the defaults, and k = 4 with
-- other feature options.
SELECT id, note, minhash(body, 8) FROM golden ORDER BY id;
SELECT id, minhash(body, 4, 2, 1, false, false, false) FROM golden WHERE id IN (1, 4, 7, 14) ORDER BY id;

-- text round trip, for every golden text and several k
SELECT count(*) AS texts, bool_and(minhash(body, k)::text::minhash::text = minhash(body, k)::text) AS roundtrip
FROM golden, unnest(ARRAY[1, 7, 64, 1024, 4096]) k;
-- binary round trip through send/recv (COPY BINARY)
CREATE TABLE mh (id int, k int, m minhash);
INSERT INTO mh SELECT id, k, minhash(body, k) FROM golden, unnest(ARRAY[1, 5, 128]) k;
COPY mh TO '/tmp/textfp_minhash_type.bin' WITH (FORMAT binary);
CREATE TABLE mh2 (LIKE mh);
COPY mh2 FROM '/tmp/textfp_minhash_type.bin' WITH (FORMAT binary);
SELECT count(*) AS rows, bool_and(a.m::text = b.m::text) AS same
FROM mh a JOIN mh2 b USING (id, k);
-- the binary form: version, ngram, shingle, flags, k, reserved, values
SELECT minhash_send(minhash('one two three four', 2));
SELECT minhash_send(minhash('', 2));

-- k, ngram, shingle ranges (22023)
SELECT minhash('abc'::text, 0);
SELECT minhash('abc'::text, 4097);
SELECT minhash('abc'::text, -1);
SELECT minhash('abc'::text, 8, 0);
SELECT minhash('abc'::text, 8, 5, 17);
SELECT minhash_k(minhash('abc'::text, 4096)), minhash_k(minhash('abc'::text, 1));

-- malformed text input (22P02) and bad field values (22023)
SELECT ''::minhash;
SELECT 'v1 k=2 ngram=5 shingle=3 fold=7 0000000100000002'::minhash;
SELECT 'V1 k=2 ngram=5 shingle=3 fold=7 0000000100000002'::minhash;
SELECT 'v2 k=2 ngram=5 shingle=3 fold=7 0000000100000002'::minhash;
SELECT 'v1 k=0 ngram=5 shingle=3 fold=7 empty'::minhash;
SELECT 'v1 k=5000 ngram=5 shingle=3 fold=7 empty'::minhash;
SELECT 'v1 k=123456 ngram=5 shingle=3 fold=7 empty'::minhash;
SELECT 'v1 k=02 ngram=5 shingle=3 fold=7 empty'::minhash;
SELECT 'v1 k=2 ngram=0 shingle=3 fold=7 empty'::minhash;
SELECT 'v1 k=2 ngram=5 shingle=17 fold=7 empty'::minhash;
SELECT 'v1 k=2 ngram=5 shingle=3 fold=8 empty'::minhash;
SELECT 'v1 k=2 ngram=5 shingle=3 empty'::minhash;
SELECT 'v1 k=2  ngram=5 shingle=3 fold=7 empty'::minhash;
SELECT 'v1 k=2 ngram=5 shingle=3 fold=7 00000001'::minhash;
SELECT 'v1 k=2 ngram=5 shingle=3 fold=7 000000010000000'::minhash;
SELECT 'v1 k=2 ngram=5 shingle=3 fold=7 00000001000000020'::minhash;
SELECT 'v1 k=2 ngram=5 shingle=3 fold=7 0000000g00000002'::minhash;
SELECT 'v1 k=2 ngram=5 shingle=3 fold=7 empty '::minhash;
SELECT 'v1 k=2 ngram=5 shingle=3 fold=7 '::minhash;
SELECT 'v1 k=2 ngram=5 shingle=3 fold=7 ABCDEF01abcdef01'::minhash;

-- malformed binary input: every field checked (COPY BINARY of a bytea
-- written as a minhash column; lo_export writes the file)
CREATE TABLE recv_t (m minhash);
CREATE FUNCTION try_recv(payload bytea) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	f bytea := '\x5047434f50590aff0d0a00'::bytea	-- signature
		|| '\x00000000'::bytea || '\x00000000'::bytea	-- flags, header extension
		|| '\x0001'::bytea								-- one field
		|| int4send(length(payload)) || payload
		|| '\xffff'::bytea;								-- trailer
	lo oid;
	r text;
BEGIN
	lo := lo_from_bytea(0, f);
	PERFORM lo_export(lo, '/tmp/textfp_minhash_recv.bin');
	PERFORM lo_unlink(lo);
	TRUNCATE recv_t;
	COPY recv_t FROM '/tmp/textfp_minhash_recv.bin' WITH (FORMAT binary);
	SELECT m::text INTO r FROM recv_t;
	RETURN r;
EXCEPTION WHEN OTHERS THEN
	GET STACKED DIAGNOSTICS r = PG_EXCEPTION_DETAIL;
	RETURN SQLSTATE || ': ' || SQLERRM || ' (' || r || ')';
END $$;
-- good values
SELECT try_recv('\x01050307000200000000000100000002');
SELECT try_recv('\x0105038700020000');
SELECT try_recv(minhash_send(minhash('one two three four', 3))) = minhash('one two three four', 3)::text AS same;
-- bad ones
SELECT try_recv('\x010503070002');
SELECT try_recv('\x02050307000200000000000100000002');
SELECT try_recv('\x01000307000200000000000100000002');
SELECT try_recv('\x01051107000200000000000100000002');
SELECT try_recv('\x01050317000200000000000100000002');
SELECT try_recv('\x01050307000000000000000100000002');
SELECT try_recv('\x01050307100100000000000100000002');
SELECT try_recv('\x01050307000200010000000100000002');
SELECT try_recv('\x010503070002000000000001000000');
SELECT try_recv('\x0105030700020000000000010000000200');
SELECT try_recv('\x01050387000200000000000100000002');

-- signatures with different parameters are not comparable (22023)
SELECT minhash_jaccard(minhash('a b c'::text, 8), minhash('a b c'::text, 16));
SELECT minhash_jaccard(minhash('a b c'::text, 8), minhash('a b c'::text, 8, 4));
SELECT minhash_jaccard(minhash('a b c'::text, 8), minhash('a b c'::text, 8, 5, 2));
SELECT minhash_jaccard(minhash('a b c'::text, 8), minhash('a b c'::text, 8, 5, 3, false));
SELECT minhash('a b c'::text, 8) % minhash('a b c'::text, 16);

-- short and empty texts: a text without features (empty, punctuation,
-- whitespace, emoji) is flagged empty and similar to nothing, not even to
-- another empty text; short texts with features are distinct.
SELECT g.id, g.note, minhash_is_empty(minhash(g.body, 16)) AS empty,
       minhash_jaccard(minhash(g.body, 16), minhash(g.body, 16)) AS self
FROM golden g WHERE id IN (9, 14, 15, 16, 17, 18, 19) ORDER BY id;
SELECT a.note AS a, b.note AS b, minhash_jaccard(minhash(a.body, 64), minhash(b.body, 64)) AS est,
       shingle_jaccard(a.body, b.body) AS exact
FROM golden a, golden b
WHERE a.id IN (14, 15, 16, 17, 18) AND b.id IN (14, 15, 16, 17, 18) AND a.id < b.id ORDER BY a.id, b.id;
-- all single-word texts are pairwise different
SELECT count(*) AS pairs, max(minhash_jaccard(minhash(a, 32), minhash(b, 32))) AS max_est
FROM unnest(ARRAY['a', 'b', 'hello', 'world', '中', '文', 'x1']) a,
     unnest(ARRAY['a', 'b', 'hello', 'world', '中', '文', 'x1']) b WHERE a < b;

-- equality and order (= <> < <= > >=, btree and hash classes): equal
-- signatures are exactly those with equal text forms; different parameters
-- give unequal values, not an error; the order is total and the hashes agree
CREATE TABLE mh_eq (i int, sig minhash);
INSERT INTO mh_eq
SELECT p.o + v.i, minhash(v.body, p.k, ngram => p.n)
FROM (VALUES (1, 'the quick brown fox jumps'), (2, 'the quick brown fox jumps'),
             (3, '国家统计局今天发布数据'), (4, '國家統計局今天發布數據'), (5, ''), (6, '!!!'),
             (7, 'lorem ipsum dolor sit amet'), (8, 'the quick brown fox jumped')) v(i, body),
     (VALUES (0, 16, 5), (10, 32, 5), (20, 16, 3)) p(o, k, n);
-- and 400 short texts over a small vocabulary (many repeats), k = 4
INSERT INTO mh_eq
SELECT 100 + g, minhash('w' || hashint4(g % 150) % 9 || ' w' || hashint4(g % 150) % 7, 4, shingle => 1)
FROM generate_series(1, 400) g;
SELECT count(*) AS pairs,
       count(*) FILTER (WHERE a.sig = b.sig) AS equal,
       count(*) FILTER (WHERE (a.sig = b.sig) <> (a.sig::text = b.sig::text)) AS eq_not_text,
       count(*) FILTER (WHERE (a.sig <> b.sig) = (a.sig = b.sig)) AS ne_not_negator,
       count(*) FILTER (WHERE minhash_cmp(a.sig, b.sig) <> -minhash_cmp(b.sig, a.sig)) AS not_antisymmetric,
       count(*) FILTER (WHERE (a.sig < b.sig) <> (minhash_cmp(a.sig, b.sig) < 0)
                           OR (a.sig <= b.sig) <> (minhash_cmp(a.sig, b.sig) <= 0)
                           OR (a.sig > b.sig) <> (minhash_cmp(a.sig, b.sig) > 0)
                           OR (a.sig >= b.sig) <> (minhash_cmp(a.sig, b.sig) >= 0)
                           OR (a.sig = b.sig) <> (minhash_cmp(a.sig, b.sig) = 0)) AS ops_not_cmp,
       count(*) FILTER (WHERE a.sig = b.sig AND (minhash_hash(a.sig) <> minhash_hash(b.sig)
                           OR minhash_hash_extended(a.sig, 7) <> minhash_hash_extended(b.sig, 7))) AS hash_differs,
       count(*) FILTER (WHERE a.i = b.i AND (minhash_hash(a.sig)::bigint & 4294967295)
                           <> (minhash_hash_extended(a.sig, 0) & 4294967295)) AS ext_low_bits
FROM mh_eq a, mh_eq b;
SELECT count(*) AS intransitive
FROM mh_eq a, mh_eq b, mh_eq c
WHERE a.i < 100 AND b.i < 100 AND c.i < 100
  AND minhash_cmp(a.sig, b.sig) <= 0 AND minhash_cmp(b.sig, c.sig) <= 0
  AND minhash_cmp(a.sig, c.sig) > 0;
-- the groups of equal signatures: copies, simplified = traditional, empty
-- texts; the order (by k, then ngram, ..., empty first, then values)
SELECT array_agg(i ORDER BY i) AS equal FROM mh_eq WHERE i < 100
GROUP BY sig HAVING count(*) > 1 ORDER BY 1;
SELECT array_agg(i ORDER BY sig, i) AS sorted FROM mh_eq WHERE i < 100;
SELECT count(DISTINCT sig) AS distinct_sigs,
       (SELECT count(*) FROM (SELECT sig FROM mh_eq UNION SELECT sig FROM mh_eq) u) AS union_rows
FROM mh_eq;
-- platform-independent hashes
SELECT minhash_hash(minhash('a b c'::text, 8)) AS h,
       minhash_hash_extended(minhash('a b c'::text, 8), 0) AS h0,
       minhash_hash_extended(minhash('a b c'::text, 8), 42) AS h42,
       minhash_hash(minhash(''::text, 8)) AS h_empty;
-- joins, indexes, UNIQUE, hash partitioning
SET enable_nestloop = off; SET enable_mergejoin = off;
EXPLAIN (COSTS OFF) SELECT count(*) FROM mh_eq a JOIN mh_eq b ON a.sig = b.sig;
SELECT count(*) FROM mh_eq a JOIN mh_eq b ON a.sig = b.sig;
SET enable_hashjoin = off; SET enable_mergejoin = on;
EXPLAIN (COSTS OFF) SELECT count(*) FROM mh_eq a JOIN mh_eq b ON a.sig = b.sig;
SELECT count(*) FROM mh_eq a JOIN mh_eq b ON a.sig = b.sig;
RESET enable_nestloop; RESET enable_mergejoin; RESET enable_hashjoin;
SELECT count(*) FROM mh_eq WHERE sig >= (SELECT sig FROM mh_eq WHERE i = 103);
SET enable_seqscan = off; SET enable_bitmapscan = off;
CREATE INDEX mh_eq_btree ON mh_eq (sig);
SELECT sig AS s103 FROM mh_eq WHERE i = 103 \gset
SELECT sig AS s3 FROM mh_eq WHERE i = 3 \gset
EXPLAIN (COSTS OFF) SELECT count(*) FROM mh_eq WHERE sig >= :'s103';
SELECT count(*) FROM mh_eq WHERE sig >= :'s103';
SELECT array_agg(i ORDER BY i) FROM mh_eq WHERE sig = :'s3';
DROP INDEX mh_eq_btree;
CREATE INDEX mh_eq_hash ON mh_eq USING hash (sig);
EXPLAIN (COSTS OFF) SELECT i FROM mh_eq WHERE sig = :'s3';
SELECT array_agg(i ORDER BY i) FROM mh_eq WHERE sig = :'s3';
RESET enable_seqscan; RESET enable_bitmapscan;
CREATE UNIQUE INDEX ON mh_eq (sig);
DELETE FROM mh_eq a USING mh_eq b WHERE a.sig = b.sig AND a.i > b.i;
CREATE UNIQUE INDEX mh_eq_unique ON mh_eq (sig);
INSERT INTO mh_eq VALUES (0, minhash('the quick brown fox jumps'::text, 16));
CREATE TABLE mh_part (i int, sig minhash) PARTITION BY HASH (sig);
CREATE TABLE mh_part0 PARTITION OF mh_part FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE mh_part1 PARTITION OF mh_part FOR VALUES WITH (MODULUS 2, REMAINDER 1);
INSERT INTO mh_part SELECT i, sig FROM mh_eq WHERE i < 100;
SELECT tableoid::regclass AS part, array_agg(i ORDER BY i) FROM mh_part GROUP BY 1 ORDER BY 1;
DROP TABLE mh_eq, mh_part;

DROP FUNCTION try_recv(bytea);
DROP TABLE golden, mh, mh2, recv_t;
