# textfp through postgres_fdw (a loopback server: another database of the
# same cluster plays the remote node), the extension in a schema of its own
# on both sides, as the README's sharding section describes it:
# - simhash64, minhash and int8[] (pinyin DNA) values of foreign tables
#   arrive as the remote node holds them, in text (how postgres_fdw fetches)
#   and through the types' binary send/receive (COPY BINARY);
# - with OPTIONS (extensions 'textfp') the IMMUTABLE functions and operators
#   are sent to the remote node (EXPLAIN VERBOSE's Remote SQL), which answers
#   them with its indexes; without the option they run locally; minhash's %
#   (STABLE: it reads a setting) always runs locally;
# - the answers equal the remote node's own;
# - a hash-partitioned table whose partitions are foreign tables on the
#   remote node (shards) gives simhash_pairs, simhash_clusters,
#   textfp_check_arrivals and the reports the answers of a local table.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $data = $ENV{TEXTFP_DATADIR} or die "TEXTFP_DATADIR is not set (run via test/run-tests.sh)";
my $node = PostgreSQL::Test::Cluster->new('fdw');
$node->init;
$node->start;
my ($host, $port) = ($node->host, $node->port);

# the remote node: the corpus with generated fingerprints and their indexes,
# and two shards (rows of hash partition 0 and 1 of the local table below)
$node->safe_psql('postgres', 'CREATE DATABASE remote');
$node->safe_psql('remote', qq{
CREATE SCHEMA tfp;
CREATE EXTENSION textfp SCHEMA tfp;
CREATE TABLE articles (
    id int PRIMARY KEY, lang text, source text, title text, body text NOT NULL,
    fp  tfp.simhash64 GENERATED ALWAYS AS (tfp.simhash(body)) STORED,
    sig tfp.minhash GENERATED ALWAYS AS (tfp.minhash(body, 128)) STORED,
    dna int8[] GENERATED ALWAYS AS (tfp.pinyin_dna(body)) STORED);
COPY articles (id, lang, source, title, body) FROM '$data/corpus.tsv';
CREATE INDEX ON articles USING gin (fp);
CREATE INDEX ON articles USING gin (sig);
CREATE INDEX ON articles USING gin (dna tfp.pinyin_dna_ops);
-- the shards: partitions of a table partitioned as the local one is, so
-- that rows written here land where the local table looks for them
CREATE TABLE shards (id int, source text, title text, body text,
                     fp tfp.simhash64, sig tfp.minhash, dna int8[]) PARTITION BY HASH (id);
CREATE TABLE shard_0 PARTITION OF shards FOR VALUES WITH (MODULUS 2, REMAINDER 0);
CREATE TABLE shard_1 PARTITION OF shards FOR VALUES WITH (MODULUS 2, REMAINDER 1);
CREATE INDEX ON shard_0 USING gin (fp);
CREATE INDEX ON shard_1 USING gin (fp);
-- besides the corpus (inserted through the local table), 40,000 rows of
-- random fingerprints
INSERT INTO shards (id, source, fp)
SELECT i, 'random', ((hashint8(i)::bigint << 32) # (hashint8(-i)::bigint & 4294967295))::tfp.simhash64
FROM generate_series(100001, 140000) i;
ANALYZE articles;
});

# the local node
$node->safe_psql('postgres', qq{
CREATE SCHEMA tfp;
CREATE EXTENSION textfp SCHEMA tfp;
CREATE EXTENSION postgres_fdw;
CREATE SERVER remote FOREIGN DATA WRAPPER postgres_fdw
    OPTIONS (host '$host', port '$port', dbname 'remote', extensions 'textfp');
CREATE SERVER remote_plain FOREIGN DATA WRAPPER postgres_fdw
    OPTIONS (host '$host', port '$port', dbname 'remote');
CREATE USER MAPPING FOR CURRENT_USER SERVER remote;
CREATE USER MAPPING FOR CURRENT_USER SERVER remote_plain;
CREATE FOREIGN TABLE ft (id int, lang text, source text, title text, body text,
                         fp tfp.simhash64, sig tfp.minhash, dna int8[])
    SERVER remote OPTIONS (table_name 'articles');
CREATE FOREIGN TABLE ft_plain (id int, lang text, source text, title text, body text,
                               fp tfp.simhash64, sig tfp.minhash, dna int8[])
    SERVER remote_plain OPTIONS (table_name 'articles');
});

# values: text (postgres_fdw's fetch) and binary (COPY BINARY: send/recv)
my $digest = q{SELECT count(*) || ' ' || md5(string_agg(concat_ws('|', id, fp, sig, dna), ',' ORDER BY id))
               FROM %s};
my $remote_digest = $node->safe_psql('remote', sprintf($digest, 'articles'));
like($remote_digest, qr/^453 [0-9a-f]{32}$/, 'the remote node holds the corpus');
is($node->safe_psql('postgres', sprintf($digest, 'ft')), $remote_digest,
	'simhash64, minhash and int8[] values read through the foreign table equal the remote ones');
my $dir = PostgreSQL::Test::Utils::tempdir;
$node->safe_psql('postgres', qq{
CREATE TABLE local_copy (id int, fp tfp.simhash64, sig tfp.minhash, dna int8[]);
COPY (SELECT id, fp, sig, dna FROM ft ORDER BY id) TO '$dir/ft.bin' WITH (FORMAT binary);
COPY local_copy FROM '$dir/ft.bin' WITH (FORMAT binary);
});
is($node->safe_psql('postgres', sprintf($digest, 'local_copy')), $remote_digest,
	'the same values through binary COPY (the types\' send and receive)');
$node->safe_psql('remote', qq{COPY (SELECT id, fp, sig, dna FROM articles ORDER BY id) TO '$dir/remote.bin' WITH (FORMAT binary)});
is(slurp_file("$dir/remote.bin"), slurp_file("$dir/ft.bin"),
	'the binary form is the same bytes on both sides');

# pushdown: what the remote node is asked
my %q = (
	simhash_dist => q{SELECT id FROM %s WHERE tfp.simhash_dist(fp, (SELECT fp FROM local_copy WHERE id = 64)) <= 6},
	ball         => q{SELECT id FROM %s WHERE fp OPERATOR(tfp.<@) tfp.simhash_ball('%s', 8)},
	within       => q{SELECT id FROM %s WHERE tfp.simhash_within(fp, '%s', 8)},
	fingerprint  => q{SELECT id FROM %s WHERE fp OPERATOR(tfp.=) tfp.simhash(body) AND tfp.simhash(body) OPERATOR(tfp.=) '%s'},
	jaccard      => q{SELECT id FROM %s WHERE tfp.minhash_jaccard(sig, (SELECT sig FROM local_copy WHERE id = 64)) >= 0.5},
	dna          => q{SELECT id FROM %s WHERE dna OPERATOR(tfp.%%&) tfp.pinyin_dna_query((SELECT dna FROM local_copy WHERE id = 1), 2)},
	nearest      => q{SELECT id FROM %s ORDER BY fp OPERATOR(tfp.<->) '%s', id LIMIT 5},
);
my $fp64 = $node->safe_psql('postgres', 'SELECT fp FROM local_copy WHERE id = 64');
for my $name (sort keys %q)
{
	my $sql = sprintf($q{$name}, 'ft', $fp64);
	my $plan = $node->safe_psql('postgres', "EXPLAIN (VERBOSE, COSTS OFF) $sql");
	my ($remote) = $plan =~ /Remote SQL: (.*)$/m;
	like($remote, qr/WHERE|ORDER BY/, "$name: sent to the remote node with its condition")
		or diag($plan);
	unlike($plan, qr/Foreign Scan on public\.ft\n(\s+Output:[^\n]*\n)?\s+Filter:/, "$name: nothing left to filter locally");
	# the answers: the remote node's own, and (for the searches) from its index
	my $remote_sql = sprintf($q{$name}, 'articles', $fp64);
	$remote_sql =~ s/local_copy/articles/g;
	my $want = $node->safe_psql('remote', "SET search_path = public; $remote_sql");
	is(join(',', split /\n/, $node->safe_psql('postgres', $sql)), join(',', split /\n/, $want),
		"$name: the answer of the remote node (" . scalar(split /\n/, $want) . " rows)");
	next unless $name =~ /^(simhash_dist|ball|within|dna)$/;
	# the statement as the remote node runs it (postgres_fdw sets search_path
	# to pg_catalog), with the parameters of the sub-selects filled in
	my $run = $remote;
	my %params = (simhash_dist => "'$fp64'::tfp.simhash64",
		dna => "(SELECT dna FROM public.articles WHERE id = 1)");
	$run =~ s/\$1(::[\w."\[\]]+)?/$params{$name}/g;
	like($node->safe_psql('remote', "SET search_path = pg_catalog; SET enable_seqscan = off; EXPLAIN (COSTS OFF) $run"),
		qr/Index Scan on articles_(fp|dna)_idx/, "$name: the remote node uses its index");
}
my $plan = $node->safe_psql('postgres',
	"EXPLAIN (VERBOSE, COSTS OFF) SELECT id FROM ft WHERE sig OPERATOR(tfp.%) (SELECT sig FROM local_copy WHERE id = 64)");
like($plan, qr/^\s+Filter: \(ft\.sig OPERATOR\(tfp\.%\) /m, 'minhash % (STABLE: reads textfp.minhash_threshold) is filtered locally');
$plan = $node->safe_psql('postgres', 'EXPLAIN (VERBOSE, COSTS OFF) ' . sprintf($q{within}, 'ft_plain', $fp64));
like($plan, qr/^\s+Filter: tfp\.simhash_within/m, 'without the extensions option the function runs locally');
is($node->safe_psql('postgres', sprintf($q{within}, 'ft_plain', $fp64)),
	$node->safe_psql('postgres', sprintf($q{within}, 'ft', $fp64)), '... with the same answer');

# shards: a hash-partitioned table whose partitions are foreign tables
$node->safe_psql('postgres', q{
CREATE TABLE dist (id int, source text, title text, body text, fp tfp.simhash64, sig tfp.minhash, dna int8[])
    PARTITION BY HASH (id);
CREATE FOREIGN TABLE dist_0 PARTITION OF dist FOR VALUES WITH (MODULUS 2, REMAINDER 0)
    SERVER remote OPTIONS (table_name 'shard_0');
CREATE FOREIGN TABLE dist_1 PARTITION OF dist FOR VALUES WITH (MODULUS 2, REMAINDER 1)
    SERVER remote OPTIONS (table_name 'shard_1');
INSERT INTO dist SELECT id, source, title, body, fp, sig, dna FROM ft;
CREATE TABLE here AS SELECT * FROM dist;
ALTER TABLE here ADD PRIMARY KEY (id);
CREATE INDEX ON here USING gin (fp);
});
$node->safe_psql('remote', 'ANALYZE shards');
is($node->safe_psql('remote', 'SELECT (SELECT count(*) FROM shard_0) > 150 AND (SELECT count(*) FROM shard_1) > 150'),
	't', 'the rows are spread over both shards');
my $same = sub {
	my ($a, $b) = @_;
	return $node->safe_psql('postgres', "SELECT (SELECT count(*) FROM ($a EXCEPT ALL $b) x) + (SELECT count(*) FROM ($b EXCEPT ALL $a) y)");
};
for my $r (3, 8)
{
	is($same->("SELECT * FROM tfp.simhash_pairs('dist', 'id', 'fp', $r)", "SELECT * FROM tfp.simhash_pairs('here', 'id', 'fp', $r)"),
		'0', "simhash_pairs over the shards at radius $r equals a local table's");
}
is($same->("SELECT * FROM tfp.simhash_clusters('dist', 'id', 'fp', 8)", "SELECT * FROM tfp.simhash_clusters('here', 'id', 'fp', 8)"),
	'0', 'simhash_clusters over the shards equals a local table\'s');
$node->safe_psql('postgres', q{
SELECT tfp.textfp_create_match_table('m_dist');
SELECT tfp.textfp_create_match_table('m_here');
CREATE TABLE arrivals AS
SELECT id + 1000 AS id, 'mirror' AS source, title, '转载 ' || body AS body, tfp.simhash('转载 ' || body) AS fp
FROM here WHERE id % 7 = 0;
});
my $check = q{SELECT matches_found FROM tfp.textfp_check_arrivals('TABLE arrivals', '%s', '%s', radius => 6, simhash_search => '%s')};
my $found = $node->safe_psql('postgres', sprintf($check, 'dist', 'm_dist', 'scan'));
cmp_ok($found, '>', 40, "textfp_check_arrivals against the shards (all-pairs search): $found matches");
is($node->safe_psql('postgres', sprintf($check, 'here', 'm_here', 'index')), $found, '... as many as against a local table');
is($same->('SELECT new_id, matched_id, distance FROM m_dist', 'SELECT new_id, matched_id, distance FROM m_here'),
	'0', '... the same records');
is($same->(q{SELECT * FROM tfp.textfp_duplicates_by_source('m_dist', 'dist', 'source')},
		q{SELECT * FROM tfp.textfp_duplicates_by_source('m_here', 'here', 'source')}),
	'0', 'textfp_duplicates_by_source over the shards equals a local table\'s');
# the planner may fetch the shards' rows and join them locally (it does on
# tables this small), or probe each shard's index once per new row with a
# parameterized remote query: use_remote_estimate lets it cost that (here
# the local alternative is made expensive too, by enable_material = off)
$node->safe_psql('postgres', q{ALTER SERVER remote OPTIONS (ADD use_remote_estimate 'true');
SELECT tfp.textfp_create_match_table('m_probe');});
like($node->safe_psql('postgres', q{SET enable_material = off; EXPLAIN (VERBOSE, COSTS OFF)
	SELECT a.id, c.id FROM arrivals a JOIN dist c ON c.fp OPERATOR(tfp.<@) tfp.simhash_ball(a.fp, 6)}),
	qr/Remote SQL: SELECT .* FROM public\.shard_0 WHERE \(\(fp OPERATOR\(tfp\.<@\) tfp\.simhash_ball\(\$1::tfp\.simhash64, 6\)\)\)/,
	'the join can probe each shard with a parameterized query');
is($node->safe_psql('postgres', 'SET enable_material = off; ' . sprintf($check, 'dist', 'm_probe', 'index')), $found,
	'... and so the index searches find the same matches');
is($same->('SELECT new_id, matched_id, distance FROM m_probe', 'SELECT new_id, matched_id, distance FROM m_here'),
	'0', '... the same records');
like($node->safe_psql('postgres', q{SELECT tfp.textfp_report('dist', 'm_dist', source_column => 'source')}),
	qr/<h3 id="cluster-[0-9]+">.*<\/html>/s, 'textfp_report over the shards');

$node->stop;
done_testing();
