#!/usr/bin/env bash
# The attempt's only contact with the git remote, before and after it:
#   remote.sh fetch   the remote's speccoder/FEATURE (an earlier attempt,
#                     which this one continues) and refs/notes/speccoder
#   remote.sh push    sign the attestations when a key is given, then push
#                     the branch and the notes with git speccoder pr; when
#                     another job pushed notes meanwhile, merge them and
#                     push again
# Inputs (environment): FEATURE RUNNER_TEMP [REMOTE] [PUSH_TOKEN]
# [GITHUB_SERVER_URL] [SIGNING_KEY] [BASE] [GITHUB_OUTPUT] [GITHUB_ACTIONS].
# The token and the signing key exist on disk only during this step, never
# while the agent's commands run, and never on a command line.
set -euo pipefail

# shellcheck source-path=SCRIPTDIR source=common.sh
. "$(dirname "$0")/common.sh"

mode=${1:-}
: "${RUNNER_TEMP:?}"
feature=$(feature_from_env)
remote=${REMOTE:-origin}
valid_name "$remote" || die 2 USAGE "not a remote name"
branch=speccoder/$feature
notes=refs/notes/speccoder
top=$(cd "$(dirname "$0")/../../.." && pwd)
scgit=$top/hooks-guard/sc-git
export XDG_STATE_HOME="$RUNNER_TEMP/speccoder-state"

# Every git call through sc-git: no hook, helper or configured program of
# the repository runs.
g() { "$scgit" "$@"; }

secrets=$(mktemp -d "$RUNNER_TEMP/speccoder-secrets.XXXXXX")
cleanup() {
	git config --local --unset-all include.path "$secrets/auth.gitconfig" 2>/dev/null || true
	rm -rf -- "$secrets"
}
trap cleanup EXIT

mask() { # VALUE: hide it in the job's log (one line at a time)
	local line
	[ "${GITHUB_ACTIONS:-}" = true ] || return 0
	while IFS= read -r line; do
		[ -z "$line" ] || printf '::add-mask::%s\n' "$line"
	done <<<"$1"
}

# The token as an HTTP header for the server's URLs, in a file included by
# the repository's configuration for this step only.  printf is a shell
# builtin: the token is on no command line.
auth() {
	local header
	[ -n "${PUSH_TOKEN:-}" ] || return 0
	mask "$PUSH_TOKEN"
	header=$(printf 'x-access-token:%s' "$PUSH_TOKEN" | base64 -w0)
	mask "$header"
	(umask 077 && printf '[http "%s/"]\n\textraheader = AUTHORIZATION: basic %s\n' \
		"${GITHUB_SERVER_URL:-https://github.com}" "$header" >"$secrets/auth.gitconfig")
	git config --local --add include.path "$secrets/auth.gitconfig"
}

# Which of the refs the remote has.
remote_has() { # REF
	g ls-remote --exit-code -- "$remote" "$1" >/dev/null 2>&1
}

fetch() {
	if remote_has "$notes"; then
		g fetch -q --no-tags -- "$remote" "+$notes:$notes"
	fi
	if remote_has "refs/heads/$branch" &&
		! g rev-parse -q --verify "refs/heads/$branch" >/dev/null; then
		g fetch -q --no-tags -- "$remote" "refs/heads/$branch:refs/heads/$branch"
		echo "speccoder: continuing $branch from $remote"
	fi
}

# Sign what the attempt recorded unsigned, with a key that exists only now.
sign() {
	[ -n "${SIGNING_KEY:-}" ] || return 0
	mask "$SIGNING_KEY"
	(umask 077 && printf '%s\n' "$SIGNING_KEY" >"$secrets/signing-key")
	set -- attest --branch "$branch"
	[ -z "${BASE:-}" ] || set -- "$@" --base "$BASE"
	GIT_CONFIG_COUNT=2 GIT_CONFIG_KEY_0=gpg.format GIT_CONFIG_VALUE_0=ssh \
		GIT_CONFIG_KEY_1=user.signingkey GIT_CONFIG_VALUE_1="$secrets/signing-key" \
		git speccoder "$@"
}

# Another job of the same workflow may have pushed notes since the fetch:
# the notes of different commits merge without conflict.
merge_notes() {
	remote_has "$notes" || return 0
	g fetch -q --no-tags -- "$remote" "+$notes:refs/notes/speccoder-remote"
	g notes --ref speccoder merge -q -s cat_sort_uniq refs/notes/speccoder-remote
}

push() {
	local try status
	if ! g rev-parse -q --verify "refs/heads/$branch" >/dev/null; then
		echo "speccoder: no branch $branch: nothing to push"
		[ -z "${GITHUB_OUTPUT:-}" ] || echo "pushed=false" >>"$GITHUB_OUTPUT"
		return 0
	fi
	# An attempt that committed nothing (it stopped before its first
	# tick) leaves the branch where the checkout is: no pull request.
	if [ "$(g rev-list --count "HEAD..refs/heads/$branch")" -eq 0 ]; then
		echo "speccoder: $branch has no commit the checkout lacks: nothing to push"
		[ -z "${GITHUB_OUTPUT:-}" ] || echo "pushed=false" >>"$GITHUB_OUTPUT"
		return 0
	fi
	sign
	for try in 1 2 3 4 5; do
		status=0
		git speccoder pr "$feature" --remote "$remote" --yes </dev/null || status=$?
		[ "$status" -ne 0 ] || break
		if [ "$status" -ne 4 ] || [ "$try" -eq 5 ]; then
			die "$status" PUSH-FAILED "could not push $branch"
		fi
		merge_notes
		sleep $((try + RANDOM % 3))
	done
	[ -z "${GITHUB_OUTPUT:-}" ] || {
		echo "pushed=true"
		echo "branch=$branch"
	} >>"$GITHUB_OUTPUT"
}

auth
case "$mode" in
fetch) fetch ;;
push) push ;;
*) die 2 USAGE "usage: remote.sh fetch|push" ;;
esac
