#!/usr/bin/env bats
# sc-hash-git reads a hostile repository without running anything of it,
# without the user's git configuration, and refuses what libgit2 1.5 would
# misread.

# shellcheck disable=SC2154,SC2030,SC2031 # bats run and sc_run_io set status, output, stderr
load lib/common
load lib/hashgit
bats_require_minimum_version 1.5.0

setup() {
	sc_common_setup
	hg_setup
	T="$SC_TMP/tools"
	hg_marker_tools "$T"
	R="$SC_TMP/repo"
	hg_hostile_repo "$R" "$T"
	: >"$SC_TMP/empty"
	printf '*.md\nREADME\n' >"$SC_TMP/protect"
}

@test "control: plain git status in the hostile repository runs its programs" {
	git -C "$R" status >/dev/null 2>&1 || :
	[ -s "$T/marker" ]
	cat "$T/marker"
}

@test "control: git diff runs diff.external, git st runs the alias" {
	git -C "$R" --no-pager diff >/dev/null 2>&1 || :
	grep -q "ran:" "$T/marker"
	rm "$T/marker"
	git -C "$R" st >/dev/null 2>&1 || :
	grep -q "alias" "$T/marker"
}

@test "sc-hash-git runs no hook, fsmonitor, filter, pager, helper or alias" {
	sc_run_io "$SC_TMP/empty" "$SC_TMP/m" sc-hash-git -C "$R" --status --protect "$SC_TMP/protect"
	[ "$status" -eq 0 ] || { echo "$stderr"; false; }
	[ ! -e "$T/marker" ]
	# status saw the changed, filter=evil file without running the filter
	run hg_jq "$SC_TMP/m" 'select(.kind=="status") | .clean'
	assert_output no
	# and --check, which computes everything again, runs nothing either
	printf 'again\n' >>"$R/README"
	git -C "$R" config --add alias.co '!'"$T/bin/mark"
	sc_run_io "$SC_TMP/empty" "$SC_TMP/found" sc-hash-git --check "$SC_TMP/m" \
		-C "$R" --status --protect "$SC_TMP/protect"
	[ "$status" -eq 1 ]
	[ ! -e "$T/marker" ]
	run hg_findings "$SC_TMP/found"
	assert_output "GIT-CHANGED config config modified
GIT-CHANGED status status modified
INTEGRITY - README modified"
}

@test "an included config file is read as data, and an edit to it is found" {
	git -C "$R" config --add include.path "$T/included.cfg" # twice: one item
	git -C "$R" config 'includeIf.gitdir:/nowhere/.path' "$SC_TMP/absent.cfg"
	sc_run_io "$SC_TMP/empty" "$SC_TMP/m" sc-hash-git -C "$R"
	[ "$status" -eq 0 ]
	printf '[core]\n\tpager = %s\n' "$T/bin/mark" >>"$T/included.cfg"
	printf '[core]\n\tpager = %s\n' "$T/bin/mark" >"$SC_TMP/absent.cfg"
	sc_run_io "$SC_TMP/empty" "$SC_TMP/found" sc-hash-git --check "$SC_TMP/m" -C "$R"
	[ "$status" -eq 1 ]
	[ ! -e "$T/marker" ]
	run hg_findings "$SC_TMP/found"
	assert_output "GIT-CHANGED config $SC_TMP/absent.cfg added
GIT-CHANGED config $T/included.cfg modified"
}

@test "GIT_DIR and GIT_WORK_TREE from the environment are ignored" {
	hg_repo "$SC_TMP/other"
	sc_run_io "$SC_TMP/empty" "$SC_TMP/m" env GIT_DIR="$SC_TMP/other/.git" \
		GIT_WORK_TREE="$SC_TMP/other" GIT_CONFIG_PARAMETERS="'core.x=1'" \
		sc-hash-git -C "$R"
	[ "$status" -eq 0 ]
	run hg_jq "$SC_TMP/m" 'select(.path=="config") | .sha256'
	assert_output "$(sha256sum <"$R/.git/config" | cut -d' ' -f1)"
}

@test "a repository owned by another user is refused, even with safe.directory=* in ~/.gitconfig" {
	[ "$(id -u)" -eq 0 ] || skip "needs root to give the repository to another user"
	hg_repo "$SC_TMP/theirs"
	chown -R nobody "$SC_TMP/theirs"
	printf '[safe]\n\tdirectory = *\n' >"$HOME/.gitconfig"
	mkdir -p "$HOME/.config/git"
	cp "$HOME/.gitconfig" "$HOME/.config/git/config"
	# control: git itself trusts it through the user's configuration
	git -C "$SC_TMP/theirs" rev-parse HEAD >/dev/null
	sc_run_io "$SC_TMP/empty" "$SC_TMP/m" sc-hash-git -C "$SC_TMP/theirs"
	[ "$status" -eq 4 ]
	[[ "$stderr" == *"error[UNSAFE-REPOSITORY-OWNER]"* ]]
	[ ! -s "$SC_TMP/m" ]
}

# unsupported DIR NAME: exit 4, UNSUPPORTED-REPOSITORY naming NAME, no output.
unsupported() {
	sc_run_io "$SC_TMP/empty" "$SC_TMP/m" sc-hash-git -C "$1"
	[ "$status" -eq 4 ] || { echo "status $status: $stderr"; return 1; }
	[[ "$stderr" == *"error[UNSUPPORTED-REPOSITORY]"*"$2"* ]] || { echo "$stderr"; return 1; }
	[ ! -s "$SC_TMP/m" ]
	sc_run_io "$SC_TMP/empty" "$SC_TMP/m" sc-hash-git --check "$SC_TMP/before" -C "$1"
	[ "$status" -eq 4 ] || { echo "check: status $status"; return 1; }
}

save_manifest_of() {
	hg_repo "$1"
	sc_run_io "$SC_TMP/empty" "$SC_TMP/before" sc-hash-git -C "$1"
	[ "$status" -eq 0 ]
}

@test "a SHA-256 repository is refused, naming the object format" {
	save_manifest_of "$SC_TMP/x"
	git init -q --object-format=sha256 "$SC_TMP/s256"
	git -C "$SC_TMP/s256" commit -q --allow-empty -m one
	unsupported "$SC_TMP/s256" "extensions.objectFormat"
}

@test "extensions.worktreeConfig is refused, in version 1 and version 0" {
	save_manifest_of "$SC_TMP/x"
	hg_repo "$SC_TMP/wtc"
	git -C "$SC_TMP/wtc" config core.repositoryformatversion 1
	git -C "$SC_TMP/wtc" config extensions.worktreeConfig true
	unsupported "$SC_TMP/wtc" "extensions.worktreeConfig"
	# git honours it in a version 0 repository, libgit2 1.5 opens that one
	# and ignores config.worktree: it must be refused all the same
	git -C "$SC_TMP/wtc" config core.repositoryformatversion 0
	git -C "$SC_TMP/wtc" config --worktree core.hooksPath "$T/evilhooks"
	unsupported "$SC_TMP/wtc" "extensions.worktreeConfig=true"
}

@test "reftable is refused, naming the ref storage" {
	save_manifest_of "$SC_TMP/x"
	hg_repo "$SC_TMP/rt"
	git -C "$SC_TMP/rt" config core.repositoryformatversion 1
	git -C "$SC_TMP/rt" config extensions.refStorage reftable
	unsupported "$SC_TMP/rt" "extensions.refStorage"
}

@test "an unknown extension or format version is refused" {
	save_manifest_of "$SC_TMP/x"
	hg_repo "$SC_TMP/ux"
	git -C "$SC_TMP/ux" config extensions.somethingNew true
	unsupported "$SC_TMP/ux" "extensions.somethingnew"
	hg_repo "$SC_TMP/v2"
	git -C "$SC_TMP/v2" config core.repositoryformatversion 2
	unsupported "$SC_TMP/v2" "version 2"
}
