#!/usr/bin/env bats
# sc-mask --scan: credential-shaped content found without the value, which
# is never printed.  Every token here is a made-up example.

# shellcheck disable=SC2154,SC2030,SC2031 # bats: run sets status, output, stderr; each @test is a subshell
bats_require_minimum_version 1.5.0
load lib/common
load lib/mask

GH="ghp_abcdefghijklmnopqrstuvwxyz0123456789"

setup_tree() {
	mkdir -p "$SC_TMP/w/src" "$SC_TMP/w/.git" "$SC_TMP/w/$GH"
	printf 'line one\nexport AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE\n' >"$SC_TMP/w/src/config.sh"
	printf '%s\n' '-----BEGIN OPENSSH PRIVATE KEY-----' 'b3BlbnNzaC1rZXktdjEAAAAA' \
		'-----END OPENSSH PRIVATE KEY-----' >"$SC_TMP/w/src/id_test"
	printf 'ok\nurl = "postgres://app:s3cr3t-Test@db.example/app"\nclient_secret: Zq8r2LmX9vT4pK7wN3sB\n' >"$SC_TMP/w/app.yaml"
	printf 'token=%s\n' "$GH" >"$SC_TMP/w/.git/config"
	printf 'jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0.abcdefghij0123456789\n' >"$SC_TMP/w/$GH/notes.txt"
	printf 'PASSWORD=changeme-changeme\nplain text\n' >"$SC_TMP/w/clean.env"
}

@test "scan: finds each credential, names rule, file and line, exit 1" {
	setup_tree
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --scan "$SC_TMP/w"
	assert_equal "$status" 1
	sc_run_io "$SC_TMP/out" "$SC_TMP/json" sc-rec --to-json
	w="$SC_TMP/w"
	printf '%s\n' \
		"{\"type\":\"finding\",\"code\":\"CREDENTIAL\",\"rule\":\"url-password\",\"file\":\"$w/app.yaml\",\"line\":\"2\"}" \
		"{\"type\":\"finding\",\"code\":\"CREDENTIAL\",\"rule\":\"secret-assignment\",\"file\":\"$w/app.yaml\",\"line\":\"3\"}" \
		"{\"type\":\"finding\",\"code\":\"CREDENTIAL\",\"rule\":\"jwt\",\"file\":\"$w/(name not shown)/notes.txt\",\"line\":\"1\"}" \
		"{\"type\":\"finding\",\"code\":\"CREDENTIAL\",\"rule\":\"aws-access-key-id\",\"file\":\"$w/src/config.sh\",\"line\":\"2\"}" \
		"{\"type\":\"finding\",\"code\":\"CREDENTIAL\",\"rule\":\"secret-assignment\",\"file\":\"$w/src/config.sh\",\"line\":\"2\"}" \
		"{\"type\":\"finding\",\"code\":\"CREDENTIAL\",\"rule\":\"private-key\",\"file\":\"$w/src/id_test\",\"line\":\"1\"}" \
		>"$SC_TMP/want"
	diff "$SC_TMP/want" "$SC_TMP/json"
}

@test "scan: never prints a matched value, even in a path" {
	setup_tree
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --scan "$SC_TMP/w" "$SC_TMP/w/$GH/notes.txt"
	assert_equal "$status" 1
	run grep -c -a -e "$GH" -e AKIAIOSFODNN7EXAMPLE -e s3cr3t-Test -e Zq8r2LmX9vT4pK7wN3sB "$SC_TMP/out"
	assert_output 0
	[[ "$stderr" != *"$GH"* ]]
}

@test "scan: a clean tree is exit 0 with no output" {
	mkdir -p "$SC_TMP/c"
	# shellcheck disable=SC2016 # a literal reference, as a .env file holds it
	printf 'PASSWORD=changeme-changeme\nTOKEN=${GITHUB_TOKEN}\nhello\n' >"$SC_TMP/c/a.env"
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --scan "$SC_TMP/c"
	assert_equal "$status" 0
	[ ! -s "$SC_TMP/out" ]
}

@test "scan: symlinks under a directory are not followed" {
	mkdir -p "$SC_TMP/d" "$SC_TMP/outside"
	printf 'AKIAIOSFODNN7EXAMPLE\n' >"$SC_TMP/outside/key"
	ln -s "$SC_TMP/outside/key" "$SC_TMP/d/link"
	ln -s "$SC_TMP/outside" "$SC_TMP/d/dirlink"
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --scan "$SC_TMP/d"
	assert_equal "$status" 0
	# The same file named directly is scanned.
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --scan "$SC_TMP/d/link"
	assert_equal "$status" 1
}

@test "scan: an unreadable path is exit 2 after scanning the others" {
	setup_tree
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --scan "$SC_TMP/missing" "$SC_TMP/w/src"
	assert_equal "$status" 2
	[[ "$stderr" == "sc-mask: error[INPUT]: cannot read '$SC_TMP/missing': No such file or directory" ]]
	[ -s "$SC_TMP/out" ]
}

@test "scan: usage errors" {
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --scan
	assert_equal "$status" 2
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --env --scan .
	assert_equal "$status" 2
}
