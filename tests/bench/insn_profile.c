// SPDX-License-Identifier: GPL-2.0
/*
 * insn_profile: a QEMU TCG plugin that counts how often each guest kernel
 * instruction executes, for "make profile" (scripts/bench.sh --profile).
 * Like callgrind, it counts instructions, not time: a profile repeats
 * exactly, and the difference between two boots is the work a change did.
 *
 *   qemu-system-x86_64 ... -plugin insn_profile.so,out=FILE
 *
 * At exit FILE holds one line per kernel instruction executed: its address
 * in hex and its count. scripts/bench-profile.py folds them into functions.
 *
 * QEMU installs no header for its plugin API, so the few calls used are
 * declared here, as QEMU 7.2 (API version 1) exports them; every later
 * version still accepts a version-1 plugin.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t qemu_plugin_id_t;
struct qemu_plugin_tb;
struct qemu_plugin_insn;
struct qemu_info_t;
enum qemu_plugin_op { QEMU_PLUGIN_INLINE_ADD_U64 };

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id,
	void (*cb)(qemu_plugin_id_t id, struct qemu_plugin_tb *tb));
size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb);
struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb,
						 size_t idx);
uint64_t qemu_plugin_insn_vaddr(const struct qemu_plugin_insn *insn);
void qemu_plugin_register_vcpu_insn_exec_inline(struct qemu_plugin_insn *insn,
						enum qemu_plugin_op op,
						void *ptr, uint64_t imm);
void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id,
				    void (*cb)(qemu_plugin_id_t id, void *p),
				    void *userdata);

__attribute__((visibility("default"))) int qemu_plugin_version = 1;

/* Kernel text only: x86-64's kernel and modules live above this. */
#define KERNEL_START	0xffffffff80000000ULL
/* Open addressing, far more slots than a kernel run executes addresses. */
#define SLOTS		(1U << 22)

struct slot {
	uint64_t pc;
	uint64_t count;
};

static struct slot *slots;
static const char *out_path;

/*
 * The counter of @pc, claimed at translation. Neither the table nor the
 * inline adds are atomic: the profile boots have one vCPU.
 */
static uint64_t *counter(uint64_t pc)
{
	uint32_t i = (uint32_t)((pc * 0x9E3779B97F4A7C15ULL) >> 40) & (SLOTS - 1);

	while (slots[i].pc && slots[i].pc != pc)
		i = (i + 1) & (SLOTS - 1);
	slots[i].pc = pc;
	return &slots[i].count;
}

static void translated(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t i, n = qemu_plugin_tb_n_insns(tb);

	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t pc = qemu_plugin_insn_vaddr(insn);

		if (pc >= KERNEL_START)
			qemu_plugin_register_vcpu_insn_exec_inline(insn,
				QEMU_PLUGIN_INLINE_ADD_U64, counter(pc), 1);
	}
}

static void finished(qemu_plugin_id_t id, void *p)
{
	FILE *f = fopen(out_path, "w");
	uint32_t i;

	if (!f) {
		perror(out_path);
		return;
	}
	for (i = 0; i < SLOTS; i++)
		if (slots[i].count)
			fprintf(f, "%llx %llu\n", (unsigned long long)slots[i].pc,
				(unsigned long long)slots[i].count);
	if (fclose(f))
		perror(out_path);
}

__attribute__((visibility("default")))
int qemu_plugin_install(qemu_plugin_id_t id, const struct qemu_info_t *info,
			int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++)
		if (!strncmp(argv[i], "out=", 4))
			out_path = argv[i] + 4;
	if (!out_path) {
		fprintf(stderr, "insn_profile: usage: -plugin insn_profile.so,out=FILE\n");
		return -1;
	}
	out_path = strdup(out_path);
	slots = calloc(SLOTS, sizeof(*slots));
	if (!slots || !out_path)
		return -1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, translated);
	qemu_plugin_register_atexit_cb(id, finished, NULL);
	return 0;
}
