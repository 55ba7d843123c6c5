#!/usr/bin/perl
# scan-patterns.pl lib/mask/scanrules.c: print each rule's regex, one a line,
# for peers (ripgrep) to search the same patterns; caseless rules get
# "(?i)".  Reads the C table: an entry's first string literals after its
# id and flags, up to the one ending with a comma, are the regex.
use strict;
use warnings;

local $/;
my $c = <>;
while ($c =~ /\{ "([a-z0-9-]+)", ([A-Z_|0]+),\n((?:\t  "(?:[^"\\]|\\.)*"\n)*?\t  "(?:[^"\\]|\\.)*",\n)/g) {
	my ($flags, $lits) = ($2, $3);
	my $re = join '', $lits =~ /"((?:[^"\\]|\\.)*)"/g;
	$re =~ s/\\(.)/$1/g;
	print $flags =~ /CASELESS/ ? "(?i)$re\n" : "$re\n";
}
