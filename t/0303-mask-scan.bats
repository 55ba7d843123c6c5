#!/usr/bin/env bats
# sc-mask --scan: credential-shaped content found without the value, which
# is never printed.  Every token here is a made-up example.

# shellcheck disable=SC2154,SC2030,SC2031 # bats: run sets status, output, stderr; each @test is a subshell
bats_require_minimum_version 1.5.0
load lib/common
load lib/mask

# A made-up GitHub token whose last 6 characters are the CRC32 of the 30
# before, as GitHub writes them: the github-token rule checks it.
GH="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"

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

# The fingerprint of a value: the first 16 hex digits of its SHA-256.
fp() {
	printf '%s' "$1" | sha256sum | cut -c1-16
}

@test "scan: finds each credential, names rule, file, line and fingerprint, exit 1" {
	setup_tree
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --scan "$SC_TMP/w"
	assert_equal "$status" 1
	sc_run_io "$SC_TMP/out" "$SC_TMP/json" sc-rec --to-json
	w="$SC_TMP/w"
	key=$(cat "$SC_TMP/w/src/id_test")
	printf '%s\n' \
		"{\"type\":\"finding\",\"code\":\"CREDENTIAL\",\"rule\":\"url-password\",\"file\":\"$w/app.yaml\",\"line\":\"2\",\"fingerprint\":\"$(fp postgres://app:s3cr3t-Test@db.example)\"}" \
		"{\"type\":\"finding\",\"code\":\"CREDENTIAL\",\"rule\":\"secret-assignment\",\"file\":\"$w/app.yaml\",\"line\":\"3\",\"fingerprint\":\"$(fp Zq8r2LmX9vT4pK7wN3sB)\"}" \
		"{\"type\":\"finding\",\"code\":\"CREDENTIAL\",\"rule\":\"jwt\",\"file\":\"$w/(name not shown)/notes.txt\",\"line\":\"1\",\"fingerprint\":\"$(fp eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ0ZXN0In0.abcdefghij0123456789)\"}" \
		"{\"type\":\"finding\",\"code\":\"CREDENTIAL\",\"rule\":\"aws-access-key-id\",\"file\":\"$w/src/config.sh\",\"line\":\"2\",\"fingerprint\":\"$(fp AKIAIOSFODNN7EXAMPLE)\"}" \
		"{\"type\":\"finding\",\"code\":\"CREDENTIAL\",\"rule\":\"secret-assignment\",\"file\":\"$w/src/config.sh\",\"line\":\"2\",\"fingerprint\":\"$(fp AKIAIOSFODNN7EXAMPLE)\"}" \
		"{\"type\":\"finding\",\"code\":\"CREDENTIAL\",\"rule\":\"private-key\",\"file\":\"$w/src/id_test\",\"line\":\"1\",\"fingerprint\":\"$(fp "$key")\"}" \
		>"$SC_TMP/want"
	diff "$SC_TMP/want" "$SC_TMP/json"
}

@test "scan: --allow-fingerprint allows that finding only, and says so" {
	setup_tree
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --scan \
		--allow-fingerprint "$(fp AKIAIOSFODNN7EXAMPLE)" "$SC_TMP/w/src"
	assert_equal "$status" 1
	sc_run_io "$SC_TMP/out" "$SC_TMP/json" sc-rec --to-json
	run jq -r 'select(.code == "CREDENTIAL") | .rule' "$SC_TMP/json"
	assert_output private-key
	# Reported as allowed, by fingerprint: never dropped silently.
	run jq -r 'select(.code == "CREDENTIAL-ALLOWED") | "\(.rule) \(.line) \(.fingerprint) \(.allowed)"' "$SC_TMP/json"
	assert_output "aws-access-key-id 2 $(fp AKIAIOSFODNN7EXAMPLE) fingerprint
secret-assignment 2 $(fp AKIAIOSFODNN7EXAMPLE) fingerprint"
	# Every finding allowed: exit 0, the allowed ones still listed.
	key=$(cat "$SC_TMP/w/src/id_test")
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --scan \
		--allow-fingerprint "$(fp AKIAIOSFODNN7EXAMPLE)" \
		--allow-fingerprint "$(fp "$key")" "$SC_TMP/w/src"
	assert_equal "$status" 0
	sc_run_io "$SC_TMP/out" "$SC_TMP/json" sc-rec --to-json
	run jq -r .code "$SC_TMP/json"
	assert_output "CREDENTIAL-ALLOWED
CREDENTIAL-ALLOWED
CREDENTIAL-ALLOWED"
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --scan --allow-fingerprint AKIAIOSFODNN7EXAMPLE "$SC_TMP/w"
	assert_equal "$status" 2
	[[ "$stderr" != *AKIAIOSFODNN7EXAMPLE* ]]
}

# A made-up false positive: a test fixture's token-shaped string.
fixture_tree() {
	mkdir -p "$SC_TMP/p"
	printf 'fixture: %s\n' "$1" >"$SC_TMP/p/fixture.txt"
}

@test "scan: mask.allowFingerprint of speccoder.conf allows a false positive; another value of the rule still fails" {
	fixture_tree AKIAQWERTYUIOPASDFGH
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --scan "$SC_TMP/p"
	assert_equal "$status" 1
	printf '[check "t"]\n\targv = true\n[mask]\n\tallowFingerprint = %s\n' \
		"$(fp AKIAQWERTYUIOPASDFGH)" >"$SC_TMP/speccoder.conf"
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --scan --config "$SC_TMP/speccoder.conf" "$SC_TMP/p"
	assert_equal "$status" 0
	sc_run_io "$SC_TMP/out" "$SC_TMP/json" sc-rec --to-json
	run jq -r '"\(.code) \(.rule) \(.allowed)"' "$SC_TMP/json"
	assert_output "CREDENTIAL-ALLOWED aws-access-key-id fingerprint"
	# The rule is not weakened: another value of it is still a finding.
	printf 'also: AKIAZXCVBNMLKJHGFDSA\n' >>"$SC_TMP/p/fixture.txt"
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --scan --config "$SC_TMP/speccoder.conf" "$SC_TMP/p"
	assert_equal "$status" 1
	sc_run_io "$SC_TMP/out" "$SC_TMP/json" sc-rec --to-json
	run jq -r 'select(.code == "CREDENTIAL") | "\(.rule) \(.line) \(.fingerprint)"' "$SC_TMP/json"
	assert_output "aws-access-key-id 2 $(fp AKIAZXCVBNMLKJHGFDSA)"
}

@test "scan: a malformed mask.allowFingerprint is error[BAD-CONFIG] naming the file and line, exit 3, nothing scanned" {
	fixture_tree AKIAQWERTYUIOPASDFGH
	printf '[mask]\n\tallowFingerprint = %s\n[check "t"]\n\targv = true\n[mask]\n  allowfingerprint = AKIAQWERTYUIOPASDFGH\n' \
		"$(fp AKIAQWERTYUIOPASDFGH)" >"$SC_TMP/speccoder.conf"
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --scan --config "$SC_TMP/speccoder.conf" "$SC_TMP/p"
	assert_equal "$status" 3
	[[ "$stderr" == *"error[BAD-CONFIG]: $SC_TMP/speccoder.conf:6: mask.allowFingerprint: not a fingerprint"* ]]
	# What was pasted there may be the secret: never echoed.
	[[ "$stderr" != *AKIAQWERTYUIOPASDFGH* ]]
	[ ! -s "$SC_TMP/out" ]
	# Upper-case hex is not the form --scan prints: refused, not guessed.
	printf '[mask]\n\tallowFingerprint = %s\n' "$(fp x | tr a-f A-F)" >"$SC_TMP/speccoder.conf"
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --scan --config "$SC_TMP/speccoder.conf" "$SC_TMP/p"
	assert_equal "$status" 3
	[[ "$stderr" == *"speccoder.conf:2: mask.allowFingerprint"* ]]
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --scan --config "$SC_TMP/missing.conf" "$SC_TMP/p"
	assert_equal "$status" 4
	[[ "$stderr" == *"error[CONFIG-UNREADABLE]"* ]]
}

@test "scan: an allowed fingerprint never unmasks: a name that matches a rule stays hidden" {
	d="$SC_TMP/q/AKIAQWERTYUIOPASDFGH"
	mkdir -p "$d"
	printf 'AKIAQWERTYUIOPASDFGH\n' >"$d/f"
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --scan -z \
		--allow-fingerprint "$(fp AKIAQWERTYUIOPASDFGH)" "$SC_TMP/q"
	assert_equal "$status" 0
	run cat "$SC_TMP/out"
	[[ "$output" == *"(name not shown)/f"* ]]
	[[ "$output" != *AKIAQWERTYUIOPASDFGH* ]]
}

@test "scan: a file larger than one window is scanned whole, across window boundaries" {
	mkdir -p "$SC_TMP/big"
	f="$SC_TMP/big/log"
	# 70 MiB of lines; tokens at the start, across the 16 MiB boundary,
	# just past where the first window stops owning matches, and at the end.
	yes 'an ordinary line of build output, nothing secret' | head -c $((70 << 20)) >"$f"
	put() {
		printf ' %s ' "$2" | dd of="$f" bs=1 seek="$1" conv=notrunc status=none
	}
	put 100 "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"
	put $(((16 << 20) - 20)) "glpat-Zx8Vb2Nm4Lk6Jh8Gf0Ds"
	put $(((16 << 20) - (20 << 10) + 30)) "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"
	printf '\nxoxb-123456789012-abcdefghij0123456789\n' >>"$f"
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --scan "$f"
	assert_equal "$status" 1
	sc_run_io "$SC_TMP/out" "$SC_TMP/json" sc-rec --to-json
	run jq -r '"\(.rule) \(.line)"' "$SC_TMP/json"
	line_at() {
		head -c "$1" "$f" | wc -l | awk '{ print $1 + 1 }'
	}
	assert_output "$(printf '%s\n' "github-token $(line_at 100)" \
		"npm-token $(line_at $(((16 << 20) - (20 << 10) + 30)))" \
		"gitlab-token $(line_at $(((16 << 20) - 20)))" \
		"slack-token $(($(wc -l <"$f")))")"
}

@test "scan: 100 MiB without a newline and binary content are scanned, not skipped" {
	mkdir -p "$SC_TMP/nl"
	head -c $((100 << 20)) /dev/zero | tr '\0' 'a' >"$SC_TMP/nl/long"
	printf ' 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' >>"$SC_TMP/nl/long"
	printf '\0\1\2\377AKIAIOSFODNN7EXAMPLE\0\n' >"$SC_TMP/nl/bin"
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --scan "$SC_TMP/nl"
	assert_equal "$status" 1
	sc_run_io "$SC_TMP/out" "$SC_TMP/json" sc-rec --to-json
	run jq -r '"\(.rule) \(.line)"' "$SC_TMP/json"
	assert_output "$(printf '%s\n' "aws-access-key-id 1" "github-token 1")"
	[[ "$stderr" != *SCAN-SKIPPED* ]]
}

@test "scan: a special file is error[SCAN-INCOMPLETE], exit 4, after scanning the rest" {
	setup_tree
	mkfifo "$SC_TMP/w/src/pipe"
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --scan "$SC_TMP/w/src"
	assert_equal "$status" 4
	[[ "$stderr" == "sc-mask: error[SCAN-INCOMPLETE]: '$SC_TMP/w/src/pipe' not scanned: not a regular file" ]]
	sc_run_io "$SC_TMP/out" "$SC_TMP/json" sc-rec --to-json
	run jq -r .rule "$SC_TMP/json"
	assert_output "$(printf '%s\n' aws-access-key-id secret-assignment private-key)"
}

@test "scan: an unreadable file is error[SCAN-INCOMPLETE], exit 4" {
	if [ "$(id -u)" = 0 ]; then
		skip "root reads every file"
	fi
	setup_tree
	chmod 000 "$SC_TMP/w/src/config.sh"
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --scan "$SC_TMP/w/src"
	assert_equal "$status" 4
	[[ "$stderr" == *"error[SCAN-INCOMPLETE]: '$SC_TMP/w/src/config.sh' not scanned: Permission denied"* ]]
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

@test "scan: GitHub and npm tokens with a right CRC32 checksum, age keys with a right Bech32 one, are found; near misses are not" {
	mkdir -p "$SC_TMP/crc"
	# Made-up tokens: 30 characters and the base62 CRC32 of them; a
	# made-up age key with its Bech32 checksum.
	printf '%s\n' 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 \
		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 \
		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 \
		AGE-SECRET-KEY-1VW5JN9ZW3PDN7JDZFXWYURH6DQHP2X4WZ25RNGG5H7UAWW7Q233LQNVRXY >"$SC_TMP/crc/good"
	# The same with one checksum character changed, a body character
	# changed, the checksum of another body: none is a token.
	printf '%s\n' ghp_X9RfaA58z5da1rGJyOCN9rZnu3lYq82nmtg4 \
		gho_abcdefghijklmnopqrstuvwxyz01242LolCm \
		npm_LB8ux10MEjiKj6LosEfXgC8r37AQee2LolCm \
		AGE-SECRET-KEY-1VW5JN9ZW3PDN7JDZFXWYURH6DQHP2X4WZ25RNGG5H7UAWW7Q233LQNVRXQ >"$SC_TMP/crc/near"
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --scan "$SC_TMP/crc/good"
	assert_equal "$status" 1
	sc_run_io "$SC_TMP/out" "$SC_TMP/json" sc-rec --to-json
	run jq -r '"\(.rule) \(.line)"' "$SC_TMP/json"
	assert_output "github-token 1
github-token 2
npm-token 3
age-secret-key 4"
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --scan "$SC_TMP/crc/near"
	assert_equal "$status" 0
	[ ! -s "$SC_TMP/out" ]
	# Assigned to a secret-looking name, a near miss is still a finding
	# of the rules for values without a format, not of github-token.
	printf 'GITHUB_TOKEN=ghp_X9RfaA58z5da1rGJyOCN9rZnu3lYq82nmtg4\n' >"$SC_TMP/crc/near"
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --scan "$SC_TMP/crc/near"
	assert_equal "$status" 1
	sc_run_io "$SC_TMP/out" "$SC_TMP/json" sc-rec --to-json
	run jq -r .rule "$SC_TMP/json"
	assert_output provider-assignment
}

@test "scan: usage errors" {
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --scan
	assert_equal "$status" 2
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --env --config /dev/null
	assert_equal "$status" 2
	sc_run_io /dev/null "$SC_TMP/out" sc-mask --env --scan .
	assert_equal "$status" 2
}
