#!/usr/bin/perl
# model-cache-bill.pl REQUEST...: the input tokens Anthropic would bill for
# each recorded Messages request, in order, simulating its prompt cache as
# documented: a cache_control breakpoint caches the prefix up to its block
# (tools, then system, then messages), once the prefix holds at least 1024
# tokens; a later request reads the longest cached prefix it finds at a
# block boundary within 20 blocks before one of its breakpoints, and writes
# from there to its last breakpoint.  Read input is billed at 0.1 of the
# plain rate, written input at 1.25.  Tokens are bytes over four.
# Prints one line a request: "TURN INPUT READ WRITE BILLED".
use strict;
use warnings;
use JSON::PP;
use Digest::SHA qw(sha256_hex);

my $json = JSON::PP->new->canonical;
my %cache;

sub blocks {
	my ($req) = @_;
	my @b;
	push @b, @{ $req->{tools} || [] };
	my $sys = $req->{system};
	push @b, ref $sys ? @$sys : ({ type => 'text', text => $sys }) if defined $sys;
	for my $m (@{ $req->{messages} }) {
		push @b, map { { %$_, role => $m->{role} } } @{ $m->{content} };
	}
	return @b;
}

my $turn = 0;
for my $file (@ARGV) {
	open my $fh, '<', $file or die "$file: $!\n";
	my $raw = do { local $/; <$fh> };
	close $fh;
	$raw =~ s/\A.*?\r\n\r\n//s;
	my $req = $json->decode($raw);
	my @b = blocks($req);
	my (@size, @hash, @bp);
	my ($acc, $h) = (0, '');
	for my $i (0 .. $#b) {
		my %copy = %{ $b[$i] };
		push @bp, $i if delete $copy{cache_control};
		my $enc = $json->encode(\%copy);
		$acc += length($enc) / 4;
		$h = sha256_hex($h . $enc);
		push @size, $acc;
		push @hash, $h;
	}
	my ($read, $write) = (0, 0);
	for my $p (@bp) {
		for (my $j = $p; $j >= 0 && $j >= $p - 20; $j--) {
			if ($cache{ $hash[$j] }) {
				$read = $size[$j] if $size[$j] > $read;
				last;
			}
		}
	}
	if (@bp && $size[ $bp[-1] ] >= 1024) {
		$write = $size[ $bp[-1] ] - $read if $size[ $bp[-1] ] > $read;
		$cache{ $hash[$_] } = 1 for grep { $size[$_] >= 1024 } @bp;
	}
	my $input = $acc - $read - $write;
	$turn++;
	printf "%d %d %d %d %d\n", $turn, $input, $read, $write,
		$input + 0.1 * $read + 1.25 * $write;
}
