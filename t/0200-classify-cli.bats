#!/usr/bin/env bats
# sc-classify's command line: options, files, the stream, DENIED-THRICE,
# --no-prompt and grants.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
bats_require_minimum_version 1.5.0
load lib/common
load lib/policy

setup() {
	sc_common_setup
	ROOT="$SC_TMP/root"
	policy_fixture "$ROOT"
}

# call ID FIELD... : append one call record to $SC_TMP/in
call() {
	local id="$1" f
	shift
	{
		printf 'type=call\0id=%s\0' "$id"
		for f in "$@"; do printf '%s\0' "$f"; done
		printf '\0'
	} >>"$SC_TMP/in"
}

# Run sc-classify on $SC_TMP/in with the options given; JSON in $SC_TMP/json.
classify() {
	policy_run "$SC_TMP/in" "$SC_TMP/out" sc-classify --root "$ROOT" "$@"
	sc_assert_not_crashed
	sc-rec --to-json <"$SC_TMP/out" >"$SC_TMP/json"
}

field() { jq -r "select(.id == \"$1\") | .$2" <"$SC_TMP/json"; }

@test "--help prints the synopsis of the man page" {
	run sc-classify --help
	[ "$status" -eq 0 ]
	want=$(sed -n '/^# SYNOPSIS/,/^# /p' "$SC_TOP/Documentation/sc-classify.1.scd" |
		grep '^\*sc-classify\*' | sed 's/[*_]//g; s/\\//g')
	got=$(printf '%s\n' "$output" | grep -E '^(usage|   or): ' | cut -c8-)
	[ -n "$want" ]
	[ "$got" = "$want" ]
}

@test "usage errors exit 2" {
	run sc-classify
	[ "$status" -eq 2 ]
	run sc-classify --root "$ROOT" --mode sideways
	[ "$status" -eq 2 ]
	run sc-classify --root "$ROOT" extra
	[ "$status" -eq 2 ]
	run --separate-stderr sc-classify --root "$SC_TMP/nowhere"
	[ "$status" -eq 2 ]
	[[ "$stderr" == *"error[BAD-ROOT]"* ]]
}

@test "a verdict carries id, decision, rule, reason, class and object" {
	call 7 tool=write path=src/new.c
	classify
	[ "$status" -eq 0 ]
	[ "$(field 7 type)" = verdict ]
	[ "$(field 7 decision)" = allow ]
	[ "$(field 7 rule)" = allow.write ]
	[ "$(field 7 class)" = write ]
	[ "$(field 7 object)" = src/new.c ]
	reason=$(field 7 reason)
	[[ "$reason" == *. ]]
}

@test "a command's object names cwd, executable and argv" {
	call 1 tool=run 'shell=ls -l "a b"' cwd=src
	classify
	[ "$(field 1 object)" = "cwd=src exe=$(command -v ls) argv=ls -l 'a b'" ]
}

@test "records that are not calls pass through in order" {
	printf 'type=note\0text=hi\0\0' >"$SC_TMP/in"
	call 1 tool=read path=README.md
	classify
	[ "$status" -eq 0 ]
	[ "$(jq -r .type <"$SC_TMP/json" | tr '\n' ' ')" = "note verdict " ]
}

@test "malformed input exits 3 after the verdicts before it" {
	call 1 tool=read path=README.md
	printf 'type=call\0broken' >>"$SC_TMP/in"
	classify
	[ "$status" -eq 3 ]
	[[ "$stderr" == *"error[MALFORMED-RECORD]"* ]]
	[ "$(field 1 decision)" = allow ]
}

@test "a call that cannot be judged is denied and the stream goes on" {
	call 1 tool=teleport path=x
	call 2 tool=read
	call 3 tool=read path=README.md
	classify
	[ "$status" -eq 0 ]
	[ "$(field 1 rule)" = deny.malformed-call ]
	[ "$(field 2 rule)" = deny.malformed-call ]
	[ "$(field 3 decision)" = allow ]
}

@test "a path holding a NUL is denied" {
	printf 'type=call\0id=1\0tool=read\0path:6=a\0.env\0\0' >"$SC_TMP/in"
	classify
	[ "$(field 1 rule)" = deny.malformed-call ]
}

@test "three denials in a row stop the stream with DENIED-THRICE" {
	call 1 tool=read path=.env
	call 2 tool=write path=Makefile
	call 3 tool=run 'shell=sudo id'
	call 4 tool=read path=README.md
	classify
	[ "$status" -eq 1 ]
	[ "$(jq -r 'select(.type == "stop") | .code' <"$SC_TMP/json")" = DENIED-THRICE ]
	[ "$(jq -s length <"$SC_TMP/json")" -eq 4 ]
	[ -z "$(field 4 decision)" ]
}

@test "an allow or an ask between denials resets the count" {
	call 1 tool=read path=.env
	call 2 tool=write path=Makefile
	call 3 tool=read path=README.md
	call 4 tool=run 'shell=sudo id'
	call 5 tool=run 'shell=make test'
	call 6 tool=read path=.env
	call 7 tool=read path=.env
	classify
	[ "$status" -eq 0 ]
	[ "$(field 5 decision)" = ask ]
	[ "$(jq -r 'select(.type == "stop") | .code' <"$SC_TMP/json")" = "" ]
}

@test "--no-prompt turns ask into deny, which counts towards DENIED-THRICE" {
	call 1 tool=run 'shell=make test'
	call 2 tool=network url=https://example.com
	call 3 tool=write path=AGENTS.md
	classify --no-prompt
	[ "$status" -eq 1 ]
	[ "$(field 1 decision)" = deny ]
	[ "$(field 1 rule)" = ask.unlisted ]
	[[ "$(field 1 reason)" == "No person can be asked"* ]]
	[ "$(jq -r 'select(.type == "stop") | .code' <"$SC_TMP/json")" = DENIED-THRICE ]
}

@test "without --no-prompt the same calls ask" {
	call 1 tool=run 'shell=make test'
	classify
	[ "$status" -eq 0 ]
	[ "$(field 1 decision)" = ask ]
}

@test "a grant allows exactly the object it names" {
	call 1 tool=run 'shell=make test'
	classify
	obj=$(field 1 object)
	sc-rec type=grant "object=$obj" >"$SC_TMP/grants"
	: >"$SC_TMP/in"
	call 1 tool=run 'shell=make test'
	call 2 tool=run 'shell=make  test'
	call 3 tool=run 'shell=make test' cwd=src
	call 4 tool=run 'shell=make test V=1'
	call 5 tool=run 'shell=make test && make test'
	classify --grants "$SC_TMP/grants" --no-prompt
	[ "$(field 1 decision)" = allow ]
	[ "$(field 1 rule)" = allow.grant ]
	[ "$(field 2 decision)" = allow ]
	[ "$(field 3 decision)" = deny ]
	[ "$(field 4 decision)" = deny ]
	[ "$(field 5 decision)" = allow ]
}

@test "a grant never lifts a deny" {
	call 1 tool=write path=Makefile
	call 2 tool=write path=AGENTS.md
	classify
	{
		sc-rec type=grant "object=$(field 1 object)"
		sc-rec type=grant "object=$(field 2 object)"
		sc-rec type=grant 'object=*'
	} >"$SC_TMP/grants"
	: >"$SC_TMP/in"
	call 1 tool=write path=Makefile
	call 2 tool=write path=AGENTS.md
	call 3 tool=write path=./AGENTS.md
	call 4 tool=write path=src/../AGENTS.md
	call 5 tool=write path=agents.md
	classify --grants "$SC_TMP/grants"
	[ "$(field 1 decision)" = deny ]
	[ "$(field 2 rule)" = allow.grant ]
	# other spellings of the same file resolve to the granted object
	[ "$(field 3 rule)" = allow.grant ]
	[ "$(field 4 rule)" = allow.grant ]
	# another file is another object
	[ "$(field 5 decision)" = ask ]
}

@test "grants: a missing file exits 4, a malformed one 3" {
	: >"$SC_TMP/in"
	classify --grants "$SC_TMP/none"
	[ "$status" -eq 4 ]
	printf 'type=grant\0object' >"$SC_TMP/bad"
	classify --grants "$SC_TMP/bad"
	[ "$status" -eq 3 ]
	[[ "$stderr" == *"error[MALFORMED-RECORD]"* ]]
}

@test "config: missing 4, includes and bare prefixes refused with 3" {
	: >"$SC_TMP/in"
	classify --config "$SC_TMP/none.conf"
	[ "$status" -eq 4 ]
	[[ "$stderr" == *"error[CONFIG-UNREADABLE]"* ]]
	printf '[commands]\n\tallow = ls\n' >"$SC_TMP/inc.conf"
	printf '[include]\n\tpath = %s\n' "$SC_TMP/inc.conf" >"$SC_TMP/a.conf"
	classify --config "$SC_TMP/a.conf"
	[ "$status" -eq 3 ]
	[[ "$stderr" == *"error[BAD-CONFIG]"* ]]
	printf '[commands]\n\tallowPrefix = npm\n' >"$SC_TMP/b.conf"
	classify --config "$SC_TMP/b.conf"
	[ "$status" -eq 3 ]
	printf "[commands]\n\tallow = 'make test\n" >"$SC_TMP/c.conf"
	classify --config "$SC_TMP/c.conf"
	[ "$status" -eq 3 ]
	printf '[commands\n' >"$SC_TMP/d.conf"
	classify --config "$SC_TMP/d.conf"
	[ "$status" -eq 3 ]
}

@test "config: the user's global git configuration is never read" {
	export HOME="$SC_TMP/home"
	mkdir -p "$HOME"
	printf '[commands]\n\tallow = make test\n' >"$HOME/.gitconfig"
	printf '[check "x"]\n\targv = true\n' >"$SC_TMP/p.conf"
	call 1 tool=run 'shell=make test'
	classify --config "$SC_TMP/p.conf"
	[ "$(field 1 decision)" = ask ]
}

@test "config: argv values split like shell words" {
	cat >"$SC_TMP/q.conf" <<'CONF'
[commands]
	allow = printf '%s\\n' 'a b'
CONF
	call 1 tool=run argv=printf 'argv=%s\n' 'argv=a b'
	classify --config "$SC_TMP/q.conf"
	[ "$(field 1 rule)" = allow.command ]
}

@test "verdicts are flushed one by one, as a coprocess needs" {
	coproc CL { exec sc-classify --root "$ROOT"; }
	pid=$CL_PID
	printf 'type=call\0id=1\0tool=read\0path=README.md\0\0' >&"${CL[1]}"
	got=
	while IFS= read -r -d '' -t 10 f <&"${CL[0]}"; do
		[ -z "$f" ] && break
		got="$got$f;"
	done
	[[ "$got" == *"decision=allow;"* ]]
	printf 'type=call\0id=2\0tool=read\0path=.env\0\0' >&"${CL[1]}"
	got=
	while IFS= read -r -d '' -t 10 f <&"${CL[0]}"; do
		[ -z "$f" ] && break
		got="$got$f;"
	done
	[[ "$got" == *"decision=deny;"* ]]
	fd=${CL[1]}
	exec {fd}>&-
	wait "$pid"
}

@test "--print-protected writes the policy's protected names as records" {
	policy_run /dev/null "$SC_TMP/out" sc-classify --print-protected
	[ "$status" -eq 0 ]
	sc-rec --to-json <"$SC_TMP/out" >"$SC_TMP/json"
	# every record is type=protected with a pattern, a class and watch
	[ "$(jq -s 'map(select(.type != "protected" or .pattern == null or
		(.watch | IN("yes", "no") | not))) | length' "$SC_TMP/json")" -eq 0 ]
	# the names the guard's old list missed are watched
	for p in gnumakefile .vscode .gitattributes .envrc .circleci \
		.pre-commit-config.yaml makefile claude.md /specs; do
		[ "$(jq -r --arg p "$p" 'select(.pattern == $p) | .watch' \
			"$SC_TMP/json")" = yes ] || { echo "not watched: $p" >&2; false; }
	done
	# secrets and .git are listed, not watched
	[ "$(jq -r 'select(.pattern == ".git") | .watch' "$SC_TMP/json")" = no ]
	[ "$(jq -r 'select(.pattern == "*.pem") | "\(.class) \(.watch)"' \
		"$SC_TMP/json")" = "secret no" ]
	# no carve-out outside spec mode
	[ "$(jq -r 'select(.pattern | startswith("!"))' "$SC_TMP/json")" = "" ]
}

@test "--print-protected in spec mode takes back the feature's artifacts, first" {
	policy_run /dev/null "$SC_TMP/prot.rec" sc-classify --print-protected \
		--mode spec --feature My-Feat
	[ "$status" -eq 0 ]
	sc-rec --to-json <"$SC_TMP/prot.rec" | jq -r .pattern >"$SC_TMP/pats"
	grep -qx '!/specs/my-feat/spec.md' "$SC_TMP/pats"
	grep -qx '!/openspec/changes/my-feat/tasks.md' "$SC_TMP/pats"
	# every negation comes before the first pattern of another class
	last_neg=$(grep -n '^!' "$SC_TMP/pats" | tail -n 1 | cut -d: -f1)
	first_other=$(grep -n -x '\.git' "$SC_TMP/pats" | cut -d: -f1)
	[ "$last_neg" -lt "$first_other" ]
	# the guard reads them: the feature's spec is not watched, another's is
	mkdir -p "$ROOT/specs/my-feat" "$ROOT/specs/other"
	git -C "$ROOT" init -q
	sc-hash-git -C "$ROOT" --protect-records "$SC_TMP/prot.rec" >"$SC_TMP/m"
	echo new >"$ROOT/specs/my-feat/spec.md"
	run sc-hash-git -C "$ROOT" --protect-records "$SC_TMP/prot.rec" --check "$SC_TMP/m"
	[ "$status" -eq 0 ]
	echo new >"$ROOT/specs/other/spec.md"
	run sc-hash-git -C "$ROOT" --protect-records "$SC_TMP/prot.rec" --check "$SC_TMP/m"
	[ "$status" -eq 1 ]
	[[ "$output" == *specs/other/spec.md* ]]
	[[ "$output" != *specs/my-feat* ]]
}

@test "the credentials sc-sandbox-exec hides in a home are deny.secret-file in the root" {
	# one table (lib/policy/protected.c): a project's own .vault-token or
	# .config/gh is as secret as the person's
	mkdir -p "$ROOT/.config/gh" "$ROOT/app/.config/gcloud"
	echo TOKEN >"$ROOT/.vault-token"
	echo PG >"$ROOT/.pgpass"
	echo GH >"$ROOT/.config/gh/hosts.yml"
	echo ADC >"$ROOT/app/.config/gcloud/adc.json"
	# an allowed read after each: three denials in a row end the stream
	n=0
	for c in path=.vault-token path=.pgpass path=.config/gh/hosts.yml \
		path=app/.CONFIG/gcloud/adc.json path=_netrc \
		'shell=cat .vault-token' 'shell=cp .config/gh/hosts.yml /tmp/x'; do
		n=$((n + 1))
		case $c in shell=*) call "$n" tool=run "$c" ;; *) call "$n" tool=read "$c" ;; esac
		call "ok$n" tool=read path=.config/ghost.txt
	done
	classify
	for id in $(seq 1 "$n"); do
		[ "$(field "$id" rule)" = deny.secret-file ] ||
			fail "call $id: $(field "$id" rule)"
		[ "$(field "ok$id" rule)" = allow.read ]
	done
}

@test "--git-neutral names the keys that run programs, from the one table" {
	printf 'core.fsmonitor\0alias.st\0filter.LFS.process\0pager.log\0user.name\0Diff.X.Textconv\0hook.pre.command' \
		>"$SC_TMP/names"
	policy_run "$SC_TMP/names" "$SC_TMP/out" sc-classify --git-neutral
	[ "$status" -eq 0 ]
	run jq -r '"\(.key)=\(.value)"' < <(sc-rec --to-json <"$SC_TMP/out")
	# core.fsmonitor is set by sc-git itself; user.name runs nothing
	[ "$output" = "alias.st=
filter.LFS.process=
pager.log=false
Diff.X.Textconv=
hook.pre.command=" ]
	# the same table denies git -c of such a key
	call 1 tool=run 'shell=git -c hook.pre.command=x status'
	classify
	[ "$(field 1 rule)" = deny.git-exec-config ]
	# bad input: an empty name
	printf 'alias.x\0\0' >"$SC_TMP/names"
	policy_run "$SC_TMP/names" "$SC_TMP/out" sc-classify --git-neutral
	[ "$status" -eq 3 ]
	[[ "$stderr" == *"error[BAD-CONFIG-NAME]"* ]]
	run sc-classify --git-neutral --print-protected
	[ "$status" -eq 2 ]
}

@test "every rule id is documented in the man page" {
	ids=$(sed -n 's/^ X([A-Z_]*, "\([a-z.-]*\)".*/\1/p' "$SC_TOP/lib/policy/policy-int.h")
	[ "$(printf '%s\n' "$ids" | wc -l)" -gt 40 ]
	for id in $ids; do
		grep -q -- "$id" "$SC_TOP/Documentation/sc-classify.1.scd" ||
			{ echo "undocumented rule: $id" >&2; return 1; }
	done
}

@test "an ask names every part that asks, each with its rule and object" {
	[ -x /usr/bin/curl ] && [ -x /usr/bin/env ] || skip "needs /usr/bin/curl and /usr/bin/env"
	call 1 tool=run 'shell=curl -s example.org; ls; env -S ls; curl -s example.org'
	call 2 tool=run 'shell=curl -s example.org; sudo id'
	call 3 tool=run 'shell=ls'
	classify
	run jq -c 'select(.id == "1") | [.decision, .rule, .["part-rule"], .["part-object"]]' "$SC_TMP/json"
	assert_output '["ask","ask.network-tool",["ask.network-tool","ask.launcher"],["cwd=. exe=/usr/bin/curl argv=curl -s example.org","cwd=. exe=/usr/bin/env argv=env -S ls"]]'
	# a deny or an allow lists no parts
	run jq -c 'select(.id == "2" or .id == "3") | .["part-rule"]' "$SC_TMP/json"
	assert_output $'null\nnull'
}

@test "a grant of one part leaves the other parts asking" {
	[ -x /usr/bin/curl ] && [ -x /usr/bin/env ] || skip "needs /usr/bin/curl and /usr/bin/env"
	sc-rec type=grant 'object=cwd=. exe=/usr/bin/curl argv=curl -s example.org' >"$SC_TMP/grants"
	call 1 tool=run 'shell=curl -s example.org; env -S ls'
	classify --grants "$SC_TMP/grants"
	run jq -c 'select(.id == "1") | [.decision, .["part-object"]]' "$SC_TMP/json"
	assert_output '["ask","cwd=. exe=/usr/bin/env argv=env -S ls"]'
}
