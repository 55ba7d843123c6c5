#!/bin/bash
# Benchmark prompt caching: a recorded ten-turn attempt (a system prompt,
# the trusted spec and plan, then ten model calls each with its tool result)
# sent by sc-model to the loopback model server, with caching and with
# --no-cache; model-cache-bill.pl bills each request as Anthropic's cache
# would.  Prints the billed input per turn and the saving from the third
# turn on (the goal: at least 60% fewer).  BENCH_TURNS=N changes the turns.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
dir="$top/build/bench/model-cache"
turns="${BENCH_TURNS:-10}"
bin="$top/build/bin"
server="$top/build/t/model-server"

for tool in perl jq; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "bench/model-cache: skipped: $tool is not installed" >&2
		exit 0
	fi
done
[ -x "$server" ] || { echo "bench/model-cache: run 'make unit' first" >&2; exit 1; }
rm -rf "$dir"
mkdir -p "$dir"

# The same words every run: a spec and a plan of a few thousand tokens,
# and tool results of a few hundred.
text() { # SEED LINES
	perl -e 'srand($ARGV[0]); my @w = qw(the parser reads each record and
		checks its labels before the provider sees it a tool result carries
		untrusted bytes so the model quotes them never runs them);
		for (1 .. $ARGV[1]) { print join(" ", map { $w[rand @w] } 1 .. 14), "\n" }' "$1" "$2"
}

conversation() {
	{
		jq -nc --arg t "$(text 1 40)" '{type:"system",text:$t,label:"trusted",source:"speccoder"}'
		jq -nc '{type:"tool",name:"read",description:"Read a file.",schema:"{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}}}",label:"trusted",source:"speccoder"}'
		jq -nc --arg t "$(text 2 300)" '{type:"message",role:"user",text:("Implement task 1.\n\n# The spec\n\n" + $t),label:"trusted",source:"speccoder"}'
	} | "$bin/sc-rec" --from-json >"$1"
}

reply() { # N
	printf 'HTTP/1.1 200 OK\nContent-Type: application/json\nContent-Length: auto\n\n'
	printf '{"content":[{"type":"tool_use","id":"toolu_%02d","name":"read","input":{"path":"src/f%d.c"}}],"stop_reason":"tool_use","usage":{"input_tokens":1,"output_tokens":1}}\n' "$1" "$1"
}

attempt() { # MODE ARG...
	local mode=$1 n port
	shift
	local replies=()
	for n in $(seq 1 "$turns"); do
		reply "$n" >"$dir/reply-$n.http"
		replies+=("$dir/reply-$n.http")
	done
	rm -f "$dir/port"
	"$server" "$dir/port" "$dir/$mode.req" "${replies[@]}" &
	local pid=$!
	for n in $(seq 1 100); do [ -s "$dir/port" ] && break; sleep 0.05; done
	port=$(cat "$dir/port")
	conversation "$dir/$mode.conv"
	for n in $(seq 1 "$turns"); do
		NO_PROXY='*' ANTHROPIC_API_KEY=bench "$bin/sc-model" --provider anthropic \
			--endpoint "http://127.0.0.1:$port" --no-stream "$@" \
			<"$dir/$mode.conv" >"$dir/$mode.out"
		cat "$dir/$mode.out" >>"$dir/$mode.conv"
		jq -nc --arg id "$(printf 'toolu_%02d' "$n")" --arg t "$(text $((n + 10)) 20)" \
			'{type:"tool-result",id:$id,text:$t,label:"untrusted",source:"worktree"}' |
			"$bin/sc-rec" --from-json >>"$dir/$mode.conv"
	done
	wait "$pid"
	local reqs=()
	for n in $(seq 1 "$turns"); do reqs+=("$dir/$mode.req.$n"); done
	perl "$top/t/bench/model-cache-bill.pl" "${reqs[@]}" >"$dir/$mode.bill"
}

attempt cached
attempt plain --no-cache
echo "bench/model-cache: $turns turns, billed input tokens (plain = without caching)"
printf '  turn  plain  cached (input read write)\n'
paste -d ' ' "$dir/plain.bill" "$dir/cached.bill" |
	awk '{ printf "  %4d %6d %7d (%d %d %d)\n", $1, $5, $10, $7, $8, $9 }'
paste -d ' ' "$dir/plain.bill" "$dir/cached.bill" | awk '
	$1 >= 3 { plain += $5; cached += $10 }
	END { printf "bench/model-cache: from turn 3 on, %d billed input tokens cached, %d plain: %d%% fewer\n",
		cached, plain, plain ? 100 * (plain - cached) / plain : 0 }'
