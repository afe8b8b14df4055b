// SPDX-License-Identifier: GPL-2.0
/*
 * fail_dma_map: make dma_map_*() fail on demand, so that a driver's error
 * paths -- dma_mapping_error(), a zero return of dma_map_sg() -- can be
 * tested without a machine that runs out of IOVA space or bounce buffers.
 *
 * The usual fault_attr knobs (probability, interval, times, space, verbose,
 * task-filter) are in /sys/kernel/debug/fail_dma_map/, and the boot
 * parameter fail_dma_map=<interval>,<probability>,<space>,<times> sets them
 * from the start. See Documentation/fault-injection/fault-injection.rst.
 */

#include <linux/fault-inject.h>
#include <linux/init.h>

#include "fail_dma_map.h"

static DECLARE_FAULT_ATTR(fail_dma_map);

static int __init setup_fail_dma_map(char *str)
{
	return setup_fault_attr(&fail_dma_map, str);
}
__setup("fail_dma_map=", setup_fail_dma_map);

/**
 * should_fail_dma_map() - should this mapping fail?
 * @dev: the device mapping
 * @size: bytes it maps
 *
 * Context: any context.
 * Return: true to make the caller fail the mapping.
 */
bool should_fail_dma_map(struct device *dev, size_t size)
{
	return should_fail(&fail_dma_map, size);
}

static int __init fail_dma_map_debugfs(void)
{
	struct dentry *dir = fault_create_debugfs_attr("fail_dma_map", NULL,
						       &fail_dma_map);

	return PTR_ERR_OR_ZERO(dir);
}
late_initcall(fail_dma_map_debugfs);
