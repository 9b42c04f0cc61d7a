# The passage index access method under concurrency, on a streaming standby
# and after a crash.  pgbench writers insert spliced texts (into the pending
# list, which merges into runs), update and delete rows, while checkers
# compare, in one REPEATABLE READ snapshot, the index's answer to
# "body %& passage_query(q, m)" with a sequential scan's; meanwhile the
# index is built with CREATE INDEX CONCURRENTLY (its build sorts in more
# memory than maintenance_work_mem allows, so the sort spills to disk),
# rebuilt with REINDEX CONCURRENTLY and vacuumed.  A standby that received
# the index only through WAL (the build's full pages, the generic WAL of
# pending inserts, merges and VACUUM) answers as the primary, and so does
# the primary after an immediate stop with committed rows in the pending
# list.  A source query (textfp_sources) on the standby finds what the
# primary finds, and a long one is cancelled within a second.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use Time::HiRes qw(time);

my $src = $ENV{TEXTFP_SRCDIR} or die "TEXTFP_SRCDIR is not set (run via test/run-tests.sh)";

my $node = PostgreSQL::Test::Cluster->new('primary');
$node->init(allows_streaming => 1);
$node->append_conf('postgresql.conf', "max_connections = 30\njit = off\nshared_buffers = 16MB\n"
	. "maintenance_work_mem = 1MB\nwal_keep_size = 1GB\n");
$node->start;
plan skip_all => 'the passage access method needs PostgreSQL 15 or later'
	if $node->safe_psql('postgres', 'SHOW server_version_num') < 150000;

# the corpus: the 453 documents of test/data/corpus.tsv and three edited
# copies of each (2,265 rows); queries: pieces of two rows spliced together
$node->safe_psql('postgres', qq{
CREATE EXTENSION textfp;
CREATE TABLE pd (id serial PRIMARY KEY, body text);
CREATE TEMP TABLE c0 (id int, lang text, package text, title text, body text);
\\copy c0 FROM '$src/test/data/corpus.tsv'
INSERT INTO pd (body) SELECT body FROM c0 ORDER BY id;
INSERT INTO pd (body)
SELECT CASE g WHEN 1 THEN '转载：' || regexp_replace(body, '[的s]', '', 'g')
              WHEN 2 THEN substr(body, 1 + length(body) / 3) || ' 来源：网络'
              ELSE regexp_replace(body, '[了e]', 'X', 'g') END
FROM c0, generate_series(1, 4) g ORDER BY g, id;
ANALYZE pd;
-- the query made of rows i and j
CREATE FUNCTION q(i int, j int) RETURNS text LANGUAGE sql STABLE AS \$\$
  SELECT coalesce((SELECT substr(body, 1 + length(body) / 4, 120) FROM pd WHERE id = i), '')
         || ' 中间无关的话 some words between '
         || coalesce((SELECT substr(body, 1 + length(body) / 2, 160) FROM pd WHERE id = j), '')
\$\$;
-- the rows matching q(i, j) with at least m seeds, by the index (or what
-- the planner picks when there is none) and by a sequential scan: 1 if
-- they are equal, a division by zero if not (which fails the transaction)
CREATE FUNCTION same(i int, j int, m int) RETURNS int LANGUAGE plpgsql AS \$\$
DECLARE t text := q(i, j); a text; b text;
BEGIN
  PERFORM set_config('enable_seqscan', 'off', true);
  EXECUTE format('SELECT coalesce(array_agg(id ORDER BY id), ''{}'')::text FROM pd WHERE body %%& passage_query(%L, %s)', t, m) INTO a;
  PERFORM set_config('enable_seqscan', 'on', true);
  PERFORM set_config('enable_bitmapscan', 'off', true);
  PERFORM set_config('enable_indexscan', 'off', true);
  EXECUTE format('SELECT coalesce(array_agg(id ORDER BY id), ''{}'')::text FROM pd WHERE body %%& passage_query(%L, %s)', t, m) INTO b;
  PERFORM set_config('enable_bitmapscan', 'on', true);
  PERFORM set_config('enable_indexscan', 'on', true);
  RETURN 1 / (a = b)::int;
END \$\$;
-- n such comparisons: the number that differ
CREATE FUNCTION cmp(n int) RETURNS int LANGUAGE plpgsql AS \$\$
DECLARE bad int := 0; top int := (SELECT max(id) FROM pd);
BEGIN
  FOR g IN 1..n LOOP
    BEGIN
      PERFORM same(1 + (g * 97) % top, 1 + (g * 31 + 7) % top, 1 + g % 3);
    EXCEPTION WHEN division_by_zero THEN bad := bad + 1;
    END;
  END LOOP;
  RETURN bad;
END \$\$;
});

$node->backup('base');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($node, 'base', has_streaming => 1);
$standby->start;

my $dir = PostgreSQL::Test::Utils::tempdir;
open(my $fh, '>', "$dir/write.sql") or die;
print $fh q{\set i random(10, 2265)
\set j random(1, 2265)
INSERT INTO pd (body) SELECT q(:i, :j) || ' ' || q(:j, :i);
UPDATE pd SET body = q(:j, :i) WHERE id = :i + 1;
DELETE FROM pd WHERE id = :i + 2;
};
close $fh;
open($fh, '>', "$dir/check.sql") or die;
print $fh q{\set i random(1, 2265)
\set j random(1, 2265)
\set m random(1, 3)
BEGIN ISOLATION LEVEL REPEATABLE READ;
SELECT same(:i, :j, :m);
COMMIT;
};
close $fh;

my ($out, $err) = ('', '');
my @cmd = ('pgbench', '-n', '-c', '6', '-j', '2', '-T', '30',
	'-f', "$dir/write.sql\@1", '-f', "$dir/check.sql\@2",
	'-h', $node->host, '-p', $node->port, 'postgres');
my $h = IPC::Run::start(\@cmd, '>', \$out, '2>', \$err);

sleep 2;
$node->safe_psql('postgres', 'CREATE INDEX CONCURRENTLY pd_p ON pd USING passage (body)');
pass('CREATE INDEX CONCURRENTLY under concurrent writes');
sleep 5;
$node->safe_psql('postgres', 'VACUUM pd');
sleep 2;
$node->safe_psql('postgres', 'REINDEX INDEX CONCURRENTLY pd_p');
pass('REINDEX CONCURRENTLY under concurrent writes');
sleep 5;
$node->safe_psql('postgres', 'VACUUM ANALYZE pd');

IPC::Run::finish($h);
my $rc = $? >> 8;
is($rc, 0, 'pgbench writers and checkers finished without error')
  or diag("stdout:\n$out\nstderr:\n$err");
my ($checks) = $out =~ /check\.sql\n - weight: \d+[^\n]*\n - (\d+) transactions/;
cmp_ok($checks // 0, '>', 20, 'checker transactions ran (' . ($checks // 0) . ')');
my ($fails) = $out =~ /number of failed transactions: (\d+)/;
is($fails // 0, 0, 'no failed transactions');
is($node->safe_psql('postgres',
	"SELECT indisvalid FROM pg_index WHERE indexrelid = 'pd_p'::regclass"), 't', 'index valid');
like($node->safe_psql('postgres',
	"SET enable_seqscan = off; EXPLAIN (COSTS OFF) SELECT id FROM pd WHERE body %& passage_query(q(1, 2), 1)"),
	qr/Bitmap Index Scan on pd_p/, 'the operator uses the index');

# enough inserts after the rebuild to merge the pending list into a run,
# deletes and VACUUM's dead marks: all through WAL
$node->safe_psql('postgres', q{
INSERT INTO pd (body) SELECT q(id, id + 1000) || ' ' || q(id + 500, id) FROM pd WHERE id <= 1200;
DELETE FROM pd WHERE id % 11 = 0;
VACUUM pd;
});
my $stats = q{SELECT merges > 0 AND runs >= 1 FROM passage_index_stats('pd_p')};
is($node->safe_psql('postgres', $stats), 't', 'inserts merged the pending list into runs');
is($node->safe_psql('postgres', 'SELECT cmp(150)'), '0',
	'primary: the index and a sequential scan agree on 150 queries');
$node->wait_for_catchup($standby);
is($standby->safe_psql('postgres', 'SELECT cmp(150)'), '0',
	'standby: the index received through WAL agrees with a sequential scan');
my $digest = q{SET enable_seqscan = off;
SELECT md5(string_agg(x.ids, ';' ORDER BY g)) FROM generate_series(1, 60) g,
  LATERAL (SELECT string_agg(id::text, ',' ORDER BY id) AS ids FROM pd
           WHERE body %& passage_query(q(1 + g * 37, 2 + g * 11), 2)) x};
is($standby->safe_psql('postgres', $digest), $node->safe_psql('postgres', $digest),
	'standby returns the same rows as the primary');
# the sources of rows 5 and 9, which the writers leave as they are (they
# update row i + 1 and delete row i + 2, i >= 10)
my $sources = q{SELECT string_agg(source_id || ':' || passage || ':' || source_start || ':' || query_start, ','
  ORDER BY rank, passage) FROM textfp_sources(q(5, 9), 'pd', min_length => 30)};
my $ps = $node->safe_psql('postgres', $sources);
ok(length($ps) > 0, 'textfp_sources finds the sources of a spliced text');
is($standby->safe_psql('postgres', $sources), $ps, 'textfp_sources on the standby finds the same passages');

# crash with committed inserts in the pending list, and recover
$node->safe_psql('postgres', q{
INSERT INTO pd (body) VALUES ('崩溃之前插入的独一无二的句子，它只在这一行出现，后面还有更多的字来凑够长度。');
INSERT INTO pd (body) SELECT q(id + 3, id) FROM pd WHERE id BETWEEN 300 AND 500});
$node->stop('immediate');
$node->start;
is($node->safe_psql('postgres', 'SELECT cmp(150)'), '0',
	'after crash recovery the index agrees with a sequential scan');
is($node->safe_psql('postgres', q{SET enable_seqscan = off;
	SELECT count(*) FROM pd WHERE body %& passage_query('崩溃之前插入的独一无二的句子，它只在这一行出现', 2)}),
	'1', 'a row inserted just before the crash is found through the index');

# a source query over many rows cancelled within a second: the alignment
# of a long text against thousands of candidates
$node->safe_psql('postgres', q{
CREATE TABLE big AS SELECT g AS id, (SELECT string_agg(body, ' ') FROM pd WHERE id BETWEEN 1 AND 40) AS body
  FROM generate_series(1, 300) g;
CREATE INDEX big_p ON big USING passage (body);});
# The latency that counts is the server's: what the same statement timeout
# takes to end a pg_sleep (connecting, planning, the timer, the error's way
# back), measured just before in the same conditions, is subtracted, so that
# a loaded machine does not read as a slow cancel.
my $t0 = time;
$node->psql('postgres', q{SET statement_timeout = '500ms'; SELECT pg_sleep(30)});
my $base = time - $t0;
$t0 = time;
my ($ret, $o, $e) = $node->psql('postgres', q{SET statement_timeout = '500ms';
	SELECT count(*) FROM textfp_sources((SELECT body FROM big WHERE id = 1), 'big',
	                                    max_docs => 100000, max_candidates => 100000, max_sources => 100000)});
my $dt = time - $t0;
like($e, qr/canceling statement due to statement timeout/, 'a long source query is cancelled');
cmp_ok($dt - $base, '<', 1.0,
	sprintf('... within a second of the timeout (%.2f s, a cancelled pg_sleep %.2f s)', $dt, $base));

$standby->stop;
$node->stop;
done_testing();
