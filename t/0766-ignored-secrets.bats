#!/usr/bin/env bats
# The secret files git ignores in the person's checkout are hidden from
# every sandboxed command, but the files an in-place run included for the
# checks (SC_INCLUDED_LIST).  Which ignored file is an included one is
# sc-classify's decision (--included, deny.included-file), beneath an
# included directory too.  A secret's name that matches the list only in
# another letter case is another file where names do not fold: it stays
# hidden (fail closed).  The driver used to compare the names itself, with
# jq.

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
	printf '%s\n' "${h[@]#"$PWD"/}" | LC_ALL=C sort
}

@test "without included files every ignored secret is hidden" {
	run hidden
	assert_success
	assert_output "$(printf '.env.local\n.env.test\nsecrets/id.pem')"
}

@test "an included file is not hidden; the other secrets are" {
	printf '.env.test\0' >"$SC_TMP/included"
	export SC_INCLUDED_LIST=$SC_TMP/included
	run hidden
	assert_success
	assert_output "$(printf '.env.local\nsecrets/id.pem')"
}

@test "a secret whose name matches an included one only in letter case stays hidden" {
	# Here names do not fold: .env.TEST is not the person's .env.test,
	# and its values must not reach the sandbox.
	printf 'TOKEN=three\n' >.env.TEST
	printf '.env.test\0' >"$SC_TMP/included"
	export SC_INCLUDED_LIST=$SC_TMP/included
	run hidden
	assert_success
	assert_output "$(printf '.env.TEST\n.env.local\nsecrets/id.pem')"
	# The list spelled otherwise exempts neither.
	printf '.ENV.Test\0' >"$SC_TMP/included"
	run hidden
	assert_success
	assert_output "$(printf '.env.TEST\n.env.local\n.env.test\nsecrets/id.pem')"
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
