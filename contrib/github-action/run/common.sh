# shellcheck shell=bash
# What the run action's scripts share, sourced by each: the error format
# of every speccoder tool, and the one rule for the names that reach git
# (a feature, a branch, a remote), checked before any of them is used.

die() { # STATUS CODE TEXT
	printf 'speccoder: error[%s]: %s\n' "$2" "$3" >&2
	exit "$1"
}

valid_name() { # NAME
	case "$1" in
	''|.*|-*|*[!A-Za-z0-9._-]*) return 1 ;;
	esac
}

# $FEATURE, checked; the script stops with BAD-FEATURE otherwise.
feature_from_env() {
	valid_name "${FEATURE:-}" ||
		die 2 BAD-FEATURE "not a feature name: [A-Za-z0-9._-]+, not starting with '.' or '-'"
	printf '%s\n' "$FEATURE"
}
