#!/usr/bin/perl
# scan-score.pl DIR TP.json FP.json: recall and false positives of
# sc-mask --scan on the corpus of scan-corpus.pl, per rule and overall.
# TP.json and FP.json are the findings (sc-rec --to-json) on DIR/tp.txt
# and DIR/fp.txt.  A true positive counts when its own rule reports its
# line; a look-alike is a false positive when any rule reports its line.
use strict;
use warnings;
use JSON::PP;

my ($dir, $tpj, $fpj) = @ARGV;
sub lines { open(my $f, '<', $_[0]) or die "$_[0]: $!\n"; chomp(my @l = <$f>); return @l; }
sub findings {
	my %at;
	for (lines($_[0])) {
		my $r = decode_json($_);
		$at{$r->{line}}{$r->{rule}} = 1;
	}
	return \%at;
}
my @tp = lines("$dir/tp.rules");
my @fp = lines("$dir/fp.rules");
my ($tpf, $fpf) = (findings($tpj), findings($fpj));
my (%n, %hit, %fn, %fl);
for my $i (0 .. $#tp) {
	$n{$tp[$i]}++;
	$hit{$tp[$i]}++ if $tpf->{$i + 1}{$tp[$i]};
}
for my $i (0 .. $#fp) {
	$fn{$fp[$i]}++;
	$fl{$fp[$i]}++ if $fpf->{$i + 1};
}
my ($tn, $th, $fnn, $ffl) = (0, 0, 0, 0);
printf "  %-28s %9s %9s\n", 'rule', 'recall', 'false+';
my %seen;
for my $r (grep { !$seen{$_}++ } @tp, @fp) {
	printf "  %-28s %4d/%-4d %4d/%-4d\n", $r, $hit{$r} // 0, $n{$r} // 0,
		$fl{$r} // 0, $fn{$r} // 0;
	$tn += $n{$r} // 0; $th += $hit{$r} // 0;
	$fnn += $fn{$r} // 0; $ffl += $fl{$r} // 0;
}
printf "  overall: recall %d/%d (%.1f%%, goal >= 95%%), false positives %d/%d (%.1f%%, goal <= 5%%)\n",
	$th, $tn, 100 * $th / $tn, $ffl, $fnn, 100 * $ffl / $fnn;
