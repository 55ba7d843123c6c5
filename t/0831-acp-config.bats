#!/usr/bin/env bats
# executor.* in speccoder.conf, read by sc-config --executor: the argv an
# external agent is started with, split in C, and the names it may get.

# shellcheck disable=SC2154 # bats sets $status, $stderr, $output
load lib/common

conf() {
	printf '%s\n' "$@" >"$SC_TMP/speccoder.conf"
}

executor_json() {
	sc_run_io /dev/null "$SC_TMP/out" sc-config --file "$SC_TMP/speccoder.conf" --executor
	output=$(sc-rec --to-json <"$SC_TMP/out")
}

@test "sc-config --executor: the command split as a shell splits words, the names in order" {
	conf '[executor]' \
		"	command = gemini --experimental-acp --model 'gemini 2.5' \$HOME" \
		'	env = GEMINI_API_KEY' '	env = HTTPS_PROXY'
	executor_json
	assert_equal "$status" 0
	# shellcheck disable=SC2016 # $HOME is a word of the argv, unexpanded
	assert_equal "$output" '{"type":"executor","argv":["gemini","--experimental-acp","--model","gemini 2.5","$HOME"],"env":["GEMINI_API_KEY","HTTPS_PROXY"]}'
}

@test "sc-config --executor: no executor is exit 1 with nothing written" {
	conf '[check "test"]' '	argv = make test'
	executor_json
	assert_equal "$status" 1
	[ ! -s "$SC_TMP/out" ]
}

@test "sc-config --executor: bad executor keys are BAD-CONFIG, exit 3, nothing written" {
	local bad
	# git-config quoting hands sc_sw_split an operator and an open quote.
	for bad in '	command = "a | b"' $'\tcommand = "\'open"' '	command =' \
		$'\tcommand = a\n\tcommand = b' '	env = NOT-A-NAME' \
		$'\tcommand = a\n\tenv = A=B' '	env = KEY' $'\tcommand = a\n\targv = b'; do
		printf '[executor]\n%s\n' "$bad" >"$SC_TMP/speccoder.conf"
		executor_json
		assert_equal "$status" 3
		[[ "$stderr" == *"error[BAD-CONFIG]"* ]]
		[ ! -s "$SC_TMP/out" ]
	done
}
