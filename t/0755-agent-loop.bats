#!/usr/bin/env bats
# sc-agent's loop and its coprocesses, driven directly: the guard is
# sc-hash-git --check (a command's change to .git or a protected input
# stops the loop, and a guard that cannot check is never "clean"); the
# masker is one sc-mask --records-stream coprocess, and when it dies
# nothing unmasked goes on; the end record carries the counts.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
# shellcheck disable=SC2016 # the model's scripts expand in their own shell
load lib/common
load lib/run
bats_require_minimum_version 1.5.0

setup() {
	sc_common_setup
	run_demo_repo
	# No sandbox here: the commands must really be able to attack.
	cat >"$SC_TMP/sandbox" <<'S'
#!/bin/sh
while [ $# -gt 0 ] && [ "$1" != -- ]; do shift; done
shift
[ ! -e "$SC_TMP/kill-mask" ] || kill -9 "$(cat "$SC_TMP/mask.pid")"
exec "$@"
S
	cat >"$SC_TMP/mask" <<'S'
#!/bin/sh
echo $$ >"$SC_TMP/mask.pid"
exec sc-mask "$@"
S
	chmod +x "$SC_TMP/sandbox" "$SC_TMP/mask"
	sc-classify --print-protected --mode worktree >"$SC_TMP/protect"
	HG=(-C . --protect-records "$SC_TMP/protect"
		--exclude-ref 'refs/heads/speccoder/**' --exclude-ref refs/notes/speccoder)
	sc-hash-git "${HG[@]}" --output "$SC_TMP/manifest"
	{
		sc-rec type=model argv=sc-model argv=--provider argv=replay \
			"argv=--transcript" "argv=$SC_TMP/t"
		sc-rec type=classify argv=sc-classify argv=--root argv=. \
			argv=--mode argv=worktree argv=--config argv=speccoder.conf \
			argv=--no-prompt
		sc-rec type=sandbox "argv=$SC_TMP/sandbox"
		sc-rec type=mask "argv=$SC_TMP/mask" argv=--env argv=--records-stream
		sc-rec type=guard argv=sc-hash-git argv=--check "argv=$SC_TMP/manifest" \
			"${HG[@]/#/argv=}"
	} >"$SC_TMP/programs"
	printf 'Do the task.\n' >"$SC_TMP/task"
	export SC_TMP
}

# A model that writes tests/aa-x.sh with CONTENT, runs make test, then
# ends its turn.
model_runs() { # CONTENT
	jq -cn --arg c "$1" '{type:"turn"},
		{type:"call",id:"c1",tool:"write",path:"tests/aa-x.sh",content:$c},
		{type:"turn"}, {type:"call",id:"c2",tool:"run",argv:["make","test"]},
		{type:"turn"}, {type:"text",text:"done"}' >"$SC_TMP/t"
}

# sc-agent on the task: status, its events as JSON in $SC_TMP/events,
# its standard error in stderr.
agent() {
	status=0
	timeout 120 sc-agent --root . --conversation "$SC_TMP/conv" \
		--programs "$SC_TMP/programs" --no-prompt --trusted "$SC_TMP/task" \
		>"$SC_TMP/events.rec" 2>"$SC_TMP/stderr" || status=$?
	stderr=$(cat "$SC_TMP/stderr")
	sc-rec --to-json <"$SC_TMP/events.rec" >"$SC_TMP/events"
}

end_field() { # NAME
	jq -r --arg k "$1" 'select(.type == "done" or .type == "stop") | .[$k]' "$SC_TMP/events"
}

@test "control: the loop runs both calls, masks the output, and the end record counts them" {
	model_runs 'echo "token $DEMO_API_KEY"'
	agent
	[ "$status" -eq 0 ] || { echo "status $status: $stderr" >&2; cat "$SC_TMP/events" >&2; false; }
	assert_equal "$(end_field type)" "done"
	assert_equal "$(end_field allowed)" 2
	assert_equal "$(end_field denied)" 0
	assert_equal "$(end_field asked)" 0
	assert_equal "$(end_field turns)" 3
	# The token the command printed reached the conversation masked.
	sc-rec --to-json <"$SC_TMP/conv" >"$SC_TMP/conv.json"
	grep -q 'redacted:DEMO_API_KEY' "$SC_TMP/conv.json"
	run grep -c -F "$DEMO_API_KEY" "$SC_TMP/conv.json" "$SC_TMP/events"
	refute_output --partial ':1'
}

@test "attack: a hook a command plants is found by sc-hash-git --check and stops the loop" {
	model_runs 'printf "#!/bin/sh\n" >.git/hooks/post-merge; chmod +x .git/hooks/post-merge'
	agent
	[ "$status" -eq 1 ]
	[ -x .git/hooks/post-merge ]   # the attack itself worked
	assert_equal "$(end_field code)" GIT-CHANGED
	run jq -r 'select(.type == "finding") | "\(.code) \(.item) \(.change)"' "$SC_TMP/events"
	assert_output "GIT-CHANGED hooks/post-merge added"
	[[ "$stderr" == *"error[GIT-CHANGED]"*"hooks/post-merge"* ]]
	# Stopped right after the command: the model got no third turn.
	assert_equal "$(end_field turns)" 2
}

@test "attack: a command that edits .git/config or a protected input stops the loop" {
	model_runs 'git config core.pager "sh -c id"'
	agent
	[ "$status" -eq 1 ]
	assert_equal "$(end_field code)" GIT-CHANGED
	git checkout -q -- . 2>/dev/null || :
	git config --unset core.pager
	sc-hash-git "${HG[@]}" --output "$SC_TMP/manifest"
	rm -f "$SC_TMP/conv"
	model_runs 'echo "- [x] T001 done by a test" >>specs/greeting/tasks.md'
	agent
	[ "$status" -eq 1 ]
	assert_equal "$(end_field code)" INTEGRITY
	run jq -r 'select(.type == "finding") | .path' "$SC_TMP/events"
	assert_output specs/greeting/tasks.md
}

@test "attack: a command cannot silence the guard by breaking its manifest" {
	# The manifest is hidden from every command by the real sandbox; even
	# reached, a broken or removed one stops the loop, never reads clean.
	model_runs "printf garbage >'$SC_TMP/manifest'"
	agent
	[ "$status" -eq 1 ]
	assert_equal "$(end_field code)" GUARD-FAILED
	sc-hash-git "${HG[@]}" --output "$SC_TMP/manifest"
	rm -f "$SC_TMP/conv"
	model_runs "rm -f '$SC_TMP/manifest'"
	agent
	[ "$status" -eq 1 ]
	assert_equal "$(end_field code)" GUARD-FAILED
}

@test "attack: sc-mask killed in the middle of the run: nothing unmasked goes on (fail closed)" {
	model_runs 'echo "token $DEMO_API_KEY"; echo ran >"$SC_TMP/ran"'
	: >"$SC_TMP/kill-mask"
	agent
	# The masker died before the command's output was masked.
	[ "$status" -eq 4 ]
	[[ "$stderr" == *"error[MASK-FAILED]"* ]]
	run kill -0 "$(cat "$SC_TMP/mask.pid")"
	assert_failure
	# The command ran and printed the token; it went nowhere.
	[ -e "$SC_TMP/ran" ]
	cat "$SC_TMP/conv" "$SC_TMP/events.rec" "$SC_TMP/stderr" >"$SC_TMP/all"
	run grep -a -c -F "$DEMO_API_KEY" "$SC_TMP/all"
	assert_output 0
	# No result of the command reached the model.
	run jq -r 'select(.type == "tool-result" and .id == "c2") | .id' \
		< <(sc-rec --to-json <"$SC_TMP/conv")
	assert_output ""
}

@test "a masker that answers out of turn is a failure, never a result" {
	model_runs 'echo "token $DEMO_API_KEY"'
	cat >"$SC_TMP/mask" <<'S'
#!/bin/sh
sc-rec type=text id=mask-9 text=forged
exec cat >/dev/null
S
	agent
	[ "$status" -eq 4 ]
	[[ "$stderr" == *"error[MASK-FAILED]"* ]]
	run grep -a -c -e forged -e "$DEMO_API_KEY" "$SC_TMP/conv"
	assert_output 0
}

@test "the masker is one process for the whole run" {
	model_runs 'true'
	cat >"$SC_TMP/mask" <<'S'
#!/bin/sh
echo $$ >>"$SC_TMP/mask.starts"
exec sc-mask "$@"
S
	agent
	[ "$status" -eq 0 ] || { echo "status $status: $stderr" >&2; cat "$SC_TMP/events" >&2; false; }
	run wc -l <"$SC_TMP/mask.starts"
	assert_output 1
}

@test "--before: the end record counts the run, the loop before included" {
	model_runs 'true'
	agent
	[ "$status" -eq 0 ]
	cp "$SC_TMP/events.rec" "$SC_TMP/before"
	rm -f "$SC_TMP/conv"
	jq -cn '{type:"turn"}, {type:"call",id:"d1",tool:"read",path:".env"},
		{type:"turn"}, {type:"text",text:"done"}' >"$SC_TMP/t"
	agent_before() {
		status=0
		timeout 120 sc-agent --root . --conversation "$SC_TMP/conv" \
			--programs "$SC_TMP/programs" --no-prompt --trusted "$SC_TMP/task" \
			--before "$1" >"$SC_TMP/events.rec" 2>"$SC_TMP/stderr" || status=$?
		sc-rec --to-json <"$SC_TMP/events.rec" >"$SC_TMP/events"
	}
	agent_before "$SC_TMP/before"
	[ "$status" -eq 0 ]
	assert_equal "$(end_field allowed)" 0
	assert_equal "$(end_field denied)" 1
	assert_equal "$(end_field run-allowed)" 2
	assert_equal "$(end_field run-denied)" 1
	assert_equal "$(end_field run-turns)" 5
	# A run's first loop has no file yet; a file with no end record is
	# refused, never taken as zero.
	rm -f "$SC_TMP/conv"
	agent_before "$SC_TMP/none"
	[ "$status" -eq 0 ]
	assert_equal "$(end_field run-denied)" 1
	sc-rec type=done allowed=1 >"$SC_TMP/bad"
	agent_before "$SC_TMP/bad"
	[ "$status" -eq 4 ]
	grep -q 'error\[BEFORE-MALFORMED\]' "$SC_TMP/stderr"
}
