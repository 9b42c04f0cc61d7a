# Every update path is tested: for each earlier version whose install script
# ships in upgrade/ (textfp--V.sql), a database created at V with stored
# fingerprints and one index per operator class is updated with ALTER
# EXTENSION textfp UPDATE, then compared with a fresh install of the default
# version: the same member objects (\dx+) with the same properties, the same
# answers to the same calls, stored fingerprints unchanged and equal to fresh
# computations, every index valid and answering exactly as a sequential scan
# and as it did before the update.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use PsqlBatch;

my $data = $ENV{TEXTFP_DATADIR} or die "TEXTFP_DATADIR is not set (run via test/run-tests.sh)";
my $src = $ENV{TEXTFP_SRCDIR} or die "TEXTFP_SRCDIR is not set";

# The install scripts of released versions are frozen: installed databases
# were made by exactly these bytes, and an update path is only tested for
# them.  Releasing a version adds its line (sha256 of upgrade/textfp--V.sql).
my %frozen = ('1.0' => 'b3b64ca0dd9335e5ae1ca47d4748c3059c23331696dea9ba4b4ef5c74c545268',
	'1.1' => '79f0083743a494a9f22d116796e0b432cbfd3897d7fe65446bc6d7b8bef3585f',
	'1.2' => 'caf58679176e4045c8f8223265c0fac8008f4b368367214b2ecc01fc5f25c897');

my $node = PostgreSQL::Test::Cluster->new('upgrade');
$node->init;
# no autovacuum: a VACUUM between the two byte comparisons of the indexes
# (before and after ALTER EXTENSION UPDATE) would rewrite GIN's pending list
# and make them differ for a reason that is not the update's
$node->append_conf('postgresql.conf', 'autovacuum = off');
$node->start;

my $default = $node->safe_psql('postgres',
	q{SELECT default_version FROM pg_available_extensions WHERE name = 'textfp'});
my @old = split /\n/, $node->safe_psql('postgres', qq{
	SELECT version FROM pg_available_extension_versions
	WHERE name = 'textfp' AND version <> '$default' ORDER BY string_to_array(version, '.')::int[]});
ok(scalar(@old) >= 1, "earlier versions to update from: @old (default $default)");
my $sharedir = $node->safe_psql('postgres', q{SELECT setting FROM pg_config WHERE name = 'SHAREDIR'});
for my $v (@old)
{
	my $sum = `sha256sum $sharedir/extension/textfp--$v.sql`;
	$sum =~ s/ .*//s;
	is($sum, $frozen{$v} // 'a pinned checksum', "the frozen install script of $v is the released one");
}

# A canonical description of every member object and the properties an
# update could get wrong (C symbols are not compared: an updated database
# keeps the symbol names of its first version, see src/pg/compat_1_0.c).
my $catalog = q{
WITH m AS (
	SELECT d.classid, d.objid FROM pg_depend d JOIN pg_extension e ON e.oid = d.refobjid
	WHERE d.refclassid = 'pg_extension'::regclass AND e.extname = 'textfp' AND d.deptype = 'e')
SELECT pg_describe_object(m.classid, m.objid, 0) || ' | ' || coalesce(
	CASE m.classid
	WHEN 'pg_proc'::regclass THEN (
		SELECT concat_ws(' ', p.prokind, p.provolatile, p.proisstrict, p.proparallel,
			p.proleakproof, p.prosecdef, p.procost, p.prorows, p.proretset,
			p.prorettype::regtype, p.prosupport::regproc, p.proargnames::text,
			pg_get_expr(p.proargdefaults, 0), p.proconfig::text, p.prolang::regproc,
			CASE WHEN p.prolang <> 13 THEN md5(p.prosrc) END,
			obj_description(p.oid, 'pg_proc'))
		FROM pg_proc p WHERE p.oid = m.objid)
	WHEN 'pg_type'::regclass THEN (
		SELECT concat_ws(' ', t.typlen, t.typbyval, t.typtype, t.typcategory, t.typalign,
			t.typstorage, t.typinput::regproc, t.typoutput::regproc, t.typreceive::regproc,
			t.typsend::regproc, t.typanalyze::regproc, obj_description(t.oid, 'pg_type'))
		FROM pg_type t WHERE t.oid = m.objid)
	WHEN 'pg_operator'::regclass THEN (
		SELECT concat_ws(' ', o.oprcode::regproc, o.oprrest::regproc, o.oprjoin::regproc,
			o.oprcom::regoperator, o.oprnegate::regoperator, o.oprcanmerge, o.oprcanhash)
		FROM pg_operator o WHERE o.oid = m.objid)
	WHEN 'pg_opclass'::regclass THEN (
		SELECT concat_ws(' ', c.opcdefault, c.opckeytype::regtype,
			(SELECT string_agg(format('op%s:%s:%s', a.amopstrategy, a.amopopr::regoperator,
				a.amoppurpose), ' ' ORDER BY a.amopstrategy)
			 FROM pg_amop a WHERE a.amopfamily = c.opcfamily),
			(SELECT string_agg(format('fn%s:%s', p.amprocnum, p.amproc::regprocedure),
				' ' ORDER BY p.amprocnum)
			 FROM pg_amproc p WHERE p.amprocfamily = c.opcfamily))
		FROM pg_opclass c WHERE c.oid = m.objid)
	WHEN 'pg_cast'::regclass THEN (
		SELECT concat_ws(' ', c.castfunc::regprocedure, c.castcontext, c.castmethod)
		FROM pg_cast c WHERE c.oid = m.objid)
	END, '') AS obj
FROM m ORDER BY 1};

# The same calls, answered in each database (the schema fp is on search_path).
my $answers = q{
SELECT concat_ws(E'\n',
	simhash('hello world'), simhash(text '你好，世界', ngram => 2),
	simhash(ARRAY['a', 'b', 'c']), simhash(ARRAY['a', 'b'], ARRAY[1.0, 2.5]::float4[]),
	simhash_dist(simhash('hello world'), simhash(text 'hello word')),
	simhash_ball(simhash('hello world'), 3),
	simhash('hello world')::bigint, simhash('hello world')::bit(64),
	minhash('hello world', 16), minhash('床前明月光，疑是地上霜。', 8, ngram => 2),
	shingles('the quick brown fox jumps over'), shingle_jaccard('a b c d e f g', 'a b c d e f h'),
	pinyin('你好世界'), pinyin_initials('你好世界'),
	pinyin_dna('床前明月光，疑是地上霜。举头望明月，低头思故乡。'))};

$node->safe_psql('postgres', 'CREATE DATABASE fresh');
$node->safe_psql('fresh', 'CREATE SCHEMA fp; CREATE EXTENSION textfp SCHEMA fp');
my $fresh_catalog = $node->safe_psql('fresh', $catalog);
my $fresh_dx = $node->psql('fresh', '\dx+ textfp', stdout => \my $dx_fresh);
my $fresh_answers = $node->safe_psql('fresh', "SET search_path = public, fp; $answers");
cmp_ok(scalar(split /\n/, $fresh_catalog), '>', 100, 'the fresh install has its objects');
# calls of every function of the new version with edge-case arguments
my $funcs = $node->safe_psql('fresh', q{
	SELECT p.proname || '|' || pg_get_function_identity_arguments(p.oid) FROM pg_proc p
	JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
	JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'textfp'
	WHERE p.prokind = 'f' ORDER BY 1});
$funcs =~ s/\|[a-z_]+ /|/g;
$funcs =~ s/, [a-z_]+ /, /g;
$funcs =~ s/\bfp\.//g;
my $tmp = PostgreSQL::Test::Utils::tempdir;
open(my $fh, '>', "$tmp/funcs.txt") or die;
print $fh "$funcs\n";
close $fh;
my $sweep = `python3 $src/test/fuzz/sql_sweep.py $tmp/funcs.txt 11 3 values 2>/dev/null`;
my $sweep_calls = () = $sweep =~ /^SELECT/mg;
my ($sweep_out, $sweep_err) = ('', '');
$node->psql('fresh', "SET search_path = public, fp;\n$sweep", stdout => \$sweep_out, stderr => \$sweep_err, on_error_stop => 0);
cmp_ok($sweep_calls, '>', 200, "$sweep_calls calls of every function for the comparison");

sub psql_fp
{
	my ($db, $sql) = @_;
	return $node->safe_psql($db, "SET search_path = public, fp; $sql");
}

for my $v (@old)
{
	my $db = "from_$v";
	$db =~ s/\W/_/g;
	$node->safe_psql('postgres', "CREATE DATABASE $db");
	psql_fp($db, qq{
		CREATE SCHEMA fp;
		CREATE EXTENSION textfp VERSION '$v' SCHEMA fp;
		CREATE TABLE docs (id int PRIMARY KEY, lang text, source text, title text, body text);
		COPY docs FROM '$data/corpus.tsv';
		INSERT INTO docs (id, lang, body)
		SELECT 100000 + id, lang, replace(body, '的', '地') || ' 转载' FROM docs WHERE id % 5 = 0;
		CREATE TABLE articles AS
		SELECT id, lang, body, simhash(body) AS fp, minhash(body, 64) AS sig,
		       pinyin_dna(body) AS dna FROM docs;
		ALTER TABLE articles ADD PRIMARY KEY (id);
	});
	is(psql_fp($db, q{SELECT extversion FROM pg_extension WHERE extname = 'textfp'}), $v,
		"$db: created at version $v");
	# one index per operator class, by the names this version has
	my %opc = map { split /\|/ } split /\n/, psql_fp($db, q{
		SELECT am.amname || '|' || c.opcname FROM pg_opclass c JOIN pg_am am ON am.oid = c.opcmethod
		WHERE c.opcintype = (SELECT atttypid FROM pg_attribute
			WHERE attrelid = 'articles'::regclass AND attname = 'fp')});
	ok($opc{gist}, "$db: the GiST operator class of this version: $opc{gist}");
	psql_fp($db, qq{
		CREATE INDEX a_fp_btree ON articles (fp);
		CREATE INDEX a_fp_hash  ON articles USING hash (fp);
		CREATE INDEX a_fp_gin   ON articles USING gin (fp);
		CREATE INDEX a_fp_gin5  ON articles USING gin (fp $opc{gin} (blocks = 5, width = 12));
		CREATE INDEX a_fp_gist  ON articles USING gist (fp $opc{gist});
		CREATE INDEX a_sig_gin  ON articles USING gin (sig);
		CREATE INDEX a_dna_gin  ON articles USING gin (dna pinyin_dna_ops);
		ANALYZE articles;
	});

	# every operator class of this version, one index each, found in the
	# catalog (test/lib/probes.sql), on a table with a column of each kind
	psql_fp($db, qq{\\i $src/test/lib/probes.sql
		CREATE EXTENSION pageinspect;
		CREATE TABLE pd AS SELECT id, body FROM docs WHERE id < 100000 OR id % 2 = 0;
		ALTER TABLE pd ADD PRIMARY KEY (id);});
	my $add_columns = q{DO $$ DECLARE c record; BEGIN
		FOR c IN SELECT * FROM tfp_probe.columns() LOOP
			IF NOT EXISTS (SELECT FROM pg_attribute WHERE attrelid = 'pd'::regclass AND attname = c.col) THEN
				EXECUTE format('ALTER TABLE pd ADD COLUMN %I %s', c.col, c.typ);
				EXECUTE format('UPDATE pd SET %I = %s', c.col, format(c.expr, 'body'));
			END IF;
		END LOOP;
		FOR c IN SELECT DISTINCT index_name, index_ddl FROM tfp_probe.probes('pd') WHERE index_ddl IS NOT NULL LOOP
			IF to_regclass(c.index_name) IS NULL THEN EXECUTE c.index_ddl; END IF;
		END LOOP; END $$; ANALYZE pd};
	psql_fp($db, $add_columns);
	my $classes_before = psql_fp($db, q{SELECT string_agg(DISTINCT opcname || '/' || amname, ' ') FROM tfp_probe.probes('pd')});
	my $no_probe = psql_fp($db, q{SELECT coalesce(string_agg(DISTINCT opcname || '/' || amname, ' '), '') FROM tfp_probe.probes('pd') WHERE probe IS NULL});
	is($no_probe, '', "$db: every class of $v can be probed (classes: $classes_before)");
	my @pd_ids = split /\n/, psql_fp($db, q{SELECT id FROM pd ORDER BY hashint4(id) LIMIT 4});
	# (each batch of queries through one psql session: test/t/PsqlBatch.pm)
	my $probe_run = sub {
		my ($check) = @_;
		my (@keys, @gen);
		for my $pr (split /\n/, psql_fp($db, q{SELECT DISTINCT probe FROM tfp_probe.probes('pd') WHERE probe IS NOT NULL ORDER BY 1}))
		{
			for my $id (@pd_ids)
			{
				push @keys, "$pr | $id";
				push @gen, [ "$pr | $id", qq{SELECT tfp_probe.query('pd', \$p\$$pr\$p\$, $id)} ];
			}
		}
		my %q = PsqlBatch::run($node, $db, \@gen, 'SET search_path = public, fp;');
		# (MinHash % above the LSH bound of exactness, 0.6875 for k = 64)
		my @cases = map { ([ "idx $_", "SET textfp.minhash_threshold = 0.7; SET enable_seqscan = off; $q{$_}" ],
			$check ? ([ "seq $_", "SET textfp.minhash_threshold = 0.7; SET enable_indexscan = off; SET enable_bitmapscan = off; $q{$_}" ]) : ()) } @keys;
		my %out = PsqlBatch::run($node, $db, \@cases, 'SET search_path = public, fp;');
		my (%ans, @bad);
		for my $k (@keys)
		{
			$ans{$k} = $out{"idx $k"};
			push @bad, $k if $check && $out{"idx $k"} ne $out{"seq $k"};
		}
		return (\%ans, \@bad);
	};
	my ($pd_before) = $probe_run->(0);
	# the bytes of every index, to compare after the update
	my $index_bytes = q{SELECT string_agg(c.relname || ':' || c.relfilenode || ':' || (SELECT md5(string_agg(md5(get_raw_page(c.oid::regclass::text, b::int)), '' ORDER BY b))
		FROM generate_series(0, pg_relation_size(c.oid) / current_setting('block_size')::int - 1) b), ' ' ORDER BY c.relname)
		FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid IN ('pd'::regclass, 'articles'::regclass)};
	my $bytes_before = psql_fp($db, $index_bytes);

	my $digest = q{SELECT md5(string_agg(concat_ws('|', id, fp, sig, dna), ',' ORDER BY id)) FROM articles};
	my $before_digest = psql_fp($db, $digest);
	my @queries = (
		[ 'a_fp_btree', q{fp = (SELECT fp FROM articles WHERE id = %d)} ],
		[ 'a_fp_hash',  q{fp = (SELECT fp FROM articles WHERE id = %d)}, 'enable_indexscan = off; SET enable_bitmapscan = off; SET enable_seqscan = off; SET enable_hashjoin = on' ],
		[ 'a_fp_gin',   q{simhash_dist(fp, (SELECT fp FROM articles WHERE id = %d)) <= 6} ],
		[ 'a_fp_gin5',  q{simhash_dist(fp, (SELECT fp FROM articles WHERE id = %d)) <= 8} ],
		[ 'a_sig_gin',  q{sig % (SELECT sig FROM articles WHERE id = %d)} ],
		[ 'a_dna_gin',  q{dna %& pinyin_dna_query((SELECT dna FROM articles WHERE id = %d), 2)}, undef, 'zh' ],
	);
	my %probes;
	for my $lang ('zh', 'en')
	{
		$probes{$lang} = [ split /\n/, psql_fp($db, qq{
			SELECT id FROM articles WHERE id % 5 = 0 AND id < 100000 AND lang = '$lang'
			ORDER BY hashint4(id) LIMIT 5}) ];
	}
	my $run = sub {
		my ($check) = @_;
		my (@cases, @keys);
		for my $q (@queries)
		{
			my ($index, $cond, undef, $lang) = @$q;
			my @ids = $lang ? @{ $probes{$lang} } : (@{ $probes{zh} }, @{ $probes{en} });
			for my $id (@ids)
			{
				my $sql = "SELECT coalesce(string_agg(id::text, ',' ORDER BY id), '') FROM articles WHERE "
				  . sprintf($cond, $id);
				push @keys, "$index $id";
				push @cases, [ "idx $index $id", "SET enable_seqscan = off; $sql" ];
				push @cases, [ "seq $index $id", "SET enable_indexscan = off; SET enable_bitmapscan = off; $sql" ] if $check;
			}
		}
		my %out = PsqlBatch::run($node, $db, \@cases, 'SET search_path = public, fp;');
		my %got;
		my ($same, $total) = (0, 0);
		my @bad;
		for my $k (@keys)
		{
			$got{$k} = $out{"idx $k"};
			next unless $check;
			$total++;
			if ($out{"seq $k"} eq $out{"idx $k"} && $out{"seq $k"} ne '') { $same++ } else { push @bad, $k }
		}
		return (\%got, $same, $total, \@bad);
	};
	my ($before) = $run->(0);

	psql_fp($db, 'ALTER EXTENSION textfp UPDATE');
	is(psql_fp($db, q{SELECT extversion FROM pg_extension WHERE extname = 'textfp'}), $default,
		"$db: updated to $default");
	is(psql_fp($db, $index_bytes), $bytes_before,
		"$db: every index is the same file with the same bytes after the update");
	# the classes of the new version: indexes for those new, then every probe
	psql_fp($db, "DROP SCHEMA tfp_probe CASCADE; \\i $src/test/lib/probes.sql");
	psql_fp($db, $add_columns);
	my ($pd_after, $pd_bad) = $probe_run->(1);
	my $nprobes = keys %$pd_after;
	is("@$pd_bad", '', "$db: $nprobes probes of every class of $default (incl. new ones: "
		. psql_fp($db, q{SELECT string_agg(DISTINCT opcname || '/' || amname, ' ') FROM tfp_probe.probes('pd')})
		. ') answer as a sequential scan');
	my @changed = grep { exists $pd_after->{$_} && $pd_after->{$_} ne $pd_before->{$_} } sort keys %$pd_before;
	is("@changed", '', "$db: and the probes of ${v}'s classes as before the update ("
		. scalar(keys %$pd_before) . ')');
	# every function with edge-case arguments: the same results and errors as
	# a fresh install (test/fuzz/sql_sweep.py, results' md5)
	my ($sw_up_out, $sw_up_err) = ('', '');
	$node->psql($db, "SET search_path = public, fp;\n$sweep", stdout => \$sw_up_out, stderr => \$sw_up_err, on_error_stop => 0);
	is($sw_up_out, $sweep_out, "$db: $sweep_calls calls of every function give the fresh install's results");
	is($sw_up_err, $sweep_err, "$db: and its errors");
	is($node->safe_psql($db, $catalog), $fresh_catalog,
		"$db: the same member objects and properties as a fresh install");
	$node->psql($db, '\dx+ textfp', stdout => \my $dx_up);
	is($dx_up, $dx_fresh, "$db: \\dx+ textfp lists what a fresh install lists");
	is(psql_fp($db, $answers), $fresh_answers, "$db: the same answers as a fresh install");
	is(psql_fp($db, $digest), $before_digest, "$db: stored fingerprints unchanged");
	is(psql_fp($db, q{
		SELECT count(*) FROM articles
		WHERE fp IS DISTINCT FROM simhash(body) OR sig IS DISTINCT FROM minhash(body, 64)
		   OR dna IS DISTINCT FROM pinyin_dna(body)}), '0',
		"$db: stored fingerprints equal fresh computations");
	is(psql_fp($db, q{SELECT count(*) FROM pg_index WHERE indrelid = 'articles'::regclass AND NOT indisvalid}),
		'0', "$db: every index valid");
	my ($after, $same, $total, $bad) = $run->(1);
	is($same, $total, "$db: $total index queries answer as a sequential scan after the update")
		or diag("differ or empty: @$bad");
	is_deeply($after, $before, "$db: and as they did before the update");
	my $knn = q{SELECT string_agg(d::text, ',') FROM (
		SELECT fp <-> (SELECT fp FROM articles WHERE id = 77) AS d FROM articles ORDER BY 1 LIMIT 15) t};
	is(psql_fp($db, "SET enable_seqscan = off; $knn"),
		psql_fp($db, "SET enable_indexscan = off; SET enable_bitmapscan = off; $knn"),
		"$db: GiST nearest neighbours after the update equal a sort's");
	# the planner hook finds the renamed ball type
	like(psql_fp($db, q{EXPLAIN (COSTS OFF) SELECT id FROM articles
		WHERE simhash_dist(fp, (SELECT fp FROM articles WHERE id = 5)) <= 3}),
		qr/a_fp_gin/, "$db: simhash_dist(fp, q) <= k still uses the GIN index");
	# writes after the update keep the indexes right
	psql_fp($db, q{INSERT INTO articles SELECT id + 200000, lang, body, simhash(body), minhash(body, 64),
		pinyin_dna(body) FROM articles WHERE id < 100 });
	my (undef, $same2, $total2, $bad2) = $run->(1);
	is($same2, $total2, "$db: after new rows, index queries still answer as a sequential scan")
		or diag("differ or empty: @$bad2");

	# The LSH class of 1.0 (32-bit band keys) keeps its indexes under the
	# name minhash_lsh_1_0_ops; a new index gets the default class of 1.1,
	# minhash_lsh_ops (narrower keys), and answers alike.
	if ($v eq '1.0')
	{
		my $opc_of = q{SELECT c.opcname FROM pg_index i JOIN pg_opclass c ON c.oid = i.indclass[0]
			WHERE i.indexrelid = '%s'::regclass};
		is(psql_fp($db, sprintf($opc_of, 'a_sig_gin')), 'minhash_lsh_1_0_ops',
			"$db: the LSH index of 1.0 has the class minhash_lsh_1_0_ops");
		psql_fp($db, 'DROP INDEX a_sig_gin; CREATE INDEX a_sig_gin ON articles USING gin (sig)');
		is(psql_fp($db, sprintf($opc_of, 'a_sig_gin')), 'minhash_lsh_ops',
			"$db: a new LSH index gets the default class minhash_lsh_ops");
		my ($after3, $same3, $total3, $bad3) = $run->(1);
		is($same3, $total3, "$db: with the new LSH index, index queries answer as a sequential scan")
			or diag("differ or empty: @$bad3");
	}
}

# A development build of 1.1 (one that lacks objects of the released 1.1,
# made here by taking one away) is not updated into a 1.2 that silently
# misses them: the update refuses, names what is missing and the way out,
# and leaves the database at 1.1.
$node->safe_psql('postgres', 'CREATE DATABASE early_1_1');
$node->safe_psql('early_1_1', q{CREATE EXTENSION textfp VERSION '1.1';
	ALTER EXTENSION textfp DROP FUNCTION textfp_duplicates_by_day(regclass, text, regclass, name, name);
	DROP FUNCTION textfp_duplicates_by_day(regclass, text, regclass, name, name)});
my ($urc, $uout, $uerr) = $node->psql('early_1_1', q{\set VERBOSITY verbose
ALTER EXTENSION textfp UPDATE});
like($uerr, qr/55000: this database has a development build of textfp 1\.1 that lacks 1 objects of the released 1\.1/,
	'an early 1.1 is refused by the update, with SQLSTATE 55000');
like($uerr, qr/DETAIL:  Missing: textfp_duplicates_by_day\./, '... naming what it lacks');
like($uerr, qr/HINT:  Dump the database with pg_dump/, '... and the way out');
is($node->safe_psql('early_1_1', q{SELECT extversion FROM pg_extension WHERE extname = 'textfp'}), '1.1',
	'... and the database stays at 1.1');

$node->stop;
done_testing();
