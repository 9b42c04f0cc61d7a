-- test/upgrade/answers.sql: what test/pg_upgrade.sh compares before and
-- after pg_upgrade, one line each: every index probe of every operator
-- class for 8 rows through its index, the stored values, the match table
-- and the lexicon (digests).
\set ON_ERROR_STOP on
\pset tuples_only on
\pset format unaligned
SET textfp.minhash_threshold = 0.7;  -- above the LSH bound of exactness for k = 64
SET enable_seqscan = off;
CREATE TEMP TABLE ids AS SELECT id FROM pd ORDER BY hashint4(id) LIMIT 8;
DO $$ DECLARE p record; i record; r text; BEGIN
	CREATE TEMP TABLE answers (probe text, id int, answer text);
	FOR p IN SELECT DISTINCT probe FROM tfp_probe.probes('pd') WHERE probe IS NOT NULL LOOP
		FOR i IN SELECT id FROM ids LOOP
			EXECUTE tfp_probe.query('pd', p.probe, i.id) INTO r;
			INSERT INTO answers VALUES (p.probe, i.id, r);
		END LOOP;
	END LOOP;
END $$;
SELECT 'probe ' || probe || ' | ' || id || ' | ' || answer FROM answers ORDER BY 1;
SELECT 'articles ' || md5(string_agg(concat_ws('|', id, fp, sig, dna), ',' ORDER BY id)) FROM articles;
SELECT 'pd ' || md5(string_agg(t::text, ',' ORDER BY id)) FROM pd t;
SELECT 'matches ' || count(*) || ' ' || md5(string_agg(concat_ws('|', new_id, matched_id, method, distance, similarity, matched_at), ',' ORDER BY new_id, matched_id, method)) FROM matches;
SELECT 'lexicon ' || md5(lex::text) FROM lexicon;
