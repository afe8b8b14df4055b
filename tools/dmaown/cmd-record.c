// SPDX-License-Identifier: GPL-2.0
/*
 * dmaown record: trace the dma_owner events while a command runs. The
 * events are enabled through libtracefs; the trace is saved with
 * "trace-cmd extract" (libtracecmd reads traces but has no writer), so
 * that trace-cmd report reads it too.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-cmd.h>
#include <tracefs.h>

#include "dmaown.h"

const struct option record_options[] = {
	{ "output", required_argument, NULL, 'o' },
	{}
};

static const char record_help[] =
"usage: dmaown record [-o FILE] [--] COMMAND [ARGS]\n"
"\n"
"Trace the dma_owner events while COMMAND runs, into FILE (default\n"
"dmaown.dat), which 'dmaown timeline' and 'trace-cmd report' read. It\n"
"enables the events, empties the top-level trace buffer, runs COMMAND and\n"
"saves the trace with 'trace-cmd extract'; the events and the tracing\n"
"switch are put back as they were, also when something fails. It says\n"
"how many violations the trace holds, and how COMMAND ended if it failed.\n"
"\n"
"  -o, --output FILE   where the trace goes\n"
"\n"
"examples:\n"
"  dmaown record -o nic.dat -- ping -c 100 10.0.2.2\n"
"  dmaown record -o t.dat -- ./my-test; echo $?   (CI: 1 misuse, 3 test failed)\n"
"\n"
"exit status, the first that holds:\n"
"  1  violations were traced while COMMAND ran, whatever COMMAND's status\n"
"     (a test that breaks the rules may well fail too: the misuse comes\n"
"     first)\n"
"  3  none, but COMMAND failed: exited non-zero or was killed by a signal\n"
"  0  none, and COMMAND succeeded\n"
"  2  dmaown's own usage or environment error: not root, no tracefs, a\n"
"     kernel without the tracker, COMMAND not found, the trace not saved\n";

struct counted {
	struct tep_event *violation;
	int n;
};

static int count_one(struct tracecmd_input *h, struct tep_record *rec,
		     int cpu __maybe_unused, void *data)
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
	c.violation = tep_find_event_by_name(tracecmd_get_tep(h), EVENT_SYSTEM,
					     EVENT_VIOLATION);
	if (c.violation)
		tracecmd_iterate_events(h, NULL, 0, count_one, &c);
	tracecmd_close(h);
	return c.n;
}

/* The exit status of a child that could not exec, as the shell's. */
#define EXIT_CANNOT_RUN	127

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

/*
 * Run @argv with tracing on; its wait status. *@exec_err: the errno of an
 * exec that failed, 0 if it ran. A pipe closed on exec tells them apart,
 * so that a command that runs and exits 127 is a command that failed.
 */
static int run_command(char **argv, int *exec_err)
{
	int status, fds[2];
	ssize_t n;
	pid_t pid;

	if (caught)
		fail("interrupted by signal %d before the command ran", caught);
	if (pipe2(fds, O_CLOEXEC))
		fail("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		fail("fork: %s", strerror(errno));
	if (!pid) {
		close(fds[0]);
		execvp(argv[0], argv);
		*exec_err = errno;
		fprintf(stderr, "dmaown: cannot run %s: %s\n", argv[0], strerror(errno));
		/* Unsaid, the parent takes it for a command that failed. */
		n = write(fds[1], exec_err, sizeof(*exec_err));
		_exit(EXIT_CANNOT_RUN);
	}
	close(fds[1]);
	command_pid = pid;
	*exec_err = 0;
	while ((n = read(fds[0], exec_err, sizeof(*exec_err))) < 0 && errno == EINTR)
		;
	if (n != sizeof(*exec_err))
		*exec_err = 0;
	close(fds[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	command_pid = 0;
	return status;
}

/* How the command ended, if it failed: "exited with status 3". */
static const char *command_failure(int status)
{
	static char text[128];

	if (WIFEXITED(status) && !WEXITSTATUS(status))
		return NULL;
	if (WIFSIGNALED(status))
		snprintf(text, sizeof(text), "was killed by signal %d (SIG%s)",
			 WTERMSIG(status), sigabbrev_np(WTERMSIG(status)) ?: "?");
	else
		snprintf(text, sizeof(text), "exited with status %d", WEXITSTATUS(status));
	return text;
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

int cmd_record(int argc, char **argv)
{
	/* "+": its options end where the command and the command's own begin. */
	struct cmd_opts o = { .options = record_options, .help = record_help,
			      .stop_at_arg = true };
	const char *out = "dmaown.dat";
	int c, status, exec_err, nviol;
	const char *failure;

	while ((c = cmd_getopt(&o, argc, argv)) != -1)
		if (c == 'o')
			out = optarg;
	if (o.other)
		bad_usage("record does not take those options (only -o FILE)");
	if (optind >= argc)
		bad_usage("record: what should run? dmaown record -o FILE -- COMMAND [ARGS]");
	if (use_json)
		bad_usage("record writes a trace file; read it with: dmaown --json timeline FILE");
	argv += optind;

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

	status = run_command(argv, &exec_err);

	/* The events back as they were, but tracing off until it is saved. */
	tracefs_trace_off(NULL);
	restore_events();
	extract(out);
	restore_tracing_on();

	if (exec_err)		/* it said why; nothing ran, nothing to count */
		return EXIT_USAGE;
	/* The violations in the trace come first, then how the command ended. */
	nviol = count_violations(out);
	if (nviol < 0)
		fail("trace written to %s, but it cannot be read back to count the violations",
		     out);
	fprintf(stderr, "dmaown: trace written to %s, %d violation%s; read it with: dmaown timeline %s, or trace-cmd report %s\n",
		out, nviol, nviol == 1 ? "" : "s", out, out);
	failure = command_failure(status);
	if (failure)
		fprintf(stderr, "dmaown: the command %s\n", failure);
	if (nviol > 0)
		return EXIT_VIOLATIONS;
	return failure ? EXIT_COMMAND_FAILED : 0;
}
