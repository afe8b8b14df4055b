// SPDX-License-Identifier: GPL-2.0
/*
 * dmaown filter: the device or driver the tracker is limited to: shown,
 * set, or taken away.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmaown.h"

enum { OPT_NONE = 256 };

const struct option filter_options[] = {
	{ "none", no_argument, NULL, OPT_NONE },
	{}
};

static const char filter_help[] =
"usage: dmaown [--json] [--debugfs DIR] filter [NAME | --none]\n"
"\n"
"The tracker checks every device, or only the one device or driver its\n"
"filter names. With no argument, print the filter: the name, or\n"
"(everything). With NAME (a device as dev_name() says it, e.g.\n"
"0000:00:02.0, or a driver, e.g. e1000), track only that; with --none,\n"
"every device again.\n"
"\n"
"Changing the filter empties the tracker's table of live mappings: the\n"
"mappings made before are unknown to it, so a buffer that stays mapped (a\n"
"ring, a pool) goes unchecked until its driver maps it again (reload the\n"
"driver, or bring the interface down and up).\n"
"\n"
"  --none      track every device (an empty NAME is refused, so that an\n"
"              unset shell variable does not widen the filter)\n"
"\n"
"examples:\n"
"  dmaown filter e1000        only e1000's mappings\n"
"  dmaown filter              e1000\n"
"  dmaown filter --none       every device\n"
"\n"
"exit status: 0, or 2 for a usage or environment error, and when the\n"
"kernel refuses the name (its errno is printed).\n";

static void print_filter(const char *filter, const char *before)
{
	if (use_json) {
		struct json j;

		json_init(&j, stdout);
		json_object(&j, NULL);
		json_string(&j, "filter", filter);
		if (before)
			json_string(&j, "before", before);
		json_end(&j);
		return;
	}
	if (!before) {
		printf("%s\n", *filter ? filter : "(everything)");
		return;
	}
	printf("filter: %s (was %s)\n", *filter ? filter : "(everything)",
	       *before ? before : "(everything)");
	printf("the tracker emptied its table of live mappings: those mapped before now go unchecked until they are mapped again\n");
}

/* Why the kernel may refuse a filter: debugfs-ui/owner_debugfs.c. */
static const char *refusal_hint(int err)
{
	switch (err) {
	case EINVAL:
		return ": a name is printable characters without spaces";
	case E2BIG:
		return ": the name is longer than the kernel takes";
	case ENODEV:
		return ": the tracker failed to start (see dmesg)";
	default:
		return "";
	}
}

int cmd_filter(int argc, char **argv)
{
	struct cmd_opts o = { .options = filter_options, .help = filter_help };
	const char *name = NULL;
	bool none = false;
	char *before, *after;
	int c, err;

	while ((c = cmd_getopt(&o, argc, argv)) != -1)
		if (c == OPT_NONE)
			none = true;
	if (o.other || argc - optind > 1 || (none && optind != argc))
		bad_usage("filter takes one NAME, or --none, or nothing to print it");
	if (optind < argc)
		name = argv[optind];
	if (name && !*name)
		bad_usage("filter \"\": an empty name; to track every device say: dmaown filter --none");
	if (!name && !none) {
		need_tracker();
		before = read_filter();
		print_filter(before, NULL);
		free(before);
		return 0;
	}
	need_live_tracker("filter");
	before = read_filter();
	/* No newline: the kernel counts it in the name's length. "\n" is "". */
	err = write_tracker("filter", none ? "\n" : name);
	if (err)
		fail("filter: the kernel refused %s%s%s: %s%s", none ? "--none" : "\"",
		     none ? "" : name, none ? "" : "\"", errno_text(err), refusal_hint(err));
	after = read_filter();
	print_filter(after, before);
	free(before);
	free(after);
	return 0;
}
