--
-- A 500 MiB text: processed without crashing, and cancellable (the feature
-- loop checks for interrupts).
--
CREATE TABLE big (t text);
-- 500 MiB of mixed Chinese and English; TOAST compresses it on disk
INSERT INTO big
SELECT repeat(u, (500 * 1024 * 1024) / octet_length(u))
FROM (VALUES ('中文文本 and some words, ')) v(u);
SELECT octet_length(t) / (1024 * 1024) AS mib FROM big;
SELECT simhash(t) AS fp_500mib FROM big;
-- cancellation: the timeout fires while the text is being fingerprinted
SET statement_timeout = '300ms';
SELECT simhash(t, ngram => 3) FROM big;
RESET statement_timeout;
DROP TABLE big;
