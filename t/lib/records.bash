# Helpers for record streams in tests.
# shellcheck shell=bash

# Write deterministic pseudo-random records to stdout: sc_gen_records SEED N.
# Values hold NUL bytes, empty values, long values (up to 1 MiB) and bytes
# that are not UTF-8; repeated names are adjacent, as tools write them.
sc_gen_records() {
	perl -e '
		my ($seed, $n) = @ARGV;
		srand($seed);
		binmode STDOUT;
		my @names = qw(type id argv path text blob a.b x_y-z);
		sub value {
			my $kind = int(rand(6));
			return "" if $kind == 0;
			return join("", map { chr(int(rand(256))) } 1 .. int(rand(40))) if $kind == 1;
			return "x" x (1 + int(rand(1 << 20))) if $kind == 2 && rand() < 0.2;
			return "plain value " . int(rand(1e6)) if $kind <= 3;
			return "caf\xc3\xa9 \xe2\x82\xac ok" if $kind == 4;
			return "a\0b\0\0c";
		}
		for my $r (1 .. $n) {
			my $out = "type=t$r\0";
			for my $name (@names[1 .. $#names]) {
				next if rand() < 0.3;
				for (1 .. 1 + int(rand(3))) {
					my $v = value();
					$out .= $v =~ /\0/ ? "$name:" . length($v) . "=$v\0" : "$name=$v\0";
				}
			}
			print $out, "\0";
		}
	' "$1" "$2"
}

# Print a file with NULs shown as "|" for readable failure messages.
sc_show_records() {
	tr '\0' '|' <"$1"
}
