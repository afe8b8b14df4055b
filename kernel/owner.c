// SPDX-License-Identifier: GPL-2.0
/*
 * DMA ownership tracker: the table of live streaming mappings and the
 * ownership state machine. Reports are formatted in owner_report.c.
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
 *
 * A lookup that finds nothing is a violation only if the tracker saw every
 * mapping of that device: see may_report_miss().
 */

#define pr_fmt(fmt) "dma-owner: " fmt

#include <linux/bitops.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/hash.h>
#include <linux/hashtable.h>
#include <linux/jhash.h>
#include <linux/jiffies.h>
#include <linux/memblock.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/scatterlist.h>
#include <linux/seq_file.h>
#include <linux/log2.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>
#include <kunit/visibility.h>
#include <asm/sections.h>

#include "owner.h"

#define CREATE_TRACE_POINTS
#include <trace/events/dma_owner.h>

/* A driver's own test module may count the reports its misuse draws. */
EXPORT_TRACEPOINT_SYMBOL_GPL(dma_owner_violation);

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "dma_owner."

DEFINE_STATIC_KEY_FALSE(dma_owner_key);
EXPORT_SYMBOL(dma_owner_key);

struct dma_owner_stats dma_owner_stats;
EXPORT_SYMBOL_IF_KUNIT(dma_owner_stats);
static DEFINE_PER_CPU(struct dma_owner_op_counts, dma_owner_ops);

#define NR_LEVELS		6	/* 4 KiB ... 4 GiB chunks */
#define LEVEL_SHIFT(l)		(12 + 4 * (l))
#define MAX_TRACKED_SIZE	U32_MAX
#define STACK_DEPTH		16
#define MAX_CSUM_SIZE		SZ_64K	/* bounds the content check's work per call */

static struct kmem_cache *entry_cache;
static struct kmem_cache *csum_entry_cache;
static struct hlist_bl_head *table;
static unsigned int table_shift;
static unsigned long levels_used;	/* bit L: level L has had entries */

static DEFINE_MUTEX(enable_mutex);	/* serialises on/off switches */
static bool tracking_on;		/* the state dma_owner_key follows */
static bool settling;			/* switching: nothing is reported */
static bool boot_off;			/* dma_owner=off on the command line */
bool dma_owner_check_contents;		/* checksum DMA_TO_DEVICE buffers */
EXPORT_SYMBOL_IF_KUNIT(dma_owner_check_contents);
static unsigned long hash_entries;	/* dma_owner.hash_entries= */
static bool map_stacks = true;		/* a stack trace per map call */

/* The debugfs filter: a device or driver name, NULL for everything. */
static const char __rcu *filter;

/* Is @dev outside the filter? Called under rcu_read_lock(). */
static bool filtered_out(struct device *dev)
{
	const char *f = rcu_dereference(filter);
	const struct device_driver *drv;

	if (likely(!f))
		return false;
	drv = READ_ONCE(dev->driver);
	return strcmp(dev_name(dev), f) && (!drv || strcmp(drv->name, f));
}

/*
 * Recently unmapped mappings, so that a sync or unmap of one is reported as
 * use-after-unmap, naming who unmapped it and when, rather than as an
 * unknown handle. A set-associative table hashed by where the mapping
 * started: a mapping's record stays until UNMAPPED_WAYS other mappings of
 * its set have been unmapped since, and a handle unmapped again replaces
 * its own record, so that rings reusing their buffers do not push out the
 * rest. With the default 8192 records (96 bytes each on 64-bit, 776 KiB in
 * all), a record outlives a thousand unrelated unmaps in all but about one
 * case in 10^5, even when they are of a ring of buffers side by side (see
 * unmapped_set()).
 */
#define UNMAPPED_WAYS	8

struct unmapped_rec {
	struct dma_owner_entry e;	/* a snapshot; its last op is the unmap */
	unsigned long unmap_caller;
	u32 unmap_jiffies;
	u32 stamp;			/* age within the set */
};

struct unmapped_set {
	raw_spinlock_t lock;
	u32 clock;
	struct unmapped_rec way[UNMAPPED_WAYS];
};

static struct unmapped_set *unmapped;
static unsigned int unmapped_shift;
static unsigned int unmapped_entries = 8192;	/* dma_owner.unmapped_entries= */

/* ---------------------------------------------------------------------- */
/* Devices: what the tracker knows of each                               */

/*
 * A sync or unmap of a handle the table does not hold is a violation only if
 * the tracker saw every mapping of that device: the device is complete. That
 * holds for every device when tracking starts at boot, before any driver.
 * It stops holding for all devices when tracking is switched on at run time
 * or the filter changes (mappings made meanwhile are unknown), and for one
 * device when a zero-length sg segment ends what a list's calls name. A
 * device is complete again when a driver binds or unbinds: it then has no
 * mappings.
 *
 * A mapping the tracker could not allocate an entry for (or one too large
 * for an entry) does not cost the device its completeness: its handle is
 * remembered, up to UNTRACKED_HANDLES per device, and only calls on it go
 * unjudged; its unmap forgets it. Only when more are outstanding does the
 * device become incomplete.
 *
 * Each device that maps or binds has a state, allocated when its driver
 * binds (or at its first map, if it has none) and freed when the device is
 * released: the live count that lets an unbind skip the table walk, and why
 * the device is incomplete. From device_del() to the release, a reference
 * may still make calls (a parent unmapping for its child): nothing new is
 * tracked and no miss is reported. Devices without one (the allocation
 * failed) follow default_why. States are read under RCU and written under
 * dev_states_lock; those of an older epoch are incomplete.
 */
#define UNTRACKED_HANDLES	8

enum incomplete_why {
	WHY_COMPLETE,
	WHY_TRACKING_STARTED,	/* tracking or the filter changed */
	WHY_UNTRACKED,		/* more untracked mappings than remembered */
	WHY_ZERO_LENGTH_SEGMENT, /* sg segments past one with no DMA length */
	WHY_DELETED,		/* device_del() was called: nothing is tracked */
};

static const char *const why_names[] = {
	[WHY_COMPLETE]		  = "complete",
	[WHY_TRACKING_STARTED]	  = "tracking-started",
	[WHY_UNTRACKED]		  = "untracked-mappings",
	[WHY_ZERO_LENGTH_SEGMENT] = "zero-length-segment",
	[WHY_DELETED]		  = "deleted",
};

struct dev_state {
	struct hlist_node node;
	struct rcu_head rcu;
	struct device *dev;
	atomic_long_t live;		/* its entries, in the table or about to be */
	u32 epoch;
	u8 why;				/* enum incomplete_why */
	u8 nr_untracked;
	bool mapped;			/* ever had an entry: may have records */
	struct {
		dma_addr_t handle;
		u64 size;
	} untracked[UNTRACKED_HANDLES];
};

static DEFINE_HASHTABLE(dev_states, 10);
static DEFINE_RAW_SPINLOCK(dev_states_lock);
static u32 epoch;
static u8 default_why = WHY_TRACKING_STARTED;	/* devices without a state */
static atomic_t nr_untracked_handles;		/* over all devices */

static struct dev_state *find_state(struct device *dev)
{
	struct dev_state *st;

	hash_for_each_possible_rcu(dev_states, st, node, (unsigned long)dev,
				   lockdep_is_held(&dev_states_lock))
		if (st->dev == dev)
			return st;
	return NULL;
}

/* @dev's state, made if it has none and @gfp allows. Under RCU. */
static struct dev_state *get_state(struct device *dev, gfp_t gfp)
{
	struct dev_state *st, *spare;
	unsigned long flags;

	st = find_state(dev);
	if (likely(st))
		return st;
	/* Not under the raw lock: that would sleep on PREEMPT_RT. */
	spare = kzalloc(sizeof(*spare), gfp | __GFP_NOWARN);
	if (!spare)
		return NULL;
	raw_spin_lock_irqsave(&dev_states_lock, flags);
	st = find_state(dev);
	if (!st) {
		st = spare;
		spare = NULL;
		st->dev = dev;
		/* It may have mapped, unseen, as a device without a state. */
		st->epoch = epoch;
		st->why = default_why;
		hash_add_rcu(dev_states, &st->node, (unsigned long)dev);
	}
	raw_spin_unlock_irqrestore(&dev_states_lock, flags);
	kfree(spare);
	return st;
}

static enum incomplete_why state_why(const struct dev_state *st)
{
	return st->epoch == epoch ? st->why : WHY_TRACKING_STARTED;
}

/*
 * Was the call's handle mapped without the tracker seeing it? An unmap
 * forgets the handle it names.
 */
static bool untracked_handle(struct dev_state *st, dma_addr_t addr,
			     bool unmap)
{
	unsigned int i;

	lockdep_assert_held(&dev_states_lock);
	for (i = 0; i < st->nr_untracked; i++) {
		if (unmap ? addr != st->untracked[i].handle :
			    addr - st->untracked[i].handle >= st->untracked[i].size)
			continue;
		if (unmap) {
			st->untracked[i] = st->untracked[--st->nr_untracked];
			atomic_dec(&nr_untracked_handles);
		}
		return true;
	}
	return false;
}

/* May a call that no live mapping fits be reported? */
static bool may_report_miss(struct device *dev, dma_addr_t addr, bool unmap)
{
	struct dev_state *st;
	unsigned long flags;
	bool ok;

	raw_spin_lock_irqsave(&dev_states_lock, flags);
	st = find_state(dev);
	if (!st)
		ok = default_why == WHY_COMPLETE;
	else
		ok = state_why(st) == WHY_COMPLETE &&
		     !untracked_handle(st, addr, unmap);
	raw_spin_unlock_irqrestore(&dev_states_lock, flags);
	return ok;
}

/*
 * Could a call that fits a live mapping mean an untracked one instead (the
 * same memory mapped twice without an IOMMU)? Almost never asked: only
 * while some device has untracked handles.
 */
static bool may_mean_untracked(struct device *dev, dma_addr_t addr)
{
	struct dev_state *st;
	unsigned long flags;
	bool maybe = false;

	if (likely(!atomic_read(&nr_untracked_handles)))
		return false;
	raw_spin_lock_irqsave(&dev_states_lock, flags);
	st = find_state(dev);
	if (st)
		maybe = untracked_handle(st, addr, false);
	raw_spin_unlock_irqrestore(&dev_states_lock, flags);
	return maybe;
}

/* Every device may have mappings the tracker has not seen. */
static void lose_all_completeness(void)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&dev_states_lock, flags);
	epoch++;
	default_why = WHY_TRACKING_STARTED;
	raw_spin_unlock_irqrestore(&dev_states_lock, flags);
}

/* Start @st afresh in this epoch: no untracked handles, @why as given. */
static void restart_state_locked(struct dev_state *st, enum incomplete_why why)
{
	lockdep_assert_held(&dev_states_lock);
	st->epoch = epoch;
	st->why = why;
	atomic_sub(st->nr_untracked, &nr_untracked_handles);
	st->nr_untracked = 0;
}

/**
 * dma_owner_device_reset() - the tracker now sees every mapping of @dev
 * @dev: a device that has no streaming mappings
 *
 * Called when a driver binds or unbinds; also used by the KUnit suite for
 * its fake devices.
 *
 * Context: process context, may sleep.
 */
void dma_owner_device_reset(struct device *dev)
{
	struct dev_state *st, *spare;
	unsigned long flags;

	spare = kzalloc(sizeof(*spare), GFP_KERNEL | __GFP_NOWARN);
	raw_spin_lock_irqsave(&dev_states_lock, flags);
	st = find_state(dev);
	if (!st && spare) {
		st = spare;
		spare = NULL;
		st->dev = dev;
		hash_add_rcu(dev_states, &st->node, (unsigned long)dev);
	}
	if (st)
		restart_state_locked(st, WHY_COMPLETE);
	raw_spin_unlock_irqrestore(&dev_states_lock, flags);
	kfree(spare);
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_device_reset);

/*
 * A mapping of @dev the tracker does not hold. Under RCU; any context.
 * @why: WHY_UNTRACKED to remember the handle, if room is left
 */
static void count_untracked(struct device *dev, dma_addr_t addr, size_t size,
			    enum incomplete_why why)
{
	struct dev_state *st;
	unsigned long flags;

	atomic_long_inc(&dma_owner_stats.untracked);
	st = get_state(dev, GFP_NOWAIT);
	raw_spin_lock_irqsave(&dev_states_lock, flags);
	if (!st) {
		/* Known of nothing: the same for all devices without a state. */
		default_why = why;
	} else if (st->why == WHY_DELETED) {
		/* Untracked and unjudged, as everything after device_del(). */
	} else if (why == WHY_UNTRACKED && st->nr_untracked < UNTRACKED_HANDLES) {
		st->untracked[st->nr_untracked].handle = addr;
		st->untracked[st->nr_untracked].size = size;
		st->nr_untracked++;
		atomic_inc(&nr_untracked_handles);
	} else if (state_why(st) == WHY_COMPLETE) {
		st->epoch = epoch;
		st->why = why;
	}
	raw_spin_unlock_irqrestore(&dev_states_lock, flags);
}

/* An entry of @dev was made (+1) or freed (-1). Under RCU. */
static bool count_live(struct device *dev, int delta)
{
	struct dev_state *st = delta > 0 ? get_state(dev, GFP_NOWAIT) :
					   find_state(dev);

	if (!st || (delta > 0 && st->why == WHY_DELETED))
		return false;
	/* A state made after the entry never counted it. */
	if (delta > 0) {
		atomic_long_inc(&st->live);
		if (unlikely(!READ_ONCE(st->mapped)))
			WRITE_ONCE(st->mapped, true);
	} else {
		atomic_long_add_unless(&st->live, -1, 0);
	}
	return true;
}

/*
 * May @dev have had an entry, so that records of its unmaps may be left?
 * Most devices that bind never map: forgetting theirs walks for nothing.
 * A device without a state (its allocation failed) may have mapped all
 * the same: forget, rather than tell the next driver of these unmaps.
 */
static bool ever_mapped(struct device *dev)
{
	struct dev_state *st;
	bool mapped;

	rcu_read_lock();
	st = find_state(dev);
	mapped = !st || READ_ONCE(st->mapped);
	rcu_read_unlock();
	return mapped;
}

/* Does @dev have entries? Under RCU. */
static bool has_entries(struct device *dev)
{
	struct dev_state *st = find_state(dev);

	return st && atomic_long_read(&st->live);
}

/* @dev is going: its state with it. */
static void free_state(struct device *dev)
{
	struct dev_state *st;
	unsigned long flags;

	raw_spin_lock_irqsave(&dev_states_lock, flags);
	st = find_state(dev);
	if (st) {
		hash_del_rcu(&st->node);
		atomic_sub(st->nr_untracked, &nr_untracked_handles);
	}
	raw_spin_unlock_irqrestore(&dev_states_lock, flags);
	if (st)
		kfree_rcu(st, rcu);
}

/**
 * dma_owner_show_incomplete() - print the devices whose misses go unjudged
 * @m: where to, one "incomplete: DEVICE WHY" line each
 *
 * WHY is tracking-started, untracked-mappings, zero-length-segment,
 * deleted, or untracked-handles=N when only N handles of an otherwise
 * complete device are unjudged. "(others)" stands for the devices without
 * a state.
 *
 * Return: how many lines.
 */
unsigned int dma_owner_show_incomplete(struct seq_file *m)
{
	struct dev_state *st;
	unsigned int bkt, n = 0;
	enum incomplete_why why;
	unsigned long flags;

	/* Under the lock that free_state() takes before its device is freed. */
	raw_spin_lock_irqsave(&dev_states_lock, flags);
	hash_for_each(dev_states, bkt, st, node) {
		why = state_why(st);
		if (why != WHY_COMPLETE)
			seq_printf(m, "incomplete: %s %s\n", dev_name(st->dev),
				   why_names[why]);
		else if (st->nr_untracked)
			seq_printf(m, "incomplete: %s untracked-handles=%u\n",
				   dev_name(st->dev), st->nr_untracked);
		else
			continue;
		n++;
	}
	if (READ_ONCE(tracking_on) && default_why != WHY_COMPLETE) {
		seq_printf(m, "incomplete: (others) %s\n", why_names[default_why]);
		n++;
	}
	raw_spin_unlock_irqrestore(&dev_states_lock, flags);
	return n;
}

/* ---------------------------------------------------------------------- */
/* The table                                                              */

static unsigned int size_level(size_t size)
{
	unsigned int l = 0;

	while (l < NR_LEVELS - 1 && size > (1ULL << LEVEL_SHIFT(l)))
		l++;
	return l;
}

/* Where a mapping of @dev at @level starting in @chunk is hashed. */
static u64 place_key(struct device *dev, unsigned int level, u64 chunk)
{
	return (u64)(unsigned long)dev ^ ((chunk << 3 | level) * GOLDEN_RATIO_64);
}

static struct hlist_bl_head *bucket(struct device *dev, unsigned int level,
				    u64 chunk)
{
	return &table[hash_64(place_key(dev, level, chunk), table_shift)];
}

static u64 entry_chunk(const struct dma_owner_entry *e)
{
	return (u64)e->handle >> LEVEL_SHIFT(e->level);
}

/* A (level, chunk) a mapping can be hashed at. */
struct place {
	unsigned int level;
	u64 chunk;
};

#define MAX_PLACES	(2 * NR_LEVELS)

/*
 * The places of the mappings that may hold @addr, or with @starts only
 * those that start at it: a mapping starts in the chunk of an address it
 * holds or in the chunk before, at its own level. Levels never used are
 * skipped.
 */
static unsigned int places_of(dma_addr_t addr, bool starts, struct place *p)
{
	unsigned long used = READ_ONCE(levels_used);
	unsigned int l, n = 0;
	u64 chunk;

	for_each_set_bit(l, &used, NR_LEVELS) {
		chunk = (u64)addr >> LEVEL_SHIFT(l);
		p[n].level = l;
		p[n++].chunk = chunk;
		if (!starts && chunk) {
			p[n].level = l;
			p[n++].chunk = chunk - 1;
		}
	}
	return n;
}

static void lock_bucket(struct hlist_bl_head *b, unsigned long *flags)
{
	local_irq_save(*flags);
	hlist_bl_lock(b);
}

static void unlock_bucket(struct hlist_bl_head *b, unsigned long flags)
{
	hlist_bl_unlock(b);
	local_irq_restore(flags);
}

/**
 * dma_owner_encode_caller() - a code address as a history slot holds it
 * @ip: the address
 *
 * History callers are kept as 32-bit offsets from _stext, which halves the
 * history's share of an entry: x86-64 and arm64 place module text within
 * 2 GiB of the kernel's for their branch ranges, so every caller fits.
 *
 * Return: the offset, or 0 (unknown) for an address out of its reach: a
 * caller is remembered as unknown rather than as a wrong address.
 */
s32 dma_owner_encode_caller(unsigned long ip)
{
	long off = ip - (unsigned long)_stext;

	return off == (s32)off ? off : 0;
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_encode_caller);

/**
 * dma_owner_hist_caller() - the caller of one transition in a history
 * @e: a mapping, live or a snapshot
 * @i: the transition, 0 the oldest, below @e->hist_len
 *
 * Return: the caller's address, 0 if it was out of reach.
 */
unsigned long dma_owner_hist_caller(const struct dma_owner_entry *e,
				    unsigned int i)
{
	return e->hist[i] ? (unsigned long)_stext + e->hist[i] : 0;
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_hist_caller);

static void record(struct dma_owner_entry *e, enum dma_owner_op op,
		   unsigned long caller)
{
	unsigned int slot;

	if (e->hist_len < DMA_OWNER_HISTORY) {
		slot = e->hist_len++;
	} else {
		/* Full: shift the ring, oldest out. */
		memmove(&e->hist[0], &e->hist[1], sizeof(e->hist[0]) * (DMA_OWNER_HISTORY - 1));
		e->hist_ops >>= 2;
		slot = DMA_OWNER_HISTORY - 1;
	}
	e->hist[slot] = dma_owner_encode_caller(caller);
	e->hist_ops = (e->hist_ops & ~(3 << (2 * slot))) | (op << (2 * slot));
}

/*
 * The map site, without the tracker's and the DMA API's own frames: the
 * trace starts at @caller, the driver code that called dma_map_*().
 */
static depot_stack_handle_t save_map_stack(unsigned long caller)
{
	unsigned long entries[STACK_DEPTH];
	unsigned int n, skip;

	if (!READ_ONCE(map_stacks))
		return 0;
	n = stack_trace_save(entries, ARRAY_SIZE(entries), 1);
	for (skip = 0; skip < n && entries[skip] != caller; skip++)
		;
	if (skip == n)
		skip = 0;
	return stack_depot_save_flags(entries + skip, n - skip,
				      GFP_NOWAIT | __GFP_NOWARN,
				      STACK_DEPOT_FLAG_CAN_ALLOC);
}

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
	if (e->hist_len && (e->hist_ops & 3) == DMA_OWNER_OP_MAP)
		return dma_owner_hist_caller(e, 0);
	return 0;
}

/*
 * A DMA_TO_DEVICE mapping under the content check (dma_owner.check_contents)
 * also keeps where its buffer is and what it held, in a larger object of its
 * own cache, so that entries without the check do not pay for it. Snapshots
 * copy only the inner entry: nothing reads these fields from them.
 */
struct dma_owner_csum_entry {
	struct dma_owner_entry e;
	phys_addr_t phys;
	u32 csum;
};

static struct dma_owner_csum_entry *to_csum_entry(struct dma_owner_entry *e)
{
	return container_of(e, struct dma_owner_csum_entry, e);
}

/* A checksum of the CPU's view of a DMA_TO_DEVICE buffer, or false. */
static bool contents_csum(phys_addr_t phys, size_t size, u32 *csum)
{
	unsigned long pfn = PHYS_PFN(phys), last = PHYS_PFN(phys + size - 1);

	if (!phys || size > MAX_CSUM_SIZE || !pfn_valid(pfn) || !pfn_valid(last) ||
	    PageHighMem(pfn_to_page(last)))
		return false;
	*csum = jhash(phys_to_virt(phys), size, 0);
	return true;
}

static struct dma_owner_entry *new_entry(struct device *dev, dma_addr_t addr,
					 size_t size, enum dma_data_direction dir,
					 unsigned long attrs, enum dma_owner_api api,
					 phys_addr_t phys)
{
	struct dma_owner_csum_entry *ce = NULL;
	struct dma_owner_entry *e;
	u32 csum;

	if (!size || size > MAX_TRACKED_SIZE)
		return NULL;
	if (unlikely(READ_ONCE(dma_owner_check_contents)) &&
	    dir == DMA_TO_DEVICE && api != DMA_OWNER_API_RESOURCE &&
	    contents_csum(phys, size, &csum)) {
		ce = kmem_cache_zalloc(csum_entry_cache, GFP_NOWAIT | __GFP_NOWARN);
		if (!ce)
			return NULL;
		ce->phys = phys;
		ce->csum = csum;
		e = &ce->e;
		e->has_csum = 1;
	} else {
		e = kmem_cache_zalloc(entry_cache, GFP_NOWAIT | __GFP_NOWARN);
		if (!e)
			return NULL;
	}
	/* No entry without a state to count it: see has_entries(). */
	if (!count_live(dev, 1)) {
		if (ce)
			kmem_cache_free(csum_entry_cache, ce);
		else
			kmem_cache_free(entry_cache, e);
		return NULL;
	}
	e->dev = dev;
	e->handle = addr;
	e->size = size;
	e->dir = dir;
	e->api = api;
	e->level = size_level(size);
	e->skip_sync = !!(attrs & DMA_ATTR_SKIP_CPU_SYNC);
	e->map_jiffies = jiffies;
	return e;
}

static void insert(struct dma_owner_entry *e)
{
	struct hlist_bl_head *b;
	unsigned long flags;
	long live, peak;

	/* Lookups must see the level before they can miss the entry. */
	if (!test_bit(e->level, &levels_used)) {
		set_bit(e->level, &levels_used);
		/*
		 * The bit before the entry is linked: a CPU that learns the
		 * handle from this one (through the driver) sees both.
		 */
		smp_mb__after_atomic();
	}
	b = bucket(e->dev, e->level, (u64)e->handle >> LEVEL_SHIFT(e->level));
	lock_bucket(b, &flags);
	hlist_bl_add_head(&e->node, b);
	unlock_bucket(b, flags);

	this_cpu_inc(dma_owner_ops.maps);
	live = atomic_long_inc_return(&dma_owner_stats.live);
	peak = atomic_long_read(&dma_owner_stats.peak_live);
	while (live > peak &&
	       !atomic_long_try_cmpxchg(&dma_owner_stats.peak_live, &peak, live))
		;
}

static void free_entry(struct dma_owner_entry *e)
{
	atomic_long_dec(&dma_owner_stats.live);
	rcu_read_lock();
	count_live(e->dev, -1);
	rcu_read_unlock();
	if (e->fragmented)
		kfree(e->ranges);
	if (e->has_csum)
		kmem_cache_free(csum_entry_cache, to_csum_entry(e));
	else
		kmem_cache_free(entry_cache, e);
}

/**
 * dma_owner_snapshot() - copy an entry for reading outside its bucket lock
 * @dst: the copy
 * @e: a live entry, its bucket locked, or one no longer in the table
 *
 * The copy holds no pointer into the tracker: a fragmented entry's ranges
 * become the range that spans them, marked @in_parts.
 */
void dma_owner_snapshot(struct dma_owner_entry *dst,
			const struct dma_owner_entry *e)
{
	*dst = *e;
	dst->node.next = NULL;
	dst->node.pprev = NULL;
	if (e->fragmented) {
		dst->fragmented = 0;
		dst->in_parts = 1;
		dst->cpu_lo = e->ranges->r[0].lo;
		dst->cpu_hi = e->ranges->r[e->ranges->nr - 1].hi;
	}
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_snapshot);

/* ---------------------------------------------------------------------- */
/* Unmapped memory                                                        */

/*
 * A record's set is hashed from where its mapping started, to a sixteenth
 * of its level's chunk: a level's mappings are larger than that, so a ring
 * of same-sized buffers side by side (bounce slots, pool fragments) spreads
 * over as many sets as it has buffers, rather than filling one set per
 * chunk and pushing out the records of every other mapping there.
 */
#define UNMAPPED_SHIFT(level)	(LEVEL_SHIFT(level) - 4)

static struct unmapped_set *unmapped_set(struct device *dev,
					 unsigned int level, u64 start)
{
	u64 key = place_key(dev, level, start >> UNMAPPED_SHIFT(level));

	return &unmapped[hash_64(key, unmapped_shift)];
}

/* @e is out of the table: keep a record of it for use-after-unmap. */
static void remember_unmapped(const struct dma_owner_entry *e,
			      unsigned long caller)
{
	struct unmapped_rec *rec, *victim = NULL;
	struct unmapped_set *set;
	unsigned long flags;
	unsigned int i;

	if (!unmapped)
		return;
	set = unmapped_set(e->dev, e->level, e->handle);
	raw_spin_lock_irqsave(&set->lock, flags);
	/* Its own older record, else a free way, else the oldest. */
	for (i = 0; i < UNMAPPED_WAYS; i++) {
		rec = &set->way[i];
		if (rec->e.dev == e->dev && rec->e.handle == e->handle) {
			victim = rec;
			break;
		}
		if (!victim || (victim->e.dev &&
				(!rec->e.dev || (s32)(rec->stamp - victim->stamp) < 0)))
			victim = rec;
	}
	dma_owner_snapshot(&victim->e, e);
	victim->unmap_caller = caller;
	victim->unmap_jiffies = jiffies;
	victim->stamp = ++set->clock;
	raw_spin_unlock_irqrestore(&set->lock, flags);
}

/*
 * The latest unmapped mapping of @dev that held @addr, into @r. Only asked
 * before a report: it probes every sixteenth of a chunk a mapping of each
 * level in use may have started in, 17 sets per level.
 */
static bool find_unmapped(struct device *dev, dma_addr_t addr,
			  struct dma_owner_report *r)
{
	unsigned long used = READ_ONCE(levels_used);
	struct unmapped_rec *rec;
	struct unmapped_set *set;
	unsigned int l, w, i, n;
	unsigned long flags;
	bool found = false;
	u64 start, span;

	if (!unmapped)
		return false;
	for_each_set_bit(l, &used, NR_LEVELS) {
		span = 1ULL << LEVEL_SHIFT(l);
		start = (u64)addr >= span ? (u64)addr - span + 1 : 0;
		start = round_down(start, 1ULL << UNMAPPED_SHIFT(l));
		/* Counted, not compared: near U64_MAX, start would wrap. */
		n = (((u64)addr - start) >> UNMAPPED_SHIFT(l)) + 1;
		for (i = 0; i < n; i++, start += 1ULL << UNMAPPED_SHIFT(l)) {
			set = unmapped_set(dev, l, start);
			raw_spin_lock_irqsave(&set->lock, flags);
			for (w = 0; w < UNMAPPED_WAYS; w++) {
				rec = &set->way[w];
				if (rec->e.dev != dev || addr < rec->e.handle ||
				    addr - rec->e.handle >= rec->e.size)
					continue;
				if (found &&
				    time_before((unsigned long)rec->unmap_jiffies,
						(unsigned long)r->unmap_jiffies))
					continue;
				r->entry = rec->e;
				r->unmap_caller = rec->unmap_caller;
				r->unmap_jiffies = rec->unmap_jiffies;
				found = true;
			}
			raw_spin_unlock_irqrestore(&set->lock, flags);
		}
	}
	return found;
}

/* Forget the unmapped mappings of @dev, or of every device if NULL. */
static void forget_unmapped(struct device *dev, bool may_sleep)
{
	unsigned long flags, i;
	unsigned int w;

	if (!unmapped)
		return;
	for (i = 0; i < (1UL << unmapped_shift); i++) {
		raw_spin_lock_irqsave(&unmapped[i].lock, flags);
		for (w = 0; w < UNMAPPED_WAYS; w++)
			if (!dev || unmapped[i].way[w].e.dev == dev)
				unmapped[i].way[w].e.dev = NULL;
		raw_spin_unlock_irqrestore(&unmapped[i].lock, flags);
		if (may_sleep && !(i & 255))
			cond_resched();
	}
}

/* ---------------------------------------------------------------------- */
/* Who owns which bytes                                                   */

/*
 * The CPU owns a set of byte ranges of a mapping, the device the rest. Most
 * mappings need one range, kept in the entry; a page cut into buffers that
 * go to the CPU one by one needs more, kept in a struct dma_owner_ranges.
 * When even that cannot hold them (or cannot be allocated), the entry keeps
 * one range holding every byte the CPU may own and is marked inexact:
 * checks that need to know a byte is the CPU's wait until a sync makes the
 * set exact again, checks that need to know it is the device's still hold.
 */
struct range_set {
	unsigned int nr;
	struct {
		u32 lo;
		u32 hi;
	} r[DMA_OWNER_MAX_RANGES + 1];
};

static bool cpu_owns_any(const struct dma_owner_entry *e, u32 lo, u32 hi)
{
	unsigned int i;

	if (!e->fragmented)
		return e->cpu_lo < e->cpu_hi && e->cpu_lo < hi && lo < e->cpu_hi;
	for (i = 0; i < e->ranges->nr; i++)
		if (e->ranges->r[i].lo < hi && lo < e->ranges->r[i].hi)
			return true;
	return false;
}

static bool device_owns_all(const struct dma_owner_entry *e)
{
	return !e->inexact && !e->fragmented && e->cpu_lo == e->cpu_hi;
}

static void set_load(const struct dma_owner_entry *e, struct range_set *s)
{
	unsigned int i;

	s->nr = 0;
	if (e->fragmented) {
		for (i = 0; i < e->ranges->nr; i++) {
			s->r[i].lo = e->ranges->r[i].lo;
			s->r[i].hi = e->ranges->r[i].hi;
		}
		s->nr = e->ranges->nr;
	} else if (e->cpu_lo < e->cpu_hi) {
		s->r[0].lo = e->cpu_lo;
		s->r[0].hi = e->cpu_hi;
		s->nr = 1;
	}
}

static void set_append(struct range_set *s, u32 lo, u32 hi)
{
	s->r[s->nr].lo = lo;
	s->r[s->nr].hi = hi;
	s->nr++;
}

/* @s |= [lo, hi). Ranges that touch merge. */
static void set_add(struct range_set *s, u32 lo, u32 hi)
{
	struct range_set in = *s;
	bool placed = false;
	unsigned int i;

	s->nr = 0;
	for (i = 0; i < in.nr; i++) {
		if (in.r[i].hi < lo) {
			set_append(s, in.r[i].lo, in.r[i].hi);
		} else if (in.r[i].lo > hi) {
			if (!placed)
				set_append(s, lo, hi);
			placed = true;
			set_append(s, in.r[i].lo, in.r[i].hi);
		} else {
			lo = min(lo, in.r[i].lo);
			hi = max(hi, in.r[i].hi);
		}
	}
	if (!placed)
		set_append(s, lo, hi);
}

/* @s &= ~[lo, hi). At most one range splits in two. */
static void set_remove(struct range_set *s, u32 lo, u32 hi)
{
	struct range_set in = *s;
	unsigned int i;

	s->nr = 0;
	for (i = 0; i < in.nr; i++) {
		if (in.r[i].hi <= lo || in.r[i].lo >= hi) {
			set_append(s, in.r[i].lo, in.r[i].hi);
			continue;
		}
		if (in.r[i].lo < lo)
			set_append(s, in.r[i].lo, lo);
		if (in.r[i].hi > hi)
			set_append(s, hi, in.r[i].hi);
	}
}

/*
 * Memory for ranges is allocated before the bucket lock is taken and freed
 * after it is dropped, never under it.
 */
struct ranges_mem {
	struct dma_owner_ranges *spare;
	struct dma_owner_ranges *garbage;
};

static void set_store(struct dma_owner_entry *e, const struct range_set *s,
		      struct ranges_mem *mem)
{
	struct dma_owner_ranges *rs = e->fragmented ? e->ranges : NULL;
	unsigned int i;

	if (s->nr > 1 && s->nr <= DMA_OWNER_MAX_RANGES && (rs || mem->spare)) {
		if (!rs) {
			rs = mem->spare;
			mem->spare = NULL;
		}
		for (i = 0; i < s->nr; i++) {
			rs->r[i].lo = s->r[i].lo;
			rs->r[i].hi = s->r[i].hi;
		}
		rs->nr = s->nr;
		e->ranges = rs;
		e->fragmented = 1;
		return;
	}
	if (rs) {
		mem->garbage = rs;
		e->fragmented = 0;
	}
	e->cpu_lo = s->nr ? s->r[0].lo : 0;
	e->cpu_hi = s->nr ? s->r[s->nr - 1].hi : 0;
	/* More than one range that could not be kept: span them. */
	if (s->nr > 1)
		e->inexact = 1;
}

/* ---------------------------------------------------------------------- */
/* Calls and the mappings they may mean                                   */

/* One DMA API call, as the tracker judges it. */
struct call {
	struct device *dev;
	dma_addr_t addr;
	size_t size;
	enum dma_data_direction dir;
	enum dma_owner_op op;
	enum dma_owner_api api;		/* of an unmap */
	unsigned long caller;
};

/*
 * Without an IOMMU the same memory mapped twice for one device has one
 * handle, so a call can fit more than one live mapping: a sync any mapping
 * that holds its address, an unmap any that starts there. Each is a
 * candidate. The call is taken to mean the candidate it suits best (the
 * reading that assumes least against the driver) and a violation is
 * reported only if it holds for every candidate. When candidates that suit
 * it equally well are owned differently, which one it meant cannot be
 * told: they all become inexact.
 */
struct candidates {
	unsigned int n;
	unsigned long common;		/* kinds every candidate draws */
	struct hlist_bl_head *b;	/* the best one's bucket */
	struct dma_owner_entry *e;	/* the best one */
	unsigned long kinds;		/* the kinds it draws */
	unsigned int score;		/* lower is better */
	u32 owner_sig;			/* who owns what in it */
	bool tie_differs;		/* one as good differs from it */
	bool need_spare;		/* a sync may fragment it */
	bool skip_sync;			/* a candidate was mapped so */
};

static bool fits(const struct call *c, const struct dma_owner_entry *e)
{
	if (e->dev != c->dev)
		return false;
	if (c->op == DMA_OWNER_OP_UNMAP)
		return e->handle == c->addr;
	return c->addr >= e->handle && c->addr - e->handle < e->size;
}

/* The bytes of @e a sync names, cut to the mapping. */
static void call_range(const struct call *c, const struct dma_owner_entry *e,
		       u32 *lo, u32 *hi)
{
	u32 off = c->addr - e->handle;

	*lo = off;
	*hi = off + min_t(u64, c->size, e->size - off);
}

/*
 * May @e be synced for the device while the device owns it? A mapping made
 * with DMA_ATTR_SKIP_CPU_SYNC belongs to an owner that keeps the caches
 * itself (page_pool, AF_XDP, half-page reuse): it syncs a buffer for the
 * device whenever it hands it out or takes it back, whether or not the CPU
 * had it. Non-coherent memory the device only reads need not be synced for
 * the CPU before the CPU writes it again (Documentation/core-api/dma-api.rst:
 * "before reading memory written by the device"), so ALSA playback and
 * videobuf2 output buffers sync it for the device only.
 */
static bool never_redundant(const struct dma_owner_entry *e)
{
	return e->skip_sync ||
	       (e->dir == DMA_TO_DEVICE && (e->api == DMA_OWNER_API_PAGES ||
					    e->api == DMA_OWNER_API_NONCONTIGUOUS));
}

/* What the call would violate if it meant @e. */
static unsigned long call_kinds(const struct call *c,
				const struct dma_owner_entry *e)
{
	unsigned long kinds = 0;
	u32 lo, hi;

	if (c->op == DMA_OWNER_OP_UNMAP) {
		if (e->size != c->size)
			kinds |= BIT(DMA_OWNER_SIZE_MISMATCH);
		if (e->dir != c->dir)
			kinds |= BIT(DMA_OWNER_DIR_MISMATCH);
		return kinds;
	}
	if (c->size > e->size - (c->addr - e->handle))
		kinds |= BIT(DMA_OWNER_OUT_OF_RANGE);
	if (e->dir != DMA_BIDIRECTIONAL && c->dir != e->dir)
		kinds |= BIT(DMA_OWNER_DIR_MISMATCH);
	call_range(c, e, &lo, &hi);
	if (c->op == DMA_OWNER_OP_SYNC_FOR_CPU) {
		/* Only an exact set says the CPU owns a byte already. */
		if (!e->inexact && cpu_owns_any(e, lo, hi))
			kinds |= BIT(DMA_OWNER_MISSING_SYNC_FOR_DEVICE);
	} else if (!never_redundant(e) && !cpu_owns_any(e, lo, hi)) {
		/* Even an inexact set holds every byte the CPU may own. */
		kinds |= BIT(DMA_OWNER_REDUNDANT_SYNC_FOR_DEVICE);
	}
	return kinds;
}

/*
 * Lower is better. Candidates that draw as many kinds are equally good
 * readings of the call; the rest of the score only picks one of them.
 */
static unsigned int call_score(const struct call *c,
			       const struct dma_owner_entry *e,
			       unsigned long kinds)
{
	bool other = c->op == DMA_OWNER_OP_UNMAP ? e->api != c->api :
						   e->handle != c->addr;

	return hweight_long(kinds) << 2 | other << 1 | (e->size != c->size);
}

#define SCORE_CLASS(score)	((score) >> 2)

/* Could the sync leave @e's CPU part in more than one range? */
static bool need_spare(const struct call *c, const struct dma_owner_entry *e)
{
	u32 lo, hi;

	if (c->op == DMA_OWNER_OP_UNMAP || e->fragmented || e->cpu_lo == e->cpu_hi)
		return false;
	call_range(c, e, &lo, &hi);
	if (c->op == DMA_OWNER_OP_SYNC_FOR_CPU)
		return hi < e->cpu_lo || lo > e->cpu_hi;
	return lo > e->cpu_lo && hi < e->cpu_hi;
}

/* Who owns what in @e, and what else tells it from a twin. */
static u32 owner_sig(const struct dma_owner_entry *e)
{
	u32 sig = jhash_2words(e->cpu_lo, e->cpu_hi, e->inexact);

	if (e->fragmented)
		sig = jhash(e->ranges->r, e->ranges->nr * sizeof(e->ranges->r[0]),
			    e->inexact);
	return jhash_3words(sig, e->size, (u32)e->handle,
			    e->dir | e->skip_sync << 2 | e->api << 3);
}

/* Every live mapping the call may mean, and the one it suits best. */
static void find_candidates(const struct call *c, struct candidates *k)
{
	struct place p[MAX_PLACES];
	struct dma_owner_entry *e;
	struct hlist_bl_node *pos;
	struct hlist_bl_head *b;
	unsigned int n, i, score;
	unsigned long flags, kinds;

	memset(k, 0, sizeof(*k));
	k->common = ~0UL;
	k->score = UINT_MAX;
	n = places_of(c->addr, c->op == DMA_OWNER_OP_UNMAP, p);
	for (i = 0; i < n; i++) {
		b = bucket(c->dev, p[i].level, p[i].chunk);
		if (hlist_bl_empty(b))
			continue;
		lock_bucket(b, &flags);
		hlist_bl_for_each_entry(e, pos, b, node) {
			/* Each entry is seen at its own place only. */
			if (e->level != p[i].level || entry_chunk(e) != p[i].chunk ||
			    !fits(c, e))
				continue;
			kinds = call_kinds(c, e);
			score = call_score(c, e, kinds);
			k->n++;
			k->common &= kinds;
			k->skip_sync |= e->skip_sync;
			if (SCORE_CLASS(score) < SCORE_CLASS(k->score))
				k->tie_differs = false;
			else if (SCORE_CLASS(score) == SCORE_CLASS(k->score) &&
				 owner_sig(e) != k->owner_sig)
				k->tie_differs = true;
			if (score < k->score) {
				k->score = score;
				k->b = b;
				k->e = e;
				k->kinds = kinds;
				k->owner_sig = owner_sig(e);
				k->need_spare = need_spare(c, e);
			}
		}
		unlock_bucket(b, flags);
	}
	if (!k->n)
		k->common = 0;
}

/*
 * Lock the best candidate's bucket and check it is still there, still what
 * it was when chosen; else unlock. Another CPU may have moved it meanwhile
 * (the driver racing with itself, or using two identical mappings at once).
 */
static bool lock_best(const struct call *c, struct candidates *k,
		      unsigned long *flags)
{
	struct dma_owner_entry *e;
	struct hlist_bl_node *pos;

	lock_bucket(k->b, flags);
	hlist_bl_for_each_entry(e, pos, k->b, node) {
		/* The one chosen, or a twin of it: either is as good. */
		if (fits(c, e) && call_kinds(c, e) == k->kinds &&
		    owner_sig(e) == k->owner_sig) {
			k->e = e;
			return true;
		}
	}
	unlock_bucket(k->b, *flags);
	return false;
}

/* Then the call raced too often: the candidates are blurred, nothing said. */
#define LOCK_TRIES	16

/*
 * Candidates that suited the call equally well were owned differently: which
 * one it meant cannot be told, so no candidate's CPU bytes are known any
 * more. Each is taken to be owned by either side (the CPU may own any byte,
 * so no missing sync is reported on it) until a sync of all of it.
 */
static void blur(const struct call *c, bool skip_sync)
{
	struct place p[MAX_PLACES];
	struct dma_owner_entry *e;
	struct hlist_bl_node *pos;
	struct hlist_bl_head *b;
	unsigned long flags;
	unsigned int n, i;

	n = places_of(c->addr, c->op == DMA_OWNER_OP_UNMAP, p);
	for (i = 0; i < n; i++) {
		b = bucket(c->dev, p[i].level, p[i].chunk);
		lock_bucket(b, &flags);
		hlist_bl_for_each_entry(e, pos, b, node) {
			if (!fits(c, e))
				continue;
			if (e->fragmented) {
				e->ranges->nr = 1;
				e->ranges->r[0].lo = 0;
				e->ranges->r[0].hi = e->size;
			} else {
				e->cpu_lo = 0;
				e->cpu_hi = e->size;
			}
			e->inexact = 1;
			/* The sync it meant may never be redundant. */
			e->skip_sync |= skip_sync;
		}
		unlock_bucket(b, flags);
	}
}

/* ---------------------------------------------------------------------- */
/* Transitions                                                            */

/* Kinds already reported by one call: an sg call reports each kind once. */
struct verdict {
	unsigned long reported;
};

static void report_kinds(struct verdict *v, const struct call *c,
			 unsigned long kinds, const struct dma_owner_entry *snap)
{
	struct dma_owner_report r = {
		.op = c->op, .dev = c->dev, .addr = c->addr, .size = c->size,
		.dir = c->dir, .caller = c->caller, .has_entry = true,
		.entry = *snap,
	};
	unsigned int kind;

	if (READ_ONCE(settling))
		return;
	for_each_set_bit(kind, &kinds, DMA_OWNER_NR_KINDS) {
		if (v->reported & BIT(kind))
			continue;
		v->reported |= BIT(kind);
		r.kind = kind;
		dma_owner_report(&r);
	}
}

/* No live mapping fits: unknown-handle or use-after-unmap, if we can tell. */
static void report_miss(struct verdict *v, const struct call *c)
{
	struct dma_owner_report r = {
		.op = c->op, .dev = c->dev, .addr = c->addr, .size = c->size,
		.dir = c->dir, .caller = c->caller,
		.kind = DMA_OWNER_UNKNOWN_HANDLE,
	};

	if (!may_report_miss(c->dev, c->addr, c->op == DMA_OWNER_OP_UNMAP) ||
	    READ_ONCE(settling))
		return;
	if (find_unmapped(c->dev, c->addr, &r)) {
		r.kind = DMA_OWNER_USE_AFTER_UNMAP;
		r.has_entry = true;
	}
	if (v->reported & BIT(r.kind))
		return;
	v->reported |= BIT(r.kind);
	dma_owner_report(&r);
}

/* Content check of a DMA_TO_DEVICE buffer the device owned all along. */
static unsigned long check_csum(struct dma_owner_entry *e)
{
	struct dma_owner_csum_entry *ce;
	u32 csum;

	if (!e->has_csum || !device_owns_all(e))
		return 0;
	ce = to_csum_entry(e);
	if (contents_csum(ce->phys, e->size, &csum) && csum != ce->csum) {
		ce->csum = csum;
		return BIT(DMA_OWNER_CPU_WRITE_WHILE_DEVICE_OWNED);
	}
	return 0;
}

/* Move the bytes the sync names to their new owner. */
static unsigned long apply_sync(struct dma_owner_entry *e, const struct call *c,
				struct ranges_mem *mem)
{
	unsigned long kinds = 0;
	struct range_set s;
	u32 lo, hi;

	call_range(c, e, &lo, &hi);
	set_load(e, &s);
	if (c->op == DMA_OWNER_OP_SYNC_FOR_CPU) {
		if (e->syncs_for_cpu < U16_MAX)
			e->syncs_for_cpu++;
		kinds |= check_csum(e);
		set_add(&s, lo, hi);
	} else {
		if (e->syncs_for_device < U16_MAX)
			e->syncs_for_device++;
		set_remove(&s, lo, hi);
	}
	/*
	 * Exact again when the CPU surely owns nothing, or a sync for the CPU
	 * took all of it; a range that only holds the CPU's bytes says neither.
	 */
	if (!s.nr || (c->op == DMA_OWNER_OP_SYNC_FOR_CPU && !lo && hi == e->size))
		e->inexact = 0;
	set_store(e, &s, mem);
	/* The device gets what the CPU wrote: checksum that. */
	if (e->has_csum && device_owns_all(e)) {
		struct dma_owner_csum_entry *ce = to_csum_entry(e);

		contents_csum(ce->phys, e->size, &ce->csum);
	}
	return kinds;
}

static void do_sync(const struct call *c, struct verdict *v)
{
	int before = DMA_OWNER_STATE_NONE, after = DMA_OWNER_STATE_NONE;
	struct ranges_mem mem = {};
	struct dma_owner_entry snap;
	struct candidates k = {};
	unsigned long flags, kinds = 0;
	bool done = false;
	unsigned int try;

	if (c->op == DMA_OWNER_OP_SYNC_FOR_DEVICE)
		this_cpu_inc(dma_owner_ops.syncs_for_device);
	else
		this_cpu_inc(dma_owner_ops.syncs_for_cpu);
	/* A zero-length sync moves nothing: nothing to check. */
	for (try = 0; c->size && try < LOCK_TRIES; try++) {
		find_candidates(c, &k);
		if (!k.n)
			break;
		if (unlikely(may_mean_untracked(c->dev, c->addr))) {
			k.common = 0;
			k.tie_differs = true;
		}
		if (!mem.spare && k.need_spare)
			mem.spare = kmalloc(sizeof(*mem.spare),
					    GFP_NOWAIT | __GFP_NOWARN);
		if (!lock_best(c, &k, &flags))
			continue;
		before = dma_owner_state(k.e);
		record(k.e, c->op, c->caller);
		kinds = k.common | apply_sync(k.e, c, &mem);
		after = dma_owner_state(k.e);
		if (kinds)
			dma_owner_snapshot(&snap, k.e);
		unlock_bucket(k.b, flags);
		done = true;
		break;
	}
	kfree(mem.spare);
	kfree(mem.garbage);
	if (c->op == DMA_OWNER_OP_SYNC_FOR_DEVICE)
		trace_dma_owner_sync_for_device(c->dev, c->addr, c->size, c->dir,
						before, after, c->caller);
	else
		trace_dma_owner_sync_for_cpu(c->dev, c->addr, c->size, c->dir,
					     before, after, c->caller);
	if (!c->size)
		return;
	if (!k.n) {
		report_miss(v, c);
		return;
	}
	if (!done || k.tie_differs)
		blur(c, k.skip_sync);
	if (done && kinds)
		report_kinds(v, c, kinds, &snap);
}

static void do_unmap(const struct call *c, struct verdict *v)
{
	struct dma_owner_entry *e = NULL, snap;
	struct candidates k = {};
	unsigned long flags, kinds;
	unsigned int try;
	int state;

	/* Do not drop an unmap while a mapping it may mean is there. */
	for (try = 0; try < 64 * LOCK_TRIES; try++) {
		find_candidates(c, &k);
		if (!k.n)
			break;
		if (!lock_best(c, &k, &flags)) {
			cpu_relax();
			continue;
		}
		e = k.e;
		hlist_bl_del(&e->node);
		unlock_bucket(k.b, flags);
		break;
	}
	if (!e) {
		trace_dma_owner_unmap(c->dev, c->addr, c->size, c->dir,
				      DMA_OWNER_STATE_NONE, DMA_OWNER_STATE_NONE,
				      c->caller);
		if (!k.n)
			report_miss(v, c);
		return;
	}
	/* Out of the table, the entry is ours alone. */
	state = dma_owner_state(e);
	record(e, DMA_OWNER_OP_UNMAP, c->caller);
	trace_dma_owner_unmap(c->dev, c->addr, c->size, c->dir, state,
			      DMA_OWNER_STATE_NONE, c->caller);
	this_cpu_inc(dma_owner_ops.unmaps);
	remember_unmapped(e, c->caller);
	if (unlikely(may_mean_untracked(c->dev, c->addr))) {
		k.common = 0;
		k.tie_differs = true;
	}
	kinds = k.common | check_csum(e);
	dma_owner_snapshot(&snap, e);
	free_entry(e);
	if (k.tie_differs)
		blur(c, k.skip_sync);
	if (kinds)
		report_kinds(v, c, kinds, &snap);
}

/* ---------------------------------------------------------------------- */
/* Hooks, called from kernel/dma/mapping.c through <linux/dma-owner.h>    */

/*
 * A new mapping: the device owns it. Memory from the non-coherent
 * allocators starts with the CPU, which owns it until it is synced for the
 * device (Documentation/core-api/dma-api.rst).
 */
static void map_one(struct device *dev, dma_addr_t addr, size_t size,
		    enum dma_data_direction dir, unsigned long attrs,
		    enum dma_owner_api api, phys_addr_t phys,
		    depot_stack_handle_t *stack, unsigned int sg_ents,
		    unsigned long caller)
{
	struct dma_owner_entry *e;
	int owner;

	e = new_entry(dev, addr, size, dir, attrs, api, phys);
	if (!e) {
		count_untracked(dev, addr, size, WHY_UNTRACKED);
		return;
	}
	if (api == DMA_OWNER_API_PAGES || api == DMA_OWNER_API_NONCONTIGUOUS)
		e->cpu_hi = size;
	if (!*stack)
		*stack = save_map_stack(caller);
	e->map_stack = *stack;
	e->sg_ents = sg_ents;
	record(e, DMA_OWNER_OP_MAP, caller);
	owner = dma_owner_state(e);
	/* In the table, the entry may be unmapped or flushed at once. */
	insert(e);
	trace_dma_owner_map(dev, addr, size, dir, DMA_OWNER_STATE_NONE, owner,
			    caller);
}

/**
 * __dma_owner_map() - a mapping was made, or non-coherent memory allocated
 * @dev: the device
 * @addr: the DMA address returned to the driver
 * @size: its length
 * @dir: its direction
 * @attrs: DMA_ATTR_* of the map call
 * @api: which map or allocation function
 * @phys: CPU physical address of the buffer, 0 if none (for the content check)
 * @caller: the driver's call site
 */
void __dma_owner_map(struct device *dev, dma_addr_t addr, size_t size,
		     enum dma_data_direction dir, unsigned long attrs,
		     enum dma_owner_api api, phys_addr_t phys,
		     unsigned long caller)
{
	depot_stack_handle_t stack = 0;

	guard(rcu)();
	if (filtered_out(dev))
		return;
	map_one(dev, addr, size, dir, attrs, api, phys, &stack, 0, caller);
}
EXPORT_SYMBOL_IF_KUNIT(__dma_owner_map);

/**
 * __dma_owner_unmap() - a mapping is about to be unmapped, or memory freed
 * @dev: the device
 * @addr: the DMA address the driver passed
 * @size: the size it passed
 * @dir: the direction it passed
 * @api: which unmap or free function
 * @caller: the driver's call site
 */
void __dma_owner_unmap(struct device *dev, dma_addr_t addr, size_t size,
		       enum dma_data_direction dir, enum dma_owner_api api,
		       unsigned long caller)
{
	struct call c = { .dev = dev, .addr = addr, .size = size, .dir = dir,
			  .op = DMA_OWNER_OP_UNMAP, .api = api,
			  .caller = caller };
	struct verdict v = {};

	guard(rcu)();
	if (filtered_out(dev))
		return;
	do_unmap(&c, &v);
}
EXPORT_SYMBOL_IF_KUNIT(__dma_owner_unmap);

/**
 * __dma_owner_map_sg() - an sg list was mapped; one entry per DMA segment
 * @dev: the device
 * @sg: the list
 * @nents: entries the driver passed
 * @ents: DMA segments it mapped to (can be fewer when an IOMMU merges)
 * @dir: the direction
 * @attrs: DMA_ATTR_* of the map call
 * @caller: the driver's call site
 */
void __dma_owner_map_sg(struct device *dev, struct scatterlist *sg, int nents,
			int ents, enum dma_data_direction dir,
			unsigned long attrs, unsigned long caller)
{
	depot_stack_handle_t stack = 0;
	struct scatterlist *s;
	phys_addr_t phys;
	int i;

	guard(rcu)();
	if (filtered_out(dev))
		return;
	for_each_sg(sg, s, ents, i) {
		/*
		 * The segments are those before the first with no DMA length,
		 * as sg_call() walks them: the rest go untracked.
		 */
		if (!sg_dma_len(s)) {
			count_untracked(dev, 0, 0, WHY_ZERO_LENGTH_SEGMENT);
			break;
		}
		/* Segment i is sg entry i only when nothing was merged. */
		phys = ents == nents && sg_dma_len(s) == s->length ? sg_phys(s) : 0;
		map_one(dev, sg_dma_address(s), sg_dma_len(s), dir, attrs,
			DMA_OWNER_API_SG, phys, &stack, ents, caller);
	}
}
EXPORT_SYMBOL_IF_KUNIT(__dma_owner_map_sg);

/*
 * Every DMA segment of an sg list the driver passes, at most @nents
 * entries: the count comes from the call, never from an entry, which may be
 * another mapping's. The first entry with a DMA length of 0 ends the
 * segments when an IOMMU merged some (the entries after it may hold stale
 * values from an earlier mapping).
 */
static void sg_call(struct call *c, struct scatterlist *sg, int nents)
{
	struct verdict v = {};
	struct scatterlist *s;
	int i;

	for_each_sg(sg, s, nents, i) {
		if (!sg_dma_len(s))
			break;
		c->addr = sg_dma_address(s);
		c->size = sg_dma_len(s);
		if (c->op == DMA_OWNER_OP_UNMAP)
			do_unmap(c, &v);
		else
			do_sync(c, &v);
	}
}

/**
 * __dma_owner_unmap_sg() - an sg list is about to be unmapped
 * @dev: the device
 * @sg: the list
 * @nents: entries the driver passed (the count it mapped, not the result)
 * @dir: the direction
 * @caller: the driver's call site
 */
void __dma_owner_unmap_sg(struct device *dev, struct scatterlist *sg,
			  int nents, enum dma_data_direction dir,
			  unsigned long caller)
{
	struct call c = { .dev = dev, .dir = dir, .op = DMA_OWNER_OP_UNMAP,
			  .api = DMA_OWNER_API_SG, .caller = caller };

	guard(rcu)();
	if (filtered_out(dev))
		return;
	sg_call(&c, sg, nents);
}
EXPORT_SYMBOL_IF_KUNIT(__dma_owner_unmap_sg);

/**
 * __dma_owner_sync() - ownership moves to the CPU or back to the device
 * @dev: the device
 * @addr: any address inside the mapping
 * @size: bytes from @addr
 * @dir: the direction passed
 * @for_device: true for sync_for_device, false for sync_for_cpu
 * @caller: the driver's call site
 */
void __dma_owner_sync(struct device *dev, dma_addr_t addr, size_t size,
		      enum dma_data_direction dir, bool for_device,
		      unsigned long caller)
{
	struct call c = { .dev = dev, .addr = addr, .size = size, .dir = dir,
			  .op = for_device ? DMA_OWNER_OP_SYNC_FOR_DEVICE :
					     DMA_OWNER_OP_SYNC_FOR_CPU,
			  .caller = caller };
	struct verdict v = {};

	guard(rcu)();
	if (filtered_out(dev))
		return;
	do_sync(&c, &v);
}
EXPORT_SYMBOL_IF_KUNIT(__dma_owner_sync);

/**
 * __dma_owner_sync_sg() - ownership of an sg list's segments moves
 * @dev: the device
 * @sg: the list
 * @nelems: entries the driver passed
 * @dir: the direction passed
 * @for_device: true for sync_for_device, false for sync_for_cpu
 * @caller: the driver's call site
 */
void __dma_owner_sync_sg(struct device *dev, struct scatterlist *sg,
			 int nelems, enum dma_data_direction dir,
			 bool for_device, unsigned long caller)
{
	struct call c = { .dev = dev, .dir = dir,
			  .op = for_device ? DMA_OWNER_OP_SYNC_FOR_DEVICE :
					     DMA_OWNER_OP_SYNC_FOR_CPU,
			  .caller = caller };

	guard(rcu)();
	if (filtered_out(dev))
		return;
	sg_call(&c, sg, nelems);
}
EXPORT_SYMBOL_IF_KUNIT(__dma_owner_sync_sg);

/**
 * dma_owner_driver_bound() - a driver is about to probe @dev
 * @dev: the device
 *
 * The device has no mappings yet, so from now on the tracker sees them all.
 */
void dma_owner_driver_bound(struct device *dev)
{
	if (dma_owner_tracking())
		dma_owner_device_reset(dev);
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_driver_bound);

/* Remove every entry of @dev, reporting each as a leak if @report. */
static void drop_device_entries(struct device *dev, bool report,
				bool may_sleep)
{
	struct dma_owner_report r = { .kind = DMA_OWNER_LEAK, .dev = dev,
				      .op = DMA_OWNER_OP_UNMAP,
				      .has_entry = true };
	struct dma_owner_entry *e, *found;
	struct hlist_bl_node *pos;
	struct hlist_bl_head *b;
	unsigned long flags, i;
	bool any;

	/* Most devices that unbind or fail to probe have no mappings. */
	rcu_read_lock();
	any = has_entries(dev);
	rcu_read_unlock();
	if (!any)
		return;
	for (i = 0; i < (1UL << table_shift); i++) {
		b = &table[i];
		do {
			if (hlist_bl_empty(b))
				break;
			found = NULL;
			lock_bucket(b, &flags);
			hlist_bl_for_each_entry(e, pos, b, node) {
				if (e->dev == dev) {
					found = e;
					hlist_bl_del(&e->node);
					break;
				}
			}
			unlock_bucket(b, flags);
			if (found && report && !READ_ONCE(settling)) {
				dma_owner_snapshot(&r.entry, found);
				r.addr = found->handle;
				r.size = found->size;
				r.dir = found->dir;
				r.caller = dma_owner_map_caller(found);
				dma_owner_report(&r);
			}
			if (found)
				free_entry(found);
		} while (found);
		if (may_sleep && !(i & 1023))
			cond_resched();
	}
}

/**
 * dma_owner_driver_unbound() - @dev's driver is gone: report its leaks
 * @dev: the device, its driver still set
 *
 * Every mapping of @dev still live was leaked by the driver. Each is
 * reported with its map site, then dropped.
 *
 * Context: process context, may sleep.
 */
void dma_owner_driver_unbound(struct device *dev)
{
	if (!dma_owner_tracking())
		return;
	drop_device_entries(dev, true, true);
	/* A driver bound next must not be told of this one's unmaps. */
	if (ever_mapped(dev))
		forget_unmapped(dev, true);
	dma_owner_device_reset(dev);
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_driver_unbound);

/**
 * dma_owner_device_gone() - @dev is being deleted
 * @dev: the device, its driver and its managed resources gone
 *
 * Mappings still live were leaked by whoever made them (a driverless device
 * that maps, or one whose parent's driver maps for it): each is reported,
 * then dropped, with the records of its unmaps, so that readers of the
 * table only ever see devices that are there. Until the device is released
 * a reference may still make calls: they are neither tracked nor judged.
 *
 * Context: process context, may sleep.
 */
void dma_owner_device_gone(struct device *dev)
{
	struct dev_state *st;
	unsigned long flags;

	if (!table)
		return;
	rcu_read_lock();
	st = find_state(dev);
	rcu_read_unlock();
	if (!st)		/* never mapped: nothing to drop or forget */
		return;
	raw_spin_lock_irqsave(&dev_states_lock, flags);
	st = find_state(dev);
	if (st)
		restart_state_locked(st, WHY_DELETED);
	raw_spin_unlock_irqrestore(&dev_states_lock, flags);
	drop_device_entries(dev, dma_owner_tracking(), true);
	if (ever_mapped(dev))
		forget_unmapped(dev, true);
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_device_gone);

/**
 * dma_owner_device_release() - @dev's memory is about to be freed
 * @dev: the device
 *
 * Its state goes. A device that mapped without ever being added (so
 * without device_del()) may have left entries: they are leaks, reported
 * and dropped here.
 *
 * Context: any: the last put_device() may be in atomic context.
 */
void dma_owner_device_release(struct device *dev)
{
	struct dev_state *st;
	bool any, left;

	if (!table)
		return;
	rcu_read_lock();
	st = find_state(dev);
	any = st;
	/* device_del() already dropped and forgot what a deleted one had. */
	left = st && READ_ONCE(st->why) != WHY_DELETED && READ_ONCE(st->mapped);
	rcu_read_unlock();
	if (!any)
		return;
	if (left) {
		drop_device_entries(dev, dma_owner_tracking(), false);
		forget_unmapped(dev, false);
	}
	free_state(dev);
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_device_release);

/**
 * dma_owner_forget_device() - drop all the tracker knows of @dev, silently
 * @dev: a device about to go away
 *
 * For the KUnit suite, whose fake devices come and go at the same
 * addresses without device_del().
 *
 * Context: process context, may sleep.
 */
void dma_owner_forget_device(struct device *dev)
{
	if (!table)
		return;
	drop_device_entries(dev, false, true);
	forget_unmapped(dev, true);
	free_state(dev);
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_forget_device);

/* ---------------------------------------------------------------------- */
/* On and off                                                             */

/* Drop every entry: they may be stale after a period with tracking off. */
static void flush_table(void)
{
	struct dma_owner_entry *e;
	struct hlist_bl_head *b;
	unsigned long flags, i;

	for (i = 0; i < (1UL << table_shift); i++) {
		b = &table[i];
		/* One at a time: nothing is freed under a bucket lock. */
		while (!hlist_bl_empty(b)) {
			lock_bucket(b, &flags);
			e = hlist_bl_empty(b) ? NULL :
				hlist_bl_entry(hlist_bl_first(b),
					       struct dma_owner_entry, node);
			if (e)
				hlist_bl_del(&e->node);
			unlock_bucket(b, flags);
			if (e)
				free_entry(e);
		}
		if (!(i & 1023))
			cond_resched();
	}
	/* What was unmapped before may have been mapped again meanwhile. */
	forget_unmapped(NULL, true);
}

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
	if (!table)
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
	WRITE_ONCE(settling, true);
	if (on) {
		lose_all_completeness();
		static_branch_enable(&dma_owner_key);
		synchronize_rcu();
		lose_all_completeness();
		flush_table();
		/* A driver that bound during the flush may have lost entries. */
		lose_all_completeness();
	} else {
		static_branch_disable(&dma_owner_key);
		/* Every hook runs under rcu_read_lock(): wait for them. */
		synchronize_rcu();
		flush_table();
	}
	WRITE_ONCE(tracking_on, on);
	WRITE_ONCE(settling, false);
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

	if (!table)
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
	WRITE_ONCE(settling, true);
	lose_all_completeness();
	old = rcu_replace_pointer(filter, new, lockdep_is_held(&enable_mutex));
	synchronize_rcu();
	flush_table();
	/* A driver that bound during the flush may have lost entries. */
	lose_all_completeness();
	WRITE_ONCE(settling, false);
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
	f = rcu_dereference(filter);
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
		memset(per_cpu_ptr(&dma_owner_ops, cpu), 0,
		       sizeof(struct dma_owner_op_counts));
	atomic_long_set(&s->untracked, 0);
	atomic_long_set(&s->violations, 0);
	for (kind = 0; kind < DMA_OWNER_NR_KINDS; kind++)
		atomic_long_set(&s->violation[kind], 0);
	atomic_long_set(&s->peak_live, atomic_long_read(&s->live));
}

/**
 * dma_owner_op_counts() - the per-CPU operation counters, summed
 * @sum: where to put the sums
 */
void dma_owner_op_counts(struct dma_owner_op_counts *sum)
{
	const struct dma_owner_op_counts *c;
	int cpu;

	memset(sum, 0, sizeof(*sum));
	for_each_possible_cpu(cpu) {
		c = per_cpu_ptr(&dma_owner_ops, cpu);
		sum->maps += READ_ONCE(c->maps);
		sum->unmaps += READ_ONCE(c->unmaps);
		sum->syncs_for_cpu += READ_ONCE(c->syncs_for_cpu);
		sum->syncs_for_device += READ_ONCE(c->syncs_for_device);
	}
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_op_counts);

/**
 * dma_owner_nr_buckets() - how many hash buckets there are
 *
 * Return: the number, 0 if the tracker failed to initialise.
 */
unsigned long dma_owner_nr_buckets(void)
{
	return table ? 1UL << table_shift : 0;
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
		if (!hlist_bl_empty(&table[i]))
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
	struct hlist_bl_head *b = &table[i];
	const struct device_driver *drv;
	struct dma_owner_entry *e;
	struct hlist_bl_node *pos;
	unsigned int n = 0;
	unsigned long flags;

	lock_bucket(b, &flags);
	hlist_bl_for_each_entry(e, pos, b, node) {
		if (skip) {
			skip--;
			continue;
		}
		if (n == max)
			break;
		dma_owner_snapshot(&buf[n].e, e);
		strscpy(buf[n].dev, dev_name(e->dev), sizeof(buf[n].dev));
		drv = READ_ONCE(e->dev->driver);
		strscpy(buf[n].drv, drv ? drv->name : "-", sizeof(buf[n].drv));
		n++;
	}
	unlock_bucket(b, flags);
	return n;
}

static int enabled_set(const char *val, const struct kernel_param *kp)
{
	bool on;
	int ret = kstrtobool(val, &on);

	if (ret)
		return ret;
	if (!table) {		/* on the command line, before init */
		boot_off = !on;
		return 0;
	}
	return dma_owner_set_enabled(on);
}

static int enabled_get(char *buf, const struct kernel_param *kp)
{
	return sysfs_emit(buf, "%d\n", table ? tracking_on : !boot_off);
}

static const struct kernel_param_ops enabled_ops = {
	.set = enabled_set,
	.get = enabled_get,
};
module_param_cb(enabled, &enabled_ops, NULL, 0644);
MODULE_PARM_DESC(enabled, "Track streaming DMA ownership (default: on)");
module_param_named(check_contents, dma_owner_check_contents, bool, 0644);
MODULE_PARM_DESC(check_contents,
		 "Checksum DMA_TO_DEVICE buffers to catch CPU writes while the device owns them");
module_param(map_stacks, bool, 0644);
MODULE_PARM_DESC(map_stacks,
		 "Record where each mapping was made, as a stack trace (default: on)");
module_param(hash_entries, ulong, 0444);
MODULE_PARM_DESC(hash_entries, "Hash buckets (default: one per page of memory)");

#define MAX_UNMAPPED_ENTRIES	SZ_1M

static int unmapped_entries_set(const char *val, const struct kernel_param *kp)
{
	unsigned int n;
	int ret = kstrtouint(val, 0, &n);

	if (ret)
		return ret;
	if (n > MAX_UNMAPPED_ENTRIES)
		return -EINVAL;
	unmapped_entries = n;
	return 0;
}

static const struct kernel_param_ops unmapped_entries_ops = {
	.set = unmapped_entries_set,
	.get = param_get_uint,
};
module_param_cb(unmapped_entries, &unmapped_entries_ops, &unmapped_entries, 0444);
MODULE_PARM_DESC(unmapped_entries,
		 "Unmapped mappings remembered to report use-after-unmap (0-1048576, default 8192)");

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

/* The unmapped table: a power of two of sets, none if 0 was asked for. */
static int __init alloc_unmapped(void)
{
	unsigned long sets, i;

	if (!unmapped_entries)
		return 0;
	sets = roundup_pow_of_two(DIV_ROUND_UP(unmapped_entries, UNMAPPED_WAYS));
	unmapped = kvcalloc(sets, sizeof(*unmapped), GFP_KERNEL | __GFP_NOWARN);
	if (!unmapped) {
		/* Track all the same: misses are then unknown-handle. */
		pr_warn("no memory for %u unmapped records: use-after-unmap is reported as unknown-handle\n",
			unmapped_entries);
		return 0;
	}
	for (i = 0; i < sets; i++)
		raw_spin_lock_init(&unmapped[i].lock);
	unmapped_shift = ilog2(sets);
	return 0;
}

/*
 * Before any driver probes (device_initcall), so that every mapping a driver
 * makes is seen and misses can be reported from the start.
 */
static int __init dma_owner_init(void)
{
	if (stack_depot_init())
		goto fail;
	/* The benchmark's bytes-per-mapping figure rests on this. */
	BUILD_BUG_ON(IS_ENABLED(CONFIG_64BIT) &&
		     sizeof(struct dma_owner_entry) > 80);
	entry_cache = KMEM_CACHE(dma_owner_entry, 0);
	csum_entry_cache = KMEM_CACHE(dma_owner_csum_entry, 0);
	if (!entry_cache || !csum_entry_cache || alloc_unmapped())
		goto fail;
	/* At least 256 buckets: hash_64() needs a shift above 0. */
	table = alloc_large_system_hash("dma-owner", sizeof(*table),
					hash_entries, PAGE_SHIFT, HASH_ZERO,
					&table_shift, NULL, 256, 0);
	if (boot_off) {
		pr_info("off (dma_owner=off)\n");
		return 0;
	}
	default_why = WHY_COMPLETE;
	tracking_on = true;
	static_branch_enable(&dma_owner_key);
	pr_info("tracking streaming DMA ownership\n");
	return 0;
fail:
	pr_err("cannot allocate its tables: tracking off\n");
	kmem_cache_destroy(entry_cache);
	kmem_cache_destroy(csum_entry_cache);
	kvfree(unmapped);
	unmapped = NULL;
	return -ENOMEM;
}
core_initcall(dma_owner_init);
