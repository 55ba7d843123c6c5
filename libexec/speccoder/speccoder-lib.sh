# speccoder-lib.sh: what every driver shares.  Sourced, never executed.
# Drivers stay thin: they find tools, call them, and move their records;
# every decision is made by an sc-* tool.
# shellcheck shell=bash

# Everything a driver creates is private: the state directory, the journal,
# the logs of checks.
umask 077

# The output cap of every sandboxed command a driver runs (a check, a
# held-out test, a command of the model): bytes of stdout and of stderr
# each; git-speccoder(1) names it.  A test printing a gigabyte on one line
# fills neither the state directory nor the terminal.
# shellcheck disable=SC2034 # the drivers use it
SC_MAX_OUTPUT=1048576

# The name in diagnostics: "git-speccoder CMD".
SC_PROG="git-speccoder ${SC_CMD:-}"
SC_PROG=${SC_PROG% }

# TEXT with its control characters as '?': a diagnostic often quotes a
# name a command or the model chose, and an escape sequence in it must not
# reach the person's terminal (as sc_sanitize does for the C tools).
# Untrusted TEXT as one line a terminal can show, through sc-rec
# --for-terminal: the cleaning function of the C tools (controls, C1 raw
# or UTF-8, bidi and invisible characters, bytes that are not UTF-8), its
# newlines then made '?'.  Without the tools (a broken install, reported
# elsewhere) every byte but printable ASCII goes.
sc_printable() { # TEXT
	local t LC_ALL=C
	if t=$(sc_tool_find sc-rec); then
		printf '%s' "$1" | "$t" --for-terminal | tr '\n' '?'
	else
		printf '%s' "${1//[^ -~]/?}"
	fi
}

sc_error() { # CODE TEXT
	printf '%s: error[%s]: %s\n' "$SC_PROG" "$(sc_printable "$1")" \
		"$(sc_printable "$2")" >&2
}

sc_warning() { # CODE TEXT
	printf '%s: warning[%s]: %s\n' "$SC_PROG" "$(sc_printable "$1")" \
		"$(sc_printable "$2")" >&2
}

sc_die() { # STATUS CODE TEXT
	sc_error "$2" "$3"
	exit "$1"
}

# Colours only on a terminal, and never with NO_COLOR set (any value).
# shellcheck disable=SC2034 # the drivers use them
sc_colour_init() {
	if [ -t 1 ] && [ -z "${NO_COLOR+set}" ] && [ "${TERM:-dumb}" != dumb ]; then
		SC_BOLD=$(printf '\033[1m') SC_RED=$(printf '\033[31m')
		SC_GREEN=$(printf '\033[32m') SC_YELLOW=$(printf '\033[33m')
		SC_RESET=$(printf '\033[0m')
	else
		SC_BOLD='' SC_RED='' SC_GREEN='' SC_YELLOW='' SC_RESET=''
	fi
}

# The path of tool NAME: the source tree's build/bin when git-speccoder runs
# from the source tree (a Makefile and lib/record.h beside its bin/), else
# beside git-speccoder; exit 4 when it is not built.  An installed
# git-speccoder never takes a tool from some unrelated build/ directory.
# The path of tool NAME, or status 1 when there is none (never dies).
sc_tool_find() { # NAME
	local bindir=${SPECCODER_BINDIR:-} t
	[ -n "$bindir" ] || return 1
	if [ -f "$bindir/../Makefile" ] && [ -f "$bindir/../lib/record.h" ]; then
		t=$bindir/../build/bin/$1
	else
		t=$bindir/$1
	fi
	[ -x "$t" ] || return 1
	printf '%s\n' "$t"
}

sc_tool() { # NAME
	[ -n "${SPECCODER_BINDIR:-}" ] || sc_die 4 TOOL-MISSING "run through git speccoder"
	sc_tool_find "$1" ||
		sc_die 4 TOOL-MISSING "$1 is not built here: run 'make' (or install speccoder)"
}

# The path of hooks-guard program NAME (sc-git): beside the drivers
# once installed (libexec/speccoder/hooks-guard), at the top of the source
# tree otherwise.
sc_guard_tool() { # NAME
	_here=$(cd "$(dirname "$0")" && pwd -P)
	for _t in "$_here/hooks-guard/$1" "$_here/../../hooks-guard/$1"; do
		if [ -x "$_t" ]; then
			printf '%s\n' "$_t"
			return 0
		fi
	done
	sc_die 4 TOOL-MISSING "hooks-guard/$1 is not installed beside the drivers"
}

# A name that becomes part of a path: [A-Za-z0-9._-]+, no leading . or -,
# so no argument reaches outside the state directory.
sc_valid_name() { # NAME
	case "$1" in
	''|.*|-*|*[!A-Za-z0-9._-]*) return 1 ;;
	esac
	return 0
}

# The top of the repository the user is in.
sc_repo_top() {
	git rev-parse --show-toplevel 2>/dev/null ||
		sc_die 4 NOT-A-REPOSITORY "not inside a git work tree"
}

# The state directory of this repository, created 0700:
# $XDG_STATE_HOME/speccoder/<name>-<digest of the git common dir>.
sc_state_dir() {
	_gd=$(git rev-parse --git-common-dir 2>/dev/null) ||
		sc_die 4 NOT-A-REPOSITORY "not inside a git repository"
	_common=$(cd "$_gd" && pwd -P) ||
		sc_die 4 NOT-A-REPOSITORY "not inside a git repository"
	_name=$(basename "$(dirname "$_common")" | tr -c 'A-Za-z0-9._\n-' '_')
	case "$_name" in .*|-*|'') _name="repo$_name" ;; esac
	_digest=$(printf '%s' "$_common" | sha256sum | cut -c1-12)
	_base=${XDG_STATE_HOME:-${HOME:?HOME is not set}/.local/state}/speccoder
	_dir="$_base/$_name-$_digest"
	(umask 077 && mkdir -p "$_dir") ||
		sc_die 5 STATE-DIR "cannot create the state directory"
	chmod 700 "$_base" "$_dir"
	printf '%s\n' "$_dir"
}

# A new run's directory under the state directory, 0700; prints its path.
# Run ids sort by start time: YYYYmmddTHHMMSSZ-PID.
sc_run_dir() { # STATE-DIR
	_id=$(date -u +%Y%m%dT%H%M%SZ)-$$
	(umask 077 && mkdir -p "$1/runs/$_id") ||
		sc_die 5 STATE-DIR "cannot create the run directory"
	printf '%s\n' "$1/runs/$_id"
}

# Append one event to the journal JOURNAL: the fields given (NAME=VALUE,
# type= first), with time= added, every value masked by sc-mask before a
# byte reaches the file, the file 0600 and fsync'd after the event.
sc_journal() { # JOURNAL NAME=VALUE...
	_journal=$1
	shift
	_rec=$(sc_tool sc-rec)
	_mask=$(sc_tool sc-mask)
	(umask 077 && : >>"$_journal") || sc_die 5 JOURNAL "cannot write the journal"
	"$_rec" "$@" "time=$(date -u +%Y-%m-%dT%H:%M:%SZ)" | sc_mask_filter "$_mask" \
		--records-stream --all-fields >>"$_journal"
	# Both sides, whatever the caller's pipefail: an event is never dropped
	# silently.
	local jst=("${PIPESTATUS[@]}")
	if [ "${jst[0]}" -ne 0 ] || [ "${jst[1]}" -ne 0 ]; then
		sc_die 5 JOURNAL "cannot write the journal"
	fi
	sync "$_journal" || sc_die 5 JOURNAL "cannot sync the journal"
}

# Run sc-mask (path MASK) with the secrets of the environment and, when
# SC_SECRETS_FILE names one, the project's secrets file; and, when
# SC_MASK_INCLUDED names one, the secrets of the included files an
# attempt copied into its worktree (type=secret records sc-tree include
# wrote in the run directory: never read back from the worktree).
sc_mask_filter() { # MASK ARG...
	_m=$1
	shift
	local -a _inc=()
	[ -z "${SC_MASK_INCLUDED:-}" ] || _inc=(--records "$SC_MASK_INCLUDED")
	if [ -n "${SC_SECRETS_FILE:-}" ]; then
		"$_m" --env --secrets-file "$SC_SECRETS_FILE" "${_inc[@]}" "$@"
	else
		"$_m" --env "${_inc[@]}" "$@"
	fi
}

# The project configuration file, when there is one.
sc_conf_file() { # TOP
	printf '%s\n' "$1/speccoder.conf"
}

# The value of KEY in the project configuration, or DEFAULT when the file
# or the key is absent.  A malformed file ends the driver (exit 2).
sc_conf_get() { # TOP KEY DEFAULT
	_file=$(sc_conf_file "$1")
	if [ ! -e "$_file" ]; then
		printf '%s\n' "$3"
		return 0
	fi
	_cfg=$(sc_tool sc-config)
	_st=0
	"$_cfg" --file "$_file" --get "$2" || _st=$?
	case "$_st" in
	0) ;;
	1) printf '%s\n' "$3" ;;
	3) exit 2 ;;   # malformed: the drivers' documented status
	*) exit "$_st" ;;
	esac
}

# The project's secrets file (mask.secretsFile, relative to the root) goes
# to every sc-mask a driver starts, with the secrets of the environment.
# The masker is tried once before any command runs: a secrets file that is
# missing or malformed stops the driver, never the masking of an output.
sc_mask_init() { # TOP MASK
	local f
	f=$(sc_conf_get "$1" mask.secretsFile '')
	if [ -n "$f" ]; then
		case "$f" in /*) ;; *) f=$1/$f ;; esac
		SC_SECRETS_FILE=$f
	fi
	sc_mask_filter "$2" </dev/null >/dev/null ||
		sc_die 4 MASK-FAILED "the masker cannot start (see above); nothing was run"
}

# Fill the array named ARRAY with the sc-sandbox-exec options of this
# project: its root, speccoder.conf, whose [sandbox] section
# sc-sandbox-exec reads itself (sc-sandbox-exec(1), --config), and a
# PROFILE or NETWORK given on the command line, which win over it; both
# files resolved once into plain options (sc_sandbox_resolve).
sc_sandbox_args() { # ARRAY TOP PROFILE NETWORK
	local -n _args=$1
	local file
	_args=(--root "$2")
	if [ -n "$4" ]; then
		_args+=(--network "$4")
	fi
	if [ -n "$3" ]; then
		_args+=(--profile "$3")
	fi
	# What decides the next run stays out of the command's reach: the
	# repository (hooks, config) and speccoder.conf.
	# A root that is no repository (the held-out copy) has none: it stays
	# writable (a check that builds writes in it).
	local gd
	if gd=$(cd "$2" && git rev-parse --git-common-dir 2>/dev/null); then
		gd=$(cd "$2" && cd "$gd" && pwd -P) ||
			sc_die 4 NOT-A-REPOSITORY "cannot find the git directory"
		_args+=(--read-only "$gd")
	elif [ -e "$2/.git" ] || [ -L "$2/.git" ]; then
		sc_die 4 NOT-A-REPOSITORY "cannot find the git directory"
	fi
	if [ -e "$2/.git" ]; then
		_args+=(--read-only "$2/.git")
	fi
	# speccoder's state stays out of the command's sight, whole and for
	# every repository: sealed tests, journals, grants, agent homes, other
	# worktrees.  The sandbox keeps only the root and the writable paths
	# that lie inside it (the worktree in use, this agent's home).
	local state h
	state=$(sc_state_dir)
	_args+=(--hide "${state%/*}")
	# The secret files git ignores in the person's checkout read as empty,
	# whichever directory the command works in (a worktree, a copy).
	local -a secrets
	sc_ignored_secrets secrets
	for h in "${secrets[@]}"; do
		_args+=(--hide "$h")
	done
	# The pins decide which skills the next run trusts (speccoder-lock(5)).
	if [ -e "$2/skills.lock" ]; then
		_args+=(--read-only "$2/skills.lock")
	fi
	file=$(sc_conf_file "$2")
	if [ -e "$file" ]; then
		_args+=(--read-only "$file" --config "$file")
	fi
	if [ -e "$file" ] || [ -n "$3" ]; then
		sc_sandbox_resolve _args
	fi
}

# Replace the options in the array named ARRAY with what sc-sandbox-exec
# makes of them (--print-options, sc-sandbox-exec(1)): the profile and
# speccoder.conf read once here, so no command of the run goes through the
# dynamically linked twin to read them again (about 15 ms each).  The tool
# translates every key; this only carries its words.  A file it refuses
# (125, BAD-CONFIG and the line said on stderr) stops the driver with exit
# 2, the drivers' status for a malformed configuration.
sc_sandbox_resolve() { # ARRAY
	local -n _opts=$1
	local tmp st=0
	tmp=$(mktemp) || sc_die 5 WRITE-FAILED "cannot create a temporary file"
	"$(sc_tool sc-sandbox-exec)" "${_opts[@]}" --print-options >"$tmp" || st=$?
	if [ "$st" -eq 0 ]; then
		mapfile -d '' -t _opts <"$tmp"
	fi
	rm -f "$tmp"
	case "$st" in
	0) ;;
	125) exit 2 ;;
	*) exit "$st" ;;
	esac
}

# Fill the array named ARRAY with the absolute paths of the files git
# ignores in the repository's main checkout that the policy calls secret
# (deny.secret-file), those inside a directory ignored whole included,
# but the included files of an in-place run (SC_INCLUDED_LIST, NUL-separated
# root-relative paths: the person named them for the checks).  Which file
# is included is sc-classify's decision (--included: deny.included-file,
# beneath an included directory too; a secret whose name matches the list
# only in another letter case stays deny.secret-file, hidden), not a
# string comparison here.  A list that cannot
# be made ends the driver: it would hide nothing.
sc_ignored_secrets() { # ARRAY
	local -n _hide=$1
	local main list
	local -a cargs=()
	_hide=()
	[ -z "${SC_INCLUDED_LIST:-}" ] || cargs=(--included "$SC_INCLUDED_LIST")
	main=$(sc_git worktree list --porcelain -z | tr '\0' '\n' |
		sed -n '1s/^worktree //p') ||
		sc_die 4 NOT-A-REPOSITORY "cannot find the repository's checkout"
	[ -n "$main" ] && [ -d "$main" ] || return 0
	list=$(mktemp) || sc_die 5 WRITE-FAILED "cannot create a temporary file"
	sc_git -C "$main" ls-files -z --others --ignored --exclude-standard |
		jq -Rsc 'split("\u0000")[] | select(length > 0) |
			{type: "call", id: "x", tool: "read", path: .}' |
		"$(sc_tool sc-rec)" --from-json |
		"$(sc_tool sc-classify)" --root "$main" --no-stop "${cargs[@]}" |
		"$(sc_tool sc-rec)" --to-json |
		jq -j --arg m "$main/" 'select(.rule == "deny.secret-file") | $m + .object + "\u0000"' \
		>"$list" || {
		rm -f "$list"
		sc_die 4 SANDBOX-UNAVAILABLE "cannot tell which ignored files are secret: nothing was run"
	}
	mapfile -d '' -t _hide <"$list"
	rm -f "$list"
}

# Fill the array named ARRAY with every value of KEY in FILE (none when
# unset); a configuration that cannot be read ends the driver.
sc_conf_all() { # ARRAY FILE KEY
	local -n _vals=$1
	local cfg tmp cst=0
	cfg=$(sc_tool sc-config)
	tmp=$(mktemp) || sc_die 5 WRITE-FAILED "cannot create a temporary file"
	"$cfg" --file "$2" --get-all "$3" -z >"$tmp" || cst=$?
	_vals=()
	if [ "$cst" -eq 0 ]; then
		mapfile -d '' -t _vals <"$tmp"
	fi
	rm -f "$tmp"
	case "$cst" in
	0|1) ;;
	3) exit 2 ;;
	*) exit "$cst" ;;
	esac
}

# ---- sc-git, the signing key, the start of a branch (attest, verify, pr,
# run) ----

# git, through sc-git: no hook, pager, filter, helper or alias of the
# repository runs.
sc_git() { # ARG...
	if [ -z "${SC_GIT:-}" ]; then
		SC_GIT=$(sc_guard_tool sc-git)
	fi
	"$SC_GIT" "$@"
}

# Print the SSH private key file attestations are signed with: git's
# user.signingkey when gpg.format is ssh, as git reads it in DIR (default:
# the current directory); print nothing when none is configured, or (with a
# warning saying why) when the configured one cannot be used, and the
# caller records unsigned.  Always status 0.  Read with git config itself:
# the key is set in the user's global configuration, which sc-git hides by
# design, and reading configuration runs no program.
sc_signing_key() { # [DIR]
	local format key dir=${1:-.}
	format=$(git -C "$dir" config --get gpg.format 2>/dev/null) || format=''
	[ "$format" = ssh ] || return 0
	key=$(git -C "$dir" config --type=path --get user.signingkey 2>/dev/null) || key=''
	case "$key" in
	'')
		return 0 ;;
	key::*)
		sc_warning SIGNING-KEY "user.signingkey is a key:: literal: sc-attest signs with a private key file only"
		return 0 ;;
	*.pub)
		# git's usual setting names the public key and lets ssh-agent
		# sign; the private key beside it is what sc-attest reads.
		if [ -f "${key%.pub}" ]; then
			key=${key%.pub}
		else
			sc_warning SIGNING-KEY "user.signingkey names a public key without its private key beside it (ssh-agent keys are not supported)"
			return 0
		fi ;;
	esac
	if [ ! -f "$key" ]; then
		sc_warning SIGNING-KEY "user.signingkey names no readable file"
		return 0
	fi
	printf '%s\n' "$key"
}

# The commit id of REV, or nothing when REV names no commit.
sc_commit_id() { # REV
	sc_git rev-parse --verify -q --end-of-options "$1^{commit}" 2>/dev/null || true
}

# Print the commit BRANCH started from: its merge-base with HEAD (the
# branch checked out, the one a run starts from) when BRANCH is another
# commit, else with the local main or master.  Nothing when none gives one.
sc_branch_base() { # BRANCH
	local tip=$1 other
	# A name is resolved; a full commit id (what the drivers pass) is not.
	if [ "${#tip}" -ne 40 ] || [ -n "${tip//[0-9a-f]/}" ]; then
		tip=$(sc_commit_id "$1")
	fi
	[ -n "$tip" ] || return 0
	for other in HEAD refs/heads/main refs/heads/master; do
		other=$(sc_commit_id "$other")
		if [ -n "$other" ] && [ "$other" != "$tip" ]; then
			sc_git merge-base "$tip" "$other" 2>/dev/null && return 0
		fi
	done
	return 0
}
