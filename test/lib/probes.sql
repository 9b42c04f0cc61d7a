-- test/lib/probes.sql: index probes for every operator class of textfp,
-- found in the catalog (not a hand-written list), so that tests and long
-- runs pick up the classes a new version adds.  Used by the update test
-- (test/t/100_upgrade.pl), the limits test, the soak (test/bench/soak.sh)
-- and the random-SQL run (test/harden/sqlsmith.sh):
--
--   \i test/lib/probes.sql            -- schema tfp_probe
--   SELECT * FROM tfp_probe.columns();  -- one value column per kind
--   SELECT * FROM tfp_probe.probes('docs');  -- index DDL and probe queries
--
-- A table given to probes() has "id" (an integer key), "body" (text) and the
-- columns named by columns(), made by their expressions.
--
-- How a class is exercised, from the catalog alone:
-- * its input type T gets a column made from the text by a function of the
--   extension that takes text first and returns T (the one whose name
--   starts the class's name first, e.g. pinyin_dna for pinyin_dna_ops; a
--   required second int4 argument gets 64); a class on text uses body;
-- * each of its operators (pg_amop, left type T) is probed with a right-hand
--   side: another row's value when the right type is T (or body for text);
--   else a function of the extension returning the right type from (T,
--   int4) (simhash_ball, pinyin_dna_query, ...) at the bounds 1, 3 and 6,
--   or from (T, float8) (set_jaccard_query, minhash_query) at 0.3, 0.5
--   and 0.8 (further arguments with defaults keep them).
--   Search operators give "WHERE col OP rhs", ordering operators
--   "ORDER BY col OP rhs LIMIT 10".

CREATE SCHEMA tfp_probe;

-- the extension's member objects of one catalog
CREATE FUNCTION tfp_probe.members(cat regclass) RETURNS SETOF oid
LANGUAGE sql STABLE AS $$
	SELECT d.objid FROM pg_catalog.pg_depend d
	JOIN pg_catalog.pg_extension e ON e.oid = d.refobjid
	WHERE d.refclassid = 'pg_catalog.pg_extension'::pg_catalog.regclass
	  AND e.extname = 'textfp' AND d.deptype = 'e' AND d.classid = cat
$$;

-- the expression (with %s for the text) that makes a value of type typ
CREATE FUNCTION tfp_probe.maker(typ oid, opcname name) RETURNS text
LANGUAGE sql STABLE AS $$
	SELECT CASE WHEN typ IN ('text'::regtype, 'varchar'::regtype) THEN '%s' ELSE (
	SELECT pg_catalog.format('%I.%I(%%s%s)', n.nspname, p.proname,
		CASE WHEN p.pronargs - p.pronargdefaults = 2 THEN ', 64' ELSE '' END)
	FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
	WHERE p.oid IN (SELECT tfp_probe.members('pg_proc'))
	  AND p.prokind = 'f' AND NOT p.proretset AND p.prorettype = typ
	  AND p.pronargs >= 1 AND p.proargtypes[0] = 'text'::regtype
	  AND (p.pronargs - p.pronargdefaults = 1
	       OR (p.pronargs - p.pronargdefaults = 2 AND p.proargtypes[1] = 'int4'::regtype))
	ORDER BY opcname LIKE p.proname || '%' DESC, p.pronargs - p.pronargdefaults,
	         pg_catalog.length(p.proname) DESC, p.proname
	LIMIT 1) END
$$;

-- every operator class of the extension with its input type and maker
CREATE FUNCTION tfp_probe.opclasses()
RETURNS TABLE (opc oid, opcname name, nspname name, amname name, typ oid, maker text)
LANGUAGE sql STABLE AS $$
	SELECT c.oid, c.opcname, n.nspname, am.amname, c.opcintype,
	       tfp_probe.maker(c.opcintype, c.opcname)
	FROM pg_catalog.pg_opclass c
	JOIN pg_catalog.pg_am am ON am.oid = c.opcmethod
	JOIN pg_catalog.pg_namespace n ON n.oid = c.opcnamespace
	WHERE c.oid IN (SELECT tfp_probe.members('pg_opclass'))
	ORDER BY c.opcname, am.amname
$$;

-- the value columns a probe table needs: name (from the expression, so the
-- same in every version that has it) and expression (%s: the text)
CREATE FUNCTION tfp_probe.columns() RETURNS TABLE (col text, typ regtype, expr text)
LANGUAGE sql STABLE AS $$
	SELECT 'c_' || pg_catalog.left(pg_catalog.md5(maker), 8), typ::regtype, maker
	FROM (SELECT DISTINCT typ, maker FROM tfp_probe.opclasses()
	      WHERE maker IS NOT NULL AND maker <> '%s') m
$$;

-- For table tab: per operator class, the index to build and, per operator,
-- a probe: a condition (or ORDER BY) with $ID for the id of the row whose
-- value is the query.  Classes without a maker are listed with NULLs.
CREATE FUNCTION tfp_probe.probes(tab regclass)
RETURNS TABLE (opcname name, amname name, index_name text, index_ddl text,
               oper text, kind "char", probe text)
LANGUAGE plpgsql STABLE AS $$
DECLARE
	o record;
	a record;
	colname text;
	value text;
	ctor text;
	is_float boolean;
	bound text;
	b int;
BEGIN
	FOR o IN SELECT * FROM tfp_probe.opclasses() LOOP
		opcname := o.opcname; amname := o.amname;
		IF o.maker IS NULL THEN
			index_name := NULL; index_ddl := NULL; oper := NULL; kind := NULL; probe := NULL;
			RETURN NEXT;
			CONTINUE;
		END IF;
		colname := CASE WHEN o.maker = '%s' THEN 'body'
			ELSE (SELECT c.col FROM tfp_probe.columns() c WHERE c.expr = o.maker) END;
		index_name := pg_catalog.format('%s_%s_%s', pg_catalog.regexp_replace(tab::text, '\W', '_', 'g'), o.opcname, o.amname);
		index_ddl := pg_catalog.format('CREATE INDEX %I ON %s USING %I (%I %I.%I)',
			index_name, tab, o.amname, colname, o.nspname, o.opcname);
		value := pg_catalog.format('(SELECT %I FROM %s WHERE id = $ID)', colname, tab);
		FOR a IN
			SELECT ap.amopopr::regoperator::text AS op, ap.amoppurpose AS purpose,
			       op.oprname, opn.nspname AS opnsp, ap.amoprighttype AS rt
			FROM pg_catalog.pg_amop ap
			JOIN pg_catalog.pg_opclass c ON c.opcfamily = ap.amopfamily
			JOIN pg_catalog.pg_operator op ON op.oid = ap.amopopr
			JOIN pg_catalog.pg_namespace opn ON opn.oid = op.oprnamespace
			WHERE c.oid = o.opc AND ap.amoplefttype = o.typ
			ORDER BY ap.amopstrategy
		LOOP
			oper := a.op;
			kind := a.purpose;
			IF a.rt = o.typ OR a.rt IN ('text'::regtype, 'varchar'::regtype) THEN
				ctor := CASE WHEN a.rt = o.typ THEN value
					ELSE pg_catalog.format('(SELECT body FROM %s WHERE id = $ID)', tab) END;
				probe := CASE a.purpose WHEN 'o' THEN
					pg_catalog.format('ORDER BY %I OPERATOR(%I.%s) %s LIMIT 10', colname, a.opnsp, a.oprname, ctor)
					ELSE pg_catalog.format('%I OPERATOR(%I.%s) %s', colname, a.opnsp, a.oprname, ctor) END;
				RETURN NEXT;
				CONTINUE;
			END IF;
			-- (T, int4) at the bounds 1, 3, 6, or else (T, float8) at 0.3, 0.5, 0.8;
			-- later arguments with defaults take them
			SELECT pg_catalog.format('%I.%I', n.nspname, p.proname),
			       p.proargtypes[1] = 'float8'::regtype INTO ctor, is_float
			FROM pg_catalog.pg_proc p JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
			WHERE p.oid IN (SELECT tfp_probe.members('pg_proc'))
			  AND p.prokind = 'f' AND NOT p.proretset AND p.prorettype = a.rt
			  AND p.pronargs - p.pronargdefaults = 2 AND p.proargtypes[0] = o.typ
			  AND p.proargtypes[1] IN ('int4'::regtype, 'float8'::regtype)
			ORDER BY p.proargtypes[1] = 'float8'::regtype, p.pronargs, p.proname LIMIT 1;
			IF ctor IS NULL THEN
				probe := NULL;		-- no way to make the right operand: listed, not probed
				RETURN NEXT;
				CONTINUE;
			END IF;
			FOREACH b IN ARRAY ARRAY[1, 3, 6] LOOP
				bound := CASE WHEN NOT is_float THEN b::text
					WHEN b = 1 THEN '0.3' WHEN b = 3 THEN '0.5' ELSE '0.8' END;
				probe := pg_catalog.format('%I OPERATOR(%I.%s) %s(%s, %s)', colname, a.opnsp,
					a.oprname, ctor, value, bound);
				IF a.purpose = 'o' THEN
					probe := pg_catalog.format('ORDER BY %I OPERATOR(%I.%s) %s(%s, %s) LIMIT 10',
						colname, a.opnsp, a.oprname, ctor, value, bound);
				END IF;
				RETURN NEXT;
			END LOOP;
		END LOOP;
	END LOOP;
END
$$;

-- The SELECT of one probe for row id: for a condition, the count and a
-- digest of the matching ids; for an ORDER BY, the operator's values.
CREATE FUNCTION tfp_probe.query(tab regclass, probe text, id bigint) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
	SELECT CASE WHEN p LIKE 'ORDER BY %' THEN
		pg_catalog.format('SELECT pg_catalog.string_agg(d::text, '','') FROM (SELECT %s AS d FROM %s %s) s',
			pg_catalog.regexp_replace(pg_catalog.regexp_replace(p, '^ORDER BY ', ''), ' LIMIT 10$', ''),
			tab, p)
	ELSE
		pg_catalog.format('SELECT pg_catalog.count(*) || '':'' || pg_catalog.md5(coalesce(pg_catalog.string_agg(id::text, '','' ORDER BY id), '''')) FROM %s WHERE %s',
			tab, p)
	END
	FROM (SELECT pg_catalog.replace(probe, '$ID', id::text) AS p) x
$$;
