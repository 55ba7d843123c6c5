/*
 * Deciding one call of sc-agent(1): the classifier's verdict, a person
 * asked when it says ask (grants for the run, approvals an external agent
 * got in a permission request), and the call then carried out by
 * agent-exec.c or agent-servers.c.  Separate from executing so what may
 * run is read in one place.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent-int.h"
#include "alloc.h"
#include "diag.h"
#include "io.h"
#include "model.h"
#include "strlist.h"

/* ---- deciding one call --------------------------------------------- */

static const char *describe(const struct sc_record *call, struct sc_buf *b)
{
	const char *tool = sc_record_str(call, "tool");

	sc_buf_reset(b);
	sc_buf_adds(b, tool ? tool : "?");
	for (size_t i = 0; i < call->nr; i++) {
		const char *n = call->fields[i].name;
		if (!strcmp(n, "argv") || !strcmp(n, "path") ||
		    !strcmp(n, "shell") || !strcmp(n, "url") ||
		    !strcmp(n, "arguments")) {
			sc_buf_addch(b, ' ');
			sc_buf_add(b, call->fields[i].value,
				   strnlen(call->fields[i].value,
					   call->fields[i].value_len));
		}
		if (b->len > 200) {
			sc_buf_setlen(b, 200);
			sc_buf_adds(b, "...");
			break;
		}
	}
	return b->data;
}

/*
 * Grant the NR objects of PARTS for the rest of the run, all at once,
 * each with the HOSTS the answer named (the classifier gives them to
 * every later call it allows by these grants).
 */
static int add_grant(struct loop *l, const struct sc_ask_part *parts,
		     size_t nr, const struct sc_strlist *hosts)
{
	struct sc_record g;
	struct sc_buf b = SC_BUF_INIT;
	int fd, ret = 0;
	size_t k;

	if (!l->o->grants)
		return 0;
	fd = open(l->o->grants, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC |
		  O_NOFOLLOW, 0600);
	if (fd < 0)
		return sc_error_errno("GRANTS-FAILED", "cannot add the grant");
	sc_record_init(&g);
	for (k = 0; k < nr; k++) {
		sc_record_reset(&g);
		sc_record_adds(&g, "type", "grant");
		sc_record_adds(&g, "object", parts[k].object);
		for (size_t i = 0; hosts && i < hosts->nr; i++)
			sc_record_adds(&g, "host", hosts->v[i]);
		sc_record_encode(&g, &b);
	}
	if (sc_write_all(fd, b.data, b.len) < 0 || fsync(fd) < 0)
		ret = sc_error_errno("GRANTS-FAILED", "cannot add the grant");
	close(fd);
	sc_record_release(&g);
	sc_buf_release(&b);
	if (ret < 0)
		return -1;
	/* The classifier reads grants when it starts: start it again. */
	sc_coproc_end(l->cls);
	l->cls = sc_coproc_start(l->prog->classify);
	if (!l->cls)
		return sc_error_errno("CLASSIFY-FAILED",
				      "cannot restart the classifier");
	return 0;
}

static void event_approval(struct loop *l, const char *id, const char *object,
			   const struct sc_ask_part *parts, size_t nr,
			   enum sc_answer ans, const char *how,
			   const struct sc_strlist *hosts)
{
	struct sc_record r;
	size_t k;

	sc_record_init(&r);
	sc_record_adds(&r, "type", "approval");
	sc_record_adds(&r, "id", id ? id : "");
	sc_record_adds(&r, "object", object ? object : "");
	for (k = 0; nr > 1 && k < nr; k++)   /* what the answer covered */
		sc_record_adds(&r, "part-object", parts[k].object);
	sc_record_adds(&r, "answer", sc_answer_name(ans));
	sc_record_adds(&r, "by", how);
	/* The network the answer gave, if it named hosts. */
	for (k = 0; hosts && (ans == SC_ANSWER_ONCE || ans == SC_ANSWER_RUN) &&
	     k < hosts->nr; k++)
		sc_record_adds(&r, "host", hosts->v[k]);
	sc_agent_emit(l, &r);
	sc_record_release(&r);
}

/*
 * The parts of verdict V that ask (part-rule/part-object pairs), or its
 * rule and object alone from a classifier that lists none.  *PARTS points
 * into V; free the array only.
 */
static size_t verdict_parts(const struct sc_record *v,
			    struct sc_ask_part **parts)
{
	size_t k, nr = 0, alloc = 0;
	const char *rule = NULL;

	*parts = NULL;
	for (k = 0; k < v->nr; k++) {
		const struct sc_field *f = &v->fields[k];

		if (!strcmp(f->name, "part-rule")) {
			rule = f->value;
		} else if (!strcmp(f->name, "part-object") && rule) {
			SC_ALLOC_GROW(*parts, nr + 1, alloc);
			(*parts)[nr].object = f->value;
			(*parts)[nr++].rule = rule;
			rule = NULL;
		}
	}
	if (!nr) {
		const char *o = sc_record_str(v, "object");
		const char *r = sc_record_str(v, "rule");

		*parts = sc_xcalloc(1, sizeof(**parts));
		(*parts)[0].object = o ? o : "";
		(*parts)[0].rule = r ? r : "";
		nr = 1;
	}
	return nr;
}

/*
 * The decision after a person was asked when the policy said ask: allow
 * (1), deny (0), or stop (-1, STOPPED set).  HOSTS (NULL for a call the
 * sandbox cannot give hosts) receives the hosts a person's answer named:
 * the call runs with the network to those only (and, for the run, every
 * later call the grant covers).
 */
static int ask_person(struct loop *l, const struct sc_record *call,
		      const struct sc_record *v, struct sc_strlist *hosts,
		      int *ret)
{
	const char *id = sc_record_str(call, "id");
	const char *object = sc_record_str(v, "object");
	const char *how = "budget";
	struct sc_buf what = SC_BUF_INIT;
	enum sc_answer ans = SC_ANSWER_NO;
	struct sc_ask_part *parts;
	size_t nr = verdict_parts(v, &parts);

	l->stats->asked++;
	if (l->o->no_prompt)
		how = "no-prompt";
	else if (l->o->before.asked + l->stats->asked <= l->o->budget)
		ans = sc_ask(l->o->asker, describe(call, &what), parts, nr,
			     sc_record_str(v, "reason"), hosts, &how);
	sc_buf_release(&what);
	event_approval(l, id, object, parts, nr, ans, how, hosts);
	switch (ans) {
	case SC_ANSWER_STOP:
		*ret = sc_agent_stop(l, "STOPPED", "the person stopped the attempt");
		return -1;
	case SC_ANSWER_RUN:
		if (add_grant(l, parts, nr, hosts) < 0) {
			free(parts);
			*ret = FAILED;
			return -1;
		}
		free(parts);
		return 1;
	case SC_ANSWER_ONCE:
		free(parts);
		return 1;
	default:
		free(parts);
		return 0;
	}
}

int sc_agent_judge(struct loop *l, const struct sc_record *call,
		   struct sc_record *v)
{
	/* A verdict (0), or the classifier's stop record (1). */
	static const char *const answers[] = { "verdict", "stop", NULL };
	int st = sc_coproc_ask(l->cls, call, answers, NULL, v);

	if (st < 0) {
		sc_error("CLASSIFY-FAILED", "the classifier gave no verdict");
		return FAILED;
	}
	if (st == 1)
		return sc_agent_stop(l, sc_record_str(v, "code") ?
				     sc_record_str(v, "code") : "CLASSIFY-STOPPED",
				     "the policy ended the attempt");
	return sc_agent_emit(l, v) < 0 ? FAILED : GO_ON;
}

/*
 * A request of an external agent that sc-acp cannot map to one object
 * (tool=other): the policy cannot judge it, so a person decides, shown
 * the agent's whole request; --no-prompt refuses it.
 */
static int unmapped(struct loop *l, const struct sc_record *call,
		    struct sc_record *v)
{
	const struct sc_field *req = sc_record_get(call, "request");
	const char *title = sc_record_str(call, "title");

	sc_record_adds(v, "type", "verdict");
	sc_record_adds(v, "id", sc_record_str(call, "id") ?
		       sc_record_str(call, "id") : "");
	sc_record_adds(v, "decision", "ask");
	sc_record_adds(v, "rule", "ask.executor-unmapped");
	sc_record_adds(v, "reason", "The agent's own tool cannot be judged as "
		       "one object: a person decides on the whole request.");
	sc_record_adds(v, "class", "other");
	if (req)
		sc_record_add(v, "object", req->value, req->value_len);
	else
		sc_record_adds(v, "object", title ? title : "");
	return sc_agent_emit(l, v) < 0 ? FAILED : GO_ON;
}

/* Remember OBJECT, approved by a person in a permission request. */
static void remember_approval(struct loop *l, const char *object)
{
	size_t i = l->next_approved++ % (sizeof(l->approved) /
					 sizeof(l->approved[0]));

	free(l->approved[i]);
	l->approved[i] = sc_xstrdup(object);
}

/* 1 when verdict V has at most one part that asks. */
static int one_part(const struct sc_record *v)
{
	struct sc_ask_part *parts;
	size_t nr = verdict_parts(v, &parts);

	free(parts);
	return nr <= 1;
}

/* 1 when OBJECT was approved in a permission request, now used up. */
static int take_approval(struct loop *l, const char *object)
{
	for (size_t i = 0; i < sizeof(l->approved) / sizeof(l->approved[0]); i++)
		if (l->approved[i] && !strcmp(l->approved[i], object)) {
			free(l->approved[i]);
			l->approved[i] = NULL;
			return 1;
		}
	return 0;
}

int sc_agent_handle_call(struct loop *l, const struct sc_record *call)
{
	const char *id = sc_record_str(call, "id");
	const char *tool = sc_record_str(call, "tool");
	const char *outside = sc_record_str(call, "outside");
	const char *permission = sc_record_str(call, "permission");
	struct result res = { SC_BUF_INIT, "speccoder", "denied", -1, 0, 0 };
	struct sc_record v;
	struct sc_buf what = SC_BUF_INIT;
	struct sc_strlist hosts = { NULL, 0, 0 };
	const char *decision;
	int ret, allow = 0, asked = 0;

	sc_record_init(&v);
	if (l->acp && tool && !strcmp(tool, "other"))
		ret = unmapped(l, call, &v);
	else if (sc_call_is_mcp(tool))
		ret = sc_agent_servers_judge(l, call, &v);
	else
		ret = sc_agent_judge(l, call, &v);
	if (ret != GO_ON)
		goto out;
	decision = sc_record_str(&v, "decision");
	if (!decision)
		decision = "deny";
	/* A command an external agent runs itself is outside the sandbox:
	 * a person decides it, whatever the policy would allow. */
	if (!strcmp(decision, "allow") && outside && !strcmp(outside, "1"))
		decision = "ask";
	sc_agent_progress(l, "  %-5s %s  [%s]", decision, describe(call, &what),
			  sc_record_str(&v, "rule") ? sc_record_str(&v, "rule") : "");
	if (!strcmp(decision, "allow"))
		allow = 1;
	else if (!strcmp(decision, "ask") && l->acp && !permission &&
		 sc_record_str(&v, "object") && one_part(&v) &&
		 take_approval(l, sc_record_str(&v, "object"))) {
		/* The agent does what the person approved in its request;
		 * an approval names one object, so it never covers a call
		 * with two parts that ask. */
		event_approval(l, id, sc_record_str(&v, "object"), NULL, 0,
			       SC_ANSWER_ONCE, "permission", NULL);
		allow = asked = 1;
	} else if (!strcmp(decision, "ask")) {
		/* Only a command the sandbox runs can be given hosts: not
		 * one an external agent runs itself. */
		int sandboxed = tool && !strcmp(tool, "run") && !permission &&
				!(outside && !strcmp(outside, "1"));

		allow = ask_person(l, call, &v, sandboxed ? &hosts : NULL, &ret);
		if (allow < 0)
			goto out;
		asked = 1;
		/* As if the policy had given them: run_command reads them. */
		for (size_t k = 0; allow && k < hosts.nr; k++)
			sc_record_adds(&v, "host", hosts.v[k]);
		if (allow && l->acp && permission && !strcmp(permission, "1") &&
		    sc_record_str(&v, "object") && *sc_record_str(&v, "object"))
			remember_approval(l, sc_record_str(&v, "object"));
	}
	if (!allow) {
		l->stats->denied++;
		l->denied_in_a_row++;
		sc_buf_addf(&res.text, "denied by speccoder's policy (%s): %s",
			    sc_record_str(&v, "rule") ? sc_record_str(&v, "rule") : "deny",
			    sc_record_str(&v, "reason") ? sc_record_str(&v, "reason") : "");
		ret = sc_agent_add_result(l, id, tool, &res);
		if (!ret && l->denied_in_a_row >= 3)
			ret = sc_agent_stop(l, "DENIED-THRICE",
					    "three calls in a row were denied");
		goto out;
	}
	l->stats->allowed++;
	l->denied_in_a_row = 0;
	res.outcome = "ok";
	if (l->acp && permission && !strcmp(permission, "1")) {
		/* The external agent acts with its own tools: only the answer. */
		ret = sc_agent_add_result(l, id, tool, &res);
	} else if (sc_call_is_mcp(tool)) {
		ret = sc_agent_servers_call(l, call, &res);
		if (!ret)
			ret = sc_agent_add_result(l, id, tool, &res);
		/* A server writes the root like a command can: checked alike. */
		if (!ret)
			ret = sc_agent_guard(l);
	} else if (tool && !strcmp(tool, "run")) {
		sc_agent_run_command(l, call, &v, &res);
		ret = sc_agent_add_result(l, id, tool, &res);
		if (!ret)
			ret = sc_agent_guard(l);
	} else if (tool && asked && sc_agent_call_path(call, &v) &&
		   (!strcmp(tool, "write") || !strcmp(tool, "delete"))) {
		ret = sc_agent_approved_file_change(l, tool,
						    sc_agent_call_path(call, &v),
						    call, &res);
		if (ret == GO_ON)
			ret = sc_agent_add_result(l, id, tool, &res);
	} else if (tool && sc_agent_call_path(call, &v) &&
		   (!strcmp(tool, "read") || !strcmp(tool, "list") ||
		    !strcmp(tool, "write") || !strcmp(tool, "delete"))) {
		sc_agent_file_tool(l, tool, sc_agent_call_path(call, &v), call, &res);
		ret = sc_agent_add_result(l, id, tool, &res);
	} else {
		res.outcome = "error";
		sc_buf_adds(&res.text, "this tool is not available here");
		ret = sc_agent_add_result(l, id, tool, &res);
	}
out:
	sc_buf_wipe(&res.text);
	sc_buf_release(&what);
	sc_strlist_release(&hosts);
	sc_record_release(&v);
	return ret;
}
