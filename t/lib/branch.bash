# A repository with a speccoder branch, for the tests of the porcelain's
# attest, verify and pr: main with one commit, speccoder/login with two
# more, identities and dates fixed (lib/attest's attest_git_env).
# shellcheck shell=bash

# sc_branch_repo: in a new repository (lib/porcelain's sc_porcelain_repo),
# main holds "base", speccoder/login "T001 the form" and "T002 the check";
# main is checked out; $SC_TMP/pred.json is a test-result predicate.
sc_branch_repo() {
	sc_porcelain_repo
	attest_git_env
	echo 1 >f && git add f && git commit -qm base
	git checkout -qb speccoder/login
	echo 2 >f && git commit -qam "T001 the form"
	echo 3 >f && git commit -qam "T002 the check"
	git checkout -q main
	attest_pred
}
