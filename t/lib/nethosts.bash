# Helpers for the --network hosts tests: a static file server on the
# host's loopback standing in for a registry (t/lib/static-server.c), and
# the connection records the proxy writes.
# shellcheck shell=bash

# Start the static server on DIR; sets REG_PORT, REG_PID, REG_LOG.
nh_serve() {
	local dir="$1" server="$SC_TOP/build/t/static-server" _
	[ -x "$server" ] || {
		echo "build/t/static-server is missing: run 'make unit'" >&2
		return 1
	}
	REG_LOG="$SC_TMP/registry.log"
	rm -f "$SC_TMP/registry.port"
	"$server" "$SC_TMP/registry.port" "$dir" "$REG_LOG" &
	REG_PID=$!
	for _ in $(seq 1 100); do
		[ -s "$SC_TMP/registry.port" ] && break
		sleep 0.05
	done
	REG_PORT=$(cat "$SC_TMP/registry.port")
	[ -n "$REG_PORT" ]
}

nh_stop() {
	if [ -n "${REG_PID:-}" ]; then
		kill "$REG_PID" 2>/dev/null || true
		wait "$REG_PID" 2>/dev/null || true
		REG_PID=
	fi
}

# The sandbox with --network hosts and records in $SC_TMP/conn.
nh() {
	sc-sandbox-exec --root "$ROOT" --network hosts \
		--connections "$SC_TMP/conn" "$@"
}

# The connection records as JSON lines, one per connection.
nh_records() {
	sc-rec --to-json <"$SC_TMP/conn"
}

# curl inside, through the proxy even to 127.0.0.1 (NO_PROXY lists the
# namespace's own loopback, which a test registry on the host is not).
# shellcheck disable=SC2034 # used by the files that load this one
NH_CURL=(curl -sS --noproxy '' --max-time 10)
