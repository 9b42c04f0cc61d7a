# textfp_report()'s page renders in a browser: the sample corpus is checked
# for near-duplicates into a match table (two titles carry markup meant to
# break the page), the report is written to a file as psql writes it, and
# headless Chromium (Debian's chromium, installed by test/run-tests.sh;
# skipped with a note where it is missing) loads it:
# - the screenshot is a real rendering: a PNG of the window's size whose
#   pixels are mostly but not all background, in many colours, and the
#   histogram's bar colour is there;
# - the DOM Chromium builds holds the sections, the figures, the side-by-side
#   comparisons with their copied passages highlighted (textfp_compare_html)
#   and the hostile titles as text, and no script element;
# - the HTML parses (python3's html.parser) with every element closed in
#   order.
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use IPC::Run;

my $data = $ENV{TEXTFP_DATADIR} or die "TEXTFP_DATADIR is not set (run via test/run-tests.sh)";
my ($chromium) = grep { -x $_ } qw(/usr/bin/chromium /usr/bin/chromium-browser);
plan skip_all => 'chromium is not installed (Debian package chromium)' unless $chromium;

my $node = PostgreSQL::Test::Cluster->new('report');
$node->init;
$node->start;
$node->safe_psql('postgres', qq{
CREATE EXTENSION textfp;
CREATE TABLE articles (
    id int PRIMARY KEY, lang text, source text, title text, body text NOT NULL,
    fp simhash64 GENERATED ALWAYS AS (simhash(body)) STORED,
    sig minhash GENERATED ALWAYS AS (minhash(body, 128)) STORED);
COPY articles (id, lang, source, title, body) FROM '$data/corpus.tsv';
-- hostile titles on two reposts (ids of the answer key's pairs)
UPDATE articles SET title = '<script>document.title="pwned"</script> & <b>bold</b>' WHERE id = 36;
UPDATE articles SET title = '"><img src=x onerror=alert(1)> 版权所有' WHERE id = 98;
CREATE INDEX ON articles USING gin (fp);
CREATE INDEX ON articles USING gin (sig);
SELECT textfp_create_match_table('matches');
SELECT count(*) FROM textfp_check_arrivals(NULL, 'articles', 'matches', '{simhash,minhash}', radius => 8);
});
my $dir = PostgreSQL::Test::Utils::tempdir;
my $page = "$dir/report.html";
# as a user would write it: psql, unaligned, tuples only, to a file
$node->command_ok(
	[ 'psql', '-XAtq', '-d', $node->connstr('postgres'), '-o', $page,
	  '-c', q{SELECT textfp_report('articles', 'matches', source_column => 'source', clusters => 1000, heading => 'Sample corpus')} ],
	'the report is written to a file');
my $html = slurp_file($page);
cmp_ok(length($html), '>', 20000, 'the page has its content (' . length($html) . ' bytes)');

sub chromium
{
	my @args = @_;
	my ($out, $err) = ('', '');
	IPC::Run::run([ $chromium, '--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars',
					"--user-data-dir=$dir/profile", @args, "file://$page" ],
		'<', \undef, '>', \$out, '2>', \$err, IPC::Run::timeout(90));
	return ($out, $err);
}

# run a python3 script (given as text) with arguments; its output
sub python
{
	my ($script, @args) = @_;
	open(my $fh, '>', "$dir/script.py") or die;
	print $fh $script;
	close $fh;
	my ($out, $err) = ('', '');
	IPC::Run::run([ 'python3', "$dir/script.py", @args ], '>', \$out, '2>', \$err);
	diag($err) if $err;
	chomp $out;
	return $out;
}

# the screenshot
my ($w, $h) = (1100, 1100);
chromium("--screenshot=$dir/shot.png", "--window-size=$w,$h");
ok(-s "$dir/shot.png", 'chromium wrote a screenshot');
# decode the PNG (python3's zlib and struct: no image library): size,
# colours, share of white background, pixels of the histogram's colour
my $stats = python(<<'PY', "$dir/shot.png");
import sys, struct, zlib
png = open(sys.argv[1], 'rb').read()
assert png[:8] == b'\x89PNG\r\n\x1a\n', 'not a PNG'
pos, idat, ihdr = 8, b'', None
while pos < len(png):
    n, kind = struct.unpack('>I4s', png[pos:pos + 8])
    body = png[pos + 8:pos + 8 + n]
    if kind == b'IHDR': ihdr = struct.unpack('>IIBBBBB', body)
    if kind == b'IDAT': idat += body
    pos += 12 + n
width, height, depth, ctype = ihdr[:4]
assert depth == 8 and ctype in (2, 6), 'unexpected PNG format %d/%d' % (depth, ctype)
bpp = 3 if ctype == 2 else 4
raw, stride = zlib.decompress(idat), width * bpp
prev, colours, background, bar, i = bytes(stride), set(), 0, 0, 0
for y in range(height):
    f, line = raw[i], bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
    if f == 1:
        for x in range(bpp, stride): line[x] = (line[x] + line[x - bpp]) & 255
    elif f == 2:
        line = bytearray((a + b) & 255 for a, b in zip(line, prev))
    elif f in (3, 4):
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            if f == 3: line[x] = (line[x] + (a + b) // 2) & 255; continue
            c = prev[x - bpp] if x >= bpp else 0
            p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
            line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    prev = bytes(line)
    px = [prev[x:x + 3] for x in range(0, stride, bpp)]
    colours.update(px)
    background += px.count(b'\xff\xff\xff')
    bar += px.count(b'\x5b\x8f\xd1')
print(width, height, len(colours), round(background / (width * height), 3), bar)
PY
my ($pw, $ph, $ncolours, $white, $bar) = split / /, $stats;
is("$pw x $ph", "$w x $h", 'the screenshot has the window\'s size');
cmp_ok($ncolours, '>', 50, "it is a rendering, not a blank page: $ncolours colours");
cmp_ok($white, '>', 0.5, "mostly background ($white)");
cmp_ok($white, '<', 0.99, '... but not only');
cmp_ok($bar, '>', 500, "the histogram's bars are drawn ($bar pixels of their colour)");

# the DOM Chromium builds from it
my ($dom) = chromium('--dump-dom');
like($dom, qr/<h1>Sample corpus<\/h1>/, 'the DOM has the heading');
for my $id (qw(summary distances days sources copied clusters))
{
	like($dom, qr/<h2 id="$id">/, "the DOM has the section $id");
}
like($dom, qr/<b>453<\/b>rows in the corpus/, 'the summary figures');
like($dom, qr/<svg[^>]*>.*<rect /s, 'the SVG histogram');
my $marks = () = $dom =~ /<mark class="textfp-p/g;
like($dom, qr/<div class="textfp-compare".*<td class="textfp-text textfp-a">.*<td class="textfp-text textfp-b">/s,
	'side-by-side comparisons');
cmp_ok($marks, '>', 20, "with the copied passages highlighted on both sides ($marks)");
like($dom, qr/&lt;script&gt;document\.title="pwned"&lt;\/script&gt; &amp; &lt;b&gt;bold&lt;\/b&gt;/,
	'a title with a script element is text');
like($dom, qr/"&gt;&lt;img src=x onerror=alert\(1\)&gt; 版权所有/, 'a title with an attribute injection is text');
unlike($dom, qr/<(script|img)\b/i, 'no script or image element in the DOM');
like($dom, qr/<title>Sample corpus<\/title>/, 'the title is the heading (no script ran)');

# the HTML parses, every element closed in order
my $parse = python(<<'PY', $page);
import sys
from html.parser import HTMLParser
VOID = {'meta', 'br', 'img', 'line', 'rect', 'input', 'hr', 'link'}
class P(HTMLParser):
    def __init__(self):
        super().__init__(); self.stack, self.errors, self.n = [], [], 0
    def handle_starttag(self, tag, attrs):
        self.n += 1
        if tag not in VOID: self.stack.append(tag)
    def handle_startendtag(self, tag, attrs):
        self.n += 1
    def handle_endtag(self, tag):
        if tag in VOID: return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append('</%s> at %s, open: %s' % (tag, self.getpos(), self.stack[-3:]))
        else: self.stack.pop()
p = P(); p.feed(open(sys.argv[1], encoding='utf-8').read()); p.close()
print(p.n, len(p.errors), len(p.stack), '; '.join(p.errors[:3]))
PY
my ($elements, $misnested, $unclosed) = split / /, $parse;
cmp_ok($elements, '>', 500, "html.parser reads $elements elements");
is($misnested, 0, 'every end tag closes the element opened last') or diag($parse);
is($unclosed, 0, 'no element left open');

$node->stop;
done_testing();
