#!/usr/bin/env bats
# The build: outputs only under build/, and make install puts each kind of
# file where DESIGN.md says.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common

@test "build outputs stay under build/ (and the pinned npm peers under t/npm/node_modules/)" {
	if ! git -C "$SC_TOP" rev-parse --git-dir >/dev/null 2>&1; then
		skip "not a git checkout: cannot tell build outputs from sources"
	fi
	run git -C "$SC_TOP" ls-files --others --ignored --exclude-standard --directory
	assert_success
	[ -n "$output" ] || fail "nothing built?"
	# make deps installs the real peers of the tests there (t/npm).
	run grep -v -e '^build/' -e '^t/npm/node_modules/' <<<"$output"
	assert_output ""
}

@test "make install puts tools, man pages and data under DESTDIR/PREFIX" {
	local d="$SC_TMP/dest"
	run make -C "$SC_TOP" --no-print-directory install DESTDIR="$d" PREFIX=/opt/sc
	assert_success
	[ -x "$d/opt/sc/bin/sc-rec" ]
	[ -f "$d/opt/sc/share/man/man1/sc-rec.1" ]
	[ -f "$d/opt/sc/share/man/man5/sc-record.5" ]
	[ -d "$d/opt/sc/libexec/speccoder" ]
	[ -d "$d/opt/sc/share/speccoder/profiles" ]
	# The git guard with its hooks directory, which must hold no hook.
	[ -x "$d/opt/sc/libexec/speccoder/hooks-guard/sc-git" ]
	[ -f "$d/opt/sc/libexec/speccoder/hooks-guard/hooks/README" ]
	[ ! -x "$d/opt/sc/libexec/speccoder/hooks-guard/hooks/README" ]
	# Nothing outside DESTDIR/PREFIX.
	run find "$d" -mindepth 1 -maxdepth 2
	assert_output "$d/opt
$d/opt/sc"
	# The installed tool works, and the installed porcelain finds its
	# drivers and tools in the installed tree.
	run "$d/opt/sc/bin/sc-rec" --version
	assert_success
	assert_output --regexp '^sc-rec \(speccoder\) '
	run "$d/opt/sc/bin/git-speccoder" --version
	assert_success
	assert_output --regexp '^git-speccoder \(speccoder\) '
	# The static sc-sandbox-exec finds its dynamically linked twin, which
	# finds the installed profiles.
	[ -x "$d/opt/sc/libexec/speccoder/sc-sandbox-exec" ]
	run "$d/opt/sc/bin/sc-sandbox-exec" --mode off --profile readonly -- true
	assert_success
}

@test "make deps is a no-op once the packages are present" {
	# make test runs deps first, so here every package is installed.
	if ! command -v dpkg-query >/dev/null 2>&1; then
		skip "not a Debian system: make deps only prints the list"
	fi
	run make -C "$SC_TOP" --no-print-directory -s deps
	assert_success
	assert_output ""
}

@test "make deps names the packages the build and the tests use" {
	local p
	for p in libjansson-dev libcmocka-dev bats-assert bats-support scdoc \
		shellcheck clang jq perl; do
		grep -qE "(^|[[:space:]])$p([[:space:]]|\\|$)" "$SC_TOP/Makefile" ||
			fail "$p missing from DEB_PACKAGES"
	done
}
