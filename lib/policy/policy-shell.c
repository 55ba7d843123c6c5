/*
 * Shell and argv dispatch for sc-classify(1): launchers, environment
 * assignments, configured allow lists, shells inside shells, redirections
 * and the one function that judges an argv.  Split from policy.c at its
 * seams; shared state in policy-int.h.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "diag.h"
#include "findargs.h"
#include "gitopts.h"
#include "io.h"
#include "gitkeys.h"
#include "hostlist.h"
#include "policy.h"
#include "protected.h"
#include "shellwords.h"
#include "walk.h"
#include "policy-int.h"

static int is_privilege(const char *name)
{
	static const char *const names[] = { "sudo", "su", "doas", "pkexec",
		"run0", "runuser", "sudoedit", "setpriv", "ksu", "calife",
		"sg", "newgrp", "chroot", "nsenter", "unshare", "capsh",
		"machinectl", "systemd-run", "gosu", "su-exec", NULL };

	return sc_str_in_list(name, names);
}

/* Judge a string that a shell, eval or trap will run. */
static void judge_nested(struct judge *j, const char *s, size_t len,
			 struct ctx *c)
{
	struct ctx inner;

	memset(&inner, 0, sizeof(inner));
	sc_buf_add(&inner.cwd, c->cwd.data ? c->cwd.data : "", c->cwd.len);
	inner.cwd_unknown = c->cwd_unknown;
	inner.depth = c->depth + 1;
	pol_judge_line(j, s, len, &inner);
	sc_buf_release(&inner.cwd);
}

/* Variables that change which program runs or what it loads. */
static enum rule_id env_rule(const char *assign)
{
	static const char *const exec_git[] = {
		"GIT_SSH", "GIT_SSH_COMMAND", "GIT_EXTERNAL_DIFF", "GIT_PAGER",
		"GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_ASKPASS",
		"GIT_EXEC_PATH", "GIT_PROXY_COMMAND", "GIT_CONFIG_PARAMETERS",
		"GIT_CONFIG_COUNT", "GIT_CONFIG", "GIT_CONFIG_GLOBAL",
		"GIT_CONFIG_SYSTEM", "GIT_DIR", "GIT_WORK_TREE",
		"GIT_TEMPLATE_DIR", "GIT_COMMON_DIR", "GIT_INDEX_FILE",
		"GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES",
		"GIT_CEILING_DIRECTORIES", "GIT_DISCOVERY_ACROSS_FILESYSTEM",
		"GIT_NAMESPACE", NULL,
	};
	static const char *const exec_git_prefix[] = { "GIT_CONFIG_KEY_",
		"GIT_CONFIG_VALUE_", NULL };
	static const char *const names[] = {
		"PATH", "BASH_ENV", "ENV", "SHELLOPTS", "BASHOPTS", "PS4",
		"PROMPT_COMMAND", "IFS", "CDPATH", "GLOBIGNORE", "PAGER",
		"MANPAGER", "EDITOR", "VISUAL", "BROWSER", "NODE_OPTIONS",
		"NODE_PATH", "PYTHONPATH", "PYTHONSTARTUP", "PYTHONHOME",
		"PYTHONINSPECT", "PERL5LIB", "PERL5OPT", "PERLLIB", "RUBYOPT",
		"RUBYLIB", "JAVA_TOOL_OPTIONS", "_JAVA_OPTIONS",
		"JDK_JAVA_OPTIONS", "CLASSPATH", "LESSOPEN", "LESSCLOSE",
		"SSH_ASKPASS", "SUDO_ASKPASS", "HOME", "XDG_CONFIG_HOME",
		"RUSTC_WRAPPER", "RUSTC", "RUSTDOC", "CARGO", "CC", "CXX",
		"CPP", "LD", "AR", "MAKE", "MAKEFLAGS", "MFLAGS", "SHELL",
		"TMPDIR", "PROFILE", "ZDOTDIR", "INPUTRC", "TERMINFO",
		"GCONV_PATH", "MALLOC_CHECK_", "HOSTALIASES", "RESOLV_HOST_CONF",
		"LOCPATH", "NLSPATH", "http_proxy", "https_proxy", "HTTP_PROXY",
		"HTTPS_PROXY", "ALL_PROXY", "all_proxy", NULL,
	};
	static const char *const prefixes[] = { "LD_", "DYLD_", "GIT_",
		"npm_config_", "NPM_CONFIG_", "PIP_", "CARGO_", "RUSTFLAGS",
		"BASH_FUNC_", "PYTHON", "PERL", "RUBY", "NODE_", "GEM_",
		"BUNDLE_", "GOFLAGS", "GOPATH", "GOPROXY", "UV_", "POETRY_",
		"YARN_", NULL };
	char name[128];
	size_t n = strcspn(assign, "+=");

	if (n >= sizeof(name))
		return R_ENV_PREFIX;
	memcpy(name, assign, n);
	name[n] = '\0';
	if (sc_str_in_list(name, exec_git) ||
	    pol_prefix_in(name, exec_git_prefix))
		return R_GIT_EXEC;
	if (sc_str_in_list(name, names) || pol_prefix_in(name, prefixes))
		return R_ENV_PREFIX;
	return R_COUNT;
}

static void judge_assign(struct judge *j, const struct ctx *c,
			 const char *assign)
{
	enum rule_id r = env_rule(assign);
	struct sc_buf o = SC_BUF_INIT;

	if (r == R_COUNT)
		return;
	sc_buf_adds(&o, "cwd=");
	sc_sw_quote(&o, c->cwd.len ? c->cwd.data : ".",
		    c->cwd.len ? c->cwd.len : 1);
	sc_buf_adds(&o, " env=");
	sc_sw_quote(&o, assign, strlen(assign));
	pol_note(j, r, o.data);
	sc_buf_release(&o);
}

/* A path argument: judged when its value is known, else opaque. */
static int is_device(const char *s);

void pol_judge_arg_path(struct judge *j, struct ctx *c,
			const struct sc_sw_word *w, int write,
			const char *object)
{
	size_t len = strnlen(w->s, w->len);   /* what the program sees */

	if (!len)
		return;   /* no file has an empty name */
	if (!(w->flags & SC_SW_UNRESOLVED) && is_device(w->s))
		return;
	if (w->flags & SC_SW_TILDE) {
		pol_note(j, R_OUTSIDE, w->s);
		return;
	}
	if (w->flags & SC_SW_UNRESOLVED) {
		pol_note(j, R_OPAQUE, object);
		return;
	}
	if (c->cwd_unknown && w->s[0] != '/')
		pol_note(j, R_OPAQUE, object);
	pol_judge_path(j, c->cwd.data ? c->cwd.data : "", w->s, len, write);
}

int pol_is_option(const struct sc_sw_word *w, int after_dashdash)
{
	return !after_dashdash && w->len > 1 && w->s[0] == '-';
}

int pol_ends_options(const struct sc_sw_word *w, int *after_dashdash)
{
	if (*after_dashdash || strcmp(w->s, "--"))
		return 0;
	*after_dashdash = 1;
	return 1;
}

/*
 * Skip a launcher's options and fixed operands: the index of the command
 * it runs.  OPTARGS lists the short options taking an argument; LONGARGS
 * the long ones (written "--name"); OPERANDS the words before the command.
 */
static size_t skip_launcher(const struct sc_sw_word *w, size_t n, size_t i,
			    const char *optargs, const char *const *longargs,
			    size_t operands)
{
	for (i++; i < n; i++) {
		const char *s = w[i].s;

		if (!strcmp(s, "--")) {
			i++;
			break;
		}
		if (s[0] != '-' || !s[1])
			break;
		if (s[1] == '-') {
			if (!strchr(s, '=') && longargs &&
			    sc_str_in_list(s, longargs))
				i++;
			continue;
		}
		if (s[1] >= '0' && s[1] <= '9')
			continue;   /* nice -10 */
		for (s++; *s; s++)
			if (strchr(optargs, *s)) {
				if (!s[1])
					i++;
				break;
			}
	}
	while (operands-- && i < n)
		i++;
	return i;
}

/* env [OPTION]... [NAME=VALUE]... [COMMAND [ARG]...] */
static size_t skip_env(struct judge *j, const struct sc_sw_word *w,
		       size_t n, size_t i, struct ctx *c, int *nested)
{
	for (i++; i < n; i++) {
		const char *s = w[i].s;

		if (!strcmp(s, "-S") || !strncmp(s, "--split-string", 14) ||
		    (s[0] == '-' && s[1] != '-' && strchr(s, 'S'))) {
			/* env -S splits a string into a command: judge it */
			const char *str = strchr(s, '=') ? strchr(s, '=') + 1
				: (s[1] == 'S' && s[2]) ? s + 2
				: (i + 1 < n ? w[++i].s : "");

			judge_nested(j, str, strlen(str), c);
			*nested = 1;
			return n;
		}
		if (!strcmp(s, "-u") || !strcmp(s, "-C") ||
		    !strcmp(s, "--unset") || !strcmp(s, "--chdir")) {
			if (s[1] == 'C' || !strcmp(s, "--chdir"))
				c->cwd_unknown = 1;
			i++;
			continue;
		}
		if (!strncmp(s, "--chdir=", 8) || !strncmp(s, "-C", 2))
			c->cwd_unknown = 1;
		if (s[0] == '-')
			continue;
		if (strchr(s, '=') && sc_sw_is_name(s, strcspn(s, "="))) {
			judge_assign(j, c, s);
			continue;
		}
		break;
	}
	return i;
}

int pol_word_has_flag(const struct sc_sw_word *w, size_t n, unsigned f)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (w[i].flags & f)
			return 1;
	return 0;
}

/* ---- configured allow lists ---------------------------------------- */

/* 1 when the N words W are the AN words AV, word for word. */
static int argv_equal(const struct sc_sw_word *w, size_t n,
		      char *const *av, size_t an)
{
	size_t i;

	if (n != an)
		return 0;
	for (i = 0; i < n; i++)
		if (strlen(av[i]) != w[i].len || strcmp(av[i], w[i].s))
			return 0;
	return 1;
}

/*
 * An option that makes a program load a file or run code of its own
 * choosing (make -f, --eval, -C DIR, -I DIR, perl -e, --rcfile, --config,
 * npm --prefix, pytest -p): a prefix entry never covers one, in any
 * spelling (-fFILE, --file=FILE), before or after "--".
 */
static int is_interpreter(const char *name);
static int is_shell(const char *name);

static int loads_code(const char *s, int interp)
{
	static const char *const longs[] = { "--file", "--makefile",
		"--eval", "--directory", "--include-dir", "--rcfile",
		"--init-file", "--config", "--prefix", "--require", "--import",
		"--loader", "--load", "--plugin", "--plugins", "--rootdir",
		"--confcutdir", "--exec", "--cwd", "--manifest-path",
		"--config-file", "--settings", NULL };
	size_t k;

	if (s[0] != '-' || !s[1])
		return 0;
	if (s[1] != '-')
		return strchr("fCIpc", s[1]) != NULL ||
		       (interp && strchr("ecrmEx", s[1]));
	for (k = 0; longs[k]; k++) {
		size_t len = strlen(longs[k]);

		if (!strncmp(s, longs[k], len) && (!s[len] || s[len] == '='))
			return 1;
	}
	return 0;
}

static int argv_prefix(const struct sc_sw_word *w, size_t n,
		       const struct sc_strlist *a, size_t len)
{
	struct sc_buf prog = SC_BUF_INIT;
	size_t i;
	int interp;

	if (len < 2 || n < len)
		return 0;   /* a bare program is never a prefix */
	for (i = 0; i < len; i++)
		if (strlen(a->v[i]) != w[i].len || strcmp(a->v[i], w[i].s))
			return 0;
	pol_cmd_name(&w[0], &prog);
	interp = is_interpreter(prog.data) || is_shell(prog.data);
	sc_buf_release(&prog);
	for (; i < n; i++)
		if (loads_code(w[i].s, interp))
			return 0;   /* judged on its own, as unlisted */
	return 1;
}

/*
 * 1 when W is an entry of LIST: word for word, or, with PREFIX, the entry
 * followed by anything but an option that loads code.
 */
static int in_argv_list(const struct sc_sw_word *w, size_t n,
			const struct sc_argv_list *list, int prefix)
{
	size_t i;

	for (i = 0; i < list->nr; i++)
		if (prefix ? argv_prefix(w, n, &list->items[i], list->items[i].nr)
			   : argv_equal(w, n, list->items[i].v,
					list->items[i].nr))
			return 1;
	return 0;
}

/* The rule of a configured list that allows W, or R_COUNT. */
static enum rule_id configured(const struct judge *j,
			       const struct sc_sw_word *w, size_t n)
{
	const struct sc_config *cfg = &j->p->cfg;
	size_t i;

	if (!n || pol_word_has_flag(w, n, SC_SW_UNRESOLVED | SC_SW_CTRL))
		return R_COUNT;
	/* a check is exactly the argv the configuration names: make test
	 * -f FILE, make test CC=./x or make test -C DIR runs something else */
	for (i = 0; i < cfg->checks.nr; i++)
		if (argv_equal(w, n, cfg->checks.v[i].argv,
			       cfg->checks.v[i].argc))
			return R_CHECK;
	if (in_argv_list(w, n, &cfg->allow, 0) ||
	    in_argv_list(w, n, &cfg->allow_prefix, 1))
		return R_COMMAND;
	if (in_argv_list(w, n, &cfg->net_allow, 0) ||
	    in_argv_list(w, n, &cfg->net_allow_prefix, 1))
		return R_NET_COMMAND;
	return R_COUNT;
}

/*
 * The [network "NAME"] section that gives W (N words) its hosts: its argv
 * word for word, else its argvPrefix as commands.allowPrefix matches (no
 * option that loads code follows), the first section in the file among
 * equals; a section without hosts gives nothing.  The hosts are appended
 * to OBJECT: a grant or a driver sees what the command may reach.  NULL
 * when none.
 */
static const struct sc_net_rule *net_hosts(const struct judge *j,
					   const struct sc_sw_word *w, size_t n,
					   struct sc_buf *object)
{
	const struct sc_config *cfg = &j->p->cfg;
	const struct sc_net_rule *r = NULL;
	size_t i, k;
	int prefix;

	if (!n || pol_word_has_flag(w, n, SC_SW_UNRESOLVED | SC_SW_CTRL))
		return NULL;
	for (prefix = 0; prefix < 2 && !r; prefix++)
		for (i = 0; i < cfg->nr_net_rules && !r; i++)
			if (cfg->net_rules[i].hosts.nr &&
			    in_argv_list(w, n, prefix ? &cfg->net_rules[i].argv_prefix
						      : &cfg->net_rules[i].argv, prefix))
				r = &cfg->net_rules[i];
	for (k = 0; r && k < r->hosts.nr; k++) {
		sc_buf_adds(object, k ? " " : " hosts=");
		sc_sw_quote(object, r->hosts.v[k], strlen(r->hosts.v[k]));
	}
	return r;
}

/* ---- arguments that run programs ----------------------------------- */

/*
 * Options that make a program run another program, in one table (listed
 * in sc-classify(1) under "Arguments that run programs").  A prefix match:
 * "--pre" covers --pre=X and --pre X; "-I" covers -Ixz.  find -exec, sed
 * e, awk system(), git -c and env -S are judged by their own parsers.
 */
static const struct exec_opt {
	const char *prog, *opt;
} exec_opts[] = {
	{ "rg", "--pre" }, { "rg", "--hostname-bin" },
	{ "sort", "--compress-program" },
	{ "tar", "--to-command" }, { "tar", "--use-compress-program" },
	{ "tar", "-I" }, { "tar", "--checkpoint-action" },
	{ "tar", "--info-script" }, { "tar", "--new-volume-script" },
	{ "tar", "-F" }, { "tar", "--rsh-command" }, { "tar", "--rmt-command" },
	{ "man", "-P" }, { "man", "--pager" }, { "man", "-H" },
	{ "man", "--html" },
	{ "rsync", "-e" }, { "rsync", "--rsh" }, { "rsync", "--rsync-path" },
	{ "zip", "-TT" }, { "zip", "--unzip-command" },
	{ "split", "--filter" }, { "sdiff", "--diff-program" },
	{ "diff3", "--diff-program" }, { "flock", "-c" },
	{ "flock", "--command" }, { "less", "--lesskey-src" },
	{ "git", "-O" }, { "git", "--open-files-in-pager" },
	{ "git", "--ext-diff" }, { "git", "--exec" }, { "git", "--upload-pack" },
	{ "git", "--receive-pack" }, { "git", "--extcmd" }, { "git", "--tool" },
	{ "git", "--textconv" }, { "git", "--filters" },
};

/* 1 when word S of program PROG makes it run another program. */
int pol_exec_option(const char *prog, const char *s)
{
	size_t k, len;

	for (k = 0; k < sizeof(exec_opts) / sizeof(*exec_opts); k++) {
		if (strcmp(prog, exec_opts[k].prog))
			continue;
		len = strlen(exec_opts[k].opt);
		if (strncmp(s, exec_opts[k].opt, len))
			continue;
		/* --pre-glob is another option; -Ixz is -I with a value */
		if (!s[len] || s[len] == '=' || exec_opts[k].opt[1] != '-')
			return 1;
	}
	return 0;
}

/* Note every option of W[I+1..N) that runs a program. */
static void judge_exec_options(struct judge *j, const char *prog,
			       const struct sc_sw_word *w, size_t n, size_t i,
			       const char *object)
{
	size_t k;

	for (k = i + 1; k < n && strcmp(w[k].s, "--"); k++)
		if (pol_exec_option(prog, w[k].s))
			pol_note(j, R_EXEC_ARG, object);
}

/*
 * Programs that change the host for every process on it (the clock, the
 * name, the network, mounts, swap, kernel modules), asked even when the
 * sandbox would stop them: a person should know an agent tried.
 */
static int host_change(const char *name, const struct sc_sw_word *w,
		       size_t n, size_t i)
{
	static const char *const always[] = { "hwclock", "mount", "umount",
		"swapon", "swapoff", "modprobe", "insmod", "rmmod", "reboot",
		"shutdown", "poweroff", "halt", "kexec", "iptables",
		"ip6tables", "nft", "ufw", "losetup", "mkswap", "wipefs",
		"rtcwake", "ntpdate", "setcap", "sysctl", "timedatectl",
		"hostnamectl", "ifconfig", "route", "systemctl", "service",
		"ip", NULL };
	static const char *const ip_changes[] = { "add", "del", "delete",
		"set", "change", "replace", "flush", "append", "prepend",
		"restore", "exec", "attach", "detach", "up", "down", NULL };
	static const char *const date_values[] = { "-d", "--date", "-f",
		"--file", "-r", "--reference", NULL };
	size_t k;

	if (!strcmp(name, "date")) {
		for (k = i + 1; k < n; k++) {
			const char *s = w[k].s;

			if (sc_str_in_list(s, date_values)) {
				k++;
			} else if (!strncmp(s, "--set", 5)) {
				return 1;
			} else if (s[0] == '-' && s[1] != '-') {
				/* -us sets; -Iseconds, -dSTR carry a value */
				size_t at = strcspn(s + 1, "sIdfr") + 1;

				if (s[at] == 's')
					return 1;
			} else if (s[0] != '-' && s[0] != '+') {
				return 1;   /* date MMDDhhmm sets the clock */
			}
		}
		return 0;
	}
	if (!strcmp(name, "hostname")) {
		for (k = i + 1; k < n; k++)
			if (w[k].s[0] != '-' || sc_str_in_list(w[k].s,
			    (const char *const[]){ "-F", "--file", "-b",
				    "--boot", NULL }))
				return 1;
		return 0;
	}
	if (!sc_str_in_list(name, always))
		return 0;
	/* the forms that only show: mount, sysctl -a, ip addr, ... */
	if (i + 1 >= n)
		return strcmp(name, "mount") && strcmp(name, "swapon") &&
		       strcmp(name, "ip") && strcmp(name, "sysctl") &&
		       strcmp(name, "timedatectl") && strcmp(name, "hostnamectl") &&
		       strcmp(name, "ifconfig") && strcmp(name, "route");
	if (!strcmp(name, "ip")) {
		for (k = i + 1; k < n; k++)
			if (sc_str_in_list(w[k].s, ip_changes))
				return 1;
		return 0;
	}
	if (!strcmp(name, "sysctl")) {
		for (k = i + 1; k < n; k++)
			if (strchr(w[k].s, '=') || !strcmp(w[k].s, "-w") ||
			    !strncmp(w[k].s, "--write", 7) ||
			    !strcmp(w[k].s, "-p") || !strncmp(w[k].s, "--load", 6) ||
			    !strcmp(w[k].s, "--system"))
				return 1;
		return 0;
	}
	if (!strcmp(name, "timedatectl") || !strcmp(name, "hostnamectl") ||
	    !strcmp(name, "systemctl"))
		return !sc_str_in_list(w[i + 1].s, (const char *const[]){
			"status", "show", "list-timezones", "timesync-status",
			"show-timesync", "list-units", "is-active", "is-enabled",
			"cat", "--version", NULL });
	return 1;
}

static int is_shell(const char *name)
{
	static const char *const shells[] = { "sh", "bash", "dash", "zsh",
		"ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "posh",
		"pwsh", "powershell", "rbash", "oksh", "loksh", "elvish",
		"nu", "xonsh", "script", "watch", "su", NULL };

	return sc_str_in_list(name, shells);
}

/* Shells whose -c SCRIPT is a POSIX shell line the lexer reads. */
static int is_posix_shell(const char *name)
{
	static const char *const names[] = { "sh", "bash", "dash", "zsh",
		"ksh", "mksh", "ash", "posh", "yash", "rbash", "oksh", "loksh",
		NULL };

	return sc_str_in_list(name, names);
}

/*
 * sh -c SCRIPT [NAME ARGS...], bash -lc SCRIPT, /bin/bash -c, a heredoc
 * fed to a shell: SCRIPT is judged as a shell line of the same call, and
 * the wrapper adds a question of its own only when it runs text the
 * policy cannot see (a script file, --rcfile, a pipe), is interactive
 * (-i, no operand) or is not a POSIX shell.  Returns with OWN set then.
 */
static void judge_shell_cmd(struct judge *j, struct ctx *c,
			    const struct sc_sw_word *w, size_t n, size_t i,
			    const char *name, const char *heredoc,
			    const char *object)
{
	static const char *const with_value[] = { "-o", "+o", "-O", "+O",
		NULL };
	static const char *const harmless_long[] = { "--login",
		"--noprofile", "--norc", "--posix", "--noediting",
		"--restricted", "--verbose", "--no-rcs", NULL };
	size_t k;
	int seen_c = 0, own = !is_posix_shell(name);

	/* bash -c 'sh' <<EOF: the inner shell reads the heredoc */
	if (heredoc)
		judge_nested(j, heredoc, strlen(heredoc), c);
	for (k = i + 1; k < n; k++) {
		const char *s = w[k].s;

		if (!strcmp(s, "--")) {
			k++;
			break;
		}
		if (sc_str_in_list(s, with_value)) {
			k++;
			continue;
		}
		if (!strcmp(s, "--rcfile") || !strcmp(s, "--init-file")) {
			own = 1;   /* a file of startup commands */
			if (k + 1 < n)
				pol_judge_arg_path(j, c, &w[++k], 0, object);
			continue;
		}
		if (s[0] == '-' && s[1] == '-') {
			if (!sc_str_in_list(s, harmless_long))
				own = 1;
			continue;
		}
		if ((s[0] != '-' && s[0] != '+') || !s[1])
			break;
		if (s[0] == '-' && strchr(s, 'c'))
			seen_c = 1;
		if (strchr(s, 'i'))
			own = 1;   /* interactive: reads ENV and the terminal */
		if ((strchr(s, 'o') || strchr(s, 'O')) && k + 1 < n)
			k++;       /* -eo pipefail */
	}
	if (seen_c) {
		if (k >= n) {
			pol_note(j, R_SHELL_SYNTAX, object);   /* -c without a string */
		} else {
			if (w[k].flags & SC_SW_UNRESOLVED)
				pol_note(j, R_OPAQUE, object);
			judge_nested(j, w[k].s, strnlen(w[k].s, w[k].len), c);
		}
	} else if (k < n) {
		pol_judge_arg_path(j, c, &w[k], 0, object);
		own = 1;   /* a script file, whose text is not seen */
	} else if (!heredoc) {
		own = 1;   /* interactive, or commands from a pipe */
	}
	if (own)
		pol_note(j, R_SHELL, object);
}

static int is_network_tool(const char *name)
{
	static const char *const tools[] = { "curl", "wget", "wget2", "nc",
		"ncat", "netcat", "socat", "ssh", "scp", "sftp", "rsync",
		"telnet", "ftp", "lftp", "aria2c", "http", "https", "xh",
		"ping", "ping6", "dig", "nslookup", "host", "whois",
		"traceroute", "gh", "glab", "hub", "tea", "ssh-keyscan",
		"openssl", "gsutil", "aws", "gcloud", "az", "kubectl",
		"docker", "podman", "nmap", "tftp", "mosh", "rclone", NULL };

	return sc_str_in_list(name, tools);
}

static int is_interpreter(const char *name)
{
	static const char *const names[] = { "perl", "ruby", "node",
		"nodejs", "deno", "bun", "php", "lua", "luajit", "rscript",
		"julia", "osascript", "tclsh", "wish", "jshell", "groovy",
		"scala", "kotlin", "awk", "irb", "erl", "elixir", "guile",
		"racket", "sbcl", "ghci", "runghc", NULL };

	return sc_str_in_list(name, names) || !strncmp(name, "python", 6) ||
	       !strncmp(name, "pypy", 4);
}

static int inline_code(const struct sc_sw_word *w, size_t n, size_t i)
{
	static const char *const flags[] = { "-c", "-e", "-E", "--eval",
		"-r", "-p", "--print", "-x", "--command", "-m", "-pe", "-ne",
		"-i", "-l", "-n", NULL };
	size_t k;

	for (k = i + 1; k < n && w[k].s[0] == '-'; k++)
		if (sc_str_in_list(w[k].s, flags) ||
		    (w[k].s[1] != '-' && strpbrk(w[k].s + 1, "ceE")))
			return 1;
	return 0;
}

static void judge_cd(struct judge *j, struct ctx *c,
		     const struct sc_sw_word *w, size_t n, size_t i,
		     const char *object)
{
	struct sc_path res;
	size_t k = i + 1;
	int st;

	while (k < n && (!strcmp(w[k].s, "-L") || !strcmp(w[k].s, "-P") ||
			 !strcmp(w[k].s, "-e") || !strcmp(w[k].s, "--")))
		k++;
	pol_note(j, R_BUILTIN, object);
	if (k < n && !w[k].len)
		return;   /* cd '' stays where it is */
	if (k >= n || (w[k].flags & SC_SW_UNRESOLVED) || !strcmp(w[k].s, "-")) {
		c->cwd_unknown = 1;   /* $HOME, $OLDPWD, a variable */
		if (k < n && (w[k].flags & SC_SW_TILDE))
			pol_note(j, R_OUTSIDE, object);
		return;
	}
	sc_path_init(&res);
	st = sc_path_resolve(&j->p->root, c->cwd.data ? c->cwd.data : "",
			     w[k].s, w[k].len, 0, &res);
	if (st != SC_PATH_OK) {
		pol_note(j, pol_status_rule(st), object);
		c->cwd_unknown = 1;
	} else {
		pol_judge_path(j, c->cwd.data ? c->cwd.data : "", w[k].s,
			       w[k].len, 0);
		sc_buf_reset(&c->cwd);
		sc_buf_adds(&c->cwd, res.rel);
	}
	sc_path_release(&res);
}

/* export NAME=VALUE, declare, local, readonly, typeset, unset. */
static int judge_declaration(struct judge *j, struct ctx *c,
			     const char *name, const struct sc_sw_word *w,
			     size_t n, size_t i, const char *object)
{
	static const char *const decl[] = { "export", "declare", "typeset",
		"local", "readonly", "unset", NULL };
	size_t k;

	if (!sc_str_in_list(name, decl))
		return 0;
	for (k = i + 1; k < n; k++) {
		if (w[k].flags & SC_SW_UNRESOLVED)
			pol_note(j, R_OPAQUE, object);
		if (w[k].s[0] == '-') {
			if (strchr(w[k].s, 'f'))
				pol_note(j, R_SHELL, object);   /* functions */
			continue;
		}
		if (!strcmp(name, "unset")) {
			struct sc_buf a = SC_BUF_INIT;

			sc_buf_adds(&a, w[k].s);
			sc_buf_addch(&a, '=');
			judge_assign(j, c, a.data);
			sc_buf_release(&a);
		} else {
			judge_assign(j, c, w[k].s);
		}
	}
	pol_note(j, R_BUILTIN, object);
	return 1;
}

/* Any argument naming a privilege program makes an unknown command a deny. */
static void scan_privilege(struct judge *j, const struct sc_sw_word *w,
			   size_t n, size_t i, const char *object)
{
	struct sc_buf name = SC_BUF_INIT;
	size_t k;

	for (k = i + 1; k < n; k++) {
		pol_cmd_name(&w[k], &name);
		if (is_privilege(name.data))
			pol_note(j, R_PRIVILEGE, object);
	}
	sc_buf_release(&name);
}

/*
 * xargs [OPTIONS] COMMAND... fed by find or fd on its left (find . -name
 * '*.py' | xargs grep -n x): COMMAND is judged with the names the listing
 * can print appended (or standing for -I's REPL), as find -exec is.
 * Returns 0, judging nothing, when the line is not such a pair or an
 * option is not understood: xargs then stays a launcher that asks.
 */
static size_t peel_launchers(struct judge *j, struct ctx *c,
			     const struct sc_sw_word *w, size_t n,
			     const char *object, const struct sc_sw_cmd *feed,
			     int *done)
{
	static const char *const timeout_long[] = { "--signal", "--kill-after",
		NULL };
	static const char *const nice_long[] = { "--adjustment", NULL };
	static const char *const stdbuf_long[] = { "--input", "--output",
		"--error", NULL };
	static const char *const time_long[] = { "--format", "--output", NULL };
	static const char *const xargs_long[] = { "--arg-file", "--delimiter",
		"--eof", "--replace", "--max-lines", "--max-args",
		"--max-procs", "--max-chars", "--process-slot-var", NULL };
	struct sc_buf name = SC_BUF_INIT;
	size_t i = 0, before;

	while (i < n && !*done) {
		before = i;
		pol_cmd_name(&w[i], &name);
		if (is_privilege(name.data)) {
			pol_note(j, R_PRIVILEGE, object);
			*done = 1;
		} else if (!strcmp(name.data, "env")) {
			/* env CMD is judged as CMD; env alone prints the
			 * environment, env -S splits a string */
			i = skip_env(j, w, n, i, c, done);
			if (*done || i >= n)
				pol_note(j, R_LAUNCHER, object);
		} else if (!strcmp(name.data, "xargs")) {
			/* fed by find or fd: judged on the names it reads */
			if (i || !pol_judge_xargs(j, c, feed, w, n, i, object))
				pol_note(j, R_LAUNCHER, object);
			i = skip_launcher(w, n, i, "adEIiLlnPs", xargs_long, 0);
		} else if (!strcmp(name.data, "timeout")) {
			i = skip_launcher(w, n, i, "sk", timeout_long, 1);
		} else if (!strcmp(name.data, "nice")) {
			i = skip_launcher(w, n, i, "n", nice_long, 0);
		} else if (!strcmp(name.data, "nohup") ||
			   !strcmp(name.data, "builtin") ||
			   !strcmp(name.data, "unbuffer") ||
			   !strcmp(name.data, "setsid") ||
			   !strcmp(name.data, "caffeinate") ||
			   !strcmp(name.data, "nocache")) {
			i = skip_launcher(w, n, i, "", NULL, 0);
		} else if (!strcmp(name.data, "stdbuf")) {
			i = skip_launcher(w, n, i, "ioe", stdbuf_long, 0);
		} else if (!strcmp(name.data, "exec")) {
			i = skip_launcher(w, n, i, "a", NULL, 0);
		} else if (!strcmp(name.data, "command")) {
			if (i + 1 < n && (!strcmp(w[i + 1].s, "-v") ||
					  !strcmp(w[i + 1].s, "-V"))) {
				pol_note(j, R_BUILTIN, object);
				*done = 1;
			}
			i = skip_launcher(w, n, i, "", NULL, 0);
		} else if (!strcmp(name.data, "time")) {
			size_t k;

			for (k = i + 1; k < n && w[k].s[0] == '-'; k++)
				if ((!strcmp(w[k].s, "-o") || !strcmp(w[k].s, "--output")) &&
				    k + 1 < n)
					pol_judge_arg_path(j, c, &w[k + 1], 1, object);
				else if (!strncmp(w[k].s, "--output=", 9)) {
					struct sc_sw_word t = w[k];

					t.s += 9;
					t.len -= 9;
					pol_judge_arg_path(j, c, &t, 1, object);
				}
			i = skip_launcher(w, n, i, "fo", time_long, 0);
		} else if (!strcmp(name.data, "busybox") ||
			   !strcmp(name.data, "toybox")) {
			pol_note(j, R_LAUNCHER, object);
			i++;
		} else {
			break;
		}
		if (i == before)
			break;
	}
	sc_buf_release(&name);
	return i;
}

/* Judge one command: W[0..N) with the words already resolved. */
void pol_judge_argv(struct judge *j, const struct sc_sw_word *w,
		    size_t n, struct ctx *c, const char *heredoc)
{
	struct sc_buf object = SC_BUF_INIT, name = SC_BUF_INIT;
	const struct sc_sw_cmd *feed = c->feed;
	const struct reader *r;
	enum rule_id conf;
	size_t i, k;
	int done = 0;

	c->feed = NULL;   /* for this command only, never what it runs */
	if (!n)
		return;
	if (c->depth > MAX_DEPTH) {
		pol_note(j, R_SHELL_DEPTH, "");
		return;
	}
	i = 0;
	pol_cmd_object(j, c, w, n, 0, &object);
	if (pol_word_has_flag(w, n, SC_SW_CTRL))
		pol_note(j, R_SHELL_UNUSUAL, object.data);
	if (pol_word_has_flag(w, n, SC_SW_UNRESOLVED))
		pol_note(j, R_OPAQUE, object.data);
	if (c->cwd_unknown)
		pol_note(j, R_OPAQUE, object.data);
	i = peel_launchers(j, c, w, n, object.data, feed, &done);
	if (c->cwd_unknown)
		pol_note(j, R_OPAQUE, object.data);   /* env -C DIR: runs elsewhere */
	if (!done && i >= n)
		pol_note(j, R_READ_COMMAND, object.data);   /* timeout 5: runs nothing */
	if (done || i >= n)
		goto out;
	if (i)
		pol_cmd_object(j, c, w, n, i, &object);
	pol_cmd_name(&w[i], &name);
	if ((w[i].flags & (SC_SW_NONASCII | SC_SW_CTRL)) ||
	    w[i].len != strcspn(w[i].s, "\t\n"))
		pol_note(j, R_SHELL_UNUSUAL, object.data);   /* a name never holds them */
	if (w[i].flags & SC_SW_UNRESOLVED) {
		/* sudo${IFS}id: what the word starts with is still known */
		struct sc_sw_word lit = w[i];
		char *cut = sc_xmemdup(w[i].s, strcspn(w[i].s, "$`*?[{~"));

		lit.s = cut;
		lit.len = strlen(cut);
		pol_cmd_name(&lit, &name);
		if (is_privilege(name.data))
			pol_note(j, R_PRIVILEGE, object.data);
		free(cut);
		scan_privilege(j, w, n, i, object.data);
		pol_note(j, R_OPAQUE, object.data);
		goto out;
	}
	conf = configured(j, w + i, n - i);
	if ((j->net = net_hosts(j, w + i, n - i, &object)))
		conf = R_NET_HOSTS;
	if (!strcmp(name.data, "git") && pol_system_program(&w[i])) {
		pol_judge_git(j, c, w, n, i, object.data);
	}
	if (conf != R_COUNT) {
		pol_note(j, conf, object.data);
		goto out;
	}
	if (!pol_system_program(&w[i])) {
		/* ./rm, ../bin/cat: a program the built-in lists do not know */
		scan_privilege(j, w, n, i, object.data);
		pol_note(j, R_UNLISTED, object.data);
		goto out;
	}
	judge_exec_options(j, name.data, w, n, i, object.data);
	if (host_change(name.data, w, n, i))
		pol_note(j, R_HOST_CHANGE, object.data);
	if (!strcmp(name.data, "git")) {
		/* judged above */
	} else if (is_shell(name.data)) {
		judge_shell_cmd(j, c, w, n, i, name.data, heredoc,
				object.data);
	} else if (!strcmp(name.data, "eval") || !strcmp(name.data, "trap")) {
		struct sc_buf s = SC_BUF_INIT;

		pol_note(j, R_SHELL, object.data);
		for (k = i + 1; k < n; k++) {
			if (!strcmp(name.data, "trap") && k > i + 1)
				break;
			if (s.len)
				sc_buf_addch(&s, ' ');
			sc_buf_add(&s, w[k].s, w[k].len);
		}
		judge_nested(j, s.data ? s.data : "", s.len, c);
		sc_buf_release(&s);
	} else if (!strcmp(name.data, "source") || !strcmp(name.data, ".") ||
		   !strcmp(name.data, "alias") || !strcmp(name.data, "hash") ||
		   !strcmp(name.data, "enable") || !strcmp(name.data, "shopt") ||
		   !strcmp(name.data, "set") || !strcmp(name.data, "fc") ||
		   !strcmp(name.data, "coproc")) {
		pol_note(j, R_SHELL, object.data);
		for (k = i + 1; k < n; k++)
			if (w[k].s[0] != '-')
				pol_judge_arg_path(j, c, &w[k], 0, object.data);
	} else if (!strcmp(name.data, "cd") || !strcmp(name.data, "pushd")) {
		judge_cd(j, c, w, n, i, object.data);
	} else if (!strcmp(name.data, "popd")) {
		c->cwd_unknown = 1;
		pol_note(j, R_BUILTIN, object.data);
	} else if (judge_declaration(j, c, name.data, w, n, i, object.data)) {
		/* judged */
	} else if (!strcmp(name.data, "find")) {
		pol_judge_find(j, c, w, n, i, object.data);
	} else if (!strcmp(name.data, "fd") || !strcmp(name.data, "fdfind")) {
		pol_judge_fd(j, c, w, n, i, object.data);
	} else if (!strcmp(name.data, "sed") || !strcmp(name.data, "gsed")) {
		pol_judge_sed(j, c, w, n, i, object.data);
	} else if (!strcmp(name.data, "awk") || !strcmp(name.data, "gawk") ||
		   !strcmp(name.data, "mawk") || !strcmp(name.data, "nawk")) {
		pol_judge_awk(j, c, w, n, i, object.data);
	} else if ((r = pol_find_reader(name.data))) {
		pol_judge_reader(j, c, w, n, i, r, object.data);
	} else if (sc_str_in_list(name.data, pol_inert)) {
		/* printf -v NAME sets a variable like an assignment */
		for (k = i + 1; k + 1 < n && !strcmp(name.data, "printf"); k++)
			if (!strcmp(w[k].s, "-v")) {
				struct sc_buf a = SC_BUF_INIT;

				sc_buf_addf(&a, "%s=", w[k + 1].s);
				judge_assign(j, c, a.data);
				sc_buf_release(&a);
			}
		/* date -f FILE echoes each line it cannot parse: a read */
		for (k = i + 1; k < n && !strcmp(name.data, "date"); k++)
			if ((!strcmp(w[k].s, "-f") || !strcmp(w[k].s, "--file")) &&
			    k + 1 < n) {
				pol_judge_arg_path(j, c, &w[++k], 0,
						   object.data);
			} else if (!strncmp(w[k].s, "--file=", 7)) {
				struct sc_sw_word t = w[k];

				t.s += 7;
				t.len -= 7;
				pol_judge_arg_path(j, c, &t, 0, object.data);
			}
		pol_note(j, R_READ_COMMAND, object.data);
	} else if (pol_judge_file_command(j, c, name.data, w, n, i,
					  object.data)) {
		/* judged */
	} else if (is_network_tool(name.data)) {
		scan_privilege(j, w, n, i, object.data);
		pol_note(j, R_NETWORK_TOOL, object.data);
	} else if (is_interpreter(name.data) && inline_code(w, n, i)) {
		pol_note(j, R_INLINE_CODE, object.data);
	} else {
		scan_privilege(j, w, n, i, object.data);
		pol_note(j, R_UNLISTED, object.data);
	}
out:
	sc_buf_release(&object);
	sc_buf_release(&name);
}

static int is_device(const char *s)
{
	static const char *const ok[] = { "/dev/null", "/dev/stdout",
		"/dev/stderr", "/dev/stdin", "/dev/tty", "/dev/zero",
		"/dev/fd/0", "/dev/fd/1", "/dev/fd/2", NULL };

	return sc_str_in_list(s, ok);
}

static int is_number(const char *s)
{
	if (!*s)
		return 0;
	if (!strcmp(s, "-"))
		return 1;
	for (; *s; s++)
		if ((*s < '0' || *s > '9') && !(s[1] == '\0' && *s == '-'))
			return 0;
	return 1;
}

static void judge_redirs(struct judge *j, struct ctx *c,
			 const struct sc_sw_cmd *cmd, const char *object)
{
	size_t k;

	for (k = 0; k < cmd->nr_redirs; k++) {
		const struct sc_sw_redir *rd = &cmd->redirs[k];
		const struct sc_sw_word *t = &rd->target;
		int write;

		if (rd->op == SC_RD_HEREDOC || rd->op == SC_RD_HERESTR)
			continue;
		if ((rd->op == SC_RD_DUP_OUT || rd->op == SC_RD_DUP_IN) &&
		    is_number(t->s))
			continue;
		if (rd->op == SC_RD_DUP_IN) {
			pol_note(j, R_SHELL_SYNTAX, object);
			continue;
		}
		write = rd->op != SC_RD_IN;
		if (t->flags & SC_SW_CTRL)
			pol_note(j, R_SHELL_UNUSUAL, object);
		if (!(t->flags & SC_SW_UNRESOLVED) && is_device(t->s))
			continue;
		if (!t->len) {
			pol_note(j, R_SHELL_SYNTAX, object);
			continue;
		}
		pol_judge_arg_path(j, c, t, write, object);
		if (write)
			pol_note(j, R_FILE_COMMAND, object);
	}
}

static void judge_cmd(struct judge *j, struct ctx *c,
		      const struct sc_sw_cmd *cmd, const char *line,
		      size_t len)
{
	struct sc_buf object = SC_BUF_INIT;
	const char *stdin_text;
	size_t k;

	if (cmd->nr_words)
		pol_cmd_object(j, c, cmd->words, cmd->nr_words, 0, &object);
	else
		pol_line_object(c, line, len, &object);
	for (k = 0; k < cmd->nr_assigns; k++) {
		if (cmd->assigns[k].flags & SC_SW_CTRL)
			pol_note(j, R_SHELL_UNUSUAL, object.data);
		judge_assign(j, c, cmd->assigns[k].s);
	}
	judge_redirs(j, c, cmd, object.data);
	if (cmd->flags & SC_SWC_HEREDOC_EXPAND)
		pol_note(j, R_OPAQUE, object.data);
	/* what a shell reads on stdin: heredocs and here-strings */
	stdin_text = cmd->heredoc;
	for (k = 0; k < cmd->nr_redirs; k++) {
		if (cmd->redirs[k].op == SC_RD_HERESTR)
			stdin_text = cmd->redirs[k].target.s;
		if (cmd->redirs[k].op == SC_RD_IN ||
		    cmd->redirs[k].op == SC_RD_RDWR ||
		    cmd->redirs[k].op == SC_RD_HEREDOC ||
		    cmd->redirs[k].op == SC_RD_HERESTR ||
		    cmd->redirs[k].op == SC_RD_DUP_IN)
			c->feed = NULL;   /* stdin is not the pipe */
	}
	pol_judge_argv(j, cmd->words, cmd->nr_words, c, stdin_text);
	c->feed = NULL;
	if (!cmd->nr_words && (cmd->nr_assigns || cmd->nr_redirs))
		pol_note(j, R_BUILTIN, object.data);
	sc_buf_release(&object);
}

void pol_judge_line(struct judge *j, const char *line, size_t len,
		    struct ctx *c)
{
	struct sc_sw_line l;
	struct sc_buf object = SC_BUF_INIT;
	size_t k;
	int ret;

	pol_line_object(c, line, len, &object);
	if (c->depth > MAX_DEPTH) {
		pol_note(j, R_SHELL_DEPTH, object.data);
		sc_buf_release(&object);
		return;
	}
	sc_sw_line_init(&l);
	ret = sc_sw_parse(line, len, &l);
	if (l.flags & (SC_SWL_OPAQUE | SC_SWL_SUBST))
		pol_note(j, R_OPAQUE, object.data);
	for (k = 0; k < l.nr_cmds; k++) {
		c->feed = k && (l.cmds[k - 1].flags & SC_SWC_PIPE) ?
			  &l.cmds[k - 1] : NULL;
		judge_cmd(j, c, &l.cmds[k], line, len);
	}
	for (k = 0; k < l.nr_subs; k++)
		judge_nested(j, l.subs[k], strlen(l.subs[k]), c);
	if (ret < 0)
		pol_note(j, R_SHELL_SYNTAX, object.data);
	if (!l.nr_cmds && ret == 0)
		pol_note(j, R_BUILTIN, object.data); /* empty, or comments */
	sc_sw_line_release(&l);
	sc_buf_release(&object);
}
