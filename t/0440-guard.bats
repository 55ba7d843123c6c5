#!/usr/bin/env bats
# hooks-guard/guard: a manifest before the tick, a check after every command.

# shellcheck disable=SC2154,SC2030,SC2031 # bats run and sc_run_io set status, output, stderr
load lib/common
load lib/hashgit
bats_require_minimum_version 1.5.0

setup() {
	sc_common_setup
	hg_setup
	R="$SC_TMP/repo"
	hg_repo "$R"
	mkdir -p "$R/specs"
	printf 'spec\n' >"$R/specs/spec.md"
	printf 'specs/\n' >"$SC_TMP/protect"
	GU="$SC_TOP/hooks-guard/guard"
	O=(-C "$R" --protect "$SC_TMP/protect" --status)
	run "$GU" "${O[@]}" snapshot "$SC_TMP/m"
	assert_success
	[ -s "$SC_TMP/m" ]
}

@test "check: clean is 0, a planted hook is 1 with the finding" {
	run "$GU" "${O[@]}" check "$SC_TMP/m"
	assert_success
	printf '#!/bin/sh\n' >"$R/.git/hooks/post-merge"
	: >"$SC_TMP/empty"
	sc_run_io "$SC_TMP/empty" "$SC_TMP/found" "$GU" "${O[@]}" check "$SC_TMP/m"
	[ "$status" -eq 1 ]
	[[ "$stderr" == *"guard: GIT-CHANGED: hook hooks/post-merge added"* ]]
	run hg_findings "$SC_TMP/found"
	assert_output "GIT-CHANGED hook hooks/post-merge added"
}

@test "run: a command that edits .git/config is stopped with 125" {
	run --separate-stderr "$GU" "${O[@]}" run "$SC_TMP/m" -- \
		git -C "$R" config core.fsmonitor /tmp/x
	[ "$status" -eq 125 ]
	[[ "$stderr" == *"GIT-CHANGED: config config modified"* ]]
}

@test "run: a command that edits the spec is stopped with 125" {
	# shellcheck disable=SC2016 # $1 is the inner sh's
	run --separate-stderr "$GU" "${O[@]}" run "$SC_TMP/m" -- \
		sh -c 'echo more >>"$1"' sh "$R/specs/spec.md"
	[ "$status" -eq 125 ]
	[[ "$stderr" == *"INTEGRITY: protected specs/spec.md modified"* ]]
}

@test "run: a clean command keeps its own status; speccoder's refs are not changes" {
	run "$GU" "${O[@]}" run "$SC_TMP/m" -- git -C "$R" branch speccoder/feat
	assert_success
	run "$GU" "${O[@]}" run "$SC_TMP/m" -- sh -c 'exit 7'
	[ "$status" -eq 7 ]
}

@test "run: a change made before the command stops it before it runs" {
	git -C "$R" tag planted
	run --separate-stderr "$GU" "${O[@]}" run "$SC_TMP/m" -- touch "$SC_TMP/ran"
	[ "$status" -eq 125 ]
	[ ! -e "$SC_TMP/ran" ]
}

@test "a broken manifest is never clean" {
	printf 'garbage' >"$SC_TMP/m"
	run "$GU" "${O[@]}" check "$SC_TMP/m"
	[ "$status" -eq 3 ]
	run "$GU" "${O[@]}" run "$SC_TMP/m" -- true
	[ "$status" -eq 125 ]
	run "$GU" -C "$SC_TMP" snapshot "$SC_TMP/m2"
	[ "$status" -eq 4 ]
	[ ! -e "$SC_TMP/m2" ]
}

@test "the guard runs nothing of a hostile repository, and catches its edits" {
	T="$SC_TMP/tools"
	hg_marker_tools "$T"
	H="$SC_TMP/hostile"
	hg_hostile_repo "$H" "$T"
	git -C "$H" status >/dev/null 2>&1 || : # control: git runs them
	[ -s "$T/marker" ]
	rm "$T/marker"
	run "$GU" -C "$H" --status snapshot "$SC_TMP/hm"
	assert_success
	run "$GU" -C "$H" --status run "$SC_TMP/hm" -- \
		"$SC_TOP/hooks-guard/sc-git" -C "$H" status
	assert_success
	run --separate-stderr "$GU" -C "$H" --status run "$SC_TMP/hm" -- \
		git -C "$H" config alias.x '!true'
	[ "$status" -eq 125 ]
	[[ "$stderr" == *"GIT-CHANGED: config config modified"* ]]
	[ ! -e "$T/marker" ]
}

@test "the guard watches the policy's own list: every name a command could plant" {
	sc-classify --print-protected >"$SC_TMP/prot.rec"
	P=(-C "$R" --protect-records "$SC_TMP/prot.rec")
	run "$GU" "${P[@]}" snapshot "$SC_TMP/mp"
	assert_success
	# control: ordinary source, a secret and a manifest are not findings
	mkdir -p "$R/src"
	echo 'int x;' >"$R/src/x.c"
	echo 'K=v' >"$R/.env"
	echo '{}' >"$R/package.json"
	run "$GU" "${P[@]}" check "$SC_TMP/mp"
	assert_success
	# each file the policy denies writing, planted by a command, in any case
	for f in GNUmakefile .vscode/tasks.json .gitattributes .envrc \
		.circleci/config.yml .pre-commit-config.yaml MAKEFILE \
		.Claude/settings.json CLAUDE.md sub/.github/workflows/x.yml \
		.cargo/config.toml .yarnrc web/.pnpmfile.cjs Speccoder.conf; do
		mkdir -p "$(dirname "$R/$f")"
		echo planted >"$R/$f"
		run "$GU" "${P[@]}" check "$SC_TMP/mp"
		[ "$status" -eq 1 ] || { echo "not caught: $f" >&2; false; }
		[[ "$output" == *"$f"* ]]
		rm -f "$R/$f"
		run "$GU" "${P[@]}" check "$SC_TMP/mp"
		assert_success
	done
}
