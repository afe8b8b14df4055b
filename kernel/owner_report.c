// SPDX-License-Identifier: GPL-2.0
/*
 * DMA ownership tracker: the report path. Every violation is counted here;
 * dmesg gets a report and a WARN with the violator's stack, rate-limited per
 * call site and kind unless dma_owner.report says otherwise.
 */

#define pr_fmt(fmt) "dma-owner: " fmt

#include <linux/device.h>
#include <linux/hash.h>
#include <linux/jiffies.h>
#include <linux/moduleparam.h>
#include <linux/panic.h>
#include <linux/printk.h>
#include <linux/spinlock.h>
#include <linux/stackdepot.h>
#include <linux/string.h>
#include <kunit/static_stub.h>
#include <kunit/visibility.h>

#include "owner.h"

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "dma_owner."

const char *const dma_owner_kind_names[DMA_OWNER_NR_KINDS] = {
	[DMA_OWNER_MISSING_SYNC_FOR_DEVICE]	= "missing-sync-for-device",
	[DMA_OWNER_REDUNDANT_SYNC_FOR_DEVICE]	= "redundant-sync-for-device",
	[DMA_OWNER_UNKNOWN_HANDLE]		= "unknown-handle",
	[DMA_OWNER_USE_AFTER_UNMAP]		= "use-after-unmap",
	[DMA_OWNER_OUT_OF_RANGE]		= "out-of-range",
	[DMA_OWNER_DIR_MISMATCH]		= "dir-mismatch",
	[DMA_OWNER_SIZE_MISMATCH]		= "size-mismatch",
	[DMA_OWNER_CPU_WRITE_WHILE_DEVICE_OWNED] = "cpu-write-while-device-owned",
	[DMA_OWNER_LEAK]			= "leak",
};
EXPORT_SYMBOL_IF_KUNIT(dma_owner_kind_names);

const char *const dma_owner_op_names[] = {
	[DMA_OWNER_OP_MAP]		= "map",
	[DMA_OWNER_OP_UNMAP]		= "unmap",
	[DMA_OWNER_OP_SYNC_FOR_CPU]	= "sync_for_cpu",
	[DMA_OWNER_OP_SYNC_FOR_DEVICE]	= "sync_for_device",
};

static const char *const api_names[] = {
	[DMA_OWNER_API_PAGE]		= "single/page",
	[DMA_OWNER_API_SG]		= "sg",
	[DMA_OWNER_API_RESOURCE]	= "resource",
};

/* What each kind means, in one line of the report. */
static const char *const kind_help[DMA_OWNER_NR_KINDS] = {
	[DMA_OWNER_MISSING_SYNC_FOR_DEVICE] =
		"the CPU already owns this range: it went back to the device without dma_sync_*_for_device()",
	[DMA_OWNER_REDUNDANT_SYNC_FOR_DEVICE] =
		"the device already owns this range: no dma_sync_*_for_cpu() since it was mapped or last synced for the device",
	[DMA_OWNER_UNKNOWN_HANDLE] =
		"this handle was never mapped for this device",
	[DMA_OWNER_USE_AFTER_UNMAP] =
		"this handle was unmapped",
	[DMA_OWNER_OUT_OF_RANGE] =
		"the range leaves the mapping",
	[DMA_OWNER_DIR_MISMATCH] =
		"the direction differs from the one it was mapped with",
	[DMA_OWNER_SIZE_MISMATCH] =
		"the size differs from the one it was mapped with",
	[DMA_OWNER_CPU_WRITE_WHILE_DEVICE_OWNED] =
		"the CPU changed a DMA_TO_DEVICE buffer while the device owned it",
	[DMA_OWNER_LEAK] =
		"the driver unbound with this mapping still mapped",
};

int dma_owner_report_mode = DMA_OWNER_REPORT_RATELIMIT;
EXPORT_SYMBOL_IF_KUNIT(dma_owner_report_mode);

static const char *const report_mode_names[] = {
	[DMA_OWNER_REPORT_RATELIMIT]	= "ratelimit",
	[DMA_OWNER_REPORT_ALL]		= "all",
	[DMA_OWNER_REPORT_PANIC]	= "panic",
};

static int report_mode_set(const char *val, const struct kernel_param *kp)
{
	int mode = sysfs_match_string(report_mode_names, val);

	if (mode < 0)
		return -EINVAL;
	WRITE_ONCE(dma_owner_report_mode, mode);
	return 0;
}

static int report_mode_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%s\n", report_mode_names[READ_ONCE(dma_owner_report_mode)]);
}

static const struct kernel_param_ops report_mode_ops = {
	.set = report_mode_set,
	.get = report_mode_get,
};
module_param_cb(report, &report_mode_ops, NULL, 0644);
MODULE_PARM_DESC(report,
		 "ratelimit: one report per call site and kind per interval (default); all; panic");

static unsigned int ratelimit_ms = 5000;
module_param(ratelimit_ms, uint, 0644);
MODULE_PARM_DESC(ratelimit_ms, "Report interval per call site and kind, in ms");

/*
 * Call sites recently reported, by (caller, kind). A small table: a site
 * pushed out early is reported once more, which is harmless.
 */
#define SITES 64
static struct report_site {
	unsigned long caller;
	unsigned long last;
	unsigned int kind;
	unsigned int suppressed;
} sites[SITES];
static DEFINE_RAW_SPINLOCK(sites_lock);

/* Should this report reach dmesg? *@suppressed: how many did not since. */
static bool site_ratelimit(const struct dma_owner_report *r,
			   unsigned int *suppressed)
{
	struct report_site *s = &sites[hash_long(r->caller ^ r->kind, ilog2(SITES))];
	unsigned long flags;
	bool print = true;

	*suppressed = 0;
	raw_spin_lock_irqsave(&sites_lock, flags);
	if (s->caller == r->caller && s->kind == r->kind &&
	    time_before(jiffies, s->last + msecs_to_jiffies(ratelimit_ms))) {
		s->suppressed++;
		print = false;
	} else {
		if (s->caller == r->caller && s->kind == r->kind)
			*suppressed = s->suppressed;
		s->caller = r->caller;
		s->kind = r->kind;
		s->last = jiffies;
		s->suppressed = 0;
	}
	raw_spin_unlock_irqrestore(&sites_lock, flags);
	return print;
}

static const char *driver_name(struct device *dev)
{
	const struct device_driver *drv = READ_ONCE(dev->driver);

	return drv ? drv->name : "(none)";
}

/**
 * dma_owner_print_entry() - print a mapping's state, map site and history
 * @e: a snapshot of the entry
 */
void dma_owner_print_entry(const struct dma_owner_entry *e)
{
	unsigned int i, op;

	if (e->inexact)
		pr_err("mapping %pad size %u %s %s, owner cpu+device (cpu owns parts of [%#x-%#x)), mapped %ums ago\n",
		       &e->handle, (u32)e->size, dma_owner_dir_name(e->dir),
		       api_names[e->api], e->cpu_lo, e->cpu_hi,
		       jiffies_to_msecs((u32)jiffies - e->map_jiffies));
	else if (e->cpu_lo != e->cpu_hi)
		pr_err("mapping %pad size %u %s %s, owner cpu [%#x-%#x), mapped %ums ago\n",
		       &e->handle, (u32)e->size, dma_owner_dir_name(e->dir),
		       api_names[e->api], e->cpu_lo, e->cpu_hi,
		       jiffies_to_msecs((u32)jiffies - e->map_jiffies));
	else
		pr_err("mapping %pad size %u %s %s, owner device, mapped %ums ago\n",
		       &e->handle, (u32)e->size, dma_owner_dir_name(e->dir),
		       api_names[e->api],
		       jiffies_to_msecs((u32)jiffies - e->map_jiffies));
	pr_err("syncs: %u for cpu, %u for device\n", e->syncs_for_cpu,
	       e->syncs_for_device);
	if (e->map_stack) {
		pr_err("mapped at:\n");
		stack_depot_print(e->map_stack);
	}
	pr_err("last transitions, oldest first:\n");
	for (i = 0; i < e->hist_len; i++) {
		op = (e->hist_ops >> (2 * i)) & 3;
		pr_err("  %-16s %pS\n", dma_owner_op_names[op], (void *)e->hist[i]);
	}
}

/**
 * dma_owner_emit() - print a report to dmesg and WARN
 * @r: the report
 * @suppressed: similar reports held back by the rate limit since the last
 *
 * The KUnit suite replaces this function to collect reports.
 */
void dma_owner_emit(const struct dma_owner_report *r, unsigned int suppressed)
{
	const char *kind = dma_owner_kind_names[r->kind];

	KUNIT_STATIC_STUB_REDIRECT(dma_owner_emit, r, suppressed);

	pr_err("==================================================================\n");
	pr_err("%s in %pS\n", kind, (void *)r->caller);
	pr_err("%s: %s\n", kind, kind_help[r->kind]);
	if (r->kind == DMA_OWNER_LEAK)
		pr_err("unbind of %s %s\n", driver_name(r->dev), dev_name(r->dev));
	else
		pr_err("%s of %pad size %zu %s by %pS\n",
		       dma_owner_op_names[r->op], &r->addr, r->size,
		       dma_owner_dir_name(r->dir), (void *)r->caller);
	pr_err("device %s driver %s\n", dev_name(r->dev), driver_name(r->dev));
	if (r->has_entry) {
		dma_owner_print_entry(&r->entry);
		if (r->kind == DMA_OWNER_USE_AFTER_UNMAP)
			pr_err("unmapped by %pS\n", (void *)r->unmap_caller);
	}
	if (suppressed)
		pr_err("%u more reports of this kind from this call site were rate-limited\n",
		       suppressed);
	WARN(1, "dma-owner: %s\n", kind);
	pr_err("==================================================================\n");
	if (READ_ONCE(dma_owner_report_mode) == DMA_OWNER_REPORT_PANIC)
		panic("dma-owner: %s (dma_owner.report=panic)\n", kind);
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_emit);

/**
 * dma_owner_report() - count a violation and report it
 * @r: the report; the caller fills everything but what the report adds
 */
void dma_owner_report(struct dma_owner_report *r)
{
	unsigned int suppressed = 0;

	atomic_long_inc(&dma_owner_stats.violations);
	atomic_long_inc(&dma_owner_stats.violation[r->kind]);

	if (READ_ONCE(dma_owner_report_mode) == DMA_OWNER_REPORT_RATELIMIT &&
	    !site_ratelimit(r, &suppressed))
		return;
	dma_owner_emit(r, suppressed);
}
