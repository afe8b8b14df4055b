// SPDX-License-Identifier: GPL-2.0
/*
 * DMA ownership tracker: recently unmapped mappings, so that a call on one
 * is reported as use-after-unmap rather than as an unknown handle.
 */

#define pr_fmt(fmt) "dma-owner: " fmt

#include <linux/bitops.h>
#include <linux/device.h>
#include <linux/hash.h>
#include <linux/jiffies.h>
#include <linux/log2.h>
#include <linux/moduleparam.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/spinlock.h>

#include "owner.h"

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "dma_owner."

/*
 * Recently unmapped mappings, so that a sync or unmap of one is reported as
 * use-after-unmap, naming who unmapped it and when, rather than as an
 * unknown handle. A set-associative table hashed by where the mapping
 * started: a mapping's record stays until UNMAPPED_WAYS other mappings of
 * its set have been unmapped since, and a handle unmapped again replaces
 * its own record, so that rings reusing their buffers do not push out the
 * rest. With the default 8192 records (80 bytes each on 64-bit, 656 KiB in
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
	unsigned long lock;		/* bit 0; see lock_set() */
	u32 clock;
	struct unmapped_rec way[UNMAPPED_WAYS];
};

static struct unmapped_set *unmapped;
static unsigned int unmapped_shift;
static unsigned int unmapped_entries = 8192;	/* dma_owner.unmapped_entries= */
/*
 * A set is locked as a bucket of the table is, with a bit: every unmap
 * takes one, and an out-of-line spinlock would cost it more than the copy.
 */
static inline void lock_set(struct unmapped_set *set, unsigned long *flags)
{
	local_irq_save(*flags);
	bit_spin_lock(0, &set->lock);
}

static inline void unlock_set(struct unmapped_set *set, unsigned long flags)
{
	__bit_spin_unlock(0, &set->lock);
	local_irq_restore(flags);
}

/* ---------------------------------------------------------------------- */
/* Unmapped memory                                                        */

/*
 * A record's set is hashed from where its mapping started, to a sixteenth
 * of its level's chunk: a level's mappings are larger than that, so a ring
 * of same-sized buffers side by side (bounce slots, pool fragments) spreads
 * over as many sets as it has buffers, rather than filling one set per
 * chunk and pushing out the records of every other mapping there.
 */
#define UNMAPPED_SHIFT(level)	(DMA_OWNER_LEVEL_SHIFT(level) - 4)

static struct unmapped_set *unmapped_set(struct device *dev,
					 unsigned int level, u64 start)
{
	u64 key = dma_owner_place_key(dev, level, start >> UNMAPPED_SHIFT(level));

	return &unmapped[hash_64(key, unmapped_shift)];
}

/*
 * The set's own older record of @e's mapping, looked for on its own: a
 * ring reusing its buffers finds it in a full set, one compare a way.
 */
static struct unmapped_rec *own_record(struct unmapped_set *set,
				       const struct dma_owner_entry *e)
{
	unsigned int i;

	for (i = 0; i < UNMAPPED_WAYS; i++)
		if (set->way[i].e.handle == e->handle && set->way[i].e.dev == e->dev)
			return &set->way[i];
	return NULL;
}

/* Else the set's first free way, else its oldest record. */
static struct unmapped_rec *free_or_oldest(struct unmapped_set *set)
{
	struct unmapped_rec *victim = &set->way[0];
	unsigned int i;

	for (i = 1; victim->e.dev && i < UNMAPPED_WAYS; i++)
		if (!set->way[i].e.dev || (s32)(set->way[i].stamp - victim->stamp) < 0)
			victim = &set->way[i];
	return victim;
}

/**
 * dma_owner_remember_unmapped() - keep a record of an unmapped mapping
 * @e: the mapping, out of the table
 * @caller: who unmapped it
 */
void dma_owner_remember_unmapped(const struct dma_owner_entry *e,
				 unsigned long caller)
{
	struct unmapped_rec *victim;
	struct unmapped_set *set;
	unsigned long flags;

	if (!unmapped)
		return;
	set = unmapped_set(e->dev, e->level, e->handle);
	lock_set(set, &flags);
	victim = own_record(set, e) ?: free_or_oldest(set);
	dma_owner_snapshot(&victim->e, e);
	victim->unmap_caller = caller;
	victim->unmap_jiffies = jiffies;
	victim->stamp = ++set->clock;
	unlock_set(set, flags);
}

/**
 * dma_owner_find_unmapped() - the latest unmapped mapping that held @addr
 * @dev: the device
 * @addr: the address
 * @r: the report to fill in: entry, unmap caller and time
 *
 * Only asked before a report: it probes every sixteenth of a chunk a
 * mapping of each level the device used may have started in, 17 sets per
 * level.
 *
 * Return: true if one was found.
 */
bool dma_owner_find_unmapped(struct device *dev, dma_addr_t addr,
			     struct dma_owner_report *r)
{
	unsigned long used = READ_ONCE(*dma_owner_levels_of(dev));
	struct unmapped_rec *rec;
	struct unmapped_set *set;
	unsigned int l, w, i, n;
	unsigned long flags;
	bool found = false;
	u64 start, span;

	if (!unmapped)
		return false;
	for_each_set_bit(l, &used, DMA_OWNER_NR_LEVELS) {
		span = 1ULL << DMA_OWNER_LEVEL_SHIFT(l);
		start = (u64)addr >= span ? (u64)addr - span + 1 : 0;
		start = round_down(start, 1ULL << UNMAPPED_SHIFT(l));
		/* Counted, not compared: near U64_MAX, start would wrap. */
		n = (((u64)addr - start) >> UNMAPPED_SHIFT(l)) + 1;
		for (i = 0; i < n; i++, start += 1ULL << UNMAPPED_SHIFT(l)) {
			set = unmapped_set(dev, l, start);
			lock_set(set, &flags);
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
			unlock_set(set, flags);
		}
	}
	return found;
}

/**
 * dma_owner_forget_unmapped() - forget the unmapped mappings of a device
 * @dev: the device, or NULL for every device
 * @may_sleep: the walk may reschedule
 */
void dma_owner_forget_unmapped(struct device *dev, bool may_sleep)
{
	unsigned long flags, i;
	unsigned int w;

	if (!unmapped)
		return;
	for (i = 0; i < (1UL << unmapped_shift); i++) {
		lock_set(&unmapped[i], &flags);
		for (w = 0; w < UNMAPPED_WAYS; w++)
			if (!dev || unmapped[i].way[w].e.dev == dev)
				unmapped[i].way[w].e.dev = NULL;
		unlock_set(&unmapped[i], flags);
		if (may_sleep && !(i & 255))
			cond_resched();
	}
}

/**
 * dma_owner_unmapped_init() - allocate the unmapped records
 *
 * A power of two of sets, none if dma_owner.unmapped_entries=0.
 */
void __init dma_owner_unmapped_init(void)
{
	unsigned long sets;

	if (!unmapped_entries)
		return;
	/*
	 * Two sets at least: hash_64() of 0 bits shifts a u64 by 64, which
	 * is undefined (x86 shifts by nothing: an index far outside).
	 */
	sets = roundup_pow_of_two(max(DIV_ROUND_UP(unmapped_entries, UNMAPPED_WAYS), 2U));
	unmapped = kvcalloc(sets, sizeof(*unmapped), GFP_KERNEL | __GFP_NOWARN);
	if (!unmapped) {
		/* Track all the same: misses are then unknown-handle. */
		pr_warn("no memory for %u unmapped records: use-after-unmap is reported as unknown-handle\n",
			unmapped_entries);
		return;
	}
	unmapped_shift = ilog2(sets);
}

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
