#!/usr/bin/env bats
# Under GitHub Actions, verify refuses a checkout of the pull request's own
# code in a job that holds the base repository's secrets
# (pull_request_target, or a workflow_run started by a pull request).

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/attest

setup() {
	sc_common_setup
	attest_repo "$SC_TMP/repo" 2
	R="$SC_TMP/repo"
	BASE=$(git -C "$R" rev-parse HEAD~1)
	HEAD=$(git -C "$R" rev-parse HEAD)
	attest_key k ed25519
	attest_allow "$SC_TMP/allowed" ci@example.com k
	attest_record "$R" HEAD k
	export GITHUB_ACTIONS=true GITHUB_EVENT_PATH="$SC_TMP/event.json"
}

gh_verify() {
	GITHUB_EVENT_NAME="$1" attest_verify -C "$R" --branch "$HEAD" \
		--base "$BASE" --allowed-signers "$SC_TMP/allowed"
}

prt_event() {
	printf '{"pull_request":{"head":{"sha":"%s"},"base":{"sha":"%s"},"merge_commit_sha":"%s"}}\n' \
		"$1" "$BASE" "$2" >"$SC_TMP/event.json"
}

@test "pull_request_target with the PR head checked out: UNSAFE-CHECKOUT" {
	prt_event "$HEAD" 0000000000000000000000000000000000000000
	gh_verify pull_request_target
	assert_equal "$status" 4
	assert_equal "$stderr" "sc-attest: error[UNSAFE-CHECKOUT]: event pull_request_target: HEAD $HEAD is the pull request's code, checked out with the base repository's secrets; verify from a checkout of the base branch"
	assert_equal "$(cat "$SC_TMP/out.rec")" ''
}

@test "pull_request_target with the merge commit checked out: UNSAFE-CHECKOUT" {
	prt_event 1111111111111111111111111111111111111111 "$HEAD"
	gh_verify pull_request_target
	assert_equal "$status" 4
	[[ "$stderr" == *"error[UNSAFE-CHECKOUT]"* ]]
}

@test "pull_request_target with the base branch checked out verifies the head" {
	git -C "$R" checkout -q "$BASE"
	prt_event "$HEAD" 2222222222222222222222222222222222222222
	gh_verify pull_request_target
	assert_success
	run attest_outcome "$HEAD"
	assert_output ok
}

@test "pull_request_target with an unreadable event fails closed" {
	rm -f "$SC_TMP/event.json"
	gh_verify pull_request_target
	assert_equal "$status" 4
	[[ "$stderr" == *"error[UNSAFE-CHECKOUT]: event pull_request_target: cannot read GITHUB_EVENT_PATH"* ]]
}

@test "workflow_run of a pull request with its head checked out: UNSAFE-CHECKOUT" {
	printf '{"workflow_run":{"event":"pull_request","head_sha":"%s","pull_requests":[]}}\n' \
		"$HEAD" >"$SC_TMP/event.json"
	gh_verify workflow_run
	assert_equal "$status" 4
	[[ "$stderr" == *"error[UNSAFE-CHECKOUT]: event workflow_run: HEAD $HEAD"* ]]
}

@test "workflow_run naming the head in pull_requests: UNSAFE-CHECKOUT" {
	printf '{"workflow_run":{"event":"pull_request","head_sha":"%s","pull_requests":[{"head":{"sha":"%s"}}]}}\n' \
		3333333333333333333333333333333333333333 "$HEAD" >"$SC_TMP/event.json"
	gh_verify workflow_run
	assert_equal "$status" 4
}

@test "workflow_run of a push is not a pull request: verify runs" {
	printf '{"workflow_run":{"event":"push","head_sha":"%s"}}\n' "$HEAD" \
		>"$SC_TMP/event.json"
	gh_verify workflow_run
	assert_success
}

@test "pull_request (no secrets) with the PR checked out verifies" {
	prt_event "$HEAD" "$HEAD"
	gh_verify pull_request
	assert_success
}

@test "outside GitHub Actions the event is not consulted" {
	prt_event "$HEAD" "$HEAD"
	GITHUB_ACTIONS='' gh_verify pull_request_target
	assert_success
}
