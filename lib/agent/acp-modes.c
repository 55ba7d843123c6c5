/*
 * The agent's mode for sc-acp(1): an ask-first mode chosen when the agent
 * offers one, every change of mode reported, and a change of the agent's
 * private settings reported as a mode that decides alone.
 */
#include <stdlib.h>
#include <string.h>

#include "acp-int.h"
#include "agenthome.h"
#include "alloc.h"
#include "strlist.h"

/* The shortest time between two looks at the settings during a turn. */
#define SETTINGS_MS 250

static void fold_mode(const char *id, char *out, size_t size)
{
	size_t n = 0;

	for (; *id && n + 1 < size; id++) {
		if (*id == '-' || *id == '_' || *id == ' ')
			continue;
		out[n++] = (char)(*id >= 'A' && *id <= 'Z' ? *id + 32 : *id);
	}
	out[n] = '\0';
}

/*
 * Modes that ask before edits and commands, in the order sc-acp prefers
 * them: Claude Code and Gemini CLI "default", Codex "read-only", and
 * common names of the same idea.  "plan" asks too but cannot do the work.
 */
static const char *const ask_modes[] = {
	"default", "ask", "readonly", "untrusted", "onrequest", "manual",
	"plan", NULL,
};

int sc_acp_mode_asks(const char *id)
{
	char f[64];

	if (!id || strlen(id) >= sizeof(f))
		return 0;
	fold_mode(id, f, sizeof(f));
	return sc_str_in_list(f, ask_modes);
}

static int emit_mode(struct acp *a, const char *reason)
{
	struct sc_record r;
	int ret, asks = a->mode && sc_acp_mode_asks(a->mode);

	if (!strcmp(reason, "settings-changed"))
		asks = 0;
	sc_record_init(&r);
	sc_record_adds(&r, "type", "mode");
	sc_record_adds(&r, "id", a->mode ? a->mode : "");
	sc_record_adds(&r, "decides-alone", asks ? "0" : "1");
	sc_record_adds(&r, "reason", reason);
	ret = sc_acp_emit(a, &r);
	sc_record_release(&r);
	return ret;
}

static void set_mode_id(struct acp *a, const char *id)
{
	free(a->mode);
	a->mode = id ? sc_xstrdup(id) : NULL;
}

static int is_plan(const char *id)
{
	char f[64];

	fold_mode(id, f, sizeof(f));
	return !strcmp(f, "plan");
}

/* The first ask-first mode AVAILABLE offers (preferring ask_modes' order). */
static const char *pick_ask_mode(json_t *available)
{
	size_t i, k;
	char f[64];
	json_t *m;

	for (k = 0; ask_modes[k]; k++) {
		if (!strcmp(ask_modes[k], "plan"))
			break;      /* a plan mode cannot do the task */
		json_array_foreach(available, i, m) {
			const char *id = json_string_value(json_object_get(m, "id"));

			if (!id || strlen(id) >= sizeof(f))
				continue;
			fold_mode(id, f, sizeof(f));
			if (!strcmp(f, ask_modes[k]))
				return id;
		}
	}
	return NULL;
}

/* The values the mode option among OPTIONS offers, as [{"id": VALUE}]. */
static json_t *config_mode_values(const struct acp *a, json_t *options)
{
	json_t *out = json_array(), *o, *v, *g;
	size_t i, k, j;

	json_array_foreach(options, i, o) {
		if (!a->mode_option || strcmp(str_or_empty(o, "id"), a->mode_option))
			continue;
		json_array_foreach(json_object_get(o, "options"), k, v) {
			/* A select lists values, or groups of them. */
			if (sc_json_str(v, "value"))
				json_array_append_new(out, json_pack("{s:s}", "id",
					sc_json_str(v, "value")));
			json_array_foreach(json_object_get(v, "options"), j, g)
				if (sc_json_str(g, "value"))
					json_array_append_new(out, json_pack(
						"{s:s}", "id", sc_json_str(g, "value")));
		}
	}
	return out;
}

/*
 * Put the agent in an ask-first mode when it has modes, reported as ACP's
 * session modes or as a session configuration option of category "mode";
 * report the mode.
 */
int sc_acp_choose_mode(struct acp *a, json_t *modes, json_t *options)
{
	const char *current = json_string_value(json_object_get(modes,
								"currentModeId"));
	json_t *available = json_object_get(modes, "availableModes");
	const char *cfg = sc_acp_config_mode(a, options);
	const char *want;
	struct sc_rpc_msg m;
	json_t *params, *values = NULL;
	int by_option = 0;

	if (!current || !json_is_object(modes)) {
		current = cfg;
		by_option = cfg != NULL;
	}
	if (!current)
		return emit_mode(a, "no-modes");
	set_mode_id(a, current);
	if (sc_acp_mode_asks(current) && !is_plan(current))
		return emit_mode(a, "ask-first");
	if (by_option)
		available = values = config_mode_values(a, options);
	want = json_is_array(available) ? pick_ask_mode(available) : NULL;
	if (!want) {
		json_decref(values);
		return emit_mode(a, sc_acp_mode_asks(current) ? "ask-first"
							      : "no-ask-mode");
	}
	want = sc_xstrdup(want);
	json_decref(values);
	params = by_option ?
		json_pack("{s:s, s:s, s:s}", "sessionId", a->session, "configId",
			  a->mode_option, "value", want) :
		json_pack("{s:s, s:s}", "sessionId", a->session, "modeId", want);
	if (sc_acp_call_agent(a, by_option ? "session/set_config_option" :
			      "session/set_mode", params, &m) < 0) {
		free((char *)want);
		return ENDED;
	}
	sc_rpc_msg_release(&m);
	set_mode_id(a, want);
	free((char *)want);
	return emit_mode(a, "ask-first");
}

/*
 * The mode among CONFIGOPTIONS (ACP's session configuration options): the
 * current value of the select option of category "mode" (or id "mode").
 * Its id goes into a->mode_option.  NULL when there is none.
 */
const char *sc_acp_config_mode(struct acp *a, json_t *options)
{
	size_t i;
	json_t *o;

	json_array_foreach(options, i, o) {
		const char *id = sc_json_str(o, "id");
		const char *cat = sc_json_str(o, "category");

		if (!id || !json_is_string(json_object_get(o, "currentValue")))
			continue;
		if ((cat && !strcmp(cat, "mode")) || !strcmp(id, "mode")) {
			free(a->mode_option);
			a->mode_option = sc_xstrdup(id);
			return sc_json_str(o, "currentValue");
		}
	}
	return NULL;
}

/* The agent reported its mode: a change is said, whichever way it came. */
int sc_acp_mode_reported(struct acp *a, const char *id)
{
	if (!id || (a->mode && !strcmp(a->mode, id)))
		return 0;
	set_mode_id(a, id);
	return emit_mode(a, "mode-changed");
}

/*
 * Report a change of the private settings since the last look.  A walk
 * costs a directory scan, and agents send a message per word: during a
 * turn it runs at most every SETTINGS_MS, and always (FORCE) before a call
 * is written and when a turn ends, so a change is reported before the
 * caller decides anything that follows it.
 */
int sc_acp_check_settings(struct acp *a, int force)
{
	struct sc_buf now = SC_BUF_INIT;
	long long t;
	int ret = 0;

	if (!a->home)
		return 0;
	t = sc_rpc_now_ms();
	if (!force && t - a->settings_at < SETTINGS_MS)
		return 0;
	a->settings_at = t;
	sc_agenthome_snapshot(a->home->dir, &now);
	if (now.len != a->settings.len ||
	    (now.len && memcmp(now.data, a->settings.data, now.len))) {
		ret = emit_mode(a, "settings-changed");
		sc_buf_release(&a->settings);
		a->settings = now;
		return ret;
	}
	sc_buf_release(&now);
	return 0;
}
