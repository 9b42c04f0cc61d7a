-- Shared by test/bench/minhash*.sh: the paragraph pools (test/data/pool_*.txt,
-- one paragraph a line, loaded verbatim) and a deterministic generator of
-- ~2 KB documents made of random paragraphs of one language.
-- psql variables: datadir.
CREATE TABLE para (id serial PRIMARY KEY, lang text, p text);
CREATE TEMP TABLE para_in (p text);
\set pool_en :datadir '/pool_en.txt'
\set pool_zh :datadir '/pool_zh.txt'
COPY para_in FROM :'pool_en' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02');
INSERT INTO para (lang, p) SELECT 'en', p FROM para_in;
TRUNCATE para_in;
COPY para_in FROM :'pool_zh' WITH (FORMAT csv, DELIMITER E'\x01', QUOTE E'\x02');
INSERT INTO para (lang, p) SELECT 'zh', p FROM para_in;
ANALYZE para;
-- bench_doc(seed): paragraphs in a pseudo-random order from a random start,
-- appended until the document has at least 2000 bytes.
CREATE FUNCTION bench_doc(seed int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
	n int := (SELECT max(id) FROM para);
	d text := '';
	i int := 0;
	x text;
BEGIN
	WHILE octet_length(d) < 2000 LOOP
		SELECT p INTO x FROM para
		 WHERE id = 1 + (abs(hashint8(seed::int8 * 1000 + i)) % n);
		d := d || CASE WHEN d = '' THEN '' ELSE E'\n' END || x;
		i := i + 1;
	END LOOP;
	RETURN d;
END $$;
