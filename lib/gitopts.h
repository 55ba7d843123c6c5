#ifndef SC_GITOPTS_H
#define SC_GITOPTS_H

/*
 * The long options of git's reading subcommands the policy knows (git
 * 2.39).  A reading git command holding another is not fully understood.
 */

#include <stddef.h>

/* 1 when OPT (LEN bytes: "--name", without any "=value") is known. */
int sc_git_option_known(const char *opt, size_t len);

#endif
