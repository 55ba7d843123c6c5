#!/bin/sh
# Start-up cost of the sandbox, each tier of sc-sandbox-exec against
# bubblewrap with the same isolation and against bare execs of /bin/true,
# interleaved: ROUNDS hyperfine runs of every command in turn, so a load
# that comes and goes on a shared machine falls on all of them alike.
# Prints medians (and 10th percentiles, closest to an idle machine) and
# the two ratios sc-sandbox-exec(1) promises:
#   sc-sandbox-exec --network none / bwrap           (goal: at most 0.6)
#   sc-sandbox-exec --network none - 2 bare execs    (goal: at most 3 ms)
# SC_BENCH_BEFORE=PATH adds another build of sc-sandbox-exec (the one
# before a change) to the same rounds, as before-*, so a change is
# measured against the same load.  Asserts nothing.  On a loaded or virtual machine the absolute times move
# a lot; the ratios less.  (CPU time is not printed: rusage, like perf
# stat, counts a process only when it ends before the tool it belongs to
# does, which leaves out bwrap's namespace init and ours.)
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
sbx="$top/build/bin/sc-sandbox-exec"
runs=${SC_BENCH_RUNS:-20}
rounds=${SC_BENCH_ROUNDS:-5}

for tool in hyperfine bwrap jq; do
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
trap 'rm -rf -- "$root"' EXIT
mkdir "$root/dir"
dir="$root/dir"

before=${SC_BENCH_BEFORE:-}
round=1
while [ "$round" -le "$rounds" ]; do
	if [ -n "$before" ]; then
		set -- \
			-n before-full-none "$before --root $dir --network none -- /bin/true" \
			-n before-full-full "$before --root $dir --network full -- /bin/true" \
			-n before-landlock-none "$before --root $dir --network none --tier landlock --mode auto -- /bin/true"
	else
		set --
	fi
	hyperfine -N --style none --warmup 3 --runs "$runs" "$@" \
		--export-json "$root/round$round.json" \
		-n bare "/bin/true" \
		-n full-none "$sbx --root $dir --network none -- /bin/true" \
		-n full-loopback "$sbx --root $dir --network loopback -- /bin/true" \
		-n full-full "$sbx --root $dir --network full -- /bin/true" \
		-n landlock-none "$sbx --root $dir --network none --tier landlock --mode auto -- /bin/true" \
		-n off "$sbx --root $dir --mode off -- /bin/true" \
		-n bwrap "bwrap --unshare-all --die-with-parent --new-session --ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --bind $dir $dir /bin/true" \
		>/dev/null 2>&1
	round=$((round + 1))
done

jq -rs '
	def median: sort | if length % 2 == 1 then .[length / 2 | floor]
		else (.[length / 2 - 1] + .[length / 2]) / 2 end;
	def ms: . * 1000 | . * 100 | round / 100;
	(map(.results[]) | group_by(.command) |
		map({key: .[0].command, value: (map(.times[]) | median)}) |
		from_entries) as $m |
	(map(.results[]) | group_by(.command) |
		map({key: .[0].command,
		     value: (map(.times[]) | sort | .[length / 10 | floor])}) |
		from_entries) as $p10 |
	"sandbox start-up, wall clock, median (10th percentile) of \(map(.results[0].times | length) | add) interleaved runs each:",
	($m | to_entries[] | "  \(.key): \(.value | ms) ms (\($p10[.key] | ms))"),
	"ratio sc-sandbox-exec --network none / bwrap: \($m["full-none"] / $m.bwrap | . * 100 | round / 100) (goal: at most 0.6)",
	"overhead over two bare execs: \(($m["full-none"] - 2 * $m.bare) | ms) ms (goal: at most 3 ms)",
	"ratio landlock tier / bwrap: \($m["landlock-none"] / $m.bwrap | . * 100 | round / 100)"
' "$root"/round*.json
