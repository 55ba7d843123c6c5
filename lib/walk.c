#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "buf.h"
#include "strlist.h"
#include "walk.h"

struct walk {
	size_t maxdepth;
	size_t *budget;
	sc_walk_fn fn;
	void *arg;
	int incomplete;
	int stopped;
};

static void walk_dir(struct walk *w, int dfd, struct sc_buf *rel, size_t depth)
{
	struct sc_strlist names = { 0 };
	size_t i, keep = rel->len;

	if (sc_dir_list(dfd, SIZE_MAX, &names) < 0)
		return;   /* unreadable: find cannot list it either */
	for (i = 0; i < names.nr && !w->stopped; i++) {
		struct sc_walk_entry e;
		int ret, sub;

		if (!*w->budget) {
			w->incomplete = 1;
			break;
		}
		(*w->budget)--;
		if (fstatat(dfd, names.v[i], &e.st, AT_SYMLINK_NOFOLLOW) < 0)
			continue;   /* gone meanwhile */
		sc_buf_setlen(rel, keep);
		if (keep)
			sc_buf_addch(rel, '/');
		sc_buf_adds(rel, names.v[i]);
		e.rel = rel->data;
		e.name = names.v[i];
		e.depth = depth;
		ret = w->fn(&e, w->arg);
		if (ret < 0) {
			w->stopped = 1;
			break;
		}
		if (ret || !S_ISDIR(e.st.st_mode) || depth >= w->maxdepth)
			continue;
		if (depth >= SC_WALK_MAX_DEPTH) {
			w->incomplete = 1;
			continue;
		}
		sub = openat(dfd, names.v[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
			     O_CLOEXEC);
		if (sub < 0)
			continue;
		walk_dir(w, sub, rel, depth + 1);
		close(sub);
	}
	sc_buf_setlen(rel, keep);
	sc_strlist_release(&names);
}

int sc_walk(const char *root, const char *start, size_t maxdepth,
	    size_t *budget, sc_walk_fn fn, void *arg)
{
	struct walk w = { maxdepth, budget, fn, arg, 0, 0 };
	struct sc_buf path = SC_BUF_INIT, rel = SC_BUF_INIT;
	struct sc_walk_entry e;
	const char *slash = strrchr(start, '/');
	int fd, ret;

	sc_buf_adds(&path, root);
	if (*start) {
		sc_buf_addch(&path, '/');
		sc_buf_adds(&path, start);
	}
	if (lstat(path.data, &e.st) < 0) {
		sc_buf_release(&path);
		return -1;
	}
	sc_buf_adds(&rel, start);
	e.rel = rel.data;
	e.name = slash ? slash + 1 : start;
	e.depth = 0;
	if (!*budget) {
		ret = 1;
		goto out;
	}
	(*budget)--;
	ret = fn(&e, arg);
	if (ret || !S_ISDIR(e.st.st_mode) || !maxdepth) {
		ret = 0;
		goto out;
	}
	fd = open(path.data, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		ret = 0;
		goto out;
	}
	walk_dir(&w, fd, &rel, 1);
	close(fd);
	ret = w.incomplete;
out:
	sc_buf_release(&path);
	sc_buf_release(&rel);
	return ret;
}
