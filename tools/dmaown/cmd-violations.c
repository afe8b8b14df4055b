// SPDX-License-Identifier: GPL-2.0
/*
 * dmaown violations: the reports in the tracker's log, grouped by kind and
 * call site with counts; --follow prints the new ones as they come.
 */
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dmaown.h"

enum { OPT_KIND = 256, OPT_DRIVER, OPT_FOLLOW };

const struct option violations_options[] = {
	{ "kind", required_argument, NULL, OPT_KIND },
	{ "driver", required_argument, NULL, OPT_DRIVER },
	{ "follow", no_argument, NULL, OPT_FOLLOW },
	{}
};

static const char violations_help[] =
"usage: dmaown [--json] [--debugfs DIR] violations [--kind K] [--driver NAME]\n"
"                                                  [--follow]\n"
"\n"
"The reports in the tracker's log, grouped by kind and call site, with\n"
"counts, the devices, where the buffer was mapped, and when they came\n"
"(seconds since boot). The filters combine: a report is shown if it\n"
"matches every one given.\n"
"\n"
"  --kind K        only those of kind K, one of the kinds stats counts\n"
"                  (missing-sync-for-device, leak, ...)\n"
"  --driver NAME   only those of devices bound to driver NAME (e1000)\n"
"  --follow        print each new report on one line as it arrives (one\n"
"                  JSON object per line with --json), until interrupted\n"
"\n"
"examples:\n"
"  dmaown violations --driver e1000\n"
"  dmaown violations --kind missing-sync-for-device --driver e1000 --follow\n"
"\n"
"exit status: 0 none in the log (that match), 1 some (with --follow: some\n"
"printed), 2 usage or environment error.\n";

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

static void on_signal(int sig __maybe_unused)
{
	stop = 1;
}

/* Whether @r passes the filters given (NULL: not given). */
static bool report_matches(const struct report *r, const char *kind, const char *driver)
{
	return (!kind || !strcmp(kind, r->kind)) && (!driver || !strcmp(driver, r->driver));
}

/* Print records as they arrive, until a signal. */
static int follow(const char *kind, const char *driver)
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
			if (report_matches(&rs[i], kind, driver)) {
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

/* Group the reports that match; returns the number of groups. */
static int group_reports(const struct report *rs, int n, const char *kind,
			 const char *driver, struct group **out, int *shown)
{
	struct group *g = NULL;
	int ng = 0;

	*shown = 0;
	for (int i = 0; i < n; i++) {
		const struct report *r = &rs[i];
		int j;

		if (!report_matches(r, kind, driver))
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
			    const char *kind, const char *driver, int shown)
{
	if (!shown) {
		printf("no violations%s%s%s%s in the log (%lld counted since the last clear)\n",
		       kind ? " of kind " : "", kind ? kind : "",
		       driver ? " by driver " : "", driver ? driver : "", total);
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

int cmd_violations(int argc, char **argv)
{
	struct cmd_opts o = { .options = violations_options, .help = violations_help };
	const char *kind = NULL, *driver = NULL;
	bool follow_mode = false;
	struct report *rs;
	struct group *g;
	struct stats st;
	long long total;
	int c, n, ng, shown;

	while ((c = cmd_getopt(&o, argc, argv)) != -1) {
		switch (c) {
		case OPT_KIND:
			kind = optarg;
			break;
		case OPT_DRIVER:
			driver = optarg;
			break;
		case OPT_FOLLOW:
			follow_mode = true;
			break;
		}
	}
	if (o.other || optind != argc)
		bad_usage("violations does not take those arguments (filters: --kind, --driver, --follow)");
	if (follow_mode)
		need_live_tracker("violations --follow");
	else
		need_tracker();
	read_stats(&st);
	/* The kinds are the kernel's: stats names them. */
	if (kind && !known_kind(&st, kind))
		bad_usage("--kind %s: not a violation kind; the kinds are %s",
			  kind, kind_list(&st));
	if (follow_mode) {
		free_stats(&st);
		return follow(kind, driver);
	}
	total = stat_get(&st, "violations");
	n = read_reports(&rs);
	ng = group_reports(rs, n, kind, driver, &g, &shown);
	if (use_json)
		violations_json(g, ng, n, total);
	else
		violations_text(g, ng, n, total, kind, driver, shown);
	free(g);
	free_reports(rs, n);
	free_stats(&st);
	return shown ? EXIT_VIOLATIONS : 0;
}
