#!/usr/bin/env bats
# Every shell script of the project is shellcheck clean.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/scripts

@test "the script list finds the scripts" {
	run sc_list_scripts "$SC_TOP"
	assert_success
	assert_line --partial "/.ci/run"
	assert_line --partial "/t/lib/run-test"
	assert_line --partial "/t/0003-shellcheck.bats"
	# contrib/ too: the GitHub actions' scripts run on runners.
	assert_line --partial "/contrib/github-action/verify.sh"
	assert_line --partial "/contrib/github-action/run/attempt.sh"
	assert_line --partial "/contrib/github-action/run/userns.sh"
}

@test "shellcheck reports nothing on any script" {
	local -a scripts
	mapfile -t scripts < <(sc_list_scripts "$SC_TOP")
	[ "${#scripts[@]}" -gt 5 ]
	run shellcheck -x "${scripts[@]}"
	assert_success
	assert_output ""
}
