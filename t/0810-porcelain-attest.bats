#!/usr/bin/env bats
# git speccoder attest and verify: sc-attest with the user's SSH signing key
# and the verifier's trust file; trust never from the branch, nothing of the
# repository's configuration run.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/porcelain
load lib/attest
load lib/branch

setup() {
	sc_common_setup
	sc_branch_repo
	attest_key me ed25519
	git config gpg.format ssh
	git config user.signingkey "$SC_TMP/keys/me.pub"
	attest_allow "$SC_TMP/allowed" me@example.com me
	git config gpg.ssh.allowedSignersFile "$SC_TMP/allowed"
}

record() { # REV: a test-result attestation through the porcelain
	git speccoder attest --predicate-type "$TEST_RESULT_TYPE" \
		--predicate "$SC_TMP/pred.json" "$1"
}

@test "attest records signed with user.signingkey, verify passes on the branch" {
	run --separate-stderr record speccoder/login~1
	assert_success
	assert_output --regexp '^signed   [0-9a-f]{12} https://in-toto.io/attestation/test-result/v0.1 SHA256:'
	run --separate-stderr record speccoder/login
	assert_success
	run --separate-stderr git speccoder verify --branch speccoder/login
	assert_success
	assert_line --index 1 --regexp '^  ok +[0-9a-f]{12}  me@example.com SHA256:'
	assert_line --index 3 'success: 2 of 2 commits verified'
	assert_equal "${#lines[@]}" 4
}

@test "verify's default base is where the branch left HEAD's branch" {
	record speccoder/login~1 >/dev/null
	record speccoder/login >/dev/null
	# main moves on after the branch started: its new commit is not checked
	echo 4 >g && git add g && git commit -qm later
	run --separate-stderr git speccoder verify --branch speccoder/login
	assert_success
	assert_output --partial "(after $(git rev-parse --short=12 main~1))"
	# on the branch itself, main is the other side
	git checkout -q speccoder/login
	run --separate-stderr git speccoder verify
	assert_success
	assert_line --index 3 'success: 2 of 2 commits verified'
}

@test "without a key: recorded unsigned with a warning; verify fails unless --allow-unsigned" {
	git config --unset user.signingkey
	run --separate-stderr record speccoder/login
	assert_success
	assert_output --regexp '^unsigned [0-9a-f]{12} '
	[[ "$stderr" == *"warning[UNSIGNED]"* ]]
	run --separate-stderr git speccoder verify --branch speccoder/login --base speccoder/login~1
	assert_equal "$status" 1
	assert_line --index 1 --regexp '^  unsigned '
	assert_line --index 2 'failure: 0 of 1 commits verified'
	run --separate-stderr git speccoder verify --branch speccoder/login --base speccoder/login~1 --allow-unsigned
	assert_success
}

@test "attest signs what a run recorded unsigned, one commit or a whole branch" {
	git config --unset user.signingkey
	record speccoder/login~1 >/dev/null 2>&1
	record speccoder/login >/dev/null 2>&1
	run --separate-stderr git speccoder attest speccoder/login
	assert_equal "$status" 4
	[[ "$stderr" == *"error[NO-SIGNING-KEY]"* ]]
	git config user.signingkey "$SC_TMP/keys/me"
	run --separate-stderr git speccoder attest speccoder/login
	assert_success
	assert_output --regexp '^signed   '
	run --separate-stderr git speccoder attest --branch speccoder/login
	assert_success
	assert_line --index 0 --regexp '^signed   '
	assert_line --index 1 '1 of 2 commits had attestations to sign'
	run --separate-stderr git speccoder verify --branch speccoder/login
	assert_success
}

@test "a key:: literal or a public key alone is said to be unsupported, never printed" {
	local pub
	pub=$(cut -d' ' -f2 "$SC_TMP/keys/me.pub")
	git config user.signingkey "key::ssh-ed25519 $pub"
	run --separate-stderr record speccoder/login
	assert_success
	assert_output --regexp '^unsigned '
	[[ "$stderr" == *"warning[SIGNING-KEY]"*"key:: literal"* ]]
	[[ "$stderr" != *"$pub"* ]]
	mv "$SC_TMP/keys/me" "$SC_TMP/keys/moved"
	git config user.signingkey "$SC_TMP/keys/me.pub"
	run --separate-stderr record speccoder/login~1
	assert_success
	[[ "$stderr" == *"warning[SIGNING-KEY]"*"public key"* ]]
	git config gpg.format openpgp
	run --separate-stderr git speccoder attest speccoder/login
	assert_equal "$status" 4
}

@test "trust comes from speccoder.conf or git's allowedSignersFile, never from the branch" {
	record speccoder/login~1 >/dev/null
	record speccoder/login >/dev/null
	git config --unset gpg.ssh.allowedSignersFile
	run --separate-stderr git speccoder verify --branch speccoder/login
	assert_equal "$status" 2
	[[ "$stderr" == *"error[NO-TRUST]"* ]]
	# the branch carries its own trust file and configuration: ignored
	attest_key mallory ed25519
	git checkout -q speccoder/login
	attest_allow trusted mallory@example.com mallory
	printf '[attest]\n\tallowedSigners = trusted\n' >speccoder.conf
	git add trusted speccoder.conf && git commit -qm "trust me"
	git config user.signingkey "$SC_TMP/keys/mallory"
	record HEAD >/dev/null
	git checkout -q main
	mkdir -p .speccoder
	attest_allow .speccoder/signers me@example.com me
	printf '[attest]\n\tallowedSigners = .speccoder/signers\n' >speccoder.conf
	run --separate-stderr git speccoder verify --branch speccoder/login
	assert_equal "$status" 1
	assert_line --index 3 --regexp '^  untrusted-signer '
	assert_line --index 4 'failure: 2 of 3 commits verified'
	# a checkout of the branch: its speccoder.conf is the branch's word
	rm -rf .speccoder speccoder.conf
	git checkout -q speccoder/login
	run --separate-stderr git speccoder verify --base main
	assert_equal "$status" 2
	[[ "$stderr" == *"error[UNTRUSTED-CONFIG]"* ]]
	assert_output ''
}

@test "bad revisions and arguments are usage errors" {
	run --separate-stderr git speccoder verify --branch no-such-branch
	assert_equal "$status" 2
	[[ "$stderr" == *"error[BAD-REVISION]"* ]]
	run --separate-stderr git speccoder verify --base
	assert_equal "$status" 2
	run --separate-stderr git speccoder verify extra
	assert_equal "$status" 2
	run --separate-stderr git speccoder attest --predicate "$SC_TMP/pred.json"
	assert_equal "$status" 2
	run --separate-stderr git speccoder attest --show --branch main
	assert_equal "$status" 2
	run --separate-stderr git speccoder attest a b
	assert_equal "$status" 2
	run --separate-stderr git speccoder attest --show no-such-rev
	assert_equal "$status" 2
}

@test "attest --show prints a commit's attestations" {
	record speccoder/login >/dev/null
	run --separate-stderr git speccoder attest --show speccoder/login
	assert_success
	assert_line --index 0 "commit $(git rev-parse speccoder/login)"
	assert_output --partial 'signature: valid'
}

@test "no program the repository's configuration names runs" {
	git config core.fsmonitor "touch $SC_TMP/ran-fsmonitor"
	git config core.pager "touch $SC_TMP/ran-pager"
	git config alias.rev-parse "!touch $SC_TMP/ran-alias"
	mkdir -p .git/hooks
	printf '#!/bin/sh\ntouch %s/ran-hook\n' "$SC_TMP" >.git/hooks/post-checkout
	chmod +x .git/hooks/post-checkout
	record speccoder/login >/dev/null
	git config user.signingkey "$SC_TMP/keys/me"
	run --separate-stderr git speccoder attest --branch speccoder/login
	run --separate-stderr git speccoder verify --branch speccoder/login --base speccoder/login~1
	assert_success
	run ls "$SC_TMP"
	refute_output --partial ran-
}

@test "help of attest, verify and pr repeats the man page's command lines" {
	local cmd line
	for cmd in attest verify pr; do
		run git speccoder help "$cmd"
		assert_success
		while IFS= read -r line; do
			line=${line#usage: git speccoder }
			line=${line#   or: git speccoder }
			grep -qxF -- "$line" <(sed -e 's/[*_]//g' -e 's/++$//' \
				-e 's/\\\(.\)/\1/g' "$SC_TOP/Documentation/git-speccoder.1.scd") ||
				fail "$cmd: '$line' is not in git-speccoder(1)"
		done < <(printf '%s\n' "${lines[@]}" | grep -E '^(usage|   or):')
	done
}
