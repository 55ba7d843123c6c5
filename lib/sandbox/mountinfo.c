#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "alloc.h"
#include "buf.h"
#include "mountinfo.h"

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static char *unescape(const char *s, size_t n)
{
	char *out = sc_xmalloc(n + 1), *o = out;
	size_t i;

	for (i = 0; i < n; i++) {
		if (s[i] == '\\' && i + 3 < n && s[i + 1] >= '0' &&
		    s[i + 1] <= '3' && s[i + 2] >= '0' && s[i + 2] <= '7' &&
		    s[i + 3] >= '0' && s[i + 3] <= '7') {
			*o++ = (char)((s[i + 1] - '0') * 64 + (s[i + 2] - '0') * 8 +
				      (s[i + 3] - '0'));
			i += 3;
		} else {
			*o++ = s[i];
		}
	}
	*o = '\0';
	return out;
}

/*
 * Filesystems the kernel makes up, which hold no file of a disk's: a
 * credential seen again through another mount is never seen through one
 * of these.  Skipping them spares a stat per hidden path and mount (most
 * of the mounts of a container or a systemd host are of these types).
 */
static int pseudo_type(const char *t, size_t n)
{
	static const char *const types[] = {
		"proc", "sysfs", "cgroup", "cgroup2", "devpts", "mqueue",
		"debugfs", "tracefs", "securityfs", "bpf", "pstore",
		"configfs", "fusectl", "binfmt_misc", "nsfs", "efivarfs",
		"selinuxfs", "rpc_pipefs", NULL,
	};
	size_t i;

	for (i = 0; types[i]; i++)
		if (strlen(types[i]) == n && !strncmp(types[i], t, n))
			return 1;
	return 0;
}

/* The filesystem type after the " - " that ends the optional fields. */
static int parse_pseudo(const char *rest)
{
	const char *t = strstr(rest, " - "), *end;

	if (!t)
		return 0;   /* not known: looked through */
	t += 3;
	end = t + strcspn(t, " \n");
	return pseudo_type(t, (size_t)(end - t));
}

/* "ID PARENT MAJ:MIN ROOT POINT ...": fields 4 and 5; -1 if malformed. */
static int parse_line(const char *line, struct sc_mount *m)
{
	const char *f = line, *end;
	int i;

	for (i = 0; i < 3; i++) {
		f = strchr(f, ' ');
		if (!f)
			return -1;
		f++;
	}
	end = strchr(f, ' ');
	if (!end || *f != '/')
		return -1;
	m->root = unescape(f, (size_t)(end - f));
	f = end + 1;
	end = strchr(f, ' ');
	if (!end || *f != '/') {
		free(m->root);
		return -1;
	}
	m->point = unescape(f, (size_t)(end - f));
	m->pseudo = parse_pseudo(end);
	return 0;
}

/* PATH minus its leading DIR, or NULL when PATH is not DIR or below it. */
static const char *below(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	if (!strcmp(dir, "/"))
		return path;
	if (strncmp(path, dir, n) || (path[n] && path[n] != '/'))
		return NULL;
	return path + n;
}

/* DIR joined with REST ("" or starting with '/'). */
static char *join(const char *dir, const char *rest)
{
	struct sc_buf b = SC_BUF_INIT;

	sc_buf_adds(&b, strcmp(dir, "/") || !*rest ? dir : "");
	sc_buf_adds(&b, rest);
	return sc_buf_detach(&b, NULL);
}

void sc_mount_aliases(const struct sc_mount_table *t, const char *path,
		      struct sc_strlist *out)
{
	const struct sc_mount *m = t->m, *home = NULL;
	const char *rest;
	struct stat st;
	char *inner;
	size_t i;

	if (lstat(path, &st) < 0)
		return;   /* nothing there to find again */
	/* The mount PATH lies on: the deepest point, the last one listed. */
	for (i = 0; i < t->nr; i++)
		if (below(path, m[i].point) &&
		    (!home || strlen(m[i].point) >= strlen(home->point)))
			home = &m[i];
	if (!home)
		return;
	inner = join(home->root, below(path, home->point));
	for (i = 0; i < t->nr; i++) {
		struct stat other;
		char *alias;

		if (&m[i] == home || (m[i].pseudo && !home->pseudo) ||
		    !(rest = below(inner, m[i].root)))
			continue;
		alias = join(m[i].point, rest);
		/* The same file, or a namesake on another filesystem? */
		if (strcmp(alias, path) && !lstat(alias, &other) &&
		    other.st_dev == st.st_dev && other.st_ino == st.st_ino)
			sc_strlist_add(out, alias);
		free(alias);
	}
	free(inner);
}

int sc_mount_table_read(struct sc_mount_table *t, const char *mountinfo)
{
	FILE *fp = fopen(mountinfo, "re");
	char *line = NULL;
	size_t cap = 0;
	int ret = 0;

	if (!fp)
		return -1;
	while (getline(&line, &cap, fp) > 0) {
		if (t->nr >= SC_MOUNTINFO_MAX_ENTRIES) {
			ret = -1;
			break;
		}
		SC_ALLOC_GROW(t->m, t->nr + 1, t->alloc);
		if (!parse_line(line, &t->m[t->nr]))
			t->nr++;
	}
	free(line);
	fclose(fp);
	return ret;
}

void sc_mount_table_release(struct sc_mount_table *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++) {
		free(t->m[i].root);
		free(t->m[i].point);
	}
	free(t->m);
	t->m = NULL;
	t->nr = t->alloc = 0;
}
