#!/usr/bin/env bats
# git speccoder run: how an attempt ends when something goes wrong, and
# that the branch and the journal stay consistent.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/run
load lib/model

setup() {
	sc_common_setup
	MS_PID=
	export MS_PID
	run_need_userns
	run_demo_repo
}

teardown() {
	model_server_stop
	sc_common_teardown
}

transcript() { # records on stdin
	cat >"$SC_TMP/t"
}

# The attempt ended with CODE, nothing was committed, and the journal says so.
assert_ended() { # CODE
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "end" and .command == "run") | .code' "$SC_TMP/j"
	assert_output "$1"
	if git rev-parse -q --verify refs/heads/speccoder/greeting >/dev/null; then
		assert_equal "$(git rev-list --count main..speccoder/greeting)" 0
	fi
	run git notes --ref speccoder list
	assert_output ""
}

@test "run: three denials in a row end the attempt" {
	transcript <<'T'
{"type":"turn"}
{"type":"call","id":"c1","tool":"read","path":".env"}
{"type":"turn"}
{"type":"call","id":"c2","tool":"write","path":".git/config","content":"[core]\n"}
{"type":"turn"}
{"type":"call","id":"c3","tool":"read","path":"../../home/.ssh/id_rsa"}
{"type":"turn"}
{"type":"text","text":"never asked"}
T
	run --separate-stderr git speccoder run greeting --no-prompt --transcript "$SC_TMP/t"
	assert_failure 1
	assert_regex "$stderr" "DENIED-THRICE"
	assert_ended DENIED-THRICE
}

@test "run: a command that edits .git/config in the sandbox cannot" {
	transcript <<'T'
{"type":"turn"}
{"type":"call","id":"c1","tool":"run","argv":["sh","-c","git config core.hooksPath /tmp/planted"]}
{"type":"turn"}
{"type":"text","text":"tried"}
T
	echo once >"$SC_TMP/answers"
	run --separate-stderr git speccoder run greeting --transcript "$SC_TMP/t" \
		--answers "$SC_TMP/answers" --retries 0
	run git config core.hooksPath
	assert_failure 1
	assert_output ""
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "result" and .id == "c1") | .exit' "$SC_TMP/j"
	refute_output 0
}

@test "run: the policy refuses a command that edits .git/config" {
	transcript <<'T'
{"type":"turn"}
{"type":"call","id":"c1","tool":"run","argv":["sh","-c","git config core.hooksPath /tmp/planted"]}
{"type":"turn"}
{"type":"text","text":"refused"}
T
	run --separate-stderr git speccoder run greeting --no-prompt \
		--transcript "$SC_TMP/t" --retries 0
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "verdict" and .id == "c1") | .decision' "$SC_TMP/j"
	assert_output deny
	run git config core.hooksPath
	assert_output ""
}

# A test script the model writes, run by the configured check: the way
# round the policy, which the guard catches.
sneaky_check() { # SHELL-LINE
	jq -cn --arg c "$1" '{type:"turn"},
		{type:"call",id:"c1",tool:"write",path:"tests/aa-sneaky.sh",content:$c},
		{type:"turn"}, {type:"call",id:"c2",tool:"run",argv:["make","test"]},
		{type:"turn"}, {type:"text",text:"never reached"}' >"$SC_TMP/t"
}

@test "run: with the sandbox off, a check that edits .git/config stops the attempt (GIT-CHANGED)" {
	git config -f speccoder.conf sandbox.mode off
	git commit -q -am "no sandbox"
	sneaky_check 'git config core.hooksPath /tmp/planted'
	run --separate-stderr git speccoder run greeting --no-prompt --transcript "$SC_TMP/t"
	assert_failure 1
	assert_regex "$stderr" "GIT-CHANGED"
	# Proof the command really changed the config: no sandbox held it.
	assert_equal "$(git config core.hooksPath)" /tmp/planted
	assert_ended GIT-CHANGED
}

@test "run: in the sandbox, the same check cannot edit .git/config" {
	sneaky_check 'git config core.hooksPath /tmp/planted'
	run --separate-stderr git speccoder run greeting --no-prompt \
		--transcript "$SC_TMP/t" --retries 0
	run git config core.hooksPath
	assert_output ""
	refute_regex "$stderr" "GIT-CHANGED"
}

@test "run: a check that edits a protected input stops the attempt (INTEGRITY)" {
	transcript <<'T'
{"type":"turn"}
{"type":"call","id":"c1","tool":"write","path":"tests/aa-sneaky.sh","content":"echo '- [x] T001 done by a test' >> specs/greeting/tasks.md\n"}
{"type":"turn"}
{"type":"call","id":"c2","tool":"run","argv":["make","test"]}
{"type":"turn"}
{"type":"text","text":"never reached"}
T
	run --separate-stderr git speccoder run greeting --no-prompt --transcript "$SC_TMP/t"
	assert_failure 1
	assert_regex "$stderr" "INTEGRITY"
	assert_ended INTEGRITY
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "finding") | .path' "$SC_TMP/j"
	assert_output specs/greeting/tasks.md
}

@test "run: a transcript that diverges ends the attempt with the model's error" {
	transcript <<'T'
{"type":"turn"}
{"type":"expect","of":"message","role":"user","contains":"something else entirely"}
{"type":"text","text":"never"}
T
	run --separate-stderr git speccoder run greeting --no-prompt --transcript "$SC_TMP/t"
	assert_failure 1
	assert_regex "$stderr" "REPLAY-DIVERGED"
	assert_regex "$stderr" "MODEL-FAILED"
	assert_ended MODEL-FAILED
}

@test "run: a feature without a tasks file, and a malformed tasks file" {
	run --separate-stderr git speccoder run nosuchfeature --no-prompt --transcript /dev/null
	assert_failure 1
	assert_regex "$stderr" "NO-TASKS"
	run --separate-stderr git speccoder run '../etc' --no-prompt --transcript /dev/null
	assert_failure 2
	printf -- '- [?] T001 what\n' >specs/greeting/tasks.md
	git commit -q -am "broken tasks"
	run --separate-stderr git speccoder run greeting --no-prompt --transcript /dev/null
	assert_failure 3
	assert_regex "$stderr" "MALFORMED-TASKS"
	run git rev-list --count main..speccoder/greeting
	assert_output 0
}

@test "run: an interrupted attempt kills its command and commits nothing" {
	# A duration no other process on a shared machine is sleeping.
	local secs=$((40000 + RANDOM)) mine
	mine="^sleep $secs\$"
	git config -f speccoder.conf commands.allow "sleep $secs"
	git commit -q -am "allow sleep"
	transcript <<T
{"type":"turn"}
{"type":"call","id":"c1","tool":"run","argv":["sleep","$secs"]}
{"type":"turn"}
{"type":"text","text":"never reached"}
T
	# Its own process group, signalled as a terminal signals a foreground
	# job (SIGINT is ignored by background jobs of a script, so SIGTERM).
	setsid git speccoder run greeting --no-prompt --transcript "$SC_TMP/t" \
		>"$SC_TMP/out" 2>"$SC_TMP/err" &
	pid=$!
	for _ in $(seq 1 100); do
		pgrep -f "$mine" >/dev/null && break
		sleep 0.1
	done
	pgrep -f "$mine" >/dev/null
	kill -TERM -- "-$pid"
	st=0
	wait "$pid" || st=$?
	# git itself dies of the signal (143) or passes the driver's 130 on.
	[ "$st" -eq 130 ] || [ "$st" -eq 143 ] || fail "status $st"
	sleep 0.5
	run pgrep -f "$mine"
	assert_failure
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "interrupted") | .command' "$SC_TMP/j"
	assert_output run
	assert_equal "$(git rev-list --count main..speccoder/greeting)" 0
}

@test "run: over HTTP with the openai provider against a local server" {
	model_server_start "$SC_TOP/t/data/run/openai-write.http" \
		"$SC_TOP/t/data/run/openai-done.http"
	run --separate-stderr git speccoder run greeting --no-prompt \
		--provider openai --model test-model --endpoint "$MS_URL"
	assert_success
	assert_equal "$(git rev-list --count main..speccoder/greeting)" 1
	# The first request carried the task and the tools, not the key.
	model_req_body 1 | jq -e '.tools | map(.function.name) | index("write")'
	model_req_body 1 | grep -q 'T001'
	run grep -c -F "$DEMO_API_KEY" "$SC_TMP"/req.1 "$SC_TMP"/req.2
	refute_output --partial ':1'
}

@test "run: a provider that fails mid-attempt ends it, nothing half-committed" {
	model_server_start "$SC_TOP/t/data/run/openai-write.http" 401.http
	run --separate-stderr git speccoder run greeting --no-prompt \
		--provider openai --model test-model --endpoint "$MS_URL"
	assert_failure 1
	assert_regex "$stderr" "AUTH"
	assert_ended MODEL-FAILED
	# The write happened in the worktree, uncommitted; the next attempt
	# starts from there.
	wt=$(run_worktree greeting)
	grep -q '1:-world' "$wt/greet.sh"
}

# Held-out tests: a test the model never sees, sealed in the state
# directory; the demo's Makefile runs every tests/*.sh.
seal_held_out() { # TEST-BODY
	mkdir -p "$SC_TMP/held/tests"
	printf '%s\n' "$1" >"$SC_TMP/held/tests/zz-held-out.sh"
	git speccoder seal greeting "$SC_TMP/held"
}

fix_transcript() {
	jq -cn '{type:"turn"},
		{type:"call",id:"c1",tool:"write",path:"greet.sh",content:"#!/bin/sh\necho \"Hello, ${1:-world}!\"\n"},
		{type:"turn"}, {type:"text",text:"done"},
		{type:"turn"}, {type:"expect",of:"message",role:"user",contains:"held-out"},
		{type:"text",text:"I cannot see those tests"}' >"$SC_TMP/t"
}

@test "run: held-out tests that pass let the task tick; their text never reaches the model" {
	# shellcheck disable=SC2016 # the test's own text, expanded when it runs
	seal_held_out 'echo "ok - held-out secret-assertion-marker"; [ "$(sh ./greet.sh Bob)" = "Hello, Bob!" ]'
	fix_transcript
	run --separate-stderr git speccoder run greeting --no-prompt --transcript "$SC_TMP/t"
	assert_success
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "held-out") | .result' "$SC_TMP/j"
	assert_output PASSED
	conv=$(find "$XDG_STATE_HOME" -name conversation -path '*/runs/*')
	run grep -c secret-assertion-marker "$conv"
	assert_output 0
	# Nor in the worktree or the branch.
	run git ls-tree -r --name-only speccoder/greeting
	refute_line tests/zz-held-out.sh
	run git notes --ref speccoder show speccoder/greeting
	assert_success
}

@test "run: failing held-out tests send back only their names, and the task does not tick" {
	seal_held_out 'echo "not ok 1 - greets in capitals"; echo "# hidden-detail-marker"; exit 1'
	fix_transcript
	run --separate-stderr git speccoder run greeting --no-prompt --transcript "$SC_TMP/t" --retries 1
	assert_failure 1
	conv=$(find "$XDG_STATE_HOME" -name conversation -path '*/runs/*')
	run jq -r 'select(.type == "message") | .text' < <(sc-rec --to-json <"$conv")
	assert_output --partial "greets in capitals"
	refute_output --partial "hidden-detail-marker"
	assert_equal "$(git rev-list --count main..speccoder/greeting)" 0
}

@test "run: held-out tests changed after sealing stop the attempt (TAMPERED)" {
	seal_held_out 'exit 0'
	sealed=$(find "$XDG_STATE_HOME" -name zz-held-out.sh -path '*held-out*')
	echo 'exit 0 # changed' >"$sealed"
	fix_transcript
	run --separate-stderr git speccoder run greeting --no-prompt --transcript "$SC_TMP/t"
	assert_failure 1
	assert_regex "$stderr" "TAMPERED"
	assert_equal "$(git rev-list --count main..speccoder/greeting)" 0
}

@test "run: the model cannot read the sealed held-out tests" {
	seal_held_out 'exit 0'
	sealed=$(find "$XDG_STATE_HOME" -name zz-held-out.sh -path '*held-out*')
	# Proof the file is readable outside the run.
	[ -r "$sealed" ]
	jq -cn --arg p "$sealed" '{type:"turn"},
		{type:"call",id:"c1",tool:"read",path:$p},
		{type:"call",id:"c2",tool:"run",argv:["cat",$p]},
		{type:"turn"}, {type:"text",text:"no"}' >"$SC_TMP/t"
	run --separate-stderr git speccoder run greeting --no-prompt \
		--transcript "$SC_TMP/t" --retries 0
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "verdict") | "\(.id) \(.decision)"' "$SC_TMP/j"
	assert_line "c1 deny"
	conv=$(find "$XDG_STATE_HOME" -name conversation -path '*/runs/*')
	run grep -c 'exit 0' "$conv"
	assert_output 0
}

@test "run: a check the model wrote cannot read speccoder's state (held-out tests, journals)" {
	seal_held_out 'echo held-out-content-marker'
	state_dir=$(dirname "$(find "$XDG_STATE_HOME" -maxdepth 3 -type d -name held-out)")
	# Proof both are readable without the sandbox.
	grep -rq held-out-content-marker "$state_dir/held-out"
	jq -cn --arg s "$state_dir" '{type:"turn"},
		{type:"call",id:"c1",tool:"write",path:"tests/aa-peek.sh",
		 content:("cat " + $s + "/held-out/greeting/tree/tests/* 2>&1; cat " + $s + "/runs/*/journal 2>&1 | head -c 300; true\n")},
		{type:"turn"}, {type:"call",id:"c2",tool:"run",argv:["make","test"]},
		{type:"turn"}, {type:"text",text:"peeked"}' >"$SC_TMP/t"
	run --separate-stderr git speccoder run greeting --no-prompt \
		--transcript "$SC_TMP/t" --retries 0
	conv=$(find "$XDG_STATE_HOME" -name conversation -path '*/runs/*')
	run jq -r 'select(.type == "tool-result" and .id == "c2") | .text' < <(sc-rec --to-json <"$conv")
	refute_output --partial held-out-content-marker
	refute_output --partial '"type"'
	refute_output --partial 'command'
}

@test "run: a file name a command made reaches the screen without its control bytes" {
	# The guard names the protected file the command added: a name with
	# an escape sequence would retitle or rewrite the person's terminal.
	# shellcheck disable=SC2016 # the script's own text
	sneaky_check 'mkdir -p .github; : >".github/x$(printf "\033")]0;PWNED$(printf "\007")"'
	run --separate-stderr git speccoder run greeting --no-prompt --transcript "$SC_TMP/t"
	assert_failure 1
	assert_regex "$stderr" "PWNED"
	esc=$(printf '\033')
	if [[ $stderr == *"$esc"* ]]; then
		echo "an escape byte reached the screen:" >&2
		printf '%s\n' "$stderr" | cat -v >&2
		return 1
	fi
}

@test "run: a secret in the name of a file a command made is masked on the screen" {
	# The guard names the protected file; the name is the key's value.
	# shellcheck disable=SC2016 # the script's own text
	sneaky_check 'mkdir -p .github; : >".github/$DEMO_API_KEY"'
	run --separate-stderr git speccoder run greeting --no-prompt --transcript "$SC_TMP/t"
	assert_failure 1
	assert_regex "$stderr" "INTEGRITY"
	run_all_text >"$SC_TMP/all"
	run grep -a -c -F "$DEMO_API_KEY" "$SC_TMP/all"
	assert_output 0
}

@test "run: a secret in the name of a file a check made is masked on the screen" {
	jq -cn '{type:"turn"},
		{type:"call",id:"c1",tool:"write",path:"tests/aa-name.sh",
		 content:"mkdir -p .github; : >\".github/$DEMO_API_KEY\"\n"},
		{type:"turn"}, {type:"text",text:"done"}' >"$SC_TMP/t"
	run --separate-stderr git speccoder run greeting --no-prompt --transcript "$SC_TMP/t"
	assert_failure 1
	assert_regex "$stderr" "INTEGRITY"
	run_all_text >"$SC_TMP/all"
	run grep -a -c -F "$DEMO_API_KEY" "$SC_TMP/all"
	assert_output 0
}

@test "run: a symlink the model left where a held-out test goes is not written through" {
	seal_held_out 'echo "ok - held-out"'
	echo orig >"$SC_TMP/outside"
	jq -cn --arg o "$SC_TMP/outside" '{type:"turn"},
		{type:"call",id:"c1",tool:"write",path:"greet.sh",content:"#!/bin/sh\necho \"Hello, ${1:-world}!\"\n"},
		{type:"call",id:"c2",tool:"write",path:"tests/aa-link.sh",
		 content:("ln -sf " + $o + " tests/zz-held-out.sh 2>/dev/null || :\n")},
		{type:"turn"}, {type:"text",text:"done"}' >"$SC_TMP/t"
	run --separate-stderr git speccoder run greeting --no-prompt \
		--transcript "$SC_TMP/t" --retries 0
	assert_equal "$(cat "$SC_TMP/outside")" orig
}
