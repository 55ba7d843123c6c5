# Helpers for sc-acp's tests: the scripted agent (t/lib/fake-acp-agent.c),
# the caller's records, and reading what each side was sent.
# shellcheck shell=bash

bats_require_minimum_version 1.5.0

# Set up a root, the agent's paths and the usual handshake.  After it:
# $ROOT (the session's root), $SCRIPT (append steps to it), $LOG (what the
# agent received), $IN (the caller's records), $OUT (sc-acp's records).
acp_setup() {
	FAKE_AGENT="$SC_TOP/build/t/fake-acp-agent"
	[ -x "$FAKE_AGENT" ] || {
		echo "build/t/fake-acp-agent is missing: run 'make unit'" >&2
		return 1
	}
	ROOT="$SC_TMP/root"
	mkdir -p "$ROOT"
	ROOT=$(cd "$ROOT" && pwd -P)
	SCRIPT="$SC_TMP/script"
	LOG="$SC_TMP/log"
	IN="$SC_TMP/in"
	OUT="$SC_TMP/out"
	: >"$SCRIPT"
	: >"$IN"
}

# Steps for the agent's script, one argument a line.
acp_steps() {
	printf '%s\n' "$@" >>"$SCRIPT"
}

# The handshake of an agent whose modes are MODES (a session/new "modes"
# JSON value; "none" for an agent without modes).  A set_mode is expected
# when SET is given.
acp_handshake() {
	local modes="$1" set="${2:-}"
	acp_steps 'expect initialize' \
		'reply {"protocolVersion":1,"agentInfo":{"name":"fake","version":"1.0"}}' \
		'expect session/new'
	if [ "$modes" = none ]; then
		acp_steps 'reply {"sessionId":"s1"}'
	else
		acp_steps "reply {\"sessionId\":\"s1\",\"modes\":$modes}"
	fi
	if [ -n "$set" ]; then
		acp_steps 'expect session/set_mode' 'reply {}'
	fi
}

# An ask-first agent: the usual case.
acp_handshake_default() {
	acp_handshake '{"currentModeId":"default","availableModes":[{"id":"default","name":"Default"}]}'
}

# An ask-first agent that, once prompted, does STEP... and then hangs:
# sc-acp is run with a prompt and a 30 s timeout.
acp_prompt_then() { # STEP...
	acp_handshake_default
	acp_steps 'expect session/prompt' "$@" 'hang'
	acp_in type=prompt text=go
	acp_run --timeout 30
}

# Append a caller record (sc-rec arguments) to $IN.
acp_in() {
	sc-rec "$@" >>"$IN"
}

# Run sc-acp with $IN and the agent: acp_run [SC-ACP-OPTIONS...].
acp_run() {
	sc_run_io "$IN" "$OUT" sc-acp --cwd "$ROOT" "$@" -- \
		"$FAKE_AGENT" "$SCRIPT" "$LOG"
}

# Like acp_run, but the caller's records in $IN are followed by LATER (a
# file of records) only once sc-acp has written a record of TYPE: a caller
# answers when it is asked, and a test of the order must not race the
# agent.  acp_run_after TYPE LATER [SC-ACP-OPTIONS...]
acp_run_after() {
	local type="$1" later="$2" fifo="$SC_TMP/in.fifo"
	shift 2
	mkfifo "$fifo"
	(
		cat "$IN"
		for _ in $(seq 300); do
			grep -qa "type=$type" "$OUT" 2>/dev/null && break
			sleep 0.1
		done
		cat "$later"
	) >"$fifo" &
	sc_run_io "$fifo" "$OUT" sc-acp --cwd "$ROOT" "$@" -- \
		"$FAKE_AGENT" "$SCRIPT" "$LOG"
	wait
}

# sc-acp's records as JSON Lines, for jq.
acp_out_json() {
	sc-rec --to-json <"$OUT"
}

# The records of TYPE sc-acp wrote, as compact JSON, one a line.
acp_records() {
	acp_out_json | jq -c --arg t "$1" 'select(.type == $t)'
}

# The message the agent received in answer to its request ID, compact.
acp_answer() {
	jq -c --argjson id "$1" 'select(.id == $id and (has("method") | not))' "$LOG"
}

# Succeed when process PID is gone (or a zombie waiting for its reaper)
# within two seconds: a SIGKILL takes effect at once, reaping may lag.
acp_gone() {
	local state _
	for _ in $(seq 20); do
		state=$(ps -o stat= -p "$1" || true)
		case "$state" in
		'' | Z*) return 0 ;;
		esac
		sleep 0.1
	done
	echo "process $1 still runs: $state" >&2
	return 1
}
