#!/bin/bash
# Benchmark: sc-attest verify over 1,000 attested commits against
# git log --show-signature over the same 1,000 commits SSH-signed with the
# same key (git runs ssh-keygen once per commit).  Prints the ratio; the
# goal is at least 10x.  Run by `make bench`; not a test.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
PATH="$top/build/bin:$PATH"
n=${SC_BENCH_COMMITS:-1000}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/sc-bench-attest.XXXXXX")
trap 'rm -rf -- "$tmp"' EXIT

export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
export GIT_AUTHOR_NAME=bench GIT_AUTHOR_EMAIL=bench@example.com
export GIT_COMMITTER_NAME=bench GIT_COMMITTER_EMAIL=bench@example.com

ssh-keygen -q -t ed25519 -N '' -C bench -f "$tmp/key"
printf 'bench@example.com %s\n' "$(cut -d' ' -f1,2 "$tmp/key.pub")" >"$tmp/allowed"
printf '{"result":"PASSED"}\n' >"$tmp/pred.json"

git init -q -b main "$tmp/repo"
git -C "$tmp/repo" config gpg.format ssh
git -C "$tmp/repo" config user.signingkey "$tmp/key"
git -C "$tmp/repo" config gpg.ssh.allowedSignersFile "$tmp/allowed"
echo "attest: making $n SSH-signed, attested commits (takes a while)" >&2
for i in $(seq 1 "$n"); do
	git -C "$tmp/repo" commit -q -S --allow-empty -m "c$i"
	sc-attest -C "$tmp/repo" record --commit HEAD --key "$tmp/key" \
		--predicate-type https://in-toto.io/attestation/test-result/v0.1 \
		--predicate "$tmp/pred.json" >/dev/null
done

# Both must accept every commit before they are timed.
sc-attest -C "$tmp/repo" verify --branch main --allowed-signers "$tmp/allowed" \
	>/dev/null
good=$(git -C "$tmp/repo" log --format='%G?' main | grep -c '^G' || true)
[ "$good" -eq "$n" ] || { echo "attest: git found $good good signatures" >&2; exit 1; }

hyperfine --style basic --warmup 0 --runs 3 --export-json "$tmp/h.json" \
	-n sc-attest "sc-attest -C '$tmp/repo' verify --branch main --allowed-signers '$tmp/allowed'" \
	-n git "git -C '$tmp/repo' log --show-signature main" >&2
jq -r '.results as $r | ($r[] | select(.command == "git") | .mean) as $g |
	($r[] | select(.command == "sc-attest") | .mean) as $s |
	"attest: sc-attest verify \($s * 1000 | floor) ms, git log --show-signature \($g * 1000 | floor) ms, ratio \($g / $s * 10 | floor / 10)x (goal >= 10x)"' \
	"$tmp/h.json"
