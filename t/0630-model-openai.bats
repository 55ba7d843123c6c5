#!/usr/bin/env bats
# The openai provider (Chat Completions) against the loopback server.

# shellcheck disable=SC2154 # bats sets $stderr, $lines
load lib/common
load lib/model

KEY=sk-proj-test-SECRETVALUE-9876543210

@test "openai: the request is Chat Completions with a Bearer key" {
	model_server_start openai-text.http
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	OPENAI_API_KEY=$KEY sc_run_io "$SC_TMP/conv" "$SC_TMP/out" \
		sc-model --provider openai --endpoint "$MS_URL/v1/"
	assert_equal "$status" 0
	model_req_head 1 >"$SC_TMP/head"
	run head -n 1 "$SC_TMP/head"
	assert_output 'POST /v1/chat/completions HTTP/1.1'
	grep -qx "Authorization: Bearer $KEY" "$SC_TMP/head"
	run ! grep -qi '^x-api-key:' "$SC_TMP/head"
	model_req_body 1 | jq -S . >"$SC_TMP/body"
	diff -u "$MODEL_DATA/openai-request-first.json" "$SC_TMP/body"
	run model_json "$SC_TMP/out"
	assert_line --index 0 '{"type":"text","text":"Done.","source":"model","label":"trusted"}'
	assert_line --index 1 '{"type":"usage","input-tokens":"0","output-tokens":"0","labels":"trusted","provider":"openai","model":"gpt-4o"}'
	assert_line --index 2 '{"type":"end","reason":"end-turn"}'
}

@test "openai: earlier calls become tool_calls, results tool messages with their ids" {
	model_server_start openai-text.http
	model_conv <"$MODEL_DATA/conv-second.jsonl"
	OPENAI_API_KEY=$KEY sc_run_io "$SC_TMP/conv" "$SC_TMP/out" \
		sc-model --provider openai --endpoint "$MS_URL/v1"
	assert_equal "$status" 0
	model_req_body 1 | jq -S . >"$SC_TMP/body"
	diff -u "$MODEL_DATA/openai-request-second.json" "$SC_TMP/body"
}

@test "openai: tool calls map to call records in order" {
	model_server_start openai-tool-calls.http
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	OPENAI_API_KEY=$KEY sc_run_io "$SC_TMP/conv" "$SC_TMP/out" \
		sc-model --provider openai --endpoint "$MS_URL/v1"
	assert_equal "$status" 0
	run model_json "$SC_TMP/out"
	assert_line --index 0 '{"type":"text","text":"Reading.","source":"model","label":"trusted"}'
	assert_line --index 1 '{"type":"call","id":"call_a","tool":"read","source":"model","label":"trusted","path":"README.md"}'
	assert_line --index 2 '{"type":"call","id":"call_b","tool":"run","source":"model","label":"trusted","argv":["make","test"]}'
	assert_line --index 3 '{"type":"usage","input-tokens":"200","output-tokens":"20","labels":"trusted","provider":"openai","model":"gpt-4o"}'
	assert_line --index 4 '{"type":"end","reason":"tool-use"}'
}

@test "openai: a local server on loopback is asked without a key" {
	model_server_start openai-text.http
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	# shellcheck disable=SC2016 # expanded by the inner shell
	env -u OPENAI_API_KEY "PATH=$PATH" bash -c \
		'sc-model --provider openai --endpoint "$1/v1" --model local-coder <"$2" >"$3"' \
		_ "$MS_URL" "$SC_TMP/conv" "$SC_TMP/out"
	model_req_head 1 >"$SC_TMP/head"
	run ! grep -qi '^authorization:' "$SC_TMP/head"
	[ "$(model_req_body 1 | jq -r .model)" = local-coder ]
	[ -s "$SC_TMP/out" ]
}

@test "openai: malformed and anthropic-shaped answers are PROVIDER-RESPONSE" {
	model_server_start anthropic-text.http
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	OPENAI_API_KEY=$KEY sc_run_io "$SC_TMP/conv" "$SC_TMP/out" \
		sc-model --provider openai --endpoint "$MS_URL/v1"
	assert_equal "$status" 1
	[[ "$stderr" == *"error[PROVIDER-RESPONSE]: openai:"* ]]
	[ ! -s "$SC_TMP/out" ]
}

@test "openai: the prefix cache's hits reach the usage record as cache-read-tokens" {
	model_server_start openai-cached.http
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	OPENAI_API_KEY=$KEY sc_run_io "$SC_TMP/conv" "$SC_TMP/out" \
		sc-model --provider openai --endpoint "$MS_URL/v1"
	assert_equal "$status" 0
	run model_json "$SC_TMP/out"
	assert_line --index 1 '{"type":"usage","input-tokens":"3000","output-tokens":"2","cache-read-tokens":"2816","cache-write-tokens":"0","labels":"trusted","provider":"openai","model":"gpt-4o"}'
	# OpenAI caches by itself: the request carries no breakpoints.
	run ! grep -q cache_control <(model_req_body 1)
}
