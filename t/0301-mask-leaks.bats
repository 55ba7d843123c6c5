#!/usr/bin/env bats
# The leak attempts of ATTACKS.md ("Leaking past a masker") against the
# sc-mask command: random secrets in every form, through slow writers that
# split the input at every point, nested and overlapping secrets, base64 of
# secret + "\n".  Secrets are generated test values, never printed.

bats_require_minimum_version 1.5.0
load lib/common
load lib/mask

corpus() {
	perl "$SC_TOP/t/lib/mask-corpus.pl" "$1" "$2" "$SC_TMP"
}

@test "leaks: the corpus leaks without sc-mask (the check can fail)" {
	corpus 7 10
	run mask_leak_check "$SC_TMP/probes" "$SC_TMP/input"
	assert_failure
}

@test "leaks: 50 random secrets, every form, read at once" {
	corpus 11 50
	sc_run_io "$SC_TMP/input" "$SC_TMP/out" sc-mask --secrets-file "$SC_TMP/secrets.env"
	assert_equal "$status" 0
	mask_leak_check "$SC_TMP/probes" "$SC_TMP/out"
}

@test "leaks: byte-by-byte writes through a pipe (every split point)" {
	corpus 12 6
	head -c 4000 "$SC_TMP/input" >"$SC_TMP/in4k"
	sc_run_io "$SC_TMP/in4k" "$SC_TMP/once" sc-mask --secrets-file "$SC_TMP/secrets.env"
	mask_slow_run 1 "$SC_TMP/in4k" "$SC_TMP/out" sc-mask --secrets-file "$SC_TMP/secrets.env"
	assert_equal "$status" 0
	# Same output as one read, up to runs of adjacent markers (a pause may
	# write a marker before a match touching it arrives).
	perl -pi -e 's/(\[redacted:[A-Z_0-9]+\])+/[R]/g' "$SC_TMP/once" "$SC_TMP/out"
	cmp "$SC_TMP/once" "$SC_TMP/out"
	# Probes that lie entirely inside the first 4000 bytes must be gone.
	perl -e 'local $/; open I, $ARGV[0]; $i = <I>; open P, $ARGV[1]; open O, ">", $ARGV[2];
		print O join("\0", grep { index($i, $_) >= 0 } split /\0/, <P>)' \
		"$SC_TMP/in4k" "$SC_TMP/probes" "$SC_TMP/probes4k"
	mask_leak_check "$SC_TMP/probes4k" "$SC_TMP/out"
}

@test "leaks: random small writes through a pipe" {
	corpus 13 20
	mask_slow_run 0 "$SC_TMP/input" "$SC_TMP/out" sc-mask --secrets-file "$SC_TMP/secrets.env"
	assert_equal "$status" 0
	mask_leak_check "$SC_TMP/probes" "$SC_TMP/out"
}

@test "leaks: a secret at every split point between two reads" {
	export SPLIT_API_KEY; SPLIT_API_KEY=$(mask_gen_value)
	local line="before ${SPLIT_API_KEY} after" i
	printf '%s' "$line" >"$SC_TMP/line"
	for ((i = 0; i <= ${#line}; i += 3)); do
		mkfifo "$SC_TMP/f$i"
		(
			exec >"$SC_TMP/f$i"
			printf '%s' "${line:0:i}"
			sleep 0.02
			printf '%s\n' "${line:i}"
		) &
		sc_run_io "$SC_TMP/f$i" "$SC_TMP/out$i" sc-mask --secret SPLIT_API_KEY
		wait
		assert_equal "$status" 0
		printf 'before [redacted:SPLIT_API_KEY] after\n' >"$SC_TMP/want"
		cmp "$SC_TMP/want" "$SC_TMP/out$i"
	done
}

@test "leaks: one secret inside another, two overlapping: one replacement each" {
	local inner outer left right
	inner=$(mask_gen_value); left=$(mask_gen_value); right=$(mask_gen_value)
	outer="x${inner}y"
	{
		printf 'INNER_KEY=%s\nOUTER_KEY=%s\n' "$inner" "$outer"
		printf 'LEFT_KEY=%s\nRIGHT_KEY=%s\n' "$left" "${left:20}$right"
	} >"$SC_TMP/s.env"
	printf '<%s> <%s> <%s%s>\n' "$outer" "$inner" "$left" "$right" >"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-mask --secrets-file "$SC_TMP/s.env"
	assert_equal "$status" 0
	printf '<[redacted:OUTER_KEY]> <[redacted:INNER_KEY]> <[redacted:RIGHT_KEY]>\n' >"$SC_TMP/want"
	cmp "$SC_TMP/want" "$SC_TMP/out"
}

@test "leaks: padded base64 of secret + newline, at every offset" {
	export B64_TOKEN; B64_TOKEN=$(mask_gen_value)
	{
		printf '%s\n' "$B64_TOKEN" | base64 -w0; echo
		printf 'a%s\n' "$B64_TOKEN" | base64 -w0; echo
		printf 'ab%s\n\n' "$B64_TOKEN" | base64 -w0; echo
		printf '%s' "$B64_TOKEN" | base64 -w0 | tr '+/' '-_' | tr -d '='; echo
	} >"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-mask --secret B64_TOKEN
	assert_equal "$status" 0
	assert_equal "$(grep -c 'redacted:B64_TOKEN' "$SC_TMP/out")" 4
	# What is left around each marker is at most 3 characters a side.
	run grep -E '[A-Za-z0-9+/_-]{4}\[|\][A-Za-z0-9+/_-]{4}' "$SC_TMP/out"
	assert_failure
}

@test "leaks: hex, percent and JSON forms, both cases" {
	export FORM_PASSWORD='pw "q" /é<&> \ tab	end'
	{
		printf '%s' "$FORM_PASSWORD" | od -An -tx1 | tr -d ' \n'; echo
		printf '%s' "$FORM_PASSWORD" | od -An -tx1 | tr -d ' \n' | tr a-f A-F; echo
		perl -MURI::Escape -e 'print uri_escape($ENV{FORM_PASSWORD}), "\n"' 2>/dev/null ||
			perl -e '($e = $ENV{FORM_PASSWORD}) =~ s/([^A-Za-z0-9\-._~])/sprintf("%%%02X", ord $1)/ge; print "$e\n"'
		perl -e '($e = $ENV{FORM_PASSWORD}) =~ s/([^A-Za-z0-9\-._~])/sprintf("%%%02x", ord $1)/ge; print "$e\n"'
		# Python's quote() keeps '/'.
		perl -e '($e = $ENV{FORM_PASSWORD}) =~ s/([^A-Za-z0-9\-._~\/])/sprintf("%%%02X", ord $1)/ge; print "$e\n"'
		jq -n --arg v "$FORM_PASSWORD" '{v: $v}' -c; echo
		jq -n --arg v "$FORM_PASSWORD" '{v: $v}' -c --ascii-output; echo
	} >"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-mask --secret FORM_PASSWORD
	assert_equal "$status" 0
	printf '%s\n' '[redacted:FORM_PASSWORD]' '[redacted:FORM_PASSWORD]' \
		'[redacted:FORM_PASSWORD]' '[redacted:FORM_PASSWORD]' \
		'[redacted:FORM_PASSWORD]' \
		'{"v":"[redacted:FORM_PASSWORD]"}' '' \
		'{"v":"[redacted:FORM_PASSWORD]"}' '' >"$SC_TMP/want"
	cmp "$SC_TMP/want" "$SC_TMP/out"
}

@test "leaks: each line of a multi-line value, even when logged line by line" {
	local l1 l2
	l1=$(mask_gen_value); l2=$(mask_gen_value)
	printf 'MULTI_SECRET="%s\n%s"\n' "$l1" "$l2" >"$SC_TMP/s.env"
	printf 'got: %s\ngot: %s\n' "$l2" "$l1" >"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-mask --secrets-file "$SC_TMP/s.env"
	assert_equal "$status" 0
	printf 'got: [redacted:MULTI_SECRET]\ngot: [redacted:MULTI_SECRET]\n' >"$SC_TMP/want"
	cmp "$SC_TMP/want" "$SC_TMP/out"
}

@test "leaks: wrapped base64 of a key file (76 and 64 columns) is one replacement each" {
	head -c 900 /dev/urandom | base64 -w 0 >"$SC_TMP/key"
	{ base64 "$SC_TMP/key"; base64 -w 64 "$SC_TMP/key"; } >"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-mask --key-file "WRAPPED_KEY=$SC_TMP/key"
	assert_equal "$status" 0
	printf '[redacted:WRAPPED_KEY]\n[redacted:WRAPPED_KEY]\n' >"$SC_TMP/want"
	cmp "$SC_TMP/want" "$SC_TMP/out"
}

# env | base64 -w N, with "\n" or "\r\n": the secret anywhere in the
# encoded text, at each of the three alignments (a prefix of 0, 1 or 2
# bytes), wrapped at any width.  The masked output, unwrapped and decoded
# (each piece between markers, at every alignment), must not hold it.
@test "leaks: env | base64 -w N at any width, alignment and line ending" {
	local w pre eol v
	v=$(mask_gen_value)
	export LEAK_API_TOKEN="$v"
	for w in 0 1 3 16 60 64 76 77 100 1000; do
		for pre in "" "x" "xy"; do
			for eol in lf crlf; do
				{ printf '%s' "$pre"; env; } | base64 -w "$w" >"$SC_TMP/in"
				if [ "$eol" = crlf ]; then
					sed 's/$/\r/' "$SC_TMP/in" >"$SC_TMP/in.crlf"
					mv "$SC_TMP/in.crlf" "$SC_TMP/in"
				fi
				sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-mask --secret LEAK_API_TOKEN
				assert_equal "$status" 0
				grep -q 'redacted:LEAK_API_TOKEN' "$SC_TMP/out" ||
					{ echo "not masked: w=$w pre=${#pre} $eol"; return 1; }
				if ! V="$v" perl "$SC_TOP/t/lib/b64-leak.pl" "$SC_TMP/out"; then
					echo "leaked: w=$w pre=${#pre} $eol"
					return 1
				fi
			done
		done
	done
}

@test "leaks: percent-encoding that mixes upper and lower case hex" {
	export MIXED_SECRET='p@ss:w/rd=s3cr3t;x&y'
	printf 'url=p%%40ss%%3aw%%2Frd%%3Ds3cr3t%%3bx%%26y\n' >"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-mask --secret MIXED_SECRET
	assert_equal "$status" 0
	printf 'url=[redacted:MIXED_SECRET]\n' >"$SC_TMP/want"
	cmp "$SC_TMP/want" "$SC_TMP/out"
}

@test "leaks: memory stays bounded on 20 MB of one endless overlapping match" {
	command -v /usr/bin/time >/dev/null || skip "GNU time is not installed"
	export CHAIN_TOKEN=abababab
	yes abababababababababababababababab | tr -d '\n' | head -c 20000000 >"$SC_TMP/in"
	printf 'end\n' >>"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" /usr/bin/time -f '%M' -o "$SC_TMP/rss" \
		sc-mask --secret CHAIN_TOKEN
	assert_equal "$status" 0
	assert_equal "$(cat "$SC_TMP/out")" '[redacted:CHAIN_TOKEN]end'
	# Maximum resident set in KiB: far below the input's 20 MB.
	[ "$(cat "$SC_TMP/rss")" -lt 20000 ]
}
