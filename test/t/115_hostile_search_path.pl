# A hostile schema on the search path (the CVE-2020-14350 class): an
# unprivileged user, mallory, may create objects in public.  She plants
# look-alikes that log who ran them into public.pwned: before the install,
# same-signature copies of every pg_catalog function and operator the
# extension uses or its install script names (hashint8, current_setting,
# =, >= ...); after an install into its own schema, copies of every function
# and operator of the extension (simhash_dist, = on its types, ...) and
# types of the same names.  A database owner (not a superuser: textfp is
# trusted, so its script runs as superuser) then installs textfp and works:
# tables with generated fingerprint columns, one index per operator class,
# every probe of every class, the planner hook's literal form, joins, casts,
# aggregates, the batch functions, COPY, and calls of every function.  Once
# with search_path "ext, public" and natural SQL, once with "public, ext"
# and schema-qualified SQL (so anything textfp resolved by search_path on its
# own would find mallory's copy).  Nothing of mallory's may run: pwned stays
# empty, while a control call shows her traps do fire when called.  The
# install and update scripts pass test/harden/check_sql_refs.py, and every
# member of the extension depends only on pg_catalog and the extension.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $src = $ENV{TEXTFP_SRCDIR} or die "TEXTFP_SRCDIR is not set (run via test/run-tests.sh)";
my $data = $ENV{TEXTFP_DATADIR} or die "TEXTFP_DATADIR is not set";

my $node = PostgreSQL::Test::Cluster->new('hostile');
$node->init;
$node->start;

# the scripts the server installs, linted
my $sharedir = $node->safe_psql('postgres', q{SELECT setting FROM pg_config WHERE name = 'SHAREDIR'});
my @scripts = grep { !m{/textfp--\d+(\.\d+)*\.sql$} || $_ eq latest_script() }
	glob("$sharedir/extension/textfp--*.sql");
sub latest_script
{
	my $v = $node->safe_psql('postgres',
		q{SELECT default_version FROM pg_available_extensions WHERE name = 'textfp'});
	return "$sharedir/extension/textfp--$v.sql";
}
my $lint = `python3 $src/test/harden/check_sql_refs.py @scripts 2>&1`;
is($?, 0, 'install and update scripts: no unqualified reference, no OR REPLACE / IF NOT EXISTS '
	. '(' . scalar(@scripts) . ' scripts)') or diag($lint);

$node->safe_psql('postgres', q{
	CREATE ROLE mallory LOGIN;
	CREATE ROLE owner LOGIN;
	CREATE DATABASE victim OWNER owner;
	CREATE DATABASE victim2 OWNER owner;
	CREATE DATABASE victim3 OWNER owner;
	CREATE DATABASE scratch;
});

# pg_catalog functions and operators textfp uses: its members' dependencies,
# and every name its install script calls
my $script = slurp_file(latest_script());
my %names = map { lc($_) => 1 } ($script =~ /([A-Za-z_][A-Za-z_0-9]*)\s*\(/g);
$names{$_} = 1 for qw(hashint8 hashint8extended hashint4 hashtext btint4cmp btint8cmp current_setting);
$node->safe_psql('scratch', 'CREATE EXTENSION textfp');
my $member_cte = q{
	WITH m AS (SELECT d.classid, d.objid FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
		WHERE d.refclassid = 'pg_extension'::regclass AND e.extname = 'textfp' AND d.deptype = 'e')};
my $name_list = join(',', map { "'$_'" } sort keys %names);
my $catalog_fns = $node->safe_psql('scratch', qq{SET search_path = pg_catalog; $member_cte
	SELECT DISTINCT p.oid::regprocedure::text || ';' || p.prorettype::regtype::text || ';' || p.proretset
	FROM pg_proc p
	WHERE p.pronamespace = 'pg_catalog'::regnamespace AND p.prokind = 'f'
	  AND (p.proname IN ($name_list)
	       OR p.oid IN (SELECT d.refobjid FROM pg_depend d JOIN m ON d.classid = m.classid
	                    AND d.objid = m.objid WHERE d.refclassid = 'pg_proc'::regclass))
	ORDER BY 1});
my $catalog_ops = $node->safe_psql('scratch', qq{SET search_path = pg_catalog; $member_cte
	SELECT DISTINCT o.oprname || ';' || o.oprleft::regtype || ';' || o.oprright::regtype || ';' || o.oprresult::regtype
	FROM pg_operator o
	WHERE o.oprnamespace = 'pg_catalog'::regnamespace AND o.oprleft <> 0 AND (
	      o.oid IN (SELECT d.refobjid FROM pg_depend d JOIN m ON d.classid = m.classid
	                AND d.objid = m.objid WHERE d.refclassid = 'pg_operator'::regclass)
	   OR (o.oprname IN ('=', '<>', '<', '<=', '>', '>=', '+', '-', '||', '&', '#', '<<', '>>')
	       AND o.oprleft IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype, 'text'::regtype,
	                         'oid'::regtype, 'name'::regtype, 'bit'::regtype, 'int8[]'::regtype)
	       AND o.oprleft = o.oprright))
	ORDER BY 1});

# mallory's log and her trap generator: SQL text planting look-alikes of the
# given functions ("f(args);rettype;retset") and operators ("op;l;r;result")
sub traps_sql
{
	my ($fns, $ops, $schema) = @_;
	my @sql;
	my $n = 0;
	for my $f (split /\n/, $fns)
	{
		my ($sig, $ret, $set) = split /;/, $f;
		next if "$sig $ret" =~ /\b(internal|cstring|"any"|anyelement|anyarray|anynonarray|anycompatible\w*|anyenum|anyrange|anymultirange|language_handler|trigger|event_trigger|index_am_handler|table_am_handler|tsm_handler|fdw_handler)\b/;
		my ($name, $args) = $sig =~ /^(.*?)\((.*)\)$/;
		$name =~ s/^.*\.//;
		$name =~ s/^"(.*)"$/$1/;
		my $setof = $set eq 't' ? 'SETOF ' : '';
		my $sel = $ret eq 'void' ? 'SELECT' : "SELECT NULL::$ret";
		$sel = 'SELECT' if $ret eq 'void';
		push @sql, sprintf(q{DO $d$ BEGIN CREATE FUNCTION %s.%s(%s) RETURNS %s%s LANGUAGE sql AS 'INSERT INTO public.pwned VALUES (current_user, %s); %s'; EXCEPTION WHEN OTHERS THEN NULL; END $d$;},
			$schema, qq{"$name"}, $args, $setof, $ret, "''$name''", $sel eq 'SELECT' ? 'SELECT NULL::void' : $sel);
	}
	for my $o (split /\n/, $ops)
	{
		my ($op, $l, $r, $res) = split /;/, $o;
		$n++;
		push @sql, sprintf(q{DO $d$ BEGIN CREATE FUNCTION %s.mallory_op_%d(%s, %s) RETURNS %s LANGUAGE sql AS 'INSERT INTO public.pwned VALUES (current_user, %s); SELECT NULL::%s'; CREATE OPERATOR %s.%s (LEFTARG = %s, RIGHTARG = %s, FUNCTION = %s.mallory_op_%d); EXCEPTION WHEN OTHERS THEN NULL; END $d$;},
			$schema, $n, $l, $r, $res, "''operator $op($l,$r)''", $res, $schema, $op, $l, $r, $schema, $n);
	}
	return join("\n", @sql);
}
my $pwned_setup = q{
	CREATE TABLE public.pwned (who name, what text);
	GRANT INSERT, SELECT ON public.pwned TO PUBLIC;
};
sub pwned
{
	my ($db) = @_;
	return $node->safe_psql($db, q{SELECT coalesce(string_agg(who || ' ran ' || what, '; '), '') FROM public.pwned});
}
sub planted
{
	my ($db) = @_;
	return $node->safe_psql($db, q{SELECT count(*) FROM pg_proc WHERE proowner = 'mallory'::regrole});
}

my $deps_outside = qq{$member_cte
	SELECT coalesce(string_agg(DISTINCT pg_describe_object(m.classid, m.objid, 0) || ' -> '
		|| pg_describe_object(d.refclassid, d.refobjid, 0), '; '), '')
	FROM m JOIN pg_depend d ON d.classid = m.classid AND d.objid = m.objid
	WHERE d.refclassid IN ('pg_proc'::regclass, 'pg_operator'::regclass, 'pg_type'::regclass,
	                       'pg_opfamily'::regclass, 'pg_collation'::regclass)
	  AND d.deptype = 'n'
	  AND (d.refclassid, d.refobjid) NOT IN (SELECT classid, objid FROM m)
	  AND CASE d.refclassid
	      WHEN 'pg_proc'::regclass THEN (SELECT pronamespace FROM pg_proc WHERE oid = d.refobjid)
	      WHEN 'pg_operator'::regclass THEN (SELECT oprnamespace FROM pg_operator WHERE oid = d.refobjid)
	      WHEN 'pg_type'::regclass THEN (SELECT typnamespace FROM pg_type WHERE oid = d.refobjid)
	      WHEN 'pg_opfamily'::regclass THEN (SELECT opfnamespace FROM pg_opfamily WHERE oid = d.refobjid)
	      WHEN 'pg_collation'::regclass THEN (SELECT collnamespace FROM pg_collation WHERE oid = d.refobjid)
	      END <> 'pg_catalog'::regnamespace};

# ---- 1. install into public, where mallory planted look-alikes of built-ins
$node->safe_psql('victim', "GRANT CREATE ON SCHEMA public TO PUBLIC; $pwned_setup");
$node->safe_psql('victim', "SET ROLE mallory;\n" . traps_sql($catalog_fns, $catalog_ops, 'public'));
cmp_ok(planted('victim'), '>', 20, 'victim: mallory planted look-alikes of pg_catalog functions ('
	. planted('victim') . ' functions)');
$node->safe_psql('victim', 'SET ROLE owner; CREATE EXTENSION textfp');
is(pwned('victim'), '', 'victim: CREATE EXTENSION textfp in public ran nothing of mallory\'s');
is($node->safe_psql('victim', $deps_outside), '',
	'victim: every member depends only on pg_catalog and the extension');

# ---- 2. a look-alike of one of textfp's own objects: the install stops
$node->safe_psql('victim3', "GRANT CREATE ON SCHEMA public TO PUBLIC; $pwned_setup");
$node->safe_psql('victim3', q{SET ROLE mallory;
	CREATE FUNCTION public.pinyin(body text) RETURNS text LANGUAGE sql
		AS 'INSERT INTO public.pwned VALUES (current_user, ''pinyin''); SELECT NULL::text';});
my ($ret, $out, $err) = $node->psql('victim3', 'SET ROLE owner; CREATE EXTENSION textfp');
like($err, qr/already exists/, 'victim3: a pre-made look-alike of a textfp function stops the install');
is($node->safe_psql('victim3', q{SELECT count(*) FROM pg_extension WHERE extname = 'textfp'}), '0',
	'victim3: and textfp is not installed over it');
is(pwned('victim3'), '', 'victim3: nothing of mallory\'s ran');

# ---- 3. install into schema ext; mallory copies every textfp function and
# operator into public, and makes types of the same names there
$node->safe_psql('victim2', "GRANT CREATE ON SCHEMA public TO PUBLIC; $pwned_setup");
$node->safe_psql('victim2', "SET ROLE mallory;\n" . traps_sql($catalog_fns, $catalog_ops, 'public'));
# (other users may use the extension: USAGE on its schema, as is usual)
$node->safe_psql('victim2', q{SET ROLE owner; CREATE SCHEMA ext; CREATE EXTENSION textfp SCHEMA ext;
	GRANT USAGE ON SCHEMA ext TO PUBLIC});
is(pwned('victim2'), '', 'victim2: CREATE EXTENSION textfp SCHEMA ext ran nothing of mallory\'s');
is($node->safe_psql('victim2', $deps_outside), '',
	'victim2: every member depends only on pg_catalog and the extension');
my $ext_fns = $node->safe_psql('victim2', qq{SET search_path = pg_catalog; $member_cte
	SELECT p.oid::regprocedure::text || ';' || p.prorettype::regtype::text || ';' || p.proretset
	FROM pg_proc p JOIN m ON m.classid = 'pg_proc'::regclass AND m.objid = p.oid
	WHERE p.prokind = 'f' ORDER BY 1});
my $ext_ops = $node->safe_psql('victim2', qq{SET search_path = pg_catalog; $member_cte
	SELECT o.oprname || ';' || o.oprleft::regtype || ';' || o.oprright::regtype || ';' || o.oprresult::regtype
	FROM pg_operator o JOIN m ON m.classid = 'pg_operator'::regclass AND m.objid = o.oid
	WHERE o.oprleft <> 0 ORDER BY 1});
my $ext_types = $node->safe_psql('victim2', qq{$member_cte
	SELECT string_agg(format('CREATE TYPE public.%I AS ENUM (''mallory'');', t.typname), ' ')
	FROM pg_type t JOIN m ON m.classid = 'pg_type'::regclass AND m.objid = t.oid});
my $before = planted('victim2');
$node->safe_psql('victim2', "SET ROLE mallory;\n" . traps_sql($ext_fns, $ext_ops, 'public') . "\n$ext_types");
my $nfns = () = $ext_fns =~ /\n/g;
cmp_ok(planted('victim2') - $before, '>', $nfns / 2,
	'victim2: mallory copied textfp\'s functions and operators into public ('
	. (planted('victim2') - $before) . ' functions)');

# control: her copies do run when a caller resolves names through public first
$node->safe_psql('victim2', q{SET ROLE owner; SET search_path = public, ext;
	SELECT simhash_dist(ext.simhash('a'), ext.simhash('b'))});
like(pwned('victim2'), qr/owner ran simhash_dist/, 'control: an unqualified call with public first runs mallory\'s copy');
$node->safe_psql('victim2', 'TRUNCATE public.pwned');

# the owner's data (COPY from a file needs a superuser)
$node->safe_psql('victim2', qq{
	CREATE TABLE public.corpus (id int, lang text, source text, title text, body text);
	COPY public.corpus FROM '$data/corpus.tsv';
	ALTER TABLE public.corpus OWNER TO owner;});

# the owner's work: natural SQL with "ext, public", schema-qualified SQL
# with "public, ext"; both run the same statements, written two ways
sub work
{
	my ($q) = @_;                      # q: 1 = qualified
	my $e = $q ? 'ext.' : '';
	my $op = sub { $q ? "OPERATOR(ext.$_[0])" : $_[0] };
	my $tab = $q ? 'ws_q' : 'ws_n';
	return qq{
	CREATE TABLE $tab (id int PRIMARY KEY, source text, body text,
		fp  ext.simhash64 GENERATED ALWAYS AS (${e}simhash(body)) STORED,
		sig ext.minhash GENERATED ALWAYS AS (${e}minhash(body, 64)) STORED,
		dna int8[] GENERATED ALWAYS AS (${e}pinyin_dna(body)) STORED);
	INSERT INTO $tab (id, source, body) SELECT id, source, body FROM public.corpus;
	INSERT INTO $tab (id, source, body) SELECT 100000 + id, 'copies', replace(body, '的', '地') || ' 转载'
		FROM public.corpus WHERE id % 5 = 0;
	CREATE INDEX ON $tab USING gin (fp ext.simhash64_gin_ops);
	CREATE INDEX ON $tab USING gist (fp ext.simhash64_gist_ops);
	CREATE INDEX ON $tab USING btree (fp ext.simhash64_ops);
	CREATE INDEX ON $tab USING hash (fp ext.simhash64_ops);
	CREATE INDEX ON $tab USING gin (sig ext.minhash_lsh_ops);
	CREATE INDEX ON $tab USING btree (sig ext.minhash_ops);
	CREATE INDEX ON $tab USING hash (sig ext.minhash_ops);
	CREATE INDEX ON $tab USING gin (dna ext.pinyin_dna_ops);
	ANALYZE $tab;
	SET enable_seqscan = off;
	SELECT count(*) FROM $tab a WHERE ${e}simhash_dist(a.fp, (SELECT fp FROM $tab WHERE id = 5)) <= 3;
	SELECT count(*) FROM $tab a WHERE a.fp @{[ $op->('<->') ]} (SELECT fp FROM $tab WHERE id = 5) < 4;
	SELECT count(*) FROM $tab a WHERE ${e}simhash_within(a.fp, (SELECT fp FROM $tab WHERE id = 5), 3);
	SELECT count(*) FROM $tab a WHERE a.fp @{[ $op->('<@') ]} ${e}simhash_ball((SELECT fp FROM $tab WHERE id = 5), 3);
	SELECT count(*) FROM $tab a JOIN $tab b ON ${e}simhash_dist(a.fp, b.fp) <= 2 WHERE a.id < 50;
	SELECT id FROM $tab ORDER BY fp @{[ $op->('<->') ]} (SELECT fp FROM $tab WHERE id = 9) LIMIT 5;
	SELECT count(*) FROM $tab WHERE fp @{[ $op->('=') ]} (SELECT fp FROM $tab WHERE id = 9);
	SELECT count(*) FROM $tab WHERE fp @{[ $op->('<') ]} (SELECT fp FROM $tab WHERE id = 9);
	SELECT count(*) FROM $tab WHERE sig @{[ $op->('%') ]} (SELECT sig FROM $tab WHERE id = 10);
	SELECT count(*) FROM $tab WHERE sig @{[ $op->('=') ]} (SELECT sig FROM $tab WHERE id = 10);
	SELECT count(*) FROM $tab WHERE dna @{[ $op->('%&') ]} ${e}pinyin_dna_query((SELECT dna FROM $tab WHERE id = 10), 2);
	RESET enable_seqscan;
	SET enable_mergejoin = off; SET enable_nestloop = off;
	SELECT count(*) FROM $tab a JOIN $tab b ON a.fp @{[ $op->('=') ]} b.fp;
	SELECT count(*) FROM $tab a JOIN $tab b ON a.sig @{[ $op->('=') ]} b.sig;
	SET enable_hashjoin = off; SET enable_mergejoin = on;
	SELECT count(*) FROM $tab a JOIN $tab b ON a.fp @{[ $op->('=') ]} b.fp;
	RESET enable_hashjoin; RESET enable_mergejoin; RESET enable_nestloop;
	SELECT count(DISTINCT fp), count(DISTINCT sig) FROM $tab;
	SELECT fp::bigint, fp::bit(64), (fp::bigint)::ext.simhash64 FROM $tab WHERE id = 3;
	SELECT ${e}minhash_jaccard(a.sig, b.sig), ${e}shingle_jaccard(a.body, b.body),
	       ${e}pinyin_dna_similarity(a.dna, b.dna), ${e}pinyin_dna_shared(a.dna, b.dna),
	       ${e}pinyin(left(a.body, 50)), ${e}pinyin_initials(left(a.body, 50)),
	       ${e}minhash_k(a.sig), ${e}minhash_is_empty(a.sig), ${e}shingles(left(a.body, 100))
	FROM $tab a, $tab b WHERE a.id = 5 AND b.id = 100005;
	CREATE TEMP TABLE ref_$tab AS SELECT ${e}simhash_reference(body) AS r FROM $tab;
	SELECT ${e}simhash(body, (SELECT r FROM ref_$tab)) FROM $tab WHERE id = 5;
	SELECT ${e}simhash(ARRAY['a', 'b']), ${e}simhash(ARRAY['a', 'b'], ARRAY[1, 2]::float4[]);
	SELECT count(*) FROM ${e}simhash_pairs('$tab', 'id', 'fp', 3);
	SELECT count(*) FROM ${e}simhash_pairs('SELECT id, fp FROM $tab', 3);
	SELECT count(*) FROM ${e}simhash_clusters('$tab', 'id', 'fp', 3);
	SELECT count(*) FROM ${e}textfp_clusters('SELECT a.id, b.id FROM $tab a JOIN $tab b
		ON a.sig @{[ $op->('%') ]} b.sig AND a.id < b.id');
	SELECT ${e}textfp_create_match_table('m_$tab');
	SELECT * FROM ${e}textfp_check_arrivals('SELECT id, fp, sig, dna, body FROM $tab WHERE id > 100000', '$tab', 'm_$tab',
		ARRAY['simhash', 'minhash', 'pinyin_dna', 'shingle_jaccard', 'textfp_match'], text_column => 'body');
	SELECT count(*) FROM ${e}textfp_match_clusters('m_$tab');
	SELECT count(*) FROM ${e}textfp_cluster_sizes('m_$tab');
	SELECT count(*) FROM ${e}textfp_most_copied('m_$tab');
	SELECT count(*) FROM ${e}textfp_duplicates_by_day('m_$tab');
	SELECT count(*) FROM ${e}textfp_duplicates_by_source('m_$tab', '$tab', 'source');
	SELECT length(${e}textfp_report('$tab', 'm_$tab', title_column => NULL, source_column => 'source'));
	CREATE TABLE t_$tab (id int, fp ext.simhash64, duplicate_of int);
	CREATE TRIGGER t_${tab}_dup BEFORE INSERT ON t_$tab FOR EACH ROW EXECUTE FUNCTION ${e}textfp_duplicate_of('fp', '3');
	INSERT INTO t_$tab SELECT id, fp FROM $tab WHERE id < 200 OR id > 100000;
	SELECT count(duplicate_of) FROM t_$tab;
	COPY (SELECT fp, sig FROM $tab WHERE id < 20) TO STDOUT;
	COPY (SELECT fp, sig FROM $tab WHERE id < 20) TO STDOUT (FORMAT binary);
	UPDATE $tab SET body = body || ' x' WHERE id < 30;
	DELETE FROM $tab WHERE id < 10;
	VACUUM $tab;
	REINDEX TABLE $tab;
};
}
my $w = $node->safe_psql('victim2', "SET ROLE owner; SET search_path = ext, public;\n" . work(0));
ok(length($w) > 0, 'the owner\'s work with search_path ext, public (natural SQL) ran');
is(pwned('victim2'), '', 'victim2: it ran nothing of mallory\'s');
$node->safe_psql('victim2', "SET ROLE owner; SET search_path = public, ext;\n" . work(1));
is(pwned('victim2'), '', 'victim2: the schema-qualified work with public first ran nothing of mallory\'s');
is($node->safe_psql('victim2', q{SET search_path = ext, public;
	SELECT count(*) FROM ws_n a JOIN ws_q b USING (id)
	WHERE a.fp IS DISTINCT FROM b.fp OR a.sig IS DISTINCT FROM b.sig OR a.dna IS DISTINCT FROM b.dna}),
	'0', 'victim2: both ways of writing gave the same fingerprints');

# every function called with edge-case arguments by the owner (path ext, public)
my $funcs = $node->safe_psql('victim2', qq{$member_cte
	SELECT p.proname || '|' || pg_get_function_identity_arguments(p.oid)
	FROM pg_proc p JOIN m ON m.classid = 'pg_proc'::regclass AND m.objid = p.oid
	WHERE p.prokind = 'f' ORDER BY 1});
$funcs =~ s/\|[a-z_]+ /|/g;
$funcs =~ s/, [a-z_]+ /, /g;
$funcs =~ s/ext\.//g;
my $dir = PostgreSQL::Test::Utils::tempdir;
open(my $fh, '>', "$dir/funcs.txt") or die;
print $fh "$funcs\n";
close $fh;
my $sweep = `python3 $src/test/fuzz/sql_sweep.py $dir/funcs.txt 7 3`;
die "sql_sweep.py failed" if $? != 0;
$node->psql('victim2', "SET ROLE owner; SET search_path = ext, public;\n$sweep", on_error_stop => 0);
is(pwned('victim2'), '', 'victim2: calls of every function with edge-case arguments ran nothing of mallory\'s');

$node->stop;
done_testing();
