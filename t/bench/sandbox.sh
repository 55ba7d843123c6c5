#!/bin/sh
# Start-up cost of the sandbox: sc-sandbox-exec --network none -- /bin/true
# against bwrap with the same isolation, against a bare /bin/true and
# against timeout(1), the smallest supervisor there is (one more exec, a
# fork and a wait: the floor under any tool that outlives its command), in
# one hyperfine run.  Prints the ratios; asserts nothing.  On a loaded or
# virtual machine the absolute times move a lot; the ratios less.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
sbx="$top/build/bin/sc-sandbox-exec"
runs=${SC_BENCH_RUNS:-50}

for tool in hyperfine bwrap; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "bench sandbox: $tool not installed, skipped" >&2
		exit 0
	fi
done
if ! "$sbx" --network none -- /bin/true; then
	echo "bench sandbox: sc-sandbox-exec cannot run here, skipped" >&2
	exit 0
fi

root=$(mktemp -d "${TMPDIR:-/tmp}/sc-bench.XXXXXX")
json="$root/bench.json"
trap 'rm -rf -- "$root"' EXIT

hyperfine -N --warmup 5 --runs "$runs" --export-json "$json" \
	-n bare "/bin/true" \
	-n timeout "timeout 10 /bin/true" \
	-n sc-sandbox-exec "$sbx --root $root --network none -- /bin/true" \
	-n sc-sandbox-exec-landlock "$sbx --root $root --network none --tier landlock --mode auto -- /bin/true" \
	-n bwrap "bwrap --unshare-all --ro-bind / / --dev /dev --proc /proc /bin/true"

jq -r '
	(.results | map({(.command): .mean}) | add) as $m |
	"sandbox start-up (mean):",
	(.results[] | "  \(.command): \(.mean * 1000 | . * 100 | round / 100) ms"),
	"ratio sc-sandbox-exec / bwrap: \($m["sc-sandbox-exec"] / $m.bwrap | . * 100 | round / 100)",
	"overhead over bare exec: \(($m["sc-sandbox-exec"] - $m.bare) * 1000 | . * 100 | round / 100) ms (goal: under 3 ms)",
	"overhead over timeout(1), fork+exec+wait: \(($m["sc-sandbox-exec"] - $m.timeout) * 1000 | . * 100 | round / 100) ms"
' "$json"
