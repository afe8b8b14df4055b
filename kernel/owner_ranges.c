// SPDX-License-Identifier: GPL-2.0
/*
 * DMA ownership tracker: who owns which bytes of a mapping.
 */

#include <linux/minmax.h>

#include "owner.h"

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

static void set_store(struct dma_owner_entry *e, const struct range_set *s,
		      struct dma_owner_ranges_mem *mem)
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

/**
 * __dma_owner_move_bytes() - dma_owner_move_bytes() of a mapping whose CPU
 *	part is or becomes more than one range
 * @e: the mapping, its bucket locked
 * @lo: first byte, an offset from its handle
 * @hi: end of the bytes
 * @to_cpu: to the CPU, else to the device
 * @mem: ranges allocated before the lock, and those to free after it
 *
 * Through a range set, which may need a struct dma_owner_ranges. Any other
 * move is inline (dma_owner_move_in_one()).
 */
void __dma_owner_move_bytes(struct dma_owner_entry *e, u32 lo, u32 hi,
			    bool to_cpu, struct dma_owner_ranges_mem *mem)
{
	struct range_set s;

	set_load(e, &s);
	if (to_cpu)
		set_add(&s, lo, hi);
	else
		set_remove(&s, lo, hi);
	/*
	 * Exact again when the CPU surely owns nothing, or a sync for the CPU
	 * took all of it; a range that only holds the CPU's bytes says neither.
	 */
	if (!s.nr || (to_cpu && !lo && hi == e->size))
		e->inexact = 0;
	set_store(e, &s, mem);
}
