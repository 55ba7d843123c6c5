#!/usr/bin/env bats
# lib/ is the core plus one folder per closed group of modules; lib/README
# says which folder may include which (t/lib/lib-imports.pl checks it).
# An include against that direction, or a folder the README does not
# rule, fails here.

# shellcheck disable=SC2154 # bats run sets status, output
load lib/common

check() { perl "$SC_TOP/t/lib/lib-imports.pl" "$@"; }

# A small tree with the real README: TREE/lib/README, a core module, and
# one module in policy/ and one in sandbox/.
small_tree() {
	mkdir -p "$SC_TMP/tree/lib/policy" "$SC_TMP/tree/lib/sandbox"
	cp "$SC_TOP/lib/README" "$SC_TMP/tree/lib/README"
	printf '#include "core.h"\n' >"$SC_TMP/tree/lib/core.c"
	: >"$SC_TMP/tree/lib/core.h"
	printf '#include "core.h"\n#include "rule.h"\n' >"$SC_TMP/tree/lib/policy/rule.c"
	: >"$SC_TMP/tree/lib/policy/rule.h"
	printf '#include "rule.h"\n#include "jail.h"\n' >"$SC_TMP/tree/lib/sandbox/jail.c"
	: >"$SC_TMP/tree/lib/sandbox/jail.h"
}

@test "every include of lib/ goes the way lib/README says" {
	run check "$SC_TOP"
	assert_success
	assert_output ""
}

@test "a small tree that keeps the direction passes" {
	small_tree
	run check "$SC_TMP/tree"
	assert_success
	assert_output ""
}

@test "the core including a folder's header fails, naming the line" {
	small_tree
	printf '#include "core.h"\n#include "jail.h"\n' >"$SC_TMP/tree/lib/core.c"
	run check "$SC_TMP/tree"
	assert_failure
	assert_output "lib/core.c:2: includes sandbox/jail.h: core may not import sandbox"
}

@test "a folder including one it may not import fails" {
	small_tree
	printf '#include "jail.h"\n' >"$SC_TMP/tree/lib/policy/rule.c"
	run check "$SC_TMP/tree"
	assert_failure
	assert_output "lib/policy/rule.c:1: includes sandbox/jail.h: policy may not import sandbox"
}

@test "a folder the README does not rule fails" {
	small_tree
	mkdir "$SC_TMP/tree/lib/misc"
	run check "$SC_TMP/tree"
	assert_failure
	assert_output "lib/misc/: no rule in lib/README"
}

@test "an include of a header that is not in lib/ fails" {
	small_tree
	printf '#include "nowhere.h"\n' >"$SC_TMP/tree/lib/core.c"
	run check "$SC_TMP/tree"
	assert_failure
	assert_output --partial 'lib/core.c:1: includes "nowhere.h", which is not in lib/'
}
