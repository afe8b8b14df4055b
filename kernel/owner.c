// SPDX-License-Identifier: GPL-2.0
/*
 * DMA ownership tracker: the state machine. Every map, sync and unmap is
 * judged against the live mappings it may mean (owner_table.c), the bytes
 * each side owns move (owner_ranges.c), and violations go to the report
 * path (owner_report.c). The hooks in kernel/dma/mapping.c call in here.
 */

#define pr_fmt(fmt) "dma-owner: " fmt

#include <linux/bitops.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/jhash.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <kunit/visibility.h>

#include "owner.h"

#define CREATE_TRACE_POINTS
#include <trace/events/dma_owner.h>

/* A driver's own test module may count the reports its misuse draws. */
EXPORT_TRACEPOINT_SYMBOL_GPL(dma_owner_violation);

/* ---------------------------------------------------------------------- */
/* Calls and the mappings they may mean                                   */

/* One DMA API call, as the tracker judges it. */
struct call {
	struct device *dev;
	dma_addr_t addr;
	size_t size;
	enum dma_data_direction dir;
	enum dma_owner_op op;
	enum dma_owner_api api;		/* of a map or an unmap */
	int nents;			/* of an sg call: the count passed */
	const void *cpu_addr;		/* of a coherent free */
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
	struct dma_owner_bucket *b;	/* the best one's bucket */
	struct dma_owner_entry *e;	/* the best one */
	unsigned long kinds;		/* the kinds it draws */
	unsigned int score;		/* lower is better */
	u32 owner_sig;			/* who owns what in it, if @b is not held */
	bool tie_differs;		/* one as good differs from it */
	bool need_spare;		/* a sync may fragment it */
	bool skip_sync;			/* a candidate was mapped so */
	bool held;			/* @b is still locked */
};

/* May a sync of @addr for @dev mean @e? */
static __always_inline bool holds(const struct dma_owner_entry *e,
				  const struct device *dev, dma_addr_t addr)
{
	/* Coherent memory is never synced: no sync means it. */
	return e->dev == dev && e->api != DMA_OWNER_API_COHERENT &&
	       addr >= e->handle && addr - e->handle < e->size;
}

/* Does @e start at @addr of @dev, as the mapping an unmap names must? */
static __always_inline bool starts_at(const struct dma_owner_entry *e,
				      const struct device *dev, dma_addr_t addr)
{
	return e->dev == dev && e->handle == addr;
}

/* May the call mean @e? Inline: every call asks of each entry it sees. */
static __always_inline bool fits(const struct call *c,
				 const struct dma_owner_entry *e)
{
	if (c->op == DMA_OWNER_OP_UNMAP)
		return starts_at(e, c->dev, c->addr);
	return holds(e, c->dev, c->addr);
}

/* The bytes of @e a sync names, cut to the mapping. */
static __always_inline void call_range(const struct call *c,
				       const struct dma_owner_entry *e,
				       u32 *lo, u32 *hi)
{
	u32 off = c->addr - e->handle;

	*lo = off;
	*hi = off + min_t(u64, c->size, e->size - off);
}

/*
 * May @c sync @e for the device while the device owns it? Only memory the
 * device writes, and only where the DMA API asks for a sync for the CPU
 * before the CPU touches it, makes a sync for the device without one
 * before a sign that the CPU wrote behind the device's back.
 * Documentation/core-api/dma-api.rst asks for a sync for the device "after
 * writing values that will be written to the device" and for one for the
 * CPU only "before reading values that have been written by DMA from the
 * device": a buffer the device only reads is refilled and synced for the
 * device again and again (io-pgtable-arm's page tables, gve's TX pages,
 * ALSA playback, videobuf2 output). Non-coherent memory (Part II) is synced
 * for the device "before giving the memory to the device", whatever came
 * before: a cancelled transfer hands it back unread (uvc on resume). And a
 * mapping made with DMA_ATTR_SKIP_CPU_SYNC belongs to an owner that keeps
 * the caches itself (page_pool, AF_XDP, half-page reuse): it syncs a buffer
 * for the device whenever it hands it out or takes it back.
 */
static bool never_redundant(const struct call *c,
			    const struct dma_owner_entry *e)
{
	return e->skip_sync || c->dir == DMA_TO_DEVICE ||
	       e->api == DMA_OWNER_API_PAGES ||
	       e->api == DMA_OWNER_API_NONCONTIGUOUS;
}

/*
 * What a sync of bytes [@lo, @hi) of @e (call_range()) would violate, but
 * for the rules of any use (call_kinds()).
 *
 * A sync names the mapping's direction. A bidirectional mapping may be
 * synced in another, as dma-debug allows (kernel/dma/debug.c,
 * check_sync()), but not for the CPU as DMA_TO_DEVICE: a sync for the CPU
 * is made to read what the device wrote, and with that direction swiotlb
 * copies nothing back (swiotlb_sync_single_for_cpu() bounces only for
 * DMA_FROM_DEVICE and DMA_BIDIRECTIONAL) and arm64 does not invalidate
 * (arch_sync_dma_for_cpu() returns at once for DMA_TO_DEVICE): the CPU
 * reads stale bytes. A sync for the device as DMA_FROM_DEVICE is let be:
 * swiotlb then does not copy the CPU's writes to the bounce buffer, which
 * loses data only if the CPU wrote since its sync for the CPU, and the
 * calls do not say whether it did (e100_rx_indicate() hands back, so, an
 * RFD whose status it only read).
 */
static __always_inline unsigned long sync_kinds(const struct call *c,
						const struct dma_owner_entry *e,
						u32 lo, u32 hi)
{
	unsigned long kinds = 0;

	if (c->size > e->size - (c->addr - e->handle))
		kinds |= BIT(DMA_OWNER_OUT_OF_RANGE);
	if (e->dir != DMA_BIDIRECTIONAL ? c->dir != e->dir :
	    c->op == DMA_OWNER_OP_SYNC_FOR_CPU && c->dir == DMA_TO_DEVICE)
		kinds |= BIT(DMA_OWNER_DIR_MISMATCH);
	if (c->op == DMA_OWNER_OP_SYNC_FOR_CPU) {
		/* Only an exact set says the CPU owns a byte already. */
		if (!e->inexact && dma_owner_cpu_owns_any(e, lo, hi))
			kinds |= BIT(DMA_OWNER_MISSING_SYNC_FOR_DEVICE);
	} else if (!never_redundant(c, e) && !dma_owner_cpu_owns_any(e, lo, hi)) {
		/* Even an inexact set holds every byte the CPU may own. */
		kinds |= BIT(DMA_OWNER_REDUNDANT_SYNC_FOR_DEVICE);
	}
	return kinds;
}

/* What the call would violate if it meant @e. Inline: every call asks. */
static __always_inline unsigned long call_kinds(const struct call *c,
						const struct dma_owner_entry *e)
{
	unsigned long kinds = 0;
	u32 lo, hi;

	/* Any use of a handle: it must have been checked, and an sg list named as mapped. */
	if (!e->error_checked)
		kinds |= BIT(DMA_OWNER_MAP_ERROR_UNCHECKED);
	if (c->nents && e->api == DMA_OWNER_API_SG &&
	    dma_owner_sg_nents(c->nents) != e->sg_nents)
		kinds |= BIT(DMA_OWNER_SG_COUNT_MISMATCH);
	if (c->op == DMA_OWNER_OP_UNMAP) {
		if (e->size != c->size)
			kinds |= BIT(DMA_OWNER_SIZE_MISMATCH);
		if (e->dir != c->dir)
			kinds |= BIT(DMA_OWNER_DIR_MISMATCH);
		if (e->api != c->api)
			kinds |= BIT(DMA_OWNER_API_MISMATCH);
		else if (e->api == DMA_OWNER_API_COHERENT && e->cpu_addr != c->cpu_addr)
			kinds |= BIT(DMA_OWNER_CPU_ADDRESS_MISMATCH);
		return kinds;
	}
	call_range(c, e, &lo, &hi);
	return kinds | sync_kinds(c, e, lo, hi);
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

/* Could a sync of bytes [@lo, @hi) leave @e's CPU part in more than one range? */
static __always_inline bool need_spare_at(const struct call *c,
					  const struct dma_owner_entry *e,
					  u32 lo, u32 hi)
{
	if (e->fragmented || e->cpu_lo == e->cpu_hi)
		return false;
	if (c->op == DMA_OWNER_OP_SYNC_FOR_CPU)
		return hi < e->cpu_lo || lo > e->cpu_hi;
	return lo > e->cpu_lo && hi < e->cpu_hi;
}

/* Could the call leave @e's CPU part in more than one range? */
static __always_inline bool need_spare(const struct call *c,
				       const struct dma_owner_entry *e)
{
	u32 lo, hi;

	if (c->op == DMA_OWNER_OP_UNMAP)
		return false;
	call_range(c, e, &lo, &hi);
	return need_spare_at(c, e, lo, hi);
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

/*
 * Add the candidates in the bucket of one place, which is locked. Two
 * places may share a bucket, locked once for each: an entry found under
 * another hold of the lock may be gone, only its owners' hash is kept.
 *
 * Return: true if the best candidate is one found now.
 */
static bool scan_place(const struct call *c, struct candidates *k,
		       struct dma_owner_bucket *b, const struct dma_owner_places *pl)
{
	struct dma_owner_entry *e, *best_here = NULL;
	unsigned int score;
	unsigned long kinds;
	u32 best_sig;

	dma_owner_for_each_entry(e, b) {
		/* Each entry is seen at its own place only. */
		if (e->level != pl->level || dma_owner_entry_chunk(e) != pl->chunk ||
		    !fits(c, e))
			continue;
		kinds = call_kinds(c, e);
		score = call_score(c, e, kinds);
		k->n++;
		k->common &= kinds;
		k->skip_sync |= e->skip_sync;
		if (SCORE_CLASS(score) < SCORE_CLASS(k->score)) {
			k->tie_differs = false;
		} else if (SCORE_CLASS(score) == SCORE_CLASS(k->score)) {
			best_sig = best_here ? owner_sig(best_here) : k->owner_sig;
			if (owner_sig(e) != best_sig)
				k->tie_differs = true;
		}
		if (score < k->score) {
			k->score = score;
			k->b = b;
			k->e = e;
			k->kinds = kinds;
			k->need_spare = need_spare(c, e);
			best_here = e;
		}
	}
	return !!best_here;
}

/*
 * Does a mapping at @level starting in @chunk, hashed to @b, hold @addr of
 * @dev? Asked for a sync only; the call's address is not taken, so that
 * the callers of find_only() keep it in registers.
 */
static noinline bool fits_at(const struct device *dev, dma_addr_t addr,
			     struct dma_owner_bucket *b, unsigned int level,
			     u64 chunk)
{
	struct dma_owner_entry *e;
	unsigned long flags;
	bool any = false;

	dma_owner_lock_bucket(b, &flags);
	dma_owner_for_each_entry(e, b) {
		if (e->level == level && dma_owner_entry_chunk(e) == chunk &&
		    holds(e, dev, addr)) {
			any = true;
			break;
		}
	}
	dma_owner_unlock_bucket(b, flags);
	return any;
}

/*
 * The call of almost every correct driver: of the places it may mean (see
 * dma_owner_first_place()), one bucket is in use, and in it one live
 * mapping fits the call. Found without the candidates' bookkeeping, for
 * sync_only() and unmap_only(); find_candidates() would find the same. A
 * sync may also mean a mapping that starts in the chunk before its own, if
 * the device has had one that runs on into the next at that level: when
 * that chunk's bucket is another one, it is looked at first and let go,
 * as the walk does with each place.
 *
 * With @all_places false, only the one-place case below is looked at: the
 * loop over levels, inline, would make a hook that cannot use it save
 * registers for it.
 *
 * Return: that mapping, its bucket locked in @*b; NULL if there is not
 * exactly one such (or, without @all_places, more than one place), and
 * then the caller takes the walk.
 */
static __always_inline struct dma_owner_entry *find_only(const struct call *c,
							 struct dma_owner_bucket **b,
							 unsigned long *flags,
							 bool all_places)
{
	unsigned long levels = READ_ONCE(*dma_owner_levels_of(c->dev));
	struct dma_owner_bucket *here, *before, *only = NULL;
	struct dma_owner_entry *e, *found = NULL;
	unsigned int level, only_level = 0;
	u64 chunk, first, only_first = 0, only_last = 0;
	bool one_place;

	/*
	 * Most devices have used one level, and have never had a mapping that
	 * runs on into the next chunk at it: then the call's chunk at that
	 * level is the one place a mapping it fits can be. No loop over the
	 * levels; an unmap names where its mapping starts, so it always
	 * qualifies. Nor is an entry's place compared: every mapping of the
	 * device that fits the call is at that place (one mapped since, at a
	 * level or across a chunk not seen before, raced with the call, and
	 * the walk would weigh it too).
	 */
	one_place = levels && !(levels & (levels - 1)) &&
		    (c->op == DMA_OWNER_OP_UNMAP ||
		     !(READ_ONCE(*dma_owner_spans_of(c->dev)) & levels));
	if (!one_place && !all_places)
		return NULL;
	if (one_place) {
		only_level = __ffs(levels);
		here = dma_owner_bucket(c->dev, only_level,
					(u64)c->addr >> DMA_OWNER_LEVEL_SHIFT(only_level));
		if (!dma_owner_bucket_empty(here))
			only = here;
	} else {
		/* Bit by bit, inline. */
		for (; levels; levels &= levels - 1) {
			level = __ffs(levels);
			chunk = (u64)c->addr >> DMA_OWNER_LEVEL_SHIFT(level);
			here = dma_owner_bucket(c->dev, level, chunk);
			first = chunk;
			if (c->op != DMA_OWNER_OP_UNMAP && chunk &&
			    test_bit(level, dma_owner_spans_of(c->dev))) {
				before = dma_owner_bucket(c->dev, level, chunk - 1);
				if (before == here)
					first = chunk - 1;
				else if (!dma_owner_bucket_empty(before) &&
					 fits_at(c->dev, c->addr, before, level, chunk - 1))
					return NULL;
			}
			if (dma_owner_bucket_empty(here))
				continue;
			/* A second bucket in use: the walk weighs them. */
			if (only)
				return NULL;
			only = here;
			only_level = level;
			only_first = first;
			only_last = chunk;
		}
	}
	if (!only)
		return NULL;
	dma_owner_lock_bucket(only, flags);
	dma_owner_for_each_entry(e, only) {
		if (!fits(c, e) ||
		    (!one_place && (e->level != only_level ||
				    dma_owner_entry_chunk(e) < only_first ||
				    dma_owner_entry_chunk(e) > only_last)))
			continue;
		if (found) {
			found = NULL;
			break;
		}
		found = e;
	}
	if (!found) {
		dma_owner_unlock_bucket(only, *flags);
		return NULL;
	}
	*b = only;
	return found;
}

/*
 * Every live mapping the call may mean, and the one it suits best. Most
 * calls find one bucket in use among their places: that bucket is left
 * locked, with the best candidate in it, for the transition (@k->held);
 * otherwise each bucket is locked in turn and lock_best() finds the best
 * one again.
 */
static void find_candidates(const struct call *c, struct candidates *k,
			    unsigned long *flags)
{
	bool starts = c->op == DMA_OWNER_OP_UNMAP;
	struct dma_owner_places pl, only;
	struct dma_owner_bucket *b, *only_b = NULL;
	unsigned int used = 0;

	memset(k, 0, sizeof(*k));
	k->common = ~0UL;
	k->score = UINT_MAX;
	for (dma_owner_first_place(&pl, c->dev, c->addr, starts);
	     dma_owner_next_place(&pl);) {
		b = dma_owner_bucket(c->dev, pl.level, pl.chunk);
		if (dma_owner_bucket_empty(b))
			continue;
		if (!used++) {
			only = pl;
			only_b = b;
		}
	}
	if (used == 1) {
		dma_owner_lock_bucket(only_b, flags);
		scan_place(c, k, only_b, &only);
		if (k->n) {
			k->held = true;
			return;
		}
		dma_owner_unlock_bucket(only_b, *flags);
	} else if (used) {
		for (dma_owner_first_place(&pl, c->dev, c->addr, starts);
		     dma_owner_next_place(&pl);) {
			b = dma_owner_bucket(c->dev, pl.level, pl.chunk);
			if (dma_owner_bucket_empty(b))
				continue;
			dma_owner_lock_bucket(b, flags);
			/* The best one's owners, to find it again unlocked. */
			if (scan_place(c, k, b, &pl))
				k->owner_sig = owner_sig(k->e);
			dma_owner_unlock_bucket(b, *flags);
		}
	}
	if (!k->n)
		k->common = 0;
}

/*
 * Lock the best candidate's bucket and check it is still there, still what
 * it was when chosen; else unlock. Another CPU may have moved it meanwhile
 * (the driver racing with itself, or using two identical mappings at once).
 * With @any_owner, one that the call suits as well will do, whoever owns
 * it now: an unmap's kinds do not depend on the owner, and it must not
 * lose to syncs that go on and on.
 */
static bool lock_best(const struct call *c, struct candidates *k,
		      unsigned long *flags, bool any_owner)
{
	struct dma_owner_entry *e;

	if (k->held)
		return true;
	dma_owner_lock_bucket(k->b, flags);
	dma_owner_for_each_entry(e, k->b) {
		/* The one chosen, or a twin of it: either is as good. */
		if (fits(c, e) && call_kinds(c, e) == k->kinds &&
		    (any_owner || owner_sig(e) == k->owner_sig)) {
			k->e = e;
			return true;
		}
	}
	dma_owner_unlock_bucket(k->b, *flags);
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
	bool starts = c->op == DMA_OWNER_OP_UNMAP;
	struct dma_owner_places pl;
	struct dma_owner_entry *e;
	struct dma_owner_bucket *b;
	unsigned long flags;

	for (dma_owner_first_place(&pl, c->dev, c->addr, starts);
	     dma_owner_next_place(&pl);) {
		b = dma_owner_bucket(c->dev, pl.level, pl.chunk);
		dma_owner_lock_bucket(b, &flags);
		dma_owner_for_each_entry(e, b) {
			/* Coherent memory has no owner to blur. */
			if (!fits(c, e) || e->api == DMA_OWNER_API_COHERENT)
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
			if (unlikely(e->poison))
				dma_owner_poison_apply(e, false);
		}
		dma_owner_unlock_bucket(b, flags);
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
		.entry = *snap, .api = c->api, .nents = c->nents,
		.cpu_addr = c->cpu_addr,
	};
	unsigned int kind;

	if (READ_ONCE(dma_owner_settling))
		return;
	for_each_set_bit(kind, &kinds, DMA_OWNER_NR_KINDS) {
		if (v->reported & BIT(kind))
			continue;
		v->reported |= BIT(kind);
		r.kind = kind;
		dma_owner_report(&r);
	}
}

/*
 * Is the address of a sync inside a live coherent allocation? Then the
 * sync is needless, but not a use of an unknown handle.
 */
static bool in_coherent(const struct call *c)
{
	struct dma_owner_places pl;
	struct dma_owner_entry *e;
	struct dma_owner_bucket *b;
	unsigned long flags;
	bool found = false;

	for (dma_owner_first_place(&pl, c->dev, c->addr, false);
	     dma_owner_next_place(&pl);) {
		if (found)
			break;
		b = dma_owner_bucket(c->dev, pl.level, pl.chunk);
		dma_owner_lock_bucket(b, &flags);
		dma_owner_for_each_entry(e, b) {
			if (e->dev == c->dev && e->api == DMA_OWNER_API_COHERENT &&
			    e->level == pl.level &&
			    dma_owner_entry_chunk(e) == pl.chunk &&
			    c->addr >= e->handle && c->addr - e->handle < e->size) {
				found = true;
				break;
			}
		}
		dma_owner_unlock_bucket(b, flags);
	}
	return found;
}

/* No live mapping fits: unknown-handle or use-after-unmap, if we can tell. */
static void report_miss(struct verdict *v, const struct call *c)
{
	struct dma_owner_report r = {
		.op = c->op, .dev = c->dev, .addr = c->addr, .size = c->size,
		.dir = c->dir, .caller = c->caller, .api = c->api,
		.kind = DMA_OWNER_UNKNOWN_HANDLE,
	};

	/*
	 * A hook that passed its static branch just before tracking was
	 * switched off may look after the table was flushed: its miss means
	 * nothing. Asked in the lookup's RCU read section, which the switch
	 * waits for before it flushes (owner_control.c).
	 */
	if (!dma_owner_tracking() ||
	    !dma_owner_may_report_miss(c->dev, c->addr, c->op == DMA_OWNER_OP_UNMAP) ||
	    READ_ONCE(dma_owner_settling))
		return;
	if (c->op != DMA_OWNER_OP_UNMAP && in_coherent(c))
		return;
	if (dma_owner_find_unmapped(c->dev, c->addr, &r)) {
		r.kind = DMA_OWNER_USE_AFTER_UNMAP;
		r.has_entry = true;
	}
	if (v->reported & BIT(r.kind))
		return;
	v->reported |= BIT(r.kind);
	dma_owner_report(&r);
}

/*
 * What the call's arguments alone break (owner_args.c): no mapping is
 * concerned, so none is named; @what says which rule.
 */
static void report_arg(struct verdict *v, const struct call *c,
		       enum dma_owner_kind kind, const char *what, u64 limit)
{
	struct dma_owner_report r = {
		.kind = kind, .op = c->op, .dev = c->dev, .addr = c->addr,
		.size = c->size, .dir = c->dir, .caller = c->caller,
		.api = c->api, .what = what, .limit = limit,
	};

	if (v->reported & BIT(kind))
		return;
	v->reported |= BIT(kind);
	dma_owner_report(&r);
}

/* Content check of a DMA_TO_DEVICE buffer the device owned all along. */
static unsigned long check_csum(struct dma_owner_entry *e)
{
	struct dma_owner_wide_entry *ce;
	u32 csum;

	if (!e->has_csum || !dma_owner_device_owns_all(e))
		return 0;
	ce = dma_owner_to_wide_entry(e);
	if (dma_owner_contents_csum(ce->phys, e->size, &csum) && csum != ce->csum) {
		ce->csum = csum;
		return BIT(DMA_OWNER_CPU_WRITE_WHILE_DEVICE_OWNED);
	}
	return 0;
}

/* A sync counted in its mapping, which keeps how many of each it had. */
static __always_inline void count_sync(struct dma_owner_entry *e, bool to_cpu)
{
	if (to_cpu) {
		if (e->syncs_for_cpu < U8_MAX)
			e->syncs_for_cpu++;
	} else if (e->syncs_for_device < U8_MAX) {
		e->syncs_for_device++;
	}
}

/* Move the bytes the sync names, [@lo, @hi) of @e, to their new owner. */
static __always_inline unsigned long apply_sync(struct dma_owner_entry *e,
						const struct call *c,
						u32 lo, u32 hi,
						struct dma_owner_ranges_mem *mem,
						bool alone)
{
	bool to_cpu = c->op == DMA_OWNER_OP_SYNC_FOR_CPU;
	unsigned long kinds = 0;

	count_sync(e, to_cpu);
	/* Before the CPU gets any byte: was it the device's all along? */
	if (to_cpu && unlikely(e->has_csum))
		kinds |= check_csum(e);
	dma_owner_move_bytes(e, lo, hi, to_cpu, mem);
	/* The device gets what the CPU wrote: checksum that. */
	if (e->has_csum && dma_owner_device_owns_all(e)) {
		struct dma_owner_wide_entry *ce = dma_owner_to_wide_entry(e);

		dma_owner_contents_csum(ce->phys, e->size, &ce->csum);
	}
	/* Poison only where the call surely meant this mapping. */
	if (unlikely(e->poison))
		dma_owner_poison_move(e, lo, hi, to_cpu, alone);
	return kinds;
}

/* The sync's trace event: who owned the bytes before it and after. */
static __always_inline void trace_sync(const struct call *c, int before,
				       int after)
{
	if (c->op == DMA_OWNER_OP_SYNC_FOR_DEVICE)
		trace_dma_owner_sync_for_device(c->dev, c->addr, c->size, c->dir,
						before, after, c->caller);
	else
		trace_dma_owner_sync_for_cpu(c->dev, c->addr, c->size, c->dir,
					     before, after, c->caller);
}

/*
 * A sync that one mapping alone fits (find_only()), that breaks no rule
 * and that leaves the CPU's bytes in one range: moved at once, with no
 * call, so that the hook that inlines it saves no registers. The walk
 * takes every other: a sync traced (the walk traces who owned the bytes
 * before and after), one that may mean an untracked mapping, one of a
 * mapping under the content check or poisoned, and one whose CPU part is
 * or would be in several ranges (which may allocate).
 *
 * @all_places: as for find_only()
 *
 * Return: false if the sync is not such a one; then nothing has changed.
 */
static __always_inline bool sync_only(const struct call *c, bool all_places)
{
	bool to_cpu = c->op == DMA_OWNER_OP_SYNC_FOR_CPU;
	struct dma_owner_entry *e;
	struct dma_owner_bucket *b;
	unsigned long flags;
	u32 lo, hi;

	if (unlikely(atomic_read(&dma_owner_untracked_handles)) ||
	    (to_cpu ? trace_dma_owner_sync_for_cpu_enabled() :
		      trace_dma_owner_sync_for_device_enabled()))
		return false;
	e = find_only(c, &b, &flags, all_places);
	if (!e)
		return false;
	/* Once: the history's byte stores make the compiler read @e again. */
	call_range(c, e, &lo, &hi);
	if (e->has_csum || e->poison || call_kinds(c, e) ||
	    !dma_owner_move_in_one(e, lo, hi, to_cpu)) {
		dma_owner_unlock_bucket(b, flags);
		return false;
	}
	count_sync(e, to_cpu);
	dma_owner_record(e, c->op, c->caller);
	dma_owner_unlock_bucket(b, flags);
	return true;
}

/* Every other sync: each mapping it may mean weighed (find_candidates()). */
static noinline void sync_walk(const struct call *c, struct verdict *v)
{
	int before = DMA_OWNER_STATE_NONE, after = DMA_OWNER_STATE_NONE;
	struct dma_owner_ranges_mem mem = {};
	struct dma_owner_entry snap;
	struct candidates k = {};
	unsigned long flags, kinds = 0;
	bool done = false, untracked;
	unsigned int try;
	u32 lo, hi;

	this_cpu_inc(dma_owner_op_counters.syncs_walked);
	/* Asked before any bucket is locked: it takes a lock of its own. */
	untracked = c->size && dma_owner_may_mean_untracked(c->dev, c->addr);
	/* A zero-length sync moves nothing: nothing to check. */
	for (try = 0; c->size && try < LOCK_TRIES; try++) {
		find_candidates(c, &k, &flags);
		if (!k.n)
			break;
		if (unlikely(untracked)) {
			k.common = 0;
			k.tie_differs = true;
		}
		if (!mem.spare && k.need_spare) {
			/* Allocated unlocked: find the best one again after. */
			if (k.held) {
				k.owner_sig = owner_sig(k.e);
				dma_owner_unlock_bucket(k.b, flags);
				k.held = false;
			}
			mem.spare = kmalloc(sizeof(*mem.spare),
					    GFP_NOWAIT | __GFP_NOWARN);
		}
		if (!lock_best(c, &k, &flags, false))
			continue;
		before = dma_owner_state(k.e);
		dma_owner_record(k.e, c->op, c->caller);
		/* An unchecked handle is reported at its first use only. */
		k.e->error_checked = 1;
		call_range(c, k.e, &lo, &hi);
		kinds = k.common | apply_sync(k.e, c, lo, hi, &mem,
					      k.n == 1 && !untracked);
		after = dma_owner_state(k.e);
		if (kinds)
			dma_owner_snapshot(&snap, k.e);
		dma_owner_unlock_bucket(k.b, flags);
		done = true;
		break;
	}
	if (unlikely(mem.spare || mem.garbage)) {
		kfree(mem.spare);
		kfree(mem.garbage);
	}
	trace_sync(c, before, after);
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

/*
 * A sync counted, and judged on the common path if it can be.
 *
 * Return: false if the walk must judge it; then nothing has changed.
 */
static __always_inline bool sync_fast(const struct call *c)
{
	this_cpu_inc(dma_owner_op_counters.n[c->op]);
	/* A zero-length sync moves nothing: the walk only traces it. */
	return likely(c->size) && sync_only(c, true);
}

/*
 * A sync of one sg segment, or a single sync the hook's common path left
 * (sync_slow()); that path does the same with its call kept out of memory
 * (see sync_single()).
 */
static __always_inline void do_sync(const struct call *c, struct verdict *v)
{
	if (!sync_fast(c))
		sync_walk(c, v);
}

/* An entry out of the table: its unmap is recorded, traced and counted. */
static __always_inline void end_mapping(const struct call *c,
					struct dma_owner_entry *e)
{
	/* The events follow ownership, which coherent memory does not have. */
	if (e->api != DMA_OWNER_API_COHERENT) {
		/* The owner is worked out only for the event. */
		if (trace_dma_owner_unmap_enabled())
			trace_dma_owner_unmap(c->dev, c->addr, c->size, c->dir,
					      dma_owner_state(e),
					      DMA_OWNER_STATE_NONE, c->caller);
		this_cpu_inc(dma_owner_op_counters.n[DMA_OWNER_OP_UNMAP]);
	}
	dma_owner_record(e, DMA_OWNER_OP_UNMAP, c->caller);
	dma_owner_remember_unmapped(e, c->caller);
}

/* An unmap that one mapping alone fits, breaking no rule (see sync_only()). */
static __always_inline bool unmap_only(const struct call *c)
{
	struct dma_owner_entry *e;
	struct dma_owner_bucket *b;
	unsigned long flags;

	if (unlikely(dma_owner_may_mean_untracked(c->dev, c->addr)))
		return false;
	e = find_only(c, &b, &flags, true);
	if (!e)
		return false;
	if (e->has_csum || call_kinds(c, e) || dma_owner_poison_freed(e)) {
		dma_owner_unlock_bucket(b, flags);
		return false;
	}
	dma_owner_bucket_del(b, e);
	dma_owner_unlock_bucket(b, flags);
	end_mapping(c, e);
	dma_owner_free_entry(e);
	return true;
}

/* Every other unmap: each mapping it may mean weighed, as a sync's are. */
static noinline void unmap_walk(const struct call *c, struct verdict *v)
{
	struct dma_owner_entry *e = NULL, snap;
	struct candidates k = {};
	unsigned long flags, kinds;
	unsigned int try;
	bool untracked;

	/* As the unmaps counter: coherent frees are not unmaps. */
	if (c->api != DMA_OWNER_API_COHERENT)
		this_cpu_inc(dma_owner_op_counters.unmaps_walked);
	/* Asked before any bucket is locked: it takes a lock of its own. */
	untracked = dma_owner_may_mean_untracked(c->dev, c->addr);
	/*
	 * Never drop an unmap while a mapping it may mean is there: its entry
	 * would stay, to be reported as a leak. Each try finds the candidates
	 * again; after LOCK_TRIES, lock_best() takes one whoever owns it, so
	 * only a candidate unmapped meanwhile makes a try fail, and the next
	 * finds one fewer.
	 */
	for (try = 0;; try++) {
		find_candidates(c, &k, &flags);
		if (!k.n)
			break;
		if (!lock_best(c, &k, &flags, try >= LOCK_TRIES)) {
			cpu_relax();
			continue;
		}
		e = k.e;
		dma_owner_bucket_del(k.b, e);
		dma_owner_unlock_bucket(k.b, flags);
		break;
	}
	if (!e) {
		if (c->api != DMA_OWNER_API_COHERENT)
			trace_dma_owner_unmap(c->dev, c->addr, c->size, c->dir,
					      DMA_OWNER_STATE_NONE,
					      DMA_OWNER_STATE_NONE, c->caller);
		if (!k.n)
			report_miss(v, c);
		return;
	}
	/* Out of the table, the entry is ours alone. */
	end_mapping(c, e);
	if (unlikely(untracked)) {
		k.common = 0;
		k.tie_differs = true;
	}
	kinds = k.common | check_csum(e);
	if (dma_owner_poison_freed(e))
		kinds |= BIT(DMA_OWNER_FREED_WHILE_MAPPED);
	if (kinds)
		dma_owner_snapshot(&snap, e);
	dma_owner_free_entry(e);
	if (k.tie_differs)
		blur(c, k.skip_sync);
	if (kinds)
		report_kinds(v, c, kinds, &snap);
}

/* An unmap of one sg segment, or a coherent free; see do_sync(). */
static __always_inline void do_unmap(const struct call *c, struct verdict *v)
{
	if (!unmap_only(c))
		unmap_walk(c, v);
}

/*
 * The walk of a single unmap that unmap_only() did not take. Its call is
 * made again here: were the hook's own passed to a function that is not
 * inlined, the common path would keep it in memory too.
 */
static noinline void unmap_slow(struct device *dev, dma_addr_t addr,
				size_t size, enum dma_data_direction dir,
				enum dma_owner_api api, unsigned long caller)
{
	struct call c = { .dev = dev, .addr = addr, .size = size, .dir = dir,
			  .op = DMA_OWNER_OP_UNMAP, .api = api,
			  .caller = caller };
	struct verdict v = {};

	unmap_walk(&c, &v);
}

/* ---------------------------------------------------------------------- */
/* Hooks, called from kernel/dma/mapping.c through <linux/dma-owner.h>    */

/* The new mapping @e (out of the table still) shares a cache line. */
static noinline void report_shared(struct verdict *v,
				   const struct dma_owner_entry *e,
				   unsigned long caller,
				   const struct dma_owner_sharer *sharer)
{
	struct dma_owner_report r = {
		.kind = DMA_OWNER_CACHE_LINE_SHARED, .op = DMA_OWNER_OP_MAP,
		.dev = e->dev, .addr = e->handle, .size = e->size,
		.dir = e->dir, .caller = caller, .api = e->api,
		.sharer = *sharer,
	};

	/*
	 * While tracking settles, an unmap may have gone unseen: the other
	 * mapping may be gone.
	 */
	if ((v->reported & BIT(r.kind)) || READ_ONCE(dma_owner_settling))
		return;
	v->reported |= BIT(r.kind);
	dma_owner_report(&r);
}

/*
 * A new mapping that may share its first or last cache line: into the
 * index of lines. Out of line, as are the sharer's room and the report:
 * most mappings fill their lines.
 */
static noinline void add_lines(struct verdict *v, struct dma_owner_entry *e,
			       const struct scatterlist *sgl,
			       unsigned long caller)
{
	struct dma_owner_sharer sharer;

	if (dma_owner_lines_add(dma_owner_to_wide_entry(e), sgl, &sharer))
		report_shared(v, e, caller, &sharer);
}

/*
 * A new mapping, owned as dma_owner_new_entry() says. Coherent memory has
 * no owner; its CPU address is kept for the free. @v is the map call's
 * verdict: an sg list's segments share it, and are reported once per kind.
 */
static __always_inline void map_one(struct verdict *v, struct device *dev,
				    dma_addr_t addr, size_t size,
				    enum dma_data_direction dir,
				    unsigned long attrs, enum dma_owner_api api,
				    phys_addr_t phys, const void *cpu_addr,
				    depot_stack_handle_t *stack,
				    const struct scatterlist *sgl,
				    unsigned int sg_nents, unsigned long caller)
{
	struct dma_owner_entry *e;

	e = dma_owner_new_entry(dev, addr, size, dir, attrs, api, phys, caller);
	if (!e) {
		dma_owner_count_untracked(dev, addr, size, DMA_OWNER_WHY_UNTRACKED);
		return;
	}
	if (api == DMA_OWNER_API_COHERENT)
		e->cpu_addr = cpu_addr;
	if (!*stack)
		*stack = dma_owner_save_map_stack(dev, caller);
	e->map_stack = *stack;
	e->sg_nents = dma_owner_sg_nents(sg_nents);
	/* Out of the table still: no call can mean it yet. */
	if (unlikely(e->poison))
		dma_owner_poison_apply(e, true);
	/*
	 * The map's event first: a report on the new mapping, and every call
	 * on it once it is in the table, follow it in the trace, as dmaown
	 * timeline reads them. The owner is worked out only for the event;
	 * coherent memory has none to trace.
	 */
	if (api != DMA_OWNER_API_COHERENT && trace_dma_owner_map_enabled())
		trace_dma_owner_map(dev, addr, size, dir, DMA_OWNER_STATE_NONE,
				    dma_owner_state(e), caller);
	/* Reported before it is in the table: the report reads the entry. */
	if (e->has_lines)
		add_lines(v, e, sgl, caller);
	/* In the table, the entry may be unmapped or flushed at once. */
	dma_owner_insert(e);
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
 *
 * Told of failed maps too (@addr DMA_MAPPING_ERROR), which made nothing: the
 * hook's caller does not compare, so that a tracker built in but off costs
 * the hook's patched jump alone.
 */
void __dma_owner_map(struct device *dev, dma_addr_t addr, size_t size,
		     enum dma_data_direction dir, unsigned long attrs,
		     enum dma_owner_api api, phys_addr_t phys,
		     unsigned long caller)
{
	depot_stack_handle_t stack = 0;
	struct verdict v = {};
	const char *what;

	/* Not dma_mapping_error(): that would tell dma-debug it was checked. */
	if (addr == DMA_MAPPING_ERROR)
		return;
	guard(rcu)();
	if (dma_owner_filtered_out(dev))
		return;
	map_one(&v, dev, addr, size, dir, attrs, api, phys, NULL, &stack, NULL,
		0, caller);
	/* The allocators' memory is theirs, and a resource is not memory. */
	if (api == DMA_OWNER_API_PAGE && phys) {
		what = dma_owner_bad_memory(phys, size);
		if (unlikely(what)) {
			struct call c = { .dev = dev, .addr = addr, .size = size,
					  .dir = dir, .op = DMA_OWNER_OP_MAP,
					  .api = api, .caller = caller };

			report_arg(&v, &c, DMA_OWNER_BAD_MEMORY, what, 0);
		}
	}
}
EXPORT_SYMBOL_IF_KUNIT(__dma_owner_map);

/*
 * dma_free_noncontiguous()'s @size in the terms its allocation was made in:
 * the pages, or behind an IOMMU the granules of its domain, that the
 * allocation's one DMA segment spans (sg_dma_len(), which the map
 * recorded). Those are what the free unmaps and gives back, so a size that
 * rounds to the same is the same allocation, and one that does not leaks
 * pages or unmaps a wrong IOVA range: size-mismatch.
 */
static size_t noncontiguous_size(struct device *dev, size_t size)
{
	unsigned long granule = max(PAGE_SIZE, dma_get_merge_boundary(dev) + 1);

	return ALIGN(size, granule);
}

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
	struct call c;

	if (unlikely(api == DMA_OWNER_API_NONCONTIGUOUS))
		size = noncontiguous_size(dev, size);
	c = (struct call){ .dev = dev, .addr = addr, .size = size, .dir = dir,
			   .op = DMA_OWNER_OP_UNMAP, .api = api,
			   .caller = caller };
	guard(rcu)();
	if (dma_owner_filtered_out(dev))
		return;
	if (!unmap_only(&c))
		unmap_slow(dev, addr, size, dir, api, caller);
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
	struct call c = { .dev = dev, .dir = dir, .op = DMA_OWNER_OP_MAP,
			  .api = DMA_OWNER_API_SG, .nents = nents,
			  .caller = caller };
	depot_stack_handle_t stack = 0;
	struct verdict v = {};
	struct scatterlist *s;
	const char *what;
	phys_addr_t phys;
	u64 limit;
	int i;

	guard(rcu)();
	if (dma_owner_filtered_out(dev))
		return;
	/* The memory is checked entry by entry, the limits segment by segment. */
	for_each_sg(sg, s, nents, i) {
		if (!sg_page(s))
			continue;
		what = dma_owner_bad_memory(sg_phys(s), s->length);
		if (what) {
			/* Entry i is segment i only when nothing was merged. */
			c.addr = ents == nents ? sg_dma_address(s) : 0;
			c.size = s->length;
			report_arg(&v, &c, DMA_OWNER_BAD_MEMORY, what, 0);
		}
	}
	for_each_sg(sg, s, ents, i) {
		/*
		 * The segments are those before the first with no DMA length,
		 * as sg_call() walks them: the rest go untracked.
		 */
		if (!sg_dma_len(s)) {
			dma_owner_count_untracked(dev, 0, 0, DMA_OWNER_WHY_ZERO_LENGTH_SEGMENT);
			break;
		}
		/*
		 * Segment i is sg entry i only when nothing was merged; a PCI
		 * peer-to-peer segment is a bus address, not memory.
		 */
		phys = ents == nents && sg_dma_len(s) == s->length &&
		       !sg_dma_is_bus_address(s) ? sg_phys(s) : 0;
		map_one(&v, dev, sg_dma_address(s), sg_dma_len(s), dir, attrs,
			DMA_OWNER_API_SG, phys, NULL, &stack, sg, nents, caller);
		what = !READ_ONCE(dma_owner_check_segments) ? NULL :
		       dma_owner_segment_breaks(dev, sg_dma_address(s),
						sg_dma_len(s), &limit);
		if (what) {
			c.addr = sg_dma_address(s);
			c.size = sg_dma_len(s);
			report_arg(&v, &c, DMA_OWNER_SG_SEGMENT_LIMIT, what, limit);
		}
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

	c->nents = nents;
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
	if (dma_owner_filtered_out(dev))
		return;
	sg_call(&c, sg, nents);
}
EXPORT_SYMBOL_IF_KUNIT(__dma_owner_unmap_sg);

/* The sync hooks' @op: anything else would be judged as a map or an unmap. */
static bool is_sync(enum dma_owner_op op)
{
	return op == DMA_OWNER_OP_SYNC_FOR_CPU || op == DMA_OWNER_OP_SYNC_FOR_DEVICE;
}

/*
 * A single sync that the hook's common path did not take, or one the
 * filter may leave out: filtered, then judged as an sg segment's sync is
 * (do_sync()), at every place the device used; the hook's looked at one
 * place only. Out of line, and called last, so that the hook's common
 * path saves no registers for it.
 */
static noinline void sync_slow(struct device *dev, dma_addr_t addr,
			       size_t size, enum dma_data_direction dir,
			       enum dma_owner_op op, unsigned long caller)
{
	struct call c = { .dev = dev, .addr = addr, .size = size, .dir = dir,
			  .op = op, .caller = caller };
	struct verdict v = {};

	guard(rcu)();
	if (!dma_owner_filtered_out(dev))
		do_sync(&c, &v);
}

/*
 * A single sync, its call kept out of memory (see unmap_slow()). The walk
 * is a tail call, made outside the RCU read section that sync_slow()
 * takes again.
 */
static __always_inline void sync_single(struct device *dev, dma_addr_t addr,
					size_t size, enum dma_data_direction dir,
					enum dma_owner_op op, unsigned long caller)
{
	struct call c = { .dev = dev, .addr = addr, .size = size, .dir = dir,
			  .op = op, .caller = caller };

	/* A zero-length sync moves nothing: the walk only traces it. */
	scoped_guard(rcu) {
		if (likely(!rcu_access_pointer(dma_owner_filter) && size &&
			   sync_only(&c, false))) {
			this_cpu_inc(dma_owner_op_counters.n[op]);
			return;
		}
	}
	sync_slow(dev, addr, size, dir, op, caller);
}

/**
 * __dma_owner_sync() - ownership moves to the CPU or back to the device
 * @dev: the device
 * @addr: any address inside the mapping
 * @size: bytes from @addr
 * @dir: the direction passed
 * @op: DMA_OWNER_OP_SYNC_FOR_CPU or DMA_OWNER_OP_SYNC_FOR_DEVICE
 * @caller: the driver's call site
 */
void __dma_owner_sync(struct device *dev, dma_addr_t addr, size_t size,
		      enum dma_data_direction dir, enum dma_owner_op op,
		      unsigned long caller)
{
	if (WARN_ON_ONCE(!is_sync(op)))
		return;
	/* A copy of the common path for each direction: its @op is known. */
	if (op == DMA_OWNER_OP_SYNC_FOR_CPU)
		sync_single(dev, addr, size, dir, DMA_OWNER_OP_SYNC_FOR_CPU, caller);
	else
		sync_single(dev, addr, size, dir, DMA_OWNER_OP_SYNC_FOR_DEVICE, caller);
}
EXPORT_SYMBOL_IF_KUNIT(__dma_owner_sync);

/**
 * __dma_owner_sync_sg() - ownership of an sg list's segments moves
 * @dev: the device
 * @sg: the list
 * @nelems: entries the driver passed
 * @dir: the direction passed
 * @op: DMA_OWNER_OP_SYNC_FOR_CPU or DMA_OWNER_OP_SYNC_FOR_DEVICE
 * @caller: the driver's call site
 */
void __dma_owner_sync_sg(struct device *dev, struct scatterlist *sg,
			 int nelems, enum dma_data_direction dir,
			 enum dma_owner_op op, unsigned long caller)
{
	struct call c = { .dev = dev, .dir = dir,
			  .op = op,
			  .caller = caller };

	if (WARN_ON_ONCE(!is_sync(op)))
		return;
	guard(rcu)();
	if (dma_owner_filtered_out(dev))
		return;
	sg_call(&c, sg, nelems);
}
EXPORT_SYMBOL_IF_KUNIT(__dma_owner_sync_sg);

/**
 * __dma_owner_alloc_coherent() - coherent memory was allocated
 * @dev: the device
 * @size: its length
 * @addr: the DMA address returned to the driver
 * @cpu_addr: the CPU address returned to the driver
 * @caller: the driver's call site
 *
 * It has no owner, the CPU and the device use it at any time: it is
 * tracked so that its free is checked, and a leak of it reported.
 */
void __dma_owner_alloc_coherent(struct device *dev, size_t size,
				dma_addr_t addr, const void *cpu_addr,
				unsigned long caller)
{
	depot_stack_handle_t stack = 0;
	struct verdict v = {};

	guard(rcu)();
	if (dma_owner_filtered_out(dev))
		return;
	map_one(&v, dev, addr, size, DMA_BIDIRECTIONAL, 0,
		DMA_OWNER_API_COHERENT, 0, cpu_addr, &stack, NULL, 0, caller);
}
EXPORT_SYMBOL_IF_KUNIT(__dma_owner_alloc_coherent);

/**
 * __dma_owner_free_coherent() - coherent memory is about to be freed
 * @dev: the device
 * @size: the size passed
 * @cpu_addr: the CPU address passed
 * @addr: the DMA address passed
 * @caller: the driver's call site
 */
void __dma_owner_free_coherent(struct device *dev, size_t size,
			       const void *cpu_addr, dma_addr_t addr,
			       unsigned long caller)
{
	struct call c = { .dev = dev, .addr = addr, .size = size,
			  .dir = DMA_BIDIRECTIONAL, .op = DMA_OWNER_OP_UNMAP,
			  .api = DMA_OWNER_API_COHERENT, .cpu_addr = cpu_addr,
			  .caller = caller };
	struct verdict v = {};

	guard(rcu)();
	if (dma_owner_filtered_out(dev))
		return;
	do_unmap(&c, &v);
}
EXPORT_SYMBOL_IF_KUNIT(__dma_owner_free_coherent);

/**
 * __dma_owner_mapping_error() - dma_mapping_error() checked a handle
 * @dev: the device
 * @addr: the handle
 *
 * Every live mapping of @dev that the handle starts counts as checked: with
 * identical handles, which one the driver meant cannot be told.
 */
void __dma_owner_mapping_error(struct device *dev, dma_addr_t addr)
{
	/* Written whole by dma_owner_first_place(): not zeroed first. */
	struct dma_owner_places pl __uninitialized;
	struct dma_owner_entry *e;
	struct dma_owner_bucket *b;
	unsigned long flags;

	if (addr == DMA_MAPPING_ERROR)
		return;
	guard(rcu)();
	for (dma_owner_first_place(&pl, dev, addr, true);
	     dma_owner_next_place(&pl);) {
		b = dma_owner_bucket(dev, pl.level, pl.chunk);
		if (dma_owner_bucket_empty(b))
			continue;
		dma_owner_lock_bucket(b, &flags);
		dma_owner_for_each_entry(e, b)
			if (starts_at(e, dev, addr))
				e->error_checked = 1;
		dma_owner_unlock_bucket(b, flags);
	}
}
EXPORT_SYMBOL(__dma_owner_mapping_error);

/*
 * dma_map_single() was given memory it cannot map. Out of line, so that
 * its hook saves no registers for it.
 */
static noinline void report_cpu_addr(struct device *dev, size_t size,
				     enum dma_data_direction dir,
				     const char *what, unsigned long caller)
{
	struct call c = { .dev = dev, .size = size, .dir = dir,
			  .op = DMA_OWNER_OP_MAP, .api = DMA_OWNER_API_PAGE,
			  .caller = caller };
	struct verdict v = {};

	guard(rcu)();
	if (!dma_owner_filtered_out(dev))
		report_arg(&v, &c, DMA_OWNER_BAD_MEMORY, what, 0);
}

/**
 * __dma_owner_map_single() - dma_map_single() is about to map a CPU address
 * @dev: the device
 * @ptr: the address
 * @size: its length
 * @dir: the direction
 *
 * Only here is the CPU address known: dma_map_page_attrs() gets its page.
 */
void __dma_owner_map_single(struct device *dev, const void *ptr, size_t size,
			    enum dma_data_direction dir)
{
	/* Asked first: almost every address may be mapped, whatever the filter. */
	const char *what = dma_owner_bad_cpu_addr(ptr);

	if (unlikely(what))
		report_cpu_addr(dev, size, dir, what, _RET_IP_);
}
EXPORT_SYMBOL(__dma_owner_map_single);
