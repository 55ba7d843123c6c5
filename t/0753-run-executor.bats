#!/usr/bin/env bats
# git speccoder run with executor.command: an external agent (the scripted
# fake ACP agent) makes the attempt; speccoder decides every request.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/run

setup() {
	sc_common_setup
	run_need_userns
	FAKE_AGENT="$SC_TOP/build/t/fake-acp-agent"
	[ -x "$FAKE_AGENT" ] || fail "build/t/fake-acp-agent is missing: run 'make unit'"
	run_demo_repo
	# The agent's log must be writable inside its sandbox.
	mkdir -p "$SC_TMP/alog"
	git config -f speccoder.conf executor.command "$FAKE_AGENT $SC_TMP/script $SC_TMP/alog/log"
	git config -f speccoder.conf --add sandbox.writableOutside "$SC_TMP/alog"
	git commit -q -am "an external agent"
	# Where the worktree will be: the agent names files by absolute path.
	digest=$(printf '%s' "$(cd .git && pwd -P)" | sha256sum | cut -c1-12)
	WT=$XDG_STATE_HOME/speccoder/repo-$digest/worktrees/greeting
}

steps() {
	printf '%s\n' "$@" >>"$SC_TMP/script"
}

handshake() { # MODES-JSON
	steps 'expect initialize' \
		'reply {"protocolVersion":1,"agentInfo":{"name":"fake","version":"1.0"}}' \
		'expect session/new' \
		"reply {\"sessionId\":\"s1\",\"modes\":$1}"
}

OPTS='[{"optionId":"always","name":"Always","kind":"allow_always"},{"optionId":"once","name":"Allow","kind":"allow_once"},{"optionId":"no","name":"Reject","kind":"reject_once"}]'

@test "run with an executor: its requests are judged, done by speccoder, and the task ticks" {
	handshake '{"currentModeId":"default","availableModes":[{"id":"default","name":"Default"}]}'
	steps 'expect session/prompt' \
		"request fs/read_text_file {\"sessionId\":\"s1\",\"path\":\"$WT/greet.sh\"}" \
		"request fs/write_text_file {\"sessionId\":\"s1\",\"path\":\"$WT/greet.sh\",\"content\":\"#!/bin/sh\\necho \\\"Hello, \${1:-world}!\\\"\\n\"}" \
		"request fs/write_text_file {\"sessionId\":\"s1\",\"path\":\"$WT/.git/config\",\"content\":\"[core]\\n\"}" \
		"request session/request_permission {\"sessionId\":\"s1\",\"toolCall\":{\"toolCallId\":\"t1\",\"kind\":\"execute\",\"title\":\"make test\",\"rawInput\":{\"command\":\"make test\"}},\"options\":$OPTS}" \
		"request terminal/create {\"sessionId\":\"s1\",\"command\":\"make\",\"args\":[\"test\"]}" \
		'say done' \
		'reply {"stopReason":"end_turn"}'
	run --separate-stderr git speccoder run greeting --no-prompt
	assert_success
	assert_equal "$(git rev-list --count main..speccoder/greeting)" 1
	run git show speccoder/greeting:greet.sh
	assert_output --partial '1:-world'
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "verdict") | "\(.decision) \(.rule)"' "$SC_TMP/j"
	assert_line "allow allow.read"
	assert_line "allow allow.write"
	assert_line --regexp "^deny deny\\."
	assert_line "allow allow.check"
	# The command the agent would run itself needs a person: refused here.
	run jq -r 'select(.type == "approval") | "\(.answer) \(.by)"' "$SC_TMP/j"
	assert_output "no no-prompt"
	run jq -c 'select(.method == null and .id == 103) | .result.outcome.outcome' "$SC_TMP/alog/log"
	assert_output '"selected"'
	run jq -r 'select(.id == 103) | .result.outcome.optionId // empty' "$SC_TMP/alog/log"
	refute_output always
	# The agent got the file, masked; the denied write got an error.
	run jq -r 'select(.id == 100) | .result.content' "$SC_TMP/alog/log"
	assert_output --partial 'Hello, world!'
	run jq -r 'select(.id == 102) | .error.message' "$SC_TMP/alog/log"
	assert_output --partial "denied by speccoder"
	run git config core.hooksPath
	assert_output ""
	# The agent's key-less environment, private configuration.
	run jq -r 'select(.type == "mode") | ."decides-alone"' "$SC_TMP/j"
	assert_output 0
}

@test "run with an executor that decides alone: the run says so" {
	handshake '{"currentModeId":"yolo","availableModes":[{"id":"yolo","name":"Yolo"}]}'
	steps 'expect session/prompt' \
		"request fs/write_text_file {\"sessionId\":\"s1\",\"path\":\"$WT/greet.sh\",\"content\":\"#!/bin/sh\\necho \\\"Hello, \${1:-world}!\\\"\\n\"}" \
		'reply {"stopReason":"end_turn"}'
	run --separate-stderr git speccoder run greeting --no-prompt
	assert_success
	assert_regex "$stderr" "decides alone"
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "mode") | "\(."decides-alone") \(.reason)"' "$SC_TMP/j"
	assert_output "1 no-ask-mode"
}

@test "run with an executor that dies mid-task: the attempt ends, nothing committed" {
	handshake '{"currentModeId":"default","availableModes":[{"id":"default","name":"Default"}]}'
	steps 'expect session/prompt' 'raw {not json' 'hang'
	run --separate-stderr git speccoder run greeting --no-prompt
	assert_failure 1
	assert_regex "$stderr" "ACP-PROTOCOL"
	assert_equal "$(git rev-list --count main..speccoder/greeting)" 0
}

@test "run with an executor: an unpinned repository skill stops the run before the agent starts" {
	mkdir -p .claude/skills/helper
	printf '# helper\n' >.claude/skills/helper/SKILL.md
	git add .claude && git commit -q -m "a skill"
	handshake '{"currentModeId":"default","availableModes":[{"id":"default","name":"Default"}]}'
	run --separate-stderr git speccoder run greeting --no-prompt
	assert_failure 1
	assert_regex "$stderr" "SKILL-UNVERIFIED"
	# The agent never started.
	[ ! -e "$SC_TMP/alog/log" ]
	# Pinned by the person, the same run starts.
	git speccoder skills pin .claude/skills/helper@repo .claude/skills/helper
	git add skills.lock && git commit -q -m "pin the skill"
	steps 'expect session/prompt' 'reply {"stopReason":"end_turn"}'
	run --separate-stderr git speccoder run greeting --no-prompt --retries 0
	[ -e "$SC_TMP/alog/log" ]
	refute_regex "$stderr" "SKILL-UNVERIFIED"
}

@test "run with an executor: an agent context file a person approved is written, and the guard does not end the attempt for it" {
	handshake '{"currentModeId":"default","availableModes":[{"id":"default","name":"Default"}]}'
	steps 'expect session/prompt' \
		"request fs/write_text_file {\"sessionId\":\"s1\",\"path\":\"$WT/CLAUDE.md\",\"content\":\"Be brief.\\n\"}" \
		"request fs/write_text_file {\"sessionId\":\"s1\",\"path\":\"$WT/greet.sh\",\"content\":\"#!/bin/sh\\necho \\\"Hello, \${1:-world}!\\\"\\n\"}" \
		'reply {"stopReason":"end_turn"}'
	printf 'o\n' >"$SC_TMP/answers"
	run --separate-stderr git speccoder run greeting --answers "$SC_TMP/answers"
	assert_success
	refute_regex "$stderr" "INTEGRITY"
	run git show speccoder/greeting:greet.sh
	assert_output --partial '1:-world'
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "approval") | "\(.object) \(.answer)"' "$SC_TMP/j"
	assert_output "CLAUDE.md once"
	# The done record counts the agent's turn.
	run jq -r 'select(.type == "done") | .turns' "$SC_TMP/j"
	assert_output 1
}

@test "run with an executor: a protected input the agent changes alone stops the attempt at the end of its turn, before any check runs it" {
	handshake '{"currentModeId":"default","availableModes":[{"id":"default","name":"Default"}]}'
	# The agent rewrites the Makefile with its own process (its sandbox
	# lets it write the worktree): the check would run the attacker's rule.
	steps 'expect session/prompt' \
		"write $WT/Makefile test:;@touch $SC_TMP/alog/check-ran" \
		'reply {"stopReason":"end_turn"}'
	run --separate-stderr git speccoder run greeting --no-prompt
	assert_failure 1
	assert_regex "$stderr" "INTEGRITY"
	[ ! -e "$SC_TMP/alog/check-ran" ]
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "finding") | .path' "$SC_TMP/j"
	assert_output --partial Makefile
	assert_equal "$(git rev-list --count main..speccoder/greeting)" 0
}

@test "run with an executor: a stop in the middle of a turn cancels it and ends promptly, without a broken pipe" {
	handshake '{"currentModeId":"default","availableModes":[{"id":"default","name":"Default"}]}'
	# Three denials stop the attempt; the agent then hangs.
	steps 'expect session/prompt' \
		"request fs/read_text_file {\"sessionId\":\"s1\",\"path\":\"$WT/.env\"}" \
		"request fs/write_text_file {\"sessionId\":\"s1\",\"path\":\"$WT/.git/config\",\"content\":\"x\"}" \
		"request fs/write_text_file {\"sessionId\":\"s1\",\"path\":\"$WT/speccoder.conf\",\"content\":\"x\"}" \
		'hang'
	SECONDS=0
	run --separate-stderr git speccoder run greeting --no-prompt
	assert_failure 1
	assert_regex "$stderr" "DENIED-THRICE"
	[ "$SECONDS" -lt 120 ]
	refute_regex "$stderr" "[Bb]roken pipe|WRITE-FAILED|ACP-TIMEOUT"
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "end") | .reason // empty' "$SC_TMP/j"
	assert_output --partial cancelled
}

@test "run with an executor: a person's yes to the agent's request covers the one command it then runs, asked once" {
	handshake '{"currentModeId":"default","availableModes":[{"id":"default","name":"Default"}]}'
	steps 'expect session/prompt' \
		'notify session/update {"sessionId":"s1","update":{"sessionUpdate":"tool_call","toolCallId":"b1","_meta":{"claudeCode":{"toolName":"mcp__acp__Bash"}},"kind":"execute","title":"python","status":"pending","rawInput":{"command":"python3 -V"}}}' \
		"request session/request_permission {\"sessionId\":\"s1\",\"toolCall\":{\"toolCallId\":\"b1\",\"rawInput\":{\"command\":\"python3 -V\"}},\"options\":$OPTS}" \
		"request terminal/create {\"sessionId\":\"s1\",\"command\":\"python3 -V\",\"cwd\":\"$WT\"}" \
		'request terminal/wait_for_exit {"sessionId":"s1","terminalId":"term-1"}' \
		"request terminal/create {\"sessionId\":\"s1\",\"command\":\"python3 -V\",\"cwd\":\"$WT\"}" \
		"request fs/write_text_file {\"sessionId\":\"s1\",\"path\":\"$WT/greet.sh\",\"content\":\"#!/bin/sh\\necho \\\"Hello, \${1:-world}!\\\"\\n\"}" \
		'reply {"stopReason":"end_turn"}'
	printf 'o\n' >"$SC_TMP/answers"
	run --separate-stderr git speccoder run greeting --answers "$SC_TMP/answers"
	assert_success
	run_journal_json >"$SC_TMP/j"
	# Asked once; the command it covers runs; the same command again is a
	# new question (the script has no more answers: no).
	run jq -r 'select(.type == "approval") | "\(.answer) \(.by)"' "$SC_TMP/j"
	assert_output $'once script\nonce permission\nno script-exhausted'
	run jq -c 'select(.id == 101) | .result' "$SC_TMP/alog/log"
	assert_output '{"terminalId":"term-1"}'
	run jq -c 'select(.id == 102) | .result' "$SC_TMP/alog/log"
	assert_output '{"exitCode":0,"signal":null}'
	run jq -r 'select(.id == 103) | .error.code' "$SC_TMP/alog/log"
	assert_output -- -32001
}
