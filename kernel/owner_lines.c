// SPDX-License-Identifier: GPL-2.0
/*
 * DMA ownership tracker: cache lines shared by mappings. Where DMA is not
 * coherent with the CPU's caches, the sync calls clean and invalidate whole
 * lines, so Documentation/core-api/dma-api.rst wants each mapped region to
 * begin and end on a line boundary, "to prevent two separately mapped
 * regions from sharing a single cache line". Two that do, one of them
 * written by the device, corrupt each other as soon as the CPU writes the
 * line while the device owns part of it: cleaning the line writes the CPU's
 * stale copy over what the device wrote, invalidating it discards what the
 * CPU wrote.
 *
 * Only a mapping's first and last line can be shared with a mapping that
 * does not overlap it, so a mapping whose buffer does not start or end on a
 * line boundary puts those lines, and only those, in an index by physical
 * line; a new mapping is checked against the mappings already there.
 *
 * The line is the kernel's own DMA alignment, dma_get_cache_alignment():
 * kmalloc() and every buffer a driver aligns with ARCH_DMA_MINALIGN (or
 * __dma_from_device_group_begin()) are laid out for it, so two mappings
 * share such a line only where a driver or a subsystem put them in one, or
 * let a caller's buffer do so (a block device's dma_alignment below the
 * line, for O_DIRECT). A shorter line
 * is allowed, a longer one is not: the kernel's layout could not tell a
 * correct driver from a wrong one there. Where the architecture sets no
 * alignment of its own (x86), CONFIG_DMA_OWNER_DEBUG_CACHE_LINE sets 128,
 * the largest ARCH_DMA_MINALIGN of any (arm64, MIPS, parisc), and makes
 * cache_line_size() 128 too, so that x86 finds what corrupts data there.
 */

#define pr_fmt(fmt) "dma-owner: " fmt

#include <linux/dma-map-ops.h>
#include <linux/dma-mapping.h>
#include <linux/log2.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <kunit/visibility.h>

#include "owner.h"

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "dma_owner."

#define MIN_CACHE_LINE	16

/* -1 until set or until init: the kernel's DMA alignment. */
static int cache_line = -1;

static int cache_line_set(const char *val, const struct kernel_param *kp)
{
	unsigned int v;
	int ret = kstrtouint(val, 0, &v);

	if (ret)
		return ret;
	if (v && (!is_power_of_2(v) || v < MIN_CACHE_LINE)) {
		pr_err("cache_line=%u: not 0 nor a power of 2 from %d\n", v,
		       MIN_CACHE_LINE);
		return -EINVAL;
	}
	if (v > dma_get_cache_alignment()) {
		pr_err("cache_line=%u: larger than the kernel's DMA alignment, %d (CONFIG_DMA_OWNER_DEBUG_CACHE_LINE sets 128)\n",
		       v, dma_get_cache_alignment());
		return -EINVAL;
	}
	cache_line = v;
	return 0;
}

static const struct kernel_param_ops cache_line_ops = {
	.set = cache_line_set,
	.get = param_get_int,
};

/* At boot only: the index holds lines of the size they were added with. */
module_param_cb(cache_line, &cache_line_ops, &cache_line, 0444);
MODULE_PARM_DESC(cache_line,
		 "Cache line size for cache-line-shared (a power of 2 from 16 to the DMA alignment; 0: no check; default: the DMA alignment)");

/* The first lines of mappings, and their last lines, each by line. */
static struct hlist_bl_head *lines[2];
static unsigned int lines_shift;
/* cache_line - 1 while the index is there, else 0: see owner.h. */
unsigned int dma_owner_line_mask __ro_after_init;

/**
 * dma_owner_cache_line() - the line size the check works with
 *
 * Return: the size in bytes, or 0 when the check is off.
 */
unsigned int dma_owner_cache_line(void)
{
	return lines[0] ? cache_line : 0;
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_cache_line);

/**
 * dma_owner_lines_init() - allocate the index of lines
 *
 * Without it, the check is off; the rest of the tracker works on.
 *
 * Return: 0 or -ENOMEM.
 */
int __init dma_owner_lines_init(void)
{
	if (cache_line < 0)
		cache_line = dma_get_cache_alignment() >= MIN_CACHE_LINE ?
			     dma_get_cache_alignment() : 0;
	if (!cache_line)
		return 0;
	/* A quarter as many buckets as the table: few mappings go here. */
	lines_shift = max(dma_owner_table_shift, 10U) - 2;
	lines[0] = kvcalloc(1UL << lines_shift, sizeof(*lines[0]),
			    GFP_KERNEL | __GFP_NOWARN);
	lines[1] = kvcalloc(1UL << lines_shift, sizeof(*lines[1]),
			    GFP_KERNEL | __GFP_NOWARN);
	if (!lines[0] || !lines[1]) {
		kvfree(lines[0]);
		kvfree(lines[1]);
		lines[0] = NULL;
		return -ENOMEM;
	}
	dma_owner_line_mask = cache_line - 1;
	return 0;
}

/**
 * __dma_owner_lines_wanted() - does a new mapping go in the index?
 * @phys: its buffer's physical address, 0 if not known
 * @size: its length
 * @attrs: DMA_ATTR_* of the map call
 * @api: the map function's family
 *
 * Memory from the allocators fills whole pages, a resource is not memory,
 * and a DMA_ATTR_SKIP_CPU_SYNC mapping's owner keeps the caches itself.
 * Where small kmalloc() objects are not aligned for DMA, the kernel bounces
 * them for every device that needs it (CONFIG_DMA_BOUNCE_UNALIGNED_KMALLOC):
 * their lines are never synced.
 *
 * Asked only of a buffer that starts or ends inside a line
 * (dma_owner_lines_wanted()).
 *
 * Return: true if its first or last line may be shared.
 */
bool __dma_owner_lines_wanted(phys_addr_t phys, size_t size,
			      unsigned long attrs, enum dma_owner_api api)
{
	if (!lines[0] || !phys || (attrs & DMA_ATTR_SKIP_CPU_SYNC) ||
	    (api != DMA_OWNER_API_PAGE && api != DMA_OWNER_API_SG))
		return false;
	if (IS_ENABLED(CONFIG_DMA_BOUNCE_UNALIGNED_KMALLOC) &&
	    !dma_kmalloc_size_aligned(size) && pfn_valid(PHYS_PFN(phys)) &&
	    PageSlab(pfn_to_page(PHYS_PFN(phys))))
		return false;
	return (phys | (phys + size)) & (cache_line - 1);
}

/* The line of link @i (0: the first, 1: the last) of @we. */
static u64 line_of(const struct dma_owner_wide_entry *we, unsigned int i)
{
	return (i ? we->phys + we->e.size - 1 : we->phys) >> ilog2(cache_line);
}

/* Does @we leave line @i partly to others? */
static bool line_partial(const struct dma_owner_wide_entry *we, unsigned int i)
{
	phys_addr_t end = i ? we->phys + we->e.size : we->phys;

	if (i && line_of(we, 0) == line_of(we, 1) && line_partial(we, 0))
		return false;	/* one line, linked once */
	return end & (cache_line - 1);
}

static struct hlist_bl_head *line_bucket(unsigned int i, u64 line)
{
	return &lines[i][hash_64(line, lines_shift)];
}

/* A bucket of the index is locked as one of the table is, with a bit. */
static void lock_line_bucket(struct hlist_bl_head *b, unsigned long *flags)
{
	local_irq_save(*flags);
	hlist_bl_lock(b);
}

static void unlock_line_bucket(struct hlist_bl_head *b, unsigned long flags)
{
	hlist_bl_unlock(b);
	local_irq_restore(flags);
}

static enum dma_data_direction dir_of(const struct dma_owner_entry *e)
{
	/*
	 * The direction never changes once mapped; the bits beside it in the
	 * same word do, under the table's lock, which the index does not take.
	 */
	return data_race((enum dma_data_direction)e->dir);
}

static bool writable(const struct dma_owner_entry *e)
{
	return dir_of(e) == DMA_FROM_DEVICE || dir_of(e) == DMA_BIDIRECTIONAL;
}

/* The mapping whose link @i is @node. */
static struct dma_owner_wide_entry *link_owner(struct hlist_bl_node *node,
					       unsigned int i)
{
	if (i)
		return container_of(node, struct dma_owner_wide_entry, line[1]);
	return container_of(node, struct dma_owner_wide_entry, line[0]);
}

/*
 * Can @a and @b, both with a byte in @line, corrupt each other? Not if they
 * overlap: that is the same memory mapped twice (identical handles), which
 * needs no line of its own to go wrong. Nor if one dma_map_sg() call made
 * both: to the DMA API that is one mapping, with one direction, synced and
 * unmapped as one; the rule is about separately mapped regions.
 */
static bool clash(const struct dma_owner_wide_entry *a,
		  const struct dma_owner_wide_entry *b)
{
	if (a->phys < b->phys + b->e.size && b->phys < a->phys + a->e.size)
		return false;
	if (a->sg_call && a->sg_call == b->sg_call && a->e.dev == b->e.dev)
		return false;
	return writable(&a->e) || writable(&b->e);
}

/**
 * dma_owner_lines_add() - put a new mapping's partial lines in the index
 * @we: its entry, not yet in the table
 * @sgl: the sg list of the dma_map_sg() call that made it, or NULL
 * @sharer: set to a mapping it shares a line with, if any
 *
 * Called before the entry enters the table, with no bucket of the table
 * locked: an index lock is never held together with a table lock, nor
 * with another index lock. What is read of the other mapping never changes
 * while it is mapped, and it leaves the index before it is freed.
 *
 * Context: any; does not sleep.
 * Return: true if it shares a line with a mapping in a way that can
 * corrupt data; @sharer then says which.
 */
bool dma_owner_lines_add(struct dma_owner_wide_entry *we,
			 const struct scatterlist *sgl,
			 struct dma_owner_sharer *sharer)
{
	struct dma_owner_wide_entry *other;
	struct hlist_bl_node *pos;
	struct hlist_bl_head *b;
	unsigned int i, t;
	bool found = false;
	unsigned long flags;
	u64 line;

	/*
	 * The list's address names the call among live mappings; its low
	 * bits are enough, and bit 0 (always clear) keeps 0 for "no call".
	 */
	we->sg_call = sgl ? lower_32_bits((uintptr_t)sgl) | 1 : 0;
	/*
	 * Linked first, then the lines scanned: of two mappings of one line
	 * made at once on two CPUs, the one that scans last finds the other,
	 * whichever buckets each is linked in. Scanning one bucket and linking
	 * into another, each could miss the other.
	 */
	for (i = 0; i < 2; i++) {
		if (!line_partial(we, i))
			continue;
		b = line_bucket(i, line_of(we, i));
		lock_line_bucket(b, &flags);
		hlist_bl_add_head(&we->line[i], b);
		unlock_line_bucket(b, flags);
	}
	for (i = 0; i < 2 && !found; i++) {
		if (!line_partial(we, i))
			continue;
		line = line_of(we, i);
		/* Others' first lines, and their last lines, in this line. */
		for (t = 0; t < 2 && !found; t++) {
			b = line_bucket(t, line);
			lock_line_bucket(b, &flags);
			for (pos = hlist_bl_first(b); pos && !found; pos = pos->next) {
				other = link_owner(pos, t);
				if (other == we || line_of(other, t) != line ||
				    !clash(we, other))
					continue;
				found = true;
				sharer->line = line << ilog2(cache_line);
				sharer->handle = other->e.handle;
				sharer->size = other->e.size;
				sharer->dir = dir_of(&other->e);
				sharer->map_stack = other->e.map_stack;
				sharer->map_jiffies = other->e.map_jiffies;
				strscpy(sharer->dev, dma_owner_dev_name(other->e.dev),
					sizeof(sharer->dev));
			}
			unlock_line_bucket(b, flags);
		}
	}
	return found;
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_lines_add);

/**
 * dma_owner_lines_del() - take a mapping's lines out of the index
 * @we: its entry, out of the table
 *
 * Context: any; does not sleep.
 */
void dma_owner_lines_del(struct dma_owner_wide_entry *we)
{
	struct hlist_bl_head *b;
	unsigned long flags;
	unsigned int i;

	/* dma_owner_lines_add() linked the partial ones. */
	for (i = 0; i < 2; i++) {
		if (!line_partial(we, i))
			continue;
		b = line_bucket(i, line_of(we, i));
		lock_line_bucket(b, &flags);
		hlist_bl_del(&we->line[i]);
		unlock_line_bucket(b, flags);
	}
}
