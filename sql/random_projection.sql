--
-- Random projection (Charikar 2002) is simhash(body, center => false): every
-- token is mapped to a vector of 64 values +1/-1 (the bits of its hash), a
-- text's vector is the sum over its tokens, counted as often as they occur
-- (term-frequency weights), and bit i is 1 where component i is positive.
-- Recomputed here in SQL from the hashes of single words (shingles() of a
-- one-word text is that word's hash) for texts with an odd number of words,
-- where no component can be 0 (so the tie rule never applies).
--
CREATE SCHEMA random_projection_t;
SET search_path = random_projection_t, public;
CREATE TABLE t (id int, body text);
INSERT INTO t VALUES
 (1, 'the cat sat on the mat the end'),
 (2, 'near duplicate detection at web scale needs compact fingerprints of every page'),
 (3, 'a a a b'),
 (4, 'one'),
 (5, 'to be or not to be that is the question whether tis nobler in the mind to suffer');
INSERT INTO t SELECT 10 + g, (SELECT string_agg('w' || (hashint4(g * 100 + i) & 15), ' ')
                              FROM generate_series(1, 2 * (g % 20) + 1) i)
FROM generate_series(1, 200) g;
CREATE TABLE occ AS
SELECT id, (shingles(w, 2, 1))[1] AS h FROM t, regexp_split_to_table(body, ' ') w;
-- odd occurrence counts only (the random texts have 1, 3, ..., 39 words)
DELETE FROM occ WHERE id IN (SELECT id FROM occ GROUP BY id HAVING count(*) % 2 = 0);
CREATE TABLE rp AS
SELECT id, bit_or(CASE WHEN ones * 2 > n THEN 1::bigint << b ELSE 0 END) AS v
FROM (SELECT id, b, count(*) FILTER (WHERE (h >> b) & 1 = 1) AS ones, count(*) AS n
      FROM occ, generate_series(0, 63) b GROUP BY id, b) s
GROUP BY id;
SELECT count(*) AS texts,
       count(*) FILTER (WHERE simhash(t.body, center => false)::bigint =
                              rp.v)
       AS random_projection_equals_uncentered_simhash,
       count(*) FILTER (WHERE simhash(t.body)::bigint <>
                              rp.v)
       AS centered_differs
FROM t JOIN rp USING (id);
-- occurrences count: in 'a a a b' every component is 3 a_i + b_i, whose sign
-- is a_i's, so the fingerprint is the hash of the word a itself
SELECT simhash('a a a b'::text, center => false)::bigint = (shingles('a', 2, 1))[1] AS tf_weighted;
RESET search_path;
SET client_min_messages = warning;
DROP SCHEMA random_projection_t CASCADE;
RESET client_min_messages;
