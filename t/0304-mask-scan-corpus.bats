#!/usr/bin/env bats
# sc-mask --scan against its labelled corpus (t/data/scan, written by
# t/bench/scan-corpus.pl from each format's public shape, random values):
# every rule finds its samples, no look-alike is flagged, every rule is
# documented, and no finding prints a value.

# shellcheck disable=SC2154 # bats: run sets status, output, stderr
bats_require_minimum_version 1.5.0
load lib/common

CORPUS="$SC_TOP/t/data/scan"

@test "scan corpus: the committed corpus is what scan-corpus.pl writes" {
	mkdir -p "$SC_TMP/c"
	perl "$SC_TOP/t/bench/scan-corpus.pl" "$SC_TMP/c"
	for f in tp.txt tp.rules fp.txt fp.rules; do
		cmp "$CORPUS/$f" "$SC_TMP/c/$f"
	done
}

@test "scan corpus: every rule has samples and a row in sc-secrets(5)" {
	grep -o '^	{ "[a-z0-9-]*"' "$SC_TOP/lib/mask/scanrules.c" | cut -d'"' -f2 >"$SC_TMP/ids"
	[ "$(wc -l <"$SC_TMP/ids")" -ge 90 ]
	while read -r id; do
		grep -q -x -F "$id" "$CORPUS/tp.rules" || { echo "no sample: $id"; return 1; }
		grep -q -x -F "|  $id" "$SC_TOP/Documentation/sc-secrets.5.scd" ||
			{ echo "not documented: $id"; return 1; }
	done <"$SC_TMP/ids"
}

@test "scan corpus: recall at least 95% (each rule finds its own), false positives at most 5%" {
	sc_run_io /dev/null "$SC_TMP/tp" sc-mask --scan "$CORPUS/tp.txt"
	assert_equal "$status" 1
	sc_run_io "$SC_TMP/tp" "$SC_TMP/tp.json" sc-rec --to-json
	sc_run_io /dev/null "$SC_TMP/fp" sc-mask --scan "$CORPUS/fp.txt"
	sc_run_io "$SC_TMP/fp" "$SC_TMP/fp.json" sc-rec --to-json
	run perl "$SC_TOP/t/bench/scan-score.pl" "$CORPUS" "$SC_TMP/tp.json" "$SC_TMP/fp.json"
	assert_success
	echo "$output" | tail -n 1
	[[ "${lines[-1]}" =~ recall\ ([0-9]+)/([0-9]+).*positives\ ([0-9]+)/([0-9]+) ]]
	hit=${BASH_REMATCH[1]} all=${BASH_REMATCH[2]} fp=${BASH_REMATCH[3]} fpall=${BASH_REMATCH[4]}
	[ $((hit * 100)) -ge $((all * 95)) ]
	[ $((fp * 100)) -le $((fpall * 5)) ]
	# Every rule finds at least one of its samples.
	run perl -ne 'print "$1\n" if /^  (\S+)\s+0\/[1-9]/' <<<"$output"
	assert_output ''
}

@test "scan corpus: findings never hold a sample's value" {
	sc_run_io /dev/null "$SC_TMP/tp" sc-mask --scan "$CORPUS/tp.txt"
	assert_equal "$status" 1
	# Every random run of 16 characters or more of a sample is a value.
	grep -o -E '[A-Za-z0-9+/_-]{16,}' "$CORPUS/tp.txt" | sort -u >"$SC_TMP/values"
	run grep -a -c -F -f "$SC_TMP/values" "$SC_TMP/tp"
	assert_output 0
	[ -z "$stderr" ]
}
