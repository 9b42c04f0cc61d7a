# Hamming-radius GIN index under concurrency: pgbench inserts and updates
# fingerprints while other clients compare, inside one REPEATABLE READ
# snapshot, the index answer with a sequential scan's; meanwhile the index
# is built with CREATE INDEX CONCURRENTLY, rebuilt with REINDEX CONCURRENTLY
# and vacuumed.  No shared_preload_libraries anywhere.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use FindBin;
use lib $FindBin::Bin;
use HammingTap;

my $node = PostgreSQL::Test::Cluster->new('hamming');
$node->init;
$node->append_conf('postgresql.conf', "max_connections = 30\n");
$node->start;

# planted near-duplicates and many identical values (test/t/HammingTap.pm)
$node->safe_psql('postgres', 'CREATE EXTENSION textfp;' . ham_table_sql(20000, 0.5, 2000, 2000, 100) . 'ANALYZE hc;');

my $dir = PostgreSQL::Test::Utils::tempdir;
# writers: insert near-duplicates of existing rows, update fingerprints
open(my $fh, '>', "$dir/write.sql") or die;
print $fh q{\set id random(1, 20000)
\set b random(0, 63)
INSERT INTO hc (fp) SELECT (fp::bigint # (1::bigint << :b))::simhash64 FROM hc WHERE id = :id;
UPDATE hc SET fp = (fp::bigint # (3::bigint << (:b % 62)))::simhash64 WHERE id = :id + 1;
};
close $fh;
# checkers: index answer == sequential scan answer in one snapshot; a
# mismatch divides by zero, which fails the transaction (and pgbench)
open($fh, '>', "$dir/check.sql") or die;
print $fh q{\set id random(1, 20000)
\set k random(0, 8)
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT fp::bigint AS q FROM hc WHERE id = :id \gset
SET LOCAL enable_seqscan = off;
SELECT coalesce(array_agg(id ORDER BY id), '{}')::text AS a FROM hc WHERE simhash_dist(fp, (:q)::bigint::simhash64) <= :k \gset
SET LOCAL enable_seqscan = on;
SET LOCAL enable_bitmapscan = off;
SET LOCAL enable_indexscan = off;
SELECT 1 / (coalesce(array_agg(id ORDER BY id), '{}')::text = ':a')::int AS same
  FROM hc WHERE simhash_dist(fp, (:q)::bigint::simhash64) <= :k;
COMMIT;
};
close $fh;

my ($out, $err) = ('', '');
my @cmd = ('pgbench', '-n', '-c', '6', '-j', '2', '-T', '25',
	'-f', "$dir/write.sql\@1", '-f', "$dir/check.sql\@1",
	'-h', $node->host, '-p', $node->port, 'postgres');
my $h = IPC::Run::start(\@cmd, '>', \$out, '2>', \$err);

sleep 2;
$node->safe_psql('postgres', 'CREATE INDEX CONCURRENTLY hc_gin ON hc USING gin (fp)');
pass('CREATE INDEX CONCURRENTLY under concurrent writes');
sleep 3;
$node->safe_psql('postgres', 'VACUUM hc');
$node->safe_psql('postgres', 'REINDEX INDEX CONCURRENTLY hc_gin');
pass('REINDEX CONCURRENTLY under concurrent writes');
sleep 3;
$node->safe_psql('postgres', 'VACUUM ANALYZE hc');
$node->safe_psql('postgres', 'CREATE INDEX CONCURRENTLY hc_gin6 ON hc USING gin (fp simhash64_gin_ops (blocks = 6))');
$node->safe_psql('postgres', 'DROP INDEX CONCURRENTLY hc_gin');

IPC::Run::finish($h);
my $rc = $? >> 8;
is($rc, 0, 'pgbench writers and checkers finished without error')
  or diag("stdout:\n$out\nstderr:\n$err");
like($out, qr/number of transactions actually processed: [1-9]/, 'pgbench processed transactions');
my ($checks) = $out =~ /check\.sql\n - weight: \d+[^\n]*\n - (\d+) transactions/;
cmp_ok($checks // 0, '>', 10, 'checker transactions ran');
my ($fails) = $out =~ /number of failed transactions: (\d+)/;
is($fails // 0, 0, 'no failed transactions');

# the index is valid and really used (after VACUUM has merged GIN's pending
# list, which the concurrent inserts filled and which the planner counts)
$node->safe_psql('postgres', 'VACUUM ANALYZE hc');
is($node->safe_psql('postgres',
	"SELECT bool_and(indisvalid) FROM pg_index WHERE indrelid = 'hc'::regclass AND indexrelid <> 'hc_pkey'::regclass"),
	't', 'index valid');
like($node->safe_psql('postgres',
	"EXPLAIN (COSTS OFF) SELECT id FROM hc WHERE simhash_dist(fp, '123456789abcdef0') <= 3"),
	qr/Bitmap Index Scan on hc_gin6/, 'literal form uses the index in a fresh session');

# after the storm: 300 random queries, index == sequential scan
my $bad = $node->safe_psql('postgres', q{
CREATE FUNCTION cmp() RETURNS int LANGUAGE plpgsql AS $$
DECLARE r record; a int[]; b int[]; bad int := 0;
BEGIN
  FOR r IN SELECT h.fp AS q, g % 9 AS k FROM generate_series(1, 300) g JOIN hc h ON h.id = 1 + (g * 97) % 20000 LOOP
    SET LOCAL enable_seqscan = off;
    EXECUTE 'SELECT array_agg(id ORDER BY id) FROM hc WHERE simhash_dist(fp, $1) <= $2' INTO a USING r.q, r.k;
    SET LOCAL enable_seqscan = on; SET LOCAL enable_bitmapscan = off;
    EXECUTE 'SELECT array_agg(id ORDER BY id) FROM hc WHERE simhash_dist(fp, $1) <= $2' INTO b USING r.q, r.k;
    SET LOCAL enable_bitmapscan = on;
    IF a IS DISTINCT FROM b THEN bad := bad + 1; END IF;
  END LOOP;
  RETURN bad;
END $$;
SELECT cmp();
});
is($bad, '0', 'index and sequential scan agree on 300 queries after concurrent writes');

# NULLs are never returned, even for the widest ball
is($node->safe_psql('postgres', q{
SET enable_seqscan = off;
SELECT count(*) FILTER (WHERE fp IS NULL) FROM hc WHERE fp <@ simhash_ball('0000000000000000', 64)}),
	'0', 'no NULL rows from the index');

$node->stop;
done_testing();
