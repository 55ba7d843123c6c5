#!/usr/bin/env bats
# sc-attest record --evidence: the task-verification predicate built in C
# from evidence records (sc-attest(1), EVIDENCE), by the code that checks
# one, so the run's driver builds no JSON.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/attest

TASK_TYPE=https://speccoder.dev/attestation/task-verification/v0.1

setup() {
	sc_common_setup
	attest_repo "$SC_TMP/repo" 2
	attest_key k ed25519
	# A journal as a run writes it: checks run twice (the last counts),
	# an acceptance test, a format step, records of other types.
	{
		sc-rec type=run command=run feature=001-login tier=full
		sc-rec type=evidence kind=check name=test argv=make argv=test status=1
		sc-rec type=evidence name=lint argv=make argv=lint status=0
		sc-rec type=call id=1 tool=read path=x
		sc-rec type=evidence kind=acceptance name=e2e argv=bats argv=e2e status=0
		sc-rec type=evidence kind=format name=fmt argv=fmt status=0
		sc-rec type=evidence kind=check name=test argv=make argv=test status=0
		sc-rec type=held-out result=FAILED label=held-out
	} >"$SC_TMP/journal"
	{
		cat "$SC_TMP/journal"
		sc-rec type=feature name=001-login
		sc-rec type=task n=3 line=12 state=open "text=T003 add the form"
		sc-rec type=held-out result=PASSED
		sc-rec type=host tier=full
		sc-rec type=protection tier=full name=landlock enforced=yes
		sc-rec type=protection tier=full name=network enforced=no
		sc-rec type=protection tier=landlock name=landlock enforced=yes
		sc-rec type=protection tier=full name=kill-all enforced=yes
		sc-rec type=policy config-sha256=00ff
		sc-rec type=model provider=replay name=fixture
		sc-rec type=mutation-score killed=9 total=10 minimum=80 result=pass
	} >"$SC_TMP/evidence"
}

record() {
	sc_run_io /dev/null "$SC_TMP/out.rec" sc-attest -C "$SC_TMP/repo" \
		record "$@"
}

# The predicate of HEAD's last envelope, canonical.
predicate() {
	attest_note "$SC_TMP/repo" HEAD | tail -n 1 |
		jq -c '.payload | @base64d | fromjson | .predicate'
}

# No note on HEAD: nothing was written.
assert_no_note() {
	run git -C "$SC_TMP/repo" notes --ref speccoder list HEAD
	assert_failure
}

@test "evidence records become the task-verification predicate" {
	record --commit HEAD --evidence "$SC_TMP/evidence" --subject 001-login --unsigned
	assert_success
	run sc-rec --to-json <"$SC_TMP/out.rec"
	assert_output --partial "\"predicate-type\":\"$TASK_TYPE\""
	run predicate
	assert_output '{"acceptance":[{"argv":["bats","e2e"],"exitStatus":0,"name":"e2e"}],"checks":[{"argv":["make","lint"],"exitStatus":0,"name":"lint"},{"argv":["make","test"],"exitStatus":0,"name":"test"}],"feature":"001-login","heldOut":{"result":"PASSED"},"model":{"name":"fixture","provider":"replay"},"mutation-score":{"killed":9,"minimum":80,"total":10},"policy":{"configDigest":{"sha256":"00ff"}},"sandbox":{"enforced":["landlock","kill-all"],"tier":"full"},"task":{"id":"T003","line":"12"}}'
}

@test "the predicate is the one the driver's jq used to build" {
	# The jq the run used before the predicate moved into C, on the same
	# journal and values: the statement keeps its structure.
	local enforced
	enforced=$(sc-rec --to-json <"$SC_TMP/evidence" |
		jq -c '[select(.type == "protection" and .tier == "full" and .enforced == "yes") | .name]' | jq -cs 'add // []')
	sc-rec --to-json <"$SC_TMP/journal" | jq -s -S -c \
		--arg feature 001-login --arg id T003 --arg line 12 --arg tier full \
		--argjson enforced "$enforced" --arg conf 00ff --arg held PASSED \
		--arg provider replay --arg model fixture \
		--argjson mutation '{"killed":9,"total":10,"minimum":80}' '
		def evidence($k): [.[] | select(.type == "evidence" and (.kind // "check") == $k) | {name, argv: (if (.argv | type) == "string" then [.argv] else .argv end), exitStatus: (.status | tonumber)}] | group_by(.name) | map(last);
		{feature: $feature, task: {id: $id, line: $line},
		 checks: evidence("check"), acceptance: evidence("acceptance"),
		 heldOut: {result: $held}, sandbox: {tier: $tier, enforced: $enforced},
		 policy: {configDigest: {sha256: $conf}},
		 model: {provider: $provider, name: $model}} +
		(if $mutation then {"mutation-score": $mutation} else {} end)' >"$SC_TMP/jq.json"
	record --commit HEAD --evidence "$SC_TMP/evidence" --unsigned
	assert_success
	run predicate
	assert_output "$(cat "$SC_TMP/jq.json")"
}

@test "defaults: no held-out is NONE, a degraded tier, an id from n, no optional members" {
	{
		sc-rec type=feature name=f
		sc-rec type=task n=2 line=5 "text=add the form"
		sc-rec type=host tier=landlock
		sc-rec type=protection tier=landlock name=landlock enforced=yes
		sc-rec type=protection tier=full name=network enforced=yes
	} >"$SC_TMP/min"
	record --commit HEAD --evidence "$SC_TMP/min" --predicate-type "$TASK_TYPE" --unsigned
	assert_success
	run predicate
	assert_output '{"acceptance":[],"checks":[],"feature":"f","heldOut":{"result":"NONE"},"sandbox":{"enforced":["landlock"],"tier":"degraded"},"task":{"id":"2","line":"5"}}'
}

@test "evidence from standard input, signed, verifies" {
	sc_run_io "$SC_TMP/evidence" "$SC_TMP/out.rec" sc-attest -C "$SC_TMP/repo" \
		record --commit HEAD~1 --evidence - --key "$SC_TMP/keys/k"
	assert_success
	attest_allow "$SC_TMP/signers" ci@example.com k
	sc_run_io /dev/null "$SC_TMP/v.rec" sc-attest -C "$SC_TMP/repo" verify \
		--branch HEAD~1 --allowed-signers "$SC_TMP/signers"
	assert_success
	run sc-rec --to-json <"$SC_TMP/v.rec"
	assert_output --partial '"outcome":"ok"'
	assert_output --partial '"mutation-score":"9/10"'
}

@test "bad evidence is EVIDENCE, exit 3, and leaves no note" {
	local -a cases=(
		'no feature|type=task n=1 line=1|type=host tier=full|one type=feature record'
		'no task|type=feature name=f|type=host tier=full|one type=task record'
		'task without line|type=feature name=f|type=task n=1|type=host tier=full|one type=task record'
		'no host|type=feature name=f|type=task n=1 line=1|the sandbox probe'
		'bad status|type=evidence name=t argv=x status=0x1|evidence needs a decimal status'
		'no argv|type=evidence name=t status=0|evidence needs argv'
		'no name|type=evidence argv=x status=0|evidence needs a name'
		'two names|type=evidence name=a name=b argv=x status=0|repeated'
		'protection|type=protection name=x tier=full|a protection needs'
		'policy|type=policy|type=policy needs config-sha256'
		'mutation|type=mutation-score killed=1|mutation-score needs'
		'killed over total|type=mutation-score killed=3 total=2|mutation-score needs killed'
	)
	local c r want
	for c in "${cases[@]}"; do
		IFS='|' read -r -a parts <<<"$c"
		want=${parts[-1]}
		{
			# A complete set first, then the case's records (last wins),
			# or only the case's records when it removes a required one.
			case "${parts[0]}" in
			no\ *|task\ without\ line) ;;
			*) cat "$SC_TMP/evidence" ;;
			esac
			for r in "${parts[@]:1:${#parts[@]}-2}"; do
				# shellcheck disable=SC2086 # the fields are words
				sc-rec $r
			done
		} >"$SC_TMP/bad"
		record --commit HEAD --evidence "$SC_TMP/bad" --key "$SC_TMP/keys/k"
		[ "$status" -eq 3 ] || fail "${parts[0]}: status $status: $stderr"
		[[ "$stderr" == "sc-attest: error[EVIDENCE]: "*"$want"* ]] || fail "${parts[0]}: $stderr"
		[ ! -s "$SC_TMP/out.rec" ] || fail "${parts[0]}: a record was written"
		assert_no_note
	done
}

@test "a value that is not UTF-8 is refused, not mangled" {
	{ cat "$SC_TMP/evidence"; printf 'type=evidence\0name=t\0argv=\377\0status=0\0\0'; } >"$SC_TMP/bad"
	record --commit HEAD --evidence "$SC_TMP/bad" --unsigned
	assert_equal "$status" 3
	assert_equal "$stderr" "sc-attest: error[EVIDENCE]: record 20: an evidence argv word is not UTF-8"
	assert_no_note
}

@test "a malformed record stream is MALFORMED-RECORD, exit 3, nothing written" {
	{ cat "$SC_TMP/evidence"; printf 'type=evidence\0name'; } >"$SC_TMP/bad"
	record --commit HEAD --evidence "$SC_TMP/bad" --unsigned
	assert_equal "$status" 3
	[[ "$stderr" == "sc-attest: error[MALFORMED-RECORD]: "* ]]
	assert_no_note
	record --commit HEAD --evidence "$SC_TMP/nosuch" --unsigned
	assert_equal "$status" 3
	[[ "$stderr" == "sc-attest: error[EVIDENCE]: cannot open '$SC_TMP/nosuch'"* ]]
	assert_no_note
}

@test "more evidence names than the limit is refused: memory stays bounded" {
	{
		cat "$SC_TMP/evidence"
		for i in $(seq 1 1025); do
			printf 'type=evidence\0name=c%s\0argv=x\0status=0\0\0' "$i"
		done
	} >"$SC_TMP/many"
	record --commit HEAD --evidence "$SC_TMP/many" --unsigned
	assert_equal "$status" 3
	[[ "$stderr" == *"more evidence names than the limit"* ]]
	assert_no_note
}

@test "--evidence usage: one of --predicate and --evidence, its own type only" {
	attest_pred
	record --commit HEAD --evidence "$SC_TMP/evidence" --predicate "$SC_TMP/pred.json" \
		--predicate-type "$TASK_TYPE" --unsigned
	assert_equal "$status" 2
	record --commit HEAD --evidence "$SC_TMP/evidence" --predicate-type "$TEST_RESULT_TYPE" --unsigned
	assert_equal "$status" 2
	[[ "$stderr" == *"--evidence builds a task-verification predicate only"* ]]
	record --commit HEAD --predicate "$SC_TMP/pred.json" --unsigned
	assert_equal "$status" 2
	record --commit HEAD --unsigned
	assert_equal "$status" 2
	assert_no_note
}
