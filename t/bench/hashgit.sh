#!/bin/bash
# Benchmark: sc-hash-git against the git plumbing pipeline that hashes the
# same things, on a repository with 100,000 refs (packed) and 50 hooks:
#   git for-each-ref --format='%(objectname) %(refname)' | sha256sum
#   plus sha256sum over the hooks.
# Prints each mean and the ratio (peer / sc-hash-git: above 1 means faster).
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
hash_git="$top/build/bin/sc-hash-git"
refs=${BENCH_REFS:-100000}
hooks=${BENCH_HOOKS:-50}
command -v hyperfine >/dev/null || { echo "hashgit: hyperfine is missing; skipped"; exit 0; }
[ -x "$hash_git" ] || { echo "hashgit: build first (make)"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/bench-hashgit.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
export GIT_CONFIG_NOSYSTEM=1 HOME="$work" LC_ALL=C
export GIT_AUTHOR_NAME=b GIT_AUTHOR_EMAIL=b@example.com
export GIT_COMMITTER_NAME=b GIT_COMMITTER_EMAIL=b@example.com

repo="$work/repo"
git init -q -b main "$repo"
git -C "$repo" commit -q --allow-empty -m one
oid=$(git -C "$repo" rev-parse HEAD)
# Written as git pack-refs writes it (sorted, heads before tags), because
# creating 100,000 refs through update-ref takes minutes.
awk -v n="$refs" -v oid="$oid" 'BEGIN {
	print "# pack-refs with: peeled fully-peeled sorted "
	for (i = 0; i < n; i++) if (i % 10) printf "%s refs/heads/b%06d\n", oid, i
	for (i = 0; i < n; i++) if (!(i % 10)) printf "%s refs/tags/b%06d\n", oid, i
}' >"$repo/.git/packed-refs"
rm -f "$repo/.git/refs/heads/main"
printf '%s refs/heads/main\n' "$oid" >>"$repo/.git/packed-refs"
LC_ALL=C sort -k2 -o "$repo/.git/packed-refs.body" <(tail -n +2 "$repo/.git/packed-refs")
{ head -n 1 "$repo/.git/packed-refs"; cat "$repo/.git/packed-refs.body"; } >"$repo/.git/packed-refs.new"
mv "$repo/.git/packed-refs.new" "$repo/.git/packed-refs"
rm "$repo/.git/packed-refs.body"
[ "$(git -C "$repo" for-each-ref | wc -l)" -eq "$((refs + 1))" ] || { echo "hashgit: set-up failed"; exit 1; }
rm -f "$repo"/.git/hooks/*
for i in $(seq 1 "$hooks"); do
	head -c 4096 /dev/urandom | base64 >"$repo/.git/hooks/hook$i"
	chmod +x "$repo/.git/hooks/hook$i"
done

peer="git -C '$repo' for-each-ref --format='%(objectname) %(refname)' | sha256sum; sha256sum '$repo'/.git/hooks/* >/dev/null"
ours="'$hash_git' -C '$repo' >/dev/null"
echo "hashgit: $refs refs (packed), $hooks hooks"
hyperfine --warmup 2 --runs 10 --export-json "$work/r.json" \
	-n sc-hash-git "$ours" -n git-plumbing "$peer" >/dev/null
# Wall time, and CPU time (user + system), steadier on a shared machine.
jq -r '.results | (map({(.command): .mean}) | add) as $m |
	(map({(.command): (.user + .system)}) | add) as $c |
	"sc-hash-git   \($m["sc-hash-git"] * 1000 | floor) ms (cpu \($c["sc-hash-git"] * 1000 | floor) ms)\n" +
	"git-plumbing  \($m["git-plumbing"] * 1000 | floor) ms (cpu \($c["git-plumbing"] * 1000 | floor) ms)\n" +
	"ratio (git-plumbing / sc-hash-git): wall \($m["git-plumbing"] / $m["sc-hash-git"] * 100 | floor / 100), cpu \($c["git-plumbing"] / $c["sc-hash-git"] * 100 | floor / 100)"' \
	"$work/r.json"
