#!/usr/bin/env bats
# sc-report --text: the journal as text for a terminal and the model's
# usage summed, in C (sc-report(1)).  The view was a jq program in
# speccoder-report; for every shape of journal it prints the same bytes
# that program printed, and no byte of the model's text reaches the
# terminal uncleaned.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/porcelain

setup() {
	sc_common_setup
}

# The text view as speccoder-report printed it before it was C (the jq
# program copied as it was, but for one change: a newline in a single
# time= is shown as '?', as in every other column, where the old view
# let it start a line that read as another record), as the reference the
# C view must equal.
old_text_view() { # JOURNAL
	set -o pipefail
	sc-rec --to-json <"$1" | jq -r '
	def oneline: gsub("\n"; "?");
	def show: if type == "array" then map(oneline) | join(" ") else oneline end;
	((.time // "-") | if type == "string" then oneline else . end) as $t
	| [to_entries[] | select(.key != "type" and .key != "time" and .key != "text")
	   | "\(.key)=\(.value | show)"] as $f
	| "\($t)  \(.type | show)  \($f | join("  "))",
	  (if .text then ([.text] | flatten | join(" ") | split("\n") | map("    | " + .) | .[]) else empty end)
' | sc-rec --for-terminal || return
	sc-rec --to-json <"$1" | jq -rs '
	def n(k): (.[k] // "0") | tonumber? // 0;
	map(select(.type == "usage")) as $u
	| if ($u | length) == 0 then empty else
	  ($u | map(n("input-tokens")) | add) as $in
	  | ($u | map(n("output-tokens")) | add) as $out
	  | ($u | map(n("cache-read-tokens")) | add) as $rd
	  | ($u | map(n("cache-write-tokens")) | add) as $wr
	  | ($u | map(if .provider == "openai" then 0.5 * n("cache-read-tokens")
		else 0.9 * n("cache-read-tokens") - 0.25 * n("cache-write-tokens") end) | add) as $saved
	  | ($u | map(if .provider == "openai" then n("input-tokens")
		else n("input-tokens") + n("cache-read-tokens") + n("cache-write-tokens") end) | add) as $all
	  | "usage: \($u | length) model turns, \($in) input tokens, \($out) output tokens",
	    "  cache: \($rd) read, \($wr) written; saved about \($saved | floor) input tokens (\(if $all > 0 then ($saved * 100 / $all | floor) else 0 end)% of \($all))"
	  end
'
}

# Assert the C view of JOURNAL is byte for byte the old one.
same_as_jq() { # JOURNAL
	old_text_view "$1" >"$SC_TMP/old" || fail "the reference failed on $1"
	sc_run_io /dev/null "$SC_TMP/new" sc-report --text "$1"
	assert_equal "$status" 0
	cmp "$SC_TMP/old" "$SC_TMP/new" ||
		fail "differs: $(diff <(od -c "$SC_TMP/old") <(od -c "$SC_TMP/new") | head -20)"
}

ESC=$'\e]0;pwned\a\e[2J\e[31m'
BIDI=$'\u202e\u2066\u200f\ufeff'
C1=$'\xc2\x9b31m\x9b'

@test "every shape of record: the same bytes as the jq view" {
	{
		sc-rec type=run command=run feature=login time=2026-01-01T00:00:00Z
		# arrays: a repeated name is one column, values joined by spaces
		sc-rec type=call argv=git argv=$'commit\n-m' argv= time=2026-01-01T00:00:01Z
		# text of several lines, a repeated text, an empty one, a newline
		sc-rec type=model "text=line one"$'\nline two\n' "text=and more"
		sc-rec type=model text=
		sc-rec type=model text=$'\n\n'
		# controls, escapes, C1, bidi in names' values and in text
		sc-rec type=x "text=$ESC$BIDI$C1"$'\t\x7f' "other=$ESC"$'\n'"$BIDI"
		# a repeated time is a JSON list; a time's newline is shown as ?
		sc-rec type=x time=a time=$'b\x01"\\\n/\x7f\t'
		sc-rec type=x time=$'12\n34'
		# values that are not UTF-8: base64 under NAME@base64
		sc-rec type=x time=$'\xff' text=$'\xfe\n' k=$'\xc3' k=ok
		sc-rec type=x type=y
		sc-rec type=x $'empty='
		# a value with a NUL (the length form)
		printf 'type=x\0text:5=a\0b\nc\0k:3=\0\0\0\0\0'
	} >"$SC_TMP/journal"
	same_as_jq "$SC_TMP/journal"
	grep -qxF '2026-01-01T00:00:01Z  call  argv=git commit?-m ' "$SC_TMP/new"
	grep -qxF '    | line two' "$SC_TMP/new"
	# a time's newline starts no line of its own
	grep -qxF '12?34  x  ' "$SC_TMP/new"
	if grep -qx '34  *x.*' "$SC_TMP/new"; then
		fail "a time's newline started a line of its own"
	fi
	grep -qxF -e '-  x  time@base64=/w==  text@base64=/go=  k@base64=ww== b2s=' "$SC_TMP/new"
}

@test "usage from anthropic, bedrock and openai, and none: the same sums and rates" {
	{
		sc-rec type=run command=run
		sc-rec type=usage provider=anthropic model=m input-tokens=100 output-tokens=20 cache-read-tokens=1000 cache-write-tokens=400
		sc-rec type=usage provider=bedrock input-tokens=3 output-tokens=4 cache-read-tokens=100 cache-write-tokens=0
		sc-rec type=usage provider=openai input-tokens=1000 output-tokens=5 cache-read-tokens=600 cache-write-tokens=999
		sc-rec type=usage input-tokens=1 output-tokens=1
	} >"$SC_TMP/journal"
	same_as_jq "$SC_TMP/journal"
	# 900-100 + 90 + 300 saved of 1500 + 103 + 1000 + 1 billed.
	grep -qxF 'usage: 4 model turns, 1104 input tokens, 30 output tokens' "$SC_TMP/new"
	grep -qxF '  cache: 1700 read, 1399 written; saved about 1190 input tokens (45% of 2604)' "$SC_TMP/new"
	sc-rec type=run command=run >"$SC_TMP/none"
	same_as_jq "$SC_TMP/none"
	run ! grep -q usage "$SC_TMP/new"
}

@test "malformed and hostile numbers: no crash, no other sum changed, jq's results" {
	local v i=0
	for v in 0 12 -5 +7 1e3 1E400 -1e400 1.5 0.1 .5 5. 1.e5 2.5e-324 1e-400 -0 \
		' 8 ' $'\t9' $'\v10' $'\f11' $'12\f' $'\xef\xbb\xbf13' nan NaN -nan inf \
		-Infinity infinit 0x10 1e 1e+ . ..5 '1 2' '[1]' '"5"' true null '' \
		99999999999999999999 123456789012345678 9007199254740993 1e16 1e15 \
		0.00012 4e-5 12345.678e10 $'7\u00a0' $'\xff9' 1e308 $'1\n2' 12abc; do
		i=$((i + 1))
		{
			sc-rec type=usage provider=anthropic input-tokens=10 output-tokens=1 cache-read-tokens=100 cache-write-tokens=10
			sc-rec type=usage "input-tokens=$v" "output-tokens=$v" "cache-read-tokens=$v" "cache-write-tokens=$v"
			sc-rec type=usage provider=openai "input-tokens=$v" output-tokens=2 "cache-read-tokens=$v"
			# repeated: jq sees a list, which counts 0
			sc-rec type=usage input-tokens=5 "input-tokens=$v" output-tokens=3
		} >"$SC_TMP/j$i"
		same_as_jq "$SC_TMP/j$i"
	done
	# A field that is not a number counts 0 and leaves the others alone.
	grep -qxF 'usage: 4 model turns, 10 input tokens, 6 output tokens' "$SC_TMP/new"
}

@test "an escape sequence, a C1 control or a bidi override in text never reaches the output raw" {
	{
		sc-rec type=model "text=$ESC$C1$BIDI" "feature=$ESC$BIDI"
		sc-rec type=model "text=second$ESC"$'\n'"third$BIDI"
		sc-rec type=tool "output=$C1"$'\r\x08'"$ESC"
	} >"$SC_TMP/journal"
	sc_run_io /dev/null "$SC_TMP/out" sc-report --text --run "R$ESC" "$SC_TMP/journal"
	assert_equal "$status" 0
	run ! grep -qP '[\x00-\x09\x0b-\x1f\x7f]' "$SC_TMP/out"
	# Every byte past ASCII here was a C1 control or an invisible one.
	run ! env LC_ALL=C grep -qaP '[\x80-\xff]' "$SC_TMP/out"
	# Cleaned, not hidden: the text around the controls is kept.
	grep -qF '    | second?]0;pwned??[2J?[31m' "$SC_TMP/out"
	grep -qxF 'run R?]0;pwned??[2J?[31m' "$SC_TMP/out"
}

@test "a record whose type is not UTF-8 is shown; the jq view dropped it" {
	{
		sc-rec type=a
		sc-rec type=$'\xff' text=hidden?
		sc-rec type=c
	} >"$SC_TMP/journal"
	sc_run_io /dev/null "$SC_TMP/out" sc-report --text "$SC_TMP/journal"
	assert_equal "$status" 0
	grep -qxF -e '-  -  type@base64=/w==' "$SC_TMP/out"
	grep -qxF '    | hidden?' "$SC_TMP/out"
	old_text_view "$SC_TMP/journal" >"$SC_TMP/old" 2>/dev/null || true
	run ! grep -q hidden "$SC_TMP/old"
}

@test "a journal cut mid-record: the records before shown, no usage, exit 3" {
	{
		sc-rec type=model text=before
		sc-rec type=usage input-tokens=5 output-tokens=1
		printf 'type=model\0text=cut'
	} >"$SC_TMP/journal"
	old_text_view "$SC_TMP/journal" >"$SC_TMP/old" 2>/dev/null && fail "the reference accepted it"
	sc_run_io /dev/null "$SC_TMP/new" sc-report --text "$SC_TMP/journal"
	assert_equal "$status" 3
	[[ "$stderr" == *"error[MALFORMED-RECORD]"* ]]
	cmp "$SC_TMP/old" "$SC_TMP/new"
	grep -qxF '    | before' "$SC_TMP/new"
	run ! grep -q '^usage:' "$SC_TMP/new"
}

@test "sc-report --text: usage errors and a missing journal" {
	run --separate-stderr sc-report --text
	assert_equal "$status" 2
	run --separate-stderr sc-report --text --html "$SC_TMP/j"
	assert_equal "$status" 2
	run --separate-stderr sc-report --text -C . "$SC_TMP/j"
	assert_equal "$status" 2
	run --separate-stderr sc-report --text "$SC_TMP/nothing"
	assert_equal "$status" 1
	[[ "$stderr" == *"error[NO-JOURNAL]"* ]]
}

@test "the page and the text show one sum: the same usage lines" {
	{
		sc-rec type=run command=run
		sc-rec type=usage provider=anthropic input-tokens=1e3 output-tokens=+20 cache-read-tokens=1000 cache-write-tokens=400
		sc-rec type=usage provider=openai input-tokens=1000 input-tokens=7 output-tokens=5 cache-read-tokens=600
		sc-rec type=end result=success
	} >"$SC_TMP/journal"
	sc_run_io /dev/null "$SC_TMP/text" sc-report --text "$SC_TMP/journal"
	assert_equal "$status" 0
	sc_run_io /dev/null "$SC_TMP/page.html" sc-report --html "$SC_TMP/journal"
	assert_equal "$status" 0
	grep -qxF 'usage: 2 model turns, 1000 input tokens, 25 output tokens' "$SC_TMP/text"
	grep -qF 'usage: 2 model turns, 1000 input tokens, 25 output tokens' "$SC_TMP/page.html"
	cache=$(grep '^  cache:' "$SC_TMP/text") || fail "the text view has no cache line"
	grep -qF "$cache" "$SC_TMP/page.html"
}

@test "git speccoder report: the run's id, then sc-report's view" {
	sc_porcelain_repo
	local state run=20261201T000000Z-7
	# shellcheck source=/dev/null
	state=$(SPECCODER_BINDIR=$SC_TOP/bin bash -c ". '$SC_TOP/libexec/speccoder/speccoder-lib.sh'; sc_state_dir")
	mkdir -p "$state/runs/$run"
	{
		sc-rec type=model "text=a$ESC"$'\nb'
		sc-rec type=usage provider=bedrock input-tokens=10 output-tokens=2 cache-read-tokens=90
	} >"$state/runs/$run/journal"
	run --separate-stderr git speccoder report "$run"
	assert_success
	{ printf 'run %s\n' "$run"; old_text_view "$state/runs/$run/journal"; } >"$SC_TMP/old"
	assert_equal "$output" "$(cat "$SC_TMP/old")"
	assert_line --index 0 "run $run"
	assert_line '    | a?]0;pwned??[2J?[31m'
}
