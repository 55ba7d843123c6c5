#!/usr/bin/perl
# sigv4-check.pl SECRET REQUEST-FILE: check a recorded HTTP request's AWS
# Signature Version 4, computed here from AWS's documented algorithm on its
# own (Perl's Digest::SHA), not by the code under test.  Exit 0 and print
# "ok KEYID REGION SERVICE SIGNED-HEADERS" when it holds; exit 1 with the
# reason otherwise.  The request path is encoded once more for the
# canonical request, as every AWS service but S3 does.
use strict;
use warnings;
use Digest::SHA qw(sha256_hex hmac_sha256 hmac_sha256_hex);

sub fail { print "bad: $_[0]\n"; exit 1 }

sub uri_encode {
	my ($s) = @_;
	$s =~ s/([^A-Za-z0-9\-_.~])/sprintf('%%%02X', ord $1)/ge;
	return $s;
}

my ($secret, $file) = @ARGV;
open my $fh, '<:raw', $file or fail("cannot open $file");
my $req = do { local $/; <$fh> };
close $fh;
my ($head, $body) = split /\r\n\r\n/, $req, 2;
$body = '' unless defined $body;
my @lines = split /\r\n/, $head;
my ($method, $target) = split / /, shift @lines;
my ($path, $query) = split /\?/, $target, 2;
my %h;
for (@lines) {
	my ($n, $v) = /^([^:]+):[ \t]*(.*?)[ \t]*$/ or next;
	$n = lc $n;
	$h{$n} = exists $h{$n} ? "$h{$n},$v" : $v;
}
my $auth = $h{authorization} or fail('no Authorization header');
$auth =~ m{^AWS4-HMAC-SHA256 Credential=([^/]+)/(\d{8})/([a-z0-9-]+)/([a-z0-9-]+)/aws4_request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$}
	or fail('malformed Authorization header');
my ($kid, $date, $region, $service, $signed, $sig) = ($1, $2, $3, $4, $5, $6);
my @signed = split /;/, $signed;
my @must = ('host', 'x-amz-date');
push @must, 'x-amz-security-token' if exists $h{'x-amz-security-token'};
for my $m (@must) {
	fail("$m is not signed") unless grep { $_ eq $m } @signed;
}
for my $n (@signed) {
	fail("signed header $n was not sent") unless exists $h{$n};
}
join(';', sort @signed) eq $signed or fail('SignedHeaders are not sorted');
my $amz_date = $h{'x-amz-date'};
$amz_date =~ /^\d{8}T\d{6}Z$/ or fail('x-amz-date is malformed');
substr($amz_date, 0, 8) eq $date or fail('the scope date is not the request date');
my $cpath = join '/', map { uri_encode($_) } split m{/}, $path, -1;
$cpath = '/' if $cpath eq '';
my $cquery = '';
if (defined $query && length $query) {
	$cquery = join '&', sort map {
		my ($k, $v) = split /=/, $_, 2;
		uri_encode($k) . '=' . uri_encode(defined $v ? $v : '')
	} split /&/, $query;
}
my $canonical = join "\n", $method, $cpath, $cquery,
	(map { "$_:$h{$_}" } @signed), '', $signed, sha256_hex($body);
my $scope = "$date/$region/$service/aws4_request";
my $sts = join "\n", 'AWS4-HMAC-SHA256', $amz_date, $scope, sha256_hex($canonical);
my $k = hmac_sha256($date, "AWS4$secret");
$k = hmac_sha256($region, $k);
$k = hmac_sha256($service, $k);
$k = hmac_sha256('aws4_request', $k);
hmac_sha256_hex($sts, $k) eq $sig or fail('the signature does not match');
print "ok $kid $region $service $signed\n";
exit 0;
