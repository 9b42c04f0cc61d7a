-- test/upgrade/setup.sql: the old cluster of test/pg_upgrade.sh (run from
-- the source tree, for test/data): every textfp index kind, generated
-- fingerprint columns, a match table and a boilerplate lexicon.
\set ON_ERROR_STOP on
CREATE EXTENSION textfp;
CREATE TABLE docs (id int PRIMARY KEY, lang text, source text, title text, body text);
\copy docs FROM 'test/data/corpus.tsv'
INSERT INTO docs (id, lang, source, body)
SELECT 100000 + id, lang, source, replace(body, '的', '地') || ' 转载' FROM docs WHERE id % 5 = 0;
-- generated fingerprint columns, as an article table has them
CREATE TABLE articles (id int PRIMARY KEY, source text, body text,
	fp simhash64 GENERATED ALWAYS AS (simhash(body)) STORED,
	sig minhash GENERATED ALWAYS AS (minhash(body, 64)) STORED,
	dna int8[] GENERATED ALWAYS AS (pinyin_dna(body)) STORED);
INSERT INTO articles (id, source, body) SELECT id, source, body FROM docs;
-- every operator class of the extension, one index each, on a column of
-- each kind (test/lib/probes.sql finds them in the catalog: the hamming and
-- passage access methods too on PostgreSQL 15 and later)
\i test/lib/probes.sql
CREATE TABLE pd AS SELECT id, body FROM docs;
ALTER TABLE pd ADD PRIMARY KEY (id);
DO $$ DECLARE c record; BEGIN
	FOR c IN SELECT * FROM tfp_probe.columns() LOOP
		EXECUTE format('ALTER TABLE pd ADD COLUMN %I %s', c.col, c.typ);
		EXECUTE format('UPDATE pd SET %I = %s', c.col, format(c.expr, 'body'));
	END LOOP;
	FOR c IN SELECT DISTINCT index_name, index_ddl FROM tfp_probe.probes('pd') WHERE index_ddl IS NOT NULL LOOP
		EXECUTE c.index_ddl;
	END LOOP;
END $$;
CREATE INDEX pd_btree ON pd (md5(body));
CREATE INDEX a_fp_btree ON articles (fp);
CREATE INDEX a_fp_hash ON articles USING hash (fp);
-- the dedup system's stores
SELECT textfp_create_match_table('matches');
SELECT * FROM textfp_check_arrivals('SELECT * FROM articles WHERE id >= 100000', 'articles', 'matches',
	ARRAY['simhash'], simhash_column => 'fp', radius => 6);
CREATE TABLE lexicon AS SELECT textfp_build_boilerplate('docs', 'body', 'source', min_docs => 3) AS lex;
ANALYZE;
