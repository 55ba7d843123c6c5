#!/usr/bin/env bats
# sc-attest's SSH signatures interoperate with ssh-keygen -Y, both ways, for
# Ed25519, ECDSA P-256 and RSA.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/attest

setup() {
	sc_common_setup
	attest_repo "$SC_TMP/repo" 2
	HEAD=$(git -C "$SC_TMP/repo" rev-parse HEAD)
}

# sc-attest signs; ssh-keygen -Y verify accepts the signature over the PAE.
sc_signs_keygen_verifies() {
	attest_key k "$1"
	attest_allow "$SC_TMP/allowed" me@example.com k
	attest_record "$SC_TMP/repo" HEAD k
	attest_note "$SC_TMP/repo" HEAD >"$SC_TMP/env.json"
	attest_pae "$SC_TMP/env.json" "$SC_TMP/pae"
	attest_armor "$(jq -r '.signatures[0].sig' "$SC_TMP/env.json")" "$SC_TMP/sig"
	run ssh-keygen -Y verify -f "$SC_TMP/allowed" -I me@example.com \
		-n in-toto -s "$SC_TMP/sig" <"$SC_TMP/pae"
	assert_success
	assert_output --partial 'Good "in-toto" signature for me@example.com'
	# keyid is the fingerprint ssh-keygen -l prints.
	run jq -r '.signatures[0].keyid' "$SC_TMP/env.json"
	assert_output "$(ssh-keygen -l -f "$SC_TMP/keys/k.pub" | cut -d' ' -f2)"
	# And a changed message fails there too: the test can fail.
	printf 'x' >>"$SC_TMP/pae"
	run ssh-keygen -Y verify -f "$SC_TMP/allowed" -I me@example.com \
		-n in-toto -s "$SC_TMP/sig" <"$SC_TMP/pae"
	assert_failure
}

# ssh-keygen -Y sign signs the PAE of an unsigned envelope; sc-attest
# verify accepts the envelope with that signature.
keygen_signs_sc_verifies() {
	local ns="${2:-in-toto}" b64
	attest_key k "$1"
	attest_allow "$SC_TMP/allowed" me@example.com k
	attest_record "$SC_TMP/repo" HEAD --unsigned
	attest_note "$SC_TMP/repo" HEAD >"$SC_TMP/env.json"
	attest_pae "$SC_TMP/env.json" "$SC_TMP/pae"
	ssh-keygen -q -Y sign -f "$SC_TMP/keys/k" -n "$ns" "$SC_TMP/pae"
	b64=$(attest_dearmor "$SC_TMP/pae.sig")
	jq -c --arg s "$b64" '.signatures = [{sig: $s}]' "$SC_TMP/env.json" \
		>"$SC_TMP/signed.json"
	attest_set_note "$SC_TMP/repo" HEAD "$SC_TMP/signed.json"
	attest_verify -C "$SC_TMP/repo" --branch HEAD --base HEAD~1 \
		--allowed-signers "$SC_TMP/allowed"
}

@test "ed25519: sc-attest signs, ssh-keygen -Y verify accepts" {
	sc_signs_keygen_verifies ed25519
}

@test "ecdsa p-256: sc-attest signs, ssh-keygen -Y verify accepts" {
	sc_signs_keygen_verifies ecdsa
}

@test "rsa: sc-attest signs, ssh-keygen -Y verify accepts" {
	sc_signs_keygen_verifies rsa
}

@test "ed25519: ssh-keygen -Y sign, sc-attest verify accepts" {
	keygen_signs_sc_verifies ed25519
	assert_success
	run attest_outcome "$HEAD"
	assert_output ok
	run jq -r 'select(.type == "result") | .signer' "$SC_TMP/out.json"
	assert_output me@example.com
}

@test "ecdsa p-256: ssh-keygen -Y sign, sc-attest verify accepts" {
	keygen_signs_sc_verifies ecdsa
	assert_success
	run attest_outcome "$HEAD"
	assert_output ok
}

@test "rsa: ssh-keygen -Y sign, sc-attest verify accepts" {
	keygen_signs_sc_verifies rsa
	assert_success
	run attest_outcome "$HEAD"
	assert_output ok
}

@test "a signature ssh-keygen made for another namespace is bad" {
	keygen_signs_sc_verifies ed25519 git
	assert_failure 1
	run attest_outcome "$HEAD"
	assert_output bad-signature
}

@test "an encrypted key is refused with KEY-ENCRYPTED and nothing is noted" {
	mkdir -p "$SC_TMP/keys"
	ssh-keygen -q -t ed25519 -N 'secret phrase' -f "$SC_TMP/keys/enc"
	attest_pred
	sc_run_io /dev/null "$SC_TMP/out" sc-attest -C "$SC_TMP/repo" record \
		--commit HEAD --predicate-type "$TEST_RESULT_TYPE" \
		--predicate "$SC_TMP/pred.json" --key "$SC_TMP/keys/enc"
	assert_equal "$status" 4
	assert_equal "$stderr" "sc-attest: error[KEY-ENCRYPTED]: key '$SC_TMP/keys/enc' is protected by a passphrase; record with --unsigned and sign later"
	run git -C "$SC_TMP/repo" notes --ref speccoder list
	assert_output ''
}

@test "a PEM (non-OpenSSH) key is refused with KEY-FORMAT" {
	attest_key k ecdsa
	ssh-keygen -q -p -N '' -m PEM -f "$SC_TMP/keys/k"
	attest_pred
	sc_run_io /dev/null "$SC_TMP/out" sc-attest -C "$SC_TMP/repo" record \
		--commit HEAD --predicate-type "$TEST_RESULT_TYPE" \
		--predicate "$SC_TMP/pred.json" --key "$SC_TMP/keys/k"
	assert_equal "$status" 3
	[[ "$stderr" == *"error[KEY-FORMAT]"* ]]
}

@test "a symlinked key file is not followed" {
	attest_key k ed25519
	ln -s "$SC_TMP/keys/k" "$SC_TMP/link"
	attest_pred
	sc_run_io /dev/null "$SC_TMP/out" sc-attest -C "$SC_TMP/repo" record \
		--commit HEAD --predicate-type "$TEST_RESULT_TYPE" \
		--predicate "$SC_TMP/pred.json" --key "$SC_TMP/link"
	assert_equal "$status" 4
	[[ "$stderr" == *"error[KEY-READ]"* ]]
}
