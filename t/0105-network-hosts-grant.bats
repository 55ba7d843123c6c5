#!/usr/bin/env bats
# A person's answer that names hosts: the call it answers runs once with
# the network to exactly those hosts (sc-sandbox-exec --network hosts),
# the approval is journaled with them, and nothing else is covered.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/run
load lib/nethosts

setup() {
	sc_common_setup
	run_need_userns
	run_demo_repo
	mkdir -p "$SC_TMP/reg"
	echo "registry says hello" >"$SC_TMP/reg/hello"
	nh_serve "$SC_TMP/reg"
}

teardown() { nh_stop; }

# A transcript of one turn holding the curl calls "ID URL" given.
transcript() { # ID URL...
	printf '{"type":"turn"}\n'
	while [ $# -ge 2 ]; do
		printf '{"type":"call","id":"%s","tool":"run","argv":["curl","-fsS","--noproxy","","--max-time","10","%s"]}\n' "$1" "$2"
		shift 2
	done
	printf '{"type":"turn"}\n{"type":"text","text":"done"}\n{"type":"end","reason":"end-turn"}\n'
}

@test "a grant naming a host reaches it through the proxy, once; another host is refused" {
	local url="http://127.0.0.1:$REG_PORT/hello"
	transcript c1 "$url" c2 "http://localhost:$REG_PORT/hello" c3 "$url" >"$SC_TMP/t"
	# c1 and c2 get the host, c3 (the same call as c1) is asked again
	printf 'h 127.0.0.1:%s\nhosts 127.0.0.1:%s\no\n' "$REG_PORT" "$REG_PORT" >"$SC_TMP/answers"
	run --separate-stderr git speccoder run greeting --transcript "$SC_TMP/t" \
		--answers "$SC_TMP/answers"
	run_journal_json >"$SC_TMP/j"
	# curl is a network tool: asked, and each answer journaled with its hosts
	run jq -r 'select(.type == "verdict") | "\(.id) \(.decision) \(.rule)"' "$SC_TMP/j"
	assert_line "c1 ask ask.network-tool"
	assert_line "c3 ask ask.network-tool"
	run jq -r 'select(.type == "approval") | "\(.id) \(.answer) \(.host // "-")"' "$SC_TMP/j"
	assert_line "c1 once 127.0.0.1:$REG_PORT"
	assert_line "c2 once 127.0.0.1:$REG_PORT"
	assert_line "c3 once -"
	# c1 reached the host; c2 named another host and the proxy refused it;
	# c3 was allowed without hosts: no proxy, its own loopback, nothing
	run jq -r 'select(.type == "result") | "\(.id) \(.exit)"' "$SC_TMP/j"
	assert_line "c1 0"
	assert_line "c2 22"
	assert_line "c3 7"
	run jq -r 'select(.type == "connection") | "\(.host):\(.port) \(.decision)"' "$SC_TMP/j"
	assert_output "127.0.0.1:$REG_PORT allow
localhost:$REG_PORT deny"
	# the registry saw exactly one request
	[ "$(grep -c hello "$REG_LOG")" -eq 1 ]
	# nothing was granted for the run: the grants file is empty
	run find "$XDG_STATE_HOME" -name grants -size +0
	assert_output ""
}

@test "a bad host in an answer allows nothing" {
	local url="http://127.0.0.1:$REG_PORT/hello"
	transcript c1 "$url" c2 "$url" >"$SC_TMP/t"
	printf 'h 127.0.0.1:%s,https://example.com\nh 10.0.0.0/8\n' "$REG_PORT" >"$SC_TMP/answers"
	run --separate-stderr git speccoder run greeting --transcript "$SC_TMP/t" \
		--answers "$SC_TMP/answers"
	[[ "$stderr" == *"refused: a scheme"* ]]
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "approval") | "\(.id) \(.answer) \(.host // "-")"' "$SC_TMP/j"
	assert_output "c1 no -
c2 no -"
	run jq -r 'select(.type == "result") | "\(.id) \(.outcome)"' "$SC_TMP/j"
	assert_output "c1 denied
c2 denied"
	[ ! -s "$REG_LOG" ] || ! grep -q hello "$REG_LOG"
}

@test "--no-prompt grants no network, whatever the answers file says" {
	local url="http://127.0.0.1:$REG_PORT/hello"
	transcript c1 "$url" >"$SC_TMP/t"
	printf 'h 127.0.0.1:%s\n' "$REG_PORT" >"$SC_TMP/answers"
	run --separate-stderr git speccoder run greeting --no-prompt --transcript "$SC_TMP/t" \
		--answers "$SC_TMP/answers"
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "verdict") | "\(.id) \(.decision)"' "$SC_TMP/j"
	assert_output "c1 deny"
	run jq -c 'select(.type == "approval" or .type == "connection")' "$SC_TMP/j"
	refute_output --partial '"host"'
	run jq -r 'select(.type == "result") | "\(.id) \(.outcome)"' "$SC_TMP/j"
	assert_output "c1 denied"
	[ ! -s "$REG_LOG" ] || ! grep -q hello "$REG_LOG"
}
