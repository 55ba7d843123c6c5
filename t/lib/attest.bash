# Helpers for the sc-attest tests: keys made with ssh-keygen, small
# repositories made with git (the test's own, never the tool under test),
# envelopes taken apart with jq.
# shellcheck shell=bash

bats_require_minimum_version 1.5.0


TEST_RESULT_TYPE=https://in-toto.io/attestation/test-result/v0.1
export TEST_RESULT_TYPE

# git for setting up fixtures: no user or system configuration, a fixed
# identity and fixed dates so commit ids are reproducible.
attest_git_env() {
	export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
	export GIT_AUTHOR_NAME=tester GIT_AUTHOR_EMAIL=tester@example.com
	export GIT_COMMITTER_NAME=tester GIT_COMMITTER_EMAIL=tester@example.com
	export GIT_AUTHOR_DATE='2026-01-01T00:00:00Z'
	export GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
}

# attest_key NAME TYPE: an unencrypted key pair $SC_TMP/keys/NAME{,.pub}.
attest_key() {
	mkdir -p "$SC_TMP/keys"
	case "$2" in
	rsa) ssh-keygen -q -t rsa -b 3072 -N '' -C "$1" -f "$SC_TMP/keys/$1" ;;
	*) ssh-keygen -q -t "$2" -N '' -C "$1" -f "$SC_TMP/keys/$1" ;;
	esac
}

# attest_allow FILE PRINCIPAL KEYNAME [OPTIONS]: append an allowed_signers line.
attest_allow() {
	local pub
	pub=$(cut -d' ' -f1,2 "$SC_TMP/keys/$3.pub")
	if [ -n "${4:-}" ]; then
		printf '%s %s %s\n' "$2" "$4" "$pub" >>"$1"
	else
		printf '%s %s\n' "$2" "$pub" >>"$1"
	fi
}

# attest_repo DIR N: a repository with N commits c1..cN on main.
attest_repo() {
	local i
	attest_git_env
	git init -q -b main "$1"
	for i in $(seq 1 "$2"); do
		printf '%s\n' "$i" >"$1/file"
		git -C "$1" add file
		git -C "$1" commit -q -m "c$i"
	done
}

attest_pred() {
	printf '{"result":"PASSED","passedTests":["t/unit"]}\n' >"$SC_TMP/pred.json"
}

# attest_record REPO REV KEYNAME|--unsigned: one envelope, status checked.
attest_record() {
	local how
	attest_pred
	if [ "$3" = --unsigned ]; then how=(--unsigned); else how=(--key "$SC_TMP/keys/$3"); fi
	sc-attest -C "$1" record --commit "$2" --predicate-type "$TEST_RESULT_TYPE" \
		--predicate "$SC_TMP/pred.json" "${how[@]}" >/dev/null
}

# attest_note REPO REV: the note's text.
attest_note() {
	git -C "$1" notes --ref speccoder show "$2"
}

# attest_set_note REPO REV FILE: replace the note with FILE's contents.
attest_set_note() {
	git -C "$1" notes --ref speccoder add -f -F "$3" "$2"
}

# attest_pae ENVELOPE-FILE OUT: the DSSE pre-authentication encoding.
attest_pae() {
	local type len
	type=$(jq -r .payloadType "$1")
	jq -r .payload "$1" | base64 -d >"$2.body"
	len=$(wc -c <"$2.body")
	printf 'DSSEv1 %d %s %d ' "${#type}" "$type" "$len" >"$2"
	cat "$2.body" >>"$2"
	rm -f "$2.body"
}

# attest_armor B64 OUT: the SSH SIGNATURE armour ssh-keygen reads.
attest_armor() {
	{
		echo '-----BEGIN SSH SIGNATURE-----'
		printf '%s' "$1" | fold -w 70
		echo
		echo '-----END SSH SIGNATURE-----'
	} >"$2"
}

# attest_dearmor FILE: the base64 inside an SSH SIGNATURE armour.
attest_dearmor() {
	grep -v -- '-----' "$1" | tr -d '\n'
}

# attest_verify ARGS...: sc-attest verify with records turned to JSON lines
# in $SC_TMP/out.json; $status is sc-attest's own.
attest_verify() {
	: >"$SC_TMP/empty"
	sc_run_io "$SC_TMP/empty" "$SC_TMP/out.rec" sc-attest verify "$@"
	sc-rec --to-json <"$SC_TMP/out.rec" >"$SC_TMP/out.json"
}

# attest_outcome COMMIT: the outcome verify gave COMMIT.
attest_outcome() {
	jq -r --arg c "$1" 'select(.type == "result" and .commit == $c) | .outcome' \
		"$SC_TMP/out.json"
}

attest_conclusion() {
	jq -r 'select(.type == "conclusion") | .result' "$SC_TMP/out.json"
}

# attest_bulk_notes REPO REF: give every commit of REF an unsigned envelope
# about itself in one fast-import (sc-attest record once per commit costs a
# process each; this builds what it would write, for large ranges).
attest_bulk_notes() {
	git -C "$1" log --format='%H %T' "$2" | perl -MMIME::Base64 -ne '
		BEGIN {
			print "commit refs/notes/speccoder\n",
			      "committer speccoder <speccoder\@localhost> 1700000000 +0000\n",
			      "data 0\n";
		}
		chomp;
		my ($c, $t) = split / /;
		my $st = "{\"_type\":\"https://in-toto.io/Statement/v1\",\"predicate\":{\"result\":\"PASSED\"},\"predicateType\":\"https://in-toto.io/attestation/test-result/v0.1\",\"subject\":[{\"digest\":{\"gitCommit\":\"$c\",\"gitTree\":\"$t\"},\"name\":\"$c\"}]}";
		my $env = "{\"payload\":\"" . encode_base64($st, "") .
			"\",\"payloadType\":\"application/vnd.in-toto+json\",\"signatures\":[]}\n";
		print "N inline $c\ndata ", length($env), "\n", $env;
	' | git -C "$1" fast-import --quiet
}

# attest_big_branch REPO REF N: N commits on REF in one fast-import.
attest_big_branch() {
	local i
	for i in $(seq 1 "$3"); do
		printf 'commit refs/heads/%s\nmark :%d\ncommitter t <t@t> %d +0000\ndata 2\nc\n' \
			"$2" "$i" "$((1700000000 + i))"
		if [ "$i" -gt 1 ]; then printf 'from :%d\n' "$((i - 1))"; fi
		printf '\n'
	done | git -C "$1" fast-import --quiet
}
