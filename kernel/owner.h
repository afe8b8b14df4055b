/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DMA ownership tracker: definitions shared by the core (owner.c), the report
 * path (owner_report.c) and the KUnit suite.
 */
#ifndef _KERNEL_DMA_OWNER_H
#define _KERNEL_DMA_OWNER_H

#include <linux/atomic.h>
#include <linux/dma-owner.h>
#include <linux/list_bl.h>
#include <linux/stackdepot.h>
#include <trace/events/dma_owner.h>

struct seq_file;

/* Violation kinds: stable names, used in dmesg, debugfs and trace events. */
enum dma_owner_kind {
	DMA_OWNER_MISSING_SYNC_FOR_DEVICE,
	DMA_OWNER_REDUNDANT_SYNC_FOR_DEVICE,
	DMA_OWNER_UNKNOWN_HANDLE,
	DMA_OWNER_USE_AFTER_UNMAP,
	DMA_OWNER_OUT_OF_RANGE,
	DMA_OWNER_DIR_MISMATCH,
	DMA_OWNER_SIZE_MISMATCH,
	DMA_OWNER_CPU_WRITE_WHILE_DEVICE_OWNED,
	DMA_OWNER_LEAK,
	DMA_OWNER_NR_KINDS
};

/* The operations that move ownership. */
enum dma_owner_op {
	DMA_OWNER_OP_MAP,
	DMA_OWNER_OP_UNMAP,
	DMA_OWNER_OP_SYNC_FOR_CPU,
	DMA_OWNER_OP_SYNC_FOR_DEVICE,
};

#define DMA_OWNER_HISTORY	4	/* transitions remembered per mapping */
#define DMA_OWNER_MAX_RANGES	15	/* CPU-owned ranges kept exactly */

/*
 * The byte ranges the CPU owns in a mapping that has more than one: sorted,
 * disjoint and not adjacent, offsets from the mapping's handle. A pool that
 * cuts a page into buffers and hands them to the CPU one by one needs this;
 * most mappings never do, and keep their one range inline.
 */
struct dma_owner_ranges {
	u32 nr;
	struct {
		u32 lo;
		u32 hi;
	} r[DMA_OWNER_MAX_RANGES];
};

/**
 * struct dma_owner_entry - one live streaming mapping (or sg segment)
 * @node:	link in its hash bucket
 * @dev:	the device it is mapped for; compared, never dereferenced
 *		after the driver unbound
 * @handle:	DMA address of the first byte
 * @cpu_lo:	start of the byte range the CPU owns, relative to @handle
 * @cpu_hi:	end of that range; @cpu_lo == @cpu_hi: the device owns it all.
 *		When @inexact, a range that holds every byte the CPU may own.
 * @ranges:	instead of @cpu_lo and @cpu_hi when @fragmented
 * @size:	length in bytes (larger mappings are not tracked)
 * @map_stack:	where it was mapped (stack depot handle)
 * @map_jiffies: when it was mapped
 * @sg_ents:	for an sg segment: how many segments the list mapped to
 * @syncs_for_cpu: number of sync_for_cpu calls (saturating)
 * @syncs_for_device: number of sync_for_device calls (saturating)
 * @dir:	the direction it was mapped with
 * @api:	enum dma_owner_api of the map call
 * @level:	hash level, from the size (see owner.c)
 * @skip_sync:	mapped with DMA_ATTR_SKIP_CPU_SYNC: its owner does its own
 *		cache maintenance, and a sync_for_device is never redundant
 * @inexact:	which bytes the CPU owns is not known exactly, so owner
 *		checks that need it wait until a whole-range sync
 * @has_csum:	the entry is part of a struct dma_owner_csum_entry (owner.c)
 * @fragmented:	the CPU owns several ranges, in @ranges
 * @in_parts:	in a snapshot of a @fragmented entry: the CPU owns parts
 *		of [@cpu_lo, @cpu_hi), not all of it
 * @hist_len:	how many of @hist are valid
 * @hist_ops:	enum dma_owner_op of each history slot, 2 bits each
 * @hist:	callers of the last transitions, a ring ending at @hist_len - 1,
 *		as offsets from _stext (see dma_owner_encode_caller())
 *
 * Every live mapping has one, so every byte counts: 80 bytes on 64-bit,
 * 51 to a slab page. What only the optional content check needs lives
 * around it, in struct dma_owner_csum_entry.
 */
struct dma_owner_entry {
	struct hlist_bl_node node;
	struct device *dev;
	dma_addr_t handle;
	union {
		struct {
			u32 cpu_lo;
			u32 cpu_hi;
		};
		struct dma_owner_ranges *ranges;
	};
	u32 size;
	depot_stack_handle_t map_stack;
	u32 map_jiffies;
	u32 sg_ents;
	u16 syncs_for_cpu;
	u16 syncs_for_device;
	u16 dir:2;
	u16 api:3;
	u16 level:3;
	u16 skip_sync:1;
	u16 inexact:1;
	u16 has_csum:1;
	u16 fragmented:1;
	u16 in_parts:1;
	u8 hist_len;
	u8 hist_ops;
	s32 hist[DMA_OWNER_HISTORY];
};

/**
 * struct dma_owner_report - everything a violation report says
 * @kind:	what was violated
 * @op:		the operation that found it
 * @dev:	the device of the call
 * @addr:	DMA address the call named
 * @size:	size the call named
 * @dir:	direction the call named
 * @caller:	the violating call site
 * @has_entry:	@entry is a snapshot of the mapping concerned
 * @entry:	that snapshot
 * @unmap_caller: for use-after-unmap, who unmapped it
 * @unmap_jiffies: and when
 */
struct dma_owner_report {
	enum dma_owner_kind kind;
	enum dma_owner_op op;
	struct device *dev;
	dma_addr_t addr;
	size_t size;
	enum dma_data_direction dir;
	unsigned long caller;
	bool has_entry;
	struct dma_owner_entry entry;
	unsigned long unmap_caller;
	u32 unmap_jiffies;
};

/* A live mapping as the mappings file shows it, names included. */
struct dma_owner_mapping {
	struct dma_owner_entry e;
	char dev[64];
	char drv[32];
};

/*
 * Counts of the operations every DMA call makes, per CPU so that CPUs
 * mapping in parallel do not share a cache line; see dma_owner_op_counts().
 */
struct dma_owner_op_counts {
	unsigned long maps;
	unsigned long unmaps;
	unsigned long syncs_for_cpu;
	unsigned long syncs_for_device;
};

/* The other counters; see the stats file in owner_debugfs.c. */
struct dma_owner_stats {
	atomic_long_t live;
	atomic_long_t peak_live;
	atomic_long_t untracked;
	atomic_long_t violations;
	atomic_long_t violation[DMA_OWNER_NR_KINDS];
};

/* How reports reach dmesg. */
enum dma_owner_report_mode {
	DMA_OWNER_REPORT_RATELIMIT,	/* once per call site and kind per interval */
	DMA_OWNER_REPORT_ALL,		/* every violation */
	DMA_OWNER_REPORT_PANIC,		/* the first violation panics */
};

/* The owner of a mapping, as the trace events name it. */
static inline int dma_owner_state(const struct dma_owner_entry *e)
{
	if (e->inexact)
		return DMA_OWNER_STATE_MIXED;
	if (e->fragmented || e->cpu_lo != e->cpu_hi)
		return DMA_OWNER_STATE_CPU;
	return DMA_OWNER_STATE_DEVICE;
}

extern struct dma_owner_stats dma_owner_stats;
extern const char *const dma_owner_kind_names[DMA_OWNER_NR_KINDS];
extern const char *const dma_owner_op_names[];

/* owner.c */
int dma_owner_set_enabled(bool on);
bool dma_owner_is_enabled(void);
const char *dma_owner_dir_name(enum dma_data_direction dir);
void dma_owner_device_reset(struct device *dev);
void dma_owner_forget_device(struct device *dev);
unsigned int dma_owner_show_incomplete(struct seq_file *m);
int dma_owner_set_filter(const char *name);
void dma_owner_get_filter(char *buf, size_t len);
void dma_owner_clear_counters(void);
void dma_owner_op_counts(struct dma_owner_op_counts *sum);
void dma_owner_snapshot(struct dma_owner_entry *dst,
			const struct dma_owner_entry *e);
unsigned long dma_owner_map_caller(const struct dma_owner_entry *e);
s32 dma_owner_encode_caller(unsigned long ip);
unsigned long dma_owner_hist_caller(const struct dma_owner_entry *e,
				    unsigned int i);
unsigned long dma_owner_nr_buckets(void);
unsigned long dma_owner_next_bucket(unsigned long i);
unsigned int dma_owner_copy_bucket(unsigned long i, unsigned int skip,
				   struct dma_owner_mapping *buf, unsigned int max);
extern bool dma_owner_check_contents;

/* owner_report.c */
void dma_owner_report(struct dma_owner_report *r);
void dma_owner_emit(const struct dma_owner_report *r, unsigned int suppressed);
const char *dma_owner_op_name(enum dma_owner_op op, enum dma_owner_api api);
const char *dma_owner_owner_string(const struct dma_owner_entry *e, char *buf,
				   size_t len);
int dma_owner_log_resize(unsigned int size);
unsigned int dma_owner_log_size(void);
int dma_owner_log_clear(void);
u64 dma_owner_log_count(void);
int dma_owner_log_show(struct seq_file *seq, u64 index);
extern int dma_owner_report_mode;

#endif /* _KERNEL_DMA_OWNER_H */
