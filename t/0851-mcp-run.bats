#!/usr/bin/env bats
# git speccoder run with MCP servers: the replay model calls a tool of the
# pinned everything server end to end (policy, sandbox, masking, journal),
# and a tool that pulls the rug mid-attempt is withdrawn and refused.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/run

setup() {
	sc_common_setup
	command -v node >/dev/null || skip "node is not installed: make deps installs it"
	NPM="$SC_TOP/t/npm/node_modules"
	[ -d "$NPM/@modelcontextprotocol/server-everything" ] ||
		skip "the pinned npm packages are not installed: run make deps"
	run_need_userns
	run_demo_repo
}

# Configure server NAME running COMMAND, allow TOOL at its current digest,
# and commit: the attempt reads the committed configuration.
mcp_server() { # NAME COMMAND TOOL
	git config -f speccoder.conf "mcp.$1.command" "$2"
	local d
	d=$(sc-mcp --server "$1" --list -- sc-sandbox-exec --root . --mode auto </dev/null |
		sc-rec --to-json | jq -r --arg t "$3" 'select(.tool == $t) | .digest')
	[ -n "$d" ]
	git config -f speccoder.conf --add "mcp.$1.allow" "$3 $d"
	git commit -q -am "an MCP server"
}

@test "run: the model calls an allowed MCP tool; the result comes back masked and labelled, the journal has it" {
	mcp_server ev "node $NPM/@modelcontextprotocol/server-everything/dist/index.js stdio" echo
	cat >"$SC_TMP/t" <<T
{"type":"turn"}
{"type":"call","id":"c1","tool":"mcp__ev__echo","arguments":"{\"message\":\"style: key $DEMO_API_KEY\"}"}
{"type":"turn"}
{"type":"expect","of":"tool-result","id":"c1","contains":"Echo: style: key [redacted:"}
{"type":"call","id":"c2","tool":"write","path":"greet.sh","content":"#!/bin/sh\necho \"Hello, \${1:-world}!\"\n"}
{"type":"turn"}
{"type":"call","id":"c3","tool":"run","argv":["make","test"]}
{"type":"turn"}
{"type":"text","text":"done"}
T
	run --separate-stderr git speccoder run greeting --no-prompt --transcript "$SC_TMP/t"
	assert_success
	run_journal_json >"$SC_TMP/j"
	# The policy judged it as the MCP tool at its digest, and allowed it.
	run jq -r 'select(.type == "verdict" and .id == "c1") | .decision + " " + .rule + " " + .class' "$SC_TMP/j"
	assert_output "allow allow.mcp mcp"
	run jq -r 'select(.type == "verdict" and .id == "c1") | .object' "$SC_TMP/j"
	assert_output --partial "server=ev tool=echo digest=sha256:"
	run jq -r 'select(.type == "result" and .id == "c1") | .outcome' "$SC_TMP/j"
	assert_output ok
	run jq -r 'select(.type == "mcp-tool") | .name' "$SC_TMP/j"
	assert_output mcp__ev__echo
	# The key the model put in the call never came back unmasked.
	run grep -c "$DEMO_API_KEY" <(run_all_text)
	assert_output 0
}

@test "run: a tool that changes its definition mid-attempt is withdrawn; the next call is refused" {
	mcp_server rug "node $SC_TOP/t/lib/rugpull-mcp.mjs --after-call" greet
	cat >"$SC_TMP/t" <<'T'
{"type":"turn"}
{"type":"call","id":"c1","tool":"mcp__rug__greet","arguments":"{\"who\":\"bob\"}"}
{"type":"turn"}
{"type":"expect","of":"tool-result","id":"c1","contains":"hello bob"}
{"type":"call","id":"c2","tool":"mcp__rug__greet","arguments":"{\"who\":\"eve\"}"}
{"type":"turn"}
{"type":"expect","of":"tool-result","id":"c2","contains":"denied"}
{"type":"text","text":"stopped"}
T
	run --separate-stderr git speccoder run greeting --no-prompt --transcript "$SC_TMP/t" --retries 0
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "withdrawn") | .code + " " + .tool' "$SC_TMP/j"
	assert_output "MCP-DEFINITION-CHANGED greet"
	run jq -r 'select(.type == "verdict" and .id == "c2") | .decision + " " + .rule' "$SC_TMP/j"
	assert_output "deny ask.mcp-digest"
	# The conversation no longer offers the tool.
	conv=$(find "$XDG_STATE_HOME" -name conversation | head -n 1)
	run bash -c 'sc-rec --to-json <"$1" | jq -r "select(.type == \"tool\" and .withdrawn == \"1\") | .name"' _ "$conv"
	assert_output mcp__rug__greet
}

@test "mcp list shows each tool's status and digest; mcp allow pins the definition a person reviewed" {
	git config -f speccoder.conf mcp.rug.command "node $SC_TOP/t/lib/rugpull-mcp.mjs"
	run --separate-stderr git speccoder mcp list
	assert_success
	assert_line --regexp '^rug +greet +new +sha256:[0-9a-f]{64}$'
	# Without a terminal to ask on, and without --yes, nothing is allowed.
	run --separate-stderr git speccoder mcp allow rug greet </dev/null
	assert_failure 1
	assert_regex "$stderr" "NOT-CONFIRMED"
	run git config -f speccoder.conf --get-all mcp.rug.allow
	assert_failure
	# With --yes: the definition is shown, then pinned.
	run --separate-stderr git speccoder mcp allow --yes rug greet
	assert_success
	assert_output --partial '"description": "Greets someone by name."'
	d=$(git config -f speccoder.conf --get mcp.rug.allow)
	[[ "$d" =~ ^greet\ sha256:[0-9a-f]{64}$ ]]
	run --separate-stderr git speccoder mcp list rug
	assert_line --regexp '^rug +greet +allowed +sha256:'
	# The server changes the tool: the pin no longer holds.
	git config -f speccoder.conf mcp.rug.command "node $SC_TOP/t/lib/rugpull-mcp.mjs --changed"
	run --separate-stderr git speccoder mcp list rug
	assert_line --regexp '^rug +greet +changed +sha256:'
	# Allowing again replaces the pin, never adds a second one.
	run --separate-stderr git speccoder mcp allow --yes rug greet
	assert_success
	run git config -f speccoder.conf --get-all mcp.rug.allow
	assert_equal "${#lines[@]}" 1
	[ "$output" != "$d" ]
	run --separate-stderr git speccoder mcp allow --yes rug nosuch
	assert_failure 1
	assert_regex "$stderr" "NO-SUCH-TOOL"
}

@test "mcp allow shows the definition cleaned as every tool cleans text: no bidi override reaches the terminal" {
	git config -f speccoder.conf mcp.rug.command "node $SC_TOP/t/lib/rugpull-mcp.mjs --bidi"
	run --separate-stderr git speccoder mcp allow --yes rug greet
	assert_success
	assert_output --partial 'Greets someone by name.'
	# U+202E (RIGHT-TO-LEFT OVERRIDE) would reorder what the person reads.
	refute_output --partial $'\xe2\x80\xae'
}

@test "run: a key the server holds never reaches the model through its tool's description or result" {
	git config -f speccoder.conf mcp.rug.env DEMO_API_KEY
	mcp_server rug "node $SC_TOP/t/lib/rugpull-mcp.mjs --leak DEMO_API_KEY" greet
	cat >"$SC_TMP/t" <<'T'
{"type":"turn"}
{"type":"call","id":"c1","tool":"mcp__rug__greet","arguments":"{\"who\":\"bob\"}"}
{"type":"turn"}
{"type":"expect","of":"tool-result","id":"c1","contains":"hello bob ([redacted:"}
{"type":"text","text":"stopped"}
T
	run --separate-stderr git speccoder run greeting --no-prompt --transcript "$SC_TMP/t" --retries 0
	conv=$(find "$XDG_STATE_HOME" -name conversation | head -n 1)
	run grep -c "$DEMO_API_KEY" "$conv"
	assert_output 0
	run bash -c 'sc-rec --to-json <"$1" | jq -r "select(.type == \"tool\" and .name == \"mcp__rug__greet\") | .description"' _ "$conv"
	assert_output --partial "Greets someone by name. ([redacted:"
	run grep -c "$DEMO_API_KEY" <(run_all_text)
	assert_output 0
}

@test "run: a server that rewrites the spec through an allowed tool ends the attempt (the guard runs after MCP calls)" {
	# The filesystem server works in the root (sc-mcp --cwd) and may write
	# all of it: only the guard stands between it and the spec.
	mcp_server fs "node $NPM/@modelcontextprotocol/server-filesystem/dist/index.js ." write_file
	cat >"$SC_TMP/t" <<'T'
{"type":"turn"}
{"type":"call","id":"c1","tool":"mcp__fs__write_file","arguments":"{\"path\":\"specs/greeting/spec.md\",\"content\":\"# anything goes\\n\"}"}
{"type":"turn"}
{"type":"text","text":"never reached"}
T
	run --separate-stderr git speccoder run greeting --no-prompt --transcript "$SC_TMP/t" --retries 0
	assert_failure 1
	assert_regex "$stderr" "INTEGRITY"
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "result" and .id == "c1") | .outcome' "$SC_TMP/j"
	assert_output ok
	run jq -r 'select(.type == "end" and .command == "run") | .code' "$SC_TMP/j"
	assert_output INTEGRITY
	# Stopped right after the call, not later by the checks' guard.
	run jq -r 'select(.type == "stop") | .code' "$SC_TMP/j"
	assert_output INTEGRITY
	run jq -r 'select(.type == "text") | .text' "$SC_TMP/j"
	refute_output --partial "never reached"
	assert_equal "$(git rev-list --count main..speccoder/greeting)" 0
}
