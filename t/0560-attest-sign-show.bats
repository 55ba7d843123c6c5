#!/usr/bin/env bats
# sc-attest sign (signing unsigned evidence later) and show (for a person).

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/attest

setup() {
	sc_common_setup
	attest_repo "$SC_TMP/repo" 2
	R="$SC_TMP/repo"
	HEAD=$(git -C "$R" rev-parse HEAD)
	attest_key k ed25519
	attest_allow "$SC_TMP/allowed" ci@example.com k
}

sign() {
	sc_run_io /dev/null "$SC_TMP/out.rec" sc-attest -C "$R" sign "$@"
}

@test "sign turns an unsigned envelope into one verify accepts" {
	attest_record "$R" HEAD --unsigned
	attest_verify -C "$R" --branch HEAD --base HEAD~1 --allowed-signers "$SC_TMP/allowed"
	assert_failure 1
	sign --commit HEAD --key "$SC_TMP/keys/k"
	assert_success
	run sc-rec --to-json <"$SC_TMP/out.rec"
	assert_output --partial "\"type\":\"attestation\",\"commit\":\"$HEAD\""
	assert_output --partial '"signed":"yes"'
	assert_equal "$(attest_note "$R" HEAD | wc -l)" 1
	attest_verify -C "$R" --branch HEAD --base HEAD~1 --allowed-signers "$SC_TMP/allowed"
	assert_success
	run attest_outcome "$HEAD"
	assert_output ok
}

@test "sign keeps signed, malformed and other lines, and signs only its own" {
	attest_record "$R" HEAD k
	attest_record "$R" HEAD~1 --unsigned
	{
		attest_note "$R" HEAD
		echo 'not an envelope'
		attest_note "$R" HEAD~1
	} >"$SC_TMP/note"
	attest_set_note "$R" HEAD "$SC_TMP/note"
	sign --commit HEAD --key "$SC_TMP/keys/k"
	assert_failure 1
	[[ "$stderr" == *"warning[NOT-THIS-COMMIT]: note line 3 is not a statement about $HEAD; left unsigned"* ]]
	[[ "$stderr" == *"warning[NOTHING-TO-SIGN]"* ]]
	# Nothing was rewritten.
	assert_equal "$(attest_note "$R" HEAD)" "$(cat "$SC_TMP/note")"
	# Now with an unsigned statement of its own: only that line changes.
	attest_record "$R" HEAD --unsigned
	sign --commit HEAD --key "$SC_TMP/keys/k"
	assert_success
	attest_note "$R" HEAD >"$SC_TMP/after"
	assert_equal "$(head -n 3 "$SC_TMP/after")" "$(cat "$SC_TMP/note")"
	run jq -r '.signatures | length' <(sed -n 4p "$SC_TMP/after")
	assert_output 1
}

@test "sign without a note is NO-NOTE, exit 1" {
	sign --commit HEAD --key "$SC_TMP/keys/k"
	assert_failure 1
	assert_equal "$stderr" "sc-attest: error[NO-NOTE]: 'HEAD' has no note to sign"
}

@test "sign with an encrypted key is KEY-ENCRYPTED and changes nothing" {
	attest_record "$R" HEAD --unsigned
	ssh-keygen -q -t ed25519 -N 'pass phrase' -f "$SC_TMP/keys/enc"
	attest_note "$R" HEAD >"$SC_TMP/before"
	sign --commit HEAD --key "$SC_TMP/keys/enc"
	assert_equal "$status" 4
	[[ "$stderr" == *"error[KEY-ENCRYPTED]"* ]]
	assert_equal "$(attest_note "$R" HEAD)" "$(cat "$SC_TMP/before")"
}

@test "show prints statements and signature validity, escaped" {
	attest_pred
	printf '{"result":"PASSED","url":"\\u001b[31mred\\u202e"}' >"$SC_TMP/p.json"
	sc-attest -C "$R" record --commit HEAD --predicate-type "$TEST_RESULT_TYPE" \
		--predicate "$SC_TMP/p.json" --key "$SC_TMP/keys/k" >/dev/null
	sc_run_io /dev/null "$SC_TMP/out.txt" sc-attest -C "$R" show HEAD
	assert_success
	run cat "$SC_TMP/out.txt"
	assert_line "commit $HEAD"
	assert_line 'envelope 1: in-toto statement, 1 signature'
	assert_line "  signature: valid, ssh-ed25519 $(ssh-keygen -l -f "$SC_TMP/keys/k.pub" | cut -d' ' -f2) (trust is decided by verify)"
	assert_line --partial '"url": "\u001B[31mred\u202E"'
	# No raw escape byte reaches the terminal.
	run grep -c $'\033' "$SC_TMP/out.txt"
	assert_output 0
}

@test "show marks a tampered signature invalid and a bad line malformed" {
	attest_record "$R" HEAD k
	attest_note "$R" HEAD | jq -c '.payload |= (@base64d | fromjson | .predicate.result = "FAILED" | tojson | @base64)' >"$SC_TMP/note"
	echo '{' >>"$SC_TMP/note"
	attest_set_note "$R" HEAD "$SC_TMP/note"
	sc_run_io /dev/null "$SC_TMP/out.txt" sc-attest -C "$R" show HEAD
	assert_success
	run cat "$SC_TMP/out.txt"
	assert_line '  signature: INVALID (signature does not verify)'
	assert_line 'envelope 2: malformed (envelope is not a JSON object)'
}

@test "show without a note is NO-NOTE, exit 1; usage errors exit 2" {
	sc_run_io /dev/null "$SC_TMP/out.txt" sc-attest -C "$R" show HEAD
	assert_failure 1
	[[ "$stderr" == *"error[NO-NOTE]: 'HEAD' has no attestation"* ]]
	sc_run_io /dev/null "$SC_TMP/out.txt" sc-attest -C "$R" show
	assert_equal "$status" 2
	sc_run_io /dev/null "$SC_TMP/out.txt" sc-attest -C "$R" show HEAD --branch HEAD
	assert_equal "$status" 2
	sign --commit HEAD
	assert_equal "$status" 2
	sign --commit HEAD --key "$SC_TMP/keys/k" --unsigned
	assert_equal "$status" 2
}
