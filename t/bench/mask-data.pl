#!/usr/bin/perl
# mask-data.pl DIR MIB: write the benchmark input of t/bench/mask.sh.
#   DIR/secrets.env  100 generated secrets (test values)
#   DIR/forms        every form sc-mask registers for them, one a line
#   DIR/input        MIB MiB of log-like text, a secret form every ~50 lines
use strict;
use warnings;
use MIME::Base64 qw(encode_base64);

my ($dir, $mib) = @ARGV;
srand(42);
my @alnum = ('A' .. 'Z', 'a' .. 'z', '0' .. '9');
my @secrets = map { join '', 'sk-bench-', map { $alnum[int rand @alnum] } 1 .. 32 } 1 .. 100;

sub window {
	my ($v, $k, $url) = @_;
	my $e = encode_base64(("\0" x $k) . $v, '');
	$e =~ tr{+/}{-_} if $url;
	my $first = int((8 * $k + 5) / 6);
	my $last = int(8 * ($k + length $v) / 6);
	return substr($e, $first, $last - $first);
}

my %forms;
for my $v (@secrets) {
	$forms{$v} = 1;
	for my $k (0 .. 2) { $forms{window($v, $k, 0)} = 1; $forms{window($v, $k, 1)} = 1; }
	$forms{unpack('H*', $v)} = 1;
	$forms{uc unpack('H*', $v)} = 1;
}
open(my $env, '>', "$dir/secrets.env") or die;
printf $env "BENCH_SECRET_%d=%s\n", $_, $secrets[$_] for 0 .. $#secrets;
close $env;
open(my $f, '>', "$dir/forms") or die;
print $f "$_\n" for sort keys %forms;
close $f;

my @words = qw(INFO DEBUG WARN request served user session cache miss hit
	compile test passed failed module build target linking object GET POST
	/api/v1/items latency ms bytes worker thread queue);
my @formlist = sort keys %forms;
my $block = '';
my $n = 0;
while (length $block < 1 << 20) {
	$n++;
	my $line = sprintf('2026-11-29T09:%02d:%02d.%03dZ', $n % 60, $n % 59, $n % 1000);
	$line .= ' ' . $words[int rand @words] for 1 .. 8 + int rand 8;
	$line .= ' token=' . $formlist[int rand @formlist] if $n % 50 == 0;
	$block .= "$line\n";
}
open(my $in, '>', "$dir/input") or die;
print $in $block for 1 .. $mib;
close $in;
