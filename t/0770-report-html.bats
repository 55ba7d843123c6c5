#!/usr/bin/env bats
# git speccoder report --html and sc-report: one self-contained page, every
# byte of the journal and the diffs shown as text, bad input said on the
# page, and a real browser (headless Chromium) that runs no injected script.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/porcelain
load lib/browser

# A hostile file name, output line and model text: each would run a script
# or change the page if it reached the HTML as markup.
HOSTILE_NAME='<img src=x onerror=document.title="PWNED-IMG">.txt'
HOSTILE_LINE='<script>document.title="PWNED";document.body.insertAdjacentHTML("beforeend","<p id=pwned>x</p>")</script>'

setup() {
	sc_common_setup
	sc_porcelain_repo
	printf 'base\n' >README
	git add README && git commit -q -m base
}

# Commit a file with a hostile name and content on branch work; prints the commit.
hostile_commit() {
	git checkout -q -b work
	printf '%s\n' "$HOSTILE_LINE" $'esc \e]0;title\a bidi \u202e end' >"$HOSTILE_NAME"
	git add -A && git commit -q -m "hostile"
	git rev-parse HEAD
	git checkout -q main
}

# A journal with the hostile texts in every kind of record the page shows.
hostile_journal() { # COMMIT
	{
		sc-rec type=run command=run "feature=$HOSTILE_LINE" mode=worktree tier=full provider=replay time=2026-01-01T00:00:00Z
		sc-rec type=task-start task=1 "text=T001 $HOSTILE_LINE" time=2026-01-01T00:00:01Z
		sc-rec type=text "text=$HOSTILE_LINE"$'\n\e[31mred\e[0m'
		sc-rec type=call id=c1 tool=write "path=$HOSTILE_NAME" source=model
		sc-rec type=verdict id=c1 decision=allow rule=allow.write class=write "object=$HOSTILE_NAME"
		sc-rec type=call id=c2 tool=run argv=curl argv=example.invalid source=model
		sc-rec type=verdict id=c2 decision=ask rule=ask.network class=command reason=network
		sc-rec type=approval id=c2 object=curl answer=no by=person
		sc-rec type=call id=c3 tool=write path=.env source=model
		sc-rec type=verdict id=c3 decision=deny rule=deny.secret-file class=write "reason=$HOSTILE_LINE"
		sc-rec type=evidence name=test argv=make argv=test status=0 outcome=pass duration=0.5 tier=full output-sha256=0123abcd
		sc-rec type=held-out result=FAILED output-sha256=feedbeef label=held-out
		sc-rec type=finding phase=command code=PROTECTED-CHANGED "path=$HOSTILE_NAME" change=modified
		sc-rec type=usage input-tokens=120 output-tokens=30 provider=replay
		sc-rec type=tick task=1 "commit=$1" signed=no
		sc-rec type=end command=run result=success time=2026-01-01T00:02:00Z
	} >"$SC_TMP/journal"
}

# No markup from the journal: the page's own tags only.
assert_no_injected_markup() { # PAGE
	run ! grep -q '<script' "$1"
	run ! grep -q '<img' "$1"
	run ! grep -qP '[\x00-\x08\x0b-\x1f\x7f]' "$1"
	run ! grep -qP '\x{202e}' "$1"
	grep -q '&lt;script&gt;document.title=&quot;PWNED&quot;' "$1"
	grep -q '&lt;img src=x onerror=document.title=&quot;PWNED-IMG&quot;&gt;.txt' "$1"
}

@test "sc-report: every section, and hostile names, lines and controls only as text" {
	commit=$(hostile_commit)
	hostile_journal "$commit"
	sc_run_io /dev/null "$SC_TMP/page.html" sc-report --html -C . --run R1 "$SC_TMP/journal"
	assert_equal "$status" 0
	p=$SC_TMP/page.html
	assert_no_injected_markup "$p"
	for id in summary timeline checks ticks findings; do
		grep -q "<section id=\"$id\">" "$p" || fail "no $id section"
	done
	run ! grep -q 'id="missing"' "$p"
	# Controls and bidi overrides are visible, never acted on.
	grep -q '<span class="ctl">\\x1B</span>\[31mred' "$p"
	grep -q 'bidi <span class="ctl">\\u{202E}</span> end' "$p"
	# Denials and asks stand out; the person's "no" too.
	[ "$(grep -c '<tr class="deny">' "$p")" -ge 3 ]
	[ "$(grep -c '<tr class="ask">' "$p")" -ge 1 ]
	# The summary's counts; the tick's diff from git objects.
	grep -q '3: 1 allowed, 1 asked, 1 denied; 1 approvals' "$p"
	grep -q '120 input tokens, 30 output tokens' "$p"
	grep -q '<tr><th>duration</th><td>120s</td></tr>' "$p"
	grep -q "<td>0123abcd</td></tr>" "$p"
	grep -q 'feedbeef' "$p"
	grep -q "commit <code>$commit</code>" "$p"
	grep -q '<span class="add">+&lt;script&gt;document.title' "$p"
	grep -q 'attestation: <b>none</b>' "$p"
}

@test "sc-report: a strict CSP, no external resource, and only its own style" {
	hostile_journal 0000000000000000000000000000000000000000
	sc_run_io /dev/null "$SC_TMP/page.html" sc-report --html --run R1 "$SC_TMP/journal"
	p=$SC_TMP/page.html
	grep -q "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; script-src 'none';" "$p"
	# The style's digest in the policy is the digest of the style the page holds.
	style=$(sed -n 's/^<style>\(.*\)<\/style>$/\1/p' "$p")
	want=$(printf '%s' "$style" | openssl dgst -sha256 -binary | base64)
	grep -qF "style-src 'sha256-$want'" "$p"
	run ! grep -qiE '(src|href)="(https?:|//)' "$p"
	run ! grep -qiE '@import|url\(' "$p"
	[ "$(grep -c '<style>' "$p")" -eq 1 ]
}

@test "report --html: a run that does not exist still renders and says so" {
	run --separate-stderr git speccoder report --html 20990101T000000Z-1
	assert_equal "$status" 1
	[[ "$stderr" == *"warning[INCOMPLETE]"* ]]
	[[ "$output" == *'<section id="missing">'* ]]
	[[ "$output" == *"no journal for run 20990101T000000Z-1"* ]]
	[[ "$output" == *'</html>'* ]]
	# A run id still cannot leave the state directory.
	run --separate-stderr git speccoder report --html ../../x
	assert_equal "$status" 2
	run --separate-stderr git speccoder report --html --json
	assert_equal "$status" 2
}

@test "sc-report: a journal cut mid-record shows what came before and says where it ends" {
	hostile_journal 0000000000000000000000000000000000000000
	head -c "$(($(stat -c %s "$SC_TMP/journal") - 30))" "$SC_TMP/journal" >"$SC_TMP/cut"
	sc_run_io /dev/null "$SC_TMP/page.html" sc-report --html --run R1 "$SC_TMP/cut"
	assert_equal "$status" 1
	grep -q 'the journal is cut or malformed at byte' "$SC_TMP/page.html"
	grep -q 'the journal has no end record' "$SC_TMP/page.html"
	grep -q 'deny.secret-file' "$SC_TMP/page.html"
	grep -q '</html>' "$SC_TMP/page.html"
}

@test "sc-report: a tick whose branch was deleted renders without its diff" {
	commit=$(hostile_commit)
	hostile_journal "$commit"
	git branch -q -D work
	git reflog expire --expire=now --all && git gc -q --prune=now
	sc_run_io /dev/null "$SC_TMP/page.html" sc-report --html -C . --run R1 "$SC_TMP/journal"
	assert_equal "$status" 1
	grep -q "a tick&#39;s commit is not in the repository (its branch deleted?)" "$SC_TMP/page.html"
	grep -q '<section id="findings">' "$SC_TMP/page.html"
}

@test "sc-report: a tick's attestation is shown, and one that cannot be read is said missing" {
	commit=$(hostile_commit)
	hostile_journal "$commit"
	git notes --ref=speccoder add -m 'not an envelope' "$commit"
	sc_run_io /dev/null "$SC_TMP/page.html" sc-report --html -C . --run R1 "$SC_TMP/journal"
	assert_equal "$status" 0
	grep -q 'envelope 1: malformed' "$SC_TMP/page.html"
	# The note's blob corrupted: libgit2 cannot read the note, which is
	# neither "none" nor an empty attestation.
	blob=$(git notes --ref=speccoder list "$commit")
	obj=.git/objects/${blob:0:2}/${blob:2}
	chmod u+w "$obj"
	printf 'garbage' >"$obj"
	sc_run_io /dev/null "$SC_TMP/page.html" sc-report --html -C . --run R1 "$SC_TMP/journal"
	assert_equal "$status" 1
	[[ "$stderr" == *"sc-report: error[NOTES-READ]"* ]]
	grep -q 'the attestation cannot be read' "$SC_TMP/page.html"
	grep -q "a tick&#39;s attestation cannot be read from refs/notes/speccoder" "$SC_TMP/page.html"
	run ! grep -q 'attestation: <b>none</b>' "$SC_TMP/page.html"
	run ! grep -q '<summary>attestation</summary>' "$SC_TMP/page.html"
	# sc-attest show says the same, as an internal error, not "no note".
	run sc-attest -C . show "$commit"
	assert_equal "$status" 5
	assert_output --partial "error[NOTES-READ]"
}

@test "sc-report: a diff of 100,000 lines is folded and cut, the page stays small" {
	git checkout -q -b big
	seq 1 100000 >big.txt
	git add big.txt && git commit -q -m big
	c=$(git rev-parse HEAD)
	sc-rec type=tick task=1 "commit=$c" signed=no >"$SC_TMP/journal"
	sc-rec type=end result=success >>"$SC_TMP/journal"
	sc_run_io /dev/null "$SC_TMP/page.html" sc-report --html -C . --run R1 "$SC_TMP/journal"
	assert_equal "$status" 0
	grep -q '1 file changed, +100000' "$SC_TMP/page.html"
	grep -q '<details><summary>diff</summary>' "$SC_TMP/page.html"
	grep -q 'only its first 2000 lines are shown' "$SC_TMP/page.html"
	[ "$(stat -c %s "$SC_TMP/page.html")" -lt 500000 ]
}

@test "report --html: the page is masked, diffs included" {
	export SC_TEST_API_KEY=sk-report-secret-0123456789abcdef
	git checkout -q -b leak
	printf 'key = %s\n' "$SC_TEST_API_KEY" >config.txt
	git add config.txt && git commit -q -m leak
	c=$(git rev-parse HEAD)
	git checkout -q main
	# The state directory, made the way the porcelain makes it.
	git speccoder report >/dev/null 2>&1 || true
	state=$(find "$XDG_STATE_HOME/speccoder" -mindepth 1 -maxdepth 1 -type d)
	mkdir -p "$state/runs/20260101T000000Z-7"
	sc-rec type=tick task=1 "commit=$c" signed=no >"$state/runs/20260101T000000Z-7/journal"
	sc-rec type=end result=success >>"$state/runs/20260101T000000Z-7/journal"
	run --separate-stderr git speccoder report --html
	assert_success
	[[ "$output" == *'+key = [redacted:SC_TEST_API_KEY]'* ]]
	[[ "$output" != *"$SC_TEST_API_KEY"* ]]
}

@test "sc-report: usage errors" {
	run --separate-stderr sc-report "$SC_TMP/journal"
	assert_equal "$status" 2
	run --separate-stderr sc-report --html
	assert_equal "$status" 2
	run --separate-stderr sc-report --html a b
	assert_equal "$status" 2
}

# ---- a real browser ----

@test "chromium: the check sees a script that runs (the control)" {
	need_chromium
	# The same hostile line pasted as markup, with no escaping and no
	# policy: here the script runs, so the next test's check can fail.
	printf '<!DOCTYPE html><html><head><title>report</title></head><body>%s</body></html>\n' \
		"$HOSTILE_LINE" >"$SC_TMP/unsafe.html"
	browse "$SC_TMP/unsafe.html" "$SC_TMP/unsafe.dom" "$SC_TMP/unsafe.png"
	grep -q '<title>PWNED</title>' "$SC_TMP/unsafe.dom"
	grep -q '<p id="pwned">' "$SC_TMP/unsafe.dom"
}

@test "chromium: the hostile page renders its sections and no injected script runs" {
	need_chromium
	commit=$(hostile_commit)
	hostile_journal "$commit"
	sc_run_io /dev/null "$SC_TMP/page.html" sc-report --html -C . --run R1 "$SC_TMP/journal"
	assert_equal "$status" 0
	art=$(browser_artifacts)
	browse "$SC_TMP/page.html" "$SC_TMP/page.dom" "$art/report-hostile.png"
	d=$SC_TMP/page.dom
	grep -q '<title>speccoder report: R1</title>' "$d"
	run ! grep -q 'PWNED</title>' "$d"
	run ! grep -q 'id="pwned"' "$d"
	run ! grep -q '<img' "$d"
	run ! grep -q '<script' "$d"
	for id in summary timeline checks ticks findings; do
		grep -q "<section id=\"$id\">" "$d" || fail "no $id section in the DOM"
	done
	grep -q '&lt;script&gt;document.title="PWNED"' "$d"
	grep -q '&lt;img src=x onerror=document.title="PWNED-IMG"&gt;.txt' "$d"
	# The screenshot is kept as an artifact: a real PNG.
	is_png "$art/report-hostile.png"
}
