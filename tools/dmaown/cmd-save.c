// SPDX-License-Identifier: GPL-2.0
/*
 * dmaown save: the tracker's files into a bundle (bundle.c), for reading
 * on another machine with --debugfs.
 */
#include <stdio.h>

#include "dmaown.h"

const struct option save_options[] = {
	{}
};

static const char save_help[] =
"usage: dmaown [--debugfs DIR] save BUNDLE\n"
"\n"
"Copy the tracker's files (every readable file of debugfs/dma-owner/: stats,\n"
"violations, mappings, filter, enabled, ignore) and its module parameters\n"
"into the new directory BUNDLE, with a manifest naming the kernel (uname\n"
"-r), the host, the time and this dmaown's version. Ship it; anyone reads\n"
"it, without root or the tracker, with dmaown --debugfs BUNDLE and the\n"
"read commands (status, violations, mappings, filter, ignore), which print\n"
"what they printed on the machine when it was saved. The commands that\n"
"change the tracker (clear, filter NAME, ignore add) refuse a bundle.\n"
"BUNDLE must not exist, or be an empty directory only you can write (save\n"
"runs as root: it writes through no link and no directory another user\n"
"can change); it is made readable by its owner only, as debugfs is.\n"
"\n"
"examples:\n"
"  dmaown save /tmp/nic-bug && tar czf nic-bug.tar.gz -C /tmp nic-bug\n"
"  dmaown --debugfs nic-bug violations     (elsewhere, after tar xzf)\n"
"\n"
"exit status: 0 saved, 2 usage or environment error (BUNDLE exists and is\n"
"not empty or not yours alone, a file that cannot be read or written).\n";

int cmd_save(int argc, char **argv)
{
	struct cmd_opts o = { .options = save_options, .help = save_help };

	while (cmd_getopt(&o, argc, argv) != -1)
		;
	if (o.other)
		bad_usage("save takes no options, only the directory: dmaown save BUNDLE");
	if (optind != argc - 1)
		bad_usage("save: where to? dmaown save BUNDLE (a new directory)");
	if (use_json)
		bad_usage("save writes a directory; read it with: dmaown --json --debugfs %s status",
			  argv[optind]);
	need_live_tracker("save");
	save_bundle(argv[optind]);
	return 0;
}
