/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dmaown: what its files share: the exit statuses, the commands and their
 * options (dmaown.c, cmd-*.c), the tracker's files (debugfs.c), the saved
 * copies of them (bundle.c), the JSON writer (json.c) and the helpers
 * (util.c).
 */
#ifndef DMAOWN_H
#define DMAOWN_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define EXIT_VIOLATIONS	1	/* the tracker or the trace found some */
#define EXIT_USAGE	2	/* usage or environment error */
#define EXIT_COMMAND_FAILED 3	/* record: the command it ran failed */

/* In --version and in the manifest of the bundles save writes. */
#define DMAOWN_VERSION	"1.1"

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
int cmd_save(int argc, char **argv);
int cmd_clear(int argc, char **argv);
int cmd_filter(int argc, char **argv);
int cmd_ignore(int argc, char **argv);
extern const struct option status_options[], mappings_options[],
	violations_options[], record_options[], timeline_options[],
	save_options[], clear_options[], filter_options[], ignore_options[];

/* bundle.c: the tracker's files saved for reading on another machine */

/*
 * A bundle is laid out as debugfs is, so that --debugfs takes it:
 * DIR/dma-owner/ holds the tracker's files, DIR/manifest says where and
 * when they were saved, DIR/parameters/ holds the tracker's module
 * parameters.
 */
struct bundle {
	char *dir;
	char *kernel;		/* uname -r of the machine it was saved on */
	char *host;
	char *saved;		/* when, ISO 8601 UTC */
};

/* The bundle in @dir, NULL if @dir holds none; fail()s on a broken one. */
struct bundle *open_bundle(const char *dir);
/* Save the tracker (need_live_tracker() done) to the new @dir. */
void save_bundle(const char *dir);

/* debugfs.c: the tracker's files */

/* The tracker's directory in debugfs, and in a bundle. */
#define TRACKER_DIR_NAME	"dma-owner"
/* Its module parameters (the boot parameters dma_owner.*). */
#define TRACKER_PARAMETERS	"/sys/module/dma_owner/parameters"

extern char tracker_dir[];		/* debugfs/dma-owner */
/* Non-NULL: --debugfs named a bundle, not a live tracker. */
extern struct bundle *tracker_bundle;

/*
 * Fails with the fix in the message unless the tracker's files can be read:
 * root, debugfs mounted, a kernel with the tracker; or a bundle that
 * "dmaown save" wrote. Sets tracker_dir and tracker_bundle.
 */
void need_tracker(void);
/* need_tracker(), and fails for a bundle: @command needs a running tracker. */
void need_live_tracker(const char *command);
/* Whether the tracker has the file @name: an older kernel may not. */
bool tracker_has(const char *name);
/*
 * Write @text to the tracker's file @name in one write(), as the kernel
 * takes a write whole or not at all: 0, or the errno it failed with.
 */
int write_tracker(const char *name, const char *text);
/* "Invalid argument (EINVAL)": a refused write's errno, for a message. */
const char *errno_text(int err);

/* One file of a directory of the kernel's, as read whole. */
struct kernel_file {
	char *name;
	char *data;		/* NULL: not read: write-only, or see err */
	size_t len;
	bool write_only;	/* its mode lets nobody read it */
	int err;		/* errno of the read that failed */
};

/* Every regular file of @dir, by name; returns how many, -errno. */
int read_kernel_dir(const char *dir, struct kernel_file **out);
void free_kernel_files(struct kernel_file *fs, int n);

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

/* A rule that silences reports: the "ignore" file, "ignore:" in stats. */
struct ignore_rule {
	char kind[64];		/* a kind, or "*" for every kind */
	char function[128];	/* the function that made the call */
	long long hits;		/* reports it silenced since the last clear */
};

struct stats {
	struct counter *counters;	/* in the file's order, each key once */
	int ncounters;
	struct kind_count *kinds;	/* the kinds the kernel knows, in order */
	int nkinds;
	struct incomplete *incomplete;
	int nincomplete;
	struct ignore_rule *rules;	/* "ignore: KIND:FUNCTION HITS" */
	int nrules;
};

/*
 * stats: "key: N" lines are counters (the first of a key counts), the
 * lines of a list ("incomplete:", "ignore:") go to theirs, and lines dmaown
 * does not know are skipped.
 */
void read_stats(struct stats *s);
long long stat_get(const struct stats *s, const char *key);	/* -1: none */
bool known_kind(const struct stats *s, const char *kind);
/* "a, b, c": the kinds, for a message. */
char *kind_list(const struct stats *s);
void free_stats(struct stats *s);

/* The filter file: a device or driver name, or "" for everything. */
char *read_filter(void);

/*
 * The ignore file, one "KIND:FUNCTION HITS" line per rule; returns how
 * many. fail()s if the kernel has no such file.
 */
int read_ignore_rules(struct ignore_rule **out);
/* "KIND:FUNCTION" into @r: false if it is not that. */
bool parse_ignore_rule(const char *token, struct ignore_rule *r);

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

/* cmd-ignore.c: the ignore rules, as "ignore" and "status" show them */

void ignore_rules_json(struct json *j, const char *key,
		       const struct ignore_rule *rules, int n);
/* A line per rule, "KIND:FUNCTION HITS" in columns, after @indent. */
void ignore_rules_text(const struct ignore_rule *rules, int n, const char *indent);

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
/* The same, or NULL with errno set; its length in *@len. */
char *read_whole_file(const char *path, size_t *len);
/* The next line of *@p, which it NUL-terminates in place; NULL at the end. */
char *next_line(char **p);

#endif /* DMAOWN_H */
