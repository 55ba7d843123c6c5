# Helpers for the sc-hash-git, sc-git and guard tests.
# shellcheck shell=bash

# Every test's git runs without the host's configuration.
hg_setup() {
	export HOME="$SC_TMP/home"
	mkdir -p "$HOME"
	export GIT_CONFIG_NOSYSTEM=1
	unset XDG_CONFIG_HOME GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE
	export GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@example.com
	export GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@example.com
}

# hg_repo DIR: a repository with one commit on main, a tag and a hook.
hg_repo() {
	git init -q -b main "$1"
	printf 'hello\n' >"$1/README"
	git -C "$1" add README
	git -C "$1" commit -q -m initial
	git -C "$1" tag v1
	printf '#!/bin/sh\nexit 0\n' >"$1/.git/hooks/pre-commit"
	chmod +x "$1/.git/hooks/pre-commit"
}

# hg_json FILE: the records in FILE as JSON Lines on stdout.
hg_json() {
	sc-rec --to-json <"$1"
}

# hg_findings FILE: one "code kind item change" line a finding (INTEGRITY:
# "INTEGRITY - path change").
hg_findings() {
	hg_json "$1" | jq -r 'select(.type=="finding") |
		"\(.code) \(.kind // "-") \(.item // .path) \(.change)"'
}

# hg_marker_tools DIR: programs that leave a line in DIR/marker when run,
# whatever arguments or stdin git gives them.
hg_marker_tools() {
	local d="$1"
	mkdir -p "$d/bin" "$d/evilhooks"
	cat >"$d/bin/mark" <<MARK
#!/bin/sh
echo "ran: \$0 \$*" >>"$d/marker"
exit 0
MARK
	chmod +x "$d/bin/mark"
	for h in pre-commit post-checkout post-index-change reference-transaction \
		fsmonitor-watchman pre-auto-gc post-commit; do
		printf '#!/bin/sh\necho "hook: %s" >>"%s/marker"\n' "$h" "$d" \
			>"$d/evilhooks/$h"
		chmod +x "$d/evilhooks/$h"
	done
}

# hg_hostile_repo DIR TOOLS: a repository whose config and hooks would run
# TOOLS/bin/mark from nearly every git command.
hg_hostile_repo() {
	local r="$1" m="$2/bin/mark"
	hg_repo "$r"
	printf '* filter=evil diff=evil merge=evil\n' >"$r/.gitattributes"
	git -C "$r" add .gitattributes
	git -C "$r" commit -q -m attributes
	cp "$2"/evilhooks/* "$r/.git/hooks/"
	cat >"$2/included.cfg" <<CFG
[core]
	fsmonitor = $m
[gpg "ssh"]
	program = $m
CFG
	cat >>"$r/.git/config" <<CFG
[core]
	fsmonitor = $m
	hooksPath = $2/evilhooks
	pager = $m
	editor = $m
	askPass = $m
	sshCommand = $m
	gitProxy = $m
[filter "evil"]
	clean = $m
	smudge = $m
	process = $m
	required = false
[diff]
	external = $m
[diff "evil"]
	command = $m
	textconv = $m
[merge "evil"]
	driver = $m
[alias]
	st = !$m alias
[gpg]
	program = $m
[credential]
	helper = !$m
[include]
	path = $2/included.cfg
CFG
	# a tracked file changed, so status has to look at (and filter) it
	printf 'changed\n' >>"$r/README"
}

# hg_jq FILE FILTER: jq -r FILTER over the records in FILE.
hg_jq() {
	sc-rec --to-json <"$1" | jq -r "$2"
}

