/*
 * sc-model(1), the tool: ask a provider for the next turn of a
 * conversation read as records, or name where its credentials would come
 * from.  The provider is lib/model/provider.c, the conversation lib/model/model.c.
 */
#include <string.h>
#include <unistd.h>

#include "diag.h"
#include "io.h"
#include "model.h"
#include "modeltool.h"
#include "opt.h"
#include "provider.h"
#include "record.h"
#include "rectable.h"

/* The exit status of sc-model(1) for a provider's failure. */
static int provider_exit(enum sc_provider_status st)
{
	switch (st) {
	case SC_PROVIDER_OK:
		return SC_EXIT_OK;
	case SC_PROVIDER_BAD_ANSWER:
		return SC_EXIT_NO;
	case SC_PROVIDER_BAD_TRANSCRIPT:
		return SC_EXIT_MALFORMED;
	case SC_PROVIDER_USAGE:
		return SC_EXIT_USAGE;
	case SC_PROVIDER_UNAVAILABLE:
		return SC_EXIT_UNAVAILABLE;
	case SC_PROVIDER_FAILED:
		break;
	}
	return SC_EXIT_INTERNAL;
}

/*
 * Prepare P, ask, then write the whole reply at once: never a partial
 * one.  BUDGET: the tokens the conversation may take (0: no bound).
 */
int sc_model_ask_run(const struct sc_tool *tool, struct sc_provider *p,
		     unsigned allowed, unsigned long long budget,
		     int force_records)
{
	struct sc_conversation c;
	struct sc_reply reply;
	struct sc_buf out = SC_BUF_INIT;
	const char *why = NULL;
	enum sc_conversation_status cst;
	int ret;

	ret = sc_provider_prepare(p, &why);
	if (ret == SC_PROVIDER_USAGE)
		sc_usage_error(tool, why);   /* nothing secret held yet to wipe */
	if (ret)
		return provider_exit(ret);
	sc_conversation_init(&c);
	sc_reply_init(&reply);
	cst = sc_conversation_read(&c, STDIN_FILENO);
	if (cst)
		ret = cst == SC_CONVERSATION_UNREADABLE ? SC_EXIT_INTERNAL :
		      SC_EXIT_MALFORMED;
	if (!ret && sc_conversation_check_labels(&c, allowed) < 0)
		ret = SC_EXIT_NO;
	if (!ret && sc_conversation_fit(&c, budget, &reply.elided) < 0)
		ret = SC_EXIT_NO;
	if (!ret)
		ret = provider_exit(sc_provider_call(p, &c, &reply));
	if (!ret && sc_reply_encode(&reply, c.labels, p->name, p->model, &out,
				    &why) < 0) {
		sc_error("PROVIDER-RESPONSE", "%s: %s", p->name, why);
		ret = SC_EXIT_NO;
	}
	if (!ret && sc_records_write_encoded(STDOUT_FILENO, out.data, out.len,
					     force_records) < 0) {
		sc_error_errno("WRITE-FAILED", "cannot write output");
		ret = SC_EXIT_INTERNAL;
	}
	sc_buf_release(&out);
	sc_reply_release(&reply);
	sc_conversation_release(&c);
	return ret;
}

/*
 * --credential-source: one record naming where the key or the AWS
 * credentials would come from, for doctor; nothing is read from standard
 * input and nothing is sent.
 */
int sc_model_credential_run(struct sc_provider *p, int force_records)
{
	struct sc_record rec;
	struct sc_buf out = SC_BUF_INIT;
	const char *why = NULL;
	char source[192];
	int ret = sc_provider_credential_source(p, source, sizeof(source), &why);

	if (ret == SC_PROVIDER_USAGE) {
		sc_error("NO-CREDENTIALS", "%s", why);
		return SC_EXIT_UNAVAILABLE;
	}
	if (ret)
		return provider_exit(ret);
	sc_record_init(&rec);
	sc_record_adds(&rec, "type", "credentials");
	sc_record_adds(&rec, "provider", p->name);
	sc_record_adds(&rec, "source", source);
	sc_record_encode(&rec, &out);
	if (sc_records_write_encoded(STDOUT_FILENO, out.data, out.len,
				     force_records) < 0) {
		sc_error_errno("WRITE-FAILED", "cannot write output");
		ret = SC_EXIT_INTERNAL;
	}
	sc_record_release(&rec);
	sc_buf_release(&out);
	return ret;
}

