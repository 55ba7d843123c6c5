#!/usr/bin/env bats
# sc-sandbox-exec --print-options: speccoder.conf and a profile resolved
# once into plain options, which the statically linked sc-sandbox-exec
# runs itself, with the same effect as --config and --profile, and without
# its dynamically linked twin.

# shellcheck disable=SC2154,SC2016 # bats run sets status, output, stderr; '$' is for the inner shell
load lib/common
load lib/sandbox

setup() {
	sb_setup
	# The static build alone, its twin not installed: anything that would
	# need the twin fails there with error[TWIN-MISSING].
	mkdir -p "$SC_TMP/inst/bin"
	cp "$SC_TOP/build/bin/sc-sandbox-exec" "$SC_TMP/inst/bin/"
	SBX="$SC_TMP/inst/bin/sc-sandbox-exec"
	echo "ci" >"$ROOT/ci.txt"
}
teardown() { sb_teardown; }

# OPTS: what sc-sandbox-exec makes of "$@" (the full build, with its twin).
resolve() {
	sc-sandbox-exec "$@" --print-options >"$SC_TMP/opts" || return
	mapfile -d '' -t OPTS <"$SC_TMP/opts"
}

# Run CMD... both ways: with the files ($FILES, read at the run), then with
# the options they resolve to ($OPTS) on the static build alone.  The same
# status and standard output each time; BY_FILES and BY_OPTS keep the
# standard output, BY_OPTS_ERR the standard error of the second.
both() {
	run --separate-stderr sc-sandbox-exec --root "$ROOT" "${FILES[@]}" -- "$@"
	local st=$status
	BY_FILES=$output
	run --separate-stderr "$SBX" "${OPTS[@]}" -- "$@"
	BY_OPTS=$output BY_OPTS_ERR=$stderr
	[[ "$stderr" != *"TWIN-MISSING"* ]] || fail "the twin was needed: $stderr"
	[ "$status" -eq "$st" ] || fail "status $st with the files, $status resolved: $stderr"
	[ "$BY_OPTS" = "$BY_FILES" ] || fail "'$BY_FILES' with the files, '$BY_OPTS' resolved"
}

@test "--print-options: NUL-ended words, never --config or --profile; the defaults stay unset; nothing runs" {
	printf '[sandbox]\n\tnetwork = none\n\thide = ~/notes.txt\n\tacceptGaps = kill-all\n' >speccoder.conf
	sc-sandbox-exec --root "$ROOT" --config speccoder.conf --env-keep A \
		--print-options >"$SC_TMP/opts"
	run tr '\0' ' ' <"$SC_TMP/opts"
	assert_output "--root $ROOT --hide ~/notes.txt --env-keep A --accept-gaps kill-all --network none "
	# the file alone, without the twin, is refused: the twin prints it
	run --separate-stderr "$SBX" --root "$ROOT" --config speccoder.conf --print-options
	assert_failure 125
	[[ "$stderr" == *"error[TWIN-MISSING]"* ]] || fail "$stderr"
	# plain options are printed by the static build itself
	"$SBX" --root "$ROOT" --timeout 1.25 --print-options >"$SC_TMP/opts"
	run tr '\0' ' ' <"$SC_TMP/opts"
	assert_output "--root $ROOT --timeout 1.250 "
	# no command may follow, and --probe is something else
	run --separate-stderr sc-sandbox-exec --root "$ROOT" --print-options -- touch "$ROOT/ran"
	assert_failure 125
	[[ "$stderr" == *"--print-options takes no command"* ]]
	run --separate-stderr sc-sandbox-exec --probe --print-options
	assert_failure 125
	[[ "$stderr" == *"--probe and --print-options conflict"* ]] || fail "$stderr"
	[ ! -e "$ROOT/ran" ]
}

@test "--print-options refuses what a run refuses: exit 125, the same error, nothing printed" {
	printf '[sandbox]\n\thidden = ~/notes.txt\n' >bad.conf
	run --separate-stderr sc-sandbox-exec --root "$ROOT" --config bad.conf --print-options
	assert_failure 125
	assert_output ""
	[[ "$stderr" == *"error[BAD-CONFIG]: bad.conf:2: unknown key 'sandbox.hidden'"* ]] || fail "$stderr"
	printf '[sandbox]\n\ttimeout = soon\n' >"$SC_TMP/bad.profile"
	run --separate-stderr sc-sandbox-exec --root "$ROOT" --profile "$SC_TMP/bad.profile" --print-options
	assert_failure 125
	assert_output ""
	[[ "$stderr" == *"error[BAD-PROFILE]"* ]] || fail "$stderr"
	run --separate-stderr sc-sandbox-exec --root "$ROOT" --profile no-such --print-options
	assert_failure 125
	[[ "$stderr" == *"error[UNKNOWN-PROFILE]"* ]] || fail "$stderr"
	printf '[sandbox]\n\tmode = off\n' >off.conf
	run --separate-stderr sc-sandbox-exec --root "$ROOT" --config off.conf --tier full --print-options
	assert_failure 125
	assert_output ""
	[[ "$stderr" == *"--mode off and --tier conflict"* ]] || fail "$stderr"
}

@test "each [sandbox] key of speccoder.conf, resolved, has its effect on the static build alone" {
	sb_require_full
	printf '[sandbox]\n\tnetwork = none\n\thide = ~/notes.txt\n\treadOnly = %s\n\twritableOutside = %s\n\tenvKeep = MY_API_TOKEN\n\tenv = short\n\tmode = required\n\tacceptGaps = kill-all\n' \
		"$ROOT/ci.txt" "$SC_TMP/outside" >speccoder.conf
	FILES=(--config speccoder.conf)
	resolve --root "$ROOT" "${FILES[@]}"
	# Control, the static build without them: each is as the defaults say.
	run --separate-stderr env MY_API_TOKEN=t0k MY_SETTING=kept "$SBX" --root "$ROOT" -- \
		bash -c 'cat ~/notes.txt; echo "${MY_API_TOKEN-unset} ${MY_SETTING-unset}"; echo w >>ci.txt && echo wrote; exec 3<>/dev/tcp/127.0.0.1/9'
	assert_line --index 0 ordinary
	assert_line --index 1 "unset kept"
	assert_line --index 2 wrote
	[[ "$stderr" == *"Connection refused"* ]]
	echo ci >"$ROOT/ci.txt"
	# hide, envKeep, env, readOnly, network
	export MY_API_TOKEN=t0k MY_SETTING=kept
	both bash -c 'cat ~/notes.txt; echo "${MY_API_TOKEN-unset} ${MY_SETTING-unset}"; echo w >>ci.txt && echo wrote; exec 3<>/dev/tcp/127.0.0.1/9'
	unset MY_API_TOKEN MY_SETTING
	refute_line ordinary
	assert_line "t0k unset"
	refute_line wrote
	[[ "$BY_OPTS_ERR" == *"Address family not supported"* ]] || fail "$BY_OPTS_ERR"
	assert_equal "$(cat "$ROOT/ci.txt")" "ci"
	# writableOutside, named on every run
	both sh -c 'touch "$1/yes" && echo written' sh "$SC_TMP/outside"
	assert_output written
	[[ "$BY_OPTS_ERR" == *"warning[WRITABLE-OUTSIDE]"* ]] || fail "$BY_OPTS_ERR"
	[ -e "$SC_TMP/outside/yes" ]
	# mode: off runs unconfined and says so
	printf '[sandbox]\n\tmode = off\n' >speccoder.conf
	resolve --root "$ROOT" "${FILES[@]}"
	both cat "$HOME/notes.txt"
	assert_output ordinary
	[[ "$BY_OPTS_ERR" == *"warning[SANDBOX-OFF]"* ]] || fail "$BY_OPTS_ERR"
}

@test "a profile's timeout, maxOutput and rootWritable, resolved, have their effect on the static build alone" {
	sb_require_full
	printf '[sandbox]\n\ttimeout = 1\n\tmaxOutput = 10\n\trootWritable = false\n' >"$SC_TMP/p.profile"
	printf '[sandbox]\n\tnetwork = none\n' >speccoder.conf
	FILES=(--config speccoder.conf --profile "$SC_TMP/p.profile")
	resolve --root "$ROOT" "${FILES[@]}"
	[[ " ${OPTS[*]} " == *" --root-read-only --network none --timeout 1 --max-output 10 "* ]] ||
		fail "${OPTS[*]}"
	both sh -c 'touch "$1/ran" 2>/dev/null || echo refused; printf "%050d\n" 0' sh "$ROOT"
	assert_output --partial "refused"
	assert_output --partial "[sc-sandbox-exec: output cut at 10 bytes]"
	[ ! -e "$ROOT/ran" ]
	SECONDS=0
	both sleep 5
	assert_equal "$status" 124
	[ "$SECONDS" -lt 5 ] || fail "not killed at the deadline: ${SECONDS}s"
	# a profile's 0 is no limit, and it stays so in the options
	printf '[sandbox]\n\ttimeout = 0\n\tmaxOutput = 0\n' >"$SC_TMP/p.profile"
	resolve --root "$ROOT" --timeout 7 "${FILES[@]}"
	[[ " ${OPTS[*]} " == *" --timeout 7 --max-output none "* ]] || fail "${OPTS[*]}"
}

@test "the drivers pass the resolved options: no --config, and a command of git speccoder exec never runs the twin" {
	command -v strace >/dev/null || fail "strace is missing (make deps installs it)"
	load lib/porcelain
	sc_porcelain_repo
	printf '[sandbox]\n\tnetwork = none\n\thide = ~/notes.txt\n' >speccoder.conf
	echo ordinary >"$HOME/notes.txt"
	export SPECCODER_BINDIR=$SC_TOP/bin
	# shellcheck source=/dev/null
	. "$SC_TOP/libexec/speccoder/speccoder-lib.sh"
	local -a args
	sc_sandbox_args args "$PWD" "" ""
	[[ " ${args[*]} " != *" --config "* ]] || fail "${args[*]}"
	[[ " ${args[*]} " == *" --read-only $PWD/speccoder.conf "* ]] || fail "${args[*]}"
	[[ " ${args[*]} " == *" --hide ~/notes.txt "*" --network none "* ]] || fail "${args[*]}"
	# a profile is resolved too; the command line's network wins over both
	sc_sandbox_args args "$PWD" readonly loopback
	[[ " ${args[*]} " != *" --profile "* ]] || fail "${args[*]}"
	[[ " ${args[*]} " == *" --root-read-only --network loopback "* ]] || fail "${args[*]}"
	# The twin is executed once, to print; the command runs on the static
	# build alone.
	sb_userns_available || skip "user namespaces unavailable on this host"
	run --separate-stderr strace -f -qq -s 256 -v -e trace=execve -o "$SC_TMP/trace" \
		git speccoder exec -- sh -c 'cat ~/notes.txt; echo end'
	assert_success
	assert_output end
	run grep -c 'execve("[^"]*/libexec/speccoder/sc-sandbox-exec"' "$SC_TMP/trace"
	assert_output 1
	grep 'execve("[^"]*/libexec/speccoder/sc-sandbox-exec"' "$SC_TMP/trace" | grep -q -- '"--print-options"'
	run grep -c 'execve("[^"]*/build/bin/sc-sandbox-exec", \[[^]]*"--", "sh"' "$SC_TMP/trace"
	assert_output 1
	# a bad file stops the driver (exit 2) before anything runs
	printf '[sandbox]\n\thidden = x\n' >speccoder.conf
	run --separate-stderr git speccoder exec -- touch ran
	assert_equal "$status" 2
	[ ! -e ran ]
}
