/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dmaown: what its files share: the exit statuses, the commands and their
 * options (dmaown.c, cmd-*.c), the tracker's files (debugfs.c), the JSON
 * writer (json.c) and the helpers (util.c).
 */
#ifndef DMAOWN_H
#define DMAOWN_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define EXIT_VIOLATIONS	1	/* the tracker or the trace found some */
#define EXIT_USAGE	2	/* usage or environment error */

#define __maybe_unused	__attribute__((unused))

/* The tracker's trace events: tracepoints/dma_owner.h */
#define EVENT_SYSTEM	"dma_owner"
#define EVENT_VIOLATION	"dma_owner_violation"

/* dmaown.c: the global options and the commands' option parser */

extern bool use_json;			/* --json */
extern const char *debugfs;		/* --debugfs DIR */

/* A command's options, and where cmd_getopt() is in parsing them. */
struct cmd_opts {
	const struct option *options;	/* the command's own, {} ended */
	const char *help;		/* what --help prints; NULL: dmaown's */
	bool stop_at_arg;		/* its options end at its first argument */
	bool other;			/* set: it was given another command's */
	int end;			/* set: argv index after the last option */
};

/*
 * The next of a command's options in @argv (argv[0] is the command's
 * name): the val of its entry in o->options, or -1 after the last. It
 * takes the global options itself, prints o->help and exits for --help,
 * and fails for an option no command takes. An option only other commands
 * take sets o->other, for the command to refuse in its own words.
 */
int cmd_getopt(struct cmd_opts *o, int argc, char **argv);

/* The commands, cmd-*.c: argv[0] is the command's name; the exit status. */
int cmd_status(int argc, char **argv);
int cmd_mappings(int argc, char **argv);
int cmd_violations(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_timeline(int argc, char **argv);
extern const struct option status_options[], mappings_options[],
	violations_options[], record_options[], timeline_options[];

/* debugfs.c: the tracker's files */

extern char tracker_dir[];		/* debugfs/dma-owner */

/*
 * Fails with the fix in the message unless the tracker's files can be read:
 * root, debugfs mounted, a kernel with the tracker. Sets tracker_dir.
 */
void need_tracker(void);

struct counter {
	char key[64];
	long long val;
	bool kind;		/* a "violation.<kind>" counter */
};

/* A device whose unknown handles go unreported, and why. */
struct incomplete {
	char device[128];
	char why[64];
};

/* A violation kind and its counter: the "violation.<kind>: N" lines. */
struct kind_count {
	const char *name;
	long long count;
};

struct stats {
	struct counter *counters;	/* in the file's order */
	int ncounters;
	struct kind_count *kinds;	/* the kinds the kernel knows, in order */
	int nkinds;
	struct incomplete *incomplete;
	int nincomplete;
};

void read_stats(struct stats *s);
long long stat_get(const struct stats *s, const char *key);	/* -1: none */
bool known_kind(const struct stats *s, const char *kind);
/* "a, b, c": the kinds, for a message. */
char *kind_list(const struct stats *s);
void free_stats(struct stats *s);

/* The filter file: a device or driver name, or "" for everything. */
char *read_filter(void);

/* One record of the violations log. */
struct report {
	unsigned long long seq;
	double time;		/* seconds since boot */
	char *kind;
	char *caller;		/* the violating call site, %pS */
	char *device;
	char *driver;
	char *handle;		/* "0x" and 16 digits as %pad, or "" */
	char *map_site;		/* first frame of the map stack, or "" */
	char *text;		/* "[SEQ] at TIME s", then the lines for people */
};

/* The records of the log, oldest first; returns how many. */
int read_reports(struct report **out);
void free_reports(struct report *rs, int n);

/* One line of the mappings file. */
struct mapping {
	char device[256];
	char driver[256];
	char handle[64];	/* as the kernel printed it, "0x" and 16 digits */
	unsigned long long size;
	char dir[32];		/* "DMA_FROM_DEVICE" */
	char owner[64];		/* "device", "cpu[0x0-0x800)", "cpu-parts[...)", "cpu+device" */
	unsigned long long age_ms;
	unsigned long long syncs_for_cpu;
	unsigned long long syncs_for_device;
	char *map_site;
};

int read_mappings(struct mapping **out);
void free_mappings(struct mapping *ms, int n);

/* json.c: the JSON writer */

#define JSON_MAX_DEPTH	8

struct json_level {
	bool array;
	bool one_per_line;	/* each element on a line of its own */
	int n;			/* members written so far */
};

struct json {
	FILE *f;
	int depth;
	struct json_level level[JSON_MAX_DEPTH];
};

void json_init(struct json *j, FILE *f);
/*
 * @key names the value inside an object and is ignored inside an array
 * or at the top. json_end() closes the innermost object or array, and
 * ends the line when it closes the outermost.
 */
void json_object(struct json *j, const char *key);
void json_array(struct json *j, const char *key, bool one_per_line);
void json_end(struct json *j);
void json_string(struct json *j, const char *key, const char *v);
void json_int(struct json *j, const char *key, long long v);
void json_uint(struct json *j, const char *key, unsigned long long v);
void json_fixed(struct json *j, const char *key, double v, int decimals);
void json_bool(struct json *j, const char *key, bool v);

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
