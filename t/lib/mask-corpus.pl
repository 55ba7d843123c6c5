#!/usr/bin/perl
# Generate a leak corpus for sc-mask: N random secrets (generated test
# values, never real ones), each written in every form at random places.
#
#   mask-corpus.pl SEED N DIR
#
# writes DIR/secrets.env (dotenv), DIR/input (the text), and DIR/probes
# (NUL-separated strings that must not survive masking: each form, and for
# base64 the characters only the secret decides in the real encoding).
use strict;
use warnings;
use MIME::Base64 qw(encode_base64);

my ($seed, $n, $dir) = @ARGV;
srand($seed);
my @chars = split //, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=-_.~!@#%^&*()<>: ';

sub gen {
	my $len = 8 + int(rand(40));
	my $s = 'k';
	$s .= $chars[int(rand(@chars))] for 2 .. $len - 1;
	return $s . 'z';
}

sub b64 { my ($x, $url) = @_; my $e = encode_base64($x, ''); $e =~ tr{+/}{-_} if $url; return $e; }
sub pct { my ($x, $upper) = @_; (my $e = $x) =~ s/([^A-Za-z0-9\-._~])/sprintf($upper ? '%%%02X' : '%%%02x', ord $1)/ge; return $e; }
sub json {
	my ($x) = @_;
	my %short = ("\"" => '\\"', "\\" => '\\\\', "\n" => '\\n', "\r" => '\\r', "\t" => '\\t', "\b" => '\\b', "\f" => '\\f');
	(my $e = $x) =~ s/(["\\\x00-\x1f])/$short{$1} \/\/ sprintf('\\u%04x', ord $1)/ge;
	return $e;
}

my (@secrets, @probes);
for my $i (1 .. $n) {
	my $s = gen();
	# Every fifth one holds the previous one; every fifth+1 overlaps it.
	$s = "k-$secrets[-1]$s" if $i % 5 == 2;
	$s = substr($secrets[-1], length($secrets[-1]) / 2) . $s if $i % 5 == 3;
	push @secrets, $s;
}
open(my $env, '>', "$dir/secrets.env") or die;
for my $i (0 .. $#secrets) {
	(my $q = $secrets[$i]) =~ s/'/'"'"'/g;
	die "quote in secret" if $secrets[$i] =~ /'/;
	print $env "TEST_SECRET_$i='$secrets[$i]'\n";
}
close $env;

my $text = '';
sub filler { my $f = ''; $f .= (split //, "abc def\nghi=:\"{},[]0123")[int(rand(22))] for 1 .. int(rand(10)); return $f; }
for my $round (1 .. 30 * $n) {
	my $s = $secrets[int(rand(@secrets))];
	my $form = int(rand(9));
	$text .= filler();
	if ($form < 7) {
		my $e = (sub { $s }, sub { unpack('H*', $s) }, sub { uc unpack('H*', $s) },
			 sub { pct($s, 0) }, sub { pct($s, 1) }, sub { json($s) },
			 sub { json($s) =~ s{/}{\\/}gr })[$form]->();
		$text .= $e;
		push @probes, $e;
	} else {
		my $k = int(rand(3));
		my $raw = substr('ab\n', 0, $k) . $s . ("\n" x int(rand(3)));
		my $e = b64($raw, $form == 8);
		my $first = int((8 * $k + 5) / 6);
		my $last = int(8 * ($k + length $s) / 6);
		$text .= $e;
		push @probes, substr($e, $first, $last - $first);
	}
}
# Overlapping secrets written overlapped.
for my $i (0 .. $#secrets - 1) {
	next unless $i % 5 == 1;
	my $h = length($secrets[$i]) / 2;
	$text .= " $secrets[$i]" . substr($secrets[$i + 1], length($secrets[$i]) - int($h)) . " ";
	push @probes, $secrets[$i], $secrets[$i + 1];
}
open(my $in, '>', "$dir/input") or die;
print $in $text;
close $in;
open(my $pr, '>', "$dir/probes") or die;
print $pr join("\0", @probes);
close $pr;
