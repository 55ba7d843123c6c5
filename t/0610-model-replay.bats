#!/usr/bin/env bats
# The replay provider: the demo's offline model.  A three-turn
# conversation against t/data/model/demo.transcript, and divergence.

# shellcheck disable=SC2154 # bats sets $stderr, $lines
load lib/common
load lib/model

replay() {
	sc_run_io "$SC_TMP/conv" "$SC_TMP/out" sc-model --provider replay \
		--transcript "$MODEL_DATA/demo.transcript"
}

@test "replay: three turns, each answered from the transcript in order" {
	echo '{"type":"message","role":"user","text":"Fix the greeting.","label":"trusted","source":"person"}' | model_conv
	replay
	assert_equal "$status" 0
	run model_json "$SC_TMP/out"
	assert_line --index 0 '{"type":"text","text":"I will look at the source first.","source":"model","label":"trusted"}'
	assert_line --index 1 '{"type":"call","id":"call-1","tool":"read","source":"model","label":"trusted","path":"hello.c"}'
	assert_line --index 2 '{"type":"usage","input-tokens":"120","output-tokens":"24","labels":"trusted","provider":"replay","model":"replay"}'
	assert_line --index 3 '{"type":"end","reason":"tool-use"}'

	# Turn 2: the reply goes back with the file's content, untrusted.
	cat "$SC_TMP/out" >>"$SC_TMP/conv"
	sc-rec type=tool-result id=call-1 text='puts("helo");' label=untrusted \
		source=worktree >>"$SC_TMP/conv"
	replay
	assert_equal "$status" 0
	run model_json "$SC_TMP/out"
	assert_line --index 0 '{"type":"call","id":"call-2","tool":"run","source":"model","label":"untrusted","argv":["make","test"]}'
	assert_line --index 1 --partial '"labels":["trusted","untrusted"]'
	assert_line --index 2 '{"type":"end","reason":"tool-use"}'

	cat "$SC_TMP/out" >>"$SC_TMP/conv"
	sc-rec type=tool-result id=call-2 text='ok 1 - greeting' label=untrusted \
		source=worktree >>"$SC_TMP/conv"
	replay
	assert_equal "$status" 0
	run model_json "$SC_TMP/out"
	assert_line --index 0 --partial '"text":"The greeting is fixed and the tests pass."'
	assert_line --index 2 '{"type":"end","reason":"end-turn"}'

	# A fourth turn is past the transcript's end.
	cat "$SC_TMP/out" >>"$SC_TMP/conv"
	sc-rec type=message role=user text='more?' label=trusted source=person >>"$SC_TMP/conv"
	replay
	assert_equal "$status" 1
	[[ "$stderr" == *"error[REPLAY-DIVERGED]: the conversation is at turn 4; the transcript holds 3"* ]]
	[ ! -s "$SC_TMP/out" ]
}

@test "replay: a question the transcript did not record diverges (exit 1, nothing written)" {
	echo '{"type":"message","role":"user","text":"Delete everything.","label":"trusted","source":"person"}' | model_conv
	replay
	assert_equal "$status" 1
	[[ "$stderr" == *"error[REPLAY-DIVERGED]: turn 1"* ]]
	[ ! -s "$SC_TMP/out" ]
}

@test "replay: a tool result under another id diverges" {
	{
		echo '{"type":"message","role":"user","text":"Fix the greeting.","label":"trusted","source":"person"}'
		echo '{"type":"call","id":"call-1","tool":"read","path":"hello.c","label":"trusted","source":"model"}'
		echo '{"type":"tool-result","id":"call-9","text":"x","label":"untrusted","source":"worktree"}'
	} | model_conv
	replay
	assert_equal "$status" 1
	[[ "$stderr" == *"error[REPLAY-DIVERGED]: turn 2"* ]]
}

@test "replay: extra input records that were not expected diverge" {
	{
		echo '{"type":"message","role":"user","text":"Fix the greeting.","label":"trusted","source":"person"}'
		echo '{"type":"message","role":"user","text":"and push it","label":"untrusted","source":"issue"}'
	} | model_conv
	replay
	assert_equal "$status" 1
	[[ "$stderr" == *"2 new input records, 1 expected"* ]]
}

@test "replay: a held-out record is refused before the transcript answers" {
	{
		echo '{"type":"message","role":"user","text":"Fix the greeting.","label":"trusted","source":"person"}'
		echo '{"type":"message","role":"user","text":"sealed test: assert greet()==\"hello\"","label":["trusted","held-out"],"source":"verifier"}'
	} | model_conv
	replay
	assert_equal "$status" 1
	[[ "$stderr" == *"error[HELD-OUT-LEAK]"* ]]
	[ ! -s "$SC_TMP/out" ]
}

@test "replay: malformed transcripts are exit 3 with the line" {
	printf '{"type":"turn"}\n{"type":"text"}\n' >"$SC_TMP/t1"
	printf '{"type":"text","text":"x"}\n' >"$SC_TMP/t2"
	printf '{"type":"turn"}\n{"type":"txt","text":"x"}\n' >"$SC_TMP/t3"
	printf '{"type":"turn"}\n{"type":"call","tool":"read"}\n' >"$SC_TMP/t4"
	printf '{"type":"turn"}\nnot json\n' >"$SC_TMP/t5"
	printf '# only a comment\n' >"$SC_TMP/t6"
	printf '{"type":"turn"}\n{"type":"usage","input-tokens":"-3"}\n' >"$SC_TMP/t7"
	echo '{"type":"message","role":"user","text":"hi","label":"trusted","source":"person"}' | model_conv
	for t in t1 t2 t3 t4 t5 t6 t7; do
		sc_run_io "$SC_TMP/conv" "$SC_TMP/out" sc-model --provider replay \
			--transcript "$SC_TMP/$t"
		assert_equal "$status" 3
		[[ "$stderr" == *"error[MALFORMED-TRANSCRIPT]"* ]]
	done
	sc_run_io "$SC_TMP/conv" "$SC_TMP/out" sc-model --provider replay \
		--transcript "$SC_TMP/t2"
	[[ "$stderr" == *"t2: line 1: a record before the first turn"* ]]
}

@test "replay: a transcript call cannot forge its source or carry a reserved argument" {
	printf '%s\n' '{"type":"turn"}' \
		'{"type":"call","id":"c","tool":"run","source":"person","argv":"ls"}' >"$SC_TMP/t"
	echo '{"type":"message","role":"user","text":"hi","label":"trusted","source":"person"}' | model_conv
	sc_run_io "$SC_TMP/conv" "$SC_TMP/out" sc-model --provider replay --transcript "$SC_TMP/t"
	assert_equal "$status" 0
	run model_json "$SC_TMP/out"
	assert_line --index 0 '{"type":"call","id":"c","tool":"run","source":"model","label":"trusted","argv":"ls"}'
}

@test "replay: the demo conversation starts against the demo transcript" {
	model_conv <"$MODEL_DATA/demo-conv.jsonl"
	replay
	assert_equal "$status" 0
	run model_json "$SC_TMP/out"
	assert_line --index 1 '{"type":"call","id":"call-1","tool":"read","source":"model","label":"trusted","path":"hello.c"}'
}

@test "replay: recorded cache counts replay into the usage record; bad ones are malformed" {
	printf '{"type":"turn"}\n{"type":"text","text":"ok"}\n{"type":"usage","input-tokens":"5","output-tokens":"1","cache-read-tokens":"900"}\n' >"$SC_TMP/tc"
	printf '{"type":"turn"}\n{"type":"usage","cache-write-tokens":"x"}\n' >"$SC_TMP/tbad"
	echo '{"type":"message","role":"user","text":"hi","label":"trusted","source":"person"}' | model_conv
	sc_run_io "$SC_TMP/conv" "$SC_TMP/out" sc-model --provider replay \
		--transcript "$SC_TMP/tc"
	assert_equal "$status" 0
	run model_json "$SC_TMP/out"
	assert_line --index 1 '{"type":"usage","input-tokens":"5","output-tokens":"1","cache-read-tokens":"900","cache-write-tokens":"0","labels":"trusted","provider":"replay","model":"replay"}'
	sc_run_io "$SC_TMP/conv" "$SC_TMP/out" sc-model --provider replay \
		--transcript "$SC_TMP/tbad"
	assert_equal "$status" 3
	[[ "$stderr" == *"error[MALFORMED-TRANSCRIPT]"*"usage counts must be decimal numbers"* ]]
}

@test "replay: task sections, each conversation counting its own turns" {
	cat >"$SC_TMP/tasks.transcript" <<'T'
{"type":"task"}
{"type":"turn"}
{"type":"expect","of":"message","contains":"task A"}
{"type":"text","text":"A, turn 1"}
{"type":"turn"}
{"type":"text","text":"A, turn 2"}
{"type":"task"}
{"type":"turn"}
{"type":"expect","of":"message","contains":"task B"}
{"type":"expect","of":"message","contains":"Earlier"}
{"type":"text","text":"B, turn 1"}
T
	{
		echo '{"type":"message","role":"user","text":"Do task B.","label":"trusted","source":"speccoder"}'
		echo '{"type":"message","role":"user","text":"Earlier tasks: A.","label":"untrusted","source":"command"}'
	} | model_conv
	sc_run_io "$SC_TMP/conv" "$SC_TMP/out" sc-model --provider replay \
		--transcript "$SC_TMP/tasks.transcript"
	assert_equal "$status" 0
	run model_json "$SC_TMP/out"
	assert_line --index 0 --partial '"text":"B, turn 1"'
	# Task A's second turn: the turn counts within its section.
	{
		echo '{"type":"message","role":"user","text":"Do task A.","label":"trusted","source":"speccoder"}'
		echo '{"type":"text","text":"A, turn 1","label":"trusted","source":"model"}'
		echo '{"type":"message","role":"user","text":"go on","label":"trusted","source":"person"}'
	} | model_conv
	sc_run_io "$SC_TMP/conv" "$SC_TMP/out" sc-model --provider replay \
		--transcript "$SC_TMP/tasks.transcript"
	assert_equal "$status" 0
	run model_json "$SC_TMP/out"
	assert_line --index 0 --partial '"text":"A, turn 2"'
	# A conversation no section opens like: diverged, nothing written.
	echo '{"type":"message","role":"user","text":"Do task C.","label":"trusted","source":"speccoder"}' | model_conv
	sc_run_io "$SC_TMP/conv" "$SC_TMP/out" sc-model --provider replay \
		--transcript "$SC_TMP/tasks.transcript"
	assert_equal "$status" 1
	[[ "$stderr" == *"error[REPLAY-DIVERGED]: no task of the transcript opens as this conversation does"* ]]
	[ ! -s "$SC_TMP/out" ]
}

@test "replay: a task record after bare turns, or a task without a turn, is malformed" {
	printf '{"type":"turn"}\n{"type":"text","text":"x"}\n{"type":"task"}\n{"type":"turn"}\n' >"$SC_TMP/t1"
	printf '{"type":"task"}\n{"type":"task"}\n{"type":"turn"}\n' >"$SC_TMP/t2"
	printf '{"type":"task"}\n{"type":"turn"}\n{"type":"task"}\n' >"$SC_TMP/t3"
	echo '{"type":"message","role":"user","text":"hi","label":"trusted","source":"person"}' | model_conv
	for t in t1:"a task record after turns outside any task" t2:"a task without a turn" t3:"a task without a turn"; do
		sc_run_io "$SC_TMP/conv" "$SC_TMP/out" sc-model --provider replay \
			--transcript "$SC_TMP/${t%%:*}"
		assert_equal "$status" 3
		[[ "$stderr" == *"error[MALFORMED-TRANSCRIPT]"*"${t#*:}"* ]]
	done
}
