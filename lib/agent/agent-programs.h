#ifndef SC_AGENT_PROGRAMS_H
#define SC_AGENT_PROGRAMS_H
/*
 * The programs file of sc-agent(1) --programs: records that name the argv
 * of every tool the loop starts (type=classify, sandbox, mask, model,
 * guard, executor, snapshot; type=mcp once a server), each argv= field one
 * argument.  The driver writes it; sc-agent runs exactly what it says, so
 * a record it cannot read whole is refused, never guessed at.
 */
#include "agent.h"
#include "io.h"

/*
 * Read the programs file from IN into P (zeroed by the caller).  0, or -1
 * after a diagnostic: error[BAD-PROGRAMS] when a record names no argv or
 * one holds a NUL, when classify, sandbox or mask is missing, or when
 * neither a model nor an executor is named; the record reader's error
 * when the input is not records.  P holds what was read either way:
 * release it with sc_agent_programs_release.
 */
int sc_agent_programs_read(struct sc_input *in, struct sc_agent_programs *p);

void sc_agent_programs_release(struct sc_agent_programs *p);

#endif
