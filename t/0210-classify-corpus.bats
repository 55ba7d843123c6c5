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
