#!/usr/bin/env bats
# sc-hash-git: what the manifest covers, in a stable order.

# shellcheck disable=SC2154,SC2030,SC2031 # bats run and sc_run_io set status, output, stderr
load lib/common
load lib/hashgit
bats_require_minimum_version 1.5.0

setup() {
	sc_common_setup
	hg_setup
	R="$SC_TMP/repo"
	hg_repo "$R"
	: >"$SC_TMP/empty"
}

@test "--help repeats the man page SYNOPSIS" {
	run sc-hash-git --help
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	want=$(sed -n '/^# SYNOPSIS/,/^# DESCRIPTION/p' \
		"$SC_TOP/Documentation/sc-hash-git.1.scd" |
		grep '^\*sc-hash-git\*' | tr -d '*_')
	got=$(printf '%s\n' "$output" | grep -E '^(usage|   or): ' | cut -c8-)
	[ -n "$want" ]
	[ "$got" = "$want" ]
}

@test "the manifest covers config, hooks, info, HEAD, branches and tags" {
	sc_run_io "$SC_TMP/empty" "$SC_TMP/m" sc-hash-git -C "$R"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	run hg_jq "$SC_TMP/m" 'select(.type=="item") | "\(.kind) \(.path // .ref) \(.mode // "-")"'
	assert_line "config config file"
	assert_line "hook hooks/pre-commit exec"
	assert_line "hook hooks/update.sample exec"
	assert_line "info info/exclude file"
	assert_line "head HEAD -"
	assert_line "ref refs/heads/main -"
	assert_line "ref refs/tags/v1 -"
	run hg_jq "$SC_TMP/m" 'select(.kind=="head") | .target'
	assert_output refs/heads/main
	run hg_jq "$SC_TMP/m" 'select(.path=="config") | .sha256'
	assert_output "$(sha256sum <"$R/.git/config" | cut -d' ' -f1)"
	run hg_jq "$SC_TMP/m" 'select(.type!="item") | "\(.type) \(.version // .items)"'
	assert_line --index 0 "manifest 1"
	assert_line --index 1 "end 19"
}

@test "two runs give the same bytes" {
	sc_run_io "$SC_TMP/empty" "$SC_TMP/m1" sc-hash-git -C "$R" --status
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	sc_run_io "$SC_TMP/empty" "$SC_TMP/m2" sc-hash-git -C "$R" --status
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	cmp "$SC_TMP/m1" "$SC_TMP/m2"
}

@test "a symlink in hooks/ is recorded with its target, never followed" {
	printf 'secret\n' >"$SC_TMP/outside"
	ln -s "$SC_TMP/outside" "$R/.git/hooks/post-checkout"
	mkfifo "$R/.git/hooks/pre-push"
	sc_run_io "$SC_TMP/empty" "$SC_TMP/m" sc-hash-git -C "$R"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	run hg_jq "$SC_TMP/m" 'select(.path=="hooks/post-checkout") | "\(.mode) \(.target) \(.sha256)"'
	assert_output "symlink $SC_TMP/outside $(printf '%s' "$SC_TMP/outside" | sha256sum | cut -d' ' -f1)"
	# the fifo is listed but never opened (opening it would block)
	run hg_jq "$SC_TMP/m" 'select(.path=="hooks/pre-push") | "\(.mode) \(.sha256)"'
	assert_output "other null"
}

@test "packed and loose refs both appear with their oids" {
	git -C "$R" branch packed
	git -C "$R" pack-refs --all
	git -C "$R" branch loose
	[ -f "$R/.git/refs/heads/loose" ]
	[ ! -f "$R/.git/refs/heads/packed" ]
	sc_run_io "$SC_TMP/empty" "$SC_TMP/m" sc-hash-git -C "$R"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	oid=$(git -C "$R" rev-parse HEAD)
	run hg_jq "$SC_TMP/m" 'select(.kind=="ref") | "\(.ref) \(.oid)"'
	assert_line "refs/heads/packed $oid"
	assert_line "refs/heads/loose $oid"
}

@test "--exclude-ref leaves speccoder's own refs out" {
	git -C "$R" branch speccoder/feat
	git -C "$R" branch speccoder/deep/er
	git -C "$R" notes --ref=speccoder add -m note HEAD
	sc_run_io "$SC_TMP/empty" "$SC_TMP/m" sc-hash-git -C "$R" \
		--exclude-ref 'refs/heads/speccoder/**' --exclude-ref refs/notes/speccoder
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	run hg_jq "$SC_TMP/m" 'select(.kind=="ref") | .ref'
	assert_output "refs/heads/main
refs/tags/v1"
	# '*' stays within one component
	sc_run_io "$SC_TMP/empty" "$SC_TMP/m" sc-hash-git -C "$R" \
		--exclude-ref 'refs/heads/speccoder/*'
	run hg_jq "$SC_TMP/m" 'select(.kind=="ref") | .ref'
	assert_line refs/heads/speccoder/deep/er
	refute_line refs/heads/speccoder/feat
}

@test "a linked worktree: the common config, hooks and refs, its own HEAD" {
	git -C "$R" worktree add -q -b side "$SC_TMP/wt"
	sc_run_io "$SC_TMP/empty" "$SC_TMP/m" sc-hash-git -C "$SC_TMP/wt"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	run hg_jq "$SC_TMP/m" 'select(.type=="item") | "\(.kind) \(.path // .ref) \(.target // "-")"'
	assert_line "config config -"
	assert_line "config commondir -"
	assert_line "hook hooks/pre-commit -"
	assert_line "head HEAD refs/heads/side"
	assert_line "ref refs/heads/main -"
	assert_line "ref refs/heads/side -"
}

@test "--protect selects files by gitignore patterns, ignored ones included" {
	mkdir -p "$R/specs/001" "$R/src" "$R/.claude"
	printf 'spec\n' >"$R/specs/001/spec.md"
	printf 'plan\n' >"$R/specs/001/plan.md"
	printf 'x\n' >"$R/src/main.c"
	printf '{}\n' >"$R/.claude/settings.json"
	printf 'k\n' >"$R/src/speccoder.conf"
	printf '.claude/\n' >"$R/.gitignore"
	printf '# protected inputs\nspecs/**/*.md\n!specs/001/plan.md\n.claude/\nspeccoder.conf\n' \
		>"$SC_TMP/protect"
	sc_run_io "$SC_TMP/empty" "$SC_TMP/m" sc-hash-git -C "$R" --protect "$SC_TMP/protect"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	run hg_jq "$SC_TMP/m" 'select(.kind=="protected") | "\(.path) \(.sha256)"'
	assert_output ".claude/settings.json $(sha256sum <"$R/.claude/settings.json" | cut -d' ' -f1)
specs/001/spec.md $(sha256sum <"$R/specs/001/spec.md" | cut -d' ' -f1)
src/speccoder.conf $(sha256sum <"$R/src/speccoder.conf" | cut -d' ' -f1)"
}

@test "--status says clean or not" {
	sc_run_io "$SC_TMP/empty" "$SC_TMP/m" sc-hash-git -C "$R" --status
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	run hg_jq "$SC_TMP/m" 'select(.kind=="status") | .clean'
	assert_output yes
	printf 'more\n' >>"$R/README"
	sc_run_io "$SC_TMP/empty" "$SC_TMP/m" sc-hash-git -C "$R" --status
	run hg_jq "$SC_TMP/m" 'select(.kind=="status") | .clean'
	assert_output no
}

@test "bad command lines and inputs get their codes" {
	run sc-hash-git extra
	assert_failure 2
	run sc-hash-git --exclude-ref 'refs/[abc'
	assert_failure 2
	printf 'specs/[oops\n' >"$SC_TMP/protect"
	run --separate-stderr sc-hash-git -C "$R" --protect "$SC_TMP/protect"
	assert_failure 3
	[[ "$stderr" == *"error[BAD-PATTERN]"*"line 1"* ]]
	[ -z "$output" ]
	run --separate-stderr sc-hash-git -C "$R" --protect "$SC_TMP/nonexistent"
	assert_failure 5
	[[ "$stderr" == *"error[READ-FAILED]"* ]]
	mkdir "$SC_TMP/plain"
	run --separate-stderr sc-hash-git -C "$SC_TMP/plain"
	assert_failure 4
	[[ "$stderr" == *"error[NOT-A-REPOSITORY]"* ]]
	[ -z "$output" ]
}

@test "--protect-tree takes the protected files from a commit, not the worktree" {
	mkdir -p "$R/specs/001"
	printf 'spec\n' >"$R/specs/001/spec.md"
	ln -s spec.md "$R/specs/001/link.md"
	git -C "$R" add specs
	git -C "$R" -c user.name=t -c user.email=t@t commit -q -m specs
	printf 'specs/\n' >"$SC_TMP/protect"
	# Clean: the commit and the worktree give the same items.
	sc_run_io "$SC_TMP/empty" "$SC_TMP/w" sc-hash-git -C "$R" --protect "$SC_TMP/protect"
	sc_run_io "$SC_TMP/empty" "$SC_TMP/t" sc-hash-git -C "$R" --protect "$SC_TMP/protect" \
		--protect-tree HEAD
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	cmp "$SC_TMP/w" "$SC_TMP/t"
	# A poisoned worktree: the tree's manifest is the commit's, and a check
	# against it names every change.
	printf 'poisoned\n' >"$R/specs/001/spec.md"
	printf 'new\n' >"$R/specs/001/plan.md"
	sc_run_io "$SC_TMP/empty" "$SC_TMP/t2" sc-hash-git -C "$R" --protect "$SC_TMP/protect" \
		--protect-tree HEAD
	cmp "$SC_TMP/t" "$SC_TMP/t2"
	sc_run_io "$SC_TMP/t2" "$SC_TMP/f" sc-hash-git -C "$R" --protect "$SC_TMP/protect" --check -
	[ "$status" -eq 1 ]
	run hg_jq "$SC_TMP/f" 'select(.type=="finding") | "\(.path) \(.change)"'
	assert_output "specs/001/plan.md added
specs/001/spec.md modified"
	sc_run_io "$SC_TMP/empty" "$SC_TMP/x" sc-hash-git -C "$R" --protect "$SC_TMP/protect" \
		--protect-tree nosuchrev
	[ "$status" -eq 5 ]
	[[ "$stderr" == *"error[BAD-REVISION]"* ]]
	sc_run_io "$SC_TMP/empty" "$SC_TMP/x" sc-hash-git -C "$R" --check "$SC_TMP/t" \
		--protect-tree HEAD
	[ "$status" -eq 2 ]
}
