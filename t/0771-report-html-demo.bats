#!/usr/bin/env bats
# report --html on the demo's attempt, loaded in headless Chromium: the
# sections are there, the denial and the ask stand out, the tick has its
# diff and attestation, the key is masked, and the page runs no script.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/run
load lib/browser

DEMO=$SC_TOP/contrib/demo

setup() {
	sc_common_setup
	run_need_userns
	run_demo_repo
	echo no >"$SC_TMP/answers"
}

@test "report --html: the demo's attempt, in a real browser" {
	need_chromium
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
	art=$(browser_artifacts)
	browse "$p" "$SC_TMP/report.dom" "$art/report-demo.png"
	d=$SC_TMP/report.dom
	grep -q '<title>speccoder report: ' "$d"
	for id in summary timeline checks ticks findings; do
		grep -q "<section id=\"$id\">" "$d" || fail "no $id section in the DOM"
	done
	run ! grep -q '<script' "$d"
	is_png "$art/report-demo.png"
}
