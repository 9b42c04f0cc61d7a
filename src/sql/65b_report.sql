
-- textfp_report() (65_reports.sql has the other reports): a fragment of its
-- own, since 1.2 redefines it (partial copies): the 1.1 -> 1.2 update drops
-- the 1.1 definition and runs this.

CREATE FUNCTION @extschema@.textfp_report(
		corpus regclass,
		matches regclass,
		title_column name DEFAULT 'title',
		body_column name DEFAULT 'body',
		source_column name DEFAULT NULL,
		id_column name DEFAULT 'id',
		method text DEFAULT NULL,
		clusters int4 DEFAULT 10,
		heading text DEFAULT NULL,
		fp_column name DEFAULT NULL,
		boilerplate @extschema@.textfp_boilerplate DEFAULT NULL)
	RETURNS text
	LANGUAGE plpgsql STABLE PARALLEL UNSAFE
	SET search_path = pg_catalog, pg_temp
AS $fn$
DECLARE
	ext text := (SELECT e.extnamespace::regnamespace::text FROM pg_catalog.pg_extension e
				 WHERE e.extname = 'textfp');
	h text;
	sql text;
	dist_sql text;
	r record;
	c record;
	n_docs bigint;
	n_records bigint;
	n_pairs bigint;
	n_copies bigint;
	n_originals bigint;
	n_clusters bigint := 0;
	n_clustered bigint := 0;
	largest bigint := 0;
	maxd int4;
	maxn bigint;
	bw float8;
	x float8;
	y float8;
	partner bigint;
	col name;
	title_expr text;
	body_expr text;
	source_expr text;
	excerpt constant int4 := 200;
	ta text;
	ba text;
	tb text;
	bb text;
	shown constant int4 := 20;
BEGIN
	PERFORM @extschema@.textfp_refuse_citus(guard.rel, 'textfp_report', 'Citus cannot join the match table to the corpus on both ids of a pair: run it on plain copies of the two tables (docs/citus.md, "Reports").') FROM pg_catalog.unnest(ARRAY[corpus, matches]) AS guard(rel);
	IF corpus IS NULL OR matches IS NULL OR id_column IS NULL THEN
		RAISE EXCEPTION 'textfp_report: corpus, matches and id_column must not be NULL' USING ERRCODE = '22004';
	END IF;
	IF clusters IS NULL OR clusters < 0 OR clusters > 1000 THEN
		RAISE EXCEPTION 'textfp_report: clusters must be between 0 and 1000, not %', coalesce(clusters::text, 'NULL')
			USING ERRCODE = '22023', DETAIL = 'It is the number of largest clusters shown with their rows.';
	END IF;
	FOREACH col IN ARRAY ARRAY[id_column, title_column, body_column, source_column, fp_column] LOOP
		IF col IS NOT NULL AND NOT EXISTS (SELECT FROM pg_catalog.pg_attribute a WHERE a.attrelid = corpus
										   AND a.attname = col AND a.attnum > 0 AND NOT a.attisdropped) THEN
			RAISE EXCEPTION 'column "%" of relation % does not exist', col, corpus
				USING ERRCODE = '42703', HINT = 'Name the corpus''s columns with id_column, title_column, body_column, source_column and fp_column (NULL: none).';
		END IF;
	END LOOP;
	title_expr := CASE WHEN title_column IS NULL THEN 'NULL::text' ELSE pg_catalog.format('c.%I::text', title_column) END;
	body_expr := CASE WHEN body_column IS NULL THEN 'NULL::text' ELSE pg_catalog.format('c.%I::text', body_column) END;
	source_expr := CASE WHEN source_column IS NULL THEN 'NULL::text' ELSE pg_catalog.format('c.%I::text', source_column) END;
	heading := coalesce(heading, 'Near-duplicates in ' || corpus::text);

	-- summary figures
	EXECUTE pg_catalog.format('SELECT pg_catalog.count(*) FROM %s', corpus) INTO n_docs;
	EXECUTE pg_catalog.format(
		'SELECT pg_catalog.count(*), pg_catalog.count(DISTINCT (m.new_id, m.matched_id)),
				pg_catalog.count(DISTINCT m.new_id), pg_catalog.count(DISTINCT m.matched_id)
		 FROM %s m WHERE $1 IS NULL OR m.method = $1', matches)
		INTO n_records, n_pairs, n_copies, n_originals USING method;
	SELECT coalesce(pg_catalog.sum(s.clusters), 0), coalesce(pg_catalog.sum(s.rows), 0),
		   coalesce(pg_catalog.max(s.cluster_size), 0)
		INTO n_clusters, n_clustered, largest
	FROM @extschema@.textfp_cluster_sizes(matches, method) s;

	h := '<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src ''none''; style-src ''unsafe-inline''">
<meta name="generator" content="textfp">
<title>' || @extschema@.textfp_html_escape(heading) || '</title>
<style>
body { font-family: system-ui, "Noto Sans", "Noto Sans CJK SC", sans-serif; margin: 2em auto; max-width: 1100px; color: #222; padding: 0 1em; }
h1 { font-size: 1.6em; margin-bottom: .2em; }
h2 { font-size: 1.25em; margin-top: 2em; border-bottom: 1px solid #ccc; }
h3 { font-size: 1.05em; margin-bottom: .3em; }
p.meta { color: #666; margin-top: 0; }
.figures { display: flex; flex-wrap: wrap; gap: .8em; }
.figure { background: #f3f6fa; border: 1px solid #d8e0ea; border-radius: 6px; padding: .6em 1em; min-width: 9em; }
.figure b { display: block; font-size: 1.6em; color: #1f4e8c; }
table { border-collapse: collapse; margin: .5em 0; }
th, td { border: 1px solid #ddd; padding: .25em .6em; text-align: left; vertical-align: top; }
th { background: #f3f6fa; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
.bar { display: inline-block; height: .8em; background: #5b8fd1; }
.none { color: #888; font-style: italic; }
svg text { font-size: 10px; fill: #333; }
' || @extschema@.textfp_compare_css() || '
</style>
</head>
<body>
<h1>' || @extschema@.textfp_html_escape(heading) || '</h1>
<p class="meta">corpus ' || @extschema@.textfp_html_escape(corpus::text) || ', match table '
		|| @extschema@.textfp_html_escape(matches::text) || ', '
		|| CASE WHEN method IS NULL THEN 'all methods' ELSE 'method ' || @extschema@.textfp_html_escape(method) END
		|| '; generated ' || pg_catalog.to_char(pg_catalog.now(), 'YYYY-MM-DD HH24:MI:SS TZ') || '</p>
<h2 id="summary">Summary</h2>
<div class="figures">';
	FOR r IN SELECT * FROM (VALUES (n_docs, 'rows in the corpus'), (n_copies, 'rows that copy another'),
								   (n_originals, 'rows copied'), (n_pairs, 'pairs'), (n_records, 'match records'),
								   (n_clusters, 'clusters'), (n_clustered, 'rows in clusters'),
								   (largest, 'largest cluster')) v(n, what) LOOP
		h := h || pg_catalog.format('<div class="figure"><b>%s</b>%s</div>',
									pg_catalog.to_char(r.n, 'FM999,999,999,999,990'), r.what);
	END LOOP;
	h := h || '</div>
<h3>Records by method</h3>
<table><tr><th>method</th><th>records</th><th>new rows</th><th>first recorded</th><th>last recorded</th></tr>';
	FOR r IN EXECUTE pg_catalog.format(
		'SELECT m.method::text AS method, pg_catalog.count(*) AS n, pg_catalog.count(DISTINCT m.new_id) AS copies,
				pg_catalog.min(m.matched_at) AS first, pg_catalog.max(m.matched_at) AS last
		 FROM %s m WHERE $1 IS NULL OR m.method = $1 GROUP BY 1 ORDER BY 1', matches) USING method LOOP
		h := h || pg_catalog.format('<tr><td>%s</td><td class="n">%s</td><td class="n">%s</td><td>%s</td><td>%s</td></tr>',
									@extschema@.textfp_html_escape(r.method), r.n, r.copies,
									pg_catalog.to_char(r.first, 'YYYY-MM-DD HH24:MI'), pg_catalog.to_char(r.last, 'YYYY-MM-DD HH24:MI'));
	END LOOP;
	h := h || '</table>';

	-- the histogram of the Hamming distances of the pairs, as SVG: between
	-- the corpus's simhash64 fingerprints (fp_column, or its only simhash64
	-- column), else those the simhash records hold
	IF fp_column IS NULL THEN
		SELECT pg_catalog.min(a.attname) INTO fp_column FROM pg_catalog.pg_attribute a
		WHERE a.attrelid = corpus AND a.attnum > 0 AND NOT a.attisdropped
		  AND a.atttypid = pg_catalog.to_regtype(ext || '.simhash64')
		HAVING pg_catalog.count(*) = 1;
	END IF;
	IF fp_column IS NOT NULL THEN
		dist_sql := pg_catalog.format(
			'SELECT %1$s.simhash_dist(a.%2$I, b.%2$I) AS distance
			 FROM (SELECT DISTINCT m.new_id, m.matched_id FROM %3$s m WHERE $1 IS NULL OR m.method = $1) p
			 JOIN %4$s a ON a.%5$I = p.new_id JOIN %4$s b ON b.%5$I = p.matched_id
			 WHERE a.%2$I IS NOT NULL AND b.%2$I IS NOT NULL',
			ext, fp_column, matches, corpus, id_column);
	ELSE
		dist_sql := pg_catalog.format(
			'SELECT m.distance FROM %s m
			 WHERE m.method = ''simhash'' AND ($1 IS NULL OR m.method = $1) AND m.distance IS NOT NULL', matches);
	END IF;
	h := h || '
<h2 id="distances">Hamming distances</h2>
<p class="meta">' || CASE WHEN fp_column IS NOT NULL
		THEN 'between the fingerprints (column ' || @extschema@.textfp_html_escape(fp_column) || ') of the two rows of each pair'
		ELSE 'of the simhash records' END || '</p>';
	EXECUTE pg_catalog.format('SELECT pg_catalog.max(x.distance), pg_catalog.max(x.n) FROM (
		SELECT d.distance, pg_catalog.count(*) AS n FROM (%s) d GROUP BY 1) x', dist_sql)
		INTO maxd, maxn USING method;
	IF maxd IS NULL THEN
		h := h || '<p class="none">No Hamming distances: no pairs, or no simhash fingerprints.</p>';
	ELSE
		maxd := greatest(maxd, 3);
		bw := 600.0 / (maxd + 1);
		h := h || pg_catalog.format('
<svg xmlns="http://www.w3.org/2000/svg" width="660" height="230" viewBox="0 0 660 230" role="img" aria-label="pairs by Hamming distance">
<title>pairs by Hamming distance (bits)</title>
<line x1="40" y1="190" x2="645" y2="190" stroke="#888"/>
<text x="340" y="225" text-anchor="middle">Hamming distance (bits)</text>
<text x="12" y="105" text-anchor="middle" transform="rotate(-90 12 105)">pairs</text>');
		FOR r IN EXECUTE pg_catalog.format(
			'SELECT s.d, coalesce(x.n, 0) AS n FROM pg_catalog.generate_series(0, $2) s(d)
			 LEFT JOIN (SELECT d.distance, pg_catalog.count(*) AS n FROM (%s) d GROUP BY 1) x ON x.distance = s.d
			 ORDER BY s.d', dist_sql) USING method, maxd LOOP
			x := 42 + r.d * bw;
			y := 170.0 * r.n / maxn;
			h := h || pg_catalog.format('
<rect x="%s" y="%s" width="%s" height="%s" fill="#5b8fd1"><title>%s bits: %s pairs</title></rect>',
				round(x::numeric, 1), round((190 - y)::numeric, 1), round(greatest(bw - 2, 1)::numeric, 1),
				round(y::numeric, 1), r.d, r.n);
			IF r.n > 0 AND bw >= 14 THEN
				h := h || pg_catalog.format('<text x="%s" y="%s" text-anchor="middle">%s</text>',
					round((x + bw / 2 - 1)::numeric, 1), round((186 - y)::numeric, 1), r.n);
			END IF;
			IF bw >= 14 OR r.d % 4 = 0 THEN
				h := h || pg_catalog.format('<text x="%s" y="203" text-anchor="middle">%s</text>',
					round((x + bw / 2 - 1)::numeric, 1), r.d);
			END IF;
		END LOOP;
		h := h || '
</svg>';
	END IF;

	-- per day (the last 31 days with matches) and per source
	h := h || '
<h2 id="days">Copies found per day</h2>';
	maxn := NULL;
	FOR r IN SELECT d.*, pg_catalog.max(d.copies) OVER () AS top
			 FROM @extschema@.textfp_duplicates_by_day(matches, method) d ORDER BY d.day DESC LIMIT 31 LOOP
		IF maxn IS NULL THEN
			maxn := r.top;
			h := h || '<table><tr><th>day</th><th>new rows that copy another</th><th>pairs</th><th>rows copied</th><th></th></tr>';
		END IF;
		h := h || pg_catalog.format('<tr><td>%s</td><td class="n">%s</td><td class="n">%s</td><td class="n">%s</td><td><span class="bar" style="width: %spx"></span></td></tr>',
									r.day, r.copies, r.pairs, r.originals, round(200.0 * r.copies / greatest(r.top, 1)));
	END LOOP;
	h := h || CASE WHEN maxn IS NULL THEN '<p class="none">No matches recorded.</p>' ELSE '</table>' END;
	IF source_column IS NOT NULL THEN
		h := h || '
<h2 id="sources">By source</h2>
<table><tr><th>source</th><th>rows</th><th>rows that copy another</th><th>&hellip; from another source</th><th>rows copied</th><th>&hellip; by another source</th></tr>';
		FOR r IN SELECT * FROM @extschema@.textfp_duplicates_by_source(matches, corpus, source_column, id_column, method) LOOP
			h := h || pg_catalog.format('<tr><td>%s</td><td class="n">%s</td><td class="n">%s</td><td class="n">%s</td><td class="n">%s</td><td class="n">%s</td></tr>',
				coalesce(@extschema@.textfp_html_escape(r.source), '<span class="none">none</span>'),
				r.documents, r.copies, r.copies_from_other_sources, r.originals, r.originals_copied_by_other_sources);
		END LOOP;
		h := h || '</table>';
	END IF;

	-- the most copied rows
	h := h || '
<h2 id="copied">Most copied</h2>';
	maxn := NULL;
	FOR r IN EXECUTE pg_catalog.format(
		'SELECT t.*, %1$s AS title, %2$s AS source FROM %3$s.textfp_most_copied($1, 10, $2) t
		 LEFT JOIN %4$s c ON c.%5$I = t.matched_id ORDER BY t.copies DESC, t.matched_id',
		title_expr, source_expr, ext, corpus, id_column) USING matches, method LOOP
		IF maxn IS NULL THEN
			maxn := 0;
			h := h || '<table><tr><th>id</th><th>title</th>' || CASE WHEN source_column IS NULL THEN '' ELSE '<th>source</th>' END
				|| '<th>copies</th><th>best similarity</th><th>first copied</th><th>last copied</th></tr>';
		END IF;
		h := h || pg_catalog.format('<tr><td class="n">%s</td><td>%s</td>%s<td class="n">%s</td><td class="n">%s</td><td>%s</td><td>%s</td></tr>',
			r.matched_id, coalesce(@extschema@.textfp_html_escape(r.title), ''),
			CASE WHEN source_column IS NULL THEN '' ELSE '<td>' || coalesce(@extschema@.textfp_html_escape(r.source), '') || '</td>' END,
			r.copies, coalesce(round(r.best_similarity::numeric, 3)::text, ''),
			pg_catalog.to_char(r.first_copied, 'YYYY-MM-DD HH24:MI'), pg_catalog.to_char(r.last_copied, 'YYYY-MM-DD HH24:MI'));
	END LOOP;
	h := h || CASE WHEN maxn IS NULL THEN '<p class="none">No matches recorded.</p>' ELSE '</table>' END;

	-- partial copies: the rows that took passages from others (the
	-- passages method of textfp_check_arrivals: similarity is the share of
	-- the new row copied, distance the number of passages), the largest
	-- shares first, and the first of them side by side with their passages
	IF method IS NULL OR method = 'passages' THEN
		maxn := NULL;
		FOR r IN EXECUTE pg_catalog.format(
			'SELECT m.new_id, m.matched_id, m.similarity, m.distance, %1$s AS title, %2$s AS source,
					%3$s AS body, s.title AS s_title, s.source AS s_source, s.body AS s_body,
					pg_catalog.row_number() OVER (ORDER BY m.similarity DESC, m.new_id, m.matched_id) AS k
			 FROM %4$s m
			 LEFT JOIN %5$s c ON c.%6$I = m.new_id
			 LEFT JOIN LATERAL (SELECT %1$s AS title, %2$s AS source, %3$s AS body
								FROM %5$s c WHERE c.%6$I = m.matched_id LIMIT 1) s ON true
			 WHERE m.method = ''passages''
			 ORDER BY m.similarity DESC, m.new_id, m.matched_id LIMIT $1',
			title_expr, source_expr, body_expr, matches, corpus, id_column) USING shown LOOP
			IF maxn IS NULL THEN
				maxn := 0;
				h := h || '
<h2 id="partial">Partial copies</h2>
<p class="meta">rows that took passages from another row (method passages): the share of the row inside the passages, the number of passages</p>
<table><tr><th>id</th><th>title</th>' || CASE WHEN source_column IS NULL THEN '' ELSE '<th>source</th>' END
					|| '<th>copied from</th><th>its title</th>' || CASE WHEN source_column IS NULL THEN '' ELSE '<th>its source</th>' END
					|| '<th>share copied</th><th>passages</th></tr>';
			END IF;
			h := h || pg_catalog.format('<tr><td class="n">%s</td><td>%s</td>%s<td class="n"><a href="#partial-%s-%s">%s</a></td><td>%s</td>%s<td class="n">%s</td><td class="n">%s</td></tr>',
				r.new_id, coalesce(@extschema@.textfp_html_escape(r.title), ''),
				CASE WHEN source_column IS NULL THEN '' ELSE '<td>' || coalesce(@extschema@.textfp_html_escape(r.source), '') || '</td>' END,
				r.new_id, r.matched_id, r.matched_id, coalesce(@extschema@.textfp_html_escape(r.s_title), ''),
				CASE WHEN source_column IS NULL THEN '' ELSE '<td>' || coalesce(@extschema@.textfp_html_escape(r.s_source), '') || '</td>' END,
				coalesce(round(r.similarity::numeric, 3)::text, ''), coalesce(r.distance::text, ''));
		END LOOP;
		IF maxn IS NOT NULL THEN
			h := h || '</table>';
			IF body_column IS NOT NULL THEN
				FOR r IN EXECUTE pg_catalog.format(
					'SELECT m.new_id, m.matched_id, m.similarity, %1$s AS title, %2$s AS body,
							s.title AS s_title, s.body AS s_body
					 FROM %3$s m
					 LEFT JOIN %4$s c ON c.%5$I = m.new_id
					 LEFT JOIN LATERAL (SELECT %1$s AS title, %2$s AS body FROM %4$s c
										WHERE c.%5$I = m.matched_id LIMIT 1) s ON true
					 WHERE m.method = ''passages''
					 ORDER BY m.similarity DESC, m.new_id, m.matched_id LIMIT $1',
					title_expr, body_expr, matches, corpus, id_column) USING clusters LOOP
					h := h || pg_catalog.format('
<h3 id="partial-%s-%s">Row %s: %s%% from row %s</h3>', r.new_id, r.matched_id, r.new_id,
						round(100 * r.similarity::numeric), r.matched_id);
					IF r.body IS NULL OR r.s_body IS NULL THEN
						h := h || '<p class="none">no text to compare</p>';
					ELSE
						-- only the passages, with some context: the source on the left
						h := h || '
' || @extschema@.textfp_compare_html(r.s_body, r.body, min_length => 40, context => 60,
								a_title => pg_catalog.concat_ws(' ', '#' || r.matched_id, r.s_title),
								b_title => pg_catalog.concat_ws(' ', '#' || r.new_id, r.title));
					END IF;
				END LOOP;
			END IF;
		END IF;
	END IF;

	-- cluster sizes, and the largest clusters with their rows and a
	-- side-by-side comparison of the representative and its closest copy
	h := h || '
<h2 id="clusters">Clusters</h2>';
	IF n_clusters = 0 THEN
		h := h || '<p class="none">No clusters.</p>';
	ELSE
		h := h || '<table><tr><th>cluster size</th><th>clusters</th><th>rows</th><th></th></tr>';
		FOR r IN SELECT s.*, pg_catalog.max(s.clusters) OVER () AS top
				 FROM @extschema@.textfp_cluster_sizes(matches, method) s ORDER BY s.cluster_size LOOP
			h := h || pg_catalog.format('<tr><td class="n">%s</td><td class="n">%s</td><td class="n">%s</td><td><span class="bar" style="width: %spx"></span></td></tr>',
				r.cluster_size, r.clusters, r.rows, round(200.0 * r.clusters / r.top));
		END LOOP;
		h := h || '</table>';
	END IF;
	FOR c IN SELECT k.cluster_id, k.cluster_size, pg_catalog.array_agg(k.id ORDER BY k.id) AS members
			 FROM @extschema@.textfp_match_clusters(matches, method) k
			 GROUP BY k.cluster_id, k.cluster_size
			 ORDER BY k.cluster_size DESC, k.cluster_id LIMIT clusters LOOP
		h := h || pg_catalog.format('
<h3 id="cluster-%1$s">Cluster %1$s: %2$s rows</h3>
<table><tr><th>id</th><th>title</th>%3$s<th>closest match</th></tr>',
			c.cluster_id, c.cluster_size, CASE WHEN source_column IS NULL THEN '' ELSE '<th>source</th>' END);
		FOR r IN EXECUTE pg_catalog.format(
			'SELECT x.id, %1$s AS title, %2$s AS source, b.method, b.distance, b.similarity, b.other
			 FROM pg_catalog.unnest($1) WITH ORDINALITY AS x(id, o)
			 LEFT JOIN %3$s c ON c.%4$I = x.id
			 LEFT JOIN LATERAL (
				SELECT m.method, m.distance, m.similarity,
					   CASE WHEN m.new_id = x.id THEN m.matched_id ELSE m.new_id END AS other
				FROM %5$s m WHERE (m.new_id = x.id OR m.matched_id = x.id) AND ($2 IS NULL OR m.method = $2)
				ORDER BY m.distance NULLS LAST, m.similarity DESC NULLS LAST, 4 LIMIT 1) b ON true
			 WHERE x.o <= $3 ORDER BY x.id',
			title_expr, source_expr, corpus, id_column, matches) USING c.members, method, shown LOOP
			h := h || pg_catalog.format('<tr><td class="n">%s</td><td>%s</td>%s<td>%s</td></tr>',
				r.id, coalesce(@extschema@.textfp_html_escape(r.title), ''),
				CASE WHEN source_column IS NULL THEN '' ELSE '<td>' || coalesce(@extschema@.textfp_html_escape(r.source), '') || '</td>' END,
				CASE WHEN r.method IS NULL THEN '' ELSE
					pg_catalog.format('%s, %s (%s)', r.other,
						CASE WHEN r.distance IS NOT NULL THEN r.distance || ' bits'
							 ELSE 'similarity ' || round(r.similarity::numeric, 3) END,
						@extschema@.textfp_html_escape(r.method)) END);
		END LOOP;
		h := h || '</table>';
		IF c.cluster_size > shown THEN
			h := h || pg_catalog.format('<p class="none">and %s more rows</p>', c.cluster_size - shown);
		END IF;
		IF body_column IS NOT NULL THEN
			-- the representative (smallest id) and its closest recorded copy
			EXECUTE pg_catalog.format(
				'SELECT CASE WHEN m.new_id = $1 THEN m.matched_id ELSE m.new_id END FROM %s m
				 WHERE (m.new_id = $1 OR m.matched_id = $1) AND ($2 IS NULL OR m.method = $2)
				 ORDER BY m.distance NULLS LAST, m.similarity DESC NULLS LAST, 1 LIMIT 1', matches)
				INTO partner USING c.cluster_id, method;
			partner := coalesce(partner, c.members[2]);
			-- side by side, the copied passages highlighted (textfp_align);
			-- long texts cut to the passages and some context around them
			sql := pg_catalog.format('SELECT %s, %s FROM %s c WHERE c.%I = $1 LIMIT 1',
									 title_expr, body_expr, corpus, id_column);
			EXECUTE sql INTO ta, ba USING c.cluster_id;
			EXECUTE sql INTO tb, bb USING partner;
			IF boilerplate IS NOT NULL THEN
				-- the passages side by side without the template lines
				ba := @extschema@.textfp_strip_boilerplate(ba, boilerplate);
				bb := @extschema@.textfp_strip_boilerplate(bb, boilerplate);
			END IF;
			IF ba IS NULL OR bb IS NULL THEN
				h := h || '<p class="none">no text to compare</p>';
			ELSE
				h := h || '
' || @extschema@.textfp_compare_html(ba, bb, context => excerpt,
						a_title => pg_catalog.concat_ws(' ', '#' || c.cluster_id, ta),
						b_title => pg_catalog.concat_ws(' ', '#' || partner, tb));
			END IF;
		END IF;
	END LOOP;
	RETURN h || '
</body>
</html>
';
END
$fn$;
COMMENT ON FUNCTION @extschema@.textfp_report(regclass, regclass, name, name, name, name, text, int4, text, name, @extschema@.textfp_boilerplate)
	IS 'a self-contained HTML page about a match table: summary figures, Hamming distance histogram, copies per day and source, most copied rows, cluster sizes, the largest clusters with their copied passages side by side';
