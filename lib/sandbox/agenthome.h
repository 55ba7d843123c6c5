#ifndef SC_AGENTHOME_H
#define SC_AGENTHOME_H
/*
 * Private configuration directories for an external agent (sc-acp(1)
 * --config-home): the user's own settings, MCP servers, skills and
 * permission rules must never reach a run, so the agent gets empty
 * directories of its own and variables that point it there.
 *
 *   DIR/home    HOME             what the other variables do not cover
 *                                (~/.claude.json, ~/.gemini, dotfiles)
 *   DIR/claude  CLAUDE_CONFIG_DIR Claude Code
 *   DIR/codex   CODEX_HOME       Codex
 *   DIR/gemini  GEMINI_CLI_HOME  Gemini CLI (reads GEMINI_CLI_HOME/.gemini)
 *   DIR/config  XDG_CONFIG_HOME  agents following XDG (opencode, goose, ...)
 *   DIR/data    XDG_DATA_HOME
 *   DIR/state   XDG_STATE_HOME
 *   DIR/cache   XDG_CACHE_HOME
 *
 * The agent may write its state there; a change of a *settings* file
 * (sc_agenthome_is_settings) during a session is what the snapshot
 * compares, because such a change can let the agent act without asking.
 */
#include <stddef.h>
#include "buf.h"

struct sc_agenthome {
	char *dir;       /* absolute */
	char **vars;     /* "NAME=VALUE", NULL-terminated */
	size_t nr;
};

void sc_agenthome_init(struct sc_agenthome *h);
void sc_agenthome_release(struct sc_agenthome *h);

/*
 * Create DIR (0700) when missing, or take it when it is an empty directory
 * of ours that no one else can enter; then every subdirectory above, 0700
 * and new.  A symlink anywhere at DIR is refused.  0, or -1 with
 * error[CONFIG-HOME] printed.
 */
int sc_agenthome_create(struct sc_agenthome *h, const char *dir);

/* 1 when NAME (a file's base name) is a settings file of some agent. */
int sc_agenthome_is_settings(const char *name);

/*
 * Describe every settings file under DIR (path, size and SHA-256 of its
 * content), every symlink that reaches outside DIR, and the identity of
 * DIR's own entries into OUT, in a stable order: two snapshots differ
 * exactly when such a file was added, removed or changed in content, a
 * link out of DIR appeared, or a home was replaced.  The agent's own
 * bookkeeping (times, logs, a debug link kept inside DIR) is no change.
 * The walk never follows a symlink and stops at a fixed depth and count
 * (noted in OUT).
 */
void sc_agenthome_snapshot(const char *dir, struct sc_buf *out);

#endif
