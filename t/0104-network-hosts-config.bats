#!/usr/bin/env bats
# Host lists in speccoder.conf: sandbox.networkHosts and [network "NAME"]
# sections, checked when read, judged by sc-classify as
# allow.network-hosts, proposed by init, given to commands by the drivers.

# shellcheck disable=SC2154,SC2016 # bats run sets status, output, stderr; '$' is for the inner shell
load lib/common
load lib/porcelain
load lib/sandbox

setup() {
	sc_common_setup
	sc_porcelain_repo
}

classify() { # CONFIG ARGV...
	local conf=$1 a=()
	shift
	for w in "$@"; do a+=("argv=$w"); done
	sc-rec type=call id=1 tool=run "${a[@]}" >"$SC_TMP/call"
	sc_run_io "$SC_TMP/call" "$SC_TMP/verdict" sc-classify --root . \
		--config "$conf" --no-prompt
}

@test "a bad host entry is BAD-CONFIG naming the file, the line, the key and the entry" {
	# each form the issue names: a scheme, a path, an address range, a
	# bare '*' (and an inner one), a port over 65535, non-ASCII
	for bad in 'https://registry.npmjs.org' 'registry.npmjs.org/path' \
		'10.0.0.0/8' '*' 'a.*.b.com' 'example.com:70000' \
		"$(printf 'b\303\274cher.de')"; do
		# a good entry first: the line is the bad one's, not the list's
		printf '# hosts\n[network "npm"]\n\targv = npm ci\n\thosts = registry.npmjs.org\n\thosts = %s\n' \
			"$bad" >bad.conf
		classify bad.conf npm ci
		assert_equal "$status" 3
		[[ "$stderr" == *"error[BAD-CONFIG]: bad.conf:5: network.npm.hosts: '"* ]]
		printf '[sandbox]\n\tmode = auto\n\tnetworkHosts = example.com\n[sandbox] networkHosts = %s\n' \
			"$bad" >bad.conf
		classify bad.conf true
		assert_equal "$status" 3
		[[ "$stderr" == *"error[BAD-CONFIG]: bad.conf:4: sandbox.networkhosts: '"* ]]
		# the drivers read the list through sc-config, which names it alike
		run --separate-stderr sc-config --file bad.conf --get-all sandbox.networkHosts
		assert_equal "$status" 3
		assert_output ""
		[[ "$stderr" == *"error[BAD-CONFIG]: bad.conf:4: sandbox.networkhosts: '"* ]]
		cp bad.conf speccoder.conf
		run --separate-stderr git speccoder exec -- touch ran
		assert_equal "$status" 2
		[[ "$stderr" == *"error[BAD-CONFIG]: "*"speccoder.conf:4: sandbox.networkhosts"* ]]
		[ ! -e ran ]
	done
	printf '[network "npm"]\n\targv = npm ci\n\tport = 443\n' >bad.conf
	classify bad.conf npm ci
	assert_equal "$status" 3
}

@test "a configured command is allow.network-hosts with its hosts; others are not" {
	cat >speccoder.conf <<'CONF'
[network "npm"]
	argv = npm ci
	hosts = registry.npmjs.org
[network "cargo"]
	argvPrefix = cargo fetch
	hosts = index.crates.io
	hosts = static.crates.io:443
[network "empty"]
	argv = make fetch
CONF
	classify speccoder.conf npm ci
	assert_success
	run sc-rec --to-json <"$SC_TMP/verdict"
	assert_output --partial '"rule":"allow.network-hosts"'
	assert_output --partial 'argv=npm ci hosts=registry.npmjs.org"'
	assert_output --partial '"host":"registry.npmjs.org"'
	classify speccoder.conf cargo fetch --locked
	run sc-rec --to-json <"$SC_TMP/verdict"
	assert_output --partial '"host":["index.crates.io","static.crates.io:443"]'
	# another argv, a section without hosts: as before, never this rule
	for argv in "npm install" "npm ci --foreground-scripts" "make fetch"; do
		# shellcheck disable=SC2086 # split on purpose
		classify speccoder.conf $argv
		run sc-rec --to-json <"$SC_TMP/verdict"
		refute_output --partial 'network-hosts'
		refute_output --partial '"host"'
	done
}

@test "init proposes the registry of each ecosystem it finds, and nothing else" {
	echo '{}' >package.json
	printf 'module x\n' >go.mod
	run git speccoder init
	assert_success
	run git config -f speccoder.conf --get-all network.npm.hosts
	assert_output registry.npmjs.org
	run git config -f speccoder.conf --get network.npm.argv
	assert_output "npm ci"
	run git config -f speccoder.conf --get-all network.go.hosts
	assert_output "proxy.golang.org
sum.golang.org"
	run git config -f speccoder.conf --get-regexp '^network\.(cargo|pip)\.'
	assert_failure
	# what init wrote is what sc-classify reads
	classify speccoder.conf go mod download
	assert_success
	run sc-rec --to-json <"$SC_TMP/verdict"
	assert_output --partial '"rule":"allow.network-hosts"'
}

@test "sandbox.networkHosts gives every exec the proxy; --network on the command line wins" {
	sb_userns_available || skip "user namespaces unavailable on this host"
	printf '[sandbox]\n\tmode = auto\n\tnetworkHosts = registry.npmjs.org\n' >speccoder.conf
	git add speccoder.conf && git commit -qm conf
	run --separate-stderr git speccoder exec -- sh -c 'echo "${HTTPS_PROXY-none}"'
	assert_success
	assert_output "http://127.0.0.1:3128"
	run --separate-stderr git speccoder exec --network loopback -- sh -c 'echo "${HTTPS_PROXY-none}"'
	assert_success
	assert_output none
}

@test "run: a command with configured hosts reaches them, and each connection is in the journal" {
	load lib/run
	load lib/nethosts
	run_need_userns
	cd / && rm -rf "$SC_TMP/repo" && run_demo_repo
	mkdir -p "$SC_TMP/reg"
	echo "registry says hello" >"$SC_TMP/reg/hello"
	nh_serve "$SC_TMP/reg"
	url="http://127.0.0.1:$REG_PORT/hello"
	printf '[network "reg"]\n\targv = curl -sS --noproxy none.invalid %s\n\thosts = 127.0.0.1:%s\n' \
		"$url" "$REG_PORT" >>speccoder.conf
	git commit -q -am "a registry for curl"
	cat >"$SC_TMP/t" <<T
{"type":"turn"}
{"type":"call","id":"c1","tool":"run","argv":["curl","-sS","--noproxy","none.invalid","$url"]}
{"type":"call","id":"c2","tool":"run","argv":["curl","-sS","--noproxy","none.invalid","-p","$url"]}
{"type":"turn"}
{"type":"expect","of":"tool-result","id":"c1","contains":"registry says hello"}
{"type":"text","text":"done"}
{"type":"end","reason":"end-turn"}
T
	run --separate-stderr git speccoder run greeting --no-prompt --transcript "$SC_TMP/t"
	nh_stop
	run_journal_json >"$SC_TMP/j"
	run jq -r 'select(.type == "verdict") | "\(.id) \(.rule) \(.host // "")"' "$SC_TMP/j"
	assert_line "c1 allow.network-hosts 127.0.0.1:$REG_PORT"
	# another argv of the same program: not this rule, never its hosts
	refute_line --partial "c2 allow.network-hosts"
	run jq -r 'select(.type == "connection") | "\(.host):\(.port) \(.decision)"' "$SC_TMP/j"
	assert_output "127.0.0.1:$REG_PORT allow"
	run --separate-stderr git speccoder report
	assert_success
	assert_output --regexp "connection .*host=127.0.0.1 .*decision=allow"
}

@test "an argvPrefix never covers an option that loads code" {
	printf '[network "cargo"]\n\targvPrefix = cargo fetch\n\thosts = index.crates.io\n' >c.conf
	classify c.conf cargo fetch --locked
	run sc-rec --to-json <"$SC_TMP/verdict"
	assert_output --partial '"rule":"allow.network-hosts"'
	for extra in "--manifest-path=/tmp/x/Cargo.toml" "--config" "-Zunstable-options"; do
		classify c.conf cargo fetch "$extra"
		run sc-rec --to-json <"$SC_TMP/verdict"
		if [ "$extra" = "-Zunstable-options" ]; then
			assert_output --partial 'network-hosts'
		else
			refute_output --partial 'network-hosts'
		fi
	done
}
