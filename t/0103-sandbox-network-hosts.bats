#!/usr/bin/env bats
# sc-sandbox-exec --network hosts: the command reaches exactly the listed
# hosts through the proxy outside its namespace, and every connection is
# a record.  A static server on the host's loopback stands in for a
# registry; it is listed by address (127.0.0.1:PORT), the way a test may.

# shellcheck disable=SC2154,SC2016 # bats run sets status, output, stderr; '$' is for the inner shell
load lib/common
load lib/sandbox
load lib/nethosts

setup() {
	sb_setup
	mkdir -p "$SC_TMP/reg"
	echo "registry says hello" >"$SC_TMP/reg/hello"
}
teardown() {
	nh_stop
	sb_teardown
}

@test "bad host entries: error[BAD-HOST], exit 125, nothing runs" {
	for bad in 'https://example.com' 'example.com/path' '10.0.0.0/8' '*' \
		'a.*.example.com' 'example.com:65536' 'example.com:0' \
		"$(printf 'b\303\274cher.de')" '127.1' '*.com' 'a b'; do
		run --separate-stderr sc-sandbox-exec --allow-host "$bad" -- \
			touch "$SC_TMP/ran"
		assert_failure 125
		[[ "$stderr" == *"error[BAD-HOST]"* ]]
	done
	[ ! -e "$SC_TMP/ran" ]
}

@test "--allow-host and --connections need --network hosts" {
	run --separate-stderr sc-sandbox-exec --network loopback \
		--allow-host example.com -- true
	assert_failure 125
	[[ "$stderr" == *"error[BAD-OPTION]"* ]]
	run --separate-stderr sc-sandbox-exec --network full \
		--connections "$SC_TMP/c" -- true
	assert_failure 125
}

@test "the proxy variables are set inside, and only the proxy listens" {
	sb_require_full
	run --separate-stderr nh --allow-host example.com -- sh -c \
		'echo "$HTTPS_PROXY $http_proxy $NO_PROXY"'
	assert_success
	assert_output "http://127.0.0.1:3128 http://127.0.0.1:3128 localhost,127.0.0.1,::1"
	# without hosts mode, none of them
	run --separate-stderr sc-sandbox-exec --root "$ROOT" -- sh -c \
		'echo "${HTTPS_PROXY-unset}"'
	assert_output unset
}

@test "a listed host is reached through the proxy and recorded" {
	sb_require_full
	nh_serve "$SC_TMP/reg"
	run --separate-stderr nh --allow-host "127.0.0.1:$REG_PORT" -- \
		"${NH_CURL[@]}" "http://127.0.0.1:$REG_PORT/hello"
	assert_success
	assert_output "registry says hello"
	run nh_records
	assert_output --partial '"type":"connection","method":"http","host":"127.0.0.1"'
	assert_output --partial "\"port\":\"$REG_PORT\",\"decision\":\"allow\""
	[[ "$output" == *'"bytes-in":"'[1-9]* ]]
	# the request the server saw: origin form, one Host, no keep-alive
	grep -q "^GET /hello HTTP/1.1 Host: 127.0.0.1:$REG_PORT" "$REG_LOG"
}

@test "a tunnel (CONNECT) to a listed host works too" {
	sb_require_full
	nh_serve "$SC_TMP/reg"
	run --separate-stderr nh --allow-host "127.0.0.1:$REG_PORT" -- \
		"${NH_CURL[@]}" -p "http://127.0.0.1:$REG_PORT/hello"
	assert_success
	assert_output "registry says hello"
	run nh_records
	assert_output --partial '"method":"connect"'
	assert_output --partial '"decision":"allow"'
}

@test "SOCKS5 (CONNECT, no authentication) reaches a listed host, and only that" {
	sb_require_full
	nh_serve "$SC_TMP/reg"
	run --separate-stderr nh --allow-host "127.0.0.1:$REG_PORT" -- \
		"${NH_CURL[@]}" -x socks5h://127.0.0.1:3128 "http://127.0.0.1:$REG_PORT/hello"
	assert_success
	assert_output "registry says hello"
	run --separate-stderr nh --allow-host "127.0.0.1:$REG_PORT" -- \
		"${NH_CURL[@]}" -x socks5h://127.0.0.1:3128 "http://example.com/"
	assert_failure
	[[ "$stderr" == *"warning[HOST-REFUSED]"*"example.com:80"* ]]
	run nh_records
	assert_output --partial '"method":"socks5","host":"127.0.0.1"'
	assert_output --partial '"method":"socks5","host":"example.com","port":"80","decision":"deny"'
}

@test "an unlisted port, an unlisted name, an unlisted address: 403 and a record" {
	sb_require_full
	nh_serve "$SC_TMP/reg"
	other=$((REG_PORT == 65535 ? REG_PORT - 1 : REG_PORT + 1))
	for url in "http://127.0.0.1:$other/hello" "http://example.com/" \
		"http://127.0.0.2:$REG_PORT/hello" "http://[::1]:$REG_PORT/hello"; do
		run --separate-stderr nh --allow-host "127.0.0.1:$REG_PORT" \
			--allow-host example.org -- \
			"${NH_CURL[@]}" -o /dev/null -w '%{http_code}' "$url"
		assert_output 403
		[[ "$stderr" == *"warning[HOST-REFUSED]"*"not on the list"* ]]
	done
	run nh_records
	[ "$(grep -c '"decision":"deny"' <<<"$output")" -eq 4 ]
	[ "$(grep -c '"decision":"allow"' <<<"$output")" -eq 0 ]
	# the server saw nothing
	[ ! -s "$REG_LOG" ]
}

@test "a listed name that resolves to a loopback address is refused" {
	sb_require_full
	nh_serve "$SC_TMP/reg"
	getent hosts localhost | grep -q '127.0.0.1' || skip "localhost is not 127.0.0.1 here"
	run --separate-stderr nh --allow-host "localhost:$REG_PORT" -- \
		"${NH_CURL[@]}" -o /dev/null -w '%{http_code}' "http://localhost:$REG_PORT/hello"
	assert_output 403
	[[ "$stderr" == *"internal address"* ]]
	[ ! -s "$REG_LOG" ]
	# listing the address too is the way to allow it
	run --separate-stderr nh --allow-host "localhost:$REG_PORT" \
		--allow-host "127.0.0.1:$REG_PORT" -- \
		"${NH_CURL[@]}" "http://localhost:$REG_PORT/hello"
	assert_success
	assert_output "registry says hello"
}

@test "garbage, a Host naming another host, a slow client: refused, never hung" {
	sb_require_full
	nh_serve "$SC_TMP/reg"
	run --separate-stderr nh --allow-host "127.0.0.1:$REG_PORT" -- bash -c '
		exec 3<>/dev/tcp/127.0.0.1/3128
		printf "\026\003\001\002\000garbage\r\n\r\n" >&3
		head -c 12 <&3'
	assert_output "HTTP/1.1 403"
	run --separate-stderr nh --allow-host "127.0.0.1:$REG_PORT" -- bash -c '
		exec 3<>/dev/tcp/127.0.0.1/3128
		printf "GET http://127.0.0.1:%s/hello HTTP/1.1\r\nHost: evil.example\r\n\r\n" "$0" >&3
		head -c 12 <&3' "$REG_PORT"
	assert_output "HTTP/1.1 403"
	[ ! -s "$REG_LOG" ]
	# a client that never finishes its request ends with the deadline
	SECONDS=0
	run --separate-stderr nh --timeout 1 --allow-host "127.0.0.1:$REG_PORT" -- \
		bash -c 'exec 3<>/dev/tcp/127.0.0.1/3128; printf "CONN" >&3; sleep 30'
	assert_failure 124
	[ "$SECONDS" -lt 10 ]
}

@test "a CONNECT whose TLS server name is another host is closed" {
	sb_require_full
	command -v openssl >/dev/null || skip "openssl is missing"
	port=$(sb_free_port)
	openssl req -x509 -newkey rsa:2048 -nodes -keyout "$SC_TMP/k.pem" \
		-out "$SC_TMP/c.pem" -days 1 -subj /CN=localhost 2>/dev/null
	openssl s_server -accept "$port" -cert "$SC_TMP/c.pem" -key "$SC_TMP/k.pem" \
		-www -quiet >/dev/null 2>&1 &
	# shellcheck disable=SC2034 # nh_stop (teardown) ends it
	REG_PID=$!
	for _ in $(seq 1 100); do
		(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break
		sleep 0.05
	done
	hosts=(--allow-host "localhost:$port" --allow-host "127.0.0.1:$port")
	run --separate-stderr nh "${hosts[@]}" -- sh -c '
		printf "GET / HTTP/1.0\r\n\r\n" | timeout 10 openssl s_client -quiet \
			-proxy 127.0.0.1:3128 -connect "localhost:$0" -servername localhost 2>/dev/null' "$port"
	assert_success
	assert_output --partial "HTTP/1.0 200"
	run --separate-stderr nh "${hosts[@]}" -- sh -c '
		printf "GET / HTTP/1.0\r\n\r\n" | timeout 10 openssl s_client -quiet \
			-proxy 127.0.0.1:3128 -connect "localhost:$0" -servername evil.example 2>/dev/null' "$port"
	refute_output --partial "HTTP/1.0 200"
	[[ "$stderr" == *"TLS server name is not the CONNECT host"* ]]
	run nh_records
	assert_output --partial '"decision":"deny","reason":"the TLS server name is not the CONNECT host"'
}

@test "npm ci fetches from a registry stand-in with only that host listed" {
	sb_require_full
	command -v npm >/dev/null || skip "npm is missing"
	mkdir -p "$SC_TMP/pkg/package" "$SC_TMP/reg/tiny/-" "$ROOT/app"
	printf '{"name":"tiny","version":"1.0.0","main":"index.js"}\n' \
		>"$SC_TMP/pkg/package/package.json"
	echo 'module.exports = "tiny works";' >"$SC_TMP/pkg/package/index.js"
	tar -C "$SC_TMP/pkg" -czf "$SC_TMP/reg/tiny/-/tiny-1.0.0.tgz" package
	nh_serve "$SC_TMP/reg"
	reg="http://127.0.0.1:$REG_PORT"
	sri="sha512-$(openssl dgst -sha512 -binary "$SC_TMP/reg/tiny/-/tiny-1.0.0.tgz" | base64 -w0)"
	cat >"$SC_TMP/reg/tiny/index.json" <<JSON
{"name":"tiny","dist-tags":{"latest":"1.0.0"},"versions":{"1.0.0":{"name":"tiny","version":"1.0.0","dist":{"tarball":"$reg/tiny/-/tiny-1.0.0.tgz","integrity":"$sri"}}}}
JSON
	cat >"$ROOT/app/package.json" <<JSON
{"name":"app","version":"1.0.0","dependencies":{"tiny":"1.0.0"}}
JSON
	cat >"$ROOT/app/package-lock.json" <<JSON
{"name":"app","version":"1.0.0","lockfileVersion":3,"requires":true,"packages":{"":{"name":"app","version":"1.0.0","dependencies":{"tiny":"1.0.0"}},"node_modules/tiny":{"version":"1.0.0","resolved":"$reg/tiny/-/tiny-1.0.0.tgz","integrity":"$sri"}}}
JSON
	cd "$ROOT/app"
	run --separate-stderr nh --allow-host "127.0.0.1:$REG_PORT" -- env \
		NO_PROXY= no_proxy= npm_config_cache="$ROOT/.npm-cache" \
		npm ci --registry "$reg/" --no-audit --no-fund --ignore-scripts
	assert_success
	run node -e 'console.log(require("tiny"))'
	assert_output "tiny works"
	grep -q "GET /tiny/-/tiny-1.0.0.tgz" "$REG_LOG"
	run nh_records
	assert_output --partial '"decision":"allow"'
	refute_output --partial '"decision":"deny"'
}

@test "a profile may name the hosts; a bad one is BAD-PROFILE" {
	sb_require_full
	printf '[sandbox]\n\tnetwork = hosts\n\tallowHost = 127.0.0.1:9\n' >"$SC_TMP/p.profile"
	run --separate-stderr sc-sandbox-exec --root "$ROOT" --profile "$SC_TMP/p.profile" -- \
		sh -c 'echo "$HTTPS_PROXY"'
	assert_success
	assert_output "http://127.0.0.1:3128"
	printf '[sandbox]\n\tallowHost = example.com\n\tallowHost = https://example.com\n' \
		>"$SC_TMP/bad.profile"
	run --separate-stderr sc-sandbox-exec --root "$ROOT" --profile "$SC_TMP/bad.profile" -- \
		touch "$SC_TMP/ran"
	assert_failure 125
	# the file and the line of the bad entry
	[[ "$stderr" == *"error[BAD-PROFILE]: $SC_TMP/bad.profile:3: "*"a scheme"* ]]
	[ ! -e "$SC_TMP/ran" ]
}

@test "the landlock tier cannot give hosts: required refuses, auto names it and sets no proxy" {
	sb_require_landlock
	run --separate-stderr sc-sandbox-exec --root "$ROOT" --tier landlock \
		--network hosts --allow-host example.com -- touch "$SC_TMP/ran"
	assert_failure 125
	[[ "$stderr" == *"error[SANDBOX-UNAVAILABLE]"*"network"* ]]
	[ ! -e "$SC_TMP/ran" ]
	run --separate-stderr sc-sandbox-exec --root "$ROOT" --tier landlock --mode auto \
		--network hosts --allow-host example.com -- sh -c 'echo "${HTTPS_PROXY-none}"'
	assert_success
	assert_output none
	[[ "$stderr" == *"warning[SANDBOX-DEGRADED]"*"network"* ]]
}
