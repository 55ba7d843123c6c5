#!/usr/bin/env bats
# allowed_signers: the verifier's file is the only trust, read as OpenSSH
# reads it (namespaces=, valid-after, valid-before); cert-authority and
# malformed lines are errors with the line number.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/attest

setup() {
	sc_common_setup
	attest_repo "$SC_TMP/repo" 1
	HEAD=$(git -C "$SC_TMP/repo" rev-parse HEAD)
	attest_key k ed25519
	attest_record "$SC_TMP/repo" HEAD k
	A="$SC_TMP/allowed"
}

verify_head() {
	attest_verify -C "$SC_TMP/repo" --branch HEAD --allowed-signers "$A"
}

@test "a listed key is ok, and the record names the principals" {
	attest_allow "$A" 'alice@example.com,ci@example.com' k
	verify_head
	assert_success
	run attest_outcome "$HEAD"
	assert_output ok
	run jq -r 'select(.type == "result") | .signer' "$SC_TMP/out.json"
	assert_output 'alice@example.com,ci@example.com'
	run attest_conclusion
	assert_output success
}

@test "comments, blank lines and CRLF line ends are accepted" {
	printf '# trusted signers\n\n' >"$A"
	printf '%s\r\n' "alice $(cut -d' ' -f1,2 "$SC_TMP/keys/k.pub") a comment" >>"$A"
	verify_head
	assert_success
}

@test "namespaces= that includes in-toto is ok" {
	attest_allow "$A" alice k 'namespaces="git,in-toto"'
	verify_head
	assert_success
}

@test "namespaces= with a pattern is ok" {
	attest_allow "$A" alice k 'namespaces="in-*"'
	verify_head
	assert_success
}

@test "namespaces= without in-toto makes the signer untrusted" {
	attest_allow "$A" alice k 'namespaces="git,file"'
	verify_head
	assert_failure 1
	run attest_outcome "$HEAD"
	assert_output untrusted-signer
	run jq -r 'select(.type == "result") | .reason' "$SC_TMP/out.json"
	assert_output 'key not allowed for this namespace'
}

@test "a negated namespace wins over a pattern" {
	attest_allow "$A" alice k 'namespaces="*,!in-toto"'
	verify_head
	assert_failure 1
	run attest_outcome "$HEAD"
	assert_output untrusted-signer
}

@test "an expired principal (valid-before in the past) is untrusted" {
	attest_allow "$A" alice k 'valid-before="20200101Z"'
	verify_head
	assert_failure 1
	run jq -r 'select(.type == "result") | .outcome + " " + .reason' "$SC_TMP/out.json"
	assert_output 'untrusted-signer key expired'
}

@test "a principal not yet valid (valid-after in the future) is untrusted" {
	attest_allow "$A" alice k 'valid-after="29991231235959Z"'
	verify_head
	assert_failure 1
	run jq -r 'select(.type == "result") | .reason' "$SC_TMP/out.json"
	assert_output 'key not yet valid'
}

@test "a validity window around now is ok" {
	attest_allow "$A" alice k 'valid-after="20200101",valid-before="29990101"'
	verify_head
	assert_success
}

@test "a revoked key (its line removed) is untrusted while another stays" {
	attest_key other ecdsa
	attest_allow "$A" bob other
	verify_head
	assert_failure 1
	run attest_outcome "$HEAD"
	assert_output untrusted-signer
}

@test "cert-authority is refused with the line number, exit 2" {
	printf '# header\n' >"$A"
	attest_allow "$A" '*@example.com' k cert-authority
	verify_head
	assert_equal "$status" 2
	assert_equal "$stderr" "sc-attest: error[ALLOWED-SIGNERS]: $A:2: cert-authority is not supported: list each signer's own key"
	assert_equal "$(cat "$SC_TMP/out.rec")" ''
}

@test "a malformed line is ALLOWED-SIGNERS with its line number, exit 2" {
	attest_allow "$A" alice k
	printf 'bob ssh-ed25519 not-base64!\n' >>"$A"
	verify_head
	assert_equal "$status" 2
	[[ "$stderr" == "sc-attest: error[ALLOWED-SIGNERS]: $A:2: "* ]]
}

@test "unknown options, unquoted values and bad times are errors" {
	local opt
	for opt in 'nosuch' 'namespaces=in-toto' 'valid-before="2020"' \
		'valid-after="20201301"' 'namespaces="a",namespaces="b"'; do
		: >"$A"
		attest_allow "$A" alice k "$opt"
		verify_head
		assert_equal "$status" 2
		[[ "$stderr" == *"error[ALLOWED-SIGNERS]: $A:1: "* ]]
	done
}

@test "a key type that cannot be checked is ignored with a warning" {
	printf 'bob sk-ssh-ed25519@openssh.com AAAAGnNrLXNzaC1lZDI1NTE5QG9wZW5zc2guY29tAAAAIA== x\n' >"$A"
	attest_allow "$A" alice k
	verify_head
	assert_success
	[[ "$stderr" == *"warning[UNSUPPORTED-KEY]: $A:1: key type not supported by sc-attest; line ignored"* ]]
}

@test "a missing allowed-signers file is ALLOWED-SIGNERS, exit 2" {
	verify_head
	assert_equal "$status" 2
	[[ "$stderr" == *"error[ALLOWED-SIGNERS]: cannot read '$A'"* ]]
}

@test "no --allowed-signers is NO-TRUST, exit 2" {
	attest_verify -C "$SC_TMP/repo" --branch HEAD
	assert_equal "$status" 2
	assert_equal "$stderr" "sc-attest: error[NO-TRUST]: no --allowed-signers: trust comes only from the verifier, never from the checked branch"
}

@test "ssh-keygen agrees: the same file refuses the in-toto namespace" {
	attest_allow "$A" alice k 'namespaces="git"'
	attest_note "$SC_TMP/repo" HEAD >"$SC_TMP/env.json"
	attest_pae "$SC_TMP/env.json" "$SC_TMP/pae"
	attest_armor "$(jq -r '.signatures[0].sig' "$SC_TMP/env.json")" "$SC_TMP/sig"
	run ssh-keygen -Y verify -f "$A" -I alice -n in-toto -s "$SC_TMP/sig" <"$SC_TMP/pae"
	assert_failure
	verify_head
	assert_failure 1
}
