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
 * mapping of that device: see device_complete().
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
#include <linux/seqlock.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>
#include <kunit/visibility.h>
#include <asm/sections.h>

#include "owner.h"

#define CREATE_TRACE_POINTS
#include <trace/events/dma_owner.h>

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
#define UNMAPPED_PER_CPU	64	/* recently unmapped entries remembered */
#define MAX_CSUM_SIZE		SZ_64K	/* bounds the content check's work per call */

static struct kmem_cache *entry_cache;
static struct kmem_cache *csum_entry_cache;
static struct hlist_bl_head *table;
static unsigned int table_shift;
static unsigned long levels_used;	/* bit L: level L has had entries */

static DEFINE_MUTEX(enable_mutex);	/* serialises on/off switches */
static bool tracking_on;		/* the state dma_owner_key follows */
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

/* A per-CPU ring of recently unmapped entries tells use-after-unmap apart. */
struct unmapped_ring {
	unsigned int next;
	struct unmapped_slot {
		seqcount_t seq;
		struct dma_owner_entry e;
		unsigned long unmap_caller;
	} slot[UNMAPPED_PER_CPU];
};

static struct unmapped_ring __percpu *unmapped;

/* ---------------------------------------------------------------------- */
/* Completeness                                                          */

/*
 * A sync or unmap of a handle the table does not hold is a violation only if
 * the tracker saw every mapping the device has. That holds for every device
 * when tracking starts at boot, before any driver. It stops holding for all
 * devices when tracking is switched on at run time (mappings made while it
 * was off are unknown), and for one device when an entry could not be
 * allocated. A device is complete again when a driver binds or unbinds: it
 * then has no mappings. Misses on incomplete devices are not reported.
 *
 * The few devices with a state of their own live in a small hash; the rest
 * follow default_complete. States from an older epoch are void.
 */
struct dev_state {
	struct hlist_node node;
	struct device *dev;
	u32 epoch;
	bool complete;
};

static DEFINE_HASHTABLE(dev_states, 6);
static DEFINE_RAW_SPINLOCK(dev_states_lock);
static u32 epoch;
static bool default_complete;

static bool device_complete(struct device *dev)
{
	struct dev_state *st;
	unsigned long flags;
	bool complete;

	raw_spin_lock_irqsave(&dev_states_lock, flags);
	complete = default_complete;
	hash_for_each_possible(dev_states, st, node, (unsigned long)dev) {
		if (st->dev == dev && st->epoch == epoch) {
			complete = st->complete;
			break;
		}
	}
	raw_spin_unlock_irqrestore(&dev_states_lock, flags);
	return complete;
}

static void lose_all_completeness_locked(void)
{
	epoch++;
	default_complete = false;
}

static void set_device_complete(struct device *dev, bool complete)
{
	struct dev_state *st, *found = NULL;
	unsigned long flags;

	raw_spin_lock_irqsave(&dev_states_lock, flags);
	hash_for_each_possible(dev_states, st, node, (unsigned long)dev) {
		if (st->dev == dev) {
			found = st;
			break;
		}
	}
	if (!found) {
		found = kmalloc(sizeof(*found), GFP_ATOMIC | __GFP_NOWARN);
		if (!found) {
			/* Cannot remember it: forget what we know, never guess. */
			if (!complete)
				lose_all_completeness_locked();
			goto out;
		}
		found->dev = dev;
		hash_add(dev_states, &found->node, (unsigned long)dev);
	}
	found->epoch = epoch;
	found->complete = complete;
out:
	raw_spin_unlock_irqrestore(&dev_states_lock, flags);
}

/**
 * dma_owner_device_reset() - the tracker now sees every mapping of @dev
 * @dev: a device that has no streaming mappings
 *
 * Called when a driver binds or unbinds; also used by the KUnit suite for
 * its fake devices.
 */
void dma_owner_device_reset(struct device *dev)
{
	set_device_complete(dev, true);
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_device_reset);

static void count_untracked(struct device *dev)
{
	atomic_long_inc(&dma_owner_stats.untracked);
	set_device_complete(dev, false);
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

static struct hlist_bl_head *bucket(struct device *dev, unsigned int level,
				    u64 chunk)
{
	u64 key = (u64)(unsigned long)dev ^ ((chunk << 3 | level) * GOLDEN_RATIO_64);

	return &table[hash_64(key, table_shift)];
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

/*
 * Find the live entry of @dev that starts at @addr (@exact) or contains it.
 * Among several starting at @addr, prefer one of @size. On success the
 * entry's bucket is left locked, for the caller to unlock_bucket().
 */
static struct dma_owner_entry *find_locked(struct device *dev, dma_addr_t addr,
					   size_t size, bool exact,
					   struct hlist_bl_head **bp,
					   unsigned long *flags)
{
	unsigned long used = READ_ONCE(levels_used);
	struct dma_owner_entry *e, *found;
	struct hlist_bl_node *pos;
	struct hlist_bl_head *b;
	unsigned int pass, l;
	u64 chunk;

	for (pass = 0; pass < (exact ? 1 : 2); pass++) {
		for_each_set_bit(l, &used, NR_LEVELS) {
			chunk = (u64)addr >> LEVEL_SHIFT(l);
			if (pass) {
				if (!chunk)
					continue;
				chunk--;
			}
			b = bucket(dev, l, chunk);
			if (hlist_bl_empty(b))
				continue;
			found = NULL;
			lock_bucket(b, flags);
			hlist_bl_for_each_entry(e, pos, b, node) {
				if (e->dev != dev)
					continue;
				if (exact ? e->handle != addr :
				    addr < e->handle || addr - e->handle >= e->size)
					continue;
				if (!found || (e->size == size && found->size != size))
					found = e;
			}
			if (found) {
				*bp = b;
				return found;
			}
			unlock_bucket(b, *flags);
		}
	}
	return NULL;
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
	if (!test_bit(e->level, &levels_used))
		set_bit(e->level, &levels_used);
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
	if (e->has_csum)
		kmem_cache_free(csum_entry_cache, to_csum_entry(e));
	else
		kmem_cache_free(entry_cache, e);
}

/* Called with interrupts off, under the bucket lock the unmap took. */
static void remember_unmapped(const struct dma_owner_entry *e,
			      unsigned long caller)
{
	struct unmapped_ring *ring = this_cpu_ptr(unmapped);
	struct unmapped_slot *s;

	lockdep_assert_irqs_disabled();
	s = &ring->slot[ring->next++ % UNMAPPED_PER_CPU];
	raw_write_seqcount_begin(&s->seq);
	s->e = *e;
	s->unmap_caller = caller;
	raw_write_seqcount_end(&s->seq);
}

static bool find_unmapped(struct device *dev, dma_addr_t addr,
			  struct dma_owner_report *r)
{
	struct unmapped_slot *s;
	unsigned int seq, i;
	int cpu;

	for_each_possible_cpu(cpu) {
		for (i = 0; i < UNMAPPED_PER_CPU; i++) {
			s = &per_cpu_ptr(unmapped, cpu)->slot[i];
			seq = raw_read_seqcount_begin(&s->seq);
			if (READ_ONCE(s->e.dev) != dev)
				continue;
			r->entry = s->e;
			r->unmap_caller = s->unmap_caller;
			if (read_seqcount_retry(&s->seq, seq))
				continue;
			if (addr >= r->entry.handle &&
			    addr - r->entry.handle < r->entry.size)
				return true;
		}
	}
	return false;
}

/* ---------------------------------------------------------------------- */
/* Transitions                                                            */

/* Violations found by one call, reported after the bucket is unlocked. */
struct verdict {
	unsigned int kinds;		/* bit per enum dma_owner_kind */
	unsigned int reported;		/* kinds already reported by this call */
	bool has_entry;
	struct dma_owner_entry snap;
};

static void report_verdict(struct verdict *v, struct device *dev,
			   dma_addr_t addr, size_t size,
			   enum dma_data_direction dir, enum dma_owner_op op,
			   unsigned long caller)
{
	struct dma_owner_report r = {
		.op = op, .dev = dev, .addr = addr, .size = size, .dir = dir,
		.caller = caller, .has_entry = v->has_entry,
	};
	unsigned int kind;

	if (v->has_entry)
		r.entry = v->snap;
	for_each_set_bit(kind, (unsigned long *)&v->kinds, DMA_OWNER_NR_KINDS) {
		/* An sg call reports each kind once, not once per segment. */
		if (v->reported & BIT(kind))
			continue;
		v->reported |= BIT(kind);
		r.kind = kind;
		dma_owner_report(&r);
	}
	v->kinds = 0;
}

/* No live entry: unknown-handle or use-after-unmap, if we can tell. */
static void report_miss(struct verdict *v, struct device *dev, dma_addr_t addr,
			size_t size, enum dma_data_direction dir,
			enum dma_owner_op op, unsigned long caller)
{
	struct dma_owner_report r = {
		.op = op, .dev = dev, .addr = addr, .size = size, .dir = dir,
		.caller = caller, .kind = DMA_OWNER_UNKNOWN_HANDLE,
	};

	if (!device_complete(dev))
		return;
	if (find_unmapped(dev, addr, &r)) {
		r.kind = DMA_OWNER_USE_AFTER_UNMAP;
		r.has_entry = true;
	}
	if (v->reported & BIT(r.kind))
		return;
	v->reported |= BIT(r.kind);
	dma_owner_report(&r);
}

static bool ranges_overlap(u32 lo1, u32 hi1, u32 lo2, u32 hi2)
{
	return lo1 < hi2 && lo2 < hi1;
}

/* Content check of a DMA_TO_DEVICE buffer the device owned all along. */
static void check_csum(struct dma_owner_entry *e, struct verdict *v)
{
	struct dma_owner_csum_entry *ce;
	u32 csum;

	if (!e->has_csum || e->cpu_lo != e->cpu_hi || e->inexact)
		return;
	ce = to_csum_entry(e);
	if (contents_csum(ce->phys, e->size, &csum) && csum != ce->csum) {
		v->kinds |= BIT(DMA_OWNER_CPU_WRITE_WHILE_DEVICE_OWNED);
		ce->csum = csum;
	}
}

/*
 * Ownership is a byte range [cpu_lo, cpu_hi) the CPU owns; the device owns
 * the rest. Partial syncs move part of it. When the CPU's part stops being
 * one range, the entry is inexact and owner checks wait until a sync
 * covering everything makes it exact again: never report what we cannot
 * justify.
 */
static void sync_entry(struct dma_owner_entry *e, dma_addr_t addr, size_t size,
		       enum dma_data_direction dir, bool for_device,
		       struct verdict *v)
{
	u64 off = addr - e->handle;
	u32 lo, hi;

	if (off + size > e->size) {
		v->kinds |= BIT(DMA_OWNER_OUT_OF_RANGE);
		size = e->size - off;
	}
	if (e->dir != DMA_BIDIRECTIONAL && dir != e->dir)
		v->kinds |= BIT(DMA_OWNER_DIR_MISMATCH);
	lo = off;
	hi = off + size;

	if (!for_device) {
		if (e->syncs_for_cpu < U16_MAX)
			e->syncs_for_cpu++;
		check_csum(e, v);
		if (e->cpu_lo == e->cpu_hi) {
			e->cpu_lo = lo;
			e->cpu_hi = hi;
		} else {
			if (!e->inexact && ranges_overlap(e->cpu_lo, e->cpu_hi, lo, hi))
				v->kinds |= BIT(DMA_OWNER_MISSING_SYNC_FOR_DEVICE);
			if (lo > e->cpu_hi || hi < e->cpu_lo)
				e->inexact = 1;
			e->cpu_lo = min(e->cpu_lo, lo);
			e->cpu_hi = max(e->cpu_hi, hi);
		}
		if (lo == 0 && hi == e->size)
			e->inexact = 0;
	} else {
		if (e->syncs_for_device < U16_MAX)
			e->syncs_for_device++;
		if (!e->inexact && !ranges_overlap(e->cpu_lo, e->cpu_hi, lo, hi) &&
		    !e->skip_sync)
			v->kinds |= BIT(DMA_OWNER_REDUNDANT_SYNC_FOR_DEVICE);
		if (lo <= e->cpu_lo && hi >= e->cpu_hi) {
			e->cpu_lo = 0;
			e->cpu_hi = 0;
			e->inexact = 0;
		} else if (lo <= e->cpu_lo && hi > e->cpu_lo) {
			e->cpu_lo = hi;
		} else if (hi >= e->cpu_hi && lo < e->cpu_hi) {
			e->cpu_hi = lo;
		} else if (lo > e->cpu_lo && hi < e->cpu_hi) {
			e->inexact = 1;
		}
		/* The device gets what the CPU wrote: checksum that. */
		if (e->has_csum && e->cpu_lo == e->cpu_hi) {
			struct dma_owner_csum_entry *ce = to_csum_entry(e);

			contents_csum(ce->phys, e->size, &ce->csum);
		}
	}
	e->skip_sync = 0;
}

/* Returns the sg_ents of the entry found, 0 if none. */
static unsigned int do_sync(struct device *dev, dma_addr_t addr, size_t size,
			    enum dma_data_direction dir, bool for_device,
			    unsigned long caller, struct verdict *v)
{
	enum dma_owner_op op = for_device ? DMA_OWNER_OP_SYNC_FOR_DEVICE :
					    DMA_OWNER_OP_SYNC_FOR_CPU;
	int before = DMA_OWNER_STATE_NONE, after = DMA_OWNER_STATE_NONE;
	struct dma_owner_entry *e;
	struct hlist_bl_head *b;
	unsigned int ents = 0;
	unsigned long flags;

	if (for_device)
		this_cpu_inc(dma_owner_ops.syncs_for_device);
	else
		this_cpu_inc(dma_owner_ops.syncs_for_cpu);
	e = size ? find_locked(dev, addr, size, false, &b, &flags) : NULL;
	if (e) {
		before = dma_owner_state(e);
		record(e, op, caller);
		sync_entry(e, addr, size, dir, for_device, v);
		after = dma_owner_state(e);
		if (v->kinds) {
			v->has_entry = true;
			v->snap = *e;
		}
		ents = e->sg_ents;
		unlock_bucket(b, flags);
	}
	if (for_device)
		trace_dma_owner_sync_for_device(dev, addr, size, dir, before,
						after, caller);
	else
		trace_dma_owner_sync_for_cpu(dev, addr, size, dir, before,
					     after, caller);
	/* A zero-length sync moves nothing: nothing to check. */
	if (!size)
		return 0;
	if (!e) {
		report_miss(v, dev, addr, size, dir, op, caller);
		return 0;
	}
	if (v->kinds)
		report_verdict(v, dev, addr, size, dir, op, caller);
	return ents;
}

/* Returns the sg_ents of the entry found, 0 if none. */
static unsigned int do_unmap(struct device *dev, dma_addr_t addr, size_t size,
			     enum dma_data_direction dir, unsigned long caller,
			     struct verdict *v)
{
	struct dma_owner_entry *e;
	struct hlist_bl_head *b;
	unsigned long flags;
	unsigned int ents;
	int state;

	e = find_locked(dev, addr, size, true, &b, &flags);
	if (!e) {
		trace_dma_owner_unmap(dev, addr, size, dir, DMA_OWNER_STATE_NONE,
				      DMA_OWNER_STATE_NONE, caller);
		report_miss(v, dev, addr, size, dir, DMA_OWNER_OP_UNMAP, caller);
		return 0;
	}
	hlist_bl_del(&e->node);
	state = dma_owner_state(e);
	record(e, DMA_OWNER_OP_UNMAP, caller);
	remember_unmapped(e, caller);
	unlock_bucket(b, flags);
	trace_dma_owner_unmap(dev, addr, size, dir, state, DMA_OWNER_STATE_NONE,
			      caller);

	this_cpu_inc(dma_owner_ops.unmaps);
	check_csum(e, v);
	if (e->size != size)
		v->kinds |= BIT(DMA_OWNER_SIZE_MISMATCH);
	if (e->dir != dir)
		v->kinds |= BIT(DMA_OWNER_DIR_MISMATCH);
	if (v->kinds) {
		v->has_entry = true;
		v->snap = *e;
		report_verdict(v, dev, addr, size, dir, DMA_OWNER_OP_UNMAP, caller);
	}
	ents = e->sg_ents;
	free_entry(e);
	return ents;
}

/* ---------------------------------------------------------------------- */
/* Hooks, called from kernel/dma/mapping.c through <linux/dma-owner.h>    */

/**
 * __dma_owner_map() - a mapping was made; the device owns it
 * @dev: the device
 * @addr: the DMA address returned to the driver
 * @size: its length
 * @dir: its direction
 * @attrs: DMA_ATTR_* of the map call
 * @api: which map function
 * @phys: CPU physical address of the buffer, 0 if none (for the content check)
 * @caller: the driver's call site
 */
void __dma_owner_map(struct device *dev, dma_addr_t addr, size_t size,
		     enum dma_data_direction dir, unsigned long attrs,
		     enum dma_owner_api api, phys_addr_t phys,
		     unsigned long caller)
{
	struct dma_owner_entry *e;

	guard(rcu)();
	if (filtered_out(dev))
		return;
	e = new_entry(dev, addr, size, dir, attrs, api, phys);
	if (!e) {
		count_untracked(dev);
		return;
	}
	e->map_stack = save_map_stack(caller);
	record(e, DMA_OWNER_OP_MAP, caller);
	insert(e);
	trace_dma_owner_map(dev, addr, size, dir, DMA_OWNER_STATE_NONE,
			    DMA_OWNER_STATE_DEVICE, caller);
}
EXPORT_SYMBOL_IF_KUNIT(__dma_owner_map);

/**
 * __dma_owner_unmap() - a mapping is about to be unmapped
 * @dev: the device
 * @addr: the DMA address the driver passed
 * @size: the size it passed
 * @dir: the direction it passed
 * @api: which unmap function
 * @caller: the driver's call site
 */
void __dma_owner_unmap(struct device *dev, dma_addr_t addr, size_t size,
		       enum dma_data_direction dir, enum dma_owner_api api,
		       unsigned long caller)
{
	struct verdict v = {};

	guard(rcu)();
	if (filtered_out(dev))
		return;
	do_unmap(dev, addr, size, dir, caller, &v);
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
	struct dma_owner_entry *e;
	struct scatterlist *s;
	phys_addr_t phys;
	int i;

	guard(rcu)();
	if (filtered_out(dev))
		return;
	for_each_sg(sg, s, ents, i) {
		/* Segment i is sg entry i only when nothing was merged. */
		phys = ents == nents && sg_dma_len(s) == s->length ? sg_phys(s) : 0;
		e = new_entry(dev, sg_dma_address(s), sg_dma_len(s), dir, attrs,
			      DMA_OWNER_API_SG, phys);
		if (!e) {
			count_untracked(dev);
			continue;
		}
		if (!stack)
			stack = save_map_stack(caller);
		e->map_stack = stack;
		e->sg_ents = ents;
		record(e, DMA_OWNER_OP_MAP, caller);
		insert(e);
		trace_dma_owner_map(dev, sg_dma_address(s), sg_dma_len(s), dir,
				    DMA_OWNER_STATE_NONE, DMA_OWNER_STATE_DEVICE,
				    caller);
	}
}
EXPORT_SYMBOL_IF_KUNIT(__dma_owner_map_sg);

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
	struct verdict v = {};
	struct scatterlist *s;
	unsigned int ents = nents;
	int i;

	guard(rcu)();
	if (filtered_out(dev))
		return;
	for_each_sg(sg, s, nents, i) {
		if (i >= ents)
			break;
		/* An IOMMU leaves the segments after the last merged one empty. */
		if (!sg_dma_len(s))
			continue;
		ents = do_unmap(dev, sg_dma_address(s), sg_dma_len(s), dir,
				caller, &v) ?: ents;
	}
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
	struct verdict v = {};

	guard(rcu)();
	if (filtered_out(dev))
		return;
	do_sync(dev, addr, size, dir, for_device, caller, &v);
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
	struct verdict v = {};
	struct scatterlist *s;
	unsigned int ents = nelems;
	int i;

	guard(rcu)();
	if (filtered_out(dev))
		return;
	for_each_sg(sg, s, nelems, i) {
		if (i >= ents)
			break;
		if (!sg_dma_len(s))
			continue;
		ents = do_sync(dev, sg_dma_address(s), sg_dma_len(s), dir,
			       for_device, caller, &v) ?: ents;
	}
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
static void drop_device_entries(struct device *dev, bool report)
{
	struct dma_owner_report r = { .kind = DMA_OWNER_LEAK, .dev = dev,
				      .op = DMA_OWNER_OP_UNMAP,
				      .has_entry = true };
	struct dma_owner_entry *e, *found;
	struct hlist_bl_node *pos;
	struct hlist_bl_head *b;
	unsigned long flags, i;

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
			if (found && report) {
				r.entry = *found;
				r.addr = found->handle;
				r.size = found->size;
				r.dir = found->dir;
				r.caller = dma_owner_map_caller(found);
				dma_owner_report(&r);
			}
			if (found)
				free_entry(found);
		} while (found);
		if (!(i & 1023))
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
	drop_device_entries(dev, true);
	dma_owner_device_reset(dev);
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_driver_unbound);

/**
 * dma_owner_forget_device() - drop all the tracker knows of @dev, silently
 * @dev: a device about to go away
 *
 * For the KUnit suite, whose fake devices come and go at the same
 * addresses: nothing of one may be taken for another's.
 *
 * Context: process context, may sleep.
 */
void dma_owner_forget_device(struct device *dev)
{
	struct unmapped_slot *s;
	unsigned long flags;
	int cpu, i;

	if (!table)
		return;
	drop_device_entries(dev, false);
	for_each_possible_cpu(cpu) {
		for (i = 0; i < UNMAPPED_PER_CPU; i++) {
			s = &per_cpu_ptr(unmapped, cpu)->slot[i];
			local_irq_save(flags);
			if (READ_ONCE(s->e.dev) == dev) {
				raw_write_seqcount_begin(&s->seq);
				s->e.dev = NULL;
				raw_write_seqcount_end(&s->seq);
			}
			local_irq_restore(flags);
		}
	}
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_forget_device);

/* ---------------------------------------------------------------------- */
/* On and off                                                             */

/* Drop every entry: they may be stale after a period with tracking off. */
static void flush_table(void)
{
	struct dma_owner_entry *e;
	struct hlist_bl_node *pos, *n;
	struct hlist_bl_head *b;
	unsigned long flags, i;

	for (i = 0; i < (1UL << table_shift); i++) {
		b = &table[i];
		if (hlist_bl_empty(b))
			continue;
		lock_bucket(b, &flags);
		hlist_bl_for_each_entry_safe(e, pos, n, b, node) {
			hlist_bl_del(&e->node);
			free_entry(e);
		}
		unlock_bucket(b, flags);
		cond_resched();
	}
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
	unsigned long flags;

	if (!table)
		return -ENODEV;
	mutex_lock(&enable_mutex);
	if (on == tracking_on)
		goto out;
	if (on) {
		flush_table();
		raw_spin_lock_irqsave(&dev_states_lock, flags);
		lose_all_completeness_locked();
		raw_spin_unlock_irqrestore(&dev_states_lock, flags);
		static_branch_enable(&dma_owner_key);
	} else {
		static_branch_disable(&dma_owner_key);
		/* Every hook runs under rcu_read_lock(): wait for them. */
		synchronize_rcu();
		flush_table();
	}
	WRITE_ONCE(tracking_on, on);
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
	unsigned long flags;

	if (!table)
		return -ENODEV;
	if (*name) {
		new = kstrdup(name, GFP_KERNEL);
		if (!new)
			return -ENOMEM;
	}
	mutex_lock(&enable_mutex);
	old = rcu_replace_pointer(filter, new, lockdep_is_held(&enable_mutex));
	synchronize_rcu();
	flush_table();
	raw_spin_lock_irqsave(&dev_states_lock, flags);
	lose_all_completeness_locked();
	raw_spin_unlock_irqrestore(&dev_states_lock, flags);
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
 * dma_owner_copy_bucket() - copy entries of one bucket
 * @i: bucket index
 * @skip: entries to pass over first
 * @buf: where to copy them
 * @max: room in @buf
 *
 * Copies under the bucket lock, so a reader holds it for at most @max
 * entries at a time and never stalls mapping on other buckets.
 *
 * Return: how many were copied.
 */
unsigned int dma_owner_copy_bucket(unsigned long i, unsigned int skip,
				   struct dma_owner_entry *buf, unsigned int max)
{
	struct hlist_bl_head *b = &table[i];
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
		buf[n++] = *e;
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

/*
 * Before any driver probes (device_initcall), so that every mapping a driver
 * makes is seen and misses can be reported from the start.
 */
static int __init dma_owner_init(void)
{
	int cpu, i;

	if (stack_depot_init())
		goto fail;
	/* The benchmark's bytes-per-mapping figure rests on this. */
	BUILD_BUG_ON(IS_ENABLED(CONFIG_64BIT) &&
		     sizeof(struct dma_owner_entry) > 80);
	entry_cache = KMEM_CACHE(dma_owner_entry, 0);
	csum_entry_cache = KMEM_CACHE(dma_owner_csum_entry, 0);
	unmapped = alloc_percpu(struct unmapped_ring);
	if (!entry_cache || !csum_entry_cache || !unmapped)
		goto fail;
	for_each_possible_cpu(cpu)
		for (i = 0; i < UNMAPPED_PER_CPU; i++)
			seqcount_init(&per_cpu_ptr(unmapped, cpu)->slot[i].seq);
	table = alloc_large_system_hash("dma-owner", sizeof(*table),
					hash_entries, PAGE_SHIFT, HASH_ZERO,
					&table_shift, NULL, 0, 0);
	if (!table)
		goto fail;
	if (boot_off) {
		pr_info("off (dma_owner=off)\n");
		return 0;
	}
	default_complete = true;
	tracking_on = true;
	static_branch_enable(&dma_owner_key);
	pr_info("tracking streaming DMA ownership\n");
	return 0;
fail:
	pr_err("cannot allocate its tables: tracking off\n");
	kmem_cache_destroy(entry_cache);
	kmem_cache_destroy(csum_entry_cache);
	free_percpu(unmapped);
	unmapped = NULL;
	return -ENOMEM;
}
core_initcall(dma_owner_init);
