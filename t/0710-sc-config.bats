#!/usr/bin/env bats
# sc-config(1): speccoder.conf for scripts.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common

setup() {
	sc_common_setup
	cd "$SC_TMP" || return 1
	cat >speccoder.conf <<'CONF'
[check "unit"]
	argv = make test 'ARGS=a b' \"q\"
	timeout = 60
[check "lint"]
	argv = sh -c 'exit 0'
[sandbox]
	Mode = auto
	writable = /tmp/one
	writable = /tmp/two words
[model]
	provider = replay
CONF
}

@test "--get prints the last value; keys ignore case in section and variable" {
	run sc-config --get sandbox.mode
	assert_success
	assert_output auto
	run sc-config --get SANDBOX.MODE
	assert_output auto
	run --separate-stderr sc-config --get sandbox.network
	assert_equal "$status" 1
	assert_output ""
}

@test "--get-all -z keeps each value whole" {
	sc_run_io /dev/null "$SC_TMP/out" sc-config --get-all sandbox.writable -z
	assert_success
	printf '/tmp/one\0/tmp/two words\0' >"$SC_TMP/want"
	cmp "$SC_TMP/want" "$SC_TMP/out"
}

@test "--checks splits each argv as a shell would, nothing expanded" {
	sc_run_io /dev/null "$SC_TMP/out" sc-config --checks
	assert_success
	run sc-rec --to-json <"$SC_TMP/out"
	assert_line --index 0 '{"type":"check","name":"unit","argv":["make","test","ARGS=a b","q"],"timeout":"60"}'
	# a check without a timeout: the default, decided here, not by a driver
	assert_line --index 1 '{"type":"check","name":"lint","argv":["sh","-c","exit 0"],"timeout":"600"}'
}

@test "--list writes every entry as a record" {
	sc_run_io /dev/null "$SC_TMP/out" sc-config --list
	assert_success
	run sc-rec --to-json <"$SC_TMP/out"
	assert_line '{"type":"config","key":"sandbox.mode","value":"auto"}'
	assert_equal "${#lines[@]}" 7
}

@test "a malformed file names the file and line, exit 3, nothing written" {
	printf '[check "x"]\n\targv = true\n[sandbox\n' >bad.conf
	sc_run_io /dev/null "$SC_TMP/out" sc-config --file bad.conf --checks
	assert_equal "$status" 3
	[[ "$stderr" == *"error[BAD-CONFIG]: bad.conf:"*"bad.conf:3"* ]] || fail "$stderr"
	[ ! -s "$SC_TMP/out" ]
}

@test "bad checks are refused: no argv, two argv, unsplittable, bad timeout, bad name" {
	local body
	for body in '[check "x"]\n\ttimeout = 5' \
		'[check "x"]\n\targv = a\n\targv = b' \
		"[check \"x\"]\n\targv = a 'unterminated" \
		'[check "x"]\n\targv = "a ; rm -rf x"' \
		'[check "x"]\n\targv = a\n\ttimeout = 5s' \
		'[check "x"]\n\targv = a\n\ttimeout = 0' \
		'[check "../x"]\n\targv = a' \
		'[check "-x"]\n\targv = a' \
		'[check "x"]\n\targv = a\n\tcolour = red'; do
		# shellcheck disable=SC2059
		printf "$body\n" >bad.conf
		sc_run_io /dev/null "$SC_TMP/out" sc-config --file bad.conf --checks
		[ "$status" -eq 3 ] || fail "'$body': status $status"
		[[ "$stderr" == *"error[BAD-CONFIG]"* ]] || fail "'$body': $stderr"
		[ ! -s "$SC_TMP/out" ] || fail "'$body': wrote output"
	done
}

@test "includes are refused, and the included file is never trusted" {
	printf '[sandbox]\n\tmode = off\n' >"$SC_TMP/evil.conf"
	printf '[include]\n\tpath = %s\n[sandbox]\n\tmode = required\n' "$SC_TMP/evil.conf" >inc.conf
	run --separate-stderr sc-config --file inc.conf --get sandbox.mode
	assert_equal "$status" 3
	[[ "$stderr" == *"includes are refused"* ]]
	assert_output ""
}

@test "the user's global git configuration is never read" {
	export HOME="$SC_TMP/home" XDG_CONFIG_HOME="$SC_TMP/xdg"
	mkdir -p "$HOME" "$XDG_CONFIG_HOME/git"
	printf '[sandbox]\n\tnetwork = full\n' >"$HOME/.gitconfig"
	cp "$HOME/.gitconfig" "$XDG_CONFIG_HOME/git/config"
	run --separate-stderr sc-config --get sandbox.network
	assert_equal "$status" 1
	# Control: git itself does read it.
	run git config --get sandbox.network
	assert_output full
}

@test "a missing file is an error, not an empty configuration" {
	run --separate-stderr sc-config --file nope.conf --get sandbox.mode
	assert_equal "$status" 2
	[[ "$stderr" == *"error[BAD-CONFIG]: cannot read 'nope.conf'"* ]]
}

@test "an include is refused before libgit2 opens it (a FIFO cannot hang it)" {
	mkfifo "$SC_TMP/fifo"
	printf '[include]\n\tpath = %s\n' "$SC_TMP/fifo" >fifo.conf
	run --separate-stderr timeout 10 sc-config --file fifo.conf --get sandbox.mode
	assert_equal "$status" 3
	[[ "$stderr" == *"includes are refused"* ]]
	printf '[ IncludeIf "gitdir:/"]\n\tpath = %s\n' "$SC_TMP/fifo" >fifo.conf
	run --separate-stderr timeout 10 sc-config --file fifo.conf --list
	assert_equal "$status" 3
	# A check whose name begins with "include" is no include.
	printf '[check "include-tests"]\n\targv = true\n' >ok.conf
	run sc-config --file ok.conf --get check.include-tests.argv
	assert_success
	assert_output true
}

@test "a failed write is exit 5, WRITE-FAILED" {
	run --separate-stderr sh -c 'sc-config --get-all sandbox.writable >/dev/full'
	assert_equal "$status" 5
	[[ "$stderr" == *"error[WRITE-FAILED]"* ]]
}

@test "--acceptance, --format, --mutation: one record each, split like a check" {
	cat >>speccoder.conf <<'CONF'
[acceptance "e2e"]
	argv = make e2e 'ARGS=a b'
	timeout = 900
[format]
	argv = gofmt -l -w .
	required
[mutation]
	argv = cargo mutants
	timeout = 1800
	minimum = 60
	report = mutants.out/outcomes.json
CONF
	sc_run_io /dev/null "$SC_TMP/out" sc-config --acceptance
	assert_success
	run sc-rec --to-json <"$SC_TMP/out"
	assert_output '{"type":"acceptance","name":"e2e","argv":["make","e2e","ARGS=a b"],"timeout":"900"}'
	sc_run_io /dev/null "$SC_TMP/out" sc-config --format
	assert_success
	run sc-rec --to-json <"$SC_TMP/out"
	assert_output '{"type":"format","argv":["gofmt","-l","-w","."],"timeout":"120","required":"true"}'
	sc_run_io /dev/null "$SC_TMP/out" sc-config --mutation
	assert_success
	run sc-rec --to-json <"$SC_TMP/out"
	assert_output '{"type":"mutation","argv":["cargo","mutants"],"timeout":"1800","minimum":"60","report":"mutants.out/outcomes.json"}'
}

@test "without [format] or [mutation]: exit 1, nothing written; without acceptance tests: none" {
	local o
	for o in --format --mutation; do
		sc_run_io /dev/null "$SC_TMP/out" sc-config "$o"
		assert_equal "$status" 1
		[ ! -s "$SC_TMP/out" ]
	done
	sc_run_io /dev/null "$SC_TMP/out" sc-config --acceptance
	assert_success
	[ ! -s "$SC_TMP/out" ]
}

@test "bad steps are refused: no argv, a name, unknown key, bad required, minimum or report" {
	local body o
	for body in '[format]\n\ttimeout = 5' \
		'[format]\n\targv = a\n\targv = b' \
		'[format "x"]\n\targv = a' \
		'[format]\n\targv = a\n\trequired = maybe' \
		'[format]\n\targv = a\n\tminimum = 5' \
		'[format]\n\targv = a\n\ttimeout = forever' \
		'[mutation]\n\targv = a\n\tminimum = 101' \
		'[mutation]\n\targv = a\n\tminimum = 50%%' \
		'[mutation]\n\targv = a\n\trequired = true' \
		'[mutation]\n\targv = a\n\treport = /etc/passwd' \
		'[mutation]\n\targv = a\n\treport = ../out.json' \
		'[mutation]\n\targv = a\n\treport = a/../../b' \
		'[mutation]\n\targv = a\n\treport = a//b' \
		'[mutation]\n\targv = a\n\treport = a/' \
		'[mutation]\n\targv = a\n\treport = .' \
		'[acceptance "../x"]\n\targv = a' \
		'[acceptance "x"]\n\ttimeout = 5'; do
		# shellcheck disable=SC2059
		printf "$body\n" >bad.conf
		case "$body" in
		'[format'*) o=--format ;;
		'[mutation'*) o=--mutation ;;
		*) o=--acceptance ;;
		esac
		sc_run_io /dev/null "$SC_TMP/out" sc-config --file bad.conf "$o"
		[ "$status" -eq 3 ] || fail "'$body': status $status"
		[[ "$stderr" == *"error[BAD-CONFIG]"* ]] || fail "'$body': $stderr"
		[ ! -s "$SC_TMP/out" ] || fail "'$body': wrote output"
	done
}

@test "a step without a timeout gets its default in the record: checks and acceptance 600, format 120, mutation 1800" {
	printf '[acceptance "e2e"]\n\targv = make e2e\n[format]\n\targv = cargo fmt\n[mutation]\n\targv = cargo mutants\n' >steps.conf
	sc_run_io /dev/null "$SC_TMP/out" sc-config --file steps.conf --acceptance
	assert_success
	run sc-rec --to-json <"$SC_TMP/out"
	assert_output '{"type":"acceptance","name":"e2e","argv":["make","e2e"],"timeout":"600"}'
	sc_run_io /dev/null "$SC_TMP/out" sc-config --file steps.conf --format
	run sc-rec --to-json <"$SC_TMP/out"
	assert_output '{"type":"format","argv":["cargo","fmt"],"timeout":"120","required":"false"}'
	sc_run_io /dev/null "$SC_TMP/out" sc-config --file steps.conf --mutation
	run sc-rec --to-json <"$SC_TMP/out"
	assert_output '{"type":"mutation","argv":["cargo","mutants"],"timeout":"1800"}'
}

@test "--mcp: one record a server with a command, in name order, split like a check" {
	cat >>speccoder.conf <<'CONF'
[mcp "zeta"]
	command = zeta-server --flag 'a b'
	env = ZETA_KEY
	timeout = 30
[mcp "Alpha-1"]
	command = alpha
	host = example.com:443
[mcp "pins-only"]
	allow = tool
CONF
	run --separate-stderr sc-config --mcp -z
	assert_success
	sc-config --mcp -z | sc-rec --to-json >"$SC_TMP/json"
	# the names a driver reads, and nothing for a section without a command
	run jq -r .name "$SC_TMP/json"
	assert_output "$(printf 'Alpha-1\nzeta')"
	run jq -c 'select(.name == "zeta") | [.argv, .env, .network, .timeout]' "$SC_TMP/json"
	assert_output '[["zeta-server","--flag","a b"],"ZETA_KEY","none","30"]'
	run jq -c 'select(.name == "Alpha-1") | [.argv, .network, .host, .timeout]' "$SC_TMP/json"
	assert_output '["alpha","hosts","example.com:443","60"]'
}

@test "--mcp: none configured is no record and exit 0; a bad server is exit 3, nothing written" {
	run --separate-stderr sc-config --mcp -z
	assert_success
	assert_output ""
	printf '[mcp "s"]\n\tcommand = a\n\tcommand = b\n' >>speccoder.conf
	run --separate-stderr sc-config --mcp -z
	assert_equal "$status" 3
	assert_output ""
	[[ "$stderr" == *"error[BAD-CONFIG]"* ]]
	# --list reads the keys only: the same file is listed
	run --separate-stderr sc-config --list -z
	assert_success
}
