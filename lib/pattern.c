/*
 * gitignore-style patterns and wildmatch, written after git's wildmatch.c
 * (the "**" rules and the early aborts that keep matching linear in
 * practice) but kept to what sc-hash-git needs.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "pattern.h"

#define WM_MATCH 0
#define WM_NOMATCH 1
#define WM_ABORT_ALL (-1)
#define WM_ABORT_TO_STARSTAR (-2)

typedef unsigned char uchar;

/* 1 when T_CH is in the "[:NAME:]" class (NAME is LEN bytes), -1 when the
 * class is unknown. */
static int in_class(const uchar *name, size_t len, uchar t_ch)
{
	static const struct {
		const char *name;
		int (*fn)(int);
	} classes[] = {
		{ "alnum", isalnum }, { "alpha", isalpha }, { "blank", isblank },
		{ "cntrl", iscntrl }, { "digit", isdigit }, { "graph", isgraph },
		{ "lower", islower }, { "print", isprint }, { "punct", ispunct },
		{ "space", isspace }, { "upper", isupper }, { "xdigit", isxdigit },
	};
	size_t i;

	for (i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
		if (strlen(classes[i].name) == len &&
		    !memcmp(classes[i].name, name, len))
			return classes[i].fn(t_ch) ? 1 : 0;
	return -1;
}

/*
 * Match the set starting after '[' at *PP against T_CH.  Leaves *PP on the
 * closing ']'.  Returns 1 matched, 0 not, WM_ABORT_ALL when malformed.
 */
static int match_set(const uchar **pp, uchar t_ch, int *negated)
{
	const uchar *p = *pp;
	uchar p_ch = *p, prev_ch = 0;
	int matched = 0;

	if (p_ch == '^')
		p_ch = '!';
	*negated = p_ch == '!';
	if (*negated)
		p_ch = *++p;
	do {
		if (!p_ch)
			return WM_ABORT_ALL;
		if (p_ch == '\\') {
			p_ch = *++p;
			if (!p_ch)
				return WM_ABORT_ALL;
			if (t_ch == p_ch)
				matched = 1;
		} else if (p_ch == '-' && prev_ch && p[1] && p[1] != ']') {
			p_ch = *++p;
			if (p_ch == '\\') {
				p_ch = *++p;
				if (!p_ch)
					return WM_ABORT_ALL;
			}
			if (t_ch <= p_ch && t_ch >= prev_ch)
				matched = 1;
			p_ch = 0; /* a range cannot start another range */
		} else if (p_ch == '[' && p[1] == ':') {
			const uchar *s = p + 2;
			int r;

			for (p = s; *p && *p != ']'; p++)
				;
			if (!*p)
				return WM_ABORT_ALL;
			if (p == s || p[-1] != ':') {
				/* no ":]": an ordinary '[' in the set */
				p = s - 2;
				p_ch = '[';
				if (t_ch == p_ch)
					matched = 1;
				continue;
			}
			r = in_class(s, (size_t)(p - 1 - s), t_ch);
			if (r < 0)
				return WM_ABORT_ALL;
			if (r)
				matched = 1;
			p_ch = 0;
		} else if (t_ch == p_ch) {
			matched = 1;
		}
	} while (prev_ch = p_ch, (p_ch = *++p) != ']');
	*pp = p;
	return matched;
}

static int dowild(const uchar *p, const uchar *text, int pathname)
{
	const uchar *pattern = p;
	uchar p_ch;

	for (; (p_ch = *p) != '\0'; text++, p++) {
		int matched, match_slash, negated;
		uchar t_ch = *text;

		if (t_ch == '\0' && p_ch != '*')
			return WM_ABORT_ALL;
		switch (p_ch) {
		case '\\':
			p_ch = *++p;
			/* the escaped byte is literal */
			/* fall through */
		default:
			if (t_ch != p_ch)
				return WM_NOMATCH;
			continue;
		case '?':
			if (pathname && t_ch == '/')
				return WM_NOMATCH;
			continue;
		case '*':
			if (*++p == '*') {
				const uchar *prev_p = p - 2;

				while (*++p == '*')
					;
				if ((prev_p < pattern || *prev_p == '/') &&
				    (*p == '\0' || *p == '/' ||
				     (p[0] == '\\' && p[1] == '/'))) {
					/* "**" as a whole component also
					 * matches no directory at all */
					if (p[0] == '/' &&
					    dowild(p + 1, text, pathname) == WM_MATCH)
						return WM_MATCH;
					match_slash = 1;
				} else {
					match_slash = !pathname;
				}
			} else {
				match_slash = !pathname;
			}
			if (*p == '\0') {
				/* trailing '*' matches the rest, unless a '/'
				 * remains where '*' may not cross it */
				if (!match_slash && strchr((const char *)text, '/'))
					return WM_NOMATCH;
				return WM_MATCH;
			}
			if (!match_slash && *p == '/') {
				const char *slash = strchr((const char *)text, '/');

				if (!slash)
					return WM_NOMATCH;
				text = (const uchar *)slash;
				break; /* the loop steps over both slashes */
			}
			while (1) {
				if (t_ch == '\0')
					break;
				matched = dowild(p, text, pathname);
				if (matched != WM_NOMATCH) {
					if (!match_slash ||
					    matched != WM_ABORT_TO_STARSTAR)
						return matched;
				} else if (!match_slash && t_ch == '/') {
					return WM_ABORT_TO_STARSTAR;
				}
				t_ch = *++text;
			}
			return WM_ABORT_ALL;
		case '[':
			p++;
			matched = match_set(&p, t_ch, &negated);
			if (matched < 0)
				return WM_ABORT_ALL;
			if (matched == negated || (pathname && t_ch == '/'))
				return WM_NOMATCH;
			continue;
		}
	}
	return *text ? WM_NOMATCH : WM_MATCH;
}

int sc_wildmatch(const char *pattern, const char *text, int pathname)
{
	return dowild((const uchar *)pattern, (const uchar *)text,
		      pathname) == WM_MATCH;
}

int sc_glob_check(const char *pattern, const char **what)
{
	const uchar *p = (const uchar *)pattern;

	for (; *p; p++) {
		int negated;

		if (*p == '\\') {
			if (!p[1]) {
				*what = "ends with a lone backslash";
				return -1;
			}
			p++;
		} else if (*p == '[') {
			p++;
			/* 'a' is arbitrary: only the shape is checked here */
			if (match_set(&p, 'a', &negated) < 0) {
				*what = "unterminated or unknown [set]";
				return -1;
			}
		}
	}
	return 0;
}

void sc_patterns_init(struct sc_patterns *list)
{
	list->v = NULL;
	list->nr = list->alloc = 0;
}

void sc_patterns_release(struct sc_patterns *list)
{
	size_t i;

	for (i = 0; i < list->nr; i++)
		free(list->v[i].text);
	free(list->v);
	sc_patterns_init(list);
}

/* Length of LINE (LEN bytes) once unescaped trailing spaces are gone. */
static size_t trim_trailing_spaces(const char *line, size_t len)
{
	while (len && line[len - 1] == ' ') {
		size_t bs = 0;

		while (bs + 1 < len && line[len - 2 - bs] == '\\')
			bs++;
		if (bs % 2)
			break; /* "\ " keeps its space */
		len--;
	}
	return len;
}

static int parse_line(struct sc_patterns *list, const char *line, size_t len,
		      unsigned lineno, struct sc_pattern_error *err)
{
	struct sc_pattern pat = { NULL, 0, 0, 0, lineno };
	const char *what = NULL;

	if (memchr(line, '\0', len)) {
		err->what = "holds a NUL byte";
		return -1;
	}
	if (len > SC_PATTERN_LINE_MAX) {
		err->what = "is too long";
		return -1;
	}
	len = trim_trailing_spaces(line, len);
	if (!len || line[0] == '#')
		return 0;
	if (line[0] == '!') {
		pat.negate = 1;
		line++;
		len--;
	} else if (line[0] == '\\' && len > 1 &&
		   (line[1] == '!' || line[1] == '#')) {
		line++;
		len--;
	}
	if (len && line[len - 1] == '/') {
		pat.dir_only = 1;
		len--;
	}
	if (memchr(line, '/', len))
		pat.anchored = 1;
	if (len && line[0] == '/') {
		line++;
		len--;
	}
	if (!len) {
		err->what = "matches nothing";
		return -1;
	}
	if (list->nr >= SC_PATTERNS_MAX) {
		err->what = "is past the limit of patterns";
		return -1;
	}
	pat.text = sc_xmemdup(line, len);
	if (sc_glob_check(pat.text, &what) < 0) {
		free(pat.text);
		err->what = what;
		return -1;
	}
	SC_ALLOC_GROW(list->v, list->nr + 1, list->alloc);
	list->v[list->nr++] = pat;
	return 0;
}

int sc_patterns_parse(struct sc_patterns *list, const char *text, size_t len,
		      struct sc_pattern_error *err)
{
	unsigned lineno = 0;
	size_t pos = 0;

	while (pos < len) {
		const char *nl = memchr(text + pos, '\n', len - pos);
		size_t end = nl ? (size_t)(nl - text) : len;

		lineno++;
		if (parse_line(list, text + pos, end - pos, lineno, err) < 0) {
			err->line = lineno;
			return -1;
		}
		pos = end + 1;
	}
	return 0;
}

static int pattern_matches(const struct sc_pattern *pat, const char *path,
			   int is_dir)
{
	const char *base;

	if (pat->dir_only && !is_dir)
		return 0;
	if (pat->anchored)
		return sc_wildmatch(pat->text, path, 1);
	base = strrchr(path, '/');
	return sc_wildmatch(pat->text, base ? base + 1 : path, 1);
}

int sc_patterns_decide(const struct sc_patterns *list, const char *path,
		       int is_dir)
{
	size_t i = list->nr;

	while (i--)
		if (pattern_matches(&list->v[i], path, is_dir))
			return !list->v[i].negate;
	return -1;
}

int sc_patterns_match(const struct sc_patterns *list, const char *path,
		      int is_dir)
{
	char *copy;
	char *slash;
	int verdict;

	if (!list->nr)
		return 0;
	verdict = sc_patterns_decide(list, path, is_dir);
	if (verdict >= 0)
		return verdict;
	/* the nearest ancestor directory that some pattern matches decides */
	copy = sc_xstrdup(path);
	while ((slash = strrchr(copy, '/')) != NULL) {
		*slash = '\0';
		verdict = sc_patterns_decide(list, copy, 1);
		if (verdict >= 0)
			break;
	}
	free(copy);
	return verdict > 0;
}

void sc_patterns_fold(struct sc_patterns *list)
{
	size_t i;
	char *c;

	for (i = 0; i < list->nr; i++)
		for (c = list->v[i].text; *c; c++)
			if (*c >= 'A' && *c <= 'Z')
				*c = (char)(*c - 'A' + 'a');
}
