#ifndef SC_REPLAY_H
#define SC_REPLAY_H

/*
 * The replay provider: answers from a transcript (sc-model-transcript(5)),
 * so demos and tests need neither network nor key.
 *
 * A transcript is JSON Lines, one record a line in sc-rec(1)'s JSON form;
 * blank lines and lines starting with '#' are skipped.  {"type":"turn"}
 * starts each recorded reply; inside a turn, "expect" records check what
 * was asked and "text", "call", "usage" and "end" records are the reply.
 *
 * sc-model runs once per model turn, so the turn answered is chosen by the
 * conversation itself: the number of assistant runs (text and call records)
 * it already holds.  The expectations of that turn are compared, one for
 * one and in order, with the records that came after the last assistant
 * run; a difference is error[REPLAY-DIVERGED].
 *
 * An attempt gives each task a conversation of its own, so a transcript
 * of several tasks is cut into sections by {"type":"task"} records (the
 * first before any turn): the section answering a conversation is the
 * first whose first turn's expectations its opening records (those before
 * the model's first turn) meet, and the turn is counted within it.
 */

#include <stddef.h>

#include "model.h"
#include "record.h"

/* Transcripts are written by hand or recorded; 64 MiB is far past both. */
#define SC_TRANSCRIPT_MAX ((size_t)64 << 20)

struct sc_turn {
	struct sc_record *recs;
	size_t nr, alloc;
	unsigned long line;    /* where its "turn" record is */
	size_t task;           /* its section, from 1; 0 without sections */
};

struct sc_transcript {
	struct sc_turn *turns;
	size_t nr, alloc;
	size_t tasks;          /* the number of task sections */
};

void sc_transcript_init(struct sc_transcript *t);
void sc_transcript_release(struct sc_transcript *t);

/*
 * Parse LEN bytes at DATA.  -1 with the line number in *LINE and a fixed
 * reason in *WHY when a line is not a record, a record is not one a
 * transcript may hold, or a record lacks a field it needs.
 */
int sc_transcript_parse(const char *data, size_t len, struct sc_transcript *t,
			unsigned long *line, const char **why);

/*
 * Read and parse the file at PATH.  Prints error[TRANSCRIPT] and returns
 * SC_TRANSCRIPT_UNREADABLE when it cannot be read, error[MALFORMED-TRANSCRIPT]
 * and SC_TRANSCRIPT_MALFORMED when it is not a transcript; 0 on success.
 */
enum sc_transcript_status {
	SC_TRANSCRIPT_OK = 0,
	SC_TRANSCRIPT_UNREADABLE = -1,
	SC_TRANSCRIPT_MALFORMED = -2,
};
enum sc_transcript_status sc_transcript_load(const char *path,
					     struct sc_transcript *t);

/*
 * Fill REPLY with the turn of T that answers C.  Prints
 * error[REPLAY-DIVERGED] and returns -1 when C does not match it.
 */
int sc_replay_answer(const struct sc_transcript *t,
		     const struct sc_conversation *c, struct sc_reply *reply);

#endif
