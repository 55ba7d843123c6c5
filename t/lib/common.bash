# Shared set-up for the bats files: the tools under test come from build/,
# never from PATH, and every test gets its own scratch directory.
# shellcheck shell=bash

SC_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
export SC_TOP
PATH="$SC_TOP/build/bin:$PATH"
export PATH
bats_require_minimum_version 1.5.0
load /usr/lib/bats/bats-support/load.bash
load /usr/lib/bats/bats-assert/load.bash

sc_common_setup() {
	SC_TMP=$(mktemp -d "${BATS_TMPDIR:-/tmp}/sc-test.XXXXXX")
	export SC_TMP
}

sc_common_teardown() {
	if [ -n "${SC_TMP:-}" ] && [ -d "$SC_TMP" ]; then
		rm -rf -- "$SC_TMP"
	fi
}

setup() { sc_common_setup; }
teardown() { sc_common_teardown; }

# Run a command with stdin from a file and stdout to a file, so the tool's
# own exit status is kept (never piped): sc_run_io IN OUT CMD...  Sets
# $status, $stderr and $stderr_lines as bats' run does; a crash or a
# missing program (status 124 and above) fails the test, never counts as
# "failed as expected".
sc_io_exec() {
	local in="$1" out="$2"
	shift 2
	"$@" <"$in" >"$out"
}
sc_run_io() {
	# bats' run sets a variable i it does not declare local: this one
	# takes it, so a caller's loop counter survives.
	# shellcheck disable=SC2034
	local i
	run --separate-stderr sc_io_exec "$@"
	sc_assert_not_crashed
}

# Fail when a status means a crash or a missing program, which a test must
# never count as "failed as expected".
sc_assert_not_crashed() {
	# shellcheck disable=SC2154 # set by bats run
	if [ "$status" -ge 124 ]; then
		echo "crashed or could not run: status $status" >&2
		return 1
	fi
}
