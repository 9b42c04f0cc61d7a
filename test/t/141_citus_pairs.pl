# simhash_pairs and simhash_clusters of a Citus-distributed table, run on
# the workers (src/pg/citus_pairs.c, docs/citus.md): a coordinator and two
# workers, random fingerprints with planted near pairs (0 to 8 bits apart,
# many on different workers), duplicate ids and NULL fingerprints; the
# distributed answer must equal the single node's for every radius tried,
# the intermediate tables must be gone after success, a worker's error and
# a cancel; bad arguments fail with their SQLSTATE.
use strict;
use warnings;
use FindBin;
use lib $FindBin::RealBin;
use CitusTap;
use Test::More;
use Time::HiRes qw(time);

my ($coord, @workers) = citus_cluster();
sub q1 { $coord->safe_psql('postgres', $_[0]) }
sub rows { citus_rows($coord, @_) }
# stderr (the NOTICE messages) of a statement run with textfp.progress on
sub notices
{
	my ($sql) = @_;
	my ($ret, $o, $e) = $coord->psql('postgres', "SET textfp.progress = on;\n$sql");
	return ($ret, $e);
}
# the intermediate tables left on every node (names, shards included)
sub leftovers
{
	my $sql = q{SELECT coalesce(string_agg(relname, ' '), '') FROM pg_class WHERE relname LIKE 'textfp\_pairs\_%'};
	return join('', map { $_->safe_psql('postgres', $sql) } $coord, @workers)
	  . q1(q{SELECT coalesce(string_agg(logicalrelid::text, ' '), '') FROM pg_dist_partition
	         WHERE logicalrelid::text LIKE 'textfp\_pairs\_%'});
}

# ---------------------------------------------------------------- data
# 30,000 random fingerprints; 600 planted near copies, i % 9 bits from
# their original (ids far apart: on any shard); a star of 31 rows, 30 of
# them 2 bits from the centre (one cluster at radius 2); rows with a NULL fingerprint; five
# ids used twice (the second row 1 bit from the first: never paired with
# itself, as on a single node).
q1(q{
CREATE TABLE pt (id bigint, fp simhash64);
INSERT INTO pt SELECT i, ((hashint8(i)::bigint << 32) # (hashint8(-i)::bigint & 4294967295))::simhash64
FROM generate_series(1, 30000) i;
INSERT INTO pt SELECT 100000 + i,
  (p.fp::bigint # coalesce((SELECT bit_or(1::bigint << ((i * 7 + j * 13) % 64)::int)
                            FROM generate_series(0, i % 9 - 1) j), 0))::simhash64
FROM generate_series(1, 600) i JOIN pt p ON p.id = 1 + (i * 37) % 30000;
INSERT INTO pt SELECT 200000, '123456789'::bigint::simhash64;
INSERT INTO pt SELECT 200000 + i, (123456789 # (3::bigint << (2 * i)))::simhash64
FROM generate_series(1, 30) i;
INSERT INTO pt SELECT 300000 + i, NULL FROM generate_series(1, 10) i;
INSERT INTO pt SELECT id, (fp::bigint # 1024)::simhash64 FROM pt WHERE id <= 5;
CREATE TABLE dt (LIKE pt);
SELECT create_distributed_table('dt', 'id', shard_count => 8);
INSERT INTO dt SELECT * FROM pt;
-- another id and fingerprint type: integer ids, bigint fingerprints
CREATE TABLE pt4 AS SELECT id::int4 AS id, fp::bigint AS fp FROM pt;
CREATE TABLE dt4 (LIKE pt4);
SELECT create_distributed_table('dt4', 'id', shard_count => 5);
INSERT INTO dt4 SELECT * FROM pt4;
ANALYZE pt, dt, pt4, dt4;
});
is(q1('SELECT count(*) FROM dt'), q1('SELECT count(*) FROM pt'), 'the distributed table holds the rows');
# planted pairs whose two rows are on different workers
my $across = q1(q{
WITH pl AS (SELECT 100000 + i AS a, 1 + (i * 37) % 30000 AS b FROM generate_series(1, 600) i),
     node AS (SELECT s.shardid, p.groupid FROM pg_dist_shard s JOIN pg_dist_placement p USING (shardid)
              WHERE s.logicalrelid = 'dt'::regclass)
SELECT count(*) FROM pl
JOIN node na ON na.shardid = get_shard_id_for_distribution_column('dt', pl.a)
JOIN node nb ON nb.shardid = get_shard_id_for_distribution_column('dt', pl.b)
WHERE na.groupid <> nb.groupid});
cmp_ok($across, '>', 200, "$across of the 600 planted pairs have their rows on different workers");

# ---------------------------------------------------------------- equal answers
my ($ret, $err) = notices(q{SELECT count(*) FROM simhash_pairs('dt', 'id', 'fp', 3)});
like($err, qr/shuffled \d+ rows/, 'the distributed table is searched on the workers (a shuffle)');
unlike(join('', (notices(q{SELECT count(*) FROM simhash_pairs('pt', 'id', 'fp', 3)}))[1]),
	qr/shuffled/, 'the plain table is not');
for my $k (0, 1, 2, 3, 4, 6, 8)
{
	my $single = rows(qq{SELECT * FROM simhash_pairs('pt', 'id', 'fp', $k)});
	my $planted = q1(qq{SELECT count(*) FROM generate_series(1, 600) i WHERE i % 9 <= $k});
	my ($n) = split /:/, $single;
	cmp_ok($n, '>=', $planted, "radius $k: the single node finds $n pairs, >= the $planted planted ones");
	is(rows(qq{SELECT * FROM simhash_pairs('dt', 'id', 'fp', $k)}), $single,
		"radius $k: simhash_pairs on the workers = the single node");
}
is(rows(q{SELECT * FROM simhash_pairs('dt4', 'id', 'fp', 5)}),
	rows(q{SELECT * FROM simhash_pairs('pt4', 'id', 'fp', 5)}),
	'integer ids and bigint fingerprints: equal');
# a distributed partitioned table: each leaf shard is packed on its own
q1(q{
CREATE TABLE dpt (id bigint, fp simhash64) PARTITION BY RANGE (id);
CREATE TABLE dpt_a PARTITION OF dpt FOR VALUES FROM (MINVALUE) TO (100000);
CREATE TABLE dpt_b PARTITION OF dpt FOR VALUES FROM (100000) TO (MAXVALUE);
SELECT create_distributed_table('dpt', 'id', shard_count => 4);
INSERT INTO dpt SELECT * FROM pt;
});
($ret, $err) = notices(q{SELECT count(*) FROM simhash_pairs('dpt', 'id', 'fp', 3)});
like($err, qr/shuffled \d+ rows \(\S+ a row\) in (\d+) bundles/, 'a distributed partitioned table is searched on the workers');
is(rows(q{SELECT * FROM simhash_pairs('dpt', 'id', 'fp', 3)}), rows(q{SELECT * FROM simhash_pairs('pt', 'id', 'fp', 3)}),
	'a distributed partitioned table (two partitions of four shards): equal');
is(rows(q{SELECT * FROM simhash_pairs('dt', 'id', 'fp', 3)}, 'SET textfp.citus_pairs_shards = 7;'),
	rows(q{SELECT * FROM simhash_pairs('pt', 'id', 'fp', 3)}),
	'7 partitions (textfp.citus_pairs_shards): equal');
for my $k (2, 4)
{
	my $single = rows(qq{SELECT * FROM simhash_clusters('pt', 'id', 'fp', $k)});
	is(rows(qq{SELECT * FROM simhash_clusters('dt', 'id', 'fp', $k)}), $single,
		"radius $k: simhash_clusters on the workers = the single node");
}
is(q1(q{SELECT max(cluster_size) FROM simhash_clusters('dt', 'id', 'fp', 2)}), '31',
	'the star of 31 rows is one cluster');

# the coordinator path: by the setting, and in a read-only transaction
my $single3 = rows(q{SELECT * FROM simhash_pairs('pt', 'id', 'fp', 3)});
($ret, $err) = notices(q{SET textfp.citus_pairs = coordinator; SELECT count(*) FROM simhash_pairs('dt', 'id', 'fp', 3)});
unlike($err, qr/shuffled/, 'textfp.citus_pairs = coordinator: no shuffle');
like($err, qr/reading the rows of the shards in bundles/, 'textfp.citus_pairs = coordinator: the shards send bundles');
is(rows(q{SELECT * FROM simhash_pairs('dt', 'id', 'fp', 3)}, 'SET textfp.citus_pairs = coordinator;'),
	$single3, 'textfp.citus_pairs = coordinator: equal');
($ret, $err) = notices(q{BEGIN READ ONLY; SELECT count(*) FROM simhash_pairs('dt', 'id', 'fp', 3); COMMIT;});
is($ret, 0, 'a read-only transaction works');
unlike($err, qr/shuffled/, 'a read-only transaction reads the rows on the coordinator');
like($err, qr/in bundles/, 'a read-only transaction: the shards send bundles');
{
	my ($r, $o, $e) = $workers[0]->psql('postgres',
		q{SET textfp.progress = on; SELECT count(*) FROM simhash_pairs('dt', 'id', 'fp', 3)});
	is($o, (split /:/, $single3)[0], 'on a worker (which sees the metadata too): the same count');
	unlike($e, qr/shuffled/, 'on a worker the rows are read through Citus (only the coordinator shuffles)');
}
is(q1(q{BEGIN;
SELECT count(*) FROM simhash_pairs('dt', 'id', 'fp', 3);
SELECT count(*) FROM simhash_pairs('dt', 'id', 'fp', 3);
COMMIT;}), join("\n", ((split /:/, $single3)[0]) x 2), 'twice in one transaction');
is(q1(q{BEGIN;
INSERT INTO dt SELECT 999999, fp FROM dt WHERE id = 7;
SELECT count(*) FROM simhash_pairs('dt', 'id', 'fp', 0) WHERE 999999 IN (id_a, id_b);
ROLLBACK;}), '1', 'a row inserted earlier in the transaction is searched (the shuffle runs in it)');
is(leftovers(), '', 'no intermediate table is left after the searches');

# ---------------------------------------------------------------- errors
like(citus_fails($coord, q{SELECT * FROM simhash_pairs('dt', 'id', 'fp', -1)}), qr/^22023: radius must be/,
	'radius -1: 22023');
like(citus_fails($coord, q{SELECT * FROM simhash_pairs('dt', 'id', 'fp', 33)}), qr/^22023: radius must be/,
	'radius 33: 22023');
like(citus_fails($coord, q{SELECT * FROM simhash_pairs('dt', 'id', 'nope', 3)}), qr/^42703: /,
	'a missing column: 42703');
q1(q{CREATE TABLE dtt (id bigint, fp text); SELECT create_distributed_table('dtt', 'id');});
like(citus_fails($coord, q{SELECT * FROM simhash_pairs('dtt', 'id', 'fp', 3)}), qr/^42804: /,
	'a text fingerprint column: 42804');
like(citus_fails($coord, q{SELECT * FROM textfp_citus_pairs_pack('pt'::regclass, 'id', 'fp', 3, 3, '{1}')}),
	qr/^22023: no distributed plan/, 'packing with as many blocks as the radius: 22023');
like(citus_fails($coord, q{SELECT * FROM textfp_citus_pairs_pack('pt'::regclass, 'id', 'fp', 3, 5, '{}')}),
	qr/^22023: the destinations/, 'packing for no partition: 22023');
like(citus_fails($coord, q{SELECT * FROM textfp_citus_pairs_pack(1, 'id', 'fp', 3, 5, '{1}')}),
	qr/^42P01: /, 'packing a relation that does not exist: 42P01');
q1(q{CREATE VIEW ptv AS SELECT * FROM pt});
like(citus_fails($coord, q{SELECT * FROM textfp_citus_pairs_pack('ptv'::regclass, 'id', 'fp', 3, 5, '{1}')}),
	qr/^42809: /, 'packing a view: 42809');
like(citus_fails($coord, q{SELECT * FROM textfp_citus_pairs_pack('pt'::regclass, 'id', 'nope', 3, 5, '{1}')}),
	qr/^42703: /, 'packing a missing column: 42703');
q1(q{CREATE TABLE ptt (id bigint, fp text)});
like(citus_fails($coord, q{SELECT * FROM textfp_citus_pairs_pack('ptt'::regclass, 'id', 'fp', 3, 5, '{1}')}),
	qr/^42804: /, 'packing a text fingerprint: 42804');
like(citus_fails($coord, q{SELECT textfp_citus_pairs_agg(1, '\x00'::bytea, 40, 50, '{1}')}), qr/^22023: /,
	'a partition at radius 40: 22023');
like(citus_fails($coord, q{SELECT textfp_citus_pairs_agg(1, '\x00'::bytea, 3, 5, '{1}')}), qr/^22023: a bundle of 1 bytes/,
	'a bundle that is not a whole number of rows: 22023');
like(citus_fails($coord, q{SELECT textfp_citus_pairs_agg(2, '\x'::bytea, 3, 5, '{1}')}), qr/^22023: partition 2/,
	'a partition that is not a destination: 22023');

# pack on its own: each row once into a single partition, in bundles of at
# most 65,536 rows; the rows come back unchanged (the ids are decoded in a
# MATERIALIZED CTE: from PostgreSQL 16 on the planner would otherwise sort
# them for count(DISTINCT) with their 1 MB bundle beside each)
is(q1(q{SELECT count(*) || ' ' || sum(octet_length(rows)) / 16 || ' ' || max(octet_length(rows)) / 16
        FROM textfp_citus_pairs_pack('pt'::regclass, 'id', 'fp', 3, 5, '{7}')}),
	'1 ' . q1(q{SELECT count(*) FROM pt WHERE fp IS NOT NULL}) . ' ' . q1(q{SELECT count(*) FROM pt WHERE fp IS NOT NULL}),
	'packing a table for one partition: every row once, one bundle');
q1(q{CREATE TABLE pbig AS SELECT i::bigint AS id, (i * 2654435761)::simhash64 AS fp FROM generate_series(1, 150000) i});
is(q1(q{WITH b AS (SELECT rows FROM textfp_citus_pairs_pack('pbig'::regclass, 'id', 'fp', 3, 5, '{7}')),
             r AS MATERIALIZED (SELECT get_byte(rows, 16 * k) + 256 * get_byte(rows, 16 * k + 1) + 65536 * get_byte(rows, 16 * k + 2)
                          + 16777216::bigint * get_byte(rows, 16 * k + 3) AS id
                   FROM b, generate_series(0, octet_length(rows) / 16 - 1) k)
        SELECT (SELECT count(*) FROM b) || ' ' || (SELECT max(octet_length(rows)) / 16 FROM b) || ' ' ||
               count(*) || ' ' || count(DISTINCT id) || ' ' || min(id) || ' ' || max(id) FROM r}),
	'3 65536 150000 150000 1 150000', '150,000 rows for one partition: three bundles, each id once (little-endian)');
# three partitions: a row goes to each partition of its four groups once
is(q1(q{WITH b AS (SELECT dest, rows FROM textfp_citus_pairs_pack('pbig'::regclass, 'id', 'fp', 3, 5, '{1,2,3}')),
             r AS MATERIALIZED (SELECT dest, get_byte(rows, 16 * k) + 256 * get_byte(rows, 16 * k + 1) + 65536 * get_byte(rows, 16 * k + 2) AS id
                   FROM b, generate_series(0, octet_length(rows) / 16 - 1) k),
             c AS (SELECT id, count(*) AS n, count(DISTINCT dest) AS nd FROM r GROUP BY id)
        SELECT count(*) || ' ' || min(n) || ' ' || max(n) || ' ' || bool_and(n = nd) FROM c}),
	'150000 1 3 true', 'three partitions: every row in 1 to 3 of them, never twice in one');
is(q1(q{SELECT string_agg(textfp_citus_pairs_first(x)::text, ' ') FROM (VALUES (1::oid), (1), (2), (1), (3), (2)) v(x)}),
	'true false true false true false', 'first: true once for each relation');

# row-level security: the coordinator reads the rows through Citus, so the
# policy applies; pack refuses to read a table with a policy directly
q1(q{
CREATE ROLE rls_user LOGIN;
GRANT SELECT ON dt, pt TO rls_user;
GRANT CREATE ON SCHEMA public TO rls_user;
ALTER TABLE dt ENABLE ROW LEVEL SECURITY;
CREATE POLICY even ON dt TO rls_user USING (id % 2 = 0);
ALTER TABLE pt ENABLE ROW LEVEL SECURITY;
CREATE POLICY even ON pt TO rls_user USING (id % 2 = 0);
});
($ret, $err) = notices(q{SET ROLE rls_user; SELECT count(*) FROM simhash_pairs('dt', 'id', 'fp', 3)});
unlike($err, qr/shuffled|in bundles/, 'row-level security: the rows are read on the coordinator, through Citus');
is(rows(q{SELECT * FROM simhash_pairs('dt', 'id', 'fp', 3)}, 'SET ROLE rls_user;'),
	rows(q{SELECT * FROM simhash_pairs('pt', 'id', 'fp', 3)}, 'SET ROLE rls_user;'),
	'row-level security: the policy applies, as on a single node');
isnt(rows(q{SELECT * FROM simhash_pairs('dt', 'id', 'fp', 3)}, 'SET ROLE rls_user;'), $single3,
	'row-level security: fewer pairs than without the policy');
like(citus_fails($coord, q{SET ROLE rls_user; SELECT * FROM textfp_citus_pairs_pack('pt'::regclass, 'id', 'fp', 3, 5, '{1}')}),
	qr/^0A000: row-level security/, 'pack refuses a table with row-level security: 0A000');
like(citus_fails($coord, q{SET ROLE rls_user; SELECT * FROM textfp_citus_pairs_pack('pbig'::regclass, 'id', 'fp', 3, 5, '{1}')}),
	qr/^42501: /, 'pack without the SELECT privilege: 42501');
q1(q{
ALTER TABLE dt DISABLE ROW LEVEL SECURITY; DROP POLICY even ON dt;
ALTER TABLE pt DISABLE ROW LEVEL SECURITY; DROP POLICY even ON pt;
});

# a worker's error after the intermediate table is filled: too little
# maintenance_work_mem on the workers for their partitions
q1(q{
CREATE TABLE big (id bigint, fp bigint);
SELECT create_distributed_table('big', 'id', shard_count => 8);
INSERT INTO big SELECT i, (hashint8(i)::bigint << 32) # (hashint8(-i)::bigint & 4294967295)
FROM generate_series(1, 200000) i;
ANALYZE big;
});
$_->safe_psql('postgres', q{ALTER SYSTEM SET maintenance_work_mem = '1MB'; SELECT pg_reload_conf();})
  for @workers;
($ret, $err) = notices(q{\set VERBOSITY verbose
SELECT count(*) FROM simhash_pairs('big', 'id', 'fp', 3)});
isnt($ret, 0, 'a partition that does not fit in the workers\' maintenance_work_mem fails');
like($err, qr/shuffled \d+ rows.*ERROR:\s+54000: simhash_pairs: \d+ rows leave no room for sorting in maintenance_work_mem/s,
	'with 54000 from the worker, after the shuffle');
is(leftovers(), '', 'no intermediate table is left after the worker\'s error');
$_->safe_psql('postgres', q{ALTER SYSTEM RESET maintenance_work_mem; SELECT pg_reload_conf();})
  for @workers;

# a cancel (statement_timeout) halfway between the intermediate table's
# creation and the end
($ret, $err) = notices(q{SELECT count(*) FROM simhash_pairs('big', 'id', 'fp', 3)});
my ($made) = $err =~ /shards of \S+ \((\d+) ms\)/;
my ($end) = $err =~ /pairs from the workers \((\d+) ms\)/;
ok(defined $made && defined $end, "a run of the big table: created at ${\($made // '?')} ms, done at ${\($end // '?')} ms");
# (a run can be faster than the one measured, on a machine whose load
# varies: a run that ends before its timeout is tried again with 0.6 times
# the timeout, up to 6 times; each attempt must leave no intermediate table)
my $timeout = int((($made // 0) + ($end // 0)) / 2) + 1;
my ($cancelled, $left) = (0, '');
for my $attempt (1 .. 6)
{
	$timeout = int($timeout * 0.6) + 1 if $attempt > 1;
	($ret, $err) = notices(qq{\\set VERBOSITY verbose
SET statement_timeout = $timeout; SELECT count(*) FROM simhash_pairs('big', 'id', 'fp', 3)});
	$left .= leftovers();
	if ($err =~ /ERROR:\s+57014:/)
	{
		$cancelled = 1;
		last;
	}
	note("attempt $attempt: the run ended before statement_timeout = $timeout ms");
}
ok($cancelled, "statement_timeout = $timeout ms cancels it (57014)");
note(($err =~ /shards of/ ? 'after' : 'before') . ' the intermediate table was created');
is($left, '', 'no intermediate table is left after the cancel');

done_testing();
