// SPDX-License-Identifier: GPL-2.0
/*
 * dmaown status: the tracker at a glance: on or off, its filter, its
 * counters, the devices it cannot fully check, the violations by kind
 * (from stats) and by driver (from the reports in the log), and the
 * reports ignore rules silenced.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmaown.h"

const struct option status_options[] = {
	{}
};

static const char status_help[] =
"usage: dmaown [--json] [--debugfs DIR] status\n"
"\n"
"Whether the tracker is on, its filter, its counters (mappings, calls,\n"
"violations by kind), the devices whose unknown handles go unreported and\n"
"why, the reports in the log by driver, and, when there are ignore rules,\n"
"how many reports they silenced, rule by rule (dmaown ignore --help).\n"
"\n"
"examples:\n"
"  dmaown status\n"
"  dmaown --json status | jq .violations_by_kind\n"
"  dmaown clear; ./my-test; dmaown status >/dev/null || echo 'DMA API misuse'\n"
"\n"
"exit status: 0 no violation counted since the last clear (reports that\n"
"ignore rules silenced do not count), 1 some, 2 usage or environment\n"
"error.\n";

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
	ignore_rules_json(&j, "ignore_rules", st->rules, st->nrules);
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
	if (st->nrules || stat_get(st, "ignored") > 0) {
		printf("ignored:    %lld (reports the ignore rules silenced, not in violations)\n",
		       stat_get(st, "ignored"));
		ignore_rules_text(st->rules, st->nrules, "  ");
	}
}

int cmd_status(int argc, char **argv)
{
	struct cmd_opts o = { .options = status_options, .help = status_help };
	struct driver_count *drv;
	struct report *rs;
	struct stats st;
	long long violations;
	int nr, ndrv;
	char *filter;

	while (cmd_getopt(&o, argc, argv) != -1)
		;
	if (o.other || optind != argc)
		bad_usage("status does not take those arguments");
	need_tracker();
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
