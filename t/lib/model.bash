# Helpers for sc-model's tests: the loopback model server (t/lib/model-server.c),
# conversations, and reading what the server was sent.
# shellcheck shell=bash

bats_require_minimum_version 1.5.0

MODEL_DATA="$SC_TOP/t/data/model"

# The server is built by make (make unit, which make test runs).
model_server_build() {
	MODEL_SERVER="$SC_TOP/build/t/model-server"
	[ -x "$MODEL_SERVER" ] || {
		echo "build/t/model-server is missing: run 'make unit'" >&2
		return 1
	}
}

# Start the server with response files (names under t/data/model/ or paths).
# Sets MS_URL (http://127.0.0.1:PORT) and MS_PID; requests go to
# $SC_TMP/req.N.
model_server_start() {
	local f args=() i
	model_server_build
	for f in "$@"; do
		case "$f" in
		/*) args+=("$f") ;;
		*) args+=("$MODEL_DATA/$f") ;;
		esac
	done
	rm -f "$SC_TMP/port"
	"$MODEL_SERVER" "$SC_TMP/port" "$SC_TMP/req" "${args[@]}" 3>&- &
	MS_PID=$!
	for i in $(seq 1 200); do
		[ -s "$SC_TMP/port" ] && break
		sleep 0.05
	done
	[ -s "$SC_TMP/port" ] || { echo "model server did not start" >&2; return 1; }
	MS_URL="http://127.0.0.1:$(cat "$SC_TMP/port")"
	export MS_URL
	: "$i"
}

model_server_stop() {
	if [ -n "${MS_PID:-}" ]; then
		kill "$MS_PID" 2>/dev/null || true
		wait "$MS_PID" 2>/dev/null || true
		MS_PID=
	fi
}

# The body of request N (everything after the blank line).
model_req_body() {
	sed '1,/^\r$/d' "$SC_TMP/req.$1"
}

# The headers of request N, CRs removed.
model_req_head() {
	sed '/^\r$/q' "$SC_TMP/req.$1" | tr -d '\r'
}

# A conversation file from JSON Lines (sc-rec's JSON form) on stdin.
model_conv() {
	sc-rec --from-json >"$SC_TMP/conv"
}

# Records in OUT as JSON Lines, for asserting.
model_json() {
	sc-rec --to-json <"$1"
}

# Proxies from the test's environment must not carry loopback requests.
unset http_proxy https_proxy HTTP_PROXY HTTPS_PROXY all_proxy ALL_PROXY
export NO_PROXY='*'

setup() {
	sc_common_setup
	MS_PID=
}

teardown() {
	model_server_stop
	sc_common_teardown
}

