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
