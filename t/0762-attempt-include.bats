#!/usr/bin/env bats
# Included files (issue 23): a git-ignored file of the person's checkout
# (.env.test, a test key) that the checks need is copied into the
# attempt's worktree, selected by worktree.include and by the start
# commit's .worktreeinclude.  The sandboxed checks read it; the model's
# file tools never do (deny.included-file); it is never committed; its
# secrets are masked in every output.  Each attack has its control.

# shellcheck disable=SC2154,SC2030,SC2031 # bats run sets status, output, stderr
load lib/common
load lib/run

setup() {
	sc_common_setup
	run_need_userns
	run_demo_repo
	INC_TOKEN="inc-$RANDOM$RANDOM-qrstuvwxyz"
	INC_KEYLINE="keyline-$RANDOM$RANDOM-abcdefgh"
	printf 'INCLUDED_TOKEN=%s\nPLAIN_SETTING=visible-setting\n' "$INC_TOKEN" >.env.test
	printf '%s\n' "$INC_KEYLINE" >fixture.key
	chmod 640 .env.test
	printf '.env.test\n*.key\nbig.env\n' >>.gitignore
	printf '.env.test\n' >.worktreeinclude
	git config -f speccoder.conf --add worktree.include '*.key'
	git add .gitignore .worktreeinclude speccoder.conf
	git commit -q -m "include .env.test and the test keys"
}

teardown() {
	sc_common_teardown
}

# A transcript: the model writes a test script SCRIPT (make test runs every
# tests/*.sh), implements the task, then makes the calls of EXTRA (JSON
# objects, one a line), and says it is done.
planted() { # SCRIPT [EXTRA]
	jq -cn --arg c "$1" '{type:"turn"},
		{type:"call",id:"c1",tool:"write",path:"tests/aa-plant.sh",content:$c},
		{type:"call",id:"c2",tool:"write",path:"greet.sh",content:"#!/bin/sh\necho \"Hello, ${1:-world}!\"\n"}' >"$SC_TMP/t"
	[ -z "${2:-}" ] || printf '%s\n' "$2" >>"$SC_TMP/t"
	jq -cn '{type:"turn"}, {type:"text",text:"done"}' >>"$SC_TMP/t"
}

attempt() {
	run --separate-stderr git speccoder run greeting --no-prompt \
		--transcript "$SC_TMP/t" --retries 0
}

# Everything the runs left where a person or a log could read it (the
# worktree, which holds the included files on purpose, left out), the
# conversations included, and the run's output.
all_text() {
	find "$XDG_STATE_HOME"/speccoder/*/runs -type f -exec cat {} + 2>/dev/null
	printf '%s\n%s\n' "$output" "${stderr:-}"
}

# A check that prints the included secrets, plain and encoded (the
# script's own expansions, run by make test).
# shellcheck disable=SC2016
PRINTS='v=$(sed -n "s/^INCLUDED_TOKEN=//p" .env.test)
echo "env: $v"
printf %s "$v" | base64
printf %s "$v" | od -An -tx1 | tr -d " \n"; echo
echo "key: $(cat fixture.key)"
grep PLAIN_SETTING .env.test'

@test "include: a check reads the included .env.test and key: masked everywhere, never committed, unreadable to the model" {
	planted "$PRINTS" '{"type":"call","id":"c3","tool":"read","path":".env.test"}
{"type":"call","id":"c4","tool":"run","argv":["make","test"]}'
	attempt
	assert_success
	wt=$(run_worktree greeting)
	# Copied from the checkout, owner-only, beside the committed tree.
	assert_equal "$(stat -c %a "$wt/.env.test")" 600
	assert_equal "$(cat "$wt/fixture.key")" "$INC_KEYLINE"
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "included") | "\(.path) \(.kind)"' "$SC_TMP/j"
	assert_line ".env.test dotenv"
	assert_line "fixture.key key"
	# The model's read is denied by the rule of its own.
	run jq -r 'select(.type == "verdict" and .id == "c3") | "\(.decision) \(.rule)"' "$SC_TMP/j"
	assert_output "deny deny.included-file"
	# The sandboxed check read them (its output reached the model, masked);
	# a variable whose name is not secret stays readable.
	conv=$(find "$XDG_STATE_HOME" -name conversation -path '*/runs/*')
	run jq -r 'select(.type == "tool-result" and .id == "c4") | .text' < <(sc-rec --to-json <"$conv")
	assert_output --partial "env: [redacted:INCLUDED_TOKEN]"
	assert_output --partial "key: [redacted:fixture.key:1]"
	assert_output --partial "PLAIN_SETTING=visible-setting"
	# No form of either value anywhere: journal, logs, conversation, screen.
	all_text >"$SC_TMP/all"
	b64=$(printf %s "$INC_TOKEN" | base64)
	hex=$(printf %s "$INC_TOKEN" | od -An -tx1 | tr -d ' \n')
	run grep -c -F -e "$INC_TOKEN" -e "${b64%%=*}" -e "$hex" -e "$INC_KEYLINE" "$SC_TMP/all"
	assert_output 0
	# The run's copy of the secrets went with it.
	run find "$XDG_STATE_HOME" -name 'included.secrets*'
	assert_output ""
	# Ticked, and neither file is in any commit.
	assert_equal "$(git rev-list --count main..speccoder/greeting)" 1
	run git log --all --name-only --format= speccoder/greeting
	refute_line .env.test
	refute_line fixture.key
}

@test "include: a check that copies an included value into the tree is not committed (SECRET-IN-DIFF)" {
	planted 'sed -n "s/^INCLUDED_TOKEN=//p" .env.test >leaked.txt'
	attempt
	assert_failure 1
	assert_regex "$stderr" "SECRET-IN-DIFF"
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "end" and .command == "run") | .code' "$SC_TMP/j"
	assert_output SECRET-IN-DIFF
	assert_equal "$(git rev-list --count main..speccoder/greeting)" 0
}

@test "include: a check that un-ignores an included file does not get it committed (DIFF-DENIED, deny.included-file)" {
	planted 'printf "!.env.test\n" >>.gitignore'
	attempt
	assert_failure 1
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "denied") | "\(.path) \(.rule)"' "$SC_TMP/j"
	assert_line ".env.test deny.included-file"
	run jq -r 'select(.type == "end" and .command == "run") | .code' "$SC_TMP/j"
	assert_output DIFF-DENIED
	assert_equal "$(git rev-list --count main..speccoder/greeting)" 0
}

@test "include: control: without the include the same value is not in the worktree" {
	git rm -q .worktreeinclude
	git config -f speccoder.conf --unset-all worktree.include
	git commit -q -am "no includes"
	planted 'test ! -e .env.test && test ! -e fixture.key'
	attempt
	assert_success
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "included") | .path' "$SC_TMP/j"
	assert_output ""
}

@test "include: a symlinked or oversized include is refused, said on screen, and the run goes on without it" {
	rm .env.test
	ln -s "$HOME/.ssh/id_rsa" .env.test
	head -c 1048577 /dev/zero | tr '\0' a >big.env
	printf 'big.env\n' >>.worktreeinclude
	git commit -q -am "include big.env"
	planted 'test ! -e .env.test && test ! -e big.env && test -e fixture.key'
	attempt
	assert_success
	assert_regex "$stderr" "INCLUDE-SYMLINK"
	assert_regex "$stderr" "the run goes on without \\.env\\.test"
	assert_regex "$stderr" "INCLUDE-TOO-LARGE"
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "error") | "\(.code) \(.path)"' "$SC_TMP/j"
	assert_line "INCLUDE-SYMLINK .env.test"
	assert_line "INCLUDE-TOO-LARGE big.env"
	wt=$(run_worktree greeting)
	[ ! -e "$wt/.env.test" ] && [ ! -L "$wt/.env.test" ]
	run grep -r -c fake-private-key-material "$wt"
	refute_output --regexp ':[1-9]'
}

@test "include: a pattern that escapes the checkout stops the run before the model runs" {
	git config -f speccoder.conf --add worktree.include '../outside.env'
	git commit -q -am "a bad include"
	planted ': never runs'
	attempt
	assert_failure 2
	assert_regex "$stderr" "INCLUDE-ESCAPES"
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "end") | .code' "$SC_TMP/j"
	assert_output INCLUDE-ESCAPES
	run jq -r 'select(.type == "verdict") | .id' "$SC_TMP/j"
	assert_output ""
}

@test "include: a pattern naming a tracked file stops the run (INCLUDE-TRACKED)" {
	printf 'greet.sh\n' >>.worktreeinclude
	git commit -q -am "a tracked include"
	planted ': never runs'
	attempt
	assert_failure 2
	assert_regex "$stderr" "INCLUDE-TRACKED"
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "error") | "\(.code) \(.path)"' "$SC_TMP/j"
	assert_output "INCLUDE-TRACKED greet.sh"
}

@test "include: .worktreeinclude changed in the worktree has no effect on the next run" {
	printf 'OTHER_TOKEN=other-%s-abcdefgh\n' "$RANDOM" >other.env
	printf 'other.env\n' >>.gitignore
	git commit -q -am "ignore other.env"
	# Run 1: the model's write is denied; a check rewrites the list.
	planted 'printf "other.env\n" >>.worktreeinclude' \
		'{"type":"call","id":"c3","tool":"write","path":".worktreeinclude","content":"other.env\n"}'
	attempt
	assert_failure 1
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "verdict" and .id == "c3") | .rule' "$SC_TMP/j"
	assert_output deny.verification-config
	# Run 2: the list is the commit's: other.env is never copied in.
	planted 'test ! -e other.env'
	attempt
	assert_success
	wt=$(run_worktree greeting)
	[ ! -e "$wt/other.env" ]
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "included") | .path' "$SC_TMP/j"
	refute_line other.env
	assert_line .env.test
}

@test "include: the held-out tests read the included files too, in their copy" {
	mkdir -p "$SC_TMP/held/tests"
	# shellcheck disable=SC2016 # the held-out test's own text
	printf '%s\n' 'grep -q "^INCLUDED_TOKEN=inc-" .env.test && test -s fixture.key && echo "ok - held-out sees the included files" || { echo "not ok - no included files"; exit 1; }' \
		>"$SC_TMP/held/tests/zz-held-out.sh"
	git speccoder seal greeting "$SC_TMP/held" >/dev/null
	planted ': harmless'
	attempt
	assert_success
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "held-out") | .result' "$SC_TMP/j"
	assert_output PASSED
	run find "$XDG_STATE_HOME" -name held-out.copy
	assert_output ""
}

@test "include: an external agent reads an included file as empty with its own tools, and its requests for it are denied" {
	FAKE_AGENT="$SC_TOP/build/t/fake-acp-agent"
	[ -x "$FAKE_AGENT" ] || fail "build/t/fake-acp-agent is missing: run 'make unit'"
	mkdir -p "$SC_TMP/alog"
	git config -f speccoder.conf executor.command "$FAKE_AGENT $SC_TMP/script $SC_TMP/alog/log"
	git config -f speccoder.conf --add sandbox.writableOutside "$SC_TMP/alog"
	git commit -q -am "an external agent"
	digest=$(printf '%s' "$(cd .git && pwd -P)" | sha256sum | cut -c1-12)
	wt=$XDG_STATE_HOME/speccoder/repo-$digest/worktrees/greeting
	printf '%s\n' 'expect initialize' \
		'reply {"protocolVersion":1,"agentInfo":{"name":"fake","version":"1.0"}}' \
		'expect session/new' \
		'reply {"sessionId":"s1","modes":{"currentModeId":"default","availableModes":[{"id":"default","name":"Default"}]}}' \
		'expect session/prompt' \
		"copy $wt/.env.test $SC_TMP/alog/copy" \
		"request fs/read_text_file {\"sessionId\":\"s1\",\"path\":\"$wt/.env.test\"}" \
		"request fs/write_text_file {\"sessionId\":\"s1\",\"path\":\"$wt/greet.sh\",\"content\":\"#!/bin/sh\\necho \\\"Hello, \${1:-world}!\\\"\\n\"}" \
		'say done' \
		'reply {"stopReason":"end_turn"}' >"$SC_TMP/script"
	run --separate-stderr git speccoder run greeting --no-prompt
	assert_success
	# Its own read found the file empty; the checks still read it whole.
	assert_equal "$(cat "$SC_TMP/alog/copy")" ""
	grep -q "^INCLUDED_TOKEN=$INC_TOKEN" "$wt/.env.test"
	run grep -c -F "$INC_TOKEN" "$SC_TMP/alog/log"
	assert_output 0
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "verdict" and .decision == "deny") | .rule' "$SC_TMP/j"
	assert_output deny.included-file
}
