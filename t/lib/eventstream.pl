#!/usr/bin/perl
# eventstream.pl: write an HTTP response whose body is an AWS event stream
# (application/vnd.amazon.eventstream), as Bedrock's
# InvokeModelWithResponseStream sends, for t/lib/model-server.  Each input
# line is one message:
#
#   chunk JSON            an Anthropic event, base64 in {"bytes": ...}
#   exception NAME JSON   an exception message named NAME
#   badcrc JSON           a chunk whose message CRC is wrong
#   cut N JSON            the first N bytes of a chunk, then the connection closes
#
# The framing follows AWS's documented encoding, written here on its own:
# prelude (total length, headers length, CRC32 of those 8 bytes), headers
# (name length, name, type 7 = string, value length, value), payload, CRC32.
use strict;
use warnings;
use Compress::Zlib qw(crc32);
use MIME::Base64 qw(encode_base64);

sub header {
	my ($name, $value) = @_;
	return pack('C', length $name) . $name . pack('Cn', 7, length $value) . $value;
}

sub message {
	my ($headers, $payload, $bad) = @_;
	my $total = 12 + length($headers) + length($payload) + 4;
	my $prelude = pack('NN', $total, length $headers);
	my $msg = $prelude . pack('N', crc32($prelude)) . $headers . $payload;
	my $crc = crc32($msg);
	$crc ^= 1 if $bad;
	return $msg . pack('N', $crc);
}

sub chunk {
	my ($json, $bad) = @_;
	my $h = header(':event-type', 'chunk') .
		header(':content-type', 'application/json') .
		header(':message-type', 'event');
	my $b64 = encode_base64($json, '');
	return message($h, qq({"bytes":"$b64","p":"abcdefgh"}), $bad);
}

binmode STDOUT;
print "HTTP/1.1 200 OK\nContent-Type: application/vnd.amazon.eventstream\n",
	"x-amzn-RequestId: 00000000-0000-0000-0000-000000000000\n\n";
while (my $line = <STDIN>) {
	chomp $line;
	next if $line eq '';
	if ($line =~ /^chunk (.*)$/) {
		print chunk($1, 0);
	} elsif ($line =~ /^badcrc (.*)$/) {
		print chunk($1, 1);
	} elsif ($line =~ /^cut (\d+) (.*)$/) {
		print substr(chunk($2, 0), 0, $1), '@@cut@@';
	} elsif ($line =~ /^exception (\S+) (.*)$/) {
		my $h = header(':exception-type', $1) .
			header(':content-type', 'application/json') .
			header(':message-type', 'exception');
		print message($h, $2, 0);
	} else {
		die "eventstream.pl: cannot read: $line\n";
	}
}
