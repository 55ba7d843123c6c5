/*
 * ACP requests as the calls speccoder judges (sc-acp(1), "Records
 * written").  Pure translation: nothing here reads a file or decides.
 */
#include <stdio.h>
#include <string.h>

#include "acpcall.h"
#include "jsonrpc.h"

void sc_acp_call_start(struct sc_record *r, unsigned long id, const char *tool)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%lu", id);
	sc_record_init(r);
	sc_record_adds(r, "type", "call");
	sc_record_adds(r, "id", buf);
	sc_record_adds(r, "tool", tool);
}

void sc_acp_add_path(struct sc_record *r, const char *root, const char *name,
		     const char *path)
{
	size_t n = strlen(root);

	if (!strncmp(path, root, n) && (path[n] == '/' || !path[n])) {
		path += n;
		while (*path == '/')
			path++;
		if (!*path)
			path = ".";
	}
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

/* The one path the tool call touches, or NULL when not exactly one. */
static const char *perm_path(json_t *call, json_t *raw)
{
	static const char *const names[] = {
		"file_path", "path", "filePath", "notebook_path", "abs_path",
		NULL,
	};
	json_t *locs = json_object_get(call, "locations");

	if (json_array_size(locs) > 1)
		return NULL;
	if (json_array_size(locs) == 1)
		return json_string_value(json_object_get(json_array_get(locs, 0),
							 "path"));
	return any_str(raw, names);
}

/* The new text of an edit when the call shows exactly one diff. */
static json_t *perm_new_text(json_t *call)
{
	json_t *content = json_object_get(call, "content");
	json_t *c = json_array_get(content, 0);
	const char *type = sc_json_str(c, "type");

	if (json_array_size(content) != 1 || !type || strcmp(type, "diff"))
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

/* A command the agent would run itself (has_command): shell= or argv=. */
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

void sc_acp_permission_call(struct sc_record *r, unsigned long id,
			    const char *root, json_t *call)
{
	static const char *const urls[] = { "url", "uri", NULL };
	json_t *raw = json_object_get(call, "rawInput");
	const char *kind = sc_json_str(call, "kind");
	const char *path = perm_path(call, raw);
	const char *url = any_str(raw, urls);
	const char *tool = "other";
	json_t *text = NULL;

	if (!kind)
		kind = "other";
	if (!strcmp(kind, "read") && path)
		tool = "read";
	else if (!strcmp(kind, "search"))
		tool = "list";
	else if (!strcmp(kind, "edit") && path)
		tool = "write", text = perm_new_text(call);
	else if (!strcmp(kind, "delete") && path)
		tool = "delete";
	else if (!strcmp(kind, "fetch") && url)
		tool = "network";
	else if (!strcmp(kind, "execute") && has_command(raw))
		tool = "run";
	sc_acp_call_start(r, id, tool);
	if (!strcmp(tool, "run"))
		perm_command(r, root, raw);
	if (!strcmp(tool, "list"))
		sc_acp_add_path(r, root, "path", path ? path : root);
	else if (strcmp(tool, "run") && strcmp(tool, "network") &&
		 strcmp(tool, "other"))
		sc_acp_add_path(r, root, "path", path);
	if (!strcmp(tool, "network"))
		sc_record_adds(r, "url", url);
	if (json_is_string(text))
		sc_record_add(r, "content", json_string_value(text),
			      json_string_length(text));
	sc_record_adds(r, "permission", "1");
	if (!strcmp(tool, "run") || !strcmp(tool, "network") ||
	    !strcmp(tool, "other"))
		sc_record_adds(r, "outside", "1");
	sc_record_adds(r, "kind", kind);
	if (sc_json_str(call, "toolCallId"))
		sc_record_adds(r, "tool-call-id", sc_json_str(call, "toolCallId"));
	if (sc_json_str(call, "title"))
		sc_record_adds(r, "title", sc_json_str(call, "title"));
}

