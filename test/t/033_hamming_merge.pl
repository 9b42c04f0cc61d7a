# Merges of the hamming index (hamming_merge.c) under concurrency, on a
# streaming standby and across crashes.
#  1. A cursor reads an ORDER BY scan halfway, then inserts and VACUUM merge
#     the run it reads into new runs whose pages reuse the old ones: the
#     rest of the cursor (the scan notices the reused pages and restarts)
#     gives, with the first rows, exactly the rows of a sequential scan in
#     the cursor's snapshot, in distance order, each once.  The same on the
#     standby, where the pages are reused by WAL replay.
#  2. pgbench writers insert, update and delete while VACUUM runs in a loop
#     (each merges) and checkers on the primary and on the standby compare,
#     in one REPEATABLE READ snapshot, the index's radius and top-10
#     answers with a sequential scan's.
#  3. The primary stops with "immediate" while writers insert and merges
#     run, three times; after each recovery the index agrees with a
#     sequential scan, and VACUUM frees the pages of an interrupted merge.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use FindBin;
use lib $FindBin::Bin;
use HammingTap;

my $node = PostgreSQL::Test::Cluster->new('primary');
$node->init(allows_streaming => 1);
# wal_keep_size: the writers of part 3 make about 600 MB of WAL across three
# crashes; a standby slowed by a loaded machine must still find it after
# the restarts (the test's small max_wal_size recycles it otherwise, and the
# standby waits for removed segments until wait_for_catchup gives up)
$node->append_conf('postgresql.conf',
	"max_connections = 40\njit = off\nautovacuum = off\nshared_buffers = 16MB\nwal_keep_size = 2GB\n");
$node->start;
plan skip_all => 'the hamming access method needs PostgreSQL 15 or later'
	if $node->safe_psql('postgres', 'SHOW server_version_num') < 150000;

# 60,000 rows: the pending list's bound is 2,048 rows and a delta run is
# merged into the main one past 1/16 of it, so inserts make both kinds of
# merge
$node->safe_psql('postgres', 'CREATE EXTENSION textfp;' . ham_table_sql(60000, 0.33, 3000, 500, 50) . q{
CREATE INDEX hc_ham ON hc USING hamming (fp);
CREATE FUNCTION more(n int) RETURNS void LANGUAGE sql AS $$
  INSERT INTO hc (fp) SELECT (fp::bigint # (5::bigint << (id % 60)) # (1::bigint << (id % 7)))::simhash64
    FROM hc WHERE id <= n $$;
});
$node->safe_psql('postgres', ham_cmp_sql(60000));

$node->backup('base');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($node, 'base', has_streaming => 1);
$standby->append_conf('postgresql.conf', "hot_standby_feedback = on\nmax_standby_streaming_delay = -1\n");
$standby->start;

my $stats = q{SELECT format('%s runs %s, %s pending, %s merges', runs, run_rows, pending_rows, merges)
  FROM hamming_index_stats('hc_ham')};

# 1. a cursor across merges that reuse the pages it reads
sub cursor_across_merges
{
	my ($reader, $label) = @_;
	my $q = "'123456789abcdef0'::simhash64";
	my $bg = $reader->background_psql('postgres');
	$bg->query_safe('BEGIN ISOLATION LEVEL REPEATABLE READ');
	$bg->query_safe('SET enable_seqscan = off; SET enable_bitmapscan = off; SET enable_sort = off');
	$bg->query_safe("DECLARE c CURSOR FOR SELECT id, fp <-> $q AS d FROM hc ORDER BY fp <-> $q");
	my $first = $bg->query_safe('FETCH 5 FROM c');
	my $before = $node->safe_psql('postgres', $stats);
	# three rounds of inserts and VACUUM: full merges rewrite the main
	# run, and the later ones write into the pages the earlier ones freed
	for my $i (1 .. 3)
	{
		$node->safe_psql('postgres', 'SELECT more(5000)');
		$node->safe_psql('postgres', 'VACUUM hc');
	}
	my $after = $node->safe_psql('postgres', $stats);
	$node->wait_for_catchup($standby) if $reader == $standby;
	my $rest = $bg->query_safe('FETCH ALL FROM c');
	my $expect = $bg->query_safe(
		"SET enable_indexscan = off; SET enable_seqscan = on; SET enable_sort = on;
		 SELECT id, fp <-> $q FROM hc WHERE fp IS NOT NULL ORDER BY 2, 1");
	$bg->query_safe('COMMIT');
	$bg->quit;
	my @got = grep { /\|\d+$/ } split /\n/, "$first\n$rest";
	my @d = map { (split /\|/)[1] } @got;
	my $ordered = 1;
	for my $i (1 .. $#d) { $ordered = 0 if $d[$i] < $d[$i - 1]; }
	ok($ordered, "$label: the cursor's rows come in distance order");
	my @sorted = sort { (split /\|/, $a)[1] <=> (split /\|/, $b)[1] || (split /\|/, $a)[0] <=> (split /\|/, $b)[0] } @got;
	is(join(',', @sorted), join(',', split /\n/, $expect),
		"$label: with the first rows, the rest of the cursor is exactly the sequential scan's rows")
	  or diag("before: $before\nafter: $after");
	isnt($before, $after, "$label: the index was merged meanwhile ($after)");
}

cursor_across_merges($node, 'primary');
cursor_across_merges($standby, 'standby');
is($node->safe_psql('postgres', 'SELECT cmp(150)'), '0', 'primary: index and sequential scan agree after the merges');

# 2. writers, VACUUM in a loop, checkers on both nodes
my $dir = PostgreSQL::Test::Utils::tempdir;
open(my $fh, '>', "$dir/write.sql") or die;
print $fh q{\set id random(1, 60000)
\set b random(0, 63)
INSERT INTO hc (fp) SELECT (fp::bigint # (1::bigint << :b) # (1::bigint << (id % 64)))::simhash64
  FROM hc WHERE id BETWEEN :id AND :id + 40;
UPDATE hc SET fp = (fp::bigint # (3::bigint << (:b % 62)))::simhash64 WHERE id = :id + 1;
DELETE FROM hc WHERE id = :id + 2;
};
close $fh;
ham_write_check("$dir/check.sql", 60000, 30);

my @pgb = ('pgbench', '-n', '-T', '25');
my ($out, $err, $sout, $serr) = ('', '', '', '');
my $h = IPC::Run::start([ @pgb, '-c', '5', '-j', '2',
	'-f', "$dir/write.sql\@2", '-f', "$dir/check.sql\@1",
	'-h', $node->host, '-p', $node->port, 'postgres' ], '>', \$out, '2>', \$err);
my $hs = IPC::Run::start([ @pgb, '-c', '2', '-j', '1', '-f', "$dir/check.sql",
	'-h', $standby->host, '-p', $standby->port, 'postgres' ], '>', \$sout, '2>', \$serr);
my $merges0 = $node->safe_psql('postgres', q{SELECT merges FROM hamming_index_stats('hc_ham')});
for my $i (1 .. 10)
{
	sleep 2;
	$node->safe_psql('postgres', 'VACUUM hc');
}
IPC::Run::finish($h);
is($? >> 8, 0, 'primary: pgbench writers and checkers finished without error')
  or diag("stdout:\n$out\nstderr:\n$err");
IPC::Run::finish($hs);
is($? >> 8, 0, 'standby: pgbench checkers finished without error')
  or diag("stdout:\n$sout\nstderr:\n$serr");
for my $o ([ 'primary', $out ], [ 'standby', $sout ])
{
	my ($checks) = $o->[1] =~ /check\.sql\n - weight: \d+[^\n]*\n - (\d+) transactions/;
	($checks) = $o->[1] =~ /number of transactions actually processed: (\d+)/ unless defined $checks;
	cmp_ok($checks // 0, '>', 10, "$o->[0]: checker transactions ran");
	my ($fails) = $o->[1] =~ /number of failed transactions: (\d+)/;
	is($fails // 0, 0, "$o->[0]: no failed transactions");
}
cmp_ok($node->safe_psql('postgres', q{SELECT merges FROM hamming_index_stats('hc_ham')}),
	'>', $merges0 + 5, 'merges ran meanwhile: ' . $node->safe_psql('postgres', $stats));
is($node->safe_psql('postgres', 'SELECT cmp(200)'), '0', 'primary: the index agrees with a sequential scan');
$node->wait_for_catchup($standby);
is($standby->safe_psql('postgres', 'SELECT cmp(200)'), '0', 'standby: the index agrees with a sequential scan');
my $digest = q{SET enable_seqscan = off; SET enable_sort = off;
SELECT md5(string_agg(s.ids, ';' ORDER BY h.id)) FROM hc h,
  LATERAL (SELECT string_agg(id::text, ',' ORDER BY fp <-> h.fp, id) AS ids
             FROM (SELECT id, fp FROM hc ORDER BY fp <-> h.fp LIMIT 20) x) s
  WHERE h.id IN (SELECT 1 + g * 13 FROM generate_series(1, 50) g)};
is($standby->safe_psql('postgres', $digest), $node->safe_psql('postgres', $digest),
	'the standby returns the same top-20 rows as the primary');

# the size stays bounded: after the merges, at most 2.5 times a fresh build's
my $size = $node->safe_psql('postgres', q{SELECT pg_relation_size('hc_ham')});
$node->safe_psql('postgres', 'CREATE INDEX hc_fresh ON hc USING hamming (fp)');
my $fresh = $node->safe_psql('postgres', q{SELECT pg_relation_size('hc_fresh')});
$node->safe_psql('postgres', 'DROP INDEX hc_fresh');
cmp_ok($size, '<=', 2.5 * $fresh, "index size $size after the merges, a fresh build $fresh");

# 3. crashes while writers insert and merges run
open($fh, '>', "$dir/insert.sql") or die;
print $fh q{\set id random(1, 60000)
INSERT INTO hc (fp) SELECT (fp::bigint # (9::bigint << (id % 59)))::simhash64
  FROM hc WHERE id BETWEEN :id AND :id + 300;
};
close $fh;
for my $round (1 .. 3)
{
	my ($o, $e) = ('', '');
	my $w = IPC::Run::start([ 'pgbench', '-n', '-T', '30', '-c', '3', '-j', '1',
		'-f', "$dir/insert.sql", '-h', $node->host, '-p', $node->port, 'postgres' ],
		'>', \$o, '2>', \$e);
	sleep 2 + $round;
	$node->stop('immediate');
	$w->finish;
	$node->start;
	is($node->safe_psql('postgres', 'SELECT cmp(100)'), '0',
		"crash $round: after recovery the index agrees with a sequential scan ("
		  . $node->safe_psql('postgres', $stats) . ")");
	$node->safe_psql('postgres', 'VACUUM hc');
	is($node->safe_psql('postgres', 'SELECT cmp(100)'), '0',
		"crash $round: and after VACUUM merged and swept the index");
}
$node->wait_for_catchup($standby);
is($standby->safe_psql('postgres', 'SELECT cmp(100)'), '0', 'the standby agrees after the crashes');
is($standby->safe_psql('postgres', $digest), $node->safe_psql('postgres', $digest),
	'the standby returns the same top-20 rows as the primary after the crashes');

$standby->stop;
$node->stop;
done_testing();
