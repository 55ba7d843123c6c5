#!/usr/bin/env bats
# make demo's script: the whole offline attempt runs, each protection is
# shown as it happens (the masked token among them) and the closing lines
# say, one a protection, what held.

# shellcheck disable=SC2154 # bats run sets status, output
load lib/common
load lib/run

setup() {
	sc_common_setup
	run_need_userns
}

@test "the demo runs, shows the masked token and ends with what held, every line held" {
	run bash "$SC_TOP/contrib/demo.sh"
	assert_success
	assert_line '  test log: used token [redacted:DEMO_API_KEY]'
	local p
	for p in policy sandbox masking guard evidence checkout; do
		assert_line --regexp "^  $p +held: "
	done
	refute_output --partial 'DID NOT HOLD'
	refute_output --regexp 'sk-demo-[0-9a-f]{24}'
}
