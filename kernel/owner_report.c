// SPDX-License-Identifier: GPL-2.0
/*
 * DMA ownership tracker: the report path. Every violation is counted here;
 * dmesg gets a report and a WARN with the violator's stack, rate-limited per
 * call site and kind unless dma_owner.report says otherwise.
 */

#define pr_fmt(fmt) "dma-owner: " fmt

#include <linux/device.h>
#include <linux/hash.h>
#include <linux/kstrtox.h>
#include <linux/llist.h>
#include <linux/jiffies.h>
#include <linux/kallsyms.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/panic.h>
#include <linux/printk.h>
#include <linux/sched/clock.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
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
	[DMA_OWNER_MAP_ERROR_UNCHECKED]		= "map-error-unchecked",
	[DMA_OWNER_API_MISMATCH]		= "api-mismatch",
	[DMA_OWNER_SG_COUNT_MISMATCH]		= "sg-count-mismatch",
	[DMA_OWNER_SG_SEGMENT_LIMIT]		= "sg-segment-limit",
	[DMA_OWNER_BAD_MEMORY]			= "bad-memory",
	[DMA_OWNER_CPU_ADDRESS_MISMATCH]	= "cpu-address-mismatch",
	[DMA_OWNER_CACHE_LINE_SHARED]		= "cache-line-shared",
	[DMA_OWNER_CPU_READ_WHILE_DEVICE_OWNED]	= "cpu-read-while-device-owned",
	[DMA_OWNER_FREED_WHILE_MAPPED]		= "freed-while-mapped",
};
EXPORT_SYMBOL_IF_KUNIT(dma_owner_kind_names);

const char *const dma_owner_op_names[DMA_OWNER_NR_OPS] = {
	[DMA_OWNER_OP_MAP]		= "map",
	[DMA_OWNER_OP_UNMAP]		= "unmap",
	[DMA_OWNER_OP_SYNC_FOR_CPU]	= "sync_for_cpu",
	[DMA_OWNER_OP_SYNC_FOR_DEVICE]	= "sync_for_device",
};

/* The stats file's names of the operation counters. */
const char *const dma_owner_op_counter_names[DMA_OWNER_NR_OPS] = {
	[DMA_OWNER_OP_MAP]		= "maps",
	[DMA_OWNER_OP_UNMAP]		= "unmaps",
	[DMA_OWNER_OP_SYNC_FOR_CPU]	= "syncs_for_cpu",
	[DMA_OWNER_OP_SYNC_FOR_DEVICE]	= "syncs_for_device",
};

static const char *const api_names[] = {
	[DMA_OWNER_API_PAGE]		= "single/page",
	[DMA_OWNER_API_SG]		= "sg",
	[DMA_OWNER_API_RESOURCE]	= "resource",
	[DMA_OWNER_API_PAGES]		= "noncoherent",
	[DMA_OWNER_API_NONCONTIGUOUS]	= "noncontiguous",
	[DMA_OWNER_API_COHERENT]	= "coherent",
};

/**
 * dma_owner_op_name() - an operation as reports print it
 * @op: the operation
 * @api: the family of the mapping it concerns
 *
 * Memory from the allocators, coherent or not, is allocated and freed,
 * not mapped and unmapped.
 *
 * Return: the name.
 */
const char *dma_owner_op_name(enum dma_owner_op op, enum dma_owner_api api)
{
	bool alloc = api >= DMA_OWNER_API_PAGES;

	if (alloc && op == DMA_OWNER_OP_MAP)
		return "alloc";
	if (alloc && op == DMA_OWNER_OP_UNMAP)
		return "free";
	return dma_owner_op_names[op];
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_op_name);

/**
 * dma_owner_dir_name() - a DMA direction as reports print it
 * @dir: the direction
 *
 * Return: "DMA_BIDIRECTIONAL", "DMA_TO_DEVICE", "DMA_FROM_DEVICE",
 * "DMA_NONE", or "DMA_?" for a value that is none of them.
 */
const char *dma_owner_dir_name(enum dma_data_direction dir)
{
	static const char *const names[] = {
		[DMA_BIDIRECTIONAL] = "DMA_BIDIRECTIONAL",
		[DMA_TO_DEVICE] = "DMA_TO_DEVICE",
		[DMA_FROM_DEVICE] = "DMA_FROM_DEVICE",
		[DMA_NONE] = "DMA_NONE",
	};

	return (unsigned int)dir < ARRAY_SIZE(names) ? names[dir] : "DMA_?";
}

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
		"the direction differs from the one it was mapped with, or (a bidirectional mapping synced for the CPU as DMA_TO_DEVICE) does not bring back what the device wrote",
	[DMA_OWNER_SIZE_MISMATCH] =
		"the size differs from the one it was mapped with",
	[DMA_OWNER_CPU_WRITE_WHILE_DEVICE_OWNED] =
		"the CPU wrote to bytes the device owned: without coherent DMA, the write is lost or overwrites the device's data",
	[DMA_OWNER_LEAK] =
		"the driver unbound with this mapping still mapped",
	[DMA_OWNER_MAP_ERROR_UNCHECKED] =
		"the handle was used without dma_mapping_error() checking it after the map",
	[DMA_OWNER_API_MISMATCH] =
		"unmapped or freed with a function of another family than the one that mapped it",
	[DMA_OWNER_SG_COUNT_MISMATCH] =
		"an sg call must pass the entry count that was passed to dma_map_sg(), not another",
	[DMA_OWNER_SG_SEGMENT_LIMIT] =
		"a mapped sg segment breaks the limits the device declared to the DMA API",
	[DMA_OWNER_BAD_MEMORY] =
		"this memory must never be mapped for DMA",
	[DMA_OWNER_CPU_ADDRESS_MISMATCH] =
		"the CPU address differs from the one the allocation returned",
	[DMA_OWNER_CACHE_LINE_SHARED] =
		"the buffer shares a cache line with another mapping, one of them written by the device: where DMA is not coherent, a CPU write to the line while the device owns part of it is lost or overwrites the device's data",
	[DMA_OWNER_CPU_READ_WHILE_DEVICE_OWNED] =
		"the CPU read bytes the device owned, before dma_sync_*_for_cpu() or dma_unmap_*(): without coherent DMA, it reads stale data",
	[DMA_OWNER_FREED_WHILE_MAPPED] =
		"memory was freed while it was mapped: the device may still write it, and the unmap copies into it where swiotlb bounces",
};

static const char *const access_names[] = {
	[DMA_OWNER_ACCESS_READ]		= "read",
	[DMA_OWNER_ACCESS_WRITE]	= "write",
	[DMA_OWNER_ACCESS_FREE]		= "free",
};

/* The operation a report names: a call, or what KASAN caught the CPU at. */
static const char *report_op_name(const struct dma_owner_report *r)
{
	if (r->kind == DMA_OWNER_LEAK)
		return "unbind";
	if (r->access)
		return access_names[r->access];
	return dma_owner_op_name(r->op, r->has_entry ? r->entry.api : r->api);
}

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

/*
 * One formatter for dmesg and for the debugfs violations log: to @seq if
 * given, else to the console at KERN_ERR.
 */
static __printf(2, 3) void out(struct seq_file *seq, const char *fmt, ...)
{
	va_list args;

	va_start(args, fmt);
	if (seq) {
		seq_vprintf(seq, fmt, args);
	} else {
		struct va_format vaf = { .fmt = fmt, .va = &args };

		pr_err("%pV", &vaf);
	}
	va_end(args);
}

/**
 * dma_owner_owner_string() - who owns a mapping, in words
 * @e: the entry
 * @buf: room for the answer
 * @len: size of @buf
 *
 * @e must be a snapshot (dma_owner_snapshot()), not a live entry.
 *
 * Return: @buf, holding "device", "cpu[lo-hi)", "cpu-parts[lo-hi)" (the
 * CPU owns several ranges between lo and hi), "cpu+device" (not known
 * exactly) or "coherent" (no owner: a coherent allocation).
 */
const char *dma_owner_owner_string(const struct dma_owner_entry *e, char *buf,
				   size_t len)
{
	if (e->api == DMA_OWNER_API_COHERENT)
		snprintf(buf, len, "coherent");
	else if (e->inexact)
		snprintf(buf, len, "cpu+device");
	else if (e->cpu_lo != e->cpu_hi)
		snprintf(buf, len, "%s[%#x-%#x)", e->in_parts ? "cpu-parts" : "cpu",
			 e->cpu_lo, e->cpu_hi);
	else
		snprintf(buf, len, "device");
	return buf;
}

static void print_entry(struct seq_file *seq, const struct dma_owner_entry *e,
			u32 now)
{
	unsigned long *frames;
	unsigned int i, n, op;
	char owner[40];

	out(seq, "mapping %pad size %u %s %s%s, owner %s, %s %ums ago, syncs: %u for cpu, %u for device\n",
	    &e->handle, (u32)e->size, dma_owner_dir_name(e->dir),
	    api_names[e->api], e->skip_sync ? " skip-cpu-sync" : "",
	    dma_owner_owner_string(e, owner, sizeof(owner)),
	    e->api >= DMA_OWNER_API_PAGES ? "allocated" : "mapped",
	    jiffies_to_msecs(now - e->map_jiffies), e->syncs_for_cpu,
	    e->syncs_for_device);
	n = e->map_stack ? stack_depot_fetch(e->map_stack, &frames) : 0;
	if (n) {
		out(seq, "%s at:\n", e->api >= DMA_OWNER_API_PAGES ? "allocated" : "mapped");
		for (i = 0; i < n; i++)
			out(seq, " %pS\n", (void *)frames[i]);
	}
	out(seq, "last transitions, oldest first:\n");
	for (i = 0; i < dma_owner_hist_len(e); i++) {
		op = dma_owner_hist_op(e, i);
		out(seq, " %-16s %pS\n", dma_owner_op_name(op, e->api),
		    (void *)dma_owner_hist_caller(e, i));
	}
}

/* The other mapping in a shared cache line, and where it was made. */
static void print_sharer(struct seq_file *seq,
			 const struct dma_owner_sharer *s, u32 now)
{
	unsigned long *frames;
	unsigned int i, n;

	out(seq, "cache line %pa (%u bytes) is shared with mapping %pad size %u %s of %s, mapped %ums ago\n",
	    &s->line, dma_owner_cache_line(), &s->handle, s->size,
	    dma_owner_dir_name(s->dir), s->dev,
	    jiffies_to_msecs(now - s->map_jiffies));
	n = s->map_stack ? stack_depot_fetch(s->map_stack, &frames) : 0;
	if (n) {
		out(seq, "which was mapped at:\n");
		for (i = 0; i < n; i++)
			out(seq, " %pS\n", (void *)frames[i]);
	}
}

/* What the kinds that judge a call's arguments found, in their words. */
static void print_arg_detail(struct seq_file *seq,
			     const struct dma_owner_report *r, u32 now)
{
	switch (r->kind) {
	case DMA_OWNER_API_MISMATCH:
		out(seq, "%s with the %s API, %s with the %s API\n",
		    dma_owner_op_name(DMA_OWNER_OP_MAP, r->entry.api),
		    api_names[r->entry.api],
		    dma_owner_op_name(r->op, r->api), api_names[r->api]);
		break;
	case DMA_OWNER_SG_COUNT_MISMATCH:
		out(seq, "the list was mapped with %u%s entries, this call passes %d\n",
		    r->entry.sg_nents,
		    r->entry.sg_nents == U16_MAX ? " or more" : "", r->nents);
		break;
	case DMA_OWNER_SG_SEGMENT_LIMIT:
		out(seq, "segment %pad size %zu is %s (%#llx)\n",
		    &r->addr, r->size, r->what, r->limit);
		break;
	case DMA_OWNER_BAD_MEMORY:
		out(seq, "the memory is %s\n", r->what);
		break;
	case DMA_OWNER_CACHE_LINE_SHARED:
		print_sharer(seq, &r->sharer, now);
		break;
	case DMA_OWNER_CPU_WRITE_WHILE_DEVICE_OWNED:
	case DMA_OWNER_CPU_READ_WHILE_DEVICE_OWNED:
		if (r->access)
			out(seq, "KASAN caught the %s of byte %#x of the mapping, which the device owned (dma_owner.poison)\n",
			    report_op_name(r), r->access_offset);
		break;
	case DMA_OWNER_FREED_WHILE_MAPPED:
		if (r->access)
			out(seq, "the memory freed holds byte %#x of the mapping, which the device owned (dma_owner.poison)\n",
			    r->access_offset);
		else
			out(seq, "KASAN's shadow says the memory of the mapping's first byte was freed (dma_owner.poison)\n");
		break;
	case DMA_OWNER_CPU_ADDRESS_MISMATCH:
		out(seq, "allocated at CPU address %p, freed at %p\n",
		    r->entry.cpu_addr, r->cpu_addr);
		break;
	default:
		break;
	}
}

/*
 * The report itself. Device and driver names are passed as strings: the
 * debugfs log prints them long after the device may be gone.
 */
static void print_report(struct seq_file *seq, const struct dma_owner_report *r,
			 const char *dev, const char *drv, u32 now)
{
	const char *kind = dma_owner_kind_names[r->kind];

	out(seq, "%s in %pS\n", kind, (void *)r->caller);
	out(seq, "%s: %s\n", kind, kind_help[r->kind]);
	if (r->kind == DMA_OWNER_LEAK)
		out(seq, "unbind of %s %s\n", drv, dev);
	else
		out(seq, "%s of %pad size %zu %s by %pS\n", report_op_name(r),
		    &r->addr, r->size,
		    dma_owner_dir_name(r->dir), (void *)r->caller);
	print_arg_detail(seq, r, now);
	out(seq, "device %s driver %s\n", dev, drv);
	if (r->has_entry) {
		print_entry(seq, &r->entry, now);
		if (r->kind == DMA_OWNER_USE_AFTER_UNMAP)
			out(seq, "%s by %pS %ums ago\n",
			    r->entry.api >= DMA_OWNER_API_PAGES ? "freed" : "unmapped",
			    (void *)r->unmap_caller,
			    jiffies_to_msecs(now - r->unmap_jiffies));
	}
}

/* ---------------------------------------------------------------------- */
/* The violations log: the last reports, whether or not dmesg got them    */

/* What a record line escapes in a value, as /proc/self/mounts does. */
#define RECORD_ESCAPE	" \t\n\\"

/*
 * A record as it read when a module it names went away (see
 * log_module_going()). A report that takes its slot cannot free it (any
 * context, and a reader may be printing it): it goes on a list that the
 * next holder of log_mutex frees.
 */
struct log_text {
	struct llist_node dead;
	char s[];
};

static LLIST_HEAD(dead_texts);

/*
 * A record keeps code addresses, named when it is read; @text, when set,
 * is printed instead. The slot owns @text.
 */
struct log_record {
	u64 seq;
	u64 time_ns;
	u32 jiffies;
	bool used;
	char dev[32];
	char drv[32];
	struct log_text *text;
	struct dma_owner_report r;
};

/*
 * Reports are added in any context under the raw log_lock, which is held for
 * one record at a time; readers, resizes and clears are serialised by
 * log_mutex, so that moving up to 64K records (13 MB) to a new ring happens
 * in process context, one record per lock hold, while reports go on.
 */
static unsigned int log_size = 64;
static struct log_record *log_ring;
static u64 log_next;			/* sequence number of the next record */
static u64 log_first;			/* none older was kept, or moved */
static DEFINE_RAW_SPINLOCK(log_lock);
static DEFINE_MUTEX(log_mutex);

/* The sequence number of the oldest record kept. Under log_lock. */
static u64 log_oldest(void)
{
	return max(log_first, log_next > log_size ? log_next - log_size : 0);
}

static void log_report(const struct dma_owner_report *r)
{
	struct log_record *rec;
	unsigned long flags;

	raw_spin_lock_irqsave(&log_lock, flags);
	if (log_ring) {
		rec = &log_ring[log_next % log_size];
		if (rec->text)
			llist_add(&rec->text->dead, &dead_texts);
		rec->text = NULL;
		rec->seq = log_next++;
		rec->used = true;
		rec->time_ns = local_clock();
		rec->jiffies = jiffies;
		strscpy(rec->dev, dma_owner_dev_name(r->dev), sizeof(rec->dev));
		strscpy(rec->drv, driver_name(r->dev), sizeof(rec->drv));
		rec->r = *r;
	}
	raw_spin_unlock_irqrestore(&log_lock, flags);
}

/* Texts no slot holds any more. Under log_mutex. */
static void free_dead_texts(void)
{
	struct log_text *t, *next;

	llist_for_each_entry_safe(t, next, llist_del_all(&dead_texts), dead)
		kfree(t);
}

/* Free the texts of @n records of a ring no longer in use. Under log_mutex. */
static void free_texts(struct log_record *ring, unsigned int n)
{
	unsigned int i;

	for (i = 0; ring && i < n; i++)
		kfree(ring[i].text);
	free_dead_texts();
}

/**
 * dma_owner_log_resize() - set how many reports the violations log keeps
 * @size: 1 to 65536
 *
 * The newest reports are kept. Reports made during the resize go to the new
 * ring at once; the old records are then moved under it, one at a time,
 * where no newer report has taken their place.
 *
 * Context: process context.
 * Return: 0, -EINVAL for a bad size, -ENOMEM.
 */
int dma_owner_log_resize(unsigned int size)
{
	struct log_record *ring, *old, *slot;
	unsigned int old_size;
	unsigned long flags;
	u64 s, first, end;

	if (size < 1 || size > 65536)
		return -EINVAL;
	ring = kvcalloc(size, sizeof(*ring), GFP_KERNEL);
	if (!ring)
		return -ENOMEM;
	mutex_lock(&log_mutex);
	raw_spin_lock_irqsave(&log_lock, flags);
	old = log_ring;
	old_size = log_size;
	end = log_next;
	/* A larger ring holds no more than the old one kept. */
	first = max(log_oldest(), end > size ? end - size : 0);
	log_ring = ring;
	log_size = size;
	log_first = first;
	raw_spin_unlock_irqrestore(&log_lock, flags);

	for (s = first; old && s < end; s++) {
		raw_spin_lock_irqsave(&log_lock, flags);
		slot = &ring[s % size];
		/* Keep it if the newest @size reports still include it. */
		if (!slot->used && log_next - s <= size) {
			*slot = old[s % old_size];
			old[s % old_size].text = NULL;
		}
		raw_spin_unlock_irqrestore(&log_lock, flags);
		if (!(s & 255))
			cond_resched();
	}
	free_texts(old, old_size);
	mutex_unlock(&log_mutex);
	kvfree(old);
	return 0;
}

/**
 * dma_owner_log_size() - how many reports the violations log keeps
 *
 * Return: the size.
 */
unsigned int dma_owner_log_size(void)
{
	return READ_ONCE(log_size);
}

/**
 * dma_owner_log_count() - how many reports the violations log holds
 *
 * Return: the count.
 */
u64 dma_owner_log_count(void)
{
	unsigned long flags;
	u64 n;

	raw_spin_lock_irqsave(&log_lock, flags);
	n = log_next - log_oldest();
	raw_spin_unlock_irqrestore(&log_lock, flags);
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_log_count);

/**
 * dma_owner_log_clear() - empty the violations log
 *
 * The ring is replaced by an empty one, so that the raw lock is not held
 * while megabytes are cleared.
 *
 * Context: process context.
 * Return: 0, or -ENOMEM with the log as it was.
 */
int dma_owner_log_clear(void)
{
	struct log_record *ring, *old;
	unsigned long flags;

	mutex_lock(&log_mutex);
	ring = kvcalloc(log_size, sizeof(*ring), GFP_KERNEL);
	if (!ring) {
		mutex_unlock(&log_mutex);
		return -ENOMEM;
	}
	raw_spin_lock_irqsave(&log_lock, flags);
	old = log_ring;
	log_ring = ring;
	log_next = 0;
	log_first = 0;
	raw_spin_unlock_irqrestore(&log_lock, flags);
	free_texts(old, log_size);
	mutex_unlock(&log_mutex);
	kvfree(old);
	return 0;
}

/*
 * One value of a record line: a code address as %pS prints it (as the
 * prose does: 0x0 if unknown), or "-" with @none. Its own frame: the
 * symbol buffer is large.
 */
static noinline_for_stack void print_record_sym(struct seq_file *seq,
						const char *key,
						unsigned long ip, bool none)
{
	char sym[KSYM_SYMBOL_LEN];

	seq_printf(seq, " %s=", key);
	if (none) {
		seq_putc(seq, '-');
		return;
	}
	snprintf(sym, sizeof(sym), "%pS", (void *)ip);
	seq_escape(seq, sym, RECORD_ESCAPE);
}

/*
 * A record's first line, for tools: key=value pairs, in this order, each
 * value free of blanks (escaped in octal) and "-" when unknown. This line,
 * not the prose below it, is what tools read (the violations file in
 * Documentation/dev-tools/dma-owner.rst); keys are only ever added.
 */
static void print_record_line(struct seq_file *seq,
			      const struct log_record *rec)
{
	const struct dma_owner_report *r = &rec->r;
	const struct dma_owner_entry *e = r->has_entry ? &r->entry : NULL;
	unsigned long site = e ? dma_owner_map_caller(e) : 0;
	char owner[40];

	seq_printf(seq, "seq=%llu time=%llu.%06llu kind=%s op=%s device=",
		   rec->seq, rec->time_ns / NSEC_PER_SEC,
		   (rec->time_ns % NSEC_PER_SEC) / 1000,
		   dma_owner_kind_names[r->kind], report_op_name(r));
	seq_escape(seq, rec->dev, RECORD_ESCAPE);
	seq_puts(seq, " driver=");
	seq_escape(seq, rec->drv, RECORD_ESCAPE);
	seq_printf(seq, " handle=%pad size=%zu dir=%s api=%s owner=%s",
		   &r->addr, r->size, dma_owner_dir_name(r->dir),
		   e ? api_names[e->api] : "-",
		   e ? dma_owner_owner_string(e, owner, sizeof(owner)) : "-");
	print_record_sym(seq, "caller", r->caller, false);
	print_record_sym(seq, "map_site", site, !site);
	seq_putc(seq, '\n');
}

/**
 * dma_owner_log_show() - print one record of the violations log
 * @seq: where to
 * @index: 0 is the oldest record kept
 *
 * Return: 0, or -ENOENT past the newest record.
 */
int dma_owner_log_show(struct seq_file *seq, u64 index)
{
	struct log_record *rec;
	unsigned long flags;
	u64 first, n;

	rec = kmalloc(sizeof(*rec), GFP_KERNEL);
	if (!rec)
		return -ENOMEM;
	mutex_lock(&log_mutex);		/* not during a resize's move */
	raw_spin_lock_irqsave(&log_lock, flags);
	first = log_oldest();
	n = first + index;
	if (!log_ring || n >= log_next) {
		raw_spin_unlock_irqrestore(&log_lock, flags);
		mutex_unlock(&log_mutex);
		kfree(rec);
		return -ENOENT;
	}
	*rec = log_ring[n % log_size];
	raw_spin_unlock_irqrestore(&log_lock, flags);

	/* A text stays while log_mutex is held, even if its slot is taken. */
	if (rec->text) {
		seq_puts(seq, rec->text->s);
	} else {
		print_record_line(seq, rec);
		print_report(seq, &rec->r, rec->dev, rec->drv, rec->jiffies);
	}
	free_dead_texts();
	mutex_unlock(&log_mutex);
	seq_putc(seq, '\n');
	kfree(rec);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_log_show);

/* Does a code address of @rec lie in @mod? */
static bool record_in_module(const struct log_record *rec,
			     const struct module *mod)
{
	const struct dma_owner_report *r = &rec->r;
	const struct dma_owner_entry *e = &r->entry;
	unsigned long *frames;
	unsigned int i, n;

	if (within_module(r->caller, mod) || within_module(r->unmap_caller, mod))
		return true;
	if (r->kind == DMA_OWNER_CACHE_LINE_SHARED && r->sharer.map_stack) {
		n = stack_depot_fetch(r->sharer.map_stack, &frames);
		for (i = 0; i < n; i++)
			if (within_module(frames[i], mod))
				return true;
	}
	if (!r->has_entry)
		return false;
	for (i = 0; i < dma_owner_hist_len(e); i++)
		if (within_module(dma_owner_hist_caller(e, i), mod))
			return true;
	n = e->map_stack ? stack_depot_fetch(e->map_stack, &frames) : 0;
	for (i = 0; i < n; i++)
		if (within_module(frames[i], mod))
			return true;
	return false;
}

#define LOG_TEXT_MAX	8192

/* @rec as dma_owner_log_show() prints it now, or NULL. */
static struct log_text *render_record(const struct log_record *rec)
{
	struct seq_file m = { .size = LOG_TEXT_MAX };
	struct log_text *t = NULL;
	size_t len;

	m.buf = kmalloc(m.size, GFP_KERNEL);
	if (!m.buf)
		return NULL;
	print_record_line(&m, rec);
	print_report(&m, &rec->r, rec->dev, rec->drv, rec->jiffies);
	len = min(m.count, m.size - 1);
	t = kmalloc(struct_size(t, s, len + 1), GFP_KERNEL);
	if (t) {
		memcpy(t->s, m.buf, len);
		t->s[len] = '\0';
	}
	kfree(m.buf);
	return t;
}

/*
 * A module is going: the records that name its code are written out now,
 * while kallsyms still knows it. Read later, they would name a raw
 * address, or a function of the next module loaded there (the log promises
 * each report as dmesg printed it).
 */
static int log_module_going(struct notifier_block *nb, unsigned long action,
			    void *data)
{
	struct module *mod = data;
	struct log_record *rec, *slot;
	struct log_text *t;
	unsigned long flags;
	u64 s, end;

	if (action != MODULE_STATE_GOING)
		return NOTIFY_DONE;
	rec = kmalloc(sizeof(*rec), GFP_KERNEL);
	if (!rec)
		return NOTIFY_DONE;
	mutex_lock(&log_mutex);
	/* Bounded: its exit has run, later reports are not of its code. */
	end = READ_ONCE(log_next);
	for (s = 0;; s++) {
		raw_spin_lock_irqsave(&log_lock, flags);
		s = max(s, log_oldest());
		if (!log_ring || s >= min(log_next, end)) {
			raw_spin_unlock_irqrestore(&log_lock, flags);
			break;
		}
		*rec = log_ring[s % log_size];
		raw_spin_unlock_irqrestore(&log_lock, flags);
		if (rec->text || !record_in_module(rec, mod))
			continue;
		t = render_record(rec);
		if (!t)
			continue;
		raw_spin_lock_irqsave(&log_lock, flags);
		slot = &log_ring[s % log_size];
		/* Unless a newer report has taken the slot meanwhile. */
		if (slot->used && slot->seq == s && !slot->text) {
			slot->text = t;
			t = NULL;
		}
		raw_spin_unlock_irqrestore(&log_lock, flags);
		kfree(t);
		cond_resched();
	}
	free_dead_texts();
	mutex_unlock(&log_mutex);
	kfree(rec);
	return NOTIFY_OK;
}

static struct notifier_block log_module_nb = {
	.notifier_call = log_module_going,
};

static int log_size_set(const char *val, const struct kernel_param *kp)
{
	unsigned int size;
	int ret = kstrtouint(val, 0, &size);

	if (ret)
		return ret;
	if (size < 1 || size > 65536)
		return -EINVAL;
	if (!READ_ONCE(log_ring)) {	/* on the command line, before init */
		log_size = size;
		return 0;
	}
	return dma_owner_log_resize(size);
}

static int log_size_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%u\n", dma_owner_log_size());
}

static const struct kernel_param_ops log_size_ops = {
	.set = log_size_set,
	.get = log_size_get,
};
module_param_cb(log_size, &log_size_ops, NULL, 0644);
MODULE_PARM_DESC(log_size, "Reports kept in debugfs dma-owner/violations (1-65536, default 64)");

static int __init dma_owner_log_init(void)
{
	register_module_notifier(&log_module_nb);
	return dma_owner_log_resize(log_size);
}
core_initcall(dma_owner_log_init);

/* ---------------------------------------------------------------------- */

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
	print_report(NULL, r, dma_owner_dev_name(r->dev), driver_name(r->dev), jiffies);
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
 * dma_owner_report() - count a violation, log it and report it
 * @r: the report
 *
 * A report an ignore rule matches is only counted as ignored.
 */
void dma_owner_report(struct dma_owner_report *r)
{
	unsigned int suppressed = 0;

	if (dma_owner_ignored(r))
		return;
	atomic_long_inc(&dma_owner_stats.violations);
	atomic_long_inc(&dma_owner_stats.violation[r->kind]);
	log_report(r);
	trace_dma_owner_violation(dma_owner_kind_names[r->kind], r->dev,
				  r->has_entry ? r->entry.handle : r->addr,
				  r->has_entry ? r->entry.size : r->size,
				  r->has_entry ? r->entry.dir : r->dir,
				  r->has_entry && r->kind != DMA_OWNER_USE_AFTER_UNMAP ?
				  dma_owner_state(&r->entry) : DMA_OWNER_STATE_NONE,
				  r->caller);

	if (READ_ONCE(dma_owner_report_mode) == DMA_OWNER_REPORT_RATELIMIT &&
	    !site_ratelimit(r, &suppressed))
		return;
	dma_owner_emit(r, suppressed);
}
