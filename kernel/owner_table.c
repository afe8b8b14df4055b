// SPDX-License-Identifier: GPL-2.0
/*
 * DMA ownership tracker: the table of live streaming mappings.
 *
 * Every live mapping (every mapped segment of an sg list) has an entry in a
 * hash table of bit-locked buckets, sized from memory at boot like the dentry
 * hash, so the cost of a lookup stays flat from one live mapping to millions
 * and CPUs mapping in parallel take different bucket locks.
 *
 * Syncs name any address inside a mapping (dma_sync_single_range_*()), so a
 * lookup must find the mapping that contains an address, not only the one
 * that starts there. Entries are hashed by (device, level, chunk): the level
 * is the smallest L whose chunk size, 4 KiB << 4L, holds the mapping, and the
 * chunk is the start address divided by that size. A mapping of level L
 * starts in the chunk of any address it contains or in the chunk before, so
 * a containing lookup probes two buckets per level in use; an exact lookup
 * (unmap, or a sync from the start) usually hits the first.
 */

#define pr_fmt(fmt) "dma-owner: " fmt

#include <linux/bitops.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/fault-inject.h>
#include <linux/jhash.h>
#include <linux/jiffies.h>
#include <linux/memblock.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/randomize_kstack.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>
#include <kunit/visibility.h>
#include <asm/sections.h>

#include "owner.h"

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "dma_owner."

#define MAX_TRACKED_SIZE	U32_MAX
#define STACK_DEPTH		16
#define MAX_CSUM_SIZE		SZ_64K	/* bounds the content check's work per call */

static struct kmem_cache *entry_cache;
static struct kmem_cache *wide_entry_cache;
struct dma_owner_bucket *dma_owner_table __ro_after_init;
unsigned int dma_owner_table_shift __ro_after_init;
unsigned long dma_owner_level_sets[1 << DMA_OWNER_LEVEL_SETS_BITS];
EXPORT_SYMBOL_IF_KUNIT(dma_owner_level_sets);
unsigned long dma_owner_span_sets[1 << DMA_OWNER_LEVEL_SETS_BITS];
EXPORT_SYMBOL_IF_KUNIT(dma_owner_span_sets);
bool dma_owner_check_contents;		/* checksum DMA_TO_DEVICE buffers */
EXPORT_SYMBOL_IF_KUNIT(dma_owner_check_contents);
static unsigned long hash_entries;	/* dma_owner.hash_entries= */
static int map_stacks = DMA_OWNER_MAP_STACKS_PER_PATH;

/*
 * One plain entry per CPU, kept from an unmap for the next map: drivers map
 * and unmap in turn, and the slab allocator's fast path with its hooks
 * (memcg, KASAN, init_on_free) costs more than the rest of an unmap.
 */
static DEFINE_PER_CPU(struct dma_owner_entry *, spare_entry);

static void free_plain_entry(struct dma_owner_entry *e)
{
	if (this_cpu_cmpxchg(spare_entry, NULL, e))
		kmem_cache_free(entry_cache, e);
}

static struct dma_owner_entry *alloc_entry(void)
{
	struct dma_owner_entry *e = this_cpu_xchg(spare_entry, NULL);

	if (!e)
		return kmem_cache_alloc(entry_cache, GFP_NOWAIT | __GFP_NOWARN);
	/* failslab on the entry cache fails the spare too: it stands for it. */
	if (unlikely(should_failslab(entry_cache, GFP_NOWAIT | __GFP_NOWARN))) {
		free_plain_entry(e);
		return NULL;
	}
	return e;
}

static unsigned int size_level(size_t size)
{
	unsigned int l = 0;

	while (l < DMA_OWNER_NR_LEVELS - 1 && size > (1ULL << DMA_OWNER_LEVEL_SHIFT(l)))
		l++;
	return l;
}

#if IS_ENABLED(CONFIG_KUNIT)
/*
 * dma_owner_encode_caller() for the KUnit suite: built as a module, it
 * cannot reach _stext, which the kernel does not export. Built with KUnit,
 * as EXPORT_SYMBOL_IF_KUNIT() exports it, whether or not the suite is.
 */
s32 dma_owner_encode_caller_for_test(unsigned long ip)
{
	return dma_owner_encode_caller(ip);
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_encode_caller_for_test);

/**
 * dma_owner_record_for_test() - dma_owner_record() for the KUnit suite
 * @e: the mapping whose history takes the transition
 * @op: the transition
 * @caller: the address that made it, encoded as dma_owner_record() does
 *
 * Exported for the suite for the reason dma_owner_encode_caller_for_test()
 * is: the encoding needs _stext.
 */
void dma_owner_record_for_test(struct dma_owner_entry *e, enum dma_owner_op op,
			       unsigned long caller)
{
	dma_owner_record(e, op, caller);
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_record_for_test);
#endif

/**
 * dma_owner_hist_caller() - the caller of one transition in a history
 * @e: a mapping, live or a snapshot
 * @i: the transition, 0 the oldest, below dma_owner_hist_len()
 *
 * Return: the caller's address, 0 if it was out of reach.
 */
unsigned long dma_owner_hist_caller(const struct dma_owner_entry *e,
				    unsigned int i)
{
	s32 off = e->hist[dma_owner_hist_slot(e, i)];

	return off ? (unsigned long)_stext + off : 0;
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_hist_caller);

/*
 * Map stacks, kept per call path. Walking the stack is most of what a map
 * costs, several times the rest of the tracker, yet a driver maps from a
 * handful of call paths over and over. Each CPU keeps the stacks it took
 * last, keyed by what tells one call path from another at next to no
 * cost: the call site, the device, the depth of the stack there and the
 * context (task, softirq, hardirq). A map with a key seen before gets that
 * map's stack; two paths reach one call site for one device at the same
 * depth in the same context only by coincidence. A driver unbinding or a
 * module going empties them all: code and devices may be gone.
 *
 * A slot is one word, the stack's depot handle under a tag of the key's
 * hash, read and written whole: an interrupt that keeps a stack of its own
 * in the slot meanwhile leaves either its stack or the one before, each
 * under its own tag, so nothing needs interrupts disabled. A key that
 * finds its slot held by another takes the other's stack if their tags
 * agree, one time in 2^32: the price of a slot read in one go.
 */
#define STACK_MEMO_BITS		7
#define STACK_MEMO_TAG_SHIFT	(64 - STACK_MEMO_BITS - 32)

static DEFINE_PER_CPU(u64 [1 << STACK_MEMO_BITS], stack_memos);
static atomic_t stack_memo_epoch;

/**
 * dma_owner_forget_map_stacks() - stop giving new maps the stacks taken so far
 *
 * Called when a driver unbinds, a module goes, or tracking starts.
 */
void dma_owner_forget_map_stacks(void)
{
	atomic_inc(&stack_memo_epoch);
}

/* A module may map for a device it is not bound to (a dmaengine client). */
static int map_stacks_module_notify(struct notifier_block *nb,
				    unsigned long action, void *data)
{
	if (action == MODULE_STATE_GOING)
		dma_owner_forget_map_stacks();
	return NOTIFY_OK;
}

static struct notifier_block map_stacks_module_nb = {
	.notifier_call = map_stacks_module_notify,
};

/*
 * Does the depth of this stack tell call paths apart? Not in a user task's
 * system call under randomize_kstack_offset: each entry moves its stack by
 * a random offset.
 */
static bool depth_is_random(void)
{
#ifdef CONFIG_RANDOMIZE_KSTACK_OFFSET
	return static_branch_maybe(CONFIG_RANDOMIZE_KSTACK_OFFSET_DEFAULT,
				   &randomize_kstack_offset) &&
	       in_task() && !(current->flags & PF_KTHREAD);
#else
	return false;
#endif
}

/* The stack of this map, from @caller on, without the tracker's frames. */
static noinline depot_stack_handle_t take_map_stack(unsigned long caller)
{
	unsigned long entries[STACK_DEPTH];
	unsigned int n, skip;

	n = stack_trace_save(entries, ARRAY_SIZE(entries), 1);
	for (skip = 0; skip < n && entries[skip] != caller; skip++)
		;
	if (skip == n)
		skip = 0;
	/* The depot must not allocate in an NMI: it then finds or fails. */
	return stack_depot_save_flags(entries + skip, n - skip,
				      GFP_NOWAIT | __GFP_NOWARN,
				      in_nmi() ? 0 : STACK_DEPOT_FLAG_CAN_ALLOC);
}

/*
 * How deep this stack is, wherever it starts (stacks are aligned): the stack
 * pointer where the architecture names it, which needs no frame of its own.
 */
static __always_inline unsigned long stack_depth(void)
{
#ifdef CONFIG_ARCH_HAS_CURRENT_STACK_POINTER
	return current_stack_pointer & (THREAD_SIZE - 1);
#else
	return (unsigned long)__builtin_frame_address(0) & (THREAD_SIZE - 1);
#endif
}

/*
 * No stack kept for this call path: take it, and keep it in slot @i under
 * @tag. Out of line, so that a map that finds its stack saves no registers
 * for this.
 */
static noinline depot_stack_handle_t memo_miss(unsigned long caller,
					       unsigned int i, u32 tag)
{
	depot_stack_handle_t stack = take_map_stack(caller);

	if (stack)
		this_cpu_write(stack_memos[i], (u64)tag << 32 | stack);
	return stack;
}

/**
 * dma_owner_save_map_stack() - the stack of a map call, in the stack depot
 * @dev: the device
 * @caller: the driver code that called dma_map_*()
 *
 * Without the tracker's and the DMA API's own frames: the trace starts at
 * @caller. With dma_owner.map_stacks=1, the stack of an earlier map from
 * the same call path, if this CPU has it.
 *
 * Return: the depot handle, 0 if none (dma_owner.map_stacks=0, or no
 * memory).
 */
depot_stack_handle_t dma_owner_save_map_stack(const struct device *dev,
					      unsigned long caller)
{
	unsigned int epoch = atomic_read(&stack_memo_epoch);
	int mode = READ_ONCE(map_stacks);
	unsigned long where;
	unsigned int i;
	u64 key, slot;
	u32 tag;

	if (mode == DMA_OWNER_MAP_STACKS_OFF)
		return 0;
	/* An NMI can interrupt a CPU's memo: it takes its own stack. */
	if (mode == DMA_OWNER_MAP_STACKS_EVERY_MAP || in_nmi() || depth_is_random())
		return take_map_stack(caller);
	where = stack_depth() | (unsigned long)interrupt_context_level() << 24;
	/* Each part mixed before the next: no two keys cancel each other. */
	key = ((u64)caller * GOLDEN_RATIO_64 ^ where) * GOLDEN_RATIO_64;
	key = (key ^ (unsigned long)dev) * GOLDEN_RATIO_64;
	key = (key ^ epoch) * GOLDEN_RATIO_64;
	i = key >> (64 - STACK_MEMO_BITS);
	tag = key >> STACK_MEMO_TAG_SHIFT;
	slot = this_cpu_read(stack_memos[i]);
	if ((u32)(slot >> 32) == tag && (u32)slot)
		return (u32)slot;
	return memo_miss(caller, i, tag);
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_save_map_stack);

/**
 * dma_owner_map_caller() - the driver code that called dma_map_*()
 * @e: a mapping, live or a snapshot
 *
 * Return: the first frame of the map stack, or without one
 * (dma_owner.map_stacks=0) the history's first entry while it is still the
 * map; 0 when neither is known any more.
 */
unsigned long dma_owner_map_caller(const struct dma_owner_entry *e)
{
	unsigned long *entries;

	if (e->map_stack && stack_depot_fetch(e->map_stack, &entries))
		return entries[0];
	if (dma_owner_hist_len(e) && dma_owner_hist_op(e, 0) == DMA_OWNER_OP_MAP)
		return dma_owner_hist_caller(e, 0);
	return 0;
}

/**
 * dma_owner_contents_csum() - checksum the CPU's view of a buffer
 * @phys: its physical address
 * @size: its size
 * @csum: the checksum
 *
 * Return: false if it cannot be read (no address, too large, highmem, or
 * device memory: a P2PDMA page is another device's BAR, mapped uncached).
 */
bool dma_owner_contents_csum(phys_addr_t phys, size_t size, u32 *csum)
{
	unsigned long pfn = PHYS_PFN(phys), last = PHYS_PFN(phys + size - 1);
	bool paused;

	if (!phys || size > MAX_CSUM_SIZE || !pfn_valid(pfn) || !pfn_valid(last) ||
	    PageHighMem(pfn_to_page(last)) ||
	    is_zone_device_page(pfn_to_page(pfn)) ||
	    is_zone_device_page(pfn_to_page(last)))
		return false;
	/*
	 * The tracker's own read: bytes another live mapping of the same
	 * memory has poisoned (an in-place transform maps one buffer both
	 * ways) are not the CPU's breach.
	 */
	paused = dma_owner_poison_pause();
	*csum = jhash(phys_to_virt(phys), size, 0);
	dma_owner_poison_resume(paused);
	return true;
}

/**
 * dma_owner_new_entry() - allocate an entry for a new mapping
 * @dev: the device
 * @addr: the handle
 * @size: the size
 * @dir: the direction
 * @attrs: DMA_ATTR_* of the map call
 * @api: which map or allocation function
 * @phys: CPU physical address of the buffer, for the content check, the
 *	cache line check and poisoning
 * @caller: the driver's call site
 *
 * The entry is whole but for its map stack, and its sg entry count or
 * coherent CPU address: the device owns it all (a non-coherent
 * allocation's CPU does), and its history holds the map.
 *
 * Context: any; does not sleep.
 * Return: the entry, not yet in the table, or NULL.
 */
struct dma_owner_entry *dma_owner_new_entry(struct device *dev, dma_addr_t addr,
					    size_t size, enum dma_data_direction dir,
					    unsigned long attrs, enum dma_owner_api api,
					    phys_addr_t phys, unsigned long caller)
{
	struct dma_owner_wide_entry *ce = NULL;
	struct dma_owner_entry *e;
	bool has_csum, has_lines, poison;
	u32 csum;

	if (!size || size > MAX_TRACKED_SIZE)
		return NULL;
	has_csum = unlikely(READ_ONCE(dma_owner_check_contents)) &&
		   dir == DMA_TO_DEVICE && api != DMA_OWNER_API_RESOURCE &&
		   dma_owner_contents_csum(phys, size, &csum);
	has_lines = dma_owner_lines_wanted(phys, size, attrs, api);
	poison = dma_owner_poison_wanted(dev, phys, size, dir, attrs, api);
	if (has_csum || has_lines || poison) {
		ce = poison ? dma_owner_poison_alloc() :
		     kmem_cache_zalloc(wide_entry_cache, GFP_NOWAIT | __GFP_NOWARN);
		if (!ce)
			return NULL;
		ce->phys = phys;
		ce->csum = has_csum ? csum : 0;
		e = &ce->e;
	} else {
		e = alloc_entry();
		if (!e)
			return NULL;
	}
	/* No entry without a state to count it: see dma_owner_has_entries(). */
	if (!dma_owner_count_live(dev, 1)) {
		if (poison)
			dma_owner_poison_free(e);
		else if (ce)
			kmem_cache_free(wide_entry_cache, ce);
		else
			free_plain_entry(e);
		return NULL;
	}
	/*
	 * Whole, so that the compiler stores each word once. Memory from the
	 * non-coherent allocators starts with the CPU, which owns it until it
	 * is synced for the device (Documentation/core-api/dma-api.rst). Only
	 * a single mapping returns an error handle to be checked.
	 */
	*e = (struct dma_owner_entry){
		.dev = dev,
		.handle = addr,
		.cpu_hi = api == DMA_OWNER_API_PAGES ||
			  api == DMA_OWNER_API_NONCONTIGUOUS ? size : 0,
		.size = size,
		.map_jiffies = jiffies,
		.dir = dir,
		.api = api,
		.level = size_level(size),
		.skip_sync = !!(attrs & DMA_ATTR_SKIP_CPU_SYNC),
		.has_csum = has_csum,
		.error_checked = api != DMA_OWNER_API_PAGE &&
				 api != DMA_OWNER_API_RESOURCE,
		.has_lines = has_lines,
		.poison = poison,
		/* The first transition, as dma_owner_record() would add it. */
		.hist_n = 1,
		.hist_ops = DMA_OWNER_OP_MAP,
		.hist = { dma_owner_encode_caller(caller) },
	};
	if (poison)
		dma_owner_poison_index(e);
	return e;
}

/**
 * dma_owner_insert() - put a new entry in the table
 * @e: the entry
 */
void dma_owner_insert(struct dma_owner_entry *e)
{
	unsigned long *levels = dma_owner_levels_of(e->dev);
	unsigned long *spans = dma_owner_spans_of(e->dev);
	u64 chunk = (u64)e->handle >> DMA_OWNER_LEVEL_SHIFT(e->level);
	bool new_bit = false;
	struct dma_owner_bucket *b;
	unsigned long flags;
	long live, peak;

	/* Lookups must see the level before they can miss the entry. */
	if (!test_bit(e->level, levels)) {
		set_bit(e->level, levels);
		new_bit = true;
	}
	/* And that it runs on into the next chunk, if it does. */
	if (((u64)e->handle + e->size - 1) >> DMA_OWNER_LEVEL_SHIFT(e->level) != chunk &&
	    !test_bit(e->level, spans)) {
		set_bit(e->level, spans);
		new_bit = true;
	}
	if (new_bit) {
		/*
		 * The bits before the entry is linked: a CPU that learns the
		 * handle from this one (through the driver) sees them all.
		 */
		smp_mb__after_atomic();
	}
	/*
	 * Counted before it is linked: once in the table, it may be unmapped
	 * or flushed, and freed, at once. The counters are of mappings: a
	 * coherent ring lives for ever.
	 */
	if (e->api != DMA_OWNER_API_COHERENT) {
		this_cpu_inc(dma_owner_op_counters.n[DMA_OWNER_OP_MAP]);
		live = atomic_long_inc_return(&dma_owner_stats.live);
		peak = atomic_long_read(&dma_owner_stats.peak_live);
		while (live > peak &&
		       !atomic_long_try_cmpxchg(&dma_owner_stats.peak_live, &peak, live))
			;
	}
	b = dma_owner_bucket(e->dev, e->level, chunk);
	dma_owner_lock_bucket(b, &flags);
	dma_owner_bucket_add(b, e);
	dma_owner_unlock_bucket(b, flags);
}

/**
 * dma_owner_free_entry() - free an entry taken out of the table
 * @e: the entry
 */
void dma_owner_free_entry(struct dma_owner_entry *e)
{
	if (e->api != DMA_OWNER_API_COHERENT)
		atomic_long_dec(&dma_owner_stats.live);
	rcu_read_lock();
	dma_owner_count_live(e->dev, -1);
	rcu_read_unlock();
	if (e->fragmented)
		kfree(e->ranges);
	/* Out of the index before the memory is: another map may look. */
	if (e->has_lines)
		dma_owner_lines_del(dma_owner_to_wide_entry(e));
	/* Unpoisoned before the unmap's swiotlb copy and any free. */
	if (e->poison)
		dma_owner_poison_free(e);
	else if (e->has_csum || e->has_lines)
		kmem_cache_free(wide_entry_cache, dma_owner_to_wide_entry(e));
	else
		free_plain_entry(e);
}

/* ---------------------------------------------------------------------- */
/* On and off                                                             */

/**
 * dma_owner_drop_entries() - remove every entry of @dev
 * @dev: the device
 * @report: report each as a leak
 * @may_sleep: the walk may reschedule
 */
void dma_owner_drop_entries(struct device *dev, bool report,
			    bool may_sleep)
{
	struct dma_owner_report r = { .kind = DMA_OWNER_LEAK, .dev = dev,
				      .op = DMA_OWNER_OP_UNMAP,
				      .has_entry = true };
	struct dma_owner_entry *e, *found;
	struct dma_owner_bucket *b;
	unsigned long flags, i;
	bool any;

	/* Most devices that unbind or fail to probe have no mappings. */
	rcu_read_lock();
	any = dma_owner_has_entries(dev);
	rcu_read_unlock();
	if (!any)
		return;
	for (i = 0; i < (1UL << dma_owner_table_shift); i++) {
		b = &dma_owner_table[i];
		do {
			if (dma_owner_bucket_empty(b))
				break;
			found = NULL;
			dma_owner_lock_bucket(b, &flags);
			dma_owner_for_each_entry(e, b) {
				if (e->dev == dev) {
					found = e;
					dma_owner_bucket_del(b, e);
					break;
				}
			}
			dma_owner_unlock_bucket(b, flags);
			if (found && report && !READ_ONCE(dma_owner_settling)) {
				dma_owner_snapshot(&r.entry, found);
				r.addr = found->handle;
				r.size = found->size;
				r.dir = found->dir;
				r.caller = dma_owner_map_caller(found);
				dma_owner_report(&r);
			}
			if (found)
				dma_owner_free_entry(found);
		} while (found);
		if (may_sleep && !(i & 1023))
			cond_resched();
	}
}

/**
 * dma_owner_flush_table() - drop every entry, silently
 *
 * They may be stale after a period with tracking off.
 *
 * Context: process context, may sleep.
 */
void dma_owner_flush_table(void)
{
	struct dma_owner_entry *e;
	struct dma_owner_bucket *b;
	unsigned long flags, i;

	for (i = 0; i < (1UL << dma_owner_table_shift); i++) {
		b = &dma_owner_table[i];
		/* One at a time: nothing is freed under a bucket lock. */
		while (!dma_owner_bucket_empty(b)) {
			dma_owner_lock_bucket(b, &flags);
			e = dma_owner_first(b);
			if (e)
				dma_owner_bucket_del(b, e);
			dma_owner_unlock_bucket(b, flags);
			if (e)
				dma_owner_free_entry(e);
		}
		if (!(i & 1023))
			cond_resched();
	}
	/* What was unmapped before may have been mapped again meanwhile. */
	dma_owner_forget_unmapped(NULL, true);
}

/**
 * dma_owner_nr_buckets() - how many hash buckets there are
 *
 * Return: the number, 0 if the tracker failed to initialise.
 */
unsigned long dma_owner_nr_buckets(void)
{
	return dma_owner_table ? 1UL << dma_owner_table_shift : 0;
}

/**
 * dma_owner_next_bucket() - the first bucket at or after @i with entries
 * @i: where to start
 *
 * Return: its index, or dma_owner_nr_buckets() if there is none.
 */
unsigned long dma_owner_next_bucket(unsigned long i)
{
	unsigned long n = dma_owner_nr_buckets();

	for (; i < n; i++)
		if (!dma_owner_bucket_empty(&dma_owner_table[i]))
			break;
	return i;
}

/**
 * dma_owner_copy_bucket() - copy the mappings of one bucket
 * @i: bucket index
 * @skip: entries to pass over first
 * @buf: where to copy them
 * @max: room in @buf
 *
 * Copies under the bucket lock, so a reader holds it for at most @max
 * entries at a time and never stalls mapping on other buckets. The names
 * are copied there too: a device may be deleted once its entries are out of
 * the table, and the copies hold its pointer only for comparisons.
 *
 * Return: how many were copied.
 */
unsigned int dma_owner_copy_bucket(unsigned long i, unsigned int skip,
				   struct dma_owner_mapping *buf, unsigned int max)
{
	struct dma_owner_bucket *b = &dma_owner_table[i];
	const struct device_driver *drv;
	struct dma_owner_entry *e;
	unsigned int n = 0;
	unsigned long flags;

	dma_owner_lock_bucket(b, &flags);
	dma_owner_for_each_entry(e, b) {
		if (skip) {
			skip--;
			continue;
		}
		if (n == max)
			break;
		dma_owner_snapshot(&buf[n].e, e);
		strscpy(buf[n].dev, dma_owner_dev_name(e->dev), sizeof(buf[n].dev));
		drv = READ_ONCE(e->dev->driver);
		strscpy(buf[n].drv, drv ? drv->name : "-", sizeof(buf[n].drv));
		n++;
	}
	dma_owner_unlock_bucket(b, flags);
	return n;
}

module_param_named(check_contents, dma_owner_check_contents, bool, 0644);
MODULE_PARM_DESC(check_contents,
		 "Checksum DMA_TO_DEVICE buffers to catch CPU writes while the device owns them");
/* 0, 1 or 2; or, as when it was a bool, y/n/on/off, and bare for 1. */
static int map_stacks_set(const char *val, const struct kernel_param *kp)
{
	unsigned int mode = DMA_OWNER_MAP_STACKS_PER_PATH;
	bool on;

	if (val && kstrtouint(val, 0, &mode)) {
		if (kstrtobool(val, &on))
			mode = UINT_MAX;
		else
			mode = on ? DMA_OWNER_MAP_STACKS_PER_PATH : DMA_OWNER_MAP_STACKS_OFF;
	}
	if (mode > DMA_OWNER_MAP_STACKS_EVERY_MAP) {
		pr_err("map_stacks=%s: want 0 (none), 1 (one per call path) or 2 (one per map)\n",
		       val);
		return -EINVAL;
	}
	WRITE_ONCE(map_stacks, mode);
	return 0;
}

static const struct kernel_param_ops map_stacks_ops = {
	.flags = KERNEL_PARAM_OPS_FL_NOARG,
	.set = map_stacks_set,
	.get = param_get_int,
};

module_param_cb(map_stacks, &map_stacks_ops, &map_stacks, 0644);
MODULE_PARM_DESC(map_stacks,
		 "Where each mapping was made, as a stack trace: 0 none, 1 one per call path (default), 2 one per map");
module_param(hash_entries, ulong, 0444);
MODULE_PARM_DESC(hash_entries, "Hash buckets (default: one per page of memory)");

/**
 * dma_owner_table_ready() - was the table allocated?
 *
 * Return: false before start-up, or if it failed: nothing is tracked then.
 */
bool dma_owner_table_ready(void)
{
	return dma_owner_table;
}

/**
 * dma_owner_table_init() - allocate the entry caches and the table
 *
 * Return: 0 or -ENOMEM.
 */
int __init dma_owner_table_init(void)
{
	entry_cache = KMEM_CACHE(dma_owner_entry, 0);
	wide_entry_cache = KMEM_CACHE(dma_owner_wide_entry, 0);
	if (!entry_cache || !wide_entry_cache) {
		kmem_cache_destroy(entry_cache);
		kmem_cache_destroy(wide_entry_cache);
		entry_cache = NULL;
		wide_entry_cache = NULL;
		return -ENOMEM;
	}
	/* At least 256 buckets: hash_64() needs a shift above 0. */
	dma_owner_table = alloc_large_system_hash("dma-owner",
						  sizeof(*dma_owner_table),
						  hash_entries, PAGE_SHIFT,
						  HASH_ZERO,
						  &dma_owner_table_shift,
						  NULL, 256, 0);
	return register_module_notifier(&map_stacks_module_nb);
}
