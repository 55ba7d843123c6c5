#!/usr/bin/env bats
# sc-attest verify: one result per commit of BASE..REV with every outcome,
# then the conclusion, and the exit codes of DESIGN.md.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/attest

setup() {
	sc_common_setup
	attest_repo "$SC_TMP/repo" 4
	R="$SC_TMP/repo"
	C1=$(git -C "$R" rev-parse HEAD~3)
	C2=$(git -C "$R" rev-parse HEAD~2)
	C3=$(git -C "$R" rev-parse HEAD~1)
	C4=$(git -C "$R" rev-parse HEAD)
	attest_key k ed25519
	attest_allow "$SC_TMP/allowed" ci@example.com k
}

verify() {
	attest_verify -C "$R" --allowed-signers "$SC_TMP/allowed" "$@"
}

# tamper REV JQ-FILTER: rewrite the note of REV through jq.
tamper() {
	attest_note "$R" "$1" >"$SC_TMP/env.json"
	jq -c "$2" "$SC_TMP/env.json" >"$SC_TMP/tampered.json"
	attest_set_note "$R" "$1" "$SC_TMP/tampered.json"
}

@test "every commit signed by a trusted key: success, exit 0" {
	local c
	for c in "$C2" "$C3" "$C4"; do attest_record "$R" "$c" k; done
	verify --branch HEAD --base "$C1"
	assert_success
	run jq -r '.type + " " + (.commit // .result) + " " + (.outcome // "")' "$SC_TMP/out.json"
	assert_output "result $C2 ok
result $C3 ok
result $C4 ok
conclusion success "
	run jq -r 'select(.type == "conclusion") | .commits + " " + .passed' "$SC_TMP/out.json"
	assert_output '3 3'
}

@test "a missing note: outcome missing, failure, exit 1" {
	attest_record "$R" "$C4" k
	verify --branch HEAD --base "$C2"
	assert_failure 1
	run attest_outcome "$C3"
	assert_output missing
	run attest_outcome "$C4"
	assert_output ok
	run attest_conclusion
	assert_output failure
}

@test "without --base every ancestor is checked" {
	attest_record "$R" "$C4" k
	verify --branch HEAD
	assert_failure 1
	assert_equal "$(jq -r 'select(.type == "result")' "$SC_TMP/out.json" | jq -s length)" 4
}

@test "a malformed note line is malformed, never a crash or a pass" {
	local line
	for line in 'not json' '[]' '{}' '{"payload":"!!","payloadType":"application/vnd.in-toto+json","signatures":[]}' \
		'{"payload":"e30=","payloadType":"application/vnd.in-toto+json","signatures":[]}' \
		'{"payload":"e30=","payloadType":"text/plain","signatures":[]}' \
		'{"payload":"e30=","payloadType":"application/vnd.in-toto+json","signatures":{}}' \
		'{"payload":"e30=","payload":"e30=","payloadType":"application/vnd.in-toto+json","signatures":[]}'; do
		printf '%s\n' "$line" >"$SC_TMP/note"
		attest_set_note "$R" "$C4" "$SC_TMP/note"
		verify --branch HEAD --base "$C3" --allow-unsigned
		assert_failure 1
		sc_assert_not_crashed
		run attest_outcome "$C4"
		assert_output malformed
	done
}

@test "a malformed line next to a good one still fails the commit" {
	attest_record "$R" "$C4" k
	{ attest_note "$R" "$C4"; echo garbage; } >"$SC_TMP/note"
	attest_set_note "$R" "$C4" "$SC_TMP/note"
	verify --branch HEAD --base "$C3"
	assert_failure 1
	run attest_outcome "$C4"
	assert_output malformed
}

@test "a tampered payload is bad-signature" {
	attest_record "$R" "$C4" k
	# Same subject, another result: the attacker's claim.
	tamper "$C4" '.payload |= (@base64d | fromjson | .predicate.result = "FAILED" | tojson | @base64)'
	verify --branch HEAD --base "$C3"
	assert_failure 1
	run attest_outcome "$C4"
	assert_output bad-signature
}

@test "a tampered signature is bad-signature" {
	attest_record "$R" "$C4" k
	# Flip bits in the last bytes of the signature value.
	tamper "$C4" '.signatures[0].sig |= (.[0:-8] + (if .[-8:-7] == "A" then "B" else "A" end) + .[-7:])'
	verify --branch HEAD --base "$C3"
	assert_failure 1
	run attest_outcome "$C4"
	assert_output bad-signature
}

@test "a signature that is not an sshsig blob is bad-signature" {
	attest_record "$R" "$C4" k
	tamper "$C4" '.signatures[0].sig = "aGVsbG8="'
	verify --branch HEAD --base "$C3"
	assert_failure 1
	run attest_outcome "$C4"
	assert_output bad-signature
}

@test "a keyid naming another key is bad-signature" {
	attest_record "$R" "$C4" k
	tamper "$C4" '.signatures[0].keyid = "SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"'
	verify --branch HEAD --base "$C3"
	assert_failure 1
	run attest_outcome "$C4"
	assert_output bad-signature
}

@test "a statement about another commit is mismatch" {
	attest_record "$R" "$C3" k
	attest_note "$R" "$C3" >"$SC_TMP/note"
	attest_set_note "$R" "$C4" "$SC_TMP/note"
	verify --branch HEAD --base "$C3"
	assert_failure 1
	run attest_outcome "$C4"
	assert_output mismatch
	run jq -r 'select(.type == "result") | .reason' "$SC_TMP/out.json"
	assert_output 'statement is about another commit'
}

@test "an untrusted key is untrusted-signer" {
	attest_key stranger ecdsa
	attest_record "$R" "$C4" stranger
	verify --branch HEAD --base "$C3"
	assert_failure 1
	run attest_outcome "$C4"
	assert_output untrusted-signer
	run jq -r 'select(.type == "result") | .reason' "$SC_TMP/out.json"
	assert_output 'key not in the allowed signers file'
}

@test "unsigned evidence fails without --allow-unsigned" {
	attest_record "$R" "$C4" --unsigned
	verify --branch HEAD --base "$C3"
	assert_failure 1
	run attest_outcome "$C4"
	assert_output unsigned
	run attest_conclusion
	assert_output failure
}

@test "unsigned evidence passes with --allow-unsigned" {
	attest_record "$R" "$C4" --unsigned
	verify --branch HEAD --base "$C3" --allow-unsigned
	assert_success
	run attest_outcome "$C4"
	assert_output unsigned
	run attest_conclusion
	assert_output success
}

@test "--allow-unsigned does not excuse a bad signature" {
	attest_record "$R" "$C4" k
	tamper "$C4" '.payload |= (@base64d | fromjson | .predicate.result = "FAILED" | tojson | @base64)'
	verify --branch HEAD --base "$C3" --allow-unsigned
	assert_failure 1
}

@test "an empty range is neutral: exit 1, or 0 with --neutral-ok" {
	verify --branch HEAD --base HEAD
	assert_failure 1
	run jq -c . "$SC_TMP/out.json"
	assert_output '{"type":"conclusion","result":"neutral","commits":"0","passed":"0"}'
	verify --branch HEAD --base HEAD --neutral-ok
	assert_success
}

@test "a note on a commit outside the range does not count" {
	attest_record "$R" "$C2" k
	verify --branch HEAD --base "$C2"
	assert_failure 1
	run jq -r 'select(.type == "result") | .outcome' "$SC_TMP/out.json"
	assert_output "missing
missing"
}

@test "two envelopes, one per predicate, both good: ok with both types" {
	local t=https://speccoder.dev/attestation/task-verification/v0.1
	attest_record "$R" "$C4" k
	printf '%s' '{"feature":"f","task":{"id":"T1","line":"- [ ] T1"},"checks":[],"sandbox":{"tier":"off"}}' >"$SC_TMP/task.json"
	sc-attest -C "$R" record --commit "$C4" --predicate-type "$t" \
		--predicate "$SC_TMP/task.json" --key "$SC_TMP/keys/k" >/dev/null
	verify --branch HEAD --base "$C3"
	assert_success
	run jq -r 'select(.type == "result") | ."predicate-type" | join(" ")' "$SC_TMP/out.json"
	assert_output "$TEST_RESULT_TYPE $t"
}

@test "merges: the range is every commit reachable from REV but not BASE" {
	git -C "$R" checkout -q -b side "$C2"
	printf 'side\n' >"$R/other"
	git -C "$R" add other
	git -C "$R" commit -q -m side
	git -C "$R" checkout -q main
	git -C "$R" merge -q --no-edit side
	verify --branch HEAD --base "$C3" --allow-unsigned
	assert_failure 1
	# c4, side and the merge.
	assert_equal "$(jq -r 'select(.type == "result") | .outcome' "$SC_TMP/out.json" | wc -l)" 3
}

@test "a bad --branch or --base is BAD-REVISION, exit 2" {
	verify --branch nosuch
	assert_equal "$status" 2
	verify --branch HEAD --base nosuch
	assert_equal "$status" 2
	[[ "$stderr" == *"error[BAD-REVISION]: 'nosuch' does not name a commit"* ]]
}

@test "a branch with 1,000 commits verifies" {
	attest_git_env
	attest_big_branch "$R" big 1000
	attest_bulk_notes "$R" big
	verify --branch big --allow-unsigned
	assert_success
	run jq -r 'select(.type == "conclusion") | .result + " " + .commits + " " + .passed' "$SC_TMP/out.json"
	assert_output 'success 1000 1000'
	# One commit in the middle signed for real by a trusted key: still all pass,
	# and that one is ok.
	MID=$(git -C "$R" rev-parse big~500)
	git -C "$R" notes --ref speccoder remove "$MID" 2>/dev/null
	attest_record "$R" "$MID" k
	verify --branch big
	assert_failure 1
	run jq -r 'select(.type == "result") | .outcome' "$SC_TMP/out.json"
	assert_equal "$(printf '%s\n' "$output" | sort | uniq -c | tr -s ' ')" " 1 ok
 999 unsigned"
}

# record_task REV KEY KILLED: a task-verification statement with a
# mutation score of KILLED/10.
record_task() {
	jq -n --argjson k "$3" '{feature: "f", task: {id: "T1", line: "- [ ] T1 x"},
		checks: [{name: "test", argv: ["make", "test"], exitStatus: 0}],
		sandbox: {tier: "full", enforced: []},
		"mutation-score": {killed: $k, total: 10}}' >"$SC_TMP/task.json"
	sc-attest -C "$R" record --commit "$1" \
		--predicate-type https://speccoder.dev/attestation/task-verification/v0.1 \
		--predicate "$SC_TMP/task.json" --key "$SC_TMP/keys/$2" >/dev/null
}

@test "a trusted task statement's mutation score is on its result; an untrusted one's is not" {
	record_task "$C4" k 9
	attest_key stranger ecdsa
	record_task "$C3" stranger 10
	attest_record "$R" "$C2" k
	verify --branch HEAD --base "$C1"
	assert_failure 1
	run jq -r 'select(.type == "result") | "\(.outcome) \(."mutation-score" // "-")"' "$SC_TMP/out.json"
	assert_output "ok -
untrusted-signer -
ok 9/10"
}
