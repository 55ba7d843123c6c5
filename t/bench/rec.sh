#!/bin/sh
# The hyperfine commands are expanded by the shell it starts, from exports.
# shellcheck disable=SC2016
# Benchmark sc-rec against jq on the same content, in one run:
#   records -> JSON (sc-rec --to-json) and JSON -> records (sc-rec
#   --from-json) against jq -c . re-printing the same JSON Lines (jq parses
#   and prints each object: the least a JSON peer does for one conversion).
#   BENCH_RECORDS=N changes the number of records.  Prints the ratios.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
dir="$top/build/bench/rec"
n="${BENCH_RECORDS:-20000}"
rec="$top/build/bin/sc-rec"

for tool in hyperfine jq perl; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "bench/rec: skipped: $tool is not installed" >&2
		exit 0
	fi
done
mkdir -p "$dir"
perl -e '
	my $n = shift; srand(1); binmode STDOUT;
	for my $i (1 .. $n) {
		print "type=call\0id=$i\0tool=run\0";
		print "argv=$_\0" for qw(make -C src test);
		print "text=", join(" ", map { int(rand(1e9)) } 1 .. 40), "\0\0";
	}' "$n" >"$dir/in.rec"
"$rec" --to-json <"$dir/in.rec" >"$dir/in.json"
export REC="$rec" IN_REC="$dir/in.rec" IN_JSON="$dir/in.json" OUT="$dir/out"

echo "bench/rec: $n records, $(($(wc -c <"$dir/in.rec") >> 10)) KiB"
hyperfine --style basic --warmup 1 --runs "${BENCH_RUNS:-5}" \
	--export-json "$dir/result.json" \
	-n 'sc-rec --to-json' '"$REC" --to-json <"$IN_REC" >"$OUT"' \
	-n 'sc-rec --from-json' '"$REC" --from-json <"$IN_JSON" >"$OUT"' \
	-n 'jq -c .' 'jq -c . <"$IN_JSON" >"$OUT"'
jq -r '
	.results as $r
	| ($r[] | select(.command == "jq -c .") | .mean) as $jq
	| $r[] | "  \(.command): \(.mean * 1000 | floor) ms, ratio jq / this = \($jq / .mean * 100 | round / 100)"
' "$dir/result.json"
