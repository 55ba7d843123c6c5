#!/usr/bin/env bats
# git speccoder exec and check: sandboxed, masked, journaled.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/porcelain

setup() {
	sc_common_setup
	sc_porcelain_repo
	if ! unshare -U -r true 2>/dev/null; then
		skip "user namespaces are not available: the full sandbox tier cannot run here"
	fi
	mkdir -p "$HOME/.ssh"
	printf 'fake-private-key-material\n' >"$HOME/.ssh/id_rsa"
	export MY_API_KEY=sk-test-$RANDOM-abcdefghijklmnopqrstuv
	cat >speccoder.conf <<'CONF'
[sandbox]
	mode = required
	envKeep = MY_API_KEY
[check "ok"]
	argv = "sh -c 'echo hello; echo to-stderr >&2'"
[check "leak"]
	argv = "sh -c 'cat $HOME/.ssh/id_rsa; echo key=$MY_API_KEY; exit 3'"
[check "slow"]
	argv = sleep 30
	timeout = 1
CONF
}

journal_json() {
	git speccoder report --json
}

@test "exec: the command's status and output pass, the key masked" {
	# shellcheck disable=SC2016 # expanded inside the sandbox
	run --separate-stderr git speccoder exec -- sh -c 'echo "out $MY_API_KEY"; echo "err $MY_API_KEY" >&2; exit 7'
	assert_equal "$status" 7
	assert_output "out [redacted:MY_API_KEY]"
	assert_equal "$stderr" "err [redacted:MY_API_KEY]"
}

@test "exec: credentials are unreadable and nothing outside the root is writable" {
	# Control: without the sandbox the file is readable.
	run cat "$HOME/.ssh/id_rsa"
	assert_output fake-private-key-material
	run --separate-stderr git speccoder exec -- cat "$HOME/.ssh/id_rsa"
	refute_output --partial fake-private-key-material
	run --separate-stderr git speccoder exec -- sh -c "echo x >'$SC_TMP/outside'"
	assert_failure
	[ ! -e "$SC_TMP/outside" ]
	run git speccoder exec -- sh -c 'echo inside >inside.txt'
	assert_success
	assert_equal "$(cat inside.txt)" inside
}

@test "exec: sandbox.writable outside the root stops the command; sandbox.writableOutside allows it and says so" {
	mkdir -p "$SC_TMP/cache"
	git config -f speccoder.conf --add sandbox.writable "$SC_TMP/cache"
	run --separate-stderr git speccoder exec -- sh -c "echo x >'$SC_TMP/cache/ran'"
	assert_equal "$status" 125
	[[ "$stderr" == *"error[WRITABLE-OUTSIDE-ROOT]"* ]]
	[ ! -e "$SC_TMP/cache/ran" ]
	git config -f speccoder.conf --unset-all sandbox.writable
	git config -f speccoder.conf --add sandbox.writableOutside "$SC_TMP/cache"
	run --separate-stderr git speccoder exec -- sh -c "echo x >'$SC_TMP/cache/ran'"
	assert_success
	[[ "$stderr" == *"warning[WRITABLE-OUTSIDE]"* ]]
	[ -e "$SC_TMP/cache/ran" ]
}

@test "exec: usage errors" {
	run --separate-stderr git speccoder exec
	assert_equal "$status" 2
	run --separate-stderr git speccoder exec --bogus -- true
	assert_equal "$status" 2
}

@test "check: each check sandboxed and masked, evidence journaled, exit 1 on a failure" {
	run --separate-stderr git speccoder check
	assert_equal "$status" 1
	refute_output --partial "$MY_API_KEY"
	refute_output --partial fake-private-key-material
	assert_output --partial "key=[redacted:MY_API_KEY]"
	assert_output --regexp 'pass +ok'
	assert_output --regexp 'fail +leak .*status 3'
	assert_output --regexp 'timeout +slow .*status 124'
	run journal_json
	assert_success
	refute_output --partial "$MY_API_KEY"
	run jq -sr '[.[] | select(.type == "evidence") | "\(.name):\(.status):\(.outcome)"] | join(" ")' <<<"$output"
	assert_output "ok:0:pass leak:3:fail slow:124:timeout"
	# The logs in the state directory are masked too.
	run grep -rF -- "$MY_API_KEY" "$XDG_STATE_HOME"
	assert_failure
	run grep -rlF -- "[redacted:MY_API_KEY]" "$XDG_STATE_HOME"
	assert_success
}

@test "check NAME runs only that check; an unknown name is a usage error" {
	run git speccoder check ok
	assert_success
	assert_output --regexp 'pass +ok'
	refute_output --partial leak
	run --separate-stderr git speccoder check nosuch
	assert_equal "$status" 2
}

@test "check: a missing or malformed speccoder.conf is exit 2, naming file and line" {
	printf '[check "x"\n' >speccoder.conf
	run --separate-stderr git speccoder check
	assert_equal "$status" 2
	[[ "$stderr" == *"speccoder.conf:1"* ]] || fail "$stderr"
	rm speccoder.conf
	run --separate-stderr git speccoder check
	assert_equal "$status" 2
	[[ "$stderr" == *"error[CONFIG-MISSING]"* ]]
}

@test "check: interrupted, it kills the running check and everything it started" {
	cat >speccoder.conf <<CONF
[check "hang"]
	argv = "sh -c '(sleep 3; touch $PWD/late-marker) & setsid sh -c \"sleep 3; touch $PWD/late-marker2\" & sleep 60'"
CONF
	# Its own process group, signalled as a terminal signals a foreground
	# job (SIGINT is ignored by background jobs of a script, so SIGTERM).
	setsid git speccoder check >"$SC_TMP/out" 2>&1 &
	local pid=$!
	local _
	for _ in $(seq 1 50); do
		journal_json 2>/dev/null | grep -q check-start && break
		sleep 0.1
	done
	sleep 0.5
	kill -TERM -- "-$pid"
	local st=0
	wait "$pid" || st=$?
	# git itself dies of the signal (143) or passes the driver's 130 on.
	[ "$st" -eq 130 ] || [ "$st" -eq 143 ] || fail "status $st"
	sleep 4
	[ ! -e late-marker ] || fail "a child outlived the interrupted check"
	[ ! -e late-marker2 ] || fail "a setsid child outlived the interrupted check"
	run journal_json
	assert_output --partial '"type":"interrupted"'
}

@test "exec: the project's secrets file (mask.secretsFile) is masked too" {
	printf 'DB_PASSWORD=project-secret-%s-xyz\n' "$RANDOM" >secrets.env
	local value
	value=$(cut -d= -f2 secrets.env)
	printf 'dsn=postgres://u:%s@db\n' "$value" >app.log
	printf '[mask]\n\tsecretsFile = secrets.env\n' >>speccoder.conf
	run --separate-stderr git speccoder exec -- cat app.log
	assert_success
	assert_output "dsn=postgres://u:[redacted:DB_PASSWORD]@db"
}

@test "exec without speccoder.conf: defaults, and the command's own status" {
	rm speccoder.conf
	run --separate-stderr git speccoder exec -- sh -c 'echo out; exit 7'
	assert_equal "$status" 7
	assert_output out
	assert_equal "$stderr" ""
}

@test "a sandboxed command cannot change .git or speccoder.conf" {
	git commit -q --allow-empty -m init
	cp speccoder.conf "$SC_TMP/conf.before"
	cp .git/config "$SC_TMP/gitconfig.before"
	# Control: unsandboxed, the same writes work.
	sh -c 'echo "#x" >>.git/config' && cp "$SC_TMP/gitconfig.before" .git/config
	run --separate-stderr git speccoder exec -- sh -c '
		echo "#x" >>.git/config; echo "$?"
		printf "#!/bin/sh\n" >.git/hooks/pre-commit; echo "$?"
		printf "[sandbox]\n\tmode = off\n" >speccoder.conf; echo "$?"'
	assert_success
	refute_line 0
	cmp "$SC_TMP/conf.before" speccoder.conf
	cmp "$SC_TMP/gitconfig.before" .git/config
	[ ! -e .git/hooks/pre-commit ]
}

@test "check: a name with a newline or a path is not a check" {
	local n
	for n in $'ok\nleak' ../../x 'ok/..'; do
		run --separate-stderr git speccoder check "$n"
		[ "$status" -eq 2 ] || fail "'$n': status $status"
		[[ "$stderr" == *"error[USAGE]"* ]] || fail "'$n': $stderr"
	done
}

@test "a secrets file that cannot be read stops the driver before anything runs" {
	printf '[mask]\n\tsecretsFile = nope.env\n' >>speccoder.conf
	run --separate-stderr git speccoder exec -- sh -c 'touch ran-anyway'
	assert_equal "$status" 4
	[[ "$stderr" == *"error[MASK-FAILED]"* ]]
	[ ! -e ran-anyway ]
}

@test "check logs and the journal are private files" {
	run git speccoder check ok
	assert_success
	run find "$XDG_STATE_HOME" -type f ! -perm 600
	assert_output ""
	run find "$XDG_STATE_HOME" -type d ! -perm 700
	assert_output ""
}

@test "check --acceptance runs the acceptance tests the same way, evidence with kind=acceptance" {
	run git speccoder check --acceptance
	assert_success
	assert_output "speccoder.conf names no acceptance test"
	cat >>speccoder.conf <<'CONF'
[acceptance "e2e"]
	argv = "sh -c 'echo key=$MY_API_KEY; exit 4'"
[acceptance "fine"]
	argv = true
CONF
	run --separate-stderr git speccoder check --acceptance
	assert_equal "$status" 1
	assert_output --partial "key=[redacted:MY_API_KEY]"
	assert_output --regexp 'fail +e2e .*status 4'
	assert_output --regexp 'pass +fine'
	refute_output --regexp 'ok|leak|slow'
	run jq -sr '[.[] | select(.type == "evidence") | "\(.kind):\(.name):\(.status)"] | join(" ")' < <(journal_json)
	assert_output "acceptance:e2e:4 acceptance:fine:0"
	run git speccoder check --acceptance fine
	assert_success
	run --separate-stderr git speccoder check --acceptance ok
	assert_equal "$status" 2
	[[ "$stderr" == *"no such acceptance in speccoder.conf"* ]]
	run git speccoder check ok
	assert_success
	run jq -r 'select(.type == "evidence") | .kind' < <(journal_json)
	assert_output check
}
