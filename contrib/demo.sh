#!/bin/sh
# make demo: an offline tour of what is built so far.  It shows only tools
# that exist in build/bin and says which planned ones do not exist yet.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
PATH="$top/build/bin:$PATH"
export PATH
work=$(mktemp -d "${TMPDIR:-/tmp}/speccoder-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT INT TERM

step() {
	printf '\n== %s\n' "$*"
}

step "sc-rec builds a record from its arguments (NUL bytes shown as |)"
sc-rec type=call id=1 tool=run argv=make argv=test cwd=. >"$work/call.rec"
tr '\0' '|' <"$work/call.rec"
echo

step "sc-rec --to-json shows it as JSON (a repeated name becomes an array)"
sc-rec --to-json <"$work/call.rec" | tee "$work/call.json"

step "jq edits it, sc-rec --from-json turns it back into a record"
jq -c '.source = "person"' <"$work/call.json" | sc-rec --from-json >"$work/edited.rec"
tr '\0' '|' <"$work/edited.rec"
echo

step "records -> JSON -> records is exact, NUL bytes and non-UTF-8 included"
printf 'type=blob\0data:6=a\0b\0\377\376\0\0' >"$work/blob.rec"
sc-rec --to-json <"$work/blob.rec" | tee "$work/blob.json"
sc-rec --from-json <"$work/blob.json" >"$work/blob.back"
if cmp -s "$work/blob.rec" "$work/blob.back"; then
	echo "round trip: identical ($(wc -c <"$work/blob.rec") bytes)"
else
	echo "round trip: DIFFERENT" >&2
	exit 1
fi

step "a malformed stream: the good record comes out, then error and exit 3"
status=0
printf 'type=ok\0\0type=bad\0Oops=1\0\0' | sc-rec --to-json || status=$?
echo "exit status: $status"

step "what is built so far"
for tool in sc-rec sc-classify sc-sandbox-exec sc-mask sc-hash-git sc-attest sc-model; do
	if [ -x "$top/build/bin/$tool" ]; then
		printf '  %-16s built\n' "$tool"
	else
		printf '  %-16s not built yet\n' "$tool"
	fi
done
if [ -x "$top/bin/git-speccoder" ]; then
	echo "  git speccoder    built"
else
	echo "  git speccoder    not built yet: no agent run to show"
fi
