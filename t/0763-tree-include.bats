#!/usr/bin/env bats
# sc-tree include, sc-classify --included and sc-mask --secret-file on
# their own (issue 23): the person's git-ignored files copied into an
# attempt's worktree without following a link, refused to the model's
# tools, their secrets masked.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common

setup() {
	sc_common_setup
	export GIT_CONFIG_GLOBAL=/dev/null
	co=$SC_TMP/checkout wt=$SC_TMP/wt
	git init -q -b main "$co"
	cd "$co" || return 1
	git config user.email test@example.invalid
	git config user.name test
	printf '.env*\n*.key\nconf/\n' >.gitignore
	printf '.env.test\n' >.worktreeinclude
	printf 'echo hi\n' >run.sh
	git add -A
	git commit -q -m start
	token="tok-$RANDOM$RANDOM-abcdefghij"
	printf 'API_TOKEN=%s\nHOST=localhost\n' "$token" >.env.test
	chmod 755 .env.test
	printf 'keyline-abcdefghij\n' >test.key
	printf 'OTHER_TOKEN=other-abcdefghij\n' >.env.other
	git worktree add -q "$wt" -b attempt
	cand=$SC_TMP/cand
	git ls-files -z --others --ignored --exclude-standard >"$cand"
}

teardown() {
	sc_common_teardown
}

include() { # ARG...
	sc_run_io /dev/null "$SC_TMP/out" sc-tree -C "$wt" include --from "$co" \
		--candidates "$cand" --secrets "$SC_TMP/secrets" "$@"
	sc-rec --to-json <"$SC_TMP/out" >"$SC_TMP/out.json"
}

@test "sc-tree include: the committed list and --pattern select ignored files, copied owner-only with their secrets" {
	include --pattern '*.key'
	assert_success
	run jq -r 'select(.type == "included") | "\(.path) \(.mode) \(.kind)"' "$SC_TMP/out.json"
	assert_output $'.env.test 0700 dotenv\ntest.key 0600 key'
	assert_equal "$(stat -c %a "$wt/.env.test")" 700
	assert_equal "$(stat -c %a "$wt/test.key")" 600
	cmp "$co/.env.test" "$wt/.env.test"
	[ ! -e "$wt/.env.other" ]
	# No record of the output holds a value; the secrets file does, 0600.
	run grep -c -F "$token" "$SC_TMP/out"
	assert_output 0
	assert_equal "$(stat -c %a "$SC_TMP/secrets")" 600
	run jq -r '"\(.name) \(.value)"' < <(sc-rec --to-json <"$SC_TMP/secrets")
	assert_output "API_TOKEN $token
test.key:1 keyline-abcdefghij"
}

@test "sc-tree include: .worktreeinclude is read from HEAD's tree, never from the worktree" {
	printf '.env.other\n' >>"$wt/.worktreeinclude"
	include
	assert_success
	[ ! -e "$wt/.env.other" ]
	# Control: committed, the same line selects it.
	printf '.env.other\n' >>"$co/.worktreeinclude"
	git -C "$co" commit -q -am "include .env.other"
	git -C "$wt" checkout -q -- .worktreeinclude
	git -C "$wt" merge -q --ff-only main
	include
	assert_success
	[ -e "$wt/.env.other" ]
}

@test "sc-tree include: a symlink in the checkout is never followed (INCLUDE-SYMLINK), the other files still copied" {
	mkdir -p "$SC_TMP/elsewhere"
	printf 'private-material-abcdefghij\n' >"$SC_TMP/elsewhere/id.key"
	ln -s "$SC_TMP/elsewhere/id.key" "$co/link.key"
	ln -s "$SC_TMP/elsewhere" "$co/conf"
	git -C "$co" ls-files -z --others --ignored --exclude-standard >"$cand"
	printf 'conf/id.key\0' >>"$cand"
	include --pattern '*.key'
	assert_failure 1
	run jq -r 'select(.type == "skipped") | "\(.code) \(.path)"' "$SC_TMP/out.json"
	assert_line "INCLUDE-SYMLINK link.key"
	assert_line "INCLUDE-SYMLINK conf/id.key"
	assert_regex "$stderr" "error\\[INCLUDE-SYMLINK\\]"
	run grep -r -l private-material "$wt"
	assert_output ""
	[ -e "$wt/.env.test" ] && [ -e "$wt/test.key" ]
}

@test "sc-tree include: a file over 1 MiB is left out (INCLUDE-TOO-LARGE)" {
	head -c 1048577 /dev/zero >"$co/big.key"
	git -C "$co" ls-files -z --others --ignored --exclude-standard >"$cand"
	include --pattern '*.key'
	assert_failure 1
	run jq -r 'select(.type == "skipped") | "\(.code) \(.path)"' "$SC_TMP/out.json"
	assert_output "INCLUDE-TOO-LARGE big.key"
	[ ! -e "$wt/big.key" ] && [ -e "$wt/test.key" ]
}

@test "sc-tree include: a pattern that escapes the checkout or names a tracked file refuses the list, nothing copied" {
	# shellcheck disable=SC2088 # a literal ~ in a pattern is the attack
	for p in '../outside.key' 'a/../../x' '~/.ssh/id_rsa' 'run.sh' '*.sh'; do
		rm -f "$wt/.env.test"
		include --pattern "$p"
		assert_failure 1
		run jq -r 'select(.type == "refused") | .code' "$SC_TMP/out.json"
		case "$p" in
		*.sh) assert_output INCLUDE-TRACKED ;;
		*) assert_output INCLUDE-ESCAPES ;;
		esac
		[ ! -e "$wt/.env.test" ]
	done
}

@test "sc-tree include: a symlink the model left at the target is not written through" {
	printf 'keep me\n' >"$SC_TMP/victim"
	ln -s "$SC_TMP/victim" "$wt/.env.test"
	include
	assert_failure 1
	run jq -r 'select(.type == "skipped") | .code' "$SC_TMP/out.json"
	assert_output INCLUDE-UNWRITABLE
	assert_equal "$(cat "$SC_TMP/victim")" "keep me"
}

@test "sc-tree include: a secret too short to mask is said once and left out of the records" {
	printf 'DB_PASSWORD=test\nAPI_TOKEN=%s\n' "$token" >"$co/.env.test"
	include
	assert_success
	assert_regex "$stderr" "warning\\[SHORT-SECRET\\]: 'DB_PASSWORD' of '.env.test'"
	run jq -r .name < <(sc-rec --to-json <"$SC_TMP/secrets")
	assert_output API_TOKEN
	# So a masker of the run says nothing about it.
	sc_run_io /dev/null "$SC_TMP/m" sc-mask --records "$SC_TMP/secrets"
	assert_equal "$stderr" ""
}

@test "sc-tree include: --dry-run copies nothing and still names the secrets" {
	include --dry-run
	assert_success
	[ ! -e "$wt/.env.test" ]
	run jq -r 'select(.type == "included") | .path' "$SC_TMP/out.json"
	assert_output .env.test
	run jq -r .name < <(sc-rec --to-json <"$SC_TMP/secrets")
	assert_output API_TOKEN
}

@test "sc-tree include: --pattern goes with include only, include needs --from and --candidates" {
	run sc-tree -C "$wt" diff --pattern x
	assert_failure 2
	run sc-tree -C "$wt" include --candidates "$cand"
	assert_failure 2
}

@test "sc-classify --included: every name of an included file is denied to reads and writes (deny.included-file)" {
	printf '.env.test\0' >"$SC_TMP/inc"
	cp "$co/.env.test" "$wt/.env.test"
	ln -s .env.test "$wt/alias"
	{
		sc-rec type=call id=1 tool=read path=.env.test
		sc-rec type=call id=2 tool=write path=.env.test content=x
		sc-rec type=call id=3 tool=read path=alias
		sc-rec type=call id=4 tool=run shell='cat .env.test'
		sc-rec type=call id=5 tool=read path=run.sh
	} >"$SC_TMP/calls"
	sc_run_io "$SC_TMP/calls" "$SC_TMP/v" sc-classify --root "$wt" --included "$SC_TMP/inc" --no-stop
	run jq -r '"\(.id) \(.decision) \(.rule)"' < <(sc-rec --to-json <"$SC_TMP/v")
	assert_output "1 deny deny.included-file
2 deny deny.included-file
3 deny deny.included-file
4 deny deny.included-file
5 allow allow.read"
	# Control: without the list, the secret-name rule.
	sc_run_io "$SC_TMP/calls" "$SC_TMP/v" sc-classify --root "$wt"
	run jq -r 'select(.id == "1") | .rule' < <(sc-rec --to-json <"$SC_TMP/v")
	assert_output deny.secret-file
}

@test "sc-classify --no-stop: three denials in a row do not end the judging" {
	for i in 1 2 3 4; do sc-rec type=call id="$i" tool=read path=.env; done >"$SC_TMP/calls"
	sc_run_io "$SC_TMP/calls" "$SC_TMP/v" sc-classify --root "$wt"
	assert_failure 1
	run jq -r .type < <(sc-rec --to-json <"$SC_TMP/v")
	assert_output $'verdict\nverdict\nverdict\nstop'
	sc_run_io "$SC_TMP/calls" "$SC_TMP/v" sc-classify --root "$wt" --no-stop
	assert_success
	run jq -r .type < <(sc-rec --to-json <"$SC_TMP/v")
	assert_output $'verdict\nverdict\nverdict\nverdict'
}

@test "sc-mask --secret-file: a dotenv file's secret-named values, a key file's lines, in every form" {
	b64=$(printf %s "$token" | base64)
	printf 'a %s b %s c localhost d keyline-abcdefghij %s\n' "$token" "${b64%%=*}" \
		"$(printf %s "$token" | od -An -tx1 | tr -d ' \n')" >"$SC_TMP/log"
	sc_run_io "$SC_TMP/log" "$SC_TMP/masked" sc-mask --secret-file "$co/.env.test" --secret-file test.key
	assert_success
	run cat "$SC_TMP/masked"
	assert_output --partial "a [redacted:API_TOKEN] b [redacted:API_TOKEN]"
	assert_output --partial "c localhost d [redacted:test.key:1] [redacted:API_TOKEN]"
	run grep -c -F "$token" "$SC_TMP/masked"
	assert_output 0
	sc_run_io /dev/null "$SC_TMP/masked" sc-mask --secret-file "$SC_TMP/missing"
	assert_failure 2
	assert_regex "$stderr" "SECRETS-FILE"
}
