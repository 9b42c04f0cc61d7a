# simhash_pairs / simhash_clusters / textfp_clusters are cancellable: long
# runs (a large radius over 200,000 rows: the sort phases and the
# comparisons; the read of a large query) stopped by statement_timeout end
# promptly with 57014, and the same session goes on working; the server
# never restarts.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);

my $node = PostgreSQL::Test::Cluster->new('pairs_cancel');
$node->init;
$node->append_conf('postgresql.conf', "maintenance_work_mem = 256MB\n");
$node->start;

$node->safe_psql('postgres', q{
CREATE EXTENSION textfp;
CREATE TABLE t (id bigint, fp simhash64);
INSERT INTO t SELECT i, ((hashint8(i)::bigint << 32) # (hashint8(-i)::bigint & 4294967295))::simhash64
  FROM generate_series(1, 200000) i;
});
my $pid = $node->safe_psql('postgres', 'SELECT pg_postmaster_start_time()');

my @cases = (
	[ 'table form, radius 20',  q{SELECT count(*) FROM simhash_pairs('t', 'id', 'fp', 20)} ],
	[ 'query form, radius 16',  q{SELECT count(*) FROM simhash_pairs('SELECT id, fp FROM t', 16)} ],
	[ 'simhash_clusters',       q{SELECT count(*) FROM simhash_clusters('t', 'id', 'fp', 20)} ],
	[ 'textfp_clusters, reading', q{SELECT count(*) FROM textfp_clusters(
		'SELECT a.id, b.id FROM t a, t b WHERE a.id < b.id AND a.id < 5000')} ],
	[ 'with progress notices',  q{SET textfp.progress = on;
		SELECT count(*) FROM simhash_pairs('t', 'id', 'fp', 24)} ],
);
for my $c (@cases)
{
	my ($name, $sql) = @$c;
	my $t0 = time;
	# one session: the cancelled statement, then a query in the same backend
	my ($ret, $out, $err) = $node->psql('postgres',
		"SET statement_timeout = '1500ms';\n$sql;\nRESET statement_timeout;\n"
		  . "SELECT 'alive', pg_backend_pid() > 0;",
		on_error_stop => 0);
	my $elapsed = time - $t0;
	like($err, qr/canceling statement due to statement timeout/, "$name: cancelled");
	like($out, qr/alive\|t/, "$name: the same session runs the next query");
	cmp_ok($elapsed, '<', 20, "$name: stopped promptly (${elapsed}s)");
}

is($node->safe_psql('postgres', 'SELECT pg_postmaster_start_time()'), $pid,
	'the server did not restart');
is($node->safe_psql('postgres', q{SELECT count(*) FROM simhash_pairs('t', 'id', 'fp', 0)}),
	$node->safe_psql('postgres', q{SELECT count(*) FROM (SELECT fp FROM t GROUP BY fp HAVING count(*) > 1) d}),
	'a complete run after the cancellations (radius 0: no duplicates in random data)');
$node->stop;
done_testing();
