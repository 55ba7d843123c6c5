#ifndef SC_POLICY_H
#define SC_POLICY_H

/*
 * The policy of sc-classify(1): one verdict for each tool call.
 *
 * A call is cut into findings (each path it reaches, each part of a shell
 * line, each argument that runs a program), each finding gets a decision,
 * a stable rule id and the object a grant would name, and the strictest
 * finding is the verdict: deny > ask > allow, the first one found winning
 * among equals.  A grant turns an ask finding whose object it names into an
 * allow; it never touches a deny.  --no-prompt turns the final ask into a
 * deny.  Nothing is capped: a line of a thousand parts is judged part by
 * part, and what cannot be seen through is at least an ask.
 */

#include <stddef.h>

#include "buf.h"
#include "config.h"
#include "paths.h"
#include "record.h"
#include "strlist.h"

enum sc_decision { SC_ALLOW = 0, SC_ASK = 1, SC_DENY = 2 };

enum sc_mode {
	SC_MODE_WORKTREE,
	SC_MODE_IN_PLACE,
	SC_MODE_SPEC,
	SC_MODE_EXPLORE,
};

struct sc_exe_cache;

/* A grant for the run that names hosts: the object runs with them. */
struct sc_host_grant {
	char *object;
	char **hosts;
	size_t nr;
};

struct sc_policy {
	struct sc_root root;
	enum sc_mode mode;
	int no_prompt;
	struct sc_config cfg;
	struct sc_strlist grants;   /* objects a person approved */
	struct sc_host_grant *host_grants;   /* those granted with hosts */
	size_t nr_host_grants, alloc_host_grants;
	struct sc_strlist ignored;  /* folded paths git ignored (in-place) */
	struct sc_strlist frozen;   /* folded paths of tests that existed */
	char *path_env;             /* PATH, to name the executable */
	char *feature;              /* spec mode: the one feature, folded */
	struct sc_exe_cache *exes;  /* PATH lookups already made */
	/* folded paths of the person's files copied into the worktree
	 * (worktree.include): no file tool reads or writes them */
	struct sc_strlist included;
	/* the same as spelled: only a name that matches one of these byte
	 * for byte is the person's file where names do not fold */
	struct sc_strlist included_exact;
};

/* One part of a call that asks: its rule and the object a grant names. */
struct sc_verdict_part {
	const char *rule;
	char *object;
};

struct sc_verdict {
	int decision;
	const char *rule;           /* a stable id, e.g. "deny.secret-file" */
	const char *reason;         /* one sentence, fixed per rule */
	const char *class;          /* read write command network mcp */
	struct sc_buf object;
	int no_prompt;              /* an ask turned into a deny */
	/* allow.network-hosts: the section giving the command its hosts
	 * (owned by the policy's configuration), written as host= fields */
	const struct sc_net_rule *net;
	/* allow.grant: the hosts the grants that lifted the call name (each
	 * once, owned by the policy), written as host= fields */
	const char **hosts;
	size_t nr_hosts, alloc_hosts;
	/*
	 * When the decision is ask: every part that asks (each distinct rule
	 * and object, in the order found), so one question names them all
	 * and one answer covers exactly those; the first is rule and object.
	 */
	struct sc_verdict_part *parts;
	size_t nr_parts, alloc_parts;
};

/* -1 (errno set) when ROOT cannot be resolved.  CFG is moved into P. */
int sc_policy_init(struct sc_policy *p, const char *root, enum sc_mode mode,
		   int no_prompt, struct sc_config *cfg);
void sc_policy_release(struct sc_policy *p);

/* In spec mode, only the artifacts of feature NAME may be written. */
void sc_policy_set_feature(struct sc_policy *p, const char *name);

/* Parse "worktree", "in-place", "spec" or "explore"; -1 otherwise. */
int sc_policy_parse_mode(const char *text, enum sc_mode *mode);

/*
 * Load type=grant records (field object) from FD.  Returns 0, or an
 * sc_read_status < 0 after printing the diagnostic (see record.h).
 */
int sc_policy_load_grants(struct sc_policy *p, int fd);

/*
 * Load a list of root-relative paths from DATA (LEN bytes): NUL-separated,
 * or newline-separated when it holds no NUL.  WHICH is &p->ignored,
 * &p->frozen or &p->included (which also fills p->included_exact).
 */
void sc_policy_load_paths(struct sc_policy *p, struct sc_strlist *which,
			  const char *data, size_t len);

void sc_verdict_init(struct sc_verdict *v);
void sc_verdict_release(struct sc_verdict *v);

/* Judge one type=call record. */
void sc_policy_judge(const struct sc_policy *p, const struct sc_record *call,
		     struct sc_verdict *v);

/*
 * Build the type=verdict record for V answering call ID (may be NULL); an
 * ask carries each part as a part-rule and a part-object field, in pairs.
 */
void sc_verdict_record(const struct sc_verdict *v, const char *id,
		       struct sc_record *out);

/*
 * 1 when root-relative path REL names a secret-looking file (deny.secret-file:
 * .env*, *.pem, SSH keys, .netrc, ...), in any letter case.  sc-pin refuses
 * packages holding one.
 */
int sc_policy_secret_name(const char *rel);

/* The rule ids, NULL-terminated, for the man page test. */
extern const char *const sc_policy_rules[];

#endif
