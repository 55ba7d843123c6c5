/*
 * Server-Sent Events, read incrementally: lines end in LF, CR or CRLF; a
 * blank line dispatches the event.  See sse.h.
 */
#include <string.h>

#include "sse.h"

void sc_sse_init(struct sc_sse *s, sc_sse_event_fn fn, void *ctx)
{
	memset(s, 0, sizeof(*s));
	sc_buf_init(&s->line);
	sc_buf_init(&s->event);
	sc_buf_init(&s->data);
	s->fn = fn;
	s->ctx = ctx;
}

void sc_sse_release(struct sc_sse *s)
{
	sc_buf_release(&s->line);
	sc_buf_release(&s->event);
	sc_buf_release(&s->data);
}

void sc_sse_reset(struct sc_sse *s)
{
	sc_buf_reset(&s->line);
	sc_buf_reset(&s->event);
	sc_buf_reset(&s->data);
	s->has_data = 0;
	s->cr = 0;
}

int sc_sse_idle(const struct sc_sse *s)
{
	return !s->line.len && !s->has_data && !s->event.len;
}

static int dispatch(struct sc_sse *s)
{
	int ret = 0;

	/* An event without data is no event (the format says so). */
	if (s->has_data)
		ret = s->fn(s->ctx, s->event.data ? s->event.data : "",
			    s->data.data ? s->data.data : "", s->data.len);
	sc_buf_reset(&s->event);
	sc_buf_reset(&s->data);
	s->has_data = 0;
	return ret;
}

/* One complete line (without its end). */
static int take_line(struct sc_sse *s)
{
	const char *l = s->line.data ? s->line.data : "";
	size_t n = s->line.len, name;
	const char *value;
	size_t vlen;

	if (!n)
		return dispatch(s);
	if (l[0] == ':')
		return 0;
	name = strcspn(l, ":");
	if (name > n)
		name = n;
	value = name < n ? l + name + 1 : l + n;
	vlen = name < n ? n - name - 1 : 0;
	if (vlen && value[0] == ' ') {
		value++;
		vlen--;
	}
	if (name == 4 && !memcmp(l, "data", 4)) {
		if (s->has_data)
			sc_buf_addch(&s->data, '\n');
		sc_buf_add(&s->data, value, vlen);
		s->has_data = 1;
	} else if (name == 5 && !memcmp(l, "event", 5)) {
		sc_buf_reset(&s->event);
		sc_buf_add(&s->event, value, vlen);
	}
	return 0;
}

int sc_sse_feed(struct sc_sse *s, const char *data, size_t len)
{
	size_t i;
	int ret;

	for (i = 0; i < len; i++) {
		char c = data[i];

		if (c == '\n' && s->cr) {
			s->cr = 0;   /* the LF of a CRLF */
			continue;
		}
		s->cr = c == '\r';
		if (c == '\n' || c == '\r') {
			ret = take_line(s);
			sc_buf_reset(&s->line);
			if (ret)
				return ret;
			continue;
		}
		if (c == '\0' || s->line.len + s->data.len + s->event.len >=
		    SC_SSE_EVENT_MAX)
			return -1;
		sc_buf_addch(&s->line, c);
	}
	return 0;
}
