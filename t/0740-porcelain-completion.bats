#!/usr/bin/env bats
# Bash completion of git speccoder.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/porcelain

complete_words() { # WORDS...: print the completions of the last word
	# shellcheck disable=SC2034 # read by the completion function
	COMP_WORDS=("$@")
	# shellcheck disable=SC2034
	COMP_CWORD=$(($# - 1))
	COMPREPLY=()
	_git_speccoder
	printf '%s\n' "${COMPREPLY[@]}"
}

setup() {
	sc_common_setup
	sc_porcelain_repo
	# shellcheck source=/dev/null
	. "$SC_TOP/contrib/completion/git-speccoder.bash"
}

@test "commands complete" {
	run complete_words git speccoder d
	assert_output doctor
	run complete_words git speccoder ''
	assert_line init
	assert_line check
	assert_line report
}

@test "check completes the names of the configured checks" {
	printf '[check "unit"]\n\targv = true\n[check "lint"]\n\targv = true\n' >speccoder.conf
	run complete_words git speccoder check ''
	assert_line unit
	assert_line lint
	assert_equal "${#lines[@]}" 2
}

@test "every command the dispatcher knows is offered" {
	local d cmd
	run complete_words git speccoder ''
	for d in "$SC_TOP"/libexec/speccoder/speccoder-*; do
		cmd=${d##*/speccoder-}
		case "$cmd" in lib.sh|version) continue ;; esac
		assert_line "$cmd"
	done
}

@test "pr completes speccoder features and remotes; verify and attest branches" {
	git commit -q --allow-empty -m base
	git branch speccoder/login
	git branch speccoder/search
	git remote add origin /nonexistent
	run complete_words git speccoder pr ''
	assert_line login
	assert_line search
	assert_line --yes
	run complete_words git speccoder pr --remote ''
	assert_output origin
	run complete_words git speccoder verify --branch speccoder/l
	assert_output speccoder/login
	run complete_words git speccoder attest --s
	assert_output --show
}

@test "run completes the features of both layouts" {
	mkdir -p specs/001-login openspec/changes/add-search
	run complete_words git speccoder run ''
	assert_line 001-login
	assert_line add-search
	assert_line --in-place
}

@test "skills completes its subcommands, seal its option" {
	run complete_words git speccoder sk
	assert_output skills
	run complete_words git speccoder skills ''
	assert_line pin
	assert_line verify
	assert_equal "${#lines[@]}" 2
	run complete_words git speccoder skills verify --r
	assert_output --records
	run complete_words git speccoder seal --v
	assert_output --verify
}

@test "check completes --acceptance once an option is begun" {
	printf '[check "unit"]\n\targv = true\n' >speccoder.conf
	run complete_words git speccoder check --
	assert_output -- --acceptance
}
