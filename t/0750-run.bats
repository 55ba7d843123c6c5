#!/usr/bin/env bats
# git speccoder run: the demo attempt, isolation, ticks and attestations.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/run

DEMO=$SC_TOP/contrib/demo

setup() {
	sc_common_setup
	run_need_userns
	run_demo_repo
	echo no >"$SC_TMP/answers"
}

@test "run: the demo task is implemented, checked, ticked, committed and attested" {
	before_head=$(git rev-parse HEAD)
	run --separate-stderr git speccoder run greeting \
		--transcript "$DEMO/demo.transcript" --answers "$SC_TMP/answers"
	assert_success
	wt=$(run_worktree greeting)
	# The work is on the speccoder branch, one commit with the trailer.
	assert_equal "$(git rev-list --count main..speccoder/greeting)" 1
	run git log -1 --format=%B speccoder/greeting
	assert_output --partial "Speccoder-Task: greeting 2"
	run git show speccoder/greeting:specs/greeting/tasks.md
	assert_output --partial "- [x] T001 Greet the person named on the command line"
	run git show speccoder/greeting:greet.sh
	# shellcheck disable=SC2016 # the text of the script, not an expansion
	assert_output --partial '${1:-world}'
	# The attestation is the note of that commit, and it verifies.
	run sc-attest show speccoder/greeting
	assert_success
	assert_output --partial "task-verification"
	run sc-attest verify --branch speccoder/greeting --base main \
		--allowed-signers /dev/null --allow-unsigned
	assert_success
	# The checkout the person works in is untouched.
	assert_equal "$(git rev-parse HEAD)" "$before_head"
	assert_equal "$(git rev-parse --abbrev-ref HEAD)" main
	assert_equal "$(git status --porcelain)" ""
	grep -q 'Hello, world' greet.sh
	[ -d "$wt" ]
}

@test "run: the denied read, the refused curl and the masked check are in the journal" {
	run --separate-stderr git speccoder run greeting \
		--transcript "$DEMO/demo.transcript" --answers "$SC_TMP/answers"
	assert_success
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "verdict") | "\(.id) \(.decision) \(.rule)"' "$SC_TMP/j"
	assert_line "call-1 deny deny.secret-file"
	assert_line "call-2 ask ask.network-tool"
	assert_line "call-5 allow allow.check"
	run jq -r 'select(.type == "approval") | "\(.id) \(.answer) \(.by)"' "$SC_TMP/j"
	assert_output "call-2 no script"
	# The check printed the key: masked everywhere it was kept.
	conv=$(find "$XDG_STATE_HOME" -name conversation -path '*/runs/*')
	sc-rec --to-json <"$conv" | grep -q 'used token \[redacted:DEMO_API_KEY\]'
	run_all_text >"$SC_TMP/all"
	cat "$conv" >>"$SC_TMP/all"
	run grep -c -F "$DEMO_API_KEY" "$SC_TMP/all"
	assert_output 0
}

@test "run: the key and the .env never reach the model's conversation" {
	run --separate-stderr git speccoder run greeting \
		--transcript "$DEMO/demo.transcript" --answers "$SC_TMP/answers"
	assert_success
	conv=$(find "$XDG_STATE_HOME" -name conversation -path '*/runs/*')
	run grep -c -F -e "$DEMO_API_KEY" -e fake-private-key-material "$conv"
	assert_output 0
	run jq -r 'select(.type == "tool-result" and .id == "call-1") | .text' \
		< <(sc-rec --to-json <"$conv")
	assert_output --partial "denied by speccoder's policy (deny.secret-file)"
}

@test "run: a task that is done is not run again" {
	run --separate-stderr git speccoder run greeting \
		--transcript "$DEMO/demo.transcript" --answers "$SC_TMP/answers"
	assert_success
	run --separate-stderr git speccoder run greeting \
		--transcript "$DEMO/demo.transcript" --answers "$SC_TMP/answers"
	assert_success
	assert_output --partial "every task of greeting is done"
	assert_equal "$(git rev-list --count main..speccoder/greeting)" 1
}

@test "run: --no-prompt asks nothing: the curl is denied without a question" {
	: >"$SC_TMP/answers"
	run --separate-stderr git speccoder run greeting --no-prompt \
		--transcript "$DEMO/demo.transcript"
	assert_success
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "verdict" and .id == "call-2") | .decision' "$SC_TMP/j"
	assert_output deny
	run jq -r 'select(.type == "approval")' "$SC_TMP/j"
	assert_output ""
	refute_regex "$stderr" "allow it"
}

@test "run: an answer 'for this run' grants that one object and it runs" {
	cat >"$SC_TMP/t" <<'T'
{"type":"turn"}
{"type":"call","id":"c1","tool":"run","argv":["xargs","echo","granted-run"]}
{"type":"turn"}
{"type":"expect","of":"tool-result","id":"c1","contains":"granted-run"}
{"type":"call","id":"c2","tool":"run","argv":["xargs","echo","granted-run"]}
{"type":"turn"}
{"type":"expect","of":"tool-result","id":"c2","contains":"granted-run"}
{"type":"call","id":"c3","tool":"write","path":"greet.sh","content":"#!/bin/sh\necho \"Hello, ${1:-world}!\"\n"}
{"type":"turn"}
{"type":"text","text":"done"}
T
	echo run >"$SC_TMP/answers"
	run --separate-stderr git speccoder run greeting \
		--transcript "$SC_TMP/t" --answers "$SC_TMP/answers"
	assert_success
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "verdict") | "\(.id) \(.rule)"' "$SC_TMP/j"
	assert_line "c1 ask.launcher"
	assert_line "c2 allow.grant"
	run jq -r 'select(.type == "approval") | .answer' "$SC_TMP/j"
	assert_output run
}

@test "run: a question names every part that asks, and one answer covers exactly those" {
	cat >"$SC_TMP/t" <<'T'
{"type":"turn"}
{"type":"call","id":"c1","tool":"run","shell":"xargs echo part-one; env -S 'echo part-two'"}
{"type":"turn"}
{"type":"call","id":"c2","tool":"run","shell":"env -S 'echo part-two'"}
{"type":"call","id":"c3","tool":"run","shell":"xargs echo part-one"}
{"type":"call","id":"c4","tool":"run","shell":"xargs echo part-three"}
{"type":"turn"}
{"type":"text","text":"done"}
T
	printf 'run\nno\n' >"$SC_TMP/answers"
	run --separate-stderr git speccoder run greeting --retries 0 \
		--transcript "$SC_TMP/t" --answers "$SC_TMP/answers"
	assert_regex "$stderr" "part: +1 of 2"
	assert_regex "$stderr" "part: +2 of 2"
	assert_regex "$stderr" "object: .*argv=xargs echo part-one"
	assert_regex "$stderr" "object: .*argv=env -S 'echo part-two'"
	assert_regex "$stderr" "allow all 2 parts"
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "verdict") | "\(.id) \(.rule)"' "$SC_TMP/j"
	assert_line "c1 ask.launcher"
	assert_line "c2 allow.grant"
	assert_line "c3 allow.grant"
	assert_line "c4 ask.launcher"
	run jq -r 'select(.type == "approval") | "\(.id) \(.answer)"' "$SC_TMP/j"
	assert_line "c1 run"
	assert_line "c4 no"
}

@test "run: the question is cleaned of C1 controls, escapes and bidi overrides" {
	jq -cn '{type:"turn"},
		{type:"call",id:"c1",tool:"run",argv:["xargs","echo","a\u009b2Jb\u202ec\u0085d"]},
		{type:"turn"}, {type:"text",text:"done \u009b31m\u202e"}' >"$SC_TMP/t"
	echo no >"$SC_TMP/answers"
	run --separate-stderr git speccoder run greeting --retries 0 \
		--transcript "$SC_TMP/t" --answers "$SC_TMP/answers"
	assert_regex "$stderr" "object: .*a\?2Jb\?c\?d"
	run grep -c $'\xc2\x9b\\|\xe2\x80\xae\\|\xc2\x85' <<<"$stderr"
	assert_output 0
}

@test "run: the approval budget bounds the questions" {
	printf '[approvals]\n\tbudget = 1\n' >>speccoder.conf
	git commit -q -am "budget of one"
	cat >"$SC_TMP/t" <<'T'
{"type":"turn"}
{"type":"call","id":"c1","tool":"run","argv":["xargs","echo","one"]}
{"type":"call","id":"c2","tool":"run","argv":["xargs","echo","two"]}
{"type":"turn"}
{"type":"text","text":"nothing more"}
T
	printf 'no\nonce\n' >"$SC_TMP/answers"
	run --separate-stderr git speccoder run greeting \
		--transcript "$SC_TMP/t" --answers "$SC_TMP/answers"
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "approval") | "\(.id) \(.answer) \(.by)"' "$SC_TMP/j"
	assert_line "c1 no script"
	assert_line "c2 no budget"
}

@test "run: the approval budget bounds the questions of the run, not of each loop" {
	printf '[approvals]\n\tbudget = 1\n' >>speccoder.conf
	git commit -q -am "budget of one"
	# The first attempt spends the budget and fails its checks; the
	# retry is a new loop of the same run, and may ask nothing more.
	cat >"$SC_TMP/t" <<'T'
{"type":"turn"}
{"type":"call","id":"c1","tool":"run","argv":["xargs","echo","one"]}
{"type":"turn"}
{"type":"text","text":"nothing more"}
{"type":"turn"}
{"type":"call","id":"c2","tool":"run","argv":["xargs","echo","two"]}
{"type":"turn"}
{"type":"text","text":"nothing more"}
T
	printf 'no\nonce\n' >"$SC_TMP/answers"
	run --separate-stderr git speccoder run greeting --retries 1 \
		--transcript "$SC_TMP/t" --answers "$SC_TMP/answers"
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "approval") | "\(.id) \(.answer) \(.by)"' "$SC_TMP/j"
	assert_line "c1 no script"
	assert_line "c2 no budget"
}

@test "run: the person is shown the whole object asked about, however long" {
	# A long harmless start must not push what runs off the question.
	pad=$(printf 'x%.0s' $(seq 600))
	jq -cn --arg c "$pad" '{type:"turn"},
		{type:"call",id:"c1",tool:"run",argv:["xargs","echo",$c,"tail-marker-hidden"]},
		{type:"turn"}, {type:"text",text:"done"}' >"$SC_TMP/t"
	echo no >"$SC_TMP/answers"
	run --separate-stderr git speccoder run greeting --retries 0 \
		--transcript "$SC_TMP/t" --answers "$SC_TMP/answers"
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "approval") | "\(.id) \(.answer) \(.by)"' "$SC_TMP/j"
	assert_output "c1 no script"
	run grep -c 'object: .*tail-marker-hidden' <<<"$stderr"
	assert_output 1
}

@test "run: a command in the worktree cannot read the checkout's ignored secrets" {
	printf 'private/\n' >>.gitignore
	git commit -q -am "ignore private/"
	mkdir private
	key="sk-other-$RANDOM$RANDOM-qrstuvwxyzabcdef"
	printf 'OTHER_KEY=%s\n' "$key" >private/.env
	jq -cn --arg r "$PWD" '{type:"turn"},
		{type:"call",id:"c1",tool:"write",path:"tests/aa-env.sh",
		 content:("echo \"env holds: $(cat " + $r + "/private/.env " + $r + "/.env)\"\n")},
		{type:"turn"}, {type:"call",id:"c3",tool:"run",argv:["make","test"]},
		{type:"turn"}, {type:"text",text:"done"}' >"$SC_TMP/t"
	# Proof both are readable without the sandbox.
	cat private/.env .env >/dev/null
	run --separate-stderr git speccoder run greeting --no-prompt \
		--transcript "$SC_TMP/t" --retries 0
	conv=$(find "$XDG_STATE_HOME" -name conversation -path '*/runs/*')
	run jq -r 'select(.type == "tool-result" and .id == "c3") | .text' \
		< <(sc-rec --to-json <"$conv")
	assert_line "env holds: "
	run grep -c -F -e "$key" -e "$DEMO_API_KEY" "$conv"
	assert_output 0
}

@test "run --in-place: a secret file in an ignored directory reads as empty to a command" {
	# git lists a directory it ignores whole as "dir/": the secret files
	# inside it must be hidden as well as one ignored by name.
	printf 'private/\n' >>.gitignore
	git commit -q -am "ignore private/"
	mkdir private
	key="sk-other-$RANDOM$RANDOM-qrstuvwxyzabcdef"
	printf 'OTHER_KEY=%s\n' "$key" >private/.env
	jq -cn '{type:"turn"},
		{type:"call",id:"c1",tool:"write",path:"tests/aa-env.sh",content:"echo \"env holds: $(cat private/.env)\"\n"},
		{type:"turn"}, {type:"call",id:"c3",tool:"run",argv:["make","test"]},
		{type:"turn"}, {type:"text",text:"done"}' >"$SC_TMP/t"
	run --separate-stderr git speccoder run greeting --in-place --no-prompt \
		--transcript "$SC_TMP/t" --retries 0
	conv=$(find "$XDG_STATE_HOME" -name conversation -path '*/runs/*')
	run jq -r 'select(.type == "tool-result" and .id == "c3") | .text' \
		< <(sc-rec --to-json <"$conv")
	assert_line "env holds: "
	run grep -c -F "$key" "$conv"
	assert_output 0
}

@test "run --in-place: a .gitignore the model rewrites does not commit the .env" {
	key="sk-other-$RANDOM$RANDOM-qrstuvwxyzabcdef"
	printf 'OTHER_KEY=%s\n' "$key" >.env
	jq -cn '{type:"turn"},
		{type:"call",id:"c1",tool:"write",path:".gitignore",content:"# nothing ignored\n"},
		{type:"call",id:"c2",tool:"write",path:"greet.sh",content:"#!/bin/sh\necho \"Hello, ${1:-world}!\"\n"},
		{type:"turn"}, {type:"text",text:"done"}' >"$SC_TMP/t"
	run --separate-stderr git speccoder run greeting --in-place --no-prompt \
		--transcript "$SC_TMP/t" --retries 0
	# What git ignored at the start is the person's: never part of the
	# tick's diff, whatever the new .gitignore says.
	assert_success
	run git log --all --format=%H -p
	refute_output --partial "$key"
	run git ls-tree -r --name-only HEAD
	refute_line .env
}

@test "run --in-place: works in the checkout, .env reads as empty to a command, the tick is on the branch" {
	jq -cn '{type:"turn"},
		{type:"call",id:"c1",tool:"write",path:"tests/aa-env.sh",content:"echo \"env holds: $(cat .env)\"\n"},
		{type:"turn"}, {type:"call",id:"c2",tool:"write",path:"greet.sh",content:"#!/bin/sh\necho \"Hello, ${1:-world}!\"\n"},
		{type:"turn"}, {type:"call",id:"c3",tool:"run",argv:["make","test"]},
		{type:"turn"}, {type:"text",text:"done"}' >"$SC_TMP/t"
	# Proof the file is readable without the sandbox.
	grep -q "$DEMO_API_KEY" .env
	run --separate-stderr git speccoder run greeting --in-place --no-prompt \
		--transcript "$SC_TMP/t"
	assert_success
	assert_equal "$(git rev-list --count HEAD~1..main)" 1
	run git log -1 --format=%B
	assert_output --partial "Speccoder-Task: greeting 2"
	grep -q -- '- \[x\] T001' specs/greeting/tasks.md
	conv=$(find "$XDG_STATE_HOME" -name conversation -path '*/runs/*')
	run jq -r 'select(.type == "tool-result" and .id == "c3") | .text' \
		< <(sc-rec --to-json <"$conv")
	assert_line "env holds: "
	# The file tools refuse what git ignored at the start.
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "ignored") | .count' "$SC_TMP/j"
	assert_output 1
}

@test "run --in-place: a checkout with changes is refused" {
	echo change >>README.md
	run --separate-stderr git speccoder run greeting --in-place --no-prompt \
		--transcript "$DEMO/demo.transcript"
	assert_failure 1
	assert_regex "$stderr" "NOT-CLEAN"
}

@test "run: two open tasks, a conversation each, two ticks, each attested" {
	printf -- '- [ ] T002 Say goodbye too\n' >>specs/greeting/tasks.md
	git commit -q -am "a second task"
	# A section a task: each conversation counts its turns from one.
	jq -cn '{type:"task"},
		{type:"turn"}, {type:"expect",of:"message",role:"user",contains:"T001"},
		{type:"call",id:"c1",tool:"write",path:"greet.sh",content:"#!/bin/sh\necho \"Hello, ${1:-world}!\"\n"},
		{type:"turn"}, {type:"text",text:"T001 done"},
		{type:"task"},
		{type:"turn"}, {type:"expect",of:"message",role:"user",contains:"T002"},
		{type:"expect",of:"message",role:"user",contains:"- task 2: T001"},
		{type:"call",id:"c2",tool:"write",path:"bye.sh",content:"#!/bin/sh\necho Goodbye\n"},
		{type:"turn"}, {type:"text",text:"T002 done"}' >"$SC_TMP/t"
	run --separate-stderr git speccoder run greeting --no-prompt --transcript "$SC_TMP/t"
	assert_success
	assert_output --partial "tasks ticked 2"
	assert_equal "$(git rev-list --count main..speccoder/greeting)" 2
	run git log --format=%s main..speccoder/greeting
	assert_line "speccoder: T002 Say goodbye too"
	assert_line "speccoder: T001 Greet the person named on the command line"
	for c in $(git rev-list main..speccoder/greeting); do
		sc-attest show "$c" | grep -q task-verification
	done
	# The second task's conversation is its own: the trusted task with the
	# spec again, then the summary of the first, untrusted; nothing of the
	# first task's turns.
	conv=$(find "$XDG_STATE_HOME" -name conversation -path '*/runs/*')
	sc-rec --to-json <"$conv" >"$SC_TMP/conv.json"
	run jq -r 'select(.type == "message") | "\(.label) \(.text | split("\n")[0])"' "$SC_TMP/conv.json"
	assert_line --index 0 "trusted Implement task 3 of feature greeting: T002 Say goodbye too"
	assert_line --index 1 "untrusted Earlier tasks of this attempt, done and committed:"
	assert_equal "${#lines[@]}" 2
	jq -r 'select(.type == "message") | .text' "$SC_TMP/conv.json" | grep -q '^# The spec'
	jq -r 'select(.type == "message" and .label == "untrusted") | .text' "$SC_TMP/conv.json" >"$SC_TMP/summary"
	grep -qx '  files: greet.sh specs/greeting/tasks.md' "$SC_TMP/summary"
	run ! grep -q '"c1"' <(cat "$SC_TMP/conv.json")
	# The first task's conversation is kept beside it.
	[ -s "$(dirname "$conv")/conversation.before-task-3" ]
}

@test "run: the model's usage is journaled, and report sums it with the cache's saving" {
	run --separate-stderr git speccoder run greeting \
		--transcript "$DEMO/demo.transcript" --answers "$SC_TMP/answers"
	assert_success
	run_journal_json >"$SC_TMP/j"
	turns=$(jq -s 'map(select(.type == "usage")) | length' "$SC_TMP/j")
	[ "$turns" -ge 1 ]
	input=$(jq -s 'map(select(.type == "usage") | ."input-tokens" | tonumber) | add' "$SC_TMP/j")
	run --separate-stderr git speccoder report
	assert_success
	assert_line "usage: $turns model turns, $input input tokens, $(jq -s 'map(select(.type == "usage") | ."output-tokens" | tonumber) | add' "$SC_TMP/j") output tokens"
	assert_line "  cache: 0 read, 0 written; saved about 0 input tokens (0% of $input)"
}
