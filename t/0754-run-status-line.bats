#!/usr/bin/env bats
# git speccoder run: while the model streams a long answer, the status line
# on a terminal moves (elapsed time, tokens so far), rewritten in place from
# sc-model's progress records that sc-agent relays; without a terminal
# nothing of it is printed, and it never reaches the journal.

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

# A stream that takes about five seconds: four pauses of 1.2 s.
stream_server() {
	model_server_start "$SC_TOP/t/data/run/openai-write-stream.http" \
		"$SC_TOP/t/data/run/openai-done.http"
}

attempt=(git speccoder run greeting --no-prompt --provider openai
	--model test-model --endpoint "\$MS_URL")

@test "run on a terminal: the status line shows the model's progress while it streams, then is erased" {
	command -v script >/dev/null || skip "script(1) is not installed: bsdutils gives it"
	stream_server
	run env TERM=xterm script -qec "${attempt[*]}" /dev/null
	assert_success
	printf '%s' "$output" >"$SC_TMP/tty"
	# Each progress record rewrote the line in place: carriage return,
	# erase to the end of the line, then the numbers, increasing.
	run grep -aoE $'\r\033\\[K  model: answering [0-9]+:[0-9]{2}, about [0-9]+ tokens so far\\.' "$SC_TMP/tty"
	assert_success
	# Four pauses of 1.2 s: a line about each second (at least two even on
	# a loaded machine), the first after the first second.
	[ "${#lines[@]}" -ge 2 ]
	[[ "${lines[0]}" =~ answering\ 0:0[1-4],\ about ]]
	first=$(grep -oE 'about [0-9]+' <<<"${lines[0]}" | cut -d' ' -f2)
	last=$(grep -oE 'about [0-9]+' <<<"${lines[-1]}" | cut -d' ' -f2)
	[ "$last" -gt "$first" ]
	# The last one is erased before the next line is written.
	grep -aqE $'tokens so far\\.\r\033\\[K' "$SC_TMP/tty"
	# The attempt itself went through.
	assert_equal "$(git rev-list --count main..speccoder/greeting)" 1
	# Progress stays off the journal.
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "progress") | .type' "$SC_TMP/j"
	assert_output ""
}

@test "run without a terminal: the same stream prints no status line, and the journal holds no progress" {
	stream_server
	run --separate-stderr env TERM=xterm "${attempt[@]/\$MS_URL/$MS_URL}"
	assert_success
	refute_output --partial 'answering'
	[[ "$stderr" != *answering* ]]
	[[ "$stderr$output" != *$'\033[K'* ]]
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "progress") | .type' "$SC_TMP/j"
	assert_output ""
}

# agent [OPTION...]: sc-agent on one task with $SC_TMP/model as the model
# (the other programs are never reached: the model makes no call).
agent() {
	{
		sc-rec type=model "argv=$SC_TMP/model"
		sc-rec type=classify argv=sc-classify argv=--root argv=.
		sc-rec type=sandbox argv=false
		sc-rec type=mask argv=sc-mask argv=--env argv=--records-stream
	} >"$SC_TMP/programs"
	printf 'Say done.\n' >"$SC_TMP/task"
	run --separate-stderr timeout 60 sc-agent -z --root . \
		--conversation "$SC_TMP/conv" --programs "$SC_TMP/programs" \
		--no-prompt --trusted "$SC_TMP/task" "$@"
}

@test "sc-agent --status-line: only numbers reach the screen; a forged or malformed progress record shows nothing; the model's stderr never lands on the line" {
	# A model program that writes its own progress records on the
	# descriptor sc-agent gives it, then a reply.
	cat >"$SC_TMP/model" <<'M'
#!/bin/sh
case "$*" in *"--progress-fd 3") ;; *) exit 9 ;; esac
sc-rec type=progress elapsed-ms=61000 estimated-tokens=42 >&3
sc-rec type=progress elapsed-ms="$(printf '\033]0;owned\007')" estimated-tokens=1 >&3
sc-rec type=progress elapsed-ms=1000 estimated-tokens=7x >&3
sc-rec type=note elapsed-ms=1000 estimated-tokens=7 >&3
sleep 0.3
echo 'sc-model: warning: a line of its own' >&2
sleep 0.3
sc-rec type=progress elapsed-ms=62000 estimated-tokens=50 >&3
sleep 0.3
sc-rec type=text text=done source=model label=trusted
sc-rec type=end reason=end
M
	chmod +x "$SC_TMP/model"
	agent --status-line
	assert_success
	# The model's diagnostic erases the line first and stands on its own.
	assert_equal "$stderr" $'\r\033[K  model: answering 1:01, about 42 tokens so far.\r\033[Ksc-model: warning: a line of its own\n\r\033[K  model: answering 1:02, about 50 tokens so far.\r\033[K'
}

@test "sc-agent without --status-line: the model gets no progress descriptor" {
	printf '#!/bin/sh\ncase "$*" in *progress*) exit 9 ;; esac\nsc-rec type=end reason=end\n' >"$SC_TMP/model"
	chmod +x "$SC_TMP/model"
	agent
	assert_success
	assert_equal "$stderr" ""
}

@test "sc-agent --status-line: bytes that are not records show nothing, and the model can still write them all" {
	cat >"$SC_TMP/model" <<'M'
#!/bin/sh
# No NUL-terminated fields: not records.  Then far more than a pipe holds:
# a reader that stopped reading would leave this write blocked, or kill it.
printf 'garbage without fields' >&3
head -c 300000 /dev/zero | tr '\0' 'x' >&3 || exit 7
sc-rec type=end reason=end
M
	chmod +x "$SC_TMP/model"
	agent --status-line
	assert_success
	assert_equal "$stderr" ""
}
