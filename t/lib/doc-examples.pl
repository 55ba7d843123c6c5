#!/usr/bin/perl
# Print every documented example command: the sh blocks of README.md and
# of Documentation/*.md, and the EXAMPLES sections of Documentation/*.scd (fenced blocks and
# tab-indented lines), one a record "SOURCE:LINE\tBLOCK\tCOMMAND\0", a
# command's continuation lines (ending in \, | or &&) joined.  BLOCK
# numbers the blocks: the commands of one block go together.
use strict;
use warnings;

my $top = shift or die "usage: doc-examples.pl TOP\n";

my $blockno = 0;

sub emit_block {
	my ($src, $lines) = @_;
	$blockno++;
	my ($cmd, $at) = ('', 0);
	for my $l (@$lines) {
		my ($n, $text) = @$l;
		$text =~ s/^\t//;
		# scdoc's escape: what a reader of the page sees.
		$text =~ s/\\\\/\\/g if $src =~ /\.scd$/;
		$text =~ s/\s+#\s.*$// if $text !~ /'[^']*#/;
		next if $cmd eq '' && ($text =~ /^\s*(#|$)/);
		$at = $n if $cmd eq '';
		$cmd .= ($cmd eq '' ? '' : "\n") . $text;
		next if $text =~ /(\\|\||&&)\s*$/;
		print "$src:$at\t$blockno\t$cmd\0";
		$cmd = '';
	}
	print "$src:$at\t$blockno\t$cmd\0" if $cmd ne '';
}

sub scan_file {
	my ($path, $src, $whole) = @_;
	open(my $fh, '<', $path) or die "$path: $!\n";
	my ($in_ex, $fence, @block) = ($whole, 0);
	my $n = 0;
	while (my $line = <$fh>) {
		$n++;
		chomp $line;
		if (!$whole && $line =~ /^# /) {
			emit_block($src, \@block) if @block;
			@block = ();
			$in_ex = $line =~ /^# EXAMPLES/;
			next;
		}
		next unless $in_ex;
		if ($line =~ /^```(\w*)/) {
			if ($fence) {
				emit_block($src, \@block);
				@block = ();
				$fence = 0;
			} elsif (!$whole || $1 eq 'sh') {
				$fence = 1;
			} else {
				$fence = 2;     # a README block of another language
			}
			next;
		}
		if ($fence == 1 || (!$whole && !$fence && $line =~ /^\t/)) {
			push @block, [$n, $line];
		} elsif (!$fence && @block) {
			emit_block($src, \@block);
			@block = ();
		}
	}
	emit_block($src, \@block) if @block;
}

scan_file("$top/README.md", 'README.md', 1);
# The guides' sh blocks too (Documentation/*.md).
for my $f (sort glob("$top/Documentation/*.md")) {
	(my $src = $f) =~ s{.*/}{};
	scan_file($f, $src, 1);
}
for my $f (sort glob("$top/Documentation/*.scd")) {
	(my $src = $f) =~ s{.*/}{};
	scan_file($f, $src, 0);
}
