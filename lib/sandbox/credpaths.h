#ifndef SC_CREDPATHS_H
#define SC_CREDPATHS_H

/*
 * The credential paths every sandbox hides by default, relative to a home
 * directory: the Linux tiers (sandbox-plan.c) hide them under $HOME, the
 * user's home in the password database and each --hide-home; the macOS
 * Seatbelt profile (seatbelt.c) under $HOME.  One list, so that both
 * platforms hide the same things; sc-sandbox-exec(1) names each one (a
 * unit test holds the page to this list).  NULL-terminated.
 */
extern const char *const sc_home_credentials[];

#endif
