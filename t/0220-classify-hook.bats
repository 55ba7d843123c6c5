#!/usr/bin/env bats
# contrib/claude-code/sc-classify-hook: recorded PreToolUse events in,
# the agent's hook answers out.

bats_require_minimum_version 1.5.0
load lib/common
load lib/policy

HOOK="$SC_TOP/contrib/claude-code/sc-classify-hook"

setup() {
	sc_common_setup
	ROOT="$SC_TMP/root"
	policy_fixture "$ROOT"
	printf '[check "test"]\n\targv = make test\n[mcp "docs"]\n\tallow = search\n' \
		>"$ROOT/speccoder.conf"
}

# hook EVENT: feed t/data/policy/hook/EVENT.json; the decision in $decision
hook() {
	sed "s|@ROOT@|$ROOT|g" "$SC_POLICY_DATA/hook/$1.json" >"$SC_TMP/event"
	policy_run "$SC_TMP/event" "$SC_TMP/answer" "$HOOK"
	sc_assert_not_crashed
	[ "$status" -eq 0 ]
	decision=$(jq -r '.hookSpecificOutput.permissionDecision // "none"' \
		<"$SC_TMP/answer")
	[ "$(jq -r '.hookSpecificOutput.hookEventName // "PreToolUse"' \
		<"$SC_TMP/answer")" = PreToolUse ]
}

@test "hook: reading commands and project files are allowed" {
	hook bash-ls && [ "$decision" = allow ]
	hook bash-subdir && [ "$decision" = allow ]
	hook read-src && [ "$decision" = allow ]
	hook edit-src && [ "$decision" = allow ]
	hook glob && [ "$decision" = allow ]
}

@test "hook: the configuration in the root is used" {
	hook bash-make && [ "$decision" = allow ]
	hook mcp-search && [ "$decision" = allow ]
}

@test "hook: protected files, secrets, remotes and escapes are denied" {
	hook bash-push && [ "$decision" = deny ]
	hook read-env && [ "$decision" = deny ]
	hook write-makefile && [ "$decision" = deny ]
	hook edit-claude && [ "$decision" = deny ]
	hook write-outside && [ "$decision" = deny ]
	hook bash-injection && [ "$decision" = deny ]
	grep -q 'deny.privilege' "$SC_TMP/answer"
}

@test "hook: network asks, unknown tools are denied, inert tools pass" {
	hook webfetch && [ "$decision" = ask ]
	hook unknown && [ "$decision" = deny ]
	hook todo && [ "$decision" = none ]
	[ ! -s "$SC_TMP/answer" ]
}

@test "hook: without the configuration make test asks" {
	rm "$ROOT/speccoder.conf"
	hook bash-make && [ "$decision" = ask ]
}

@test "hook: garbage in is a deny, never an allow" {
	printf 'not json' >"$SC_TMP/event"
	policy_run "$SC_TMP/event" "$SC_TMP/answer" "$HOOK"
	[ "$status" -eq 0 ]
	[ "$(jq -r .hookSpecificOutput.permissionDecision <"$SC_TMP/answer")" = deny ]
}
