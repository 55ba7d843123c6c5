/*
 * ACP requests as the calls speccoder judges (sc-acp(1), "Records
 * written").  Pure translation: nothing here reads a file or decides.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "acpcall.h"
#include "jsonrpc.h"
#include "paths.h"

void sc_acp_call_start(struct sc_record *r, unsigned long id, const char *tool)
{
	sc_record_init(r);
	sc_record_adds(r, "type", "call");
	sc_record_addu(r, "id", id);
	sc_record_adds(r, "tool", tool);
}

void sc_acp_add_path(struct sc_record *r, const char *root, const char *name,
		     const char *path)
{
	const char *rel = sc_path_below(path, root);

	if (rel)
		path = *rel ? rel : ".";
	sc_record_adds(r, name, path);
}

/* A string member of OBJ under any of NAMES. */
static const char *any_str(json_t *obj, const char *const *names)
{
	const char *s;

	for (; *names; names++)
		if ((s = json_string_value(json_object_get(obj, *names))) && *s)
			return s;
	return NULL;
}

static const char *const path_names[] = {
	"file_path", "path", "filePath", "notebook_path", "abs_path", NULL,
};

/* The one path the tool call touches, or NULL when not exactly one. */
static const char *perm_path(json_t *call, json_t *raw)
{
	json_t *locs = json_object_get(call, "locations");

	if (json_array_size(locs) > 1)
		return NULL;
	if (json_array_size(locs) == 1)
		return json_string_value(json_object_get(json_array_get(locs, 0),
							 "path"));
	return any_str(raw, path_names);
}

/*
 * The whole new text of a file when the call shows exactly one diff that
 * replaces nothing (a new file); an edit's diff shows a part only.
 */
static json_t *perm_new_text(json_t *call)
{
	json_t *content = json_object_get(call, "content");
	json_t *c = json_array_get(content, 0);
	const char *type = sc_json_str(c, "type");
	json_t *old = json_object_get(c, "oldText");

	if (json_array_size(content) != 1 || !type || strcmp(type, "diff") ||
	    (old && !json_is_null(old)))
		return NULL;
	return json_object_get(c, "newText");
}

/* 1 when RAW holds a command: a non-empty string, or a list of strings. */
static int has_command(json_t *raw)
{
	json_t *cmd = json_object_get(raw, "command"), *v;
	size_t i;

	if (json_is_string(cmd))
		return json_string_length(cmd) > 0;
	if (!json_array_size(cmd))
		return 0;
	json_array_foreach(cmd, i, v)
		if (!json_is_string(v))
			return 0;
	return 1;
}

/* A command the agent would run (has_command): shell= or argv=, cwd=. */
static void perm_command(struct sc_record *r, const char *root, json_t *raw)
{
	static const char *const cwds[] = { "cwd", "workdir", NULL };
	json_t *cmd = json_object_get(raw, "command"), *v;
	const char *cwd = any_str(raw, cwds);
	size_t i;

	if (json_is_string(cmd))
		sc_record_add(r, "shell", json_string_value(cmd),
			      json_string_length(cmd));
	else
		json_array_foreach(cmd, i, v)
			sc_record_add(r, "argv", json_string_value(v),
				      json_string_length(v));
	if (cwd)
		sc_acp_add_path(r, root, "cwd", cwd);
}

/* The two paths of a move: two locations, or the raw input's pair. */
static int move_paths(json_t *call, json_t *raw, const char **from,
		      const char **to)
{
	static const char *const froms[] = {
		"source", "from", "old_path", "src", "source_path", NULL,
	};
	static const char *const tos[] = {
		"destination", "to", "new_path", "dest", "destination_path", NULL,
	};
	json_t *locs = json_object_get(call, "locations");

	*from = any_str(raw, froms);
	*to = any_str(raw, tos);
	if (!*from || !*to) {
		if (json_array_size(locs) != 2)
			return 0;
		*from = sc_json_str(json_array_get(locs, 0), "path");
		*to = sc_json_str(json_array_get(locs, 1), "path");
	}
	return *from && *to && **from && **to;
}

/*
 * The tools of claude-code-acp (@zed-industries/claude-code-acp, read from
 * its source: dist/tools.js and dist/mcp-server.js) and of Claude Code under
 * it, by the name its tool_call announces in _meta.claudeCode.toolName.
 * "mcp__acp__" tools come back to the client: a write as
 * fs/write_text_file, a command as terminal/create, each judged again
 * when it comes; the others act in the agent's own process.
 */
static const struct named_tool {
	const char *name, *tool;
	int via_client;
} named_tools[] = {
	{ "mcp__acp__Read", "read", 1 },
	{ "mcp__acp__Write", "write", 1 },
	{ "mcp__acp__Edit", "edit", 1 },
	{ "mcp__acp__Bash", "run", 1 },
	{ "Read", "read", 0 },
	{ "NotebookRead", "read", 0 },
	{ "Write", "write", 0 },
	{ "Edit", "edit", 0 },
	{ "MultiEdit", "edit", 0 },
	{ "NotebookEdit", "edit", 0 },
	{ "Bash", "run", 0 },
	{ "Glob", "list", 0 },
	{ "Grep", "list", 0 },
	{ "LS", "list", 0 },
	{ "WebFetch", "network", 0 },
};

static const struct named_tool *find_named(json_t *call)
{
	json_t *meta = json_object_get(json_object_get(call, "_meta"),
				       "claudeCode");
	const char *name = sc_json_str(meta, "toolName");
	size_t i;

	for (i = 0; name && i < sizeof(named_tools) / sizeof(named_tools[0]); i++)
		if (!strcmp(name, named_tools[i].name))
			return &named_tools[i];
	return NULL;
}

/*
 * An MCP tool Claude Code would call (mcp__SERVER__TOOL, not one of
 * claude-code-acp's own mcp__acp__ tools): the name, or NULL.
 */
static const char *mcp_named(json_t *call)
{
	json_t *meta = json_object_get(json_object_get(call, "_meta"),
				       "claudeCode");
	const char *name = sc_json_str(meta, "toolName");
	const char *sep;

	if (!name || strncmp(name, "mcp__", 5) || !strncmp(name, "mcp__acp__", 10))
		return NULL;
	sep = strstr(name + 5, "__");
	/* Both names as speccoder takes them: anything else is "other". */
	if (!sep || sep == name + 5 || !sep[2] ||
	    strspn(name + 5, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		   "0123456789-") != (size_t)(sep - name - 5) ||
	    strspn(sep + 2, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
		   "0123456789_-") != strlen(sep + 2) || strlen(sep + 2) > 64 ||
	    sep - name - 5 > 32)
		return NULL;
	return name;
}

/* The arguments of an MCP tool's call: the raw input, an object. */
static void mcp_args(struct sc_record *r, json_t *raw)
{
	char *args = json_is_object(raw) ?
		     json_dumps(raw, JSON_COMPACT | JSON_SORT_KEYS) : NULL;

	sc_record_adds(r, "arguments", args ? args : "{}");
	free(args);
}

/* Speccoder's tool for the agent's KIND, when the call holds what it needs. */
static const char *tool_of_kind(const char *kind, json_t *call, json_t *raw,
				const char *path)
{
	static const char *const urls[] = { "url", "uri", NULL };
	const char *from, *to;

	if (!strcmp(kind, "read") && path)
		return "read";
	if (!strcmp(kind, "search"))
		return "list";
	if (!strcmp(kind, "edit") && path)
		return perm_new_text(call) ? "write" : "edit";
	if (!strcmp(kind, "delete") && path)
		return "delete";
	if (!strcmp(kind, "move") && move_paths(call, raw, &from, &to))
		return "move";
	if (!strcmp(kind, "fetch") && any_str(raw, urls))
		return "network";
	if (!strcmp(kind, "execute") && has_command(raw))
		return "run";
	return "other";
}

/* The agent's own words about the call, for a person: compact JSON, capped. */
static void add_request(struct sc_record *r, json_t *call)
{
	char *text = json_dumps(call, JSON_COMPACT | JSON_SORT_KEYS);
	size_t len = text ? strlen(text) : 0;

	if (!text)
		return;
	if (len > SC_ACP_REQUEST_MAX)
		len = SC_ACP_REQUEST_MAX;
	sc_record_add(r, "request", text, len);
	free(text);
}

/* The fields every permission call ends with. */
static void finish(struct sc_record *r, json_t *call, const char *kind,
		   int outside)
{
	sc_record_adds(r, "permission", "1");
	if (outside)
		sc_record_adds(r, "outside", "1");
	sc_record_adds(r, "kind", kind);
	if (sc_json_str(call, "toolCallId"))
		sc_record_adds(r, "tool-call-id", sc_json_str(call, "toolCallId"));
	if (sc_json_str(call, "title"))
		sc_record_adds(r, "title", sc_json_str(call, "title"));
}

size_t sc_acp_permission_calls(struct sc_record r[2], unsigned long *next_id,
			       const char *root, json_t *call)
{
	static const char *const urls[] = { "url", "uri", NULL };
	json_t *raw = json_object_get(call, "rawInput");
	const struct named_tool *named = find_named(call);
	const char *kind = sc_json_str(call, "kind");
	const char *path = perm_path(call, raw), *tool, *from, *to;
	json_t *text = NULL;
	int outside;

	if (!kind)
		kind = "other";
	if (!named && mcp_named(call)) {
		/* Judged as the MCP call it announces; whether the agent
		 * makes it through speccoder is the caller's to say. */
		sc_acp_call_start(&r[0], ++*next_id, mcp_named(call));
		mcp_args(&r[0], raw);
		finish(&r[0], call, kind, 0);
		return 1;
	}
	if (named) {
		tool = named->tool;
		/* The named tool's own input names its object. */
		if (!strcmp(tool, "list"))
			path = any_str(raw, path_names);
		else if (strcmp(tool, "run") && strcmp(tool, "network"))
			path = any_str(raw, path_names);
		if ((!path && strcmp(tool, "list") && strcmp(tool, "run") &&
		     strcmp(tool, "network")) ||
		    (!strcmp(tool, "run") && !has_command(raw)) ||
		    (!strcmp(tool, "network") && !any_str(raw, urls)))
			tool = "other";
	} else {
		tool = tool_of_kind(kind, call, raw, path);
	}
	/* Commands, fetches and the rest act in the agent's own process. */
	outside = !strcmp(tool, "other") ||
		  ((!strcmp(tool, "run") || !strcmp(tool, "network")) &&
		   !(named && named->via_client));
	if (!strcmp(tool, "move")) {
		move_paths(call, raw, &from, &to);
		sc_acp_call_start(&r[0], ++*next_id, "delete");
		sc_acp_add_path(&r[0], root, "path", from);
		sc_record_adds(&r[0], "move-to", to);
		finish(&r[0], call, kind, 0);
		sc_acp_call_start(&r[1], ++*next_id, "write");
		sc_acp_add_path(&r[1], root, "path", to);
		sc_record_adds(&r[1], "move-from", from);
		finish(&r[1], call, kind, 0);
		return 2;
	}
	if (!strcmp(tool, "write") && named)
		text = json_object_get(raw, "content");
	else if (!strcmp(tool, "write"))
		text = perm_new_text(call);
	/* An edit changes part of a file: judged as a write of it. */
	sc_acp_call_start(&r[0], ++*next_id, !strcmp(tool, "edit") ? "write" : tool);
	if (!strcmp(tool, "edit"))
		sc_record_adds(&r[0], "edit", "1");
	if (!strcmp(tool, "run"))
		perm_command(&r[0], root, raw);
	else if (!strcmp(tool, "list"))
		sc_acp_add_path(&r[0], root, "path", path ? path : root);
	else if (!strcmp(tool, "network"))
		sc_record_adds(&r[0], "url", any_str(raw, urls));
	else if (strcmp(tool, "other"))
		sc_acp_add_path(&r[0], root, "path", path);
	if (json_is_string(text))
		sc_record_add(&r[0], "content", json_string_value(text),
			      json_string_length(text));
	if (!strcmp(tool, "other"))
		add_request(&r[0], call);
	finish(&r[0], call, kind, outside);
	return 1;
}

void sc_acp_call_object(const struct sc_record *r, struct sc_buf *out)
{
	static const char *const names[] = {
		"tool", "path", "argv", "shell", "cwd", "url", "move-to",
		"move-from", "request", NULL,
	};
	size_t i, k;

	sc_buf_reset(out);
	for (k = 0; names[k]; k++)
		for (i = 0; i < r->nr; i++)
			if (!strcmp(r->fields[i].name, names[k])) {
				sc_buf_addf(out, "%s=", names[k]);
				sc_buf_add(out, r->fields[i].value,
					   r->fields[i].value_len);
				sc_buf_addch(out, '\n');
			}
}
