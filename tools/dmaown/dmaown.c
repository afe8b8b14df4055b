// SPDX-License-Identifier: GPL-2.0
/*
 * dmaown - read, watch and record the DMA ownership tracker
 * (CONFIG_DMA_OWNER_DEBUG, /sys/kernel/debug/dma-owner/).
 *
 * The read commands parse the tracker's debugfs files; record enables the
 * dma_owner trace events through libtracefs and saves the trace with
 * "trace-cmd extract"; timeline reads a saved trace with libtracecmd and
 * libtraceevent. Run "dmaown --help" for the tour.
 *
 * Exit status: 0 nothing wrong, 1 violations found, 2 usage or environment
 * error (the message says how to fix it).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-cmd.h>
#include <tracefs.h>

#include "dmaown.h"

const char *debugfs = "/sys/kernel/debug";
static bool use_json;

/* ---------------------------------------------------------------------- */
/* dmaown status                                                          */

/* Reports in the log, by driver, in the order they first came. */
struct driver_count {
	const char *name;
	int count;
};

static int count_drivers(const struct report *rs, int n, struct driver_count **out)
{
	struct driver_count *drv = NULL;
	int ndrv = 0;

	for (int i = 0; i < n; i++) {
		int j;

		for (j = 0; j < ndrv; j++)
			if (!strcmp(drv[j].name, rs[i].driver))
				break;
		if (j == ndrv) {
			drv = xrealloc(drv, (ndrv + 1) * sizeof(*drv));
			drv[ndrv++] = (struct driver_count){ .name = rs[i].driver };
		}
		drv[j].count++;
	}
	*out = drv;
	return ndrv;
}

static void status_json(const struct stats *st, const char *filter,
			const struct driver_count *drv, int ndrv, int nr)
{
	struct json j;

	json_init(&j, stdout);
	json_object(&j, NULL);
	json_int(&j, "enabled", stat_get(st, "enabled"));
	json_string(&j, "filter", filter);
	json_object(&j, "counters");
	for (int i = 0; i < st->ncounters; i++) {
		const struct counter *c = &st->counters[i];

		/* Those of the kinds go to violations_by_kind. */
		if (strcmp(c->key, "enabled") && !c->kind)
			json_int(&j, c->key, c->val);
	}
	json_end(&j);
	json_object(&j, "violations_by_kind");
	for (int i = 0; i < st->nkinds; i++)
		json_int(&j, st->kinds[i].name, st->kinds[i].count);
	json_end(&j);
	json_object(&j, "violations_by_driver");
	for (int i = 0; i < ndrv; i++)
		json_int(&j, drv[i].name, drv[i].count);
	json_end(&j);
	json_array(&j, "incomplete", false);
	for (int i = 0; i < st->nincomplete; i++) {
		json_object(&j, NULL);
		json_string(&j, "device", st->incomplete[i].device);
		json_string(&j, "why", st->incomplete[i].why);
		json_end(&j);
	}
	json_end(&j);
	json_int(&j, "log_records", nr);
	json_end(&j);
}

static void status_text(const struct stats *st, const char *filter,
			const struct driver_count *drv, int ndrv, int nr)
{
	printf("tracker:    %s\n", stat_get(st, "enabled") ? "on" : "off");
	printf("filter:     %s\n", *filter ? filter : "(everything)");
	printf("mappings:   %lld live, %lld at most, %lld untracked\n",
	       stat_get(st, "live"), stat_get(st, "peak_live"), stat_get(st, "untracked"));
	if (st->nincomplete)
		printf("unknown handles not reported on %d device(s):\n", st->nincomplete);
	for (int i = 0; i < st->nincomplete; i++)
		printf("  %-30s %s\n", st->incomplete[i].device, st->incomplete[i].why);
	printf("calls:      %lld maps, %lld unmaps, %lld syncs for cpu, %lld syncs for device\n",
	       stat_get(st, "maps"), stat_get(st, "unmaps"),
	       stat_get(st, "syncs_for_cpu"), stat_get(st, "syncs_for_device"));
	printf("violations: %lld\n", stat_get(st, "violations"));
	for (int i = 0; i < st->nkinds; i++)
		if (st->kinds[i].count)
			printf("  %-30s %lld\n", st->kinds[i].name, st->kinds[i].count);
	if (ndrv) {
		printf("by driver (the %d reports in the log):\n", nr);
		for (int i = 0; i < ndrv; i++)
			printf("  %-30s %d\n", drv[i].name, drv[i].count);
	}
}

static int cmd_status(void)
{
	struct driver_count *drv;
	struct report *rs;
	struct stats st;
	long long violations;
	int nr, ndrv;
	char *filter;

	read_stats(&st);
	filter = read_filter();
	nr = read_reports(&rs);
	ndrv = count_drivers(rs, nr, &drv);
	violations = stat_get(&st, "violations");
	if (use_json)
		status_json(&st, filter, drv, ndrv, nr);
	else
		status_text(&st, filter, drv, ndrv, nr);
	free(drv);
	free_reports(rs, nr);
	free(filter);
	free_stats(&st);
	return violations > 0 ? EXIT_VIOLATIONS : 0;
}

/* ---------------------------------------------------------------------- */
/* dmaown mappings                                                        */

/* "1500ms", "2s", "3m", "1h"; a bare number is seconds. -1 if malformed. */
static long long parse_duration_ms(const char *s)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !(v >= 0))
		return -1;
	if (!*end || !strcmp(end, "s"))
		v *= 1000;
	else if (!strcmp(end, "ms"))
		;
	else if (!strcmp(end, "m"))
		v *= 60000;
	else if (!strcmp(end, "h"))
		v *= 3600000;
	else
		return -1;
	if (v > 1e15)
		return -1;
	return (long long)v;
}

static int cmd_mappings(const char *dev, const char *drv, const char *owner,
			long long older_ms)
{
	struct mapping *ms;
	int n, shown = 0;
	struct json j;

	n = read_mappings(&ms);
	json_init(&j, stdout);
	if (use_json)
		json_array(&j, NULL, true);
	for (int i = 0; i < n; i++) {
		const struct mapping *m = &ms[i];
		bool cpu_owned = !strncmp(m->owner, "cpu", 3);

		if ((dev && strcmp(dev, m->device)) || (drv && strcmp(drv, m->driver)) ||
		    (owner && (!strcmp(owner, "cpu") != cpu_owned)) ||
		    (older_ms >= 0 && (long long)m->age_ms <= older_ms))
			continue;
		if (use_json) {
			json_object(&j, NULL);
			json_string(&j, "device", m->device);
			json_string(&j, "driver", m->driver);
			json_string(&j, "handle", m->handle);
			json_uint(&j, "size", m->size);
			json_string(&j, "dir", m->dir);
			json_string(&j, "owner", m->owner);
			json_uint(&j, "age_ms", m->age_ms);
			json_uint(&j, "syncs_for_cpu", m->syncs_for_cpu);
			json_uint(&j, "syncs_for_device", m->syncs_for_device);
			json_string(&j, "map_site", m->map_site);
			json_end(&j);
		} else {
			if (!shown)
				printf("%-14s %-16s %-18s %8s %-17s %-22s %9s %6s %6s  %s\n",
				       "DEVICE", "DRIVER", "HANDLE", "SIZE", "DIR",
				       "OWNER", "AGE_MS", "S_CPU", "S_DEV", "MAP_SITE");
			printf("%-14s %-16s %-18s %8llu %-17s %-22s %9llu %6llu %6llu  %s\n",
			       m->device, m->driver, m->handle, m->size, m->dir, m->owner,
			       m->age_ms, m->syncs_for_cpu, m->syncs_for_device, m->map_site);
		}
		shown++;
	}
	if (use_json)
		json_end(&j);
	else if (!shown)
		printf("no live mappings match\n");
	free_mappings(ms, n);
	return 0;
}

/* ---------------------------------------------------------------------- */
/* dmaown violations                                                      */

static void print_report_line(const struct report *r)
{
	if (use_json) {
		struct json j;

		json_init(&j, stdout);
		json_object(&j, NULL);
		json_uint(&j, "seq", r->seq);
		json_fixed(&j, "time", r->time, 6);
		json_string(&j, "kind", r->kind);
		json_string(&j, "caller", r->caller);
		json_string(&j, "device", r->device);
		json_string(&j, "driver", r->driver);
		json_string(&j, "handle", r->handle);
		json_string(&j, "map_site", r->map_site);
		json_string(&j, "report", r->text);
		json_end(&j);
	} else {
		printf("[%llu] %.6f %s in %s, device %s driver %s%s%s\n",
		       r->seq, r->time, r->kind, r->caller, r->device, r->driver,
		       *r->handle ? " handle " : "", r->handle);
	}
	fflush(stdout);
}

/* How often --follow reads the log: new reports show within this. */
#define FOLLOW_POLL_MS	200

static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	stop = 1;
}

/* Print records as they arrive, until a signal. */
static int follow(const char *kind)
{
	long long last = -1;	/* the newest record seen; they count from 0 */
	bool any = false, first = true;
	struct sigaction sa = { .sa_handler = on_signal };
	struct report *rs;
	int n;

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	while (!stop) {
		n = read_reports(&rs);
		/* After a clear the numbering starts again. */
		if (n && (long long)rs[n - 1].seq < last)
			last = -1;
		for (int i = 0; i < n; i++) {
			if (first || (long long)rs[i].seq <= last)
				continue;
			if (!kind || !strcmp(kind, rs[i].kind)) {
				print_report_line(&rs[i]);
				any = true;
			}
		}
		if (n)
			last = rs[n - 1].seq;
		if (first)
			fprintf(stderr, "dmaown: following %s/violations; new reports appear here (Ctrl-C stops)\n",
				tracker_dir);
		first = false;
		free_reports(rs, n);
		usleep(FOLLOW_POLL_MS * 1000);
	}
	return any ? EXIT_VIOLATIONS : 0;
}

/* The reports of one kind from one call site. */
struct group {
	const struct report *first, *last;
	int count;
	char devices[256];	/* those it came from, space-separated */
};

/* Group the reports of @kind (NULL: all); returns the number of groups. */
static int group_reports(const struct report *rs, int n, const char *kind,
			 struct group **out, int *shown)
{
	struct group *g = NULL;
	int ng = 0;

	*shown = 0;
	for (int i = 0; i < n; i++) {
		const struct report *r = &rs[i];
		int j;

		if (kind && strcmp(kind, r->kind))
			continue;
		(*shown)++;
		for (j = 0; j < ng; j++)
			if (!strcmp(g[j].first->kind, r->kind) &&
			    !strcmp(g[j].first->caller, r->caller))
				break;
		if (j == ng) {
			g = xrealloc(g, (ng + 1) * sizeof(*g));
			memset(&g[ng], 0, sizeof(*g));
			g[ng++].first = r;
		}
		g[j].count++;
		g[j].last = r;
		if (!strstr(g[j].devices, r->device) &&
		    strlen(g[j].devices) + strlen(r->device) + 2 < sizeof(g[j].devices))
			sprintf(g[j].devices + strlen(g[j].devices), "%s%s",
				*g[j].devices ? " " : "", r->device);
	}
	*out = g;
	return ng;
}

static void violations_json(const struct group *g, int ng, int n, long long total)
{
	struct json j;

	json_init(&j, stdout);
	json_object(&j, NULL);
	json_int(&j, "violations", total);
	json_int(&j, "log_records", n);
	json_array(&j, "groups", true);
	for (int i = 0; i < ng; i++) {
		json_object(&j, NULL);
		json_int(&j, "count", g[i].count);
		json_string(&j, "kind", g[i].first->kind);
		json_string(&j, "caller", g[i].first->caller);
		json_string(&j, "driver", g[i].first->driver);
		json_string(&j, "devices", g[i].devices);
		json_string(&j, "map_site", g[i].first->map_site);
		json_uint(&j, "first_seq", g[i].first->seq);
		json_uint(&j, "last_seq", g[i].last->seq);
		json_fixed(&j, "first_time", g[i].first->time, 6);
		json_fixed(&j, "last_time", g[i].last->time, 6);
		json_string(&j, "report", g[i].last->text);
		json_end(&j);
	}
	json_end(&j);
	json_end(&j);
}

static void violations_text(const struct group *g, int ng, int n, long long total,
			    const char *kind, int shown)
{
	if (!shown) {
		printf("no violations%s%s in the log (%lld counted since the last clear)\n",
		       kind ? " of kind " : "", kind ? kind : "", total);
		return;
	}
	printf("%d report%s from %d call site%s (the log holds the last %d of %lld violations)\n",
	       shown, shown == 1 ? "" : "s", ng, ng == 1 ? "" : "s", n, total);
	for (int i = 0; i < ng; i++) {
		printf("\n%5d x %s in %s\n", g[i].count, g[i].first->kind, g[i].first->caller);
		printf("        driver %s, device %s\n", g[i].first->driver, g[i].devices);
		if (*g[i].first->map_site)
			printf("        mapped at %s\n", g[i].first->map_site);
		printf("        reports [%llu] at %.6f s .. [%llu] at %.6f s\n",
		       g[i].first->seq, g[i].first->time, g[i].last->seq, g[i].last->time);
	}
	printf("\nthe whole reports: cat %s/violations\n", tracker_dir);
}

static int cmd_violations(const char *kind, bool follow_mode)
{
	struct report *rs;
	struct group *g;
	struct stats st;
	long long total;
	int n, ng, shown;

	if (follow_mode)
		return follow(kind);
	read_stats(&st);
	total = stat_get(&st, "violations");
	n = read_reports(&rs);
	ng = group_reports(rs, n, kind, &g, &shown);
	if (use_json)
		violations_json(g, ng, n, total);
	else
		violations_text(g, ng, n, total, kind, shown);
	free(g);
	free_reports(rs, n);
	free_stats(&st);
	return shown ? EXIT_VIOLATIONS : 0;
}

/* ---------------------------------------------------------------------- */
/* dmaown record                                                          */

struct counted {
	struct tep_event *violation;
	int n;
};

static int count_one(struct tracecmd_input *h, struct tep_record *rec,
		     int cpu, void *data)
{
	struct counted *c = data;

	if (tep_data_type(tracecmd_get_tep(h), rec) == c->violation->id)
		c->n++;
	return 0;
}

/* dma_owner_violation events in the trace @file, -1 if it cannot be read. */
static int count_violations(const char *file)
{
	struct tracecmd_input *h = tracecmd_open(file, 0);
	struct counted c = {};

	if (!h)
		return -1;
	c.violation = tep_find_event_by_name(tracecmd_get_tep(h), "dma_owner",
					     "dma_owner_violation");
	if (c.violation)
		tracecmd_iterate_events(h, NULL, 0, count_one, &c);
	tracecmd_close(h);
	return c.n;
}

/* As the shell's "command not found": the command could not be run. */
#define EXIT_CANNOT_RUN	127

#define EVENT_SYSTEM	"dma_owner"

/*
 * What record changes in tracefs, put back on every way out: the events
 * it enabled and the tracing switch. fail() exits from anywhere, so the
 * putting back is an atexit() handler too. (The top-level buffer record
 * empties cannot be given back, as with trace-cmd record.)
 */
static struct {
	char **events;		/* the dma_owner events */
	char **patterns;	/* "^event$": libtracefs takes regexes */
	bool *enabled;		/* by record: it disables them again */
	int was_on;		/* tracing_on before, -1 not known */
	bool on_changed;
} saved = { .was_on = -1 };

/* The signal that asked record to stop, and the command's pid. */
static volatile sig_atomic_t caught;
static volatile pid_t command_pid;

static void restore_events(void)
{
	for (int i = 0; saved.events && saved.events[i]; i++) {
		if (!saved.enabled[i])
			continue;
		tracefs_event_disable(NULL, "^" EVENT_SYSTEM "$", saved.patterns[i]);
		saved.enabled[i] = false;
	}
}

static void restore_tracing_on(void)
{
	if (!saved.on_changed)
		return;
	if (saved.was_on > 0)
		tracefs_trace_on(NULL);
	else if (!saved.was_on)
		tracefs_trace_off(NULL);
	saved.on_changed = false;
}

static void restore_tracing(void)
{
	restore_events();
	restore_tracing_on();
}

/* Enable the dma_owner events that are not, remembering which. */
static void enable_events(void)
{
	char **events = tracefs_system_events(NULL, EVENT_SYSTEM);
	int n = 0;

	if (!events || !events[0])
		fail("no dma_owner trace events: this kernel is built without the DMA ownership tracker (build it with CONFIG_DMA_OWNER_DEBUG=y)");
	while (events[n])
		n++;
	saved.patterns = xmalloc(n * sizeof(*saved.patterns));
	saved.enabled = xmalloc(n * sizeof(*saved.enabled));
	saved.events = events;
	for (int i = 0; i < n; i++) {
		saved.patterns[i] = xasprintf("^%s$", events[i]);
		if (tracefs_event_is_enabled(NULL, "^" EVENT_SYSTEM "$",
					     saved.patterns[i]) == TRACEFS_ALL_ENABLED)
			continue;
		if (tracefs_event_enable(NULL, "^" EVENT_SYSTEM "$", saved.patterns[i]))
			fail("cannot enable the trace event %s/%s", EVENT_SYSTEM, events[i]);
		saved.enabled[i] = true;
	}
}

/*
 * Ctrl-C and Ctrl-\ reach the command from the terminal, and it decides;
 * record goes on to save what was traced. A kill(1) reaches record alone:
 * it passes SIGTERM and SIGHUP on to the command, which ends the same way.
 */
static void on_record_signal(int sig)
{
	caught = sig;
	if ((sig == SIGTERM || sig == SIGHUP) && command_pid > 0)
		kill(command_pid, sig);
}

static void catch_signals(void)
{
	struct sigaction sa = { .sa_handler = on_record_signal, .sa_flags = SA_RESTART };

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGQUIT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
}

/* Run @argv with tracing on; its wait status. */
static int run_command(char **argv)
{
	int status;
	pid_t pid;

	if (caught)
		fail("interrupted by signal %d before the command ran", caught);
	pid = fork();
	if (pid < 0)
		fail("fork: %s", strerror(errno));
	if (!pid) {
		execvp(argv[0], argv);
		fprintf(stderr, "dmaown: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(EXIT_CANNOT_RUN);
	}
	command_pid = pid;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	command_pid = 0;
	return status;
}

/* Save the top-level buffer with "trace-cmd extract -o @out". */
static void extract(const char *out)
{
	int status;
	pid_t pid;

	pid = fork();
	if (pid < 0)
		fail("fork: %s", strerror(errno));
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		/* trace-cmd's progress talk would drown the command's output. */
		dup2(null, 1);
		dup2(null, 2);
		/* A late Ctrl-C, meant for the command, must not lose the trace. */
		signal(SIGINT, SIG_IGN);
		execlp("trace-cmd", "trace-cmd", "extract", "-o", out, (char *)NULL);
		_exit(EXIT_CANNOT_RUN);
	}
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) == EXIT_CANNOT_RUN)
		fail("cannot save the trace: trace-cmd is not installed (apt-get install trace-cmd)");
	if (WEXITSTATUS(status))
		fail("trace-cmd extract -o %s failed", out);
}

static int cmd_record(const char *out, char **argv)
{
	int status, ret = 0, nviol;

	if (geteuid() != 0)
		fail("needs root to trace (run it as root, e.g. with sudo)");
	if (!tracefs_tracing_dir())
		fail("tracefs is not mounted: mount -t tracefs nodev /sys/kernel/tracing");
	catch_signals();
	if (atexit(restore_tracing))
		fail("atexit: cannot register the clean-up");
	/* Like trace-cmd record, it uses the top-level buffer. */
	saved.was_on = tracefs_trace_is_on(NULL);
	enable_events();
	/* Only what the command does: empty the buffer, then trace. */
	saved.on_changed = true;
	tracefs_trace_off(NULL);
	if (tracefs_instance_file_write(NULL, "trace", "") < 0)
		fail("cannot clear the trace buffer");
	tracefs_trace_on(NULL);

	status = run_command(argv);

	/* The events back as they were, but tracing off until it is saved. */
	tracefs_trace_off(NULL);
	restore_events();
	extract(out);
	restore_tracing_on();

	/* How many violations went into the trace decides the exit status. */
	nviol = count_violations(out);
	if (WIFEXITED(status) && WEXITSTATUS(status) == EXIT_CANNOT_RUN)
		ret = EXIT_USAGE;
	fprintf(stderr, "dmaown: trace written to %s", out);
	if (nviol >= 0)
		fprintf(stderr, ", %d violation%s", nviol, nviol == 1 ? "" : "s");
	fprintf(stderr, "; read it with: dmaown timeline %s, or trace-cmd report %s\n", out, out);
	if (WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status))) {
		fprintf(stderr, "dmaown: the command %s %d\n",
			WIFSIGNALED(status) ? "was killed by signal" : "exited with",
			WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
		ret = EXIT_USAGE;
	}
	if (!ret && nviol > 0)
		ret = EXIT_VIOLATIONS;
	return ret;
}

/* ---------------------------------------------------------------------- */
/* dmaown timeline                                                        */

/* The tracker's trace events (tracepoints/dma_owner.h), one per operation. */
enum op { OP_MAP, OP_UNMAP, OP_SYNC_CPU, OP_SYNC_DEV, OP_VIOLATION, NR_OPS };

static const char *const event_names[NR_OPS] = {
	[OP_MAP]	= "dma_owner_map",
	[OP_UNMAP]	= "dma_owner_unmap",
	[OP_SYNC_CPU]	= "dma_owner_sync_for_cpu",
	[OP_SYNC_DEV]	= "dma_owner_sync_for_device",
	[OP_VIOLATION]	= "dma_owner_violation",
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

static int timeline_event(struct tracecmd_input *h, struct tep_record *rec,
			  int cpu, void *data)
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

static int cmd_timeline(const char *file, const char *dev, const char *handle,
			const char *svg, const char *html)
{
	struct timeline t = { .want_dev = dev, .last = -1 };
	struct tracecmd_input *h;
	int shown = 0;

	if (handle) {
		char *end;

		errno = 0;
		t.want_handle = strtoull(handle, &end, 0);
		if (end == handle || *end || errno)
			fail("--handle %s: not a number (e.g. --handle 0x579d000)", handle);
		t.have_handle = true;
	}
	if (access(file, R_OK))
		fail("cannot read %s: %s", file, strerror(errno));
	h = tracecmd_open(file, 0);
	if (!h)
		fail("%s is not a trace-cmd trace (make one with: dmaown record -o FILE -- COMMAND)",
		     file);
	t.tep = tracecmd_get_tep(h);
	for (int op = 0; op < NR_OPS; op++)
		t.evs[op] = tep_find_event_by_name(t.tep, "dma_owner", event_names[op]);
	if (!t.evs[OP_MAP])
		fail("%s holds no dma_owner events: record with dmaown record", file);
	tracecmd_iterate_events(h, NULL, 0, timeline_event, &t);

	for (int i = 0; i < t.nm; i++)
		if (selected(&t, &t.m[i])) {
			shown++;
			t.nviol += t.m[i].nviol;
		}
	if (svg || html) {
		FILE *f = fopen(svg ? svg : html, "w");

		if (!f)
			fail("cannot write %s: %s", svg ? svg : html, strerror(errno));
		if (html) {
			timeline_page(f, &t, file);
		} else {
			/* One SVG holds the first matching mapping with a violation, else the first. */
			int pick = -1;

			for (int i = 0; i < t.nm; i++)
				if (selected(&t, &t.m[i]) && (pick < 0 || (t.m[i].nviol && !t.m[pick].nviol)))
					pick = i;
			if (pick < 0)
				fail("no mapping in %s matches", file);
			svg_mapping(f, &t, &t.m[pick]);
		}
		if (fclose(f))
			fail("cannot write %s: %s", svg ? svg : html, strerror(errno));
		if (html && shown > PAGE_MAX)
			shown = PAGE_MAX;
		fprintf(stderr, "dmaown: %d mapping%s written to %s\n", svg ? 1 : shown,
			shown == 1 || svg ? "" : "s", svg ? svg : html);
	} else if (use_json) {
		timeline_json(&t);
	} else {
		timeline_text(&t);
	}
	tracecmd_close(h);
	return t.nviol ? EXIT_VIOLATIONS : 0;
}

/* ---------------------------------------------------------------------- */

static const char usage[] =
"usage: dmaown [--json] [--debugfs DIR] COMMAND [ARGS]\n"
"\n"
"Read, watch and record the kernel's DMA ownership tracker\n"
"(CONFIG_DMA_OWNER_DEBUG). It knows, for every streaming DMA mapping,\n"
"whether the CPU or the device owns the buffer, and reports the calls that\n"
"break the rules (Documentation/dev-tools/dma-owner.rst).\n"
"\n"
"commands:\n"
"  status                    on or off, filter, counters, violations by kind\n"
"                            and by driver\n"
"  mappings [--dev NAME] [--driver NAME] [--owner cpu|device]\n"
"           [--older-than T] live mappings; T like 500ms, 2s, 5m, 1h\n"
"                            (a bare number is seconds). --owner cpu also\n"
"                            matches mappings the CPU owns in part\n"
"  violations [--kind K] [--follow]\n"
"                            the reports in the log, grouped by kind and call\n"
"                            site with counts; --follow prints new ones as\n"
"                            they arrive, until interrupted\n"
"  record [-o FILE] -- COMMAND [ARGS]\n"
"                            trace the dma_owner events while COMMAND runs,\n"
"                            into FILE (default dmaown.dat), which\n"
"                            'trace-cmd report' reads too\n"
"  timeline FILE [--handle H | --dev NAME] [--svg OUT | --html OUT]\n"
"                            each mapping's life in a recorded trace: who\n"
"                            owned it between calls, and where the\n"
"                            violations were; as text, or a picture\n"
"\n"
"options:\n"
"  --json          machine-readable output (status, mappings, violations,\n"
"                  timeline; --follow prints one object per line)\n"
"  --debugfs DIR   where debugfs is mounted (default /sys/kernel/debug)\n"
"  -h, --help      this text\n"
"\n"
"examples:\n"
"  dmaown status                          is it on, has anything fired?\n"
"  dmaown violations --kind missing-sync-for-device\n"
"  dmaown mappings --driver e1000 --owner cpu --older-than 2s\n"
"                                         buffers the CPU has held for long\n"
"  dmaown record -o nic.dat -- ping -c 100 10.0.2.2\n"
"  dmaown timeline nic.dat --dev 0000:00:02.0 --html nic.html\n"
"  dmaown status >/dev/null || echo 'DMA API misuse found'   (CI gate)\n"
"\n"
"exit status: 0 nothing wrong, 1 violations found (status, violations,\n"
"record, timeline), 2 usage or environment error: not root, debugfs or\n"
"tracefs not mounted, a kernel without the tracker, a bad argument.\n";

enum { OPT_JSON = 256, OPT_DEBUGFS, OPT_DEV, OPT_DRIVER, OPT_OWNER,
       OPT_OLDER, OPT_KIND, OPT_FOLLOW, OPT_HANDLE, OPT_SVG, OPT_HTML };

/* The command line's options; the command decides which it takes. */
struct args {
	const char *dev, *drv, *owner, *older, *kind, *handle, *svg, *html, *out;
	bool follow;
};

/* Parse options until getopt stops; --help prints the usage and exits. */
static void parse_options(struct args *a, int argc, char **argv, const char *optstring)
{
	static const struct option opts[] = {
		{ "json", no_argument, NULL, OPT_JSON },
		{ "debugfs", required_argument, NULL, OPT_DEBUGFS },
		{ "dev", required_argument, NULL, OPT_DEV },
		{ "driver", required_argument, NULL, OPT_DRIVER },
		{ "owner", required_argument, NULL, OPT_OWNER },
		{ "older-than", required_argument, NULL, OPT_OLDER },
		{ "kind", required_argument, NULL, OPT_KIND },
		{ "follow", no_argument, NULL, OPT_FOLLOW },
		{ "handle", required_argument, NULL, OPT_HANDLE },
		{ "svg", required_argument, NULL, OPT_SVG },
		{ "html", required_argument, NULL, OPT_HTML },
		{ "output", required_argument, NULL, 'o' },
		{ "help", no_argument, NULL, 'h' },
		{}
	};
	int c;

	while ((c = getopt_long(argc, argv, optstring, opts, NULL)) != -1) {
		switch (c) {
		case OPT_JSON:
			use_json = true;
			break;
		case OPT_DEBUGFS:
			debugfs = optarg;
			break;
		case OPT_DEV:
			a->dev = optarg;
			break;
		case OPT_DRIVER:
			a->drv = optarg;
			break;
		case OPT_OWNER:
			a->owner = optarg;
			break;
		case OPT_OLDER:
			a->older = optarg;
			break;
		case OPT_KIND:
			a->kind = optarg;
			break;
		case OPT_FOLLOW:
			a->follow = true;
			break;
		case OPT_HANDLE:
			a->handle = optarg;
			break;
		case OPT_SVG:
			a->svg = optarg;
			break;
		case OPT_HTML:
			a->html = optarg;
			break;
		case 'o':
			a->out = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			exit(0);
		default:
			bad_usage("bad option");
		}
	}
}

int main(int argc, char **argv)
{
	struct args a = {};
	const char *cmd;
	long long older_ms = -1;

	/* "+": options stop at the first non-option, the command. */
	parse_options(&a, argc, argv, "+ho:");
	if (optind >= argc)
		bad_usage("which command? status, mappings, violations, record or timeline");
	cmd = argv[optind];
	if (!strcmp(cmd, "help")) {
		fputs(usage, stdout);
		return 0;
	}
	argc -= optind;
	argv += optind;
	optind = 0;	/* glibc: start again, at argv[1] */
	/*
	 * Options after the command, anywhere among its arguments; record's
	 * end at the "--" or the first word of its COMMAND, which keeps its own.
	 */
	parse_options(&a, argc, argv, strcmp(cmd, "record") ? "ho:" : "+ho:");

#define ONLY(cond, what) do { if (!(cond)) bad_usage("%s does not take %s", cmd, what); } while (0)
	if (!strcmp(cmd, "status")) {
		ONLY(!a.dev && !a.drv && !a.owner && !a.older && !a.kind && !a.follow && !a.handle &&
		     !a.svg && !a.html && !a.out && optind == argc, "those arguments");
		need_tracker();
		return cmd_status();
	}
	if (!strcmp(cmd, "mappings")) {
		ONLY(!a.kind && !a.follow && !a.handle && !a.svg && !a.html && !a.out &&
		     optind == argc,
		     "those arguments (filters: --dev, --driver, --owner, --older-than)");
		if (a.owner && strcmp(a.owner, "cpu") && strcmp(a.owner, "device"))
			bad_usage("--owner %s: say cpu or device", a.owner);
		if (a.older)
			older_ms = parse_duration_ms(a.older);
		if (a.older && older_ms < 0)
			bad_usage("--older-than %s: a duration like 500ms, 2s, 5m or 1h", a.older);
		need_tracker();
		return cmd_mappings(a.dev, a.drv, a.owner, older_ms);
	}
	if (!strcmp(cmd, "violations")) {
		ONLY(!a.dev && !a.drv && !a.owner && !a.older && !a.handle && !a.svg && !a.html &&
		     !a.out && optind == argc, "those arguments (filters: --kind, --follow)");
		need_tracker();
		/* The kinds are the kernel's: stats names them. */
		if (a.kind) {
			struct stats st;

			read_stats(&st);
			if (!known_kind(&st, a.kind))
				bad_usage("--kind %s: not a violation kind; the kinds are %s",
					  a.kind, kind_list(&st));
			free_stats(&st);
		}
		return cmd_violations(a.kind, a.follow);
	}
	if (!strcmp(cmd, "record")) {
		ONLY(!a.dev && !a.drv && !a.owner && !a.older && !a.kind && !a.follow && !a.handle &&
		     !a.svg && !a.html, "those options (only -o FILE)");
		if (optind >= argc)
			bad_usage("record: what should run? dmaown record -o FILE -- COMMAND [ARGS]");
		if (use_json)
			bad_usage("record writes a trace file; read it with: dmaown --json timeline FILE");
		return cmd_record(a.out ? a.out : "dmaown.dat", argv + optind);
	}
	if (!strcmp(cmd, "timeline")) {
		ONLY(!a.drv && !a.owner && !a.older && !a.kind && !a.follow && !a.out,
		     "those options");
		if (optind != argc - 1)
			bad_usage("timeline: which trace? dmaown timeline FILE [--handle H | --dev NAME]");
		if (a.handle && a.dev)
			bad_usage("timeline: --handle or --dev, not both");
		if (a.svg && a.html)
			bad_usage("timeline: --svg or --html, not both");
		return cmd_timeline(argv[optind], a.dev, a.handle, a.svg, a.html);
	}
	bad_usage("%s: no such command (status, mappings, violations, record, timeline)", cmd);
}
