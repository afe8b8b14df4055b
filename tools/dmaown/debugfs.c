// SPDX-License-Identifier: GPL-2.0
/*
 * dmaown: the tracker's debugfs files (debugfs/dma-owner/, see
 * debugfs-ui/owner_debugfs.c), read into structs: stats, the filter, the
 * violations log and the live mappings. The commands read only these.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "dmaown.h"

#define DEBUGFS_MAGIC	0x64626720

char tracker_dir[PATH_MAX];

void need_tracker(void)
{
	struct statfs sfs;
	struct stat st;

	if (geteuid() != 0)
		fail("needs root: /sys/kernel/debug is readable by root only (run it as root, e.g. with sudo)");
	snprintf(tracker_dir, sizeof(tracker_dir), "%s/dma-owner", debugfs);
	if (statfs(debugfs, &sfs) || sfs.f_type != DEBUGFS_MAGIC)
		fail("debugfs is not mounted on %s: mount -t debugfs none %s", debugfs, debugfs);
	if (stat(tracker_dir, &st) || !S_ISDIR(st.st_mode))
		fail("%s does not exist: this kernel is built without the DMA ownership tracker (build it with CONFIG_DMA_OWNER_DEBUG=y)",
		     tracker_dir);
}

/* The whole of one of the tracker's files, NUL-terminated. */
static char *slurp_tracker(const char *name)
{
	char path[PATH_MAX + 64];

	snprintf(path, sizeof(path), "%s/%s", tracker_dir, name);
	return slurp(path);
}

/* ---------------------------------------------------------------------- */
/* stats: "key: value" lines, then "incomplete: DEVICE WHY" lines         */

/*
 * The kinds of violation are the kernel's to name: dmaown learns them from
 * the counters, so that a new kind needs no new dmaown.
 */
#define KIND_PREFIX	"violation."

void read_stats(struct stats *s)
{
	char *buf = slurp_tracker("stats"), *p = buf, *line;

	memset(s, 0, sizeof(*s));
	while ((line = next_line(&p))) {
		struct incomplete *inc;
		struct counter *c;
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		if (!strncmp(line, "incomplete:", 11)) {	/* not a counter */
			s->incomplete = xrealloc(s->incomplete,
						 (s->nincomplete + 1) * sizeof(*inc));
			inc = &s->incomplete[s->nincomplete];
			if (sscanf(line, "incomplete: %127s %63s", inc->device, inc->why) == 2)
				s->nincomplete++;
			continue;
		}
		*colon = 0;
		s->counters = xrealloc(s->counters, (s->ncounters + 1) * sizeof(*c));
		c = &s->counters[s->ncounters++];
		snprintf(c->key, sizeof(c->key), "%s", line);
		c->val = strtoll(colon + 1, NULL, 10);
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
	for (int i = 0; i < s->ncounters; i++)
		if (!strcmp(s->counters[i].key, key))
			return s->counters[i].val;
	return -1;
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
}

char *read_filter(void)
{
	char *filter = slurp_tracker("filter");

	filter[strcspn(filter, "\n")] = 0;
	return filter;
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
 * Parse the log: records start with "[SEQ] at T s" and end with an empty
 * line (see owner_report.c).
 */
int read_reports(struct report **out)
{
	char *buf = slurp_tracker("violations"), *p = buf, *line;
	struct report *rs = NULL, *r = NULL;
	size_t textlen = 0;
	int n = 0;
	bool in_stack = false;

	while ((line = next_line(&p))) {
		char a[512], b[512];

		if (line[0] == '[') {
			rs = xrealloc(rs, (n + 1) * sizeof(*rs));
			r = &rs[n++];
			memset(r, 0, sizeof(*r));
			sscanf(line, "[%llu] at %lf s", &r->seq, &r->time);
			r->text = xstrdup("");
			textlen = 0;
			in_stack = false;
		}
		if (!r)
			continue;
		if (!*line) {
			r = NULL;
			continue;
		}
		r->text = xrealloc(r->text, textlen + strlen(line) + 2);
		textlen += sprintf(r->text + textlen, "%s\n", line);
		if (!r->kind && line[0] != '[') {
			char *in = strstr(line, " in ");

			if (in) {
				r->kind = xstrndup(line, in - line);
				r->caller = xstrdup(in + 4);
			}
		} else if (sscanf(line, "device %511s driver %511s", a, b) == 2 && !r->device) {
			r->device = xstrdup(a);
			r->driver = xstrdup(b);
		} else if (!r->handle && strstr(line, " of 0x") && strstr(line, " size ")) {
			char *h = strstr(line, " of 0x") + 4;

			r->handle = xstrndup(h, strcspn(h, " "));
		} else if (!strcmp(line, "mapped at:") ||
			   !strcmp(line, "allocated at:")) {
			in_stack = true;
		} else if (in_stack && line[0] == ' ') {
			if (!r->map_site)
				r->map_site = xstrdup(line + 1);
		} else {
			in_stack = false;
		}
	}
	for (int i = 0; i < n; i++) {
		struct report *x = &rs[i];

		if (!x->kind)
			x->kind = xstrdup("?");
		if (!x->caller)
			x->caller = xstrdup("?");
		if (!x->device)
			x->device = xstrdup("-");
		if (!x->driver)
			x->driver = xstrdup("-");
		if (!x->handle)
			x->handle = xstrdup("");
		if (!x->map_site)
			x->map_site = xstrdup("");
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
