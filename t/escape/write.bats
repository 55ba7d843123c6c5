#!/usr/bin/env bats
# Writing where a command must not: outside the root, into .git when it is
# --read-only, into ~/.cargo/bin or speccoder's state, onto devices.

# shellcheck disable=SC2154,SC2016,SC2317,SC2010 # bats run sets status, output, stderr; '$' is for the inner shell; functions called by bats or traps; ls of a directory the test made
load ../lib/common
load ../lib/sandbox

setup() { sb_setup; }
teardown() { sb_teardown; }

# Both tiers confine writes.
for_tiers() {
	local t
	for t in full landlock; do
		if [ "$t" = full ]; then
			sb_userns_available || continue
		fi
		SB_TIER=$t "$@"
	done
}

try_outside() {
	run --separate-stderr sb -- tee "$SC_TMP/outside/escaped"
	assert_failure 1
	[ ! -e "$SC_TMP/outside/escaped" ]
	run --separate-stderr sb -- tee "$HOME/escaped"
	assert_failure 1
	[ ! -e "$HOME/escaped" ]
	run --separate-stderr sb -- tee "/tmp/sc-escape-$$"
	assert_failure 1
	run --separate-stderr sb -- mkdir "$SC_TMP/outside/dir"
	assert_failure 1
	run --separate-stderr sb -- ln -s /etc/passwd "$SC_TMP/outside/link"
	assert_failure 1
	run --separate-stderr sb -- mv "$ROOT/.git/config" "$SC_TMP/outside/config"
	assert_failure 1
}

@test "writing outside the root works without the sandbox (the test can fail)" {
	echo x >"$SC_TMP/outside/plain"
	[ -e "$SC_TMP/outside/plain" ]
}

@test "writing outside the root fails in every tier" {
	sb_require_landlock
	for_tiers try_outside
}

@test "the root and TMPDIR are writable in every tier" {
	sb_require_landlock
	check() {
		run --separate-stderr sb -- sh -c 'echo a > f && mkdir d && echo b > "$TMPDIR/t" && cat f "$TMPDIR/t"'
		assert_success
		assert_output "a
b"
		rm -rf f d
	}
	for_tiers check
}

@test "the private TMPDIR is removed afterwards" {
	sb_require_landlock
	check() {
		run --separate-stderr sb -- sh -c 'mkdir -p "$TMPDIR/a/b" && ln -s / "$TMPDIR/a/root" && echo "$TMPDIR"'
		assert_success
		[ -n "$output" ]
		[ ! -e "$output" ]
	}
	for_tiers check
}

@test "chmod outside the root fails (full tier)" {
	sb_require_full
	touch "$SC_TMP/outside/f"
	chmod 600 "$SC_TMP/outside/f"
	run --separate-stderr sb -- chmod 777 "$SC_TMP/outside/f"
	assert_failure 1
	run stat -c %a "$SC_TMP/outside/f"
	assert_output 600
}

@test "chown, utime and setxattr outside the root fail (full tier)" {
	sb_require_full
	sb_build_attack
	touch "$SC_TMP/outside/f"
	for a in chown utime setxattr; do
		run "$ATTACK" "$a" "$SC_TMP/outside/f"
		assert_success
		run --separate-stderr sb -- "$ATTACK" "$a" "$SC_TMP/outside/f"
		assert_failure 1
		run --separate-stderr sb -- "$ATTACK" "$a" "$HOME/notes.txt"
		assert_failure 1
	done
	# The landlock tier cannot stop them, and says so.
	run --separate-stderr sc-sandbox-exec --tier landlock --mode auto --root "$ROOT" -- true
	[[ "$stderr" == *"warning[SANDBOX-DEGRADED]"*file-metadata* ]]
}

@test "--read-only .git: no write, rename, removal or replacement" {
	sb_require_full
	run --separate-stderr sb --read-only "$ROOT/.git" -- tee -a .git/config
	assert_failure 1
	run --separate-stderr sb --read-only "$ROOT/.git" -- mv .git .git-moved
	assert_failure 1
	run --separate-stderr sb --read-only "$ROOT/.git" -- rm -rf .git
	assert_failure 1
	run --separate-stderr sb --read-only "$ROOT/.git" -- sh -c 'mkdir g && mv g .git'
	assert_failure 1
	run --separate-stderr sb --read-only "$ROOT/.git" -- mkdir .git/hooks
	assert_failure 1
	run cat "$ROOT/.git/config"
	assert_output "[core]"
	# With the default lifted the same write works: the test can fail.
	run --separate-stderr sb --writable "$ROOT/.git" -- sh -c 'echo ok >> .git/config'
	assert_success
	[[ "$stderr" == *"warning[PROTECTION-LIFTED]"* ]]
}

@test "--read-only in the landlock tier: auto names it, required refuses" {
	sb_require_landlock
	run --separate-stderr sc-sandbox-exec --tier landlock --mode auto \
		--root "$ROOT" --read-only "$ROOT/.git" -- true
	assert_success
	[[ "$stderr" == *"warning[SANDBOX-DEGRADED]"*read-only-paths* ]]
	run --separate-stderr sc-sandbox-exec --tier landlock --mode required \
		--root "$ROOT" --read-only "$ROOT/.git" -- touch "$ROOT/ran"
	assert_failure 125
	[[ "$stderr" == *"error[SANDBOX-UNAVAILABLE]"* ]]
	[ ! -e "$ROOT/ran" ]
}

@test "~/.cargo/bin and the state directory stay read-only under a writable parent" {
	sb_require_full
	export XDG_STATE_HOME="$SC_TMP/state"
	mkdir -p "$XDG_STATE_HOME/speccoder" "$XDG_STATE_HOME/other"
	run --separate-stderr sb --writable-outside "$HOME/.cargo" --writable-outside "$XDG_STATE_HOME" -- \
		sh -c 'touch "$HOME/.cargo/registry/ok" "$XDG_STATE_HOME/other/ok"'
	assert_success
	run --separate-stderr sb --writable-outside "$HOME/.cargo" -- touch "$HOME/.cargo/bin/cargo-evil"
	assert_failure 1
	run --separate-stderr sb --writable-outside "$XDG_STATE_HOME" -- touch "$XDG_STATE_HOME/speccoder/journal"
	assert_failure 1
}

@test "no device can be made, and only harmless ones written" {
	sb_require_full
	run --separate-stderr sb -- mknod "$ROOT/disk" b 8 0
	assert_failure 1
	run --separate-stderr sb -- sh -c 'echo x > /dev/null && echo ok'
	assert_success
	run --separate-stderr sb -- tee /dev/kmsg
	assert_failure 1
}

@test "a setuid binary gives nothing back (no_new_privs, nosuid)" {
	sb_require_full
	run --separate-stderr sb -- sh -c 'grep -E "^(NoNewPrivs|CapEff|CapBnd):" /proc/self/status'
	assert_success
	assert_line --regexp '^NoNewPrivs:[[:space:]]+1$'
	assert_line --regexp '^CapEff:[[:space:]]+0+$'
	assert_line --regexp '^CapBnd:[[:space:]]+0+$'
}

@test "--read-only on a linked worktree's .git file covers its git directories" {
	sb_require_full
	git init -q "$ROOT/main"
	git -C "$ROOT/main" -c user.name=t -c user.email=t@t commit -q --allow-empty -m init
	git -C "$ROOT/main" worktree add -q "$ROOT/wt" 2>/dev/null
	[ -f "$ROOT/wt/.git" ]
	gitdir=$(sed -n 's/^gitdir: //p' "$ROOT/wt/.git")
	run --separate-stderr sb --read-only "$ROOT/wt/.git" -- touch "$gitdir/HEAD" "$ROOT/main/.git/config"
	assert_failure 1
	run --separate-stderr sb --read-only "$ROOT/wt/.git" -- mkdir "$ROOT/main/.git/hooks/x"
	assert_failure 1
	# Without --read-only, both are writable in this layout: the test can fail.
	run --separate-stderr sb -- touch "$gitdir/HEAD" "$ROOT/main/.git/config"
	assert_success
}

@test "/dev/shm is private in the full tier and shut in the landlock tier" {
	sb_require_full
	run --separate-stderr sb -- sh -c 'echo x > /dev/shm/sc-escape-$$ && cat /dev/shm/sc-escape-$$'
	assert_success
	assert_output x
	[ -z "$(ls /dev/shm | grep sc-escape || true)" ]
	SB_TIER=landlock run --separate-stderr sb -- tee /dev/shm/sc-escape-ll
	assert_failure 1
	[ ! -e /dev/shm/sc-escape-ll ]
}

setid_attempts() {
	run --separate-stderr sb -- sh -c 'cp /bin/true "$1/suid" && chmod u+s "$1/suid"' _ "$ROOT"
	assert_failure
	run --separate-stderr sb -- sh -c 'cp /bin/true "$1/sgid" && chmod 2755 "$1/sgid"' _ "$ROOT"
	assert_failure
	run --separate-stderr sb -- install -m 4755 /bin/true "$ROOT/installed"
	assert_failure
	run --separate-stderr sb -- perl -e 'use Fcntl; sysopen(my $f, $ARGV[0], O_CREAT|O_WRONLY, 04755) or exit 9' "$ROOT/created"
	for f in suid sgid installed created; do
		if [ -e "$ROOT/$f" ]; then
			if [ -u "$ROOT/$f" ] || [ -g "$ROOT/$f" ]; then
				fail "$f is set-id"
			fi
		fi
	done
}

@test "a set-id bit can be set without the sandbox (the test can fail)" {
	cp /bin/true "$ROOT/plain"
	chmod u+s "$ROOT/plain"
	[ -u "$ROOT/plain" ]
}

@test "no set-id file can be made in the root, in every tier" {
	for_tiers setid_attempts
}
