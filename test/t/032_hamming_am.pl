# The hamming index access method under concurrency, on a streaming standby
# and after a crash.  pgbench writers insert, update and delete while
# checkers compare, in one REPEATABLE READ snapshot, the index's radius and
# nearest-neighbour answers with a sequential scan's; meanwhile the index is
# built with CREATE INDEX CONCURRENTLY, rebuilt with REINDEX CONCURRENTLY and
# vacuumed.  A standby that received the index only through WAL (the build's
# full pages, the generic WAL of inserts and VACUUM) answers as the primary,
# and so does the primary after an immediate stop.  Then the same for the
# 2-table layout, built by a heap scan that wraps around (shared_buffers is
# small, so heap scans are synchronized and start where an earlier scan was:
# TIDs descend within buckets and take escape entries).
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
# wal_keep_size: a standby slowed by a loaded machine still finds the WAL
# it needs after the primary's crash (see 033)
$node->append_conf('postgresql.conf', "max_connections = 30\njit = off\nshared_buffers = 1MB\nwal_keep_size = 1GB\n");
$node->start;
plan skip_all => 'the hamming access method needs PostgreSQL 15 or later'
	if $node->safe_psql('postgres', 'SHOW server_version_num') < 150000;

$node->safe_psql('postgres', 'CREATE EXTENSION textfp;' . ham_table_sql(30000, 0.5, 3000, 1000, 100) . 'ANALYZE hc;');
$node->safe_psql('postgres', ham_cmp_sql(30000));

$node->backup('base');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($node, 'base', has_streaming => 1);
$standby->start;

my $dir = PostgreSQL::Test::Utils::tempdir;
open(my $fh, '>', "$dir/write.sql") or die;
print $fh q{\set id random(1, 30000)
\set b random(0, 63)
INSERT INTO hc (fp) SELECT (fp::bigint # (1::bigint << :b))::simhash64 FROM hc WHERE id = :id;
UPDATE hc SET fp = (fp::bigint # (3::bigint << (:b % 62)))::simhash64 WHERE id = :id + 1;
DELETE FROM hc WHERE id = :id + 2;
};
close $fh;
ham_write_check("$dir/check.sql", 30000, 10);

my ($out, $err) = ('', '');
my @cmd = ('pgbench', '-n', '-c', '6', '-j', '2', '-T', '25',
	'-f', "$dir/write.sql\@1", '-f', "$dir/check.sql\@1",
	'-h', $node->host, '-p', $node->port, 'postgres');
my $h = IPC::Run::start(\@cmd, '>', \$out, '2>', \$err);

sleep 2;
$node->safe_psql('postgres', 'CREATE INDEX CONCURRENTLY hc_ham ON hc USING hamming (fp)');
pass('CREATE INDEX CONCURRENTLY under concurrent writes');
sleep 4;
$node->safe_psql('postgres', 'VACUUM hc');
sleep 2;
$node->safe_psql('postgres', 'REINDEX INDEX CONCURRENTLY hc_ham');
pass('REINDEX CONCURRENTLY under concurrent writes');
sleep 4;
$node->safe_psql('postgres', 'VACUUM ANALYZE hc');

IPC::Run::finish($h);
my $rc = $? >> 8;
is($rc, 0, 'pgbench writers and checkers finished without error')
  or diag("stdout:\n$out\nstderr:\n$err");
my ($checks) = $out =~ /check\.sql\n - weight: \d+[^\n]*\n - (\d+) transactions/;
cmp_ok($checks // 0, '>', 10, 'checker transactions ran');
my ($fails) = $out =~ /number of failed transactions: (\d+)/;
is($fails // 0, 0, 'no failed transactions');
is($node->safe_psql('postgres',
	"SELECT indisvalid FROM pg_index WHERE indexrelid = 'hc_ham'::regclass"), 't', 'index valid');
like($node->safe_psql('postgres',
	"EXPLAIN (COSTS OFF) SELECT id FROM hc ORDER BY fp <-> '123456789abcdef0' LIMIT 10"),
	qr/Index Scan using hc_ham/, 'a top-10 uses the index');

# more rows into the pending list and dead marks, all through WAL
$node->safe_psql('postgres', q{
INSERT INTO hc (fp) SELECT (fp::bigint # (5::bigint << (id % 60)))::simhash64 FROM hc WHERE id <= 2000;
DELETE FROM hc WHERE id % 11 = 0;
VACUUM hc;
});
is($node->safe_psql('postgres', 'SELECT cmp(200)'), '0',
	'primary: index and sequential scan agree on 200 radius and 200 top-10 queries');
$node->wait_for_catchup($standby);
is($standby->safe_psql('postgres', 'SELECT cmp(200)'), '0',
	'standby: the index received through WAL agrees with a sequential scan');
my $digest = q{SET enable_seqscan = off; SET enable_sort = off;
SELECT md5(string_agg(s.ids, ';' ORDER BY h.id)) FROM hc h,
  LATERAL (SELECT string_agg(id::text, ',' ORDER BY fp <-> h.fp, id) AS ids
             FROM (SELECT id, fp FROM hc ORDER BY fp <-> h.fp LIMIT 20) x) s
  WHERE h.id IN (SELECT 1 + g * 13 FROM generate_series(1, 50) g)};
is($standby->safe_psql('postgres', $digest), $node->safe_psql('postgres', $digest),
	'standby returns the same top-20 rows as the primary');

# crash with committed inserts in the pending list, and recover
$node->safe_psql('postgres', q{
INSERT INTO hc (fp) SELECT (fp::bigint # 1)::simhash64 FROM hc WHERE id BETWEEN 5000 AND 8000});
$node->stop('immediate');
$node->start;
is($node->safe_psql('postgres', 'SELECT cmp(200)'), '0',
	'after crash recovery the index agrees with a sequential scan');
is($node->safe_psql('postgres', q{SET enable_seqscan = off; SET enable_bitmapscan = off;
	SELECT count(*) FROM hc WHERE simhash_dist(fp, (SELECT fp FROM hc WHERE id = 5001)) <= 1}),
	$node->safe_psql('postgres', q{SET enable_indexscan = off; SET enable_bitmapscan = off;
	SELECT count(*) FROM hc WHERE simhash_dist(fp, (SELECT fp FROM hc WHERE id = 5001)) <= 1}),
	'rows inserted just before the crash are found');

# the 2-table layout: a build from the heap's first block, then one whose
# synchronized scan starts mid-table (after a partial scan) and wraps around
my $size = q{SELECT pg_relation_size('hc_ham')};
$node->safe_psql('postgres', q{ALTER INDEX hc_ham SET (tables = 2);
SET synchronize_seqscans = off; REINDEX INDEX hc_ham});
my $plain = $node->safe_psql('postgres', $size);
$node->safe_psql('postgres', q{SET max_parallel_workers_per_gather = 0;
SELECT count(*) FROM (SELECT * FROM hc LIMIT 12000) s;
REINDEX INDEX hc_ham});
is($node->safe_psql('postgres', q{SELECT tables FROM hamming_index_stats('hc_ham')}), '2',
	'rebuilt with 2 tables');
cmp_ok($node->safe_psql('postgres', $size), '>', $plain,
	'the build whose heap scan wrapped around wrote escape entries');
is($node->safe_psql('postgres', 'SELECT cmp(200)'), '0',
	'2 tables, wrapped build: index and sequential scan agree');
$node->safe_psql('postgres', q{
INSERT INTO hc (fp) SELECT (fp::bigint # (9::bigint << (id % 59)))::simhash64 FROM hc WHERE id <= 1500;
DELETE FROM hc WHERE id % 13 = 0;
VACUUM hc;
});
is($node->safe_psql('postgres', 'SELECT cmp(200)'), '0',
	'2 tables: after inserts, deletes and VACUUM the index agrees');
$node->wait_for_catchup($standby);
is($standby->safe_psql('postgres', 'SELECT cmp(200)'), '0',
	'2 tables: the standby agrees');
is($standby->safe_psql('postgres', $digest), $node->safe_psql('postgres', $digest),
	'2 tables: the standby returns the same top-20 rows as the primary');

$standby->stop;
$node->stop;
done_testing();
