# Limits: each gives a correct answer or a clear error (a proper SQLSTATE,
# never XX000) within memory, never a crash, a hang or an uninterruptible
# loop.  In CI (seconds) and, with TEXTFP_LIMITS=full, at full size
# (test/harden/limits.sh; docs/hardening.md):
#   * a long text (64 MB; full: 1,000,000,000 bytes) through every text
#     function: the answer of a text repeating "abc def ghi " equals that of
#     a few repetitions (the same feature set, every weight times n), or a
#     clear error (54000: the passage fingerprint's 16,777,216 units); the
#     backend's peak memory is reported;
#   * arrays of a million entries (features, weights, shingle and DNA sets);
#     a %& query of 3,000 DNAs through the GIN index (exact), and of a
#     million (cancellable: GIN's scan start is O(n^2) in the query's size);
#   * k = 4096: signatures, an LSH index with 1,365 bands per row, k = 4097;
#   * N identical fingerprints (100,000; full: 1,000,000) in one index of
#     every operator class (found in the catalog): every probe answers as a
#     sequential scan;
#   * statement_timeout mid-flight in every index scan (a probe per class,
#     repeated in a nested loop), every batch function (simhash_pairs and
#     the clustering functions over the identical rows: N^2/2 pairs), the
#     aggregate, and every text function on a 128 MB text: 57014 within
#     seconds, the session goes on, the server never restarts.  A function
#     of the extension that is not IMMUTABLE and has no case here fails the
#     test (add one).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);

my $src = $ENV{TEXTFP_SRCDIR} or die "TEXTFP_SRCDIR is not set (run via test/run-tests.sh)";
my $full = ($ENV{TEXTFP_LIMITS} // '') eq 'full';
my $text_bytes = $full ? 1_000_000_000 : 64_000_000;
my $ident_rows = $full ? 1_000_000 : 100_000;

my $node = PostgreSQL::Test::Cluster->new('limits');
$node->init;
$node->append_conf('postgresql.conf', qq{
maintenance_work_mem = 512MB
work_mem = 64MB
max_parallel_workers_per_gather = 0
log_error_verbosity = verbose
});
$node->start;
my $started = $node->safe_psql('postgres', 'SELECT pg_postmaster_start_time()');
$node->safe_psql('postgres', 'CREATE EXTENSION textfp');

# one call in a fresh session: (stdout, stderr, seconds, peak kB of the backend)
sub call
{
	my ($sql, %opt) = @_;
	my $pre = $opt{timeout} ? "SET statement_timeout = '$opt{timeout}';\n" : '';
	my $t0 = time;
	my ($ret, $out, $err) = $node->psql('postgres',
		"\\set VERBOSITY verbose\n$pre$sql;\nRESET statement_timeout;\n"
		  . q{SELECT 'peak:' || (regexp_match(pg_read_file('/proc/self/status'), 'VmHWM:\s+(\d+)'))[1]},
		on_error_stop => 0);
	my $dt = time - $t0;
	my ($peak) = $out =~ /peak:(\d+)/;
	$out =~ s/\n?peak:\d+//;
	return ($out, $err, $dt, $peak // 0);
}

# ---- a long text
my $p = 'abc def ghi ';
my $n = int($text_bytes / length($p));
my $zh = '床前明月光疑是地上霜举头望明月低头思故乡 ';    # 61 bytes
my $nz = int($text_bytes / length(do { use bytes; $zh }));
my @long = (
	[ 'simhash', "simhash(repeat('$p', $n), center => false)::text",
	  "simhash(repeat('$p', 3), center => false)::text" ],
	[ 'minhash k=128', "minhash(repeat('$p', $n), 128)::text", "minhash(repeat('$p', 3), 128)::text" ],
	[ 'shingles', "shingles(repeat('$p', $n))::text", "shingles(repeat('$p', 3))::text" ],
	[ 'shingle_jaccard', "shingle_jaccard(repeat('$p', $n), '$p$p$p')::text", q{'1'} ],
	[ 'simhash_reference form', "simhash(repeat('$p', $n), (SELECT simhash_reference(x) FROM (VALUES ('abc def'), ('ghi jkl'), ('abc ghi')) v(x)))::text", undef ],
	[ 'pinyin', "md5(pinyin(repeat('$zh', $nz)))", "md5(repeat(pinyin('$zh') || ' ', $nz))" ],
	[ 'pinyin_initials', "md5(pinyin_initials(repeat('$zh', $nz)))", undef ],
	[ 'pinyin_dna', "cardinality(pinyin_dna(repeat('$zh', $nz))) > 0", q{true} ],
	# 16M words: a fingerprint; 21M Han characters: over the limit of
	# 16,777,216 units (54000)
	[ 'passage_fp', "passage_fp_count(passage_fp(repeat('$p', $n))) > 0", q{true} ],
	[ 'passage_fp, Chinese', "passage_fp_count(passage_fp(repeat('$zh', $nz))) > 0", q{true} ],
	# boilerplate lines: a text of the same line repeated has that line's
	# hash; stripping it leaves the other line, repeated
	[ 'textfp_line_hashes', "textfp_line_hashes(repeat(E'$p\\n', $n))::text",
	  "textfp_line_hashes(E'$p\\n$p')::text" ],
	# one line of 64 MB: the same normal form as the same letters in upper
	# case without spaces (the streaming hash over the whole line)
	[ 'textfp_line_hashes, one line', "textfp_line_hashes(repeat('$p', $n))::text",
	  "textfp_line_hashes(repeat(upper(replace('$p', ' ', '')), $n))::text" ],
	[ 'textfp_strip_boilerplate', "md5(textfp_strip_boilerplate(repeat(E'$p\\nkeep\\r\\n', $n / 2), "
	  . "textfp_boilerplate_of(textfp_line_hashes('$p'))))", "md5(repeat(E'keep\\r\\n', $n / 2))" ],
);
for my $c (@long)
{
	my ($name, $sql, $expect) = @$c;
	my ($out, $err, $dt, $peak) = call("SELECT $sql");
	my $mb = sprintf('%.0f MB', $peak / 1024);
	if ($err =~ /ERROR:  (\w{5}):/)
	{
		my $state = $1;
		unlike($state, qr/^XX|^58/, "long text ($text_bytes bytes), $name: a clear error ($state) in "
			. sprintf('%.1f s, peak %s', $dt, $mb)) or diag($err);
		like($err, qr/ERROR:  (54000|53200|22023): /, "long text, $name: the error says what limit")
			or diag($err);
	}
	else
	{
		if (defined $expect)
		{
			my $want = $node->safe_psql('postgres', "SELECT $expect");
			# pinyin's expected value: the repeated syllables (trailing space aside)
			$want = $node->safe_psql('postgres', "SELECT md5(rtrim(repeat(pinyin('$zh') || ' ', $nz)))")
				if $name eq 'pinyin' && $out ne $want;
			is($out, $want, "long text ($text_bytes bytes), $name: the right answer in "
				. sprintf('%.1f s, peak %s', $dt, $mb));
		}
		else
		{
			ok(length($out) > 0, "long text ($text_bytes bytes), $name: an answer in "
				. sprintf('%.1f s, peak %s', $dt, $mb)) or diag($err);
		}
	}
	cmp_ok($peak, '<', ($full ? 12 : 2) * 1024 * 1024, "long text, $name: backend peak $mb");
}

# ---- arrays of a million entries
my $M = 1_000_000;
my @arrays = (
	[ 'simhash of 1M equal features = of one', "simhash(array_fill('x'::text, ARRAY[$M])) = simhash(ARRAY['x'])", 't' ],
	[ 'simhash with 1M weights of 1 = without', "simhash(a, array_fill(1::float4, ARRAY[$M])) = simhash(a) FROM (SELECT array_agg(g::text) a FROM generate_series(1, $M) g) s", 't' ],
	[ 'shingle_jaccard of 1M-sets', "shingle_jaccard(ARRAY(SELECT g::int8 FROM generate_series(1, $M) g), ARRAY(SELECT g::int8 FROM generate_series($M / 2 + 1, $M * 3 / 2) g))::numeric(10,6)", '0.333333' ],
	[ 'pinyin_dna_similarity of 1M-sets', "pinyin_dna_similarity(ARRAY(SELECT g::int8 FROM generate_series(1, $M) g), ARRAY(SELECT g::int8 FROM generate_series($M / 2 + 1, $M * 3 / 2) g))::numeric(10,6)", '0.333333' ],
	[ 'pinyin_dna_shared of 1M-sets', "pinyin_dna_shared(ARRAY(SELECT g::int8 FROM generate_series(1, $M) g), ARRAY(SELECT g::int8 FROM generate_series($M / 2 + 1, $M * 3 / 2) g))", $M / 2 ],
);
for my $c (@arrays)
{
	my ($name, $sql, $want) = @$c;
	my ($out, $err, $dt) = call("SELECT $sql");
	is($out, $want, sprintf('%s (%.1f s)', $name, $dt)) or diag($err);
}
my (undef, $err_w) = call("SELECT simhash(array_fill('x'::text, ARRAY[$M]), array_fill(1::float4, ARRAY[$M - 1]))");
like($err_w, qr/ERROR:  22023: /, 'features and weights of different lengths: 22023');
$node->safe_psql('postgres', qq{
	CREATE TABLE dnas (id int, dna int8[]);
	INSERT INTO dnas SELECT i, ARRAY[i, i + 1, i * 1000]::int8[] FROM generate_series(1, 20000) i;
	CREATE INDEX ON dnas USING gin (dna pinyin_dna_ops);
	ANALYZE dnas;});
# a %& query through the GIN index: exact at 3,000 values; at a million,
# GIN's scan start is O(n^2) (one consistent call per key, each O(n)), so
# it is only shown to be cancellable (below)
$node->safe_psql('postgres', q{CREATE TABLE dq AS SELECT n, pinyin_dna_query(
	ARRAY(SELECT g::int8 * 3 FROM generate_series(1, n) g), 2) AS q FROM unnest(ARRAY[3000, 1000000]) n});
my $q10k = "SELECT count(*) FROM dnas WHERE dna %& (SELECT q FROM dq WHERE n = 3000)";
my ($idx) = call("SET enable_seqscan = off; $q10k");
my ($seq) = call("SET enable_indexscan = off; SET enable_bitmapscan = off; $q10k");
is($idx, $seq, "a %& query of 3,000 DNAs through the GIN index answers as a sequential scan ($idx rows)");

# ---- k = 4096
$node->safe_psql('postgres', q{
	-- 300 texts of 60 words, those with the same id % 30 sharing 50 of them
	CREATE TABLE big_k AS SELECT g AS id, minhash((SELECT string_agg(md5(CASE WHEN j <= 50
		THEN (g % 30 * 100 + j)::text ELSE (g * 100 + j)::text || 'x' END), ' ') FROM generate_series(1, 60) j), 4096) AS sig
	FROM generate_series(1, 300) g;
	CREATE TABLE big_k1 AS SELECT * FROM big_k;
	CREATE INDEX big_k_lsh ON big_k USING gin (sig);
	CREATE INDEX big_k1_lsh ON big_k1 USING gin (sig minhash_lsh_ops (bands = 1, rows = 4096));
	ANALYZE big_k; ANALYZE big_k1;});
is($node->safe_psql('postgres', 'SELECT min(minhash_k(sig))::text || max(minhash_k(sig))::text FROM big_k'), '40964096',
	'k = 4096 signatures');
my ($e4097) = (call(q{SELECT minhash('abc', 4097)}))[1];
like($e4097, qr/ERROR:  22023: /, 'k = 4097: 22023');
# exact above the bound (k - bands + 1) / k: 0.667 for 1,365 bands of 3, 1 for one band of 4096
for my $c ([ 'big_k', '1,365 bands of 3 rows', 0.7 ], [ 'big_k1', 'one band of 4,096 rows', 1 ])
{
	my ($tab, $what, $t) = @$c;
	my $q = "SET textfp.minhash_threshold = $t; SELECT string_agg(id::text, ',' ORDER BY id) FROM $tab "
	  . "WHERE sig % (SELECT sig FROM $tab WHERE id = 7)";
	my $i = $node->safe_psql('postgres', "SET enable_seqscan = off; $q");
	is($i, $node->safe_psql('postgres', "SET enable_indexscan = off; SET enable_bitmapscan = off; $q"),
		"k = 4096, LSH index of $what: % at threshold $t answers as a sequential scan ($i)");
}

# ---- N identical fingerprints in one index of every class
$node->safe_psql('postgres', "\\i $src/test/lib/probes.sql");
$node->safe_psql('postgres', qq{
	CREATE TABLE ident (id int, body text);
	INSERT INTO ident SELECT g, '据新华社北京电，国家统计局今天发布数据 the same text' FROM generate_series(1, $ident_rows) g;
	DO \$\$ DECLARE c record; BEGIN
	FOR c IN SELECT * FROM tfp_probe.columns() LOOP
		EXECUTE format('ALTER TABLE ident ADD COLUMN %I %s', c.col, c.typ);
		EXECUTE format('UPDATE ident SET %I = (SELECT %s FROM (SELECT body FROM ident LIMIT 1) s)', c.col, format(c.expr, 'body'));
	END LOOP; END \$\$;
	VACUUM FULL ident;});
my @classes = split /\n/, $node->safe_psql('postgres',
	q{SELECT DISTINCT index_name || '|' || index_ddl FROM tfp_probe.probes('ident') WHERE index_ddl IS NOT NULL ORDER BY 1});
for my $c (@classes)
{
	my ($name, $ddl) = split /\|/, $c, 2;
	my $t0 = time;
	my ($ret, $out, $err) = $node->psql('postgres', $ddl);
	is($ret, 0, sprintf('%d identical rows: %s built in %.1f s', $ident_rows, $name, time - $t0)) or diag($err);
}
$node->safe_psql('postgres', 'ANALYZE ident');
my @probes = split /\n/, $node->safe_psql('postgres', q{
	SELECT DISTINCT ON (index_name) index_name || '|' || tfp_probe.query('ident', probe, 1)
	FROM tfp_probe.probes('ident') WHERE probe IS NOT NULL ORDER BY index_name, probe});
for my $pr (@probes)
{
	my ($name, $q) = split /\|/, $pr, 2;
	my $i = $node->safe_psql('postgres', "SET enable_seqscan = off; $q");
	my $s = $node->safe_psql('postgres', "SET enable_indexscan = off; SET enable_bitmapscan = off; $q");
	is($i, $s, "$ident_rows identical rows, $name: the index answers as a sequential scan ("
		. substr($i, 0, 24) . ')');
}

# ---- cancelled mid-flight
my @cancel;
# every index scan: one probe per class, repeated in a nested loop
for my $pr (split /\n/, $node->safe_psql('postgres', q{
	SELECT DISTINCT ON (index_name) index_name || '|' || probe
	FROM tfp_probe.probes('ident') WHERE probe IS NOT NULL ORDER BY index_name, probe}))
{
	my ($name, $probe) = split /\|/, $pr, 2;
	$probe =~ s/\$ID/1/g;
	# (g > 0: the scan is redone for every g)
	my $q = $probe =~ /^ORDER BY/
	  ? "SELECT count(*) FROM generate_series(1, 100000000) g, LATERAL (SELECT id FROM ident WHERE g > 0 $probe) x"
	  : "SELECT count(*) FROM generate_series(1, 100000000) g, LATERAL (SELECT id FROM ident WHERE $probe AND g > 0 LIMIT 100) x";
	push @cancel, [ "index scan $name", "SET enable_seqscan = off; $q" ];
}
my $fpcol = $node->safe_psql('postgres', q{SELECT col FROM tfp_probe.columns() WHERE typ = 'simhash64'::regtype});
my $big = int(128_000_000 / length($p));
my $bigz = int(128_000_000 / 61);
$node->safe_psql('postgres', qq{
	CREATE TABLE bigtext (t text, z text);
	ALTER TABLE bigtext ALTER t SET STORAGE EXTERNAL, ALTER z SET STORAGE EXTERNAL;
	INSERT INTO bigtext VALUES (repeat('$p', $big), repeat('$zh', $bigz));});
$node->safe_psql('postgres', qq{
	SELECT textfp_create_match_table('lim_matches');
	CREATE TABLE lim_trig (id bigint, $fpcol simhash64, duplicate_of bigint);
	INSERT INTO lim_trig SELECT id, $fpcol FROM ident;
	CREATE INDEX ON lim_trig USING gin ($fpcol);
	CREATE TRIGGER lim_dup BEFORE INSERT ON lim_trig FOR EACH ROW EXECUTE FUNCTION textfp_duplicate_of('$fpcol', '0');
	CREATE VIEW lim_bigm AS SELECT g AS new_id, g / 2 AS matched_id, 'simhash'::text AS method, 0 AS distance,
		1.0::float8 AS similarity, now() - g * interval '1 s' AS matched_at FROM generate_series(1::bigint, 100000000) g;
	CREATE VIEW lim_bigc AS SELECT g AS id, 'site' || g % 10 AS source FROM generate_series(1::bigint, 100000000) g;
	CREATE VIEW lim_bigdocs AS SELECT g AS id, 'site' || g % 10 AS site,
		'Article ' || g || E'\nThe same footer of every page' AS body FROM generate_series(1::bigint, 100000000) g;});
push @cancel,
	[ 'simhash_pairs, table form', "SELECT count(*) FROM simhash_pairs('ident', 'id', '$fpcol', 0)" ],
	[ 'simhash_pairs, query form', "SELECT count(*) FROM simhash_pairs('SELECT id, $fpcol FROM ident', 3)" ],
	[ 'simhash_clusters, table form', "SELECT count(*) FROM simhash_clusters('ident', 'id', '$fpcol', 0)" ],
	[ 'simhash_clusters, query form', "SELECT count(*) FROM simhash_clusters('SELECT id, $fpcol FROM ident', 0)" ],
	[ 'textfp_clusters', "SELECT count(*) FROM textfp_clusters('SELECT a.id, b.id FROM ident a, ident b WHERE a.id < b.id')" ],
	[ 'simhash_reference aggregate', "SELECT simhash_reference(t) FROM bigtext, generate_series(1, 1000)" ],
	[ 'simhash_reference aggregate, options', "SELECT simhash_reference(t, 2, 1, true, true, true) FROM bigtext, generate_series(1, 1000)" ],
	[ 'GIN scan start of a %& query of 1M DNAs', "SET enable_seqscan = off; SELECT count(*) FROM dnas WHERE dna %& (SELECT q FROM dq WHERE n = 1000000)" ],
	[ 'minhash_similar (%) in a loop', "SELECT count(*) FROM generate_series(1, 100000) g, LATERAL (SELECT 1 FROM big_k a, big_k b WHERE a.sig % b.sig AND g > 0 LIMIT 1000000) x" ],
	# the dedup system over the identical rows: the new arrivals' index
	# searches (N^2 matches), the trigger (each insert probes N rows), and
	# the reports over a match table of 100M records (a view)
	[ 'textfp_check_arrivals', "SELECT * FROM textfp_check_arrivals('SELECT id, $fpcol FROM ident', 'ident', 'lim_matches', simhash_column => '$fpcol', radius => 0, simhash_search => 'index')" ],
	[ 'textfp_verify_pairs', "SELECT count(*) FROM textfp_verify_pairs('SELECT g AS id_a, g + 1 AS id_b FROM generate_series(1::bigint, 100000000) g', 'lim_bigdocs')" ],
	# the packing of a shard (the distributed all-pairs search), a table read
	# once for every row of it
	[ 'textfp_citus_pairs_pack', "SELECT count(*) FROM ident i, LATERAL textfp_citus_pairs_pack('ident'::regclass, 'id', '$fpcol', 3, 5, ARRAY[1 + (i.id % 2)::int4, 3]) p" ],
	[ 'textfp_duplicate_of (trigger)', "INSERT INTO lim_trig SELECT id + $ident_rows, $fpcol FROM ident" ],
	[ 'textfp_match_clusters', "SELECT count(*) FROM textfp_match_clusters('lim_bigm')" ],
	[ 'textfp_cluster_sizes', "SELECT count(*) FROM textfp_cluster_sizes('lim_bigm')" ],
	[ 'textfp_most_copied', "SELECT count(*) FROM textfp_most_copied('lim_bigm')" ],
	[ 'textfp_duplicates_by_day', "SELECT count(*) FROM textfp_duplicates_by_day('lim_bigm')" ],
	[ 'textfp_duplicates_by_source', "SELECT count(*) FROM textfp_duplicates_by_source('lim_bigm', 'lim_bigc', 'source')" ],
	[ 'textfp_report', "SELECT length(textfp_report('lim_bigc', 'lim_bigm', title_column => NULL, body_column => NULL))" ],
	# the boilerplate lexicon of 100M rows (a view), with and without sites
	[ 'textfp_build_boilerplate', "SELECT textfp_boilerplate_size(textfp_build_boilerplate('lim_bigdocs', 'body'))" ],
	[ 'textfp_build_boilerplate, sites', "SELECT textfp_boilerplate_size(textfp_build_boilerplate('lim_bigdocs', 'body', 'site', min_site_docs => 2))" ],
	# passages: a fingerprint of 60 MB again and again; source queries and
	# the corpus-wide repeated spans over the identical rows (every row a
	# source, every span repeated)
	[ 'passage_fp, 60 MB', "SELECT count(passage_fp(left(t, 60000000))) FROM bigtext, generate_series(1, 1000)" ],
	# (the table read again and again: one read of the 3-million-character
	# query's fingerprint took most of a call, and since passage_fp's
	# AVX-512 kernels the call could end before the timeout)
	[ 'textfp_sources, reading the table', "SELECT count(*) FROM bigtext, generate_series(1, 100000) g, LATERAL textfp_sources(left(bigtext.z, 3000 + g % 2), 'ident', use_index => false, max_candidates => 100000) s" ],
	[ 'textfp_sources_df, reading the table', "SELECT count(textfp_sources_df(left(z, 3000 + g % 2), 'ident', 'id', 'body', NULL, false)) FROM bigtext, generate_series(1, 100000) g" ],
	# (again and again: one pass over the identical rows can end before the
	# timeout)
	[ 'textfp_repeated_spans', "SELECT count(*) FROM generate_series(1, 1000) g, LATERAL textfp_repeated_spans('ident', min_units => 2 + 0 * g) x" ],
	[ 'textfp_remove_repeated', "SELECT count(*) FROM generate_series(1, 1000) g, LATERAL textfp_remove_repeated('ident', min_units => 2 + 0 * g) x" ],
	# stripping 128 MB (one line), again and again
	[ '128 MB text: textfp_strip_boilerplate', "SELECT count(textfp_strip_boilerplate(t, 'v1 lines 0000000000000001')) FROM bigtext, generate_series(1, 1000)" ],
	# 16 MB of short lines against the same with a footer line: both models
	# of textfp_match, the lines and edges of model 2, its features
	[ 'textfp_match model 1', "SELECT (textfp_match(s, s || E'\\nfooter', model => 1)).verdict FROM (SELECT replace(left(t, 16000000), 'ghi ', E'ghi\\n') s FROM bigtext) x" ],
	[ 'textfp_match model 2', "SELECT (textfp_match(s, s || E'\\nfooter')).verdict FROM (SELECT replace(left(t, 16000000), 'ghi ', E'ghi\\n') s FROM bigtext) x" ],
	[ 'textfp_match_features', "SELECT textfp_match_features(E'head\\n' || s, E'head\\n' || z) FROM (SELECT replace(left(t, 16000000), 'ghi ', E'ghi\\n') s, left(z, 16000000) z FROM bigtext) x" ],
	# (each again and again: one 128 MB fingerprint can take less than the
	# timeout on a fast machine)
	map { [ "128 MB text: $_->[0]", "SELECT count($_->[1]) FROM bigtext, generate_series(1, 1000)" ] } (
		[ 'simhash', 'simhash(t)' ], [ 'minhash k=4096', 'minhash(t, 4096)' ], [ 'shingles', 'shingles(t)' ],
		[ 'shingle_jaccard', 'shingle_jaccard(t, t)' ], [ 'pinyin', 'md5(pinyin(z))' ],
		[ 'pinyin_initials', 'md5(pinyin_initials(z))' ], [ 'pinyin_dna', 'pinyin_dna(z)' ],
		[ 'simhash with a reference', "simhash(t, (SELECT simhash_reference(x) FROM (VALUES ('abc def'), ('ghi jkl')) v(x)))" ]);
for my $c (@cancel)
{
	my ($name, $sql) = @$c;
	my ($out, $err, $dt) = call($sql, timeout => '300ms');
	like($err, qr/57014: canceling statement due to statement timeout/, "cancelled: $name")
		or diag(substr($err, 0, 500));
	cmp_ok($dt, '<', $full ? 30 : 15, sprintf('cancelled: %s, within %.1f s', $name, $dt));
}
# every function that is not IMMUTABLE (the batch functions read tables or
# run queries) has a case above
my %covered = map { $_ => 1 } qw(textfp_sources textfp_sources_df textfp_repeated_spans textfp_remove_repeated
	simhash_pairs simhash_clusters textfp_clusters minhash_similar
	simhash_ball_restrict simhash_ball_joinsel textfp_check_arrivals textfp_duplicate_of
	textfp_match_clusters textfp_cluster_sizes textfp_most_copied textfp_duplicates_by_day
	textfp_duplicates_by_source textfp_report textfp_build_boilerplate textfp_verify_pairs
	textfp_citus_pairs_pack);
# a look-up in the list of the relations seen by this call site (at most a
# statement's shards)
$covered{textfp_citus_pairs_first} = 1;
# constant work, nothing to cancel: one CREATE TABLE and one CREATE INDEX
$covered{textfp_create_match_table} = 1;
# an index access method's handler (internal argument, not callable from SQL);
# the hamming index's long loops (build, full scans, VACUUM) check for interrupts
$covered{hamming_handler} = 1;
# reads one page (the metapage)
$covered{hamming_index_stats} = 1;
# the passage index's handler; its statistics read the metapage and count
# the pending pages (at most 262,144 entries)
$covered{$_} = 1 for qw(passage_handler passage_index_stats);
# textfp_sources with the df of the query's seeds given (the C function of
# textfp_sources, its case above), and the Citus merge that calls it and
# textfp_sources_df on the shards (test/t/143_citus_sources.pl)
$covered{$_} = 1 for qw(textfp_sources_shard textfp_citus_sources);
# one look-up in Citus's metadata (src/pg/citus.c, src/sql/77_citus.sql)
$covered{$_} = 1 for qw(textfp_citus_table textfp_refuse_citus textfp_citus_arrivals_mode);
# the Citus steps of textfp_check_arrivals and textfp_verify_pairs (src/sql/79_citus_arrivals.sql):
# their statements run within the cases of their callers above
$covered{$_} = 1 for qw(textfp_citus_arrivals_step textfp_verify_pairs_by);
my @missing = grep { !$covered{$_} } split /\n/, $node->safe_psql('postgres', q{
	SELECT DISTINCT p.proname FROM pg_proc p
	JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
	JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'textfp'
	WHERE p.provolatile <> 'i' AND p.prokind = 'f' ORDER BY 1});
is("@missing", '', 'every batch (non-immutable) function has a cancellation case here');

is($node->safe_psql('postgres', 'SELECT pg_postmaster_start_time()'), $started, 'the server never restarted');
my $log = slurp_file($node->logfile);
unlike($log, qr/ERROR:  XX\d\d\d/, 'no internal error (XX000) in the server log');
$node->stop;
done_testing();
