/*
 * Private configuration directories for an external agent.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <openssl/evp.h>

#include "agenthome.h"
#include "alloc.h"
#include "diag.h"
#include "encode.h"
#include "io.h"
#include "paths.h"
#include "strlist.h"

static const struct {
	const char *sub, *var;
} homes[] = {
	{ "home", "HOME" },
	{ "claude", "CLAUDE_CONFIG_DIR" },
	{ "codex", "CODEX_HOME" },
	{ "gemini", "GEMINI_CLI_HOME" },
	{ "config", "XDG_CONFIG_HOME" },
	{ "data", "XDG_DATA_HOME" },
	{ "state", "XDG_STATE_HOME" },
	{ "cache", "XDG_CACHE_HOME" },
};
#define NR_HOMES (sizeof(homes) / sizeof(homes[0]))

/*
 * Bounds of the settings walk: an agent filling its directory with a deep
 * or huge tree cannot make every check slow.
 */
#define WALK_DEPTH 12
#define WALK_ENTRIES 20000

/*
 * A settings file is compared by content up to this size; a larger one
 * (no agent writes settings that big) by its size and modification time.
 */
#define DIGEST_MAX ((size_t)4 << 20)

void sc_agenthome_init(struct sc_agenthome *h)
{
	memset(h, 0, sizeof(*h));
}

void sc_agenthome_release(struct sc_agenthome *h)
{
	size_t i;

	for (i = 0; i < h->nr; i++)
		free(h->vars[i]);
	free(h->vars);
	free(h->dir);
	sc_agenthome_init(h);
}

/* DIR must be a real, empty directory of ours, closed to others. */
static int check_dir(const char *dir)
{
	struct sc_strlist none = { 0 };
	struct stat st;
	int fd, n;

	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return sc_error_errno("CONFIG-HOME", "cannot open '%s'", dir);
	/* At most no names: 1 says there is one. */
	if (fstat(fd, &st) < 0 || (n = sc_dir_list(fd, 0, &none)) < 0) {
		close(fd);
		return sc_error_errno("CONFIG-HOME", "cannot read '%s'", dir);
	}
	close(fd);
	if (st.st_uid != geteuid() || (st.st_mode & 077))
		return sc_error("CONFIG-HOME", "'%s' must be ours with mode "
				"0700: other users could plant settings", dir);
	if (n)
		return sc_error("CONFIG-HOME", "'%s' is not empty: the agent's "
				"configuration must start empty", dir);
	return 0;
}

static void add_var(struct sc_agenthome *h, const char *name,
		    const char *value)
{
	size_t len = sc_st_add(sc_st_add(strlen(name), strlen(value)), 2);

	h->vars = sc_xrealloc(h->vars, sc_st_mult(h->nr + 2, sizeof(char *)));
	h->vars[h->nr] = sc_xmalloc(len);
	memcpy(h->vars[h->nr], name, strlen(name));
	h->vars[h->nr][strlen(name)] = '=';
	memcpy(h->vars[h->nr] + strlen(name) + 1, value, strlen(value) + 1);
	h->vars[++h->nr] = NULL;
}

int sc_agenthome_create(struct sc_agenthome *h, const char *dir)
{
	char *path;
	size_t i;

	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return sc_error_errno("CONFIG-HOME", "cannot create '%s'", dir);
	if (check_dir(dir) < 0)
		return -1;
	h->dir = realpath(dir, NULL);
	if (!h->dir)
		return sc_error_errno("CONFIG-HOME", "cannot resolve '%s'", dir);
	for (i = 0; i < NR_HOMES; i++) {
		path = sc_xmalloc(strlen(h->dir) + strlen(homes[i].sub) + 2);
		strcpy(path, h->dir);
		strcat(path, "/");
		strcat(path, homes[i].sub);
		/* New, so nothing planted before the run can be in it. */
		if (mkdir(path, 0700) < 0) {
			sc_error_errno("CONFIG-HOME", "cannot create '%s'", path);
			free(path);
			return -1;
		}
		add_var(h, homes[i].var, path);
		free(path);
	}
	return 0;
}

int sc_agenthome_is_settings(const char *name)
{
	static const char *const names[] = {
		"settings.json", "settings.local.json", "managed-settings.json",
		"config.toml", "config.json", "config.jsonc", "config.yaml",
		"opencode.json", "opencode.jsonc", ".mcp.json", "mcp.json",
		"hooks.json", "policy.toml", "trustedFolders.json", NULL,
	};
	size_t i;

	for (i = 0; names[i]; i++)
		if (!strcmp(name, names[i]))
			return 1;
	return 0;
}

struct walk {
	struct sc_buf *out;
	size_t entries;
	const char *root;     /* the private home, absolute */
};

/* The SHA-256 of the regular file NAME in DFD, in hex; -1 if unreadable. */
static int digest_file(int dfd, const char *name, char hex[65])
{
	struct sc_buf data = SC_BUF_INIT;
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	int ok = sc_read_file_at(dfd, name, DIGEST_MAX,
				 SC_OPEN_NOFOLLOW | SC_OPEN_REGULAR, &data) == 0 &&
		 EVP_Digest(data.data ? data.data : "", data.len, md, &mdlen,
			    EVP_sha256(), NULL) && mdlen == 32;

	if (ok)
		sc_sha256_hex(md, hex);
	sc_buf_release(&data);
	return ok ? 0 : -1;
}

/*
 * A settings file by what it holds: a rewrite with the same content is no
 * change, and the agent's own bookkeeping times never are.
 */
static void note_file(struct sc_buf *out, int dfd, const char *name,
		      const char *rel, const struct stat *st)
{
	char hex[65] = "";

	if (S_ISREG(st->st_mode) && (size_t)st->st_size <= DIGEST_MAX &&
	    digest_file(dfd, name, hex) == 0)
		sc_buf_addf(out, "%s f %lld %s\n", rel, (long long)st->st_size, hex);
	else
		sc_buf_addf(out, "%s %o %lld %lld.%09ld\n", rel,
			    (unsigned)st->st_mode, (long long)st->st_size,
			    (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec);
}

/*
 * A symlink matters when it reaches outside the private home (a link to
 * the user's own configuration imports it); one that stays inside, such
 * as Claude Code's debug/latest, imports nothing.  Resolved lexically,
 * never followed: ".." or a link through another link counts as outside.
 */
static void note_link(struct walk *w, int dfd, const char *name,
		      const char *rel)
{
	char target[4096];
	struct sc_buf full = SC_BUF_INIT;
	ssize_t n = readlinkat(dfd, name, target, sizeof(target) - 1);

	if (n < 0) {
		sc_buf_addf(w->out, "%s l ?\n", rel);
		return;
	}
	target[n] = '\0';
	if (target[0] == '/')
		sc_buf_adds(&full, target);
	else
		sc_buf_addf(&full, "%s/%.*s%s%s", w->root,
			    (int)(strrchr(rel, '/') ? strrchr(rel, '/') - rel : 0),
			    rel, strrchr(rel, '/') ? "/" : "", target);
	if (strstr(full.data, "/../") || strstr(full.data, "/./") ||
	    !sc_path_is_beneath(full.data, w->root))
		sc_buf_addf(w->out, "%s l %s\n", rel, target);
	sc_buf_release(&full);
}

/* Whole folders an agent loads behaviour from, every file counted. */
static int loads_folder(const char *name)
{
	return !strcmp(name, "skills") || !strcmp(name, "hooks") ||
	       !strcmp(name, "agents") || !strcmp(name, "commands") ||
	       !strcmp(name, "plugins");
}

static void walk_dir(struct walk *w, int dfd, const char *rel, int depth,
		     int inside)
{
	struct sc_strlist names = { 0 };
	struct stat st;
	size_t i;
	struct sc_buf sub = SC_BUF_INIT;
	int fd;

	if (sc_dir_list(dfd, SIZE_MAX, &names) < 0)
		return;
	for (i = 0; i < names.nr; i++) {
		if (++w->entries > WALK_ENTRIES) {
			sc_buf_adds(w->out, "(too many entries)\n");
			break;
		}
		if (fstatat(dfd, names.v[i], &st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;
		sc_buf_reset(&sub);
		sc_buf_addf(&sub, "%s%s%s", rel, *rel ? "/" : "", names.v[i]);
		/*
		 * The homes themselves by identity only (their times change with
		 * every state file), and every symlink: replacing a home, or
		 * linking a folder to the user's own configuration, is a change.
		 */
		if (!depth)
			sc_buf_addf(w->out, "%s %o %llu\n", sub.data,
				    (unsigned)(st.st_mode & S_IFMT),
				    (unsigned long long)st.st_ino);
		if (S_ISLNK(st.st_mode)) {
			note_link(w, dfd, names.v[i], sub.data);
			continue;
		}
		if (S_ISDIR(st.st_mode)) {
			int in = inside || loads_folder(names.v[i]);

			if (in)
				sc_buf_addf(w->out, "%s d\n", sub.data);
			if (depth >= WALK_DEPTH) {
				sc_buf_adds(w->out, "(too deep)\n");
				continue;
			}
			fd = openat(dfd, names.v[i], O_RDONLY | O_DIRECTORY |
				    O_NOFOLLOW | O_CLOEXEC);
			if (fd < 0)
				continue;
			walk_dir(w, fd, sub.data, depth + 1, in);
			close(fd);
		} else if (inside || sc_agenthome_is_settings(names.v[i])) {
			note_file(w->out, dfd, names.v[i], sub.data, &st);
		}
	}
	sc_strlist_release(&names);
	sc_buf_release(&sub);
}

void sc_agenthome_snapshot(const char *dir, struct sc_buf *out)
{
	struct walk w = { out, 0, dir };
	int fd;

	sc_buf_reset(out);
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		/* A directory the agent removed or replaced is a change too. */
		sc_buf_addf(out, "(cannot open: %d)\n", errno);
		return;
	}
	walk_dir(&w, fd, "", 0, 0);
	close(fd);
}
