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
git speccoder verify --branch speccoder/greeting --base main 2>&1 | sed 's/^/  /'

step "the journal: every call, verdict and answer, masked"
show "git speccoder report"
git speccoder report | sed 's/^/  /' | cut -c1-160
if grep -rqF "$DEMO_API_KEY" "$XDG_STATE_HOME"; then
	echo "  the key was found in the state directory: this is a bug" >&2
	exit 1
fi
echo
echo "the key never reached the journal, the logs or the model's conversation."
