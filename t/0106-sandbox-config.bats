#!/usr/bin/env bats
# sc-sandbox-exec --config: the [sandbox] section of speccoder.conf, read
# by sc-sandbox-exec itself through the one reader of the file.

# shellcheck disable=SC2154,SC2016 # bats run sets status, output, stderr; '$' is for the inner shell
load lib/common
load lib/sandbox

setup() {
	sb_setup
	sb_require_full
}
teardown() { sb_teardown; }

@test "--config alone: a hidden path, a writable place outside, the network and the environment take effect" {
	printf '[check "t"]\n\targv = make test\n[sandbox]\n\thide = ~/notes.txt\n\twritableOutside = %s\n\tnetwork = none\n\tenv = short\n' \
		"$SC_TMP/outside" >speccoder.conf
	# Control: without the file, each of them is as the defaults leave it.
	run --separate-stderr env MY_SETTING=kept sc-sandbox-exec --root "$ROOT" -- \
		bash -c 'cat ~/notes.txt; echo "${MY_SETTING-unset}"; exec 3<>/dev/tcp/127.0.0.1/9'
	assert_line --index 0 ordinary
	assert_line --index 1 kept
	[[ "$stderr" == *"Connection refused"* ]]
	run --separate-stderr sc-sandbox-exec --root "$ROOT" -- touch "$SC_TMP/outside/no"
	assert_failure 1
	[ ! -e "$SC_TMP/outside/no" ]
	# With it: the file reads as empty, the variable is gone, there is no
	# network at all, and the place outside is writable and named.
	run --separate-stderr env MY_SETTING=kept sc-sandbox-exec --root "$ROOT" \
		--config speccoder.conf -- \
		bash -c 'cat ~/notes.txt; echo "${MY_SETTING-unset}"; exec 3<>/dev/tcp/127.0.0.1/9'
	refute_line ordinary
	assert_line unset
	[[ "$stderr" == *"Address family not supported"* ]]
	run --separate-stderr sc-sandbox-exec --root "$ROOT" --config speccoder.conf -- \
		touch "$SC_TMP/outside/yes"
	assert_success
	[ -e "$SC_TMP/outside/yes" ]
	[[ "$stderr" == *"warning[WRITABLE-OUTSIDE]"* ]]
}

@test "a profile and the command line win over --config" {
	printf '[sandbox]\n\tnetwork = none\n\tenv = short\n' >speccoder.conf
	run --separate-stderr env MY_SETTING=kept sc-sandbox-exec --root "$ROOT" \
		--config speccoder.conf --network loopback --env scrub -- \
		bash -c 'echo "${MY_SETTING-unset}"; exec 3<>/dev/tcp/127.0.0.1/9'
	assert_output kept
	[[ "$stderr" == *"Connection refused"* ]]
	printf '[sandbox]\n\tnetwork = loopback\n' >"$SC_TMP/p.profile"
	run --separate-stderr sc-sandbox-exec --root "$ROOT" --config speccoder.conf \
		--profile "$SC_TMP/p.profile" -- bash -c 'exec 3<>/dev/tcp/127.0.0.1/9'
	[[ "$stderr" == *"Connection refused"* ]]
	# the lists add up: the profile's writable place and the file's hidden one
	printf '[sandbox]\n\thide = ~/notes.txt\n' >speccoder.conf
	printf '[sandbox]\n\twritableOutside = %s\n' "$SC_TMP/outside" >"$SC_TMP/p.profile"
	run --separate-stderr sc-sandbox-exec --root "$ROOT" --config speccoder.conf \
		--profile "$SC_TMP/p.profile" -- sh -c 'cat ~/notes.txt; touch "$1/both"' sh "$SC_TMP/outside"
	assert_success
	assert_output ""
	[ -e "$SC_TMP/outside/both" ]
}

@test "a bad [sandbox] key or value, or a bad entry anywhere in the file: error[BAD-CONFIG], exit 125, nothing run" {
	local body
	for body in '[sandbox]\n\twriteable = x' \
		'[sandbox]\n\tmode = auto\n\tnetwork = wide' \
		'[sandbox]\n\tmode = sometimes' \
		'[sandbox]\n\tacceptGaps = kill-all,landlock' \
		'[sandbox]\n\tallowHost = example.com' \
		'[sandbox]\n\ttimeout = 5' \
		'[sandbox]\n\tnetworkHosts = https://example.com' \
		'[check "x"]\n\ttimeout = 5' \
		'[sandbox'; do
		# shellcheck disable=SC2059
		printf "$body\n" >bad.conf
		run --separate-stderr sc-sandbox-exec --root "$ROOT" --config bad.conf -- touch "$ROOT/ran"
		[ "$status" -eq 125 ] || fail "'$body': status $status"
		[[ "$stderr" == *"error[BAD-CONFIG]: "* ]] || fail "'$body': $stderr"
		[ ! -e "$ROOT/ran" ] || fail "'$body': the command ran"
	done
	# the entry is named by the file and its line
	printf '# a comment\n[sandbox]\n\tmode = auto\n\twriteable = x\n' >bad.conf
	run --separate-stderr sc-sandbox-exec --root "$ROOT" --config bad.conf -- touch "$ROOT/ran"
	assert_equal "$status" 125
	[[ "$stderr" == *"error[BAD-CONFIG]: bad.conf:4: unknown key 'sandbox.writeable'"* ]]
	# the same file is refused by the reader of the drivers, alike
	run --separate-stderr sc-config --file bad.conf --check
	assert_equal "$status" 3
	assert_output ""
	[[ "$stderr" == *"error[BAD-CONFIG]: bad.conf:4: unknown key 'sandbox.writeable'"* ]]
	run --separate-stderr sc-sandbox-exec --root "$ROOT" --config missing.conf -- touch "$ROOT/ran"
	assert_equal "$status" 125
	[[ "$stderr" == *"error[CONFIG-UNREADABLE]"* ]]
	[ ! -e "$ROOT/ran" ]
}

@test "sandbox.networkHosts gives --network hosts only when no network is named" {
	printf '[sandbox]\n\tnetworkHosts = registry.npmjs.org\n' >speccoder.conf
	run --separate-stderr sc-sandbox-exec --root "$ROOT" --config speccoder.conf -- \
		sh -c 'echo "${HTTPS_PROXY-none}"'
	assert_success
	assert_output "http://127.0.0.1:3128"
	run --separate-stderr sc-sandbox-exec --root "$ROOT" --config speccoder.conf \
		--network loopback -- sh -c 'echo "${HTTPS_PROXY-none}"'
	assert_success
	assert_output none
	printf '[sandbox]\n\tnetwork = none\n\tnetworkHosts = registry.npmjs.org\n' >speccoder.conf
	run --separate-stderr sc-sandbox-exec --root "$ROOT" --config speccoder.conf -- \
		sh -c 'echo "${HTTPS_PROXY-none}"'
	assert_success
	assert_output none
}

@test "git speccoder exec: the driver passes the file, so a key it never translated takes effect" {
	load lib/porcelain
	sc_porcelain_repo
	echo "ordinary" >"$HOME/notes.txt"
	printf '[sandbox]\n\thide = ~/notes.txt\n\tenv = short\n' >speccoder.conf
	# Control: the file and the variable are there without the sandbox.
	run cat "$HOME/notes.txt"
	assert_output ordinary
	run --separate-stderr env MY_SETTING=kept git speccoder exec -- \
		sh -c 'cat ~/notes.txt; echo "${MY_SETTING-unset}"'
	assert_success
	assert_output unset
	# a bad key stops the driver before anything runs (exit 2, the
	# drivers' status for a malformed configuration)
	printf '[sandbox]\n\thidden = ~/notes.txt\n' >speccoder.conf
	run --separate-stderr git speccoder exec -- touch ran
	assert_equal "$status" 2
	[[ "$stderr" == *"error[BAD-CONFIG]: "*"speccoder.conf:2: unknown key 'sandbox.hidden'"* ]]
	[ ! -e ran ]
}
