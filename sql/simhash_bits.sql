--
-- All 64 bits are informative.
--
-- 1. The machinery (uncentered: random strings have no background to
--    subtract): over 20000 random texts every bit is set in 50% +- 2% of the
--    fingerprints (n = 20000: one bit's share has a standard deviation
--    of 0.0035, so +- 2% is a 5.6-sigma band; a tie rule that favours 0, or a
--    badly mixed hash, fails).
-- 2. Real text: the distinct sentences of the sample corpus (Chinese and
--    English).  Real texts share frequent features whose contributions push
--    every fingerprint the same way; centering (the default) subtracts the
--    expected background.  On this corpus that brings the mean deviation of a
--    bit's share from 50% under 2% and every bit within 50% +- 8%; the
--    uncentered fingerprint is at least twice as biased.  (A narrow corpus --
--    manuals and Bibles -- shares vocabulary beyond any reference, so the
--    per-bit +- 2% band is not reached here: see README, "Bit balance".)
--
CREATE TEMP TABLE rnd AS
SELECT md5(g::text) || ' ' || md5((g * 7)::text) || ' ' || chr(19968 + g % 20000) || chr(19968 + (g * 13) % 20000) || chr(19968 + (g * 31) % 20000) AS s
FROM generate_series(1, 20000) g;
SELECT count(*) AS bits, min(share) >= 0.48 AND max(share) <= 0.52 AS all_bits_within_2pct
FROM (SELECT b, avg(((simhash(s, center => false)::bigint >> b) & 1)::float8) AS share
      FROM rnd, generate_series(0, 63) b GROUP BY b) x;

CREATE TEMP TABLE corpus (id int, lang text, source text, title text, body text);
\copy corpus FROM 'test/data/corpus.tsv'
CREATE TEMP TABLE sent AS
SELECT DISTINCT s
FROM corpus, regexp_split_to_table(body, E'[。！？!?\n]|\\.\\s') s
WHERE length(s) >= 12;
SELECT count(*) >= 6000 AS enough_sentences FROM sent;

CREATE TEMP TABLE shares AS
SELECT b,
       avg(((simhash(s)::bigint >> b) & 1)::float8) AS centered,
       avg(((simhash(s, center => false)::bigint >> b) & 1)::float8) AS plain
FROM sent, generate_series(0, 63) b GROUP BY b;
SELECT avg(abs(centered - 0.5)) <= 0.02 AS mean_deviation_under_2pct,
       min(centered) >= 0.42 AND max(centered) <= 0.58 AS all_bits_within_8pct,
       avg(abs(plain - 0.5)) >= 2 * avg(abs(centered - 0.5)) AS centering_halves_the_bias
FROM shares;
