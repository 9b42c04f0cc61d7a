# Shared pieces of the Citus TAP tests (140, 141, 142): build Citus 13.2 from ../shared/citus (build.sh,
# reused from its work directory after the first build) into a copy of the
# harness's private server installation, and start a coordinator and two
# workers on 127.0.0.1 with textfp installed.  Skips the whole test, with
# the reason, where Citus cannot be built (PostgreSQL outside 15-17,
# missing build dependencies, no source).
package CitusTap;
use strict;
use warnings;
use Fcntl qw(:flock);
use Exporter 'import';
use File::Path qw(make_path);
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);
our @EXPORT = qw(citus_cluster citus_corpus citus_articles citus_rows citus_fails);

# citus_cluster(extra_conf): ($coord, @workers), textfp created on all (two
# assertions: the workers are active, the extension reached them)
sub citus_cluster
{
	my ($extra) = @_;
	my $pg_config = 'pg_config';    # the private copy's: first on PATH
	my $version = `$pg_config --version`;
	my ($major) = $version =~ /PostgreSQL (\d+)/
	  or plan skip_all => "cannot run pg_config: $version";
	plan skip_all => "Citus 13.2 supports PostgreSQL 15-17, this is $major"
	  unless $major >= 15 && $major <= 17;
	# test/run-tests.sh sets TEXTFP_CITUS_SRC (a copy of ../shared/citus at
	# a fixed path, so that build.sh's stamp lets a finished build be reused)
	my $build_sh;
	$build_sh = "$ENV{TEXTFP_CITUS_SRC}/build.sh"
	  if defined $ENV{TEXTFP_CITUS_SRC} && -x "$ENV{TEXTFP_CITUS_SRC}/build.sh";
	plan skip_all => 'no Citus source: TEXTFP_CITUS_SRC names no build.sh (test/run-tests.sh sets it '
	  . 'on PostgreSQL 15, or with TEXTFP_CITUS=1, when ../shared/citus is beside the tree)'
	  unless $build_sh;

	# The private copy is a relocated tree PREFIX/usr/lib/postgresql/N/bin:
	# Citus is compiled against the real installation and installed into a
	# copy of the private tree that this test owns.
	chomp(my $bindir = `$pg_config --bindir`);
	chomp(my $sharedir = `$pg_config --sharedir`);
	chomp(my $pkglibdir = `$pg_config --pkglibdir`);
	my ($prefix, $real_bindir);
	my @p = split m{/}, $bindir;
	for my $i (1 .. $#p - 1)
	{
		my $cand = join('/', '', @p[ $i + 1 .. $#p ]);
		if (-x "$cand/pg_config" && `$cand/pg_config --version` eq $version)
		{
			($prefix, $real_bindir) = (join('/', @p[ 0 .. $i ]), $cand);
			last;
		}
	}
	plan skip_all => "cannot find the real installation of the private copy $bindir"
	  unless defined $real_bindir;
	my $inst = PostgreSQL::Test::Utils::tempdir('citus_inst');
	for my $d ($bindir, $pkglibdir, $sharedir)
	{
		(my $rel = $d) =~ s/^\Q$prefix\E//;
		make_path("$inst$rel");
		system('cp', '-a', "$d/.", "$inst$rel/") == 0 or die "cannot copy $d";
	}
	# a work directory per OS user: one another user made (a benchmark run
	# as root, say) is never written into, so never a reason to skip
	my $user = getpwuid($<) // $<;
	my $workdir = $ENV{TEXTFP_CITUS_WORKDIR} // "/tmp/textfp-citus-$major-$user";
	my $t0 = time;
	# one build at a time per work directory: the TAP files that use Citus
	# may run at once (prove -j), and the first builds while the others
	# wait, then reuse its build
	# (opened for reading where it exists: another user may own it)
	open(my $lock, (-e "$workdir.lock" ? '<' : '>>'), "$workdir.lock")
	  or die "cannot open $workdir.lock: $!";
	flock($lock, LOCK_EX) or die "cannot lock $workdir.lock: $!";
	# no LLVM bitcode (the JIT's inlining copies, a third of the build): the
	# nodes run with jit = off; test/run-tests.sh builds the same way
	local $ENV{MAKEFLAGS} = 'with_llvm=no';
	my $out = `"$build_sh" --pg-config "$real_bindir/pg_config" --destdir "$inst" --workdir "$workdir" 2>&1`;
	my $status = $?;
	close $lock;
	plan skip_all => "Citus could not be built here: " . join(' ', split /\n/, $out)
	  if $status;
	note sprintf('citus: %s (%.0f s)', join(' ', grep { !/warning/ } split /\n/, $out), time - $t0);
	(my $rel_bin = $bindir) =~ s/^\Q$prefix\E//;
	$ENV{PATH} = "$inst$rel_bin:$ENV{PATH}";

	my @nodes;
	for my $name (qw(coord w1 w2))
	{
		my $n = PostgreSQL::Test::Cluster->new($name);
		$n->init;
		$n->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'citus'
listen_addresses = '127.0.0.1'
max_connections = 60
jit = off
} . ($extra // ''));
		$n->start;
		$n->safe_psql('postgres', 'CREATE EXTENSION citus');
		push @nodes, $n;
	}
	my ($coord, @workers) = @nodes;
	$coord->safe_psql('postgres', "SELECT citus_set_coordinator_host('127.0.0.1', " . $coord->port . ')');
	$coord->safe_psql('postgres', "SELECT citus_add_node('127.0.0.1', " . $_->port . ')') for @workers;
	$coord->safe_psql('postgres', 'CREATE EXTENSION textfp');
	is($coord->safe_psql('postgres', 'SELECT count(*) FROM citus_get_active_worker_nodes()'),
		2, 'a coordinator and two workers');
	is($workers[0]->safe_psql('postgres', "SELECT extversion FROM pg_extension WHERE extname = 'textfp'"),
		$coord->safe_psql('postgres', "SELECT extversion FROM pg_extension WHERE extname = 'textfp'"),
		'CREATE EXTENSION textfp reached the workers');
	return @nodes;
}

# citus_corpus(coord, datadir): a table src (id bigint, source, body) of a
# few thousand real texts on the coordinator: the 453 documents of
# corpus.tsv, every 8th paragraph of the pools longer than 100 bytes, and a
# copy of every 56th with a number appended (near duplicates)
sub citus_corpus
{
	my ($coord, $data) = @_;
	$coord->safe_psql('postgres', qq{
CREATE TABLE pool (n int GENERATED ALWAYS AS IDENTITY, body text);
COPY pool (body) FROM '$data/pool_en.txt' WITH (FORMAT csv, DELIMITER E'\\x1f', QUOTE E'\\x1e');
COPY pool (body) FROM '$data/pool_zh.txt' WITH (FORMAT csv, DELIMITER E'\\x1f', QUOTE E'\\x1e');
CREATE TABLE docs (id int, lang text, source text, title text, body text);
COPY docs FROM '$data/corpus.tsv';
CREATE TABLE src AS
SELECT id::bigint AS id, source, body FROM docs
UNION ALL
SELECT 100000 + n, 'pool', body FROM pool WHERE n % 8 = 0 AND length(body) > 100
UNION ALL
SELECT 200000 + n, 'edited', body || ' ' || (n % 97)::text FROM pool WHERE n % 56 = 0 AND length(body) > 100;
});
}

# citus_articles(coord, with_dna): the rows of src (citus_corpus) in a plain
# table and in one distributed by id in 8 shards, each with generated
# fingerprints (fp simhash64, sig minhash of 128 values; with_dna: dna
# pinyin_dna) and their indexes (plain_fp, dist_fp: hamming; plain_sig,
# dist_sig: GIN; plain_dna, dist_dna: GIN pinyin_dna_ops), analyzed
sub citus_articles
{
	my ($coord, $with_dna) = @_;
	my $dna = $with_dna ? ",\n    dna int8[] GENERATED ALWAYS AS (pinyin_dna(body)) STORED" : '';
	my $sql = '';
	for my $t (qw(plain dist))
	{
		$sql .= qq{
CREATE TABLE $t (
    id bigint PRIMARY KEY, source text, body text NOT NULL,
    fp simhash64 GENERATED ALWAYS AS (simhash(body)) STORED,
    sig minhash GENERATED ALWAYS AS (minhash(body, 128)) STORED$dna);
};
	}
	$sql .= "SELECT create_distributed_table('dist', 'id', shard_count => 8);\n";
	for my $t (qw(plain dist))
	{
		$sql .= qq{
INSERT INTO $t (id, source, body) SELECT id, source, body FROM src;
CREATE INDEX ${t}_fp ON $t USING hamming (fp);
CREATE INDEX ${t}_sig ON $t USING gin (sig);
};
		$sql .= "CREATE INDEX ${t}_dna ON $t USING gin (dna pinyin_dna_ops);\n" if $with_dna;
	}
	$coord->safe_psql('postgres', "$sql\nANALYZE plain; ANALYZE dist;");
}

# citus_rows(node, sql): the rows of a query as "count:md5" in a canonical order
sub citus_rows
{
	my ($node, $sql, $set) = @_;
	return $node->safe_psql('postgres', ($set // '')
		  . "SELECT count(*) || ':' || coalesce(md5(string_agg(r::text, ',' ORDER BY r::text)), '') FROM ($sql) r");
}

# citus_fails(node, sql): "SQLSTATE: message" of a statement that must fail
sub citus_fails
{
	my ($node, $sql) = @_;
	my ($ret, $o, $e) = $node->psql('postgres', "\\set VERBOSITY verbose\n$sql");
	return $ret == 0 ? 'no error' : ($e =~ /ERROR:\s+(\w{5}):\s*([^\n]*)/ ? "$1: $2" : $e);
}

1;
