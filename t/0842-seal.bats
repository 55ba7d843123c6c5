#!/usr/bin/env bats
# git speccoder seal: held-out tests copied into the state directory and
# pinned; --verify gives their path only while they are exactly as sealed.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/porcelain

setup() {
	sc_common_setup
	sc_porcelain_repo
	mkdir -p "$SC_TMP/held/unit"
	# shellcheck disable=SC2016 # a test file's text, expanded when it runs
	printf '@test "adds" { [ "$(add 1 2)" = 3 ]; }\n' >"$SC_TMP/held/add.bats"
	printf 'fixture\n' >"$SC_TMP/held/unit/data.txt"
	printf '#!/bin/sh\nexit 0\n' >"$SC_TMP/held/unit/run.sh"
	chmod 755 "$SC_TMP/held/unit/run.sh"
}

# Seal the tests as feature "f1"; $tree is the sealed copy.
sealed() {
	run --separate-stderr git speccoder seal f1 "$SC_TMP/held"
	assert_equal "$status" 0
	assert_output --regexp '^sealed f1 sha256:[0-9a-f]{64}$'
	run --separate-stderr git speccoder seal --verify f1
	assert_equal "$status" 0
	tree=$output
}

@test "seal copies the tests into the state directory, private, and verify prints the path" {
	sealed
	[[ "$tree" == "$XDG_STATE_HOME/speccoder/"*"/held-out/f1/tree" ]]
	cmp "$tree/add.bats" "$SC_TMP/held/add.bats"
	[ -x "$tree/unit/run.sh" ]
	[ "$(stat -c %a "$tree")" = 700 ]
	[ "$(stat -c %a "$tree/unit")" = 700 ]
	[ "$(stat -c %a "$tree/../lock")" = 600 ]
	# The original may change afterwards: the seal is the copy.
	printf 'changed\n' >>"$SC_TMP/held/add.bats"
	run --separate-stderr git speccoder seal --verify f1
	assert_equal "$status" 0
}

@test "a changed sealed file is TAMPERED, exit 1, and no path is printed" {
	sealed
	printf '@test "x" { true; }\n' >>"$tree/add.bats"
	run --separate-stderr git speccoder seal --verify f1
	assert_equal "$status" 1
	assert_output ''
	[[ "$stderr" == *"error[TAMPERED]"* ]]
}

@test "an added sealed file is TAMPERED" {
	sealed
	: >"$tree/unit/conftest.py"
	run --separate-stderr git speccoder seal --verify f1
	assert_equal "$status" 1
	[[ "$stderr" == *"error[TAMPERED]"* ]]
}

@test "a removed sealed file is TAMPERED" {
	sealed
	rm "$tree/unit/data.txt"
	run --separate-stderr git speccoder seal --verify f1
	assert_equal "$status" 1
	[[ "$stderr" == *"error[TAMPERED]"* ]]
}

@test "a sealed file replaced by a symlink to the same content is TAMPERED" {
	sealed
	cp "$tree/add.bats" "$SC_TMP/same.bats"
	ln -sf "$SC_TMP/same.bats" "$tree/add.bats"
	run --separate-stderr git speccoder seal --verify f1
	assert_equal "$status" 1
	[[ "$stderr" == *"error[TAMPERED]"* ]]
}

@test "a changed seal lock is TAMPERED; a missing one too" {
	sealed
	git config -f "$tree/../lock" pin.f1@sealed.digest \
		sha256:0000000000000000000000000000000000000000000000000000000000000000
	run --separate-stderr git speccoder seal --verify f1
	assert_equal "$status" 1
	[[ "$stderr" == *"error[TAMPERED]"* ]]
	rm "$tree/../lock"
	run --separate-stderr git speccoder seal --verify f1
	assert_equal "$status" 1
	[[ "$stderr" == *"error[TAMPERED]"* ]]
}

@test "seal refuses tests holding a symlink, and seals nothing" {
	ln -s /etc/passwd "$SC_TMP/held/unit/passwd"
	run --separate-stderr git speccoder seal f1 "$SC_TMP/held"
	assert_equal "$status" 3
	[[ "$stderr" == *"error[SYMLINK]"* ]]
	run --separate-stderr git speccoder seal --verify f1
	assert_equal "$status" 1
	[[ "$stderr" == *"error[NOT-SEALED]"* ]]
	run find "$XDG_STATE_HOME" -name '.new.*'
	assert_output ''
}

@test "sealing again replaces the seal" {
	sealed
	printf 'v2\n' >"$SC_TMP/held/unit/data.txt"
	run --separate-stderr git speccoder seal f1 "$SC_TMP/held"
	assert_equal "$status" 0
	run --separate-stderr git speccoder seal --verify f1
	assert_equal "$status" 0
	assert_equal "$(cat "$output/unit/data.txt")" v2
}

@test "a feature name that could leave the state directory is a usage error" {
	local f
	for f in ../x .hidden -x 'a/b' ''; do
		run --separate-stderr git speccoder seal "$f" "$SC_TMP/held"
		[ "$status" -eq 2 ] || fail "'$f': status $status"
		run --separate-stderr git speccoder seal --verify "$f"
		[ "$status" -eq 2 ] || fail "'$f' --verify: status $status"
	done
	run --separate-stderr git speccoder seal f1
	assert_equal "$status" 2
	run --separate-stderr git speccoder seal f1 "$SC_TMP/nowhere"
	assert_equal "$status" 2
}

@test "mask.allowFingerprint of speccoder.conf: a false positive in the tests seals and verifies; another value does not seal" {
	# A made-up fixture the aws-access-key-id rule finds.
	printf 'example: AKIAQWERTYUIOPASDFGH\n' >"$SC_TMP/held/unit/data.txt"
	run --separate-stderr git speccoder seal f1 "$SC_TMP/held"
	assert_equal "$status" 1
	[[ "$stderr" == *"error[SCAN-HIT]"* ]]
	[ ! -e "$XDG_STATE_HOME/speccoder" ] || [ -z "$(find "$XDG_STATE_HOME/speccoder" -name lock)" ]
	printf '[mask]\n\tallowFingerprint = %s\n' \
		"$(printf AKIAQWERTYUIOPASDFGH | sha256sum | cut -c1-16)" >speccoder.conf
	sealed
	# Another value of the rule is still a finding.
	printf 'other: AKIAZXCVBNMLKJHGFDSA\n' >>"$SC_TMP/held/unit/data.txt"
	run --separate-stderr git speccoder seal f2 "$SC_TMP/held"
	assert_equal "$status" 1
	[[ "$stderr" == *"error[SCAN-HIT]"* ]]
	# The seal made with the allowance verifies only with it.
	rm speccoder.conf
	run --separate-stderr git speccoder seal --verify f1
	assert_equal "$status" 1
	assert_output ''
}
