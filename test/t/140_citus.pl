# textfp on a Citus cluster (docs/citus.md): a coordinator and two workers
# on 127.0.0.1, a distributed table of real texts (test/data) beside a plain
# copy of it on the coordinator, and for every function that reads a
# relation: the distributed table's answer equals the plain table's, or the
# function refuses with 0A000 (never an answer from the coordinator's empty
# shell).  Also: radius and top-10 searches pushed down to the shards equal
# a brute-force scan; the minhash threshold in the operand
# (minhash_query) reaches the workers, and a session's
# textfp.minhash_threshold, which would not, makes "sig % q" on a
# distributed table fail with 0A000 naming minhash_query (never an answer
# at the workers' threshold), however the statement is planned.
#
# Citus 13.2 is built from ../shared/citus (build.sh: 2.5-4.5 minutes on 2
# cores the first time, reused from its work directory afterwards) and
# installed into a copy of the harness's private server installation.
# Skipped, with the reason, where it cannot be built (PostgreSQL outside
# 15-17, missing build dependencies, no source).
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
my @nodes = citus_cluster();
my ($coord, @workers) = @nodes;

sub q1 { $coord->safe_psql('postgres', $_[0]) }

# A few thousand real texts: the 453 documents of corpus.tsv, every 8th
# paragraph of the pools longer than 100 bytes, and a copy of every 56th
# with a number appended (near duplicates); a plain table and a distributed one of the same
# rows, with generated fingerprints and the textfp indexes.
citus_corpus($coord, $data);
citus_articles($coord);
my $n = q1('SELECT count(*) FROM dist');
cmp_ok($n, '>', 2000, "the distributed table holds $n rows");
is(q1('SELECT count(*) FROM ONLY dist'), q1('SELECT count(*) FROM plain'), 'as many rows as the plain table');
is(q1(q{SELECT coalesce(textfp_citus_table('dist'), '-') || ' ' || coalesce(textfp_citus_table('plain'), '-')}),
	'distributed -', 'textfp_citus_table names the distributed table, not the plain one');

# ---------------------------------------------------------------- helpers
# the rows of a query, as one string in a canonical order (test/t/CitusTap.pm)
sub rows { citus_rows($coord, @_) }
# the SQLSTATE and message of a statement that must fail
sub fails { citus_fails(@_) }

# ---------------------------------------------------------------- all pairs
my $pairs = rows(q{SELECT * FROM simhash_pairs('plain', 'id', 'fp', 3)});
like($pairs, qr/^[1-9]\d*:/, "the plain table has near-duplicate pairs ($pairs)");
is(rows(q{SELECT * FROM simhash_pairs('dist', 'id', 'fp', 3)}), $pairs,
	'simhash_pairs, table form, on the distributed table = the plain table');
is(rows(q{SELECT * FROM simhash_pairs('SELECT id, fp FROM dist', 3)}), $pairs,
	'simhash_pairs, query form, on the distributed table = the plain table');
is(rows(q{SELECT * FROM simhash_clusters('dist', 'id', 'fp', 3)}),
	rows(q{SELECT * FROM simhash_clusters('plain', 'id', 'fp', 3)}),
	'simhash_clusters, table form, distributed = plain');
is(rows(q{SELECT * FROM simhash_clusters('SELECT id, fp FROM dist', 3)}),
	rows(q{SELECT * FROM simhash_clusters('plain', 'id', 'fp', 3)}),
	'simhash_clusters, query form, distributed = plain');
q1(q{CREATE TABLE refd AS SELECT id, fp FROM plain; SELECT create_reference_table('refd');});
is(rows(q{SELECT * FROM simhash_pairs('refd', 'id', 'fp', 3)}), $pairs,
	'simhash_pairs, table form, on a reference table = the plain table');

# ---------------------------------------------------------------- pushed-down searches
# 30 query fingerprints: rows of the table, and the same with 2 bits flipped
my @q = split /\n/, q1(q{
(SELECT fp::text FROM plain WHERE id % 97 = 3 ORDER BY id LIMIT 15)
UNION ALL
(SELECT (fp::bigint # 5)::simhash64::text FROM plain WHERE id % 89 = 5 ORDER BY id LIMIT 15)});
is(scalar(@q), 30, '30 query fingerprints');
my ($radius_ok, $top_ok, $hits) = (0, 0, 0);
for my $q (@q)
{
	my $d = rows(qq{SELECT id FROM dist WHERE simhash_dist(fp, '$q'::simhash64) <= 4});
	my $b = rows(qq{SELECT id FROM plain WHERE simhash_dist(fp, '$q'::simhash64) + 0 <= 4});
	$radius_ok++ if $d eq $b;
	$hits += (split /:/, $b)[0];
	my $t = q1(qq{SELECT string_agg(id || '/' || d, ' ' ORDER BY d, id) FROM
		(SELECT id, fp <-> '$q'::simhash64 AS d FROM dist ORDER BY fp <-> '$q'::simhash64, id LIMIT 10) s});
	my $bt = q1(qq{SELECT string_agg(id || '/' || d, ' ' ORDER BY d, id) FROM
		(SELECT id, simhash_dist(fp, '$q'::simhash64) AS d FROM plain ORDER BY 2, id LIMIT 10) s});
	$top_ok++ if $t eq $bt;
}
is($radius_ok, 30, "radius 4 on the distributed table = a brute-force scan, 30 queries ($hits rows)");
is($top_ok, 30, 'ORDER BY fp <-> q, id LIMIT 10 on the distributed table = a brute-force top 10, 30 queries');
like(q1(qq{EXPLAIN (COSTS OFF) SELECT id FROM dist WHERE simhash_dist(fp, '$q[0]'::simhash64) <= 3}),
	qr/Custom Scan \(Citus Adaptive\)/, 'the radius search runs on the shards (Citus Adaptive)');
like(q1(qq{EXPLAIN (COSTS OFF, VERBOSE) SELECT id FROM dist WHERE simhash_dist(fp, '$q[0]'::simhash64) <= 3}),
	qr/(Index|Bitmap Index) Scan (using|on) dist_fp_\d+/, "and each shard's hamming index answers it");

# ---------------------------------------------------------------- minhash threshold
my @sq = split /\n/, q1(q{SELECT id FROM plain WHERE id % 53 = 1 ORDER BY id LIMIT 20});
my ($mq_ok, $mq_rows, $guc_more, $guc_05) = (0, 0, 0, 0);
for my $id (@sq)
{
	my $sig = q1("SELECT sig FROM plain WHERE id = $id");
	my $plain = rows(qq{SELECT id FROM plain WHERE sig % '$sig'::minhash}, 'SET textfp.minhash_threshold = 0.9; ');
	my $dist = rows(qq{SELECT id FROM dist WHERE sig % minhash_query('$sig'::minhash, 0.9)});
	$mq_ok++ if $dist eq $plain;
	$mq_rows += (split /:/, $plain)[0];
	# at the default threshold, sig % q is answered on the shards as on a
	# single node
	$guc_05++ if rows(qq{SELECT id FROM dist WHERE sig % '$sig'::minhash})
	  eq rows(qq{SELECT id FROM plain WHERE sig % '$sig'::minhash});
}
is($mq_ok, 20, "sig % minhash_query(q, 0.9) on the distributed table = sig % q at 0.9 on the plain table, 20 queries ($mq_rows rows)");
is($guc_05, 20, "at the default textfp.minhash_threshold, sig % q on the distributed table = on the plain table, 20 queries");

# A session's setting does not reach the workers: such a statement fails,
# naming minhash_query, whether textfp was loaded before it was planned
# (the planner hook: a minhash literal loads it while the statement is
# parsed), or only while it was (minhash_similar's support function: the
# standard planner, a subquery, Citus's fast-path planner for one shard),
# on every kind of Citus table.
my $sig0 = q1("SELECT sig FROM plain WHERE id = $sq[0]");
my $refusal = qr/^0A000: textfp.minhash_threshold does not reach the Citus workers$/;
my %refused = (
	'a literal (hook)' => qq{SELECT id FROM dist WHERE sig % '$sig0'::minhash},
	'a subquery, textfp not yet loaded' => qq{SELECT count(*) FROM dist WHERE sig % (SELECT sig FROM dist WHERE id = $sq[1])},
	'a join' => q{SELECT count(*) FROM dist a JOIN plain b ON a.sig % b.sig WHERE b.id < 40},
	'a CTE' => qq{WITH q AS (SELECT sig FROM plain WHERE id = $sq[2]) SELECT count(*) FROM dist, q WHERE dist.sig % q.sig},
	'one shard, fast path, textfp not yet loaded' => qq{SELECT id FROM dist WHERE id = $sq[3] AND sig % minhash('text', 128)},
	'a Citus-local table' => q{CREATE TABLE IF NOT EXISTS loc AS SELECT id, sig FROM plain WHERE id < 200;
		SELECT citus_add_local_table_to_metadata('loc') WHERE textfp_citus_table('loc') IS NULL;
		SET textfp.minhash_threshold = 0.9;
		SELECT count(*) FROM loc WHERE sig % (SELECT sig FROM plain WHERE id = 1)},
	'a reference table' => q{CREATE TABLE IF NOT EXISTS ref AS SELECT id, sig FROM plain WHERE id < 200;
		SELECT create_reference_table('ref') WHERE textfp_citus_table('ref') IS NULL;
		SET textfp.minhash_threshold = 0.9;
		SELECT count(*) FROM ref WHERE sig % (SELECT sig FROM plain WHERE id = 1)});
for my $k (sort keys %refused)
{
	like(fails($coord, "SET textfp.minhash_threshold = 0.9;\n$refused{$k}"), $refusal,
		"SET textfp.minhash_threshold = 0.9; sig % q on a Citus table, $k: 0A000");
}
my ($r, $o, $e) = $coord->psql('postgres', qq{SET textfp.minhash_threshold = 0.2;
	SELECT id FROM dist WHERE sig % '$sig0'::minhash});
like($e, qr/DETAIL:  This session set textfp.minhash_threshold to 0.2, but the workers evaluate "sig % q" on the shards with their own setting/,
	'the error says why');
like($e, qr/HINT:  Write sig % minhash_query\(q, 0.2\)/, 'and names minhash_query with the threshold');
is(rows(qq{SELECT id FROM plain WHERE sig % '$sig0'::minhash}, 'SET textfp.minhash_threshold = 0.9; '),
	rows(qq{SELECT id FROM plain WHERE sig % minhash_query('$sig0'::minhash, 0.9)}),
	'on a plain table of the same cluster the setting works as on a single node');
is(q1(qq{SET textfp.minhash_threshold = 0.5; SELECT count(*) > 0 FROM dist WHERE sig % '$sig0'::minhash}), 't',
	'SET back to the default 0.5: answered');
# a prepared statement planned at the default is planned (and refused) again
# once the setting changes
($r, $o, $e) = $coord->psql('postgres', qq{PREPARE p(minhash) AS SELECT count(*) FROM dist WHERE sig % \$1;
	EXECUTE p('$sig0'); EXECUTE p('$sig0'); EXECUTE p('$sig0'); EXECUTE p('$sig0'); EXECUTE p('$sig0'); EXECUTE p('$sig0');
	SET textfp.minhash_threshold = 0.9;
	EXECUTE p('$sig0');});
like($o, qr/^\d+\n\d+\n\d+\n\d+\n\d+\n\d+$/, 'a prepared sig % \$1 runs at the default (six times: a generic plan)');
like($e, qr/textfp.minhash_threshold does not reach the Citus workers/, '... and after SET textfp.minhash_threshold = 0.9 it is refused');

# ---------------------------------------------------------------- refusals
like(fails($coord, q{SELECT * FROM hamming_index_stats('dist_fp')}),
	qr/^0A000: hamming_index_stats\(\) does not read indexes of the Citus distributed table dist/,
	'hamming_index_stats on the shell index of a distributed table: 0A000');
# (textfp_check_arrivals works on a distributed corpus and match table:
# test/t/142_citus_arrivals.pl)
q1(q{SELECT textfp_create_match_table('m_plain')});
q1(q{SELECT textfp_create_match_table('m_dist'); SELECT create_distributed_table('m_dist', 'new_id', colocate_with => 'dist');});
q1(q{ALTER TABLE dist ADD COLUMN duplicate_of bigint});
like(fails($coord, q{SET citus.enable_unsafe_triggers = on;
	CREATE TRIGGER dup BEFORE INSERT OR UPDATE ON dist FOR EACH ROW EXECUTE FUNCTION textfp_duplicate_of('fp', '3');
	INSERT INTO dist (id, source, body) SELECT 900000, 'copy', body FROM plain WHERE id = (SELECT min(id) FROM plain)}),
	qr/^XX000: the trigger textfp_duplicate_of does not work on the shard of a Citus table (public\.)?dist_\d+$/,
	'the textfp_duplicate_of trigger on a distributed table: refused on the shard (0A000 there; Citus relays it as XX000)');
is(q1('SELECT count(*) FROM dist WHERE id = 900000'), 0, 'and the row was not inserted');
q1('SET citus.enable_unsafe_triggers = on; DROP TRIGGER dup ON dist');

# ---------------------------------------------------------------- reports
# the match table of the plain corpus, and a distributed copy of it
q1(q{SELECT * FROM textfp_check_arrivals(NULL, 'plain', 'm_plain', simhash_search => 'scan')});
q1(q{INSERT INTO m_dist SELECT * FROM m_plain});
my $nm = q1('SELECT count(*) FROM m_plain');
cmp_ok($nm, '>', 0, "a match table of $nm matches, and a distributed copy");
# Reports read through SQL, which Citus plans: the same answer, or a Citus
# error where a join needs repartitioning (then the same answer with
# citus.enable_repartition_joins)
for my $r (
	[ 'textfp_match_clusters', q{SELECT * FROM textfp_match_clusters('%s')} ],
	[ 'textfp_cluster_sizes', q{SELECT * FROM textfp_cluster_sizes('%s')} ],
	[ 'textfp_most_copied', q{SELECT * FROM textfp_most_copied('%s', 50)} ],
	[ 'textfp_duplicates_by_day', q{SELECT * FROM textfp_duplicates_by_day('%s')} ])
{
	my ($name, $sql) = @$r;
	is(rows(sprintf($sql, 'm_dist')), rows(sprintf($sql, 'm_plain')),
		"$name on a distributed match table = on a plain one");
}
my $repart = 'SET citus.enable_repartition_joins = on; ';
my $bysource = q{SELECT * FROM textfp_duplicates_by_source('%s', '%s', 'source')};
like(fails($coord, sprintf($bysource, 'm_dist', 'dist')),
	qr/^XX000: the query contains a join that requires repartitioning/,
	'textfp_duplicates_by_source on distributed tables: a Citus error (repartitioning)');
is(rows(sprintf($bysource, 'm_dist', 'dist'), $repart), rows(sprintf($bysource, 'm_plain', 'plain')),
	'and with citus.enable_repartition_joins = on, the answer of plain tables');

# the page, but for the names of the tables and the time it was made
sub page
{
	my ($c, $m, $set) = @_;
	my $p = q1(($set // '') . qq{SELECT textfp_report('$c', '$m', NULL, 'body', 'source', fp_column => 'fp', heading => 'r')});
	$p =~ s/corpus (public\.)?\Q$c\E, match table (public\.)?\Q$m\E, //;
	$p =~ s/; generated [^<]*<\/p>/<\/p>/;
	return $p;
}
like(fails($coord, q{SELECT textfp_report('dist', 'm_dist', NULL, 'body', 'source', fp_column => 'fp')}),
	qr/^0A000: textfp_report does not work on the distributed table (public\.)?dist$/,
	'textfp_report on distributed tables: 0A000');
# what the hint says: plain copies of the two tables
q1(q{CREATE TABLE dist_copy AS SELECT * FROM dist; CREATE TABLE m_dist_copy AS SELECT * FROM m_dist;});
my $rep = page('dist_copy', 'm_dist_copy');
my $rep_plain = page('plain', 'm_plain');
ok($rep eq $rep_plain,
	'on plain copies of the distributed tables: the page of the plain tables (' . length($rep) . ' characters)')
  or do
{
	my $i = 0;
	$i++ while $i < length($rep) && substr($rep, $i, 1) eq substr($rep_plain, $i, 1);
	diag 'first difference: ' . substr($rep, $i - 200, 400) . "\n---- plain:\n" . substr($rep_plain, $i - 200, 400);
};

# ---------------------------------------------------------------- recipes (docs/citus.md)
# Verification of candidate pairs in two co-located steps: Citus refuses a
# join of the table with itself on anything but the distribution column.
q1(q{
CREATE TABLE cand (id_a bigint, id_b bigint, distance int4);
SELECT create_distributed_table('cand', 'id_a', colocate_with => 'dist');
INSERT INTO cand SELECT * FROM simhash_pairs('dist', 'id', 'fp', 3);
CREATE TABLE cand_a (id_a bigint, id_b bigint, body_a text);
SELECT create_distributed_table('cand_a', 'id_b', colocate_with => 'dist');
INSERT INTO cand_a SELECT c.id_a, c.id_b, a.body FROM cand c JOIN dist a ON a.id = c.id_a;
});
is(rows(q{SELECT c.id_a, c.id_b, t.verdict, round(t.score::numeric, 6)
		  FROM cand_a c JOIN dist b ON b.id = c.id_b CROSS JOIN LATERAL textfp_match(c.body_a, b.body) t}),
	rows(q{SELECT p.id_a, p.id_b, t.verdict, round(t.score::numeric, 6)
		  FROM simhash_pairs('plain', 'id', 'fp', 3) p JOIN plain a ON a.id = p.id_a JOIN plain b ON b.id = p.id_b
		  CROSS JOIN LATERAL textfp_match(a.body, b.body) t}),
	'verification in two co-located steps = textfp_match over the pairs of the plain table');

# New arrivals: the batch as a reference table (a copy on every node) joins
# the distributed corpus on any condition, each shard with its own index.
# Jaccard 0.7 is above the exact bound of minhash_lsh_ops for k = 128
# ((k - bands + 1) / k = 0.68, minhash_gin.c): index and scan agree.
q1(q{
CREATE TABLE batch (id bigint PRIMARY KEY, body text NOT NULL,
    fp simhash64 GENERATED ALWAYS AS (simhash(body)) STORED,
    sig minhash GENERATED ALWAYS AS (minhash(body, 128)) STORED);
INSERT INTO batch (id, body)
SELECT 300000 + id, body || ' (repost)' FROM plain WHERE id % 41 = 7
UNION ALL SELECT 400000 + n, body FROM pool WHERE n % 10 = 5 LIMIT 100;
CREATE TABLE batch_local AS SELECT id, fp, sig FROM batch;
SELECT create_reference_table('batch');
SELECT textfp_create_match_table('m_arr_plain');
SELECT textfp_create_match_table('m_arr_dist');
SELECT create_distributed_table('m_arr_dist', 'new_id', colocate_with => 'dist');
});
q1(q{SELECT * FROM textfp_check_arrivals('SELECT id, fp, sig FROM batch_local', 'plain', 'm_arr_plain',
	ARRAY['simhash', 'minhash'], simhash_column => 'fp', minhash_column => 'sig', min_jaccard => 0.7,
	simhash_search => 'index')});
q1(q{
INSERT INTO m_arr_dist (new_id, matched_id, method, distance, similarity)
SELECT b.id, a.id, 'simhash', simhash_dist(a.fp, b.fp), 1 - simhash_dist(a.fp, b.fp) / 64.0::float8
FROM batch b JOIN dist a ON a.fp <@ simhash_ball(b.fp, 3) AND a.id <> b.id
ON CONFLICT DO NOTHING;
INSERT INTO m_arr_dist (new_id, matched_id, method, similarity)
SELECT b.id, a.id, 'minhash', minhash_jaccard(a.sig, b.sig)
FROM batch b JOIN dist a ON a.sig % minhash_query(b.sig, 0.7) AND a.id <> b.id
ON CONFLICT DO NOTHING;
});
my $arr = rows(q{SELECT new_id, matched_id, method, distance, round(similarity::numeric, 9) FROM m_arr_plain});
like($arr, qr/^[1-9]\d*:/, "textfp_check_arrivals on the plain table found matches ($arr)");
is(rows(q{SELECT new_id, matched_id, method, distance, round(similarity::numeric, 9) FROM m_arr_dist}), $arr,
	'new arrivals on Citus (a reference batch joined to the distributed corpus) = textfp_check_arrivals on the plain table');

# duplicate_of after the insert, from the match table (co-located by new_id)
q1(q{
INSERT INTO dist (id, source, body) SELECT id, 'batch', body FROM batch;
UPDATE dist a SET duplicate_of = d.matched_id
FROM (SELECT DISTINCT ON (new_id) new_id, matched_id FROM m_arr_dist
      WHERE method = 'simhash' ORDER BY new_id, distance, matched_id) d
WHERE a.id = d.new_id;
});
is(rows(q{SELECT id, duplicate_of FROM dist WHERE duplicate_of IS NOT NULL}),
	rows(q{SELECT DISTINCT ON (b.id) b.id, p.id FROM batch_local b JOIN plain p ON simhash_dist(p.fp, b.fp) <= 3
		  ORDER BY b.id, simhash_dist(p.fp, b.fp), p.id}),
	'duplicate_of set after the insert = the nearest row of the plain table within radius 3');

$_->stop for @nodes;
done_testing();
