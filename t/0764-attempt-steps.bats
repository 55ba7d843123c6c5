#!/usr/bin/env bats
# The steps speccoder adds around the model's work in an attempt (issue
# 23): the formatter (format.argv), the acceptance tests
# ([acceptance "NAME"]) and the mutation tool (mutation.argv), with the
# replay model and the scripted steps of t/lib/fake-step.sh.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/run

setup() {
	sc_common_setup
	run_need_userns
	run_demo_repo
	export TMPDIR="$SC_TMP/tmp"
	mkdir -p "$TMPDIR"
	STEP="$SC_TOP/t/lib/fake-step.sh"
	# The model writes greet.sh with trailing blanks (a formatter's work),
	# then says it is done; turns to spare for the retries.
	jq -cn '{type:"turn"},
		{type:"call",id:"c1",tool:"write",path:"greet.sh",
		 content:"#!/bin/sh   \necho \"Hello, ${1:-world}!\"   \n"},
		{type:"turn"}, {type:"text",text:"done"},
		{type:"turn"}, {type:"text",text:"again"},
		{type:"turn"}, {type:"text",text:"again"}' >"$SC_TMP/t"
}

# Add the configuration lines CONF to speccoder.conf, committed: the steps
# come from the configuration of the commit the attempt starts from.
conf() { # CONF
	printf '%s\n' "$1" >>speccoder.conf
	git commit -q -am "configure a step"
}

attempt() { # [RUN-OPTIONS...]
	run --separate-stderr git speccoder run greeting --no-prompt \
		--transcript "$SC_TMP/t" "$@"
}

# The end event of the newest journal: "RESULT CODE".
end_event() {
	run_journal_json | jq -r 'select(.type == "end" and .command == "run") | "\(.result) \(.code)"'
}

# The task-verification predicate of the branch's tip.
tip_predicate() {
	git notes --ref=speccoder show speccoder/greeting | jq -r .payload |
		base64 -d | jq -c .predicate
}

# ---- the formatter --------------------------------------------------------

@test "format: the formatter rewrites the file the model wrote; the rewrite is audited and committed" {
	conf "[format]
	argv = $STEP format"
	attempt --retries 0
	assert_success
	# The model's trailing blanks are gone from the commit.
	run git show speccoder/greeting:greet.sh
	# shellcheck disable=SC2016 # the text of the script, not an expansion
	assert_output --partial 'echo "Hello, ${1:-world}!"'
	run grep -c '[[:space:]]$' < <(git show speccoder/greeting:greet.sh)
	assert_output 0
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "format") | "\(.outcome) \(.status) \(.required)"' "$SC_TMP/j"
	assert_output "pass 0 false"
	# Its change went through the diff audit, before the checks.
	run jq -r 'select(.type == "audit") | .task' "$SC_TMP/j"
	assert_line "2-format"
}

@test "control: without a formatter the model's blanks are committed as written" {
	attempt --retries 0
	assert_success
	run grep -c '[[:space:]]$' < <(git show speccoder/greeting:greet.sh)
	assert_output 2
}

@test "format: a formatter that writes a protected file is stopped by the audit; nothing is committed" {
	conf "[format]
	argv = $STEP format-protected"
	before=$(git rev-parse HEAD)
	attempt --retries 0
	assert_failure 1
	run end_event
	assert_output "failure DIFF-DENIED"
	run jq -r 'select(.type == "denied") | "\(.path) \(.code)"' < <(run_journal_json)
	assert_line "Makefile DIFF-DENIED"
	assert_equal "$(git rev-parse speccoder/greeting)" "$before"
	run git show speccoder/greeting:Makefile
	refute_output --partial reformatted
}

@test "format: a formatter that never ends is cut at format.timeout; error[FORMAT-TIMEOUT] and the task goes on" {
	conf "[format]
	argv = $STEP hang
	timeout = 2"
	attempt --retries 0
	assert_success
	assert_output --partial "every task passed"
	[[ "$stderr" == *"error[FORMAT-TIMEOUT]"*"goes on"* ]]
	run jq -r 'select(.type == "format") | "\(.outcome) \(.status) \(.code)"' < <(run_journal_json)
	assert_output "timeout 124 FORMAT-TIMEOUT"
}

@test "format: with format.required a failing formatter fails the task" {
	conf "[format]
	argv = $STEP format-fail
	required = true"
	before=$(git rev-parse HEAD)
	attempt --retries 1
	assert_failure 1
	run end_event
	assert_output "failure TASK-FAILED"
	[[ "$stderr" == *"error[FORMAT-FAILED]"* ]]
	assert_equal "$(git rev-parse speccoder/greeting)" "$before"
	# The model saw the formatter's complaint, to fix what it wrote.
	sc-rec --to-json <"$(dirname "$(find "$XDG_STATE_HOME" -name journal -path '*/runs/*' | sort | tail -n 1)")/conversation" |
		jq -r '.text // empty' >"$SC_TMP/conv"
	grep -q "cannot parse greet.sh" "$SC_TMP/conv"
}

@test "format: a failing formatter without format.required is journaled and the task passes" {
	conf "[format]
	argv = $STEP format-fail"
	attempt --retries 0
	assert_success
	[[ "$stderr" == *"error[FORMAT-FAILED]"* ]]
	run jq -r 'select(.type == "format") | "\(.outcome) \(.status)"' < <(run_journal_json)
	assert_output "fail 3"
}

# ---- acceptance tests -----------------------------------------------------

@test "acceptance: an acceptance test fails a task the checks passed" {
	conf "[acceptance \"e2e\"]
	argv = $STEP acceptance-fail
	timeout = 30"
	before=$(git rev-parse HEAD)
	attempt --retries 0
	assert_failure 1
	run end_event
	assert_output "failure TASK-FAILED"
	assert_equal "$(git rev-parse speccoder/greeting)" "$before"
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "evidence") | "\(.kind) \(.name) \(.outcome)"' "$SC_TMP/j"
	assert_line "check test pass"
	assert_line "acceptance e2e fail"
}

@test "acceptance: a passing acceptance test is evidence in the attestation" {
	conf "[acceptance \"e2e\"]
	argv = $STEP acceptance-pass"
	attempt --retries 0
	assert_success
	run tip_predicate
	assert_success
	run jq -r '.acceptance[] | "\(.name) \(.exitStatus)"' <<<"$output"
	assert_output "e2e 0"
	run jq -r '[.checks[].name] | join(" ")' < <(tip_predicate)
	assert_output "test"
}

@test "acceptance: one that never ends is cut at its own timeout" {
	conf "[acceptance \"slow\"]
	argv = $STEP hang
	timeout = 2"
	attempt --retries 0
	assert_failure 1
	run jq -r 'select(.type == "evidence" and .kind == "acceptance") | "\(.outcome) \(.status)"' < <(run_journal_json)
	assert_output "timeout 124"
}

# ---- mutation testing -----------------------------------------------------

@test "mutation: a score below mutation.minimum fails the task" {
	conf "[mutation]
	argv = $STEP mutation-summary 3 5
	minimum = 80"
	before=$(git rev-parse HEAD)
	attempt --retries 0
	assert_failure 1
	run end_event
	assert_output "failure TASK-FAILED"
	assert_equal "$(git rev-parse speccoder/greeting)" "$before"
	run jq -r 'select(.type == "mutation") | "\(.killed)/\(.total) \(.minimum) \(.result)"' < <(run_journal_json)
	assert_output "3/5 80 below"
}

@test "mutation: a score above the minimum is attested, shown by verify, and the mutants stay in the copy" {
	conf "[mutation]
	argv = $STEP mutation-summary 9 10
	minimum = 80"
	attempt --retries 0
	assert_success
	run tip_predicate
	run jq -c '.["mutation-score"]' <<<"$output"
	assert_output '{"killed":9,"minimum":80,"total":10}'
	# The mutation tool worked on a copy: its mutant is not committed.
	run git show speccoder/greeting:greet.sh
	refute_output --partial mutant
	[ ! -e "$(run_worktree greeting)/mutation.json" ]
	run find "$XDG_STATE_HOME" -name mutation.copy
	assert_output ""
	git config gpg.ssh.allowedSignersFile /dev/null
	run --separate-stderr git speccoder verify --branch speccoder/greeting --base main --allow-unsigned
	assert_success
	assert_output --partial "mutation-score 9/10"
}

@test "mutation: mutation.report names a JSON report read beneath the copy" {
	conf "[mutation]
	argv = $STEP mutation-report 4 4
	report = mutation.json
	minimum = 100"
	attempt --retries 0
	assert_success
	run jq -c '.["mutation-score"] | [.killed, .total]' < <(tip_predicate)
	assert_output '[4,4]'
}

@test "mutation: a report that is a symlink is error[MUTATION-REPORT]; with a minimum the attempt stops" {
	conf "[mutation]
	argv = $STEP mutation-symlink
	report = mutation.json
	minimum = 50"
	attempt --retries 0
	assert_failure 1
	run end_event
	assert_output "failure MUTATION-REPORT"
	[[ "$stderr" == *"error[MUTATION-REPORT]"* ]]
	run jq -r 'select(.type == "mutation") | .code' < <(run_journal_json)
	assert_output MUTATION-REPORT
}

@test "mutation: a report that does not parse, without a minimum: said, journaled, the task passes without a score" {
	conf "[mutation]
	argv = $STEP mutation-garbage
	report = mutation.json"
	attempt --retries 0
	assert_success
	[[ "$stderr" == *"error[MUTATION-REPORT]"*"without a mutation score"* ]]
	run jq -c 'has("mutation-score")' < <(tip_predicate)
	assert_output false
}

@test "mutation: a mutation tool that never ends is cut at mutation.timeout" {
	conf "[mutation]
	argv = $STEP hang
	timeout = 2
	minimum = 10"
	attempt --retries 0
	assert_failure 1
	run end_event
	assert_output "failure MUTATION-TIMEOUT"
}

# ---- bad input ------------------------------------------------------------

@test "bad config: a formatter without argv: error[BAD-CONFIG], exit 2, nothing runs" {
	conf "[format]
	timeout = 5"
	attempt --retries 0
	assert_failure 2
	[[ "$stderr" == *"error[BAD-CONFIG]"*"[format] has no argv"* ]]
	run jq -r 'select(.type == "verdict" or .type == "format")' < <(run_journal_json)
	assert_output ""
}

@test "bad config: a mutation report outside the root: error[BAD-CONFIG], exit 2, nothing runs" {
	conf "[mutation]
	argv = true
	report = ../../outside.json"
	attempt --retries 0
	assert_failure 2
	[[ "$stderr" == *"mutation.report is not a path beneath the root"* ]]
	assert_equal "$(git rev-list --count main..speccoder/greeting 2>/dev/null || echo 0)" 0
}

@test "bad config: a malformed acceptance test stops the run before anything runs" {
	conf "[acceptance \"e2e\"]
	timeout = 30"
	attempt --retries 0
	assert_failure 2
	[[ "$stderr" == *"error[BAD-CONFIG]"*"acceptance 'e2e' has no argv"* ]]
	run jq -r 'select(.type == "verdict")' < <(run_journal_json)
	assert_output ""
}

@test "mutation: the copy holds the person's included files; their secrets are masked in its output" {
	token="inc-$RANDOM$RANDOM-qrstuvwxyz"
	printf 'INCLUDED_TOKEN=%s\n' "$token" >.env.test
	printf '.env.test\n' >>.gitignore
	printf '.env.test\n' >.worktreeinclude
	git add .gitignore .worktreeinclude
	conf "[mutation]
	argv = $STEP mutation-included
	minimum = 100"
	attempt --retries 0
	assert_success
	run jq -c '.["mutation-score"] | [.killed, .total]' < <(tip_predicate)
	assert_output '[5,5]'
	log=$(find "$XDG_STATE_HOME" -name mutation.log | sort | tail -n 1)
	grep -q 'token: \[redacted:INCLUDED_TOKEN\]' "$log"
	run grep -rlF -- "$token" "$XDG_STATE_HOME"/speccoder/*/runs
	assert_output ""
}
