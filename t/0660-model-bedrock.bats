#!/usr/bin/env bats
# The bedrock provider against the loopback server: InvokeModel with the
# Anthropic body, signed with SigV4 (checked by t/lib/sigv4-check.pl, the
# documented algorithm written on its own), every credential source, and
# Bedrock's error shapes.  No secret ever reaches the output.

# shellcheck disable=SC2154 # bats sets $stderr, $lines
load lib/common
load lib/model

MODEL_ID='anthropic.claude-sonnet-4-5-20250929-v1:0'
AKID=AKIATESTEXAMPLE00001
SECRET='wJalrXUtnFEMI/K7MDENG+bPxRfiCYTESTSECRET1'
TOKEN='IQoJb3JpZ2luX2VjTESTSESSIONTOKENVALUE2'
BEARER='ABSKQmVkcm9ja0FQSUtleTESTBEARERVALUE3'

# bedrock [NAME=VALUE...] -- [OPTION...]: sc-model with only the given AWS
# variables and a HOME of its own, so the machine's ~/.aws is never read.
bedrock() {
	local vars=()
	while [ "$1" != -- ]; do
		vars+=("$1")
		shift
	done
	shift
	sc_run_io "$SC_TMP/conv" "$SC_TMP/out" env -i "PATH=$PATH" \
		"HOME=$SC_TMP/home" "NO_PROXY=*" "${vars[@]}" \
		sc-model --provider bedrock --model "$MODEL_ID" \
		--endpoint "$MS_URL" "$@"
}

# No secret in what sc-model printed or wrote.
no_secret() {
	local s
	for s in "$SECRET" "$TOKEN" "$BEARER" "$AKID"; do
		[[ "$stderr" != *"$s"* ]] || { echo "secret on stderr" >&2; return 1; }
		run ! grep -qF -- "$s" "$SC_TMP/out"
	done
}

check_sig() {
	perl "$SC_TOP/t/lib/sigv4-check.pl" "$SECRET" "$SC_TMP/req.$1"
}

# ---- IAM Identity Center (SSO) profiles -----------------------------------

SSO_TOKEN='aoaAAAAAGTESTSSOACCESSTOKENVALUE4'

# sso_config [EXPIRES]: profile 'work' signs in through sso-session 'corp'
# (the portal in eu-central-1, Bedrock in us-west-2), and `aws sso login`
# left its token in the cache file the CLI names by the session's SHA-1.
sso_config() {
	mkdir -p "$SC_TMP/home/.aws/sso/cache"
	printf '[profile work]\nsso_session = corp\nsso_account_id = 111122223333\nsso_role_name = Dev+Role\nregion = us-west-2\n\n[sso-session corp]\nsso_region = eu-central-1\nsso_start_url = https://corp.awsapps.com/start\nsso_registration_scopes = sso:account:access\n' \
		>"$SC_TMP/home/.aws/config"
	sso_cache corp "${1:-2999-01-01T00:00:00Z}"
}

sso_cache() { # KEY EXPIRES
	printf '{"startUrl": "https://corp.awsapps.com/start", "region": "eu-central-1", "accessToken": "%s", "expiresAt": "%s", "refreshToken": "refresh-%s", "clientId": "c", "clientSecret": "s"}\n' \
		"$SSO_TOKEN" "$2" "$SSO_TOKEN" \
		>"$SC_TMP/home/.aws/sso/cache/$(printf '%s' "$1" | sha1sum | cut -c1-40).json"
}

# No SSO token (nor the role's credentials) in anything sc-model printed.
no_sso_secret() {
	[[ "$stderr" != *"$SSO_TOKEN"* ]] || { echo "token on stderr" >&2; return 1; }
	run ! grep -qF -- "$SSO_TOKEN" "$SC_TMP/out"
	no_secret
}

# The loopback server stands in for the portal too.
sso_portal() {
	printf 'AWS_ENDPOINT_URL_SSO=%s\n' "$MS_URL"
}

sso_bedrock() {
	bedrock AWS_PROFILE=work "$(sso_portal)" --
}

@test "bedrock: the signature checker holds AWS's published get-vanilla case, and refuses it altered" {
	printf 'GET / HTTP/1.1\r\nHost:example.amazonaws.com\r\nX-Amz-Date:20150830T123600Z\r\nAuthorization: AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31\r\n\r\n' >"$SC_TMP/vanilla"
	run perl "$SC_TOP/t/lib/sigv4-check.pl" \
		wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY "$SC_TMP/vanilla"
	assert_success
	sed 's/^GET \//GET \/x/' "$SC_TMP/vanilla" >"$SC_TMP/altered"
	run perl "$SC_TOP/t/lib/sigv4-check.pl" \
		wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY "$SC_TMP/altered"
	assert_failure 1
	assert_output 'bad: the signature does not match'
}

@test "bedrock: InvokeModel, the Anthropic body, signed with SigV4 from the environment's keys" {
	model_server_start bedrock-text.http
	model_conv <"$MODEL_DATA/conv-second.jsonl"
	bedrock "AWS_ACCESS_KEY_ID=$AKID" "AWS_SECRET_ACCESS_KEY=$SECRET" -- --region eu-west-3
	assert_equal "$status" 0
	model_req_head 1 >"$SC_TMP/head"
	run head -n 1 "$SC_TMP/head"
	# The model id goes in the path percent-encoded; the signature covers it encoded twice.
	assert_output 'POST /model/anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke-with-response-stream HTTP/1.1'
	run check_sig 1
	assert_success
	assert_output "ok $AKID eu-west-3 bedrock content-type;host;x-amz-date"
	run ! grep -qi '^x-amz-security-token:' "$SC_TMP/head"
	# The Messages body as Bedrock takes it: its version, no model member.
	model_req_body 1 >"$SC_TMP/body"
	run jq -r '.anthropic_version, has("model"), .max_tokens' "$SC_TMP/body"
	assert_output "$(printf 'bedrock-2023-05-31\nfalse\n4096')"
	jq -S 'del(.anthropic_version)' "$SC_TMP/body" >"$SC_TMP/got"
	jq -S 'del(.model, .stream)' "$MODEL_DATA/anthropic-request-second.json" >"$SC_TMP/want"
	diff -u "$SC_TMP/want" "$SC_TMP/got"
	run model_json "$SC_TMP/out"
	assert_line --index 0 '{"type":"text","text":"Done on Bedrock.","source":"model","label":"untrusted"}'
	assert_line --index 1 "{\"type\":\"usage\",\"input-tokens\":\"40\",\"output-tokens\":\"5\",\"cache-read-tokens\":\"2360\",\"cache-write-tokens\":\"0\",\"labels\":[\"trusted\",\"untrusted\"],\"provider\":\"bedrock\",\"model\":\"$MODEL_ID\"}"
	no_secret
}

@test "bedrock: a changed body no longer matches the signature (the check can fail)" {
	model_server_start bedrock-text.http
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	bedrock "AWS_ACCESS_KEY_ID=$AKID" "AWS_SECRET_ACCESS_KEY=$SECRET" -- --region us-east-1
	assert_equal "$status" 0
	run check_sig 1
	assert_success
	sed 's/careful/CAREFUL/' "$SC_TMP/req.1" >"$SC_TMP/req.2"
	run check_sig 2
	assert_failure 1
	assert_output 'bad: the signature does not match'
}

@test "bedrock: a session token is sent and signed" {
	model_server_start bedrock-text.http
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	bedrock "AWS_ACCESS_KEY_ID=$AKID" "AWS_SECRET_ACCESS_KEY=$SECRET" \
		"AWS_SESSION_TOKEN=$TOKEN" "AWS_REGION=us-west-2" --
	assert_equal "$status" 0
	model_req_head 1 >"$SC_TMP/head"
	grep -qx "X-Amz-Security-Token: $TOKEN" "$SC_TMP/head"
	run check_sig 1
	assert_output "ok $AKID us-west-2 bedrock content-type;host;x-amz-date;x-amz-security-token"
	no_secret
}

@test "bedrock: a Bedrock API key goes as a Bearer token, unsigned, and wins over keys" {
	model_server_start bedrock-text.http
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	bedrock "AWS_BEARER_TOKEN_BEDROCK=$BEARER" "AWS_ACCESS_KEY_ID=$AKID" \
		"AWS_SECRET_ACCESS_KEY=$SECRET" "AWS_DEFAULT_REGION=us-east-1" --
	assert_equal "$status" 0
	model_req_head 1 >"$SC_TMP/head"
	grep -qx "Authorization: Bearer $BEARER" "$SC_TMP/head"
	run ! grep -qi '^x-amz-date:' "$SC_TMP/head"
	no_secret
}

@test "bedrock: a profile's static keys and region come from the shared files" {
	model_server_start bedrock-text.http bedrock-denied.http
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	mkdir -p "$SC_TMP/home/.aws"
	printf '[default]\naws_access_key_id = WRONG\naws_secret_access_key = WRONG\n\n# a comment\n[dev]\naws_access_key_id = %s\naws_secret_access_key=%s\n' \
		"$AKID" "$SECRET" >"$SC_TMP/home/.aws/credentials"
	printf '[profile dev]\nregion = ap-south-1\ns3 =\n  region = nope\n' >"$SC_TMP/home/.aws/config"
	bedrock AWS_PROFILE=dev --
	assert_equal "$status" 0
	run check_sig 1
	assert_output "ok $AKID ap-south-1 bedrock content-type;host;x-amz-date"
	# A refusal names where the credentials came from, never what they are.
	bedrock AWS_PROFILE=dev --
	assert_equal "$status" 4
	[[ "$stderr" == *"error[AUTH]: bedrock refused the credentials from profile 'dev' (static keys, credentials file) (HTTP 403, AccessDeniedException)"* ]]
	no_secret
}

@test "bedrock: a profile's credential_process runs without a shell; its keys sign" {
	model_server_start bedrock-text.http
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	mkdir -p "$SC_TMP/home/.aws"
	cat >"$SC_TMP/creds.sh" <<-EOS
	#!/bin/sh
	echo "helper says $SECRET" >&2
	printf '{"Version": 1, "AccessKeyId": "%s", "SecretAccessKey": "%s", "SessionToken": "%s", "Expiration": "2999-01-01T00:00:00Z"}\n' "$AKID" "$SECRET" "$TOKEN"
	EOS
	chmod +x "$SC_TMP/creds.sh"
	printf '[profile ci]\nregion = us-east-2\ncredential_process = "%s" --role ci;x\n' \
		"$SC_TMP/creds.sh" >"$SC_TMP/home/.aws/config"
	# An unquoted ';' is an error: no shell is ever involved.
	bedrock AWS_PROFILE=ci --
	assert_equal "$status" 4
	[[ "$stderr" == *"error[AWS-CREDENTIALS]: the credential_process of profile 'ci' is not a command line"* ]]
	[ ! -e "$SC_TMP/req.1" ]
	printf '[profile ci]\nregion = us-east-2\ncredential_process = "%s" --role ci\n' \
		"$SC_TMP/creds.sh" >"$SC_TMP/home/.aws/config"
	bedrock AWS_PROFILE=ci --
	assert_equal "$status" 0
	run check_sig 1
	assert_output "ok $AKID us-east-2 bedrock content-type;host;x-amz-date;x-amz-security-token"
	no_secret
}

@test "bedrock: a credential_process that fails, prints garbage or expired keys: AWS-CREDENTIALS, nothing sent" {
	model_server_start bedrock-text.http
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	mkdir -p "$SC_TMP/home/.aws"
	printf '#!/bin/sh\necho "%s" >&2\nexit 3\n' "$SECRET" >"$SC_TMP/fail.sh"
	printf '#!/bin/sh\necho "not json %s"\n' "$SECRET" >"$SC_TMP/garbage.sh"
	printf '#!/bin/sh\necho '"'"'{"Version":2,"AccessKeyId":"A","SecretAccessKey":"%s"}'"'"'\n' "$SECRET" >"$SC_TMP/v2.sh"
	printf '#!/bin/sh\necho '"'"'{"Version":1,"AccessKeyId":"A","SecretAccessKey":"%s","Expiration":"2001-01-01T00:00:00Z"}'"'"'\n' "$SECRET" >"$SC_TMP/old.sh"
	chmod +x "$SC_TMP"/*.sh
	for s in fail:"failed (status 3)" garbage:"printed something that is not a JSON object" \
		v2:'printed no "Version": 1' old:"printed credentials that have expired"; do
		printf '[default]\nregion = us-east-1\ncredential_process = %s\n' \
			"$SC_TMP/${s%%:*}.sh" >"$SC_TMP/home/.aws/config"
		bedrock --
		assert_equal "$status" 4
		[[ "$stderr" == *"error[AWS-CREDENTIALS]: the credential_process of profile 'default' ${s#*:}"* ]]
		no_secret
	done
	[ ! -e "$SC_TMP/req.1" ]
}

@test "bedrock: throttling is retried; an expired token and a denial are final" {
	model_server_start bedrock-throttled.http bedrock-text.http
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	bedrock "AWS_ACCESS_KEY_ID=$AKID" "AWS_SECRET_ACCESS_KEY=$SECRET" \
		"AWS_SESSION_TOKEN=$TOKEN" -- --region us-east-1
	assert_equal "$status" 0
	[ -e "$SC_TMP/req.2" ]
	run check_sig 2
	assert_success
	model_server_stop
	rm -f "$SC_TMP"/req.*
	model_server_start bedrock-expired.http bedrock-text.http
	bedrock "AWS_ACCESS_KEY_ID=$AKID" "AWS_SECRET_ACCESS_KEY=$SECRET" \
		"AWS_SESSION_TOKEN=$TOKEN" -- --region us-east-1
	assert_equal "$status" 4
	[[ "$stderr" == *"error[AUTH]: bedrock refused the credentials from AWS_ACCESS_KEY_ID and AWS_SESSION_TOKEN (HTTP 403, ExpiredTokenException)"* ]]
	[ ! -e "$SC_TMP/req.2" ]
	[ ! -s "$SC_TMP/out" ]
	no_secret
}

@test "bedrock: throttling past the retries is PROVIDER with AWS's error name" {
	model_server_start bedrock-throttled.http bedrock-throttled.http
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	bedrock "AWS_BEARER_TOKEN_BEDROCK=$BEARER" -- --region us-east-1 --retries 1
	assert_equal "$status" 4
	[[ "$stderr" == *"error[PROVIDER]: bedrock answered HTTP 429 (ThrottlingException) after 2 attempts"* ]]
	[ ! -s "$SC_TMP/out" ]
}

@test "bedrock: a clock too far off is CLOCK-SKEW; another signature refusal is AUTH" {
	model_server_start bedrock-clock-skew.http bedrock-bad-signature.http
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	bedrock "AWS_ACCESS_KEY_ID=$AKID" "AWS_SECRET_ACCESS_KEY=$SECRET" -- --region us-east-1
	assert_equal "$status" 4
	[[ "$stderr" == *"error[CLOCK-SKEW]: bedrock refused the request's time (HTTP 403, InvalidSignatureException)"* ]]
	bedrock "AWS_ACCESS_KEY_ID=$AKID" "AWS_SECRET_ACCESS_KEY=$SECRET" -- --region us-east-1
	assert_equal "$status" 4
	[[ "$stderr" == *"error[AUTH]: bedrock refused the credentials from AWS_ACCESS_KEY_ID (HTTP 403, InvalidSignatureException)"* ]]
	no_secret
}

@test "bedrock: no model, no region, no credentials, a named profile that is missing" {
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	sc_run_io "$SC_TMP/conv" "$SC_TMP/out" env -i "PATH=$PATH" "HOME=$SC_TMP/home" \
		"AWS_BEARER_TOKEN_BEDROCK=$BEARER" sc-model --provider bedrock --region us-east-1
	assert_equal "$status" 2
	[[ "$stderr" == *"the bedrock provider needs --model MODEL_ID"* ]]
	MS_URL=http://127.0.0.1:9
	bedrock "AWS_BEARER_TOKEN_BEDROCK=$BEARER" --
	assert_equal "$status" 2
	[[ "$stderr" == *"no AWS region: give --region R or set AWS_REGION"* ]]
	bedrock -- --region us-east-1
	assert_equal "$status" 2
	[[ "$stderr" == *"no AWS credentials: set AWS_BEARER_TOKEN_BEDROCK"* ]]
	bedrock "AWS_BEARER_TOKEN_BEDROCK=$BEARER" -- --region 'us-east-1.evil.example/'
	assert_equal "$status" 2
	[[ "$stderr" == *"the AWS region is not a region name"* ]]
	bedrock AWS_PROFILE=nope -- --region us-east-1
	assert_equal "$status" 4
	[[ "$stderr" == *"error[AWS-CREDENTIALS]: AWS_PROFILE names profile 'nope', which neither AWS file holds"* ]]
	no_secret
}

@test "bedrock: --credential-source names the source, runs no credential_process, prints no value" {
	mkdir -p "$SC_TMP/home/.aws"
	printf '#!/bin/sh\ntouch "%s/ran"\n' "$SC_TMP" >"$SC_TMP/helper.sh"
	chmod +x "$SC_TMP/helper.sh"
	printf '[profile ci]\ncredential_process = %s\n' "$SC_TMP/helper.sh" >"$SC_TMP/home/.aws/config"
	: >"$SC_TMP/conv"
	bedrock AWS_PROFILE=ci -- --credential-source
	assert_equal "$status" 0
	run model_json "$SC_TMP/out"
	assert_output '{"type":"credentials","provider":"bedrock","source":"profile '"'ci'"' (credential_process)"}'
	[ ! -e "$SC_TMP/ran" ]
	bedrock "AWS_ACCESS_KEY_ID=$AKID" "AWS_SECRET_ACCESS_KEY=$SECRET" "AWS_SESSION_TOKEN=$TOKEN" -- --credential-source
	assert_equal "$status" 0
	run model_json "$SC_TMP/out"
	assert_output '{"type":"credentials","provider":"bedrock","source":"AWS_ACCESS_KEY_ID and AWS_SESSION_TOKEN"}'
	no_secret
	bedrock -- --credential-source
	assert_equal "$status" 4
	[[ "$stderr" == *"error[NO-CREDENTIALS]: no AWS credentials"* ]]
}

@test "bedrock SSO: the cached token of an sso-session buys the role's credentials from the portal; they sign" {
	model_server_start sso-role.http bedrock-text.http
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	sso_config
	before=$(cd "$SC_TMP/home" && find . -print0 | sort -z | xargs -0 ls -ld --time-style=full-iso)
	sso_bedrock
	assert_equal "$status" 0
	# GetRoleCredentials: a GET with the role and account, the token in
	# its header and nowhere else.
	run model_req_head 1
	assert_line --index 0 'GET /federation/credentials?role_name=Dev%2BRole&account_id=111122223333 HTTP/1.1'
	assert_line "x-amz-sso_bearer_token: $SSO_TOKEN"
	[ "$(grep -c -F "$SSO_TOKEN" "$SC_TMP/req.1")" -eq 1 ]
	# The role's keys and session token signed the Bedrock call, in the
	# profile's region; the SSO token did not travel there.
	run check_sig 2
	assert_output "ok $AKID us-west-2 bedrock content-type;host;x-amz-date;x-amz-security-token"
	run ! grep -qF -- "$SSO_TOKEN" "$SC_TMP/req.2"
	grep -qiF "x-amz-security-token: $TOKEN" "$SC_TMP/req.2"
	no_sso_secret
	# Nothing was written in HOME: no cache of the role's credentials.
	assert_equal "$(cd "$SC_TMP/home" && find . -print0 | sort -z | xargs -0 ls -ld --time-style=full-iso)" "$before"
}

@test "bedrock SSO: the older form (sso_start_url in the profile) finds the token by the start URL's SHA-1" {
	model_server_start sso-role.http bedrock-text.http
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	mkdir -p "$SC_TMP/home/.aws/sso/cache"
	printf '[default]\nsso_start_url = https://corp.awsapps.com/start\nsso_region = us-east-1\nsso_account_id = 111122223333\nsso_role_name = Dev\nregion = eu-west-1\n' \
		>"$SC_TMP/home/.aws/config"
	sso_cache https://corp.awsapps.com/start 2999-01-01T00:00:00UTC
	bedrock "$(sso_portal)" --
	assert_equal "$status" 0
	run check_sig 2
	assert_output "ok $AKID eu-west-1 bedrock content-type;host;x-amz-date;x-amz-security-token"
	no_sso_secret
}

@test "bedrock SSO: no sign-in or an expired one says to run aws sso login; nothing is sent" {
	model_server_start sso-role.http bedrock-text.http
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	sso_config 2001-01-01T00:00:00Z
	sso_bedrock
	assert_equal "$status" 4
	assert_equal "$stderr" "sc-model: error[AWS-CREDENTIALS]: the IAM Identity Center sign-in of profile 'work' has expired: run 'aws sso login --profile work'"
	rm -f "$SC_TMP"/home/.aws/sso/cache/*.json
	sso_bedrock
	assert_equal "$status" 4
	[[ "$stderr" == *"error[AWS-CREDENTIALS]: profile 'work' has no IAM Identity Center sign-in (no ~/.aws/sso/cache/"*".json): run 'aws sso login --profile work'" ]]
	[ ! -e "$SC_TMP/req.1" ]
	[ ! -s "$SC_TMP/out" ]
	no_sso_secret
}

@test "bedrock SSO: a cache file that is not a token, a profile missing its role: AWS-CREDENTIALS, nothing sent" {
	model_server_start sso-role.http
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	sso_config
	f=$(echo "$SC_TMP"/home/.aws/sso/cache/*.json)
	printf '{"accessToken": "%s"}' "$SSO_TOKEN" >"$f"
	sso_bedrock
	assert_equal "$status" 4
	[[ "$stderr" == *"error[AWS-CREDENTIALS]: ~/.aws/sso/cache/"*".json, the IAM Identity Center sign-in of profile 'work', holds no expiresAt date" ]]
	printf '{"accessToken": "%s\\r\\nX-Evil: 1", "expiresAt": "2999-01-01T00:00:00Z"}' "$SSO_TOKEN" >"$f"
	sso_bedrock
	assert_equal "$status" 4
	[[ "$stderr" == *"holds an accessToken a header cannot carry" ]]
	sso_config
	sed -i 's/^sso_role_name = .*/sso_role_name = a\/..\/..\/x?y/' "$SC_TMP/home/.aws/config"
	sso_bedrock
	assert_equal "$status" 4
	[[ "$stderr" == *"error[AWS-CREDENTIALS]: profile 'work' signs in with IAM Identity Center but its sso_role_name is not a role name" ]]
	sso_config
	sed -i '/^sso_region/d' "$SC_TMP/home/.aws/config"
	sso_bedrock
	assert_equal "$status" 4
	[[ "$stderr" == *"but its sso-session section names no sso_region" ]]
	[ ! -e "$SC_TMP/req.1" ]
	no_sso_secret
}

@test "bedrock SSO: the portal's refusals: 401 says to sign in again, 403 names the role; Bedrock is never called" {
	model_server_start sso-unauthorized.http sso-forbidden.http sso-expired-role.http bedrock-text.http
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	sso_config
	sso_bedrock
	assert_equal "$status" 4
	assert_equal "$stderr" "sc-model: error[AWS-CREDENTIALS]: IAM Identity Center no longer accepts the sign-in of profile 'work' (HTTP 401, UnauthorizedException): run 'aws sso login --profile work'"
	sso_bedrock
	assert_equal "$status" 4
	assert_equal "$stderr" "sc-model: error[AWS-CREDENTIALS]: IAM Identity Center refused role 'Dev+Role' of account 111122223333 to profile 'work' (HTTP 403, ForbiddenException)"
	sso_bedrock
	assert_equal "$status" 4
	assert_equal "$stderr" "sc-model: error[AWS-CREDENTIALS]: IAM Identity Center's answer for profile 'work' holds credentials that have expired"
	[ ! -e "$SC_TMP/req.4" ]
	[ ! -s "$SC_TMP/out" ]
	no_sso_secret
}

@test "bedrock SSO: the token never goes in clear to another host (AWS_ENDPOINT_URL_SSO)" {
	model_conv <"$MODEL_DATA/conv-first.jsonl"
	sso_config
	# No server: nothing may be sent anywhere.
	bedrock AWS_PROFILE=work AWS_ENDPOINT_URL_SSO=http://portal.example.com --
	assert_equal "$status" 4
	assert_equal "$stderr" "sc-model: error[AWS-CREDENTIALS]: AWS_ENDPOINT_URL_SSO must be https, or http to a loopback address"
}

@test "bedrock SSO: --credential-source names the sso-session, checks the sign-in, and asks the portal nothing" {
	model_server_start sso-role.http
	sso_config
	env -i "PATH=$PATH" "HOME=$SC_TMP/home" AWS_PROFILE=work \
		"$(sso_portal)" sc-model -z --provider bedrock \
		--credential-source >"$SC_TMP/source"
	run sc-rec --to-json <"$SC_TMP/source"
	assert_output '{"type":"credentials","provider":"bedrock","source":"profile '"'"'work'"'"' (IAM Identity Center, sso-session '"'"'corp'"'"')"}'
	[ ! -e "$SC_TMP/req.1" ]
	sso_config 2001-01-01T00:00:00Z
	run --separate-stderr env -i "PATH=$PATH" "HOME=$SC_TMP/home" AWS_PROFILE=work \
		sc-model -z --provider bedrock --credential-source
	assert_failure 4
	[[ "$stderr" == *"has expired: run 'aws sso login --profile work'" ]]
	[[ "$stderr$output" != *"$SSO_TOKEN"* ]]
}
