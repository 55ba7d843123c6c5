#!/usr/bin/env bats
# sc-rec(1): records <-> JSON Lines, records from arguments.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/records

@test "sc-rec NAME=VALUE writes one record, byte for byte" {
	: >"$SC_TMP/empty"
	sc_run_io "$SC_TMP/empty" "$SC_TMP/out" sc-rec type=call tool=read path=README.md argv=a argv= 'text=x=y'
	assert_success
	printf 'type=call\0tool=read\0path=README.md\0argv=a\0argv=\0text=x=y\0\0' >"$SC_TMP/want"
	cmp "$SC_TMP/want" "$SC_TMP/out"
}

@test "sc-rec refuses a first field other than type=" {
	run --separate-stderr sc-rec tool=read type=call
	assert_equal "$status" 2
	[[ "$stderr" == *"error[USAGE]: the first field must be type="* ]]
	assert_output ""
}

@test "sc-rec refuses a bad field name and an argument without =" {
	local arg
	for arg in 'Type=x' '9a=x' 'a b=x' '=x' 'novalue' 'a@base64=x'; do
		run --separate-stderr sc-rec type=t "$arg"
		[ "$status" -eq 2 ] || fail "'$arg': status $status"
		[[ "$stderr" == *"error[USAGE]"* ]] || fail "'$arg': $stderr"
		[ -z "$output" ] || fail "'$arg': wrote output"
	done
}

@test "sc-rec with no mode and no field, or two modes, is a usage error" {
	run --separate-stderr sc-rec
	assert_equal "$status" 2
	run --separate-stderr sc-rec --to-json --from-json
	assert_equal "$status" 2
	run --separate-stderr sc-rec --to-json type=x
	assert_equal "$status" 2
}

@test "--to-json: once-seen names are strings, repeated names arrays" {
	printf 'type=call\0tool=run\0argv=make\0argv=test\0cwd=\0\0' >"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-rec --to-json
	assert_success
	assert_equal "$(cat "$SC_TMP/out")" '{"type":"call","tool":"run","argv":["make","test"],"cwd":""}'
}

@test "--to-json: NUL bytes escape, non-UTF-8 goes under NAME@base64" {
	printf 'type=x\0n:3=a\0b\0bin=\377\376\0bin=ok\0u=caf\303\251\0\0' >"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-rec --to-json
	assert_success
	assert_equal "$(cat "$SC_TMP/out")" '{"type":"x","n":"a\u0000b","bin@base64":["//4=","b2s="],"u":"café"}'
	# jq reads it: the NUL is one character of a three-character string.
	run jq -r '.n | length' "$SC_TMP/out"
	assert_output 3
}

@test "records -> JSON -> records is byte-exact on generated records" {
	sc_gen_records 42 300 >"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/json" sc-rec --to-json
	assert_success
	sc_run_io "$SC_TMP/json" "$SC_TMP/back" sc-rec --from-json
	assert_success
	cmp "$SC_TMP/in" "$SC_TMP/back"
	# The generator did make the hard cases.
	grep -q '\\u0000' "$SC_TMP/json"
	grep -q '@base64' "$SC_TMP/json"
	grep -q '"[a-z._-]*":""' "$SC_TMP/json"
	[ "$(wc -L <"$SC_TMP/json")" -gt 100000 ]
	# Every line is one JSON object that jq accepts, and jq -c keeps it.
	jq -c . "$SC_TMP/json" >"$SC_TMP/jq"
	sc_run_io "$SC_TMP/jq" "$SC_TMP/back2" sc-rec --from-json
	assert_success
	cmp "$SC_TMP/in" "$SC_TMP/back2"
}

@test "interleaved repeated names are grouped by name, in order" {
	printf 'type=x\0a=1\0b=2\0a=3\0\0' >"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/json" sc-rec --to-json
	assert_success
	assert_equal "$(cat "$SC_TMP/json")" '{"type":"x","a":["1","3"],"b":"2"}'
}

@test "--from-json puts type first, whatever the member order" {
	printf '{"path":"a","type":"call"}\n' >"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-rec --from-json
	assert_success
	printf 'type=call\0path=a\0\0' >"$SC_TMP/want"
	cmp "$SC_TMP/want" "$SC_TMP/out"
}

@test "--from-json: malformed JSON is error[MALFORMED-JSON] with its line, after the good records" {
	local bad
	while IFS= read -r bad; do
		printf '{"type":"ok1"}\n{"type":"ok2"}\n%s\n{"type":"never"}\n' "$bad" >"$SC_TMP/in"
		sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-rec --from-json
		[ "$status" -eq 3 ] || fail "'$bad': status $status"
		[[ "$stderr" == "sc-rec: error[MALFORMED-JSON]: line 3"* ]] || fail "'$bad': $stderr"
		printf 'type=ok1\0\0type=ok2\0\0' >"$SC_TMP/want"
		cmp "$SC_TMP/want" "$SC_TMP/out" || fail "'$bad': output is not the good records"
	done <<'CASES'
{"type":"t"
not json
[]
{}
{"a":"no type"}
{"type":1}
{"type":"t","a":[1]}
{"type":"t","a":null}
{"type":"t","Bad":"x"}
{"type":"t","a@hex":"00"}
{"type":"t","a@base64":"Zg="}
{"type":"t","a":"x","a@base64":"Zg=="}
{"type":"t","a":"x","a":"y"}
{"type":"t"} trailing
CASES
}

@test "--from-json never echoes input in its diagnostics" {
	printf '{"type":"t","hunter2-secret-value' >"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-rec --from-json
	assert_equal "$status" 3
	[[ "$stderr" != *hunter2* ]]
	printf '{"type":"t","x":"a"} hunter2-secret\n' >"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-rec --from-json
	assert_equal "$status" 3
	[[ "$stderr" != *hunter2* ]]
}

@test "--from-json skips empty lines and takes a last line without newline" {
	printf '{"type":"a"}\n\n{"type":"b"}' >"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-rec --from-json
	assert_success
	printf 'type=a\0\0type=b\0\0' >"$SC_TMP/want"
	cmp "$SC_TMP/want" "$SC_TMP/out"
}

@test "sc-rec --for-terminal cleans controls, C1 in UTF-8, escapes and bidi, and keeps lines" {
	printf 'ok\033[2J\033]0;title\007 x\n\302\2331m \342\200\256evil \302\205\nN\xe2\x82' >"$SC_TMP/in"
	printf 'caf\303\251 \360\237\231\202\n' >>"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-rec --for-terminal
	[ "$status" -eq 0 ]
	printf 'ok?[2J?]0;title? x\n?1m ?evil ?\nN??caf\303\251 \360\237\231\202\n' >"$SC_TMP/want"
	cmp "$SC_TMP/want" "$SC_TMP/out"
}

@test "sc-rec --for-terminal streams a long line without cutting a character" {
	# 200000 euro signs: reads of 64 KiB end inside characters
	perl -e 'print "\xe2\x82\xac" x 200000, "\n"' >"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-rec --for-terminal
	[ "$status" -eq 0 ]
	cmp "$SC_TMP/in" "$SC_TMP/out"
}
