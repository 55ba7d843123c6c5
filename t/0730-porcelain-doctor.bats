#!/usr/bin/env bats
# git speccoder doctor: what this host enforces, and what is missing.

# shellcheck disable=SC2154 # bats run sets status, output, stderr
load lib/common
load lib/porcelain

setup() {
	sc_common_setup
	sc_porcelain_repo
	git commit -q --allow-empty -m init
}

@test "doctor lists every protection of this host's tier, libgit2 and the keys by name" {
	local want
	want=$(sc-sandbox-exec --probe | sc-rec --to-json | jq -s 'map(select(.type == "host"))[0].tier as $t | map(select(.type == "protection" and .tier == $t)) | length')
	export ANTHROPIC_API_KEY=sk-ant-doctor-value-0123456789
	run git speccoder doctor
	assert_output --partial "libgit2 1."
	assert_output --partial "set      ANTHROPIC_API_KEY"
	assert_output --partial "not set  OPENAI_API_KEY"
	refute_output --partial sk-ant-doctor-value
	[ "$(grep -cE '^  (ok|missing) ' <<<"$output")" -ge "$want" ]
	if grep -q '^  missing' <<<"$output"; then
		assert_equal "$status" 1
	else
		assert_equal "$status" 0
	fi
}

@test "doctor: a provider whose key is not set is missing, exit 1" {
	unset ANTHROPIC_API_KEY
	printf '[model]\n\tprovider = anthropic\n' >speccoder.conf
	run git speccoder doctor
	assert_equal "$status" 1
	assert_output --partial "anthropic needs ANTHROPIC_API_KEY"
}

@test "doctor: a repository libgit2 1.5 cannot read is said, exit 1" {
	git config extensions.worktreeConfig true
	git config core.repositoryformatversion 1
	run git speccoder doctor
	assert_equal "$status" 1
	assert_output --partial "cannot be guarded"
	assert_output --partial "UNSUPPORTED-REPOSITORY"
}

@test "doctor: Bedrock's credential source is named, never a value; none is missing for bedrock" {
	printf '[model]\n\tprovider = bedrock\n\tname = anthropic.claude-test-v1:0\n' >speccoder.conf
	printf '[profile dev]\naws_access_key_id = AKIADOCTORTEST000001\naws_secret_access_key = doctor-secret-value-0123\n' >"$SC_TMP/aws-config"
	run env -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY -u AWS_BEARER_TOKEN_BEDROCK \
		AWS_CONFIG_FILE="$SC_TMP/aws-config" AWS_SHARED_CREDENTIALS_FILE="$SC_TMP/none" \
		AWS_PROFILE=dev git speccoder doctor
	assert_output --partial "set      AWS credentials (bedrock): profile 'dev' (static keys, config file)"
	refute_output --partial doctor-secret-value
	refute_output --partial AKIADOCTORTEST
	refute_output --partial "bedrock needs AWS credentials"
	run env -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY -u AWS_BEARER_TOKEN_BEDROCK \
		-u AWS_PROFILE AWS_CONFIG_FILE="$SC_TMP/none" \
		AWS_SHARED_CREDENTIALS_FILE="$SC_TMP/none" git speccoder doctor
	assert_equal "$status" 1
	assert_output --partial "not set  AWS credentials (bedrock)"
	assert_output --partial "bedrock needs AWS credentials"
}

@test "doctor: an IAM Identity Center profile is named by its sso-session; an expired sign-in says to run aws sso login, never the token" {
	printf '[model]\n\tprovider = bedrock\n\tname = anthropic.claude-test-v1:0\n' >speccoder.conf
	mkdir -p "$SC_TMP/home/.aws/sso/cache"
	printf '[profile work]\nsso_session = corp\nsso_account_id = 111122223333\nsso_role_name = Dev\nregion = us-west-2\n[sso-session corp]\nsso_region = eu-central-1\nsso_start_url = https://corp.awsapps.com/start\n' \
		>"$SC_TMP/home/.aws/config"
	cache=$SC_TMP/home/.aws/sso/cache/$(printf corp | sha1sum | cut -c1-40).json
	printf '{"accessToken": "doctor-sso-token-value-0123", "expiresAt": "2999-01-01T00:00:00Z"}' >"$cache"
	aws_env=(env -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY -u AWS_BEARER_TOKEN_BEDROCK
		-u AWS_CONFIG_FILE -u AWS_SHARED_CREDENTIALS_FILE HOME="$SC_TMP/home"
		AWS_PROFILE=work AWS_ENDPOINT_URL_SSO=http://127.0.0.1:9)
	run "${aws_env[@]}" git speccoder doctor
	assert_output --partial "set      AWS credentials (bedrock): profile 'work' (IAM Identity Center, sso-session 'corp')"
	refute_output --partial "bedrock needs AWS credentials"
	refute_output --partial doctor-sso-token
	printf '{"accessToken": "doctor-sso-token-value-0123", "expiresAt": "2001-01-01T00:00:00Z"}' >"$cache"
	run "${aws_env[@]}" git speccoder doctor
	assert_equal "$status" 1
	assert_output --partial "broken   AWS credentials (bedrock): the IAM Identity Center sign-in of profile 'work' has expired: run 'aws sso login --profile work'"
	assert_output --partial "bedrock needs AWS credentials"
	refute_output --partial doctor-sso-token
}
