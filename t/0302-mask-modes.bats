#!/usr/bin/env bats
# sc-mask: the masking corpus (t/data/mask), --records-stream, --check-diff.

# shellcheck disable=SC2154,SC2030,SC2031 # bats: run sets status, output, stderr; each @test is a subshell
bats_require_minimum_version 1.5.0
load lib/common
load lib/mask

@test "corpus: every case of t/data/mask gives exactly its expected output" {
	local d n=0
	for d in "$SC_TOP"/t/data/mask/*/; do
		sc_run_io "$d/input" "$SC_TMP/out" sc-mask --secrets-file "$d/secrets.env"
		assert_equal "$status" 0
		if ! cmp -s "$d/expected" "$SC_TMP/out"; then
			echo "case $(basename "$d") differs" >&2
			return 1
		fi
		n=$((n + 1))
	done
	[ "$n" -ge 10 ]
}

@test "records-stream: text fields masked, other records unchanged" {
	export REC_TOKEN; REC_TOKEN=$(mask_gen_value)
	{
		sc-rec type=text id=1 "text=out: $REC_TOKEN done"
		sc-rec type=call id=2 tool=read "path=$REC_TOKEN"
		sc-rec type=text id=3 "text=$REC_TOKEN" "note=$REC_TOKEN"
	} >"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-mask --secret REC_TOKEN --records-stream
	assert_equal "$status" 0
	sc_run_io "$SC_TMP/out" "$SC_TMP/json" sc-rec --to-json
	printf '%s\n' \
		'{"type":"text","id":"1","text":"out: [redacted:REC_TOKEN] done"}' \
		"{\"type\":\"call\",\"id\":\"2\",\"tool\":\"read\",\"path\":\"$REC_TOKEN\"}" \
		"{\"type\":\"text\",\"id\":\"3\",\"text\":\"[redacted:REC_TOKEN]\",\"note\":\"$REC_TOKEN\"}" \
		>"$SC_TMP/want"
	cmp "$SC_TMP/want" "$SC_TMP/json"
}

@test "records-stream --all-fields: every field of every record but its type" {
	export REC_TOKEN; REC_TOKEN=$(mask_gen_value)
	{
		sc-rec type=event id=1 argv=echo "argv=$REC_TOKEN" "text=x$REC_TOKEN"
		sc-rec type=call "path=$REC_TOKEN"
	} >"$SC_TMP/in"
	printf 'type=blob\0v:7=a\0b\0\0\0\0\0\0' >>"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-mask --secret REC_TOKEN --records-stream --all-fields
	assert_equal "$status" 0
	sc_run_io "$SC_TMP/out" "$SC_TMP/json" sc-rec --to-json
	printf '%s\n' \
		'{"type":"event","id":"1","argv":["echo","[redacted:REC_TOKEN]"],"text":"x[redacted:REC_TOKEN]"}' \
		'{"type":"call","path":"[redacted:REC_TOKEN]"}' \
		'{"type":"blob","v":"a\u0000b\u0000\u0000\u0000\u0000"}' \
		>"$SC_TMP/want"
	cmp "$SC_TMP/want" "$SC_TMP/json"
	# Without --records-stream it is a usage error, and nothing is read.
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-mask --secret REC_TOKEN --all-fields
	assert_equal "$status" 2
}

@test "records-stream: a secret never spans two records" {
	export REC_TOKEN; REC_TOKEN=$(mask_gen_value)
	{
		sc-rec type=text "text=${REC_TOKEN:0:10}"
		sc-rec type=text "text=${REC_TOKEN:10}"
	} >"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-mask --secret REC_TOKEN --records-stream
	assert_equal "$status" 0
	cmp "$SC_TMP/in" "$SC_TMP/out"
}

@test "records-stream: malformed input: records before it, then exit 3" {
	export REC_TOKEN; REC_TOKEN=$(mask_gen_value)
	sc-rec type=text "text=$REC_TOKEN" >"$SC_TMP/in"
	printf 'type=text\0bad field\0\0' >>"$SC_TMP/in"
	sc_run_io "$SC_TMP/in" "$SC_TMP/out" sc-mask --secret REC_TOKEN --records-stream
	assert_equal "$status" 3
	[[ "$stderr" == *"error[MALFORMED-RECORD]"* ]]
	sc_run_io "$SC_TMP/out" "$SC_TMP/json" sc-rec --to-json
	assert_equal "$(cat "$SC_TMP/json")" '{"type":"text","text":"[redacted:REC_TOKEN]"}'
}

make_diff() {
	git init -q "$SC_TMP/repo"
	cd "$SC_TMP/repo" || return 1
	printf 'one\ntwo\nthree\nold %s\n' "$DIFF_TOKEN" >config.txt
	git add config.txt
	git -c user.name=t -c user.email=t@t commit -qm init
	printf 'one\ntwo\nadded %s\nthree\n++ %s\nplain\n' "$(printf '%s' "$DIFF_TOKEN" | base64 -w0)" "$DIFF_TOKEN" >config.txt
	printf 'new %s\n' "$DIFF_TOKEN" >"new file.txt"
	git add -A
	git diff --cached >"$SC_TMP/diff"
	cd - >/dev/null || return 1
}

@test "check-diff: each added line with a secret form is a finding, exit 1" {
	export DIFF_TOKEN; DIFF_TOKEN=$(mask_gen_value)
	make_diff
	sc_run_io "$SC_TMP/diff" "$SC_TMP/out" sc-mask --secret DIFF_TOKEN --check-diff
	assert_equal "$status" 1
	sc_run_io "$SC_TMP/out" "$SC_TMP/json" sc-rec --to-json
	printf '%s\n' \
		'{"type":"finding","code":"SECRET-IN-DIFF","name":"DIFF_TOKEN","file":"config.txt","line":"3"}' \
		'{"type":"finding","code":"SECRET-IN-DIFF","name":"DIFF_TOKEN","file":"config.txt","line":"5"}' \
		'{"type":"finding","code":"SECRET-IN-DIFF","name":"DIFF_TOKEN","file":"new file.txt","line":"1"}' \
		>"$SC_TMP/want"
	cmp "$SC_TMP/want" "$SC_TMP/json"
	run grep -c -F -- "$DIFF_TOKEN" "$SC_TMP/out"
	assert_output 0
}

@test "check-diff: a removed line or a clean diff is no finding, exit 0" {
	export DIFF_TOKEN; DIFF_TOKEN=$(mask_gen_value)
	printf -- '--- a/x\n+++ b/x\n@@ -1,2 +1,1 @@\n-gone %s\n kept\n' "$DIFF_TOKEN" >"$SC_TMP/diff"
	sc_run_io "$SC_TMP/diff" "$SC_TMP/out" sc-mask --secret DIFF_TOKEN --check-diff
	assert_equal "$status" 0
	[ ! -s "$SC_TMP/out" ]
}

@test "check-diff: a secret in a file name is masked in the finding" {
	export DIFF_TOKEN; DIFF_TOKEN=$(mask_gen_value)
	printf -- '--- /dev/null\n+++ b/keys/%s.txt\n@@ -0,0 +1 @@\n+%s\n' "$DIFF_TOKEN" "$DIFF_TOKEN" >"$SC_TMP/diff"
	sc_run_io "$SC_TMP/diff" "$SC_TMP/out" sc-mask --secret DIFF_TOKEN --check-diff
	assert_equal "$status" 1
	sc_run_io "$SC_TMP/out" "$SC_TMP/json" sc-rec --to-json
	assert_equal "$(cat "$SC_TMP/json")" '{"type":"finding","code":"SECRET-IN-DIFF","name":"DIFF_TOKEN","file":"keys/[redacted:DIFF_TOKEN].txt","line":"1"}'
}

@test "check-diff: a binary file's content is not in the diff: error[SCAN-INCOMPLETE], exit 4" {
	export DIFF_TOKEN; DIFF_TOKEN=$(mask_gen_value)
	mkdir -p "$SC_TMP/bin"
	cd "$SC_TMP/bin" || return 1
	git init -q .
	printf 'x\0%s\n' "$DIFF_TOKEN" >"blob-$DIFF_TOKEN.dat"
	printf 'clean\n' >text.txt
	git add -A
	git diff --cached >"$SC_TMP/diff"
	git diff --cached --text >"$SC_TMP/diff-text"
	cd - >/dev/null || return 1
	sc_run_io "$SC_TMP/diff" "$SC_TMP/out" sc-mask --secret DIFF_TOKEN --check-diff
	assert_equal "$status" 4
	[[ "$stderr" == "sc-mask: error[SCAN-INCOMPLETE]: 'blob-[redacted:DIFF_TOKEN].dat' is binary in the diff: its content is not there to check" ]]
	# With --text (what the run driver passes) its lines are checked.
	sc_run_io "$SC_TMP/diff-text" "$SC_TMP/out" sc-mask --secret DIFF_TOKEN --check-diff
	assert_equal "$status" 1
	sc_run_io "$SC_TMP/out" "$SC_TMP/json" sc-rec --to-json
	assert_equal "$(cat "$SC_TMP/json")" '{"type":"finding","code":"SECRET-IN-DIFF","name":"DIFF_TOKEN","file":"blob-[redacted:DIFF_TOKEN].dat","line":"1"}'
}

@test "check-diff: takes no FILE" {
	export DIFF_TOKEN; DIFF_TOKEN=$(mask_gen_value)
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --secret DIFF_TOKEN --check-diff x
	assert_equal "$status" 2
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --secret DIFF_TOKEN --check-diff --records-stream
	assert_equal "$status" 2
}
