# textfp_check_arrivals and textfp_verify_pairs on a Citus cluster
# (docs/citus.md, "New arrivals" and "Verifying candidate pairs"): a
# coordinator and two workers, a distributed corpus of real texts beside a
# plain copy on the coordinator.  The same arrivals checked against both
# write the same match rows (every method, index and scan searches, a batch
# of staged rows and of corpus rows, the whole corpus, a distributed, a
# reference and a plain match table), a re-run writes nothing, the verdicts
# are computed on the workers, and textfp_verify_pairs of a distributed
# corpus equals its single-node answer; bad inputs fail with their SQLSTATE.
#
# The Citus build and the cluster are set up as in test/t/140_citus.pl.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use CitusTap;
use Time::HiRes qw(time);

my $data = $ENV{TEXTFP_DATADIR} or die "TEXTFP_DATADIR is not set (run via test/run-tests.sh)";
my $src = $ENV{TEXTFP_SRCDIR} // "$data/../..";

# ---------------------------------------------------------------- cluster
# Citus built and three nodes started by test/t/CitusTap.pm (the test skips,
# with the reason, where Citus cannot be built)
my @nodes = citus_cluster("track_functions = all\n");
my ($coord, @workers) = @nodes;

sub q1 { $coord->safe_psql('postgres', $_[0]) }

# the corpus of 140_citus.pl (the documents, every 8th paragraph of the
# pools, edited copies), with a fingerprint of each kind and its index
citus_corpus($coord, $data);
citus_articles($coord, 1);
q1(q{
-- the new arrivals, staged on the coordinator: reposts of corpus rows,
-- fresh paragraphs (some near the corpus's), and two rows with one id
CREATE TABLE batch AS
SELECT 300000 + id AS id, body || ' (repost)' AS body FROM plain WHERE id % 41 = 7
UNION ALL (SELECT 400000 + n, body FROM pool WHERE n % 10 = 5 ORDER BY n LIMIT 100)
UNION ALL SELECT 500000, body FROM plain WHERE id = (SELECT min(id) FROM plain WHERE id > 100000)
UNION ALL SELECT 500000, body || ' !' FROM plain WHERE id = (SELECT min(id) FROM plain WHERE id > 100000);
});
cmp_ok(q1('SELECT count(*) FROM dist'), '>', 2000, 'a distributed corpus of more than 2,000 rows');

# ---------------------------------------------------------------- helpers
sub rows { citus_rows($coord, @_) }
# the records of a match table, but for the time
sub records
{
	return rows("SELECT new_id, matched_id, method, distance, round(similarity::numeric, 9) FROM $_[0]");
}
sub fails { citus_fails(@_) }
my $n_match = 0;
sub match_table
{
	my ($kind) = @_;
	my $name = 'm' . ++$n_match;
	q1("SELECT textfp_create_match_table('$name')");
	q1("SELECT create_distributed_table('$name', 'new_id', colocate_with => 'dist')") if $kind eq 'distributed';
	q1("SELECT create_reference_table('$name')") if $kind eq 'reference';
	return $name;
}
# textfp_check_arrivals(new_rows, corpus, matches, ...): its result rows
my $all = q{ARRAY['simhash', 'minhash', 'pinyin_dna', 'shingle_jaccard', 'textfp_match'],
	simhash_column => 'fp', minhash_column => 'sig', dna_column => 'dna', text_column => 'body',
	radius => 4, min_jaccard => 0.6};
sub arrivals
{
	my ($new, $corpus, $m, $opts) = @_;
	$new = defined $new ? "'$new'" : 'NULL';
	return q1("SELECT string_agg(format('%s %s/%s/%s', method, rows_checked, matches_found, matches_written), ' ')
		FROM textfp_check_arrivals($new, '$corpus', '$m', $all" . ($opts // '') . ')');
}

# ---------------------------------------------------------------- staged arrivals
my $staged = 'SELECT id, simhash(body) AS fp, minhash(body, 128) AS sig, pinyin_dna(body) AS dna, body FROM batch';
my $m_plain = match_table('plain');
my $res_plain = arrivals($staged, 'plain', $m_plain);
my $want = records($m_plain);
like($want, qr/^[1-9]\d*:/, "a batch against the plain corpus: $res_plain");
like($res_plain, qr/textfp_match \d+\/[1-9]/, 'and textfp_match confirmed some of the candidates');

# verdicts on the workers: textfp_match calls counted where they run
q1('SELECT pg_stat_reset()');
$_->safe_psql('postgres', 'SELECT pg_stat_reset()') for @workers;
my $m_dist = match_table('distributed');
is(arrivals($staged, 'dist', $m_dist), $res_plain,
	'the batch against the distributed corpus, into a co-located match table: the same counts');
is(records($m_dist), $want, 'and the same match records as on the plain corpus');
my $calls = q{SELECT coalesce(sum(calls), 0) FROM pg_stat_user_functions WHERE funcname = 'textfp_match'};
ok($workers[0]->poll_query_until('postgres', "SELECT ($calls) > 0")
	  && $workers[1]->poll_query_until('postgres', "SELECT ($calls) > 0"),
	'textfp_match ran on both workers');
is(q1($calls), 0, 'and not on the coordinator (the corpus texts stayed on the workers)');

(my $rerun = $res_plain) =~ s{/(\d+)( |$)}{/0$2}g;
is(arrivals($staged, 'dist', $m_dist), $rerun, 'a re-run finds the same and writes nothing');
is(records($m_dist), $want, 'and the records are unchanged');

my $m_ref = match_table('reference');
is(arrivals($staged, 'dist', $m_ref), $res_plain, 'into a reference match table: the same counts');
is(records($m_ref), $want, 'and the same records');
my $m_local = match_table('plain');
arrivals($staged, 'dist', $m_local);
is(records($m_local), $want, 'a plain match table on the coordinator, distributed corpus: the same records');
my $m_dist2 = match_table('distributed');
arrivals($staged, 'plain', $m_dist2);
is(records($m_dist2), $want, 'a distributed match table, plain corpus: the same records');
my $m_scan = match_table('distributed');
arrivals($staged, 'dist', $m_scan, ", simhash_search => 'scan'");
is(records($m_scan), $want, "simhash_search => 'scan' (simhash_pairs through the coordinator): the same records");

# a batch of rows of the corpus (today's rows) and the whole corpus
my $today = 'SELECT id, fp, sig, dna, body FROM %s WHERE id %% 7 = 2';
my ($m_p2, $m_d2) = (match_table('plain'), match_table('distributed'));
is(arrivals(sprintf($today, 'dist'), 'dist', $m_d2), arrivals(sprintf($today, 'plain'), 'plain', $m_p2),
	'rows of the corpus as the batch: the same counts');
is(records($m_d2), records($m_p2), 'and the same records');
my ($m_p3, $m_d3) = (match_table('plain'), match_table('distributed'));
my $whole = arrivals(undef, 'plain', $m_p3);
is(arrivals(undef, 'dist', $m_d3), $whole, "the whole corpus (new_rows NULL): the same counts ($whole)");
is(records($m_d3), records($m_p3), 'and the same records (textfp_match in two co-located steps)');

# a boilerplate lexicon travels to the workers with the statement
q1(q{CREATE TABLE lex AS SELECT textfp_build_boilerplate('plain', 'body', 'source', min_docs => 3) AS b});
my ($m_p4, $m_d4) = (match_table('plain'), match_table('distributed'));
my $lex = ", boilerplate => (SELECT b FROM lex)";
is(arrivals($staged, 'dist', $m_d4, $lex), arrivals($staged, 'plain', $m_p4, $lex),
	'with a boilerplate lexicon: the same counts');
is(records($m_d4), records($m_p4), 'and the same records');

# ---------------------------------------------------------------- textfp_verify_pairs
my $pairs = q{SELECT id_a, id_b FROM simhash_pairs('%s', 'id', 'fp', 6)};
my $vp = q{SELECT id_a, id_b, verdict, round(score::numeric, 9) FROM textfp_verify_pairs(%s, '%s')};
my $v_plain = rows(sprintf($vp, "\$\$" . sprintf($pairs, 'plain') . "\$\$", 'plain'));
like($v_plain, qr/^[1-9]\d*:/, "textfp_verify_pairs on the plain corpus ($v_plain)");
is(rows(sprintf($vp, "\$\$" . sprintf($pairs, 'dist') . "\$\$", 'dist')), $v_plain,
	'textfp_verify_pairs on the distributed corpus (two co-located steps) = on the plain one');
is($v_plain, rows(q{SELECT p.id_a, p.id_b, t.verdict, round(t.score::numeric, 9)
		FROM simhash_pairs('plain', 'id', 'fp', 6) p JOIN plain a ON a.id = p.id_a JOIN plain b ON b.id = p.id_b
		CROSS JOIN LATERAL textfp_match(a.body, b.body) t}),
	'= textfp_match over the pairs by a join');
is(rows(sprintf($vp, q{'SELECT 1 AS id_a, 2 AS id_b WHERE false UNION ALL SELECT NULL, 1 UNION ALL SELECT -5, -6'}, 'dist')),
	'0:', 'no pairs, NULL ids and ids that are no rows: no verdicts');
is(q1(q{SELECT count(*) FROM pg_class WHERE relname LIKE 'textfp_pairs_%'}), 0, 'and no scratch table left behind');

# the whole corpus, plain corpus, distributed match table; a reference copy
# of the corpus with the staged batch
my $m_d5 = match_table('distributed');
arrivals(undef, 'plain', $m_d5);
is(records($m_d5), records($m_p3), 'the whole plain corpus into a distributed match table: the same records');
q1(q{CREATE TABLE refc AS SELECT id, source, body, fp, sig, dna FROM plain; SELECT create_reference_table('refc')});
like(fails($coord, qq{SELECT * FROM textfp_check_arrivals('$staged', 'refc', '$m_dist', simhash_column => 'fp')}),
	qr/^0A000: textfp_check_arrivals does not work on the reference table (public\.)?refc$/,
	'a reference table as the corpus: 0A000 (Citus would run the statements where the batch is not)');
is(rows(sprintf($vp, "\$\$" . sprintf($pairs, 'plain') . "\$\$", 'refc')), $v_plain,
	'textfp_verify_pairs on a reference table (one join) = on the plain one');

# ---------------------------------------------------------------- bad inputs
my @bad = (
	[ q{SELECT * FROM textfp_verify_pairs(NULL, 'dist')}, qr/^22004: textfp_verify_pairs: pairs, corpus/, 'verify_pairs, NULL pairs' ],
	[ q{SELECT * FROM textfp_verify_pairs('SELECT 1 AS id_a, 2 AS id_b', NULL)}, qr/^22004:/, 'verify_pairs, NULL corpus' ],
	[ q{SELECT * FROM textfp_verify_pairs('SELECT 1 AS id_a, 2 AS id_b', 'nosuch')}, qr/^42P01: relation "nosuch" does not exist/, 'verify_pairs, missing table' ],
	[ q{SELECT * FROM textfp_verify_pairs('SELECT 1 AS id_a, 2 AS id_b', 'dist', 'title')}, qr/^42703: column "title" of relation (public\.)?dist does not exist/, 'verify_pairs, missing column' ],
	[ q{SELECT * FROM textfp_verify_pairs('SELECT 1 AS id_a, 2 AS id_b', 'dist', 'fp')}, qr/^42804: .*must be of type text, not (public\.)?simhash64/, 'verify_pairs, text column of another type' ],
	[ q{SELECT * FROM textfp_verify_pairs('SELECT 1 AS a, 2 AS b', 'dist')}, qr/^42703: column q.id_a does not exist/, 'verify_pairs, pairs without id_a, id_b' ],
	[ q{SELECT * FROM textfp_verify_pairs('SELECT id_a, id_b FROM nosuch', 'dist')}, qr/^42P01: relation "nosuch" does not exist/, 'verify_pairs, a query that fails' ],
	[ q{SELECT * FROM textfp_check_arrivals('SELECT id, fp FROM batch', NULL, 'm1')}, qr/^22004: textfp_check_arrivals: corpus, matches/, 'check_arrivals, NULL corpus' ],
	[ q{SELECT * FROM textfp_check_arrivals('SELECT id, fp FROM dist', 'dist', 'nosuch')}, qr/^42P01:/, 'check_arrivals, missing match table' ],
	[ q{SELECT * FROM textfp_check_arrivals('SELECT id, fp FROM dist', 'dist', 'dist')}, qr/^42703: relation (public\.)?dist is not a match table/, 'check_arrivals, the corpus as match table' ],
);
# a corpus distributed by another column than its id
q1(q{CREATE TABLE by_source (id bigint, source text, body text); SELECT create_distributed_table('by_source', 'source');
	INSERT INTO by_source SELECT id, source, body FROM src WHERE id < 100});
push @bad, [ q{SELECT * FROM textfp_verify_pairs('SELECT 1 AS id_a, 2 AS id_b', 'by_source')},
	qr/^0A000: textfp_verify_pairs: the distributed table (public\.)?by_source is distributed by "source", not by its id column "id"/,
	'verify_pairs, a corpus distributed by another column' ];
for my $b (@bad)
{
	like(fails($coord, $b->[0]), $b->[1], "error: $b->[2]");
}
# a shard, on a worker: one shard's rows
my $shard = $workers[0]->safe_psql('postgres', q{SET citus.override_table_visibility = off; SELECT relname FROM pg_class WHERE relname ~ '^dist_\d+$' ORDER BY 1 LIMIT 1});
like(fails($workers[0], qq{SELECT * FROM textfp_check_arrivals(NULL, '$shard', '$shard')}),
	qr/^0A000: textfp_check_arrivals does not work on the shard of a Citus table (public\.)?$shard/,
	'error: check_arrivals on a shard, on a worker');
like(fails($workers[0], qq{SELECT * FROM textfp_verify_pairs('SELECT 1 AS id_a, 2 AS id_b', '$shard')}),
	qr/^0A000: textfp_verify_pairs does not work on the shard of a Citus table/,
	'error: verify_pairs on a shard, on a worker');

$_->stop for @nodes;
done_testing();
