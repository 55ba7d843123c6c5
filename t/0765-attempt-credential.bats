#!/usr/bin/env bats
# The tick's credential scan (issue 20): a change that adds a credential no
# secret source names is not committed (SECRET-IN-DIFF), and the person
# sees its rule, file, line and fingerprint, never its value; a known false
# positive is allowed by that fingerprint in speccoder.conf
# (mask.allowFingerprint), and the same rule still stops another value.
# Every token here is a made-up example.

# shellcheck disable=SC2154,SC2030,SC2031 # bats run sets status, output, stderr
load lib/common
load lib/run

setup() {
	sc_common_setup
	run_need_userns
	run_demo_repo
}

teardown() {
	sc_common_teardown
}

# A transcript: the model writes FIXTURE (tests/fixture.txt's text) and
# implements the task, and says it is done.
fixture() { # TEXT
	run_model_writes tests/fixture.txt "$1"
}

# The fingerprint of a value: the first 16 hex digits of its SHA-256.
fp() {
	printf '%s' "$1" | sha256sum | cut -c1-16
}

@test "tick: an added credential stops the tick with its fingerprint, never its value; allowed by that fingerprint it is ticked" {
	fixture $'example id: AKIAQWERTYUIOPASDFGH\n'
	run_attempt
	assert_failure 1
	assert_regex "$stderr" "SECRET-IN-DIFF"
	[[ "$stderr" == *"CREDENTIAL aws-access-key-id: tests/fixture.txt line 1 fingerprint $(fp AKIAQWERTYUIOPASDFGH)"* ]]
	[[ "$output$stderr" != *AKIAQWERTYUIOPASDFGH* ]]
	assert_equal "$(git rev-list --count main..speccoder/greeting 2>/dev/null || echo 0)" 0
	# The person allows the fixture by its fingerprint.
	git config -f speccoder.conf --add mask.allowFingerprint "$(fp AKIAQWERTYUIOPASDFGH)"
	git commit -q -am "allow the example id of the fixture"
	run_attempt
	assert_success
	assert_equal "$(git rev-list --count main..speccoder/greeting)" 1
	run git show speccoder/greeting:tests/fixture.txt
	assert_output "example id: AKIAQWERTYUIOPASDFGH"
}

@test "tick: an allowed fingerprint allows that value only: another value of the rule still stops the tick" {
	git config -f speccoder.conf --add mask.allowFingerprint "$(fp AKIAQWERTYUIOPASDFGH)"
	git commit -q -am "allow the example id of the fixture"
	fixture $'example id: AKIAQWERTYUIOPASDFGH\nother: AKIAZXCVBNMLKJHGFDSA\n'
	run_attempt
	assert_failure 1
	assert_regex "$stderr" "SECRET-IN-DIFF"
	[[ "$stderr" == *"CREDENTIAL aws-access-key-id: tests/fixture.txt line 2 fingerprint $(fp AKIAZXCVBNMLKJHGFDSA)"* ]]
	[[ "$stderr" == *"CREDENTIAL-ALLOWED aws-access-key-id: tests/fixture.txt line 1"* ]]
	[[ "$output$stderr" != *AKIAZXCVBNMLKJHGFDSA* ]]
	assert_equal "$(git rev-list --count main..speccoder/greeting 2>/dev/null || echo 0)" 0
}
