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

@test "process_vm_readv of another process" {
	sleep 30 &
	victim=$!
	sleep 0.2
	run "$ATTACK" vm-read "$victim"
	assert_success
	kill "$victim"
	wait "$victim" || true
	refused_in_every_tier vm-read 1
	SB_TIER=landlock run --separate-stderr sb -- sh -c 'exec "$0" vm-read "$PPID"' "$ATTACK"
	assert_failure 1
}

@test "userfaultfd and request_key" {
	run "$ATTACK" userfaultfd
	assert_success
	refused_in_every_tier userfaultfd
	run "$ATTACK" request-key
	assert_success
	refused_in_every_tier request-key
}

@test "chroot, pivot_root and the new mount API (fsopen, open_tree)" {
	run unshare -m "$ATTACK" chroot /
	assert_success
	refused_in_every_tier chroot /
	# pivot_root needs a mount point as the current directory.
	run unshare -m sh -c 'mount --bind "$1" "$1" && cd "$1" && exec "$2" pivot-root' sh "$ROOT" "$ATTACK"
	assert_success
	refused_in_every_tier pivot-root
	run "$ATTACK" fsopen
	assert_success
	refused_in_every_tier fsopen
	run "$ATTACK" open-tree /
	assert_success
	refused_in_every_tier open-tree /
}

@test "the clone system call with CLONE_NEWUSER, not only unshare" {
	run "$ATTACK" clone-newuser
	assert_success
	refused_in_every_tier clone-newuser
}

@test "system calls through the x32 ABI kill the command" {
	# Outside, a kernel without x32 answers ENOSYS (1), with it the call
	# works (0): never SIGSYS, so the kill inside is the filter's.
	run "$ATTACK" x32
	[ "$status" -eq 0 ] || [ "$status" -eq 1 ]
	for t in full landlock; do
		[ "$t" = landlock ] || sb_userns_available || continue
		SB_TIER=$t run --separate-stderr sb -- "$ATTACK" x32
		assert_failure 159   # 128 + SIGSYS
	done
}

@test "socket families are compared as 32 bits: upper bits do not let AF_PACKET by" {
	run "$ATTACK" socket-hi 17 3 768
	assert_success
	refused_in_every_tier socket-hi 17 3 768
	refused_in_every_tier socket-hi 16 3 0
	for t in full landlock; do
		[ "$t" = landlock ] || sb_userns_available || continue
		SB_TIER=$t run --separate-stderr sb --network none -- "$ATTACK" socket-hi 2 1 0
		assert_failure 1
	done
}

@test "send() on a connected Unix socket still works (filtering sendto would break it)" {
	for t in full landlock; do
		[ "$t" = landlock ] || sb_userns_available || continue
		for net in none loopback full; do
			SB_TIER=$t run --separate-stderr sb --network "$net" -- "$ATTACK" unix-send
			assert_success
		done
	done
}
