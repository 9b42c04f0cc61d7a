# A database that uses textfp survives pg_dump and restore: the extension
# installed in its own schema (not on search_path), generated fingerprint
# columns of every kind, and one index per operator class (with opclass
# parameters), restored by pg_restore from the custom format and by psql
# from the plain format, the latter as a non-superuser (textfp is trusted).
# After restore the stored values are identical, every stored value equals a
# fresh computation, every index is valid, and each index answers its
# queries exactly as a sequential scan does.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use PsqlBatch;

my $data = $ENV{TEXTFP_DATADIR} or die "TEXTFP_DATADIR is not set (run via test/run-tests.sh)";

my $node = PostgreSQL::Test::Cluster->new('dump');
$node->init;
$node->start;

$node->safe_psql('postgres', q{
	CREATE DATABASE src;
	CREATE ROLE app LOGIN;
	CREATE DATABASE dst_plain OWNER app;
	CREATE DATABASE dst_custom;
});
# the hamming access method exists from PostgreSQL 15 on (src/sql/75_hamming.sql)
my $ham = $node->safe_psql('postgres', 'SHOW server_version_num') >= 150000;
my $ham_index = $ham
  ? 'CREATE INDEX a_fp4_ham  ON articles USING hamming (fp.simhash(body, ngram => 4));' : '';
$node->safe_psql('src', qq{
	CREATE SCHEMA fp;
	CREATE EXTENSION textfp SCHEMA fp;
	CREATE TABLE articles (
		id int PRIMARY KEY, lang text, source text, title text, body text,
		fp   fp.simhash64 GENERATED ALWAYS AS (fp.simhash(body)) STORED,
		fp3  fp.simhash64 GENERATED ALWAYS AS (fp.simhash(body, ngram => 3, shingle => 2)) STORED,
		sig  fp.minhash GENERATED ALWAYS AS (fp.minhash(body, 64)) STORED,
		dna  int8[]     GENERATED ALWAYS AS (fp.pinyin_dna(body)) STORED,
		ini  text       GENERATED ALWAYS AS (fp.pinyin_initials(left(body, 200))) STORED);
	COPY articles (id, lang, source, title, body) FROM '$data/corpus.tsv';
	-- near-duplicates, so that the radius and LSH queries have answers
	INSERT INTO articles (id, body)
	SELECT 100000 + id, replace(body, '的', '地') || ' 转载' FROM articles WHERE id % 5 = 0;
	CREATE TABLE refs AS SELECT fp.simhash_reference(body) AS r FROM articles;
	CREATE INDEX a_fp_btree ON articles (fp);
	CREATE INDEX a_fp_hash  ON articles USING hash (fp);
	CREATE INDEX a_fp_gin   ON articles USING gin (fp);
	CREATE INDEX a_fp3_gin  ON articles USING gin (fp3 fp.simhash64_gin_ops (blocks = 5, width = 12));
	CREATE INDEX a_fp_gist  ON articles USING gist (fp fp.simhash64_gist_ops);
	$ham_index
	CREATE INDEX a_sig_gin  ON articles USING gin (sig);
	CREATE INDEX a_sig_hash ON articles USING hash (sig);
	CREATE INDEX a_dna_gin  ON articles USING gin (dna fp.pinyin_dna_ops);
	CREATE INDEX a_expr     ON articles (fp.simhash(title, ngram => 1));
	CREATE INDEX a_ini      ON articles (ini);
	ANALYZE articles;
});
my $rows = $node->safe_psql('src', 'SELECT count(*) FROM articles');
cmp_ok($rows, '>=', 480, "source database loaded ($rows rows)");

my $dir = PostgreSQL::Test::Utils::tempdir;
my $connstr = $node->connstr('src');

# custom format, pg_restore as superuser
$node->command_ok([ 'pg_dump', '-Fc', '-f', "$dir/src.dump", '-d', $connstr ],
	'pg_dump -Fc of the source database');
$node->command_ok([ 'pg_restore', '--exit-on-error', '-d', $node->connstr('dst_custom'),
	"$dir/src.dump" ], 'pg_restore of the custom dump');

# plain format, restored by psql as the non-superuser owner of the database
$node->command_ok([ 'pg_dump', '--no-owner', '--no-privileges', '-f', "$dir/src.sql",
	'-d', $connstr ], 'pg_dump of the source database as plain SQL');
$node->command_ok([ 'psql', '-X', '-q', '-v', 'ON_ERROR_STOP=1', '-U', 'app',
	'-d', $node->connstr('dst_plain'), '-f', "$dir/src.sql" ],
	'plain dump restored by a non-superuser (trusted extension)');

# the checks below compare fingerprints with = and IS DISTINCT FROM, which
# need the extension's schema on search_path
sub check_psql
{
	my ($db, $sql) = @_;
	return $node->safe_psql($db, "SET search_path = public, fp; $sql");
}

is($node->safe_psql('dst_plain', q{
	SELECT e.extnamespace::regnamespace || ' ' || t.tableowner FROM pg_extension e, pg_tables t
	WHERE e.extname = 'textfp' AND t.tablename = 'articles'}),
	'fp app', 'the plain restore made the extension in its schema, the table owned by app');

my $digest = q{SELECT md5(string_agg(concat_ws('|', id, fp, fp3, sig, dna, ini), ',' ORDER BY id))
	FROM articles};
my $src_digest = check_psql('src', $digest);

# queries whose answers each index must reproduce; the probes are stored
# values of articles that have a repost, so each query has answers (the
# pinyin DNA query only probes Chinese articles: others have no DNA)
my @queries = (
	[ 'equality',     'a_fp_(btree|hash)', q{fp = (SELECT fp FROM articles WHERE id = %d)} ],
	[ 'btree range',  'a_fp_btree', q{fp >= (SELECT fp FROM articles WHERE id = %d)} ],
	[ 'gin radius',   'a_fp_gin',   q{fp.simhash_dist(fp, (SELECT fp FROM articles WHERE id = %d)) <= 6} ],
	[ 'gin ball',     'a_fp_gin',   q{fp OPERATOR(fp.<@) fp.simhash_ball((SELECT fp FROM articles WHERE id = %d), 4)} ],
	[ 'gin blocks=5', 'a_fp3_gin',  q{fp.simhash_dist(fp3, (SELECT fp3 FROM articles WHERE id = %d)) <= 8} ],
	[ 'minhash lsh',  'a_sig_gin',  q{sig OPERATOR(fp.%%) (SELECT sig FROM articles WHERE id = %d)} ],
	[ 'minhash =',    'a_sig_hash', q{sig OPERATOR(fp.=) (SELECT sig FROM articles WHERE id = %d)} ],
	[ 'pinyin dna',   'a_dna_gin',  q{dna OPERATOR(fp.%%&) fp.pinyin_dna_query((SELECT dna FROM articles WHERE id = %d), 2)}, 'zh' ],
	[ 'expression',   'a_expr',     q{fp.simhash(title, ngram => 1) = (SELECT fp.simhash(title, ngram => 1) FROM articles WHERE id = %d)} ],
);
push @queries, [ 'hamming radius', 'a_fp4_ham', q{fp.simhash_dist(fp.simhash(body, ngram => 4), (SELECT fp.simhash(body, ngram => 4) FROM articles WHERE id = %d)) <= 6} ]
  if $ham;
my %probes;
for my $lang ('zh', 'en')
{
	$probes{$lang} = [ split /\n/, $node->safe_psql('src', qq{
		SELECT id FROM articles WHERE id % 5 = 0 AND id < 100000 AND lang = '$lang'
		ORDER BY hashint4(id) LIMIT 8}) ];
}
$probes{all} = [ @{ $probes{zh} }, @{ $probes{en} } ];

for my $db ('dst_custom', 'dst_plain')
{
	is(check_psql($db, $digest), $src_digest,
		"$db: every stored fingerprint as in the source");
	is(check_psql($db, q{
		SELECT count(*) FROM articles
		WHERE fp IS DISTINCT FROM fp.simhash(body)
		   OR fp3 IS DISTINCT FROM fp.simhash(body, ngram => 3, shingle => 2)
		   OR sig IS DISTINCT FROM fp.minhash(body, 64)
		   OR dna IS DISTINCT FROM fp.pinyin_dna(body)}),
		'0', "$db: every stored value equals a fresh computation");
	is(check_psql($db, q{
		SELECT count(*) FROM refs
		WHERE r IS DISTINCT FROM (SELECT fp.simhash_reference(body) FROM articles)}),
		'0', "$db: the stored simhash reference equals a fresh aggregate");
	is(check_psql($db, q{
		SELECT string_agg(c.relname, ',' ORDER BY c.relname) FROM pg_index i
		JOIN pg_class c ON c.oid = i.indexrelid
		WHERE i.indrelid = 'articles'::regclass AND i.indisvalid}),
		'a_dna_gin,a_expr,a_fp3_gin,' . ($ham ? 'a_fp4_ham,' : '')
		  . 'a_fp_btree,a_fp_gin,a_fp_gist,a_fp_hash,a_ini,a_sig_gin,a_sig_hash,articles_pkey',
		"$db: every index restored and valid");
	is(check_psql($db, q{SELECT pg_get_indexdef('a_fp3_gin'::regclass)}),
		check_psql('src', q{SELECT pg_get_indexdef('a_fp3_gin'::regclass)}),
		"$db: opclass parameters restored");

	check_psql($db, 'ANALYZE articles');
	# every probe of every query in one psql session (test/t/PsqlBatch.pm):
	# the answer of a sequential scan, of the index, and the index plan
	my (@cases, @what);
	for my $q (@queries)
	{
		my ($name, $index, $cond, $lang) = @$q;
		for my $id (@{ $probes{ $lang // 'all' } })
		{
			my $sql = "SELECT coalesce(string_agg(id::text, ',' ORDER BY id), '') FROM articles WHERE "
			  . sprintf($cond, $id);
			my $n = scalar @what;
			push @what, [ "$name id $id", $index ];
			push @cases, [ "$n seq", "SET enable_indexscan = off; SET enable_bitmapscan = off; $sql" ],
			  [ "$n idx", "SET enable_seqscan = off; $sql" ],
			  [ "$n plan", "SET enable_seqscan = off; EXPLAIN (COSTS OFF) $sql" ];
		}
	}
	my %out = PsqlBatch::run($node, $db, \@cases, 'SET search_path = public, fp;');
	my ($same, $total, $used) = (0, 0, 0);
	my (@bad, @unused);
	for my $n (0 .. $#what)
	{
		my ($what, $index) = @{ $what[$n] };
		my ($seq, $idx, $plan) = map { $out{"$n $_"} } qw(seq idx plan);
		if ($plan =~ /(Scan using|Index Scan on) $index\b/) { $used++ } else { push @unused, $what }
		$total++;
		if ($seq eq $idx && $seq ne '') { $same++ } else { push @bad, $what }
	}
	is($same, $total, "$db: $total index queries answer like a sequential scan")
		or diag("differ or empty: @bad");
	is($used, $total, "$db: every one of them used its index")
		or diag("not by their index: @unused");

	# nearest neighbours through the GiST index, against a sort
	my $knn = q{SELECT string_agg(d::text, ',') FROM (
		SELECT fp OPERATOR(fp.<->) (SELECT fp FROM articles WHERE id = 77) AS d
		FROM articles ORDER BY 1 LIMIT 15) t};
	is(check_psql($db, "SET enable_seqscan = off; $knn"),
		check_psql($db, "SET enable_indexscan = off; SET enable_bitmapscan = off; $knn"),
		"$db: GiST nearest-neighbour distances equal a sort's");
	like(check_psql($db, "SET enable_seqscan = off; EXPLAIN (COSTS OFF) $knn"),
		qr/Index (Only )?Scan using a_fp_gist /, "$db: nearest neighbours found by the GiST index");

	# and through the hamming index (an expression index)
	next unless $ham;
	$knn = q{SELECT string_agg(d::text, ',') FROM (
		SELECT fp.simhash(body, ngram => 4) OPERATOR(fp.<->) (SELECT fp.simhash(body, ngram => 4) FROM articles WHERE id = 77) AS d
		FROM articles ORDER BY 1 LIMIT 15) t};
	is(check_psql($db, "SET enable_seqscan = off; $knn"),
		check_psql($db, "SET enable_indexscan = off; SET enable_bitmapscan = off; $knn"),
		"$db: hamming nearest-neighbour distances equal a sort's");
	like(check_psql($db, "SET enable_seqscan = off; EXPLAIN (COSTS OFF) $knn"),
		qr/Index Scan using a_fp4_ham /, "$db: nearest neighbours found by the hamming index");
}

$node->stop;
done_testing();
