#!/bin/sh
# Verify a pull request's attestations: trust from the base commit's
# allowed_signers, evidence from the pull request's refs/notes/speccoder.
# Inputs (environment): BASE_SHA HEAD_SHA HEAD_REPO SIGNERS_PATH
# ALLOW_UNSIGNED NEUTRAL_OK RUNNER_TEMP [GITHUB_STEP_SUMMARY].
set -eu
: "${BASE_SHA:?run this action on a pull_request event}"
: "${HEAD_SHA:?run this action on a pull_request event}"
: "${HEAD_REPO:?run this action on a pull_request event}"
: "${RUNNER_TEMP:?}"
tmp="$RUNNER_TEMP/speccoder"
mkdir -p "$tmp"

# The commits and the notes.  The notes are data, not trust: a forged or
# moved envelope fails verification.
git fetch -q --no-tags origin "$BASE_SHA"
git fetch -q --no-tags "$HEAD_REPO" "$HEAD_SHA"
if ! git fetch -q --no-tags "$HEAD_REPO" \
	'+refs/notes/speccoder:refs/notes/speccoder'; then
	echo "speccoder: the pull request has no refs/notes/speccoder" >&2
fi

# Trust comes from the base commit only, never from the pull request's tree.
git show "$BASE_SHA:${SIGNERS_PATH:-.speccoder/allowed_signers}" \
	>"$tmp/allowed_signers"

set -- --branch "$HEAD_SHA" --base "$BASE_SHA" \
	--allowed-signers "$tmp/allowed_signers"
if [ "${ALLOW_UNSIGNED:-false}" = true ]; then set -- "$@" --allow-unsigned; fi
if [ "${NEUTRAL_OK:-false}" = true ]; then set -- "$@" --neutral-ok; fi
if sc-attest verify "$@" >"$tmp/results.rec"; then status=0; else status=$?; fi

sc-rec --to-json <"$tmp/results.rec" >"$tmp/results.json"
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
	{
		echo '| commit | outcome | signer | reason |'
		echo '|---|---|---|---|'
		jq -r 'select(.type == "result") |
			"| \(.commit[0:12]) | \(.outcome) | \(.signer // "") | \(.reason // "") |"' \
			"$tmp/results.json"
		jq -r 'select(.type == "conclusion") | "\nConclusion: **\(.result)**"' \
			"$tmp/results.json"
	} >>"$GITHUB_STEP_SUMMARY"
fi
jq -r 'select(.type == "result" and .outcome != "ok") |
	"speccoder: \(.commit): \(.outcome) \(.reason // "")"' "$tmp/results.json" >&2
exit "$status"
