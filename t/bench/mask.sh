#!/bin/sh
# The hyperfine commands are expanded by the shell it starts, from exports.
# shellcheck disable=SC2016
# Benchmark sc-mask against peers on the same input, in one run:
#   256 MiB of log-like text, 100 secrets registered (every form);
#   peers: ripgrep and GNU grep only counting the same forms (-F -c -f),
#   and cat | cat (the floor of a pipeline).  Prints the throughput ratios.
#   Every command writes to a regular file: GNU grep stops at the first
#   match when its output is /dev/null, which would measure nothing.
#   BENCH_MIB=N changes the input size.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
dir="$top/build/bench/mask"
mib="${BENCH_MIB:-256}"
mask="$top/build/bin/sc-mask"

for tool in hyperfine rg grep jq perl; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "bench/mask: skipped: $tool is not installed" >&2
		exit 0
	fi
done
mkdir -p "$dir"
if [ ! -f "$dir/input" ] || [ "$(($(wc -c <"$dir/input") >> 20))" -ne "$mib" ]; then
	perl "$top/t/bench/mask-data.pl" "$dir" "$mib"
fi
export OUT="$dir/out" SECRETS="$dir/secrets.env" FORMS="$dir/forms" INPUT="$dir/input" MASK="$mask"

echo "bench/mask: $mib MiB, $(wc -l <"$FORMS") forms of 100 secrets"
hyperfine --style basic --warmup 1 --runs "${BENCH_RUNS:-3}" \
	--export-json "$dir/result.json" \
	-n sc-mask '"$MASK" --secrets-file "$SECRETS" <"$INPUT" >"$OUT"' \
	-n 'rg -F -c -f' 'rg -F -c -f "$FORMS" "$INPUT" >"$OUT"' \
	-n 'grep -F -c -f' 'grep -F -c -f "$FORMS" "$INPUT" >"$OUT"' \
	-n 'cat | cat' 'cat "$INPUT" | cat >"$OUT"'

# Ratios: each peer's mean time over sc-mask's (above 1: sc-mask is faster),
# and sc-mask's share of cat | cat's throughput (goal: at least 1/3).
jq -r --argjson mib "$mib" '
	.results as $r
	| ($r[] | select(.command == "sc-mask") | .mean) as $m
	| ($r[] | "  \(.command): \(.mean * 1000 | floor) ms, \($mib / .mean | floor) MiB/s"),
	  ($r[] | select(.command != "sc-mask")
	   | "  ratio \(.command) / sc-mask = \(.mean / $m * 100 | round / 100)")
' "$dir/result.json"

# Start-up with one secret (the common case) against cat, on empty input.
export BENCH_TOKEN=bench-start-up-token-0001
hyperfine --style basic --warmup 3 --runs "${BENCH_STARTUP_RUNS:-30}" \
	--export-json "$dir/startup.json" \
	-n 'sc-mask, 1 secret' '"$MASK" --secret BENCH_TOKEN </dev/null >"$OUT"' \
	-n 'sc-mask, 100 secrets' '"$MASK" --secrets-file "$SECRETS" </dev/null >"$OUT"' \
	-n cat 'cat </dev/null >"$OUT"'
jq -r '
	.results as $r
	| ($r[] | select(.command == "cat") | .mean) as $c
	| $r[] | "  start-up \(.command): \(.mean * 1000 * 10 | round / 10) ms, \(.mean / $c * 100 | round / 100) x cat"
' "$dir/startup.json"
