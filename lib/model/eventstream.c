/*
 * The AWS event stream encoding, read incrementally.  See eventstream.h.
 */
#include <string.h>

#include "eventstream.h"

uint32_t sc_crc32(uint32_t crc, const void *data, size_t len)
{
	const unsigned char *p = data;
	size_t i;
	int k;

	crc = ~crc;
	for (i = 0; i < len; i++) {
		crc ^= p[i];
		for (k = 0; k < 8; k++)
			crc = (crc >> 1) ^ (0xEDB88320u & (0u - (crc & 1u)));
	}
	return ~crc;
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

void sc_es_init(struct sc_es *e, sc_es_message_fn fn, void *ctx)
{
	memset(e, 0, sizeof(*e));
	sc_buf_init(&e->buf);
	e->fn = fn;
	e->ctx = ctx;
}

void sc_es_release(struct sc_es *e)
{
	sc_buf_release(&e->buf);
}

void sc_es_reset(struct sc_es *e)
{
	sc_buf_reset(&e->buf);
	e->why = NULL;
}

int sc_es_idle(const struct sc_es *e)
{
	return e->buf.len == 0;
}

/* The size of a fixed-size header value of TYPE; -1 for variable ones. */
static int fixed_size(unsigned type)
{
	static const int sizes[] = { 0, 0, 1, 2, 4, 8, -1, -1, 8, 16 };

	return type < sizeof(sizes) / sizeof(sizes[0]) ? sizes[type] : -2;
}

static void copy_str(char *dst, size_t dstsz, const unsigned char *s,
		     size_t n)
{
	if (n >= dstsz)
		n = dstsz - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

/* Parse the headers block H (N bytes) into M. */
static int parse_headers(const unsigned char *h, size_t n,
			 struct sc_es_message *m, const char **why)
{
	size_t i = 0;

	while (i < n) {
		size_t nl = h[i++], vl;
		const unsigned char *name = h + i;
		unsigned type;
		int fs;

		if (!nl || i + nl + 1 > n) {
			*why = "a header runs past its block";
			return -1;
		}
		i += nl;
		type = h[i++];
		fs = fixed_size(type);
		if (fs == -2) {
			*why = "a header has an unknown value type";
			return -1;
		}
		if (fs >= 0) {
			vl = (size_t)fs;
		} else {
			if (i + 2 > n) {
				*why = "a header runs past its block";
				return -1;
			}
			vl = (size_t)h[i] << 8 | h[i + 1];
			i += 2;
		}
		if (i + vl > n) {
			*why = "a header runs past its block";
			return -1;
		}
		if (type == 7) {
			if (nl == 13 && !memcmp(name, ":message-type", 13))
				copy_str(m->message_type, sizeof(m->message_type),
					 h + i, vl);
			else if ((nl == 11 && !memcmp(name, ":event-type", 11)) ||
				 (nl == 15 && !memcmp(name, ":exception-type", 15)))
				copy_str(m->event_type, sizeof(m->event_type),
					 h + i, vl);
		}
		i += vl;
	}
	return 0;
}

/* One whole message of LEN bytes at P (its CRCs not yet checked). */
static int take_message(struct sc_es *e, const unsigned char *p, size_t len)
{
	struct sc_es_message m;
	uint32_t hlen = be32(p + 4);

	memset(&m, 0, sizeof(m));
	if (sc_crc32(0, p, 8) != be32(p + 8)) {
		e->why = "a message's prelude CRC does not match";
		return -1;
	}
	if (sc_crc32(0, p, len - 4) != be32(p + len - 4)) {
		e->why = "a message's CRC does not match";
		return -1;
	}
	if ((size_t)hlen > len - 16) {
		e->why = "a message's headers run past it";
		return -1;
	}
	if (parse_headers(p + 12, hlen, &m, &e->why) < 0)
		return -1;
	m.payload = p + 12 + hlen;
	m.payload_len = len - 16 - hlen;
	return e->fn(e->ctx, &m);
}

int sc_es_feed(struct sc_es *e, const void *data, size_t len)
{
	const unsigned char *in = data;

	while (len) {
		size_t want = 12, take;
		int ret;

		if (e->buf.len >= 12) {
			want = be32((const unsigned char *)e->buf.data);
			if (want < 16 || want > SC_EVENTSTREAM_MESSAGE_MAX) {
				e->why = "a message's length is out of bounds";
				return -1;
			}
		}
		take = want - e->buf.len < len ? want - e->buf.len : len;
		sc_buf_add(&e->buf, in, take);
		in += take;
		len -= take;
		if (e->buf.len < 12 || e->buf.len < want ||
		    (want == 12 && e->buf.len == 12))
			continue;
		ret = take_message(e, (const unsigned char *)e->buf.data,
				   e->buf.len);
		sc_buf_reset(&e->buf);
		if (ret)
			return ret;
	}
	return 0;
}
