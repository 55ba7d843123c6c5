#!/usr/bin/env bats
# sc-attest record: canonical statements in DSSE envelopes, appended one a
# line to the commit's note under refs/notes/speccoder.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/attest

setup() {
	sc_common_setup
	attest_repo "$SC_TMP/repo" 2
	HEAD=$(git -C "$SC_TMP/repo" rev-parse HEAD)
	TREE=$(git -C "$SC_TMP/repo" rev-parse 'HEAD^{tree}')
	attest_key k ed25519
	attest_pred
}

record() {
	sc_run_io /dev/null "$SC_TMP/out.rec" sc-attest -C "$SC_TMP/repo" \
		record "$@"
}

@test "record writes an attestation record and a canonical envelope" {
	record --commit HEAD --predicate-type "$TEST_RESULT_TYPE" \
		--predicate "$SC_TMP/pred.json" --key "$SC_TMP/keys/k"
	assert_success
	run sc-rec --to-json <"$SC_TMP/out.rec"
	assert_output "{\"type\":\"attestation\",\"commit\":\"$HEAD\",\"predicate-type\":\"$TEST_RESULT_TYPE\",\"signed\":\"yes\",\"keyid\":\"$(ssh-keygen -l -f "$SC_TMP/keys/k.pub" | cut -d' ' -f2)\"}"
	attest_note "$SC_TMP/repo" HEAD >"$SC_TMP/env.json"
	# One line, and canonical: sorted keys, no white space.
	assert_equal "$(wc -l <"$SC_TMP/env.json")" 1
	assert_equal "$(cat "$SC_TMP/env.json")" "$(jq -S -c . "$SC_TMP/env.json")"
	run jq -r .payloadType "$SC_TMP/env.json"
	assert_output application/vnd.in-toto+json
	jq -r .payload "$SC_TMP/env.json" | base64 -d >"$SC_TMP/st.json"
	assert_equal "$(cat "$SC_TMP/st.json")" "$(jq -S -c . "$SC_TMP/st.json")"
	run jq -c . "$SC_TMP/st.json"
	assert_output "{\"_type\":\"https://in-toto.io/Statement/v1\",\"predicate\":{\"passedTests\":[\"t/unit\"],\"result\":\"PASSED\"},\"predicateType\":\"$TEST_RESULT_TYPE\",\"subject\":[{\"digest\":{\"gitCommit\":\"$HEAD\",\"gitTree\":\"$TREE\"},\"name\":\"$HEAD\"}]}"
}

@test "--subject names the subject; the predicate is canonicalised" {
	printf '{ "result" : "FAILED",\n  "failedTests": ["b", "a"], "configuration": [] }\n' \
		>"$SC_TMP/p.json"
	record --commit HEAD~1 --predicate-type "$TEST_RESULT_TYPE" \
		--predicate "$SC_TMP/p.json" --subject git+https://example.com/r --unsigned
	assert_success
	attest_note "$SC_TMP/repo" HEAD~1 >"$SC_TMP/env.json"
	run jq -r '.payload | @base64d | fromjson | .subject[0].name' "$SC_TMP/env.json"
	assert_output git+https://example.com/r
	run jq -r '.payload | @base64d' "$SC_TMP/env.json"
	assert_output --partial '"predicate":{"configuration":[],"failedTests":["b","a"],"result":"FAILED"}'
	run jq -c .signatures "$SC_TMP/env.json"
	assert_output '[]'
}

@test "a second record appends a line; notes are committed by speccoder" {
	attest_record "$SC_TMP/repo" HEAD k
	attest_record "$SC_TMP/repo" HEAD --unsigned
	assert_equal "$(attest_note "$SC_TMP/repo" HEAD | wc -l)" 2
	run git -C "$SC_TMP/repo" log --format='%an <%ae>|%cn <%ce>|%G?' refs/notes/speccoder
	assert_output "speccoder <speccoder@localhost>|speccoder <speccoder@localhost>|N
speccoder <speccoder@localhost>|speccoder <speccoder@localhost>|N"
}

@test "concurrent recorders lose no line" {
	local i pids=() failed=0
	for i in 1 2 3 4 5 6 7 8; do
		sc-attest -C "$SC_TMP/repo" record --commit HEAD --unsigned \
			--predicate-type "$TEST_RESULT_TYPE" \
			--predicate "$SC_TMP/pred.json" >/dev/null &
		pids+=("$!")
	done
	for i in "${pids[@]}"; do wait "$i" || failed=1; done
	assert_equal "$failed" 0
	assert_equal "$(attest_note "$SC_TMP/repo" HEAD | wc -l)" 8
}

@test "a predicate that is not JSON is PREDICATE, exit 3" {
	printf '{"result": PASSED}' >"$SC_TMP/bad.json"
	record --commit HEAD --predicate-type "$TEST_RESULT_TYPE" \
		--predicate "$SC_TMP/bad.json" --unsigned
	assert_equal "$status" 3
	[[ "$stderr" == "sc-attest: error[PREDICATE]: $SC_TMP/bad.json:1: "* ]]
	run git -C "$SC_TMP/repo" notes --ref speccoder list
	assert_output ''
}

@test "a test-result predicate breaking its rules is PREDICATE, exit 3" {
	printf '{"result":"GREAT"}' >"$SC_TMP/bad.json"
	record --commit HEAD --predicate-type "$TEST_RESULT_TYPE" \
		--predicate "$SC_TMP/bad.json" --unsigned
	assert_equal "$status" 3
	assert_equal "$stderr" "sc-attest: error[PREDICATE]: $SC_TMP/bad.json: test-result: result must be PASSED, WARNED or FAILED"
}

@test "duplicate keys in a predicate are refused" {
	printf '{"result":"PASSED","result":"FAILED"}' >"$SC_TMP/bad.json"
	record --commit HEAD --predicate-type "$TEST_RESULT_TYPE" \
		--predicate "$SC_TMP/bad.json" --unsigned
	assert_equal "$status" 3
}

@test "a task-verification predicate is checked and recorded" {
	local t=https://speccoder.dev/attestation/task-verification/v0.1
	cat >"$SC_TMP/task.json" <<'JSON'
{"feature":"001-login","task":{"id":"T003","line":"- [ ] T003 add the form"},
 "checks":[{"name":"test","argv":["make","test"],"exitStatus":0}],
 "heldOut":{"result":"PASSED"},
 "sandbox":{"tier":"full","enforced":["landlock","seccomp","netns"]},
 "policy":{"configDigest":{"sha256":"00"}},
 "model":{"provider":"replay","name":"fixture"}}
JSON
	record --commit HEAD --predicate-type "$t" --predicate "$SC_TMP/task.json" --unsigned
	assert_success
	jq 'del(.checks[0].exitStatus)' "$SC_TMP/task.json" >"$SC_TMP/bad.json"
	record --commit HEAD --predicate-type "$t" --predicate "$SC_TMP/bad.json" --unsigned
	assert_equal "$status" 3
	[[ "$stderr" == *"each check needs argv and exitStatus"* ]]
}

@test "a task-verification predicate's acceptance tests and mutation-score are checked" {
	local t=https://speccoder.dev/attestation/task-verification/v0.1
	cat >"$SC_TMP/task.json" <<'JSON'
{"feature":"f","task":{"id":"T1","line":"- [ ] T1 x"},
 "checks":[{"name":"test","argv":["make","test"],"exitStatus":0}],
 "acceptance":[{"name":"e2e","argv":["make","e2e"],"exitStatus":0}],
 "mutation-score":{"killed":9,"total":10,"minimum":80},
 "sandbox":{"tier":"full","enforced":[]}}
JSON
	record --commit HEAD --predicate-type "$t" --predicate "$SC_TMP/task.json" --unsigned
	assert_success
	local bad
	for bad in '.["mutation-score"].killed = 11' '.["mutation-score"].total = -1' \
		'.["mutation-score"].minimum = 101' '.["mutation-score"] = "9/10"' \
		'del(.["mutation-score"].total)' '.["mutation-score"].killed = 1.5'; do
		jq "$bad" "$SC_TMP/task.json" >"$SC_TMP/bad.json"
		record --commit HEAD --predicate-type "$t" --predicate "$SC_TMP/bad.json" --unsigned
		[ "$status" -eq 3 ] || fail "$bad: status $status"
		[[ "$stderr" == *"mutation-score needs killed and total"* ]] || fail "$bad: $stderr"
	done
	jq 'del(.acceptance[0].argv)' "$SC_TMP/task.json" >"$SC_TMP/bad.json"
	record --commit HEAD --predicate-type "$t" --predicate "$SC_TMP/bad.json" --unsigned
	assert_equal "$status" 3
	[[ "$stderr" == *"each acceptance test needs argv and exitStatus"* ]]
}

@test "a revision that names no commit is BAD-REVISION, exit 2" {
	record --commit nosuch --predicate-type "$TEST_RESULT_TYPE" \
		--predicate "$SC_TMP/pred.json" --unsigned
	assert_equal "$status" 2
	assert_equal "$stderr" "sc-attest: error[BAD-REVISION]: 'nosuch' does not name a commit"
}

@test "not a repository is NOT-A-REPOSITORY, exit 4" {
	mkdir "$SC_TMP/plain"
	sc_run_io /dev/null "$SC_TMP/out.rec" sc-attest -C "$SC_TMP/plain" \
		record --commit HEAD --predicate-type x --predicate "$SC_TMP/pred.json" --unsigned
	assert_equal "$status" 4
	[[ "$stderr" == "sc-attest: error[NOT-A-REPOSITORY]: "* ]]
}

@test "usage errors exit 2" {
	record --commit HEAD --predicate-type x --predicate "$SC_TMP/pred.json"
	assert_equal "$status" 2
	record --commit HEAD --predicate-type x --predicate "$SC_TMP/pred.json" \
		--unsigned --key "$SC_TMP/keys/k"
	assert_equal "$status" 2
	record --commit HEAD --predicate-type x --predicate "$SC_TMP/pred.json" \
		--unsigned --branch HEAD
	assert_equal "$status" 2
	sc_run_io /dev/null "$SC_TMP/out" sc-attest frobnicate
	assert_equal "$status" 2
	sc_run_io /dev/null "$SC_TMP/out" sc-attest
	assert_equal "$status" 2
}
