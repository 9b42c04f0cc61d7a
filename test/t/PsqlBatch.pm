# Many small queries through one psql session, for TAP tests that compare
# index answers with sequential scans probe by probe: one connection instead
# of one (a backend start, textfp loaded) per query.
#
#   my %out = PsqlBatch::run($node, $db, \@cases, $preamble);
#
# @cases holds [key, sql] pairs; each sql (one or more statements, settings
# included) runs inside its own transaction that is rolled back, so a SET in
# one case does not leak into the next.  Returns key => output (as
# safe_psql would print it for that sql alone).  $preamble (optional) runs
# once, first (e.g. SET search_path).  Any error fails the whole batch, as
# safe_psql does.
package PsqlBatch;

use strict;
use warnings;

sub run
{
	my ($node, $db, $cases, $preamble) = @_;
	my $script = defined $preamble ? "$preamble\n" : '';
	for my $n (0 .. $#$cases)
	{
		my $sql = $cases->[$n][1];
		$sql =~ s/;?\s*\z/;/;
		$script .= "\\echo <<case $n>>\nBEGIN;\n$sql\nROLLBACK;\n";
	}
	my (%byn, $cur);
	for my $line (split /\n/, $node->safe_psql($db, $script), -1)
	{
		if ($line =~ /^<<case (\d+)>>$/) { $cur = $1; $byn{$cur} = []; next }
		push @{ $byn{$cur} }, $line if defined $cur;
	}
	my %out;
	for my $n (0 .. $#$cases)
	{
		my @lines = @{ $byn{$n} // [] };
		pop @lines while @lines && $lines[-1] eq '' && $n == $#$cases;
		$out{ $cases->[$n][0] } = join("\n", @lines);
	}
	return %out;
}

1;
