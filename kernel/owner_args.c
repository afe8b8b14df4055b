// SPDX-License-Identifier: GPL-2.0
/*
 * DMA ownership tracker: what a call's arguments alone break, whatever the
 * live mappings: memory that must never be mapped for DMA, and sg segments
 * outside the device's limits. These are the checks CONFIG_DMA_API_DEBUG
 * makes of a map call's arguments; owner.c reports what they find.
 */

#include <linux/dma-mapping.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>
#include <linux/sched/task_stack.h>
#include <linux/vmalloc.h>
#include <asm/sections.h>
#include <kunit/visibility.h>

#include "owner.h"

#undef MODULE_PARAM_PREFIX
#define MODULE_PARAM_PREFIX "dma_owner."

/*
 * The segment limits guide whoever builds a list: the DMA API itself does
 * not require them, the PCI core gives every device 64 KiB whether or not
 * it has such a limit, and drivers that split segments themselves (video
 * capture, GPU imports) never declare their real one. A report is only
 * justified for a driver known to declare its limits: opt-in.
 */
bool dma_owner_check_segments;
EXPORT_SYMBOL_IF_KUNIT(dma_owner_check_segments);
module_param_named(check_segments, dma_owner_check_segments, bool, 0644);
MODULE_PARM_DESC(check_segments,
		 "Report sg segments past dma_get_max_seg_size() or across dma_get_seg_boundary() (default 0)");

static bool overlaps(phys_addr_t phys, size_t size, phys_addr_t lo,
		     phys_addr_t hi)
{
	return phys < hi && lo < phys + size;
}

/*
 * Does [@phys, @phys + @size) hold a byte of the current task's stack? The
 * task is the one interrupted, in an interrupt: its stack is no more
 * mappable then. A virtually mapped stack is compared page by page, as the
 * driver can only have reached its pages through vmalloc_to_page().
 */
static bool on_current_stack(phys_addr_t phys, size_t size)
{
	void *stack = task_stack_page(current);
	phys_addr_t lo;

#ifdef CONFIG_VMAP_STACK
	const struct vm_struct *vm = task_stack_vm_area(current);

	if (vm) {
		unsigned long first = PHYS_PFN(phys);
		unsigned long pages = PHYS_PFN(phys + size - 1) - first;
		unsigned int i;

		/* Its pages are THREAD_SIZE's, as fork.c counts them: unrolled. */
		for (i = 0; i < THREAD_SIZE / PAGE_SIZE; i++)
			if (page_to_pfn(vm->pages[i]) - first <= pages)
				return true;
		return false;
	}
#endif
	/* The boot CPU's idle task has its stack in the kernel image. */
	if (!virt_addr_valid(stack))
		return false;
	lo = virt_to_phys(stack);
	return overlaps(phys, size, lo, lo + THREAD_SIZE);
}

/**
 * dma_owner_bad_memory() - is this memory one that must never be mapped?
 * @phys: CPU physical address of the buffer
 * @size: its length
 *
 * The stack may be freed or reused while the device still writes it, and
 * shares its cache lines with live variables; the kernel's text and
 * read-only data must never be written, by a device least of all. The
 * image is compared by physical address, so that a buffer reached through
 * the linear map is caught as well as one through the image's own mapping.
 *
 * Context: any; does not sleep.
 * Return: the kind of memory, in words, or NULL if it may be mapped.
 */
const char *dma_owner_bad_memory(phys_addr_t phys, size_t size)
{
	if (!size)
		return NULL;
	if (on_current_stack(phys, size))
		return "the current task's stack";
	if (overlaps(phys, size, __pa_symbol(_stext), __pa_symbol(_etext)))
		return "kernel text";
	if (overlaps(phys, size, __pa_symbol(__start_rodata),
		     __pa_symbol(__end_rodata)))
		return "kernel read-only data";
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_bad_memory);

/**
 * __dma_owner_bad_cpu_addr() - dma_owner_bad_cpu_addr() of an address
 *	outside the linear map
 * @ptr: the CPU address the driver passed
 *
 * Context: any; does not sleep.
 * Return: the kind of memory, in words.
 */
const char *__dma_owner_bad_cpu_addr(const void *ptr)
{
	if (is_vmalloc_addr(ptr))
		return object_is_on_stack(ptr) ? "the current task's stack" :
						 "vmalloc or vmap memory";
	return "memory outside the kernel's linear map";
}
EXPORT_SYMBOL_IF_KUNIT(__dma_owner_bad_cpu_addr);

/**
 * dma_owner_segment_breaks() - does a mapped sg segment break its limits?
 * @dev: the device
 * @addr: the segment's DMA address
 * @len: its DMA length
 * @limit: set to the limit broken
 *
 * A segment is what the device is given; an IOMMU that merges segments
 * keeps to the limits, so a segment that breaks them was built so by the
 * driver or the block layer, or the driver never told the DMA API its
 * limits (dma_set_max_seg_size(), dma_set_seg_boundary()).
 *
 * Context: any; does not sleep.
 * Return: the limit broken, in words, or NULL.
 */
const char *dma_owner_segment_breaks(struct device *dev, dma_addr_t addr,
				     size_t len, u64 *limit)
{
	unsigned int max_seg = dma_get_max_seg_size(dev);
	u64 boundary = dma_get_seg_boundary(dev);

	if (len > max_seg) {
		*limit = max_seg;
		return "longer than the device's max segment size";
	}
	if (len && (((u64)addr ^ ((u64)addr + len - 1)) & ~boundary)) {
		*limit = boundary;
		return "across the device's segment boundary mask";
	}
	return NULL;
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_segment_breaks);
