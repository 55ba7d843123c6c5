/*
 * Private to lib/policy*.c, the rules of sc-classify(1) cut at their seams
 * (rule table and core in policy.c; paths, git, program tables, shell and
 * argv dispatch each in its own file): the state they share while judging
 * and the functions one calls in another.  Not installed, and included by
 * no file outside lib/policy*.c.
 */
#ifndef SC_POLICY_INT_H
#define SC_POLICY_INT_H

#include <stddef.h>

#include "buf.h"
#include "config.h"
#include "policy.h"
#include "shellwords.h"
#include "strlist.h"

#define RULES \
 X(MALFORMED, "deny.malformed-call", SC_DENY, "The call is malformed or holds a value that cannot be judged.") \
 X(SOURCE, "deny.source", SC_DENY, "The call's arguments come from a source that may not change anything.") \
 X(OUTSIDE, "deny.outside-root", SC_DENY, "The path lies outside the worktree.") \
 X(ESCAPE, "deny.symlink-escape", SC_DENY, "A symlink on the path leads outside the worktree.") \
 X(SYMLINK_TARGET, "deny.symlink-target", SC_DENY, "A write may not have a symlink as its target.") \
 X(SPELLING, "deny.other-spelling", SC_DENY, "The path reaches a file under another spelling; name that file itself.") \
 X(HARDLINK, "deny.hard-link", SC_DENY, "The file has hard links outside the worktree.") \
 X(UNRESOLVABLE, "deny.unresolvable-path", SC_DENY, "The path cannot be resolved (a symlink loop or a file used as a directory).") \
 X(GIT_DIR, "deny.git-dir", SC_DENY, "Nothing under .git may be touched.") \
 X(SECRET, "deny.secret-file", SC_DENY, "The file looks like it holds secrets.") \
 X(SPEC, "deny.spec-write", SC_DENY, "The spec is an input of the attempt and may not be written.") \
 X(VERIFY, "deny.verification-config", SC_DENY, "The file decides how the work is built, tested or verified.") \
 X(AGENT_CONFIG, "deny.agent-config", SC_DENY, "The file configures a coding agent.") \
 X(IGNORED, "deny.in-place-ignored", SC_DENY, "In an in-place run, files git ignored at the start are off limits.") \
 X(INCLUDED, "deny.included-file", SC_DENY, "The file is the person's, included in the worktree for the sandboxed checks only.") \
 X(EXPLORE, "deny.explore-write", SC_DENY, "An explore run writes nothing.") \
 X(PRIVILEGE, "deny.privilege", SC_DENY, "Privilege escalation is never allowed.") \
 X(GIT_REMOTE, "deny.git-remote", SC_DENY, "git commands that reach remotes are not allowed.") \
 X(GIT_DESTRUCTIVE, "deny.git-destructive", SC_DENY, "Destructive git commands are not allowed.") \
 X(GIT_NOTES, "deny.git-notes", SC_DENY, "Only speccoder writes git notes.") \
 X(GIT_EXEC, "deny.git-exec-config", SC_DENY, "The git setting or variable makes git run a program.") \
 X(GIT_OPTION, "deny.git-option", SC_DENY, "The git option points git at another repository, program or mode.") \
 X(GIT_EMBEDDED, "deny.git-embedded-repo", SC_DENY, "The command would run git in a repository embedded in the worktree.") \
 X(IN_PLACE_GIT, "deny.in-place-git", SC_DENY, "In an in-place run, git commands that move the checkout are not allowed.") \
 X(SHELL_SYNTAX, "deny.shell-syntax", SC_DENY, "The shell line is malformed.") \
 X(SHELL_UNUSUAL, "deny.shell-unusual", SC_DENY, "The command holds control characters, or a command name holds non-ASCII characters.") \
 X(WRITE_ROOT, "deny.write-root", SC_DENY, "The write would remove or replace the worktree itself.") \
 X(SHELL_DEPTH, "deny.shell-depth", SC_DENY, "The command nests shells too deeply to be judged.") \
 X(AGENT_CONTEXT, "ask.agent-context", SC_ASK, "The file is context every agent reads.") \
 X(MANIFEST, "ask.dependency-manifest", SC_ASK, "The file declares the project's dependencies.") \
 X(FROZEN, "ask.frozen-test", SC_ASK, "The test existed before the attempt.") \
 X(SPEC_MODE, "ask.spec-mode", SC_ASK, "Planning writes only the spec, plan and tasks.") \
 X(SHELL, "ask.shell", SC_ASK, "The command starts a shell or evaluates a string as commands.") \
 X(LAUNCHER, "ask.launcher", SC_ASK, "The command runs other commands with arguments it builds itself.") \
 X(INLINE_CODE, "ask.inline-code", SC_ASK, "The command runs code given on its command line.") \
 X(EXEC_ARG, "ask.exec-arg", SC_ASK, "An argument makes the command run another program.") \
 X(HOST_CHANGE, "ask.host-change", SC_ASK, "The command changes the host: its clock, name, network, mounts or kernel.") \
 X(NETWORK_TOOL, "ask.network-tool", SC_ASK, "The command is a network tool.") \
 X(RECURSIVE_RM, "ask.recursive-rm", SC_ASK, "The command deletes recursively.") \
 X(RECURSIVE_COPY, "ask.recursive-copy", SC_ASK, "The command copies or moves a whole directory, whose names cannot be judged one by one.") \
 X(GIT_STATE, "ask.git-state", SC_ASK, "The git command changes the repository's state.") \
 X(GIT_CONFIG, "ask.git-config", SC_ASK, "The command sets a git configuration value.") \
 X(ENV_PREFIX, "ask.env-prefix", SC_ASK, "An assignment changes what programs run or how.") \
 X(OPAQUE, "ask.shell-opaque", SC_ASK, "The shell line holds something whose value is only known when it runs.") \
 X(NOT_UNDERSTOOD, "ask.not-understood", SC_ASK, "The command's arguments were not fully understood.") \
 X(UNLISTED, "ask.unlisted", SC_ASK, "The command is not on any allow list.") \
 X(MCP, "ask.mcp", SC_ASK, "The MCP tool is not allowed by the configuration.") \
 X(MCP_DIGEST, "ask.mcp-digest", SC_ASK, "The MCP tool's definition differs from the one allowed.") \
 X(NETWORK, "ask.network", SC_ASK, "The call makes a network request.") \
 X(READ, "allow.read", SC_ALLOW, "Reading the project is allowed.") \
 X(WRITE, "allow.write", SC_ALLOW, "Writing an ordinary project file is allowed.") \
 X(SPEC_ARTIFACT, "allow.spec-artifact", SC_ALLOW, "Planning may write the spec, plan and tasks.") \
 X(READ_COMMAND, "allow.read-command", SC_ALLOW, "The command only reads the project.") \
 X(FILE_COMMAND, "allow.file-command", SC_ALLOW, "The command changes only ordinary project files.") \
 X(BUILTIN, "allow.builtin", SC_ALLOW, "The shell builtin changes nothing outside the shell.") \
 X(GIT_READ, "allow.git-read", SC_ALLOW, "The git command only reads the repository.") \
 X(CHECK, "allow.check", SC_ALLOW, "The command is one of the configured checks.") \
 X(COMMAND, "allow.command", SC_ALLOW, "The command is on the configured allow list.") \
 X(NET_COMMAND, "allow.network-command", SC_ALLOW, "The command is on the configured network allow list.") \
 X(NET_HOSTS, "allow.network-hosts", SC_ALLOW, "The command reaches only the hosts configured for it.") \
 X(MCP_ALLOW, "allow.mcp", SC_ALLOW, "The MCP tool is allowed by the configuration.") \
 X(GRANT, "allow.grant", SC_ALLOW, "A person granted exactly this.")

enum rule_id {
#define X(e, id, d, r) R_##e,
	RULES
#undef X
	R_COUNT
};

/* The deepest nesting of shells inside shells a line may use. */
#define MAX_DEPTH 8

struct judge {
	const struct sc_policy *p;
	const struct sc_net_rule *net;   /* set with R_NET_HOSTS */
	int have;
	int decision;
	enum rule_id rule;
	struct sc_buf object;
	struct sc_verdict *v;   /* collects the parts that ask */
};

struct ctx {
	struct sc_buf cwd;     /* root-relative working directory */
	int cwd_unknown;       /* cd to somewhere the lexer cannot see */
	int depth;
	const struct sc_sw_cmd *feed;   /* the command piping into this one */
};

struct words {
	const struct sc_sw_word *w;
	size_t n;
};

/*
 * PATH lookups, remembered for the life of the process: a stream of calls
 * names the same few programs again and again, and each lookup costs a
 * stat per PATH entry.  Bounded: past the limit lookups are not kept.
 */
#define EXE_CACHE_MAX 512

struct sc_exe_cache {
	char *name[EXE_CACHE_MAX];
	char *path[EXE_CACHE_MAX];
	size_t nr;
};

/* Options (short letters / long names) of reading tools that take a value. */
struct reader {
	const char *name;
	const char *optargs;
	int pattern_first;      /* grep, rg, jq: the first operand is not a path */
};

/* Commands that read or write nothing named in their arguments. */
extern const char *const pol_inert[];

/* policy.c */
void pol_note(struct judge *j, enum rule_id r, const char *object);
int pol_prefix_in(const char *s, const char *const *list);

/* policy-paths.c */
enum rule_id pol_ask_rule(const struct judge *j, const char *f);
void pol_cmd_name(const struct sc_sw_word *w, struct sc_buf *out);
void pol_cmd_object(const struct judge *j, const struct ctx *c,
		    const struct sc_sw_word *w, size_t n, size_t prog,
		    struct sc_buf *out);
void pol_judge_path(struct judge *j, const char *cwd, const char *path,
		    size_t len, int write);
void pol_line_object(const struct ctx *c, const char *line, size_t len,
		     struct sc_buf *out);
enum rule_id pol_protected_rule(const struct judge *j, const char *f,
				const char *name, int write);
const char *pol_show_rel(const char *rel);
enum rule_id pol_status_rule(int status);
int pol_system_program(const struct sc_sw_word *w);

/* policy-git.c */
void pol_judge_git(struct judge *j, struct ctx *c,
		   const struct sc_sw_word *w, size_t n, size_t i,
		   const char *object);

/* policy-programs.c */
const struct reader *pol_find_reader(const char *name);
void pol_judge_awk(struct judge *j, struct ctx *c,
		   const struct sc_sw_word *w, size_t n, size_t i,
		   const char *object);
void pol_judge_fd(struct judge *j, struct ctx *c,
		  const struct sc_sw_word *w, size_t n, size_t i,
		  const char *object);
int pol_judge_file_command(struct judge *j, struct ctx *c,
			   const char *name, const struct sc_sw_word *w,
			   size_t n, size_t i, const char *object);
void pol_judge_find(struct judge *j, struct ctx *c,
		    const struct sc_sw_word *w, size_t n, size_t i,
		    const char *object);
void pol_judge_reader(struct judge *j, struct ctx *c,
		      const struct sc_sw_word *w, size_t n, size_t i,
		      const struct reader *r, const char *object);
void pol_judge_sed(struct judge *j, struct ctx *c,
		   const struct sc_sw_word *w, size_t n, size_t i,
		   const char *object);
int pol_judge_xargs(struct judge *j, struct ctx *c,
		    const struct sc_sw_cmd *feed, const struct sc_sw_word *w,
		    size_t n, size_t i, const char *object);

/* policy-shell.c */
int pol_exec_option(const char *prog, const char *s);
int pol_is_option(const struct sc_sw_word *w, int after_dashdash);
/*
 * 1 when W is the first "--" of a command's arguments, the word that ends
 * its options: *AFTER_DASHDASH is set, and the caller skips W; every word
 * after it is an operand, a later "--" too.  0 for any other word.
 */
int pol_ends_options(const struct sc_sw_word *w, int *after_dashdash);
void pol_judge_arg_path(struct judge *j, struct ctx *c,
			const struct sc_sw_word *w, int write,
			const char *object);
void pol_judge_argv(struct judge *j, const struct sc_sw_word *w,
		    size_t n, struct ctx *c, const char *heredoc);
void pol_judge_line(struct judge *j, const char *line, size_t len,
		    struct ctx *c);
int pol_word_has_flag(const struct sc_sw_word *w, size_t n, unsigned f);

#endif
