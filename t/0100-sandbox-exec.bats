#!/usr/bin/env bats
# sc-sandbox-exec: options, exit codes, the command's starting state,
# modes and tiers, --probe, bad input.

# shellcheck disable=SC2154,SC2016 # bats run sets status, output, stderr; '$' is for the inner shell
load lib/common
load lib/sandbox

setup() { sb_setup; }
teardown() { sb_teardown; }

@test "--help prints the man page's synopsis lines" {
	run sc-sandbox-exec --help
	assert_success
	want=$(sed -n '/^# SYNOPSIS/,/^# /p' "$SC_TOP/Documentation/sc-sandbox-exec.1.scd" |
		grep '^\*sc-sandbox-exec\*' | tr -d '*_' | sed 's/^/X /')
	got=$(printf '%s\n' "$output" | grep -E '^(usage|   or):' |
		sed -E 's/^(usage|   or): /X /')
	[ -n "$want" ]
	[ "$want" = "$got" ]
}

@test "--version" {
	run sc-sandbox-exec --version
	assert_success
	assert_output --partial "sc-sandbox-exec (speccoder)"
}

@test "the child's exit status passes through" {
	sb_require_full
	run --separate-stderr sb -- sh -c 'exit 0'
	assert_success
	run --separate-stderr sb -- sh -c 'exit 42'
	assert_failure 42
	run --separate-stderr sb -- sh -c 'kill -TERM $$'
	assert_failure 143
}

@test "127 for a missing program, 126 for one that cannot run" {
	sb_require_full
	run -127 --separate-stderr sb -- no-such-program-here
	assert_failure 127
	[[ "$stderr" == *"error[NOT-FOUND]"* ]]
	printf 'data\n' >"$ROOT/notexec"
	run --separate-stderr sb -- "$ROOT/notexec"
	assert_failure 126
	[[ "$stderr" == *"error[CANNOT-EXECUTE]"* ]]
}

@test "124 at the deadline" {
	sb_require_full
	run --separate-stderr sb --timeout 0.3 -- sleep 5
	assert_failure 124
	[[ "$stderr" == *"error[TIMEOUT]"* ]]
}

@test "stdin is /dev/null, descriptors above 2 are closed, a session of its own" {
	sb_require_full
	run --separate-stderr sb -- sh -c 'readlink /proc/self/fd/0; ls /proc/self/fd | sort -n | tr "\n" " "; echo; [ "$(ps -o sid= -p $$)" -eq $$ ] && echo own-session' 7<"$ROOT/.git/config"
	assert_success
	assert_line --index 0 /dev/null
	# 0 1 2, and 3 for ls's own directory.
	assert_line --index 1 "0 1 2 3 "
	assert_line --index 2 own-session
}

@test "no_new_privs, seccomp and no capabilities in the command" {
	sb_require_full
	run --separate-stderr sb -- grep -E '^(NoNewPrivs|Seccomp|CapEff):' /proc/self/status
	assert_success
	assert_line --regexp '^NoNewPrivs:[[:space:]]+1$'
	assert_line --regexp '^Seccomp:[[:space:]]+2$'
	assert_line --regexp '^CapEff:[[:space:]]+0+$'
}

@test "env scrub drops secret-looking names and sets the fixed ones" {
	sb_require_full
	run --separate-stderr env FOO_API_KEY=k1k1k1k1 MY_TOKEN=t1t1t1t1 \
		DB_PASSWORD=p1p1p1p1 PLAIN=visible NO_COLOR=0 \
		sc-sandbox-exec --root "$ROOT" -- env
	assert_success
	assert_line PLAIN=visible
	assert_line NO_COLOR=1
	assert_line CARGO_TERM_COLOR=never
	assert_line GIT_TERMINAL_PROMPT=0
	assert_line --regexp '^TMPDIR=.*/sc-sandbox\.'
	refute_output --partial k1k1k1k1
	refute_output --partial t1t1t1t1
	refute_output --partial p1p1p1p1
}

@test "env short keeps the short list and --env-keep" {
	sb_require_full
	run --separate-stderr env PLAIN=gone KEEPME=kept \
		sc-sandbox-exec --root "$ROOT" --env short --env-keep KEEPME -- env
	assert_success
	assert_line KEEPME=kept
	assert_line --regexp '^PATH='
	assert_line --regexp '^HOME='
	refute_line PLAIN=gone
}

@test "--mode off runs plainly and says so" {
	run --separate-stderr sc-sandbox-exec --mode off --root "$ROOT" -- sh -c 'echo x > "$0/plain"' "$SC_TMP/outside"
	assert_success
	[[ "$stderr" == *"warning[SANDBOX-OFF]"* ]]
	[ -e "$SC_TMP/outside/plain" ]
}

@test "--tier landlock: auto names what is unenforced, required refuses" {
	sb_require_landlock
	run --separate-stderr sc-sandbox-exec --tier landlock --mode auto --root "$ROOT" -- true
	assert_success
	[[ "$stderr" == *"warning[SANDBOX-DEGRADED]: unenforced: "*unix-sockets* ]]
	run --separate-stderr sc-sandbox-exec --tier landlock --root "$ROOT" -- touch "$ROOT/ran"
	assert_failure 125
	[[ "$stderr" == *"error[SANDBOX-UNAVAILABLE]"* ]]
	[ ! -e "$ROOT/ran" ]
}

@test "--probe writes host and protection records" {
	run --separate-stderr sc-sandbox-exec --probe
	assert_success
	recs=$(sc-sandbox-exec --probe | tr '\0' '\n')
	[[ "$recs" == *"type=host"* ]]
	[[ "$recs" == *"landlock-abi="* ]]
	[[ "$recs" == *"user-namespaces="* ]]
	[[ "$recs" == *"name=hidden-credentials"* ]]
	[[ "$recs" == *"tier=landlock"* ]]
}

@test "bad input: exit 125 with a code, and the command never runs" {
	run --separate-stderr sc-sandbox-exec --root "$SC_TMP/nope" -- touch "$ROOT/ran"
	assert_failure 125
	[[ "$stderr" == *"error[BAD-ROOT]"* ]]
	run --separate-stderr sc-sandbox-exec --root "$ROOT" --writable "$SC_TMP/nope" -- touch "$ROOT/ran"
	assert_failure 125
	[[ "$stderr" == *"error[BAD-WRITABLE]"* ]]
	run --separate-stderr sc-sandbox-exec --root "$ROOT" --writable / -- touch "$ROOT/ran"
	assert_failure 125
	[[ "$stderr" == *"error[BAD-WRITABLE]"* ]]
	run --separate-stderr sc-sandbox-exec --root / -- touch "$ROOT/ran"
	assert_failure 125
	[[ "$stderr" == *"error[BAD-ROOT]"* ]]
	run --separate-stderr sc-sandbox-exec --root "$ROOT" --read-only "$SC_TMP/nope" -- touch "$ROOT/ran"
	assert_failure 125
	[[ "$stderr" == *"error[BAD-PATH]"* ]]
	run --separate-stderr sc-sandbox-exec --network wide -- touch "$ROOT/ran"
	assert_failure 125
	[[ "$stderr" == *"error[BAD-OPTION]"* ]]
	run --separate-stderr sc-sandbox-exec --mode off --tier full -- touch "$ROOT/ran"
	assert_failure 125
	run --separate-stderr sc-sandbox-exec --probe -- touch "$ROOT/ran"
	assert_failure 125
	run --separate-stderr sc-sandbox-exec --timeout 0 -- touch "$ROOT/ran"
	assert_failure 125
	run --separate-stderr sc-sandbox-exec --timeout 1x -- touch "$ROOT/ran"
	assert_failure 125
	run --separate-stderr sc-sandbox-exec --max-output -1 -- touch "$ROOT/ran"
	assert_failure 125
	run --separate-stderr sc-sandbox-exec
	assert_failure 125
	[ ! -e "$ROOT/ran" ]
}

@test "--writable outside the root: error[WRITABLE-OUTSIDE-ROOT], 125, nothing run, in every mode" {
	ln -s "$SC_TMP/outside" "$ROOT/link"
	for w in "$SC_TMP/outside" "$ROOT/../outside" "$ROOT/link" "$HOME"; do
		for mode in required auto off; do
			run --separate-stderr sc-sandbox-exec --mode "$mode" --root "$ROOT" \
				--writable "$w" -- sh -c 'touch "$1/ran" "$2/ran"' _ "$ROOT" "$SC_TMP/outside"
			assert_failure 125
			[[ "$stderr" == *"error[WRITABLE-OUTSIDE-ROOT]"* ]]
			[[ "$stderr" == *"--writable-outside"* ]]
			[ ! -e "$ROOT/ran" ] && [ ! -e "$SC_TMP/outside/ran" ]
		done
	done
	# A path inside the root is no such thing, and says nothing.
	mkdir "$ROOT/sub"
	run --separate-stderr sc-sandbox-exec --mode auto --root "$ROOT" --writable "$ROOT/sub" -- true
	assert_success
	[[ "$stderr" != *WRITABLE-OUTSIDE* ]]
}

@test "--writable-outside: the place is writable, and stderr says so on every run" {
	sb_require_full
	# (bats' run sets i: the loop has a name of its own)
	for nth in 1 2; do
		run --separate-stderr sc-sandbox-exec --root "$ROOT" \
			--writable-outside "$SC_TMP/outside" -- touch "$SC_TMP/outside/ok$nth"
		assert_success
		[[ "$stderr" == *"warning[WRITABLE-OUTSIDE]"*"$SC_TMP/outside"* ]]
		[ -e "$SC_TMP/outside/ok$nth" ]
	done
	# Without it, the same write is refused: the option is what allows it.
	run --separate-stderr sc-sandbox-exec --root "$ROOT" -- touch "$SC_TMP/outside/no"
	assert_failure 1
	[ ! -e "$SC_TMP/outside/no" ]
	# Inside the root it is an ordinary writable path, said nothing of.
	mkdir "$ROOT/sub"
	run --separate-stderr sc-sandbox-exec --root "$ROOT" --writable-outside "$ROOT/sub" -- true
	assert_success
	[[ "$stderr" != *WRITABLE-OUTSIDE* ]]
}

@test "the macOS path compiles with __APPLE__ defined (syntax only: CI has no macOS)" {
	local d inc=()
	for d in "$SC_TOP"/lib "$SC_TOP"/lib/*/; do inc+=(-I"$d"); done
	for f in lib/sandbox/seatbelt.c bin/sc-sandbox-exec.c; do
		run "${CC:-cc}" -std=c11 -D_XOPEN_SOURCE=700 -D__APPLE__ -Wall -Wextra \
			-Werror -Wshadow -Wformat=2 -Wvla "${inc[@]}" -fsyntax-only "$SC_TOP/$f"
		assert_success
	done
	# The Linux build does not reference it.
	run nm -u "$SC_TOP/build/bin/sc-sandbox-exec"
	refute_output --partial sc_seatbelt_run
	run nm "$SC_TOP/build/bin/sc-sandbox-exec"
	refute_output --partial sc_seatbelt_run
}

@test "stdin: /dev/null unless --stdin; --stdin passes a pipe and refuses a terminal" {
	# Without --stdin the command reads nothing of a pipe it was given.
	run sh -c "echo from-the-caller | sc-sandbox-exec --mode auto --root '$SC_TMP' -- cat"
	assert_success
	assert_output ""
	run sh -c "echo from-the-caller | sc-sandbox-exec --mode auto --stdin --root '$SC_TMP' -- cat"
	assert_success
	assert_output from-the-caller
	# A terminal: refused before anything runs.
	command -v script >/dev/null || skip "script(1) is missing: no pty to test with"
	run script -qec "sc-sandbox-exec --mode auto --stdin --root '$SC_TMP' -- touch '$SC_TMP/ran'" /dev/null
	assert_output --partial "error[BAD-OPTION]"
	[ ! -e "$SC_TMP/ran" ]
}
