#!/usr/bin/env bats
# sc-mask: sources, forms, bad input.  Every secret is a generated test value.

# shellcheck disable=SC2154,SC2030,SC2031 # bats: run sets status, output, stderr; each @test is a subshell
bats_require_minimum_version 1.5.0
load lib/common
load lib/mask

@test "sc-mask: --help synopsis equals the man page SYNOPSIS" {
	run sc-mask --help
	assert_success
	grep '^usage: \|^   or: ' <<<"$output" |
		sed 's/^usage: //; s/^   or: //' >"$SC_TMP/help"
	awk '/^# SYNOPSIS/{on=1; next} /^# /{on=0} on && NF' \
		"$SC_TOP/Documentation/sc-mask.1.scd" | tr -d '*_' |
		sed 's/\\//g' >"$SC_TMP/man"
	run diff "$SC_TMP/help" "$SC_TMP/man"
	assert_success
}

@test "sc-mask: every diagnostic code of its sources is in the man page" {
	local code missing=
	# shellcheck disable=SC2013 # codes are single words
	for code in $(grep -ohE '(sc_error|sc_error_errno|sc_warning)\("[A-Z-]+"' \
		"$SC_TOP"/lib/mask/mask*.c "$SC_TOP"/lib/mask/secrets.c "$SC_TOP"/lib/mask/scan.c \
		"$SC_TOP"/bin/sc-mask.c | sed 's/.*("//; s/"$//' | sort -u); do
		grep -q "\[$code\]" "$SC_TOP/Documentation/sc-mask.1.scd" || missing="$missing $code"
	done
	assert_equal "$missing" ""
}

@test "sc-mask: no secret source is a usage error" {
	printf 'x\n' >"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-mask
	assert_equal "$status" 2
}

@test "sc-mask: --secret masks the named variable, keeps the rest" {
	export TEST_TOKEN_A; TEST_TOKEN_A=$(mask_gen_value)
	printf 'a %s b\n%s\n' "$TEST_TOKEN_A" "$TEST_TOKEN_A" >"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-mask --secret TEST_TOKEN_A
	assert_equal "$status" 0
	printf 'a [redacted:TEST_TOKEN_A] b\n[redacted:TEST_TOKEN_A]\n' >"$SC_TMP/want"
	cmp "$SC_TMP/want" "$SC_TMP/out"
}

@test "sc-mask: --secret of an unset variable refuses, exit 2, no output" {
	unset TEST_UNSET_VAR || true
	printf 'hello\n' >"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-mask --secret TEST_UNSET_VAR
	assert_equal "$status" 2
	assert_equal "$stderr" "sc-mask: error[SECRET-UNSET]: environment variable 'TEST_UNSET_VAR' is not set"
	[ ! -s "$SC_TMP/out" ]
}

@test "sc-mask: a token given to --secret is never echoed, even when it could be a name" {
	local tok
	for tok in ghp_abcdefghijklmnopqrstuvwxyz0123456789 AKIAIOSFODNN7EXAMPLE \
		sk_live_abcdefghijklmnopqrstuvwx; do
		printf 'hello\n' >"$SC_TMP/in"
		sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-mask --secret "$tok"
		assert_equal "$status" 2
		[[ "$stderr" == *"error[SECRET-UNSET]"*"--secret-stdin"* ]]
		[[ "$stderr" != *"$tok"* ]]
		[ ! -s "$SC_TMP/out" ]
	done
}

@test "sc-mask: --secret-stdin NAME masks a value that has no variable; the text comes from FILE" {
	local v
	v=$(mask_gen_value)
	printf 'a %s b\n' "$v" >"$SC_TMP/file"
	sc_run_io <(printf '%s\n' "$v") "$SC_TMP/out" sc-mask --secret-stdin DEPLOY "$SC_TMP/file"
	assert_equal "$status" 0
	assert_equal "$(cat "$SC_TMP/out")" "a [redacted:DEPLOY] b"
	# Control: without the value, the file passes through unchanged.
	sc_run_io <(printf 'other-value-entirely\n') "$SC_TMP/out" sc-mask --secret-stdin DEPLOY "$SC_TMP/file"
	assert_equal "$status" 0
	grep -qF "$v" "$SC_TMP/out"
}

@test "sc-mask: --secret-stdin refuses what cannot work, exit 2, nothing written, no value shown" {
	local v
	v=$(mask_gen_value)
	printf 'x\n' >"$SC_TMP/file"
	# Standard input holds the value: no text would be left to mask.
	sc_run_io <(printf '%s\n' "$v") "$SC_TMP/out" sc-mask --secret-stdin DEPLOY
	assert_equal "$status" 2
	sc_run_io <(printf '%s\n' "$v") "$SC_TMP/out" sc-mask --secret-stdin DEPLOY --records-stream
	assert_equal "$status" 2
	sc_run_io <(printf '%s\n' "$v") "$SC_TMP/out" sc-mask --secret-stdin A --secret-stdin B "$SC_TMP/file"
	assert_equal "$status" 2
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --secret-stdin DEPLOY "$SC_TMP/file"
	assert_equal "$status" 2
	[[ "$stderr" == *"error[SECRET-EMPTY]"* ]]
	[ ! -s "$SC_TMP/out" ]
	# The name must be a name: a value typed there is not echoed.
	sc_run_io <(printf '%s\n' "$v") "$SC_TMP/out" sc-mask --secret-stdin "$v=1" "$SC_TMP/file"
	assert_equal "$status" 2
	[[ "$stderr" == *"error[SECRET-NAME]"* ]]
	[[ "$stderr" != *"$v"* ]]
	[ ! -s "$SC_TMP/out" ]
}

@test "sc-mask: --env masks secret-looking names only" {
	export TEST_API_KEY TEST_PLAIN
	TEST_API_KEY=$(mask_gen_value)
	TEST_PLAIN=$(mask_gen_value)
	printf '%s %s\n' "$TEST_API_KEY" "$TEST_PLAIN" >"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-mask --env
	assert_equal "$status" 0
	printf '[redacted:TEST_API_KEY] %s\n' "$TEST_PLAIN" >"$SC_TMP/want"
	cmp "$SC_TMP/want" "$SC_TMP/out"
}

@test "sc-mask: a short or numeric value is not masked and warned about once" {
	printf 'A_TOKEN=docker\nA_TOKEN=docker\nB_PASS=1234567890.1\n' >"$SC_TMP/s.env"
	printf 'docker 1234567890.1\n' >"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-mask --secrets-file "$SC_TMP/s.env"
	assert_equal "$status" 0
	cmp "$SC_TMP/in" "$SC_TMP/out"
	assert_equal "$(grep -c 'warning\[SHORT-SECRET\]' <<<"$stderr")" 2
	assert_equal "$(grep -c "'A_TOKEN'" <<<"$stderr")" 1
	assert_equal "$(grep -c "'B_PASS'" <<<"$stderr")" 1
	refute [ "$(grep -c docker <<<"$stderr")" -gt 0 ]
}

@test "sc-mask: a malformed secrets file: error with the line, exit 2, no output" {
	local v; v=$(mask_gen_value)
	printf 'GOOD=%s\n# c\nBAD %s\n' "$v" "$v" >"$SC_TMP/s.env"
	printf '%s\n' "$v" >"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-mask --secrets-file "$SC_TMP/s.env"
	assert_equal "$status" 2
	assert_equal "$stderr" "sc-mask: error[SECRETS-FILE]: $SC_TMP/s.env:3: no '=' after the name"
	[ ! -s "$SC_TMP/out" ]
}

@test "sc-mask: an unterminated quote names the line it opened on" {
	local v; v=$(mask_gen_value)
	printf 'A=1\nB="%s\nmore\n' "$v" >"$SC_TMP/s.env"
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --secrets-file "$SC_TMP/s.env"
	assert_equal "$status" 2
	assert_equal "$stderr" "sc-mask: error[SECRETS-FILE]: $SC_TMP/s.env:2: unterminated double quote"
}

@test "sc-mask: an unreadable secrets file refuses, exit 2" {
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --secrets-file "$SC_TMP/missing.env"
	assert_equal "$status" 2
	[[ "$stderr" == "sc-mask: error[SECRETS-FILE]: cannot read '$SC_TMP/missing.env': No such file or directory" ]]
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --secrets-file "$SC_TMP"
	assert_equal "$status" 2
}

@test "sc-mask: dotenv export, quotes and multi-line values" {
	local a b c
	a=$(mask_gen_value); b=$(mask_gen_value); c=$(mask_gen_value)
	printf 'export A_KEY="%s"\nB_KEY='"'"'%s\n%s'"'"' # two lines\n' "$a" "$b" "$c" >"$SC_TMP/s.env"
	printf '1 %s\n2 %s\n3 %s\n4 %s\n%s\n' "$a" "$b" "$c" "$b" "$c" >"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-mask --secrets-file "$SC_TMP/s.env"
	assert_equal "$status" 0
	printf '1 [redacted:A_KEY]\n2 [redacted:B_KEY]\n3 [redacted:B_KEY]\n4 [redacted:B_KEY]\n' >"$SC_TMP/want"
	cmp "$SC_TMP/want" "$SC_TMP/out"
}

@test "sc-mask: --key-file masks the file and each of its lines" {
	{
		echo '-----BEGIN TEST PRIVATE KEY-----'
		head -c 96 /dev/urandom | base64 -w 48
		echo '-----END TEST PRIVATE KEY-----'
	} >"$SC_TMP/key"
	{ echo 'log:'; sed -n 3p "$SC_TMP/key"; cat "$SC_TMP/key"; } >"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-mask --key-file "DEPLOY_KEY=$SC_TMP/key"
	assert_equal "$status" 0
	printf 'log:\n[redacted:DEPLOY_KEY]\n[redacted:DEPLOY_KEY]\n' >"$SC_TMP/want"
	cmp "$SC_TMP/want" "$SC_TMP/out"
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --key-file "$SC_TMP/key"
	assert_equal "$status" 2
	[[ "$stderr" == *"error[KEY-FILE]"* ]]
}

@test "sc-mask: --records reads type=secret records, value with NUL" {
	local v; v=$(mask_gen_value)
	sc-rec type=secret name=REC_SECRET "value=$v" >"$SC_TMP/secrets.rec"
	sc-rec type=note text=ignored >>"$SC_TMP/secrets.rec"
	printf 'x%sy\n' "$v" >"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-mask --records "$SC_TMP/secrets.rec"
	assert_equal "$status" 0
	printf 'x[redacted:REC_SECRET]y\n' >"$SC_TMP/want"
	cmp "$SC_TMP/want" "$SC_TMP/out"
	printf 'type=secret\0name=X\0' >"$SC_TMP/bad.rec"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-mask --records "$SC_TMP/bad.rec"
	assert_equal "$status" 2
	[[ "$stderr" == *"error[SECRETS-FILE]"* ]]
	[ ! -s "$SC_TMP/out" ]
}

@test "sc-mask: a secret value is never accepted on the command line" {
	local v; v=$(mask_gen_value)
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --secret "NAME=$v"
	assert_equal "$status" 2
	assert_equal "$stderr" "sc-mask: error[SECRET-NAME]: --secret takes the name of an environment variable, never a value"
	refute [ "$(grep -c -F -- "$v" <<<"$stderr")" -gt 0 ]
	run sc-mask --value "$v"
	assert_equal "$status" 2
}

@test "sc-mask: binary input and NUL bytes pass through, masked" {
	export BIN_TOKEN; BIN_TOKEN=$(mask_gen_value)
	head -c 3000 /dev/urandom | tr -d 't' >"$SC_TMP/in"
	printf '\0%s\0\377' "$BIN_TOKEN" >>"$SC_TMP/in"
	head -c 3000 /dev/urandom | tr -d 't' >>"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-mask --secret BIN_TOKEN
	assert_equal "$status" 0
	perl -e 'local $/; open F, $ARGV[0]; $a = <F>; open G, $ARGV[1]; $b = <G>;
		$a =~ s/\Q$ENV{BIN_TOKEN}\E/[redacted:BIN_TOKEN]/g; exit($a ne $b)' \
		"$SC_TMP/in" "$SC_TMP/out"
}

@test "sc-mask: files are one stream: a secret split across two is masked" {
	export SPLIT_TOKEN; SPLIT_TOKEN=$(mask_gen_value)
	printf 'a %s' "${SPLIT_TOKEN:0:13}" >"$SC_TMP/f1"
	printf '%s b\n' "${SPLIT_TOKEN:13}" >"$SC_TMP/f2"
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --secret SPLIT_TOKEN "$SC_TMP/f1" "$SC_TMP/f2"
	assert_equal "$status" 0
	printf 'a [redacted:SPLIT_TOKEN] b\n' >"$SC_TMP/want"
	cmp "$SC_TMP/want" "$SC_TMP/out"
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --secret SPLIT_TOKEN "$SC_TMP/nope"
	assert_equal "$status" 2
	[[ "$stderr" == *"error[INPUT]"* ]]
}

@test "sc-mask: output stays live: a finished line or secret appears before more input" {
	export LIVE_TOKEN; LIVE_TOKEN=$(mask_gen_value)
	mkfifo "$SC_TMP/fifo"
	(
		exec >"$SC_TMP/fifo"
		# Each step waits (bounded) until sc-mask has written the last.
		printf 'first line\n'
		for _ in $(seq 100); do
			grep -q 'first line' "$SC_TMP/out" 2>/dev/null && break
			sleep 0.05
		done
		printf 'token: %s' "$LIVE_TOKEN"
		for _ in $(seq 100); do
			grep -q 'redacted:LIVE_TOKEN' "$SC_TMP/out" 2>/dev/null && break
			sleep 0.05
		done
		grep -q 'redacted:LIVE_TOKEN' "$SC_TMP/out" && printf ' seen\n' || printf ' held\n'
	) &
	sc_run_io "$SC_TMP/fifo" "$SC_TMP/out" sc-mask --secret LIVE_TOKEN
	wait
	assert_equal "$status" 0
	printf 'first line\ntoken: [redacted:LIVE_TOKEN] seen\n' >"$SC_TMP/want"
	cmp "$SC_TMP/want" "$SC_TMP/out"
}
