// SPDX-License-Identifier: GPL-2.0
/*
 * dmaown: the helpers every command needs: leaving with a message, memory
 * that cannot fail, reading a whole file and taking it line by line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmaown.h"

static void vmessage(const char *fmt, va_list ap)
{
	fputs("dmaown: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
	exit(EXIT_USAGE);
}

void bad_usage(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage(fmt, ap);
	va_end(ap);
	fputs("run 'dmaown --help' for the commands and their options\n", stderr);
	exit(EXIT_USAGE);
}

void *xmalloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);

	if (!p)
		fail("out of memory");
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		fail("out of memory");
	return p;
}

char *xstrdup(const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d)
		fail("out of memory");
	return d;
}

char *xstrndup(const char *s, size_t n)
{
	char *d = strndup(s, n);

	if (!d)
		fail("out of memory");
	return d;
}

char *xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int ret;

	va_start(ap, fmt);
	ret = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (ret < 0)
		fail("out of memory");
	return s;
}

/*
 * The whole of a file, NUL-terminated. debugfs files have no size, so it
 * reads until the end instead of asking stat().
 */
char *read_whole_file(const char *path, size_t *len)
{
	size_t cap = 65536, n;
	char *buf;
	FILE *f;
	int err;

	*len = 0;
	f = fopen(path, "r");
	if (!f)
		return NULL;
	buf = xmalloc(cap);
	while ((n = fread(buf + *len, 1, cap - *len - 1, f)) > 0) {
		*len += n;
		if (cap - *len < 4096)
			buf = xrealloc(buf, cap *= 2);
	}
	err = ferror(f) ? errno : 0;
	fclose(f);
	if (err) {
		free(buf);
		errno = err;
		return NULL;
	}
	buf[*len] = 0;
	return buf;
}

char *slurp(const char *path)
{
	size_t len;
	char *buf = read_whole_file(path, &len);

	if (!buf)
		fail("cannot read %s: %s", path, strerror(errno));
	return buf;
}

char *next_line(char **p)
{
	char *s = *p, *nl;

	if (!s || !*s)
		return NULL;
	nl = strchr(s, '\n');
	if (nl) {
		*nl = 0;
		*p = nl + 1;
	} else {
		*p = s + strlen(s);
	}
	return s;
}
