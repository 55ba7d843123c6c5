#!/usr/bin/env bats
# Attacks on sc-attest verify by the branch it checks: every one must fail.
# Where it is safe, the same trap is shown to work without the protection,
# so each test can fail.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/attest

setup() {
	sc_common_setup
	attest_repo "$SC_TMP/repo" 3
	R="$SC_TMP/repo"
	BASE=$(git -C "$R" rev-parse HEAD~1)
	HEAD=$(git -C "$R" rev-parse HEAD)
	attest_key trusted ed25519
	attest_key attacker ed25519
	attest_allow "$SC_TMP/allowed" ci@example.com trusted
	# A program that leaves a marker when anything runs it.
	MARK="$SC_TMP/marker"
	cat >"$SC_TMP/evil" <<-EOF
	#!/bin/sh
	echo "ran: \$0 \$*" >>"$MARK"
	EOF
	chmod +x "$SC_TMP/evil"
}

verify() {
	attest_verify -C "$R" --allowed-signers "$SC_TMP/allowed" "$@"
}

# Every repository setting that makes git run a program, pointed at evil.
arm_repository() {
	local e="$SC_TMP/evil" h
	git -C "$R" config core.fsmonitor "$e"
	git -C "$R" config core.hooksPath "$SC_TMP/hooks"
	git -C "$R" config core.sshCommand "$e"
	git -C "$R" config core.pager "$e"
	git -C "$R" config core.editor "$e"
	git -C "$R" config core.askPass "$e"
	git -C "$R" config core.alternateRefsCommand "$e"
	git -C "$R" config gpg.program "$e"
	git -C "$R" config gpg.ssh.program "$e"
	git -C "$R" config gpg.ssh.defaultKeyCommand "$e"
	git -C "$R" config gpg.ssh.allowedSignersFile "$R/allowed_signers"
	git -C "$R" config diff.external "$e"
	git -C "$R" config filter.evil.clean "$e"
	git -C "$R" config filter.evil.smudge "$e"
	git -C "$R" config filter.evil.process "$e"
	git -C "$R" config credential.helper "!$e"
	git -C "$R" config alias.notes "!$e"
	printf '[core]\n\tfsmonitor = %s\n' "$e" >"$SC_TMP/included"
	git -C "$R" config include.path "$SC_TMP/included"
	printf '* filter=evil\n' >"$R/.gitattributes"
	mkdir -p "$SC_TMP/hooks"
	for h in pre-commit post-checkout post-merge reference-transaction \
		post-index-change pre-auto-gc post-rewrite fsmonitor-watchman; do
		cp "$e" "$SC_TMP/hooks/$h"
		cp "$e" "$R/.git/hooks/$h"
	done
}

@test "control: the armed repository does run the marker under git" {
	arm_repository
	run git -C "$R" status
	[ -s "$MARK" ]
}

@test "verify in a repository whose config runs programs runs nothing" {
	attest_record "$R" HEAD trusted
	arm_repository
	verify --branch HEAD --base "$BASE"
	assert_success
	run attest_outcome "$HEAD"
	assert_output ok
	[ ! -e "$MARK" ]
}

@test "verify ignores the environment's git settings and global config" {
	attest_record "$R" HEAD trusted
	mkdir -p "$SC_TMP/home" "$SC_TMP/xdg/git"
	printf '[core]\n\tfsmonitor = %s\n[include]\n\tpath = %s\n' "$SC_TMP/evil" \
		"$SC_TMP/evil" >"$SC_TMP/home/.gitconfig"
	cp "$SC_TMP/home/.gitconfig" "$SC_TMP/xdg/git/config"
	# Another repository, without notes, that GIT_DIR would point at.
	attest_repo "$SC_TMP/decoy" 1
	HOME="$SC_TMP/home" XDG_CONFIG_HOME="$SC_TMP/xdg" \
		GIT_DIR="$SC_TMP/decoy/.git" GIT_WORK_TREE="$SC_TMP/decoy" \
		GIT_CONFIG_GLOBAL="$SC_TMP/home/.gitconfig" \
		GIT_CONFIG_SYSTEM="$SC_TMP/home/.gitconfig" GIT_CONFIG_NOSYSTEM='' \
		GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.fsmonitor \
		GIT_CONFIG_VALUE_0="$SC_TMP/evil" GIT_SSH_COMMAND="$SC_TMP/evil" \
		GIT_EXTERNAL_DIFF="$SC_TMP/evil" GIT_PAGER="$SC_TMP/evil" \
		GIT_OBJECT_DIRECTORY="$SC_TMP/decoy/.git/objects" \
		verify --branch HEAD --base "$BASE"
	assert_success
	run attest_outcome "$HEAD"
	assert_output ok
	[ ! -e "$MARK" ]
}

@test "the user's global git configuration is never read" {
	# Observable through safe.directory: with the repository owned by
	# another user, only a global setting lets a reader in.  git reads it;
	# verify must not (its configuration search paths are emptied).
	if [ "$(id -u)" -ne 0 ]; then
		skip "needs root to give the repository to another owner"
	fi
	attest_record "$R" HEAD trusted
	chown -R nobody: "$R"
	mkdir -p "$SC_TMP/home"
	printf '[safe]\n\tdirectory = *\n' >"$SC_TMP/home/.gitconfig"
	# Control: git honours the global file.
	HOME="$SC_TMP/home" GIT_CONFIG_GLOBAL="$SC_TMP/home/.gitconfig" \
		git -C "$R" rev-parse HEAD
	HOME="$SC_TMP/home" GIT_CONFIG_GLOBAL="$SC_TMP/home/.gitconfig" \
		verify --branch HEAD --base "$BASE"
	assert_equal "$status" 4
	[[ "$stderr" == *"error[UNSAFE-REPOSITORY-OWNER]"* ]]
}

@test "verify runs no git and no ssh-keygen found on PATH" {
	attest_record "$R" HEAD trusted
	mkdir -p "$SC_TMP/fakebin"
	cp "$SC_TMP/evil" "$SC_TMP/fakebin/git"
	cp "$SC_TMP/evil" "$SC_TMP/fakebin/ssh-keygen"
	# Control: the fake git is what PATH finds.
	PATH="$SC_TMP/fakebin:$PATH" git --version
	[ -s "$MARK" ]
	rm -f "$MARK"
	PATH="$SC_TMP/fakebin:$PATH" verify --branch HEAD --base "$BASE"
	assert_success
	[ ! -e "$MARK" ]
}

@test "an allowed_signers file inside the checked tree is never used" {
	# The branch carries its own trust file naming the attacker, in every
	# place a tool might look, and points the repository config at it.
	cut -d' ' -f1,2 "$SC_TMP/keys/attacker.pub" | sed 's/^/ci@example.com /' \
		>"$R/allowed_signers"
	mkdir -p "$R/.github" "$R/.speccoder"
	cp "$R/allowed_signers" "$R/.github/allowed_signers"
	cp "$R/allowed_signers" "$R/.speccoder/allowed_signers"
	cp "$R/allowed_signers" "$R/.git/allowed_signers"
	git -C "$R" add allowed_signers .github .speccoder
	git -C "$R" commit -q -m 'trust me'
	git -C "$R" config gpg.ssh.allowedSignersFile "$R/allowed_signers"
	local tip
	tip=$(git -C "$R" rev-parse HEAD)
	attest_record "$R" HEAD attacker
	verify --branch HEAD --base "$BASE"
	assert_failure 1
	run jq -r 'select(.type == "result" and .commit == "'"$tip"'") | .outcome' "$SC_TMP/out.json"
	assert_output untrusted-signer
	# Without the verifier's file there is no fallback to the tree's.
	attest_verify -C "$R" --branch HEAD --base "$BASE"
	assert_equal "$status" 2
	[[ "$stderr" == *"error[NO-TRUST]"* ]]
	# Control: handed the tree's file, the attacker's key would pass.
	attest_verify -C "$R" --branch HEAD --base HEAD~1 \
		--allowed-signers "$R/allowed_signers"
	assert_success
}

@test "a forged envelope claiming the trusted keyid is refused" {
	local fpr
	attest_record "$R" HEAD attacker
	fpr=$(ssh-keygen -l -f "$SC_TMP/keys/trusted.pub" | cut -d' ' -f2)
	attest_note "$R" HEAD >"$SC_TMP/env.json"
	jq -c --arg k "$fpr" '.signatures[0].keyid = $k' "$SC_TMP/env.json" >"$SC_TMP/forged"
	attest_set_note "$R" HEAD "$SC_TMP/forged"
	verify --branch HEAD --base "$BASE"
	assert_failure 1
	run attest_outcome "$HEAD"
	assert_output bad-signature
}

@test "a trusted signature re-attached to an attacker's payload is refused" {
	attest_record "$R" HEAD trusted
	attest_note "$R" HEAD >"$SC_TMP/good.json"
	attest_record "$R" HEAD~1 attacker
	attest_note "$R" HEAD~1 >"$SC_TMP/evil.json"
	# The attacker's statement with the trusted signature of another one.
	jq -c --slurpfile g "$SC_TMP/good.json" '.signatures = $g[0].signatures' \
		"$SC_TMP/evil.json" >"$SC_TMP/forged"
	attest_set_note "$R" HEAD~1 "$SC_TMP/forged"
	verify --branch HEAD~1 --base HEAD~2
	assert_failure 1
	run jq -r 'select(.type == "result") | .outcome' "$SC_TMP/out.json"
	assert_output bad-signature
}

@test "a trusted note moved to the attacker's commit is mismatch" {
	attest_record "$R" "$BASE" trusted
	attest_note "$R" "$BASE" >"$SC_TMP/note"
	attest_set_note "$R" HEAD "$SC_TMP/note"
	verify --branch HEAD --base "$BASE"
	assert_failure 1
	run attest_outcome "$HEAD"
	assert_output mismatch
}

@test "a statement for the right commit but another tree is mismatch" {
	local tree
	attest_record "$R" HEAD trusted
	tree=$(git -C "$R" rev-parse 'HEAD~1^{tree}')
	# Re-sign a statement naming HEAD with the wrong tree, with the trusted
	# key (as if the trusted signer had been fooled): still a mismatch.
	attest_note "$R" HEAD | jq -r .payload | base64 -d |
		jq -c --arg t "$tree" '.subject[0].digest.gitTree = $t' >"$SC_TMP/st.json"
	git -C "$R" notes --ref speccoder remove HEAD 2>/dev/null
	attest_record "$R" HEAD --unsigned
	attest_note "$R" HEAD >"$SC_TMP/env.json"
	jq -c --arg p "$(base64 -w0 <"$SC_TMP/st.json")" '.payload = $p' \
		"$SC_TMP/env.json" >"$SC_TMP/unsigned.json"
	attest_pae "$SC_TMP/unsigned.json" "$SC_TMP/pae"
	ssh-keygen -q -Y sign -f "$SC_TMP/keys/trusted" -n in-toto "$SC_TMP/pae"
	jq -c --arg s "$(attest_dearmor "$SC_TMP/pae.sig")" '.signatures = [{sig: $s}]' \
		"$SC_TMP/unsigned.json" >"$SC_TMP/signed.json"
	attest_set_note "$R" HEAD "$SC_TMP/signed.json"
	verify --branch HEAD --base "$BASE"
	assert_failure 1
	run attest_outcome "$HEAD"
	assert_output mismatch
}

@test "a signer not in the verifier's file is untrusted, whatever it claims" {
	attest_record "$R" HEAD attacker
	verify --branch HEAD --base "$BASE"
	assert_failure 1
	run attest_outcome "$HEAD"
	assert_output untrusted-signer
}

@test "a huge note line is malformed, not a crash" {
	head -c 5000000 /dev/zero | tr '\0' 'a' >"$SC_TMP/big"
	attest_set_note "$R" HEAD "$SC_TMP/big"
	verify --branch HEAD --base "$BASE"
	assert_failure 1
	sc_assert_not_crashed
	run attest_outcome "$HEAD"
	assert_output malformed
}
