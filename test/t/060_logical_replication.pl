# Fingerprints survive logical replication to another cluster, including one
# whose database has another encoding (EUC_CN) and another locale: generated
# fingerprint columns, which logical replication does not send, are computed
# again on the subscriber from the re-encoded text and equal the publisher's;
# fingerprints stored as plain values arrive unchanged (in binary, by the
# types' send/receive functions, where PostgreSQL supports it: 14 and later);
# a table with REPLICA IDENTITY FULL whose rows are fingerprints is updated
# and deleted on the subscriber (the apply worker finds rows by the types'
# equality); and the subscriber's indexes, maintained by the apply worker,
# answer like a sequential scan.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $data = $ENV{TEXTFP_DATADIR} or die "TEXTFP_DATADIR is not set (run via test/run-tests.sh)";

my $pub = PostgreSQL::Test::Cluster->new('publisher');
$pub->init(allows_streaming => 'logical');
$pub->start;
my $sub = PostgreSQL::Test::Cluster->new('subscriber');
$sub->init;
$sub->start;
# (PostgreSQL 13's test modules have no pg_version)
my $version = $sub->safe_psql('postgres', 'SHOW server_version_num');
my $binary = $version >= 140000;
# psql output in UTF8 from every database, whatever its encoding; set only
# now, after the servers started: with it in the subscriber server's
# environment, PostgreSQL 15's initial copy into the EUC_CN database fails
# ("invalid byte sequence for encoding "UTF8"")
$ENV{PGCLIENTENCODING} = 'UTF8';

# the same tables on both sides; generated columns are computed where the
# row is stored, the last three columns are values computed on the publisher
my $columns = q{
	id int PRIMARY KEY, lang text, source text, title text, body text,
	fp  simhash64 GENERATED ALWAYS AS (simhash(body)) STORED,
	sig minhash GENERATED ALWAYS AS (minhash(body, 64)) STORED,
	dna int8[]  GENERATED ALWAYS AS (pinyin_dna(body)) STORED,
	ini text    GENERATED ALWAYS AS (pinyin_initials(left(body, 200))) STORED,
	fp3 simhash64, sig32 minhash, dna16 int8[]};
my $tables = qq{
	CREATE EXTENSION textfp;
	CREATE TABLE articles ($columns);
	CREATE TABLE articles_gb ($columns);
	CREATE TABLE notes (fp simhash64, sig minhash, dna int8[], label text);
	ALTER TABLE notes REPLICA IDENTITY FULL;
};
my $plain_values = q{fp3 = simhash(body, ngram => 3, shingle => 2), sig32 = minhash(body, 32),
	dna16 = pinyin_dna(body, 16)};

$pub->safe_psql('postgres',
	q{CREATE DATABASE pub ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0});
$pub->safe_psql('pub', qq{
	$tables
	CREATE FUNCTION representable(t text, enc name) RETURNS boolean
	LANGUAGE plpgsql IMMUTABLE STRICT AS \$\$
	BEGIN
	  RETURN convert_from(convert_to(t, enc), enc) = t;
	EXCEPTION WHEN untranslatable_character OR character_not_in_repertoire THEN
	  RETURN false;
	END \$\$;
	COPY articles (id, lang, source, title, body) FROM '$data/corpus.tsv' WITH (ENCODING 'UTF8');
	UPDATE articles SET $plain_values;
	-- the rows whose text EUC_CN can hold
	INSERT INTO articles_gb (id, lang, source, title, body, fp3, sig32, dna16)
	SELECT id, lang, source, title, body, fp3, sig32, dna16 FROM articles
	WHERE representable(concat_ws(' ', lang, source, title, body), 'EUC_CN');
	-- repeated rows too: with REPLICA IDENTITY FULL each change finds one
	INSERT INTO notes SELECT fp, sig, dna, 'n' || id FROM articles WHERE id % 3 = 0;
	INSERT INTO notes SELECT fp, sig, dna, 'n' || id FROM articles WHERE id % 21 = 0;
	CREATE PUBLICATION p_all FOR TABLE articles, notes;
	CREATE PUBLICATION p_gb FOR TABLE articles_gb;
});
my ($n_all, $n_gb, $n_gb_zh) = split /\|/, $pub->safe_psql('pub', q{
	SELECT (SELECT count(*) FROM articles), count(*), count(*) FILTER (WHERE lang = 'zh')
	FROM articles_gb});
cmp_ok($n_gb_zh, '>=', 150,
	"publisher loaded: $n_all articles, $n_gb of them representable in EUC_CN ($n_gb_zh Chinese)");

$sub->safe_psql('postgres', q{
	CREATE DATABASE sub_utf8 ENCODING 'UTF8' LC_COLLATE 'C.UTF-8' LC_CTYPE 'C.UTF-8' TEMPLATE template0;
	CREATE DATABASE sub_euc ENCODING 'EUC_CN' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0});
for my $db ('sub_utf8', 'sub_euc')
{
	$sub->safe_psql($db, qq{
		$tables
		CREATE INDEX a_fp_gin   ON articles USING gin (fp);
		CREATE INDEX a_fp_gist  ON articles USING gist (fp simhash64_gist_ops);
		CREATE INDEX a_sig_gin  ON articles USING gin (sig);
		CREATE INDEX a_sig_hash ON articles USING hash (sig);
		CREATE INDEX a_dna_gin  ON articles USING gin (dna pinyin_dna_ops);
		CREATE INDEX g_fp_gin   ON articles_gb USING gin (fp);
		CREATE INDEX g_sig_gin  ON articles_gb USING gin (sig);
		CREATE INDEX g_dna_gin  ON articles_gb USING gin (dna pinyin_dna_ops);
		-- PostgreSQL 16 and later find REPLICA IDENTITY FULL rows through it
		CREATE INDEX n_sig      ON notes (sig);
	});
}
is($sub->safe_psql('sub_euc',
	q{SELECT pg_encoding_to_char(encoding) FROM pg_database WHERE datname = current_database()}),
	'EUC_CN', 'the second subscriber database is EUC_CN');

my $pubconn = $pub->connstr . ' dbname=pub';
$sub->safe_psql('sub_utf8', "CREATE SUBSCRIPTION s_utf8 CONNECTION '$pubconn' PUBLICATION p_all"
	. ($binary ? ' WITH (binary = true)' : ''));
$sub->safe_psql('sub_euc', "CREATE SUBSCRIPTION s_euc CONNECTION '$pubconn' PUBLICATION p_gb");

sub wait_synced
{
	for my $s ([ 'sub_utf8', 's_utf8' ], [ 'sub_euc', 's_euc' ])
	{
		my ($db, $name) = @$s;
		$sub->poll_query_until($db, q{
			SELECT count(*) = 0 FROM pg_subscription_rel WHERE srsubstate NOT IN ('r', 's')})
		  or die "initial sync of $name did not finish";
		$pub->wait_for_catchup($name);
	}
}

# digests of the UTF8 text of every column, so that databases of different
# encodings can be compared
sub digest
{
	my ($node, $db, $table) = @_;
	my $cols = $table eq 'notes' ? 'fp, sig, dna, label'
	  : 'id, lang, source, title, body, fp, sig, dna, ini, fp3, sig32, dna16';
	return $node->safe_psql($db, qq{
		SELECT count(*) || ' ' || md5(convert_to(coalesce(string_agg(concat_ws('|', $cols), ','
		       ORDER BY $cols), ''), 'UTF8'))
		FROM $table});
}

sub compare_all
{
	my ($when) = @_;
	for my $c ([ 'sub_utf8', 'articles' ], [ 'sub_utf8', 'notes' ], [ 'sub_euc', 'articles_gb' ])
	{
		my ($db, $table) = @$c;
		is(digest($sub, $db, $table), digest($pub, 'pub', $table),
			"$when: $db.$table equals the publisher's, every fingerprint included");
	}
	is($sub->safe_psql('sub_euc', q{
		SELECT count(*) FROM articles_gb
		WHERE fp3 IS DISTINCT FROM simhash(body, ngram => 3, shingle => 2)
		   OR sig32 IS DISTINCT FROM minhash(body, 32)
		   OR dna16 IS DISTINCT FROM pinyin_dna(body, 16)}),
		'0', "$when: in EUC_CN, the publisher's plain fingerprints equal fresh ones");
}

wait_synced();
# (binary subscriptions exist from PostgreSQL 14 on)
if ($binary)
{
	is($sub->safe_psql('sub_utf8', q{SELECT subbinary FROM pg_subscription WHERE subname = 's_utf8'}),
		't', 'the UTF8 subscription transfers values in binary');
}
compare_all('initial copy');
# the text really was re-encoded: GB 2312 takes 2 bytes per Han character, UTF-8 3
my $bytes = q{SELECT sum(octet_length(body)) FROM articles_gb WHERE lang = 'zh'};
cmp_ok($sub->safe_psql('sub_euc', $bytes), '<', $pub->safe_psql('pub', $bytes),
	'the EUC_CN copy holds the Chinese text in fewer bytes');

# changes streamed by the apply workers: reposts inserted, bodies edited,
# rows deleted; rows of the REPLICA IDENTITY FULL table found by value
$pub->safe_psql('pub', qq{
	INSERT INTO articles (id, lang, source, title, body)
	SELECT 100000 + id, lang, source, title, replace(body, '的', '地') || ' 转载'
	FROM articles WHERE id % 5 = 0;
	INSERT INTO articles_gb (id, lang, source, title, body)
	SELECT 100000 + id, lang, source, title, replace(body, '的', '地') || ' 转载'
	FROM articles_gb WHERE id % 5 = 0;
	UPDATE articles SET $plain_values WHERE id >= 100000;
	UPDATE articles_gb SET $plain_values WHERE id >= 100000;
	UPDATE articles SET body = body || ' 更新' WHERE id % 7 = 0;
	UPDATE articles SET $plain_values WHERE id % 7 = 0;
	UPDATE articles_gb SET body = '（修订）' || body WHERE id % 7 = 0;
	UPDATE articles_gb SET $plain_values WHERE id % 7 = 0;
	DELETE FROM articles WHERE id % 11 = 0;
	DELETE FROM articles_gb WHERE id % 11 = 0;
	UPDATE notes SET label = label || ' edited' WHERE label LIKE '%7';
	UPDATE notes SET fp = simhash(label), sig = minhash(label, 16), dna = '{}' WHERE label LIKE '%5';
	UPDATE notes SET sig = minhash('shared'::text, 8) WHERE label LIKE '%1';
	DELETE FROM notes WHERE label LIKE '%2' OR label LIKE '%0';
});
wait_synced();
compare_all('after changes');
is($sub->safe_psql('sub_utf8', q{
	SELECT count(*) FILTER (WHERE label LIKE '% edited') > 0
	   AND count(*) FILTER (WHERE sig = minhash('shared'::text, 8)) > 0
	   AND count(*) FILTER (WHERE label LIKE '%0') = 0 FROM notes}),
	't', 'the REPLICA IDENTITY FULL changes arrived');
# (the apply worker looks rows up by index from PostgreSQL 16 on)
if ($version >= 160000)
{
	ok($sub->poll_query_until('sub_utf8',
		q{SELECT idx_scan > 0 FROM pg_stat_user_indexes WHERE indexrelname = 'n_sig'}),
		'the apply worker found REPLICA IDENTITY FULL rows through the minhash btree index');
}

# the subscribers' indexes, maintained by the apply workers, against
# sequential scans; probes are articles with a repost (the DNA query only
# Chinese ones: others have no DNA)
my @queries = (
	[ 'gin radius',  'both',     q{simhash_dist(fp, (SELECT fp FROM %s WHERE id = %d)) <= 6} ],
	[ 'minhash lsh', 'both',     q{sig %% (SELECT sig FROM %s WHERE id = %d)} ],
	[ 'minhash =',   'articles', q{sig = (SELECT sig FROM %s WHERE id = %d)} ],
	[ 'pinyin dna',  'both',     q{dna %%& pinyin_dna_query((SELECT dna FROM %s WHERE id = %d), 2)}, 'zh' ],
);
my ($same, $total) = (0, 0);
my @bad;
for my $c ([ 'sub_utf8', 'articles' ], [ 'sub_euc', 'articles_gb' ])
{
	my ($db, $table) = @$c;
	my %probes;
	for my $lang ('zh', 'en')
	{
		$probes{$lang} = [ split /\n/, $sub->safe_psql($db, qq{
			SELECT id FROM $table WHERE id % 5 = 0 AND id % 11 <> 0 AND id < 100000
			AND lang = '$lang' ORDER BY hashint4(id) LIMIT 6}) ];
	}
	for my $q (@queries)
	{
		my ($name, $only, $cond, $lang) = @$q;
		next unless $only eq 'both' || $only eq $table;
		my @ids = $lang ? @{ $probes{$lang} } : (@{ $probes{zh} }, @{ $probes{en} });
		my ($seq, $idx) = ('', '');
		for my $id (@ids)
		{
			my $sql = sprintf(qq{SELECT coalesce(string_agg(id::text, ',' ORDER BY id), '')
				FROM $table WHERE $cond;}, $table, $id);
			$seq .= "SET enable_indexscan = off; SET enable_bitmapscan = off; $sql RESET ALL;\n";
			$idx .= "SET enable_seqscan = off; $sql RESET ALL;\n";
		}
		my @s = split /\n/, $sub->safe_psql($db, $seq), -1;
		my @i = split /\n/, $sub->safe_psql($db, $idx), -1;
		for my $k (0 .. $#ids)
		{
			$total++;
			if (defined $s[$k] && defined $i[$k] && $s[$k] eq $i[$k] && $s[$k] ne '') { $same++ }
			else { push @bad, "$db $name id $ids[$k]" }
		}
	}
}
is($same, $total, "$total index queries on the subscribers answer like a sequential scan")
	or diag("differ or empty: @bad");
# nearest neighbours through the GiST index, against a sort
my $knn = q{SELECT string_agg(d::text, ',') FROM (
	SELECT fp <-> (SELECT fp FROM articles WHERE id = 77) AS d FROM articles ORDER BY 1 LIMIT 15) t};
is($sub->safe_psql('sub_utf8', "SET enable_seqscan = off; $knn"),
	$sub->safe_psql('sub_utf8', "SET enable_indexscan = off; SET enable_bitmapscan = off; $knn"),
	'GiST nearest neighbours on the subscriber equal a sort');
like($sub->safe_psql('sub_utf8', "SET enable_seqscan = off; EXPLAIN (COSTS OFF) $knn"),
	qr/Index (Only )?Scan using a_fp_gist /, 'found by the GiST index');
like($sub->safe_psql('sub_euc', q{SET enable_seqscan = off; EXPLAIN (COSTS OFF)
	SELECT id FROM articles_gb WHERE dna %& pinyin_dna_query('{1,2}', 1)}),
	qr/g_dna_gin/, 'the EUC_CN subscriber answers DNA queries by its GIN index');

$sub->stop;
$pub->stop;
done_testing();
