#!/usr/bin/env bats
# A kernel without Landlock (built without it, or an LSM list that leaves
# it out): the sandbox must fail closed.  The no-landlock helper makes the
# Landlock system calls answer ENOSYS, as such a kernel does; a "best
# effort" that reports success with no Landlock at all is a known bug class.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load ../lib/common
load ../lib/sandbox

setup() {
	sb_setup
	sb_build_no_landlock
	sb_require_landlock
}
teardown() { sb_teardown; }

@test "the helper really takes Landlock away (the tests can fail)" {
	sc_run_io /dev/null "$SC_TMP/probe" sc-sandbox-exec --probe
	assert_success
	grep -qxF 'landlock-abi=0' <(tr '\0' '\n' <"$SC_TMP/probe") && fail "Landlock is missing outside the helper"
	sc_run_io /dev/null "$SC_TMP/probe" "$NO_LANDLOCK" sc-sandbox-exec --probe
	assert_success
	grep -qxF 'landlock-abi=0' <(tr '\0' '\n' <"$SC_TMP/probe")
	grep -qxF 'name=landlock' <(tr '\0' '\n' <"$SC_TMP/probe")
	[ "$(tr '\0' '\n' <"$SC_TMP/probe" | grep -c '^enforced=yes$')" -lt \
	  "$(tr '\0' '\n' <"$SC_TMP/probe" | grep -c '^enforced=')" ]
}

@test "--mode required refuses in every tier, and the command never runs" {
	for t in full landlock; do
		[ "$t" = landlock ] || sb_userns_available || continue
		run --separate-stderr "$NO_LANDLOCK" sc-sandbox-exec --tier "$t" \
			--root "$ROOT" -- touch "$ROOT/ran"
		assert_failure 125
		[[ "$stderr" == *"error[SANDBOX-UNAVAILABLE]"*landlock* ]]
		[ ! -e "$ROOT/ran" ]
	done
}

@test "--mode auto names landlock and still runs; the full tier's mounts still confine writes" {
	run --separate-stderr "$NO_LANDLOCK" sc-sandbox-exec --mode auto --tier landlock \
		--root "$ROOT" -- touch "$ROOT/ran"
	assert_success
	[ -e "$ROOT/ran" ]
	[[ "$stderr" == *"warning[SANDBOX-DEGRADED]: unenforced: landlock, write-confinement"* ]]
	sb_userns_available || skip "user namespaces unavailable on this host"
	run --separate-stderr "$NO_LANDLOCK" sc-sandbox-exec --mode auto --root "$ROOT" -- \
		touch "$SC_TMP/outside/escaped"
	assert_failure 1
	[ ! -e "$SC_TMP/outside/escaped" ]
	[[ "$stderr" == *"warning[SANDBOX-DEGRADED]: unenforced: landlock"* ]]
	[[ "$stderr" != *write-confinement* ]]
}
