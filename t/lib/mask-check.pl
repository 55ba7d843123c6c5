#!/usr/bin/perl
# mask-check.pl PROBES OUTPUT: exit 1 when any probe survived in OUTPUT,
# naming the probe by number only (a probe is a secret form).
use strict;
use warnings;

my ($pf, $of) = @ARGV;
local $/;
open(my $p, '<', $pf) or die "cannot open $pf";
my @probes = split /\0/, <$p>;
open(my $o, '<', $of) or die "cannot open $of";
my $out = <$o> // '';
my $bad = 0;
for my $i (0 .. $#probes) {
	next if length $probes[$i] < 4;
	if (index($out, $probes[$i]) >= 0) {
		print STDERR "probe $i (length ", length $probes[$i], ") survived\n";
		$bad = 1;
	}
}
print STDERR scalar(@probes), " probes checked\n";
exit $bad;
