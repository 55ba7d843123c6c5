#!/bin/sh
# The host proxy's cost: a 100 MiB download over loopback by curl in the
# sandbox, through the proxy of --network hosts against a direct
# connection (--network full), in one hyperfine run.  Both pay the same
# sandbox start-up; the difference is the proxy (goal: under 10%).
# Prints the ratio; asserts nothing.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
sbx="$top/build/bin/sc-sandbox-exec"
server="$top/build/t/static-server"
runs=${SC_BENCH_RUNS:-10}

for tool in hyperfine curl jq; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "bench netproxy: $tool not installed, skipped" >&2
		exit 0
	fi
done
if [ ! -x "$server" ] || ! "$sbx" --network hosts -- /bin/true 2>/dev/null; then
	echo "bench netproxy: the proxy cannot run here (or make unit was not run), skipped" >&2
	exit 0
fi

root=$(mktemp -d "${TMPDIR:-/tmp}/sc-bench.XXXXXX")
json="$root/bench.json"
pid=
trap '[ -z "$pid" ] || kill "$pid"; rm -rf -- "$root"' EXIT
mkdir "$root/www"
head -c $((100 * 1024 * 1024)) /dev/zero >"$root/www/blob"
"$server" "$root/port" "$root/www" "$root/log" &
pid=$!
while [ ! -s "$root/port" ]; do sleep 0.05; done
port=$(cat "$root/port")
url="http://127.0.0.1:$port/blob"

hyperfine -N --warmup 2 --runs "$runs" --export-json "$json" \
	-n direct "$sbx --root $root --network full -- curl -sS --noproxy * -o /dev/null $url" \
	-n proxy "$sbx --root $root --network hosts --allow-host 127.0.0.1:$port -- curl -sS --noproxy \"\" -o /dev/null $url" \
	-n tunnel "$sbx --root $root --network hosts --allow-host 127.0.0.1:$port -- curl -sS -p --noproxy \"\" -o /dev/null $url"

jq -r '
	(.results | map({(.command): .mean}) | add) as $m |
	"100 MiB over loopback (mean):",
	(.results[] | "  \(.command): \(.mean * 1000 | . * 10 | round / 10) ms"),
	"ratio proxy / direct: \($m.proxy / $m.direct | . * 100 | round / 100) (goal: under 1.10)",
	"ratio tunnel / direct: \($m.tunnel / $m.direct | . * 100 | round / 100)"
' "$json"
