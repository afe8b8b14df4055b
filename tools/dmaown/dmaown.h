/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dmaown: what its files share: exit statuses and the helpers of util.c.
 */
#ifndef DMAOWN_H
#define DMAOWN_H

#include <stddef.h>

#define EXIT_VIOLATIONS	1	/* the tracker or the trace found some */
#define EXIT_USAGE	2	/* usage or environment error */

/* util.c */

/* "dmaown: " and the message on stderr, then exit(EXIT_USAGE). */
void __attribute__((noreturn, format(printf, 1, 2))) fail(const char *fmt, ...);
/* Like fail(), with a pointer to --help: the command line was wrong. */
void __attribute__((noreturn, format(printf, 1, 2))) bad_usage(const char *fmt, ...);
/* They fail() when out of memory; xmalloc() zeroes. */
void *xmalloc(size_t n);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);		/* NULL gives "" */
char *xstrndup(const char *s, size_t n);
char *__attribute__((format(printf, 1, 2))) xasprintf(const char *fmt, ...);
/* The whole file, NUL-terminated; fail()s if it cannot be read. */
char *slurp(const char *path);
/* The next line of *@p, which it NUL-terminates in place; NULL at the end. */
char *next_line(char **p);

#endif /* DMAOWN_H */
