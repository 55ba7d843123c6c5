# Helpers for the sc-classify tests: a fixture worktree and the corpus
# runner.  shellcheck shell=bash

SC_POLICY_DATA="$SC_TOP/t/data/policy"

# A worktree with every kind of file the rules care about, at $1, and a
# file outside it at $1.outside.
policy_fixture() {
	local r="$1"
	mkdir -p "$r" "$r.outside"
	mkdir -p "$r/src" "$r/tests" "$r/.git/hooks" "$r/specs/001-login" \
		"$r/openspec/changes/add-x/specs/auth" "$r/build" "$r/docs" \
		"$r/bare/objects" "$r/bare/refs" "$r/vendor/lib/.git" "$r/.github/workflows"
	echo readme >"$r/README.md"
	echo 'int main(void){return 0;}' >"$r/src/main.c"
	echo 'all:' >"$r/Makefile"
	echo '[core]' >"$r/.git/config"
	echo 'TOKEN=x' >"$r/.env"
	echo 'def test_old(): pass' >"$r/tests/test_old.py"
	echo spec >"$r/specs/001-login/spec.md"
	echo 'ref: x' >"$r/bare/HEAD"
	echo '{}' >"$r/package.json"
	echo secret >"$r.outside/secret"
	echo o >"$r/build/out.o"
	ln -s /etc "$r/escape"
	ln -s ../"$(basename "$r").outside" "$r/escape-rel"
	ln -s Makefile "$r/mklink"
	ln -s src "$r/srclink"
	ln -s loop2 "$r/loop1"
	ln -s loop1 "$r/loop2"
	ln "$r/Makefile" "$r/src/innocent.c"
	ln "$r.outside/secret" "$r/src/stolen.txt"
	ln "$r/.git/config" "$r/docs/notes.txt"
	printf 'build\0.env.local\0specs/001-login/plan.md\0' >"$r.ignored"
	printf 'tests/test_old.py\n' >"$r.frozen"
}

# Run one corpus file: each line is EXPECT<TAB>RULE<TAB>name=value...,
# values with printf %b escapes.  A line "@args ..." gives the options
# (@DATA@ stands for t/data/policy, @ROOT@ for the fixture).  Between cases
# an allowed read keeps three denials from ending the stream.
# shellcheck disable=SC2154 # bats run sets status and stderr
policy_corpus() {
	local file="$1" root="$SC_TMP/root" line n=0 args=() exp_rule exp_dec
	local -a fields
	policy_fixture "$root"
	: >"$SC_TMP/in"
	: >"$SC_TMP/expect"
	while IFS= read -r line || [ -n "$line" ]; do
		case "$line" in
		'' | '#'*) continue ;;
		@args*)
			line=${line#@args}
			line=${line//@DATA@/$SC_POLICY_DATA}
			line=${line//@ROOT@/$root}
			read -r -a args <<<"$line"
			continue
			;;
		esac
		n=$((n + 1))
		line=${line//@ROOT@/$root}
		IFS=$'\t' read -r -a fields <<<"$line"
		exp_dec=${fields[0]}
		exp_rule=${fields[1]}
		{
			printf 'type=call\0id=%s\0' "$n"
			local f
			for f in "${fields[@]:2}"; do
				printf '%b\0' "$f"
			done
			printf '\0'
			printf 'type=call\0id=reset\0tool=read\0path=README.md\0\0'
		} >>"$SC_TMP/in"
		printf '%s\t%s\t%s\t%s\n' "$n" "$exp_dec" "$exp_rule" "$line" >>"$SC_TMP/expect"
	done <"$file"
	policy_run "$SC_TMP/in" "$SC_TMP/out" sc-classify --root "$root" "${args[@]}"
	sc_assert_not_crashed
	if [ "$status" -ne 0 ]; then
		echo "sc-classify exited $status: $stderr" >&2
		return 1
	fi
	sc-rec --to-json <"$SC_TMP/out" >"$SC_TMP/out.json"
	jq -r 'select(.id != "reset") | [.id, .decision, .rule] | @tsv' \
		<"$SC_TMP/out.json" >"$SC_TMP/got"
	local bad=0 id dec rule want_dec want_rule text
	while IFS=$'\t' read -r id want_dec want_rule text; do
		IFS=$'\t' read -r _ dec rule < <(grep -m1 "^$id	" "$SC_TMP/got")
		if [ "$dec" != "$want_dec" ] ||
			{ [ "$want_rule" != - ] && [ "$rule" != "$want_rule" ]; }; then
			echo "case $id: want $want_dec $want_rule, got ${dec:-nothing} ${rule:-}: $text" >&2
			bad=$((bad + 1))
		fi
	done <"$SC_TMP/expect"
	echo "$n cases, $bad wrong" >&2
	[ "$bad" -eq 0 ]
}

# Run CMD with stdin from IN and stdout to OUT, keeping its own status and
# its stderr in $stderr.  (bats' run captures stdout itself, so a
# redirection around run would not reach the command.)
# shellcheck disable=SC2154 # bats run sets status and stderr
policy_run() {
	local in="$1" out="$2"
	shift 2
	# shellcheck disable=SC2016 # expanded by that sh, not here
	run --separate-stderr sh -c 'in=$1 out=$2; shift 2; exec "$@" <"$in" >"$out"' \
		sh "$in" "$out" "$@"
}

# The man page block of a corpus file's cases ($1): one line each,
# decision, rule and the call (the shell line, or the argv words), as
# sc-classify(1) shows them under DECISIONS BY EXAMPLE.
policy_examples_block() {
	local line dec rule f call
	local -a fields
	printf '```\n'
	while IFS= read -r line || [ -n "$line" ]; do
		case "$line" in '' | '#'* | @*) continue ;; esac
		IFS=$'\t' read -r -a fields <<<"$line"
		dec=${fields[0]} rule=${fields[1]} call=
		for f in "${fields[@]:2}"; do
			case "$f" in
			shell=*) call=${f#shell=} ;;
			argv=*) call="${call:+$call }${f#argv=}" ;;
			esac
		done
		# \\ is one backslash; \n, \r stay visible as written; the
		# man page (scdoc) shows a backslash written twice
		call=${call//\\\\/\\}
		call=${call//\\/\\\\}
		printf '%-6s %-24s %s\n' "$dec" "$rule" "$call"
	done <"$1"
	printf '```\n'
}
