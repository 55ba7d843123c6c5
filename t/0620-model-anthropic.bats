#!/usr/bin/env bats
# The anthropic provider against the loopback server: the exact request
# (headers, tools, tool_use / tool_result ids) and the reply's records.

# shellcheck disable=SC2154 # bats sets $stderr, $lines
load lib/common
load lib/model

KEY=sk-ant-test-SECRETVALUE-0123456789

ask() {
	model_conv <"$MODEL_DATA/$1"
	shift
	ANTHROPIC_API_KEY=$KEY sc_run_io "$SC_TMP/conv" "$SC_TMP/out" \
		sc-model --provider anthropic --endpoint "$MS_URL" "$@"
}

@test "anthropic: the first request is exactly the Messages API's" {
	model_server_start anthropic-text.http
	ask conv-first.jsonl
	assert_equal "$status" 0
	model_req_head 1 >"$SC_TMP/head"
	run head -n 1 "$SC_TMP/head"
	assert_output 'POST /v1/messages HTTP/1.1'
	grep -qx "x-api-key: $KEY" "$SC_TMP/head"
	grep -qx 'anthropic-version: 2023-06-01' "$SC_TMP/head"
	grep -qx 'Content-Type: application/json' "$SC_TMP/head"
	run ! grep -qi '^authorization:' "$SC_TMP/head"
	run ! grep -qi '^expect:' "$SC_TMP/head"
	model_req_body 1 | jq -S . >"$SC_TMP/body"
	diff -u "$MODEL_DATA/anthropic-request-first.json" "$SC_TMP/body"
}

@test "anthropic: earlier calls go back as tool_use and results under the same ids" {
	model_server_start anthropic-text.http
	ask conv-second.jsonl --model claude-test --max-tokens 100
	assert_equal "$status" 0
	model_req_body 1 | jq -S . >"$SC_TMP/body"
	jq -S '.model = "claude-test" | .max_tokens = 100' \
		"$MODEL_DATA/anthropic-request-second.json" >"$SC_TMP/want"
	diff -u "$SC_TMP/want" "$SC_TMP/body"
}

@test "anthropic: text and calls keep their order; arguments map to fields" {
	model_server_start anthropic-tool-use.http
	ask conv-first.jsonl
	assert_equal "$status" 0
	run model_json "$SC_TMP/out"
	assert_line --index 0 '{"type":"text","text":"Let me read it.","source":"model","label":"trusted"}'
	assert_line --index 1 '{"type":"call","id":"toolu_01","tool":"read","source":"model","label":"trusted","path":"README.md"}'
	assert_line --index 2 '{"type":"call","id":"toolu_02","tool":"run","source":"model","label":"trusted","argv":["make","test"],"cwd":"src","timeout":"30","env":"{\"A\":\"b\"}"}'
	assert_line --index 3 '{"type":"usage","input-tokens":"321","output-tokens":"45","labels":"trusted","provider":"anthropic","model":"claude-sonnet-4-5"}'
	assert_line --index 4 '{"type":"end","reason":"tool-use"}'
	assert_equal "${#lines[@]}" 5
}

@test "anthropic: usage lists every label the conversation carried" {
	model_server_start anthropic-text.http
	ask conv-second.jsonl
	assert_equal "$status" 0
	run model_json "$SC_TMP/out"
	assert_line --index 0 '{"type":"text","text":"All done.","source":"model","label":"untrusted"}'
	assert_line --index 1 --partial '"labels":["trusted","untrusted"]'
	assert_line --index 2 '{"type":"end","reason":"end-turn"}'
}

@test "anthropic: a call forging source= is refused whole (exit 1, nothing written)" {
	model_server_start forged-source.http
	ask conv-first.jsonl
	assert_equal "$status" 1
	[[ "$stderr" == *"error[PROVIDER-RESPONSE]"*"reserved name"* ]]
	[ ! -s "$SC_TMP/out" ]
}

@test "anthropic: malformed JSON is PROVIDER-RESPONSE, exit 1, nothing partial" {
	model_server_start malformed.http
	ask conv-first.jsonl
	assert_equal "$status" 1
	[[ "$stderr" == *"error[PROVIDER-RESPONSE]: anthropic: not a Messages response"* ]]
	[ ! -s "$SC_TMP/out" ]
}

@test "anthropic: a HELD-OUT-LEAK is refused before anything is sent" {
	model_server_start anthropic-text.http
	{
		cat "$MODEL_DATA/conv-first.jsonl"
		echo '{"type":"tool-result","id":"t","text":"def test_sealed(): ...","label":["untrusted","held-out"],"source":"verifier"}'
	} >"$SC_TMP/held.jsonl"
	model_conv <"$SC_TMP/held.jsonl"
	ANTHROPIC_API_KEY=$KEY sc_run_io "$SC_TMP/conv" "$SC_TMP/out" \
		sc-model --provider anthropic --endpoint "$MS_URL"
	assert_equal "$status" 1
	[[ "$stderr" == *"error[HELD-OUT-LEAK]"* ]]
	[ ! -s "$SC_TMP/out" ]
	# The server saw no request at all.
	[ ! -e "$SC_TMP/req.1" ]
	# The same conversation is sent when the label is allowed: the test can fail.
	ANTHROPIC_API_KEY=$KEY sc_run_io "$SC_TMP/conv" "$SC_TMP/out" \
		sc-model --provider anthropic --endpoint "$MS_URL" --allow-label held-out
	assert_equal "$status" 0
	[ -e "$SC_TMP/req.1" ]
	run model_json "$SC_TMP/out"
	assert_line --index 0 '{"type":"text","text":"All done.","source":"model","label":["untrusted","held-out"]}'
}

@test "anthropic: an answer past 16 MiB is refused, nothing written" {
	{
		printf 'HTTP/1.1 200 OK\nContent-Type: application/json\nContent-Length: auto\n\n'
		printf '{"content":[{"type":"text","text":"'
		head -c $((17 << 20)) /dev/zero | tr '\0' a
		printf '"}]}'
	} >"$SC_TMP/huge.http"
	model_server_start "$SC_TMP/huge.http"
	ask conv-first.jsonl
	assert_equal "$status" 1
	[[ "$stderr" == *"error[PROVIDER-RESPONSE]: anthropic answered more than 16777216 bytes"* ]]
	[ ! -s "$SC_TMP/out" ]
}

@test "anthropic: a 500 after a dropped connection reports the 500, not the drop" {
	model_server_start drop.http 500.http
	ask conv-first.jsonl --retries 1
	assert_equal "$status" 4
	[[ "$stderr" == *"error[PROVIDER]: anthropic answered HTTP 500 (api_error) after 2 attempts"* ]]
	[[ "$stderr" != *"Empty reply"* ]]
}

@test "anthropic: caching marks the system prompt, the trusted task and the last turn" {
	model_server_start anthropic-text.http
	ask conv-second.jsonl
	assert_equal "$status" 0
	model_req_body 1 >"$SC_TMP/body"
	# Three breakpoints, at most the API's four.
	run jq '[.. | objects | select(has("cache_control"))] | length' "$SC_TMP/body"
	assert_output 3
	run jq -c '.system[0].cache_control, .messages[0].content[0].cache_control, .messages[-1].content[-1].cache_control' "$SC_TMP/body"
	assert_output "$(printf '{"type":"ephemeral"}\n%.0s' 1 2 3)"
	# The model's own turn (untrusted results follow it) is not the trusted context.
	run jq -c '.messages[1].content | map(has("cache_control"))' "$SC_TMP/body"
	assert_output '[false,false,false]'
}

@test "anthropic: an untrusted opening message is not cached as trusted context" {
	model_server_start anthropic-text.http
	sed 's/"label":"trusted","source":"person"/"label":"untrusted","source":"issue"/' \
		"$MODEL_DATA/conv-second.jsonl" >"$SC_TMP/untrusted.jsonl"
	grep -q '"untrusted","source":"issue"' "$SC_TMP/untrusted.jsonl"
	model_conv <"$SC_TMP/untrusted.jsonl"
	ANTHROPIC_API_KEY=$KEY sc_run_io "$SC_TMP/conv" "$SC_TMP/out" \
		sc-model --provider anthropic --endpoint "$MS_URL"
	assert_equal "$status" 0
	run jq '.messages[0].content[0] | has("cache_control")' <(model_req_body 1)
	assert_output false
}

@test "anthropic: --no-cache sends the plain Messages request" {
	model_server_start anthropic-text.http
	ask conv-second.jsonl --no-cache
	assert_equal "$status" 0
	model_req_body 1 | jq -S . >"$SC_TMP/body"
	jq -S 'walk(if type == "object" then del(.cache_control) else . end)
		| .system = .system[0].text' \
		"$MODEL_DATA/anthropic-request-second.json" >"$SC_TMP/want"
	diff -u "$SC_TMP/want" "$SC_TMP/body"
	[[ "$(jq -r .system "$SC_TMP/body")" == "You are a careful coding agent." ]]
}

@test "anthropic: cache reads and writes reach the usage record" {
	model_server_start anthropic-cached.http
	ask conv-first.jsonl
	assert_equal "$status" 0
	run model_json "$SC_TMP/out"
	assert_line --index 1 '{"type":"usage","input-tokens":"12","output-tokens":"4","cache-read-tokens":"2048","cache-write-tokens":"310","labels":"trusted","provider":"anthropic","model":"claude-sonnet-4-5"}'
}

@test "anthropic: a negative cache count is PROVIDER-RESPONSE, nothing written" {
	model_server_start anthropic-bad-cache.http
	ask conv-first.jsonl
	assert_equal "$status" 1
	[[ "$stderr" == *"error[PROVIDER-RESPONSE]: anthropic: cache counts are not non-negative integers"* ]]
	[ ! -s "$SC_TMP/out" ]
}

@test "anthropic: caching bills at least 60% fewer input tokens from the third turn on (benchmark)" {
	run --separate-stderr env BENCH_TURNS=6 bash "$SC_TOP/t/bench/model-cache.sh"
	assert_equal "$status" 0
	pct=$(sed -n 's/^bench\/model-cache: from turn 3 on, .*: \([0-9]*\)% fewer$/\1/p' <<<"$output")
	[ -n "$pct" ]
	[ "$pct" -ge 60 ]
	# The control: without caching every turn bills its whole input.
	run awk '$3 != 0 || $4 != 0 { bad = 1 } END { exit bad }' \
		"$SC_TOP/build/bench/model-cache/plain.bill"
	assert_success
}
