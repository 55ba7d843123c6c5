# speccoder-lib.sh: what every driver shares.  Sourced, never executed.
# Drivers stay thin: they find tools, call them, and move their records;
# every decision is made by an sc-* tool.
# shellcheck shell=bash

# The name in diagnostics: "git-speccoder CMD".
SC_PROG="git-speccoder ${SC_CMD:-}"
SC_PROG=${SC_PROG% }

sc_error() { # CODE TEXT
	printf '%s: error[%s]: %s\n' "$SC_PROG" "$1" "$2" >&2
}

sc_warning() { # CODE TEXT
	printf '%s: warning[%s]: %s\n' "$SC_PROG" "$1" "$2" >&2
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

# The path of tool NAME: the source tree's build/bin when run from the
# source tree, else beside git-speccoder; exit 4 when it is not built.
sc_tool() { # NAME
	_bindir=${SPECCODER_BINDIR:-}
	for _t in "$_bindir/../build/bin/$1" "$_bindir/$1"; do
		if [ -n "$_bindir" ] && [ -x "$_t" ]; then
			printf '%s\n' "$_t"
			return 0
		fi
	done
	sc_die 4 TOOL-MISSING "$1 is not built here: run 'make' (or install speccoder)"
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
	_common=$(cd "$(git rev-parse --git-common-dir)" && pwd -P) ||
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
		--records-stream --all-fields >>"$_journal" ||
		sc_die 5 JOURNAL "cannot write the journal"
	sync "$_journal" || sc_die 5 JOURNAL "cannot sync the journal"
}

# Run sc-mask (path MASK) with the secrets of the environment and, when
# SC_SECRETS_FILE names one, the project's secrets file.
sc_mask_filter() { # MASK ARG...
	_m=$1
	shift
	if [ -n "${SC_SECRETS_FILE:-}" ]; then
		"$_m" --env --secrets-file "$SC_SECRETS_FILE" "$@"
	else
		"$_m" --env "$@"
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
	_st=0
	"$(sc_tool sc-config)" --file "$_file" --get "$2" || _st=$?
	case "$_st" in
	0) ;;
	1) printf '%s\n' "$3" ;;
	*) exit 2 ;;
	esac
}

# The project's secrets file (mask.secretsFile, relative to the root) goes
# to every sc-mask a driver starts, with the secrets of the environment.
sc_mask_init() { # TOP
	local f
	f=$(sc_conf_get "$1" mask.secretsFile '')
	if [ -n "$f" ]; then
		case "$f" in /*) ;; *) f=$1/$f ;; esac
		SC_SECRETS_FILE=$f
	fi
}

# Fill the array named ARRAY with the sc-sandbox-exec options of this
# project: its root, and the [sandbox] settings of speccoder.conf unless a
# PROFILE or NETWORK given on the command line says otherwise.
sc_sandbox_args() { # ARRAY TOP PROFILE NETWORK
	local -n _args=$1
	local mode net w file
	mode=$(sc_conf_get "$2" sandbox.mode required)
	net=${4:-$(sc_conf_get "$2" sandbox.network loopback)}
	_args=(--root "$2" --mode "$mode" --network "$net")
	if [ -n "$3" ]; then
		_args+=(--profile "$3")
	fi
	file=$(sc_conf_file "$2")
	if [ -e "$file" ]; then
		while IFS= read -r -d '' w; do
			_args+=(--writable "$w")
		done < <(sc_conf_all "$file" sandbox.writable)
		# Variables a check needs although their names look secret: kept
		# in the command's environment, still masked in its output.
		while IFS= read -r -d '' w; do
			_args+=(--env-keep "$w")
		done < <(sc_conf_all "$file" sandbox.envKeep)
	fi
}

# Every value of KEY in FILE, each ended by NUL; nothing when unset.
sc_conf_all() { # FILE KEY
	local st=0
	"$(sc_tool sc-config)" --file "$1" --get-all "$2" -z || st=$?
	[ "$st" -le 1 ] || exit 2
}
