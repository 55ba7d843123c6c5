#!/usr/bin/env bats
# git speccoder pr: what would be pushed is shown, nothing is pushed without
# the person's yes on the terminal (or --yes), no hook of the repository
# runs, no credential in a remote URL is printed.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/porcelain
load lib/attest
load lib/branch

setup() {
	sc_common_setup
	sc_branch_repo
	sc-attest record --commit speccoder/login --predicate-type "$TEST_RESULT_TYPE" \
		--predicate "$SC_TMP/pred.json" --unsigned >/dev/null
	git init -q --bare "$SC_TMP/remote.git"
	git remote add origin "file://$SC_TMP/remote.git"
}

# pushed: the refs the remote holds, one a line.
pushed() {
	git -C "$SC_TMP/remote.git" for-each-ref --format='%(refname)'
}

# Without a controlling terminal: /dev/tty cannot be opened, so the test
# never waits on the terminal of whoever runs it.
pr_noterm() {
	setsid -w git speccoder pr "$@" </dev/null
}

# On a terminal of its own that answers ANSWER: pr_tty ANSWER ARGS...
pr_tty() {
	local answer=$1
	shift
	printf '%s\n' "$answer" | script -qec "git speccoder pr $*" /dev/null
}

@test "what would be pushed is shown: branch, new commits, notes ref" {
	run --separate-stderr pr_noterm login
	assert_equal "$status" 1
	assert_line --index 0 "To push to origin (file://$SC_TMP/remote.git):"
	assert_line --index 1 '  branch speccoder/login, 2 commit(s), a new branch on origin'
	assert_line --index 2 --regexp '^    [0-9a-f]{7} T001 the form$'
	assert_line --index 3 --regexp '^    [0-9a-f]{7} T002 the check$'
	assert_line --index 4 '  refs/notes/speccoder, the attestations of every commit (1 of these)'
}

@test "no terminal, --no-prompt, or a no: nothing is pushed" {
	run --separate-stderr pr_noterm login
	assert_equal "$status" 1
	[[ "$stderr" == *"error[NOT-CONFIRMED]"*"no terminal"* ]]
	run --separate-stderr git speccoder pr login --no-prompt
	assert_equal "$status" 1
	[[ "$stderr" == *"error[NOT-CONFIRMED]"* ]]
	local answer
	for answer in n '' no x 'y es'; do
		run pr_tty "$answer" login
		[ "$status" -eq 1 ] || fail "'$answer': status $status"
		[[ "$output" == *"Push these to origin? [y/N]"* ]] || fail "'$answer': $output"
		[[ "$output" == *"nothing pushed"* ]] || fail "'$answer': $output"
	done
	run pushed
	assert_output ''
}

@test "standard input is never taken for the person's answer" {
	run --separate-stderr bash -c 'yes | setsid -w git speccoder pr login'
	assert_equal "$status" 1
	run pushed
	assert_output ''
}

@test "a yes on the terminal pushes the branch and the notes" {
	run pr_tty y login
	assert_success
	assert_output --partial 'pushed speccoder/login and refs/notes/speccoder to origin'
	run pushed
	assert_output 'refs/heads/speccoder/login
refs/notes/speccoder'
	assert_equal "$(git -C "$SC_TMP/remote.git" rev-parse speccoder/login)" \
		"$(git rev-parse speccoder/login)"
}

@test "--yes pushes without asking; later only the new commits are shown" {
	run --separate-stderr pr_noterm login --yes
	assert_success
	assert_equal "$(git -C "$SC_TMP/remote.git" rev-parse refs/notes/speccoder)" \
		"$(git rev-parse refs/notes/speccoder)"
	git checkout -q speccoder/login
	echo 4 >f && git commit -qam "T003 more"
	# on the branch, the feature comes from its name
	run --separate-stderr pr_noterm --no-prompt --yes
	assert_success
	assert_line --index 1 '  branch speccoder/login, 1 commit(s), ahead of origin/speccoder/login'
	assert_line --index 2 --regexp '^    [0-9a-f]{7} T003 more$'
}

@test "no hook of the repository runs, however it is configured" {
	mkdir -p .git/hooks "$SC_TMP/myhooks"
	local h
	for h in .git/hooks/pre-push "$SC_TMP/myhooks/pre-push" .git/hooks/reference-transaction; do
		printf '#!/bin/sh\ntouch %s/hook-ran\nexit 1\n' "$SC_TMP" >"$h"
		chmod +x "$h"
	done
	run --separate-stderr pr_noterm login --yes
	assert_success
	[ ! -e "$SC_TMP/hook-ran" ]
	git config core.hooksPath "$SC_TMP/myhooks"
	git checkout -q speccoder/login && echo 5 >f && git commit -qam five --no-verify && git checkout -q main
	rm -f "$SC_TMP/hook-ran"
	run --separate-stderr pr_noterm login --yes
	assert_success
	[ ! -e "$SC_TMP/hook-ran" ]
}

@test "a remote URL's credentials are never printed, even when the push fails" {
	git remote set-url origin 'https://someone:s3cr3t-t0ken-value@127.0.0.1:9/x.git'
	run --separate-stderr pr_noterm login --yes
	assert_equal "$status" 4
	[[ "$stderr" == *"error[PUSH-FAILED]"* ]]
	[[ "$output$stderr" != *s3cr3t* ]] || fail "a credential was printed"
	[[ "$output$stderr" != *someone* ]] || fail "the user name was printed"
	assert_line --index 0 'To push to origin (https://127.0.0.1:9/x.git):'
}

@test "only a configured remote, an existing branch, a valid name" {
	run --separate-stderr pr_noterm login --yes --remote upstream
	assert_equal "$status" 1
	[[ "$stderr" == *"error[NO-REMOTE]"* ]]
	run --separate-stderr pr_noterm login --yes --remote "file://$SC_TMP/other.git"
	assert_equal "$status" 2
	run --separate-stderr pr_noterm nosuch --yes
	assert_equal "$status" 1
	[[ "$stderr" == *"error[NO-BRANCH]"* ]]
	run --separate-stderr pr_noterm ../main --yes
	assert_equal "$status" 2
	[[ "$stderr" == *"error[BAD-FEATURE]"* ]]
	git branch speccoder/other main
	run --separate-stderr pr_noterm --yes
	assert_equal "$status" 2
	[[ "$stderr" == *"there are 2 speccoder branches"* ]]
	run pushed
	assert_output ''
}
