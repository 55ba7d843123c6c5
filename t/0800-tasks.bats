#!/usr/bin/env bats
# sc-tasks: finding a feature's tasks file in both layouts, listing its
# items, ticking one; every refusal with its code and exit status, nothing
# written on a refusal, no symlink ever followed.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common

setup() {
	sc_common_setup
	P=$SC_TMP/p
	mkdir -p "$P"
}

# tasks_run ARGS...: sc-tasks with stdout in $SC_TMP/out.rec, as JSON lines
# in $SC_TMP/out.json; $status is sc-tasks' own.
tasks_run() {
	sc_run_io /dev/null "$SC_TMP/out.rec" sc-tasks "$@"
	sc-rec --to-json <"$SC_TMP/out.rec" >"$SC_TMP/out.json"
}

# speckit FEATURE: a spec-kit feature with spec, plan and three items.
speckit() {
	mkdir -p "$P/specs/$1"
	printf '# Tasks: %s\n\n- [ ] T001 one\n  - [x] T002 two\n* [ ] T003 three\n' \
		"$1" >"$P/specs/$1/tasks.md"
	: >"$P/specs/$1/spec.md"
	: >"$P/specs/$1/plan.md"
}

openspec() {
	mkdir -p "$P/openspec/changes/$1"
	printf '## 1. Setup\n- [ ] 1.1 Add it\n' >"$P/openspec/changes/$1/tasks.md"
}

@test "find: a spec-kit feature with its spec and plan" {
	speckit 001-login
	tasks_run find -C "$P" 001-login
	assert_success
	run jq -c . "$SC_TMP/out.json"
	assert_output '{"type":"feature","name":"001-login","layout":"spec-kit","dir":"specs/001-login","tasks":"specs/001-login/tasks.md","spec":"specs/001-login/spec.md","plan":"specs/001-login/plan.md"}'
}

@test "find: an OpenSpec change, proposal as spec and design as plan, absent ones left out" {
	openspec add-form
	tasks_run find -C "$P" add-form
	assert_success
	run jq -c . "$SC_TMP/out.json"
	assert_output '{"type":"feature","name":"add-form","layout":"openspec","dir":"openspec/changes/add-form","tasks":"openspec/changes/add-form/tasks.md"}'
	: >"$P/openspec/changes/add-form/proposal.md"
	: >"$P/openspec/changes/add-form/design.md"
	tasks_run find -C "$P" add-form
	assert_success
	run jq -r '.spec + " " + .plan' "$SC_TMP/out.json"
	assert_output 'openspec/changes/add-form/proposal.md openspec/changes/add-form/design.md'
}

@test "find: the current directory by default" {
	speckit f
	cd "$P"
	tasks_run find f
	assert_success
	run jq -r .tasks "$SC_TMP/out.json"
	assert_output specs/f/tasks.md
}

@test "find: a bad feature name is a usage error, nothing looked up" {
	local name
	speckit ok
	for name in '' .hidden -x ../specs/ok 'a/b' 'a b' "$(printf 'a\nb')" ..; do
		tasks_run find -C "$P" -- "$name"
		[ "$status" -eq 2 ] || fail "'$name': status $status"
		[[ "$stderr" == *"error[BAD-FEATURE]"* ]] || fail "'$name': $stderr"
		[ ! -s "$SC_TMP/out.rec" ] || fail "'$name' wrote records"
	done
}

@test "find: no tasks file is NO-TASKS, exit 1" {
	mkdir -p "$P/specs/empty"
	: >"$P/specs/empty/spec.md"
	tasks_run find -C "$P" empty
	assert_equal "$status" 1
	[[ "$stderr" == *"error[NO-TASKS]"* ]]
	[ ! -s "$SC_TMP/out.rec" ]
	tasks_run find -C "$P" nowhere
	assert_equal "$status" 1
}

@test "find: a feature in both layouts is refused, never guessed" {
	speckit both
	openspec both
	tasks_run find -C "$P" both
	assert_equal "$status" 1
	[[ "$stderr" == *"error[AMBIGUOUS-FEATURE]"* ]]
	[ ! -s "$SC_TMP/out.rec" ]
}

@test "find: a symlink anywhere on the way is refused, never followed" {
	local outside=$SC_TMP/outside
	mkdir -p "$outside/f"
	printf -- '- [ ] planted\n' >"$outside/f/tasks.md"
	# the tasks file
	speckit a
	rm "$P/specs/a/tasks.md"
	ln -s "$outside/f/tasks.md" "$P/specs/a/tasks.md"
	tasks_run find -C "$P" a
	assert_equal "$status" 1
	[[ "$stderr" == *"error[UNSAFE-PATH]"*"specs/a/tasks.md"* ]]
	# the feature's directory
	ln -s "$outside/f" "$P/specs/b"
	tasks_run find -C "$P" b
	assert_equal "$status" 1
	[[ "$stderr" == *"error[UNSAFE-PATH]"* ]]
	# the layout's directory
	mkdir -p "$outside/changes/c" && cp "$outside/f/tasks.md" "$outside/changes/c/"
	mkdir -p "$P/openspec"
	ln -s "$outside/changes" "$P/openspec/changes"
	tasks_run find -C "$P" c
	assert_equal "$status" 1
	[[ "$stderr" == *"error[UNSAFE-PATH]"*"openspec/changes"* ]]
	# the spec beside a real tasks file
	speckit d
	rm "$P/specs/d/spec.md"
	ln -s /etc/passwd "$P/specs/d/spec.md"
	tasks_run find -C "$P" d
	assert_equal "$status" 1
	[[ "$stderr" == *"error[UNSAFE-PATH]"*"specs/d/spec.md"* ]]
	[ ! -s "$SC_TMP/out.rec" ]
}

@test "find and list: a fifo or a directory as the tasks file is refused without waiting" {
	mkdir -p "$P/specs/fifo" "$P/specs/dir/tasks.md"
	mkfifo "$P/specs/fifo/tasks.md"
	sc_run_io /dev/null "$SC_TMP/out.rec" timeout 10 sc-tasks find -C "$P" fifo
	assert_equal "$status" 1
	[[ "$stderr" == *"error[UNSAFE-PATH]"* ]]
	sc_run_io /dev/null "$SC_TMP/out.rec" timeout 10 sc-tasks list "$P/specs/fifo/tasks.md"
	assert_equal "$status" 1
	tasks_run find -C "$P" dir
	assert_equal "$status" 1
	[[ "$stderr" == *"error[UNSAFE-PATH]"* ]]
}

@test "list: one record per item, in order, with line and state" {
	speckit f
	tasks_run list "$P/specs/f/tasks.md"
	assert_success
	run jq -c '[.n, .line, .state, .text]' "$SC_TMP/out.json"
	assert_output '["1","3","open","T001 one"]
["2","4","done","T002 two"]
["3","5","open","T003 three"]'
	tasks_run list -C "$P" specs/f/tasks.md
	assert_success
	assert_equal "$(jq -s length "$SC_TMP/out.json")" 3
}

@test "list: a malformed file names FILE:LINE, exits 3 and writes nothing" {
	local body want
	while IFS='|' read -r body want; do
		printf -- '- [ ] fine\n%b\n' "$body" >"$P/t.md"
		tasks_run list "$P/t.md"
		[ "$status" -eq 3 ] || fail "'$body': status $status"
		[[ "$stderr" == *"error[MALFORMED-TASKS]: $P/t.md:2: $want"* ]] ||
			fail "'$body': $stderr"
		[ ! -s "$SC_TMP/out.rec" ] || fail "'$body': records were written"
	done <<'EOF'
- [?] what|a checkbox that is neither [ ] nor [x]
- [-] cancelled|a checkbox that is neither [ ] nor [x]
- []|an empty checkbox []
- [ ]   |an item without text
- [ ] bad \xff byte|not UTF-8
- [ ] nul \x00 byte|a NUL byte
- [ ] escape \x1b[2J|a control character
- [ ] rtl \xe2\x80\xae override|a bidirectional control character
EOF
}

@test "list: a line over 64 KiB or a file over 4 MiB is malformed" {
	{ printf -- '- [ ] '; head -c 70000 /dev/zero | tr '\0' a; echo; } >"$P/long.md"
	tasks_run list "$P/long.md"
	assert_equal "$status" 3
	[[ "$stderr" == *"long.md:1: a line longer than 64 KiB"* ]]
	{ printf -- '- [ ] x\n'; head -c $((4 * 1024 * 1024)) /dev/zero | tr '\0' '\n'; } >"$P/big.md"
	tasks_run list "$P/big.md"
	assert_equal "$status" 3
	[[ "$stderr" == *"larger than 4 MiB"* ]]
	[ ! -s "$SC_TMP/out.rec" ]
}

@test "list: no item, or no file, is NO-TASKS, exit 1" {
	printf '# nothing to do\n- a plain item\n' >"$P/t.md"
	tasks_run list "$P/t.md"
	assert_equal "$status" 1
	[[ "$stderr" == *"error[NO-TASKS]"* ]]
	tasks_run list "$P/none.md"
	assert_equal "$status" 1
	[[ "$stderr" == *"error[NO-TASKS]"* ]]
}

@test "list: FILE is never followed through a symlink; with -C no component is" {
	speckit f
	ln -s "$P/specs/f/tasks.md" "$P/link.md"
	tasks_run list "$P/link.md"
	assert_equal "$status" 1
	[[ "$stderr" == *"error[UNSAFE-PATH]"* ]]
	ln -s "$P/specs" "$P/specs-link"
	tasks_run list -C "$P" specs-link/f/tasks.md
	assert_equal "$status" 1
	[[ "$stderr" == *"error[UNSAFE-PATH]"*"specs-link"* ]]
	tasks_run list -C "$P/specs" ../specs/f/tasks.md
	assert_equal "$status" 2
	[[ "$stderr" == *"error[BAD-PATH]"* ]]
	tasks_run list -C "$P" "$P/specs/f/tasks.md"
	assert_equal "$status" 2
	[ ! -s "$SC_TMP/out.rec" ]
}

@test "tick: one byte changes, the mode stays, the done record is written" {
	speckit f
	local t=$P/specs/f/tasks.md
	printf '# Tasks: f\n\n- [x] T001 one\n  - [x] T002 two\n* [ ] T003 three\n' >"$SC_TMP/want"
	# the same file with item 1 open, CRLF-free, mode 0640
	chmod 0640 "$t"
	tasks_run tick "$t" 1 --text 'T001 one'
	assert_success
	run jq -c '[.type, .n, .line, .state, .text]' "$SC_TMP/out.json"
	assert_output '["task","1","3","done","T001 one"]'
	cmp "$t" "$SC_TMP/want"
	assert_equal "$(stat -c %a "$t")" 640
	run ls -A "$P/specs/f"
	assert_output 'plan.md
spec.md
tasks.md'
}

@test "tick: the options may come first, and -C walks without symlinks" {
	speckit f
	tasks_run tick -C "$P" --text 'T003 three' specs/f/tasks.md 3
	assert_success
	run grep -c '^\* \[x\] T003 three$' "$P/specs/f/tasks.md"
	assert_output 1
}

@test "tick: a CRLF file keeps its line ends" {
	printf -- '- [ ] a\r\n- [ ] b\r\n' >"$P/t.md"
	tasks_run tick "$P/t.md" 2 --text b
	assert_success
	cmp "$P/t.md" <(printf -- '- [ ] a\r\n- [x] b\r\n')
}

@test "tick: another text, a done item or a missing item is TASK-CHANGED and changes nothing" {
	speckit f
	local t=$P/specs/f/tasks.md
	cp "$t" "$SC_TMP/before"
	local args
	for args in "1|T001 on" "1|T001 one " "1|t001 one" "2|T002 two" "4|T004" "3|T001 one"; do
		tasks_run tick "$t" "${args%%|*}" --text "${args#*|}"
		[ "$status" -eq 1 ] || fail "$args: status $status"
		[[ "$stderr" == *"error[TASK-CHANGED]"* ]] || fail "$args: $stderr"
		[ ! -s "$SC_TMP/out.rec" ] || fail "$args: wrote a record"
		cmp "$t" "$SC_TMP/before" || fail "$args changed the file"
	done
	run ls -A "$P/specs/f"
	assert_output 'plan.md
spec.md
tasks.md'
}

@test "tick: usage errors (N not a number from 1, no --text, extra arguments)" {
	speckit f
	local t=$P/specs/f/tasks.md
	cp "$t" "$SC_TMP/before"
	tasks_run tick "$t" 0 --text x
	assert_equal "$status" 2
	tasks_run tick "$t" 01 --text x
	assert_equal "$status" 2
	tasks_run tick "$t" -1 --text x
	assert_equal "$status" 2
	tasks_run tick "$t" 1
	assert_equal "$status" 2
	tasks_run tick "$t" 1 2 --text x
	assert_equal "$status" 2
	tasks_run list "$t" --text x
	assert_equal "$status" 2
	tasks_run frob "$t"
	assert_equal "$status" 2
	cmp "$t" "$SC_TMP/before"
}

@test "tick: a symlink is refused and its target stays untouched" {
	speckit f
	cp "$P/specs/f/tasks.md" "$SC_TMP/before"
	ln -s "$P/specs/f/tasks.md" "$P/link.md"
	tasks_run tick "$P/link.md" 1 --text 'T001 one'
	assert_equal "$status" 1
	[[ "$stderr" == *"error[UNSAFE-PATH]"* ]]
	cmp "$P/specs/f/tasks.md" "$SC_TMP/before"
	[ -L "$P/link.md" ]
}

@test "tick: a malformed file is refused whole, unchanged" {
	printf -- '- [ ] a\n- [?] b\n' >"$P/t.md"
	cp "$P/t.md" "$SC_TMP/before"
	tasks_run tick "$P/t.md" 1 --text a
	assert_equal "$status" 3
	cmp "$P/t.md" "$SC_TMP/before"
}

@test "tick: a hard link elsewhere keeps the old content" {
	printf -- '- [ ] a\n' >"$P/t.md"
	ln "$P/t.md" "$SC_TMP/other-name.md"
	tasks_run tick "$P/t.md" 1 --text a
	assert_success
	assert_equal "$(cat "$P/t.md")" '- [x] a'
	assert_equal "$(cat "$SC_TMP/other-name.md")" '- [ ] a'
}
