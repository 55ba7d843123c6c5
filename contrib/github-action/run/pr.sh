#!/usr/bin/env bash
# Open a pull request for speccoder/FEATURE (or update the one that is
# open), its body linking the attempt's HTML report and journal.
# Inputs (environment): FEATURE GH_TOKEN RESULT CODE STATUS [BASE]
# [ARTIFACT_URL] [GITHUB_SERVER_URL GITHUB_REPOSITORY GITHUB_RUN_ID]
# [DRAFT_ON_FAILURE] [GITHUB_OUTPUT].  Uses the gh CLI (on GitHub's hosted
# runners).  Only fixed-form words reach the body: the journal's text is
# the model's and commands', and stays in the report.
# shellcheck disable=SC2016 # backquotes are Markdown code spans here
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=common.sh
. "$(dirname "$0")/common.sh"

: "${RUNNER_TEMP:?}"
feature=$(feature_from_env)
branch=speccoder/$feature
base=${BASE:-}
[ -z "$base" ] || valid_name "${base//\//_}" || die 2 USAGE "not a branch name"
result=${RESULT:-none}
case "$result" in *[!a-z-]*) result=unknown ;; esac
code=${CODE:-}
case "$code" in *[!A-Z-]*) code='' ;; esac
status=${STATUS:-}
case "$status" in ''|*[!0-9]*) status='?' ;; esac
runurl=''
if [ -n "${GITHUB_RUN_ID:-}" ] && [ -n "${GITHUB_REPOSITORY:-}" ]; then
	runurl="${GITHUB_SERVER_URL:-https://github.com}/$GITHUB_REPOSITORY/actions/runs/$GITHUB_RUN_ID"
fi
report=${ARTIFACT_URL:-$runurl}
case "$report" in
''|https://*) ;;
*) die 2 USAGE "the artifact URL is not https" ;;
esac

body="$RUNNER_TEMP/speccoder-pr-body.md"
{
	printf 'An attempt by `git speccoder run %s --no-prompt` in CI.\n\n' "$feature"
	printf -- '- Result: **%s**' "$result"
	[ -z "$code" ] || printf ' (`%s`)' "$code"
	printf ', exit status %s\n' "$status"
	if [ -n "$report" ]; then
		printf -- '- Report: [the HTML report and the journal](%s) ' "$report"
		printf '(artifact `speccoder-%s`: `report.html`, `journal`, `journal.jsonl`)\n' "$feature"
	fi
	[ -z "$runurl" ] || printf -- '- Run: %s\n' "$runurl"
	printf -- '- Attestations: `refs/notes/speccoder`, checked by the verify action\n\n'
	printf 'Review the diff with the report beside it: every call, verdict and answer is there.\n'
} >"$body"

title="speccoder: $feature"
open=$(gh pr list --head "$branch" --state open --json url --jq '.[0].url // ""')
if [ -n "$open" ]; then
	gh pr edit "$open" --body-file "$body"
	url=$open
else
	set -- pr create --head "$branch" --title "$title" --body-file "$body"
	[ -z "$base" ] || set -- "$@" --base "$base"
	if [ "$result" != success ] && [ "${DRAFT_ON_FAILURE:-true}" = true ]; then
		set -- "$@" --draft
	fi
	url=$(gh "$@" | tail -n 1)
fi
printf 'speccoder: pull request %s\n' "$url"
[ -z "${GITHUB_OUTPUT:-}" ] || echo "pull-request=$url" >>"$GITHUB_OUTPUT"
