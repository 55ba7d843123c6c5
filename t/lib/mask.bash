# Helpers for the sc-mask tests.  Secret values are generated per test and
# never printed: a failing test names the probe by number only.
# shellcheck shell=bash

# A random test value of 32 URL-safe characters, with a marker prefix.
mask_gen_value() {
	printf 'tv-%s' "$(head -c 24 /dev/urandom | base64 | tr '+/' '-_')"
}

# mask_leak_check PROBES OUTPUT: fail when any probe survived.
mask_leak_check() {
	perl "$SC_TOP/t/lib/mask-check.pl" "$1" "$2"
}

# mask_slow_run CHUNK IN OUT CMD...: run CMD with stdin fed from IN through
# a FIFO in writes of CHUNK bytes (0: random sizes), stdout to OUT.
mask_slow_run() {
	local chunk="$1" in="$2" out="$3"
	shift 3
	mkfifo "$SC_TMP/fifo"
	perl "$SC_TOP/t/lib/slow-write.pl" "$in" "$chunk" >"$SC_TMP/fifo" &
	sc_run_io "$SC_TMP/fifo" "$out" "$@"
	wait
	rm -f "$SC_TMP/fifo"
}

