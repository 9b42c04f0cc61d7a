# Random SQL, short: sqlsmith (seed 1, 1,000 queries: about 20 s on an idle
# machine; TEXTFP_SQLSMITH_SECONDS instead runs it for that long) against a
# server with textfp
# preloaded and test/harden/sqlsmith_setup.sql's tables (a column of every
# fingerprint kind, one index per operator class); the server survives, and
# test/harden/server_log_report.py finds no crash and no internal error
# (XX000) located in textfp's C files.  The long run is
# test/harden/sqlsmith.sh (docs/hardening.md).  Skipped where the Debian
# package sqlsmith is not installed (the harness installs it where it can).
use strict;
use warnings;
use PostgreSQL::Test::Cluster;
use PostgreSQL::Test::Utils;
use Test::More;
use Time::HiRes qw(time);

my $src = $ENV{TEXTFP_SRCDIR} or die "TEXTFP_SRCDIR is not set (run via test/run-tests.sh)";
# a number of queries, not seconds: on a loaded machine sqlsmith may spend
# most of a short time box reading the catalogs (a ceiling of 600 s stays)
my $seconds = $ENV{TEXTFP_SQLSMITH_SECONDS};
my @limit = defined $seconds ? () : ('--max-queries=1000');
$seconds //= 600;
if (system('sqlsmith --version >/dev/null 2>&1') != 0)
{
	plan skip_all => 'sqlsmith is not installed';
}

my $node = PostgreSQL::Test::Cluster->new('smith');
$node->init;
$node->append_conf('postgresql.conf', qq{
shared_preload_libraries = 'textfp'
log_error_verbosity = verbose
log_min_error_statement = error
});
$node->start;
$node->safe_psql('postgres', 'CREATE ROLE smith LOGIN; CREATE DATABASE smith OWNER smith');
$node->safe_psql('smith', "\\set srcdir '$src'\n\\i $src/test/harden/sqlsmith_setup.sql");
my $start_time = $node->safe_psql('postgres', 'SELECT pg_postmaster_start_time()');

my $t0 = time;
my ($stdout, $stderr) = ('', '');
my $connstr = $node->connstr('smith') . ' user=smith';
IPC::Run::run([ 'timeout', $seconds, 'sqlsmith', "--target=$connstr", '--exclude-catalog',
	'--seed=1', '--verbose', @limit ], '>', \$stdout, '2>', \$stderr);
my $elapsed = time - $t0;
my ($queries) = ($stderr =~ /.*queries: (\d+)/s);
cmp_ok($queries // 0, '>', 100, sprintf('sqlsmith ran %d queries in %.0f s', $queries // 0, $elapsed));
is($node->safe_psql('smith', 'SELECT 1'), '1', 'the server answers after the run');
is($node->safe_psql('postgres', 'SELECT pg_postmaster_start_time()'), $start_time,
	'the server never restarted (no backend crashed)');
# (the server's own pg_config: PostgreSQL 13's test module has no config_data)
my $module = $node->safe_psql('postgres', q{SELECT setting FROM pg_config() WHERE name = 'PKGLIBDIR'}) . '/textfp.so';
my $report = `python3 $src/test/harden/server_log_report.py @{[ $node->logfile ]} $module`;
is($?, 0, 'no crash and no internal error from textfp in the server log') or diag($report);
note($report);
$node->stop;
done_testing();
