#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "strlist.h"

void sc_strlist_addn(struct sc_strlist *l, const char *s, size_t len)
{
	SC_ALLOC_GROW(l->v, l->nr + 2, l->alloc);
	l->v[l->nr++] = sc_xmemdup(s, len);
	l->v[l->nr] = NULL;
}

void sc_strlist_add(struct sc_strlist *l, const char *s)
{
	sc_strlist_addn(l, s, strlen(s));
}

void sc_strlist_release(struct sc_strlist *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->nr = l->alloc = 0;
}

static int cmpstr(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void sc_strlist_sort(struct sc_strlist *l)
{
	if (l->nr)
		qsort(l->v, l->nr, sizeof(*l->v), cmpstr);
}

int sc_strlist_has(const struct sc_strlist *l, const char *s)
{
	return l->nr && bsearch(&s, l->v, l->nr, sizeof(*l->v), cmpstr);
}

int sc_str_in_list(const char *s, const char *const *list)
{
	for (; *list; list++)
		if (!strcmp(s, *list))
			return 1;
	return 0;
}

int sc_dir_list(int dfd, size_t max, struct sc_strlist *names)
{
	int fd = dup(dfd), more = 0, e;
	struct dirent *de;
	DIR *d = fd < 0 ? NULL : fdopendir(fd);

	if (!d) {
		e = errno;
		if (fd >= 0)
			close(fd);
		errno = e;
		return -1;
	}
	/* The dup shares DFD's offset: start from the first entry. */
	rewinddir(d);
	while ((errno = 0, de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (names->nr == max) {
			more = 1;
			break;
		}
		sc_strlist_add(names, de->d_name);
	}
	e = errno;
	closedir(d);
	if (e) {
		sc_strlist_release(names);
		errno = e;
		return -1;
	}
	sc_strlist_sort(names);
	return more;
}
