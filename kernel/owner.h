/* SPDX-License-Identifier: GPL-2.0 */
/*
 * DMA ownership tracker: definitions shared by its files and the KUnit
 * suite. Each file keeps one concept: the state machine and the hooks
 * (owner.c), the table of live mappings (owner_table.c), who owns which bytes
 * (owner_ranges.c), recently unmapped mappings (owner_unmapped.c), what is
 * known of each device (owner_device.c), on/off, filter and counters
 * (owner_control.c), and the report path (owner_report.c).
 */
#ifndef _KERNEL_DMA_OWNER_H
#define _KERNEL_DMA_OWNER_H

#include <linux/atomic.h>
#include <linux/device.h>
#include <linux/hash.h>
#include <linux/percpu.h>
#include <linux/rcupdate.h>
#include <linux/dma-owner.h>
#include <linux/dma-owner-poison.h>
#include <linux/list_bl.h>
#include <linux/minmax.h>
#include <linux/mm.h>
#include <linux/stackdepot.h>
#include <trace/events/dma_owner.h>
#include <asm/sections.h>

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
	DMA_OWNER_MAP_ERROR_UNCHECKED,
	DMA_OWNER_API_MISMATCH,
	DMA_OWNER_SG_COUNT_MISMATCH,
	DMA_OWNER_SG_SEGMENT_LIMIT,
	DMA_OWNER_BAD_MEMORY,
	DMA_OWNER_CPU_ADDRESS_MISMATCH,
	DMA_OWNER_CACHE_LINE_SHARED,
	DMA_OWNER_CPU_READ_WHILE_DEVICE_OWNED,
	DMA_OWNER_FREED_WHILE_MAPPED,
	DMA_OWNER_NR_KINDS
};

#define DMA_OWNER_HISTORY	3	/* transitions remembered per mapping */
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
 * @next:	the next entry in its hash bucket
 * @dev:	the device it is mapped for; compared, never dereferenced
 *		after the driver unbound
 * @handle:	DMA address of the first byte
 * @cpu_lo:	start of the byte range the CPU owns, relative to @handle
 * @cpu_hi:	end of that range; @cpu_lo == @cpu_hi: the device owns it all.
 *		When @inexact, a range that holds every byte the CPU may own.
 * @ranges:	instead of @cpu_lo and @cpu_hi when @fragmented
 * @cpu_addr:	instead of them for a coherent allocation, which has no
 *		owner: its CPU address, which its free must pass again
 * @size:	length in bytes (larger mappings are not tracked)
 * @map_stack:	where it was mapped (stack depot handle)
 * @map_jiffies: when it was mapped
 * @sg_nents:	for an sg segment: the entry count passed to dma_map_sg(),
 *		which every later call on the list must pass again; U16_MAX
 *		for that many or more (see dma_owner_sg_nents())
 * @syncs_for_cpu: number of sync_for_cpu calls, up to U8_MAX
 * @syncs_for_device: number of sync_for_device calls, up to U8_MAX
 * @dir:	the direction it was mapped with
 * @api:	enum dma_owner_api of the map call
 * @level:	hash level, from the size (see owner_table.c)
 * @skip_sync:	mapped with DMA_ATTR_SKIP_CPU_SYNC: its owner does its own
 *		cache maintenance, and a sync_for_device is never redundant
 * @inexact:	which bytes the CPU owns is not known exactly, so owner
 *		checks that need it wait until a whole-range sync
 * @has_csum:	the entry is part of a struct dma_owner_wide_entry, with a
 *		checksum
 * @fragmented:	the CPU owns several ranges, in @ranges
 * @in_parts:	in a snapshot of a @fragmented entry: the CPU owns parts
 *		of [@cpu_lo, @cpu_hi), not all of it
 * @error_checked: dma_mapping_error() was called on the handle, or the
 *		map function has no error handle to check (sg, allocators)
 * @has_lines:	the entry is part of a struct dma_owner_wide_entry, and
 *		its first or last cache line goes in the index of owner_lines.c
 * @poison:	the entry is part of a struct dma_owner_wide_entry, and the
 *		bytes its device owns are poisoned in KASAN's shadow
 *		(owner_poison.c)
 * @hist_n:	transitions recorded, up to DMA_OWNER_HISTORY; from there it
 *		runs round DMA_OWNER_HISTORY .. 2 * DMA_OWNER_HISTORY - 1, so
 *		that the next slot is always @hist_n % DMA_OWNER_HISTORY (see
 *		dma_owner_record() and dma_owner_hist_slot())
 * @hist_ops:	enum dma_owner_op of each transition, 2 bits each, the
 *		newest in the lowest bits (see dma_owner_hist_op())
 * @hist:	callers of the last transitions, a ring, as offsets from
 *		_stext (see dma_owner_encode_caller())
 *
 * Every live mapping has one, so every byte counts: 64 bytes on 64-bit, a
 * cache line, 64 to a slab page (without slab debugging or KASAN). What
 * only the optional checks need lives around it, in struct
 * dma_owner_wide_entry. To fit, the bucket chain is singly linked (struct
 * dma_owner_bucket), the history keeps three transitions, the sync counts
 * stop at 255 and the sg entry count at 65535.
 */
struct dma_owner_entry {
	struct dma_owner_entry *next;
	struct device *dev;
	dma_addr_t handle;
	union {
		struct {
			u32 cpu_lo;
			u32 cpu_hi;
		};
		struct dma_owner_ranges *ranges;
		const void *cpu_addr;
	};
	u32 size;
	depot_stack_handle_t map_stack;
	u32 map_jiffies;
	u16 sg_nents;
	u8 syncs_for_cpu;
	u8 syncs_for_device;
	u16 dir:2;
	u16 api:3;
	u16 level:3;
	u16 skip_sync:1;
	u16 inexact:1;
	u16 has_csum:1;
	u16 fragmented:1;
	u16 in_parts:1;
	u16 error_checked:1;
	u16 has_lines:1;
	u16 poison:1;
	u8 hist_n;
	u8 hist_ops;
	s32 hist[DMA_OWNER_HISTORY];
};

static_assert(!IS_ENABLED(CONFIG_64BIT) || sizeof(struct dma_owner_entry) == 64);

/*
 * What an sg segment's entry keeps of dma_map_sg()'s @nents, and what a
 * later call's is compared as: a count of U16_MAX or more is kept as
 * U16_MAX, so that a call passing fewer than U16_MAX (the count
 * dma_map_sg() returned, the usual slip) is still told apart; one that
 * passes another count of U16_MAX or more is not.
 */
static inline u16 dma_owner_sg_nents(unsigned int nents)
{
	return min_t(unsigned int, nents, U16_MAX);
}

/*
 * The history's ops: DMA_OWNER_HIST_OP_BITS each in @hist_ops, a shift
 * register with the newest in the lowest bits, so that recording one is a
 * shift whatever the slot its caller goes in.
 */
#define DMA_OWNER_HIST_OP_BITS	2
#define DMA_OWNER_HIST_OP_MASK	((1U << DMA_OWNER_HIST_OP_BITS) - 1)
static_assert(BIT(DMA_OWNER_HIST_OP_BITS) >= DMA_OWNER_NR_OPS);
static_assert(DMA_OWNER_HISTORY * DMA_OWNER_HIST_OP_BITS <=
	      sizeof_field(struct dma_owner_entry, hist_ops) * BITS_PER_BYTE);
static_assert(2 * DMA_OWNER_HISTORY - 1 <= U8_MAX);

/* How many transitions @e's history holds. */
static inline unsigned int dma_owner_hist_len(const struct dma_owner_entry *e)
{
	return min_t(unsigned int, e->hist_n, DMA_OWNER_HISTORY);
}

/* The slot of transition @i of @e's history, 0 the oldest. */
static inline unsigned int dma_owner_hist_slot(const struct dma_owner_entry *e,
					       unsigned int i)
{
	unsigned int oldest = e->hist_n < DMA_OWNER_HISTORY ? 0 : e->hist_n;

	return (oldest + i) % DMA_OWNER_HISTORY;
}

/* The op of transition @i of @e's history, 0 the oldest. */
static inline enum dma_owner_op dma_owner_hist_op(const struct dma_owner_entry *e,
						  unsigned int i)
{
	unsigned int newer = dma_owner_hist_len(e) - 1 - i;

	return (e->hist_ops >> (DMA_OWNER_HIST_OP_BITS * newer)) & DMA_OWNER_HIST_OP_MASK;
}

/* What the CPU did to bytes a device owned (dma_owner.poison). */
enum dma_owner_access {
	DMA_OWNER_ACCESS_NONE,
	DMA_OWNER_ACCESS_READ,
	DMA_OWNER_ACCESS_WRITE,
	DMA_OWNER_ACCESS_FREE,
};

/* The mapping on the other side of a shared cache line, as reported. */
struct dma_owner_sharer {
	phys_addr_t line;
	dma_addr_t handle;
	u32 size;
	u32 map_jiffies;
	depot_stack_handle_t map_stack;
	enum dma_data_direction dir;
	char dev[32];
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
 * @api:	for api-mismatch, the family of the function called
 * @nents:	for sg-count-mismatch, the entry count the call passed
 * @what:	for bad-memory and sg-segment-limit, the rule broken, in words
 * @limit:	for sg-segment-limit, the device's limit that was broken
 * @cpu_addr:	for cpu-address-mismatch, the CPU address the free passed
 * @sharer:	for cache-line-shared, the other mapping in the line
 * @access:	for a breach KASAN caught (dma_owner.poison): what the CPU did
 * @access_offset: the offset in the mapping of the first byte it touched
 *		that the device owned
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
	enum dma_owner_api api;
	int nents;
	const char *what;
	u64 limit;
	const void *cpu_addr;
	struct dma_owner_sharer sharer;
	enum dma_owner_access access;
	u32 access_offset;
};

/* A live mapping as the mappings file shows it, names included. */
struct dma_owner_mapping {
	struct dma_owner_entry e;
	char dev[64];
	char drv[32];
};

/*
 * Counts of the calls of each operation, per CPU so that CPUs mapping in
 * parallel do not share a cache line; see dma_owner_op_counts(). The
 * stats file names them from dma_owner_op_counter_names[].
 */
struct dma_owner_op_counts {
	unsigned long n[DMA_OWNER_NR_OPS];
	/*
	 * Syncs the walk judged (sync_walk()): the others took the common
	 * path, which counts nothing of its own so that it stays as cheap.
	 */
	unsigned long syncs_walked;
	unsigned long unmaps_walked;	/* the same, of unmaps (unmap_walk()) */
};

/* The other counters; see the stats file in owner_debugfs.c. */
struct dma_owner_stats {
	atomic_long_t live;
	atomic_long_t peak_live;
	atomic_long_t untracked;
	atomic_long_t violations;
	atomic_long_t violation[DMA_OWNER_NR_KINDS];
	atomic_long_t ignored;		/* reports an ignore rule silenced */
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
	if (e->inexact || e->api == DMA_OWNER_API_COHERENT)
		return DMA_OWNER_STATE_MIXED;
	if (e->fragmented || e->cpu_lo != e->cpu_hi)
		return DMA_OWNER_STATE_CPU;
	return DMA_OWNER_STATE_DEVICE;
}

extern struct dma_owner_stats dma_owner_stats;
extern const char *const dma_owner_kind_names[DMA_OWNER_NR_KINDS];
extern const char *const dma_owner_op_names[DMA_OWNER_NR_OPS];
extern const char *const dma_owner_op_counter_names[DMA_OWNER_NR_OPS];

/* owner_control.c: on and off, the filter, the counters */
int dma_owner_set_enabled(bool on);
bool dma_owner_is_enabled(void);
int dma_owner_set_filter(const char *name);
void dma_owner_get_filter(char *buf, size_t len);
void dma_owner_clear_counters(void);
void dma_owner_op_counts(struct dma_owner_op_counts *sum);
DECLARE_PER_CPU(struct dma_owner_op_counts, dma_owner_op_counters);
extern bool dma_owner_settling;
extern const char __rcu *dma_owner_filter;

/*
 * A device's name, never NULL: a device may map before it is named
 * (platform_device_alloc() names it only in platform_device_add()).
 */
static inline const char *dma_owner_dev_name(const struct device *dev)
{
	return dev_name(dev) ?: "(unnamed)";
}

/* Is @dev outside the debugfs filter? Called under rcu_read_lock(). */
static inline bool dma_owner_filtered_out(struct device *dev)
{
	const char *f = rcu_dereference(dma_owner_filter);
	const struct device_driver *drv;

	if (likely(!f))
		return false;
	drv = READ_ONCE(dev->driver);
	return strcmp(dma_owner_dev_name(dev), f) && (!drv || strcmp(drv->name, f));
}

/* owner_device.c: what the tracker knows of each device */
enum dma_owner_why {
	DMA_OWNER_WHY_COMPLETE,
	DMA_OWNER_WHY_TRACKING_STARTED,		/* tracking or the filter changed */
	DMA_OWNER_WHY_UNTRACKED,		/* more untracked mappings than remembered */
	DMA_OWNER_WHY_ZERO_LENGTH_SEGMENT,	/* sg segments past one with no DMA length */
	DMA_OWNER_WHY_DELETED,			/* device_del() was called: nothing tracked */
	DMA_OWNER_WHY_LEAKED,			/* left mappings at an unbind */
};

void dma_owner_device_reset(struct device *dev);
void dma_owner_forget_device(struct device *dev);
unsigned int dma_owner_show_incomplete(struct seq_file *m);
bool dma_owner_may_report_miss(struct device *dev, dma_addr_t addr, bool unmap);
bool __dma_owner_may_mean_untracked(struct device *dev, dma_addr_t addr);
extern atomic_t dma_owner_untracked_handles;

/**
 * dma_owner_may_mean_untracked() - may a call mean an untracked mapping?
 * @dev: the device of the call
 * @addr: the address it named
 *
 * A call that fits a live mapping may mean an untracked one instead (the
 * same memory mapped twice without an IOMMU). Almost never asked: only
 * while some device has untracked handles, so the common answer is inline.
 *
 * Return: true if it may.
 */
static inline bool dma_owner_may_mean_untracked(struct device *dev,
						dma_addr_t addr)
{
	if (likely(!atomic_read(&dma_owner_untracked_handles)))
		return false;
	return __dma_owner_may_mean_untracked(dev, addr);
}

void dma_owner_lose_all_completeness(void);
void dma_owner_count_untracked(struct device *dev, dma_addr_t addr,
			       size_t size, enum dma_owner_why why);
bool dma_owner_count_live(struct device *dev, int delta);
bool dma_owner_has_entries(struct device *dev);
void dma_owner_devices_complete(void);

/* owner_table.c: the table of live mappings */
#define DMA_OWNER_NR_LEVELS		6	/* 4 KiB ... 4 GiB chunks */
#define DMA_OWNER_LEVEL_SHIFT(l)	(12 + 4 * (l))

/*
 * What only the optional checks need, around the entry, in a larger object
 * of its own cache, so that entries without them do not pay for it: where
 * the buffer is, what a DMA_TO_DEVICE buffer under the content check
 * (dma_owner.check_contents) held, whether a poisoned mapping's memory was
 * reported freed (dma_owner.poison: the two never meet, since only
 * mappings the device may write are poisoned), and the links of a mapping
 * whose first or last cache line it does not fill (owner_lines.c).
 * Snapshots copy only the inner entry: nothing reads these fields from them.
 */
struct dma_owner_wide_entry {
	struct dma_owner_entry e;
	phys_addr_t phys;
	union {
		u32 csum;
		u32 freed_reported;
	};
	u32 sg_call;			/* which dma_map_sg() call made it */
	struct hlist_bl_node line[2];	/* its first and last line */
};

/*
 * The levels devices have had entries at (bit L: level L), by a hash of
 * the device: a call walks only the levels its device, or one that shares
 * its hash, has used, so a device that maps small buffers does not pay for
 * another's large ones. Bits are never cleared.
 */
#define DMA_OWNER_LEVEL_SETS_BITS	6
extern unsigned long dma_owner_level_sets[1 << DMA_OWNER_LEVEL_SETS_BITS];

static inline unsigned long *dma_owner_levels_of(const struct device *dev)
{
	return &dma_owner_level_sets[hash_ptr(dev, DMA_OWNER_LEVEL_SETS_BITS)];
}

/*
 * The levels at which devices have had an entry that runs on into the
 * next chunk, by the same hash: only then may a sync mean a mapping that
 * starts in the chunk before its own. Most devices map buffers that stay
 * inside a page (page_pool, blk-mq's pages, a page-aligned buffer), and
 * their syncs look at one chunk. Bits are never cleared.
 */
extern unsigned long dma_owner_span_sets[1 << DMA_OWNER_LEVEL_SETS_BITS];

static inline unsigned long *dma_owner_spans_of(const struct device *dev)
{
	return &dma_owner_span_sets[hash_ptr(dev, DMA_OWNER_LEVEL_SETS_BITS)];
}

extern bool dma_owner_check_contents;

/* Where a mapping of @dev at @level starting in @chunk is hashed. */
static inline u64 dma_owner_place_key(struct device *dev, unsigned int level,
				      u64 chunk)
{
	return (u64)(unsigned long)dev ^ ((chunk << 3 | level) * GOLDEN_RATIO_64);
}

static inline u64 dma_owner_entry_chunk(const struct dma_owner_entry *e)
{
	return (u64)e->handle >> DMA_OWNER_LEVEL_SHIFT(e->level);
}

static inline struct dma_owner_wide_entry *
dma_owner_to_wide_entry(struct dma_owner_entry *e)
{
	return container_of(e, struct dma_owner_wide_entry, e);
}

/*
 * A bucket of the table: its entries, singly linked, and its lock, bit 0 of
 * the first pointer (as in a struct hlist_bl_head). Every walk holds the
 * lock, so that an unlink may walk from the head to the entry before: the
 * eight bytes of a back link, in every entry, for a walk that is nearly
 * always none (a bucket holds one entry or none).
 */
struct dma_owner_bucket {
	struct dma_owner_entry *first;
};

static inline struct dma_owner_entry *
dma_owner_first(const struct dma_owner_bucket *b)
{
	return (struct dma_owner_entry *)
		((unsigned long)READ_ONCE(b->first) & ~LIST_BL_LOCKMASK);
}

/* Asked without the lock too: an empty bucket is not locked to see so. */
static inline bool dma_owner_bucket_empty(const struct dma_owner_bucket *b)
{
	return !dma_owner_first(b);
}

/* Each entry of bucket @b, which is locked. */
#define dma_owner_for_each_entry(e, b)					\
	for ((e) = dma_owner_first(b); (e); (e) = (e)->next)

/* Point the head of locked bucket @b at @e, keeping the lock bit. */
static inline void dma_owner_set_first(struct dma_owner_bucket *b,
				       struct dma_owner_entry *e)
{
	unsigned long lock = (unsigned long)b->first & LIST_BL_LOCKMASK;

	/* As hlist_bl_set_first() checks, but a warning: never a crash. */
	if (IS_ENABLED(CONFIG_DEBUG_LIST))
		WARN_ON_ONCE(lock != LIST_BL_LOCKMASK);
	WRITE_ONCE(b->first, (struct dma_owner_entry *)((unsigned long)e | lock));
}

static inline void dma_owner_bucket_add(struct dma_owner_bucket *b,
					struct dma_owner_entry *e)
{
	e->next = dma_owner_first(b);
	dma_owner_set_first(b, e);
}

/* Take @e, which is there, out of locked bucket @b. */
static inline void dma_owner_bucket_del(struct dma_owner_bucket *b,
					struct dma_owner_entry *e)
{
	struct dma_owner_entry *prev = dma_owner_first(b);

	if (prev == e) {
		dma_owner_set_first(b, e->next);
	} else {
		while (prev && prev->next != e)
			prev = prev->next;
		if (!WARN_ON_ONCE(!prev))
			prev->next = e->next;
	}
	e->next = NULL;
}

/* Is @e in locked bucket @b? */
static inline bool dma_owner_bucket_holds(const struct dma_owner_bucket *b,
					  const struct dma_owner_entry *e)
{
	const struct dma_owner_entry *pos;

	dma_owner_for_each_entry(pos, b)
		if (pos == e)
			return true;
	return false;
}

static inline void dma_owner_lock_bucket(struct dma_owner_bucket *b,
					 unsigned long *flags)
{
	local_irq_save(*flags);
	bit_spin_lock(0, (unsigned long *)b);
}

static inline void dma_owner_unlock_bucket(struct dma_owner_bucket *b,
					   unsigned long flags)
{
	__bit_spin_unlock(0, (unsigned long *)b);
	local_irq_restore(flags);
}

extern struct dma_owner_bucket *dma_owner_table;
extern unsigned int dma_owner_table_shift;

/* The bucket a mapping of @dev at @level starting in @chunk is hashed to. */
static inline struct dma_owner_bucket *
dma_owner_bucket(struct device *dev, unsigned int level, u64 chunk)
{
	return &dma_owner_table[hash_64(dma_owner_place_key(dev, level, chunk),
					dma_owner_table_shift)];
}

/*
 * Where the mappings of a device that may hold an address are hashed: a
 * mapping starts in the chunk of an address it holds or in the chunk
 * before, at its own level; levels the device never used are skipped.
 * dma_owner_first_place() starts a walk, dma_owner_next_place() yields
 * each (level, chunk) in turn.
 */
struct dma_owner_places {
	unsigned long levels;	/* the levels still to walk */
	dma_addr_t addr;
	bool starts;		/* only mappings that start at @addr */
	bool before;		/* the chunk before is next */
	unsigned int level;
	u64 chunk;
};

static inline void dma_owner_first_place(struct dma_owner_places *pl,
					 const struct device *dev,
					 dma_addr_t addr, bool starts)
{
	/* Whole: a caller may leave it uninitialized (__uninitialized). */
	*pl = (struct dma_owner_places){
		.levels = READ_ONCE(*dma_owner_levels_of(dev)),
		.addr = addr,
		.starts = starts,
	};
}

static inline bool dma_owner_next_place(struct dma_owner_places *pl)
{
	if (pl->before) {
		pl->before = false;
		pl->chunk--;
		return true;
	}
	if (!pl->levels)
		return false;
	pl->level = __ffs(pl->levels);
	pl->levels &= pl->levels - 1;
	pl->chunk = (u64)pl->addr >> DMA_OWNER_LEVEL_SHIFT(pl->level);
	pl->before = !pl->starts && pl->chunk;
	return true;
}

bool dma_owner_table_ready(void);
int dma_owner_table_init(void);
struct dma_owner_entry *dma_owner_new_entry(struct device *dev,
					    dma_addr_t addr, size_t size,
					    enum dma_data_direction dir,
					    unsigned long attrs,
					    enum dma_owner_api api,
					    phys_addr_t phys, unsigned long caller);
void dma_owner_insert(struct dma_owner_entry *e);
void dma_owner_free_entry(struct dma_owner_entry *e);
void dma_owner_drop_entries(struct device *dev, bool report, bool may_sleep);
void dma_owner_flush_table(void);

/**
 * dma_owner_encode_caller() - a code address as a history slot holds it
 * @ip: the address
 *
 * History callers are kept as 32-bit offsets from _stext, which halves the
 * history's share of an entry: x86-64 and arm64 place module text within
 * 2 GiB of the kernel's for their branch ranges, so every caller fits.
 * Inline: every map, sync and unmap records one.
 *
 * Return: the offset, or 0 (unknown) for an address out of its reach: a
 * caller is remembered as unknown rather than as a wrong address.
 */
static inline s32 dma_owner_encode_caller(unsigned long ip)
{
	long off = ip - (unsigned long)_stext;

	return off == (s32)off ? off : 0;
}

s32 dma_owner_encode_caller_for_test(unsigned long ip);
void dma_owner_record_for_test(struct dma_owner_entry *e, enum dma_owner_op op,
			       unsigned long caller);

/**
 * dma_owner_record() - add a transition to a mapping's history
 * @e: the mapping, its bucket locked or out of the table
 * @op: the transition
 * @caller: who made it
 *
 * Inline: every map, sync and unmap records one.
 */
static inline void dma_owner_record(struct dma_owner_entry *e,
				    enum dma_owner_op op, unsigned long caller)
{
	unsigned int n = e->hist_n;

	/*
	 * The caller overwrites the oldest slot once the ring is full, when
	 * @n runs round DMA_OWNER_HISTORY .. 2 * DMA_OWNER_HISTORY - 1: its
	 * slot is @n % DMA_OWNER_HISTORY, worked out without a division.
	 */
	e->hist[n < DMA_OWNER_HISTORY ? n : n - DMA_OWNER_HISTORY] =
		dma_owner_encode_caller(caller);
	e->hist_n = n + 1 < 2 * DMA_OWNER_HISTORY ? n + 1 : DMA_OWNER_HISTORY;
	e->hist_ops = e->hist_ops << DMA_OWNER_HIST_OP_BITS | op;
}

/**
 * dma_owner_snapshot() - copy an entry for reading outside its bucket lock
 * @dst: the copy
 * @e: a live entry, its bucket locked, or one no longer in the table
 *
 * The copy holds no pointer into the tracker: a fragmented entry's ranges
 * become the range that spans them, marked @in_parts. Inline: every unmap
 * keeps one (owner_unmapped.c).
 */
static inline void dma_owner_snapshot(struct dma_owner_entry *dst,
				      const struct dma_owner_entry *e)
{
	*dst = *e;
	dst->next = NULL;
	if (e->fragmented) {
		dst->fragmented = 0;
		dst->in_parts = 1;
		dst->cpu_lo = e->ranges->r[0].lo;
		dst->cpu_hi = e->ranges->r[e->ranges->nr - 1].hi;
	}
}

/* dma_owner.map_stacks= */
enum {
	DMA_OWNER_MAP_STACKS_OFF,
	DMA_OWNER_MAP_STACKS_PER_PATH,	/* taken once per call path and CPU */
	DMA_OWNER_MAP_STACKS_EVERY_MAP,
};

depot_stack_handle_t dma_owner_save_map_stack(const struct device *dev,
					      unsigned long caller);
void dma_owner_forget_map_stacks(void);
bool dma_owner_contents_csum(phys_addr_t phys, size_t size, u32 *csum);
unsigned long dma_owner_map_caller(const struct dma_owner_entry *e);
unsigned long dma_owner_hist_caller(const struct dma_owner_entry *e,
				    unsigned int i);
unsigned long dma_owner_nr_buckets(void);
unsigned long dma_owner_next_bucket(unsigned long i);
unsigned int dma_owner_copy_bucket(unsigned long i, unsigned int skip,
				   struct dma_owner_mapping *buf, unsigned int max);

/* owner_unmapped.c: recently unmapped mappings */
void dma_owner_unmapped_init(void);
void dma_owner_remember_unmapped(const struct dma_owner_entry *e,
				 unsigned long caller);
bool dma_owner_find_unmapped(struct device *dev, dma_addr_t addr,
			     struct dma_owner_report *r);
void dma_owner_forget_unmapped(struct device *dev, bool may_sleep);

/* owner_ranges.c: who owns which bytes */
/*
 * Memory for ranges is allocated before the bucket lock is taken and freed
 * after it is dropped, never under it.
 */
struct dma_owner_ranges_mem {
	struct dma_owner_ranges *spare;
	struct dma_owner_ranges *garbage;
};

static inline bool dma_owner_device_owns_all(const struct dma_owner_entry *e)
{
	return !e->inexact && !e->fragmented && e->cpu_lo == e->cpu_hi;
}

void __dma_owner_move_bytes(struct dma_owner_entry *e, u32 lo, u32 hi,
			    bool to_cpu, struct dma_owner_ranges_mem *mem);

/**
 * dma_owner_cpu_owns_any() - does the CPU own any byte of a range?
 * @e: the mapping
 * @lo: first byte, an offset from its handle
 * @hi: end of the range
 *
 * Inline, with no call, even for a fragmented entry's few ranges: every
 * sync asks, and its common path calls nothing (see sync_only() in
 * owner.c).
 *
 * Return: true if it does (or, for an inexact entry, may).
 */
static __always_inline bool dma_owner_cpu_owns_any(const struct dma_owner_entry *e,
						   u32 lo, u32 hi)
{
	unsigned int i;

	if (likely(!e->fragmented))
		return e->cpu_lo < e->cpu_hi && e->cpu_lo < hi && lo < e->cpu_hi;
	for (i = 0; i < e->ranges->nr; i++)
		if (e->ranges->r[i].lo < hi && lo < e->ranges->r[i].hi)
			return true;
	return false;
}

/**
 * dma_owner_move_in_one() - move bytes of a mapping whose CPU part stays
 *	one range
 * @e: the mapping, its bucket locked
 * @lo: first byte, an offset from its handle
 * @hi: end of the bytes
 * @to_cpu: to the CPU (a sync for the CPU), else to the device
 *
 * The syncs of almost every mapping: the whole of it changing hands, which
 * leaves one owner known exactly, or a part that the CPU's one range grows
 * or shrinks by at an end. Inline, with no call: the common path of a
 * sync moves its bytes here (see sync_only() in owner.c).
 *
 * Return: false, having changed nothing, if the CPU's part is or would be
 * more than one range; owner_ranges.c moves those.
 */
static __always_inline bool dma_owner_move_in_one(struct dma_owner_entry *e,
						  u32 lo, u32 hi, bool to_cpu)
{
	u32 a = e->cpu_lo, b = e->cpu_hi;

	if (e->fragmented)
		return false;
	if (!lo && hi == e->size) {
		e->cpu_lo = 0;
		e->cpu_hi = to_cpu ? hi : 0;
		e->inexact = 0;
		return true;
	}
	if (to_cpu) {
		if (a < b) {
			/* Apart, not even touching: two ranges. */
			if (b < lo || a > hi)
				return false;
			a = min(a, lo);
			b = max(b, hi);
		} else {
			a = lo;
			b = hi;
		}
	} else if (a < b && a < hi && lo < b) {
		/* Inside, not at an end: two ranges. */
		if (a < lo && b > hi)
			return false;
		if (a < lo)
			b = lo;
		else if (b > hi)
			a = hi;
		else
			b = a;
	}
	if (a == b) {
		a = 0;
		b = 0;
		/* The CPU surely owns nothing. */
		e->inexact = 0;
	}
	e->cpu_lo = a;
	e->cpu_hi = b;
	return true;
}

/**
 * dma_owner_move_bytes() - give bytes of a mapping to the CPU or the device
 * @e: the mapping, its bucket locked
 * @lo: first byte, an offset from its handle
 * @hi: end of the bytes
 * @to_cpu: to the CPU (a sync for the CPU), else to the device
 * @mem: ranges allocated before the lock, and those to free after it
 */
static inline void dma_owner_move_bytes(struct dma_owner_entry *e, u32 lo,
					u32 hi, bool to_cpu,
					struct dma_owner_ranges_mem *mem)
{
	if (!dma_owner_move_in_one(e, lo, hi, to_cpu))
		__dma_owner_move_bytes(e, lo, hi, to_cpu, mem);
}

/* owner_args.c: what a call's arguments alone break */
extern bool dma_owner_check_segments;
const char *dma_owner_bad_memory(phys_addr_t phys, size_t size);
const char *__dma_owner_bad_cpu_addr(const void *ptr);

/**
 * dma_owner_bad_cpu_addr() - may dma_map_single() be given this address?
 * @ptr: the CPU address the driver passed
 *
 * dma_map_single() takes the page of @ptr through the linear map, which a
 * virtually mapped address (vmalloc, vmap, a virtually mapped stack,
 * ioremap) or one outside the linear map (module data, a bad pointer) has
 * no page in: the device would get some other memory. Inline for the
 * common answer: no address in the linear map is virtual.
 *
 * Context: any; does not sleep.
 * Return: the kind of memory, in words, or NULL if it may be mapped.
 */
static inline const char *dma_owner_bad_cpu_addr(const void *ptr)
{
	if (likely(virt_addr_valid(ptr)))
		return NULL;
	return __dma_owner_bad_cpu_addr(ptr);
}

const char *dma_owner_segment_breaks(struct device *dev, dma_addr_t addr,
				     size_t len, u64 *limit);

/* owner_lines.c: cache lines shared by mappings */
int dma_owner_lines_init(void);
bool __dma_owner_lines_wanted(phys_addr_t phys, size_t size,
			      unsigned long attrs, enum dma_owner_api api);
extern unsigned int dma_owner_line_mask;

/*
 * Does a new mapping go in the index of lines? Only a buffer that starts or
 * ends inside a line may share one; most fill theirs (a page, a
 * cache-aligned kmalloc() object), and are told so inline.
 */
static inline bool dma_owner_lines_wanted(phys_addr_t phys, size_t size,
					  unsigned long attrs,
					  enum dma_owner_api api)
{
	return ((phys | (phys + size)) & dma_owner_line_mask) &&
	       __dma_owner_lines_wanted(phys, size, attrs, api);
}

bool dma_owner_lines_add(struct dma_owner_wide_entry *we,
			 const struct scatterlist *sgl,
			 struct dma_owner_sharer *sharer);
void dma_owner_lines_del(struct dma_owner_wide_entry *we);
unsigned int dma_owner_cache_line(void);

/*
 * owner_poison.c: the device's bytes poisoned in KASAN's shadow. Every map
 * and unmap asks; the answers for a kernel that does not poison are inline.
 */
extern struct device *dma_owner_poison_only;
bool __dma_owner_poison_wanted(struct device *dev, phys_addr_t phys,
			       size_t size, enum dma_data_direction dir,
			       unsigned long attrs, enum dma_owner_api api);
struct dma_owner_wide_entry *dma_owner_poison_alloc(void);
void dma_owner_poison_index(struct dma_owner_entry *e);
void dma_owner_poison_apply(struct dma_owner_entry *e, bool may_poison);
void dma_owner_poison_move(struct dma_owner_entry *e, u32 lo, u32 hi,
			   bool to_cpu, bool may_poison);
void dma_owner_poison_free(struct dma_owner_entry *e);
bool __dma_owner_poison_freed(struct dma_owner_entry *e);
void dma_owner_poison_init(void);
bool dma_owner_poison_ready(void);

/* Shall a new mapping's device bytes be poisoned? */
static inline bool dma_owner_poison_wanted(struct device *dev,
					   phys_addr_t phys, size_t size,
					   enum dma_data_direction dir,
					   unsigned long attrs,
					   enum dma_owner_api api)
{
	return dma_owner_poisoning() &&
	       __dma_owner_poison_wanted(dev, phys, size, dir, attrs, api);
}

/* Was a poisoned mapping's memory freed before its unmap? */
static inline bool dma_owner_poison_freed(struct dma_owner_entry *e)
{
	return unlikely(e->poison) && __dma_owner_poison_freed(e);
}

/* owner_report.c */
void dma_owner_report(struct dma_owner_report *r);
void dma_owner_emit(const struct dma_owner_report *r, unsigned int suppressed);
const char *dma_owner_op_name(enum dma_owner_op op, enum dma_owner_api api);
const char *dma_owner_dir_name(enum dma_data_direction dir);
const char *dma_owner_owner_string(const struct dma_owner_entry *e, char *buf,
				   size_t len);
int dma_owner_log_resize(unsigned int size);
unsigned int dma_owner_log_size(void);
int dma_owner_log_clear(void);
u64 dma_owner_log_count(void);
int dma_owner_log_show(struct seq_file *seq, u64 index);
extern int dma_owner_report_mode;

/* owner_ignore.c: rules that silence known findings */
#define DMA_OWNER_IGNORE_MAX	32
int dma_owner_ignore_update(char *buf);
bool dma_owner_ignored(const struct dma_owner_report *r);
void dma_owner_ignore_show(struct seq_file *m, const char *prefix);
void dma_owner_ignore_clear_hits(void);

#endif /* _KERNEL_DMA_OWNER_H */
