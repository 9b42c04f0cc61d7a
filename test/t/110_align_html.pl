# textfp_compare_html() output is valid HTML: real reposts of the sample
# corpus (Chinese, English, traditional script) as pages and as fragments
# with context, hostile texts (markup, quotes, control characters,
# noncharacters, CR LF, titles with markup), more passages than colours,
# empty texts, and bytes that are not UTF-8 in an SQL_ASCII database; each
# parsed by html5lib in strict mode (the HTML5 parsing algorithm, any parse
# error fails) and checked by test/t/align_html.py: ids unique, links
# resolve, every passage of textfp_align marked in one colour on both sides
# around exactly its substr() text, the whole texts shown with context -1.
use strict;
use warnings;
use MIME::Base64;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $src = $ENV{TEXTFP_SRCDIR} or die "TEXTFP_SRCDIR is not set";
my $data = $ENV{TEXTFP_DATADIR} or die "TEXTFP_DATADIR is not set (run via test/run-tests.sh)";
my $py = -x '/usr/bin/python3' ? '/usr/bin/python3' : 'python3';
is(system("$py -c 'import html5lib' 2>/dev/null"), 0,
	'html5lib is installed (Debian package python3-html5lib)');

my $node = PostgreSQL::Test::Cluster->new('html');
$node->init;
$node->start;
$node->safe_psql('postgres', qq{
	CREATE EXTENSION textfp;
	CREATE TABLE docs (id int PRIMARY KEY, lang text, source text, title text, body text);
	COPY docs FROM '$data/corpus.tsv';
	CREATE TABLE truth (id int, original_id int, transformation text);
	COPY truth FROM '$data/corpus_truth.tsv';
	CREATE TABLE cases (id serial, a text, b text, context int4, page boolean,
	                    a_title text DEFAULT 'a', b_title text DEFAULT 'b');
	-- twelve real reposts: pages with the whole texts, fragments with context
	INSERT INTO cases (a, b, context, page, a_title, b_title)
	SELECT o.body, r.body, CASE WHEN n % 2 = 0 THEN -1 ELSE 30 END, n % 2 = 0,
	       'original ' || o.id, 'repost ' || r.id || ' (' || t.transformation || ')'
	FROM (SELECT *, row_number() OVER (ORDER BY id) AS n FROM truth) t
	JOIN docs o ON o.id = t.original_id JOIN docs r ON r.id = t.id
	WHERE t.n % 6 = 0 LIMIT 12;
	-- hostile text and titles
	INSERT INTO cases (a, b, context, page, a_title, b_title) VALUES
	('<script>alert("x")</script> & &amp; ' || E'\\r\\n' ||
	 'The committee reviewed the annual budget and approved the new spending plan for schools. ' ||
	 chr(1) || chr(127) || chr(133) || chr(65534) || E'\\t<b>bold</b>',
	 E'Intro\\r' || 'THE COMMITTEE reviewed the annual budget & approved the new spending plan for "schools". ]]> <!-- -->',
	 -1, true, '<title> & "a"', E'b\\nwith a line break'),
	('', '', -1, false, 'a', 'b'),
	('', '', 0, true, 'a', 'b');
	-- more passages than colours: twelve sentences of ten words in reverse order
	INSERT INTO cases (a, b, context, page)
	SELECT string_agg(s, E'\\n' ORDER BY i), string_agg(s, E'\\n' ORDER BY -i), c, c < 0
	FROM (SELECT i, initcap(regexp_replace(md5(i::text) || md5((-i)::text),
	                                       '(.{6})', '\\1 ', 'g')) || '.' AS s
	      FROM generate_series(1, 12) i) s, (VALUES (-1), (5)) v(c)
	GROUP BY c;
});
my $ncases = $node->safe_psql('postgres', 'SELECT count(*) FROM cases');
cmp_ok($ncases, '>=', 17, "$ncases cases");

my $dir = PostgreSQL::Test::Utils::tempdir;
open(my $man, '>', "$dir/manifest.jsonl") or die;
sub add_case
{
	my ($db, $id, $html_b64, $json) = @_;
	my $file = "$dir/$db-$id.html";
	open(my $fh, '>:raw', $file) or die;
	print $fh decode_base64($html_b64);
	close $fh;
	$json =~ s/^\{/{"file": "$file", /;
	print $man "$json\n";
}
foreach my $id (1 .. $ncases)
{
	my $html = $node->safe_psql('postgres', qq{
		SELECT encode(convert_to(textfp_compare_html(a, b, context => context, page => page,
		                                             a_title => a_title, b_title => b_title),
		                         'UTF8'), 'base64')
		FROM cases WHERE id = $id});
	my $json = $node->safe_psql('postgres', qq{
		SELECT jsonb_build_object('page', page, 'context', context, 'a', a, 'b', b,
		       'passages', (SELECT coalesce(jsonb_agg(p ORDER BY p.passage), '[]')
		                    FROM textfp_align(a, b) p))
		FROM cases WHERE id = $id});
	add_case('utf8', $id, $html, $json);
}

# SQL_ASCII: bytes that are not UTF-8 (only the HTML is checked)
$node->safe_psql('postgres',
	q{CREATE DATABASE ascii ENCODING 'SQL_ASCII' LC_COLLATE 'C' LC_CTYPE 'C' TEMPLATE template0});
$node->safe_psql('ascii', 'CREATE EXTENSION textfp');
my $html = $node->safe_psql('ascii', q{
	SELECT encode(convert_to(textfp_compare_html(
		E'\\377\\376 The committee reviewed the annual budget and approved the plan \\300\\257',
		E'the committee \\351t\\351 reviewed the annual budget and approved the plan', page => true),
		'UTF8'), 'base64')});
add_case('ascii', 1, $html, '{"page": true, "context": -1, "a": null, "b": null, "passages": []}');
close $man;

my $out = `$py $src/test/t/align_html.py $dir/manifest.jsonl 2>&1`;
my $status = $?;
print map { "# $_\n" } split /\n/, $out;
my @bad = grep { /^not ok/ } split /\n/, $out;
my @good = grep { /^ok/ } split /\n/, $out;
cmp_ok(scalar(@good), '>=', 7 * $ncases, scalar(@good) . ' checks of the HTML passed');
is(scalar(@bad), 0, 'no check of the HTML failed') or diag(join("\n", @bad));
is($status, 0, 'the checker exits 0');
$node->stop;
done_testing();
