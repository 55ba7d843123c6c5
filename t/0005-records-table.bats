#!/usr/bin/env bats
# Every tool whose output is records writes a readable table when its
# standard output is a terminal, records when it is not, and records on a
# terminal too with -z: a person reads rows, a pipeline reads records.

# shellcheck disable=SC2154 # bats run sets status, output
load lib/common

setup() {
	sc_common_setup
	command -v script >/dev/null || skip "script(1) is not installed: bsdutils gives it"
	cd "$SC_TMP" || return
	git init -q -b main repo
	git -C repo -c user.name=t -c user.email=t@e commit -q --allow-empty -m start
	printf -- '- [ ] T001 one\n- [x] T002 two\n' >tasks.md
	printf '[check "test"]\n\tcommand = make test\n' >speccoder.conf
	printf 'token = "%s"\n' "ghp_abcdefghijklmnopqrstuvwxyz0123456789" >leak.txt
	printf '%s\n' '{"type":"turn"}' '{"type":"text","text":"hello"}' >transcript.jsonl
	mkdir -p .claude/skills/review
	printf 'Review.\n' >.claude/skills/review/SKILL.md
}

# Run the shell line LINE with stdout on a terminal (script(1) gives a
# pty); $output is what the terminal got, carriage returns removed.
on_tty() { # LINE
	run bash -c "script -qec \"\$1\" /dev/null | tr -d '\r' >\"\$2\"; od -An -c \"\$2\" | grep -q '\\\\0' && echo NUL; tr -d '\\0' <\"\$2\"" \
		_ "PATH=$PATH; $1" "$SC_TMP/tty.out"
}

# The commands, each as a shell line ({z} where -z goes), and the type its
# first row shows.
commands=(
	"sc-sandbox-exec --probe {z}|host"
	"sc-rec {z} type=call id=1 tool=read|call"
	"sc-rec type=call id=1 tool=read path=README | sc-classify {z} --root .|verdict"
	"sc-hash-git {z} -C repo|manifest"
	"sc-tasks list {z} tasks.md|task"
	"sc-config --file speccoder.conf --list {z}|config"
	"sc-mask --scan {z} leak.txt|finding"
	"sc-classify --print-protected {z}|protected"
	"sc-pin skills {z} --root .|package"
	"sc-rec type=message role=user text=hi label=trusted source=person | sc-model {z} --provider replay --transcript transcript.jsonl|text"
)

@test "on a terminal: a row a record, type first, no NUL byte" {
	local c line type
	for c in "${commands[@]}"; do
		line=${c%|*} type=${c##*|}
		line=${line//\{z\}/}
		on_tty "$line"
		[[ "$output" != NUL* ]] || fail "$line: NUL on the terminal"
		[[ "${lines[0]}" == "$type "* ]] || fail "$line: first row '${lines[0]}'"
		[[ "${lines[0]}" == *"="* ]] || fail "$line: no NAME=VALUE in '${lines[0]}'"
	done
}

@test "-z on a terminal, and any pipe: records, as before" {
	local c line type
	for c in "${commands[@]}"; do
		line=${c%|*} type=${c##*|}
		on_tty "${line//\{z\}/-z}"
		[[ "$output" == NUL* ]] || fail "$line: no records on the terminal"
		# A pipe: records with no option.
		run bash -c "${line//\{z\}/} | sc-rec --to-json | head -n 1 | jq -r .type"
		assert_output "$type"
	done
	# --records is -z where a tool has no other use for it.
	on_tty "sc-sandbox-exec --probe --records"
	[[ "$output" == NUL* ]]
}

@test "a table row is cleaned: escape sequences, C1 and bidi controls never reach the terminal" {
	on_tty "sc-rec type=call \"a=\$(printf 'x\\033]0;pwned\\007y')\" \"b=\$(printf 'p\\302\\233q\\342\\200\\256r\\233s')\""
	[[ "$output" != NUL* ]]
	run grep -c $'\033\|\007' "$SC_TMP/tty.out"
	assert_output 0
	run grep -c $'\xc2\x9b\|\xe2\x80\xae' "$SC_TMP/tty.out"
	assert_output 0
	grep -q 'a=x?\]0;pwned?y b=p?q?r?s' "$SC_TMP/tty.out"
}

@test "-z where it does not belong is a usage error" {
	run sc-sandbox-exec -z -- true
	assert_equal "$status" 125
	run sc-rec --to-json -z </dev/null
	assert_equal "$status" 2
	run sc-config --file speccoder.conf --get check.test.command -z
	assert_equal "$status" 2
}
