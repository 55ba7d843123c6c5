#!/usr/bin/env bats
# An external agent's MCP servers (sc-acp --mcp): an agent built on the
# official ACP SDK (t/lib/sdk-agent.mjs) gets, in session/new, only
# speccoder's relays (sc-mcp --relay), and reaches the pinned everything
# server and a server that pulls the rug through them: the allowed tool
# answers, a tool never allowed is not offered, a call the policy refuses
# is refused, and a changed definition is withdrawn.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/run

setup() {
	sc_common_setup
	command -v node >/dev/null || skip "node is not installed: make deps installs it"
	NPM="$SC_TOP/t/npm/node_modules"
	if [ ! -d "$NPM/@agentclientprotocol/sdk" ] ||
		[ ! -d "$NPM/@modelcontextprotocol/server-everything" ]; then
		skip "the pinned npm packages are not installed: run make deps"
	fi
	run_need_userns
	run_demo_repo
	mkdir -p "$SC_TMP/alog"
}

# Configure server NAME running COMMAND and allow TOOL at its current digest.
mcp_server() { # NAME COMMAND TOOL
	git config -f speccoder.conf "mcp.$1.command" "$2"
	local d
	d=$(sc-mcp --server "$1" --list -- sc-sandbox-exec --root . --mode auto </dev/null |
		sc-rec --to-json | jq -r --arg t "$3" 'select(.tool == $t) | .digest')
	[ -n "$d" ]
	git config -f speccoder.conf --add "mcp.$1.allow" "$3 $d"
}

# The SDK agent carries out PLAN (JSON) as the run's executor; commit.
sdk_executor() { # PLAN-JSON
	printf '%s\n' "$1" >"$SC_TMP/alog/plan.json"
	git config -f speccoder.conf executor.command \
		"node $SC_TOP/t/lib/sdk-agent.mjs $SC_TMP/alog/plan.json $SC_TMP/alog/log"
	git config -f speccoder.conf --add sandbox.writableOutside "$SC_TMP/alog"
	git commit -q -am "an external agent with MCP servers"
}

teardown() {
	if [ -n "${SERVER_PID:-}" ]; then
		kill "$SERVER_PID" 2>/dev/null || true
	fi
	sc_common_teardown
}

# The stand-in Messages API (t/lib/fake-anthropic.mjs); sets $BASE_URL.
start_fake_anthropic() { # SCRIPT-JSON
	printf '%s\n' "$1" >"$SC_TMP/model.json"
	node "$SC_TOP/t/lib/fake-anthropic.mjs" "$SC_TMP/model.json" \
		"$SC_TMP/port" "$SC_TMP/model.log" &
	SERVER_PID=$!
	for _ in $(seq 100); do [ -s "$SC_TMP/port" ] && break; sleep 0.1; done
	[ -s "$SC_TMP/port" ] || fail "the fake Messages API did not start"
	BASE_URL="http://127.0.0.1:$(cat "$SC_TMP/port")"
}

step() { # N
	jq -c --argjson n "$1" 'select(.step == $n)' "$SC_TMP/alog/log"
}

@test "executor: session/new names only speccoder's relays; the agent lists and calls the allowed tool, the rest is refused" {
	mcp_server ev "node $NPM/@modelcontextprotocol/server-everything/dist/index.js stdio" echo
	sdk_executor "[
	 {\"mcp\":\"ev\",\"list\":true},
	 {\"mcp\":\"ev\",\"call\":\"echo\",\"arguments\":{\"message\":\"key $DEMO_API_KEY\"}},
	 {\"mcp\":\"ev\",\"call\":\"add\",\"arguments\":{\"a\":1,\"b\":2}},
	 {\"mcp\":\"ev\",\"call\":\"echo\",\"arguments\":{\"message\":7}},
	 {\"say\":\"done\"}
	]"
	run --separate-stderr git speccoder run greeting --no-prompt --retries 0
	# session/new: one server, named as configured, whose command is the
	# relay beside the other tools, with its socket as the only argument.
	run jq -c 'select(.new) | .new.mcpServers' "$SC_TMP/alog/log"
	assert_equal "${#lines[@]}" 1
	run jq -r 'select(.new) | .new.mcpServers | length' "$SC_TMP/alog/log"
	assert_output 1
	run jq -r 'select(.new) | .new.mcpServers[0] | .name + " " + .command + " " + .args[0]' "$SC_TMP/alog/log"
	assert_output "ev $(command -v sc-mcp) --relay"
	run jq -r 'select(.new) | .new.mcpServers[0] | (.args | length | tostring) + " " + (.env | length | tostring)' "$SC_TMP/alog/log"
	assert_output "2 0"
	# The server's own command line never reaches the agent.
	run grep -c server-everything "$SC_TMP/alog/log"
	assert_output 0
	# Only the allowed tool is offered.
	[ "$(step 0 | jq -c .result.tools)" = '["echo"]' ] || fail "$(step 0)"
	# The call went through the policy and came back masked.
	[ "$(step 1 | jq -r .result.isError)" = false ] || fail "$(step 1)"
	[[ "$(step 1 | jq -r '.result.content[0].text')" == 'Echo: key [redacted:'* ]] || fail "$(step 1)"
	run grep -c "$DEMO_API_KEY" "$SC_TMP/alog/log"
	assert_output 0
	# A tool that was never allowed is not there to call.
	[ "$(step 2 | jq -r .error.code)" = -32602 ] || fail "$(step 2)"
	# The server's own error is a result marked as one, not a refusal.
	[ "$(step 3 | jq -r .result.isError)" = true ] || fail "$(step 3)"
	[[ "$(step 3 | jq -r '.result.content[0].text')" != *denied* ]] || fail "$(step 3)"
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "verdict") | select(.class == "mcp") | .decision + " " + .rule' "$SC_TMP/j"
	assert_line "allow allow.mcp"
	run jq -r 'select(.type == "mcp-tool") | .name' "$SC_TMP/j"
	assert_output mcp__ev__echo
}

@test "executor: a tool that changed between two calls is refused by the policy, then withdrawn from the agent" {
	mcp_server rug "node $SC_TOP/t/lib/rugpull-mcp.mjs" greet
	sdk_executor '[
	 {"mcp":"rug","list":true},
	 {"mcp":"rug","call":"greet","arguments":{"who":"bob"}},
	 {"write":"rugpull.flag","content":"x"},
	 {"sleep":1500},
	 {"mcp":"rug","call":"greet","arguments":{"who":"eve"}},
	 {"mcp":"rug","list":true},
	 {"mcp":"rug","call":"greet","arguments":{"who":"eve"}},
	 {"say":"stopped"}
	]'
	run --separate-stderr git speccoder run greeting --no-prompt --retries 0
	[ "$(step 0 | jq -c .result.tools)" = '["greet"]' ] || fail "$(step 0)"
	[ "$(step 1 | jq -r '.result.content[0].text')" = "hello bob" ] || fail "$(step 1)"
	# The server changed the tool meanwhile: the call is judged without a
	# pinned definition and refused (nobody to ask), never carried.
	[ "$(step 4 | jq -r .result.isError)" = true ] || fail "$(step 4)"
	[[ "$(step 4 | jq -r '.result.content[0].text')" == *"denied by speccoder's policy (ask.mcp-digest)"* ]] || fail "$(step 4)"
	# Withdrawn from the agent's list, and no longer callable at all.
	[ "$(step 5 | jq -c .result.tools)" = '[]' ] || fail "$(step 5)"
	[ "$(step 6 | jq -r .error.code)" = -32602 ] || fail "$(step 6)"
	run ! grep -q "hello eve" "$SC_TMP/alog/log"
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "withdrawn") | .code + " " + .tool' "$SC_TMP/j"
	assert_output "MCP-DEFINITION-CHANGED greet"
	run jq -r 'select(.type == "verdict" and .class == "mcp") | .decision + " " + .rule' "$SC_TMP/j"
	assert_line "allow allow.mcp"
	assert_line "deny ask.mcp-digest"
}

@test "executor: a tool that changes its definition during a call is withdrawn before the agent's next request" {
	mcp_server rug "node $SC_TOP/t/lib/rugpull-mcp.mjs --after-call" greet
	sdk_executor '[
	 {"mcp":"rug","call":"greet","arguments":{"who":"bob"}},
	 {"mcp":"rug","list":true},
	 {"mcp":"rug","call":"greet","arguments":{"who":"eve"}},
	 {"say":"stopped"}
	]'
	run --separate-stderr git speccoder run greeting --no-prompt --retries 0
	[ "$(step 0 | jq -r '.result.content[0].text')" = "hello bob" ] || fail "$(step 0)"
	[ "$(step 1 | jq -c .result.tools)" = '[]' ] || fail "$(step 1)"
	[ "$(step 2 | jq -r .error.code)" = -32602 ] || fail "$(step 2)"
	run ! grep -q "hello eve" "$SC_TMP/alog/log"
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "withdrawn") | .code + " " + .tool' "$SC_TMP/j"
	assert_output "MCP-DEFINITION-CHANGED greet"
}

@test "executor: a permission for a speccoder MCP tool is judged as that call; one for a server of the agent's own is a person's" {
	mcp_server ev "node $NPM/@modelcontextprotocol/server-everything/dist/index.js stdio" echo
	local opts='[{"optionId":"a","name":"A","kind":"allow_once"},{"optionId":"r","name":"R","kind":"reject_once"}]'
	sdk_executor "[
	 {\"permission\":{\"toolCallId\":\"m1\",\"title\":\"echo\",\"rawInput\":{\"message\":\"hi\"},\"_meta\":{\"claudeCode\":{\"toolName\":\"mcp__ev__echo\"}}},\"options\":$opts},
	 {\"mcp\":\"ev\",\"call\":\"echo\",\"arguments\":{\"message\":\"hi\"}},
	 {\"permission\":{\"toolCallId\":\"m2\",\"title\":\"own\",\"rawInput\":{},\"_meta\":{\"claudeCode\":{\"toolName\":\"mcp__mine__steal\"}}},\"options\":$opts},
	 {\"permission\":{\"toolCallId\":\"m3\",\"title\":\"add\",\"rawInput\":{\"a\":1},\"_meta\":{\"claudeCode\":{\"toolName\":\"mcp__ev__add\"}}},\"options\":$opts},
	 {\"say\":\"done\"}
	]"
	run --separate-stderr git speccoder run greeting --no-prompt --retries 0
	# Speccoder's own allowed tool: the permission is the policy's allow.
	[ "$(step 0 | jq -c .result.outcome)" = '{"outcome":"selected","optionId":"a"}' ] || fail "$(step 0)"
	[ "$(step 1 | jq -r '.result.content[0].text')" = "Echo: hi" ] || fail "$(step 1)"
	# A server of the agent's own, and a tool never allowed: refused
	# (a person would decide; --no-prompt asks nobody).
	[ "$(step 2 | jq -c .result.outcome)" = '{"outcome":"selected","optionId":"r"}' ] || fail "$(step 2)"
	[ "$(step 3 | jq -c .result.outcome)" = '{"outcome":"selected","optionId":"r"}' ] || fail "$(step 3)"
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "verdict" and .class == "mcp") | .decision + " " + .rule + " " + .object' "$SC_TMP/j"
	assert_line --partial "allow allow.mcp server=ev tool=echo digest=sha256:"
	assert_line --partial "deny ask.mcp server=mine tool=steal"
	assert_line --partial "deny ask.mcp server=ev tool=add"
}

@test "executor: the agent's own process on speccoder's MCP socket meets the same gate; garbage ends only that connection" {
	mcp_server ev "node $NPM/@modelcontextprotocol/server-everything/dist/index.js stdio" echo
	sdk_executor '[
	 {"raw-mcp":"ev","lines":[
	   "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}",
	   "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"add\",\"arguments\":{\"a\":1,\"b\":2}}}",
	   "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\",\"arguments\":{\"message\":\"raw\"}}}",
	   "not json at all",
	   "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"ping\"}"]},
	 {"mcp":"ev","call":"echo","arguments":{"message":"after"}},
	 {"say":"done"}
	]'
	run --separate-stderr git speccoder run greeting --no-prompt --retries 0
	# Only the offered tool, refused for another, judged and carried for it.
	[ "$(step 0 | jq -c '.result.responses[0].result.tools | map(.name)')" = '["echo"]' ] || fail "$(step 0)"
	[ "$(step 0 | jq -r '.result.responses[1].error.code')" = -32602 ] || fail "$(step 0)"
	[ "$(step 0 | jq -r '.result.responses[2].result.content[0].text')" = "Echo: raw" ] || fail "$(step 0)"
	# The malformed line closed the connection: the ping is never answered.
	[ "$(step 0 | jq -r '.result.responses | length')" = 3 ] || fail "$(step 0)"
	[ "$(step 0 | jq -r .result.closed)" = true ] || fail "$(step 0)"
	# The session goes on: the relay still works.
	[ "$(step 1 | jq -r '.result.content[0].text')" = "Echo: after" ] || fail "$(step 1)"
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "verdict" and .class == "mcp") | .decision' "$SC_TMP/j"
	assert_output "allow
allow"
}

@test "sc-acp --mcp: needs --config-home and a server name; sc-mcp --relay takes nothing else and fails closed" {
	run --separate-stderr sc-acp --mcp ev -- true
	assert_failure 2
	assert_regex "$stderr" "needs --config-home"
	run --separate-stderr sc-acp --config-home "$SC_TMP/h" --mcp ../x -- true
	assert_failure 2
	run --separate-stderr sc-mcp --relay "$SC_TMP/nosuch.sock" --server ev
	assert_failure 2
	run --separate-stderr sc-mcp --relay "$SC_TMP/nosuch.sock" </dev/null
	assert_failure 4
	assert_regex "$stderr" "error\[MCP-RELAY\]"
}

@test "claude-code-acp calls an allowed MCP tool through speccoder's relay: judged, carried, masked" {
	[ -d "$NPM/@zed-industries/claude-code-acp" ] ||
		skip "claude-code-acp is not installed: run make deps"
	mcp_server ev "node $NPM/@modelcontextprotocol/server-everything/dist/index.js stdio" echo
	start_fake_anthropic "[
	 {\"text\":\"I will echo.\",\"tool\":\"mcp__ev__echo\",\"input\":{\"message\":\"from claude $DEMO_API_KEY\"}},
	 {\"text\":\"Done.\"}
	]"
	export ANTHROPIC_API_KEY=sk-ant-test-not-a-real-key ANTHROPIC_BASE_URL="$BASE_URL"
	export DISABLE_TELEMETRY=1 DISABLE_ERROR_REPORTING=1 DISABLE_AUTOUPDATER=1
	export CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1
	git config -f speccoder.conf executor.command \
		"node $NPM/@zed-industries/claude-code-acp/dist/index.js"
	for v in ANTHROPIC_API_KEY ANTHROPIC_BASE_URL DISABLE_TELEMETRY \
		DISABLE_ERROR_REPORTING DISABLE_AUTOUPDATER \
		CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC; do
		git config -f speccoder.conf --add executor.env "$v"
	done
	git commit -q -am "claude-code-acp with an MCP server"
	run --separate-stderr git speccoder run greeting --no-prompt --retries 0
	# The model got the tool's answer, masked (the key is in the log only
	# where the stand-in model itself wrote it, in its own tool input).
	grep -q 'Echo: from claude \[redacted:' "$SC_TMP/model.log"
	run grep -c "Echo: from claude $DEMO_API_KEY" "$SC_TMP/model.log"
	assert_output 0
	# Claude Code's permission for the tool was judged as the MCP call
	# (not a person's "other"), then the call itself through the relay.
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "verdict" and .class == "mcp") | .decision + " " + .rule' "$SC_TMP/j"
	assert_output "allow allow.mcp
allow allow.mcp"
	run jq -r 'select(.type == "verdict") | .rule' "$SC_TMP/j"
	refute_line ask.executor-unmapped
	# The server's command never reached the agent's model or its session.
	run grep -c server-everything "$SC_TMP/model.log"
	assert_output 0
}
