#!/usr/bin/perl
# Checks the import direction of lib/ (lib/README, "Which way imports
# go") in the tree at ARGV[0]: every #include "X.h" of a module names a
# header of its own folder, of the core, or of a folder its folder may
# import.  Prints one line per include against the rule; exits 1 if any.
use strict;
use warnings;

my $top = shift // '.';
my (%may, $in_rules);
open my $readme, '<', "$top/lib/README" or die "lib/README: $!\n";
while (<$readme>) {
	$in_rules = 1 if /^Which way imports go/;
	next unless $in_rules;
	$may{$1} = { map { $_ => 1 } split ' ', $2 }
		if m{^\s+([a-z0-9_-]+)/\s+may import:\s*(.*?)\s*$};
}
close $readme;
my $bad = 0;
sub complain { print "@_\n"; $bad = 1; }

# Where each header stands: "core" for lib/, else its folder.
my %home;
for my $path (glob("$top/lib/*.h"), glob("$top/lib/*/*.h")) {
	my ($dir, $name) = $path =~ m{/lib/(?:([^/]+)/)?([^/]+)$};
	$home{$name} = $dir // 'core';
}
for my $dir (glob("$top/lib/*/")) {
	my ($name) = $dir =~ m{/lib/([^/]+)/$};
	complain("lib/$name/: no rule in lib/README") unless $may{$name};
}
for my $path (sort(glob("$top/lib/*.[ch]"), glob("$top/lib/*/*.[ch]"))) {
	my ($dir, $name) = $path =~ m{/lib/(?:([^/]+)/)?([^/]+)$};
	my $group = $dir // 'core';
	my $rel = defined $dir ? "lib/$dir/$name" : "lib/$name";
	open my $src, '<', $path or die "$rel: $!\n";
	while (<$src>) {
		next unless /^\s*#\s*include\s+"([^"]+)"/;
		my $h = $1;
		my $to = $home{$h};
		next if !defined $to && -e "$top/build/gen/$h";  # generated
		if (!defined $to) {
			complain("$rel:$.: includes \"$h\", which is not in lib/");
		} elsif ($to ne $group && $to ne 'core' &&
		    !($may{$group} && $may{$group}{$to})) {
			complain("$rel:$.: includes $to/$h: $group may not import $to");
		}
	}
	close $src;
}
exit $bad;
