#!/usr/bin/env bats
# sc-sandbox-exec where the kernel really refuses user namespaces (a
# container, Ubuntu's AppArmor restriction): not --tier landlock, but a
# user namespace whose max_user_namespaces is 0, so clone(CLONE_NEWUSER)
# fails with ENOSPC as it would there.  --mode auto must fall to the
# landlock tier and name what it cannot enforce; --mode required must
# refuse before the command runs.

# shellcheck disable=SC2154,SC2016 # bats run sets status, output, stderr; '$' is for the inner shell
load lib/common
load lib/sandbox

setup() {
	sb_setup
	sb_build_attack
}
teardown() { sb_teardown; }

# The protections the landlock tier leaves to the full tier for the
# default policy (loopback network) on this host, sorted.  The root holds
# .git, which stays read-only by default: only a mount can do that.
lower_tier_gaps() {
	local -a gaps=(network process-isolation ipc-isolation file-metadata
		read-only-paths)
	[ "$(sb_landlock_abi)" -ge 9 ] || gaps+=(unix-sockets)
	[ "$(sb_landlock_abi)" -ge 6 ] || gaps+=(abstract-sockets)
	printf '%s\n' "${gaps[@]}" | sort
}

# The names in "warning[SANDBOX-DEGRADED]: unenforced: a, b" of $stderr, sorted.
degraded_names() {
	printf '%s\n' "$stderr" | sed -n 's/.*warning\[SANDBOX-DEGRADED\]: unenforced: //p' |
		tr ',' '\n' | tr -d ' ' | sed '/^$/d' | sort
}

# sc-sandbox-exec --probe without user namespaces, one field a line in
# $SC_TMP/probe (never piped: the tool's status is checked).
probe_no_userns() {
	sc_run_io /dev/null "$SC_TMP/probe.rec" sb_no_userns sc-sandbox-exec --probe
	assert_success
	tr '\0' '\n' <"$SC_TMP/probe.rec" >"$SC_TMP/probe"
}

@test "the harness really takes user namespaces away (the tests can fail)" {
	run unshare --user --map-root-user true
	[ "$status" -eq 0 ] || skip "no user namespaces to take away: the host already refuses them"
	run sb_no_userns true
	assert_success
	run sb_no_userns unshare --user true
	assert_failure
	probe_no_userns
	grep -qx 'user-namespaces=no' "$SC_TMP/probe"
	grep -qx 'tier=landlock' "$SC_TMP/probe"
}

@test "--probe: no protection of the full tier is claimed without user namespaces" {
	probe_no_userns
	grep -qx 'tier=full' "$SC_TMP/probe"
	# One field a line, a blank line between records.
	full_yes=$(awk -v RS= '/tier=full/ && /enforced=yes/' "$SC_TMP/probe" | wc -l)
	[ "$full_yes" -eq 0 ]
}

@test "--mode auto runs in the landlock tier and names exactly what it cannot enforce" {
	sb_require_landlock
	run --separate-stderr sb_no_userns sc-sandbox-exec --mode auto --root "$ROOT" -- \
		sh -c 'echo ran >"$0/ran"' "$ROOT"
	assert_success
	[ "$(cat "$ROOT/ran")" = ran ]
	[[ "$stderr" == *"warning[NO-USER-NAMESPACES]"* ]]
	[ "$(degraded_names)" = "$(lower_tier_gaps)" ]
	# Under --network none, seccomp takes every inet socket: not a gap.
	run --separate-stderr sb_no_userns sc-sandbox-exec --mode auto --network none \
		--root "$ROOT" -- true
	assert_success
	[ "$(degraded_names)" = "$(lower_tier_gaps | grep -vx network)" ]
}

@test "--mode auto without user namespaces: Landlock still confines writes" {
	sb_require_landlock
	# Outside the sandbox the same writes work: the test can fail.
	run tee "$SC_TMP/outside/plain" </dev/null
	assert_success
	rm "$SC_TMP/outside/plain"
	for target in "$SC_TMP/outside/escaped" "$HOME/escaped" "$HOME/.ssh/authorized_keys"; do
		run --separate-stderr sb_no_userns sc-sandbox-exec --mode auto --root "$ROOT" -- \
			tee "$target" </dev/null
		assert_failure 1
		[ ! -e "$target" ]
	done
	run --separate-stderr sb_no_userns sc-sandbox-exec --mode auto --root "$ROOT" -- \
		sh -c 'echo a >f && echo b >"$TMPDIR/t" && cat f "$TMPDIR/t"'
	assert_success
	assert_output "a
b"
}

@test "--mode auto without user namespaces: credentials stay unreadable, every way round" {
	sb_require_landlock
	secrets=".ssh/id_ed25519 .aws/credentials .config/gh/hosts.yml .netrc .npmrc .git-credentials"
	ln -s "$HOME/.ssh/id_ed25519" "$ROOT/key"
	ln -s "$HOME/.aws" "$ROOT/aws"
	# Outside the sandbox every one reads: the test can fail.
	for p in $secrets; do
		run cat "$HOME/$p"
		assert_success
		assert_output --regexp 'SECRET|KEY|TOKEN'
	done
	for p in $secrets; do
		run --separate-stderr sb_no_userns sc-sandbox-exec --mode auto --root "$ROOT" -- \
			cat "$HOME/$p"
		assert_failure 1
		refute_output --regexp 'SECRET|KEY|TOKEN'
	done
	run --separate-stderr sb_no_userns sc-sandbox-exec --mode auto --root "$ROOT" -- sh -c \
		'cat key; cat aws/credentials; cat "/proc/self/root$HOME/.netrc"; cat "$HOME/../home/.ssh/../.ssh/id_ed25519"; cp "$HOME/.npmrc" .; ln "$HOME/.netrc" netrc'
	assert_failure 1
	refute_output --regexp 'SECRET|KEY|TOKEN'
	[ ! -e "$ROOT/.npmrc" ] && [ ! -e "$ROOT/netrc" ]
	# The rest of HOME and of the system stays readable.
	run --separate-stderr sb_no_userns sc-sandbox-exec --mode auto --root "$ROOT" -- \
		sh -c 'cat "$HOME/notes.txt" && ls -a "$HOME" >/dev/null && cat /etc/passwd >/dev/null && echo fine'
	assert_success
	assert_output "ordinary
fine"
}

@test "--mode auto without user namespaces: a credential under a writable path is named" {
	sb_require_landlock
	run --separate-stderr sb_no_userns sc-sandbox-exec --mode auto --root "$ROOT" \
		--writable-outside "$HOME" -- true
	assert_success
	[[ "$stderr" == *"warning[SANDBOX-DEGRADED]"*hidden-credentials* ]]
}

@test "--mode auto without user namespaces: seccomp still refuses what it refuses" {
	sb_require_landlock
	run "$ATTACK" socket 2 1 0
	assert_success
	run --separate-stderr sb_no_userns sc-sandbox-exec --mode auto --network none \
		--root "$ROOT" -- "$ATTACK" socket 2 1 0
	assert_failure 1
	for name in keyctl bpf io_uring; do
		run --separate-stderr sb_no_userns sc-sandbox-exec --mode auto --root "$ROOT" -- \
			"$ATTACK" "$name"
		assert_failure 1
	done
}

@test "--mode required refuses with 125 and the command never runs" {
	run --separate-stderr sb_no_userns sc-sandbox-exec --root "$ROOT" -- \
		touch "$ROOT/ran"
	assert_failure 125
	[[ "$stderr" == *"error[SANDBOX-UNAVAILABLE]"* ]]
	[[ "$stderr" == *file-metadata* ]]
	[ ! -e "$ROOT/ran" ]
	run --separate-stderr sb_no_userns sc-sandbox-exec --mode required \
		--network none --root "$ROOT" -- touch "$ROOT/ran"
	assert_failure 125
	[ ! -e "$ROOT/ran" ]
	# The same command where user namespaces work: it runs (the test can fail).
	sb_require_full
	run --separate-stderr sc-sandbox-exec --root "$ROOT" -- touch "$ROOT/ran"
	assert_success
	[ -e "$ROOT/ran" ]
}

@test "--tier full refuses without user namespaces, even under --mode auto" {
	run --separate-stderr sb_no_userns sc-sandbox-exec --tier full --mode auto \
		--root "$ROOT" -- touch "$ROOT/ran"
	assert_failure 125
	[[ "$stderr" == *"error[SANDBOX-UNAVAILABLE]"*"user namespaces"* ]]
	[ ! -e "$ROOT/ran" ]
}

@test "Landlock ABI 9: a Unix socket outside the writable paths is refused on this tier too" {
	[ "$(sb_landlock_abi)" -ge 9 ] || skip "Landlock ABI 9 (pathname Unix socket rule) unavailable: ABI $(sb_landlock_abi)"
	sb_serve serve-unix "$SC_TMP/outside/agent.sock" 5
	run "$ATTACK" connect-unix "$SC_TMP/outside/agent.sock"
	assert_success
	run --separate-stderr sb_no_userns sc-sandbox-exec --mode auto --root "$ROOT" -- \
		"$ATTACK" connect-unix "$SC_TMP/outside/agent.sock"
	assert_failure 1
	sb_stop_server
	# One inside the root stays usable.
	sb_serve serve-unix "$ROOT/app.sock" 5
	run --separate-stderr sb_no_userns sc-sandbox-exec --mode auto --root "$ROOT" -- \
		"$ATTACK" connect-unix "$ROOT/app.sock"
	assert_success
	[[ "$stderr" != *unix-sockets* ]]
}

@test "--probe names what holds per network mode on this tier" {
	probe_no_userns
	# One record a paragraph: find the landlock tier's records by mode.
	rec() { awk -v RS= -v m="mode=$1" '/type=network/ && /tier=landlock/ && $0 ~ m"\n"' "$SC_TMP/probe"; }
	rec none | grep -qx 'network=yes'
	rec loopback | grep -qx 'network=no'
	rec full | grep -qx 'network=not-needed'
	local want=no
	[ "$(sb_landlock_abi)" -lt 9 ] || want=yes
	for m in none loopback full; do
		rec "$m" | grep -qx "unix-sockets=$want"
	done
	awk -v RS= '/type=protection/ && /tier=landlock/ && /name=unix-sockets/' \
		"$SC_TMP/probe" | grep -qx "enforced=$want"
	# No full-tier network claim without user namespaces.
	[ -z "$(awk -v RS= '/type=network/ && /tier=full/ && /network=yes/' "$SC_TMP/probe")" ]
	# A gap the configuration accepts is marked so (git speccoder doctor).
	sc_run_io /dev/null "$SC_TMP/probe.rec" sb_no_userns sc-sandbox-exec --probe \
		--accept-gaps file-metadata
	assert_success
	tr '\0' '\n' <"$SC_TMP/probe.rec" >"$SC_TMP/probe"
	awk -v RS= '/type=protection/ && /tier=landlock/ && /name=file-metadata/' \
		"$SC_TMP/probe" | grep -qx 'accepted=yes'
	[ -z "$(awk -v RS= '/name=network\n/ && /accepted=/' "$SC_TMP/probe")" ]
}

@test "--accept-gaps: required runs once every gap is accepted by name, and says so" {
	sb_require_landlock
	local all=network,unix-sockets,process-isolation,ipc-isolation,file-metadata,read-only-paths
	[ "$(sb_landlock_abi)" -ge 6 ] || all=$all,abstract-sockets
	# One gap left out: refused, naming only that one.
	run --separate-stderr sb_no_userns sc-sandbox-exec --root "$ROOT" \
		--accept-gaps "${all#network,}" -- touch "$ROOT/ran"
	assert_failure 125
	[[ "$stderr" == *"error[SANDBOX-UNAVAILABLE]"*"cannot enforce: network;"* ]]
	[ ! -e "$ROOT/ran" ]
	run --separate-stderr sb_no_userns sc-sandbox-exec --root "$ROOT" \
		--accept-gaps "$all" -- touch "$ROOT/ran"
	assert_success
	[ -e "$ROOT/ran" ]
	[[ "$stderr" == *"warning[SANDBOX-GAPS-ACCEPTED]"*file-metadata* ]]
	# The core of the sandbox cannot be accepted away.
	for core in landlock syscall-filter write-confinement bogus; do
		run --separate-stderr sc-sandbox-exec --accept-gaps "$core" -- touch "$ROOT/core"
		assert_failure 125
		[[ "$stderr" == *"error[BAD-OPTION]"* ]]
	done
	[ ! -e "$ROOT/core" ]
}

@test "the lower tier holds: no inet under none, no host abstract socket, no write outside" {
	sb_require_landlock
	port=$(sb_free_port)
	sb_serve serve-tcp 127.0.0.1 "$port" 5
	run "$ATTACK" connect-tcp 127.0.0.1 "$port"
	assert_success
	run --separate-stderr sb_no_userns sc-sandbox-exec --mode auto --network none \
		--root "$ROOT" -- "$ATTACK" connect-tcp 127.0.0.1 "$port"
	assert_failure 1
	sb_stop_server
	if [ "$(sb_landlock_abi)" -ge 6 ]; then
		name="sc-escape-$$-$RANDOM"
		sb_serve serve-abstract "$name" 5
		run --separate-stderr sb_no_userns sc-sandbox-exec --mode auto \
			--network full --root "$ROOT" -- "$ATTACK" connect-abstract "$name"
		assert_failure 1
		sb_stop_server
	fi
	run --separate-stderr sb_no_userns sc-sandbox-exec --mode auto --root "$ROOT" -- \
		tee "$SC_TMP/outside/escaped"
	assert_failure 1
}

# What the man page says this tier cannot hold is really open: each gap
# --probe names is shown with the attack that gets through it.
@test "the lower tier's named gaps are real (loopback, Unix sockets, chmod)" {
	sb_require_landlock
	port=$(sb_free_port)
	sb_serve serve-tcp 127.0.0.1 "$port" 5
	run --separate-stderr sb_no_userns sc-sandbox-exec --mode auto --network loopback \
		--root "$ROOT" -- "$ATTACK" connect-tcp 127.0.0.1 "$port"
	assert_success
	[[ "$stderr" == *"warning[SANDBOX-DEGRADED]"*network* ]]
	sb_stop_server
	sb_serve serve-unix "$SC_TMP/outside/docker.sock" 5
	run --separate-stderr sb_no_userns sc-sandbox-exec --mode auto --network none \
		--root "$ROOT" -- "$ATTACK" connect-unix "$SC_TMP/outside/docker.sock"
	if [ "$(sb_landlock_abi)" -ge 9 ]; then
		# Landlock's socket rule holds it there (the next test).
		assert_failure 1
	else
		assert_success
		[[ "$stderr" == *"warning[SANDBOX-DEGRADED]"*unix-sockets* ]]
	fi
	sb_stop_server
	touch "$SC_TMP/outside/f"
	chmod 600 "$SC_TMP/outside/f"
	run --separate-stderr sb_no_userns sc-sandbox-exec --mode auto --root "$ROOT" -- \
		chmod 644 "$SC_TMP/outside/f"
	assert_success
	[[ "$stderr" == *"warning[SANDBOX-DEGRADED]"*file-metadata* ]]
}

@test "--network hosts cannot hold on this tier: refused with the reason, and the reason is real" {
	sb_require_landlock
	# required: refused before anything runs, saying why
	run --separate-stderr sb_no_userns sc-sandbox-exec --network hosts \
		--allow-host example.com --root "$ROOT" -- touch "$SC_TMP/ran"
	assert_failure 125
	[[ "$stderr" == *"error[SANDBOX-UNAVAILABLE]"*"network (no network namespace: Landlock limits TCP connect by port and never by address"* ]]
	[ ! -e "$SC_TMP/ran" ]
	# --probe says the same, per mode
	probe_no_userns
	awk -v RS= '/type=network/ && /tier=landlock/ && /mode=hosts\n/' "$SC_TMP/probe" |
		grep -q '^why=no network namespace: Landlock limits TCP connect by port'
	awk -v RS= '/type=network/ && /tier=landlock/ && /mode=loopback\n/' "$SC_TMP/probe" |
		grep -q "^why=no network namespace: the host's loopback"
	[ -z "$(awk -v RS= '/type=network/ && /mode=none\n/ && /why=/' "$SC_TMP/probe")" ]
	# auto runs without the proxy and names the gap: a service of the
	# host that no list names is reached directly, which is why required
	# refuses
	port=$(sb_free_port)
	sb_serve serve-tcp 127.0.0.1 "$port" 5
	run --separate-stderr sb_no_userns sc-sandbox-exec --mode auto --network hosts \
		--allow-host example.com --root "$ROOT" -- "$ATTACK" connect-tcp 127.0.0.1 "$port"
	assert_success
	[[ "$stderr" == *"warning[SANDBOX-DEGRADED]"*"network (no network namespace"* ]]
	sb_stop_server
}
