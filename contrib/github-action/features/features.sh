#!/usr/bin/env bash
# Print, as one JSON array for fromJSON, the features with an open task
# ("- [ ]" in tasks.md) under specs/ (spec-kit) and openspec/changes/
# (OpenSpec) of the checkout in the current directory.  A folder whose name
# is not a feature name is left out with a warning.  GIVEN, when set, is a
# JSON array of features to use instead: only strings of the feature form
# are kept.
# Outputs (with GITHUB_OUTPUT): features=JSON.
set -euo pipefail

names=()
if [ -n "${GIVEN:-}" ]; then
	json=$(jq -c '[.[] | strings | select(test("^[A-Za-z0-9_][A-Za-z0-9._-]*$"))] | unique' <<<"$GIVEN") ||
		{ echo "speccoder: error[USAGE]: features is not a JSON array" >&2; exit 2; }
	printf '%s\n' "$json"
	[ -z "${GITHUB_OUTPUT:-}" ] || echo "features=$json" >>"$GITHUB_OUTPUT"
	exit 0
fi
for f in specs/*/tasks.md openspec/changes/*/tasks.md; do
	if [ ! -f "$f" ] || [ -L "$f" ]; then continue; fi
	name=${f%/tasks.md}
	name=${name##*/}
	case "$name" in
	''|.*|-*|*[!A-Za-z0-9._-]*)
		echo "speccoder: warning: not a feature name, left out: ${name//[^ -~]/?}" >&2
		continue ;;
	esac
	grep -qE '^[[:space:]]*[-*] \[ \]' "$f" || continue
	names+=("$name")
done
if [ "${#names[@]}" -eq 0 ]; then
	json='[]'
else
	json=$(printf '%s\n' "${names[@]}" | sort -u | jq -R . | jq -cs .)
fi
printf '%s\n' "$json"
[ -z "${GITHUB_OUTPUT:-}" ] || echo "features=$json" >>"$GITHUB_OUTPUT"
