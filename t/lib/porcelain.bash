# Helpers for the porcelain's tests: a scratch repository and a private
# state directory, so no test touches the user's.
# shellcheck shell=bash

PATH="$SC_TOP/bin:$PATH"
export PATH

# Make a repository in $SC_TMP/repo, cd into it, and give the test its own
# HOME and XDG_STATE_HOME.
sc_porcelain_repo() {
	export HOME="$SC_TMP/home" XDG_STATE_HOME="$SC_TMP/state"
	mkdir -p "$HOME" "$SC_TMP/repo"
	cd "$SC_TMP/repo" || return 1
	git init -q -b main .
	git config user.email test@example.invalid
	git config user.name test
}
