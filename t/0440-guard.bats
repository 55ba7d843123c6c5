#!/usr/bin/env bats
# The guard as git speccoder run and sc-agent call it: sc-hash-git --output
# takes the manifest, sc-hash-git --check finds what a command changed.

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
	# The options the driver gives both calls (speccoder-run hg_opts).
	O=(-C "$R" --protect "$SC_TMP/protect" --status
		--exclude-ref 'refs/heads/speccoder/**' --exclude-ref refs/notes/speccoder)
	run sc-hash-git "${O[@]}" --output "$SC_TMP/m"
	assert_success
	assert_output ""
	[ -s "$SC_TMP/m" ]
}

# check: 0 clean, or 1 with the findings (records) in $SC_TMP/found.
check() {
	: >"$SC_TMP/empty"
	sc_run_io "$SC_TMP/empty" "$SC_TMP/found" sc-hash-git --check "$SC_TMP/m" "${O[@]}"
}

@test "check: clean is 0, a planted hook is 1 with the finding as a record" {
	check
	[ "$status" -eq 0 ]
	printf '#!/bin/sh\n' >"$R/.git/hooks/post-merge"
	check
	[ "$status" -eq 1 ]
	# Records only: rendering for a person is the driver's and the report's.
	[ -z "$stderr" ]
	run hg_findings "$SC_TMP/found"
	assert_output "GIT-CHANGED hook hooks/post-merge added"
}

@test "check: an edit of .git/config and of the spec are findings" {
	git -C "$R" config core.fsmonitor /tmp/x
	printf 'more\n' >>"$R/specs/spec.md"
	check
	[ "$status" -eq 1 ]
	run hg_findings "$SC_TMP/found"
	assert_line "GIT-CHANGED config config modified"
	assert_line "INTEGRITY - specs/spec.md modified"
}

@test "check: speccoder's own refs are not changes, any other ref is" {
	git -C "$R" branch speccoder/feat
	git -C "$R" notes --ref speccoder add -m note HEAD
	check
	[ "$status" -eq 0 ]
	git -C "$R" tag planted
	check
	[ "$status" -eq 1 ]
	run hg_findings "$SC_TMP/found"
	assert_output "GIT-CHANGED ref refs/tags/planted added"
}

@test "a broken manifest is never clean; a failed manifest leaves the old one whole" {
	cp "$SC_TMP/m" "$SC_TMP/m.good"
	printf 'garbage' >"$SC_TMP/bad"
	run sc-hash-git --check "$SC_TMP/bad" "${O[@]}"
	[ "$status" -eq 3 ]
	run sc-hash-git --check "$SC_TMP/missing" "${O[@]}"
	[ "$status" -eq 5 ]
	run sc-hash-git -C "$SC_TMP" --output "$SC_TMP/m"
	[ "$status" -eq 4 ]
	cmp "$SC_TMP/m" "$SC_TMP/m.good"
	run sc-hash-git -C "$SC_TMP" --output "$SC_TMP/m2"
	[ "$status" -eq 4 ]
	[ ! -e "$SC_TMP/m2" ]
	run sc-hash-git --check "$SC_TMP/m" --output "$SC_TMP/m3" "${O[@]}"
	[ "$status" -eq 2 ]
	# nothing left beside it
	run ls -A "$SC_TMP"
	refute_output --partial ".tmp"
}

@test "--output replaces a symlink planted at the manifest, never writes through it" {
	printf 'victim\n' >"$SC_TMP/victim"
	ln -sf "$SC_TMP/victim" "$SC_TMP/m"
	run sc-hash-git "${O[@]}" --output "$SC_TMP/m"
	assert_success
	[ ! -L "$SC_TMP/m" ]
	assert_equal "$(cat "$SC_TMP/victim")" victim
	assert_equal "$(stat -c %a "$SC_TMP/m")" 600
	check
	[ "$status" -eq 0 ]
}

@test "the guard runs nothing of a hostile repository, and catches its edits" {
	T="$SC_TMP/tools"
	hg_marker_tools "$T"
	H="$SC_TMP/hostile"
	hg_hostile_repo "$H" "$T"
	git -C "$H" status >/dev/null 2>&1 || : # control: git runs them
	[ -s "$T/marker" ]
	rm "$T/marker"
	run sc-hash-git -C "$H" --status --output "$SC_TMP/hm"
	assert_success
	"$SC_TOP/hooks-guard/sc-git" -C "$H" status >/dev/null
	run sc-hash-git --check "$SC_TMP/hm" -C "$H" --status
	assert_success
	git -C "$H" config alias.x '!true'
	run sc-hash-git --check "$SC_TMP/hm" -C "$H" --status
	[ "$status" -eq 1 ]
	[[ "$output" == *"config"*"modified"* ]]
	[ ! -e "$T/marker" ]
}

@test "the guard watches the policy's own list: every name a command could plant" {
	sc-classify --print-protected >"$SC_TMP/prot.rec"
	P=(-C "$R" --protect-records "$SC_TMP/prot.rec")
	run sc-hash-git "${P[@]}" --output "$SC_TMP/mp"
	assert_success
	# control: ordinary source, a secret and a manifest are not findings
	mkdir -p "$R/src"
	echo 'int x;' >"$R/src/x.c"
	echo 'K=v' >"$R/.env"
	echo '{}' >"$R/package.json"
	run sc-hash-git --check "$SC_TMP/mp" "${P[@]}"
	assert_success
	# each file the policy denies writing, planted by a command, in any case
	for f in GNUmakefile .vscode/tasks.json .gitattributes .envrc \
		.circleci/config.yml .pre-commit-config.yaml MAKEFILE \
		.Claude/settings.json CLAUDE.md sub/.github/workflows/x.yml \
		.cargo/config.toml .yarnrc web/.pnpmfile.cjs Speccoder.conf; do
		mkdir -p "$(dirname "$R/$f")"
		echo planted >"$R/$f"
		run sc-hash-git --check "$SC_TMP/mp" "${P[@]}"
		[ "$status" -eq 1 ] || { echo "not caught: $f" >&2; false; }
		[[ "$output" == *"$f"* ]]
		rm -f "$R/$f"
		run sc-hash-git --check "$SC_TMP/mp" "${P[@]}"
		assert_success
	done
}
