#!/usr/bin/env bats
# sc-sandbox-exec linked statically (start-up cost): what would need NSS or
# dlopen takes another route.  The home directory is read from /etc/passwd
# itself; profiles, speccoder.conf and --network hosts run the
# dynamically linked twin.

# shellcheck disable=SC2154,SC2016 # bats run sets status, output, stderr; '$' is for the inner shell
load lib/common
load lib/sandbox

setup() { sb_setup; }
teardown() { sb_teardown; }

interp() {
	readelf -l "$1" | grep -c 'Requesting program interpreter' || true
}

@test "sc-sandbox-exec is linked statically, its twin dynamically" {
	command -v readelf >/dev/null || skip "readelf not installed"
	[ "$(interp "$SC_TOP/build/bin/sc-sandbox-exec")" = 0 ]
	[ "$(interp "$SC_TOP/build/libexec/speccoder/sc-sandbox-exec")" = 1 ]
}

@test "a profile, a configuration and --network hosts run the twin; without it they are refused and nothing runs" {
	mkdir -p "$SC_TMP/inst/bin"
	cp "$SC_TOP/build/bin/sc-sandbox-exec" "$SC_TMP/inst/bin/"
	local sbx="$SC_TMP/inst/bin/sc-sandbox-exec"
	run --separate-stderr "$sbx" --root "$ROOT" --profile readonly -- touch "$ROOT/ran"
	assert_failure 125
	[[ "$stderr" == *"error[TWIN-MISSING]"* ]] || fail "$stderr"
	printf '[sandbox]\n\tnetwork = none\n' >"$SC_TMP/speccoder.conf"
	run --separate-stderr "$sbx" --root "$ROOT" --config "$SC_TMP/speccoder.conf" \
		-- touch "$ROOT/ran"
	assert_failure 125
	[[ "$stderr" == *"error[TWIN-MISSING]"* ]] || fail "$stderr"
	run --separate-stderr "$sbx" --root "$ROOT" --network hosts \
		--allow-host example.com -- touch "$ROOT/ran"
	assert_failure 125
	[[ "$stderr" == *"error[TWIN-MISSING]"* ]] || fail "$stderr"
	[ ! -e "$ROOT/ran" ]
	# What the static build does itself needs no twin.
	run --separate-stderr "$sbx" --root "$ROOT" --mode off -- touch "$ROOT/ran"
	[ "$status" -eq 0 ] || fail "$stderr"
	[ -e "$ROOT/ran" ]
	# With its twin installed beside it, the profile is read.
	mkdir -p "$SC_TMP/inst/libexec/speccoder"
	cp "$SC_TOP/build/libexec/speccoder/sc-sandbox-exec" "$SC_TMP/inst/libexec/speccoder/"
	printf '[sandbox]\n\tnetwork = none\n' >"$SC_TMP/p.profile"
	run --separate-stderr "$sbx" --root "$ROOT" --mode off \
		--profile "$SC_TMP/p.profile" -- touch "$ROOT/ran2"
	[ "$status" -eq 0 ] || fail "$stderr"
	[ -e "$ROOT/ran2" ]
	printf '[sandbox]\n\tnoSuchKey = 1\n' >"$SC_TMP/bad.profile"
	run --separate-stderr "$sbx" --root "$ROOT" --mode off \
		--profile "$SC_TMP/bad.profile" -- touch "$ROOT/ran3"
	assert_failure 125
	[[ "$stderr" == *"error[BAD-PROFILE]"* ]] || fail "$stderr"
	[ ! -e "$ROOT/ran3" ]
}

# Run as a uid that /etc/passwd does not list (as a directory service's
# user is), in a user namespace of its own.
as_unlisted() {
	unshare --map-user=54321 --map-group=54321 "$@"
}

@test "a uid not in /etc/passwd: the credentials under HOME are hidden and it is said; without HOME nothing runs" {
	sb_require_full
	as_unlisted true 2>/dev/null || skip "cannot map another uid here"
	! grep -q '^[^:]*:[^:]*:54321:' /etc/passwd || skip "uid 54321 is listed here"
	# The attack works unconfined: the key is readable as that uid.
	run as_unlisted cat "$HOME/.ssh/id_ed25519"
	assert_output "SSH-PRIVATE-KEY"
	run --separate-stderr as_unlisted sc-sandbox-exec --root "$ROOT" -- \
		sh -c 'cat "$HOME/.ssh/id_ed25519" 2>&1; echo end'
	assert_success
	refute_output --partial "SSH-PRIVATE-KEY"
	assert_output --partial "end"
	[[ "$stderr" == *"warning[HOME-NOT-IN-PASSWD]"* ]] || fail "$stderr"
	run --separate-stderr as_unlisted env -u HOME sc-sandbox-exec --root "$ROOT" -- \
		touch "$ROOT/ran"
	assert_failure 125
	[[ "$stderr" == *"error[NO-HOME]"* ]] || fail "$stderr"
	[ ! -e "$ROOT/ran" ]
}
