#!/usr/bin/env bats
# Reaching the network: the host's loopback services, UDP, IPv6, odd socket
# families, Unix sockets on disk and abstract ones.  Each listener runs on
# the host and is first reached from outside, so each test can fail.

# shellcheck disable=SC2016,SC2154 # '$' is for the inner shell; bats run sets stderr
load ../lib/common
load ../lib/sandbox

setup() {
	sb_setup
	sb_build_attack
}
teardown() {
	sb_stop_server
	sb_teardown
}

@test "--network none: no inet socket at all, not even loopback" {
	sb_require_landlock
	for t in full landlock; do
		[ "$t" = landlock ] || sb_userns_available || continue
		run --separate-stderr env SB_TIER=$t bash -c \
			'source "$SC_TOP/t/lib/sandbox.bash" 2>/dev/null; sb --network none -- "$ATTACK" socket 2 1 0' 
		assert_failure 1
		run --separate-stderr env SB_TIER=$t bash -c \
			'source "$SC_TOP/t/lib/sandbox.bash" 2>/dev/null; sb --network none -- "$ATTACK" socket 10 2 0'
		assert_failure 1
	done
	run "$ATTACK" socket 2 1 0
	assert_success
}

@test "the host's loopback TCP listener is out of reach (loopback and none)" {
	sb_require_full
	port=$(sb_free_port)
	sb_serve serve-tcp 127.0.0.1 "$port" 5
	run "$ATTACK" connect-tcp 127.0.0.1 "$port"
	assert_success
	run --separate-stderr sb -- "$ATTACK" connect-tcp 127.0.0.1 "$port"
	assert_failure 1
	run --separate-stderr sb --network none -- "$ATTACK" connect-tcp 127.0.0.1 "$port"
	assert_failure 1
	# --network full is the host's network: reachable, as documented.
	run --separate-stderr sb --network full -- "$ATTACK" connect-tcp 127.0.0.1 "$port"
	assert_success
}

@test "the host's IPv6 loopback listener is out of reach" {
	sb_require_full
	port=$(sb_free_port)
	sb_serve serve-tcp ::1 "$port" 5 || skip "no IPv6 loopback on this host"
	run "$ATTACK" connect-tcp ::1 "$port"
	assert_success
	run --separate-stderr sb -- "$ATTACK" connect-tcp ::1 "$port"
	assert_failure 1
}

@test "UDP to the host's loopback never arrives" {
	sb_require_full
	port=$(sb_free_port)
	sb_serve udp-recv 127.0.0.1 "$port" 2
	"$ATTACK" udp-send 127.0.0.1 "$port"
	wait "$SERVER_PID" && got=yes || got=no
	SERVER_PID=
	[ "$got" = yes ]
	sb_serve udp-recv 127.0.0.1 "$port" 2
	run --separate-stderr sb -- "$ATTACK" udp-send 127.0.0.1 "$port"
	wait "$SERVER_PID" && got=yes || got=no
	SERVER_PID=
	[ "$got" = no ]
}

@test "a server started inside is reachable from inside (loopback)" {
	sb_require_full
	port=$(sb_free_port)
	run --separate-stderr sb -- sh -c \
		'"$0" serve-tcp 127.0.0.1 "$1" 1 >/dev/null & sleep 0.5; "$0" connect-tcp 127.0.0.1 "$1"' \
		"$ATTACK" "$port"
	assert_success
	assert_output --partial ESCAPED
}

@test "MPTCP, raw, packet, netlink, vsock and alg sockets are refused in every mode" {
	sb_require_full
	run "$ATTACK" socket 16 3 0
	assert_success
	for net in none loopback full; do
		run --separate-stderr sb --network $net -- "$ATTACK" socket 2 1 262
		assert_failure 1
		run --separate-stderr sb --network $net -- "$ATTACK" socket 2 3 1
		assert_failure 1
		run --separate-stderr sb --network $net -- "$ATTACK" socket 17 3 768
		assert_failure 1
		run --separate-stderr sb --network $net -- "$ATTACK" socket 16 3 0
		assert_failure 1
		run --separate-stderr sb --network $net -- "$ATTACK" socket 40 1 0
		assert_failure 1
		run --separate-stderr sb --network $net -- "$ATTACK" socket 38 5 0
		assert_failure 1
		run --separate-stderr sb --network $net -- "$ATTACK" socket 10 3 58
		assert_failure 1
	done
}

# A docker-style socket outside the root, reached from the host first, is
# refused by sb (in the tier SB_TIER names) in every network mode, and no
# unix-sockets gap is named for it.
docker_socket_held() {
	mkdir -p "$SC_TMP/run"
	sb_serve serve-unix "$SC_TMP/run/docker.sock" 5
	run "$ATTACK" connect-unix "$SC_TMP/run/docker.sock"
	assert_success
	for net in none loopback full; do
		run --separate-stderr sb --network $net -- "$ATTACK" connect-unix "$SC_TMP/run/docker.sock"
		assert_failure 1
		[[ "$stderr" != *unix-sockets* ]]
	done
	sb_stop_server
}

@test "a docker-style Unix socket outside the root is unreachable in every mode" {
	sb_require_full
	docker_socket_held
}

# The landlock tier has no mount namespace: only Landlock ABI 9's rule on
# connecting to a socket on disk holds it.  Below ABI 9 the next test
# shows the gap is named instead; each skips, saying why, where the other runs.
@test "Landlock ABI 9: the landlock tier holds a docker-style socket outside the root in every mode" {
	sb_require_landlock
	abi=$(sb_landlock_abi)
	[ "$abi" -ge 9 ] || skip "Landlock ABI 9 (pathname Unix socket rule) unavailable: this kernel has ABI $abi"
	SB_TIER=landlock docker_socket_held
	# Inside a writable path the rule allows it: the refusal above is the rule's.
	sb_serve serve-unix "$ROOT/app.sock" 5
	SB_TIER=landlock run --separate-stderr sb -- "$ATTACK" connect-unix "$ROOT/app.sock"
	assert_success
}

@test "below Landlock ABI 9: the landlock tier names unix-sockets unenforced, required refuses" {
	sb_require_landlock
	abi=$(sb_landlock_abi)
	[ "$abi" -lt 9 ] || skip "Landlock ABI $abi enforces the Unix socket rule (the test above)"
	mkdir -p "$SC_TMP/run"
	SB_TIER=landlock run --separate-stderr sb -- true
	assert_success
	[[ "$stderr" == *"warning[SANDBOX-DEGRADED]"*unix-sockets* ]]
	run --separate-stderr sc-sandbox-exec --tier landlock --mode required \
		--accept-gaps network,process-isolation,ipc-isolation,file-metadata,read-only-paths,hidden-credentials,abstract-sockets \
		--root "$ROOT" -- touch "$ROOT/ran"
	assert_failure 125
	[[ "$stderr" == *"error[SANDBOX-UNAVAILABLE]"*unix-sockets* ]]
	[ ! -e "$ROOT/ran" ]
}

@test "the SSH agent's socket is unreachable" {
	sb_require_full
	mkdir -p "$SC_TMP/agent"
	sb_serve serve-unix "$SC_TMP/agent/agent.sock" 5
	export SSH_AUTH_SOCK="$SC_TMP/agent/agent.sock"
	run "$ATTACK" connect-unix "$SSH_AUTH_SOCK"
	assert_success
	run --separate-stderr sb -- "$ATTACK" connect-unix "$SC_TMP/agent/agent.sock"
	assert_failure 1
}

@test "a gpg-agent socket under a hidden directory is unreachable" {
	sb_require_full
	sb_serve serve-unix "$HOME/.gnupg/S.gpg-agent" 5
	run "$ATTACK" connect-unix "$HOME/.gnupg/S.gpg-agent"
	assert_success
	for net in none loopback full; do
		run --separate-stderr sb --network $net -- "$ATTACK" connect-unix "$HOME/.gnupg/S.gpg-agent"
		assert_failure 1
	done
}

@test "a Unix socket inside the root stays usable" {
	sb_require_full
	sb_serve serve-unix "$ROOT/app.sock" 5
	run --separate-stderr sb -- "$ATTACK" connect-unix "$ROOT/app.sock"
	assert_success
}

@test "abstract Unix sockets of the host are unreachable in every mode" {
	sb_require_full
	name="sc-escape-$$-$RANDOM"
	sb_serve serve-abstract "$name" 5
	run "$ATTACK" connect-abstract "$name"
	assert_success
	for net in none loopback; do
		run --separate-stderr sb --network $net -- "$ATTACK" connect-abstract "$name"
		assert_failure 1
	done
	[ "$(sb_landlock_abi)" -ge 6 ] || skip "Landlock ABI 6 (abstract socket scoping) unavailable"
	run --separate-stderr sb --network full -- "$ATTACK" connect-abstract "$name"
	assert_failure 1
}

@test "--network none: a server started inside is not reachable even from inside" {
	sb_require_full
	port=$(sb_free_port)
	run --separate-stderr sb --network none -- sh -c \
		'"$0" serve-tcp 127.0.0.1 "$1" 1 >/dev/null 2>&1 & sleep 0.5; "$0" connect-tcp 127.0.0.1 "$1"' \
		"$ATTACK" "$port"
	assert_failure 1
	run --separate-stderr sb --network none -- "$ATTACK" serve-tcp 127.0.0.1 "$port" 1
	assert_failure 1
}
