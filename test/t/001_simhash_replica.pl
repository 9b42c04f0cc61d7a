# Fingerprints are stored and compared across machines: a streaming standby
# sees the same simhash values (stored generated column, expression index)
# that it would compute itself, and so does the primary after a crash.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $data = $ENV{TEXTFP_DATADIR} or die "TEXTFP_DATADIR is not set (run via test/run-tests.sh)";

my $primary = PostgreSQL::Test::Cluster->new('primary');
$primary->init(allows_streaming => 1);
$primary->start;
$primary->safe_psql('postgres', qq{
	CREATE EXTENSION textfp;
	CREATE TABLE articles (id int PRIMARY KEY, lang text, source text, title text, body text,
	                       fp simhash64 GENERATED ALWAYS AS (simhash(body)) STORED);
	CREATE INDEX articles_fp ON articles (fp);
	CREATE INDEX articles_fp3 ON articles (simhash(body, ngram => 3));
	COPY articles (id, lang, source, title, body) FROM '$data/corpus.tsv';
});
my $rows = $primary->safe_psql('postgres', 'SELECT count(*) FROM articles');
cmp_ok($rows, '>=', 400, "corpus loaded on the primary ($rows rows)");

$primary->backup('base');
my $standby = PostgreSQL::Test::Cluster->new('standby');
$standby->init_from_backup($primary, 'base', has_streaming => 1);
$standby->start;

# more rows after the base backup travel through WAL
$primary->safe_psql('postgres', q{
	INSERT INTO articles (id, body)
	SELECT 100000 + id, body || ' (转载)' FROM articles WHERE id <= 50;
	UPDATE articles SET body = body || ' 更新' WHERE id BETWEEN 51 AND 60;
});
$primary->wait_for_catchup($standby);

my $digest = q{SELECT md5(string_agg(id || ':' || fp, ',' ORDER BY id)) FROM articles};
my $p = $primary->safe_psql('postgres', $digest);
my $s = $standby->safe_psql('postgres', $digest);
is($s, $p, 'standby holds the same fingerprints as the primary');
is($standby->safe_psql('postgres', 'SELECT count(*) FROM articles WHERE fp <> simhash(body)'),
	'0', 'standby recomputes every stored fingerprint identically');
is($standby->safe_psql('postgres', q{
	SET enable_seqscan = off;
	SELECT count(*) FROM articles a WHERE simhash(body, ngram => 3) =
	  (SELECT simhash(body, ngram => 3) FROM articles WHERE id = 7)}),
	$primary->safe_psql('postgres', q{
	SELECT count(*) FROM articles WHERE simhash(body, ngram => 3) =
	  (SELECT simhash(body, ngram => 3) FROM articles WHERE id = 7)}),
	'expression index on the standby answers like the primary');

# crash the primary in the middle of nothing in particular and recover
$primary->safe_psql('postgres', q{
	INSERT INTO articles (id, body) SELECT 200000 + id, body FROM articles WHERE id <= 100});
$primary->stop('immediate');
$primary->start;
is($primary->safe_psql('postgres', 'SELECT count(*) FROM articles WHERE fp <> simhash(body)'),
	'0', 'after crash recovery every stored fingerprint is still right');
is($primary->safe_psql('postgres', q{
	SET enable_seqscan = off; SET enable_bitmapscan = off;
	SELECT count(*) FROM articles WHERE fp = (SELECT fp FROM articles WHERE id = 200001)}),
	$primary->safe_psql('postgres', q{
	SET enable_indexscan = off; SET enable_bitmapscan = off;
	SELECT count(*) FROM articles WHERE fp = (SELECT fp FROM articles WHERE id = 200001)}),
	'btree index after recovery agrees with a sequential scan');

$standby->stop;
$primary->stop;
done_testing();
