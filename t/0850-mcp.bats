#!/usr/bin/env bats
# sc-mcp with real MCP servers: the reference servers of the official
# project (@modelcontextprotocol/server-everything and server-filesystem,
# pinned in t/npm), a server built on the official SDK whose tool changes
# its definition (t/lib/rugpull-mcp.mjs), and a hostile one
# (t/lib/bad-mcp.mjs).  Every server runs inside sc-sandbox-exec.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
# shellcheck disable=SC2016 # scripts for bash -c, expanded there
load lib/common
load lib/sandbox

setup() {
	sb_setup
	command -v node >/dev/null || skip "node is not installed: make deps installs it"
	NPM="$SC_TOP/t/npm/node_modules"
	[ -d "$NPM/@modelcontextprotocol/server-everything" ] ||
		skip "the pinned npm packages are not installed: run make deps"
	CONF="$ROOT/speccoder.conf"
	: >"$CONF"
	EVERYTHING="node $NPM/@modelcontextprotocol/server-everything/dist/index.js stdio"
	FILESYSTEM="node $NPM/@modelcontextprotocol/server-filesystem/dist/index.js"
}

teardown() {
	if [ -n "${WEB_PID:-}" ]; then
		kill "$WEB_PID" 2>/dev/null || true
	fi
	sb_teardown
}

server() { # NAME COMMAND
	git config -f "$CONF" "mcp.$1.command" "$2"
}

allow() { # NAME TOOL [DIGEST]
	git config -f "$CONF" --add "mcp.$1.allow" "$2${3:+ $3}"
}

# sc-mcp for server NAME, records in from IN, out to $SC_TMP/out.rec;
# status and stderr as bats' run sets them.
mcp() { # NAME IN [OPTION...]
	local name=$1 in=$2
	shift 2
	sc_run_io "$in" "$SC_TMP/out.rec" sc-mcp --config "$CONF" --server "$name" \
		"$@" -- sc-sandbox-exec --root "$ROOT" --mode auto
}

# The records sc-mcp wrote, as JSON lines.
out() { sc-rec --to-json <"$SC_TMP/out.rec"; }

# The tool-result of call ID, one field.
result() { # ID FIELD
	out | jq -r --arg id "$1" --arg f "$2" 'select(.type == "tool-result" and .id == $id) | .[$f]'
}

calls() { # RECORD-ARGS... separated by ';'
	local rec=()
	: >"$SC_TMP/in.rec"
	for a in "$@"; do
		if [ "$a" = ";" ]; then
			sc-rec "${rec[@]}" >>"$SC_TMP/in.rec"
			rec=()
		else
			rec+=("$a")
		fi
	done
	[ "${#rec[@]}" -eq 0 ] || sc-rec "${rec[@]}" >>"$SC_TMP/in.rec"
}

digest_of() { # NAME TOOL
	mcp "$1" /dev/null --list
	out | jq -r --arg t "$2" 'select(.type == "tool" and .tool == $t) | .digest'
}

@test "sc-mcp lists the everything server's tools, each with the digest of its definition and a status" {
	server ev "$EVERYTHING"
	allow ev echo
	mcp ev /dev/null --list
	[ "$status" -eq 0 ]
	[ "$(out | jq -r 'select(.tool == "echo") | .status')" = allowed ]
	[ "$(out | jq -r 'select(.tool == "get-sum") | .status')" = new ]
	[ "$(out | jq -r 'select(.tool == "echo") | .name')" = mcp__ev__echo ]
	[ "$(out | jq -r 'select(.tool == "echo") | .label + " " + .source')" = "untrusted mcp:ev" ]
	# The digest is the SHA-256 of the canonical definition it shows.
	local def dig
	def=$(out | jq -r 'select(.tool == "echo") | .definition')
	dig=$(out | jq -r 'select(.tool == "echo") | .digest')
	[ "$dig" = "sha256:$(printf '%s' "$def" | sha256sum | cut -d' ' -f1)" ]
	[ "$(jq -r .description <<<"$def")" = "Echoes back the input string" ]
	# The same definition gives the same digest the next time.
	mcp ev /dev/null --list
	[ "$(out | jq -r 'select(.tool == "echo") | .digest')" = "$dig" ]
}

@test "calls reach the everything server: echo, add, a long operation with progress, a resource" {
	server ev "$EVERYTHING"
	for t in echo get-sum trigger-long-running-operation get-resource-reference; do allow ev "$t"; done
	calls type=call id=1 tool=mcp__ev__echo 'arguments={"message":"hello"}' ";" \
		type=call id=2 tool=mcp__ev__get-sum 'arguments={"a":2,"b":40}' ";" \
		type=call id=3 tool=mcp__ev__trigger-long-running-operation 'arguments={"duration":1,"steps":3}' ";" \
		type=call id=4 tool=mcp__ev__get-resource-reference 'arguments={"resourceId":3}' ";" \
		type=call id=5 tool=get-sum a=1 b=2
	mcp ev "$SC_TMP/in.rec"
	[ "$status" -eq 0 ]
	[ "$(out | jq -r 'select(.type == "ready") | .tools')" = 4 ]
	[ "$(result 1 text)" = "Echo: hello" ]
	[ "$(result 1 label) $(result 1 source) $(result 1 outcome)" = "untrusted mcp:ev ok" ]
	[ "$(result 2 text)" = "The sum of 2 and 40 is 42." ]
	[[ "$(result 3 text)" == "Long running operation completed."* ]]
	# Its progress came (one notification a step) and was only counted.
	[ "$(result 3 progress)" = 3 ]
	[[ "$(result 4 text)" == *"[resource demo://resource/dynamic/text/3]"* ]]
	# Fields typed by the schema: numbers stay numbers.
	[ "$(result 5 text)" = "The sum of 1 and 2 is 3." ]
	[ "$(result 1 digest)" = "$(out | jq -r 'select(.type == "tool" and .tool == "echo") | .digest')" ]
}

@test "a tool that is not allowed is not offered and a call to it never reaches the server" {
	server ev "$EVERYTHING"
	allow ev echo
	calls type=call id=1 tool=mcp__ev__get-env 'arguments={}'
	mcp ev "$SC_TMP/in.rec"
	[ "$status" -eq 0 ]
	[ "$(out | jq -r 'select(.type == "tool") | .tool')" = echo ]
	[ "$(result 1 outcome)" = error ]
	[[ "$(result 1 text)" == "no such MCP tool is offered"* ]]
}

@test "the server gets only the variables its configuration names" {
	server ev "$EVERYTHING"
	allow ev get-env
	git config -f "$CONF" mcp.ev.env PASS_ME
	calls type=call id=1 tool=mcp__ev__get-env 'arguments={}'
	PASS_ME=visible-value MY_API_TOKEN=tok-not-for-the-server OTHER_VAR=plain-other \
		mcp ev "$SC_TMP/in.rec"
	[ "$status" -eq 0 ]
	[[ "$(result 1 text)" == *visible-value* ]]
	[[ "$(result 1 text)" != *tok-not-for-the-server* ]]
	[[ "$(result 1 text)" != *plain-other* ]]
}

@test "the filesystem server reads inside its directory and refuses outside it" {
	mkdir -p "$ROOT/docs" && echo "inside text" >"$ROOT/docs/a.txt"
	echo "outside text" >"$SC_TMP/outside/b.txt"
	server fs "$FILESYSTEM $ROOT/docs"
	allow fs read_text_file
	calls type=call id=1 tool=mcp__fs__read_text_file "arguments={\"path\":\"$ROOT/docs/a.txt\"}" ";" \
		type=call id=2 tool=mcp__fs__read_text_file "arguments={\"path\":\"$SC_TMP/outside/b.txt\"}"
	mcp fs "$SC_TMP/in.rec"
	[ "$status" -eq 0 ]
	[ "$(result 1 text)" = "inside text" ]
	[ "$(result 2 outcome)" = error ]
	[[ "$(result 2 text)" != *"outside text"* ]]
}

@test "a server that would read the person's credentials or write outside the root is held by the sandbox" {
	sb_require_full
	# The server itself would allow all of HOME and the outside directory:
	# only the sandbox stands between it and them.
	server fs "$FILESYSTEM $HOME $SC_TMP/outside"
	allow fs read_text_file
	allow fs write_file
	calls type=call id=1 tool=mcp__fs__read_text_file "arguments={\"path\":\"$HOME/.ssh/id_ed25519\"}" ";" \
		type=call id=2 tool=mcp__fs__write_file "arguments={\"path\":\"$SC_TMP/outside/planted\",\"content\":\"x\"}" ";" \
		type=call id=3 tool=mcp__fs__read_text_file "arguments={\"path\":\"$HOME/.aws/credentials\"}"
	sc_run_io "$SC_TMP/in.rec" "$SC_TMP/out.rec" sc-mcp --config "$CONF" --server fs \
		-- sc-sandbox-exec --root "$ROOT" --mode required
	[ "$status" -eq 0 ]
	[[ "$(result 1 text)" != *SSH-PRIVATE-KEY* ]]
	[[ "$(result 3 text)" != *AWS-SECRET* ]]
	[ "$(result 2 outcome)" = error ]
	[ ! -e "$SC_TMP/outside/planted" ]
}

@test "a rug pull: the tool changes its definition after its first call and is withdrawn" {
	server rug "node $SC_TOP/t/lib/rugpull-mcp.mjs --after-call"
	allow rug greet "$(digest_of rug greet)"
	calls type=call id=1 tool=mcp__rug__greet 'arguments={"who":"bob"}' ";" \
		type=call id=2 tool=mcp__rug__greet 'arguments={"who":"eve"}'
	mcp rug "$SC_TMP/in.rec"
	[ "$status" -eq 0 ]
	[ "$(result 1 text)" = "hello bob" ]
	[ "$(out | jq -r 'select(.type == "withdrawn") | .code + " " + .tool')" = "MCP-DEFINITION-CHANGED greet" ]
	[ "$(out | jq -r 'select(.type == "withdrawn") | .digest')" != "$(out | jq -r 'select(.type == "withdrawn") | .pinned')" ]
	[ "$(result 2 outcome)" = error ]
	[[ "$(result 2 text)" != *hello* ]]
	[[ "$stderr" == *"warning[MCP-DEFINITION-CHANGED]"* ]]
}

@test "a definition that changes while sc-mcp waits for its caller is withdrawn at once" {
	server rug "node $SC_TOP/t/lib/rugpull-mcp.mjs"
	allow rug greet "$(digest_of rug greet)"
	# One call, then the server changes (the flag file) while the caller
	# says nothing more: the withdrawal comes without a second call.
	run --separate-stderr bash -c '{ sc-rec type=call id=1 tool=mcp__rug__greet "arguments={\"who\":\"bob\"}"
		until [ -s "$3" ] && sc-rec --to-json <"$3" | grep -q tool-result; do sleep 0.1; done
		touch rugpull.flag
		for _ in $(seq 100); do sc-rec --to-json <"$3" | grep -q withdrawn && break; sleep 0.1; done; } |
		sc-mcp --config "$1" --server rug -- sc-sandbox-exec --root "$2" --mode auto >"$3"' \
		_ "$CONF" "$ROOT" "$SC_TMP/out.rec"
	[ "$status" -eq 0 ]
	[ "$(result 1 text)" = "hello bob" ]
	[ "$(out | jq -r 'select(.type == "withdrawn") | .tool')" = greet ]
}

@test "a tool whose definition differs from its pin at the start is withdrawn, never offered" {
	server rug "node $SC_TOP/t/lib/rugpull-mcp.mjs"
	allow rug greet "$(digest_of rug greet)"
	server rug "node $SC_TOP/t/lib/rugpull-mcp.mjs --changed"
	mcp rug /dev/null --list
	[ "$(out | jq -r 'select(.tool == "greet") | .status')" = changed ]
	calls type=call id=1 tool=mcp__rug__greet 'arguments={"who":"x"}'
	mcp rug "$SC_TMP/in.rec"
	[ "$status" -eq 0 ]
	[ -z "$(out | jq -r 'select(.type == "tool") | .tool')" ]
	[ "$(out | jq -r 'select(.type == "withdrawn") | .tool')" = greet ]
	[ "$(result 1 outcome)" = error ]
}

@test "a server that hangs gives the call an error result within the timeout; later calls get errors" {
	server rug "node $SC_TOP/t/lib/rugpull-mcp.mjs --slow 60"
	allow rug slow
	# Long enough for node to start on a loaded machine, far below 60.
	git config -f "$CONF" mcp.rug.timeout 8
	calls type=call id=1 tool=mcp__rug__slow 'arguments={}' ";" type=call id=2 tool=mcp__rug__slow 'arguments={}'
	local t0=$SECONDS
	mcp rug "$SC_TMP/in.rec"
	[ "$status" -eq 4 ]
	[ $((SECONDS - t0)) -lt 40 ]
	[ "$(result 1 outcome)" = error ]
	[[ "$(result 1 text)" == *"did not answer in time"* ]]
	[[ "$(result 2 text)" == *"not running (MCP-FAILED)"* ]]
	[ "$(out | jq -r 'select(.type == "stop") | .code')" = MCP-FAILED ]
	[[ "$stderr" == *"error[MCP-FAILED]"* ]]
}

@test "hostile servers: each fault is a clear error, its process group ended" {
	local mode code st
	for spec in nonjson:MCP-MALFORMED:3 unknown-id:MCP-UNKNOWN-ID:3 huge:MCP-TOO-LARGE:3 \
		badname:MCP-BAD-TOOL:3 badschema:MCP-BAD-TOOL:3 exit:MCP-FAILED:4; do
		IFS=: read -r mode code st <<<"$spec"
		server bad "node $SC_TOP/t/lib/bad-mcp.mjs $mode"
		mcp bad /dev/null --list
		echo "$mode: $status $stderr"
		[ "$status" -eq "$st" ]
		[[ "$stderr" == *"error[$code]"* ]]
		[ "$(out | jq -r 'select(.type == "stop") | .code')" = "$code" ]
		[ -z "$(out | jq -r 'select(.type == "tool") | .name')" ]
		# The server's bytes (a control sequence in a name) never reach stderr.
		[[ "$stderr" != *$'\e'* ]]
	done
}

@test "what a server started is ended with it" {
	local marker=sc-mcp-orphan-$$-$RANDOM
	server bad "node $SC_TOP/t/lib/bad-mcp.mjs orphan $marker"
	mcp bad /dev/null --list
	[ "$status" -eq 0 ]
	sleep 0.5
	run pgrep -f "$marker"
	[ "$status" -eq 1 ]
}

@test "sc-mcp refuses to start a server without a sandbox, or one the configuration does not name" {
	server ev "$EVERYTHING"
	run --separate-stderr sc-mcp --config "$CONF" --server ev
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"never runs unconfined"* ]]
	run --separate-stderr sc-mcp --config "$CONF" --server nope -- sc-sandbox-exec --root "$ROOT"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"error[MCP-UNKNOWN-SERVER]"* ]]
	run --separate-stderr sc-mcp --config "$CONF" --server 'a__b' -- sc-sandbox-exec --root "$ROOT"
	[ "$status" -eq 2 ]
}

# A web server on the host's loopback serving TEXT as /page: sets WEB_PID
# and port (the caller declares port local).
web_start() { # TEXT
	mkdir -p "$SC_TMP/www" && echo "$1" >"$SC_TMP/www/page"
	python3 -m http.server 0 --bind 127.0.0.1 --directory "$SC_TMP/www" >"$SC_TMP/http.log" 2>&1 &
	WEB_PID=$!
	port=''
	for _ in $(seq 100); do
		port=$(sed -n 's/.*port \([0-9]*\).*/\1/p' "$SC_TMP/http.log" | head -n 1)
		[ -n "$port" ] && break
		sleep 0.1
	done
	[ -n "$port" ]
}

@test "a server cannot reach a service on the host's loopback: network none, and loopback is its own" {
	sb_require_full
	command -v python3 >/dev/null || skip "python3 is needed for the host's service"
	local port
	web_start "host page"
	server ev "$EVERYTHING"
	allow ev gzip-file-as-resource
	calls type=call id=1 tool=mcp__ev__gzip-file-as-resource \
		"arguments={\"name\":\"p.gz\",\"data\":\"http://127.0.0.1:$port/page\"}"
	# The attack works without the sandbox: the fetch succeeds.
	printf '#!/bin/sh\nwhile [ "$1" != -- ]; do shift; done; shift; exec "$@"\n' >"$SC_TMP/nosandbox"
	chmod +x "$SC_TMP/nosandbox"
	sc_run_io "$SC_TMP/in.rec" "$SC_TMP/out.rec" sc-mcp --config "$CONF" --server ev -- "$SC_TMP/nosandbox"
	[ "$(result 1 outcome)" = ok ]
	for net in none loopback; do
		git config -f "$CONF" mcp.ev.network "$net"
		sc_run_io "$SC_TMP/in.rec" "$SC_TMP/out.rec" sc-mcp --config "$CONF" --server ev \
			-- sc-sandbox-exec --root "$ROOT" --mode required
		echo "$net: $(result 1 text)"
		[ "$status" -eq 0 ]
		[ "$(result 1 outcome)" = error ]
	done
}

@test "a server with hosts of its own reaches those, through the sandbox's proxy, and nothing else" {
	sb_require_full
	command -v python3 >/dev/null || skip "python3 is needed for the host's service"
	local port
	web_start "listed page"
	server rug "node $SC_TOP/t/lib/rugpull-mcp.mjs"
	allow rug fetch
	calls type=call id=1 tool=mcp__rug__fetch "arguments={\"url\":\"http://127.0.0.1:$port/page\"}" ";" \
		type=call id=2 tool=mcp__rug__fetch "arguments={\"url\":\"http://127.0.0.1:$((port + 1))/page\"}"
	# Without a host list: no network at all.
	mcp rug "$SC_TMP/in.rec"
	[ "$status" -eq 0 ]
	[[ "$(result 1 text)" != *"listed page"* ]]
	git config -f "$CONF" mcp.rug.host "127.0.0.1:$port"
	sc_run_io "$SC_TMP/in.rec" "$SC_TMP/out.rec" sc-mcp --config "$CONF" --server rug \
		-- sc-sandbox-exec --root "$ROOT" --mode required
	[ "$status" -eq 0 ]
	[ "$(result 1 text)" = "200 listed page" ]
	[[ "$(result 2 text)" == "403 "*"not on the li"* ]]
}

@test "a server's configuration that cannot be used is refused before anything starts" {
	local key value
	for kv in "network=full" "network=" "timeout=0" "timeout=99999" "host=a b" "env=NOT-A-NAME" "command="; do
		: >"$CONF"
		server ev "$EVERYTHING"
		key=${kv%%=*} value=${kv#*=}
		git config -f "$CONF" "mcp.ev.$key" "$value"
		run --separate-stderr sc-mcp --config "$CONF" --server ev --list -- sc-sandbox-exec --root "$ROOT"
		echo "$kv: $status $stderr"
		[ "$status" -eq 2 ]
		[[ "$stderr" == *"error[BAD-CONFIG]"* ]]
		[ -z "$output" ]
	done
}
