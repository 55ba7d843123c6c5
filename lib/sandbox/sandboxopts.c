/*
 * sc-sandbox-exec's options into a policy and back: see sandboxopts.h.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "buf.h"
#include "config.h"
#include "diag.h"
#include "hostlist.h"
#include "io.h"
#include "opt.h"
#include "sandboxopts.h"

const struct option sc_sandbox_longopts[] = {
	{ "root", required_argument, NULL, SC_SBOPT_ROOT },
	{ "config", required_argument, NULL, SC_SBOPT_CONFIG },
	{ "profile", required_argument, NULL, SC_SBOPT_PROFILE },
	{ "writable", required_argument, NULL, SC_SBOPT_WRITABLE },
	{ "writable-outside", required_argument, NULL,
	  SC_SBOPT_WRITABLE_OUTSIDE },
	{ "read-only", required_argument, NULL, SC_SBOPT_READ_ONLY },
	{ "root-read-only", no_argument, NULL, SC_SBOPT_ROOT_READ_ONLY },
	{ "hide", required_argument, NULL, SC_SBOPT_HIDE },
	{ "hide-home", required_argument, NULL, SC_SBOPT_HIDE_HOME },
	{ "network", required_argument, NULL, SC_SBOPT_NETWORK },
	{ "allow-host", required_argument, NULL, SC_SBOPT_ALLOW_HOST },
	{ "connections", required_argument, NULL, SC_SBOPT_CONNECTIONS },
	{ "mode", required_argument, NULL, SC_SBOPT_MODE },
	{ "tier", required_argument, NULL, SC_SBOPT_TIER },
	{ "timeout", required_argument, NULL, SC_SBOPT_TIMEOUT },
	{ "max-output", required_argument, NULL, SC_SBOPT_MAX_OUTPUT },
	{ "env", required_argument, NULL, SC_SBOPT_ENV },
	{ "env-keep", required_argument, NULL, SC_SBOPT_ENV_KEEP },
	{ "stdin", no_argument, NULL, SC_SBOPT_STDIN },
	{ "accept-gaps", required_argument, NULL, SC_SBOPT_ACCEPT_GAPS },
	{ "probe", no_argument, NULL, SC_SBOPT_PROBE },
	{ "records", no_argument, NULL, 'z' },
	{ "print-options", no_argument, NULL, SC_SBOPT_PRINT_OPTIONS },
	SC_OPT_STANDARD,
	{ NULL, 0, NULL, 0 },
};

/*
 * The repeatable options, each a list of the policy: read and written
 * through this one table.  Entries are checked by check_entry.
 */
static const struct {
	int opt;
	size_t off;
} lists[] = {
	{ SC_SBOPT_WRITABLE, offsetof(struct sc_sandbox_policy, writable) },
	{ SC_SBOPT_WRITABLE_OUTSIDE,
	  offsetof(struct sc_sandbox_policy, writable_outside) },
	{ SC_SBOPT_READ_ONLY, offsetof(struct sc_sandbox_policy, read_only) },
	{ SC_SBOPT_HIDE, offsetof(struct sc_sandbox_policy, hide) },
	{ SC_SBOPT_HIDE_HOME, offsetof(struct sc_sandbox_policy, hide_homes) },
	{ SC_SBOPT_ALLOW_HOST,
	  offsetof(struct sc_sandbox_policy, allow_hosts) },
	{ SC_SBOPT_ENV_KEEP, offsetof(struct sc_sandbox_policy, env_keep) },
	{ SC_SBOPT_ACCEPT_GAPS,
	  offsetof(struct sc_sandbox_policy, accept_gaps) },
};


static struct sc_strlist *list_of(struct sc_sandbox_policy *p, size_t i)
{
	return (struct sc_strlist *)((char *)p + lists[i].off);
}

static const struct sc_strlist *clist_of(const struct sc_sandbox_policy *p,
					 size_t i)
{
	return (const struct sc_strlist *)((const char *)p + lists[i].off);
}

static const char *opt_name(int opt)
{
	const struct option *o;

	for (o = sc_sandbox_longopts; o->name; o++)
		if (o->val == opt)
			return o->name;
	return "?";
}

static int bad(const char *why, const char *arg)
{
	return sc_error("BAD-OPTION", "%s%s%s", why, arg ? ": " : "",
			arg ? arg : "");
}

void sc_sandbox_cmdline_init(struct sc_sandbox_cmdline *cl)
{
	sc_sandbox_policy_init(&cl->cli);
	cl->profile = cl->config = NULL;
	cl->actions = 0;
}

void sc_sandbox_cmdline_release(struct sc_sandbox_cmdline *cl)
{
	sc_sandbox_policy_release(&cl->cli);
	sc_sandbox_cmdline_init(cl);
}

/* SECONDS, with up to three decimals ("600", "0.5"), or "none". */
static int parse_timeout(const char *s, long long *ms)
{
	unsigned long long whole, frac = 0;
	const char *dot = strchr(s, '.');
	char buf[32];
	size_t n = dot ? (size_t)(dot - s) : strlen(s);

	if (!strcmp(s, "none")) {
		*ms = 0;
		return 0;
	}
	if (n == 0 || n >= sizeof(buf))
		return bad("--timeout wants seconds", s);
	memcpy(buf, s, n);
	buf[n] = '\0';
	if (sc_parse_uint(buf, SC_SANDBOX_TIMEOUT_MAX, &whole))
		return bad("--timeout wants seconds", s);
	if (dot) {
		size_t k = strlen(dot + 1), i;

		if (!k || k > 3 || strspn(dot + 1, "0123456789") != k)
			return bad("--timeout wants seconds", s);
		for (i = 0; i < 3; i++)
			frac = frac * 10 + (i < k ? (unsigned)(dot[1 + i] - '0') : 0);
	}
	if (!whole && !frac)
		return bad("--timeout must be above 0 (or none)", s);
	*ms = (long long)(whole * 1000 + frac);
	return 0;
}

/* BYTES above 0, or "none". */
static int parse_max_output(const char *s, long long *bytes)
{
	unsigned long long n;

	if (!strcmp(s, "none")) {
		*bytes = 0;
		return 0;
	}
	if (sc_parse_uint(s, SC_SANDBOX_MAX_OUTPUT_MAX, &n) || !n)
		return bad("--max-output wants a number of bytes", s);
	*bytes = (long long)n;
	return 0;
}

/* "unix-sockets,kill-all": each a protection a tier may lack. */
static int accept_gaps(struct sc_strlist *l, const char *arg)
{
	char *gap;
	int n = sc_sandbox_gaps_add(l, arg, &gap);

	if (n < 0)
		sc_error("BAD-OPTION", "--accept-gaps: '%s' is not a protection "
			 "that may be accepted", gap);
	else if (!n)
		bad("--accept-gaps wants protection names", arg);
	free(gap);
	return n > 0 ? 0 : -1;
}

/* One entry of the list option OPT. */
static int list_entry(struct sc_strlist *l, int opt, const char *arg)
{
	const char *why;

	switch (opt) {
	case SC_SBOPT_HIDE_HOME:
		if (*arg != '/')
			return bad("--hide-home wants an absolute path", arg);
		break;
	case SC_SBOPT_ALLOW_HOST:
		if (sc_host_entry_check(arg, &why) < 0)
			return sc_error("BAD-HOST", "%s: %s", why, arg);
		break;
	case SC_SBOPT_ACCEPT_GAPS:
		return accept_gaps(l, arg);
	}
	sc_strlist_add(l, arg);
	return 0;
}

/* A word of WORDS (index N), as the enum it names. */
static int word(const char *opt, int n, const char *choices, const char *arg,
		int *to)
{
	if (n < 0)
		return sc_error("BAD-OPTION", "--%s wants %s: %s", opt,
				choices, arg);
	*to = n;
	return 0;
}

/* The options that are one value of the policy, or a file to read. */
static int value_option(struct sc_sandbox_cmdline *cl, int c, const char *arg)
{
	struct sc_sandbox_policy *p = &cl->cli;

	switch (c) {
	case SC_SBOPT_ROOT:
		if (p->root)
			return bad("--root given twice", NULL);
		p->root = sc_xstrdup(arg);
		return 0;
	case SC_SBOPT_PROFILE:
		if (cl->profile)
			return bad("--profile given twice", NULL);
		cl->profile = arg;
		return 0;
	case SC_SBOPT_CONFIG:
		if (cl->config)
			return bad("--config given twice", NULL);
		cl->config = arg;
		return 0;
	case SC_SBOPT_CONNECTIONS:
		if (p->connections)
			return bad("--connections given twice", NULL);
		p->connections = sc_xstrdup(arg);
		return 0;
	case SC_SBOPT_NETWORK:
		return word("network", sc_net_parse(arg),
			    "none, loopback, full or hosts", arg, &p->net);
	case SC_SBOPT_MODE:
		return word("mode", sc_sandbox_mode_parse(arg), "required, auto or off",
			    arg, &p->mode);
	case SC_SBOPT_TIER:
		return word("tier", sc_tier_parse(arg), "full or landlock", arg,
			    &p->tier);
	case SC_SBOPT_ENV:
		return word("env", sc_env_mode_parse(arg), "scrub or short",
			    arg, &p->env);
	case SC_SBOPT_TIMEOUT:
		return parse_timeout(arg, &p->timeout_ms);
	case SC_SBOPT_MAX_OUTPUT:
		return parse_max_output(arg, &p->max_output);
	}
	return bad("not an option of sc-sandbox-exec", NULL);
}

int sc_sandbox_option(struct sc_sandbox_cmdline *cl, int c, const char *arg)
{
	size_t i;

	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++)
		if (lists[i].opt == c)
			return list_entry(list_of(&cl->cli, i), c, arg);
	switch (c) {
	case SC_SBOPT_ROOT_READ_ONLY: cl->cli.root_read_only = 1; return 0;
	case SC_SBOPT_PROBE: cl->actions |= SC_SBOPT_DO_PROBE; return 0;
	case 'z': cl->actions |= SC_SBOPT_DO_RECORDS; return 0;
	case SC_SBOPT_PRINT_OPTIONS: cl->actions |= SC_SBOPT_DO_PRINT; return 0;
	case SC_SBOPT_STDIN:
		/* A terminal would let the command push input into the
		 * person's shell (TIOCSTI) or read what they type. */
		if (isatty(STDIN_FILENO))
			return bad("--stdin refuses a terminal", NULL);
		cl->cli.keep_stdin = 1;
		return 0;
	}
	return value_option(cl, c, arg);
}

int sc_sandbox_cmdline_parse(struct sc_sandbox_cmdline *cl, int argc,
			     char *const argv[], int *end)
{
	int c, ret = 0;

	/* 0 makes glibc start afresh; ':' reports a missing argument. */
	optind = 0;
	opterr = 0;
	while (!ret && (c = getopt_long(argc, argv, "+:z", sc_sandbox_longopts,
					NULL)) != -1) {
		if (c == '?' || c == ':' || c == 'h' || c == SC_OPT_VERSION)
			ret = bad("not an option here", argv[optind - 1]);
		else
			ret = sc_sandbox_option(cl, c, optarg);
	}
	*end = optind;
	return ret;
}

int sc_sandbox_cmdline_needs_twin(const struct sc_sandbox_cmdline *cl)
{
	const struct sc_sandbox_policy *p = &cl->cli;

	if (cl->profile || cl->config)
		return 1;
	if (cl->actions & SC_SBOPT_DO_PRINT)
		return 0;
	return p->net == SC_NET_HOSTS || p->allow_hosts.nr || p->connections;
}

/*
 * The project's [sandbox] under P (the profile and the options, merged):
 * P becomes the whole policy.  Read by the one reader of speccoder.conf, so
 * a file any other tool refuses is refused here too.
 */
static int apply_config(struct sc_sandbox_policy *p, const char *file)
{
	struct sc_config cfg;
	struct sc_sandbox_policy all;

	sc_config_init(&cfg);
	if (sc_config_load(&cfg, file) != SC_CONFIG_OK)
		return -1;
	sc_config_sandbox_policy(&cfg, p, &all);
	sc_config_release(&cfg);
	sc_sandbox_policy_release(p);
	*p = all;
	return 0;
}

/* What only the three sources together can tell. */
static int check_policy(struct sc_sandbox_policy *p)
{
	if (p->mode == SC_SANDBOX_MODE_OFF && p->tier != SC_TIER_BEST)
		return bad("--mode off and --tier conflict", NULL);
	/* A host list asks for --network hosts; with another mode it would
	 * be ignored, so it is refused. */
	if (p->allow_hosts.nr && p->net < 0)
		p->net = SC_NET_HOSTS;
	if ((p->allow_hosts.nr || p->connections) && p->net != SC_NET_HOSTS)
		return bad("--allow-host and --connections need --network "
			   "hosts", NULL);
	return 0;
}

int sc_sandbox_cmdline_policy(const struct sc_sandbox_cmdline *cl,
			      const char *exe, struct sc_sandbox_policy *out)
{
	sc_sandbox_policy_init(out);
	if (cl->profile && sc_profile_load(out, cl->profile, exe) < 0)
		goto fail;
	sc_sandbox_policy_merge(out, &cl->cli);
	if (cl->config && apply_config(out, cl->config) < 0)
		goto fail;
	if (check_policy(out) < 0)
		goto fail;
	return 0;
fail:
	sc_sandbox_policy_release(out);
	return -1;
}

static void add_opt(struct sc_strlist *argv, int opt, const char *value)
{
	struct sc_buf b = SC_BUF_INIT;

	sc_buf_addf(&b, "--%s", opt_name(opt));
	sc_strlist_add(argv, b.data);
	sc_buf_release(&b);
	if (value)
		sc_strlist_add(argv, value);
}

/* "none" for 0 (a profile's "no limit"), "SECONDS[.mmm]" otherwise. */
static void add_timeout(struct sc_strlist *argv, long long ms)
{
	char s[48];

	if (!ms)
		snprintf(s, sizeof(s), "none");
	else if (ms % 1000)
		snprintf(s, sizeof(s), "%lld.%03lld", ms / 1000, ms % 1000);
	else
		snprintf(s, sizeof(s), "%lld", ms / 1000);
	add_opt(argv, SC_SBOPT_TIMEOUT, s);
}

static void add_max_output(struct sc_strlist *argv, long long bytes)
{
	char s[32];

	if (bytes)
		snprintf(s, sizeof(s), "%lld", bytes);
	else
		snprintf(s, sizeof(s), "none");
	add_opt(argv, SC_SBOPT_MAX_OUTPUT, s);
}

void sc_sandbox_policy_to_argv(const struct sc_sandbox_policy *p,
			       struct sc_strlist *argv)
{
	size_t i, j;

	if (p->root)
		add_opt(argv, SC_SBOPT_ROOT, p->root);
	for (i = 0; i < sizeof(lists) / sizeof(lists[0]); i++) {
		const struct sc_strlist *l = clist_of(p, i);

		for (j = 0; j < l->nr; j++)
			add_opt(argv, lists[i].opt, l->v[j]);
	}
	if (p->root_read_only)
		add_opt(argv, SC_SBOPT_ROOT_READ_ONLY, NULL);
	if (p->net >= 0)
		add_opt(argv, SC_SBOPT_NETWORK, sc_net_name(p->net));
	if (p->connections)
		add_opt(argv, SC_SBOPT_CONNECTIONS, p->connections);
	if (p->mode != SC_SANDBOX_MODE_UNSET)
		add_opt(argv, SC_SBOPT_MODE, sc_sandbox_mode_name(p->mode));
	if (p->tier != SC_TIER_BEST)
		add_opt(argv, SC_SBOPT_TIER, sc_tier_name(p->tier));
	if (p->env >= 0)
		add_opt(argv, SC_SBOPT_ENV, sc_env_mode_name(p->env));
	if (p->timeout_ms >= 0)
		add_timeout(argv, p->timeout_ms);
	if (p->max_output >= 0)
		add_max_output(argv, p->max_output);
	if (p->keep_stdin)
		add_opt(argv, SC_SBOPT_STDIN, NULL);
}

int sc_sandbox_print_options_run(const struct sc_sandbox_policy *pol, int fd)
{
	struct sc_strlist argv = { 0 };
	struct sc_buf out = SC_BUF_INIT;
	size_t i;
	int ret = 0;

	sc_sandbox_policy_to_argv(pol, &argv);
	for (i = 0; i < argv.nr; i++)
		sc_buf_add(&out, argv.v[i], strlen(argv.v[i]) + 1);
	if (out.len && sc_write_all(fd, out.data, out.len) < 0)
		ret = sc_error_errno("WRITE-FAILED", "cannot write the options");
	sc_buf_release(&out);
	sc_strlist_release(&argv);
	return ret < 0 ? SC_EXIT_INTERNAL : 0;
}
