// SPDX-License-Identifier: GPL-2.0
/*
 * dmaown: the tracker's debugfs files (debugfs/dma-owner/, see
 * debugfs-ui/owner_debugfs.c), read into structs: stats, the filter, the
 * ignore rules, the violations log and the live mappings; and written, for
 * the commands that change the tracker. The commands read only these.
 *
 * --debugfs may name a bundle that "dmaown save" wrote instead (bundle.c):
 * the same files, read the same way, never written.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "dmaown.h"

#define DEBUGFS_MAGIC	0x64626720
#define DEFAULT_DEBUGFS	"/sys/kernel/debug"

char tracker_dir[PATH_MAX];
struct bundle *tracker_bundle;

/* Sets tracker_dir and tracker_bundle, or fails saying why it cannot. */
static void find_tracker(void)
{
	struct statfs sfs;
	struct stat st;

	snprintf(tracker_dir, sizeof(tracker_dir), "%s/" TRACKER_DIR_NAME, debugfs);
	tracker_bundle = open_bundle(debugfs);
	if (tracker_bundle)
		return;
	if (geteuid() != 0)
		fail("needs root: %s is readable by root only (run it as root, e.g. with sudo)",
		     debugfs);
	if (statfs(debugfs, &sfs) || sfs.f_type != DEBUGFS_MAGIC) {
		if (!strcmp(debugfs, DEFAULT_DEBUGFS))
			fail("debugfs is not mounted on %s: mount -t debugfs none %s",
			     debugfs, debugfs);
		if (!stat(tracker_dir, &st))
			fail("%s is neither debugfs nor a bundle: it holds %s/ but no manifest, so it is not what dmaown save writes (or a save that did not finish)",
			     debugfs, TRACKER_DIR_NAME);
		fail("debugfs is not mounted on %s: mount -t debugfs none %s, or name a directory that dmaown save wrote",
		     debugfs, debugfs);
	}
	if (stat(tracker_dir, &st) || !S_ISDIR(st.st_mode))
		fail("%s does not exist: this kernel is built without the DMA ownership tracker (build it with CONFIG_DMA_OWNER_DEBUG=y)",
		     tracker_dir);
}

void need_tracker(void)
{
	find_tracker();
	/* On stderr: what is printed is the same as it was live. */
	if (tracker_bundle)
		fprintf(stderr, "dmaown: reading the bundle %s, saved %s on %s (kernel %s)\n",
			debugfs, tracker_bundle->saved, tracker_bundle->host,
			tracker_bundle->kernel);
}

void need_live_tracker(const char *command)
{
	find_tracker();
	if (tracker_bundle)
		fail("%s needs a running tracker: %s is a bundle, a copy of one (saved %s on %s); run it on that machine, without --debugfs",
		     command, debugfs, tracker_bundle->saved, tracker_bundle->host);
}

static void tracker_path(char *path, size_t size, const char *name)
{
	snprintf(path, size, "%s/%s", tracker_dir, name);
}

bool tracker_has(const char *name)
{
	char path[PATH_MAX + 64];

	tracker_path(path, sizeof(path), name);
	return !access(path, F_OK);
}

int write_tracker(const char *name, const char *text)
{
	char path[PATH_MAX + 64];
	size_t len = strlen(text);
	ssize_t n;
	int fd, err = 0;

	tracker_path(path, sizeof(path), name);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return errno;
	n = write(fd, text, len);
	if (n < 0)
		err = errno;
	else if ((size_t)n != len)
		err = EIO;	/* the kernel's files take a write whole */
	if (close(fd) && !err)
		err = errno;
	return err;
}

const char *errno_text(int err)
{
	static char text[128];
	const char *name = strerrorname_np(err);

	snprintf(text, sizeof(text), "%s (%s)", strerror(err), name ? name : "?");
	return text;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct kernel_file *)a)->name,
		      ((const struct kernel_file *)b)->name);
}

int read_kernel_dir(const char *dir, struct kernel_file **out)
{
	struct kernel_file *fs = NULL;
	struct dirent *de;
	int n = 0;
	DIR *d;

	*out = NULL;
	d = opendir(dir);
	if (!d)
		return -errno;
	while ((de = readdir(d))) {
		char path[PATH_MAX + 256];
		struct kernel_file *f;
		struct stat st;

		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode))
			continue;
		fs = xrealloc(fs, (n + 1) * sizeof(*fs));
		f = &fs[n++];
		memset(f, 0, sizeof(*f));
		f->name = xstrdup(de->d_name);
		/* Root may open it, but a file without a read method says EINVAL. */
		f->write_only = !(st.st_mode & 0444);
		if (f->write_only)
			continue;
		f->data = read_whole_file(path, &f->len);
		if (!f->data)
			f->err = errno;
	}
	closedir(d);
	if (n)
		qsort(fs, n, sizeof(*fs), by_name);
	*out = fs;
	return n;
}

void free_kernel_files(struct kernel_file *fs, int n)
{
	for (int i = 0; i < n; i++) {
		free(fs[i].name);
		free(fs[i].data);
	}
	free(fs);
}

/* The whole of one of the tracker's files, NUL-terminated. */
static char *slurp_tracker(const char *name)
{
	char path[PATH_MAX + 64];

	tracker_path(path, sizeof(path), name);
	return slurp(path);
}

/* ---------------------------------------------------------------------- */
/* stats: "key: value" lines, then list lines: "incomplete: DEVICE WHY",  */
/* "ignore: KIND:FUNCTION HITS"                                           */

/*
 * The kinds of violation are the kernel's to name: dmaown learns them from
 * the counters, so that a new kind needs no new dmaown.
 */
#define KIND_PREFIX	"violation."

/* @s as a whole integer into *@val: false if it is something else. */
static bool parse_integer(const char *s, long long *val)
{
	char *end;

	s += strspn(s, " ");
	*val = strtoll(s, &end, 10);
	return end != s && !*end;
}

bool parse_ignore_rule(const char *token, struct ignore_rule *r)
{
	size_t kind_len = strcspn(token, ":");

	memset(r, 0, sizeof(*r));
	if (!token[kind_len] || !kind_len || kind_len >= sizeof(r->kind) ||
	    !token[kind_len + 1] || strlen(token + kind_len + 1) >= sizeof(r->function))
		return false;
	memcpy(r->kind, token, kind_len);
	snprintf(r->function, sizeof(r->function), "%s", token + kind_len + 1);
	return true;
}

/* "KIND:FUNCTION HITS", as the ignore file and stats' "ignore:" lines say. */
static bool parse_ignore_line(const char *line, struct ignore_rule *r)
{
	char token[256];
	long long hits;
	int off = 0;

	if (sscanf(line, " %255s %n", token, &off) != 1 || !parse_ignore_rule(token, r) ||
	    !parse_integer(line + off, &hits))
		return false;
	r->hits = hits;
	return true;
}

static const struct counter *find_counter(const struct stats *s, const char *key)
{
	for (int i = 0; i < s->ncounters; i++)
		if (!strcmp(s->counters[i].key, key))
			return &s->counters[i];
	return NULL;
}

void read_stats(struct stats *s)
{
	char *buf = slurp_tracker("stats"), *p = buf, *line;

	memset(s, 0, sizeof(*s));
	while ((line = next_line(&p))) {
		char *colon = strchr(line, ':');
		struct incomplete inc;
		struct ignore_rule rule;
		long long val;

		if (!colon)
			continue;
		*colon = 0;
		if (!strcmp(line, "incomplete")) {
			if (sscanf(colon + 1, " %127s %63s", inc.device, inc.why) != 2)
				continue;
			s->incomplete = xrealloc(s->incomplete,
						 (s->nincomplete + 1) * sizeof(inc));
			s->incomplete[s->nincomplete++] = inc;
		} else if (!strcmp(line, "ignore")) {
			if (!parse_ignore_line(colon + 1, &rule))
				continue;
			s->rules = xrealloc(s->rules, (s->nrules + 1) * sizeof(rule));
			s->rules[s->nrules++] = rule;
		} else if (parse_integer(colon + 1, &val) && !find_counter(s, line)) {
			struct counter *c;

			s->counters = xrealloc(s->counters, (s->ncounters + 1) * sizeof(*c));
			c = &s->counters[s->ncounters++];
			snprintf(c->key, sizeof(c->key), "%s", line);
			c->val = val;
		}
		/* Anything else is a later kernel's: skipped. */
	}
	free(buf);
	/* After the last realloc(): the names point into the counters. */
	for (int i = 0; i < s->ncounters; i++) {
		struct counter *c = &s->counters[i];

		if (strncmp(c->key, KIND_PREFIX, strlen(KIND_PREFIX)))
			continue;
		c->kind = true;
		s->kinds = xrealloc(s->kinds, (s->nkinds + 1) * sizeof(*s->kinds));
		s->kinds[s->nkinds++] = (struct kind_count){
			.name = c->key + strlen(KIND_PREFIX),
			.count = c->val,
		};
	}
}

long long stat_get(const struct stats *s, const char *key)
{
	const struct counter *c = find_counter(s, key);

	return c ? c->val : -1;
}

bool known_kind(const struct stats *s, const char *kind)
{
	for (int i = 0; i < s->nkinds; i++)
		if (!strcmp(s->kinds[i].name, kind))
			return true;
	return false;
}

char *kind_list(const struct stats *s)
{
	size_t len = 1;
	char *list;

	for (int i = 0; i < s->nkinds; i++)
		len += strlen(s->kinds[i].name) + 2;
	list = xmalloc(len);
	for (int i = 0; i < s->nkinds; i++) {
		if (i)
			strcat(list, ", ");
		strcat(list, s->kinds[i].name);
	}
	return list;
}

void free_stats(struct stats *s)
{
	free(s->counters);
	free(s->kinds);
	free(s->incomplete);
	free(s->rules);
}

char *read_filter(void)
{
	char *filter = slurp_tracker("filter");

	filter[strcspn(filter, "\n")] = 0;
	return filter;
}

int read_ignore_rules(struct ignore_rule **out)
{
	struct ignore_rule *rules = NULL, r;
	char *buf, *p, *line;
	int n = 0;

	if (!tracker_has("ignore"))
		fail(tracker_bundle ?
		     "%s/ignore does not exist: the kernel this bundle was saved from has no ignore rules" :
		     "%s/ignore does not exist: this kernel's tracker predates ignore rules (boot a newer tracker kernel for them)",
		     tracker_dir);
	buf = slurp_tracker("ignore");
	p = buf;
	while ((line = next_line(&p))) {
		if (!*line)
			continue;
		if (!parse_ignore_line(line, &r))
			fail("%s/ignore: \"%.60s\" is not a rule, KIND:FUNCTION HITS: the kernel is newer than this dmaown",
			     tracker_dir, line);
		rules = xrealloc(rules, (n + 1) * sizeof(*rules));
		rules[n++] = r;
	}
	free(buf);
	*out = rules;
	return n;
}

/* ---------------------------------------------------------------------- */
/* The violations log                                                     */

static void free_report(struct report *r)
{
	free(r->kind);
	free(r->caller);
	free(r->device);
	free(r->driver);
	free(r->handle);
	free(r->map_site);
	free(r->text);
}

void free_reports(struct report *rs, int n)
{
	for (int i = 0; i < n; i++)
		free_report(&rs[i]);
	free(rs);
}

/*
 * The log (owner_report.c): each record is one line of key=value pairs for
 * programs, the report's lines for people, and an empty line. The first
 * line is the interface: the keys are seq time kind op device driver handle size
 * dir api owner caller map_site, in that order, and more may come anywhere;
 * a value holds no space (space, tab, newline and backslash are written as
 * \ooo, as in /proc/self/mounts), and "-" means none. dmaown takes what it
 * shows from that line only, never from the prose.
 */

/* A record line starts with a key: [a-z0-9_]+ then '='. */
static bool is_record_line(const char *line)
{
	size_t n = strspn(line, "abcdefghijklmnopqrstuvwxyz0123456789_");

	return n && line[n] == '=';
}

static bool is_octal(char c)
{
	return c >= '0' && c <= '7';
}

/* The value of @len bytes at @v, its \ooo escapes decoded; NULL for "-". */
static char *decode_value(const char *v, size_t len)
{
	char *d = xmalloc(len + 1), *o = d;

	if (len == 1 && *v == '-') {
		free(d);
		return NULL;
	}
	for (size_t i = 0; i < len; i++) {
		if (v[i] == '\\' && i + 3 < len && is_octal(v[i + 1]) &&
		    is_octal(v[i + 2]) && is_octal(v[i + 3])) {
			*o++ = (v[i + 1] - '0') << 6 | (v[i + 2] - '0') << 3 | (v[i + 3] - '0');
			i += 3;
		} else {
			*o++ = v[i];
		}
	}
	*o = 0;
	return d;
}

/* The keys of the record line dmaown uses; it skips the others. */
enum record_key {
	KEY_SEQ, KEY_TIME, KEY_KIND, KEY_DEVICE, KEY_DRIVER, KEY_HANDLE,
	KEY_CALLER, KEY_MAP_SITE, NR_KEYS,
};

static const char *const record_keys[NR_KEYS] = {
	[KEY_SEQ]	= "seq",
	[KEY_TIME]	= "time",
	[KEY_KIND]	= "kind",
	[KEY_DEVICE]	= "device",
	[KEY_DRIVER]	= "driver",
	[KEY_HANDLE]	= "handle",
	[KEY_CALLER]	= "caller",
	[KEY_MAP_SITE]	= "map_site",
};

/* @val[key]: the decoded values of the record line; NULL if not there or "-". */
static void parse_record_line(const char *line, char *val[NR_KEYS])
{
	const char *p = line;

	memset(val, 0, NR_KEYS * sizeof(*val));
	while (*p) {
		size_t len = strcspn(p, " ");
		const char *eq = memchr(p, '=', len);

		for (int k = 0; eq && k < NR_KEYS; k++) {
			size_t klen = eq - p;

			/* The first of a key counts: a later one is not the kernel's. */
			if (strlen(record_keys[k]) == klen &&
			    !strncmp(record_keys[k], p, klen) && !val[k])
				val[k] = decode_value(eq + 1, len - klen - 1);
		}
		p += len;
		p += strspn(p, " ");
	}
}

/* The report from its record line's values: what it does not say is unknown. */
static void fill_report(struct report *r, char *val[NR_KEYS])
{
	const char *seq = val[KEY_SEQ], *time = val[KEY_TIME];
	char *end;

	if (seq) {
		r->seq = strtoull(seq, &end, 10);
		if (end == seq || *end)
			r->seq = 0;
	}
	if (time)
		r->time = strtod(time, NULL);
	r->kind = val[KEY_KIND] ? val[KEY_KIND] : xstrdup("?");
	r->caller = val[KEY_CALLER] ? val[KEY_CALLER] : xstrdup("?");
	r->device = val[KEY_DEVICE] ? val[KEY_DEVICE] : xstrdup("-");
	r->driver = val[KEY_DRIVER] ? val[KEY_DRIVER] : xstrdup("-");
	r->handle = val[KEY_HANDLE] ? val[KEY_HANDLE] : xstrdup("");
	r->map_site = val[KEY_MAP_SITE] ? val[KEY_MAP_SITE] : xstrdup("");
	free(val[KEY_SEQ]);
	free(val[KEY_TIME]);
}

int read_reports(struct report **out)
{
	char *buf = slurp_tracker("violations"), *p = buf, *line;
	struct report *rs = NULL, *r = NULL;
	size_t textlen = 0;
	int n = 0;

	while ((line = next_line(&p))) {
		char *val[NR_KEYS];

		if (!*line) {		/* the end of a record */
			r = NULL;
			continue;
		}
		if (r) {		/* the prose, kept whole */
			r->text = xrealloc(r->text, textlen + strlen(line) + 2);
			textlen += sprintf(r->text + textlen, "%s\n", line);
			continue;
		}
		if (!is_record_line(line))
			fail("%s/violations: a report starts \"%.40s\", not with its key=value line: the kernel is older than this dmaown",
			     tracker_dir, line);
		rs = xrealloc(rs, (n + 1) * sizeof(*rs));
		r = &rs[n++];
		memset(r, 0, sizeof(*r));
		parse_record_line(line, val);
		fill_report(r, val);
		/* The whole record, as the log holds it, for --json's "report". */
		r->text = xasprintf("%s\n", line);
		textlen = strlen(r->text);
	}
	free(buf);
	*out = rs;
	return n;
}

/* ---------------------------------------------------------------------- */
/* mappings: a header line, then one line per live mapping               */

int read_mappings(struct mapping **out)
{
	char *buf = slurp_tracker("mappings"), *p = buf, *line;
	struct mapping *ms = NULL, m;
	int n = 0;

	next_line(&p);		/* "device driver handle size ..." */
	while ((line = next_line(&p))) {
		int off = 0;

		memset(&m, 0, sizeof(m));
		/*
		 * "%s %s %pad %u %s %s %u %u %u %pS": the map site is the rest
		 * of the line, as a symbol in a module is "sym+0x1/0x2 [mod]".
		 */
		if (sscanf(line, "%255s %255s %63s %llu %31s %63s %llu %llu %llu %n",
			   m.device, m.driver, m.handle, &m.size, m.dir, m.owner,
			   &m.age_ms, &m.syncs_for_cpu, &m.syncs_for_device, &off) < 9)
			continue;
		m.map_site = xstrdup(line + off);
		ms = xrealloc(ms, (n + 1) * sizeof(*ms));
		ms[n++] = m;
	}
	free(buf);
	*out = ms;
	return n;
}

void free_mappings(struct mapping *ms, int n)
{
	for (int i = 0; i < n; i++)
		free(ms[i].map_site);
	free(ms);
}
