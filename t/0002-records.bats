#!/usr/bin/env bats
# sc-record(5) as every reader must treat it, exercised through sc-rec:
# malformed input, the size limit, streaming and flushing.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/records

# The one line of diagnostics a malformed case must give.
expected_stderr() {
	case "$1" in
	RECORD-TOO-LARGE)
		echo "sc-rec: error[RECORD-TOO-LARGE]: record at byte $2 is larger than 16777216 bytes" ;;
	*)
		echo "sc-rec: error[$1]: $3 at byte $2" ;;
	esac
}

@test "every malformed case of sc-record(5): exit 3, its code and byte, only the good records before" {
	local input code offset good what n=0 want
	while IFS=$'\t' read -r input code offset good what; do
		case "$input" in '#'*|'') continue ;; esac
		n=$((n + 1))
		# shellcheck disable=SC2059
		printf "$input" >"$SC_TMP/in"
		sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-rec --to-json
		[ "$status" -eq 3 ] || fail "$what: status $status"
		[ "${#stderr_lines[@]}" -eq 1 ] || fail "$what: stderr '$stderr'"
		if [ "$code" = MALFORMED-RECORD ]; then
			[[ "$stderr" == "sc-rec: error[MALFORMED-RECORD]: "*" at byte $offset" ]] ||
				fail "$what: stderr '$stderr'"
		else
			want=$(expected_stderr "$code" "$offset")
			[ "$stderr" = "$want" ] || fail "$what: stderr '$stderr'"
		fi
		[ "$(wc -l <"$SC_TMP/out")" -eq "$good" ] || fail "$what: $(cat "$SC_TMP/out")"
		if [ "$good" -gt 0 ]; then
			[ "$(head -n 1 "$SC_TMP/out")" = '{"type":"a"}' ] || fail "$what: $(cat "$SC_TMP/out")"
		fi
	done <"$SC_TOP/t/data/records/malformed.txt"
	[ "$n" -ge 19 ]
}

@test "a record over 16 MiB is RECORD-TOO-LARGE after the records before it" {
	{
		printf 'type=small\0\0'
		printf 'type=big\0v='
		head -c $((16 * 1024 * 1024)) /dev/zero | tr '\0' x
		printf '\0\0type=never\0\0'
	} >"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-rec --to-json
	assert_equal "$status" 3
	assert_equal "$stderr" "sc-rec: error[RECORD-TOO-LARGE]: record at byte 12 is larger than 16777216 bytes"
	assert_equal "$(cat "$SC_TMP/out")" '{"type":"small"}'
}

@test "a record just under the limit passes" {
	# 16 MiB in all: "type=big\0" (9) + "v=" (2) + value + "\0\0" (2).
	{
		printf 'type=big\0v='
		head -c $((16 * 1024 * 1024 - 13)) /dev/zero | tr '\0' x
		printf '\0\0'
	} >"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-rec --to-json
	assert_success
	sc_run_io "$SC_TMP/out" "$SC_TMP/back" sc-rec --from-json
	assert_success
	cmp "$SC_TMP/in" "$SC_TMP/back"
}

@test "diagnostics never hold input bytes, and control characters are cleaned" {
	printf 'type=a\0hunter2-secret\0\0' >"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-rec --to-json
	assert_equal "$status" 3
	[[ "$stderr" != *hunter2* ]]
	run --separate-stderr sc-rec $'--bad\e[31m-option'
	assert_equal "$status" 2
	[[ "$stderr" != *$'\e'* ]]
}

@test "a record split at every byte between reads comes out whole" {
	sc_gen_records 7 5 >"$SC_TMP/all"
	# Keep the test short: the first records, cut at a record boundary.
	perl -0777 -ne 'my @r = split /(?<=\0\0)(?=type=)/; print @r[0..1]' "$SC_TMP/all" >"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/want" sc-rec --to-json
	assert_success
	# One byte per write, with a pause, so every read sees one byte.
	run bash -c 'perl -e '\''$|=1; local $/; my $d = <STDIN>; for my $c (split //, $d) { syswrite STDOUT, $c; select undef, undef, undef, 0.0005 }'\'' <"$1" | sc-rec --to-json >"$2"' \
		sh "$SC_TMP/in" "$SC_TMP/got"
	assert_success
	cmp "$SC_TMP/want" "$SC_TMP/got"
}

@test "sc-rec answers each record before its input ends (coprocess)" {
	local line fd pid
	coproc SCREC { exec sc-rec --to-json; }
	# bash unsets SCREC_PID when the coprocess ends: keep it.
	pid=$SCREC_PID
	printf 'type=ping\0n=1\0\0' >&"${SCREC[1]}"
	IFS= read -r -t 10 line <&"${SCREC[0]}" || fail "no answer while input stays open"
	assert_equal "$line" '{"type":"ping","n":"1"}'
	printf 'type=ping\0n=2\0\0' >&"${SCREC[1]}"
	IFS= read -r -t 10 line <&"${SCREC[0]}" || fail "no second answer"
	assert_equal "$line" '{"type":"ping","n":"2"}'
	fd=${SCREC[1]}
	exec {fd}>&-
	wait "$pid"
}

@test "sc-rec --from-json answers each line before its input ends (coprocess)" {
	local fd pid
	coproc SCREC { exec sc-rec --from-json; }
	pid=$SCREC_PID
	printf '{"type":"ping"}\n' >&"${SCREC[1]}"
	timeout 10 head -c 11 <&"${SCREC[0]}" >"$SC_TMP/got"
	printf 'type=ping\0\0' >"$SC_TMP/want"
	cmp "$SC_TMP/want" "$SC_TMP/got"
	fd=${SCREC[1]}
	exec {fd}>&-
	wait "$pid"
}

@test "memory stays bounded on a long stream" {
	sc_gen_records 3 50 >"$SC_TMP/chunk"
	for _ in 1 2 3 4 5 6 7 8; do cat "$SC_TMP/chunk"; done >"$SC_TMP/in"
	[ "$(stat -c %s "$SC_TMP/in")" -gt $((20 * 1024 * 1024)) ]
	# shellcheck disable=SC2016 # expanded by the inner sh
	run /usr/bin/time -f '%M' -o "$SC_TMP/rss" sh -c 'sc-rec --to-json <"$1" >/dev/null' sh "$SC_TMP/in"
	assert_success
	# Peak resident size in KiB: a few records, not the whole input.
	[ "$(tail -n 1 "$SC_TMP/rss")" -lt 16384 ] || fail "peak RSS $(cat "$SC_TMP/rss") KiB"
}

@test "the good records are written before the diagnostic about the bad one" {
	printf 'type=ok\0\0type=bad\0Oops=1\0\0' >"$SC_TMP/in"
	# shellcheck disable=SC2016 # expanded by the inner sh
	run sh -c 'sc-rec --to-json <"$1" >"$2" 2>&1' sh "$SC_TMP/in" "$SC_TMP/both"
	assert_equal "$status" 3
	assert_equal "$(head -n 1 "$SC_TMP/both")" '{"type":"ok"}'
	assert_equal "$(sed -n 2p "$SC_TMP/both")" "sc-rec: error[MALFORMED-RECORD]: bad character in field name at byte 18"
	printf '{"type":"ok"}\n{"type":\n' >"$SC_TMP/in"
	# shellcheck disable=SC2016 # expanded by the inner sh
	run sh -c 'sc-rec --from-json <"$1" >"$2" 2>&1' sh "$SC_TMP/in" "$SC_TMP/both"
	assert_equal "$status" 3
	assert_equal "$(head -c 10 "$SC_TMP/both" | tr '\0' '|')" "type=ok||s"
}
