#include "bytes.h"

int sc_bytes_take(struct sc_bytes *b, size_t n, const unsigned char **out)
{
	if (b->len < n)
		return -1;
	if (out)
		*out = b->p;
	b->p += n;
	b->len -= n;
	return 0;
}

int sc_bytes_uint(struct sc_bytes *b, size_t width, size_t *v)
{
	const unsigned char *p;
	size_t i;

	if (width > sizeof(*v) || sc_bytes_take(b, width, &p) < 0)
		return -1;
	for (*v = 0, i = 0; i < width; i++)
		*v = *v << 8 | p[i];
	return 0;
}

int sc_bytes_vec(struct sc_bytes *b, size_t width, struct sc_bytes *v)
{
	size_t n;

	if (sc_bytes_uint(b, width, &n) < 0 || sc_bytes_take(b, n, &v->p) < 0)
		return -1;
	v->len = n;
	return 0;
}
