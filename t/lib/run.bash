# Helpers for git speccoder run's tests: the demo project as a scratch
# repository, with its own HOME and state directory, and transcripts.
# shellcheck shell=bash

PATH="$SC_TOP/bin:$PATH"
export PATH

# A fresh copy of contrib/demo/project, committed, in $SC_TMP/repo, with a
# git-ignored .env holding a key; cd into it.
run_demo_repo() {
	export HOME="$SC_TMP/home" XDG_STATE_HOME="$SC_TMP/state"
	export GIT_CONFIG_GLOBAL=/dev/null
	export DEMO_API_KEY="sk-demo-$RANDOM$RANDOM-abcdefghijklmnop"
	mkdir -p "$HOME/.ssh"
	printf 'fake-private-key-material\n' >"$HOME/.ssh/id_rsa"
	cp -R "$SC_TOP/contrib/demo/project" "$SC_TMP/repo"
	cd "$SC_TMP/repo" || return 1
	git init -q -b main .
	git config user.email test@example.invalid
	git config user.name test
	git add -A
	git commit -q -m "the demo project"
	printf 'API_KEY=%s\n' "$DEMO_API_KEY" >.env
}

# Skip, saying why, where the full sandbox tier cannot run.
run_need_userns() {
	if ! unshare -U -r true 2>/dev/null; then
		skip "user namespaces are not available: the full sandbox tier cannot run here"
	fi
}

# The worktree of FEATURE.
run_worktree() { # FEATURE
	printf '%s\n' "$XDG_STATE_HOME"/speccoder/*/worktrees/"$1"
}

# The newest run's journal as JSON Lines.
run_journal_json() {
	local j
	j=$(find "$XDG_STATE_HOME" -name journal -path '*/runs/*' | sort | tail -n 1)
	sc-rec --to-json <"$j"
}

# Everything the run left where a person or a log could read it: the
# state directory's files and the run's output.
# shellcheck disable=SC2154 # bats run sets output
run_all_text() {
	find "$XDG_STATE_HOME" -type f ! -name conversation -exec cat {} + 2>/dev/null
	printf '%s\n%s\n' "$output" "${stderr:-}"
}

# A transcript at $SC_TMP/t: the model writes PATH with CONTENT,
# implements the demo's task (greet.sh) and says it is done.
run_model_writes() { # PATH CONTENT
	jq -cn --arg p "$1" --arg c "$2" '{type:"turn"},
		{type:"call",id:"c1",tool:"write",path:$p,content:$c},
		{type:"call",id:"c2",tool:"write",path:"greet.sh",content:"#!/bin/sh\necho \"Hello, ${1:-world}!\"\n"},
		{type:"turn"}, {type:"text",text:"done"}' >"$SC_TMP/t"
}

# The attempt at the demo's feature with that transcript: no person, no
# retry.
run_attempt() {
	run --separate-stderr git speccoder run greeting --no-prompt \
		--transcript "$SC_TMP/t" --retries 0
}
