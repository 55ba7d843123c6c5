#ifndef SC_JSONSTR_H
#define SC_JSONSTR_H

/*
 * Bytes as a JSON string, for every JSON a tool sends (to a model
 * provider, an agent, an MCP server): JSON strings are UTF-8, the bytes a
 * tool holds (a file's, a command's output) need not be.
 */

#include <stddef.h>

#include <jansson.h>

/* U+FFFD REPLACEMENT CHARACTER, the standard stand-in for a bad byte. */
#define SC_JSON_FFFD "\xef\xbf\xbd"

/*
 * A JSON string of LEN bytes at S (NULs kept; new reference, never NULL).
 * Each byte that does not begin a valid UTF-8 sequence (overlong forms,
 * surrogates and values past U+10FFFF are not valid) becomes BAD, a
 * valid UTF-8 text: SC_JSON_FFFD, or "?" where a caller's output has
 * always held that.  Valid sequences are kept as they are.
 */
json_t *sc_json_string(const char *s, size_t len, const char *bad);

#endif
