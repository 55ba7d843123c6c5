#!/usr/bin/env bash
# One attempt at FEATURE on a CI runner: git speccoder run --no-prompt, then
# the HTML report and the journal into the artifacts directory.
# Inputs (environment): FEATURE RUNNER_TEMP; PROVIDER [MODEL] [ENDPOINT]
# SC_MODEL_KEY (the key, from a secret) or TRANSCRIPT (a recorded
# transcript, offline); [HELD_OUT] (a directory of held-out tests outside
# the checkout); [GITHUB_OUTPUT] [GITHUB_STEP_SUMMARY] [GITHUB_ACTIONS].
# Outputs: status, result, code, run, artifacts.  The step succeeds when the
# attempt ran, whatever its result: the action's last step reports it, after
# the artifacts and the pull request.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=common.sh
. "$(dirname "$0")/common.sh"

: "${RUNNER_TEMP:?}"
feature=$(feature_from_env)

# The key is masked in the job's log before anything else can print it,
# and it reaches git speccoder run only through the provider's variable:
# never a command line, never a file.
key=${SC_MODEL_KEY:-}
unset SC_MODEL_KEY
if [ -n "$key" ] && [ "${GITHUB_ACTIONS:-}" = true ]; then
	printf '::add-mask::%s\n' "$key"
fi

provider=${PROVIDER:-anthropic}
case "$provider" in
anthropic) keyvar=ANTHROPIC_API_KEY ;;
openai) keyvar=OPENAI_API_KEY ;;
bedrock) keyvar='' ;;
*) die 2 USAGE "unknown provider (anthropic, openai or bedrock)" ;;
esac
if [ -n "$keyvar" ] && [ -n "$key" ]; then
	export "$keyvar=$key"
elif [ -n "$key" ]; then
	die 2 USAGE "bedrock takes AWS credentials from the environment, not model-key"
fi
set -- run "$feature" --no-prompt
if [ -n "${TRANSCRIPT:-}" ]; then
	# Offline: the recorded answers (the key, when given, is still in the
	# environment, masked, as it is with a provider).
	set -- "$@" --transcript "$TRANSCRIPT"
else
	[ -z "$keyvar" ] || [ -n "$key" ] ||
		die 2 NO-KEY "no model key: set the model-key input from a repository secret"
	set -- "$@" --provider "$provider"
	[ -z "${MODEL:-}" ] || set -- "$@" --model "$MODEL"
	[ -z "${ENDPOINT:-}" ] || set -- "$@" --endpoint "$ENDPOINT"
fi
unset key

# The attempt's state: one private directory of this job's own.
export XDG_STATE_HOME="$RUNNER_TEMP/speccoder-state"
art="$RUNNER_TEMP/speccoder-artifacts"
(umask 077 && mkdir -p "$XDG_STATE_HOME" "$art")

# The commits' identity, unless the workflow set one.
git config user.email >/dev/null ||
	git config user.email "${GIT_USER_EMAIL:-41898282+github-actions[bot]@users.noreply.github.com}"
git config user.name >/dev/null ||
	git config user.name "${GIT_USER_NAME:-github-actions[bot]}"

# Held-out tests, when given: sealed into the state directory (hidden from
# every command) and their checkout removed before the attempt starts, so
# no command of the model can read them.  Outside the checkout only.
if [ -n "${HELD_OUT:-}" ]; then
	held=$(cd "$HELD_OUT" 2>/dev/null && pwd -P) ||
		die 2 USAGE "held-out is not a directory"
	here=$(pwd -P)
	case "$held/" in
	"$here"/*) die 2 USAGE "held-out must be outside the checkout" ;;
	esac
	git speccoder seal "$feature" "$held" </dev/null
	rm -rf -- "$held"
fi

# What the sandbox can enforce on this runner, in the log.
git speccoder doctor </dev/null || true

status=0
git speccoder "$@" </dev/null || status=$?

# The report and the journal of the run it made (the only one here).  The
# journal was masked as it was written; the page is masked again whole.
run=$(find "$XDG_STATE_HOME/speccoder" -mindepth 3 -maxdepth 3 -type d \
	-path '*/runs/*' -printf '%f\n' 2>/dev/null | sort | tail -n 1)
result=none code=NO-RUN
if [ -n "$run" ]; then
	git speccoder report --html "$run" >"$art/report.html" || true
	journal=$(find "$XDG_STATE_HOME/speccoder" -path "*/runs/$run/journal" -type f | head -n 1)
	if [ -n "$journal" ]; then
		cp -- "$journal" "$art/journal"
		sc-rec --to-json <"$journal" >"$art/journal.jsonl" || true
		# Only words of fixed forms leave the journal here: they go into
		# the log, the outputs and the pull request's text.
		end=$(jq -r 'select(.type == "end" and .command == "run") |
			"\(.result // "") \(.code // "")"' "$art/journal.jsonl" | tail -n 1)
		read -r r c <<<"$end" || true
		case "${r:-}" in ''|*[!a-z-]*) ;; *) result=$r ;; esac
		case "${c:-}" in ''|*[!A-Z-]*) code='' ;; *) code=$c ;; esac
	fi
fi

printf 'speccoder: %s: attempt %s (%s), exit %d\n' "$feature" "$result" "${code:-?}" "$status"
if [ -n "${GITHUB_OUTPUT:-}" ]; then
	{
		echo "status=$status"
		echo "result=$result"
		echo "code=$code"
		echo "run=$run"
		echo "artifacts=$art"
	} >>"$GITHUB_OUTPUT"
fi
if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
	# shellcheck disable=SC2016 # a Markdown code span
	printf '### speccoder %s\n\nResult: **%s** (`%s`), exit %d\n' \
		"$feature" "$result" "${code:-?}" "$status" >>"$GITHUB_STEP_SUMMARY"
fi
