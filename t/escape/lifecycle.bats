#!/usr/bin/env bats
# Outliving the sandbox: detaching from the deadline with setsid or a
# double fork, surviving the end of the command or a signal to the
# supervisor, and flooding the output.

# shellcheck disable=SC2154,SC2016,SC2317,SC2030,SC2031 # bats run sets status, output, stderr; '$' is for the inner shell; functions called by bats or traps; each test is a subshell that sets PID and TMPDIR for itself
load ../lib/common
load ../lib/sandbox

setup() {
	sb_setup
	sb_require_landlock
	# A marker no other process has, to find survivors by.
	MARK="59.$RANDOM$$"
}
teardown() {
	local p
	for p in $(pgrep -f "sleep $MARK" || true); do
		kill -9 "$p" 2>/dev/null || true
	done
	sb_teardown
}

survivors() {
	sleep 0.2
	pgrep -f "^sleep $MARK" || true
}

each_tier() {
	local t
	for t in full landlock; do
		[ "$t" = landlock ] || sb_userns_available || continue
		SB_TIER=$t "$@"
	done
}

@test "timeout(1) alone lets a setsid child escape (the test can fail)" {
	run timeout 1 sh -c "setsid sleep $MARK >/dev/null 2>&1 & sleep $MARK"
	assert_failure 124
	[ -n "$(survivors)" ]
}

@test "--timeout kills a setsid child and a double-forked one (124)" {
	check() {
		run --separate-stderr sb --timeout 1 -- sh -c \
			"setsid sleep $MARK & (sleep $MARK &) ; sleep $MARK"
		assert_failure 124
		[[ "$stderr" == *"error[TIMEOUT]"* ]]
		[ -z "$(survivors)" ]
	}
	each_tier check
}

@test "daemons left behind die when the command ends" {
	check() {
		run --separate-stderr sb -- sh -c "setsid sleep $MARK & (sleep $MARK &); exit 7"
		assert_failure 7
		[ -z "$(survivors)" ]
	}
	each_tier check
}

@test "more daemons than one read of the children list holds all die (landlock tier)" {
	# Without a PID namespace the supervisor finds what is left through
	# /proc/self/task/PID/children, which gives a few hundred numbers a
	# read (seen: at most ~480): 800 orphans take several rounds, and
	# the supervisor must not end while any of them lives.
	SB_TIER=landlock run --separate-stderr sb -- sh -c \
		"i=0; while [ \$i -lt 800 ]; do setsid sleep $MARK & i=\$((i+1)); done
		 n=0; while [ \$(pgrep -c -f '^sleep $MARK') -lt 800 ] && [ \$n -lt 100 ]; do
			sleep 0.1; n=\$((n+1)); done
		 exit 7"
	assert_failure 7
	[ -z "$(survivors)" ]
}

@test "SIGTERM and SIGINT to sc-sandbox-exec kill everything" {
	check() {
		local sig=$1 code=$2
		sb_cmd
		"${SB_CMD[@]}" -- sh -c "setsid sleep $MARK & sleep $MARK" &
		pid=$!
		for _ in $(seq 1 50); do
			[ "$(pgrep -f "^sleep $MARK" | wc -l)" -ge 2 ] && break
			sleep 0.1
		done
		kill "-$sig" "$pid"
		wait "$pid" && status=0 || status=$?
		[ "$status" -eq "$code" ]
		[ -z "$(survivors)" ]
	}
	each_tier check TERM 143
	each_tier check INT 130
}

@test "a flood of output is cut at --max-output with a marker" {
	check() {
		sb_cmd
		run --separate-stderr sh -c 'out=$1; shift; exec "$@" >"$out"' sh \
			"$SC_TMP/out" "${SB_CMD[@]}" --max-output 1000 -- sh -c \
			'yes ESCAPE | head -c 20000000; echo done >&2; yes ERR | head -c 5000000 >&2'
		assert_success
		size=$(stat -c %s "$SC_TMP/out")
		[ "$size" -lt 1100 ]
		run tail -n 1 "$SC_TMP/out"
		assert_output "[sc-sandbox-exec: output cut at 1000 bytes]"
		[[ "$stderr" == *done* ]]
		[ "${#stderr}" -lt 1300 ]   # 1000 bytes, the marker, a warning
	}
	each_tier check
}

@test "without --max-output the output passes whole" {
	sb_cmd
	run --separate-stderr sh -c 'out=$1; shift; exec "$@" >"$out"' sh \
		"$SC_TMP/out" "${SB_CMD[@]}" -- sh -c 'yes x | head -c 300000'
	assert_success
	[ "$(stat -c %s "$SC_TMP/out")" -eq 300000 ]
}

# Start the sandbox in a process group of its own with TMPDIR under a
# private base, the command writing its TMPDIR to a file and sleeping;
# return once the command runs.  Sets PID (the group) and TD.
start_sleeper() {
	export TMPDIR="$SC_TMP/tmpbase"
	mkdir -p "$TMPDIR"
	sb_cmd
	setsid "${SB_CMD[@]}" "$@" -- sh -c \
		'echo "$TMPDIR" >"$0/tmpdir.tmp" && mv "$0/tmpdir.tmp" "$0/tmpdir" && touch "$TMPDIR/f" && exec sleep "$1"' \
		"$ROOT" "$MARK" 2>/dev/null &
	PID=$!
	for _ in $(seq 1 100); do
		[ -s "$ROOT/tmpdir" ] && break
		sleep 0.05
	done
	TD=$(cat "$ROOT/tmpdir")
	rm -f "$ROOT/tmpdir"
	[ -n "$TD" ]
}

# Nothing left: not the TMPDIR the command saw, nothing in the base.
nothing_left() {
	for _ in $(seq 1 40); do
		[ ! -e "$TD" ] && [ -z "$(ls -A "$SC_TMP/tmpbase")" ] && return 0
		sleep 0.05
	done
	echo "left behind: $TD $(ls -A "$SC_TMP/tmpbase")" >&2
	return 1
}

@test "no private TMPDIR is left by a deadline, a signal or a SIGKILL to the group" {
	check() {
		start_sleeper --timeout 1
		wait "$PID" || true
		nothing_left
		start_sleeper
		kill -TERM "$PID"
		wait "$PID" || true
		nothing_left
		# An executor killing its agent: SIGKILL to the whole group.
		start_sleeper
		kill -KILL -- "-$PID"
		wait "$PID" || true
		nothing_left
	}
	each_tier check
	# Without the sandbox a SIGKILL leaves what a process made (the test
	# can fail): mktemp's directory stays.
	export TMPDIR="$SC_TMP/tmpbase"
	setsid sh -c 'mktemp -d >/dev/null; exec sleep 30' &
	PID=$!
	sleep 0.3
	kill -KILL -- "-$PID"
	wait "$PID" || true
	[ -n "$(ls -A "$SC_TMP/tmpbase")" ]
}

# The three ways a command is ended from outside, each in every tier
# (--mode off too: it makes a TMPDIR on disk like the landlock tier), and
# each signal a launcher may get: nothing of the private TMPDIR is left.
@test "no private TMPDIR is left in any tier: deadline, any signal to the launcher alone, the group killed or ended" {
	ended_each_way() {
		local sig
		# By its deadline.
		start_sleeper --timeout 1
		wait "$PID" || true
		nothing_left
		# By a signal to the launcher only, SIGKILL included: nothing
		# of the launcher runs after that one.
		for sig in TERM INT HUP KILL; do
			start_sleeper
			kill "-$sig" "$PID"
			wait "$PID" || true
			nothing_left
		done
		# By the end of its process group: killed whole, or ended by the
		# command while a daemon it started still holds the directory.
		start_sleeper
		kill -KILL -- "-$PID"
		wait "$PID" || true
		nothing_left
		export TMPDIR="$SC_TMP/tmpbase"
		sb_cmd
		"${SB_CMD[@]}" -- sh -c \
			'echo "$TMPDIR" >"$0/tmpdir"; cd "$TMPDIR" && setsid sleep "$1" & exit 0' \
			"$ROOT" "$MARK" 2>/dev/null
		TD=$(cat "$ROOT/tmpdir")
		rm -f "$ROOT/tmpdir"
		[ -n "$TD" ]
		nothing_left
		[ -z "$(survivors)" ]
	}
	each_tier ended_each_way
	SB_TIER=off ended_each_way
}

@test "the private TMPDIR lasts as long as the command, whatever descriptors the caller closed" {
	check() {
		local st=0
		sb_cmd
		# Not through bats' run, which gives the command a stdin.
		"${SB_CMD[@]}" -- sh -c \
			'sleep 0.5 && echo ok > "$TMPDIR/f" && cat "$TMPDIR/f"' \
			<&- 2>&- >"$SC_TMP/out" || st=$?
		[ "$st" -eq 0 ]
		[ "$(cat "$SC_TMP/out")" = ok ]
	}
	each_tier check
}
