// SPDX-License-Identifier: GPL-2.0
/*
 * dmaown clear: empty the tracker's violations log and zero its counters,
 * as "echo 1 >debugfs/dma-owner/clear" does.
 */
#include <stdio.h>

#include "dmaown.h"

const struct option clear_options[] = {
	{}
};

static const char clear_help[] =
"usage: dmaown [--debugfs DIR] clear\n"
"\n"
"Empty the tracker's violations log and zero its counters: the calls, the\n"
"violations of every kind, untracked, the reports ignore rules silenced\n"
"(the rules stay); peak_live restarts from live. The live mappings stay\n"
"tracked. Clear before a test, and 'dmaown status' after it says what the\n"
"test did.\n"
"\n"
"example:\n"
"  dmaown clear && ./my-test && dmaown status\n"
"\n"
"exit status: 0 cleared, 2 usage or environment error (a bundle, which is a\n"
"copy; a kernel that refused).\n";

int cmd_clear(int argc, char **argv)
{
	struct cmd_opts o = { .options = clear_options, .help = clear_help };
	int err;

	while (cmd_getopt(&o, argc, argv) != -1)
		;
	if (o.other || optind != argc)
		bad_usage("clear takes no arguments");
	if (use_json)
		bad_usage("clear prints no JSON: read the counters after it with dmaown --json status");
	need_live_tracker("clear");
	err = write_tracker("clear", "1");
	if (err)
		fail("clear: the kernel refused to clear %s: %s", tracker_dir, errno_text(err));
	printf("cleared the violations log and the counters of %s\n", tracker_dir);
	return 0;
}
