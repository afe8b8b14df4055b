// SPDX-License-Identifier: GPL-2.0
/*
 * dmaown: the JSON writer. It places the commas and the nesting and
 * escapes the strings, so that the commands only say what to write.
 *
 * The layout is dmaown's, which scripts and tests read: everything on one
 * line ("key": value, separated by ", "), except arrays opened with
 * one_per_line, whose elements each start a line of their own.
 */
#include <stdio.h>
#include <string.h>

#include "dmaown.h"

static void json_escaped(FILE *f, const char *s)
{
	fputc('"', f);
	for (; s && *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

/* What goes before a value: the separator, and its key inside an object. */
static void json_member(struct json *j, const char *key)
{
	struct json_level *l;

	if (!j->depth)
		return;
	l = &j->level[j->depth - 1];
	if (l->one_per_line)
		fputs(l->n ? ",\n " : "\n ", j->f);
	else if (l->n)
		fputs(", ", j->f);
	l->n++;
	if (!l->array) {
		json_escaped(j->f, key);
		fputs(": ", j->f);
	}
}

static void json_open(struct json *j, const char *key, char c, bool array,
		      bool one_per_line)
{
	if (j->depth == JSON_MAX_DEPTH)
		fail("JSON nested too deep (a bug)");
	json_member(j, key);
	fputc(c, j->f);
	j->level[j->depth++] = (struct json_level){
		.array = array,
		.one_per_line = one_per_line,
	};
}

void json_init(struct json *j, FILE *f)
{
	memset(j, 0, sizeof(*j));
	j->f = f;
}

void json_object(struct json *j, const char *key)
{
	json_open(j, key, '{', false, false);
}

void json_array(struct json *j, const char *key, bool one_per_line)
{
	json_open(j, key, '[', true, one_per_line);
}

void json_end(struct json *j)
{
	struct json_level *l;

	if (!j->depth)
		fail("JSON closed more often than opened (a bug)");
	l = &j->level[--j->depth];
	if (l->one_per_line && l->n)
		fputc('\n', j->f);
	fputc(l->array ? ']' : '}', j->f);
	/* A document per line: --follow prints one after another. */
	if (!j->depth)
		fputc('\n', j->f);
}

void json_string(struct json *j, const char *key, const char *v)
{
	json_member(j, key);
	json_escaped(j->f, v);
}

void json_int(struct json *j, const char *key, long long v)
{
	json_member(j, key);
	fprintf(j->f, "%lld", v);
}

void json_uint(struct json *j, const char *key, unsigned long long v)
{
	json_member(j, key);
	fprintf(j->f, "%llu", v);
}

void json_fixed(struct json *j, const char *key, double v, int decimals)
{
	json_member(j, key);
	fprintf(j->f, "%.*f", decimals, v);
}

void json_bool(struct json *j, const char *key, bool v)
{
	json_member(j, key);
	fputs(v ? "true" : "false", j->f);
}
