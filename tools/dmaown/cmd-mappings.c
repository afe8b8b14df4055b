// SPDX-License-Identifier: GPL-2.0
/*
 * dmaown mappings: the live mappings that match the filters: a device, a
 * driver, who owns them, how long ago they were mapped.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmaown.h"

enum { OPT_DEV = 256, OPT_DRIVER, OPT_OWNER, OPT_OLDER };

const struct option mappings_options[] = {
	{ "dev", required_argument, NULL, OPT_DEV },
	{ "driver", required_argument, NULL, OPT_DRIVER },
	{ "owner", required_argument, NULL, OPT_OWNER },
	{ "older-than", required_argument, NULL, OPT_OLDER },
	{}
};

static const char mappings_help[] =
"usage: dmaown [--json] [--debugfs DIR] mappings [--dev NAME] [--driver NAME]\n"
"                                       [--owner cpu|device] [--older-than T]\n"
"\n"
"The live mappings that match every filter given, one per line. A buffer\n"
"the CPU has held for seconds is a driver that forgot to give it back.\n"
"\n"
"  --dev NAME          those of this device (e.g. 0000:00:02.0)\n"
"  --driver NAME       those of this driver\n"
"  --owner cpu|device  those this side owns; cpu also matches mappings the\n"
"                      CPU owns in part\n"
"  --older-than T      those mapped more than T ago: 500ms, 2s, 5m, 1h (a\n"
"                      bare number is seconds); in a bundle (dmaown save),\n"
"                      the ages are those at the save\n"
"\n"
"exit status: 0, or 2 for a usage or environment error.\n";

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

static void show_mappings(const char *dev, const char *drv, const char *owner,
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
}

int cmd_mappings(int argc, char **argv)
{
	struct cmd_opts o = { .options = mappings_options, .help = mappings_help };
	const char *dev = NULL, *drv = NULL, *owner = NULL, *older = NULL;
	long long older_ms = -1;
	int c;

	while ((c = cmd_getopt(&o, argc, argv)) != -1) {
		switch (c) {
		case OPT_DEV:
			dev = optarg;
			break;
		case OPT_DRIVER:
			drv = optarg;
			break;
		case OPT_OWNER:
			owner = optarg;
			break;
		case OPT_OLDER:
			older = optarg;
			break;
		}
	}
	if (o.other || optind != argc)
		bad_usage("mappings does not take those arguments (filters: --dev, --driver, --owner, --older-than)");
	if (owner && strcmp(owner, "cpu") && strcmp(owner, "device"))
		bad_usage("--owner %s: say cpu or device", owner);
	if (older)
		older_ms = parse_duration_ms(older);
	if (older && older_ms < 0)
		bad_usage("--older-than %s: a duration like 500ms, 2s, 5m or 1h", older);
	need_tracker();
	show_mappings(dev, drv, owner, older_ms);
	return 0;
}
