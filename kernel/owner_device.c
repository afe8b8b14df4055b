// SPDX-License-Identifier: GPL-2.0
/*
 * DMA ownership tracker: what it knows of each device. A sync or unmap that
 * no live mapping fits is a violation only if the tracker saw every mapping
 * of that device; this file keeps whether it did, and handles the device
 * and driver events (bind, unbind, deletion, release) that end mappings.
 */

#include <linux/device.h>
#include <linux/hashtable.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <kunit/visibility.h>

#include "owner.h"

/*
 * A sync or unmap of a handle the table does not hold is a violation only if
 * the tracker saw every mapping of that device: the device is complete. That
 * holds for every device when tracking starts at boot, before any driver.
 * It stops holding for all devices when tracking is switched on at run time
 * or the filter changes (mappings made meanwhile are unknown), and for one
 * device when a zero-length sg segment ends what a list's calls name. A
 * device is complete again when a driver binds or unbinds: it then has no
 * mappings.
 *
 * A mapping the tracker could not allocate an entry for (or one too large
 * for an entry) does not cost the device its completeness: its handle is
 * remembered, up to UNTRACKED_HANDLES per device, and only calls on it go
 * unjudged; its unmap forgets it. Only when more are outstanding does the
 * device become incomplete.
 *
 * Each device that maps or binds has a state, allocated when its driver
 * binds (or at its first map, if it has none) and freed when the device is
 * released: the live count that lets an unbind skip the table walk, and why
 * the device is incomplete. From device_del() to the release, a reference
 * may still make calls (a parent unmapping for its child): nothing new is
 * tracked and no miss is reported. Devices without one (the allocation
 * failed) follow default_why. States are read under RCU and written under
 * dev_states_lock; those of an older epoch are incomplete.
 */
#define UNTRACKED_HANDLES	8

static const char *const why_names[] = {
	[DMA_OWNER_WHY_COMPLETE]		  = "complete",
	[DMA_OWNER_WHY_TRACKING_STARTED]	  = "tracking-started",
	[DMA_OWNER_WHY_UNTRACKED]		  = "untracked-mappings",
	[DMA_OWNER_WHY_ZERO_LENGTH_SEGMENT] = "zero-length-segment",
	[DMA_OWNER_WHY_DELETED]		  = "deleted",
	[DMA_OWNER_WHY_LEAKED]		  = "leaked-at-unbind",
};

struct dev_state {
	struct hlist_node node;
	struct rcu_head rcu;
	struct device *dev;
	atomic_long_t live;		/* its entries, in the table or about to be */
	u32 epoch;
	u8 why;				/* enum dma_owner_why */
	u8 nr_untracked;
	bool mapped;			/* ever had an entry: may have records */
	struct {
		dma_addr_t handle;
		u64 size;
	} untracked[UNTRACKED_HANDLES];
};

static DEFINE_HASHTABLE(dev_states, 10);
static DEFINE_RAW_SPINLOCK(dev_states_lock);
static u32 epoch;
static u8 default_why = DMA_OWNER_WHY_TRACKING_STARTED;	/* devices without a state */
atomic_t dma_owner_untracked_handles;	/* over all devices */

static struct dev_state *find_state(struct device *dev)
{
	struct dev_state *st;

	hash_for_each_possible_rcu(dev_states, st, node, (unsigned long)dev,
				   lockdep_is_held(&dev_states_lock))
		if (st->dev == dev)
			return st;
	return NULL;
}

/* @dev's state, made if it has none and @gfp allows. Under RCU. */
static struct dev_state *get_state(struct device *dev, gfp_t gfp)
{
	struct dev_state *st, *spare;
	unsigned long flags;

	st = find_state(dev);
	if (likely(st))
		return st;
	/* Not under the raw lock: that would sleep on PREEMPT_RT. */
	spare = kzalloc(sizeof(*spare), gfp | __GFP_NOWARN);
	if (!spare)
		return NULL;
	raw_spin_lock_irqsave(&dev_states_lock, flags);
	st = find_state(dev);
	if (!st) {
		st = spare;
		spare = NULL;
		st->dev = dev;
		/* It may have mapped, unseen, as a device without a state. */
		st->epoch = epoch;
		st->why = default_why;
		hash_add_rcu(dev_states, &st->node, (unsigned long)dev);
	}
	raw_spin_unlock_irqrestore(&dev_states_lock, flags);
	kfree(spare);
	return st;
}

static enum dma_owner_why state_why(const struct dev_state *st)
{
	return st->epoch == epoch ? st->why : DMA_OWNER_WHY_TRACKING_STARTED;
}

/*
 * Was the call's handle mapped without the tracker seeing it? An unmap
 * forgets the handle it names.
 */
static bool untracked_handle(struct dev_state *st, dma_addr_t addr,
			     bool unmap)
{
	unsigned int i;

	lockdep_assert_held(&dev_states_lock);
	for (i = 0; i < st->nr_untracked; i++) {
		/* A zero-length mapping holds its handle, if nothing else. */
		if (unmap ? addr != st->untracked[i].handle :
			    addr - st->untracked[i].handle >=
			    max_t(u64, st->untracked[i].size, 1))
			continue;
		if (unmap) {
			st->untracked[i] = st->untracked[--st->nr_untracked];
			atomic_dec(&dma_owner_untracked_handles);
		}
		return true;
	}
	return false;
}

/**
 * dma_owner_may_report_miss() - may a call no live mapping fits be reported?
 * @dev: the device of the call
 * @addr: the handle it named
 * @unmap: it is an unmap, which forgets an untracked handle it names
 *
 * Return: true if the tracker saw every mapping @addr could belong to.
 */
bool dma_owner_may_report_miss(struct device *dev, dma_addr_t addr, bool unmap)
{
	struct dev_state *st;
	unsigned long flags;
	bool ok;

#ifdef CONFIG_DMA_DECLARE_COHERENT
	/*
	 * Memory of a per-device coherent pool (a "shared-dma-pool" region) is
	 * handed out before the tracker sees the allocation: a sync of it,
	 * silent on other coherent memory, must not be taken for a bad handle.
	 */
	if (!unmap && dev->dma_mem)
		return false;
#endif
	raw_spin_lock_irqsave(&dev_states_lock, flags);
	st = find_state(dev);
	if (!st)
		ok = default_why == DMA_OWNER_WHY_COMPLETE;
	else
		/* An unmap of an untracked handle forgets it, complete or not. */
		ok = !untracked_handle(st, addr, unmap) &&
		     state_why(st) == DMA_OWNER_WHY_COMPLETE;
	raw_spin_unlock_irqrestore(&dev_states_lock, flags);
	return ok;
}

/*
 * The rest of dma_owner_may_mean_untracked(), asked only while some device
 * has untracked handles.
 */
bool __dma_owner_may_mean_untracked(struct device *dev, dma_addr_t addr)
{
	struct dev_state *st;
	unsigned long flags;
	bool maybe = false;

	raw_spin_lock_irqsave(&dev_states_lock, flags);
	st = find_state(dev);
	if (st)
		maybe = untracked_handle(st, addr, false);
	raw_spin_unlock_irqrestore(&dev_states_lock, flags);
	return maybe;
}

/**
 * dma_owner_lose_all_completeness() - every device may have unseen mappings
 *
 * Called when tracking or the filter changes.
 */
void dma_owner_lose_all_completeness(void)
{
	unsigned long flags;

	raw_spin_lock_irqsave(&dev_states_lock, flags);
	epoch++;
	default_why = DMA_OWNER_WHY_TRACKING_STARTED;
	raw_spin_unlock_irqrestore(&dev_states_lock, flags);
}

/* Start @st afresh in this epoch: no untracked handles, @why as given. */
static void restart_state_locked(struct dev_state *st, enum dma_owner_why why)
{
	lockdep_assert_held(&dev_states_lock);
	st->epoch = epoch;
	st->why = why;
	atomic_sub(st->nr_untracked, &dma_owner_untracked_handles);
	st->nr_untracked = 0;
}

/*
 * Start @dev's state afresh, made if it has none: @why, but a device whose
 * driver leaked stays so as long as it is there (see mark_leaked()).
 */
static void restart_state(struct device *dev, enum dma_owner_why why)
{
	struct dev_state *st, *spare;
	unsigned long flags;

	spare = kzalloc(sizeof(*spare), GFP_KERNEL | __GFP_NOWARN);
	raw_spin_lock_irqsave(&dev_states_lock, flags);
	st = find_state(dev);
	if (!st && spare) {
		st = spare;
		spare = NULL;
		st->dev = dev;
		hash_add_rcu(dev_states, &st->node, (unsigned long)dev);
	}
	if (st) {
		if (why == DMA_OWNER_WHY_COMPLETE && st->why == DMA_OWNER_WHY_LEAKED)
			why = DMA_OWNER_WHY_LEAKED;
		restart_state_locked(st, why);
	}
	raw_spin_unlock_irqrestore(&dev_states_lock, flags);
	kfree(spare);
}

/**
 * dma_owner_device_reset() - the tracker now sees every mapping of @dev
 * @dev: a device that has no streaming mappings
 *
 * Called when a driver binds or unbinds; also used by the KUnit suite for
 * its fake devices. A device whose driver leaked mappings stays incomplete:
 * they may still be unmapped.
 *
 * Context: process context, may sleep.
 */
void dma_owner_device_reset(struct device *dev)
{
	restart_state(dev, DMA_OWNER_WHY_COMPLETE);
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_device_reset);

/*
 * @dev's driver is unbinding with mappings live, or untracked ones: whoever
 * holds them may unmap them after the unbind, even after the next bind (a
 * DRM object freed on the last close), and the tracker, which drops them,
 * cannot tell those unmaps from unknown handles any more. Marked before
 * they are dropped, so that an unmap racing with the drop is not judged.
 */
static void mark_leaked(struct device *dev)
{
	struct dev_state *st;
	unsigned long flags;

	raw_spin_lock_irqsave(&dev_states_lock, flags);
	st = find_state(dev);
	if (st && st->why != DMA_OWNER_WHY_DELETED &&
	    (atomic_long_read(&st->live) || st->nr_untracked))
		restart_state_locked(st, DMA_OWNER_WHY_LEAKED);
	raw_spin_unlock_irqrestore(&dev_states_lock, flags);
}

/**
 * dma_owner_count_untracked() - a mapping of @dev the tracker does not hold
 * @dev: the device
 * @addr: its handle
 * @size: its size
 * @why: DMA_OWNER_WHY_UNTRACKED to remember the handle, if room is left; else why
 *	 @dev becomes incomplete
 *
 * Context: under rcu_read_lock(); any context.
 */
void dma_owner_count_untracked(struct device *dev, dma_addr_t addr, size_t size,
			       enum dma_owner_why why)
{
	struct dev_state *st;
	unsigned long flags;

	atomic_long_inc(&dma_owner_stats.untracked);
	st = get_state(dev, GFP_NOWAIT);
	raw_spin_lock_irqsave(&dev_states_lock, flags);
	if (!st) {
		/* Known of nothing: the same for all devices without a state. */
		default_why = why;
	} else if (st->why == DMA_OWNER_WHY_DELETED) {
		/* Untracked and unjudged, as everything after device_del(). */
	} else if (why == DMA_OWNER_WHY_UNTRACKED && st->nr_untracked < UNTRACKED_HANDLES) {
		st->untracked[st->nr_untracked].handle = addr;
		st->untracked[st->nr_untracked].size = size;
		st->nr_untracked++;
		atomic_inc(&dma_owner_untracked_handles);
	} else if (state_why(st) == DMA_OWNER_WHY_COMPLETE) {
		st->epoch = epoch;
		st->why = why;
	}
	raw_spin_unlock_irqrestore(&dev_states_lock, flags);
}

/**
 * dma_owner_count_live() - an entry of @dev was made or freed
 * @dev: the device
 * @delta: +1 made, -1 freed
 *
 * Context: under rcu_read_lock().
 * Return: false if a new entry must not be made: @dev has no state (it
 * could not be allocated) or is deleted.
 */
bool dma_owner_count_live(struct device *dev, int delta)
{
	struct dev_state *st = delta > 0 ? get_state(dev, GFP_NOWAIT) :
					   find_state(dev);

	if (!st || (delta > 0 && st->why == DMA_OWNER_WHY_DELETED))
		return false;
	/* A state made after the entry never counted it. */
	if (delta > 0) {
		atomic_long_inc(&st->live);
		if (unlikely(!READ_ONCE(st->mapped)))
			WRITE_ONCE(st->mapped, true);
	} else {
		atomic_long_add_unless(&st->live, -1, 0);
	}
	return true;
}

/*
 * May @dev have had an entry, so that records of its unmaps may be left?
 * Most devices that bind never map: forgetting theirs walks for nothing.
 * A device without a state (its allocation failed) may have mapped all
 * the same: forget, rather than tell the next driver of these unmaps.
 */
static bool ever_mapped(struct device *dev)
{
	struct dev_state *st;
	bool mapped;

	rcu_read_lock();
	st = find_state(dev);
	mapped = !st || READ_ONCE(st->mapped);
	rcu_read_unlock();
	return mapped;
}

/**
 * dma_owner_has_entries() - does @dev have entries in the table?
 * @dev: the device
 *
 * Context: under rcu_read_lock().
 * Return: true if it may have.
 */
bool dma_owner_has_entries(struct device *dev)
{
	struct dev_state *st = find_state(dev);

	return st && atomic_long_read(&st->live);
}

/* @dev is going: its state with it. */
static void free_state(struct device *dev)
{
	struct dev_state *st;
	unsigned long flags;

	raw_spin_lock_irqsave(&dev_states_lock, flags);
	st = find_state(dev);
	if (st) {
		hash_del_rcu(&st->node);
		atomic_sub(st->nr_untracked, &dma_owner_untracked_handles);
	}
	raw_spin_unlock_irqrestore(&dev_states_lock, flags);
	if (st)
		kfree_rcu(st, rcu);
}

/**
 * dma_owner_devices_complete() - the tracker sees every device's mappings
 *
 * At boot, before any driver binds.
 */
void __init dma_owner_devices_complete(void)
{
	default_why = DMA_OWNER_WHY_COMPLETE;
}

/**
 * dma_owner_show_incomplete() - print the devices whose misses go unjudged
 * @m: where to, one "incomplete: DEVICE WHY" line each
 *
 * WHY is tracking-started, untracked-mappings, zero-length-segment,
 * deleted, or untracked-handles=N when only N handles of an otherwise
 * complete device are unjudged. "(others)" stands for the devices without
 * a state.
 *
 * Return: how many lines.
 */
unsigned int dma_owner_show_incomplete(struct seq_file *m)
{
	struct dev_state *st;
	unsigned int bkt, n = 0;
	enum dma_owner_why why;
	unsigned long flags;

	/* Under the lock that free_state() takes before its device is freed. */
	raw_spin_lock_irqsave(&dev_states_lock, flags);
	hash_for_each(dev_states, bkt, st, node) {
		why = state_why(st);
		if (why != DMA_OWNER_WHY_COMPLETE)
			seq_printf(m, "incomplete: %s %s\n", dma_owner_dev_name(st->dev),
				   why_names[why]);
		else if (st->nr_untracked)
			seq_printf(m, "incomplete: %s untracked-handles=%u\n",
				   dma_owner_dev_name(st->dev), st->nr_untracked);
		else
			continue;
		n++;
	}
	if (dma_owner_is_enabled() && default_why != DMA_OWNER_WHY_COMPLETE) {
		seq_printf(m, "incomplete: (others) %s\n", why_names[default_why]);
		n++;
	}
	raw_spin_unlock_irqrestore(&dev_states_lock, flags);
	return n;
}

/**
 * dma_owner_driver_bound() - a driver is about to probe @dev
 * @dev: the device
 *
 * The device has no mappings yet, so from now on the tracker sees them all.
 */
void dma_owner_driver_bound(struct device *dev)
{
	if (dma_owner_tracking())
		dma_owner_device_reset(dev);
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_driver_bound);

/**
 * dma_owner_driver_unbound() - @dev's driver is gone: report its leaks
 * @dev: the device, its driver still set
 *
 * Every mapping of @dev still live was leaked by the driver. Each is
 * reported with its map site, then dropped.
 *
 * Context: process context, may sleep.
 */
void dma_owner_driver_unbound(struct device *dev)
{
	/* Its code may go, and another's be loaded where it was. */
	dma_owner_forget_map_stacks();
	if (!dma_owner_tracking())
		return;
	mark_leaked(dev);
	dma_owner_drop_entries(dev, true, true);
	/* A driver bound next must not be told of this one's unmaps. */
	if (ever_mapped(dev))
		dma_owner_forget_unmapped(dev, true);
	dma_owner_device_reset(dev);
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_driver_unbound);

/**
 * dma_owner_device_gone() - @dev is being deleted
 * @dev: the device, its driver and its managed resources gone
 *
 * Mappings still live were leaked by whoever made them (a driverless device
 * that maps, or one whose parent's driver maps for it): each is reported,
 * then dropped, with the records of its unmaps, so that readers of the
 * table only ever see devices that are there. Until the device is released
 * a reference may still make calls: they are neither tracked nor judged.
 *
 * Context: process context, may sleep.
 */
void dma_owner_device_gone(struct device *dev)
{
	if (!dma_owner_table_ready())
		return;
	/*
	 * A state even for a device that never mapped: a reference may map
	 * after this, and must not be judged as if the device were whole.
	 */
	restart_state(dev, DMA_OWNER_WHY_DELETED);
	dma_owner_drop_entries(dev, dma_owner_tracking(), true);
	if (ever_mapped(dev))
		dma_owner_forget_unmapped(dev, true);
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_device_gone);

/**
 * dma_owner_device_release() - @dev's memory is about to be freed
 * @dev: the device
 *
 * Its state goes. A device that mapped without ever being added (so
 * without device_del()) may have left entries: they are leaks, reported
 * and dropped here.
 *
 * Context: any: the last put_device() may be in atomic context.
 */
void dma_owner_device_release(struct device *dev)
{
	struct dev_state *st;
	bool deleted, left, forget;

	if (!dma_owner_table_ready())
		return;
	rcu_read_lock();
	st = find_state(dev);
	if (!st) {
		rcu_read_unlock();
		return;
	}
	deleted = READ_ONCE(st->why) == DMA_OWNER_WHY_DELETED;
	/*
	 * device_del() already dropped and forgot what a deleted one had, but
	 * for the entry of a map that raced with it (counted, so seen here)
	 * and the records of its unmap: none may outlive @dev.
	 */
	left = (!deleted && READ_ONCE(st->mapped)) || atomic_long_read(&st->live);
	forget = left || READ_ONCE(st->mapped);
	rcu_read_unlock();
	if (left)
		dma_owner_drop_entries(dev, !deleted && dma_owner_tracking(), false);
	if (forget)
		dma_owner_forget_unmapped(dev, false);
	free_state(dev);
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_device_release);

/**
 * dma_owner_forget_device() - drop all the tracker knows of @dev, silently
 * @dev: a device about to go away
 *
 * For the KUnit suite, whose fake devices come and go at the same
 * addresses without device_del().
 *
 * Context: process context, may sleep.
 */
void dma_owner_forget_device(struct device *dev)
{
	if (!dma_owner_table_ready())
		return;
	dma_owner_drop_entries(dev, false, true);
	dma_owner_forget_unmapped(dev, true);
	free_state(dev);
}
EXPORT_SYMBOL_IF_KUNIT(dma_owner_forget_device);
