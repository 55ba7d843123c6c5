#!/usr/bin/env bats
# Network behaviour against the loopback server: retries with Retry-After
# and backoff, AUTH without retry, drops, truncation, timeouts, redirects,
# proxies.  No timing assertions: request counts say what happened.

# shellcheck disable=SC2154 # bats sets $stderr, $lines
load lib/common
load lib/model

KEY=sk-ant-test-SECRETVALUE-0123456789

ask() {
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	ANTHROPIC_API_KEY=$KEY sc_run_io "$SC_TMP/conv" "$SC_TMP/out" \
		sc-model --provider anthropic --endpoint "$MS_URL" "$@"
}

@test "network: 429 with Retry-After, then success" {
	model_server_start 429-retry-after.http anthropic-text.http
	ask
	assert_equal "$status" 0
	[ -e "$SC_TMP/req.2" ]
	cmp <(model_req_body 1) <(model_req_body 2)
	run model_json "$SC_TMP/out"
	assert_line --index 0 --partial '"text":"All done."'
}

@test "network: 500 then success" {
	model_server_start 500.http anthropic-text.http
	ask
	assert_equal "$status" 0
	[ -e "$SC_TMP/req.2" ]
}

@test "network: 5xx on every attempt is PROVIDER with the error type, exit 4" {
	model_server_start 500.http 500.http 500.http
	ask --retries 2
	assert_equal "$status" 4
	[[ "$stderr" == *"error[PROVIDER]: anthropic answered HTTP 500 (api_error) after 3 attempts"* ]]
	[ -e "$SC_TMP/req.3" ]
	[ ! -s "$SC_TMP/out" ]
}

@test "network: 401 and 403 are AUTH, exit 4, never retried" {
	model_server_start 401.http anthropic-text.http
	ask
	assert_equal "$status" 4
	[[ "$stderr" == *"error[AUTH]: anthropic refused the key in ANTHROPIC_API_KEY (HTTP 401)"* ]]
	[ ! -e "$SC_TMP/req.2" ]
	model_server_stop
	model_server_start 403.http anthropic-text.http
	ask
	assert_equal "$status" 4
	[[ "$stderr" == *"error[AUTH]"*"HTTP 403"* ]]
	[ ! -e "$SC_TMP/req.2" ]
}

@test "network: a 400 is PROVIDER at once, naming the type, never the body" {
	model_server_start 400-echo.http anthropic-text.http
	ask
	assert_equal "$status" 4
	[[ "$stderr" == *"error[PROVIDER]: anthropic answered HTTP 400 (invalid_request_error) after 1 attempts"* ]]
	[[ "$stderr" != *"echoing"* ]]
	[ ! -e "$SC_TMP/req.2" ]
}

@test "network: a dropped connection is retried" {
	model_server_start drop.http anthropic-text.http
	ask
	assert_equal "$status" 0
	[ -e "$SC_TMP/req.2" ]
}

@test "network: a truncated body is retried, and with no retries it is NETWORK" {
	model_server_start truncated.http anthropic-text.http
	ask
	assert_equal "$status" 0
	[ -e "$SC_TMP/req.2" ]
	model_server_stop
	rm -f "$SC_TMP"/req.*
	model_server_start truncated.http anthropic-text.http
	ask --retries 0
	assert_equal "$status" 4
	[[ "$stderr" == *"error[NETWORK]: no answer from anthropic after 1 attempts"* ]]
	[ ! -e "$SC_TMP/req.2" ]
	[ ! -s "$SC_TMP/out" ]
}

@test "network: a server slower than --timeout is TIMEOUT, not retried" {
	model_server_start slow.http anthropic-text.http
	ask --timeout 1
	assert_equal "$status" 4
	[[ "$stderr" == *"error[TIMEOUT]: anthropic did not answer within 1 s"* ]]
	[ ! -e "$SC_TMP/req.2" ]
	[ ! -s "$SC_TMP/out" ]
}

@test "network: a refused connection is NETWORK after the retries" {
	model_server_start anthropic-text.http
	port=${MS_URL##*:}
	model_server_stop
	# The port is closed now: every attempt is refused.
	ask --retries 1
	assert_equal "$status" 4
	[[ "$stderr" == *"error[NETWORK]: no answer from anthropic after 2 attempts"* ]]
	: "$port"
}

@test "network: a redirect is not followed (it would carry the key away)" {
	model_server_start redirect.http anthropic-text.http
	ask
	assert_equal "$status" 4
	[[ "$stderr" == *"error[PROVIDER]: anthropic answered HTTP 307"* ]]
	[ ! -e "$SC_TMP/req.2" ]
}

@test "network: proxies come from the standard variables; the key stays inside the tunnel" {
	model_server_start connect-refused.http
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	# shellcheck disable=SC2016 # expanded by the inner shell
	env -u NO_PROXY https_proxy="$MS_URL" ANTHROPIC_API_KEY=$KEY "PATH=$PATH" \
		bash -c 'sc-model --provider anthropic --endpoint https://api.example.test \
			--retries 0 <"$1" >"$2" 2>"$3"' \
		_ "$SC_TMP/conv" "$SC_TMP/out" "$SC_TMP/err" || true
	run head -n 1 "$SC_TMP/req.1"
	assert_output $'CONNECT api.example.test:443 HTTP/1.1\r'
	# The proxy sees where, never the key: headers travel inside TLS.
	run ! grep -qaF "$KEY" "$SC_TMP/req.1"
	grep -q 'error\[NETWORK\]' "$SC_TMP/err"
	[ ! -s "$SC_TMP/out" ]
}

@test "network: a loopback endpoint never goes through a proxy (it may be plain http)" {
	model_server_start anthropic-text.http
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	# The proxy's port is closed: were it used, nothing would answer.
	# shellcheck disable=SC2016 # expanded by the inner shell
	env -u NO_PROXY http_proxy=http://127.0.0.1:9 ANTHROPIC_API_KEY=$KEY "PATH=$PATH" \
		bash -c 'sc-model --provider anthropic --endpoint "$1" <"$2" >"$3"' \
		_ "$MS_URL" "$SC_TMP/conv" "$SC_TMP/out"
	run head -n 1 "$SC_TMP/req.1"
	assert_output $'POST /v1/messages HTTP/1.1\r'
	[ -s "$SC_TMP/out" ]
}

@test "network: a Retry-After past what sc-model waits ends the retries at once" {
	model_server_start 429-long.http anthropic-text.http
	ask
	assert_equal "$status" 4
	[[ "$stderr" == *"error[PROVIDER]: anthropic answered HTTP 429 (rate_limit_error) after 1 attempts: the server asks to wait 3600 s"* ]]
	[ ! -e "$SC_TMP/req.2" ]
}
