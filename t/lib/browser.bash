# Helpers for the tests that load a page in a real browser: Debian's
# chromium, headless, with scripts on (make deps installs it).
# shellcheck shell=bash

# Skip, saying why, where chromium is missing.
need_chromium() {
	command -v chromium >/dev/null 2>&1 ||
		skip "chromium is not installed (make deps installs it): the browser test cannot run"
}

# Load PAGE: the DOM after load (scripts run) goes to DOM, a screenshot to
# PNG.  Chromium's own chatter goes to $SC_TMP/chromium.err.
browse() { # PAGE DOM PNG
	local h=$SC_TMP/chromium-home
	local args=(--headless --disable-gpu --no-sandbox --no-first-run
		--user-data-dir="$h/profile")
	mkdir -p "$h"
	HOME=$h timeout 120 chromium "${args[@]}" --dump-dom "file://$1" \
		>"$2" 2>"$SC_TMP/chromium.err"
	HOME=$h timeout 120 chromium "${args[@]}" --hide-scrollbars \
		--window-size=1100,1400 --screenshot="$3" "file://$1" \
		>/dev/null 2>>"$SC_TMP/chromium.err"
}

# Where screenshots are kept after the test's scratch directory goes.
browser_artifacts() {
	mkdir -p "$SC_TOP/build/t/artifacts"
	printf '%s\n' "$SC_TOP/build/t/artifacts"
}

# Succeed when FILE is a PNG image.
is_png() { # FILE
	[ "$(head -c 8 "$1" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
}
