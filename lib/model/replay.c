/*
 * The replay provider: a transcript of recorded replies, checked against
 * the conversation that asks for them.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "alloc.h"
#include "diag.h"
#include "io.h"
#include "opt.h"
#include "recjson.h"
#include "replay.h"

void sc_transcript_init(struct sc_transcript *t)
{
	memset(t, 0, sizeof(*t));
}

void sc_transcript_release(struct sc_transcript *t)
{
	size_t i, j;

	for (i = 0; i < t->nr; i++) {
		for (j = 0; j < t->turns[i].nr; j++)
			sc_record_release(&t->turns[i].recs[j]);
		free(t->turns[i].recs);
	}
	free(t->turns);
	memset(t, 0, sizeof(*t));
}

static int has_str(const struct sc_record *r, const char *name)
{
	return sc_record_str(r, name) != NULL;
}

static int count_ok(const struct sc_record *r, const char *name)
{
	const char *v = sc_record_str(r, name);
	unsigned long long n;

	return !v || sc_parse_uint(v, ~0ULL, &n) == 0;
}

/* The fields each record of a turn needs; NULL when REC is acceptable. */
static const char *check_record(const struct sc_record *rec)
{
	const char *type = sc_record_type(rec);

	if (!strcmp(type, "expect"))
		return has_str(rec, "of") ? NULL : "an expect record needs of=";
	if (!strcmp(type, "text"))
		return sc_record_get(rec, "text") ? NULL :
			"a text record needs text=";
	if (!strcmp(type, "call"))
		return has_str(rec, "id") && has_str(rec, "tool") &&
		       *sc_record_str(rec, "id") && *sc_record_str(rec, "tool") ?
		       NULL : "a call record needs id= and tool=";
	if (!strcmp(type, "usage"))
		return count_ok(rec, "input-tokens") &&
		       count_ok(rec, "output-tokens") &&
		       count_ok(rec, "cache-read-tokens") &&
		       count_ok(rec, "cache-write-tokens") ? NULL :
		       "usage counts must be decimal numbers";
	if (!strcmp(type, "end"))
		return has_str(rec, "reason") ? NULL : "an end record needs reason=";
	return "not a transcript record (task, turn, expect, text, call, usage, "
	       "end)";
}

static int add_line(struct sc_transcript *t, const char *s, size_t n,
		    unsigned long lineno, const char **why)
{
	struct sc_json_error err;
	struct sc_record rec;
	struct sc_turn *turn;

	sc_record_init(&rec);
	if (sc_record_from_json(s, n, &rec, &err)) {
		*why = err.what;
		sc_record_release(&rec);
		return -1;
	}
	if (!strcmp(sc_record_type(&rec), "task")) {
		sc_record_release(&rec);
		if (t->nr && !t->tasks) {
			*why = "a task record after turns outside any task";
			return -1;
		}
		if (t->tasks && (!t->nr || t->turns[t->nr - 1].task != t->tasks)) {
			*why = "a task without a turn";
			return -1;
		}
		t->tasks++;
		return 0;
	}
	if (!strcmp(sc_record_type(&rec), "turn")) {
		SC_ALLOC_GROW(t->turns, t->nr + 1, t->alloc);
		turn = &t->turns[t->nr++];
		memset(turn, 0, sizeof(*turn));
		turn->line = lineno;
		turn->task = t->tasks;
		sc_record_release(&rec);
		return 0;
	}
	*why = t->nr ? check_record(&rec) : "a record before the first turn";
	if (*why) {
		sc_record_release(&rec);
		return -1;
	}
	turn = &t->turns[t->nr - 1];
	SC_ALLOC_GROW(turn->recs, turn->nr + 1, turn->alloc);
	turn->recs[turn->nr++] = rec;   /* the turn owns it now */
	return 0;
}

/* An empty line, white space only, or a '#' comment. */
static int blank(const char *s, size_t n)
{
	size_t i;

	if (n && s[0] == '#')
		return 1;
	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t')
			return 0;
	return 1;
}

int sc_transcript_parse(const char *data, size_t len, struct sc_transcript *t,
			unsigned long *line, const char **why)
{
	size_t pos = 0;

	*line = 0;
	while (pos < len) {
		const char *s = data + pos;
		const char *nl = memchr(s, '\n', len - pos);
		size_t n = nl ? (size_t)(nl - s) : len - pos;

		++*line;
		pos += n + (nl ? 1 : 0);
		if (n && s[n - 1] == '\r')
			n--;
		if (blank(s, n))
			continue;
		if (add_line(t, s, n, *line, why) < 0)
			return -1;
	}
	if (!t->nr) {
		*why = "no turn in the transcript";
		return -1;
	}
	if (t->tasks && t->turns[t->nr - 1].task != t->tasks) {
		*why = "a task without a turn";
		return -1;
	}
	return 0;
}

enum sc_transcript_status sc_transcript_load(const char *path,
					     struct sc_transcript *t)
{
	struct sc_buf data = SC_BUF_INIT;
	const char *why = NULL;
	unsigned long line;
	enum sc_transcript_status ret = SC_TRANSCRIPT_OK;

	if (sc_read_file_or_error(path, SC_TRANSCRIPT_MAX, "TRANSCRIPT",
				  "TRANSCRIPT", &data) < 0) {
		ret = SC_TRANSCRIPT_UNREADABLE;
	} else if (sc_transcript_parse(data.data ? data.data : "", data.len, t,
				       &line, &why) < 0) {
		sc_error("MALFORMED-TRANSCRIPT", "%s: line %lu: %s", path, line, why);
		ret = SC_TRANSCRIPT_MALFORMED;
	}
	sc_buf_release(&data);
	return ret;
}

static int is_assistant(const struct sc_item *it)
{
	return it->kind == SC_ITEM_ASSISTANT || it->kind == SC_ITEM_CALL;
}

/* The turn C is at, and where the records asked about begin. */
static size_t find_turn(const struct sc_conversation *c, size_t *first)
{
	size_t i, runs = 0;

	*first = 0;
	for (i = 0; i < c->items_nr; i++) {
		if (!is_assistant(&c->items[i]))
			continue;
		if (!i || !is_assistant(&c->items[i - 1]))
			runs++;
		*first = i + 1;
	}
	return runs;
}

/* 1 when the conversation record REC meets the expectation EXP. */
static int meets(const struct sc_record *exp, const struct sc_record *rec)
{
	size_t i;

	if (strcmp(sc_record_str(exp, "of"), sc_record_type(rec)))
		return 0;
	for (i = 0; i < exp->nr; i++) {
		const struct sc_field *e = &exp->fields[i];
		const struct sc_field *f;

		if (!strcmp(e->name, "type") || !strcmp(e->name, "of"))
			continue;
		if (!strcmp(e->name, "contains")) {
			f = sc_record_get(rec, "text");
			if (!f || !memmem(f->value, f->value_len, e->value,
					  e->value_len))
				return 0;
			continue;
		}
		f = sc_record_get(rec, e->name);
		if (!f || f->value_len != e->value_len ||
		    memcmp(f->value, e->value, e->value_len))
			return 0;
	}
	return 1;
}

static int check_expect(const struct sc_turn *turn, size_t k,
			const struct sc_conversation *c, size_t first)
{
	size_t i, nexp = 0, at = first;

	for (i = 0; i < turn->nr; i++) {
		const struct sc_record *r = &turn->recs[i];

		if (strcmp(sc_record_type(r), "expect"))
			continue;
		nexp++;
		if (at >= c->items_nr || !meets(r, &c->items[at].rec))
			return sc_error("REPLAY-DIVERGED",
					"turn %zu (line %lu): record %zu of the new "
					"input does not match expectation %zu",
					k + 1, turn->line, at - first + 1, nexp);
		at++;
	}
	if (nexp && at != c->items_nr)
		return sc_error("REPLAY-DIVERGED",
				"turn %zu (line %lu): %zu new input records, "
				"%zu expected", k + 1, turn->line,
				c->items_nr - first, nexp);
	return 0;
}

static void fill_reply(const struct sc_turn *turn, struct sc_reply *reply)
{
	const char *reason = NULL;
	size_t i;

	for (i = 0; i < turn->nr; i++) {
		const struct sc_record *r = &turn->recs[i];
		const char *type = sc_record_type(r);

		if (!strcmp(type, "text")) {
			const struct sc_field *f = sc_record_get(r, "text");

			sc_reply_add_text(reply, f->value, f->value_len);
		} else if (!strcmp(type, "call")) {
			sc_reply_add_call(reply, sc_record_str(r, "id"),
					  sc_record_str(r, "tool"),
					  sc_call_args_from_record(r));
		} else if (!strcmp(type, "usage")) {
			const char *in = sc_record_str(r, "input-tokens");
			const char *out = sc_record_str(r, "output-tokens");
			const char *cr = sc_record_str(r, "cache-read-tokens");
			const char *cw = sc_record_str(r, "cache-write-tokens");

			if (in)
				sc_parse_uint(in, ~0ULL, &reply->input_tokens);
			if (out)
				sc_parse_uint(out, ~0ULL, &reply->output_tokens);
			/* A recorded cache count replays like the others. */
			if (cr)
				sc_parse_uint(cr, ~0ULL, &reply->cache_read_tokens);
			if (cw)
				sc_parse_uint(cw, ~0ULL, &reply->cache_write_tokens);
			reply->has_cache |= cr || cw;
		} else if (!strcmp(type, "end")) {
			reason = sc_record_str(r, "reason");
		}
	}
	sc_reply_set_reason(reply, reason);
}

/* 1 when TURN's expectations meet C's items [FROM, TO) one for one. */
static int opens_like(const struct sc_turn *turn,
		      const struct sc_conversation *c, size_t from, size_t to)
{
	size_t i, at = from;

	for (i = 0; i < turn->nr; i++) {
		const struct sc_record *r = &turn->recs[i];

		if (strcmp(sc_record_type(r), "expect"))
			continue;
		if (at >= to || !meets(r, &c->items[at].rec))
			return 0;
		at++;
	}
	return at == to || at == from;
}

/*
 * The section answering C: the first whose first turn its opening
 * records (before the model's first turn) meet.  Its first turn's index
 * into *START and its number of turns into *NR; -1 (error printed) when
 * none does.
 */
static int find_task(const struct sc_transcript *t,
		     const struct sc_conversation *c, size_t *start, size_t *nr)
{
	size_t open = 0, i, j;

	while (open < c->items_nr && !is_assistant(&c->items[open]))
		open++;
	for (i = 0; i < t->nr; i = j) {
		for (j = i; j < t->nr && t->turns[j].task == t->turns[i].task; j++)
			;
		if (opens_like(&t->turns[i], c, 0, open)) {
			*start = i;
			*nr = j - i;
			return 0;
		}
	}
	return sc_error("REPLAY-DIVERGED", "no task of the transcript opens "
			"as this conversation does");
}

int sc_replay_answer(const struct sc_transcript *t,
		     const struct sc_conversation *c, struct sc_reply *reply)
{
	size_t first, k = find_turn(c, &first), start = 0, nr = t->nr;

	if (t->tasks && find_task(t, c, &start, &nr) < 0)
		return -1;
	if (k >= nr)
		return sc_error("REPLAY-DIVERGED",
				"the conversation is at turn %zu; the transcript%s "
				"holds %zu", k + 1, t->tasks ? "'s task" : "", nr);
	if (check_expect(&t->turns[start + k], start + k, c, first) < 0)
		return -1;
	fill_reply(&t->turns[start + k], reply);
	return 0;
}
