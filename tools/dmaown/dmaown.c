// SPDX-License-Identifier: GPL-2.0
/*
 * dmaown - read, watch and record the DMA ownership tracker
 * (CONFIG_DMA_OWNER_DEBUG, /sys/kernel/debug/dma-owner/).
 *
 * This file is main(): the global options and the dispatch, through
 * commands[], to the commands, one per cmd-*.c, each with its own options
 * and --help. Run "dmaown --help" for the tour.
 *
 * Exit status: 0 nothing wrong, 1 violations found, 2 usage or environment
 * error (the message says how to fix it); record adds 3, the command it ran
 * failed.
 */
#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dmaown.h"

bool use_json;
const char *debugfs = "/sys/kernel/debug";

struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const struct option *options;	/* those it takes after its name */
	const char *summary;		/* its line in dmaown --help */
};

static const struct command commands[] = {
	{ "status", cmd_status, status_options,
	  "on or off, filter, counters, violations by kind and by driver" },
	{ "mappings", cmd_mappings, mappings_options,
	  "the live mappings, by device, driver, owner or age" },
	{ "violations", cmd_violations, violations_options,
	  "the reports in the log, grouped by kind and call site" },
	{ "record", cmd_record, record_options,
	  "trace the dma_owner events while a command runs" },
	{ "timeline", cmd_timeline, timeline_options,
	  "each mapping's life in a recorded trace, as text or a picture" },
	{ "save", cmd_save, save_options,
	  "copy the tracker's files into a bundle to read elsewhere" },
	{ "clear", cmd_clear, clear_options,
	  "empty the violations log and zero the counters" },
	{ "filter", cmd_filter, filter_options,
	  "show or set the one device or driver the tracker checks" },
	{ "ignore", cmd_ignore, ignore_options,
	  "list, add or remove the rules that silence known findings" },
};

#define NR_COMMANDS	(sizeof(commands) / sizeof(commands[0]))

static const char usage_head[] =
"usage: dmaown [--json] [--debugfs DIR] COMMAND [ARGS]\n"
"\n"
"Read, watch and record the kernel's DMA ownership tracker\n"
"(CONFIG_DMA_OWNER_DEBUG). It knows, for every streaming DMA mapping,\n"
"whether the CPU or the device owns the buffer, and reports the calls that\n"
"break the rules (Documentation/dev-tools/dma-owner.rst).\n"
"\n"
"commands (dmaown COMMAND --help: its arguments and options):\n";

static const char usage_tail[] =
"\n"
"options, before or after the command:\n"
"  --json          machine-readable output (status, mappings, violations,\n"
"                  timeline, filter, ignore; --follow prints one object per\n"
"                  line)\n"
"  --debugfs DIR   where debugfs is mounted (default /sys/kernel/debug), or\n"
"                  a bundle that dmaown save wrote: the read commands then\n"
"                  print what they printed where it was saved, without root\n"
"  -h, --help      this text; after a command, the command's\n"
"  --version       dmaown's version\n"
"\n"
"examples:\n"
"  dmaown status                          is it on, has anything fired?\n"
"  dmaown violations --kind missing-sync-for-device --driver e1000\n"
"  dmaown mappings --driver e1000 --owner cpu --older-than 2s\n"
"                                         buffers the CPU has held for long\n"
"  dmaown record -o nic.dat -- ping -c 100 10.0.2.2\n"
"  dmaown timeline nic.dat --dev 0000:00:02.0 --html nic.html\n"
"  dmaown clear; ./my-test; dmaown status >/dev/null || echo 'DMA API misuse'\n"
"                                         (CI gate)\n"
"  dmaown filter e1000                    check e1000's mappings only\n"
"  dmaown ignore add missing-sync-for-device:e1000_clean_rx_irq\n"
"                                         silence a known finding\n"
"  dmaown save /tmp/bug                   then, on any machine:\n"
"  dmaown --debugfs /tmp/bug violations\n"
"\n"
"exit status: 0 nothing wrong, 1 violations found (status, violations,\n"
"record, timeline), 2 usage or environment error: not root, debugfs or\n"
"tracefs not mounted, a kernel without the tracker, a bad argument, a\n"
"change the kernel refused, a change to a bundle; 3 (record only) no\n"
"violation, but the command it ran failed.\n";

static void usage(void)
{
	fputs(usage_head, stdout);
	for (size_t i = 0; i < NR_COMMANDS; i++)
		printf("  %-11s %s\n", commands[i].name, commands[i].summary);
	fputs(usage_tail, stdout);
}

/* "status, mappings, ... @last timeline": the commands, for a message. */
static const char *command_names(const char *last)
{
	static char names[256];

	names[0] = 0;
	for (size_t i = 0; i < NR_COMMANDS; i++)
		snprintf(names + strlen(names), sizeof(names) - strlen(names), "%s%s",
			 !i ? "" : i + 1 < NR_COMMANDS ? ", " : last, commands[i].name);
	return names;
}

/* ---------------------------------------------------------------------- */
/* The options                                                            */

/*
 * getopt_long() is given every option of every command, so that each
 * command can refuse another's in its own words, and so that abbreviations
 * ("--dr") resolve the same whatever the command. Their vals are OPT_BASE
 * plus their place here; cmd_getopt() turns them back into the command's.
 */
#define OPT_BASE	256
#define MAX_OPTIONS	32

static const struct option global_options[] = {
	{ "json", no_argument, NULL, 0 },
	{ "debugfs", required_argument, NULL, 0 },
	{ "version", no_argument, NULL, 0 },
	{}
};

static const struct option help_option[] = {
	{ "help", no_argument, NULL, 'h' },
	{}
};

static struct option all_options[MAX_OPTIONS + 1];
static char all_short[2 * MAX_OPTIONS + 2] = "+";	/* "+h..." */
static int nr_all;

static void add_options(const struct option *opts)
{
	for (; opts->name; opts++) {
		bool known = false;

		for (int i = 0; i < nr_all; i++)
			known |= !strcmp(all_options[i].name, opts->name);
		if (known)
			continue;
		if (nr_all == MAX_OPTIONS)
			fail("more than %d options: raise MAX_OPTIONS", MAX_OPTIONS);
		all_options[nr_all] = *opts;
		all_options[nr_all].flag = NULL;
		all_options[nr_all].val = OPT_BASE + nr_all;
		nr_all++;
		/* Its short form, e.g. -o for --output. */
		if (opts->val < OPT_BASE && isalnum(opts->val)) {
			size_t len = strlen(all_short);

			all_short[len++] = opts->val;
			if (opts->has_arg == required_argument)
				all_short[len++] = ':';
			all_short[len] = 0;
		}
	}
}

static void list_all_options(void)
{
	if (nr_all)
		return;
	add_options(global_options);
	for (size_t i = 0; i < NR_COMMANDS; i++)
		add_options(commands[i].options);
	add_options(help_option);
}

int cmd_getopt(struct cmd_opts *o, int argc, char **argv)
{
	static const struct option none[] = { {} };
	const struct option *own = o->options ? o->options : none;
	const char *name;
	int c;

	list_all_options();
	/* "+": options end at the first argument; else they are anywhere. */
	while ((c = getopt_long(argc, argv, all_short + !o->stop_at_arg,
				all_options, NULL)) != -1) {
		o->end = optind;
		if (c == '?' || c == ':')
			bad_usage("bad option");	/* getopt said which */
		name = c >= OPT_BASE ? all_options[c - OPT_BASE].name : NULL;
		if (c == 'h' || (name && !strcmp(name, "help"))) {
			if (o->help)
				fputs(o->help, stdout);
			else
				usage();
			exit(0);
		}
		if (name && !strcmp(name, "json")) {
			use_json = true;
			continue;
		}
		if (name && !strcmp(name, "debugfs")) {
			debugfs = optarg;
			continue;
		}
		if (name && !strcmp(name, "version")) {
			printf("dmaown %s\n", DMAOWN_VERSION);
			exit(0);
		}
		for (const struct option *opt = own; opt->name; opt++)
			if (name ? !strcmp(opt->name, name) : opt->val == c)
				return opt->val;
		o->other = true;
	}
	return -1;
}

/* ---------------------------------------------------------------------- */

int main(int argc, char **argv)
{
	struct cmd_opts o = { .stop_at_arg = true, .end = 1 };
	const struct command *cmd = NULL;
	int cargc = 0;
	char **cargv;

	/*
	 * The global options, before the command. A command's options may
	 * come before its name too: they are handed to it below.
	 */
	while (cmd_getopt(&o, argc, argv) != -1)
		;
	if (optind >= argc)
		bad_usage("which command? %s", command_names(" or "));
	if (!strcmp(argv[optind], "help")) {
		usage();
		return 0;
	}
	for (size_t i = 0; i < NR_COMMANDS; i++)
		if (!strcmp(argv[optind], commands[i].name))
			cmd = &commands[i];
	/*
	 * The command's argv: its name, the options before it (without a
	 * "--" that ended them), the rest.
	 */
	cargv = xmalloc((argc + 1) * sizeof(*cargv));
	cargv[cargc++] = argv[optind];
	for (int i = 1; i < o.end; i++)
		cargv[cargc++] = argv[i];
	for (int i = optind + 1; i < argc; i++)
		cargv[cargc++] = argv[i];
	optind = 0;	/* glibc: start again, at cargv[1] */
	if (!cmd) {
		o = (struct cmd_opts){};
		while (cmd_getopt(&o, cargc, cargv) != -1)
			;
		bad_usage("%s: no such command (%s)", cargv[0], command_names(", "));
	}
	return cmd->run(cargc, cargv);
}
