/*
 * The shell lexer behind sc-classify: see shellwords.h for what it promises.
 *
 * It is written for judging, so where bash and POSIX differ, or where a
 * construct is not modelled, it keeps every word visible and raises a flag
 * rather than guessing quietly.
 */
#include <stdlib.h>
#include <string.h>

#include "alloc.h"
#include "buf.h"
#include "shellwords.h"
#include "strlist.h"

/* An unquoted { in the word: brace expansion when a , or .. follows. */
#define SW_BRACE (1u << 15)

struct heredoc_wait {
	size_t cmd;        /* index in line->cmds the body belongs to */
	char *delim;
	int quoted;        /* a quoted delimiter: the body is data */
	int strip_tabs;    /* <<- */
};

struct lexer {
	const char *s;
	size_t len, pos;
	struct sc_sw_line *line;
	struct sc_sw_cmd cur;
	struct sc_buf word;
	unsigned wflags;
	int in_word;
	size_t first_quote;      /* offset in word of the first quoting */
	int redir_pending;       /* the last redirection awaits its target */
	int need_cmd;            /* after && || |: a command must follow */
	int depth;               /* open ( */
	struct heredoc_wait *waits;
	size_t nr_waits, alloc_waits;
};

int sc_sw_is_name(const char *s, size_t len)
{
	size_t i;

	if (!len || !(s[0] == '_' || (s[0] >= 'A' && s[0] <= 'Z') ||
		      (s[0] >= 'a' && s[0] <= 'z')))
		return 0;
	for (i = 1; i < len; i++)
		if (!(s[i] == '_' || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= 'a' && s[i] <= 'z') ||
		      (s[i] >= '0' && s[i] <= '9')))
			return 0;
	return 1;
}

void sc_sw_line_init(struct sc_sw_line *line)
{
	memset(line, 0, sizeof(*line));
}

static void word_release(struct sc_sw_word *w)
{
	free(w->s);
	w->s = NULL;
}

static void cmd_release(struct sc_sw_cmd *c)
{
	size_t i;

	for (i = 0; i < c->nr_assigns; i++)
		word_release(&c->assigns[i]);
	for (i = 0; i < c->nr_words; i++)
		word_release(&c->words[i]);
	for (i = 0; i < c->nr_redirs; i++)
		word_release(&c->redirs[i].target);
	free(c->assigns);
	free(c->words);
	free(c->redirs);
	free(c->heredoc);
	memset(c, 0, sizeof(*c));
}

void sc_sw_line_release(struct sc_sw_line *line)
{
	size_t i;

	for (i = 0; i < line->nr_cmds; i++)
		cmd_release(&line->cmds[i]);
	for (i = 0; i < line->nr_subs; i++)
		free(line->subs[i]);
	free(line->cmds);
	free(line->subs);
	sc_sw_line_init(line);
}

static int fail(struct lexer *lx, const char *what)
{
	if (!lx->line->error) {
		lx->line->error = what;
		lx->line->error_at = lx->pos;
	}
	return -1;
}

static void add_sub(struct lexer *lx, const char *text, size_t len)
{
	struct sc_sw_line *l = lx->line;

	SC_ALLOC_GROW(l->subs, l->nr_subs + 1, l->alloc_subs);
	l->subs[l->nr_subs++] = sc_xmemdup(text, len);
	l->flags |= SC_SWL_SUBST;
}

/*
 * Add one byte of a word, noting bytes that deserve a second look.  A tab
 * or a newline can only be in a word quoted, where it is an ordinary
 * character (a commit message, a heredoc passed as an argument); the
 * other controls (CR, ESC, ...) repaint what a person reads.
 */
static void add_byte(struct lexer *lx, unsigned char c)
{
	if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f)
		lx->wflags |= SC_SW_CTRL;
	else if (c >= 0x80)
		lx->wflags |= SC_SW_NONASCII;
	sc_buf_addch(&lx->word, c);
	lx->in_word = 1;
}

static void mark_quoted(struct lexer *lx)
{
	if (!(lx->wflags & SC_SW_QUOTED))
		lx->first_quote = lx->word.len;
	lx->wflags |= SC_SW_QUOTED;
	lx->in_word = 1;
}

/*
 * From S[I] == OPEN, the index just past the matching CLOSE, honouring
 * quotes, backslashes, backticks and nesting; 0 when there is none.
 */
static size_t skip_balanced(const char *s, size_t len, size_t i, char open,
			    char close)
{
	int depth = 0;

	for (; i < len; i++) {
		char c = s[i];

		if (c == '\\') {
			i++;
		} else if (c == '\'') {
			const char *q = memchr(s + i + 1, '\'', len - i - 1);
			if (!q)
				return 0;
			i = (size_t)(q - s);
		} else if (c == '"' || c == '`') {
			for (i++; i < len && s[i] != c; i++)
				if (s[i] == '\\')
					i++;
			if (i >= len)
				return 0;
		} else if (c == open) {
			depth++;
		} else if (c == close) {
			if (--depth == 0)
				return i + 1;
		}
	}
	return 0;
}

/* The index of the closing backtick after S[I] == '`', or 0. */
static size_t skip_backtick(const char *s, size_t len, size_t i)
{
	for (i++; i < len; i++) {
		if (s[i] == '\\')
			i++;
		else if (s[i] == '`')
			return i;
	}
	return 0;
}

/* The body of a backtick substitution with its escapes undone. */
static void add_backtick_sub(struct lexer *lx, size_t from, size_t to)
{
	struct sc_buf b = SC_BUF_INIT;
	size_t i;

	for (i = from; i < to; i++) {
		if (lx->s[i] == '\\' && i + 1 < to &&
		    strchr("`\\$", lx->s[i + 1]))
			i++;
		sc_buf_addch(&b, lx->s[i]);
	}
	add_sub(lx, b.data ? b.data : "", b.len);
	sc_buf_release(&b);
}

/*
 * Look for substitutions inside text the shell expands later (heredoc
 * bodies, ${...}, $((...))) and queue them.  Returns word flags.
 */
static unsigned scan_expansions(struct lexer *lx, const char *t, size_t n)
{
	unsigned flags = 0;
	size_t i, end;

	for (i = 0; i < n; i++) {
		if (t[i] == '\\') {
			i++;
		} else if (t[i] == '`') {
			end = skip_backtick(t, n, i);
			if (!end)
				return flags | SC_SW_SUBST;
			add_sub(lx, t + i + 1, end - i - 1);
			flags |= SC_SW_SUBST;
			i = end;
		} else if (t[i] == '$' && i + 1 < n &&
			   (t[i + 1] == '(' || t[i + 1] == '{')) {
			char open = t[i + 1];
			end = skip_balanced(t, n, i + 1, open,
					    open == '(' ? ')' : '}');
			if (!end)
				return flags | SC_SW_SUBST | SC_SW_EXPAND;
			if (open == '(' && t[i + 2] != '(') {
				add_sub(lx, t + i + 2, end - i - 3);
				flags |= SC_SW_SUBST;
			} else {
				flags |= SC_SW_EXPAND |
					 scan_expansions(lx, t + i + 2,
							 end - i - 3);
			}
			i = end - 1;
		} else if (t[i] == '$' && i + 1 < n &&
			   (sc_sw_is_name(t + i + 1, 1) ||
			    strchr("0123456789@*#?$!-", t[i + 1]))) {
			flags |= SC_SW_EXPAND;
		}
	}
	return flags;
}

static void add_utf8(struct lexer *lx, unsigned long cp)
{
	if (cp < 0x80) {
		add_byte(lx, (unsigned char)cp);
	} else if (cp < 0x800) {
		add_byte(lx, (unsigned char)(0xc0 | (cp >> 6)));
		add_byte(lx, (unsigned char)(0x80 | (cp & 0x3f)));
	} else if (cp < 0x10000) {
		add_byte(lx, (unsigned char)(0xe0 | (cp >> 12)));
		add_byte(lx, (unsigned char)(0x80 | ((cp >> 6) & 0x3f)));
		add_byte(lx, (unsigned char)(0x80 | (cp & 0x3f)));
	} else {
		add_byte(lx, (unsigned char)(0xf0 | ((cp >> 18) & 0x07)));
		add_byte(lx, (unsigned char)(0x80 | ((cp >> 12) & 0x3f)));
		add_byte(lx, (unsigned char)(0x80 | ((cp >> 6) & 0x3f)));
		add_byte(lx, (unsigned char)(0x80 | (cp & 0x3f)));
	}
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Decode one escape of $'...' at lx->s[lx->pos] (just past the \). */
static void ansi_escape(struct lexer *lx)
{
	static const char from[] = "abeEfnrtv\\'\"?";
	static const char to[] = "\a\b\033\033\f\n\r\t\v\\'\"?";
	const char *s = lx->s;
	char c = s[lx->pos++];
	const char *p = strchr(from, c);
	unsigned long v = 0;
	int i, max, d;

	if (c && p) {
		add_byte(lx, (unsigned char)to[p - from]);
	} else if (c >= '0' && c <= '7') {
		v = (unsigned long)(c - '0');
		for (i = 1; i < 3 && lx->pos < lx->len && s[lx->pos] >= '0' &&
			    s[lx->pos] <= '7'; i++)
			v = v * 8 + (unsigned long)(s[lx->pos++] - '0');
		add_byte(lx, (unsigned char)v);
	} else if (c == 'x' || c == 'u' || c == 'U') {
		max = c == 'x' ? 2 : c == 'u' ? 4 : 8;
		for (i = 0; i < max && lx->pos < lx->len &&
			    (d = hexval(s[lx->pos])) >= 0; i++, lx->pos++)
			v = v * 16 + (unsigned long)d;
		if (!i) {
			add_byte(lx, '\\');
			add_byte(lx, (unsigned char)c);
		} else if (c == 'x') {
			add_byte(lx, (unsigned char)v);
		} else {
			add_utf8(lx, v > 0x10ffff ? 0xfffd : v);
		}
	} else if (c == 'c' && lx->pos < lx->len) {
		add_byte(lx, (unsigned char)(s[lx->pos++] & 0x1f));
	} else {
		add_byte(lx, '\\');
		add_byte(lx, (unsigned char)c);
	}
}

/* $'...' from lx->pos at the opening quote. */
static int ansi_string(struct lexer *lx)
{
	mark_quoted(lx);
	for (lx->pos++; lx->pos < lx->len; ) {
		char c = lx->s[lx->pos++];

		if (c == '\'')
			return 0;
		if (c == '\\' && lx->pos < lx->len)
			ansi_escape(lx);
		else
			add_byte(lx, (unsigned char)c);
	}
	return fail(lx, "unterminated $'...'");
}

/* Append the raw bytes S[FROM..TO) as a placeholder of an expansion. */
static void add_raw(struct lexer *lx, size_t from, size_t to)
{
	for (; from < to; from++)
		add_byte(lx, (unsigned char)lx->s[from]);
}

static int double_quoted(struct lexer *lx);

/*
 * A $ at lx->pos, unquoted or (IN_DQ) inside double quotes.  Leaves
 * lx->pos past what it consumed.
 */
static int dollar(struct lexer *lx, int in_dq)
{
	const char *s = lx->s;
	size_t at = lx->pos, end;
	char n = at + 1 < lx->len ? s[at + 1] : '\0';

	if (n == '(' || n == '{') {
		end = skip_balanced(s, lx->len, at + 1, n, n == '(' ? ')' : '}');
		if (!end)
			return fail(lx, n == '(' ? "unterminated $(...)"
						 : "unterminated ${...}");
		if (n == '(' && at + 2 < lx->len && s[at + 2] != '(') {
			add_sub(lx, s + at + 2, end - at - 3);
			lx->wflags |= SC_SW_SUBST;
		} else {
			lx->wflags |= SC_SW_EXPAND |
				      scan_expansions(lx, s + at + 2, end - at - 3);
		}
		add_raw(lx, at, end);
		lx->pos = end;
		return 0;
	}
	if (!in_dq && n == '\'') {
		lx->pos++;
		return ansi_string(lx);
	}
	if (!in_dq && n == '"') {
		lx->pos++;
		return double_quoted(lx);
	}
	if (n && (sc_sw_is_name(&n, 1) || strchr("0123456789@*#?$!-", n))) {
		end = at + 2;
		if (sc_sw_is_name(&n, 1))
			while (end < lx->len &&
			       (sc_sw_is_name(s + end, 1) ||
				(s[end] >= '0' && s[end] <= '9')))
				end++;
		lx->wflags |= SC_SW_EXPAND;
		add_raw(lx, at, end);
		lx->pos = end;
		return 0;
	}
	add_byte(lx, '$');
	lx->pos++;
	return 0;
}

static int backtick(struct lexer *lx)
{
	size_t end = skip_backtick(lx->s, lx->len, lx->pos);

	if (!end)
		return fail(lx, "unterminated backtick");
	add_backtick_sub(lx, lx->pos + 1, end);
	lx->wflags |= SC_SW_SUBST;
	add_raw(lx, lx->pos, end + 1);
	lx->pos = end + 1;
	return 0;
}

/* "..." from lx->pos at the opening quote. */
static int double_quoted(struct lexer *lx)
{
	mark_quoted(lx);
	for (lx->pos++; lx->pos < lx->len; ) {
		char c = lx->s[lx->pos];

		if (c == '"') {
			lx->pos++;
			return 0;
		}
		if (c == '\\' && lx->pos + 1 < lx->len &&
		    strchr("$`\"\\\n", lx->s[lx->pos + 1])) {
			if (lx->s[lx->pos + 1] != '\n')
				add_byte(lx, (unsigned char)lx->s[lx->pos + 1]);
			lx->pos += 2;
		} else if (c == '$') {
			if (dollar(lx, 1) < 0)
				return -1;
		} else if (c == '`') {
			if (backtick(lx) < 0)
				return -1;
		} else {
			add_byte(lx, (unsigned char)c);
			lx->pos++;
		}
	}
	return fail(lx, "unterminated double quote");
}

static int reserved_dropped(const char *w)
{
	static const char *const words[] = {
		"if", "then", "else", "elif", "fi", "do", "done", "while",
		"until", "!", "{", "}", NULL,
	};

	return sc_str_in_list(w, words);
}

static int reserved_opaque(const char *w)
{
	static const char *const words[] = {
		"for", "case", "select", "function", "[[", "]]", "((", "coproc",
		"esac", "in", NULL,
	};

	return sc_str_in_list(w, words);
}

static struct sc_sw_word take_word(struct lexer *lx)
{
	struct sc_sw_word w;

	if (lx->wflags & SW_BRACE) {
		const char *b = strchr(lx->word.data, '{');
		const char *e = b ? strchr(b, '}') : NULL;

		if (e && (memchr(b, ',', (size_t)(e - b)) ||
			  strstr(b, "..")))
			lx->wflags |= SC_SW_GLOB;
		lx->wflags &= ~SW_BRACE;
	}

	w.len = lx->word.len;
	w.s = sc_buf_detach(&lx->word, NULL);
	w.flags = lx->wflags;
	lx->wflags = 0;
	lx->in_word = 0;
	return w;
}

/* NAME=... with the name and the = unquoted. */
static int is_assignment(struct lexer *lx)
{
	const char *w = lx->word.data;
	const char *eq = w ? memchr(w, '=', lx->word.len) : NULL;
	size_t n;

	if (!eq)
		return 0;
	n = (size_t)(eq - w);
	if (n && w[n - 1] == '+')
		n--;
	if ((lx->wflags & SC_SW_QUOTED) && lx->first_quote <= (size_t)(eq - w))
		return 0;
	return sc_sw_is_name(w, n);
}

static void start_heredoc(struct lexer *lx, const struct sc_sw_redir *r,
			  int strip)
{
	struct heredoc_wait *h;

	SC_ALLOC_GROW(lx->waits, lx->nr_waits + 1, lx->alloc_waits);
	h = &lx->waits[lx->nr_waits++];
	h->cmd = lx->line->nr_cmds;
	h->delim = sc_xstrdup(r->target.s);
	h->quoted = !!(r->target.flags & SC_SW_QUOTED);
	h->strip_tabs = strip;
}

static int finish_word(struct lexer *lx)
{
	struct sc_sw_cmd *c = &lx->cur;
	struct sc_sw_word w;

	if (!lx->in_word)
		return 0;
	if (lx->redir_pending) {
		struct sc_sw_redir *r = &c->redirs[c->nr_redirs - 1];

		lx->redir_pending = 0;
		r->target = take_word(lx);
		if (r->op == SC_RD_HEREDOC)
			start_heredoc(lx, r, r->fd == -2);
		if (r->fd == -2)
			r->fd = -1;
		return 0;
	}
	if (!c->nr_words && is_assignment(lx)) {
		SC_ALLOC_GROW(c->assigns, c->nr_assigns + 1, c->alloc_assigns);
		c->assigns[c->nr_assigns++] = take_word(lx);
		return 0;
	}
	if (!c->nr_words && !c->nr_assigns && lx->word.data &&
	    !(lx->wflags & SC_SW_QUOTED)) {
		if (reserved_dropped(lx->word.data)) {
			sc_buf_reset(&lx->word);
			lx->wflags = 0;
			lx->in_word = 0;
			return 0;
		}
		if (reserved_opaque(lx->word.data))
			lx->line->flags |= SC_SWL_OPAQUE;
	}
	w = take_word(lx);
	SC_ALLOC_GROW(c->words, c->nr_words + 1, c->alloc_words);
	c->words[c->nr_words++] = w;
	return 0;
}

static int end_cmd(struct lexer *lx, unsigned flags, int needs_next)
{
	struct sc_sw_cmd *c = &lx->cur;
	struct sc_sw_line *l = lx->line;

	if (finish_word(lx) < 0)
		return -1;
	if (lx->redir_pending)
		return fail(lx, "redirection without a target");
	if (c->nr_words || c->nr_assigns || c->nr_redirs) {
		c->flags |= flags;
		SC_ALLOC_GROW(l->cmds, l->nr_cmds + 1, l->alloc_cmds);
		l->cmds[l->nr_cmds++] = *c;
		memset(c, 0, sizeof(*c));
		lx->need_cmd = 0;
	} else if (needs_next && lx->need_cmd) {
		return fail(lx, "an operator without a command");
	}
	if (needs_next)
		lx->need_cmd = 1;
	return 0;
}

/* Read the bodies of the heredocs started on the line that just ended. */
static int read_heredocs(struct lexer *lx)
{
	size_t i;

	for (i = 0; i < lx->nr_waits; i++) {
		struct heredoc_wait *h = &lx->waits[i];
		struct sc_buf body = SC_BUF_INIT;
		int found = 0;

		while (lx->pos < lx->len && !found) {
			const char *ln = lx->s + lx->pos;
			const char *nl = memchr(ln, '\n', lx->len - lx->pos);
			size_t n = nl ? (size_t)(nl - ln) : lx->len - lx->pos;

			lx->pos += n + (nl ? 1 : 0);
			while (h->strip_tabs && n && *ln == '\t') {
				ln++;
				n--;
			}
			if (n == strlen(h->delim) && !memcmp(ln, h->delim, n))
				found = 1;
			else {
				sc_buf_add(&body, ln, n);
				sc_buf_addch(&body, '\n');
			}
		}
		if (h->cmd < lx->line->nr_cmds) {
			struct sc_sw_cmd *c = &lx->line->cmds[h->cmd];
			size_t old = c->heredoc ? strlen(c->heredoc) : 0;

			c->heredoc = sc_xrealloc(c->heredoc,
						 sc_st_add(old, body.len + 1));
			memcpy(c->heredoc + old, body.data ? body.data : "",
			       body.len + 1);
			c->flags |= SC_SWC_HEREDOC;
			if (!h->quoted) {
				c->flags |= SC_SWC_HEREDOC_EXPAND;
				scan_expansions(lx, body.data ? body.data : "",
						body.len);
			}
		}
		sc_buf_release(&body);
		free(h->delim);
		if (!found) {
			for (i++; i < lx->nr_waits; i++)
				free(lx->waits[i].delim);
			lx->nr_waits = 0;
			return fail(lx, "heredoc without its delimiter");
		}
	}
	lx->nr_waits = 0;
	return 0;
}

/* A word of only digits, unquoted: a descriptor before < or >. */
static int word_is_fd(struct lexer *lx, int *fd)
{
	size_t i;
	long v = 0;

	if (!lx->in_word || (lx->wflags & ~0u) || !lx->word.len ||
	    lx->word.len > 4)
		return 0;
	for (i = 0; i < lx->word.len; i++) {
		if (lx->word.data[i] < '0' || lx->word.data[i] > '9')
			return 0;
		v = v * 10 + (lx->word.data[i] - '0');
	}
	*fd = (int)v;
	return 1;
}

static int push_redir(struct lexer *lx, enum sc_sw_redir_op op, int fd)
{
	struct sc_sw_cmd *c = &lx->cur;

	if (lx->redir_pending)
		return fail(lx, "redirection without a target");
	SC_ALLOC_GROW(c->redirs, c->nr_redirs + 1, c->alloc_redirs);
	memset(&c->redirs[c->nr_redirs], 0, sizeof(c->redirs[0]));
	c->redirs[c->nr_redirs].op = op;
	c->redirs[c->nr_redirs].fd = fd;
	c->nr_redirs++;
	lx->redir_pending = 1;
	return 0;
}

/* A < or > at lx->pos that is not a process substitution. */
static int redirection(struct lexer *lx)
{
	const char *s = lx->s + lx->pos;
	size_t left = lx->len - lx->pos;
	enum sc_sw_redir_op op;
	int fd = -1, strip = 0;
	size_t n = 1;

	if (word_is_fd(lx, &fd)) {
		sc_buf_reset(&lx->word);
		lx->in_word = 0;
	} else {
		if (lx->in_word && lx->word.len > 2 && lx->word.data[0] == '{' &&
		    lx->word.data[lx->word.len - 1] == '}')
			lx->line->flags |= SC_SWL_OPAQUE;   /* {fd}> */
		if (finish_word(lx) < 0)
			return -1;
	}
	if (s[0] == '<') {
		if (left > 2 && s[1] == '<' && s[2] == '<') {
			op = SC_RD_HERESTR;
			n = 3;
		} else if (left > 1 && s[1] == '<') {
			op = SC_RD_HEREDOC;
			n = 2;
			if (left > 2 && s[2] == '-') {
				strip = 1;
				n = 3;
			}
		} else if (left > 1 && s[1] == '>') {
			op = SC_RD_RDWR;
			n = 2;
		} else if (left > 1 && s[1] == '&') {
			op = SC_RD_DUP_IN;
			n = 2;
		} else {
			op = SC_RD_IN;
		}
	} else {
		if (left > 1 && s[1] == '>') {
			op = SC_RD_APPEND;
			n = 2;
		} else if (left > 1 && s[1] == '|') {
			op = SC_RD_CLOBBER;
			n = 2;
		} else if (left > 1 && s[1] == '&') {
			op = SC_RD_DUP_OUT;
			n = 2;
		} else {
			op = SC_RD_OUT;
		}
	}
	lx->pos += n;
	/* fd -2 marks <<- until the delimiter arrives */
	return push_redir(lx, op, strip ? -2 : fd);
}

/* <(...) or >(...) at lx->pos: a substitution inside a word. */
static int process_subst(struct lexer *lx)
{
	size_t end = skip_balanced(lx->s, lx->len, lx->pos + 1, '(', ')');

	if (!end)
		return fail(lx, "unterminated process substitution");
	add_sub(lx, lx->s + lx->pos + 2, end - lx->pos - 3);
	lx->wflags |= SC_SW_SUBST;
	add_raw(lx, lx->pos, end);
	lx->pos = end;
	return 0;
}

static int open_paren(struct lexer *lx)
{
	int at_start = !lx->in_word && !lx->cur.nr_words &&
		       !lx->cur.nr_assigns && !lx->cur.nr_redirs;

	/* a(, f() { ...; }, arr=(...), ((...)): not modelled, but the
	 * words around them still become parts */
	if (!at_start || (lx->pos + 1 < lx->len && lx->s[lx->pos + 1] == '('))
		lx->line->flags |= SC_SWL_OPAQUE;
	if (end_cmd(lx, 0, 0) < 0)
		return -1;
	lx->need_cmd = 0;
	lx->depth++;
	lx->pos++;
	return 0;
}

static int close_paren(struct lexer *lx)
{
	if (end_cmd(lx, 0, 0) < 0)
		return -1;
	if (--lx->depth < 0) {
		lx->line->flags |= SC_SWL_OPAQUE;   /* case patterns */
		lx->depth = 0;
	}
	lx->pos++;
	return 0;
}

/* & | ; and their doubles at lx->pos. */
static int control_op(struct lexer *lx)
{
	const char *s = lx->s + lx->pos;
	char n = lx->pos + 1 < lx->len ? s[1] : '\0';

	if (s[0] == '&' && n == '>') {
		int append = lx->pos + 2 < lx->len && s[2] == '>';

		if (finish_word(lx) < 0)
			return -1;
		lx->pos += append ? 3 : 2;
		return push_redir(lx, append ? SC_RD_APPEND_ERR : SC_RD_OUT_ERR,
				  -1);
	}
	if (s[0] == '&' && n != '&') {
		lx->pos++;
		return end_cmd(lx, SC_SWC_BACKGROUND, 0);
	}
	if (s[0] == ';') {
		if (n == ';' || n == '&')
			lx->line->flags |= SC_SWL_OPAQUE;   /* case arms */
		lx->pos += (n == ';' || n == '&') ? 2 : 1;
		if (lx->need_cmd && !lx->cur.nr_words && !lx->in_word &&
		    !lx->cur.nr_assigns && !lx->cur.nr_redirs)
			return fail(lx, "an operator without a command");
		return end_cmd(lx, 0, 0);
	}
	/* && || | |& */
	lx->pos += (n == s[0] || (s[0] == '|' && n == '&')) ? 2 : 1;
	if (!lx->cur.nr_words && !lx->in_word && !lx->cur.nr_assigns &&
	    !lx->cur.nr_redirs)
		return fail(lx, "an operator without a command");
	return end_cmd(lx, s[0] == '|' && n != '|' ? SC_SWC_PIPE : 0, 1);
}

static int plain_char(struct lexer *lx, unsigned char c)
{
	if (c == '*' || c == '?' || c == '[')
		lx->wflags |= SC_SW_GLOB;
	if (c == '{')
		lx->wflags |= SW_BRACE;
	if (c == '~' && !lx->in_word)
		lx->wflags |= SC_SW_TILDE;
	add_byte(lx, c);
	lx->pos++;
	return 0;
}

static int backslash(struct lexer *lx)
{
	if (lx->pos + 1 >= lx->len)
		return fail(lx, "a backslash at the end of the line");
	if (lx->s[lx->pos + 1] == '\n') {
		lx->pos += 2;   /* line continuation */
		return 0;
	}
	mark_quoted(lx);
	add_byte(lx, (unsigned char)lx->s[lx->pos + 1]);
	lx->pos += 2;
	return 0;
}

static int single_quoted(struct lexer *lx)
{
	const char *q = memchr(lx->s + lx->pos + 1, '\'', lx->len - lx->pos - 1);

	if (!q)
		return fail(lx, "unterminated single quote");
	mark_quoted(lx);
	add_raw(lx, lx->pos + 1, (size_t)(q - lx->s));
	lx->pos = (size_t)(q - lx->s) + 1;
	return 0;
}

static int lex_one(struct lexer *lx)
{
	unsigned char c = (unsigned char)lx->s[lx->pos];
	char n = lx->pos + 1 < lx->len ? lx->s[lx->pos + 1] : '\0';

	switch (c) {
	case ' ':
	case '\t':
		lx->pos++;
		return finish_word(lx);
	case '\n':
		lx->pos++;
		if (end_cmd(lx, 0, 0) < 0)
			return -1;
		return read_heredocs(lx);
	case '#':
		if (lx->in_word)
			return plain_char(lx, c);
		while (lx->pos < lx->len && lx->s[lx->pos] != '\n')
			lx->pos++;
		return 0;
	case '&':
	case '|':
	case ';':
		return control_op(lx);
	case '(':
		return open_paren(lx);
	case ')':
		return close_paren(lx);
	case '<':
	case '>':
		if (n == '(')
			return process_subst(lx);
		return redirection(lx);
	case '\\':
		return backslash(lx);
	case '\'':
		return single_quoted(lx);
	case '"':
		return double_quoted(lx);
	case '$':
		return dollar(lx, 0);
	case '`':
		return backtick(lx);
	case '\0':
		return fail(lx, "a NUL byte in the line");
	default:
		return plain_char(lx, c);
	}
}

int sc_sw_parse(const char *s, size_t len, struct sc_sw_line *line)
{
	struct lexer lx;
	int ret = 0;
	size_t i;

	memset(&lx, 0, sizeof(lx));
	lx.s = s;
	lx.len = len;
	lx.line = line;
	while (lx.pos < len && !ret)
		ret = lex_one(&lx);
	if (!ret)
		ret = end_cmd(&lx, 0, 0);
	if (!ret && lx.need_cmd)
		ret = fail(&lx, "an operator without a command");
	if (!ret && lx.nr_waits)
		ret = fail(&lx, "heredoc without its body");
	if (!ret && lx.depth)
		ret = fail(&lx, "unbalanced parentheses");
	if (ret) {
		/* keep what was seen, so a caller can still find denials */
		const char *err = line->error;
		size_t at = line->error_at;

		if (lx.redir_pending && !lx.in_word) {
			lx.cur.redirs[lx.cur.nr_redirs - 1].target.s =
				sc_xstrdup("");
			lx.redir_pending = 0;
		}
		lx.need_cmd = 0;
		end_cmd(&lx, 0, 0);
		line->error = err;
		line->error_at = at;
	}
	cmd_release(&lx.cur);
	sc_buf_release(&lx.word);
	for (i = 0; i < lx.nr_waits; i++)
		free(lx.waits[i].delim);
	free(lx.waits);
	return ret ? -1 : 0;
}

/* Configuration values: words, quotes and backslashes, nothing else. */
int sc_sw_split(const char *s, char ***words, size_t *nr, const char **error)
{
	struct sc_buf w = SC_BUF_INIT;
	char **out = NULL;
	size_t n = 0, alloc = 0;
	int in_word = 0;

	*error = NULL;
	for (; *s && !*error; s++) {
		if (*s == ' ' || *s == '\t') {
			if (in_word) {
				SC_ALLOC_GROW(out, n + 2, alloc);
				out[n++] = sc_buf_detach(&w, NULL);
				in_word = 0;
			}
			continue;
		}
		in_word = 1;
		if (*s == '\\') {
			if (!s[1])
				*error = "a backslash at the end";
			else
				sc_buf_addch(&w, *++s);
		} else if (*s == '\'') {
			const char *q = strchr(s + 1, '\'');

			if (!q)
				*error = "unterminated single quote";
			else {
				sc_buf_add(&w, s + 1, (size_t)(q - s - 1));
				s = q;
			}
		} else if (*s == '"') {
			for (s++; *s && *s != '"'; s++) {
				if (*s == '\\' && s[1] && strchr("\"\\$`", s[1]))
					s++;
				sc_buf_addch(&w, *s);
			}
			if (!*s) {
				*error = "unterminated double quote";
				s--;
			}
		} else if (strchr(";&|<>()\n\r", *s)) {
			*error = "a shell operator outside quotes";
		} else {
			sc_buf_addch(&w, *s);
		}
	}
	if (in_word && !*error) {
		SC_ALLOC_GROW(out, n + 2, alloc);
		out[n++] = sc_buf_detach(&w, NULL);
	}
	sc_buf_release(&w);
	SC_ALLOC_GROW(out, n + 1, alloc);
	out[n] = NULL;
	*words = out;
	*nr = n;
	if (*error) {
		sc_sw_split_free(out);
		*words = NULL;
		*nr = 0;
		return -1;
	}
	return 0;
}

void sc_sw_split_free(char **words)
{
	size_t i;

	if (!words)
		return;
	for (i = 0; words[i]; i++)
		free(words[i]);
	free(words);
}

void sc_sw_quote(struct sc_buf *out, const char *word, size_t len)
{
	static const char safe[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
				   "qrstuvwxyz0123456789_@%+=:,./-";
	size_t i;
	int plain = len > 0;

	for (i = 0; i < len && plain; i++)
		if (!word[i] || !strchr(safe, word[i]))
			plain = 0;
	if (plain) {
		sc_buf_add(out, word, len);
		return;
	}
	sc_buf_addch(out, '\'');
	for (i = 0; i < len; i++) {
		if (word[i] == '\'')
			sc_buf_adds(out, "'\\''");
		else
			sc_buf_addch(out, word[i]);
	}
	sc_buf_addch(out, '\'');
}
