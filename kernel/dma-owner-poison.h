/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DMA ownership tracker and KASAN: with dma_owner.poison=1, the bytes a
 * device owns in a mapping it may write are poisoned in KASAN's shadow
 * (mm/kasan/dma.c), so that KASAN catches a CPU access to them at the
 * instruction and the tracker (kernel/dma/owner_poison.c) reports it.
 * See Documentation/dev-tools/dma-owner.rst.
 */
#ifndef _LINUX_DMA_OWNER_POISON_H
#define _LINUX_DMA_OWNER_POISON_H

#include <linux/jump_label.h>
#include <linux/percpu.h>
#include <linux/preempt.h>
#include <linux/types.h>

DECLARE_STATIC_KEY_FALSE(dma_owner_poison_key);

/* True when dma_owner.poison=1 was given, on a kernel that can poison. */
static __always_inline bool dma_owner_poisoning(void)
{
	return static_branch_unlikely(&dma_owner_poison_key);
}

#ifdef CONFIG_DMA_OWNER_POISON
DECLARE_PER_CPU(unsigned int, dma_owner_poison_paused);

/*
 * Around a sync for the device: swiotlb copies the buffer to the bounce
 * buffer, bytes the device still owns included (a sync of a whole buffer
 * whose header alone the CPU took), before the tracker sees the sync.
 * Such accesses on this CPU go on unreported until dma_owner_poison_resume().
 */
static __always_inline bool dma_owner_poison_pause(void)
{
	if (!dma_owner_poisoning())
		return false;
	preempt_disable();
	this_cpu_inc(dma_owner_poison_paused);
	return true;
}

static __always_inline void dma_owner_poison_resume(bool paused)
{
	if (paused) {
		this_cpu_dec(dma_owner_poison_paused);
		preempt_enable();
	}
}
#else
static inline bool dma_owner_poison_pause(void) { return false; }
static inline void dma_owner_poison_resume(bool paused) { }
#endif

/* The tracker's side: reports. */
void dma_owner_report_access(const void *addr, size_t size, bool is_write,
			     unsigned long ip);
void dma_owner_report_free(const void *addr, size_t size, const void *owned,
			   unsigned long ip);

/* KASAN's side: the shadow. */
#ifdef CONFIG_DMA_OWNER_POISON
void kasan_poison_dma(const void *addr, size_t size);
void kasan_unpoison_dma(const void *addr, size_t size);
const void *kasan_dma_owned(const void *addr, size_t size);
bool kasan_dma_freed(const void *addr);
#else
static inline void kasan_poison_dma(const void *addr, size_t size) { }
static inline void kasan_unpoison_dma(const void *addr, size_t size) { }
static inline const void *kasan_dma_owned(const void *addr, size_t size)
{
	return NULL;
}

static inline bool kasan_dma_freed(const void *addr) { return false; }
#endif

#endif /* _LINUX_DMA_OWNER_POISON_H */
