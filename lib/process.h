#ifndef SC_PROCESS_H
#define SC_PROCESS_H

/*
 * Starting the other tools: a child with chosen standard descriptors, its
 * status in the form a shell reports it, and anonymous files to hold what
 * it wrote.  A driver loop composes tools as processes, not as linked code,
 * so each keeps its own contract (and its own crash).
 */

#include <stddef.h>
#include <sys/types.h>

#include "buf.h"

/*
 * Start ARGV (looked up on PATH) with descriptors IN, OUT and ERR as its
 * 0, 1 and 2 (-1 keeps ours) and, when DIRFD >= 0, that directory as its
 * working directory.  The pid, or -1 with errno set (also when the program
 * cannot be executed).
 */
pid_t sc_spawn(char *const argv[], int in, int out, int err, int dirfd);

/*
 * The same, with FD3 (when >= 0) as the child's descriptor 3: a side
 * channel such as sc-model's --progress-fd 3.
 */
pid_t sc_spawn_fd3(char *const argv[], int in, int out, int err, int fd3,
		   int dirfd);

/*
 * Wait for PID; its exit status, or 128 + the signal that killed it, or -1
 * when waiting failed.
 */
int sc_wait(pid_t pid);

/*
 * Killed by SIGTERM, SIGINT or SIGHUP, the process first kills process
 * group GROUP (a child started in a session of its own: an agent, an MCP
 * server), then dies of that signal.  GROUP 0 forgets it.  One group a
 * process: the handler has no other way to know it.
 */
void sc_kill_group_on_fatal_signal(pid_t group);

/* An anonymous read-write file (memfd), close-on-exec; -1 with errno. */
int sc_anon_file(const char *name);

#endif
