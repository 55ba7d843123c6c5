#!/usr/bin/perl
# scan-corpus.pl DIR: write the labelled corpus of sc-mask --scan, built
# from the credential formats' public shapes (prefix, length, alphabet);
# every value is random, never a real key.  Deterministic: the same DIR
# contents on every run (a fixed seed), so the files are committed.
#   DIR/tp.txt, DIR/tp.rules  true positives, one sample a line, and the
#                             rule that must find each, line for line
#   DIR/fp.txt, DIR/fp.rules  look-alikes no rule may flag, and the rule
#                             each imitates ("-" for generic text)
# scan-corpus.pl --doc prints the rows of the rule table of sc-secrets(5)
# instead (secret-assignment is described there in words).
use strict;
use warnings;

# rule => [ true positive shapes ], [ near misses ]
# A shape is literal text with {CLASS:N} filled with N random characters.
my @FORMATS = (
 ['private-key', ['-----BEGIN RSA PRIVATE KEY-----','-----BEGIN OPENSSH PRIVATE KEY-----','-----BEGIN PRIVATE KEY-----','-----BEGIN EC PRIVATE KEY-----','-----BEGIN ENCRYPTED PRIVATE KEY-----','-----BEGIN PGP PRIVATE KEY BLOCK-----','-----BEGIN DSA PRIVATE KEY-----'], ['-----BEGIN PUBLIC KEY-----','-----BEGIN CERTIFICATE-----','BEGIN RSA PRIVATE KEY']],
 ['putty-private-key', ['PuTTY-User-Key-File-2: ssh-rsa','PuTTY-User-Key-File-3: ssh-ed25519'], ['PuTTY-User-Key-File: missing version']],
 ['age-secret-key', ['AGE-SECRET-KEY-1{age:52}'], ['AGE-SECRET-KEY-1{bech:20}','age1{bech:58}','AGE-SECRET-KEY-1{badage:52}']],
 ['aws-access-key-id', ['AKIA{b32:16}','ASIA{b32:16}','ABIA{b32:16}','AROA{b32:16}','A3T{a36u:17}'], ['AKIA{b32:12}','AKIA{b32:16}{b32:3}','akia{b32:16}']],
 ['aws-secret-access-key', ['aws_secret_access_key = {b64:40}','AWS_SECRET_ACCESS_KEY="{b64:40}"','"aws_secret_key": "{b64:40}"'], ['aws_secret_access_key = ${AWS_SECRET}','aws_region = us-east-1','aws_secret_access_key: !Ref SecretParam']],
 ['gcp-service-account', ['"type": "service_account"','{"type":"service_account"'], ['"type": "authorized_user"']],
 ['google-api-key', ['AIza{u64:35}'], ['AIza{u64:20}']],
 ['google-oauth-client-secret', ['GOCSPX-{u64:28}'], ['GOCSPX-{u64:10}']],
 ['google-oauth-access-token', ['ya29.{u64:80}'], ['ya29.{u64:8}']],
 ['azure-storage-key', ['DefaultEndpointsProtocol=https;AccountName=devstore;AccountKey={b64:86}==;EndpointSuffix=core.windows.net','AccountKey={b64:86}=='], ['AccountName=devstoreaccount1;','AccountKey=${STORAGE_KEY}']],
 ['azure-sas-token', ['https://acct.blob.core.windows.net/c/f?sv=2022-11-02&ss=b&srt=o&sp=r&se=2030-01-01T00:00:00Z&sig={b64:43}%3D','SharedAccessSignature=sv=2021-06-08&sig={b64:43}='], ['https://acct.blob.core.windows.net/c/f?sv=2022-11-02&sig=short%3D']],
 ['azure-entra-client-secret', ['{a62:3}{dig:1}Q~{u64:34}','client_secret = "{a62:3}{dig:1}Q~{u64:31}"'], ['{a62:3}{dig:1}Q~{u64:10}']],
 ['azure-shared-access-key', ['Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey={b64:43}='], ['SharedAccessKey={b64:10}=']],
 ['digitalocean-token', ['dop_v1_{hex:64}','doo_v1_{hex:64}','dor_v1_{hex:64}'], ['dop_v1_{hex:32}']],
 ['alibaba-access-key-id', ['LTAI{a62:20}','LTAI{a62:16}'], ['LTAI{a62:6}']],
 ['heroku-api-key', ['HRKU-{u64:60}','heroku_api_key = "{hex:8}-{hex:4}-{hex:4}-{hex:4}-{hex:12}"'], ['HRKU-{u64:10}','heroku_app = "my-app"']],
 ['cloudflare-origin-ca-key', ['v1.0-{hex:24}-{hex:146}'], ['v1.0-{hex:24}-{hex:20}']],
 ['flyio-token', ['fo1_{u64:43}','FlyV1 fm2_{u64:120}'], ['fo1_{u64:10}']],
 ['vault-token', ['hvs.{u64:95}','hvb.{u64:140}'], ['hvs.{u64:20}']],
 ['terraform-cloud-token', ['{a62:14}.atlasv1.{u64:67}'], ['{a62:14}.atlasv1.{u64:10}']],
 ['doppler-token', ['dp.pt.{a62:43}','dp.st.dev.{a62:40}','dp.sa.{a62:43}'], ['dp.pt.{a62:10}']],
 ['pulumi-token', ['pul-{hex:40}'], ['pul-{hex:20}']],
 ['planetscale-token', ['pscale_tkn_{u64:43}','pscale_pw_{u64:43}'], ['pscale_tkn_{u64:10}']],
 ['supabase-token', ['sbp_{hex:40}','sb_secret_{u64:36}'], ['sbp_{hex:12}']],
 ['databricks-token', ['dapi{hex:32}','dapi{hex:32}-2'], ['dapi{hex:16}']],
 ['linear-api-key', ['lin_api_{a62:40}'], ['lin_api_{a62:12}']],
 ['notion-token', ['secret_{a62:43}','ntn_{dig:11}{a62:35}'], ['secret_{a62:12}']],
 ['airtable-token', ['pat{a62:14}.{hex:64}'], ['pat{a62:14}.{hex:16}']],
 ['shopify-token', ['shpat_{hex:32}','shpss_{hex:32}','shpca_{hex:32}','shppa_{hex:32}'], ['shpat_{hex:12}']],
 ['twilio-api-key', ['SK{hex:32}'], ['SK{hex:20}']],
 ['sendgrid-api-key', ['SG.{u64:22}.{u64:43}'], ['SG.{u64:10}.{u64:10}']],
 ['mailgun-api-key', ['key-{hex:32}'], ['key-{hex:12}']],
 ['mailchimp-api-key', ['{hex:32}-us{dig:2}','{hex:32}-us{dig:1}'], ['{hex:20}-us1']],
 ['newrelic-key', ['NRAK-{a36u:27}','NRJS-{hex:19}','NRII-{u64:32}','{hex:36}NRAL'], ['NRAK-{a36u:10}']],
 ['datadog-api-key', ['DD_API_KEY={hex:32}','datadog_api_key: "{hex:32}"','DD_APP_KEY={hex:40}'], ['DD_API_KEY={hex:12}']],
 ['sentry-token', ['sntrys_eyJ{u64:150}','sntryu_{hex:64}'], ['sntryu_{hex:20}']],
 ['sentry-dsn', ['https://{hex:32}@o{dig:6}.ingest.sentry.io/{dig:7}','https://{hex:32}@sentry.example.com/12'], ['https://{hex:10}@sentry.io/1']],
 ['grafana-token', ['glc_{b64:80}','glsa_{a62:32}_{hex:8}'], ['glsa_{a62:10}_{hex:8}']],
 ['dynatrace-token', ['dt0c01.{a36u:24}.{a36u:64}'], ['dt0c01.{a36u:10}.{a36u:10}']],
 ['sumologic-access-key', ['SUMO_ACCESS_KEY={a62:64}','sumologic_access_id = "su{a62:12}"'], ['SUMO_ACCESS_KEY=short']],
 ['github-token', ['ghp_{crc:30}','gho_{crc:30}','ghu_{crc:30}','ghs_{crc:30}','ghr_{crc:30}'], ['ghp_{a62:20}','ghx_{a62:36}','ghp_{badcrc:30}','gho_{badcrc:30}','ghs_{badcrc:30}']],
 ['github-fine-grained-token', ['github_pat_11{a36u:20}_{a62:59}'], ['github_pat_{a62:20}']],
 ['gitlab-token', ['glpat-{u64:20}','gldt-{u64:20}','glrt-{u64:20}','glptt-{hex:40}','GR1348941{u64:20}','glcbt-{u64:20}','glimt-{u64:25}'], ['glpat-{u64:10}','glpat-xxxxxxxxxxxxxxxxxxxx']],
 ['atlassian-api-token', ['ATATT3{u64:186}','ATBB{a62:32}','ATCTT3{u64:186}'], ['ATATT3{u64:20}']],
 ['npm-token', ['npm_{crc:30}','//registry.npmjs.org/:_authToken={hex:8}-{hex:4}-{hex:4}-{hex:4}-{hex:12}'], ['npm_{a62:20}','//registry.npmjs.org/:_authToken=${NPM_TOKEN}','npm_{badcrc:30}']],
 ['pypi-token', ['pypi-AgEIcHlwaS5vcmc{u64:70}'], ['pypi-AgEIcHlwaS5vcmc{u64:10}']],
 ['rubygems-token', ['rubygems_{hex:48}'], ['rubygems_{hex:20}']],
 ['nuget-api-key', ['oy2{a36l:43}'], ['oy2{a36l:20}']],
 ['crates-io-token', ['cio{a62:32}'], ['cio{a62:12}']],
 ['docker-hub-token', ['dckr_pat_{u64:27}','dckr_oat_{u64:32}'], ['dckr_pat_{u64:10}']],
 ['docker-config-auth', ['{"auths":{"https://index.docker.io/v1/":{"auth":"{b64:40}"}}}','"auth": "{b64:32}="'], ['"auth": "Ym9i"','"auth": ""']],
 ['artifactory-token', ['AKCp{a62:69}','cmVmdGtuOjAxOj{a62:50}'], ['AKCp{a62:20}']],
 ['anthropic-key', ['sk-ant-api03-{u64:93}AA','sk-ant-admin01-{u64:93}AA'], ['sk-ant-{u64:8}']],
 ['openai-key', ['sk-proj-{u64:156}','sk-{a62:20}T3BlbkFJ{a62:20}','sk-svcacct-{u64:74}T3BlbkFJ{u64:74}'], ['sk-proj-{u64:10}','sk-{a62:10}']],
 ['huggingface-token', ['hf_{a62:34}','api_org_{a62:34}'], ['hf_{a62:12}']],
 ['groq-api-key', ['gsk_{a62:52}'], ['gsk_{a62:20}']],
 ['replicate-token', ['r8_{a62:37}'], ['r8_{a62:12}']],
 ['perplexity-api-key', ['pplx-{a62:48}'], ['pplx-{a62:12}']],
 ['xai-api-key', ['xai-{a62:80}'], ['xai-{a62:20}']],
 ['openrouter-api-key', ['sk-or-v1-{hex:64}'], ['sk-or-v1-{hex:20}']],
 ['langsmith-api-key', ['lsv2_pt_{hex:32}_{hex:10}','lsv2_sk_{hex:32}_{hex:10}'], ['lsv2_pt_{hex:10}']],
 ['slack-token', ['xoxb-{dig:12}-{dig:12}-{a62:24}','xoxp-{dig:12}-{dig:12}-{dig:12}-{hex:32}','xapp-1-A{a36u:10}-{dig:13}-{hex:64}','xoxe.xoxp-1-{a62:140}','xoxe-{dig:12}-{dig:12}-{dig:12}-{a62:30}'], ['xoxb-123','xoxz-{dig:12}-{a62:24}']],
 ['slack-webhook', ['https://hooks.slack.com/services/T{a36u:10}/B{a36u:10}/{a62:24}','https://hooks.slack.com/workflows/T{a36u:10}/A{a36u:10}/{dig:18}/{a62:24}'], ['https://hooks.slack.com/services/']],
 ['discord-bot-token', ['DISCORD_BOT_TOKEN=M{u64:23}.{u64:6}.{u64:38}','Authorization: Bot N{u64:25}.{u64:6}.{u64:27}','discord_token: "O{u64:24}.{u64:6}.{u64:38}"'], ['DISCORD_BOT_TOKEN=changeme','discord_channel = {dig:18}']],
 ['discord-webhook', ['https://discord.com/api/webhooks/{dig:18}/{u64:68}','https://discordapp.com/api/webhooks/{dig:19}/{u64:68}'], ['https://discord.com/api/webhooks/123/abc']],
 ['telegram-bot-token', ['{dig:10}:AA{u64:33}','{dig:9}:AA{u64:33}','TELEGRAM_BOT_TOKEN={dig:9}:A{u64:34}','https://api.telegram.org/bot{dig:10}:AA{u64:33}/getMe'], ['{dig:10}:AA{u64:10}','12:AA{u64:33}','telegram_chat_id = -{dig:13}']],
 ['teams-webhook', ['https://contoso.webhook.office.com/webhookb2/{hex:8}-{hex:4}-{hex:4}-{hex:4}-{hex:12}@{hex:8}-{hex:4}-{hex:4}-{hex:4}-{hex:12}/IncomingWebhook/{hex:32}/{hex:8}-{hex:4}-{hex:4}-{hex:4}-{hex:12}'], ['https://contoso.webhook.office.com/']],
 ['stripe-key', ['sk_live_{a62:24}','rk_live_{a62:99}','sk_test_{a62:24}','whsec_{a62:32}','sk_prod_{a62:30}'], ['sk_demo_{a62:24}','pk_live_{a62:24}']],
 ['square-token', ['EAAA{u64:60}','sq0atp-{u64:22}','sq0csp-{u64:43}'], ['sq0atp-{u64:8}']],
 ['paypal-braintree-token', ['access_token$production${a36l:16}${hex:32}','access_token$sandbox${a36l:16}${hex:32}'], ['access_token$production$short']],
 ['flutterwave-key', ['FLWSECK-{hex:32}-X','FLWSECK_TEST-{hex:32}-X','FLWPUBK_TEST-{hex:32}-X'], ['FLWSECK-{hex:10}-X']],
 ['razorpay-key', ['rzp_live_{a62:14}','rzp_test_{a62:14}'], ['rzp_live_{a62:5}']],
 ['plaid-token', ['access-production-{hex:8}-{hex:4}-{hex:4}-{hex:4}-{hex:12}','access-sandbox-{hex:8}-{hex:4}-{hex:4}-{hex:4}-{hex:12}'], ['access-production-{hex:8}']],
 ['shippo-token', ['shippo_live_{hex:40}','shippo_test_{hex:40}'], ['shippo_live_{hex:10}']],
 ['easypost-key', ['EZAK{a36l:54}','EZTK{a36l:54}'], ['EZAK{a36l:10}']],
 ['twitter-bearer-token', ['AAAAAAAAAAAAAAAAAAAAA{a62:12}%3D{a62:50}','AAAAAAAAAAAAAAAAAAAAAM{a62:90}'], ['AAAAAAAAAAAAAAAAAAAAA']],
 ['facebook-access-token', ['EAAC{a62:150}','EAAM{a62:120}'], ['EAAC{a62:10}']],
 ['dropbox-token', ['sl.{u64:138}','sl.u.{u64:200}','{a36l:11}AAAAAAAAAA{u64:43}'], ['sl.{u64:20}']],
 ['asana-token', ['1/{dig:16}:{hex:32}','2/{dig:16}/{dig:16}:{hex:32}'], ['1/{dig:10}:{hex:32}']],
 ['sidekiq-secret', ['BUNDLE_ENTERPRISE__CONTRIBSYS__COM={hex:8}:{hex:8}','BUNDLE_GEMS__CONTRIBSYS__COM: "{hex:8}:{hex:8}"','https://{hex:8}:{hex:8}@gems.contribsys.com/'], ['BUNDLE_GEMS__CONTRIBSYS__COM=${SIDEKIQ}']],
 ['hubspot-token', ['pat-na1-{hex:8}-{hex:4}-{hex:4}-{hex:4}-{hex:12}','pat-eu1-{hex:8}-{hex:4}-{hex:4}-{hex:4}-{hex:12}'], ['pat-na1-{hex:8}']],
 ['postman-api-key', ['PMAK-{hex:24}-{hex:34}'], ['PMAK-{hex:10}-{hex:10}']],
 ['figma-token', ['figd_{u64:40}'], ['figd_{u64:10}']],
 ['typeform-token', ['tfp_{u64:44}_{u64:14}'], ['tfp_{u64:10}']],
 ['contentful-token', ['CFPAT-{u64:43}'], ['CFPAT-{u64:10}']],
 ['prefect-api-key', ['pnu_{a62:36}'], ['pnu_{a62:10}']],
 ['readme-api-key', ['rdme_{a36l:70}'], ['rdme_{a36l:10}']],
 ['mapbox-token', ['sk.eyJ{u64:60}.{u64:22}','pk.{a36l:60}.{a36l:22}'], ['pk.eyJ1Ijoic2hvcnQifQ.short']],
 ['launchdarkly-key', ['sdk-{hex:8}-{hex:4}-{hex:4}-{hex:4}-{hex:12}','api-{hex:8}-{hex:4}-{hex:4}-{hex:4}-{hex:12}'], ['sdk-{hex:8}']],
 ['onepassword-token', ['ops_eyJ{u64:300}'], ['ops_eyJ{u64:20}']],
 ['onepassword-secret-key', ['A3-{a36u:6}-{a36u:11}-{a36u:5}-{a36u:5}-{a36u:5}','A3-{a36u:6}-{a36u:6}-{a36u:5}-{a36u:5}-{a36u:5}-{a36u:5}'], ['A3-{a36u:6}-{a36u:3}']],
 ['adobe-client-secret', ['p8e-{a62:32}'], ['p8e-{a62:10}']],
 ['clojars-token', ['CLOJARS_{a36l:60}'], ['CLOJARS_{a36l:20}']],
 ['defined-networking-token', ['dnkey-{a36l:26}-{a36l:52}'], ['dnkey-{a36l:10}-{a36l:10}']],
 ['duffel-token', ['duffel_test_{u64:43}','duffel_live_{u64:43}'], ['duffel_test_{u64:10}']],
 ['frameio-token', ['fio-u-{u64:64}'], ['fio-u-{u64:10}']],
 ['harness-token', ['pat.{a62:22}.{hex:24}.{a62:20}','sat.{a62:22}.{hex:24}.{a62:20}'], ['pat.{a62:10}.{hex:10}']],
 ['infracost-api-key', ['ico-{a62:32}'], ['ico-{a62:10}']],
 ['intra42-secret', ['s-s4t2ud-{hex:64}','s-s4t2af-{hex:64}'], ['s-s4t2ud-{hex:10}']],
 ['mailgun-public-key', ['pubkey-{hex:32}'], ['pubkey-{hex:10}']],
 ['octopus-deploy-api-key', ['API-{a36u:26}'], ['API-{a36u:10}']],
 ['openshift-token', ['sha256~{u64:43}'], ['sha256~{u64:10}']],
 ['scalingo-token', ['tk-us-{u64:48}'], ['tk-us-{u64:10}']],
 ['brevo-api-key', ['xkeysib-{hex:64}-{a62:16}'], ['xkeysib-{hex:20}']],
 ['settlemint-token', ['sm_pat_{a62:16}','sm_aat_{a62:16}'], ['sm_pat_{a62:6}']],
 ['sourcegraph-token', ['sgp_{hex:40}','sgp_{hex:16}_{hex:40}'], ['sgp_{hex:10}']],
 ['yandex-key', ['YC{u64:38}','AQVN{u64:36}','t1.{u64:40}.{u64:86}'], ['YC{u64:10}']],
 ['curl-user-password', ['curl -u admin:{a62:16} https://api.example.com','curl --user deploy:{a62:20} -X POST https://ci.example.com'], ['curl -u admin:$PASSWORD https://x','curl -u token: https://x']],
 ['buildkite-token', ['bkua_{hex:40}'], ['bkua_{hex:10}']],
 ['circleci-token', ['CCIPAT_{a62:22}_{hex:40}'], ['CCIPAT_{a62:10}']],
 ['fireworks-api-key', ['fw_{a62:24}'], ['fw_{a62:10}']],
 ['tailscale-key', ['tskey-api-{a62:12}-{a62:30}','tskey-auth-{a62:12}-{a62:30}'], ['tskey-api-{a62:3}']],
 ['pinecone-api-key', ['pcsk_{a62:6}_{a62:60}'], ['pcsk_{a62:10}']],
 ['langfuse-secret-key', ['sk-lf-{hex:8}-{hex:4}-{hex:4}-{hex:4}-{hex:12}'], ['sk-lf-{hex:8}']],
 ['render-api-key', ['rnd_{a62:32}'], ['rnd_{a62:10}']],
 ['resend-api-key', ['re_{a62:8}_{a62:24}'], ['re_{a62:8}_{a62:5}']],
 ['elevenlabs-api-key', ['sk_{hex:48}'], ['sk_{hex:20}']],
 ['scaleway-access-key', ['SCW{a36u:17}'], ['SCW{a36u:8}']],
 ['apify-token', ['apify_api_{a62:36}'], ['apify_api_{a62:10}']],
 ['fcm-server-key', ['AAAA{u64:7}:APA91b{u64:134}'], ['AAAA{u64:7}:{u64:20}']],
 ['sonarqube-token', ['sqp_{hex:40}','squ_{hex:40}'], ['sqp_{hex:12}']],
 ['mailersend-token', ['mlsn.{hex:64}'], ['mlsn.{hex:12}']],
 ['clickup-token', ['pk_{dig:8}_{a36u:32}'], ['pk_{dig:8}_{a36u:8}']],
 ['zapier-webhook', ['https://hooks.zapier.com/hooks/catch/{dig:7}/{a36l:7}/'], ['https://hooks.zapier.com/hooks/']],
 ['google-chat-webhook', ['https://chat.googleapis.com/v1/spaces/AAAA{u64:7}/messages?key=AIza{u64:35}&token={u64:43}%3D'], ['https://chat.googleapis.com/v1/spaces/AAAA/messages']],
 ['mandrill-api-key', ['md-{a62:22}'], ['md-{a62:8}']],
 ['instagram-token', ['IGQV{u64:150}'], ['IGQV{u64:20}']],
 ['salesforce-access-token', ['00D{a62:12}!AQ{a62:100}'], ['00D{a62:12}!short']],
 ['neon-api-key', ['napi_{a36l:64}'], ['napi_{a36l:12}']],
 ['url-password-parameter', ['jdbc:mysql://db.example.com:3306/app?user=app&password={a62:16}','jdbc:sqlserver://db:1433;databaseName=app;user=sa;password={a62:16};'], ['jdbc:mysql://db:3306/app?user=app&password=${DB_PASSWORD}']],
 ['jwt', ['eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJ{u64:40}.{u64:43}','eyJhbGciOiJub25lIn0.eyJ{u64:30}.','ewogICJhbGciOiAiUlMyNTYiCn0.ewogICJzdWIiOiAi{u64:30}.{u64:86}','eyJhbGciOiJSUzI1NiJ9.eyJ{b64:60}.{b64:86}'], ['eyJhbGciOiJIUzI1NiJ9','eyJhbGciOiJIUzI1NiJ9.notajwt']],
 ['url-password', ['postgres://app:{a62:16}@db.internal:5432/app','mongodb+srv://admin:{a62:20}@cluster0.example.net/db','redis://:{a62:24}@cache:6379/0','amqp://user:{a62:12}@mq/'], ['https://user@example.com/','postgres://app:${DB_PASSWORD}@db/app','https://example.com:8443/path']],
 ['connection-string-password', ['Server=tcp:db.example.net,1433;Database=app;User ID=app;Password={a62:20};','Data Source=db;Initial Catalog=app;User Id=sa;Pwd={a62:16};'], ['Server=db;Database=app;Integrated Security=true;']],
 ['authorization-header', ['Authorization: Bearer {u64:40}','authorization: basic {b64:32}=','-H "Authorization: Bearer {a62:40}"'], ['Authorization: Bearer $TOKEN','Authorization: Bearer <token>']],
 ['provider-assignment', ['ASANA_CLIENT_ID = "{a62:16}"','linkedin_client_secret: {a62:16}','confluent_cluster_api={a36u:16}','"sumologic_access_id": "su{a62:12}"','var twitchClientId string = "{a36l:30}"','discord_client_secret = "{u64:32}"','GITHUB_CLIENT_SECRET={hex:40}','ngrok_authtoken: {a62:27}_{a62:21}'], ['slack_channel = "#general"','stripe_mode = test','asana_workspace_url = "https://app.asana.com/0/home"','docker_image: debian:bookworm-slim','url = "git@github.com:example/project42.git"']],
 ['secret-assignment', ['DB_PASSWORD = "{a62:20}"','client_secret: {a62:24}','"apiKey": "{a62:32}"','export API_TOKEN={a62:40}','private_key={a62:32}','System.setProperty("API_SECRET", "{a62:24}")','<authToken>{a62:32}</authToken>','app_key ||= "{a62:20}"'], ['PASSWORD = "changeme-changeme"','token: ${GITHUB_TOKEN}','password: "xxxxxxxxxxxxxxxxxxxx"']],
);

my %CLASS = (
	a62 => ['A' .. 'Z', 'a' .. 'z', '0' .. '9'],
	a36l => ['a' .. 'z', '0' .. '9'],
	a36u => ['A' .. 'Z', '0' .. '9'],
	hex => ['0' .. '9', 'a' .. 'f'],
	b64 => ['A' .. 'Z', 'a' .. 'z', '0' .. '9', '+', '/'],
	u64 => ['A' .. 'Z', 'a' .. 'z', '0' .. '9', '_', '-'],
	b32 => ['A' .. 'Z', '2' .. '7'],
	dig => ['0' .. '9'],
	bech => [split //, 'QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L'],
);
my %CLASS_DOC = (a62 => 'A-Za-z0-9', a36l => 'a-z0-9', a36u => 'A-Z0-9',
	crc => 'A-Za-z0-9><6 A-Za-z0-9: their CRC32',
	age => 'bech32><6 bech32: Bech32 checksum',
	hex => '0-9a-f', b64 => 'A-Za-z0-9+/', u64 => 'A-Za-z0-9\_-',
	b32 => 'A-Z2-7', dig => '0-9', bech => 'bech32');

# A small generator of our own, so the corpus never depends on Perl's rand.
my $seed = 20261201;
sub rnd { $seed = ($seed * 1103515245 + 12345) % 2147483648; return $seed >> 8; }

# GitHub's and npm's checksum: CRC-32 (IEEE, as zlib's) of the random
# part, in 6 base62 digits (0-9A-Za-z, most significant first).
my @B62 = ('0' .. '9', 'A' .. 'Z', 'a' .. 'z');
sub crc32 {
	my $crc = 0xffffffff;
	for my $c (unpack 'C*', $_[0]) {
		$crc ^= $c;
		$crc = ($crc >> 1) ^ (($crc & 1) ? 0xedb88320 : 0) for 1 .. 8;
	}
	return $crc ^ 0xffffffff;
}
sub b62_6 {
	my ($n) = @_;
	my $s = '';
	for (1 .. 6) { $s = $B62[$n % 62] . $s; $n = int($n / 62); }
	return $s;
}
sub rand_chars {
	my ($class, $n) = @_;
	return join '', map { $CLASS{$class}[rnd() % @{$CLASS{$class}}] } 1 .. $n;
}
# {crc:N}: N random base62 characters and their checksum; {badcrc:N}: the
# same with one checksum character changed, a look-alike no token is.
sub checksummed {
	my ($kind, $n) = @_;
	my $body = rand_chars('a62', $n);
	my $sum = b62_6(crc32($body));
	if ($kind eq 'badcrc') {
		my $at = rnd() % 6;
		my $c = substr($sum, $at, 1);
		substr($sum, $at, 1) = $B62[(index(join('', @B62), $c) + 1 + rnd() % 61) % 62];
	}
	return $body . $sum;
}
# An age secret key's Bech32 checksum (BIP 173), the human-readable part
# "age-secret-key-": {age:N} is N random characters and their checksum,
# {badage:N} the same with one checksum character changed.
my $BECH = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l';
sub bech32_polymod {
	my @gen = (0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3);
	my $chk = 1;
	for my $v (@_) {
		my $top = $chk >> 25;
		$chk = (($chk & 0x1ffffff) << 5) ^ $v;
		for my $i (0 .. 4) { $chk ^= $gen[$i] if ($top >> $i) & 1; }
	}
	return $chk;
}
sub age_key {
	my ($kind, $n) = @_;
	my $hrp = 'age-secret-key-';
	my @data = map { rnd() % 32 } 1 .. $n;
	my @h = map { ord } split //, $hrp;
	my $mod = bech32_polymod((map { $_ >> 5 } @h), 0, (map { $_ & 31 } @h), @data, (0) x 6) ^ 1;
	my @sum = map { ($mod >> (5 * (5 - $_))) & 31 } 0 .. 5;
	$sum[rnd() % 6] ^= 1 + rnd() % 31 if $kind eq 'badage';
	return uc join '', map { substr($BECH, $_, 1) } @data, @sum;
}
sub fill {
	my ($shape) = @_;
	$shape =~ s/\{(age|badage):(\d+)\}/age_key($1, $2)/ge;
	$shape =~ s/\{(crc|badcrc):(\d+)\}/checksummed($1, $2)/ge;
	$shape =~ s/\{(\w+):(\d+)\}/rand_chars($1, $2)/ge;
	return $shape;
}

# Where a token is met: bare, assigned, quoted in JSON or YAML, in a
# command line.  A sample that already names its context stays bare.
my @CONTEXTS = ('%s', 'TOKEN_VALUE = "%s"', '  "value": "%s",', 'export X_KEY=%s',
	'curl -H "X-Key: %s" https://api.example.com', 'key: %s # rotate yearly');

# Generic text no rule may flag: code, hashes, ids, placeholders.
my @GENERIC = (
	'git commit {hex:40}', 'sha256:{hex:64}', 'integrity sha512-{b64:86}==',
	'uuid = "{hex:8}-{hex:4}-{hex:4}-{hex:4}-{hex:12}"', 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{b64:43} user@host',
	'-----BEGIN CERTIFICATE-----', '-----BEGIN PUBLIC KEY-----', 'https://example.com/path?page=2&sort=asc',
	'password = "${DB_PASSWORD}"', 'api_key: <your-api-key>', 'token = "xxxxxxxxxxxxxxxxxxxxxxxx"',
	'for (i = 0; i < n; i++) total += v[i];', 'const secretName = process.env.SECRET_NAME;',
	'PASSWORD_MIN_LENGTH = 12', 'image: registry.example.com/app@sha256:{hex:64}',
	'"etag": "W/\"{hex:32}\""', 'data:image/png;base64,iVBORw0KGgo{b64:60}', 'session_timeout: 3600',
	'git clone https://github.com/example/project.git', 'AKIA-style ids look like AKIA followed by 16 characters',
	'postgres://localhost:5432/app', 'Authorization: Bearer ${TOKEN}', 'client_secret = os.environ["CLIENT_SECRET"]',
	'color: #{hex:6}; background: #{hex:6};', 'version = "1.2.3-beta.{dig:4}"',
);

if (@ARGV && $ARGV[0] eq '--doc') {
	for my $f (@FORMATS) {
		next if $f->[0] eq 'secret-assignment';  # described in words
		my @shapes = map {
			my $s = $_;
			$s =~ s/([_*\\])/\\$1/g;
			$s =~ s/\{(\w+):(\d+)\}/<$2 $CLASS_DOC{$1}>/g;
			$s;
		} @{$f->[1]};
		print "|  $f->[0]\n:  ", join("; ", @shapes), "\n";
	}
	exit 0;
}

my $dir = shift or die "usage: scan-corpus.pl DIR | --doc\n";
open(my $tp, '>', "$dir/tp.txt") or die "$dir/tp.txt: $!\n";
open(my $tpr, '>', "$dir/tp.rules") or die "$dir/tp.rules: $!\n";
open(my $fp, '>', "$dir/fp.txt") or die "$dir/fp.txt: $!\n";
open(my $fpr, '>', "$dir/fp.rules") or die "$dir/fp.rules: $!\n";
for my $f (@FORMATS) {
	my ($rule, $pos, $neg) = @$f;
	for my $shape (@$pos) {
		for my $ctx (@CONTEXTS) {
			my $sample = fill($shape);
			# Samples holding their own name or punctuation stay bare.
			my $line = $shape =~ /[ ="]/ ? $sample : sprintf($ctx, $sample);
			print $tp "$line\n";
			print $tpr "$rule\n";
			last if $shape =~ /[ ="]/;
		}
	}
	for my $shape (@$neg) {
		for my $i (1 .. 3) {
			print $fp fill($shape), "\n";
			print $fpr "$rule\n";
		}
	}
}
for my $shape (@GENERIC) {
	for my $i (1 .. 3) {
		print $fp fill($shape), "\n";
		print $fpr "-\n";
	}
}
close($_) or die "$dir: $!\n" for $tp, $tpr, $fp, $fpr;
