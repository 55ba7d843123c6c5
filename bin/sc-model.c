/*
 * sc-model: read a conversation as records, ask a model provider for the
 * next turn, write the reply as records.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "diag.h"
#include "model.h"
#include "modeltool.h"
#include "opt.h"
#include "provider.h"

static const char *const synopsis[] = {
	"--provider anthropic|openai|bedrock|replay [--model NAME] "
	"[--endpoint URL] [--region R] "
	"[--key-env NAME] [--max-tokens N] [--timeout S] [--retries N] "
	"[--no-cache] [--no-stream] [--progress-fd FD] [--context-tokens N] "
	"[--transcript FILE] [--allow-label LABEL]... [--credential-source]",
	NULL,
};

static const struct sc_tool tool = {
	"sc-model", synopsis,
	"    --provider P         anthropic, openai, bedrock or replay\n"
	"    --model NAME         the model (default: the provider's own)\n"
	"    --endpoint URL       the server (https, or http on loopback)\n"
	"    --region R           bedrock: the AWS region\n"
	"    --key-env NAME       the variable holding the key\n"
	"    --max-tokens N       the longest reply (default 4096)\n"
	"    --timeout S          seconds one attempt may take (default 120)\n"
	"    --retries N          retries after 429, 5xx, drops (default 3)\n"
	"    --no-cache           no cache_control breakpoints (anthropic, bedrock)\n"
	"    --no-stream          ask for the answer whole, not streamed\n"
	"    --progress-fd FD     type=progress records, once a second at most\n"
	"    --context-tokens N   the model's window (default: its documented one)\n"
	"    --transcript FILE    replay: the recorded replies\n"
	"    --allow-label LABEL  send records labelled LABEL (held-out)\n"
	"    --credential-source  name where the key would come from, ask nothing\n"
	"    -z, --records        records even when stdout is a terminal\n"
	"    -h, --help           show this help\n"
	"    --version            show the version\n",
	0,
};

int main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "provider", required_argument, NULL, 'p' },
		{ "model", required_argument, NULL, 'm' },
		{ "endpoint", required_argument, NULL, 'e' },
		{ "region", required_argument, NULL, 'R' },
		{ "key-env", required_argument, NULL, 'k' },
		{ "max-tokens", required_argument, NULL, 'n' },
		{ "timeout", required_argument, NULL, 't' },
		{ "retries", required_argument, NULL, 'r' },
		{ "no-cache", no_argument, NULL, 'C' },
		{ "no-stream", no_argument, NULL, 'S' },
		{ "progress-fd", required_argument, NULL, 'P' },
		{ "records", no_argument, NULL, 'z' },
		{ "context-tokens", required_argument, NULL, 'W' },
		{ "transcript", required_argument, NULL, 'T' },
		{ "allow-label", required_argument, NULL, 'a' },
		{ "credential-source", no_argument, NULL, 'Q' },
		SC_OPT_STANDARD,
		{ NULL, 0, NULL, 0 },
	};
	const char *model = NULL, *endpoint = NULL, *key_env = NULL;
	const char *region = NULL;
	const char *transcript = NULL;
	unsigned long long max_tokens = 4096, timeout = 120, retries = 3;
	unsigned long long context = 0;
	enum sc_provider_kind kind = SC_PROVIDER_NONE;
	unsigned allowed = 0;
	unsigned long long window;
	struct sc_provider p;
	int c, ret, cache = 1, stream = 1, progress_fd = -1, show_source = 0;
	int force_records = 0;

	sc_diag_init(tool.name);
	/* No core dump and no ptrace by peers: the key is in this memory. */
	if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0)
		sc_die_errno(SC_EXIT_INTERNAL, "PRCTL", "cannot turn core dumps off");
	while ((c = sc_getopt(argc, argv, "hz", longopts, &tool)) != -1) {
		switch (c) {
		case 'z': force_records = 1; break;
		case 'p':
			if ((kind = sc_provider_kind(optarg)) == SC_PROVIDER_NONE)
				sc_usage_error(&tool, "unknown provider (anthropic, "
						      "openai, bedrock or replay)");
			break;
		case 'm': model = optarg; break;
		case 'e': endpoint = optarg; break;
		case 'R': region = optarg; break;
		case 'k': key_env = optarg; break;
		case 'n': max_tokens = sc_opt_number(&tool, optarg, 1, 1000000, "--max-tokens"); break;
		case 't': timeout = sc_opt_number(&tool, optarg, 1, 86400, "--timeout"); break;
		case 'r': retries = sc_opt_number(&tool, optarg, 0, 20, "--retries"); break;
		case 'C': cache = 0; break;
		case 'S': stream = 0; break;
		case 'W': context = sc_opt_number(&tool, optarg, 1024, 100000000, "--context-tokens"); break;
		case 'P': progress_fd = (int)sc_opt_number(&tool, optarg, 0, 1024, "--progress-fd"); break;
		case 'T': transcript = optarg; break;
		case 'Q': show_source = 1; break;
		case 'a':
			if (!sc_label_parse(optarg))
				sc_usage_error(&tool, "unknown label (trusted, "
						      "untrusted or held-out)");
			allowed |= sc_label_parse(optarg);
			break;
		}
	}
	if (optind < argc)
		sc_usage_error(&tool, "sc-model takes no arguments");
	if (kind == SC_PROVIDER_NONE)
		sc_usage_error(&tool, "no --provider given");
	sc_provider_init(&p, kind);
	p.model = model ? model : p.model;
	p.endpoint = endpoint ? endpoint : p.endpoint;
	p.region = region;
	p.key_env = key_env ? key_env : p.key_env;
	p.max_tokens = max_tokens;
	p.cache = cache;
	p.stream = stream;
	/* A program sc-model starts (a credential_process) never holds the
	 * progress descriptor: its reader waits for EOF. */
	if (progress_fd > STDERR_FILENO &&
	    fcntl(progress_fd, F_SETFD, FD_CLOEXEC) < 0)
		sc_usage_error(&tool, "--progress-fd names no open descriptor");
	p.progress_fd = progress_fd;
	p.http.timeout_ms = timeout * 1000;
	p.http.retries = retries;
	p.transcript_path = transcript;
	if (show_source) {
		ret = sc_model_credential_run(&p, force_records);
		sc_provider_release(&p);
		return ret;
	}
	/* The window less the reply's room; unknown windows: no bound. */
	window = context ? context : kind == SC_PROVIDER_REPLAY ? 0 :
		sc_model_context_tokens(p.model);
	if (window && window <= max_tokens)
		sc_usage_error(&tool, "--max-tokens leaves no room in "
				      "--context-tokens");
	ret = sc_model_ask_run(&tool, &p, allowed,
			       window ? window - max_tokens : 0, force_records);
	sc_provider_release(&p);
	return ret;
}
