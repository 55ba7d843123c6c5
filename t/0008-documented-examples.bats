#!/usr/bin/env bats
# Every command the README and the man pages' EXAMPLES show keeps working:
# each is extracted (t/lib/doc-examples.pl) and run in a repository set up
# with what the examples name (a check, a secret, a skill, a feature, a
# signing key).  Each speccoder tool runs behind a shim that records the
# command line when the tool rejects it (usage: or error[USAGE] or
# error[BAD-OPTION]); a documented tool that does not exist is "command
# not found".  What an example does with missing inputs (a file it names,
# a network it needs) is its own business: only a documented command line
# that the tools no longer accept fails the test.

# shellcheck disable=SC2154,SC2030,SC2031 # bats run sets status, output; each @test is a subshell
load lib/common
load lib/porcelain

# Examples that cannot run here, each with the reason.
skip_example() { # SOURCE:LINE COMMAND
	case "$2" in
	'make '*|make) return 0 ;;          # the build itself: make test runs it
	'<- '*|'-> '*) return 0 ;;          # a protocol exchange, not a command
	'ssh '*) return 0 ;;                # another host
	esac
	# A file format's page shows files; only its command lines run.
	case "$1:$2" in
	*.5.scd:sc-*|*.5.scd:git\ *) ;;
	*.5.scd:*) return 0 ;;
	esac
	return 1
}

# A shim for TOOL that runs it and notes a rejected command line.
make_shim() { # DIR TOOL REAL
	cat >"$1/$2" <<SHIM
#!/bin/sh
err=\$(mktemp)
"$3" "\$@" 2>"\$err"
st=\$?
cat "\$err" >&2
if grep -q '^usage: \\|error\\[USAGE\\]\\|error\\[BAD-OPTION\\]' "\$err"; then
	printf '%s: %s %s\\n' "\$SC_EXAMPLE" "$2" "\$*" >>"\$SC_REJECTED"
fi
rm -f "\$err"
exit \$st
SHIM
	chmod +x "$1/$2"
}

setup() {
	sc_common_setup
	sc_porcelain_repo
	local t
	mkdir -p "$SC_TMP/shims"
	for t in "$SC_TOP"/build/bin/sc-*; do
		make_shim "$SC_TMP/shims" "${t##*/}" "$t"
	done
	make_shim "$SC_TMP/shims" git-speccoder "$SC_TOP/bin/git-speccoder"
	# What the examples name.
	printf 'test:\n\t@echo ok\n' >Makefile
	printf '[check "test"]\n\tcommand = make test\n' >speccoder.conf
	# A provider that answers nothing: an attempt runs up to its first
	# model call.
	git config -f speccoder.conf model.endpoint http://127.0.0.1:9
	export ANTHROPIC_API_KEY=sk-ant-example-not-a-key
	printf 'API_KEY=sk-example-0123456789abcdef\n' >.env.ci
	printf 'line\n' >build.log
	printf 'key\n' >deploy.pem
	mkdir -p .agents/skills/fmt vendor/pdf specs/001-login
	printf 'Format.\n' >.agents/skills/fmt/SKILL.md
	printf 'PDF.\n' >vendor/pdf/SKILL.md
	printf -- '- [ ] T001 the form\n' >specs/001-login/tasks.md
	printf '# spec\n' >specs/001-login/spec.md
	printf '{"result":"PASSED"}\n' >result.json
	printf '.env*\n' >protect.list
	sc-rec type=call id=1 tool=read path=README.md >calls.rec
	cp calls.rec in.rec
	printf '.env.ci\n' >.gitignore
	git add -A && git commit -qm base
	git branch speccoder/001-login
}

@test "every documented example runs, and no tool rejects its command line" {
	local examples=0 ex src cmd block last=
	export SC_REJECTED=$SC_TMP/rejected
	: >"$SC_REJECTED"
	while IFS= read -r -d '' ex; do
		src=${ex%%$'\t'*} ex=${ex#*$'\t'}
		block=${ex%%$'\t'*} cmd=${ex#*$'\t'}
		if skip_example "$src" "$cmd"; then
			continue
		fi
		examples=$((examples + 1))
		# A fresh copy of the repository for each block, so none sees
		# another's leftovers; the commands of a block run in order in it.
		# "..." (the rest of a script) does nothing.
		if [ "$block" != "$last" ]; then
			rm -rf "$SC_TMP/ex"
			cp -a "$SC_TMP/repo" "$SC_TMP/ex"
			last=$block
		fi
		(
			cd "$SC_TMP/ex" || exit 1
			export SC_EXAMPLE=$src PATH="$SC_TMP/shims:$SC_TOP/hooks-guard:$PATH"
			export worktree=$PWD wt=$PWD root=$PWD state=$SC_TMP/ex-state run=$SC_TMP/ex-run
			export task=go object=x result=y PR_HEAD=speccoder/001-login RUNNER_TEMP=$SC_TMP
			mkdir -p "$state" "$run"
			st=0
			timeout 60 bash -c "${cmd//.../:}" </dev/null >"$SC_TMP/ex.out" 2>&1 || st=$?
			if [ "$st" -eq 127 ] || grep -q 'command not found' "$SC_TMP/ex.out"; then
				case "$cmd" in
				*claude-code-acp*|*npm\ *|*cargo\ *|*guard\ *) ;;
				*) printf '%s: not found: %s\n' "$src" "$(head -n 3 "$SC_TMP/ex.out")" >>"$SC_REJECTED" ;;
				esac
			fi
			true
		)
	done < <(perl "$SC_TOP/t/lib/doc-examples.pl" "$SC_TOP")
	# The extractor found the examples: a README and man pages without
	# any would pass for the wrong reason.
	[ "$examples" -ge 40 ] || fail "only $examples examples found"
	run cat "$SC_REJECTED"
	assert_output ''
}

@test "the check: a command line a tool rejects is reported" {
	export SC_REJECTED=$SC_TMP/rejected SC_EXAMPLE=check
	: >"$SC_REJECTED"
	PATH="$SC_TMP/shims:$PATH" sc-classify --no-such-option </dev/null 2>/dev/null || true
	PATH="$SC_TMP/shims:$PATH" git speccoder frob 2>/dev/null || true
	run cat "$SC_REJECTED"
	assert_line --partial 'check: sc-classify --no-such-option'
	assert_line --partial 'check: git-speccoder frob'
}
