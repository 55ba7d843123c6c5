#!/usr/bin/env bats
# The secret files git ignores in the person's checkout are hidden from
# every sandboxed command, but the files an in-place run included for the
# checks (SC_INCLUDED_LIST).  Which ignored file is an included one is
# sc-classify's decision (--included, deny.included-file), matched as the
# policy matches protected names: in any letter case, and beneath an
# included directory.  The driver used to compare the names itself, byte
# for byte, with jq.

# shellcheck disable=SC2154,SC2030,SC2031 # bats run sets status, output, stderr; each @test is a subshell
load lib/common

setup() {
	sc_common_setup
	cd "$SC_TMP" || return 1
	git init -q -b main repo
	cd repo || return 1
	printf '.env*\nsecrets/\n' >.gitignore
	git add .gitignore
	git -c user.name=t -c user.email=t@example.com commit -q -m init
	printf 'TOKEN=one\n' >.env.test
	printf 'TOKEN=two\n' >.env.local
	mkdir secrets
	printf 'x\n' >secrets/id.pem
	export SPECCODER_BINDIR=$SC_TOP/bin SC_GIT=$SC_TOP/hooks-guard/sc-git
}

# The paths sc_ignored_secrets hides, relative to the checkout, sorted.
hidden() {
	# shellcheck source=/dev/null
	. "$SC_TOP/libexec/speccoder/speccoder-lib.sh"
	local -a h
	set -o pipefail   # as every driver runs
	sc_ignored_secrets h
	printf '%s\n' "${h[@]#"$PWD"/}" | sort
}

@test "without included files every ignored secret is hidden" {
	run hidden
	assert_success
	assert_output "$(printf '.env.local\n.env.test\nsecrets/id.pem')"
}

@test "an included file is not hidden, whatever the letter case of its name in the list" {
	# The jq comparison hid .env.test here: '.ENV.Test' is not byte for
	# byte its name.  The policy folds case (on a case-insensitive volume
	# it is the same file), and so does the sandbox's list now.
	printf '.ENV.Test\0' >"$SC_TMP/included"
	export SC_INCLUDED_LIST=$SC_TMP/included
	run hidden
	assert_success
	assert_output "$(printf '.env.local\nsecrets/id.pem')"
}

@test "a file beneath an included directory is not hidden; the others stay hidden" {
	printf 'secrets\0' >"$SC_TMP/included"
	export SC_INCLUDED_LIST=$SC_TMP/included
	run hidden
	assert_success
	assert_output "$(printf '.env.local\n.env.test')"
}

@test "an included list that cannot be read ends the driver: nothing would be hidden" {
	export SC_INCLUDED_LIST=$SC_TMP/nosuch
	run --separate-stderr hidden
	[[ "$stderr" == *"error[SANDBOX-UNAVAILABLE]"* ]]
}
