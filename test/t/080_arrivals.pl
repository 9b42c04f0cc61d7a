# The new-arrivals check as a scheduled job, and under concurrency:
# - pg_cron: the README's cron.schedule call is accepted (a job in cron.job)
#   and its command, run as the job would, records the matches; run again it
#   records nothing (skipped with a note where pg_cron is not installed:
#   test/run-tests.sh installs it);
# - two sessions checking the same batch at once: the second waits for the
#   first's records and then writes none, no record twice;
# - a long check stopped by statement_timeout leaves no record behind;
# - the duplicate_of trigger's documented race: two concurrent inserts of
#   copies of one text do not see each other (both NULL) under READ
#   COMMITTED; under SERIALIZABLE one of them fails with 40001 and its retry
#   finds the other.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;
use Time::HiRes qw(time);

my $data = $ENV{TEXTFP_DATADIR} or die "TEXTFP_DATADIR is not set (run via test/run-tests.sh)";
my $node = PostgreSQL::Test::Cluster->new('arrivals');
$node->init;
$node->start;
my $have_cron = $node->safe_psql('postgres', q{SELECT count(*) FROM pg_available_extensions WHERE name = 'pg_cron'});
if ($have_cron)
{
	$node->append_conf('postgresql.conf', "shared_preload_libraries = 'pg_cron'\ncron.database_name = 'postgres'\n");
	$node->restart;
}

$node->safe_psql('postgres', qq{
CREATE EXTENSION textfp;
CREATE TABLE articles (
    id bigint PRIMARY KEY, lang text, source text, title text, body text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now() - interval '1 week',
    fp  simhash64 GENERATED ALWAYS AS (simhash(body)) STORED,
    sig minhash GENERATED ALWAYS AS (minhash(body, 128)) STORED);
COPY articles (id, lang, source, title, body) FROM '$data/corpus.tsv';
CREATE INDEX ON articles USING gin (fp);
CREATE INDEX ON articles USING gin (sig);
SELECT textfp_create_match_table('article_matches');
-- yesterday's arrivals: reposts of every tenth article
INSERT INTO articles (id, lang, source, title, body, created_at)
SELECT 1000 + id, lang, 'mirror.example', title, '转载：' || body, now() - interval '2 hours'
FROM articles WHERE id % 10 = 0;
ANALYZE articles;
});

# ---- pg_cron
SKIP:
{
	skip 'pg_cron is not installed (package postgresql-NN-cron)', 4 unless $have_cron;
	$node->safe_psql('postgres', 'CREATE EXTENSION pg_cron');
	# the README's call
	my $jobid = $node->safe_psql('postgres', q{
SELECT cron.schedule('textfp-arrivals', '15 3 * * *', $$
    SELECT * FROM textfp_check_arrivals(
        'SELECT * FROM articles WHERE created_at >= now() - interval ''1 day''',
        'articles', 'article_matches', '{simhash,minhash}', radius => 6)
$$)});
	like($node->safe_psql('postgres', "SELECT schedule || ' ' || database || ' ' || active FROM cron.job WHERE jobid = $jobid"),
		qr/^15 3 \* \* \* postgres true$/, 'the job is scheduled');
	# run its command as the scheduler would
	my $command = $node->safe_psql('postgres', "SELECT command FROM cron.job WHERE jobid = $jobid");
	my $first = $node->safe_psql('postgres', $command);
	like($first, qr/^simhash\|45\|\d+\|\d+\nminhash\|45\|\d+\|\d+$/, "the job's command checks the 45 new rows");
	my ($w1, $w2) = $first =~ /^simhash\|45\|\d+\|(\d+)\nminhash\|45\|\d+\|(\d+)$/;
	cmp_ok($w1 + $w2, '>=', 80, "and records their matches ($w1 + $w2)");
	like($node->safe_psql('postgres', $command), qr/^simhash\|45\|\d+\|0\nminhash\|45\|\d+\|0$/,
		'run again, it records nothing');
	$node->safe_psql('postgres', "SELECT cron.unschedule($jobid)");
}

# a psql session in the background: send it statements, wait for output
sub session
{
	my ($in, $out, $err) = ('', '', '');
	my $h = IPC::Run::start(
		[ 'psql', '-XAtq', '-v', 'ON_ERROR_STOP=0', '-d', $node->connstr('postgres') ],
		'<', \$in, '>', \$out, '2>', \$err, IPC::Run::timeout(120));
	return { h => $h, in => \$in, out => \$out, err => \$err };
}

sub send_wait
{
	my ($s, $sql, $until) = @_;
	${ $s->{in} } .= "$sql\n";
	$s->{h}->pump until ${ $s->{out} } =~ $until || ${ $s->{err} } =~ $until;
}

# ---- two sessions checking the same batch at once
$node->safe_psql('postgres', 'TRUNCATE article_matches');
my $check = q{SELECT 'written ' || sum(matches_written) FROM textfp_check_arrivals(
    'SELECT * FROM articles WHERE id > 1000', 'articles', 'article_matches', '{simhash,minhash}', radius => 6);};
my $a = session();
send_wait($a, "BEGIN; $check", qr/written \d+/);
my ($written_a) = ${ $a->{out} } =~ /written (\d+)/;
my $b = session();
${ $b->{in} } .= "$check\n";
$b->{h}->pump_nb;
# b waits for a's records
my $waiting = 0;
for (1 .. 100)
{
	$waiting = $node->safe_psql('postgres',
		q{SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%textfp_check_arrivals%'});
	last if $waiting;
	$b->{h}->pump_nb;
	select(undef, undef, undef, 0.1);
}
is($waiting, '1', 'the second check waits for the first one\'s uncommitted records');
send_wait($a, 'COMMIT; SELECT \'committed\';', qr/committed/);
send_wait($b, '', qr/written \d+/);
my ($written_b) = ${ $b->{out} } =~ /written (\d+)/;
cmp_ok($written_a, '>', 80, "the first check wrote $written_a records");
is($written_b, '0', 'the second one, running at the same time, wrote none');
is($node->safe_psql('postgres', 'SELECT count(*) FROM article_matches'), $written_a, 'each record once');
${ $a->{in} } .= "\\q\n";
${ $b->{in} } .= "\\q\n";
$a->{h}->finish;
$b->{h}->finish;

# ---- a long check is cancelled and leaves nothing
$node->safe_psql('postgres', q{
CREATE TABLE big (id bigint PRIMARY KEY, fp simhash64);
INSERT INTO big SELECT i, ((hashint8(i)::bigint << 32) # (hashint8(-i)::bigint & 4294967295))::simhash64
FROM generate_series(1, 200000) i;
CREATE INDEX ON big USING gin (fp);
SELECT textfp_create_match_table('big_matches');
});
my $t0 = time;
my ($ret, $out, $err) = $node->psql('postgres', q{SET statement_timeout = '1s';
SELECT * FROM textfp_check_arrivals('SELECT * FROM big WHERE id <= 5000', 'big', 'big_matches', radius => 24);});
my $elapsed = time - $t0;
like($err, qr/canceling statement due to statement timeout/, 'a long check is cancelled by statement_timeout');
cmp_ok($elapsed, '<', 20, "promptly (${elapsed}s)");
is($node->safe_psql('postgres', 'SELECT count(*) FROM big_matches'), '0', 'and leaves no record behind');

# ---- the trigger's race
$node->safe_psql('postgres', q{
CREATE TABLE posts (id bigint PRIMARY KEY, body text, fp simhash64 GENERATED ALWAYS AS (simhash(body)) STORED,
                    duplicate_of bigint);
CREATE INDEX ON posts USING gin (fp);
CREATE TRIGGER posts_dup BEFORE INSERT OR UPDATE OF body ON posts
    FOR EACH ROW EXECUTE FUNCTION textfp_duplicate_of('fp', '3');
});
my $text = $node->safe_psql('postgres', 'SELECT body FROM articles WHERE id = 64');
$text =~ s/'/''/g;
sub race
{
	my ($iso, $id1, $id2) = @_;
	my $s1 = session();
	my $s2 = session();
	send_wait($s1, "BEGIN ISOLATION LEVEL $iso; INSERT INTO posts (id, body) VALUES ($id1, '$text'); SELECT 'in1';", qr/in1/);
	send_wait($s2, "BEGIN ISOLATION LEVEL $iso; INSERT INTO posts (id, body) VALUES ($id2, '$text'); SELECT 'in2';",
		qr/in2|ERROR/);
	send_wait($s1, "COMMIT; SELECT 'done1';", qr/done1/);
	send_wait($s2, "COMMIT; SELECT 'done2';", qr/done2/);
	my $errors = ${ $s1->{err} } . ${ $s2->{err} };
	${ $_->{in} } .= "\\q\n" for ($s1, $s2);
	$_->{h}->finish for ($s1, $s2);
	return $errors;
}
my $errors = race('READ COMMITTED', 1, 2);
is($errors, '', 'READ COMMITTED: both inserts succeed');
is($node->safe_psql('postgres', q{SELECT string_agg(id || ':' || coalesce(duplicate_of::text, '-'), ' ' ORDER BY id) FROM posts}),
	'1:- 2:-', 'READ COMMITTED: neither sees the other (the documented race): both duplicate_of NULL');
$node->safe_psql('postgres', 'INSERT INTO posts (id, body) VALUES (3, (SELECT body FROM posts WHERE id = 1))');
is($node->safe_psql('postgres', 'SELECT duplicate_of FROM posts WHERE id = 3'), '1',
	'a later copy points to the smallest id of the nearest');

$node->safe_psql('postgres', 'TRUNCATE posts');
$errors = race('SERIALIZABLE', 11, 12);
like($errors, qr/could not serialize access/, 'SERIALIZABLE: one of two racing inserts fails (40001)');
my $kept = $node->safe_psql('postgres', q{SELECT string_agg(id::text, ',') FROM posts});
like($kept, qr/^1[12]$/, "SERIALIZABLE: the other one is kept ($kept)");
my $retry = $kept eq '11' ? 12 : 11;
$node->safe_psql('postgres', "INSERT INTO posts (id, body) VALUES ($retry, '$text')");
is($node->safe_psql('postgres', "SELECT duplicate_of FROM posts WHERE id = $retry"), $kept,
	'SERIALIZABLE: the retried insert finds the other row');

$node->stop;
done_testing();
