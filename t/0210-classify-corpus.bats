#!/usr/bin/env bats
# The policy corpus: tables of calls with the decision and rule each must
# get (t/data/policy/*.tsv), run against a fixture worktree.

bats_require_minimum_version 1.5.0
load lib/common
load lib/policy

@test "corpus: paths in worktree mode" {
	policy_corpus "$SC_POLICY_DATA/paths.tsv"
}

@test "corpus: commands and shell lines" {
	policy_corpus "$SC_POLICY_DATA/commands.tsv"
}

@test "corpus: configured checks, allow lists and MCP servers" {
	policy_corpus "$SC_POLICY_DATA/config.tsv"
}

@test "corpus: in-place mode" {
	policy_corpus "$SC_POLICY_DATA/inplace.tsv"
}

@test "corpus: spec mode" {
	policy_corpus "$SC_POLICY_DATA/spec.tsv"
}

@test "corpus: spec mode for one feature (--feature)" {
	policy_corpus "$SC_POLICY_DATA/spec-feature.tsv"
}

@test "corpus: spec mode for one OpenSpec change (--feature)" {
	policy_corpus "$SC_POLICY_DATA/spec-feature-openspec.tsv"
}

@test "corpus: explore mode" {
	policy_corpus "$SC_POLICY_DATA/explore.tsv"
}

@test "corpus: frozen tests under --no-prompt" {
	policy_corpus "$SC_POLICY_DATA/frozen.tsv"
}

@test "corpus: holes and friction a peer's suite found" {
	policy_corpus "$SC_POLICY_DATA/peers.tsv"
}

@test "corpus: the man page's decisions by example, which it shows as they are" {
	policy_corpus "$SC_POLICY_DATA/examples.tsv"
	policy_examples_block "$SC_POLICY_DATA/examples.tsv" >"$SC_TMP/want"
	# shellcheck disable=SC2016 # the backticks of a literal block
	sed -n '/^# DECISIONS BY EXAMPLE/,/^# EXIT STATUS/p' \
		"$SC_TOP/Documentation/sc-classify.1.scd" |
		sed -n '/^```$/,/^```$/p' >"$SC_TMP/got"
	diff -u "$SC_TMP/want" "$SC_TMP/got"
}
