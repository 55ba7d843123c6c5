#!/usr/bin/env bats
# hooks-guard/sc-git: git without the repository's hooks, fsmonitor,
# filters, pagers, aliases or helpers, and without the caller's environment.

# shellcheck disable=SC2154,SC2030,SC2031 # bats run and sc_run_io set status, output, stderr
load lib/common
load lib/hashgit
bats_require_minimum_version 1.5.0

setup() {
	sc_common_setup
	hg_setup
	T="$SC_TMP/tools"
	hg_marker_tools "$T"
	R="$SC_TMP/repo"
	hg_hostile_repo "$R" "$T"
	G="$SC_TOP/hooks-guard/sc-git"
}

@test "control: git without sc-git runs the repository's programs; sc-git does not" {
	git -C "$R" add README >/dev/null 2>&1 || :
	[ -s "$T/marker" ]
	rm "$T/marker"
	# hooks alone (the hostile repository's filters make git commit die
	# before its hooks)
	hg_repo "$SC_TMP/hooked"
	git -C "$SC_TMP/hooked" config core.hooksPath "$T/evilhooks"
	git -C "$SC_TMP/hooked" commit -q --allow-empty -m x
	grep -q "hook: pre-commit" "$T/marker"
	rm "$T/marker"
	run "$G" -C "$SC_TMP/hooked" commit -q --allow-empty -m y
	assert_success
	[ ! -e "$T/marker" ]
}

@test "status, add, commit, checkout, log, show, diff and an alias run nothing" {
	for c in status "add README" "commit -q -m tick" "checkout -q -b other" \
		"log -1 -p" "show HEAD:README" diff st "rev-parse HEAD"; do
		# shellcheck disable=SC2086
		"$G" -C "$R" $c >/dev/null 2>&1 || :
	done
	[ ! -e "$T/marker" ]
	# the commit did happen, without the hooks
	run git -C "$R" log -1 --format=%s
	assert_output tick
	# diff.external and the alias were neutralised, so those two fail
	run "$G" -C "$R" st
	assert_failure
	refute_output --partial ran:
}

@test "git options that could undo the hardening are refused" {
	for opt in -c --exec-path=/tmp --git-dir=/tmp -p --paginate \
		--config-env=core.pager=X --work-tree=/tmp; do
		run --separate-stderr "$G" "$opt" status
		[ "$status" -eq 125 ]
		[[ "$stderr" == *"error[USAGE]"* ]]
	done
	run "$G"
	[ "$status" -eq 125 ]
}

@test "the caller's GIT_* and pager variables do not reach git" {
	hg_repo "$SC_TMP/other"
	run env GIT_DIR="$SC_TMP/other/.git" GIT_CONFIG_PARAMETERS="'core.pager=$T/bin/mark'" \
		GIT_EXTERNAL_DIFF="$T/bin/mark" GIT_PAGER="$T/bin/mark" LANG=de_DE.UTF-8 \
		"$G" -C "$R" rev-parse --absolute-git-dir
	assert_success
	assert_output "$R/.git"
	run "$G" -C "$R" --print status
	assert_success
	assert_line "env LC_ALL=C"
	assert_line "env GIT_CONFIG_NOSYSTEM=1"
	assert_line "env GIT_CONFIG_GLOBAL=/dev/null"
	assert_line "env GIT_TERMINAL_PROMPT=0"
	assert_line "argv --no-optional-locks"
	assert_line "argv --no-pager"
	assert_line "argv core.fsmonitor=false"
	assert_line "argv core.hooksPath=$SC_TOP/hooks-guard/hooks"
	assert_line "env GIT_CONFIG_KEY_0=core.sshcommand"
	refute_line --regexp '^env GIT_(DIR|CONFIG_PARAMETERS|EXTERNAL_DIFF|PAGER=/)'
	refute_line --regexp '^env LANG='
	# a key of the fixed list is never overridden again through the env
	refute_line --regexp '^env GIT_CONFIG_KEY_[0-9]+=core\.hookspath$'
	[ ! -e "$T/marker" ]
}

@test "the global and system configuration are not read" {
	printf '[core]\n\tpager = %s\n[alias]\n\tgst = !%s\n' "$T/bin/mark" "$T/bin/mark" \
		>"$HOME/.gitconfig"
	git -C "$R" gst >/dev/null 2>&1 || : # control
	grep -q ran: "$T/marker"
	rm "$T/marker"
	run "$G" -C "$R" gst
	assert_failure
	[ ! -e "$T/marker" ]
}

@test "a key only the policy's table names is neutralised too (tar.FORMAT.command)" {
	hg_repo "$SC_TMP/plain"
	git -C "$SC_TMP/plain" config tar.evil.command "$T/bin/mark"
	# control: git archive runs the configured command (which reads none
	# of the archive, so git may die of SIGPIPE: the marker is the proof)
	git -C "$SC_TMP/plain" archive --format=evil HEAD >/dev/null || :
	grep -q ran: "$T/marker"
	rm "$T/marker"
	run "$G" -C "$SC_TMP/plain" archive --format=evil HEAD
	[ ! -e "$T/marker" ]
	# sc-git asked the policy which keys to override
	run "$G" --print -C "$SC_TMP/plain" status
	assert_success
	assert_output --partial "GIT_CONFIG_KEY_0=tar.evil.command"
}

@test "without sc-classify, which names the keys, sc-git refuses" {
	mkdir -p "$SC_TMP/copy/hooks" "$SC_TMP/nobin"
	cp "$G" "$SC_TMP/copy/sc-git"
	cp "$SC_TOP/hooks-guard/hooks/README" "$SC_TMP/copy/hooks/"
	for t in git env mktemp rm readlink dirname; do
		ln -s "$(command -v "$t")" "$SC_TMP/nobin/$t"
	done
	PATH="$SC_TMP/nobin" run --separate-stderr "$SC_TMP/copy/sc-git" -C "$R" status
	[ "$status" -eq 125 ]
	[[ "$stderr" == *"error[TOOL-MISSING]"* ]]
	[ ! -e "$T/marker" ]
	# control: with sc-classify on PATH the same copy runs git
	ln -s "$SC_TOP/build/bin/sc-classify" "$SC_TMP/nobin/sc-classify"
	PATH="$SC_TMP/nobin" run "$SC_TMP/copy/sc-git" -C "$R" rev-parse HEAD
	assert_success
}

@test "the hooks directory must stay empty" {
	mkdir -p "$SC_TMP/copy/hooks"
	cp "$G" "$SC_TMP/copy/sc-git"
	cp "$SC_TOP/hooks-guard/hooks/README" "$SC_TMP/copy/hooks/"
	run "$SC_TMP/copy/sc-git" -C "$R" rev-parse HEAD
	assert_success
	printf '#!/bin/sh\necho planted >>"%s/marker"\n' "$T" >"$SC_TMP/copy/hooks/pre-commit"
	chmod +x "$SC_TMP/copy/hooks/pre-commit"
	run --separate-stderr "$SC_TMP/copy/sc-git" -C "$R" commit -q --allow-empty -m x
	[ "$status" -eq 125 ]
	[[ "$stderr" == *"error[HOOKS-DIR-UNSAFE]"*"pre-commit"* ]]
	rm "$SC_TMP/copy/hooks/pre-commit"
	chmod +x "$SC_TMP/copy/hooks/README"
	run --separate-stderr "$SC_TMP/copy/sc-git" -C "$R" status
	[ "$status" -eq 125 ]
	[ ! -e "$T/marker" ]
	# the README in the tree is not executable
	[ ! -x "$SC_TOP/hooks-guard/hooks/README" ]
}

@test "--help repeats the man page SYNOPSIS" {
	run "$G" --help
	assert_success
	want=$(sed -n '/^# SYNOPSIS/,/^# DESCRIPTION/p' "$SC_TOP/Documentation/sc-git.1.scd" |
		grep '^\*sc-git\*' | tr -d '*_')
	got=$(printf '%s\n' "$output" | grep -E '^(usage|   or): ' | cut -c8-)
	[ -n "$want" ]
	[ "$got" = "$want" ]
}
