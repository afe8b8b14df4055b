// SPDX-License-Identifier: GPL-2.0
/*
 * dmaown timeline: each mapping's life in a trace that record made, read
 * with libtracecmd and libtraceevent: who owned it after each call, the
 * callers, the violations; as text, JSON, one SVG picture or an HTML page
 * of them.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-cmd.h>

#include "dmaown.h"

enum { OPT_DEV = 256, OPT_HANDLE, OPT_SVG, OPT_HTML };

const struct option timeline_options[] = {
	{ "dev", required_argument, NULL, OPT_DEV },
	{ "handle", required_argument, NULL, OPT_HANDLE },
	{ "svg", required_argument, NULL, OPT_SVG },
	{ "html", required_argument, NULL, OPT_HTML },
	{}
};

static const char timeline_help[] =
"usage: dmaown [--json] timeline FILE [--handle H | --dev NAME]\n"
"                                     [--svg OUT | --html OUT]\n"
"\n"
"Each mapping's life in a trace that 'dmaown record' made: who owned it\n"
"after each call, the callers, and the violations, marked !!. A mapping\n"
"runs from its map to its unmap; a handle mapped again is a new mapping.\n"
"\n"
"  --handle H   only the mappings at handle H (e.g. 0x579d000)\n"
"  --dev NAME   only the mappings of this device\n"
"  --svg OUT    write the picture of one mapping (the first with a\n"
"               violation) to OUT\n"
"  --html OUT   write a page of pictures, one per mapping, to OUT: a CPU\n"
"               lane above a device lane, the owner's filled between calls,\n"
"               violations in red; at most 100, those with violations first\n"
"\n"
"exit status: 0 no violation in the mappings shown, 1 some, 2 usage or\n"
"environment error.\n";

/* The tracker's trace events (tracepoints/dma_owner.h), one per operation. */
enum op { OP_MAP, OP_UNMAP, OP_SYNC_CPU, OP_SYNC_DEV, OP_VIOLATION, NR_OPS };

static const char *const event_names[NR_OPS] = {
	[OP_MAP]	= "dma_owner_map",
	[OP_UNMAP]	= "dma_owner_unmap",
	[OP_SYNC_CPU]	= "dma_owner_sync_for_cpu",
	[OP_SYNC_DEV]	= "dma_owner_sync_for_device",
	[OP_VIOLATION]	= EVENT_VIOLATION,
};

static const char *const op_names[NR_OPS] = {
	[OP_MAP]	= "map",
	[OP_UNMAP]	= "unmap",
	[OP_SYNC_CPU]	= "sync_for_cpu",
	[OP_SYNC_DEV]	= "sync_for_device",
	[OP_VIOLATION]	= "violation",
};

/* Who owns a mapping, as the events carry it: enum dma_owner_state. */
enum owner_state {
	OWNER_NONE,		/* not mapped, or not known to the tracker */
	OWNER_DEVICE,
	OWNER_CPU,		/* the CPU owns all or part of it */
	OWNER_MIXED,		/* the CPU owns parts, not one range */
	NR_OWNER_STATES,
};

static const char *const owner_names[NR_OWNER_STATES] = {
	[OWNER_NONE]	= "none",
	[OWNER_DEVICE]	= "device",
	[OWNER_CPU]	= "cpu",
	[OWNER_MIXED]	= "cpu+device",
};

static const char *owner_name(long long o)
{
	return o >= 0 && o < NR_OWNER_STATES ? owner_names[o] : "?";
}

/* The lanes a timeline fills for owner @o: the CPU's, the device's, both. */
static bool cpu_lane(int o)
{
	return o == OWNER_CPU || o == OWNER_MIXED;
}

static bool device_lane(int o)
{
	return o == OWNER_DEVICE || o == OWNER_MIXED;
}

/* enum dma_data_direction */
#define NR_DMA_DIRS	4

static const char *const dir_names[NR_DMA_DIRS] = {
	"DMA_BIDIRECTIONAL", "DMA_TO_DEVICE", "DMA_FROM_DEVICE", "DMA_NONE",
};

static const char *dir_name(int dir)
{
	return dir >= 0 && dir < NR_DMA_DIRS ? dir_names[dir] : "?";
}

struct tl_event {
	unsigned long long ts;
	enum op op;
	int before, after;	/* owner; for a violation, the owner then */
	unsigned long long addr, size;
	char *caller;		/* symbol+offset */
	char *kind;		/* violations */
};

struct tl_mapping {
	char *device, *driver;
	unsigned long long handle, size;
	int dir;
	bool open;		/* not unmapped yet */
	bool mapped;		/* the map is in the trace */
	int nviol;
	struct tl_event *ev;
	int nev;
};

struct timeline {
	struct tep_handle *tep;
	struct tep_event *evs[NR_OPS];
	struct tl_mapping *m;
	int nm;
	unsigned long long first_ts;
	const char *want_dev;
	unsigned long long want_handle;
	bool have_handle;
	int nviol;
	int last;		/* index of the mapping of the previous event */
	int *open;		/* indices of the mappings not unmapped yet */
	int nopen;
};

static char *caller_name(struct tep_handle *tep, unsigned long long addr)
{
	const char *fn = tep_find_function(tep, addr);

	if (!fn)
		return xasprintf("0x%llx", addr);
	return xasprintf("%s+0x%llx", fn, addr - tep_find_function_address(tep, addr));
}

static char *field_str(struct tep_event *ev, struct tep_record *rec, const char *name)
{
	int len = 0;
	char *raw = tep_get_field_raw(NULL, ev, name, rec, &len, 0);

	return raw ? xstrndup(raw, len) : xstrdup("");
}

static long long field_num(struct tep_event *ev, struct tep_record *rec, const char *name)
{
	unsigned long long v = 0;

	tep_get_field_val(NULL, ev, name, rec, &v, 0);
	return v;
}

static bool contains(const struct tl_mapping *m, unsigned long long addr)
{
	return addr >= m->handle && addr - m->handle < (m->size ? m->size : 1);
}

/* The live mapping of @dev that starts at (@exact) or holds @addr. */
static struct tl_mapping *find_mapping(struct timeline *t, const char *dev,
				       unsigned long long addr, bool exact)
{
	/* Only the open ones: a trace of real traffic holds many thousands. */
	for (int i = t->nopen - 1; i >= 0; i--) {
		struct tl_mapping *m = &t->m[t->open[i]];

		if (strcmp(m->device, dev))
			continue;
		if (exact ? m->handle == addr : contains(m, addr))
			return m;
	}
	return NULL;
}

static void close_mapping(struct timeline *t, struct tl_mapping *m)
{
	int idx = m - t->m;

	m->open = false;
	for (int i = 0; i < t->nopen; i++)
		if (t->open[i] == idx) {
			memmove(&t->open[i], &t->open[i + 1],
				(t->nopen - i - 1) * sizeof(*t->open));
			t->nopen--;
			break;
		}
}

static struct tl_mapping *new_mapping(struct timeline *t, const char *dev,
				      const char *drv, unsigned long long h,
				      unsigned long long size, int dir, bool mapped)
{
	struct tl_mapping *m;

	t->m = xrealloc(t->m, (t->nm + 1) * sizeof(*t->m));
	m = &t->m[t->nm++];
	memset(m, 0, sizeof(*m));
	m->device = xstrdup(dev);
	m->driver = xstrdup(drv);
	m->handle = h;
	m->size = size;
	m->dir = dir;
	m->open = true;
	m->mapped = mapped;
	t->open = xrealloc(t->open, (t->nopen + 1) * sizeof(*t->open));
	t->open[t->nopen++] = t->nm - 1;
	return m;
}

static int timeline_event(struct tracecmd_input *h __maybe_unused,
			  struct tep_record *rec, int cpu __maybe_unused, void *data)
{
	struct timeline *t = data;
	struct tep_event *ev = tep_find_event_by_record(t->tep, rec);
	struct tl_mapping *m;
	struct tl_event *e;
	char *dev, *drv;
	unsigned long long addr, size;
	int op;

	for (op = 0; op < NR_OPS; op++)
		if (ev && ev == t->evs[op])
			break;
	if (op == NR_OPS)
		return 0;
	if (!t->first_ts)
		t->first_ts = rec->ts;
	dev = field_str(ev, rec, "device");
	drv = field_str(ev, rec, "driver");
	addr = field_num(ev, rec, "handle");
	size = field_num(ev, rec, "size");
	if (t->want_dev && strcmp(t->want_dev, dev))
		goto out;

	/*
	 * A violation follows the event of the call that made it, which may
	 * have ended the mapping (an unmap) or not found one.
	 */
	m = t->last >= 0 ? &t->m[t->last] : NULL;
	if (op == OP_VIOLATION && m && !strcmp(m->device, dev) && contains(m, addr))
		;
	else if (op == OP_MAP)
		m = new_mapping(t, dev, drv, addr, size, field_num(ev, rec, "dir"), true);
	else
		m = find_mapping(t, dev, addr, op == OP_UNMAP);
	if (!m)	/* Mapped before the trace began, or never mapped at all. */
		m = new_mapping(t, dev, drv, addr, size, field_num(ev, rec, "dir"), false);
	t->last = m - t->m;
	m->ev = xrealloc(m->ev, (m->nev + 1) * sizeof(*m->ev));
	e = &m->ev[m->nev++];
	memset(e, 0, sizeof(*e));
	e->ts = rec->ts;
	e->op = op;
	e->addr = addr;
	e->size = size;
	e->caller = caller_name(t->tep, field_num(ev, rec, "caller"));
	if (op == OP_VIOLATION) {
		e->kind = field_str(ev, rec, "kind");
		e->before = e->after = field_num(ev, rec, "owner");
		m->nviol++;
	} else {
		e->before = field_num(ev, rec, "owner_before");
		e->after = field_num(ev, rec, "owner_after");
	}
	if (op == OP_UNMAP)
		close_mapping(t, m);
out:
	free(dev);
	free(drv);
	return 0;
}

static bool selected(const struct timeline *t, const struct tl_mapping *m)
{
	return !t->have_handle || m->handle == t->want_handle;
}

static double rel_s(const struct timeline *t, unsigned long long ts)
{
	return (ts - t->first_ts) / 1e9;
}

static void timeline_text(const struct timeline *t)
{
	int shown = 0;

	for (int i = 0; i < t->nm; i++) {
		const struct tl_mapping *m = &t->m[i];

		if (!selected(t, m))
			continue;
		printf("%smapping 0x%016llx size %llu %s on %s (%s)%s%s\n", shown++ ? "\n" : "",
		       m->handle, m->size, dir_name(m->dir),
		       m->device, *m->driver ? m->driver : "-",
		       m->mapped ? "" : ", mapped before the trace",
		       m->open ? ", still mapped at the end" : "");
		printf("  %12s  %-6s %-6s  %-26s %s\n", "TIME_S", "CPU", "DEVICE",
		       "EVENT", "CALLER");
		for (int j = 0; j < m->nev; j++) {
			const struct tl_event *e = &m->ev[j];
			int o = e->op == OP_VIOLATION ? e->before : e->after;
			const char *cpu = cpu_lane(o) ? "##" : "";
			const char *devl = device_lane(o) ? "##" : "";
			char what[96];

			if (e->op == OP_VIOLATION)
				snprintf(what, sizeof(what), "!! %s", e->kind);
			else
				snprintf(what, sizeof(what), "%s", op_names[e->op]);
			printf("  %12.6f  %-6s %-6s  %-26s %s\n", rel_s(t, e->ts),
			       cpu, devl, what, e->caller);
		}
	}
	if (!shown)
		printf("no mapping in the trace matches\n");
}

static void timeline_json(const struct timeline *t)
{
	struct json j;

	json_init(&j, stdout);
	json_array(&j, NULL, true);
	for (int i = 0; i < t->nm; i++) {
		const struct tl_mapping *m = &t->m[i];
		char h[32];

		if (!selected(t, m))
			continue;
		snprintf(h, sizeof(h), "0x%016llx", m->handle);
		json_object(&j, NULL);
		json_string(&j, "device", m->device);
		json_string(&j, "driver", m->driver);
		json_string(&j, "handle", h);
		json_uint(&j, "size", m->size);
		json_string(&j, "dir", dir_name(m->dir));
		json_bool(&j, "mapped_in_trace", m->mapped);
		json_bool(&j, "unmapped_in_trace", !m->open);
		json_int(&j, "violations", m->nviol);
		json_array(&j, "events", false);
		for (int k = 0; k < m->nev; k++) {
			const struct tl_event *e = &m->ev[k];

			json_object(&j, NULL);
			json_fixed(&j, "time", rel_s(t, e->ts), 9);
			json_string(&j, "event", op_names[e->op]);
			if (e->op == OP_VIOLATION) {
				json_string(&j, "kind", e->kind);
				json_string(&j, "owner", owner_name(e->before));
			} else {
				json_string(&j, "owner_before", owner_name(e->before));
				json_string(&j, "owner_after", owner_name(e->after));
			}
			json_string(&j, "caller", e->caller);
			json_end(&j);
		}
		json_end(&j);
		json_end(&j);
	}
	json_end(&j);
}

static void xml_str(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", f);
		else if (*s == '>')
			fputs("&gt;", f);
		else if (*s == '&')
			fputs("&amp;", f);
		else if (*s == '"')
			fputs("&quot;", f);
		else
			fputc(*s, f);
	}
}

/*
 * One SVG per mapping: a CPU lane above a device lane, the owner's lane
 * filled between events, each event a column (evenly spaced: DMA calls come
 * microseconds apart, so real time would stack them), violations in red.
 */
#define COL_W		200
#define LANE_H		34
#define LEFT		80
#define TOP		56

static void svg_mapping(FILE *f, const struct timeline *t, const struct tl_mapping *m)
{
	int w = LEFT + 16 + m->nev * COL_W, h = TOP + 2 * LANE_H + 80;
	int ycpu = TOP, ydev = TOP + LANE_H + 10;

	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"font-family=\"monospace\" font-size=\"12\">\n", w, h);
	fprintf(f, "<text x=\"4\" y=\"18\" font-size=\"14\" font-weight=\"bold\">mapping 0x%016llx size %llu %s on ",
		m->handle, m->size, dir_name(m->dir));
	xml_str(f, m->device);
	fputs(" (", f);
	xml_str(f, *m->driver ? m->driver : "-");
	fprintf(f, ")%s</text>\n", m->nviol ? " \xe2\x80\x94 violation" : "");
	/* The key, so that an SVG on its own explains itself. */
	fprintf(f, "<rect x=\"4\" y=\"28\" width=\"10\" height=\"10\" fill=\"#1f77b4\"/>"
		"<text x=\"18\" y=\"37\" font-size=\"11\">CPU owns</text>"
		"<rect x=\"84\" y=\"28\" width=\"10\" height=\"10\" fill=\"#2ca02c\"/>"
		"<text x=\"98\" y=\"37\" font-size=\"11\">device owns</text>"
		"<text x=\"184\" y=\"37\" font-size=\"11\" fill=\"#d62728\">\xe2\x97\x86 violation</text>\n");
	fprintf(f, "<text x=\"4\" y=\"%d\" class=\"lane\">CPU</text>\n", ycpu + 22);
	fprintf(f, "<text x=\"4\" y=\"%d\" class=\"lane\">device</text>\n", ydev + 22);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f4f4f4\"/>\n",
		LEFT, ycpu, w - LEFT, LANE_H);
	fprintf(f, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#f4f4f4\"/>\n",
		LEFT, ydev, w - LEFT, LANE_H);
	/* Ownership spans: from each event to the next, in the owner's lane. */
	for (int j = 0; j < m->nev; j++) {
		const struct tl_event *e = &m->ev[j];
		int o = e->op == OP_VIOLATION ? e->before : e->after;
		int x = LEFT + 16 + j * COL_W;
		int span = j + 1 < m->nev ? COL_W : 20;

		if (e->op == OP_UNMAP)
			continue;
		if (cpu_lane(o))
			fprintf(f, "<rect class=\"cpu\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#1f77b4\"/>\n",
				x, ycpu + 6, span, LANE_H - 12);
		if (device_lane(o))
			fprintf(f, "<rect class=\"device\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"#2ca02c\"/>\n",
				x, ydev + 6, span, LANE_H - 12);
	}
	/* Events: a tick, the operation and the caller under the lanes. */
	for (int j = 0; j < m->nev; j++) {
		const struct tl_event *e = &m->ev[j];
		int x = LEFT + 16 + j * COL_W, ylab = ydev + LANE_H + 18;
		bool viol = e->op == OP_VIOLATION;
		const char *col = viol ? "#d62728" : "#333333";

		fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"%d\"/>\n",
			x, ycpu - 4, x, ydev + LANE_H + 4, col, viol ? 3 : 1);
		if (viol) {
			fprintf(f, "<polygon class=\"violation\" points=\"%d,%d %d,%d %d,%d %d,%d\" fill=\"#d62728\"/>\n",
				x, ycpu - 18, x + 10, ycpu - 8, x, ycpu + 2, x - 10, ycpu - 8);
			fprintf(f, "<text x=\"%d\" y=\"%d\" fill=\"#d62728\" font-weight=\"bold\">", x + 4, ylab);
			xml_str(f, e->kind);
		} else {
			fprintf(f, "<text x=\"%d\" y=\"%d\">", x + 4, ylab);
			fputs(op_names[e->op], f);
		}
		fputs("</text>\n", f);
		fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"%s\">+%.6f s</text>\n",
			x + 4, ylab + 14, col, rel_s(t, e->ts));
		fprintf(f, "<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"%s\">", x + 4,
			ylab + 28, col);
		{
			char c[32];

			/* Long symbols would run into the next column. */
			snprintf(c, sizeof(c), "%s", e->caller);
			xml_str(f, c);
		}
		fputs("<title>", f);
		xml_str(f, e->caller);
		fputs("</title></text>\n", f);
	}
	fputs("</svg>\n", f);
}

/* Pictures on one page at most: a trace of real traffic maps thousands. */
#define PAGE_MAX	100

static void timeline_page(FILE *f, const struct timeline *t, const char *title)
{
	int shown = 0, matching = 0, pass;

	fputs("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>dmaown timeline: ", f);
	xml_str(f, title);
	fputs("</title>\n<style>body{font-family:sans-serif;margin:16px}"
	      "svg{display:block;margin:12px 0;border:1px solid #ddd}</style></head><body>\n", f);
	fputs("<h1>DMA ownership timeline</h1>\n<p>trace ", f);
	xml_str(f, title);
	fputs(": one picture per mapping; hover over a caller for its whole name</p>\n", f);
	/* Those with violations first, then the rest, in the trace's order. */
	for (pass = 0; pass < 2; pass++)
		for (int i = 0; i < t->nm; i++) {
			const struct tl_mapping *m = &t->m[i];

			if (!selected(t, m) || (m->nviol == 0) != pass)
				continue;
			matching++;
			if (shown < PAGE_MAX) {
				svg_mapping(f, t, m);
				shown++;
			}
		}
	if (!shown)
		fputs("<p>no mapping in the trace matches</p>\n", f);
	else if (shown < matching)
		fprintf(f, "<p>%d more mappings not shown: narrow it with --handle or --dev</p>\n",
			matching - shown);
	fputs("</body></html>\n", f);
}

/* Read the dma_owner events of the trace @file into @t. */
static struct tracecmd_input *read_trace(struct timeline *t, const char *file)
{
	struct tracecmd_input *h;

	if (access(file, R_OK))
		fail("cannot read %s: %s", file, strerror(errno));
	h = tracecmd_open(file, 0);
	if (!h)
		fail("%s is not a trace-cmd trace (make one with: dmaown record -o FILE -- COMMAND)",
		     file);
	t->tep = tracecmd_get_tep(h);
	for (int op = 0; op < NR_OPS; op++)
		t->evs[op] = tep_find_event_by_name(t->tep, EVENT_SYSTEM, event_names[op]);
	if (!t->evs[OP_MAP])
		fail("%s holds no dma_owner events: record with dmaown record", file);
	tracecmd_iterate_events(h, NULL, 0, timeline_event, t);
	return h;
}

/* The mapping an SVG shows: the first that matches with a violation, else the first. */
static const struct tl_mapping *svg_pick(const struct timeline *t)
{
	const struct tl_mapping *pick = NULL;

	for (int i = 0; i < t->nm; i++) {
		const struct tl_mapping *m = &t->m[i];

		if (selected(t, m) && (!pick || (m->nviol && !pick->nviol)))
			pick = m;
	}
	return pick;
}

/* --svg or --html: the picture of one mapping, or the page of @shown, to @out. */
static void write_pictures(const struct timeline *t, const char *trace,
			   const char *out, bool html, int shown)
{
	const struct tl_mapping *m;
	FILE *f = fopen(out, "w");

	if (!f)
		fail("cannot write %s: %s", out, strerror(errno));
	if (html) {
		timeline_page(f, t, trace);
		if (shown > PAGE_MAX)
			shown = PAGE_MAX;
	} else {
		m = svg_pick(t);
		if (!m)
			fail("no mapping in %s matches", trace);
		svg_mapping(f, t, m);
		shown = 1;
	}
	if (fclose(f))
		fail("cannot write %s: %s", out, strerror(errno));
	fprintf(stderr, "dmaown: %d mapping%s written to %s\n", shown,
		shown == 1 ? "" : "s", out);
}

int cmd_timeline(int argc, char **argv)
{
	struct cmd_opts o = { .options = timeline_options, .help = timeline_help };
	const char *file, *dev = NULL, *handle = NULL, *svg = NULL, *html = NULL;
	struct timeline t = { .last = -1 };
	struct tracecmd_input *h;
	int c, shown = 0;

	while ((c = cmd_getopt(&o, argc, argv)) != -1) {
		switch (c) {
		case OPT_DEV:
			dev = optarg;
			break;
		case OPT_HANDLE:
			handle = optarg;
			break;
		case OPT_SVG:
			svg = optarg;
			break;
		case OPT_HTML:
			html = optarg;
			break;
		}
	}
	if (o.other)
		bad_usage("timeline does not take those options");
	if (optind != argc - 1)
		bad_usage("timeline: which trace? dmaown timeline FILE [--handle H | --dev NAME]");
	if (handle && dev)
		bad_usage("timeline: --handle or --dev, not both");
	if (svg && html)
		bad_usage("timeline: --svg or --html, not both");
	file = argv[optind];
	t.want_dev = dev;
	if (handle) {
		char *end;

		errno = 0;
		t.want_handle = strtoull(handle, &end, 0);
		if (end == handle || *end || errno)
			fail("--handle %s: not a number (e.g. --handle 0x579d000)", handle);
		t.have_handle = true;
	}

	h = read_trace(&t, file);
	for (int i = 0; i < t.nm; i++)
		if (selected(&t, &t.m[i])) {
			shown++;
			t.nviol += t.m[i].nviol;
		}
	if (svg || html)
		write_pictures(&t, file, svg ? svg : html, html, shown);
	else if (use_json)
		timeline_json(&t);
	else
		timeline_text(&t);
	tracecmd_close(h);
	return t.nviol ? EXIT_VIOLATIONS : 0;
}
