/*
 * sc-classify: one verdict for each tool call, by the rules of
 * sc-classify(1).  The rules live in lib/policy*.c; this main reads options
 * and files, moves records, and stops after three denials in a row.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "buf.h"
#include "config.h"
#include "diag.h"
#include "gitkeys.h"
#include "io.h"
#include "opt.h"
#include "policy.h"
#include "protected.h"
#include "record.h"
#include "rectable.h"

static const char *const synopsis[] = {
	"--root DIR [--mode worktree|in-place|spec|explore] [--no-prompt] "
	"[--config FILE] [--grants FILE] [--ignored FILE] [--frozen FILE] "
	"[--feature NAME] [--included FILE] [--no-stop]",
	"--print-protected [--mode worktree|in-place|spec|explore] "
	"[--feature NAME]",
	"--git-neutral",
	NULL,
};

static const struct sc_tool tool = {
	"sc-classify", synopsis,
	"    --root DIR       the worktree every path is judged against\n"
	"    --mode MODE      worktree (default), in-place, spec or explore\n"
	"    --no-prompt      nobody can be asked: ask becomes deny\n"
	"    --config FILE    the project's speccoder.conf\n"
	"    --grants FILE    type=grant records of objects a person approved\n"
	"    --ignored FILE   NUL-separated paths git ignored at the start\n"
	"    --frozen FILE    tests that existed before the attempt\n"
	"    --feature NAME   spec mode: write only this feature's artifacts\n"
	"    --included FILE  NUL-separated paths of the person's included files\n"
	"    --no-stop        judge every call, however many are denied in a row\n"
	"    --print-protected  write the protected names as patterns and exit\n"
	"    --git-neutral    name the git config keys (NUL-separated on stdin)\n"
	"                     that sc-git must override, and exit\n"
	"    -z, --records    records even when stdout is a terminal\n"
	"    -h, --help       show this help\n"
	"    --version        show the version\n",
	0,
};

/* The most bytes a --ignored, --frozen or --included list may hold: 64 MiB. */
#define LIST_MAX ((size_t)64 << 20)

struct opts {
	const char *root, *config, *grants, *ignored, *frozen, *feature;
	const char *included;
	enum sc_mode mode;
	int no_prompt;
	int no_stop;       /* a script's list of paths, not a session */
	int print_protected;
	int git_neutral;
	int records;       /* -z: records even to a terminal */
};

static int read_file(const char *path, struct sc_buf *out)
{
	int st = sc_read_file_max(path, LIST_MAX, out);

	if (st == -2)
		return sc_error("FILE-TOO-LARGE", "'%s' is larger than %zu "
				"bytes", path, LIST_MAX);
	if (st < 0)
		return sc_error_errno("FILE-UNREADABLE", "cannot read '%s'",
				      path);
	return 0;
}

/* Load config, grants and lists into P; an exit code, 0 when all is well. */
static int load(const struct opts *o, struct sc_policy *p)
{
	struct sc_config cfg;
	struct sc_buf b = SC_BUF_INIT;
	int st, code = 0, fd;

	sc_config_init(&cfg);
	if (o->config && (st = sc_config_load(&cfg, o->config)) != SC_CONFIG_OK)
		return st == SC_CONFIG_BAD ? SC_EXIT_MALFORMED : SC_EXIT_UNAVAILABLE;
	if (sc_policy_init(p, o->root, o->mode, o->no_prompt, &cfg) < 0) {
		sc_config_release(&cfg);
		sc_error_errno("BAD-ROOT", "cannot use '%s' as the root", o->root);
		return SC_EXIT_USAGE;
	}
	if (o->grants) {
		fd = open(o->grants, O_RDONLY | O_CLOEXEC);
		if (fd < 0) {
			sc_error_errno("FILE-UNREADABLE", "cannot open '%s'",
				       o->grants);
			return SC_EXIT_UNAVAILABLE;
		}
		st = sc_policy_load_grants(p, fd, &code);
		close(fd);
		if (st < 0)
			return code;
	}
	if (o->ignored) {
		if (read_file(o->ignored, &b) < 0)
			return SC_EXIT_UNAVAILABLE;
		sc_policy_load_paths(p, &p->ignored, b.data ? b.data : "", b.len);
		sc_buf_reset(&b);
	}
	if (o->frozen) {
		if (read_file(o->frozen, &b) < 0)
			return SC_EXIT_UNAVAILABLE;
		sc_policy_load_paths(p, &p->frozen, b.data ? b.data : "", b.len);
		sc_buf_reset(&b);
	}
	if (o->included) {
		if (read_file(o->included, &b) < 0)
			return SC_EXIT_UNAVAILABLE;
		sc_policy_load_paths(p, &p->included, b.data ? b.data : "", b.len);
	}
	sc_buf_release(&b);
	if (o->feature)
		sc_policy_set_feature(p, o->feature);
	return 0;
}

static int classify(const struct sc_policy *p, int records, int no_stop)
{
	struct sc_input in;
	struct sc_output out;
	struct sc_reader rd;
	struct sc_record call, answer;
	struct sc_verdict v;
	int st, ret = SC_EXIT_OK, denied = 0;

	sc_input_init_fd(&in, STDIN_FILENO);
	sc_output_init_records(&out, STDOUT_FILENO, records);
	sc_input_set_idle(&in, sc_output_idle, &out);
	sc_reader_init(&rd, &in);
	sc_record_init(&call);
	sc_record_init(&answer);
	sc_verdict_init(&v);
	while ((st = sc_reader_next(&rd, &call)) == SC_READ_RECORD) {
		const char *type = sc_record_type(&call);

		if (!type || strcmp(type, "call")) {
			sc_record_write(&out, &call);   /* not ours: pass it on */
			continue;
		}
		sc_policy_judge(p, &call, &v);
		sc_verdict_record(&v, sc_record_str(&call, "id"), &answer);
		if (sc_record_write(&out, &answer) < 0)
			break;
		denied = v.decision == SC_DENY ? denied + 1 : 0;
		if (denied == 3 && !no_stop) {
			sc_record_reset(&answer);
			sc_record_adds(&answer, "type", "stop");
			sc_record_adds(&answer, "code", "DENIED-THRICE");
			sc_record_write(&out, &answer);
			ret = SC_EXIT_NO;
			break;
		}
	}
	if (st < 0)
		ret = sc_reader_report(&rd, st);
	if (sc_output_flush(&out) < 0 || out.failed) {
		sc_error_errno("WRITE-FAILED", "cannot write output");
		ret = SC_EXIT_INTERNAL;
	}
	sc_verdict_release(&v);
	sc_record_release(&call);
	sc_record_release(&answer);
	sc_output_release(&out);
	return ret;
}

/* The protected names of the policy, as patterns for the guard. */
static int print_protected(const struct opts *o)
{
	struct sc_output out;
	int ret = SC_EXIT_OK;

	sc_output_init_records(&out, STDOUT_FILENO, o->records);
	if (sc_protected_print(o->mode == SC_MODE_SPEC, o->feature, &out) < 0 ||
	    sc_output_flush(&out) < 0) {
		sc_error_errno("WRITE-FAILED", "cannot write output");
		ret = SC_EXIT_INTERNAL;
	}
	sc_output_release(&out);
	return ret;
}

/* The keys of a repository's config that sc-git overrides. */
static int git_neutral(int records)
{
	struct sc_input in;
	struct sc_output out;
	int ret = SC_EXIT_OK;

	sc_input_init_fd(&in, STDIN_FILENO);
	sc_output_init_records(&out, STDOUT_FILENO, records);
	if (sc_gitkeys_neutralise(&in, &out) < 0)
		ret = SC_EXIT_MALFORMED;
	if (sc_output_flush(&out) < 0) {
		sc_error_errno("WRITE-FAILED", "cannot write output");
		ret = SC_EXIT_INTERNAL;
	}
	sc_output_release(&out);
	return ret;
}

int main(int argc, char *argv[])
{
	static const struct option longopts[] = {
		{ "root", required_argument, NULL, 'r' },
		{ "mode", required_argument, NULL, 'm' },
		{ "no-prompt", no_argument, NULL, 'n' },
		{ "config", required_argument, NULL, 'c' },
		{ "grants", required_argument, NULL, 'g' },
		{ "ignored", required_argument, NULL, 'i' },
		{ "frozen", required_argument, NULL, 'f' },
		{ "feature", required_argument, NULL, 'F' },
		{ "included", required_argument, NULL, 'I' },
		{ "no-stop", no_argument, NULL, 'S' },
		{ "print-protected", no_argument, NULL, 'P' },
		{ "git-neutral", no_argument, NULL, 'G' },
		{ "records", no_argument, NULL, 'z' },
		SC_OPT_STANDARD,
		{ NULL, 0, NULL, 0 },
	};
	struct opts o = { .mode = SC_MODE_WORKTREE };
	struct sc_policy p;
	int c, ret;

	sc_diag_init(tool.name);
	while ((c = sc_getopt(argc, argv, "+hz", longopts, &tool)) != -1) {
		switch (c) {
		case 'r': o.root = optarg; break;
		case 'm':
			if (sc_policy_parse_mode(optarg, &o.mode) < 0)
				sc_usage_error(&tool, "--mode takes worktree, "
					       "in-place, spec or explore");
			break;
		case 'n': o.no_prompt = 1; break;
		case 'c': o.config = optarg; break;
		case 'g': o.grants = optarg; break;
		case 'i': o.ignored = optarg; break;
		case 'f': o.frozen = optarg; break;
		case 'F': o.feature = optarg; break;
		case 'I': o.included = optarg; break;
		case 'S': o.no_stop = 1; break;
		case 'P': o.print_protected = 1; break;
		case 'G': o.git_neutral = 1; break;
		case 'z': o.records = 1; break;
		default: sc_usage_error(&tool, NULL);
		}
	}
	if (optind != argc)
		sc_usage_error(&tool, "no arguments are taken");
	if (o.print_protected && o.git_neutral)
		sc_usage_error(&tool, "--print-protected or --git-neutral, "
			       "not both");
	if (o.print_protected)
		return print_protected(&o);
	if (o.git_neutral)
		return git_neutral(o.records);
	if (!o.root)
		sc_usage_error(&tool, "--root is required");
	memset(&p, 0, sizeof(p));
	ret = load(&o, &p);
	if (!ret)
		ret = classify(&p, o.records, o.no_stop);
	sc_policy_release(&p);
	return ret;
}
