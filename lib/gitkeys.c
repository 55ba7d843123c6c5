/*
 * The git configuration keys that run programs (gitkeys.h).
 */
#include <fnmatch.h>
#include <string.h>

#include "buf.h"
#include "diag.h"
#include "gitkeys.h"
#include "io.h"
#include "record.h"

struct gitkey {
	const char *glob;       /* lower case */
	enum sc_gitkey_kind kind;
	const char *neutral;    /* SC_GITKEY_RUNS: the value that turns it off */
};

#define FIXED(g) { g, SC_GITKEY_FIXED, NULL }
#define RUNS(g) { g, SC_GITKEY_RUNS, "" }
#define RISKY(g) { g, SC_GITKEY_RISKY, NULL }

/* The first entry that matches decides: the named keys, then families. */
static const struct gitkey table[] = {
	/* sc-git sets these on its command line; an empty value in the
	 * environment could even win over it and undo core.hooksPath */
	FIXED("core.fsmonitor"), FIXED("core.hookspath"), FIXED("core.pager"),
	FIXED("core.editor"), FIXED("sequence.editor"), FIXED("core.askpass"),
	FIXED("credential.helper"),

	{ "pager.*", SC_GITKEY_RUNS, "false" },
	RUNS("core.sshcommand"), RUNS("core.gitproxy"),
	RUNS("core.alternaterefscommand"), RUNS("alias.*"),
	RUNS("diff.external"), RUNS("diff.*.command"), RUNS("diff.*.textconv"),
	RUNS("difftool.*.cmd"), RUNS("difftool.*.path"), RUNS("merge.*.driver"),
	RUNS("mergetool.*.cmd"), RUNS("mergetool.*.path"),
	RUNS("filter.*.clean"), RUNS("filter.*.smudge"),
	RUNS("filter.*.process"), RUNS("credential.*.helper"),
	RUNS("gpg.program"), RUNS("gpg.*.program"),
	RUNS("gpg.ssh.defaultkeycommand"), RUNS("remote.*.uploadpack"),
	RUNS("remote.*.receivepack"), RUNS("remote.*.vcs"), RUNS("imap.tunnel"),
	RUNS("sendemail.sendmailcmd"), RUNS("sendemail.smtpserver"),
	RUNS("sendemail.*.sendmailcmd"), RUNS("sendemail.*.smtpserver"),
	RUNS("web.browser"), RUNS("browser.*.cmd"), RUNS("browser.*.path"),
	RUNS("man.*.cmd"), RUNS("man.*.path"), RUNS("man.viewer"),
	RUNS("interactive.difffilter"), RUNS("uploadpack.packobjectshook"),
	RUNS("submodule.*.update"), RUNS("trailer.*.command"),
	RUNS("trailer.*.cmd"), RUNS("hook.*.command"), RUNS("tar.*.command"),

	/* where git takes templates, which repositories it trusts, which tool
	 * a difftool or mergetool runs */
	RISKY("init.templatedir"), RISKY("safe.directory"),
	RISKY("safe.barerepository"), RISKY("diff.tool"), RISKY("merge.tool"),
	/* whole sections that run programs, read files or reach hosts */
	RISKY("core.*"), RISKY("alias.*"), RISKY("filter.*"),
	RISKY("credential.*"), RISKY("gpg.*"), RISKY("protocol.*"),
	RISKY("include.*"), RISKY("includeif.*"), RISKY("uploadpack.*"),
	RISKY("receive.*"), RISKY("difftool.*"), RISKY("mergetool.*"),
	RISKY("browser.*"), RISKY("man.*"), RISKY("sendemail.*"),
	RISKY("ssh.*"), RISKY("http.*"), RISKY("url.*"), RISKY("remote.*"),
	RISKY("submodule.*"), RISKY("transfer.*"), RISKY("fetch.*"),
	RISKY("gc.*"), RISKY("maintenance.*"), RISKY("hook.*"),
	RISKY("trailer.*"), RISKY("instaweb.*"), RISKY("guitool.*"),
	RISKY("tar.*"), RISKY("archive.*"),
	/* any section's programs, drivers and paths */
	RISKY("*.command"), RISKY("*.textconv"), RISKY("*.driver"),
	RISKY("*.cmd"), RISKY("*.program"), RISKY("*.helper"),
	RISKY("*.path"),
};

enum sc_gitkey_kind sc_gitkey_kind(const char *key, const char **neutral)
{
	struct sc_buf lower = SC_BUF_INIT;
	enum sc_gitkey_kind kind = SC_GITKEY_NONE;
	size_t i;

	for (; *key; key++)
		sc_buf_addch(&lower, (*key >= 'A' && *key <= 'Z') ?
			     *key - 'A' + 'a' : *key);
	sc_buf_adds(&lower, "");
	for (i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		if (fnmatch(table[i].glob, lower.data, 0))
			continue;
		kind = table[i].kind;
		if (neutral)
			*neutral = table[i].neutral;
		break;
	}
	sc_buf_release(&lower);
	return kind;
}

/* A config name longer than this is no name git would write. */
#define NAME_MAX_LEN ((size_t)64 << 10)

static int neutralise_one(const struct sc_buf *name, struct sc_record *r,
			  struct sc_output *out)
{
	const char *neutral = NULL;

	if (sc_gitkey_kind(name->data, &neutral) != SC_GITKEY_RUNS)
		return 0;
	sc_record_reset(r);
	sc_record_adds(r, "type", "git-neutral");
	sc_record_adds(r, "key", name->data);
	sc_record_adds(r, "value", neutral);
	return sc_record_write(out, r);
}

/* Add the next name of IN to NAME: 1 at its NUL, 0 at the end, -1 on error. */
static int next_name(struct sc_input *in, struct sc_buf *name)
{
	long n;

	while ((n = sc_input_fill(in)) > 0) {
		const char *p = in->data + in->pos;
		const char *nul = memchr(p, '\0', (size_t)n);
		size_t take = nul ? (size_t)(nul - p) : (size_t)n;

		if (name->len + take > NAME_MAX_LEN)
			return sc_error("BAD-CONFIG-NAME", "a config name longer "
					"than %zu bytes", NAME_MAX_LEN);
		sc_buf_add(name, p, take);
		in->pos += take + (nul ? 1 : 0);
		if (nul)
			return 1;
	}
	if (n < 0)
		return sc_error_errno("READ-FAILED", "cannot read the names");
	return 0;
}

int sc_gitkeys_neutralise(struct sc_input *in, struct sc_output *out)
{
	struct sc_buf name = SC_BUF_INIT;
	struct sc_record r;
	int st, ret = 0;

	sc_record_init(&r);
	for (;;) {
		sc_buf_reset(&name);
		sc_buf_adds(&name, "");
		st = next_name(in, &name);
		if (st < 0 || (st == 0 && !name.len)) {
			ret = st;
			break;
		}
		/* a NUL-free name, so NAME is also a C string */
		if (!name.len) {
			ret = sc_error("BAD-CONFIG-NAME", "an empty config name");
			break;
		}
		if (neutralise_one(&name, &r, out) < 0) {
			ret = -1;
			break;
		}
		if (st == 0)
			break;  /* the last name without its NUL */
	}
	sc_record_release(&r);
	sc_buf_release(&name);
	return ret;
}
