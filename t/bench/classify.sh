#!/bin/bash
# sc-classify against its peers: cold start for one call against a trivial
# C program, and the throughput of a long stream of mixed calls (goal:
# 100,000 calls a second on one core).  Prints ratios; asserts nothing.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
PATH="$top/build/bin:$PATH"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sc-bench.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
calls=${SC_BENCH_CALLS:-100000}

command -v hyperfine >/dev/null || { echo "bench classify: hyperfine missing" >&2; exit 0; }
SC_TOP=$top
# shellcheck source=t/lib/policy.bash
. "$top/t/lib/policy.bash"
policy_fixture "$tmp/root"

printf 'int main(void) { return 0; }\n' >"$tmp/true.c"
cc -O2 -o "$tmp/true" "$tmp/true.c"
sc-rec type=call id=1 tool=run 'shell=make test && git status' >"$tmp/one"

# A mixed stream: reads, writes, commands, shell lines, git, MCP.
{
	sc-rec type=call id=r tool=read path=src/main.c
	sc-rec type=call id=w tool=write path=src/new.c
	sc-rec type=call id=p tool=write path=Makefile
	sc-rec type=call id=c tool=run 'shell=grep -rn main src | head -5'
	sc-rec type=call id=g tool=run 'shell=git -c color.ui=never log --oneline -5'
	# shellcheck disable=SC2016 # a shell line for sc-classify, not for us
	sc-rec type=call id=s tool=run 'shell=echo $(date) > out.txt && ls'
	sc-rec type=call id=a tool=run argv=make argv=test
	sc-rec type=call id=m tool=mcp server=docs name=search
	sc-rec type=call id=e tool=read path=.env
	sc-rec type=call id=l tool=list path=src
} >"$tmp/block"
: >"$tmp/stream"
i=0
while [ "$i" -lt $((calls / 10)) ]; do
	cat "$tmp/block"
	i=$((i + 1))
done >"$tmp/stream"

echo "== sc-classify: cold start for one call (peer: a trivial C program)"
# hyperfine subtracts the cost of the shell that sets up the redirection
hyperfine --warmup 20 --runs 300 --export-json "$tmp/cold.json" \
	"$tmp/true <$tmp/one" \
	"sc-classify --root $tmp/root <$tmp/one >/dev/null" >/dev/null
jq -r '.results as $r | "true:        \($r[0].mean * 1000 | . * 1000 | round / 1000) ms\nsc-classify: \($r[1].mean * 1000 | . * 1000 | round / 1000) ms\nratio:       \($r[1].mean / $r[0].mean | . * 100 | round / 100)x (goal: under 2x)"' \
	"$tmp/cold.json"

echo "== sc-classify: $calls mixed calls in one stream"
hyperfine --warmup 1 --runs 5 --export-json "$tmp/stream.json" \
	"sc-classify --root $tmp/root <$tmp/stream >/dev/null" >/dev/null
jq -r --argjson n "$calls" '.results[0].mean as $m |
	"time:        \($m * 1000 | round) ms\nthroughput:  \($n / $m | round) calls/s (goal: 100000)"' \
	"$tmp/stream.json"
