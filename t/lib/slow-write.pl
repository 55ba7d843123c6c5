#!/usr/bin/perl
# slow-write.pl FILE CHUNK: copy FILE to stdout in writes of CHUNK bytes
# (0: random 1-7), pausing briefly after each, so the reader sees every
# split point between reads.
use strict;
use warnings;
use Time::HiRes qw(usleep);

my ($file, $chunk) = @ARGV;
local $/;
open(my $f, '<', $file) or die "cannot open $file";
binmode $f;
my $data = <$f> // '';
$| = 1;
my $at = 0;
while ($at < length $data) {
	my $n = $chunk || 1 + int(rand(7));
	my $w = syswrite(STDOUT, $data, $n, $at);
	die "write: $!" unless defined $w;
	$at += $w;
	usleep(200);
}
