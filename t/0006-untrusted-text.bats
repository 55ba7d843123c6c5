#!/usr/bin/env bats
# Whatever speccoder prints from untrusted text (commit subjects, file and
# skill names, journal values, configuration values) goes through the one
# cleaning function of lib/termtext.c: no escape sequence, C1 control (raw
# or UTF-8) or bidi control reaches the terminal from any command.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/porcelain
load lib/attest
load lib/branch

# OSC (retitle), CSI (clear), BEL, CSI as UTF-8 C1 and as a raw byte,
# right-to-left override, a right-to-left isolate.
NASTY=$'<\e]0;pwned\a\e[2J\xc2\x9b31m\x9b\xe2\x80\xae\xe2\x81\xa7>'
# The same as valid UTF-8 (the journal keeps other bytes as base64).
NASTY8=$'<\e]0;pwned\a\e[2J\xc2\x9b31m\xe2\x80\xae\xe2\x81\xa7>'

setup() {
	sc_common_setup
	sc_branch_repo
}

# Fails when FILE holds a byte that steers a terminal: ESC, BEL, CSI as
# UTF-8 or raw, a bidi override or isolate.
assert_clean_file() { # FILE
	run grep -c -a -P '\x1b|\x07|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]' "$1"
	assert_output 0
	run env LC_ALL=C grep -c -a -P '[\x80-\x9f]' <(LC_ALL=C sed 's/\xe2\x80[\x80-\xbf]//g; s/\xe2\x81[\x80-\xbf]//g; s/\xc2[\x80-\xbf]//g' "$1")
	assert_output 0
}

@test "pr: a commit subject's controls are replaced, its text is kept" {
	git checkout -q speccoder/login
	echo 4 >f && git commit -qam "T003 $NASTY"
	git checkout -q main
	git init -q --bare "$SC_TMP/remote.git"
	git remote add origin "file://$SC_TMP/remote.git"
	setsid -w git speccoder pr login </dev/null >"$SC_TMP/out" 2>&1 || true
	grep -q 'T003 <?\]0;pwned??\[2J?31m???>' "$SC_TMP/out"
	assert_clean_file "$SC_TMP/out"
}

@test "report: every journal value, one line or many, is cleaned" {
	local state run=20261201T000000Z-1
	# The state directory of this repository, as the drivers name it.
	# shellcheck source=/dev/null
	state=$(SPECCODER_BINDIR=$SC_TOP/bin bash -c ". '$SC_TOP/libexec/speccoder/speccoder-lib.sh'; sc_state_dir")
	mkdir -p "$state/runs/$run"
	{
		sc-rec type=start "feature=$NASTY8"
		sc-rec type=verdict "object=rm $NASTY8" rule=deny.x
		sc-rec type=model "text=first line$NASTY8"$'\n'"second$NASTY8"
		sc-rec type=model "text=$NASTY"
	} >"$state/runs/$run/journal"
	run --separate-stderr git speccoder report "$run"
	assert_success
	printf '%s' "$output" >"$SC_TMP/out"
	grep -q 'feature=<?\]0;pwned' "$SC_TMP/out"
	grep -q '    | second<?' "$SC_TMP/out"
	assert_clean_file "$SC_TMP/out"
}

@test "skills verify and error messages: a skill's name with controls is never printed raw" {
	mkdir -p ".claude/skills/$NASTY"
	printf 'x\n' >".claude/skills/$NASTY/SKILL.md"
	git speccoder skills verify >"$SC_TMP/out" 2>&1 || true
	grep -q 'BAD-SKILL-NAME' "$SC_TMP/out"
	assert_clean_file "$SC_TMP/out"
	sc-pin pin --lock "$SC_TMP/lock" --root . ".claude/skills/$NASTY" >"$SC_TMP/out" 2>&1 || true
	grep -q 'error\[' "$SC_TMP/out"
	assert_clean_file "$SC_TMP/out"
}

@test "doctor: a configuration value with controls is cleaned" {
	git config -f speccoder.conf model.provider "$NASTY"
	git speccoder doctor >"$SC_TMP/out" 2>&1 || true
	grep -q 'pwned' "$SC_TMP/out"
	assert_clean_file "$SC_TMP/out"
}

@test "the check: without cleaning, the same files hold the bytes (the test can fail)" {
	printf '%s\n' "$NASTY" >"$SC_TMP/raw"
	run grep -c -a -P '\x1b|\x07|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]' "$SC_TMP/raw"
	assert_output 1
	sc-rec --for-terminal <"$SC_TMP/raw" >"$SC_TMP/clean"
	assert_clean_file "$SC_TMP/clean"
}
