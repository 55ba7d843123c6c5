#!/usr/bin/env bats
# contrib/github-action/verify.sh against local repositories standing in for
# the base repository and a fork: trust comes from the base commit.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/attest

setup() {
	sc_common_setup
	attest_key trusted ed25519
	attest_key attacker ecdsa
	attest_repo "$SC_TMP/upstream" 1
	mkdir -p "$SC_TMP/upstream/.speccoder"
	attest_allow "$SC_TMP/upstream/.speccoder/allowed_signers" ci@example.com trusted
	git -C "$SC_TMP/upstream" add .speccoder
	git -C "$SC_TMP/upstream" commit -q -m trust
	BASE_SHA=$(git -C "$SC_TMP/upstream" rev-parse HEAD)
	git clone -q "$SC_TMP/upstream" "$SC_TMP/fork"
	git clone -q "$SC_TMP/upstream" "$SC_TMP/checkout"
	export BASE_SHA HEAD_REPO="$SC_TMP/fork" RUNNER_TEMP="$SC_TMP/runner"
	export GITHUB_STEP_SUMMARY="$SC_TMP/summary" SIGNERS_PATH=.speccoder/allowed_signers
	mkdir -p "$RUNNER_TEMP"
}

pr_commit() {
	printf '%s\n' "$1" >>"$SC_TMP/fork/file"
	git -C "$SC_TMP/fork" commit -q -a -m "$1"
}

run_action() {
	HEAD_SHA=$(git -C "$SC_TMP/fork" rev-parse HEAD)
	export HEAD_SHA
	cd "$SC_TMP/checkout" || return 1
	sc_run_io /dev/null "$SC_TMP/action.out" \
		"$SC_TOP/contrib/github-action/verify.sh"
	cd "$SC_TOP" || return 1
}

@test "a pull request signed by a key the base trusts passes" {
	pr_commit one
	attest_record "$SC_TMP/fork" HEAD trusted
	pr_commit two
	attest_record "$SC_TMP/fork" HEAD trusted
	run_action
	assert_success
	run cat "$GITHUB_STEP_SUMMARY"
	assert_output --partial 'Conclusion: **success**'
	assert_output --partial '| ok | ci@example.com |'
}

@test "a pull request that adds its own key to the trust file fails" {
	attest_allow "$SC_TMP/fork/.speccoder/allowed_signers" ci@example.com attacker
	git -C "$SC_TMP/fork" commit -q -a -m 'trust me'
	attest_record "$SC_TMP/fork" HEAD attacker
	run_action
	assert_failure 1
	[[ "$stderr" == *"untrusted-signer key not in the allowed signers file"* ]]
	run cat "$GITHUB_STEP_SUMMARY"
	assert_output --partial 'Conclusion: **failure**'
}

@test "a pull request without notes fails with missing" {
	pr_commit one
	run_action
	assert_failure 1
	[[ "$stderr" == *"no refs/notes/speccoder"* ]]
	[[ "$stderr" == *": missing no note"* ]]
}
