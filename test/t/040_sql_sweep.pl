# Every SQL-callable function of textfp called with edge-case arguments
# (test/fuzz/sql_sweep.py: NULLs, empty and huge values, negative and
# non-finite numbers, multi-dimensional and non-1-based arrays, malformed
# literals, in random order; functions with `internal` arguments are not
# callable from SQL): the server survives every call, and every error has a
# proper SQLSTATE, never XX000 (internal error).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;

my $src = $ENV{TEXTFP_SRCDIR} or die "TEXTFP_SRCDIR is not set";
my $node = PostgreSQL::Test::Cluster->new('sweep');
$node->init;
$node->start;
$node->safe_psql('postgres', q{
CREATE EXTENSION textfp;
-- relations for the regclass arguments (sql_sweep.py's pool): a corpus
-- with an index, a match table, a view
CREATE TABLE sweep_t (id bigint PRIMARY KEY, body text, fp simhash64, sig minhash, dna int8[]);
INSERT INTO sweep_t SELECT i, '第' || i || ' text', simhash(('第' || i || ' text')::text),
    minhash(('第' || i || ' text')::text, 16), pinyin_dna(('第' || i || ' text')::text, 8)
FROM generate_series(1, 50) i;
CREATE INDEX ON sweep_t USING gin (fp);
SELECT textfp_create_match_table('sweep_m');
CREATE VIEW sweep_v AS SELECT * FROM sweep_t;
});

my $funcs = $node->safe_psql('postgres', q{
SELECT p.proname || '|' || pg_get_function_identity_arguments(p.oid)
FROM pg_proc p
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'textfp'
WHERE p.prokind = 'f' ORDER BY 1});
# argument names dropped: "simhash|body text, ngram integer" -> "simhash|text, integer"
$funcs =~ s/\|[a-z_]+ /|/g;
$funcs =~ s/, [a-z_]+ /, /g;
# values of the extension's types that have no pool in sql_sweep.py: made
# from texts by the extension's own functions (text first, returning the type)
my $makers = $node->safe_psql('postgres', q{
SELECT DISTINCT ON (t.oid) '!' || format_type(t.oid, NULL) || '|' || p.proname || '(%s'
	|| CASE WHEN p.pronargs - p.pronargdefaults = 2 THEN ', 16' ELSE '' END || ')'
FROM pg_proc p JOIN pg_type t ON t.oid = p.prorettype
JOIN pg_depend d ON d.classid = 'pg_proc'::regclass AND d.objid = p.oid
JOIN pg_extension e ON e.oid = d.refobjid AND e.extname = 'textfp'
WHERE p.prokind = 'f' AND NOT p.proretset AND p.proargtypes[0] = 'text'::regtype
  AND (p.pronargs - p.pronargdefaults = 1
       OR (p.pronargs - p.pronargdefaults = 2 AND p.proargtypes[1] = 'int4'::regtype))
ORDER BY t.oid, p.pronargs - p.pronargdefaults, p.proname});
my $dir = PostgreSQL::Test::Utils::tempdir;
open(my $fh, '>', "$dir/funcs.txt") or die;
print $fh "$funcs\n$makers\n";
close $fh;
my $uncalled = `python3 $src/test/fuzz/sql_sweep.py $dir/funcs.txt 1 1 2>&1 >/dev/null`;
is($uncalled, '', 'every function without an internal argument is called (types without values are named)');
my $nfuncs = () = $funcs =~ /\n/g;
cmp_ok($nfuncs, '>', 60, 'the extension\'s functions are listed');

foreach my $seed (1 .. 3)
{
	my $script = `python3 $src/test/fuzz/sql_sweep.py $dir/funcs.txt $seed 40`;
	die "sql_sweep.py failed" if $? != 0;
	my $calls = () = $script =~ /^SELECT/mg;
	my ($out, $err) = ('', '');
	$node->psql('postgres', $script,
		stdout => \$out, stderr => \$err, on_error_stop => 0);
	is($node->safe_psql('postgres', 'SELECT 1'), '1',
		"seed $seed: the server survives $calls calls");
	unlike($err, qr/server closed the connection|terminated abnormally/,
		"seed $seed: no backend crash");
	unlike($err, qr/ERROR:  XX000/, "seed $seed: no internal error");
	# the bad arguments were rejected as such
	like($err, qr/ERROR:  22023: /, "seed $seed: invalid parameters give 22023");
	like($err, qr/ERROR:  22P02: /, "seed $seed: malformed literals give 22P02");
}
my $log = slurp_file($node->logfile);
unlike($log, qr/was terminated by signal|PANIC/, 'no backend died (server log)');
$node->stop;
done_testing();
