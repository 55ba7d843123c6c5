#!/usr/bin/env bats
# report --html on the demo's attempt, loaded in headless Chromium: the
# sections are there, the denial and the ask stand out, the tick has its
# diff and attestation, the key is masked, and the page runs no script.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/run

DEMO=$SC_TOP/contrib/demo

setup() {
	sc_common_setup
	run_need_userns
	run_demo_repo
	echo no >"$SC_TMP/answers"
}

@test "report --html: the demo's attempt, in a real browser" {
	command -v chromium >/dev/null 2>&1 ||
		skip "chromium is not installed (make deps installs it): the browser test cannot run"
	run --separate-stderr git speccoder run greeting \
		--transcript "$DEMO/demo.transcript" --answers "$SC_TMP/answers"
	assert_success
	commit=$(git rev-parse speccoder/greeting)
	git speccoder report --html >"$SC_TMP/report.html"
	p=$SC_TMP/report.html
	grep -q '<tr class="deny">.*deny\.' "$p"
	grep -q '<tr><th>command</th><td>run</td></tr>' "$p"
	grep -q '<tr class="ask">' "$p"
	grep -q "commit <code>$commit</code>" "$p"
	grep -q 'greet.sh' "$p"
	grep -q 'in-toto statement' "$p"
	run ! grep -qF "$DEMO_API_KEY" "$p"
	h=$SC_TMP/chromium-home
	art=$SC_TOP/build/t/artifacts
	mkdir -p "$h" "$art"
	HOME=$h timeout 120 chromium --headless --disable-gpu --no-sandbox \
		--no-first-run --user-data-dir="$h/profile" \
		--dump-dom "file://$p" >"$SC_TMP/report.dom" 2>/dev/null
	HOME=$h timeout 120 chromium --headless --disable-gpu --no-sandbox \
		--no-first-run --user-data-dir="$h/profile" --hide-scrollbars \
		--window-size=1100,1400 --screenshot="$art/report-demo.png" \
		"file://$p" >/dev/null 2>&1
	d=$SC_TMP/report.dom
	grep -q '<title>speccoder report: ' "$d"
	for id in summary timeline checks ticks findings; do
		grep -q "<section id=\"$id\">" "$d" || fail "no $id section in the DOM"
	done
	run ! grep -q '<script' "$d"
	[ "$(head -c 8 "$art/report-demo.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
}
