/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Trace events of the DMA ownership tracker (CONFIG_DMA_OWNER_DEBUG): every
 * ownership transition of a streaming mapping, and every violation, with
 * the owner before and after and the driver's call site.
 *
 *   trace-cmd record -e dma_owner
 *   trace-cmd record -e dma_owner_violation -f 'kind == "missing-sync-for-device"'
 *   perf stat -e 'dma_owner:*' -a -- ./workload
 */
#undef TRACE_SYSTEM
#define TRACE_SYSTEM dma_owner

#if !defined(_TRACE_DMA_OWNER_H) || defined(TRACE_HEADER_MULTI_READ)
#define _TRACE_DMA_OWNER_H

#include <linux/device.h>
#include <linux/dma-direction.h>
#include <linux/tracepoint.h>

/* Values of the owner fields. */
#ifndef __DMA_OWNER_STATE_ONCE_ONLY
#define __DMA_OWNER_STATE_ONCE_ONLY
enum dma_owner_state {
	DMA_OWNER_STATE_NONE,		/* not mapped, or not known to the tracker */
	DMA_OWNER_STATE_DEVICE,
	DMA_OWNER_STATE_CPU,		/* the CPU owns all or part of it */
	DMA_OWNER_STATE_MIXED,		/* the CPU owns parts, not one range */
};

/*
 * A driver unbinds while its own calls are traced, and __string() would
 * evaluate its source twice (length, then copy): read dev->driver once,
 * into a fixed field.
 */
#define DMA_OWNER_TRACE_DRIVER_LEN	32
static inline const char *dma_owner_trace_driver(const struct device *dev)
{
	const struct device_driver *drv = READ_ONCE(dev->driver);

	return drv ? drv->name : "";
}
#endif

TRACE_DEFINE_ENUM(DMA_OWNER_STATE_NONE);
TRACE_DEFINE_ENUM(DMA_OWNER_STATE_DEVICE);
TRACE_DEFINE_ENUM(DMA_OWNER_STATE_CPU);
TRACE_DEFINE_ENUM(DMA_OWNER_STATE_MIXED);
TRACE_DEFINE_ENUM(DMA_BIDIRECTIONAL);
TRACE_DEFINE_ENUM(DMA_TO_DEVICE);
TRACE_DEFINE_ENUM(DMA_FROM_DEVICE);
TRACE_DEFINE_ENUM(DMA_NONE);

#define show_dma_owner_state(s)					\
	__print_symbolic(s,					\
			 { DMA_OWNER_STATE_NONE, "none" },	\
			 { DMA_OWNER_STATE_DEVICE, "device" },	\
			 { DMA_OWNER_STATE_CPU, "cpu" },	\
			 { DMA_OWNER_STATE_MIXED, "cpu+device" })

#define show_dma_owner_dir(d)					\
	__print_symbolic(d,					\
			 { DMA_BIDIRECTIONAL, "BIDIRECTIONAL" },\
			 { DMA_TO_DEVICE, "TO_DEVICE" },	\
			 { DMA_FROM_DEVICE, "FROM_DEVICE" },	\
			 { DMA_NONE, "NONE" })

DECLARE_EVENT_CLASS(dma_owner_transition,
	TP_PROTO(struct device *dev, u64 handle, size_t size, int dir,
		 int owner_before, int owner_after, unsigned long caller),
	TP_ARGS(dev, handle, size, dir, owner_before, owner_after, caller),

	TP_STRUCT__entry(
		__string(device, dev_name(dev))
		__array(char, driver, DMA_OWNER_TRACE_DRIVER_LEN)
		__field(u64, handle)
		__field(size_t, size)
		__field(int, dir)
		__field(int, owner_before)
		__field(int, owner_after)
		__field(unsigned long, caller)
	),

	TP_fast_assign(
		__assign_str(device);
		strscpy(__entry->driver, dma_owner_trace_driver(dev),
			DMA_OWNER_TRACE_DRIVER_LEN);
		__entry->handle = handle;
		__entry->size = size;
		__entry->dir = dir;
		__entry->owner_before = owner_before;
		__entry->owner_after = owner_after;
		__entry->caller = caller;
	),

	TP_printk("%s %s handle=0x%llx size=%zu dir=%s owner=%s->%s caller=%pS",
		  __entry->driver, __get_str(device), __entry->handle,
		  __entry->size, show_dma_owner_dir(__entry->dir),
		  show_dma_owner_state(__entry->owner_before),
		  show_dma_owner_state(__entry->owner_after),
		  (void *)__entry->caller)
);

DEFINE_EVENT(dma_owner_transition, dma_owner_map,
	TP_PROTO(struct device *dev, u64 handle, size_t size, int dir,
		 int owner_before, int owner_after, unsigned long caller),
	TP_ARGS(dev, handle, size, dir, owner_before, owner_after, caller));

DEFINE_EVENT(dma_owner_transition, dma_owner_unmap,
	TP_PROTO(struct device *dev, u64 handle, size_t size, int dir,
		 int owner_before, int owner_after, unsigned long caller),
	TP_ARGS(dev, handle, size, dir, owner_before, owner_after, caller));

DEFINE_EVENT(dma_owner_transition, dma_owner_sync_for_cpu,
	TP_PROTO(struct device *dev, u64 handle, size_t size, int dir,
		 int owner_before, int owner_after, unsigned long caller),
	TP_ARGS(dev, handle, size, dir, owner_before, owner_after, caller));

DEFINE_EVENT(dma_owner_transition, dma_owner_sync_for_device,
	TP_PROTO(struct device *dev, u64 handle, size_t size, int dir,
		 int owner_before, int owner_after, unsigned long caller),
	TP_ARGS(dev, handle, size, dir, owner_before, owner_after, caller));

TRACE_EVENT(dma_owner_violation,
	TP_PROTO(const char *kind, struct device *dev, u64 handle, size_t size,
		 int dir, int owner, unsigned long caller),
	TP_ARGS(kind, dev, handle, size, dir, owner, caller),

	TP_STRUCT__entry(
		__string(kind, kind)
		__string(device, dev_name(dev))
		__array(char, driver, DMA_OWNER_TRACE_DRIVER_LEN)
		__field(u64, handle)
		__field(size_t, size)
		__field(int, dir)
		__field(int, owner)
		__field(unsigned long, caller)
	),

	TP_fast_assign(
		__assign_str(kind);
		__assign_str(device);
		strscpy(__entry->driver, dma_owner_trace_driver(dev),
			DMA_OWNER_TRACE_DRIVER_LEN);
		__entry->handle = handle;
		__entry->size = size;
		__entry->dir = dir;
		__entry->owner = owner;
		__entry->caller = caller;
	),

	TP_printk("%s %s %s handle=0x%llx size=%zu dir=%s owner=%s caller=%pS",
		  __get_str(kind), __entry->driver, __get_str(device),
		  __entry->handle, __entry->size,
		  show_dma_owner_dir(__entry->dir),
		  show_dma_owner_state(__entry->owner),
		  (void *)__entry->caller)
);

#endif /* _TRACE_DMA_OWNER_H */

/* This part must be outside protection */
#include <trace/define_trace.h>
