#!/usr/bin/env bats
# System calls attackers use to leave a sandbox: reaching other processes,
# the kernel's big surfaces, namespaces and mounts, other ABIs, the
# terminal.  Each runs in both tiers; outside first where that is safe.

# shellcheck disable=SC2154,SC2016 # bats run sets status, output, stderr; '$' is for the inner shell
load ../lib/common
load ../lib/sandbox

setup() {
	sb_setup
	sb_build_attack
	sb_require_landlock
}
teardown() { sb_teardown; }

# Run "attack ARGS" in every tier this host has; each must be refused (1).
refused_in_every_tier() {
	local t
	for t in full landlock; do
		if [ "$t" = full ] && ! sb_userns_available; then
			continue
		fi
		SB_TIER=$t run --separate-stderr sb -- "$ATTACK" "$@"
		assert_failure 1
	done
}

@test "io_uring" {
	run "$ATTACK" io_uring
	assert_success
	refused_in_every_tier io_uring
}

@test "keyctl/add_key" {
	run "$ATTACK" keyctl
	assert_success
	refused_in_every_tier keyctl
}

@test "bpf" {
	run "$ATTACK" bpf
	assert_success
	refused_in_every_tier bpf
}

@test "perf_event_open" {
	run "$ATTACK" perf
	assert_success
	refused_in_every_tier perf
}

@test "clone3 fails with ENOSYS so libc falls back to clone" {
	run "$ATTACK" clone3
	assert_success
	refused_in_every_tier clone3
	run --separate-stderr sb -- "$ATTACK" clone3
	[[ "$stderr" == *"not implemented"* ]]
}

@test "nested user, mount and network namespaces" {
	run unshare -U -r true
	assert_success
	refused_in_every_tier unshare user
	refused_in_every_tier unshare mount
	refused_in_every_tier unshare net
	run --separate-stderr sb -- unshare -U -r true
	assert_failure 1
}

@test "mounting over the root or the masks" {
	run unshare -m "$ATTACK" mount "$ROOT"
	assert_success
	refused_in_every_tier mount "$ROOT"
	refused_in_every_tier setns
}

@test "personality other than PER_LINUX" {
	run "$ATTACK" personality
	assert_success
	refused_in_every_tier personality
}

@test "ptrace and /proc/PID/mem of the sandbox's init and supervisor" {
	sleep 30 &
	victim=$!
	run "$ATTACK" ptrace "$victim"
	assert_success
	run "$ATTACK" memread "$victim"
	assert_success
	kill "$victim"
	wait "$victim" || true
	if sb_userns_available; then
		run --separate-stderr sb -- "$ATTACK" ptrace 1
		assert_failure 1
		run --separate-stderr sb -- "$ATTACK" memread 1
		assert_failure 1
	fi
	# In the landlock tier the parent is the supervisor itself.
	SB_TIER=landlock run --separate-stderr sb -- sh -c 'exec "$0" ptrace "$PPID"' "$ATTACK"
	assert_failure 1
	SB_TIER=landlock run --separate-stderr sb -- sh -c 'exec "$0" memread "$PPID"' "$ATTACK"
	assert_failure 1
}

@test "TIOCSTI on the terminal, from under a pty" {
	command -v script >/dev/null || skip "script(1) unavailable"
	run script -qec "\"$ATTACK\" tiocsti 1" /dev/null
	if [ "$status" -ne 0 ]; then
		skip "this host refuses TIOCSTI outside the sandbox too"
	fi
	for t in full landlock; do
		[ "$t" = landlock ] || sb_userns_available || continue
		run script -qec "env SB_TIER=$t bash -c 'source \"\$SC_TOP/t/lib/sandbox.bash\" 2>/dev/null; sb -- \"\$ATTACK\" tiocsti 1'" /dev/null
		assert_failure 1
		run script -qec "env SB_TIER=$t bash -c 'source \"\$SC_TOP/t/lib/sandbox.bash\" 2>/dev/null; sb -- \"\$ATTACK\" tiocsti tty'" /dev/null
		assert_failure 1
	done
}

@test "system calls through the 32-bit ABI (int 0x80) kill the command" {
	run "$ATTACK" int80
	[ "$status" -eq 0 ] || skip "this kernel has no 32-bit entry point (status $status)"
	run --separate-stderr sb -- "$ATTACK" int80
	assert_failure 159   # 128 + SIGSYS
}
