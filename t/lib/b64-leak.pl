#!/usr/bin/perl
# b64-leak.pl FILE: exit 1 when the base64 text of FILE, line breaks
# removed, still decodes to the value of $V: each piece between
# [redacted:NAME] markers is decoded from each of its first four
# characters, so every alignment of a surviving encoding is tried.
use strict;
use warnings;
use MIME::Base64 qw(decode_base64);

my $v = $ENV{V};
local $/;
open(my $fh, '<', $ARGV[0]) or die "b64-leak: $ARGV[0]: $!\n";
my $text = <$fh>;
$text =~ s/[\r\n]//g;
for my $piece (split /\[redacted:[A-Za-z0-9_]*\]/, $text) {
	for my $k (0 .. 3) {
		next if $k > length $piece;
		my $d = decode_base64(substr($piece, $k));
		exit 1 if index($d, $v) >= 0;
	}
}
exit 0;
