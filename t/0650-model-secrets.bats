#!/usr/bin/env bats
# Keys: sent to the provider, never written anywhere else.  Every stream of
# every outcome is searched for the key; the server's record shows the key
# was really sent, so the search could find it.

# shellcheck disable=SC2154 # bats sets $stderr, $lines
load lib/common
load lib/model

KEY=sk-ant-test-SECRETVALUE-0123456789

# Run sc-model against RESPONSE..., keeping stdout and stderr in files.
leak_run() {
	model_server_start "$@"
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	ANTHROPIC_API_KEY=$KEY sc-model --provider anthropic --endpoint "$MS_URL" \
		--retries 1 --timeout 2 <"$SC_TMP/conv" >"$SC_TMP/out" 2>"$SC_TMP/err" || true
	model_server_stop
}

assert_no_key() {
	if grep -rqaF -e "$KEY" -e "SECRETVALUE" "$SC_TMP/out" "$SC_TMP/err"; then
		echo "the key leaked into output or diagnostics" >&2
		return 1
	fi
}

@test "secrets: the key is sent, and is in no output of a success" {
	leak_run anthropic-tool-use.http
	grep -qaF "x-api-key: $KEY" "$SC_TMP/req.1"
	[ -s "$SC_TMP/out" ]
	assert_no_key
}

@test "secrets: the key is in no diagnostic of any failure" {
	for resp in 401.http 403.http 500.http 400-echo.http malformed.http \
		truncated.http drop.http redirect.http slow.http forged-source.http; do
		rm -f "$SC_TMP"/req.*
		leak_run "$resp" "$resp"
		grep -qaF "$KEY" "$SC_TMP/req.1"
		[ -s "$SC_TMP/err" ]
		assert_no_key
	done
}

@test "secrets: the server echoing the key in its error body does not leak it" {
	leak_run 400-echo.http
	grep -q 'error\[PROVIDER\]' "$SC_TMP/err"
	assert_no_key
}

@test "secrets: the environment's copy of the key is zeroed while the request runs" {
	model_server_start slow.http
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	ANTHROPIC_API_KEY=$KEY sc-model --provider anthropic --endpoint "$MS_URL" \
		--retries 0 --timeout 5 <"$SC_TMP/conv" >"$SC_TMP/out" 2>"$SC_TMP/err" 3>&- &
	pid=$!
	for _ in $(seq 1 100); do
		[ -e "$SC_TMP/req.1" ] && break
		sleep 0.05
	done
	[ -e "$SC_TMP/req.1" ]
	tr '\0' '\n' <"/proc/$pid/environ" >"$SC_TMP/environ"
	wait "$pid" || true
	grep -q '^ANTHROPIC_API_KEY=' "$SC_TMP/environ"
	run ! grep -qaF "$KEY" "$SC_TMP/environ"
	grep -qaF "$KEY" "$SC_TMP/req.1"
}

# The owner of /proc/PID/environ shows the dumpable flag: a process that
# is not dumpable has its /proc files owned by root.  Run as nobody, so the
# owner would be nobody without the protection (compared with sleep(1)).
@test "secrets: sc-model turns core dumps off for itself" {
	command -v setpriv >/dev/null || skip "setpriv(1) is not installed"
	[ "$(id -u)" -eq 0 ] || skip "needs root to run a process as nobody"
	model_server_start slow.http
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	ANTHROPIC_API_KEY=$KEY setpriv --reuid 65534 --regid 65534 --clear-groups \
		"$SC_TOP/build/bin/sc-model" --provider anthropic --endpoint "$MS_URL" \
		--retries 0 --timeout 5 <"$SC_TMP/conv" >"$SC_TMP/out" 2>"$SC_TMP/err" 3>&- &
	pid=$!
	setpriv --reuid 65534 --regid 65534 --clear-groups sleep 5 3>&- &
	peer=$!
	for _ in $(seq 1 100); do
		[ -e "$SC_TMP/req.1" ] && break
		sleep 0.05
	done
	[ -e "$SC_TMP/req.1" ]
	owner=$(stat -c %u "/proc/$pid/environ")
	peer_owner=$(stat -c %u "/proc/$peer/environ")
	kill "$peer"
	wait "$peer" || true
	wait "$pid" || true
	assert_equal "$peer_owner" 65534
	assert_equal "$owner" 0
}
