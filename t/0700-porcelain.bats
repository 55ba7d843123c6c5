#!/usr/bin/env bats
# git speccoder: dispatch, help, init and report.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/porcelain

setup() {
	sc_common_setup
	sc_porcelain_repo
}

@test "git speccoder dispatches through git, with -h and help" {
	run git speccoder -h
	assert_success
	assert_line --index 0 "usage: git speccoder <command> [<args>]"
	run git speccoder help init
	assert_success
	assert_line --index 0 "usage: git speccoder init [--print]"
	run git speccoder --version
	assert_success
	assert_output --regexp '^git-speccoder \(speccoder\) [0-9.]+$'
}

@test "an unknown or malformed command is a usage error" {
	local c
	for c in nosuch ../../bin/sh 'Init' 'lib.sh' ''; do
		run --separate-stderr git speccoder "$c"
		[ "$status" -eq 2 ] || fail "'$c': status $status"
		[[ "$stderr" == *"error[USAGE]"* ]] || fail "'$c': $stderr"
	done
	run --separate-stderr git speccoder
	assert_equal "$status" 2
}

@test "init writes the checks it finds and says what it found" {
	printf 'all:\n\ttrue\ntest:\n\ttrue\n' >Makefile
	printf '[package]\nname = "x"\n' >Cargo.toml
	mkdir t && : >t/a.bats
	run git speccoder init
	assert_success
	assert_line --partial "make: make test"
	assert_line --partial "cargo: cargo test"
	assert_line --partial "bats: bats -r t"
	run git config -f speccoder.conf --get check.make.argv
	assert_output "make test"
	run git config -f speccoder.conf --get sandbox.mode
	assert_output "required"
	run git config -f speccoder.conf --get-regexp '^check\..*\.argv$'
	assert_equal "${#lines[@]}" 3
}

@test "init never overwrites speccoder.conf and leaves no temporary file" {
	printf 'mine\n' >speccoder.conf
	run --separate-stderr git speccoder init
	assert_equal "$status" 1
	[[ "$stderr" == *"error[CONFIG-EXISTS]"* ]]
	assert_equal "$(cat speccoder.conf)" mine
	run ls
	assert_output speccoder.conf
}

@test "init --print writes to stdout only" {
	run git speccoder init --print
	assert_success
	assert_output --partial "[sandbox]"
	[ ! -e speccoder.conf ]
}

@test "report with no run says so; a run id cannot leave the state directory" {
	run --separate-stderr git speccoder report
	assert_equal "$status" 1
	[[ "$stderr" == *"error[NO-RUN]"* ]]
	mkdir -p "$SC_TMP/outside" && printf 'type=x\0\0' >"$SC_TMP/outside/journal"
	local id
	for id in ../../../outside .hidden -x 'a/b' 'a b'; do
		run --separate-stderr git speccoder report "$id"
		[ "$status" -eq 2 ] || fail "'$id': status $status"
	done
}

@test "the state directory is private" {
	run git speccoder report
	local d
	d=$(find "$XDG_STATE_HOME/speccoder" -mindepth 1 -maxdepth 1 -type d)
	[ -n "$d" ]
	assert_equal "$(stat -c %a "$XDG_STATE_HOME/speccoder")" 700
	assert_equal "$(stat -c %a "$d")" 700
}

@test "init names the model credentials it finds, never a value" {
	printf '[default]\naws_access_key_id = AKIAINITTEST00000001\naws_secret_access_key = init-secret-value-42\n' >"$SC_TMP/aws-creds"
	run env -u OPENAI_API_KEY -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY \
		-u AWS_BEARER_TOKEN_BEDROCK -u AWS_PROFILE \
		ANTHROPIC_API_KEY=sk-ant-init-value-0123 \
		AWS_SHARED_CREDENTIALS_FILE="$SC_TMP/aws-creds" AWS_CONFIG_FILE="$SC_TMP/none" \
		git speccoder init
	assert_success
	assert_line "  anthropic: ANTHROPIC_API_KEY"
	assert_line "  bedrock: profile 'default' (static keys, credentials file)"
	refute_output --partial openai
	refute_output --partial init-secret-value
	refute_output --partial sk-ant-init-value
	refute_output --partial AKIAINIT
	run grep -c 'init-secret\|sk-ant' speccoder.conf
	assert_output 0
}

@test "init proposes format.argv for the formatter it finds, the others and acceptance and mutation commented" {
	printf '[package]\nname = "x"\n' >Cargo.toml
	printf 'module x\n' >go.mod
	printf '{"devDependencies":{"prettier":"3.0.0"}}\n' >package.json
	printf '[tool.ruff]\nline-length = 100\n' >pyproject.toml
	run git speccoder init
	assert_success
	sc-config --file speccoder.conf --format -z >"$SC_TMP/format"
	run sc-rec --to-json <"$SC_TMP/format"
	assert_output '{"type":"format","argv":["cargo","fmt"],"timeout":"120","required":"false"}'
	run grep -E '^	# argv = ' speccoder.conf
	assert_line "	# argv = gofmt -l -w ."
	assert_line "	# argv = prettier --write ."
	assert_line "	# argv = ruff format"
	# Acceptance and mutation are examples only: nothing runs until the
	# person says so.
	run sc-config --file speccoder.conf --acceptance
	assert_output ""
	run sc-config --file speccoder.conf --mutation
	assert_failure 1
	grep -q '^#\[acceptance "e2e"\]' speccoder.conf
	grep -q '^#\[mutation\]' speccoder.conf
	grep -q '^#	report = mutants.out/outcomes.json' speccoder.conf
}

@test "init proposes clang-format over the sources of a compile database, quoted so the patterns reach git" {
	: >compile_commands.json
	run git speccoder init
	assert_success
	sc-config --file speccoder.conf --format -z >"$SC_TMP/format"
	run sc-rec --to-json <"$SC_TMP/format"
	assert_output "{\"type\":\"format\",\"argv\":[\"sh\",\"-c\",\"git ls-files -z -- '*.[ch]' '*.cc' '*.cpp' '*.hpp' | xargs -0r clang-format -i --\"],\"timeout\":\"120\",\"required\":\"false\"}"
}

@test "init without a formatter leaves [format] commented" {
	run git speccoder init
	assert_success
	run sc-config --file speccoder.conf --format
	assert_failure 1
	grep -q '^#\[format\]' speccoder.conf
}
