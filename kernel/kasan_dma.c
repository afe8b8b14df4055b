// SPDX-License-Identifier: GPL-2.0
/*
 * KASAN shadow of the bytes a device owns (CONFIG_DMA_OWNER_DEBUG with
 * dma_owner.poison=1). The DMA ownership tracker poisons the bytes a device
 * may write in a streaming mapping, from the map or the sync for the device
 * until the sync for the CPU or the unmap, so that a CPU access to them is
 * caught at the instruction; kasan_report() hands it to the tracker, which
 * names the mapping.
 *
 * The tracker's poison never overwrites KASAN's own: only whole granules
 * that are plainly accessible are poisoned, and only granules that hold
 * KASAN_DMA_DEVICE_OWNED are unpoisoned. A granule that the mapping holds
 * only in part, a redzone or a freed object keeps its shadow, so no access
 * is ever reported that the mapping cannot justify.
 */

#include <linux/dma-owner-poison.h>
#include <linux/hardirq.h>
#include <linux/kasan.h>
#include <linux/mm.h>
#include <linux/string.h>
#include <kunit/visibility.h>

#include "kasan.h"

/* Eight granules at a time: the shadow of 64 bytes, in one load. */
#define SHADOW_WORD	sizeof(u64)

/*
 * The shadow of the granules inside [@addr, @addr + @size), or, @outward,
 * of every granule that holds a byte of it.
 */
static void shadow_range(const void *addr, size_t size, bool outward,
			 u8 **first, u8 **end)
{
	unsigned long start = (unsigned long)addr, stop = start + size;

	if (!size) {
		*first = *end = NULL;
		return;
	}
	if (outward) {
		start = round_down(start, KASAN_GRANULE_SIZE);
		stop = round_up(stop, KASAN_GRANULE_SIZE);
	} else {
		start = round_up(start, KASAN_GRANULE_SIZE);
		stop = round_down(stop, KASAN_GRANULE_SIZE);
	}

	if (start >= stop) {
		*first = *end = NULL;
		return;
	}
	*first = kasan_mem_to_shadow((void *)start);
	*end = kasan_mem_to_shadow((void *)stop);
}

/*
 * Replace the shadow bytes holding @from with @to. Racing with KASAN's own
 * writes (an object freed while it is mapped) can at worst leave a freed
 * object's granule unpoisoned or marked as the device's: a missed report,
 * never a false one, since the marker is only set on memory that is mapped.
 */
static void shadow_swap(const void *addr, size_t size, bool outward, u8 from,
			u8 to)
{
	u64 from_word = 0x0101010101010101ULL * from;
	u64 to_word = 0x0101010101010101ULL * to;
	u8 *s, *end;

	shadow_range(addr, size, outward, &s, &end);
	if (!s)
		return;
	while (s < end && !IS_ALIGNED((unsigned long)s, SHADOW_WORD)) {
		if (*s == from)
			WRITE_ONCE(*s, to);
		s++;
	}
	for (; s + SHADOW_WORD <= end; s += SHADOW_WORD) {
		u64 w = READ_ONCE(*(u64 *)s);
		unsigned int i;

		if (w == from_word) {
			WRITE_ONCE(*(u64 *)s, to_word);
			continue;
		}
		if (w == to_word)
			continue;
		for (i = 0; i < SHADOW_WORD; i++)
			if (s[i] == from)
				WRITE_ONCE(s[i], to);
	}
	for (; s < end; s++)
		if (*s == from)
			WRITE_ONCE(*s, to);
}

/**
 * kasan_poison_dma() - mark bytes as the device's
 * @addr: start, in the linear map
 * @size: length in bytes
 *
 * Only whole granules inside the range whose shadow says accessible: a
 * granule that holds a byte outside it keeps its shadow.
 */
void kasan_poison_dma(const void *addr, size_t size)
{
	shadow_swap(addr, size, false, 0, KASAN_DMA_DEVICE_OWNED);
}

/**
 * kasan_unpoison_dma() - give bytes marked as the device's back to the CPU
 * @addr: start, in the linear map
 * @size: length in bytes
 *
 * Every granule that holds a byte of the range: the CPU may access any of
 * its bytes. Only the marker is lifted.
 */
void kasan_unpoison_dma(const void *addr, size_t size)
{
	shadow_swap(addr, size, true, KASAN_DMA_DEVICE_OWNED, 0);
}

/**
 * kasan_dma_owned() - does any byte in the range belong to a device?
 * @addr: start
 * @size: length in bytes
 *
 * Return: the first such byte, or NULL.
 */
const void *kasan_dma_owned(const void *addr, size_t size)
{
	u8 *s, *end, *p;

	if (!addr_has_metadata(addr))
		return NULL;
	shadow_range(addr, size, true, &s, &end);
	if (!s)
		return NULL;
	p = memchr(s, KASAN_DMA_DEVICE_OWNED, end - s);
	return p ? kasan_shadow_to_mem(p) : NULL;
}
EXPORT_SYMBOL_IF_KUNIT(kasan_dma_owned);

/**
 * kasan_dma_freed() - was the memory at @addr freed?
 * @addr: a byte of it
 *
 * Return: true if KASAN's shadow says the granule of @addr is a freed
 * object or page.
 */
bool kasan_dma_freed(const void *addr)
{
	u8 s;

	if (!addr_has_metadata(addr))
		return false;
	s = *(u8 *)kasan_mem_to_shadow(addr);
	return s == KASAN_SLAB_FREE || s == KASAN_SLAB_FREE_META ||
	       s == KASAN_PAGE_FREE;
}

DEFINE_PER_CPU(unsigned int, dma_owner_poison_paused);
EXPORT_PER_CPU_SYMBOL_GPL(dma_owner_poison_paused);

/*
 * From kasan_report(): is the access bad only because of the tracker's
 * poison? Then the tracker reports it, not KASAN, and the access goes on
 * (memcpy() and memset() copy nothing after a report). An access that
 * also touches KASAN's own poison is KASAN's to report. One that touches
 * no poison any more raced with the tracker's unpoisoning (a sync for the
 * CPU, an unmap, tracking switched off): it goes on, unreported.
 *
 * Return: true if the access was the tracker's business.
 */
bool kasan_dma_report(const void *addr, size_t size, bool is_write,
		      unsigned long ip)
{
	unsigned long start = (unsigned long)addr, end = start + size, g;
	const void *owned = NULL;
	s8 s;

	if (!dma_owner_poisoning() || !size || !addr_has_metadata(addr) ||
	    !addr_has_metadata((void *)(end - 1)))
		return false;
	for (g = round_down(start, KASAN_GRANULE_SIZE); g < end;
	     g += KASAN_GRANULE_SIZE) {
		s = READ_ONCE(*(s8 *)kasan_mem_to_shadow((void *)g));
		if ((u8)s == KASAN_DMA_DEVICE_OWNED) {
			owned = owned ?: (void *)max(g, start);
			continue;
		}
		/* Accessible, or accessible up to where the access ends. */
		if (!s || (s > 0 && min(end, g + KASAN_GRANULE_SIZE) - g <= s))
			continue;
		return false;
	}
	if (!owned)
		return true;
	/*
	 * The DMA API's own copies (swiotlb's, in a sync for the device)
	 * and NMIs, which may interrupt the report path's locks, go on.
	 */
	if (this_cpu_read(dma_owner_poison_paused) || in_nmi())
		return true;
	dma_owner_report_access(owned, end - (unsigned long)owned, is_write, ip);
	return true;
}

/*
 * From the free paths, before KASAN checks the free: memory the device
 * still owns is reported, and given back, so that KASAN sees the free as
 * any other and poisons the memory as freed.
 */
void kasan_dma_free(const void *addr, size_t size, unsigned long ip)
{
	const void *owned;

	if (!dma_owner_poisoning())
		return;
	owned = kasan_dma_owned(addr, size);
	if (owned) {
		dma_owner_report_free(addr, size, owned, ip);
		kasan_unpoison_dma(addr, size);
	}
}
