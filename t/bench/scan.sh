#!/bin/sh
# The hyperfine commands are expanded by the shell it starts, from exports.
# shellcheck disable=SC2016
# Benchmark sc-mask --scan, in two parts:
#   1. detection on the labelled corpus t/data/scan (scan-corpus.pl):
#      recall and false positives per rule and overall;
#   2. speed on BENCH_MIB (default 100) MiB of mixed source (this
#      repository's files, repeated, the corpus's samples once every ten
#      copies) against ripgrep given the same patterns (rg -c -f) and against
#      cat | cat, the floor of a pipeline.  Goals: at least a third of
#      cat | cat's throughput, at least 20 times ripgrep's.
#   Also the start-up (the rules are loaded, not compiled) and what
#   compiling them costs (build/gen-scan-db, which also serialises them).
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
dir="$top/build/bench/scan"
mib="${BENCH_MIB:-100}"
mask="$top/build/bin/sc-mask"
rec="$top/build/bin/sc-rec"

for tool in hyperfine rg jq perl; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "bench/scan: skipped: $tool is not installed" >&2
		exit 0
	fi
done
mkdir -p "$dir"

echo "bench/scan: detection on t/data/scan"
"$mask" --scan "$top/t/data/scan/tp.txt" | "$rec" --to-json >"$dir/tp.json" || true
"$mask" --scan "$top/t/data/scan/fp.txt" | "$rec" --to-json >"$dir/fp.json" || true
perl "$top/t/bench/scan-score.pl" "$top/t/data/scan" "$dir/tp.json" "$dir/fp.json"

if [ ! -f "$dir/input" ] || [ "$(($(wc -c <"$dir/input") >> 20))" -ne "$mib" ]; then
	(cd "$top" && git ls-files -- '*.c' '*.h' '*.sh' '*.bats' '*.scd' '*.md' |
		grep -v '^t/data/' | xargs cat) >"$dir/source"
	# The corpus's credentials once every ten copies of the source.
	: >"$dir/input"
	while [ "$(wc -c <"$dir/input")" -lt $((mib << 20)) ]; do
		for _ in 1 2 3 4 5 6 7 8 9 10; do cat "$dir/source"; done >>"$dir/input"
		cat "$top/t/data/scan/tp.txt" >>"$dir/input"
	done
	truncate -s $((mib << 20)) "$dir/input"
fi
perl "$top/t/bench/scan-patterns.pl" "$top/lib/mask/scanrules.c" >"$dir/patterns"
export OUT="$dir/out" INPUT="$dir/input" MASK="$mask" PATTERNS="$dir/patterns"

echo "bench/scan: $mib MiB of mixed source, $(wc -l <"$dir/patterns") rules"
hyperfine --style basic --warmup 1 --runs "${BENCH_RUNS:-3}" -i \
	--export-json "$dir/result.json" \
	-n 'sc-mask --scan' '"$MASK" --scan "$INPUT" >"$OUT"' \
	-n 'cat | cat' 'cat "$INPUT" | cat >"$OUT"'
# ripgrep compiles the same patterns for seconds: one run is enough.
hyperfine --style basic --runs 1 -i --export-json "$dir/rg.json" \
	-n 'rg -c -f' 'rg -c -f "$PATTERNS" "$INPUT" >"$OUT"'
# Ratios: each peer's time over sc-mask's (above 1: sc-mask is faster), by
# wall clock and by CPU time (user + system), which a loaded machine
# distorts less.
jq -s -r --argjson mib "$mib" '
	[.[].results[]] as $r
	| first($r[] | select(.command == "sc-mask --scan")) as $m
	| ($r[] | "  \(.command): \(.mean * 1000 | floor) ms (CPU \((.user + .system) * 1000 | floor) ms), \($mib / .mean | floor) MiB/s"),
	  ($r[] | select(.command != "sc-mask --scan")
	   | "  ratio \(.command) / sc-mask --scan = \(.mean / $m.mean * 100 | round / 100) (CPU \((.user + .system) / ($m.user + $m.system) * 100 | round / 100))")
' "$dir/result.json" "$dir/rg.json"
echo "  goals: ratio cat | cat >= 0.33, ratio rg -c -f >= 20"

: >"$dir/empty"
export EMPTY="$dir/empty" GEN="$top/build/gen-scan-db"
hyperfine --style basic --warmup 3 --runs "${BENCH_STARTUP_RUNS:-20}" \
	--export-json "$dir/startup.json" \
	-n 'start-up (rules loaded)' '"$MASK" --scan "$EMPTY" >"$OUT"' \
	-n 'compiling the rules' '"$GEN" >"$OUT"'
jq -r '.results[] | "  \(.command): \(.mean * 1000 * 10 | round / 10) ms"' "$dir/startup.json"
