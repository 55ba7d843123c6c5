#!/usr/bin/env bats
# Streamed answers: Anthropic and OpenAI Server-Sent Events, Bedrock's AWS
# event stream.  The same records as a whole answer; progress records while
# it streams; a cut stream retried from the start and never half-written;
# malformed, unknown and oversized events refused.

# shellcheck disable=SC2154 # bats sets $stderr, $lines
load lib/common
load lib/model

KEY=sk-ant-test-SECRETVALUE-0123456789

# with_progress CMD...: CMD with its progress records going to $SC_TMP/progress.
with_progress() {
	"$@" 5>"$SC_TMP/progress"
}

ask() {
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	ANTHROPIC_API_KEY=$KEY sc_run_io "$SC_TMP/conv" "$SC_TMP/out" \
		with_progress sc-model --provider anthropic --endpoint "$MS_URL" \
		--progress-fd 5 "$@"
}

# An event stream response built from a list of messages.
es_response() {
	perl "$SC_TOP/t/lib/eventstream.pl" >"$SC_TMP/$1.http"
}

@test "stream: the request asks for a stream; the Anthropic events make the same records" {
	model_server_start anthropic-stream.http
	ask
	assert_equal "$status" 0
	[ "$(model_req_body 1 | jq .stream)" = true ]
	run model_json "$SC_TMP/out"
	assert_line --index 0 '{"type":"text","text":"Let me read it.","source":"model","label":"trusted"}'
	assert_line --index 1 '{"type":"call","id":"toolu_s1","tool":"run","source":"model","label":"trusted","argv":["make","test"]}'
	assert_line --index 2 '{"type":"usage","input-tokens":"25","output-tokens":"42","cache-read-tokens":"1800","cache-write-tokens":"0","labels":"trusted","provider":"anthropic","model":"claude-sonnet-4-5"}'
	assert_line --index 3 '{"type":"end","reason":"tool-use"}'
	assert_equal "${#lines[@]}" 4
}

@test "stream: a long answer writes progress records, at most one a second, never on stdout" {
	model_server_start anthropic-stream.http
	ask
	assert_equal "$status" 0
	run sc-rec --to-json <"$SC_TMP/progress"
	assert_success
	# The server paused 1.3 s once: one record, after the first second.
	assert_equal "${#lines[@]}" 1
	[[ "${lines[0]}" == '{"type":"progress","provider":"anthropic","elapsed-ms":"1'* ]]
	[[ "${lines[0]}" =~ \"received-bytes\":\"[0-9]+\",\"estimated-tokens\":\"[1-9][0-9]*\"\}$ ]]
	run ! grep -q progress "$SC_TMP/out"
}

@test "stream: --no-stream asks for the answer whole" {
	model_server_start anthropic-text.http
	ask --no-stream
	assert_equal "$status" 0
	[ "$(model_req_body 1 | jq 'has("stream")')" = false ]
	[ ! -s "$SC_TMP/progress" ]
}

@test "stream: a stream cut in the middle of an event is retried from the start" {
	model_server_start anthropic-stream-cut.http anthropic-stream.http
	ask
	assert_equal "$status" 0
	[ -e "$SC_TMP/req.2" ]
	run model_json "$SC_TMP/out"
	# Nothing of the cut attempt: the text is the second stream's, once.
	assert_line --index 0 '{"type":"text","text":"Let me read it.","source":"model","label":"trusted"}'
	assert_equal "${#lines[@]}" 4
}

@test "stream: a cut stream past the retries is NETWORK and nothing is written" {
	model_server_start anthropic-stream-cut.http
	ask --retries 0
	assert_equal "$status" 4
	[[ "$stderr" == *"error[NETWORK]: no answer from anthropic after 1 attempts: the stream ended before its last event"* ]]
	[ ! -s "$SC_TMP/out" ]
}

@test "stream: an overloaded error mid-stream is retried; past the retries it is PROVIDER" {
	model_server_start anthropic-stream-overloaded.http anthropic-stream.http
	ask
	assert_equal "$status" 0
	[ -e "$SC_TMP/req.2" ]
	model_server_stop
	model_server_start anthropic-stream-overloaded.http
	ask --retries 0
	assert_equal "$status" 4
	[[ "$stderr" == *"error[PROVIDER]: anthropic answered HTTP 200 (overloaded_error) after 1 attempts: the provider reported an error mid-stream"* ]]
	[ ! -s "$SC_TMP/out" ]
}

@test "stream: an unknown event type is PROVIDER-RESPONSE, not retried, nothing written" {
	model_server_start anthropic-stream-unknown.http anthropic-stream.http
	ask
	assert_equal "$status" 1
	[[ "$stderr" == *"error[PROVIDER-RESPONSE]: anthropic: an unknown stream event"* ]]
	[ ! -e "$SC_TMP/req.2" ]
	[ ! -s "$SC_TMP/out" ]
}

@test "stream: an event larger than 1 MiB is refused" {
	{
		printf 'HTTP/1.1 200 OK\nContent-Type: text/event-stream\n\n'
		printf 'data: {"type":"message_start","message":{"x":"'
		head -c $((1100 << 10)) /dev/zero | tr '\0' a
		printf '"}}\n\n'
	} >"$SC_TMP/big.http"
	model_server_start "$SC_TMP/big.http"
	ask
	assert_equal "$status" 1
	[[ "$stderr" == *"error[PROVIDER-RESPONSE]: anthropic: a stream event passes 1 MiB or holds a NUL"* ]]
	[ ! -s "$SC_TMP/out" ]
}

@test "stream: events out of order or before message_start are malformed" {
	printf 'HTTP/1.1 200 OK\nContent-Type: text/event-stream\n\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text"}}\n\n' >"$SC_TMP/early.http"
	{
		sed '/content_block_start/,$d' "$MODEL_DATA/anthropic-stream.http" | sed '$d'
		printf 'data: {"type":"content_block_start","index":3,"content_block":{"type":"text"}}\n\n'
	} >"$SC_TMP/order.http"
	model_server_start "$SC_TMP/early.http" "$SC_TMP/order.http"
	ask
	assert_equal "$status" 1
	[[ "$stderr" == *"error[PROVIDER-RESPONSE]: anthropic: an event came before message_start"* ]]
	ask
	assert_equal "$status" 1
	[[ "$stderr" == *"error[PROVIDER-RESPONSE]: anthropic: a content block starts out of order or untyped"* ]]
}

@test "stream: OpenAI chunks make the same records; the request asks for the usage" {
	model_server_start openai-stream.http
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	OPENAI_API_KEY=sk-test sc_run_io "$SC_TMP/conv" "$SC_TMP/out" \
		sc-model --provider openai --endpoint "$MS_URL/v1"
	assert_equal "$status" 0
	run jq -c '[.stream, .stream_options]' <(model_req_body 1)
	assert_output '[true,{"include_usage":true}]'
	run model_json "$SC_TMP/out"
	assert_line --index 0 '{"type":"text","text":"Reading.","source":"model","label":"trusted"}'
	assert_line --index 1 '{"type":"call","id":"call_s1","tool":"read","source":"model","label":"trusted","path":"README.md"}'
	assert_line --index 2 '{"type":"call","id":"call_s2","tool":"run","source":"model","label":"trusted","argv":"make"}'
	assert_line --index 3 '{"type":"usage","input-tokens":"300","output-tokens":"30","cache-read-tokens":"256","cache-write-tokens":"0","labels":"trusted","provider":"openai","model":"gpt-4o"}'
	assert_line --index 4 '{"type":"end","reason":"tool-use"}'
}

@test "stream: an OpenAI stream without [DONE] is a dropped one" {
	model_server_start openai-stream-no-done.http
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	OPENAI_API_KEY=sk-test sc_run_io "$SC_TMP/conv" "$SC_TMP/out" \
		sc-model --provider openai --endpoint "$MS_URL/v1" --retries 0
	assert_equal "$status" 4
	[[ "$stderr" == *"the stream ended before its last event"* ]]
	[ ! -s "$SC_TMP/out" ]
}

bedrock_ask() {
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	sc_run_io "$SC_TMP/conv" "$SC_TMP/out" env -i "PATH=$PATH" \
		"HOME=$SC_TMP/home" "NO_PROXY=*" AWS_BEARER_TOKEN_BEDROCK=test-token \
		sc-model --provider bedrock --model anthropic.claude-test-v1:0 \
		--region us-east-1 --endpoint "$MS_URL" "$@"
}

@test "stream: Bedrock's event stream (CRCs, base64 chunks) makes the same records" {
	es_response bedrock-stream <"$MODEL_DATA/bedrock-stream.events"
	model_server_start "$SC_TMP/bedrock-stream.http"
	bedrock_ask
	assert_equal "$status" 0
	run head -n 1 "$SC_TMP/req.1"
	assert_output --partial 'POST /model/anthropic.claude-test-v1%3A0/invoke-with-response-stream HTTP/1.1'
	run model_json "$SC_TMP/out"
	assert_line --index 0 '{"type":"text","text":"Streamed from Bedrock.","source":"model","label":"trusted"}'
	assert_line --index 1 '{"type":"usage","input-tokens":"30","output-tokens":"7","cache-read-tokens":"0","cache-write-tokens":"1200","labels":"trusted","provider":"bedrock","model":"anthropic.claude-test-v1:0"}'
}

@test "stream: Bedrock's throttling exception mid-stream is retried; a bad CRC is final" {
	{ head -n 3 "$MODEL_DATA/bedrock-stream.events"
	  echo 'exception throttlingException {"message":"Too many tokens, please wait before trying again."}'
	} | es_response throttled
	{ head -n 2 "$MODEL_DATA/bedrock-stream.events"
	  echo 'badcrc {"type":"content_block_stop","index":0}'
	} | es_response badcrc
	es_response good <"$MODEL_DATA/bedrock-stream.events"
	model_server_start "$SC_TMP/throttled.http" "$SC_TMP/good.http" "$SC_TMP/badcrc.http"
	bedrock_ask
	assert_equal "$status" 0
	[ -e "$SC_TMP/req.2" ]
	bedrock_ask
	assert_equal "$status" 1
	[[ "$stderr" == *"error[PROVIDER-RESPONSE]: bedrock: a message's CRC does not match"* ]]
	[ ! -s "$SC_TMP/out" ]
}

@test "stream: a Bedrock message cut short is retried; a validation exception is final" {
	{ head -n 2 "$MODEL_DATA/bedrock-stream.events"
	  echo 'cut 40 {"type":"content_block_stop","index":0}'
	} | es_response cut
	echo 'exception validationException {"message":"max_tokens: bad"}' | es_response invalid
	model_server_start "$SC_TMP/cut.http" "$SC_TMP/invalid.http"
	bedrock_ask
	assert_equal "$status" 1
	[ -e "$SC_TMP/req.2" ]
	[[ "$stderr" == *"error[PROVIDER-RESPONSE]: bedrock: the stream reported validationException"* ]]
	[ ! -s "$SC_TMP/out" ]
}

@test "stream: --no-stream asks Bedrock's InvokeModel" {
	model_server_start bedrock-text.http
	bedrock_ask --no-stream
	assert_equal "$status" 0
	run head -n 1 "$SC_TMP/req.1"
	assert_output --partial 'POST /model/anthropic.claude-test-v1%3A0/invoke HTTP/1.1'
}
