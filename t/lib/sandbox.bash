# Helpers for the sc-sandbox-exec tests and the escape suite.
# shellcheck shell=bash

bats_require_minimum_version 1.5.0

# A fake home with credentials in every default place, a project root, and
# the attack helper built once per file.  Never the real HOME: tests must
# not touch the host's credentials.
sb_setup() {
	sc_common_setup
	export HOME="$SC_TMP/home"
	mkdir -p "$HOME/.ssh" "$HOME/.aws" "$HOME/.config/gh" "$HOME/.gnupg" \
		"$HOME/.cargo/bin" "$HOME/.cargo/registry" "$HOME/.cache" \
		"$SC_TMP/root/.git" "$SC_TMP/outside"
	echo "SSH-PRIVATE-KEY" >"$HOME/.ssh/id_ed25519"
	echo "AWS-SECRET" >"$HOME/.aws/credentials"
	echo "GH-TOKEN" >"$HOME/.config/gh/hosts.yml"
	echo "NETRC-SECRET" >"$HOME/.netrc"
	echo "NPM-SECRET" >"$HOME/.npmrc"
	echo "GIT-CRED-SECRET" >"$HOME/.git-credentials"
	echo "ordinary" >"$HOME/notes.txt"
	echo "[core]" >"$SC_TMP/root/.git/config"
	ROOT="$SC_TMP/root"
	export ROOT
	unset XDG_STATE_HOME XDG_RUNTIME_DIR SSH_AUTH_SOCK
	cd "$ROOT" || return 1
}

sb_teardown() {
	cd / || true
	sc_common_teardown
}

# Build the attack helper into the file's temporary directory.
sb_build_attack() {
	ATTACK="$BATS_FILE_TMPDIR/attack"
	export ATTACK
	if [ ! -x "$ATTACK" ]; then
		cc -std=gnu11 -O1 -o "$ATTACK" "$SC_TOP/t/escape/attack.c"
	fi
}

# Build the no-landlock helper (a kernel that answers ENOSYS to Landlock).
sb_build_no_landlock() {
	NO_LANDLOCK="$BATS_FILE_TMPDIR/no-landlock"
	export NO_LANDLOCK
	if [ ! -x "$NO_LANDLOCK" ]; then
		cc -std=gnu11 -O1 -o "$NO_LANDLOCK" "$SC_TOP/t/escape/no-landlock.c"
	fi
}

sb_userns_available() {
	unshare -U -r -m -p -n --fork true 2>/dev/null
}

sb_landlock_abi() {
	sc-sandbox-exec --probe | tr '\0' '\n' | sed -n 's/^landlock-abi=//p'
}

# Skip, visibly, when the host lacks what the full tier needs.
sb_require_full() {
	sb_userns_available || skip "user namespaces unavailable on this host"
	[ "$(sb_landlock_abi)" -ge 3 ] || skip "Landlock ABI >= 3 unavailable"
}

sb_require_landlock() {
	[ "$(sb_landlock_abi)" -ge 3 ] || skip "Landlock ABI >= 3 unavailable"
}

# The sandbox in the tier under test: SB_TIER=full|landlock|off.  The landlock
# tier runs with --mode auto (it cannot hide credentials, so required
# refuses it by design).
sb() {
	sb_cmd
	"${SB_CMD[@]}" "$@"
}

# The same as an array in SB_CMD, for callers that need the process itself
# (to signal it, to redirect its output).
sb_cmd() {
	if [ "${SB_TIER:-full}" = landlock ]; then
		SB_CMD=(sc-sandbox-exec --tier landlock --mode auto --root "$ROOT")
	elif [ "${SB_TIER:-full}" = off ]; then
		SB_CMD=(sc-sandbox-exec --mode off --root "$ROOT")
	else
		SB_CMD=(sc-sandbox-exec --root "$ROOT")
	fi
}

# A free TCP port on loopback (a guess the kernel confirms by binding).
sb_free_port() {
	local p
	for p in $(shuf -i 20000-60000 -n 20); do
		if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
			echo "$p"
			return 0
		fi
	done
	return 1
}

# Start "attack serve-*" in the background and wait until it listens.
sb_serve() {
	local out="$SC_TMP/serve.$$.$RANDOM"
	"$ATTACK" "$@" >"$out" 2>&1 &
	SERVER_PID=$!
	local _
	for _ in $(seq 1 100); do
		grep -q listening "$out" 2>/dev/null && return 0
		sleep 0.05
	done
	echo "server did not start: $(cat "$out")" >&2
	return 1
}

sb_stop_server() {
	if [ -n "${SERVER_PID:-}" ]; then
		kill "$SERVER_PID" 2>/dev/null || true
		wait "$SERVER_PID" 2>/dev/null || true
		SERVER_PID=
	fi
}

# Run CMD where the kernel refuses user namespaces: inside a user
# namespace of its own whose max_user_namespaces is 0 (the limit is per
# user namespace, so the host is untouched).  A host that already refuses
# them runs CMD as it is.
sb_no_userns() {
	if ! sb_userns_available; then
		"$@"
		return
	fi
	unshare --user --map-root-user sh -c \
		'echo 0 >/proc/sys/user/max_user_namespaces && exec "$@"' sh "$@"
}
