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
	run_demo_repo
}

# The registry stand-in, for the tests that run commands.
serve() {
	run_need_userns
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
	serve
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

@test "a bad host in an answer, or an answer too long to read whole, allows nothing" {
	serve
	local url="http://127.0.0.1:$REG_PORT/hello" long
	transcript c1 "$url" c2 "$url" c3 "$url" >"$SC_TMP/t"
	# a line longer than an answer can be is not cut to a shorter list:
	# it is no, and the next line is the next answer
	long="h 127.0.0.1:$REG_PORT$(printf ',a%04d.example.com' $(seq 1 80))"
	printf '%s\nh 127.0.0.1:%s,https://example.com\nr 10.0.0.0/8\n' "$long" "$REG_PORT" \
		>"$SC_TMP/answers"
	run --separate-stderr git speccoder run greeting --transcript "$SC_TMP/t" \
		--answers "$SC_TMP/answers"
	[[ "$stderr" == *"refused: the answer is longer than an answer can be"* ]]
	[[ "$stderr" == *"refused: a scheme"* ]]
	[[ "$stderr" == *"refused: a path or an address range"* ]]
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "approval") | "\(.id) \(.answer) \(.host // "-")"' "$SC_TMP/j"
	assert_output "c1 no -
c2 no -
c3 no -"
	run jq -r 'select(.type == "result") | "\(.id) \(.outcome)"' "$SC_TMP/j"
	assert_output "c1 denied
c2 denied
c3 denied"
	[ ! -s "$REG_LOG" ] || ! grep -q hello "$REG_LOG"
	run find "$XDG_STATE_HOME" -name grants -size +0
	assert_output ""
}

@test "--no-prompt grants no network, whatever the answers file says" {
	serve
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

@test "a grant for the run with hosts: later calls of that object get those hosts, no other call does" {
	serve
	local url="http://127.0.0.1:$REG_PORT/hello"
	transcript c1 "$url" c2 "$url" c3 "http://127.0.0.1:$REG_PORT/other" >"$SC_TMP/t"
	# c1 granted for the run with the host; c2 is not asked; c3 is
	printf 'r 127.0.0.1:%s\nn\n' "$REG_PORT" >"$SC_TMP/answers"
	run --separate-stderr git speccoder run greeting --transcript "$SC_TMP/t" \
		--answers "$SC_TMP/answers"
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "verdict") | "\(.id) \(.rule) \(.host // "-")"' "$SC_TMP/j"
	assert_line "c1 ask.network-tool -"
	assert_line "c2 allow.grant 127.0.0.1:$REG_PORT"
	assert_line "c3 ask.network-tool -"
	run jq -r 'select(.type == "approval") | "\(.id) \(.answer) \(.host // "-")"' "$SC_TMP/j"
	assert_output "c1 run 127.0.0.1:$REG_PORT
c3 no -"
	run jq -r 'select(.type == "result") | "\(.id) \(.outcome) \(.exit // "-")"' "$SC_TMP/j"
	assert_output "c1 ok 0
c2 ok 0
c3 denied -"
	[ "$(grep -c hello "$REG_LOG")" -eq 2 ]
}

@test "sc-classify: a grant's hosts go with the call it allows, and a bad one grants nothing" {
	sc-rec type=call id=1 tool=run argv=curl argv=https://example.org/x >"$SC_TMP/call"
	sc_run_io "$SC_TMP/call" "$SC_TMP/v" sc-classify --root .
	object=$(sc-rec --to-json <"$SC_TMP/v" | jq -r .object)
	sc-rec type=grant "object=$object" host=example.org host=cdn.example.org:8443 >"$SC_TMP/g"
	sc_run_io "$SC_TMP/call" "$SC_TMP/v" sc-classify --root . --grants "$SC_TMP/g"
	assert_success
	run sc-rec --to-json <"$SC_TMP/v"
	assert_output --partial '"rule":"allow.grant"'
	assert_output --partial '"host":["example.org","cdn.example.org:8443"]'
	# a line with that part and one not granted: asked, and no hosts
	sc-rec type=call id=2 tool=run "shell=curl https://example.org/x; wget x" >"$SC_TMP/call2"
	sc_run_io "$SC_TMP/call2" "$SC_TMP/v" sc-classify --root . --grants "$SC_TMP/g"
	run sc-rec --to-json <"$SC_TMP/v"
	assert_output --partial '"decision":"ask"'
	refute_output --partial '"host"'
	# a grant naming something that is no host is no grant at all
	for bad in https://example.org '*' 10.0.0.0/8 example.org:70000; do
		sc-rec type=grant "object=$object" host=example.org "host=$bad" >"$SC_TMP/g"
		sc_run_io "$SC_TMP/call" "$SC_TMP/v" sc-classify --root . --grants "$SC_TMP/g"
		run sc-rec --to-json <"$SC_TMP/v"
		assert_output --partial '"decision":"ask"'
		refute_output --partial '"host"'
	done
}
