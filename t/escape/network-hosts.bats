#!/usr/bin/env bats
# Getting around the host proxy of --network hosts.  A listed server on
# the host's loopback is first reached through the proxy, so each test
# shows that the path it attacks exists; every other way out must fail:
# a direct connect, another spelling of a listed address, DNS, UDP, raw
# sockets, other interfaces and routes, the host's sockets.

# shellcheck disable=SC2154,SC2016 # bats run sets status, output, stderr; '$' is for the inner shell
load ../lib/common
load ../lib/sandbox
load ../lib/nethosts

setup() {
	sb_setup
	sb_build_attack
	sb_require_full
	mkdir -p "$SC_TMP/reg"
	echo "listed" >"$SC_TMP/reg/x"
	nh_serve "$SC_TMP/reg"
	ALLOW=(--allow-host "127.0.0.1:$REG_PORT")
	# the way that must work, so every refusal below means something
	run --separate-stderr nh "${ALLOW[@]}" -- "${NH_CURL[@]}" \
		"http://127.0.0.1:$REG_PORT/x"
	assert_output listed
}
teardown() {
	nh_stop
	sb_stop_server
	sb_teardown
}

@test "a direct connect to the listed server (around the proxy) fails" {
	run curl -sS --max-time 5 --noproxy '*' "http://127.0.0.1:$REG_PORT/x"
	assert_output listed
	run --separate-stderr nh "${ALLOW[@]}" -- "$ATTACK" connect-tcp 127.0.0.1 "$REG_PORT"
	assert_failure 1
	run --separate-stderr nh "${ALLOW[@]}" -- env -u NO_PROXY -u no_proxy \
		curl -sS --max-time 5 --noproxy '*' "http://127.0.0.1:$REG_PORT/x"
	assert_failure
	refute_output listed
}

@test "other spellings of a listed address are refused before any connect" {
	# raw requests: a client such as curl would normalise some spellings
	# itself, and the proxy must not rely on that
	for host in 2130706433 0x7f.0.0.1 127.1 0177.0.0.1 "[::ffff:127.0.0.1]" \
		"[::ffff:7f00:1]" 127.0.0.1. localhost; do
		for req in "CONNECT $host:$REG_PORT HTTP/1.1" \
			"GET http://$host:$REG_PORT/x HTTP/1.1"; do
			run --separate-stderr nh "${ALLOW[@]}" -- bash -c '
				exec 3<>/dev/tcp/127.0.0.1/3128
				printf "%s\r\n\r\n" "$0" >&3
				head -c 12 <&3' "$req"
			assert_output "HTTP/1.1 403"
		done
	done
	run nh_records
	# the set-up's request, and nothing else, was allowed
	[ "$(grep -c '"decision":"allow"' <<<"$output")" -eq 1 ]
	[ "$(grep -c '"decision":"deny"' <<<"$output")" -eq 16 ]
	# only the set-up's request reached the server
	[ "$(wc -l <"$REG_LOG")" -eq 1 ]
}

@test "an unlisted name is judged before it is resolved" {
	run --separate-stderr nh "${ALLOW[@]}" -- "${NH_CURL[@]}" -o /dev/null \
		-w '%{http_code}' "http://exfil-data-here.unlisted.invalid/"
	assert_output 403
	[[ "$stderr" == *"not on the list"* ]]
	[[ "$stderr" != *"cannot resolve"* ]]
}

@test "a DNS query to a resolver on the host's loopback never arrives" {
	port=$(sb_free_port)
	sb_serve udp-recv 127.0.0.1 "$port" 2
	"$ATTACK" udp-send 127.0.0.1 "$port"
	wait "$SERVER_PID" && got=yes || got=no
	SERVER_PID=
	[ "$got" = yes ]
	sb_serve udp-recv 127.0.0.1 "$port" 2
	run --separate-stderr nh "${ALLOW[@]}" -- "$ATTACK" udp-send 127.0.0.1 "$port"
	wait "$SERVER_PID" && got=yes || got=no
	SERVER_PID=
	[ "$got" = no ]
}

@test "no resolver, no route, no interface but loopback inside" {
	run --separate-stderr nh "${ALLOW[@]}" -- "$ATTACK" udp-send 192.0.2.1 53
	assert_failure 1
	run --separate-stderr nh "${ALLOW[@]}" -- "$ATTACK" connect-tcp 192.0.2.1 443
	assert_failure 1
	run --separate-stderr nh "${ALLOW[@]}" -- sh -c \
		'tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d " "'
	assert_output lo
	run --separate-stderr nh "${ALLOW[@]}" -- sh -c 'tail -n +2 /proc/net/route | wc -l'
	assert_output 0
}

@test "raw and packet sockets are refused" {
	run --separate-stderr nh "${ALLOW[@]}" -- "$ATTACK" socket 2 3 1
	assert_failure 1
	run --separate-stderr nh "${ALLOW[@]}" -- "$ATTACK" socket 17 3 768
	assert_failure 1
	run --separate-stderr nh "${ALLOW[@]}" -- "$ATTACK" socket 16 3 0
	assert_failure 1
}

@test "the host's abstract and on-disk Unix sockets stay unreachable" {
	name="sc-escape-$$-$RANDOM"
	sb_serve serve-abstract "$name" 5
	run "$ATTACK" connect-abstract "$name"
	assert_success
	run --separate-stderr nh "${ALLOW[@]}" -- "$ATTACK" connect-abstract "$name"
	assert_failure 1
	sb_stop_server
	mkdir -p "$SC_TMP/run"
	sb_serve serve-unix "$SC_TMP/run/docker.sock" 5
	run --separate-stderr nh "${ALLOW[@]}" -- "$ATTACK" connect-unix "$SC_TMP/run/docker.sock"
	assert_failure 1
}

@test "the proxy's port cannot be taken over, and a flood does not stop the command" {
	run --separate-stderr nh "${ALLOW[@]}" -- "$ATTACK" serve-tcp 127.0.0.1 3128 1
	assert_failure 1
	SECONDS=0
	run --separate-stderr nh --timeout 3 "${ALLOW[@]}" -- bash -c '
		for i in $(seq 1 150); do
			exec {fd}<>/dev/tcp/127.0.0.1/3128 || exit 9
			printf "CONNECT 127.0.0.1:%s HTTP/1.1\r\n" "$0" >&$fd
		done
		echo flooded; sleep 30' "$REG_PORT"
	assert_failure 124
	assert_output flooded
	[ "$SECONDS" -lt 15 ]
	[ ! -s "$REG_LOG" ] || [ "$(grep -vc '^GET /x ' "$REG_LOG")" -eq 0 ]
}

@test "a TLS hello sent along with the CONNECT, naming another host, never reaches the server" {
	hello="$SC_TOP/t/fuzz/corpus/fuzz-proxyreq/clienthello"   # SNI registry.npmjs.org
	[ -s "$hello" ]
	: >"$REG_LOG"
	run --separate-stderr nh --timeout 20 "${ALLOW[@]}" -- bash -c '
		exec 3<>/dev/tcp/127.0.0.1/3128
		{ printf "CONNECT 127.0.0.1:%s HTTP/1.1\r\n\r\n" "$0"; cat "$1"; } >&3
		cat <&3' "$REG_PORT" "$hello"
	assert_success
	assert_output --partial "200 Connection established"
	[[ "$stderr" == *"TLS server name is not the CONNECT host"* ]]
	# the proxy had connected (the server logs an empty request), but
	# not one byte of the hello reached it
	run grep -c '[^[:space:]]' "$REG_LOG"
	assert_output 0
}
