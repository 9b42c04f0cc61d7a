# Passages on a Citus cluster (docs/citus.md, "Passages"): a coordinator
# and two workers, the corpus of 140_citus.pl distributed in 8 shards beside
# a plain copy on the coordinator, a passage index on each.  The index
# reaches every shard; textfp_sources() over the distributed table returns
# what it returns over the plain one, row for row and column for column
# (positions, shares, ranks, and how common each passage is: max_docs and
# frequency count the whole table, not a shard), through the indexes and by
# reading the tables, with a lexicon; textfp_check_arrivals' passages method
# writes the same records; textfp_repeated_spans refuses with 0A000.
#
# The Citus build and the cluster are set up as in test/t/140_citus.pl.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use CitusTap;

my $data = $ENV{TEXTFP_DATADIR} or die "TEXTFP_DATADIR is not set (run via test/run-tests.sh)";

my @nodes = citus_cluster('');
my ($coord, @workers) = @nodes;
sub q1 { $coord->safe_psql('postgres', $_[0]) }

citus_corpus($coord, $data);
q1(q{
CREATE TABLE plain (id bigint PRIMARY KEY, source text, body text NOT NULL);
CREATE TABLE dist (id bigint PRIMARY KEY, source text, body text NOT NULL);
SELECT create_distributed_table('dist', 'id', shard_count => 8);
INSERT INTO plain SELECT id, source, body FROM src;
INSERT INTO dist SELECT id, source, body FROM src;
-- a template line in 40 rows: common text, over max_docs => 20 in the
-- whole table but under it in every shard
UPDATE plain SET body = body || E'\n本文由本站编辑整理发布，转载请注明出处并保留原文链接，谢谢合作。' WHERE id % 10 = 3 AND id <= 400;
UPDATE dist SET body = body || E'\n本文由本站编辑整理发布，转载请注明出处并保留原文链接，谢谢合作。' WHERE id % 10 = 3 AND id <= 400;
CREATE INDEX plain_p ON plain USING passage (body);
CREATE INDEX dist_p ON dist USING passage (body);
-- the queries: passages of two or three rows (in different shards),
-- some edited, with filler around them
CREATE TABLE srcn AS SELECT row_number() OVER (ORDER BY id) AS rn, id, body FROM src WHERE length(body) > 200;
CREATE TABLE qs AS
SELECT g AS qid,
       '综合报道：' || substr(a.body, 1 + length(a.body) / 5, 120) || ' 此外还有 and some more words ' ||
       CASE WHEN g % 3 = 0 THEN regexp_replace(substr(b.body, 1 + length(b.body) / 3, 150), '[的是e]', '', 'g')
            ELSE substr(b.body, 1 + length(b.body) / 3, 150) END ||
       CASE WHEN g % 2 = 0 THEN '。另据报道，' || substr(c.body, 1, 100) ELSE '' END ||
       CASE WHEN g % 5 = 0 THEN E'\n本文由本站编辑整理发布，转载请注明出处并保留原文链接，谢谢合作。' ELSE '' END AS body
FROM generate_series(1, 60) g
JOIN srcn a ON a.rn = 1 + (g * 37) % (SELECT count(*) FROM srcn)
JOIN srcn b ON b.rn = 1 + (g * 91 + 11) % (SELECT count(*) FROM srcn)
JOIN srcn c ON c.rn = 1 + (g * 53 + 29) % (SELECT count(*) FROM srcn);
CREATE TABLE lex AS SELECT textfp_build_boilerplate('plain', 'body', min_docs => 20) AS lex;
});

is(q1(q{SELECT count(*) FROM run_command_on_shards('dist', $$SELECT count(*) FROM pg_catalog.pg_index i
	JOIN pg_catalog.pg_class c ON c.oid = i.indexrelid JOIN pg_catalog.pg_am a ON a.oid = c.relam
	WHERE i.indrelid = '%s'::regclass AND a.amname = 'passage'$$) WHERE success AND result = '1'}), '8',
	'the passage index is on every shard');

# the answers of textfp_sources over dist and over plain, every column
sub differ
{
	my ($args) = @_;
	return q1(qq{
SELECT count(*) FILTER (WHERE d IS DISTINCT FROM p) || '/' || count(*) || ' ' || sum(n)
FROM (SELECT (SELECT string_agg(s::text, ';' ORDER BY s.rank, s.passage) FROM textfp_sources(qs.body, 'dist'$args) s) AS d,
             (SELECT string_agg(s::text, ';' ORDER BY s.rank, s.passage) FROM textfp_sources(qs.body, 'plain'$args) s) AS p,
             (SELECT count(DISTINCT s.source_id) FROM textfp_sources(qs.body, 'plain'$args) s) AS n
      FROM qs, lex) x});
}
for my $c ([ '', 'the defaults' ],
	[ ', max_docs => 20, min_length => 20', 'max_docs => 20 (binding over the whole table only)' ],
	[ ', boilerplate => lex.lex', 'a boilerplate lexicon' ],
	[ ', max_sources => 2, min_length => 30', 'max_sources => 2' ],
	[ ', use_index => false', 'reading the tables (no index)' ])
{
	my ($args, $what) = @$c;
	my $r = differ($args);
	my ($bad, $n, $sources) = $r =~ m{^(\d+)/(\d+) (\d+)$};
	is($bad, '0', "textfp_sources over the distributed table equals the plain table's, $what ($r)");
	cmp_ok($sources // 0, '>', 60, "... and finds sources ($sources over $n queries)");
}
# max_docs counts the whole table: the template line's seeds are in 40
# rows, at most 8 of a shard; with max_docs => 20 they are not looked up
is(q1(q{SELECT count(DISTINCT source_id) < 20 FROM textfp_sources(
	'转载说明：本文由本站编辑整理发布，转载请注明出处并保留原文链接，谢谢合作。', 'dist', min_length => 20, max_docs => 20, max_sources => 100)}),
	't', 'max_docs => 20 skips seeds in 40 rows of the table, though in at most 8 of a shard');
is(q1(q{SELECT min(frequency) >= 40 FROM textfp_sources(
	'转载说明：本文由本站编辑整理发布，转载请注明出处并保留原文链接，谢谢合作。', 'dist', min_length => 20, max_sources => 100)}),
	't', "the template line's frequency counts the rows of every shard");

# the passages method of textfp_check_arrivals: the same records
q1(q{
SELECT textfp_create_match_table('m_plain');
SELECT textfp_create_match_table('m_dist');
SELECT create_distributed_table('m_dist', 'new_id', colocate_with => 'dist');
INSERT INTO plain SELECT 900000 + qid, 'aggregator', body FROM qs WHERE qid <= 20;
INSERT INTO dist SELECT 900000 + qid, 'aggregator', body FROM qs WHERE qid <= 20;
});
my $arr = q{SELECT matches_found, matches_written FROM textfp_check_arrivals(
	'SELECT * FROM %1$s WHERE id > 900000', '%1$s', 'm_%1$s', methods => '{passages}', text_column => 'body')};
my $ap = q1(sprintf($arr, 'plain'));
my $ad = q1(sprintf($arr, 'dist'));
is($ad, $ap, "textfp_check_arrivals, passages: as many found and written on Citus ($ad)");
my $recs = q{SELECT new_id, matched_id, method, distance, similarity FROM %s};
is(citus_rows($coord, sprintf($recs, 'm_dist')), citus_rows($coord, sprintf($recs, 'm_plain')),
	'... the same records');
is(q1(sprintf($arr, 'dist')) =~ s/^\d+\|//r, '0', '... and a re-run writes nothing');

# what does not run on Citus says so
like(citus_fails($coord, q{SELECT * FROM textfp_repeated_spans('dist')}), qr/^0A000: /,
	'textfp_repeated_spans on a distributed table: 0A000');
like(citus_fails($coord, q{SELECT * FROM textfp_sources_shard('x', 'dist', 'id', 'body', 40, 10, 0, NULL, true, 100, '{}')}),
	qr/^0A000: /, 'textfp_sources_shard on the distributed table: 0A000');

$_->stop for reverse @nodes;
done_testing();
