#!/usr/bin/env bats
# Sandbox profiles: the shipped ones, files, and bad profiles.

# shellcheck disable=SC2154,SC2016 # bats run sets status, output, stderr; '$' is for the inner shell
load lib/common
load lib/sandbox

setup() {
	sb_setup
	sb_require_full
}
teardown() { sb_teardown; }

@test "default: the root writable, caches read-only, loopback" {
	run --separate-stderr sb --profile default -- sh -c 'touch ok && touch "$HOME/.cache/x"'
	assert_failure 1
	[ -e "$ROOT/ok" ]
	[ ! -e "$HOME/.cache/x" ]
}

@test "fetch: package caches writable, ~/.cargo/bin never" {
	run --separate-stderr sb --profile fetch -- sh -c 'touch "$HOME/.cache/x" "$HOME/.cargo/registry/y"'
	assert_success
	run --separate-stderr sb --profile fetch -- touch "$HOME/.cargo/bin/evil"
	assert_failure 1
}

@test "readonly: nothing writable but TMPDIR" {
	run --separate-stderr sb --profile readonly -- touch "$ROOT/x"
	assert_failure 1
	run --separate-stderr sb --profile readonly -- sh -c 'touch "$TMPDIR/x"'
	assert_success
}

@test "the command line overrides the profile" {
	run --separate-stderr sb --profile readonly --network loopback -- true
	assert_success
	printf '[sandbox]\n\twritableOutside = %s\n\tnetwork = none\n' "$SC_TMP/outside" >"$SC_TMP/p.profile"
	run --separate-stderr sb --profile "$SC_TMP/p.profile" -- touch "$SC_TMP/outside/ok"
	assert_success
	[ -e "$SC_TMP/outside/ok" ]
	[[ "$stderr" == *"warning[WRITABLE-OUTSIDE]"* ]]
}

@test "a profile's writable path outside the root: error[WRITABLE-OUTSIDE-ROOT], nothing run" {
	printf '[sandbox]\n\twritable = %s\n' "$SC_TMP/outside" >"$SC_TMP/p.profile"
	run --separate-stderr sb --profile "$SC_TMP/p.profile" -- touch "$ROOT/ran"
	assert_failure 125
	[[ "$stderr" == *"error[WRITABLE-OUTSIDE-ROOT]"* ]]
	[ ! -e "$ROOT/ran" ]
}

@test "unknown profile, unreadable profile, bad keys and values: 125" {
	run --separate-stderr sb --profile no-such -- touch "$ROOT/ran"
	assert_failure 125
	[[ "$stderr" == *"error[UNKNOWN-PROFILE]"* ]]
	run --separate-stderr sb --profile ../../etc/passwd -- touch "$ROOT/ran"
	assert_failure 125
	run --separate-stderr sb --profile "$SC_TMP/missing.profile" -- touch "$ROOT/ran"
	assert_failure 125
	[[ "$stderr" == *"error[BAD-PROFILE]"* ]]
	printf '[sandbox]\n\tnetwrk = full\n' >"$SC_TMP/bad.profile"
	run --separate-stderr sb --profile "$SC_TMP/bad.profile" -- touch "$ROOT/ran"
	assert_failure 125
	[[ "$stderr" == *"error[BAD-PROFILE]"* ]]
	printf '[sandbox]\n\tnetwork = wide\n' >"$SC_TMP/bad.profile"
	run --separate-stderr sb --profile "$SC_TMP/bad.profile" -- touch "$ROOT/ran"
	assert_failure 125
	printf '[sandbox\n' >"$SC_TMP/bad.profile"
	run --separate-stderr sb --profile "$SC_TMP/bad.profile" -- touch "$ROOT/ran"
	assert_failure 125
	printf '[core]\n\tfsmonitor = evil\n' >"$SC_TMP/bad.profile"
	run --separate-stderr sb --profile "$SC_TMP/bad.profile" -- touch "$ROOT/ran"
	assert_failure 125
	[ ! -e "$ROOT/ran" ]
}

@test "a key without a value is an error for numbers, true for booleans" {
	printf '[sandbox]\n\ttimeout\n' >"$SC_TMP/p.profile"
	run --separate-stderr sb --profile "$SC_TMP/p.profile" -- touch "$ROOT/ran"
	assert_failure 125
	[[ "$stderr" == *"error[BAD-PROFILE]"* ]]
	[ ! -e "$ROOT/ran" ]
	printf '[sandbox]\n\trootWritable\n' >"$SC_TMP/p.profile"
	run --separate-stderr sb --profile "$SC_TMP/p.profile" -- touch "$ROOT/ran"
	assert_success
}
