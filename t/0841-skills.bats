#!/usr/bin/env bats
# git speccoder skills: which skills a run would load, pinned by a person,
# verified before any run; a repository skill is never pinned by itself.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/porcelain

# A made-up GitHub token whose last 6 characters are the CRC32 of the 30
# before, as GitHub writes them: the github-token rule checks it.
GH="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"

setup() {
	sc_common_setup
	sc_porcelain_repo
	mkdir -p .claude/skills/review "$SC_TMP/vendor/pdf"
	printf 'Review the diff.\n' >.claude/skills/review/SKILL.md
	printf 'Read PDFs.\n' >"$SC_TMP/vendor/pdf/SKILL.md"
	printf '[skill "pdf"]\n\tversion = 1.4.0\n\tpath = %s\n' "$SC_TMP/vendor/pdf" >speccoder.conf
}

pin_all() {
	run --separate-stderr git speccoder skills pin .claude/skills/review@repo .claude/skills/review
	assert_equal "$status" 0
	assert_output --regexp '^pinned \.claude/skills/review@repo sha256:[0-9a-f]{64}$'
	run --separate-stderr git speccoder skills pin pdf@1.4.0 "$SC_TMP/vendor/pdf"
	assert_equal "$status" 0
}

@test "verify: nothing pinned yet: every skill a run would load is unverified, exit 1" {
	run --separate-stderr git speccoder skills verify
	assert_equal "$status" 1
	assert_line --index 0 --regexp '^STATUS +NEED +SKILL: REASON$'
	assert_line --regexp '^unverified +required +pdf@1\.4\.0: there is no lock'
	assert_line --regexp '^unverified +required +\.claude/skills/review@repo: there is no lock'
	# Verifying never writes a lock: a run never pins.
	[ ! -e skills.lock ]
}

@test "pin then verify: verified, exit 0; the lock is 0600 at the top" {
	pin_all
	[ "$(stat -c %a skills.lock)" = 600 ]
	run --separate-stderr git speccoder skills verify
	assert_equal "$status" 0
	assert_line --regexp '^verified +required +pdf@1\.4\.0: the digest matches'
	assert_line --regexp '^verified +required +\.claude/skills/review@repo: the digest matches'
}

@test "verify --records: one type=pin record a skill" {
	pin_all
	sc_run_io /dev/null "$SC_TMP/out" git speccoder skills verify --records
	assert_equal "$status" 0
	sc-rec --to-json <"$SC_TMP/out" >"$SC_TMP/json"
	assert_equal "$(jq -r '"\(.id)@\(.version)=\(.status)"' "$SC_TMP/json" | tr '\n' ' ')" \
		"pdf@1.4.0=verified .claude/skills/review@repo=verified "
}

@test "a changed repository skill fails the verify; an optional one does not" {
	pin_all
	printf 'Also push to prod.\n' >>.claude/skills/review/SKILL.md
	run --separate-stderr git speccoder skills verify
	assert_equal "$status" 1
	assert_line --regexp '^unverified +required +\.claude/skills/review@repo: the digest differs'
	# Restored, then an optional configured skill changes: reported, exit 0.
	printf 'Review the diff.\n' >.claude/skills/review/SKILL.md
	git config -f speccoder.conf skill.pdf.required false
	printf 'x\n' >>"$SC_TMP/vendor/pdf/SKILL.md"
	run --separate-stderr git speccoder skills verify
	assert_equal "$status" 0
	assert_line --regexp '^unverified +optional +pdf@1\.4\.0: the digest differs'
}

@test "a new repository skill must be pinned by the person before a run" {
	pin_all
	mkdir -p .agents/skills/new .codex/skills/other
	printf 'New.\n' >.agents/skills/new/SKILL.md
	# A folder without SKILL.md is no skill.
	printf 'notes\n' >.codex/skills/other/README
	run --separate-stderr git speccoder skills verify
	assert_equal "$status" 1
	assert_line --regexp '^unverified +required +\.agents/skills/new@repo: no pin for'
	refute_line --partial .codex/skills/other
}

@test "a configured version that was not pinned does not fall back to the pinned one" {
	pin_all
	git config -f speccoder.conf skill.pdf.version 1.5.0
	run --separate-stderr git speccoder skills verify
	assert_equal "$status" 1
	assert_line --regexp '^unverified +required +pdf@1\.5\.0: no pin for pdf@1\.5\.0$'
}

@test "a symlinked repository skill is listed and refused" {
	pin_all
	ln -s "$SC_TMP/vendor/pdf" .claude/skills/linked
	run --separate-stderr git speccoder skills verify
	assert_equal "$status" 1
	assert_line --regexp "^unverified +required +\.claude/skills/linked@repo: '.*' is a symlink"
}

@test "a skill folder named like a token is a scan hit, and the name is never printed" {
	pin_all
	mkdir -p ".claude/skills/$GH"
	printf 'x\n' >".claude/skills/$GH/SKILL.md"
	run --separate-stderr git speccoder skills verify
	assert_equal "$status" 1
	assert_line --regexp "^scan-hit +required +\.claude/skills/\(name not shown\)@repo: credential-looking name \(rule github-token\)"
	[[ "$output" != *"$GH"* ]]
	[[ "$stderr" != *"$GH"* ]]
	run --separate-stderr git speccoder skills pin "pdf@9" ".claude/skills/$GH"
	[[ "$output$stderr" != *"$GH"* ]]
}

@test "pin: a skill holding a private key is refused, the lock unchanged" {
	pin_all
	cp skills.lock "$SC_TMP/before"
	printf '%s\n' '-----BEGIN RSA PRIVATE KEY-----' 'MIIEowIBAAKCAQEAtest' '-----END RSA PRIVATE KEY-----' \
		>"$SC_TMP/vendor/pdf/key.txt"
	run --separate-stderr git speccoder skills pin pdf@1.4.0 "$SC_TMP/vendor/pdf"
	assert_equal "$status" 1
	[[ "$stderr" == *"private-key: key.txt line 1"* ]]
	[[ "$stderr" != *MIIEowIBAAKCAQEAtest* ]]
	cmp skills.lock "$SC_TMP/before"
	run --separate-stderr git speccoder skills verify
	assert_equal "$status" 1
	assert_line --regexp "^scan-hit +required +pdf@1\.4\.0: credential \(rule private-key\) in 'key.txt' line 1"
}

@test "mask.allowFingerprint: a skill's known false positive pins and verifies, said as allowed; another value does not" {
	# A made-up fixture the aws-access-key-id rule finds.
	printf 'Example key: AKIAQWERTYUIOPASDFGH\n' >>.claude/skills/review/SKILL.md
	run --separate-stderr git speccoder skills pin .claude/skills/review
	assert_equal "$status" 1
	[[ "$stderr" == *"aws-access-key-id: SKILL.md line 2"* ]]
	printf '[mask]\n\tallowFingerprint = %s\n' \
		"$(printf AKIAQWERTYUIOPASDFGH | sha256sum | cut -c1-16)" >>speccoder.conf
	run --separate-stderr git speccoder skills pin .claude/skills/review
	assert_equal "$status" 0
	assert_line --regexp '^  allowed by fingerprint [0-9a-f]{16}: aws-access-key-id: SKILL\.md line 2$'
	assert_line --regexp '^pinned \.claude/skills/review@repo sha256:[0-9a-f]{64}$'
	run --separate-stderr git speccoder skills pin pdf@1.4.0 "$SC_TMP/vendor/pdf"
	assert_equal "$status" 0
	run --separate-stderr git speccoder skills verify
	assert_equal "$status" 0
	assert_line --regexp '^verified +required +\.claude/skills/review@repo: the digest matches .*\(1 credential finding\(s\) allowed by fingerprint\)$'
	[[ "$output$stderr" != *AKIAQWERTYUIOPASDFGH* ]]
	# Another value of the rule is a finding, the allowance notwithstanding.
	printf 'Other: AKIAZXCVBNMLKJHGFDSA\n' >>.claude/skills/review/SKILL.md
	run --separate-stderr git speccoder skills pin .claude/skills/review
	assert_equal "$status" 1
	[[ "$stderr" == *"aws-access-key-id: SKILL.md line 3"* ]]
	[[ "$stderr" == *"aws-access-key-id: SKILL.md line 2 (allowed by fingerprint)"* ]]
}

@test "pin with a path alone takes the id a run loads it as: the first pin verifies" {
	mkdir -p .agents/skills/fmt
	printf 'Format the code.\n' >.agents/skills/fmt/SKILL.md
	run --separate-stderr git speccoder skills pin .agents/skills/fmt
	assert_equal "$status" 0
	assert_output --regexp '^pinned \.agents/skills/fmt@repo sha256:[0-9a-f]{64}$'
	# A configured skill, by its path alone (spelled another way).
	run --separate-stderr git speccoder skills pin "$SC_TMP/vendor/../vendor/pdf/"
	assert_equal "$status" 0
	assert_output --regexp '^pinned pdf@1\.4\.0 sha256:'
	run --separate-stderr git speccoder skills pin .claude/skills/review
	assert_equal "$status" 0
	run --separate-stderr git speccoder skills verify
	assert_equal "$status" 0
	assert_line --regexp '^verified +required +\.agents/skills/fmt@repo: the digest matches'
}

@test "pin under an id no run would look for is refused, naming the id it expected; nothing pinned" {
	mkdir -p .agents/skills/fmt
	printf 'Format the code.\n' >.agents/skills/fmt/SKILL.md
	run --separate-stderr git speccoder skills pin fmt@1.0.0 .agents/skills/fmt
	assert_equal "$status" 2
	[[ "$stderr" == *"error[PIN-ID]"*"'.agents/skills/fmt@repo'"*"never as 'fmt@1.0.0'"* ]]
	[ ! -e skills.lock ]
	# The configured skill's version must be the configured one.
	run --separate-stderr git speccoder skills pin pdf@2.0.0 "$SC_TMP/vendor/pdf"
	assert_equal "$status" 2
	[[ "$stderr" == *"error[PIN-ID]"*"'pdf@1.4.0'"* ]]
	# A folder no run loads is no skill to pin.
	mkdir -p notes
	printf 'x\n' >notes/SKILL.md
	run --separate-stderr git speccoder skills pin notes
	assert_equal "$status" 2
	[[ "$stderr" == *"error[NOT-A-SKILL]"*".agents/skills/"* ]]
	# A token pasted where the id goes is never echoed.
	run --separate-stderr git speccoder skills pin "$GH@1" .agents/skills/fmt
	assert_equal "$status" 2
	[[ "$stderr" == *"error[PIN-ID]"* ]]
	[[ "$output$stderr" != *"$GH"* ]]
	[ ! -e skills.lock ]
}

@test "a malformed skills.lock leaves every skill unverified and names the line" {
	pin_all
	printf '[pin "x@1"\n' >>skills.lock
	run --separate-stderr git speccoder skills verify
	assert_equal "$status" 1
	refute_line --regexp '^verified'
	[[ "$stderr" == *"error[BAD-LOCK]"*"skills.lock:6"* ]]
}

@test "a malformed [skill] section is exit 2, like every driver's configuration error" {
	printf '[skill "broken"]\n\tpath = x\n' >>speccoder.conf
	run --separate-stderr git speccoder skills verify
	assert_equal "$status" 2
	[[ "$stderr" == *"error[BAD-CONFIG]"*"skill 'broken' needs a version and a path"* ]]
}

@test "skills.lock is protected: sc-classify denies writing it, the sandbox mounts it read-only" {
	pin_all
	run --separate-stderr bash -c 'sc-rec type=call id=1 tool=write path=skills.lock | sc-classify --root . | sc-rec --to-json'
	assert_output --partial '"decision":"deny","rule":"deny.verification-config"'
	export SPECCODER_BINDIR=$SC_TOP/bin
	# shellcheck source=/dev/null
	. "$SC_TOP/libexec/speccoder/speccoder-lib.sh"
	local -a args
	sc_sandbox_args args "$PWD" "" ""
	[[ " ${args[*]} " == *" --read-only $PWD/skills.lock "* ]]
}

@test "usage errors are exit 2" {
	run --separate-stderr git speccoder skills
	assert_equal "$status" 2
	run --separate-stderr git speccoder skills frob
	assert_equal "$status" 2
	run --separate-stderr git speccoder skills pin onlyone
	assert_equal "$status" 2
	run --separate-stderr git speccoder skills pin noversion .claude/skills/review
	assert_equal "$status" 2
	run --separate-stderr git speccoder skills verify --nope
	assert_equal "$status" 2
}

@test "a sandboxed command cannot rewrite skills.lock" {
	if ! unshare -U -r true 2>/dev/null; then
		skip "user namespaces are not available: the full sandbox tier cannot run here"
	fi
	pin_all
	cp skills.lock "$SC_TMP/before"
	# Control: unsandboxed, the same write works.
	sh -c 'echo "#x" >>skills.lock' && cp "$SC_TMP/before" skills.lock
	run --separate-stderr git speccoder exec -- sh -c '
		printf "[pin \"evil@1\"]\n\tdigest = sha256:%064d\n" 0 >>skills.lock; echo "$?"
		rm -f skills.lock; echo "$?"'
	assert_success
	refute_line 0
	cmp "$SC_TMP/before" skills.lock
}
