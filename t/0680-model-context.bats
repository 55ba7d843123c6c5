#!/usr/bin/env bats
# A bounded conversation: near the model's context window, the oldest tool
# results give way to one-line summaries; never the system prompt, the
# trusted task context, the calls, or the results the model has not seen.

# shellcheck disable=SC2154 # bats sets $stderr, $lines
load lib/common
load lib/model

KEY=sk-ant-test-SECRETVALUE-0123456789

# A task with three calls, each result SIZE bytes of its own letter.
conversation() { # SIZE
	{
		echo '{"type":"system","text":"You are a careful coding agent.","label":"trusted","source":"speccoder"}'
		echo '{"type":"message","role":"user","text":"Implement task 1: the spec says hello.","label":"trusted","source":"speccoder"}'
		for n in 1 2 3; do
			echo "{\"type\":\"call\",\"id\":\"c$n\",\"tool\":\"read\",\"source\":\"model\",\"label\":\"trusted\",\"path\":\"f$n\"}"
			printf '{"type":"tool-result","id":"c%s","text":"first line of %s\\n%s","label":"untrusted","source":"worktree"}\n' \
				"$n" "$n" "$(head -c "$1" /dev/zero | tr '\0' "$(printf '\\%03o' $((96 + n)))")"
		done
	} | model_conv
}

ask() {
	ANTHROPIC_API_KEY=$KEY sc_run_io "$SC_TMP/conv" "$SC_TMP/out" \
		sc-model --provider anthropic --endpoint "$MS_URL" "$@"
}

@test "context: the oldest result is elided to a line; the trusted context and the newest result stay" {
	model_server_start anthropic-text.http
	conversation 40000
	ask --context-tokens 30000
	assert_equal "$status" 0
	model_req_body 1 >"$SC_TMP/body"
	run jq -r '.messages[2].content[0].content' "$SC_TMP/body"
	assert_output '[elided by sc-model to keep the conversation within its context: 40016 bytes, 2 lines; it began: first line of 1]'
	[ "$(jq -r '.messages[4].content[0].content | length' "$SC_TMP/body")" -eq 40016 ]
	[ "$(jq -r '.messages[6].content[0].content | length' "$SC_TMP/body")" -eq 40016 ]
	run jq -r '.system[0].text, .messages[0].content[0].text, .messages[1].content[0].name' "$SC_TMP/body"
	assert_output "$(printf 'You are a careful coding agent.\nImplement task 1: the spec says hello.\nread')"
	run model_json "$SC_TMP/out"
	assert_line --index 1 --partial '"elided-results":"1"'
}

@test "context: within the window nothing is elided" {
	model_server_start anthropic-text.http
	conversation 40000
	ask
	assert_equal "$status" 0
	[ "$(model_req_body 1 | jq -r '.messages[2].content[0].content | length')" -eq 40016 ]
	run ! grep -q elided-results "$SC_TMP/out"
}

@test "context: when the unseen results alone pass the window, CONTEXT-FULL and nothing is sent" {
	model_server_start anthropic-text.http
	conversation 120000
	ask --context-tokens 30000
	assert_equal "$status" 1
	[[ "$stderr" == *"error[CONTEXT-FULL]: the conversation needs about "*" tokens, past the 25904 it may take even with 2 older tool results elided"* ]]
	[ ! -e "$SC_TMP/req.1" ]
	[ ! -s "$SC_TMP/out" ]
}

@test "context: --max-tokens must leave room in the window" {
	conversation 10
	ask --context-tokens 4096 --max-tokens 4096
	assert_equal "$status" 2
	[[ "$stderr" == *"--max-tokens leaves no room in --context-tokens"* ]]
}
