// SPDX-License-Identifier: GPL-2.0
/*
 * busytime COMMAND [ARG...]: run COMMAND beside a soaker (its output going
 * to stderr), and print
 *
 *   elapsed_ns=E soaked=S
 *
 * E the time COMMAND took, S the iterations a SCHED_IDLE loop made
 * meanwhile: the loop runs only when nothing else can, so the CPU is never
 * idle. Under QEMU's -icount, where guest time is instructions executed,
 * a run of "busytime sleep 1" gives the loop's iterations per ns, and then
 * E - S / rate is the work COMMAND caused -- its own, its interrupts', its
 * softirqs' -- without the devices' latency, which an idle CPU would have
 * skipped over. One CPU: the bench boots with -smp 1.
 */
#define _GNU_SOURCE
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

int main(int argc, char **argv)
{
	unsigned long long *soaked;
	struct sched_param idle = { 0 };
	unsigned long long soaked_start;
	long long start, end;
	pid_t soaker, cmd;
	int status;

	if (argc < 2) {
		fprintf(stderr, "usage: busytime COMMAND [ARG...]\n");
		return 2;
	}
	soaked = mmap(NULL, sizeof(*soaked), PROT_READ | PROT_WRITE,
		      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (soaked == MAP_FAILED) {
		perror("busytime: mmap");
		return 2;
	}
	soaker = fork();
	if (soaker < 0) {
		perror("busytime: fork");
		return 2;
	}
	if (!soaker) {
		if (sched_setscheduler(0, SCHED_IDLE, &idle)) {
			perror("busytime: SCHED_IDLE");
			_exit(2);
		}
		/* One writer: a relaxed load and store, no locked add. */
		for (;;)
			__atomic_store_n(soaked, __atomic_load_n(soaked, __ATOMIC_RELAXED) + 1,
					 __ATOMIC_RELAXED);
	}
	start = now_ns();
	soaked_start = __atomic_load_n(soaked, __ATOMIC_RELAXED);
	cmd = fork();
	if (cmd < 0) {
		perror("busytime: fork");
		kill(soaker, SIGKILL);
		return 2;
	}
	if (!cmd) {
		/* Its output to stderr: stdout carries the figures alone. */
		dup2(STDERR_FILENO, STDOUT_FILENO);
		execvp(argv[1], argv + 1);
		perror("busytime: exec");
		_exit(127);
	}
	if (waitpid(cmd, &status, 0) < 0) {
		perror("busytime: wait");
		kill(soaker, SIGKILL);
		return 2;
	}
	end = now_ns();
	printf("elapsed_ns=%lld soaked=%llu\n", end - start,
	       __atomic_load_n(soaked, __ATOMIC_RELAXED) - soaked_start);
	kill(soaker, SIGKILL);
	waitpid(soaker, NULL, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}
