// SPDX-License-Identifier: GPL-2.0
/*
 * DMA ownership tracker: switching it on and off, the filter, the counters,
 * the boot parameters and start-up.
 */

#define pr_fmt(fmt) "dma-owner: " fmt

#include <linux/device.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/stackdepot.h>
#include <kunit/visibility.h>

#include "owner.h"

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "dma_owner."

DEFINE_STATIC_KEY_FALSE(dma_owner_key);
EXPORT_SYMBOL(dma_owner_key);

struct dma_owner_stats dma_owner_stats;
EXPORT_SYMBOL_IF_KUNIT(dma_owner_stats);
DEFINE_PER_CPU(struct dma_owner_op_counts, dma_owner_op_counters);

static DEFINE_MUTEX(enable_mutex);	/* serialises on/off switches */
static bool tracking_on;		/* the state dma_owner_key follows */
bool dma_owner_settling;		/* switching: nothing is reported */
static bool boot_off;			/* dma_owner=off on the command line */

/* The debugfs filter: a device or driver name, NULL for everything. */
const char __rcu *dma_owner_filter;

/**
 * dma_owner_is_enabled() - is the tracker on?
 *
 * Return: true while tracking.
 */
bool dma_owner_is_enabled(void)
{
	return READ_ONCE(tracking_on);
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_is_enabled);

/**
 * dma_owner_set_enabled() - switch tracking on or off at run time
 * @on: the new state
 *
 * Switching off forgets every entry. Switching on starts from an empty
 * table with every device incomplete: mappings made meanwhile are unknown
 * and must not be reported when they are synced or unmapped.
 *
 * Context: process context, may sleep.
 * Return: 0, or -ENODEV if the tracker failed to initialise.
 */
int dma_owner_set_enabled(bool on)
{
	if (!dma_owner_table_ready())
		return -ENODEV;
	mutex_lock(&enable_mutex);
	if (on == tracking_on)
		goto out;
	/*
	 * The hooks' jump sites are in vmlinux and in modules (the inline
	 * sync wrappers), patched one after the other: for a moment some
	 * calls are seen and some are not, and an entry made then may have
	 * missed a transition. Nothing is reported until every site has
	 * switched and every hook that ran meanwhile is done; then what was
	 * made meanwhile is forgotten, completeness first.
	 */
	WRITE_ONCE(dma_owner_settling, true);
	if (on) {
		dma_owner_lose_all_completeness();
		/* Drivers unbound while it was off went unseen. */
		dma_owner_forget_map_stacks();
		static_branch_enable(&dma_owner_key);
		synchronize_rcu();
		dma_owner_lose_all_completeness();
		dma_owner_flush_table();
		/* A driver that bound during the flush may have lost entries. */
		dma_owner_lose_all_completeness();
	} else {
		static_branch_disable(&dma_owner_key);
		/* Every hook runs under rcu_read_lock(): wait for them. */
		synchronize_rcu();
		dma_owner_flush_table();
	}
	WRITE_ONCE(tracking_on, on);
	WRITE_ONCE(dma_owner_settling, false);
	pr_info("tracking %s\n", on ? "on" : "off");
out:
	mutex_unlock(&enable_mutex);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_set_enabled);

/**
 * dma_owner_set_filter() - track only one device or driver
 * @name: a device name (as dev_name()) or driver name; "" for every device
 *
 * Like switching tracking off and on: the table starts empty and every
 * device incomplete, since a newly included device has unknown mappings.
 *
 * Context: process context, may sleep.
 * Return: 0, -ENODEV if the tracker failed to initialise, -ENOMEM.
 */
int dma_owner_set_filter(const char *name)
{
	const char *new = NULL, *old;

	if (!dma_owner_table_ready())
		return -ENODEV;
	if (*name) {
		new = kstrdup(name, GFP_KERNEL);
		if (!new)
			return -ENOMEM;
	}
	mutex_lock(&enable_mutex);
	/*
	 * Completeness goes first: the hooks run on, and a mapping flushed
	 * below and then unmapped must not be taken for an unknown handle.
	 * Until every hook has the new filter, one call of a mapping may be
	 * seen and the next not: nothing is reported meanwhile.
	 */
	WRITE_ONCE(dma_owner_settling, true);
	dma_owner_lose_all_completeness();
	old = rcu_replace_pointer(dma_owner_filter, new, lockdep_is_held(&enable_mutex));
	synchronize_rcu();
	dma_owner_flush_table();
	/* A driver that bound during the flush may have lost entries. */
	dma_owner_lose_all_completeness();
	WRITE_ONCE(dma_owner_settling, false);
	mutex_unlock(&enable_mutex);
	kfree(old);
	return 0;
}

/**
 * dma_owner_get_filter() - the current filter
 * @buf: where to put it
 * @len: size of @buf
 */
void dma_owner_get_filter(char *buf, size_t len)
{
	const char *f;

	rcu_read_lock();
	f = rcu_dereference(dma_owner_filter);
	strscpy(buf, f ?: "", len);
	rcu_read_unlock();
}

/**
 * dma_owner_clear_counters() - zero the counters that are not state
 *
 * live stays as it is; peak_live restarts from it.
 */
void dma_owner_clear_counters(void)
{
	struct dma_owner_stats *s = &dma_owner_stats;
	int kind, cpu;

	/* An increment racing with this on another CPU may survive it. */
	for_each_possible_cpu(cpu)
		memset(per_cpu_ptr(&dma_owner_op_counters, cpu), 0,
		       sizeof(struct dma_owner_op_counts));
	atomic_long_set(&s->untracked, 0);
	atomic_long_set(&s->violations, 0);
	for (kind = 0; kind < DMA_OWNER_NR_KINDS; kind++)
		atomic_long_set(&s->violation[kind], 0);
	atomic_long_set(&s->peak_live, atomic_long_read(&s->live));
	dma_owner_ignore_clear_hits();
}

/**
 * dma_owner_op_counts() - the per-CPU operation counters, summed
 * @sum: where to put the sums
 */
void dma_owner_op_counts(struct dma_owner_op_counts *sum)
{
	const struct dma_owner_op_counts *c;
	int cpu, op;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		c = per_cpu_ptr(&dma_owner_op_counters, cpu);
		for (op = 0; op < DMA_OWNER_NR_OPS; op++)
			sum->n[op] += READ_ONCE(c->n[op]);
		sum->syncs_walked += READ_ONCE(c->syncs_walked);
		sum->unmaps_walked += READ_ONCE(c->unmaps_walked);
	}
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_op_counts);

static int enabled_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int ret = kstrtobool(val, &on);

	if (ret)
		return ret;
	if (!dma_owner_table_ready()) {		/* on the command line, before init */
		boot_off = !on;
		return 0;
	}
	return dma_owner_set_enabled(on);
}

static int enabled_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", dma_owner_table_ready() ? tracking_on : !boot_off);
}

static const struct kernel_param_ops enabled_ops = {
	.set = enabled_set,
	.get = enabled_get,
};
module_param_cb(enabled, &enabled_ops, NULL, 0644);
MODULE_PARM_DESC(enabled, "Track streaming DMA ownership (default: on)");

static int __init dma_owner_param(char *str)
{
	if (!strcmp(str, "off"))
		boot_off = true;
	else if (!strcmp(str, "on"))
		boot_off = false;
	else
		pr_err("dma_owner=%s: want 'on' or 'off', ignored\n", str);
	return 1;
}
__setup("dma_owner=", dma_owner_param);

/*
 * Before any driver probes (device_initcall), so that every mapping a driver
 * makes is seen and misses can be reported from the start.
 */
static int __init dma_owner_init(void)
{
	if (stack_depot_init() || dma_owner_table_init()) {
		pr_err("cannot allocate its tables: tracking off\n");
		return -ENOMEM;
	}
	dma_owner_unmapped_init();
	if (dma_owner_lines_init())
		pr_warn("cannot allocate the index of cache lines: no cache-line-shared check\n");
	dma_owner_poison_init();
	if (boot_off) {
		pr_info("off (dma_owner=off)\n");
		return 0;
	}
	dma_owner_devices_complete();
	tracking_on = true;
	static_branch_enable(&dma_owner_key);
	pr_info("tracking streaming DMA ownership\n");
	return 0;
}
core_initcall(dma_owner_init);
