-- test/upgrade/checks.sql: after pg_upgrade, one line each "ok ..." or
-- "not ok ...": every index valid (and btree ones by amcheck), every index
-- probe through its index equal to a sequential scan, stored fingerprints
-- equal to fresh computations, new rows indexed and found.
\set ON_ERROR_STOP on
\pset tuples_only on
\pset format unaligned
CREATE EXTENSION IF NOT EXISTS amcheck;
SELECT CASE WHEN count(*) = 0 THEN 'ok' ELSE 'not ok' END || ' - every index is valid and ready ('
	|| (SELECT count(*) FROM pg_index WHERE indrelid IN ('pd'::regclass, 'articles'::regclass)) || ' indexes)'
FROM pg_index WHERE indrelid IN ('pd'::regclass, 'articles'::regclass) AND NOT (indisvalid AND indisready);
SELECT 'ok - amcheck: bt_index_check of ' || count(bt_index_check(c.oid, true)) || ' btree indexes'
FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
WHERE am.amname = 'btree' AND i.indrelid IN ('pd'::regclass, 'articles'::regclass, 'matches'::regclass);
SELECT 'ok - index kinds: ' || string_agg(DISTINCT am.amname || '/' || opc.opcname, ' ' ORDER BY am.amname || '/' || opc.opcname)
FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_am am ON am.oid = c.relam
JOIN pg_opclass opc ON opc.oid = i.indclass[0] WHERE i.indrelid IN ('pd'::regclass, 'articles'::regclass);
SET textfp.minhash_threshold = 0.7;
CREATE TEMP TABLE ids AS SELECT id FROM pd ORDER BY hashint4(id) LIMIT 8;
CREATE FUNCTION pg_temp.run(idx bool) RETURNS TABLE (probe text, id int, answer text) LANGUAGE plpgsql AS $$
DECLARE p record; i record; r text; BEGIN
	PERFORM set_config('enable_seqscan', CASE WHEN idx THEN 'off' ELSE 'on' END, true);
	PERFORM set_config('enable_indexscan', CASE WHEN idx THEN 'on' ELSE 'off' END, true);
	PERFORM set_config('enable_bitmapscan', CASE WHEN idx THEN 'on' ELSE 'off' END, true);
	FOR p IN SELECT DISTINCT q.probe FROM tfp_probe.probes('pd') q WHERE q.probe IS NOT NULL LOOP
		FOR i IN SELECT ids.id FROM ids LOOP
			EXECUTE tfp_probe.query('pd', p.probe, i.id) INTO r;
			probe := p.probe; id := i.id; answer := r; RETURN NEXT;
		END LOOP;
	END LOOP;
END $$;
CREATE FUNCTION pg_temp.compare(what text) RETURNS text LANGUAGE sql AS $$
	WITH a AS (SELECT * FROM pg_temp.run(true)), b AS (SELECT * FROM pg_temp.run(false))
	SELECT CASE WHEN count(*) FILTER (WHERE a.answer IS DISTINCT FROM b.answer) = 0 THEN 'ok' ELSE 'not ok' END
		|| ' - ' || what || ': ' || count(*) || ' index probes answer as a sequential scan'
		|| coalesce(': differ ' || string_agg(a.probe || ' ' || a.id, '; ') FILTER (WHERE a.answer IS DISTINCT FROM b.answer), '')
	FROM a JOIN b USING (probe, id) $$;
SELECT pg_temp.compare('after the upgrade');
DO $$ DECLARE c record; n bigint; bad text := ''; BEGIN
	FOR c IN SELECT * FROM tfp_probe.columns() LOOP
		-- (as text: not every type has an equality operator)
		EXECUTE format('SELECT count(*) FROM pd WHERE %I::text IS DISTINCT FROM (%s)::text', c.col, format(c.expr, 'body')) INTO n;
		IF n > 0 THEN bad := bad || ' ' || c.col || ':' || n; END IF;
	END LOOP;
	SELECT count(*) INTO n FROM articles WHERE fp IS DISTINCT FROM simhash(body) OR sig IS DISTINCT FROM minhash(body, 64)
		OR dna IS DISTINCT FROM pinyin_dna(body);
	IF n > 0 THEN bad := bad || ' articles:' || n; END IF;
	RAISE NOTICE '%', CASE WHEN bad = '' THEN 'ok' ELSE 'not ok' END || ' - stored fingerprints equal fresh computations'
		|| CASE WHEN bad = '' THEN '' ELSE ':' || bad END;
END $$;
-- new rows after the upgrade: written into every index (pending lists,
-- runs), computed by the generated columns
INSERT INTO articles (id, source, body) SELECT 200000 + id, source, body || ' 升级以后' FROM docs WHERE id % 7 = 0;
DO $$ DECLARE c record; cols text := ''; vals text := ''; BEGIN
	FOR c IN SELECT * FROM tfp_probe.columns() LOOP
		cols := cols || ', ' || quote_ident(c.col); vals := vals || ', ' || format(c.expr, 'b');
	END LOOP;
	EXECUTE format('INSERT INTO pd (id, body%s) SELECT 200000 + id, b%s FROM (SELECT id, body || %L AS b FROM docs WHERE id %% 7 = 0) s',
		cols, vals, ' 升级以后');
END $$;
SELECT CASE WHEN count(*) = 0 THEN 'ok' ELSE 'not ok' END || ' - new rows get generated fingerprints equal to fresh ones'
FROM articles WHERE id >= 200000 AND (fp IS DISTINCT FROM simhash(body) OR sig IS DISTINCT FROM minhash(body, 64));
TRUNCATE ids;
INSERT INTO ids SELECT id FROM pd WHERE id >= 200000 ORDER BY hashint4(id) LIMIT 4;
INSERT INTO ids SELECT id FROM pd WHERE id < 200000 ORDER BY hashint4(id) LIMIT 4;
SELECT pg_temp.compare('after new rows');
SELECT CASE WHEN textfp_strip_boilerplate(body, (SELECT lex FROM lexicon)) IS NOT NULL THEN 'ok' ELSE 'not ok' END
	|| ' - the stored boilerplate lexicon is read' FROM docs WHERE id = (SELECT min(id) FROM docs);
