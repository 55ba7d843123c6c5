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

/* How sc_spawn_piped went: the step that failed, for the caller's words. */
enum sc_spawn_step {
	SC_SPAWN_OK = 0,
	SC_SPAWN_PIPES,   /* the pipes could not be made */
	SC_SPAWN_FORK,    /* fork failed */
	SC_SPAWN_EXEC,    /* the child could not run ARGV (or enter DIR) */
};

struct sc_piped {
	pid_t pid;        /* the child, a session leader; -1 when not forked */
	int to;           /* its standard input, ours to write */
	int from;         /* its standard output, ours to read */
};

/*
 * Start ARGV (looked up on PATH) as the leader of a session of its own,
 * so that its process group holds all it starts (an agent, an MCP
 * server), talking on two pipes, P->to and P->from; its stderr is ERR
 * (-1 keeps ours), its directory DIR (NULL: ours), its environment ENV
 * (NULL: ours); every other descriptor is closed on exec, and
 * sc_kill_group_on_fatal_signal() names its group.  Returns when the exec
 * is done: SC_SPAWN_OK; or the step that failed, with errno set.  On
 * SC_SPAWN_EXEC P is filled as on success (the caller stops the child
 * and closes the pipes as it would after a run); on the others nothing
 * is left open.
 */
enum sc_spawn_step sc_spawn_piped(char *const argv[], char *const env[],
				  const char *dir, int err, struct sc_piped *p);

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
