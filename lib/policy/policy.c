/*
 * The rules of sc-classify(1): see policy.h for how findings combine.
 *
 * Layout: here the rule table, small string helpers, the call dispatch
 * and set-up; the path rules in policy-paths.c, git in policy-git.c, the
 * program tables (find, sed, awk, readers, copy) in policy-programs.c,
 * shells and argv dispatch in policy-shell.c; what they share in
 * policy-int.h.  Every branch that meets something it does not understand
 * notes at least an ask, and every deny is noted before any shortcut to
 * allow can be taken.
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
#include "policy-int.h"
#include "protected.h"
#include "shellwords.h"
#include "walk.h"

struct rule {
	const char *id;
	int decision;
	const char *reason;
};

static const struct rule rules[] = {
#define X(e, id, d, r) { id, d, r },
	RULES
#undef X
};

const char *const sc_policy_rules[] = {
#define X(e, id, d, r) id,
	RULES
#undef X
	NULL
};

/* ---- judging state ------------------------------------------------- */

/*
 * Among allows, the rule that names the whole command is the one to show:
 * a path read inside "cat FILE" is allowed because the command is.
 */
static int allow_rank(enum rule_id r)
{
	switch (r) {
	case R_BUILTIN: return 1;
	case R_READ_COMMAND: case R_GIT_READ: return 2;
	case R_FILE_COMMAND: return 3;
	case R_CHECK: case R_COMMAND: case R_NET_COMMAND: case R_MCP_ALLOW:
	case R_NET_HOSTS:
		return 4;
	case R_GRANT: return 5;
	default: return 0;
	}
}

/* Remember a part that asks, once per rule and object. */
static void add_part(struct sc_verdict *v, const char *rule,
		     const char *object)
{
	size_t k;

	for (k = 0; k < v->nr_parts; k++)
		if (v->parts[k].rule == rule && !strcmp(v->parts[k].object, object))
			return;
	SC_ALLOC_GROW(v->parts, v->nr_parts + 1, v->alloc_parts);
	v->parts[v->nr_parts].rule = rule;
	v->parts[v->nr_parts++].object = sc_xstrdup(object);
}

static void clear_parts(struct sc_verdict *v)
{
	size_t k;

	for (k = 0; k < v->nr_parts; k++)
		free(v->parts[k].object);
	v->nr_parts = 0;
}

/* Add the hosts a grant of OBJECT names to V's, each once. */
static void grant_hosts(const struct sc_policy *p, struct sc_verdict *v,
			const char *object)
{
	size_t i, k, m;

	for (i = 0; i < p->nr_host_grants; i++) {
		const struct sc_host_grant *g = &p->host_grants[i];

		if (strcmp(g->object, object))
			continue;
		for (k = 0; k < g->nr; k++) {
			for (m = 0; m < v->nr_hosts; m++)
				if (!strcmp(v->hosts[m], g->hosts[k]))
					break;
			if (m < v->nr_hosts)
				continue;
			SC_ALLOC_GROW(v->hosts, v->nr_hosts + 1, v->alloc_hosts);
			v->hosts[v->nr_hosts++] = g->hosts[k];
		}
	}
}

/*
 * Record one finding.  A grant lifts an ask whose object it names (and
 * brings the hosts it names); the strictest finding wins, the first among
 * equals.
 */
void pol_note(struct judge *j, enum rule_id r, const char *object)
{
	int d = rules[r].decision;

	if (d == SC_ASK && sc_strlist_has(&j->p->grants, object)) {
		r = R_GRANT;
		d = SC_ALLOW;
		grant_hosts(j->p, j->v, object);
	}
	if (d == SC_ASK)
		add_part(j->v, rules[r].id, object);
	if (j->have && (d < j->decision ||
			(d == j->decision &&
			 (d != SC_ALLOW || allow_rank(r) <= allow_rank(j->rule)))))
		return;
	j->have = 1;
	j->decision = d;
	j->rule = r;
	sc_buf_reset(&j->object);
	sc_buf_adds(&j->object, object);
}

int pol_prefix_in(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strncmp(s, *list, strlen(*list)))
			return 1;
	return 0;
}

/* ---- calls --------------------------------------------------------- */

/* The value of a field that must be there once, hold no NUL, be set. */
static const char *single(const struct sc_record *call, const char *name,
			  int *bad)
{
	const struct sc_field *f = NULL;
	size_t i;

	for (i = 0; i < call->nr; i++)
		if (!strcmp(call->fields[i].name, name)) {
			if (f)
				*bad = 1;
			f = &call->fields[i];
		}
	if (!f)
		return NULL;
	if (memchr(f->value, '\0', f->value_len))
		*bad = 1;
	return f->value;
}

static int source_may_mutate(const struct judge *j, const char *source)
{
	/* executor: an external agent the configuration names, whose
	 * requests sc-acp reports; the model never sets a source itself. */
	static const char *const ok[] = { "model", "speccoder", "verifier",
		"worktree", "executor", NULL };

	if (!source || sc_str_in_list(source, ok))
		return 1;
	return !strncmp(source, "mcp:", 4) &&
	       sc_config_has_server(&j->p->cfg, source + 4);
}

static void word_flags(struct sc_sw_word *w)
{
	size_t i;

	w->flags = 0;
	for (i = 0; i < w->len; i++) {
		unsigned char ch = (unsigned char)w->s[i];

		if ((ch < 0x20 && ch != '\t' && ch != '\n') || ch == 0x7f)
			w->flags |= SC_SW_CTRL;
		else if (ch >= 0x80)
			w->flags |= SC_SW_NONASCII;
	}
}

static void judge_run(struct judge *j, const struct sc_record *call)
{
	struct ctx c;
	struct sc_sw_word *w = NULL;
	size_t i, n = 0, alloc = 0;
	int bad = 0, st;
	const char *shell = single(call, "shell", &bad);
	const char *cwd = single(call, "cwd", &bad);
	struct sc_path res;

	memset(&c, 0, sizeof(c));
	sc_buf_adds(&c.cwd, "");
	for (i = 0; i < call->nr; i++) {
		const struct sc_field *f = &call->fields[i];

		if (strcmp(f->name, "argv"))
			continue;
		SC_ALLOC_GROW(w, n + 1, alloc);
		w[n].s = (char *)f->value;
		w[n].len = f->value_len;
		word_flags(&w[n]);
		if (memchr(f->value, '\0', f->value_len))
			bad = 1;
		n++;
	}
	if (bad || (shell && n) || (!shell && !n) || (cwd && !*cwd)) {
		pol_note(j, R_MALFORMED, "");
		goto out;
	}
	if (cwd) {
		sc_path_init(&res);
		st = sc_path_resolve(&j->p->root, "", cwd, strlen(cwd), 0, &res);
		if (st != SC_PATH_OK)
			pol_note(j, pol_status_rule(st),
				 pol_show_rel(res.lexical ? res.lexical : ""));
		else if (!res.exists || !S_ISDIR(res.st.st_mode))
			pol_note(j, R_MALFORMED, pol_show_rel(res.rel));
		else {
			pol_judge_path(j, "", cwd, strlen(cwd), 0);
			sc_buf_adds(&c.cwd, res.rel);
		}
		sc_path_release(&res);
		if (j->have && j->decision == SC_DENY)
			goto out;
	}
	if (shell)
		pol_judge_line(j, shell, strlen(shell), &c);
	else
		pol_judge_argv(j, w, n, &c, NULL);
out:
	free(w);
	sc_buf_release(&c.cwd);
}

static void judge_mcp(struct judge *j, const struct sc_record *call)
{
	const struct sc_config *cfg = &j->p->cfg;
	int bad = 0, named = 0, pinned_ok = 0;
	const char *server = single(call, "server", &bad);
	const char *name = single(call, "name", &bad);
	const char *digest = single(call, "digest", &bad);
	struct sc_buf o = SC_BUF_INIT;
	size_t i;

	if (bad || !server || !name || !*server || !*name) {
		pol_note(j, R_MALFORMED, "");
		return;
	}
	sc_buf_adds(&o, "server=");
	sc_sw_quote(&o, server, strlen(server));
	sc_buf_adds(&o, " tool=");
	sc_sw_quote(&o, name, strlen(name));
	sc_buf_adds(&o, " digest=");
	sc_sw_quote(&o, digest ? digest : "", digest ? strlen(digest) : 0);
	for (i = 0; i < cfg->nr_mcp; i++) {
		const struct sc_mcp_allow *m = &cfg->mcp[i];

		if (strcmp(m->server, server) || strcmp(m->tool, name))
			continue;
		named = 1;
		if (!m->digest || (digest && !strcmp(m->digest, digest)))
			pinned_ok = 1;
	}
	if (pinned_ok)
		pol_note(j, R_MCP_ALLOW, o.data);
	else
		pol_note(j, named ? R_MCP_DIGEST : R_MCP, o.data);
	sc_buf_release(&o);
}

static const char *tool_class(const char *tool)
{
	if (!strcmp(tool, "read") || !strcmp(tool, "list"))
		return "read";
	if (!strcmp(tool, "write") || !strcmp(tool, "delete"))
		return "write";
	if (!strcmp(tool, "run"))
		return "command";
	if (!strcmp(tool, "network"))
		return "network";
	if (!strcmp(tool, "mcp"))
		return "mcp";
	return NULL;
}

static void judge_tool(struct judge *j, const struct sc_record *call,
		       const char *tool)
{
	int bad = 0;
	const char *path, *url;

	if (!strcmp(tool, "run")) {
		judge_run(j, call);
	} else if (!strcmp(tool, "mcp")) {
		judge_mcp(j, call);
	} else if (!strcmp(tool, "network")) {
		url = single(call, "url", &bad);
		if (bad || !url || !*url)
			pol_note(j, R_MALFORMED, "");
		else
			pol_note(j, R_NETWORK, url);
	} else {
		const struct sc_field *f = sc_record_get(call, "path");

		path = single(call, "path", &bad);
		if (bad || !path)
			pol_note(j, R_MALFORMED, "");
		else
			pol_judge_path(j, "", path, f->value_len,
				       !strcmp(tool, "write") || !strcmp(tool, "delete"));
	}
}

void sc_policy_judge(const struct sc_policy *p, const struct sc_record *call,
		     struct sc_verdict *v)
{
	struct judge j;
	int bad = 0;
	const char *tool, *source, *class;

	memset(&j, 0, sizeof(j));
	j.p = p;
	j.v = v;
	clear_parts(v);
	v->nr_hosts = 0;
	tool = single(call, "tool", &bad);
	source = single(call, "source", &bad);
	class = tool ? tool_class(tool) : NULL;
	if (bad || !class) {
		pol_note(&j, R_MALFORMED, "");
	} else {
		if (strcmp(class, "read") && !source_may_mutate(&j, source))
			pol_note(&j, R_SOURCE, source);
		judge_tool(&j, call, tool);
	}
	if (!j.have)
		pol_note(&j, R_MALFORMED, "");
	if (j.decision != SC_ASK)
		clear_parts(v);
	v->decision = j.decision;
	v->rule = rules[j.rule].id;
	v->reason = rules[j.rule].reason;
	v->class = class ? class : "command";
	v->no_prompt = 0;
	v->net = j.rule == R_NET_HOSTS ? j.net : NULL;
	/* A call the grants allowed runs with the hosts they named; any
	 * other gets none of them (a line with an ungranted part asks). */
	if (j.decision != SC_ALLOW || j.rule != R_GRANT)
		v->nr_hosts = 0;
	if (v->decision == SC_ASK && p->no_prompt) {
		v->decision = SC_DENY;
		v->no_prompt = 1;
	}
	sc_buf_reset(&v->object);
	sc_buf_add(&v->object, j.object.data ? j.object.data : "", j.object.len);
	sc_buf_release(&j.object);
}

/* ---- set-up -------------------------------------------------------- */

int sc_policy_parse_mode(const char *text, enum sc_mode *mode)
{
	static const char *const names[] = { "worktree", "in-place", "spec",
		"explore", NULL };
	int i;

	for (i = 0; names[i]; i++)
		if (!strcmp(text, names[i])) {
			*mode = (enum sc_mode)i;
			return 0;
		}
	return -1;
}

int sc_policy_init(struct sc_policy *p, const char *root, enum sc_mode mode,
		   int no_prompt, struct sc_config *cfg)
{
	const char *path = getenv("PATH");

	memset(p, 0, sizeof(*p));
	if (sc_root_init(&p->root, root) < 0)
		return -1;
	p->mode = mode;
	p->no_prompt = no_prompt;
	if (cfg) {
		p->cfg = *cfg;
		sc_config_init(cfg);
	}
	p->path_env = sc_xstrdup(path ? path : "/usr/local/bin:/usr/bin:/bin");
	p->exes = sc_xcalloc(1, sizeof(*p->exes));
	return 0;
}

void sc_policy_release(struct sc_policy *p)
{
	sc_root_release(&p->root);
	sc_config_release(&p->cfg);
	sc_strlist_release(&p->grants);
	for (size_t i = 0; i < p->nr_host_grants; i++) {
		for (size_t k = 0; k < p->host_grants[i].nr; k++)
			free(p->host_grants[i].hosts[k]);
		free(p->host_grants[i].hosts);
		free(p->host_grants[i].object);
	}
	free(p->host_grants);
	sc_strlist_release(&p->ignored);
	sc_strlist_release(&p->included);
	sc_strlist_release(&p->included_exact);
	sc_strlist_release(&p->frozen);
	free(p->path_env);
	free(p->feature);
	if (p->exes) {
		size_t i;

		for (i = 0; i < p->exes->nr; i++) {
			free(p->exes->name[i]);
			free(p->exes->path[i]);
		}
		free(p->exes);
	}
	memset(p, 0, sizeof(*p));
}

/*
 * The host= fields of grant REC of OBJECT, kept with it: 0 (none is 0
 * too), or -1 when one is no host --allow-host takes, and the grant is
 * dropped whole: fail closed, never a wider network.
 */
static int add_host_grant(struct sc_policy *p, const struct sc_record *rec,
			  const char *object)
{
	struct sc_host_grant g = { NULL, NULL, 0 };
	size_t k, alloc = 0;
	const char *why;

	for (k = 0; k < rec->nr; k++) {
		const struct sc_field *f = &rec->fields[k];

		if (strcmp(f->name, "host"))
			continue;
		if (memchr(f->value, '\0', f->value_len) ||
		    sc_host_entry_check(f->value, &why) < 0) {
			while (g.nr)
				free(g.hosts[--g.nr]);
			free(g.hosts);
			return -1;
		}
		SC_ALLOC_GROW(g.hosts, g.nr + 1, alloc);
		g.hosts[g.nr++] = sc_xstrdup(f->value);
	}
	if (!g.nr)
		return 0;
	g.object = sc_xstrdup(object);
	SC_ALLOC_GROW(p->host_grants, p->nr_host_grants + 1,
		      p->alloc_host_grants);
	p->host_grants[p->nr_host_grants++] = g;
	return 0;
}

int sc_policy_load_grants(struct sc_policy *p, int fd)
{
	struct sc_input in;
	struct sc_reader rd;
	struct sc_record rec;
	int st;

	sc_input_init_fd(&in, fd);
	sc_reader_init(&rd, &in);
	sc_record_init(&rec);
	while ((st = sc_reader_next(&rd, &rec)) == SC_READ_RECORD) {
		const struct sc_field *o = sc_record_get(&rec, "object");
		const char *type = sc_record_type(&rec);

		if (!type || strcmp(type, "grant") || !o)
			continue;
		if (memchr(o->value, '\0', o->value_len))
			continue;   /* no verdict prints such an object */
		if (add_host_grant(p, &rec, o->value) < 0)
			continue;   /* a host no answer can name: no grant */
		sc_strlist_addn(&p->grants, o->value, o->value_len);
	}
	if (st < 0)
		sc_reader_report(&rd, st);
	sc_record_release(&rec);
	sc_strlist_sort(&p->grants);
	return st < 0 ? st : 0;
}

void sc_policy_load_paths(struct sc_policy *p, struct sc_strlist *which,
			  const char *data, size_t len)
{
	struct sc_buf norm = SC_BUF_INIT, f = SC_BUF_INIT;
	char sep = memchr(data, '\0', len) ? '\0' : '\n';
	size_t i = 0;

	while (i < len) {
		const char *e = memchr(data + i, sep, len - i);
		size_t n = e ? (size_t)(e - data - i) : len - i;

		if (n && sc_path_normalize(data + i, n, &norm) == 0 && norm.len) {
			sc_path_fold_rel(norm.data, &f);
			sc_strlist_addn(which, f.data, f.len);
			if (which == &p->included)
				sc_strlist_addn(&p->included_exact, norm.data,
						norm.len);
		}
		i += n + 1;
	}
	sc_strlist_sort(which);
	sc_strlist_sort(&p->included_exact);
	sc_buf_release(&norm);
	sc_buf_release(&f);
}

void sc_verdict_init(struct sc_verdict *v)
{
	memset(v, 0, sizeof(*v));
}

void sc_verdict_release(struct sc_verdict *v)
{
	clear_parts(v);
	free(v->parts);
	free(v->hosts);
	sc_buf_release(&v->object);
	memset(v, 0, sizeof(*v));
}

void sc_verdict_record(const struct sc_verdict *v, const char *id,
		       struct sc_record *out)
{
	static const char *const names[] = { "allow", "ask", "deny" };
	struct sc_buf reason = SC_BUF_INIT;
	size_t k;

	sc_record_reset(out);
	sc_record_adds(out, "type", "verdict");
	if (id)
		sc_record_adds(out, "id", id);
	sc_record_adds(out, "decision", names[v->decision]);
	sc_record_adds(out, "rule", v->rule);
	if (v->no_prompt)
		sc_buf_adds(&reason, "No person can be asked, so this is "
			    "denied: ");
	sc_buf_adds(&reason, v->reason);
	sc_record_adds(out, "reason", reason.data);
	sc_record_adds(out, "class", v->class);
	sc_record_add(out, "object", v->object.data ? v->object.data : "",
		      v->object.len);
	for (size_t i = 0; v->net && i < v->net->hosts.nr; i++)
		sc_record_adds(out, "host", v->net->hosts.v[i]);
	for (size_t i = 0; i < v->nr_hosts; i++)
		sc_record_adds(out, "host", v->hosts[i]);
	for (k = 0; k < v->nr_parts; k++) {
		sc_record_adds(out, "part-rule", v->parts[k].rule);
		sc_record_adds(out, "part-object", v->parts[k].object);
	}
	sc_buf_release(&reason);
}

void sc_policy_set_feature(struct sc_policy *p, const char *name)
{
	struct sc_buf folded = SC_BUF_INIT;

	sc_path_fold(name, strlen(name), &folded);
	free(p->feature);
	p->feature = sc_buf_detach(&folded, NULL);
}
