#!/usr/bin/env bats
# git speccoder spec: the planning skill writes only the feature's planning
# artifacts, in the person's checkout, uncommitted.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/run

setup() {
	sc_common_setup
	run_need_userns
	run_demo_repo
	printf 'Greet people in French too.\n' >"$SC_TMP/describe"
}

@test "spec: the plan is written in the checkout, uncommitted; other writes are refused" {
	jq -cn '{type:"turn"},
		{type:"expect",of:"message",role:"user",contains:"specs/french/spec.md"},
		{type:"call",id:"c1",tool:"write",path:"specs/french/spec.md",content:"# French\n"},
		{type:"call",id:"c2",tool:"write",path:"specs/french/tasks.md",content:"- [ ] T001 Bonjour\n"},
		{type:"call",id:"c3",tool:"write",path:"greet.sh",content:"echo hacked\n"},
		{type:"call",id:"c4",tool:"write",path:"specs/greeting/spec.md",content:"changed\n"},
		{type:"turn"}, {type:"text",text:"planned"}' >"$SC_TMP/t"
	head=$(git rev-parse HEAD)
	run --separate-stderr git speccoder spec french --no-prompt \
		--describe "$SC_TMP/describe" --transcript "$SC_TMP/t"
	assert_success
	assert_output --partial "?? specs/french/"
	[ -f specs/french/spec.md ]
	grep -q T001 specs/french/tasks.md
	# Nothing else was written, nothing committed.
	grep -q 'Hello, world' greet.sh
	run git diff --stat
	assert_output ""
	assert_equal "$(git rev-parse HEAD)" "$head"
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "verdict") | "\(.id) \(.decision)"' "$SC_TMP/j"
	assert_line "c1 allow"
	assert_line "c3 deny"
	assert_line "c4 deny"
}

@test "spec: the person's description reaches the model, labelled trusted" {
	jq -cn '{type:"turn"},
		{type:"expect",of:"message",role:"user",contains:"in French too",label:"trusted"},
		{type:"text",text:"nothing to write"}' >"$SC_TMP/t"
	run --separate-stderr git speccoder spec french --no-prompt \
		--describe "$SC_TMP/describe" --transcript "$SC_TMP/t"
	assert_success
}

@test "spec: a command that edits another feature's spec ends the planning (INTEGRITY)" {
	jq -cn '{type:"turn"},
		{type:"call",id:"c1",tool:"write",path:"specs/french/research.md",content:"echo x >> specs/greeting/plan.md\n"},
		{type:"call",id:"c2",tool:"run",argv:["sh","specs/french/research.md"]},
		{type:"turn"}, {type:"text",text:"never"}' >"$SC_TMP/t"
	echo once >"$SC_TMP/answers"
	run --separate-stderr git speccoder spec french --answers "$SC_TMP/answers" \
		--transcript "$SC_TMP/t"
	assert_failure 1
	assert_regex "$stderr" "INTEGRITY"
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "end") | .code' "$SC_TMP/j"
	assert_output INTEGRITY
}
