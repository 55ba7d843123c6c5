#!/usr/bin/env bats
# Reading credentials from inside the sandbox, every way round: each must
# fail, and the same read outside the sandbox must work (so the test can).

# shellcheck disable=SC2016 # '$' is for the inner shell
load ../lib/common
load ../lib/sandbox

setup() {
	sb_setup
	sb_require_full
}
teardown() { sb_teardown; }

secrets=".ssh/id_ed25519 .aws/credentials .config/gh/hosts.yml .netrc .npmrc .git-credentials"

@test "each credential is readable outside the sandbox (the tests can fail)" {
	for p in $secrets; do
		run cat "$HOME/$p"
		assert_success
		assert_output --regexp 'SECRET|KEY|TOKEN'
	done
}

@test "credential directories look empty inside" {
	run --separate-stderr sb -- ls -A "$HOME/.ssh" "$HOME/.aws" "$HOME/.config/gh" "$HOME/.gnupg"
	assert_success
	refute_output --regexp 'id_ed25519|credentials|hosts.yml'
}

@test "credential files read as empty, credential dirs lose their files" {
	for p in $secrets; do
		run --separate-stderr sb -- cat "$HOME/$p"
		refute_output --regexp 'SECRET|KEY|TOKEN'
		[ "$status" -eq 0 ] || [ "$status" -eq 1 ]
	done
	run --separate-stderr sb -- cat "$HOME/.ssh/id_ed25519"
	assert_failure 1
	run --separate-stderr sb -- cat "$HOME/.netrc"
	assert_success
	assert_output ""
}

@test "every secret the policy names is hidden in the home too: .pgpass, .vault-token, _netrc, gcloud" {
	# sc-classify denies these by name (deny.secret-file); the sandbox
	# hides the same list (lib/policy/protected.c) under the home
	mkdir -p "$HOME/.config/gcloud"
	echo "PG-SECRET" >"$HOME/.pgpass"
	echo "VAULT-TOKEN" >"$HOME/.vault-token"
	echo "NETRC-SECRET" >"$HOME/_netrc"
	echo "GCLOUD-SECRET" >"$HOME/.config/gcloud/credentials.db"
	for p in .pgpass .vault-token _netrc .config/gcloud/credentials.db; do
		run cat "$HOME/$p"
		assert_output --regexp 'SECRET|TOKEN'
		run --separate-stderr sb -- cat "$HOME/$p"
		refute_output --regexp 'SECRET|TOKEN'
	done
}

@test "the rest of HOME stays readable" {
	run --separate-stderr sb -- cat "$HOME/notes.txt"
	assert_success
	assert_output ordinary
}

@test "through a symlink planted in the root" {
	ln -s "$HOME/.ssh/id_ed25519" "$ROOT/key"
	ln -s "$HOME/.netrc" "$ROOT/netrc"
	ln -s "$HOME/.aws" "$ROOT/aws"
	run cat "$ROOT/key"
	assert_output SSH-PRIVATE-KEY
	run --separate-stderr sb -- sh -c 'cat key; cat netrc; cat aws/credentials'
	refute_output --regexp 'SECRET|KEY'
}

@test "through /proc/self/root and .. paths" {
	run cat "/proc/self/root$HOME/.ssh/id_ed25519"
	assert_output SSH-PRIVATE-KEY
	run --separate-stderr sb -- cat "/proc/self/root$HOME/.ssh/id_ed25519"
	assert_failure 1
	run --separate-stderr sb -- cat "$ROOT/../home/./.ssh/../.ssh/id_ed25519"
	assert_failure 1
	run --separate-stderr sb -- cat "/proc/1/root$HOME/.netrc"
	refute_output --partial SECRET
}

@test "a hard link to a hidden file cannot be made in the root" {
	run --separate-stderr sb -- ln "$HOME/.netrc" "$ROOT/netrc"
	assert_failure 1
	run --separate-stderr sb -- ln "$HOME/.ssh/id_ed25519" "$ROOT/key"
	assert_failure 1
	[ ! -e "$ROOT/key" ]
}

@test "a symlinked credential directory is hidden where it points" {
	mkdir -p "$SC_TMP/outside/kube"
	echo "KUBE-SECRET" >"$SC_TMP/outside/kube/config"
	ln -s "$SC_TMP/outside/kube" "$HOME/.kube"
	run cat "$HOME/.kube/config"
	assert_output KUBE-SECRET
	run --separate-stderr sb -- cat "$HOME/.kube/config"
	assert_failure 1
	run --separate-stderr sb -- cat "$SC_TMP/outside/kube/config"
	assert_failure 1
}

@test "through a second mount of the home directory (a bind mount elsewhere)" {
	unshare -m true 2>/dev/null || skip "cannot make a mount namespace here"
	mkdir "$SC_TMP/alias"
	# In a mount namespace of the test's own: the host's mounts stay as they are.
	run unshare -m sh -c 'mount --bind "$HOME" "$1" && cat "$1/.ssh/id_ed25519" "$1/.netrc"' sh "$SC_TMP/alias"
	assert_success
	assert_output --partial SSH-PRIVATE-KEY
	for t in full landlock; do
		run --separate-stderr unshare -m sh -c 'mount --bind "$HOME" "$1" && exec sc-sandbox-exec --tier "$2" --mode auto --root "$ROOT" -- sh -c "cat \"\$0/.ssh/id_ed25519\"; cat \"\$0/.netrc\"; cat \"\$0/notes.txt\"" "$1"' sh "$SC_TMP/alias" "$t"
		refute_output --regexp 'SECRET|KEY'
		assert_output --partial ordinary
	done
}

@test "--hide adds a file and a directory" {
	echo "EXTRA-SECRET" >"$SC_TMP/outside/token"
	mkdir "$SC_TMP/outside/vault"
	echo "VAULT-SECRET" >"$SC_TMP/outside/vault/key"
	run --separate-stderr sb --hide "$SC_TMP/outside/token" \
		--hide "$SC_TMP/outside/vault" -- \
		sh -c 'cat "$0/token"; cat "$0/vault/key"' "$SC_TMP/outside"
	refute_output --partial SECRET
	run --separate-stderr sb -- cat "$SC_TMP/outside/token"
	assert_output EXTRA-SECRET
}

@test "a hidden mask cannot be unmounted" {
	sb_build_attack
	run --separate-stderr sb -- "$ATTACK" umount "$HOME/.ssh"
	assert_failure 1
	run --separate-stderr sb -- "$ATTACK" umount "$HOME/.netrc"
	assert_failure 1
}

@test "the environment loses secret-looking variables" {
	run --separate-stderr env GITHUB_TOKEN=ghp_secretvalue \
		AWS_SECRET_ACCESS_KEY=awssecretvalue MY_PASSWORD=pw12345678 \
		sc-sandbox-exec --root "$ROOT" -- env
	assert_success
	refute_output --partial secretvalue
	refute_output --partial pw12345678
}
