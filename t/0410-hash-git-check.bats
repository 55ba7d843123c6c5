#!/usr/bin/env bats
# sc-hash-git --check: every kind of change is found, with the right change=.

# shellcheck disable=SC2154,SC2030,SC2031 # bats run and sc_run_io set status, output, stderr
load lib/common
load lib/hashgit
bats_require_minimum_version 1.5.0

setup() {
	sc_common_setup
	hg_setup
	R="$SC_TMP/repo"
	hg_repo "$R"
	mkdir -p "$R/specs/001"
	printf 'spec\n' >"$R/specs/001/spec.md"
	printf 'tasks\n' >"$R/specs/001/tasks.md"
	printf 'specs/001/tasks.md\n' >"$R/.git/info/exclude" # ignored, still protected
	printf 'specs/**/*.md\n' >"$SC_TMP/protect"
	OPTS=(-C "$R" --protect "$SC_TMP/protect" --status
		--exclude-ref 'refs/heads/speccoder/**' --exclude-ref refs/notes/speccoder)
	: >"$SC_TMP/empty"
	sc_run_io "$SC_TMP/empty" "$SC_TMP/before" sc-hash-git "${OPTS[@]}"
	[ "$status" -eq 0 ]
}

# check_finds "LINE"...: --check exits 1 and writes exactly these findings.
check_finds() {
	sc_run_io "$SC_TMP/empty" "$SC_TMP/found" sc-hash-git --check "$SC_TMP/before" "${OPTS[@]}"
	[ "$status" -eq 1 ] || { echo "status $status: $stderr"; return 1; }
	run hg_findings "$SC_TMP/found"
	assert_output "$(printf '%s\n' "$@")"
}

@test "no change: exit 0 and no finding" {
	sc_run_io "$SC_TMP/empty" "$SC_TMP/found" sc-hash-git --check "$SC_TMP/before" "${OPTS[@]}"
	[ "$status" -eq 0 ]
	[ ! -s "$SC_TMP/found" ]
}

@test "config edited" {
	git -C "$R" config core.fsmonitor /tmp/x
	check_finds "GIT-CHANGED config config modified"
}

@test "hook added" {
	printf '#!/bin/sh\n' >"$R/.git/hooks/post-checkout"
	chmod +x "$R/.git/hooks/post-checkout"
	check_finds "GIT-CHANGED hook hooks/post-checkout added"
}

@test "hook made executable" {
	chmod +x "$R/.git/hooks/pre-push.sample"
	chmod -x "$R/.git/hooks/pre-push.sample"
	sc_run_io "$SC_TMP/empty" "$SC_TMP/before" sc-hash-git "${OPTS[@]}"
	chmod +x "$R/.git/hooks/pre-push.sample"
	check_finds "GIT-CHANGED hook hooks/pre-push.sample modified"
}

@test "hook removed, hook replaced by a symlink" {
	rm "$R/.git/hooks/update.sample"
	ln -sf /bin/true "$R/.git/hooks/pre-commit"
	check_finds "GIT-CHANGED hook hooks/pre-commit modified" \
		"GIT-CHANGED hook hooks/update.sample removed"
}

@test "info/exclude edited, info/attributes added" {
	printf 'x\n' >>"$R/.git/info/exclude"
	printf '* filter=evil\n' >"$R/.git/info/attributes"
	check_finds "GIT-CHANGED info info/attributes added" \
		"GIT-CHANGED info info/exclude modified"
}

@test "branch moved (loose)" {
	git -C "$R" commit -q --allow-empty -m two
	# the commit moved main, hence HEAD's oid, and nothing in the index
	check_finds "GIT-CHANGED head HEAD modified" "GIT-CHANGED ref refs/heads/main modified"
}

@test "branch moved (packed) and branch deleted" {
	git -C "$R" branch other
	git -C "$R" pack-refs --all
	sc_run_io "$SC_TMP/empty" "$SC_TMP/before" sc-hash-git "${OPTS[@]}"
	[ ! -f "$R/.git/refs/heads/other" ]
	git -C "$R" update-ref refs/heads/other "$(git -C "$R" commit-tree -m x 'HEAD^{tree}')"
	git -C "$R" pack-refs --all
	git -C "$R" tag -d v1 >/dev/null
	check_finds "GIT-CHANGED ref refs/heads/other modified" \
		"GIT-CHANGED ref refs/tags/v1 removed"
}

@test "tag added" {
	git -C "$R" tag v2
	check_finds "GIT-CHANGED ref refs/tags/v2 added"
}

@test "replace ref added" {
	git -C "$R" replace HEAD "$(git -C "$R" commit-tree -m fake 'HEAD^{tree}')"
	check_finds "GIT-CHANGED ref refs/replace/$(git -C "$R" rev-parse HEAD) added"
}

@test "HEAD moved to another branch" {
	git -C "$R" branch other
	git -C "$R" symbolic-ref HEAD refs/heads/other
	check_finds "GIT-CHANGED head HEAD modified" "GIT-CHANGED ref refs/heads/other added"
}

@test "HEAD detached at the same commit is still a change" {
	git -C "$R" checkout -q --detach
	check_finds "GIT-CHANGED head HEAD modified"
}

@test "ignored protected file edited" {
	git -C "$R" check-ignore -q specs/001/tasks.md
	printf '[x] done\n' >>"$R/specs/001/tasks.md"
	check_finds "INTEGRITY - specs/001/tasks.md modified"
}

@test "protected file deleted, protected file added" {
	rm "$R/specs/001/spec.md"
	printf 'new\n' >"$R/specs/001/plan.md"
	check_finds "INTEGRITY - specs/001/plan.md added" \
		"INTEGRITY - specs/001/spec.md removed"
}

@test "tracked file edited, then edited again: the status changes both times" {
	printf 'one\n' >>"$R/README"
	check_finds "GIT-CHANGED status status modified"
	cp "$SC_TMP/found" "$SC_TMP/ignored"
	sc_run_io "$SC_TMP/empty" "$SC_TMP/before" sc-hash-git "${OPTS[@]}"
	printf 'two\n' >>"$R/README"
	check_finds "GIT-CHANGED status status modified"
}

@test "file staged" {
	printf 'one\n' >>"$R/README"
	sc_run_io "$SC_TMP/empty" "$SC_TMP/before" sc-hash-git "${OPTS[@]}"
	git -C "$R" add README
	check_finds "GIT-CHANGED status status modified"
}

@test "speccoder's own branch and notes are not findings" {
	git -C "$R" branch speccoder/feat
	git -C "$R" notes --ref=speccoder add -m attestation HEAD
	sc_run_io "$SC_TMP/empty" "$SC_TMP/found" sc-hash-git --check "$SC_TMP/before" "${OPTS[@]}"
	[ "$status" -eq 0 ]
	[ ! -s "$SC_TMP/found" ]
	# other notes are not branches or tags either; but a branch next to
	# speccoder's is
	git -C "$R" branch speccoderx
	check_finds "GIT-CHANGED ref refs/heads/speccoderx added"
}

@test "--check - reads the manifest from stdin" {
	git -C "$R" tag v3
	sc_run_io "$SC_TMP/before" "$SC_TMP/found" sc-hash-git --check - "${OPTS[@]}"
	[ "$status" -eq 1 ]
	run hg_findings "$SC_TMP/found"
	assert_output "GIT-CHANGED ref refs/tags/v3 added"
}

@test "a malformed or truncated manifest is exit 3, never 'no change'" {
	head -c 100 "$SC_TMP/before" >"$SC_TMP/cut"
	sc_run_io "$SC_TMP/empty" "$SC_TMP/found" sc-hash-git --check "$SC_TMP/cut" "${OPTS[@]}"
	[ "$status" -eq 3 ]
	[[ "$stderr" == *"error[MALFORMED-RECORD]"* ]]
	# cut at a record boundary: the end record and its count are missing
	sc-rec --to-json <"$SC_TMP/before" | head -n 5 | sc-rec --from-json >"$SC_TMP/cut"
	sc_run_io "$SC_TMP/empty" "$SC_TMP/found" sc-hash-git --check "$SC_TMP/cut" "${OPTS[@]}"
	[ "$status" -eq 3 ]
	[[ "$stderr" == *"error[MALFORMED-MANIFEST]"*"truncated"* ]]
	[ ! -s "$SC_TMP/found" ]
	# an item removed but the end record kept
	sc-rec --to-json <"$SC_TMP/before" | sed 3d | sc-rec --from-json >"$SC_TMP/cut"
	sc_run_io "$SC_TMP/empty" "$SC_TMP/found" sc-hash-git --check "$SC_TMP/cut" "${OPTS[@]}"
	[ "$status" -eq 3 ]
	[[ "$stderr" == *"error[MALFORMED-MANIFEST]"*"count"* ]]
	# empty input is not an empty manifest
	sc_run_io "$SC_TMP/empty" "$SC_TMP/found" sc-hash-git --check - "${OPTS[@]}"
	[ "$status" -eq 3 ]
	# a manifest that cannot be opened
	sc_run_io "$SC_TMP/empty" "$SC_TMP/found" sc-hash-git --check "$SC_TMP/none" "${OPTS[@]}"
	[ "$status" -eq 5 ]
	[[ "$stderr" == *"error[READ-FAILED]"* ]]
}

@test "an unreadable item is exit 5, never 'no change'" {
	command -v setpriv >/dev/null || skip "setpriv(1) is missing"
	if [ "$(id -u)" -eq 0 ]; then
		# root reads mode-000 files: drop every capability for the run
		drop=(setpriv --bounding-set=-all --inh-caps=-all)
	else
		drop=()
	fi
	chmod 000 "$R/specs/001/spec.md"
	sc_run_io "$SC_TMP/empty" "$SC_TMP/found" "${drop[@]}" \
		sc-hash-git --check "$SC_TMP/before" "${OPTS[@]}"
	[ "$status" -eq 5 ]
	[[ "$stderr" == *"error[READ-FAILED]"*"specs/001/spec.md"* ]]
	[ ! -s "$SC_TMP/found" ]
	chmod 644 "$R/specs/001/spec.md"
	chmod 000 "$R/.git/hooks/pre-commit"
	sc_run_io "$SC_TMP/empty" "$SC_TMP/found" "${drop[@]}" \
		sc-hash-git --check "$SC_TMP/before" "${OPTS[@]}"
	[ "$status" -eq 5 ]
	[[ "$stderr" == *"error[READ-FAILED]"*"hooks/pre-commit"* ]]
}
