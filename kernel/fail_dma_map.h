/* SPDX-License-Identifier: GPL-2.0 */
#ifndef _KERNEL_DMA_FAIL_DMA_MAP_H
#define _KERNEL_DMA_FAIL_DMA_MAP_H

#include <linux/types.h>

struct device;

#ifdef CONFIG_FAIL_DMA_MAP
bool should_fail_dma_map(struct device *dev, size_t size);
#else
static inline bool should_fail_dma_map(struct device *dev, size_t size)
{
	return false;
}
#endif

#endif /* _KERNEL_DMA_FAIL_DMA_MAP_H */
