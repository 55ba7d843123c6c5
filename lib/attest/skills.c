#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "config.h"
#include "diag.h"
#include "gitconfig.h"
#include "record.h"
#include "skills.h"
#include "strlist.h"

const char *const sc_skill_dirs[] = { ".claude/skills", ".agents/skills",
	".codex/skills", NULL };

/* Every skill a run loads: the configured ones first, their paths joined
 * to the top as they will be read, then the repository's. */
struct skills {
	const char *top;
	struct sc_skill_confs c;
};

static char *joined(const char *top, const char *path)
{
	struct sc_buf b = SC_BUF_INIT;

	if (*path != '/')
		sc_buf_addf(&b, "%s/", top);
	sc_buf_adds(&b, path);
	return sc_buf_detach(&b, NULL);
}

/* The configured skills, read by the one reader, paths joined to the top. */
static int load_config(struct skills *s, const char *config)
{
	struct sc_config cfg;
	size_t i;

	sc_config_init(&cfg);
	if (sc_config_load(&cfg, config) != SC_CONFIG_OK)
		return -1;
	for (i = 0; i < cfg.skills.nr; i++) {
		const struct sc_skill_conf *c = &cfg.skills.v[i];
		struct sc_skill_conf *sk = sc_skill_named(&s->c, c->id,
						       strlen(c->id));

		sk->version = sc_xstrdup(c->version);
		sk->path = joined(s->top, c->path);
		sk->required = c->required;
	}
	sc_config_release(&cfg);
	return 0;
}

/*
 * 1 when a configured skill's path is the directory PATH, itself not a
 * symlink: a link is listed on its own, so that sc-pin refuses it.
 */
static int configured(const struct skills *s, size_t nconf, const char *path)
{
	struct stat a, b;
	size_t i;

	if (lstat(path, &a) < 0)
		return 0;
	for (i = 0; i < nconf; i++)
		if (stat(s->c.v[i].path, &b) == 0 && a.st_dev == b.st_dev &&
		    a.st_ino == b.st_ino)
			return 1;
	return 0;
}

/* One repository skill, DIR/NAME, unless configured or not a skill. */
static int add_repo_skill(struct skills *s, size_t nconf, const char *dir,
			  const char *name)
{
	struct sc_buf id = SC_BUF_INIT, skill_md = SC_BUF_INIT;
	struct stat st;
	char *path;
	int ret = 0;

	sc_buf_addf(&id, "%s/%s", dir, name);
	path = joined(s->top, id.data);
	sc_buf_addf(&skill_md, "%s/SKILL.md", path);
	/* Followed on purpose: a symlinked skill is listed, and sc-pin then
	 * refuses it; a folder without SKILL.md is no skill to an agent. */
	if (stat(skill_md.data, &st) < 0 || configured(s, nconf, path)) {
		free(path);
	} else if (!sc_skill_valid_id(id.data, id.len)) {
		free(path);
		ret = sc_error("BAD-SKILL-NAME", "a skill under '%s' has a "
			       "name that is not [A-Za-z0-9._-]+", dir);
	} else if (sc_skill_find(&s->c, id.data, id.len)) {
		/* One id, two packages: neither may borrow the other's pin. */
		free(path);
		ret = sc_error("BAD-CONFIG", "skill id '%s' names a repository "
			       "skill but another path", id.data);
	} else {
		struct sc_skill_conf *sk = sc_skill_named(&s->c, id.data, id.len);

		sk->version = sc_xstrdup("repo");
		sk->path = path;
	}
	sc_buf_release(&id);
	sc_buf_release(&skill_md);
	return ret;
}

static int load_repo_dir(struct skills *s, size_t nconf, const char *dir)
{
	char *path = joined(s->top, dir);
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	struct sc_strlist names = { 0 };
	size_t i;
	int ret = 0;

	free(path);
	if (fd < 0)
		return errno == ENOENT || errno == ENOTDIR ? 0 :
		       sc_error_errno("INPUT", "cannot read '%s'", dir);
	if (sc_dir_list(fd, SIZE_MAX, &names) < 0)
		ret = sc_error_errno("INPUT", "cannot read '%s'", dir);
	close(fd);
	for (i = 0; i < names.nr && !ret; i++)
		ret = add_repo_skill(s, nconf, dir, names.v[i]);
	sc_strlist_release(&names);
	return ret;
}

static int write_skills(const struct skills *s, struct sc_output *out)
{
	struct sc_record rec;
	size_t i;

	sc_record_init(&rec);
	for (i = 0; i < s->c.nr; i++) {
		sc_record_reset(&rec);
		sc_record_adds(&rec, "type", "package");
		sc_record_adds(&rec, "id", s->c.v[i].id);
		sc_record_adds(&rec, "version", s->c.v[i].version);
		sc_record_adds(&rec, "path", s->c.v[i].path);
		sc_record_adds(&rec, "required",
			       s->c.v[i].required ? "true" : "false");
		sc_record_write(out, &rec);
	}
	sc_record_release(&rec);
	if (sc_output_flush(out) < 0)
		return sc_error_errno("WRITE-FAILED", "cannot write output");
	return 0;
}

/* Every skill a run would load: 0, or -1 after an error. */
static int load_skills(struct skills *s, const char *config)
{
	size_t nconf, i;
	int ret = 0;

	if (config)
		ret = load_config(s, config);
	nconf = s->c.nr;
	for (i = 0; !ret && sc_skill_dirs[i]; i++)
		ret = load_repo_dir(s, nconf, sc_skill_dirs[i]);
	return ret;
}

int sc_skills_list(const char *top, const char *config,
		   struct sc_output *out)
{
	struct skills s = { top, { NULL, 0, 0 } };
	int ret = load_skills(&s, config);

	if (!ret)
		ret = write_skills(&s, out);
	sc_skill_confs_release(&s.c);
	return ret;
}

int sc_skills_at(const char *top, const char *config, const char *path,
		 char **id, char **version)
{
	struct skills s = { top, { NULL, 0, 0 } };
	struct stat want, st;
	size_t i;
	int ret;

	*id = *version = NULL;
	if (lstat(path, &want) < 0)
		return errno == ENOENT || errno == ENOTDIR ? 1 :
		       sc_error_errno("INPUT", "cannot read a skill's path");
	if (load_skills(&s, config) < 0) {
		sc_skill_confs_release(&s.c);
		return -1;
	}
	/* The same directory, however the person spelled its path. */
	ret = 1;
	for (i = 0; i < s.c.nr && ret == 1; i++)
		if (lstat(s.c.v[i].path, &st) == 0 && st.st_dev == want.st_dev &&
		    st.st_ino == want.st_ino) {
			*id = sc_xstrdup(s.c.v[i].id);
			*version = sc_xstrdup(s.c.v[i].version);
			ret = 0;
		}
	sc_skill_confs_release(&s.c);
	return ret;
}
