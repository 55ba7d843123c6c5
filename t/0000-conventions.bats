#!/usr/bin/env bats
# Conventions every tool shares (DESIGN.md): --help equal to the man page
# SYNOPSIS, --version, usage errors with their exit status, a man page.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/man

tools() {
	local f
	for f in "$SC_TOP"/build/bin/sc-*; do
		[ -x "$f" ] && basename "$f"
	done
}

usage_status() {
	case "$1" in
	sc-sandbox-exec) echo 125 ;;
	*) echo 2 ;;
	esac
}

@test "at least one tool is built" {
	run tools
	assert_success
	assert_output --partial sc-rec
}

@test "every tool has a man page whose SYNOPSIS equals its --help" {
	local t
	for t in $(tools); do
		[ -f "$SC_TOP/Documentation/$t.1.scd" ] || fail "$t has no man page"
		diff -u <(sc_man_synopsis "$t.1") <(sc_help_synopsis "$t") ||
			fail "$t --help differs from its man page SYNOPSIS"
		[ -n "$(sc_man_synopsis "$t.1")" ] || fail "$t: empty SYNOPSIS"
	done
}

@test "every tool answers --help and --version with status 0" {
	local t
	for t in $(tools); do
		run "$t" --help
		[ "$status" -eq 0 ] || fail "$t --help: status $status"
		[[ "${lines[0]}" == "usage: $t "* ]] || fail "$t --help: ${lines[0]}"
		run "$t" --version
		[ "$status" -eq 0 ] || fail "$t --version: status $status"
		[[ "$output" =~ ^$t\ \(speccoder\)\ [0-9]+\.[0-9]+\.[0-9]+$ ]] ||
			fail "$t --version: $output"
	done
}

@test "an unknown option is a usage error that names only the option" {
	local t want
	for t in $(tools); do
		want=$(usage_status "$t")
		run --separate-stderr "$t" --no-such-option=hunter2-value
		[ "$status" -eq "$want" ] || fail "$t: status $status, want $want"
		[[ "$stderr" == *"error[USAGE]"* ]] || fail "$t: $stderr"
		[[ "$stderr" != *hunter2-value* ]] || fail "$t echoed the value"
		[ -z "$output" ] || fail "$t wrote to stdout on a usage error"
	done
}

@test "every man page builds" {
	local page
	for page in "$SC_TOP"/Documentation/*.[1-8].scd; do
		page=$(basename "$page" .scd)
		[ -s "$SC_TOP/build/man/$page" ] || fail "build/man/$page missing"
	done
}

@test "sc-sandbox-exec's own failures, usage included, are 125 and never run the command" {
	[ -x "$SC_TOP/build/bin/sc-sandbox-exec" ] || skip "sc-sandbox-exec is not built"
	run --separate-stderr sc-sandbox-exec --no-such-option -- touch "$SC_TMP/ran"
	assert_equal "$status" 125
	[ ! -e "$SC_TMP/ran" ]
}

@test "protected names and git keys that run programs are one C table, not copies in scripts" {
	# lib/policy/protected.c and lib/gitkeys.c hold them; drivers and the guard
	# ask sc-classify (--print-protected, --git-neutral); comments aside
	run sh -c 'grep -rniE "$1" "$2/libexec" "$2/hooks-guard/sc-git" |
		grep -vE "^[^:]*:[0-9]+:[[:space:]]*#"' sh \
		"gnumakefile|/\.claude/|\.mcp\.json|sshcommand|filter\.\*\.|textconv" "$SC_TOP"
	[ "$status" -eq 1 ] || { echo "$output" >&2; false; }
	grep -q '"gnumakefile"' "$SC_TOP/lib/policy/protected.c"
	grep -q '"core.sshcommand"' "$SC_TOP/lib/gitkeys.c"
}

@test "in lib/ only the sc_*_run functions decide an exit status (lib/diag.h)" {
	# Each function of lib/ (every .c) that names an SC_EXIT_ status must be an
	# sc_*_run (or a static *_exit mapping a status for one); sc_die()
	# and exit() lines aside.  Functions start at column 0, bodies are
	# "{" ... "}" at column 0 (STYLE.md).
	local f out=""
	for f in "$SC_TOP"/lib/*.c "$SC_TOP"/lib/*/*.c; do
		out+=$(awk '
		FNR == 1 { fn = ""; st = 0; body = 0 }
		/^[A-Za-z_].*[A-Za-z_0-9]+\(/ && !/;[ \t]*$/ && !body {
			s = $0; sub(/\(.*/, "", s); n = split(s, w, /[ \t*]+/)
			fn = w[n]; st = $0 ~ /^static /
		}
		/^\{/ { body = 1 }
		/^\}/ { body = 0 }
		body && /SC_EXIT_/ && !/(sc_die|exit)\(/ &&
		    fn !~ /^sc_[a-z0-9_]+_run$/ && !(st && fn ~ /_exit$/) {
			print FILENAME ":" FNR ": " fn
		}' "$f")
	done
	[ -z "$out" ] || fail "exit statuses below the run functions:
$out"
}

# t/lib/exit-literals.awk on FILE...: the numbers it finds used as exit
# statuses.
exit_literals() { awk -f "$SC_TOP/t/lib/exit-literals.awk" "$@"; }

@test "exit statuses are SC_EXIT_* names: no main compares or returns a number, no run function returns one" {
	cd "$SC_TOP" || return 1
	run exit_literals bin/*.c lib/*.c lib/*/*.c
	assert_success
	assert_output ""
}

@test "exit-literals: each planted number is found, and what is not a status is not" {
	mkdir -p "$SC_TMP/bin" "$SC_TMP/lib"
	cd "$SC_TMP" || return 1
	cat >bin/sc-x.c <<'C'
int main(int argc, char *argv[])
{
	int ret, c;

	while ((c = sc_getopt(argc, argv, "-h", NULL, NULL)) != -1)
		if (c == 1)
			continue;
	ret = sc_x_run(argc);
	if (ret == 5)
		return SC_EXIT_OK;
	if (sc_y_run(argc) != 3)
		return SC_EXIT_OK;
	if (2 == ret || argc > 2 || strlen(argv[0]) > 1)
		return 1;
	switch (sc_z_run(argc)) {
	case 4:
		exit(3);
	}
	return ret == SC_EXIT_NO ? SC_EXIT_OK : ret;
}
C
	cat >lib/x.c <<'C'
static int x_exit(int st)
{
	return st == 1 ? 4 : SC_EXIT_OK;
}

int sc_x_run(int argc)
{
	if (argc > 3)   /* a count, not a status */
		return 2;
	return x_exit(argc);
}

static int rank(int a)
{
	return 3;       /* a rank, not a status */
}
C
	run exit_literals bin/sc-x.c lib/x.c
	assert_output "bin/sc-x.c:9: a number as an exit status (SC_EXIT_*)
bin/sc-x.c:11: a number as an exit status (SC_EXIT_*)
bin/sc-x.c:13: a number as an exit status (SC_EXIT_*)
bin/sc-x.c:14: a number as an exit status (SC_EXIT_*)
bin/sc-x.c:16: a number as an exit status (SC_EXIT_*)
bin/sc-x.c:17: a number as an exit status (SC_EXIT_*)
lib/x.c:3: x_exit returns a number, not SC_EXIT_*
lib/x.c:9: sc_x_run returns a number, not SC_EXIT_*"
	# named, the same code passes
	sed -i 's/== 5/== SC_EXIT_NO/; s/!= 3/!= SC_EXIT_OK/; s/2 == ret/SC_EXIT_USAGE == ret/;
		s/return 1;/return SC_EXIT_NO;/; s/case 4:/case SC_EXIT_UNAVAILABLE:/;
		s/exit(3)/exit(SC_EXIT_MALFORMED)/; s/? 4 :/? SC_EXIT_UNAVAILABLE :/;
		s/return 2;/return SC_EXIT_USAGE;/' bin/sc-x.c lib/x.c
	run exit_literals bin/sc-x.c lib/x.c
	assert_success
	assert_output ""
}
