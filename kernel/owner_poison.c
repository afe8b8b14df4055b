// SPDX-License-Identifier: GPL-2.0
/*
 * DMA ownership tracker: the bytes a device owns, poisoned in KASAN's shadow.
 *
 * The ownership checks see the calls, not the accesses: a driver that reads
 * a buffer before dma_sync_*_for_cpu(), or writes one the device owns,
 * makes no wrong call, and on a non-coherent or bounce-buffered machine
 * reads stale data or loses its write. With dma_owner.poison=1 (generic
 * KASAN), the bytes the device owns in a mapping it may write
 * (DMA_FROM_DEVICE, DMA_BIDIRECTIONAL) are poisoned from the map or the sync
 * for the device until the sync for the CPU or the unmap; kasan_report()
 * hands an access to them to dma_owner_report_access(), which names the
 * mapping. mm/kasan/dma.c keeps the shadow; this file decides what is
 * poisoned.
 *
 * The DMA API's own accesses stay silent: a mapping is poisoned after the
 * map, once swiotlb has copied the buffer out; swiotlb's copy in a sync for
 * the device runs paused (dma_owner_poison_pause()); the sync for the CPU
 * and the unmap unpoison before swiotlb copies the buffer back (the hooks'
 * places in kernel/dma/mapping.c). Every shadow change is made under the
 * mapping's bucket lock, or while the entry is out of the table, so it
 * follows the owners the checks see.
 *
 * A report needs the mapping of a CPU address, which the table, keyed by
 * handle, cannot give: poisoned mappings are also indexed by physical
 * address, as the table indexes handles (a chunk per size level), in an
 * index of their own under one lock; a report looks at two chunks a level.
 *
 * A report must be justified by a mapping whose device owns the byte: a
 * sync that may mean more than one mapping (identical handles) poisons
 * nothing, an access to a byte that another mapping gives the CPU is not
 * reported, and one whose byte no mapping's device owns any more is let
 * through, its poison lifted.
 */

#define pr_fmt(fmt) "dma-owner: " fmt

#include <linux/dma-mapping.h>
#include <linux/dma-owner-poison.h>
#include <linux/io.h>
#include <linux/kasan.h>
#include <linux/kfence.h>
#include <linux/kstrtox.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/slab.h>
#include <linux/stacktrace.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "owner.h"

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "dma_owner."

DEFINE_STATIC_KEY_FALSE(dma_owner_poison_key);
EXPORT_SYMBOL_IF_KUNIT(dma_owner_poison_key);

static bool poison;

/*
 * With dma_owner.poison off, the one device whose mappings are poisoned
 * (the KUnit suite's, while a poison case runs): the suite must neither
 * poison a real driver's mappings made meanwhile nor, on a poison=1
 * boot, switch poisoning off for the drivers when its case ends.
 */
struct device *dma_owner_poison_only;
EXPORT_SYMBOL_IF_KUNIT(dma_owner_poison_only);

/* A poisoned mapping: a wide entry, in the index by physical address. */
struct poison_entry {
	struct dma_owner_wide_entry we;
	struct hlist_node node;
	/*
	 * The shadow follows the owners in every byte: set by a whole
	 * dma_owner_poison_apply() that may poison, cleared by one that may
	 * not and when a breach lifts the poison. Only then may a sync
	 * rewrite no more than the bytes it moves.
	 */
	bool shadow_follows;
};

#define INDEX_BITS	12
static struct kmem_cache *poison_cache;
static struct hlist_head *poison_index;
static unsigned long index_levels;	/* the levels that have had an entry */
static DEFINE_RAW_SPINLOCK(index_lock);

static struct poison_entry *to_poison_entry(struct dma_owner_entry *e)
{
	return container_of(dma_owner_to_wide_entry(e), struct poison_entry, we);
}

static struct hlist_head *index_head(unsigned int level, u64 chunk)
{
	return &poison_index[hash_64(chunk << 3 | level, INDEX_BITS)];
}

static int poison_set(const char *val, const struct kernel_param *kp)
{
	bool on;

	if (kstrtobool(val, &on)) {
		pr_err("dma_owner.poison=%s: want 0 or 1, ignored\n", val);
		return -EINVAL;
	}
	if (on && !IS_ENABLED(CONFIG_DMA_OWNER_POISON)) {
		pr_err("dma_owner.poison=1 needs a kernel built with CONFIG_KASAN_GENERIC: not poisoning\n");
		return -EINVAL;
	}
	poison = on;
	return 0;
}

static const struct kernel_param_ops poison_ops = {
	.set = poison_set,
	.get = param_get_bool,
};

/* Boot only: the shadow of mappings made before would not follow a change. */
module_param_cb(poison, &poison_ops, &poison, 0444);
MODULE_PARM_DESC(poison,
		 "Poison the bytes devices own in KASAN's shadow, to catch CPU accesses to them (needs CONFIG_KASAN_GENERIC)");

/**
 * dma_owner_poison_init() - start poisoning if dma_owner.poison=1 asked
 */
void __init dma_owner_poison_init(void)
{
	/* Made on every kernel that can poison: the KUnit suite poisons too. */
	if (!IS_ENABLED(CONFIG_DMA_OWNER_POISON))
		return;
	poison_cache = KMEM_CACHE(poison_entry, 0);
	poison_index = kcalloc(1 << INDEX_BITS, sizeof(*poison_index), GFP_KERNEL);
	if (!poison_cache || !poison_index) {
		kmem_cache_destroy(poison_cache);
		kfree(poison_index);
		poison_cache = NULL;
		poison_index = NULL;
		if (poison)
			pr_err("cannot allocate the index of poisoned mappings: not poisoning\n");
		return;
	}
	if (!poison)
		return;
	static_branch_enable(&dma_owner_poison_key);
	pr_info("poisoning the bytes devices own in KASAN's shadow (dma_owner.poison=1)\n");
}

/**
 * dma_owner_poison_ready() - can mappings be poisoned?
 *
 * Return: true if the index of poisoned mappings was allocated.
 */
bool dma_owner_poison_ready(void)
{
	return !!poison_index;
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_poison_ready);

/**
 * __dma_owner_poison_wanted() - shall a new mapping's device bytes be poisoned?
 * @dev: the device
 * @phys: CPU physical address of the buffer, 0 if unknown
 * @size: its length
 * @dir: its direction
 * @attrs: DMA_ATTR_* of the map call
 * @api: the map or allocation function
 *
 * Only the kernel's own memory in the linear map, which KASAN's shadow
 * covers and the CPU reaches through it, of a mapping the device may write,
 * made with a sync (see dma_owner_poison_apply()). A resource is not
 * memory, noncontiguous memory is reached through a vmap, reserved pages
 * and device memory may have no shadow of their own (KASAN maps its
 * read-only zero page there), and user memory (an O_DIRECT buffer, the page
 * cache) is the user's to read at any time, through a mapping KASAN does
 * not see or through the kernel (/proc/PID/mem, a core dump).
 *
 * Return: true if it shall.
 */
bool __dma_owner_poison_wanted(struct device *dev, phys_addr_t phys,
			       size_t size, enum dma_data_direction dir,
			       unsigned long attrs, enum dma_owner_api api)
{
	unsigned long first = PHYS_PFN(phys), last = PHYS_PFN(phys + size - 1);
	unsigned long pfn;
	struct folio *folio;
	struct page *page;

	if (!IS_ENABLED(CONFIG_DMA_OWNER_POISON))
		return false;
	if (!poison && dev != READ_ONCE(dma_owner_poison_only))
		return false;
	if (!phys || !size || (dir != DMA_FROM_DEVICE && dir != DMA_BIDIRECTIONAL) ||
	    (attrs & DMA_ATTR_SKIP_CPU_SYNC))
		return false;
	if (api != DMA_OWNER_API_PAGE && api != DMA_OWNER_API_SG &&
	    api != DMA_OWNER_API_PAGES)
		return false;
	for (pfn = first; pfn <= last; pfn++) {
		if (!pfn_valid(pfn))
			return false;
		page = pfn_to_page(pfn);
		if (PageHighMem(page) || PageReserved(page) ||
		    is_zone_device_page(page))
			return false;
		folio = page_folio(page);
		if (!folio_test_slab(folio) &&
		    (folio_test_anon(folio) || folio->mapping))
			return false;
	}
	/*
	 * A KFENCE object is freed through kfence_free(), which returns
	 * before KASAN's free hook: its free while mapped would go unseen,
	 * and the slot's next owner be blamed for the poison left behind.
	 */
	if (is_kfence_address(phys_to_virt(phys)))
		return false;
	/* The stack and the image are reported as bad-memory, not poisoned. */
	return !dma_owner_bad_memory(phys, size);
}

static u8 *buffer_of(struct dma_owner_entry *e)
{
	return phys_to_virt(dma_owner_to_wide_entry(e)->phys);
}

/**
 * dma_owner_poison_apply() - make the shadow follow a mapping's owners
 * @e: a poisoned entry, its bucket locked or not yet in the table
 * @may_poison: false if the call that changed @e may have meant another
 *		mapping: then nothing is poisoned, only the CPU's bytes freed
 *
 * The device's bytes are poisoned, whole granules only; every granule that
 * holds a byte of the CPU's is unpoisoned. An inexact entry's CPU range
 * holds every byte the CPU may own, so the rest is the device's for sure.
 * A mapping made with DMA_ATTR_SKIP_CPU_SYNC is not: the checks take its
 * bytes as the device's from the map, but the CPU keeps those it has not
 * synced for the device yet (page_pool's fragments), and which ones they
 * are is not kept.
 */
void dma_owner_poison_apply(struct dma_owner_entry *e, bool may_poison)
{
	u8 *buf = buffer_of(e);
	unsigned int i, n;
	u32 at = 0, lo, hi;

	if (!IS_ENABLED(CONFIG_DMA_OWNER_POISON))
		return;
	to_poison_entry(e)->shadow_follows = may_poison && !e->skip_sync;
	if (!may_poison || e->skip_sync) {
		kasan_unpoison_dma(buf, e->size);
		return;
	}
	n = e->fragmented ? e->ranges->nr : e->cpu_lo != e->cpu_hi;
	for (i = 0; i < n; i++) {
		lo = e->fragmented ? e->ranges->r[i].lo : e->cpu_lo;
		hi = e->fragmented ? e->ranges->r[i].hi : e->cpu_hi;
		if (lo > at)
			kasan_poison_dma(buf + at, lo - at);
		kasan_unpoison_dma(buf + lo, hi - lo);
		at = hi;
	}
	if (at < e->size)
		kasan_poison_dma(buf + at, e->size - at);
}

#ifdef CONFIG_DMA_OWNER_POISON
#define GRANULE		BIT(KASAN_SHADOW_SCALE_SHIFT)
#else
#define GRANULE		8UL
#endif

/**
 * dma_owner_poison_move() - make the shadow follow one move of bytes
 * @e: a poisoned entry, its bucket locked
 * @lo: first byte moved, an offset from its handle
 * @hi: end of the bytes moved
 * @to_cpu: moved to the CPU, else to the device
 * @may_poison: as for dma_owner_poison_apply()
 *
 * Only the shadow of the bytes moved is rewritten, and of the granules at
 * their ends: a partial sync of a large ring costs its own length, not the
 * ring's. What the whole would give (dma_owner_poison_apply()) is what
 * this gives, for an exact entry whose shadow followed its owners before
 * the move; the others are redone whole.
 */
void dma_owner_poison_move(struct dma_owner_entry *e, u32 lo, u32 hi,
			   bool to_cpu, bool may_poison)
{
	unsigned long buf = (unsigned long)buffer_of(e);
	u32 edge;

	if (!IS_ENABLED(CONFIG_DMA_OWNER_POISON))
		return;
	if (!may_poison || e->skip_sync || e->inexact ||
	    !to_poison_entry(e)->shadow_follows) {
		dma_owner_poison_apply(e, may_poison);
		return;
	}
	if (to_cpu) {
		kasan_unpoison_dma((void *)(buf + lo), hi - lo);
		return;
	}
	/*
	 * A granule at either end is the device's whole if the CPU owns none
	 * of its bytes outside the move; one that holds bytes outside the
	 * mapping never is (kasan_poison_dma() takes whole granules only).
	 */
	edge = max_t(long, (long)(round_down(buf + lo, GRANULE) - buf), 0);
	if (edge < lo && !dma_owner_cpu_owns_any(e, edge, lo))
		lo = edge;
	edge = min_t(unsigned long, round_up(buf + hi, GRANULE) - buf, e->size);
	if (edge > hi && !dma_owner_cpu_owns_any(e, hi, edge))
		hi = edge;
	kasan_poison_dma((void *)(buf + lo), hi - lo);
}

/**
 * dma_owner_poison_alloc() - allocate the entry of a mapping to poison
 *
 * Context: any; does not sleep.
 * Return: a zeroed wide entry, or NULL.
 */
struct dma_owner_wide_entry *dma_owner_poison_alloc(void)
{
	struct poison_entry *pe;

	pe = kmem_cache_zalloc(poison_cache, GFP_NOWAIT | __GFP_NOWARN);
	return pe ? &pe->we : NULL;
}

/**
 * dma_owner_poison_index() - index a new poisoned entry by its memory
 * @e: the entry, its size, level and memory set, not yet in the table
 */
void dma_owner_poison_index(struct dma_owner_entry *e)
{
	struct poison_entry *pe = to_poison_entry(e);
	u64 chunk = pe->we.phys >> DMA_OWNER_LEVEL_SHIFT(e->level);
	unsigned long flags;

	raw_spin_lock_irqsave(&index_lock, flags);
	__set_bit(e->level, &index_levels);
	hlist_add_head(&pe->node, index_head(e->level, chunk));
	raw_spin_unlock_irqrestore(&index_lock, flags);
}

/**
 * dma_owner_poison_free() - unpoison, unindex and free a poisoned entry
 * @e: the entry, out of the table
 *
 * Before the unmap's swiotlb copy, and before the memory can be freed.
 */
void dma_owner_poison_free(struct dma_owner_entry *e)
{
	struct poison_entry *pe = to_poison_entry(e);
	unsigned long flags;

	if (IS_ENABLED(CONFIG_DMA_OWNER_POISON) && pe->we.phys)
		kasan_unpoison_dma(buffer_of(e), e->size);
	if (!hlist_unhashed(&pe->node)) {
		raw_spin_lock_irqsave(&index_lock, flags);
		hlist_del(&pe->node);
		raw_spin_unlock_irqrestore(&index_lock, flags);
	}
	kmem_cache_free(poison_cache, pe);
}

/**
 * __dma_owner_poison_freed() - was a mapping's memory freed before its unmap?
 * @e: an entry, its bucket locked or out of the table
 *
 * KASAN's shadow tells, for a poisoned mapping, whether the object or page
 * its first byte is in was freed (and not yet reused). A free while the
 * device owned some of it was reported then (dma_owner_report_free()).
 *
 * Return: true if it was, and not yet reported.
 */
bool __dma_owner_poison_freed(struct dma_owner_entry *e)
{
	if (!IS_ENABLED(CONFIG_DMA_OWNER_POISON))
		return false;
	return !dma_owner_to_wide_entry(e)->freed_reported &&
	       kasan_dma_freed(buffer_of(e));
}

#ifdef CONFIG_DMA_OWNER_POISON

/* A bucket, locked from a KASAN report: never wait for long. */
static bool trylock_bucket(struct dma_owner_bucket *b)
{
	unsigned int spins;

	for (spins = 0; spins < 1000; spins++) {
		if (bit_spin_trylock(0, (unsigned long *)b))
			return true;
		cpu_relax();
	}
	return false;
}

static void unlock_bucket(struct dma_owner_bucket *b)
{
	__bit_spin_unlock(0, (unsigned long *)b);
}

/*
 * The poisoned mapping whose device owns the byte at @addr, copied to
 * @snap with the byte's offset; none if another poisoned mapping that
 * holds the byte gives it to the CPU, or may (the access may be through
 * that one). The mapping's poison is lifted, so that one breach makes one
 * report and the driver runs on; its next transition poisons again.
 *
 * Each entry's bucket is locked (index lock, then bucket lock: nothing
 * takes the index lock under a bucket lock) to read its owners.
 */
static bool find_owner(const void *addr, bool freed,
		       struct dma_owner_entry *snap, u32 *offset)
{
	phys_addr_t phys = virt_to_phys((void *)addr);
	bool found = false, cpu = false;
	unsigned long flags, levels;
	struct poison_entry *pe;
	struct dma_owner_bucket *b;
	struct dma_owner_entry *e;
	unsigned int level, i;
	u64 chunk;
	u32 off;

	raw_spin_lock_irqsave(&index_lock, flags);
	for (levels = index_levels; levels && !cpu; levels &= levels - 1) {
		level = __ffs(levels);
		for (i = 0; i < 2 && !cpu; i++) {
			chunk = (phys >> DMA_OWNER_LEVEL_SHIFT(level)) - i;
			hlist_for_each_entry(pe, index_head(level, chunk), node) {
				e = &pe->we.e;
				if (e->level != level ||
				    pe->we.phys >> DMA_OWNER_LEVEL_SHIFT(level) != chunk ||
				    phys < pe->we.phys || phys - pe->we.phys >= e->size)
					continue;
				b = dma_owner_bucket(e->dev, e->level,
						     dma_owner_entry_chunk(e));
				if (!trylock_bucket(b))
					continue;
				off = phys - pe->we.phys;
				/* Not linked yet, or unlinked already. */
				if (!dma_owner_bucket_holds(b, e)) {
					unlock_bucket(b);
					continue;
				}
				if (e->skip_sync || dma_owner_cpu_owns_any(e, off, off + 1)) {
					cpu = true;
				} else if (!found) {
					dma_owner_snapshot(snap, e);
					*offset = off;
					if (freed)
						pe->we.freed_reported = 1;
					kasan_unpoison_dma(buffer_of(e), e->size);
					pe->shadow_follows = false;
					found = true;
				}
				unlock_bucket(b);
				if (cpu)
					break;
			}
			if (!chunk)
				break;
		}
	}
	raw_spin_unlock_irqrestore(&index_lock, flags);
	return found && !cpu;
}

static void report_breach(enum dma_owner_kind kind,
			  enum dma_owner_access access, const void *addr,
			  size_t size, const void *owned, unsigned long ip)
{
	struct dma_owner_report r = {
		.kind = kind, .caller = ip, .access = access,
		.has_entry = true,
	};

	/*
	 * While tracking is switched, or the filter changes, an unmap may
	 * have gone unseen before the table is emptied: nothing is justified.
	 */
	if (!dma_owner_tracking() || READ_ONCE(dma_owner_settling) ||
	    !find_owner(owned, access == DMA_OWNER_ACCESS_FREE, &r.entry,
			&r.access_offset)) {
		/* No mapping justifies it: let it through, unreported. */
		kasan_unpoison_dma(addr, size);
		return;
	}
	r.dev = r.entry.dev;
	r.addr = r.entry.handle + r.access_offset;
	r.size = size;
	r.dir = r.entry.dir;
	r.api = r.entry.api;
	dma_owner_report(&r);
}

/**
 * dma_owner_report_access() - KASAN caught the CPU at a device's bytes
 * @addr: the first byte of the access the device owns
 * @size: the access's length from there
 * @is_write: a write, else a read
 * @ip: the instruction
 *
 * Called by kasan_report() for a byte poisoned by dma_owner_poison_apply(),
 * which then reports nothing of its own and lets the access go on.
 */
void dma_owner_report_access(const void *addr, size_t size, bool is_write,
			     unsigned long ip)
{
	/* Nothing in the report path may trap again. */
	kasan_disable_current();
	rcu_read_lock();
	report_breach(is_write ? DMA_OWNER_CPU_WRITE_WHILE_DEVICE_OWNED :
				 DMA_OWNER_CPU_READ_WHILE_DEVICE_OWNED,
		      is_write ? DMA_OWNER_ACCESS_WRITE : DMA_OWNER_ACCESS_READ,
		      addr, size, addr, ip);
	rcu_read_unlock();
	kasan_enable_current();
}

/*
 * The free's caller: KASAN's hooks run deep in the slab and page
 * allocators, so the first frame after them, as KFENCE finds its
 * allocation sites (mm/kfence/report.c).
 */
static unsigned long free_caller(unsigned long ip)
{
	static const char *const allocator[] = {
		"kasan_", "__kasan_", "check_slab_allocation", "kfree",
		"kmem_cache_free", "slab_free", "__slab_free", "do_slab_free",
		"free_large_kmalloc", "kvfree", "__free_pages", "free_pages",
		"free_unref_page", "free_the_page", "__free_frozen_pages",
		"__folio_put", "folio_put", "put_page", "__put_page",
		"mempool_free", "free_pages_prepare",
	};
	unsigned long frames[12];
	unsigned int n, i, j, first = 0;
	char sym[48];

	n = stack_trace_save(frames, ARRAY_SIZE(frames), 1);
	for (i = 0; i < n; i++) {
		/* Long enough for the prefixes; longer names are cut. */
		scnprintf(sym, sizeof(sym), "%ps", (void *)frames[i]);
		for (j = 0; j < ARRAY_SIZE(allocator); j++)
			if (str_has_prefix(sym, allocator[j]))
				break;
		if (j < ARRAY_SIZE(allocator))
			first = i + 1;
		else if (first)
			break;
	}
	return first && first < n ? frames[first] : ip;
}

/**
 * dma_owner_report_free() - memory is freed that a device owns bytes of
 * @addr: the object or pages freed
 * @size: their length
 * @owned: the first byte the device owns
 * @ip: the free's caller
 *
 * Called by KASAN's free hooks, which unpoison the memory after.
 */
void dma_owner_report_free(const void *addr, size_t size, const void *owned,
			   unsigned long ip)
{
	kasan_disable_current();
	rcu_read_lock();
	report_breach(DMA_OWNER_FREED_WHILE_MAPPED, DMA_OWNER_ACCESS_FREE,
		      addr, size, owned, free_caller(ip));
	rcu_read_unlock();
	kasan_enable_current();
}

#endif /* CONFIG_DMA_OWNER_POISON */
