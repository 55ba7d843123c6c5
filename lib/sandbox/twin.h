#ifndef SC_TWIN_H
#define SC_TWIN_H

/*
 * sc-sandbox-exec is linked statically: it starts every sandboxed command,
 * and a static executable starts sooner (no dynamic loader, no relocation
 * of libc; measured in sc-sandbox-exec(1), START-UP COST).  A static
 * executable must not use what glibc loads at run time: dlopen (libgit2,
 * for a profile or speccoder.conf) and NSS (the resolver, for --network
 * hosts) would bring the shared libraries of whatever glibc is installed
 * into it.  So those runs go to its twin: the same program linked
 * dynamically, installed as LIBEXECDIR/NAME, that is EXE's
 * directory/../libexec/speccoder/NAME (the build tree has the same layout
 * under build/).  Resolved once into plain options (--print-options,
 * sandboxopts.h), a profile and speccoder.conf need the twin only there.
 *
 * The objects built for the static link are compiled with SC_STATIC_EXE:
 * there lib/gitconfig.c never calls dlopen and lib/sandbox/netproxy.c never calls
 * getaddrinfo, and the link fails on glibc's warning if anything does.
 */

/*
 * Replace this process with NAME's twin, found from EXE (/proc/self/exe),
 * with ARGV and our environment.  Returns only when it cannot: -1 with
 * error[TWIN-MISSING] printed.
 */
int sc_twin_exec(const char *name, const char *exe, char *const argv[]);

#endif
