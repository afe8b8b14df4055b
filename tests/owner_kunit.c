// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests for the DMA ownership tracker.
 *
 * Most cases drive the tracker's hooks directly with made-up DMA addresses on
 * a fake device, so every transition and every verdict can be asserted
 * exactly; a few go through the real dma_map_*() and dma_sync_*() functions
 * to prove the hooks in kernel/dma/mapping.c are wired. Reports are caught by
 * replacing dma_owner_emit() with a static stub, so nothing reaches dmesg.
 */

#include <kunit/device.h>
#include <kunit/static_stub.h>
#include <kunit/test.h>
#include <kunit/visibility.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/hex.h>
#include <linux/kasan-checks.h>
#include <linux/kallsyms.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/scatterlist.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>

#include "owner.h"

MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);

#define MAX_REPORTS 16
#define BASE 0x10000000ULL	/* made-up DMA addresses start here */

/* A mapping larger than an entry can describe: the tracker leaves it out. */
#ifdef CONFIG_64BIT
#define UNTRACKED_SIZE	((size_t)5 << 30)
#else
#define UNTRACKED_SIZE	0	/* size_t cannot say it: those cases skip */
#endif

static void need_untracked_size(struct kunit *test)
{
	if (!UNTRACKED_SIZE)
		kunit_skip(test, "a mapping over 4 GiB needs a 64-bit size_t");
}

struct ctx {
	struct device *dev;
	int saved_mode;
	bool saved_check_contents;
	bool saved_check_segments;
	unsigned int n;
	struct dma_owner_report reports[MAX_REPORTS];
};

static void catch_report(const struct dma_owner_report *r, unsigned int suppressed)
{
	struct kunit *test = kunit_get_current_test();
	struct ctx *c = test->priv;

	if (c->n < MAX_REPORTS)
		c->reports[c->n] = *r;
	c->n++;
}

static int owner_test_init(struct kunit *test)
{
	struct ctx *c;

	if (!dma_owner_is_enabled())
		kunit_skip(test, "tracking is off (dma_owner=off)");
	c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, c);
	c->dev = kunit_device_register(test, "dma-owner-kunit");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c->dev);
	c->dev->coherent_dma_mask = DMA_BIT_MASK(64);
	c->dev->dma_mask = &c->dev->coherent_dma_mask;
	dma_owner_device_reset(c->dev);
	c->saved_mode = dma_owner_report_mode;
	c->saved_check_contents = dma_owner_check_contents;
	c->saved_check_segments = dma_owner_check_segments;
	dma_owner_report_mode = DMA_OWNER_REPORT_ALL;
	test->priv = c;
	kunit_activate_static_stub(test, dma_owner_emit, catch_report);
	return 0;
}

static void owner_test_exit(struct kunit *test)
{
	struct ctx *c = test->priv;

	if (!c)
		return;
	/* Drop whatever a failed case left mapped, without reporting it. */
	kunit_deactivate_static_stub(test, dma_owner_emit);
	dma_owner_report_mode = c->saved_mode;
	dma_owner_check_contents = c->saved_check_contents;
	dma_owner_check_segments = c->saved_check_segments;
	dma_owner_forget_device(c->dev);
}

#define DEV(test) (((struct ctx *)(test)->priv)->dev)

static noinline void map(struct kunit *test, u64 addr, size_t size,
			 enum dma_data_direction dir, unsigned long attrs)
{
	__dma_owner_map(DEV(test), addr, size, dir, attrs, DMA_OWNER_API_PAGE,
			0, _RET_IP_);
	/* As every driver must: see test_map_error_unchecked. */
	__dma_owner_mapping_error(DEV(test), addr);
}

static noinline void unmap(struct kunit *test, u64 addr, size_t size,
			   enum dma_data_direction dir)
{
	__dma_owner_unmap(DEV(test), addr, size, dir, DMA_OWNER_API_PAGE, _RET_IP_);
}

static noinline void for_cpu(struct kunit *test, u64 addr, size_t size,
			     enum dma_data_direction dir)
{
	__dma_owner_sync(DEV(test), addr, size, dir, DMA_OWNER_OP_SYNC_FOR_CPU, _RET_IP_);
}

static noinline void for_dev(struct kunit *test, u64 addr, size_t size,
			     enum dma_data_direction dir)
{
	__dma_owner_sync(DEV(test), addr, size, dir, DMA_OWNER_OP_SYNC_FOR_DEVICE, _RET_IP_);
}

/*
 * Exactly these kinds were reported, in this order, each blaming a call
 * made in @fn (the case itself: the helpers above are never inlined, so
 * their _RET_IP_ is in it), then forget them.
 */
static void expect(struct kunit *test, const char *fn, unsigned int n,
		   const int *kinds)
{
	struct ctx *c = test->priv;
	char site[KSYM_SYMBOL_LEN];
	unsigned int i;

	KUNIT_EXPECT_EQ(test, c->n, n);
	for (i = 0; i < min(c->n, n) && i < MAX_REPORTS; i++) {
		KUNIT_EXPECT_STREQ(test, dma_owner_kind_names[c->reports[i].kind],
				   dma_owner_kind_names[kinds[i]]);
		KUNIT_EXPECT_PTR_EQ(test, c->reports[i].dev, c->dev);
		/* "fn [module]" or "fn.part.0": the function's own name. */
		snprintf(site, sizeof(site), "%ps", (void *)c->reports[i].caller);
		site[strcspn(site, " .")] = '\0';
		KUNIT_EXPECT_STREQ(test, site, fn);
	}
	c->n = 0;
}

#define EXPECT_REPORTS(test, ...) do {					\
	static const int __k[] = { __VA_ARGS__ };			\
	expect(test, __func__, ARRAY_SIZE(__k), __k);			\
} while (0)
#define EXPECT_SILENT(test) expect(test, __func__, 0, NULL)

static struct dma_owner_report *report(struct kunit *test, unsigned int i)
{
	return &((struct ctx *)test->priv)->reports[i];
}

/* The ops of @e's history, oldest in the lowest bits. */
static unsigned int hist_ops_oldest_first(const struct dma_owner_entry *e)
{
	unsigned int i, ops = 0;

	for (i = 0; i < dma_owner_hist_len(e); i++)
		ops |= dma_owner_hist_op(e, i) << (DMA_OWNER_HIST_OP_BITS * i);
	return ops;
}

/* map -> cpu -> device -> cpu -> unmap: the protocol, nothing reported. */
static void test_full_cycle(struct kunit *test)
{
	map(test, BASE, 2048, DMA_FROM_DEVICE, 0);
	for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);
	for_dev(test, BASE, 2048, DMA_FROM_DEVICE);
	for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);
	unmap(test, BASE, 2048, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
}

/* Unmap ends the mapping from either owner. */
static void test_unmap_from_either_owner(struct kunit *test)
{
	map(test, BASE, 512, DMA_TO_DEVICE, 0);
	unmap(test, BASE, 512, DMA_TO_DEVICE);
	map(test, BASE, 512, DMA_TO_DEVICE, 0);
	for_cpu(test, BASE, 512, DMA_TO_DEVICE);
	unmap(test, BASE, 512, DMA_TO_DEVICE);
	EXPECT_SILENT(test);
}

/* The 2004 bug: back to the device without sync_for_device. */
static void test_missing_sync_for_device(struct kunit *test)
{
	struct dma_owner_report *r;

	map(test, BASE, 2048, DMA_FROM_DEVICE, 0);
	for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);
	for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_MISSING_SYNC_FOR_DEVICE);
	r = report(test, 0);
	KUNIT_EXPECT_EQ(test, r->addr, BASE);
	KUNIT_EXPECT_TRUE(test, r->has_entry);
	KUNIT_EXPECT_EQ(test, r->entry.handle, BASE);
	KUNIT_EXPECT_EQ(test, r->entry.size, 2048);
	KUNIT_EXPECT_EQ(test, r->op, DMA_OWNER_OP_SYNC_FOR_CPU);
	/* The history names map, sync_for_cpu, sync_for_cpu. */
	KUNIT_EXPECT_EQ(test, dma_owner_hist_len(&r->entry), 3);
	KUNIT_EXPECT_EQ(test, hist_ops_oldest_first(&r->entry), DMA_OWNER_OP_MAP |
			DMA_OWNER_OP_SYNC_FOR_CPU << 2 | DMA_OWNER_OP_SYNC_FOR_CPU << 4);
	KUNIT_EXPECT_NE(test, r->caller, 0UL);
	/* History callers are stored as offsets: they come back whole. */
	KUNIT_EXPECT_EQ(test, dma_owner_hist_caller(&r->entry, 2), r->caller);
	unmap(test, BASE, 2048, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
}

/*
 * The violations log's record line, the interface tools read: its values
 * are the report's, and the prose under it says the same.
 */
static void test_log_record(struct kunit *test)
{
	struct seq_file m = { .size = 2 * PAGE_SIZE };
	char *want, *prose, *caller, *mod;
	u64 n;

	m.buf = kunit_kzalloc(test, m.size, GFP_KERNEL);
	want = kunit_kzalloc(test, 2 * KSYM_SYMBOL_LEN + 256, GFP_KERNEL);
	caller = kunit_kzalloc(test, KSYM_SYMBOL_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m.buf);
	KUNIT_ASSERT_NOT_NULL(test, want);
	KUNIT_ASSERT_NOT_NULL(test, caller);
	map(test, BASE, 2048, DMA_FROM_DEVICE, 0);
	for_cpu(test, BASE + 1024, 1024, DMA_FROM_DEVICE);
	for_cpu(test, BASE + 1024, 512, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_MISSING_SYNC_FOR_DEVICE);
	/* This device's record, the newest: another device may log too. */
	snprintf(want, 2 * KSYM_SYMBOL_LEN + 256, " device=%s ", dev_name(DEV(test)));
	for (n = dma_owner_log_count(); n; n--) {
		m.count = 0;
		KUNIT_ASSERT_EQ(test, dma_owner_log_show(&m, n - 1), 0);
		KUNIT_ASSERT_LT(test, m.count, m.size);
		m.buf[m.count] = 0;
		if (strstr(m.buf, want))
			break;
	}
	KUNIT_ASSERT_GT_MSG(test, n, 0ULL, "no record of %s in the log", dev_name(DEV(test)));
	KUNIT_ASSERT_NOT_NULL(test, DEV(test)->driver);
	KUNIT_EXPECT_TRUE(test, str_has_prefix(m.buf, "seq="));
	/* The record: kind to caller, the module's blank escaped. */
	snprintf(caller, KSYM_SYMBOL_LEN, "%pS", (void *)report(test, 0)->caller);
	mod = strchr(caller, ' ');
	if (mod)
		*mod++ = 0;
	snprintf(want, 2 * KSYM_SYMBOL_LEN + 256,
		 " kind=missing-sync-for-device op=sync_for_cpu device=%s driver=%s handle=%pad size=512 dir=DMA_FROM_DEVICE api=single/page owner=cpu[0x400-0x800) caller=%s%s%s ",
		 dev_name(DEV(test)), DEV(test)->driver->name,
		 &(dma_addr_t){ BASE + 1024 }, caller, mod ? "\\040" : "",
		 mod ?: "");
	KUNIT_EXPECT_NOT_NULL_MSG(test, strstr(m.buf, want), "want %s in %s", want, m.buf);
	/* The prose, from the second line: the same kind and caller. */
	prose = strchr(m.buf, '\n');
	KUNIT_ASSERT_NOT_NULL(test, prose);
	snprintf(want, 2 * KSYM_SYMBOL_LEN + 256, "\nmissing-sync-for-device in %pS\n",
		 (void *)report(test, 0)->caller);
	KUNIT_EXPECT_TRUE_MSG(test, str_has_prefix(prose, want), "want %s at %s", want, prose);
	unmap(test, BASE, 2048, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
}

/*
 * The history keeps the last DMA_OWNER_HISTORY (three) transitions, oldest
 * first, however many times its ring has gone round.
 */
static void test_history_wrap(struct kunit *test)
{
	struct dma_owner_report *r;
	unsigned int i;

	map(test, BASE, 2048, DMA_FROM_DEVICE, 0);
	for (i = 0; i < 2; i++) {
		for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);
		for_dev(test, BASE, 2048, DMA_FROM_DEVICE);
	}
	for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);
	for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_MISSING_SYNC_FOR_DEVICE);
	r = report(test, 0);
	/*
	 * map, cpu, device, cpu, then these three: device, cpu, cpu. Seven:
	 * the count has run round once, and is one past full again.
	 */
	KUNIT_EXPECT_EQ(test, dma_owner_hist_len(&r->entry), DMA_OWNER_HISTORY);
	KUNIT_EXPECT_EQ(test, hist_ops_oldest_first(&r->entry), DMA_OWNER_OP_SYNC_FOR_DEVICE |
			DMA_OWNER_OP_SYNC_FOR_CPU << 2 | DMA_OWNER_OP_SYNC_FOR_CPU << 4);
	KUNIT_EXPECT_EQ(test, dma_owner_hist_caller(&r->entry, DMA_OWNER_HISTORY - 1),
			r->caller);
	KUNIT_EXPECT_EQ(test, r->entry.syncs_for_cpu, 4);
	KUNIT_EXPECT_EQ(test, r->entry.syncs_for_device, 2);
	unmap(test, BASE, 2048, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
}

/*
 * Every transition the history holds, oldest first, with its own caller,
 * after each of two rounds of the ring: transition t is called from
 * @here + t.
 */
static void test_history_slots(struct kunit *test)
{
	struct dma_owner_entry e = {};
	unsigned long here = _THIS_IP_;
	unsigned int t, i, len;

	for (t = 0; t < 3 * DMA_OWNER_HISTORY; t++) {
		dma_owner_record_for_test(&e, t % 2 ? DMA_OWNER_OP_SYNC_FOR_CPU :
						      DMA_OWNER_OP_SYNC_FOR_DEVICE,
					  here + t);
		len = min_t(unsigned int, t + 1, DMA_OWNER_HISTORY);
		KUNIT_ASSERT_EQ(test, dma_owner_hist_len(&e), len);
		for (i = 0; i < len; i++) {
			KUNIT_EXPECT_EQ(test, dma_owner_hist_caller(&e, i),
					here + t + 1 - len + i);
			KUNIT_EXPECT_EQ(test, dma_owner_hist_op(&e, i),
					(t + 1 - len + i) % 2 ?
					DMA_OWNER_OP_SYNC_FOR_CPU :
					DMA_OWNER_OP_SYNC_FOR_DEVICE);
		}
	}
}

/* A caller out of reach of the 32-bit offset is unknown, never wrong. */
static void test_history_caller_out_of_reach(struct kunit *test)
{
	struct dma_owner_entry e = { .hist_n = 2 };
	unsigned long here = _THIS_IP_;

	e.hist[0] = dma_owner_encode_caller_for_test(here);
	KUNIT_EXPECT_EQ(test, dma_owner_hist_caller(&e, 0), here);
	if (IS_ENABLED(CONFIG_64BIT)) {
		e.hist[1] = dma_owner_encode_caller_for_test(here -
							     (unsigned long)BIT_ULL(33));
		KUNIT_EXPECT_EQ(test, e.hist[1], 0);
		KUNIT_EXPECT_EQ(test, dma_owner_hist_caller(&e, 1), 0UL);
	}
}

/*
 * A mapping is hashed by the chunk it starts in: a partial sync of an
 * address in the next chunk must still find it (the "chunk before" probe).
 */
static void test_sync_in_later_chunk(struct kunit *test)
{
	map(test, BASE + 0xc00, 2048, DMA_FROM_DEVICE, 0);
	for_cpu(test, BASE + 0x1000, 256, DMA_FROM_DEVICE);
	for_dev(test, BASE + 0x1000, 256, DMA_FROM_DEVICE);
	for_cpu(test, BASE + 0x1100, 256, DMA_FROM_DEVICE);
	for_cpu(test, BASE + 0x1100, 256, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_MISSING_SYNC_FOR_DEVICE);
	KUNIT_EXPECT_EQ(test, report(test, 0)->entry.handle, BASE + 0xc00);
	unmap(test, BASE + 0xc00, 2048, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
}

/* A zero-length sync names no byte: it moves nothing and is never judged. */
static void test_zero_length_sync(struct kunit *test)
{
	map(test, BASE, 2048, DMA_FROM_DEVICE, 0);
	for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);
	for_dev(test, BASE, 0, DMA_FROM_DEVICE);
	for_cpu(test, BASE, 0, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
	/* The CPU still owns it all: the zero-length sync gave nothing back. */
	for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_MISSING_SYNC_FOR_DEVICE);
	/* Nor is one of a handle nobody mapped reported. */
	for_cpu(test, BASE + 0x1000000, 0, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
	unmap(test, BASE, 2048, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
}

/* The calls the walk judged so far, of every CPU. */
static unsigned long walked(bool unmaps)
{
	struct dma_owner_op_counts ops;

	dma_owner_op_counts(&ops);
	return unmaps ? ops.unmaps_walked : ops.syncs_walked;
}

/*
 * A correct sync of a mapping that alone fits its place is judged on the
 * common path, which counts nothing of its own; a sync the walk judges
 * (here a zero-length one) is counted in syncs_walked, the stats the
 * real-driver tests read to show that the common path ran; unmaps the
 * same in unmaps_walked. (The counts are the whole machine's: nothing
 * else maps in the suite's boot.)
 */
static void test_syncs_walked(struct kunit *test)
{
	unsigned long before;

	map(test, BASE, 2048, DMA_FROM_DEVICE, 0);
	before = walked(false);
	for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);
	for_dev(test, BASE, 2048, DMA_FROM_DEVICE);
	for_cpu(test, BASE, 1024, DMA_FROM_DEVICE);
	KUNIT_EXPECT_EQ(test, walked(false) - before, 0UL);
	for_dev(test, BASE, 0, DMA_FROM_DEVICE);
	KUNIT_EXPECT_EQ(test, walked(false) - before, 1UL);
	/* A correct unmap likewise, one of the wrong size the walk. */
	before = walked(true);
	unmap(test, BASE, 2048, DMA_FROM_DEVICE);
	KUNIT_EXPECT_EQ(test, walked(true) - before, 0UL);
	EXPECT_SILENT(test);
	map(test, BASE, 2048, DMA_FROM_DEVICE, 0);
	unmap(test, BASE, 1024, DMA_FROM_DEVICE);
	KUNIT_EXPECT_EQ(test, walked(true) - before, 1UL);
	EXPECT_REPORTS(test, DMA_OWNER_SIZE_MISMATCH);
}

/* peak_live follows live up and stays there. */
static void test_peak_live(struct kunit *test)
{
	long live = 0;
	int i;

	/* Restart the peak from live, as a clear does: it must move now. */
	atomic_long_set(&dma_owner_stats.peak_live, atomic_long_read(&dma_owner_stats.live));
	for (i = 0; i < 8; i++) {
		map(test, BASE + i * 0x1000, 64, DMA_TO_DEVICE, 0);
		live = atomic_long_read(&dma_owner_stats.live);
		KUNIT_EXPECT_GE(test, atomic_long_read(&dma_owner_stats.peak_live), live);
	}
	KUNIT_EXPECT_GE(test, live, 8L);
	for (i = 0; i < 8; i++)
		unmap(test, BASE + i * 0x1000, 64, DMA_TO_DEVICE);
	KUNIT_EXPECT_GE(test, atomic_long_read(&dma_owner_stats.peak_live), live);
	EXPECT_SILENT(test);
}

/* The rules as the ignore file lists them, in a kunit-managed string. */
static char *ignore_rules(struct kunit *test)
{
	struct seq_file m = { .size = PAGE_SIZE };

	m.buf = kunit_kzalloc(test, m.size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m.buf);
	dma_owner_ignore_show(&m, "");
	return m.buf;
}

static __printf(2, 3) int ignore(struct kunit *test, const char *fmt, ...)
{
	char buf[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return dma_owner_ignore_update(buf);
}

/* Put back the rules the suite found, without their hits. */
static void ignore_restore(void *saved)
{
	char none[] = ",";

	dma_owner_ignore_update(none);
	dma_owner_ignore_update(saved);
}

/* The rules in place, as tokens: "KIND:FUNCTION HITS" lines, HITS cut. */
static char *ignore_save(struct kunit *test)
{
	char *rules = ignore_rules(test), *from, *to = rules;

	for (from = rules; *from; from++) {
		if (*from == ' ')
			from += strcspn(from, "\n") - 1;
		else
			*to++ = *from;
	}
	*to = '\0';
	return rules;
}

/*
 * The verdict is kept per call site, and dropped when the rules change: one
 * call site, with another rule kept all along so that the rules are never
 * empty, is reported, then ignored (twice: the second from the kept
 * verdict) once a rule names it, then reported again once it is gone.
 */
static void test_ignore_verdict_per_site(struct kunit *test)
{
	int i;

	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, ignore_restore,
							ignore_save(test)), 0);
	KUNIT_ASSERT_EQ(test, ignore(test, "leak:no_such_function"), 0);
	map(test, BASE, 2048, DMA_FROM_DEVICE, 0);
	for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);
	for (i = 0; i < 4; i++) {
		if (i == 1)
			KUNIT_EXPECT_EQ(test, ignore(test, "missing-sync-for-device:%s",
						     __func__), 0);
		if (i == 3)
			KUNIT_EXPECT_EQ(test, ignore(test, "-missing-sync-for-device:%s",
						     __func__), 0);
		for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);
		if (i == 0 || i == 3)
			EXPECT_REPORTS(test, DMA_OWNER_MISSING_SYNC_FOR_DEVICE);
		else
			EXPECT_SILENT(test);
	}
	unmap(test, BASE, 2048, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
}

/*
 * A rule silences its kind from its function, counted against the rule and
 * as ignored; other kinds, and other functions, are reported. A write with
 * one bad token changes nothing.
 */
static void test_ignore_rule(struct kunit *test)
{
	long violations = atomic_long_read(&dma_owner_stats.violations);
	long ignored = atomic_long_read(&dma_owner_stats.ignored);
	char *before, want[128];
	int i;

	/* The rules the user has set come back when the case ends. */
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, ignore_restore,
							ignore_save(test)), 0);
	KUNIT_ASSERT_EQ(test, ignore(test, " "), 0);
	KUNIT_EXPECT_EQ(test, ignore(test, "missing-sync-for-device:%s", __func__), 0);
	/* Twice is once. */
	KUNIT_EXPECT_EQ(test, ignore(test, " missing-sync-for-device:%s\n", __func__), 0);

	map(test, BASE, 2048, DMA_FROM_DEVICE, 0);
	for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);
	for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&dma_owner_stats.ignored), ignored + 1);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&dma_owner_stats.violations), violations);
	snprintf(want, sizeof(want), "missing-sync-for-device:%s 1\n", __func__);
	KUNIT_EXPECT_STREQ(test, ignore_rules(test), want);

	/* Another kind from the same function is reported. */
	for_dev(test, BASE, 2048, DMA_FROM_DEVICE);
	for_dev(test, BASE, 2048, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_REDUNDANT_SYNC_FOR_DEVICE);

	/* Malformed, absent, too many: refused whole. */
	before = ignore_rules(test);
	KUNIT_EXPECT_EQ(test, ignore(test, "leak:foo no-such-kind:foo"), -EINVAL);
	KUNIT_EXPECT_EQ(test, ignore(test, "leak:foo missing-sync-for-device"), -EINVAL);
	KUNIT_EXPECT_EQ(test, ignore(test, "leak:foo leak:"), -EINVAL);
	KUNIT_EXPECT_EQ(test, ignore(test, "leak:foo leak:1foo"), -EINVAL);
	KUNIT_EXPECT_EQ(test, ignore(test, "leak:foo leak:foo-bar"), -EINVAL);
	KUNIT_EXPECT_EQ(test, ignore(test, "leak:foo -leak:bar"), -ENOENT);
	for (i = 0; i < DMA_OWNER_IGNORE_MAX - 1; i++)
		KUNIT_EXPECT_EQ(test, ignore(test, "leak:f%d", i), 0);
	KUNIT_EXPECT_EQ(test, ignore(test, "-leak:f0 leak:f0 leak:g"), -ENOSPC);
	for (i = 0; i < DMA_OWNER_IGNORE_MAX - 1; i++)
		KUNIT_EXPECT_EQ(test, ignore(test, "-leak:f%d", i), 0);
	KUNIT_EXPECT_STREQ(test, ignore_rules(test), before);

	/* A prefix of a name is not the name; "*" is every kind. */
	KUNIT_EXPECT_EQ(test, ignore(test, "-missing-sync-for-device:%s,*:%.*s", __func__,
				     (int)strlen(__func__) - 1, __func__), 0);
	for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);
	for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_MISSING_SYNC_FOR_DEVICE);
	KUNIT_EXPECT_EQ(test, ignore(test, "*:%s", __func__), 0);
	for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&dma_owner_stats.ignored), ignored + 2);

	/* Removing a rule keeps the others in their order; any space separates. */
	KUNIT_EXPECT_EQ(test, ignore(test, "leak:a\r\nleak:b\vleak:c"), 0);
	KUNIT_EXPECT_EQ(test, ignore(test, "-leak:a"), 0);
	snprintf(want, sizeof(want), "*:%.*s 0\n*:%s 1\nleak:b 0\nleak:c 0\n",
		 (int)strlen(__func__) - 1, __func__, __func__);
	KUNIT_EXPECT_STREQ(test, ignore_rules(test), want);

	/* A write with no rule in it removes every rule. */
	KUNIT_EXPECT_EQ(test, ignore(test, ",\n"), 0);
	KUNIT_EXPECT_STREQ(test, ignore_rules(test), "");
	for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_MISSING_SYNC_FOR_DEVICE);
	unmap(test, BASE, 2048, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
}

static void test_redundant_sync_for_device(struct kunit *test)
{
	map(test, BASE, 2048, DMA_FROM_DEVICE, 0);
	for_dev(test, BASE, 2048, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_REDUNDANT_SYNC_FOR_DEVICE);
	for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);
	for_dev(test, BASE, 2048, DMA_FROM_DEVICE);
	for_dev(test, BASE, 2048, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_REDUNDANT_SYNC_FOR_DEVICE);
	unmap(test, BASE, 2048, DMA_FROM_DEVICE);
	map(test, BASE, 2048, DMA_BIDIRECTIONAL, 0);
	for_dev(test, BASE, 2048, DMA_BIDIRECTIONAL);
	EXPECT_REPORTS(test, DMA_OWNER_REDUNDANT_SYNC_FOR_DEVICE);
	unmap(test, BASE, 2048, DMA_BIDIRECTIONAL);
	EXPECT_SILENT(test);
}

/*
 * dma-api.rst asks for a sync for the CPU only before reading what the
 * device wrote: what the device only reads is written and synced for it
 * again and again, whatever the mapping's direction.
 */
static void test_to_device_refill(struct kunit *test)
{
	map(test, BASE, 2048, DMA_TO_DEVICE, 0);
	for_dev(test, BASE, 2048, DMA_TO_DEVICE);
	for_dev(test, BASE, 2048, DMA_TO_DEVICE);
	unmap(test, BASE, 2048, DMA_TO_DEVICE);
	map(test, BASE, 2048, DMA_BIDIRECTIONAL, 0);
	for_dev(test, BASE, 2048, DMA_TO_DEVICE);
	unmap(test, BASE, 2048, DMA_BIDIRECTIONAL);
	EXPECT_SILENT(test);
}

/*
 * page_pool: mapped with SKIP_CPU_SYNC, synced for the device before use,
 * and again whenever a page goes back to the pool, given to the CPU or not.
 */
static void test_skip_cpu_sync(struct kunit *test)
{
	map(test, BASE, 4096, DMA_FROM_DEVICE, DMA_ATTR_SKIP_CPU_SYNC);
	for_dev(test, BASE, 4096, DMA_FROM_DEVICE);
	for_dev(test, BASE, 4096, DMA_FROM_DEVICE);	/* recycled unused */
	EXPECT_SILENT(test);
	/* Recycling: the driver reads, the page goes back through the pool. */
	for_cpu(test, BASE + 64, 1500, DMA_FROM_DEVICE);
	for_dev(test, BASE, 4096, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
	/* The ownership rules still hold: to the CPU twice is reported. */
	for_cpu(test, BASE + 64, 1500, DMA_FROM_DEVICE);
	for_cpu(test, BASE + 64, 100, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_MISSING_SYNC_FOR_DEVICE);
	unmap(test, BASE, 4096, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
}

/* page_pool fragments: one page, four buffers, each handed over alone. */
static void test_skip_sync_fragments(struct kunit *test)
{
	struct dma_owner_report *r;
	int i;

	map(test, BASE, 4096, DMA_FROM_DEVICE, DMA_ATTR_SKIP_CPU_SYNC);
	for (i = 0; i < 4; i++)
		for_dev(test, BASE + i * 1024, 1024, DMA_FROM_DEVICE);
	for_cpu(test, BASE, 1024, DMA_FROM_DEVICE);
	for_cpu(test, BASE + 2048, 1024, DMA_FROM_DEVICE);
	for_dev(test, BASE + 3072, 1024, DMA_FROM_DEVICE);	/* never the CPU's */
	for_cpu(test, BASE + 1024, 512, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
	/* The CPU's ranges are known exactly: a second hand-over is seen. */
	for_cpu(test, BASE + 2048 + 100, 10, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_MISSING_SYNC_FOR_DEVICE);
	r = report(test, 0);
	KUNIT_EXPECT_TRUE(test, r->entry.in_parts);
	KUNIT_EXPECT_EQ(test, r->entry.cpu_lo, 0);
	KUNIT_EXPECT_EQ(test, r->entry.cpu_hi, 3072);
	for_cpu(test, BASE + 1536, 512, DMA_FROM_DEVICE);	/* the rest of 1 */
	for (i = 0; i < 4; i++)
		for_dev(test, BASE + i * 1024, 1024, DMA_FROM_DEVICE);
	unmap(test, BASE, 4096, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
}

/* igb, ixgbe, i40e: a page's two halves used in turn. */
static void test_half_page_reuse(struct kunit *test)
{
	int i;

	map(test, BASE, 4096, DMA_FROM_DEVICE, DMA_ATTR_SKIP_CPU_SYNC);
	for (i = 0; i < 4; i++) {
		u64 half = BASE + (i & 1) * 2048;

		for_dev(test, half, 2048, DMA_FROM_DEVICE);
		for_cpu(test, half, 1500, DMA_FROM_DEVICE);
	}
	unmap(test, BASE, 4096, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
}

/* Partial syncs inside a mapping, found from any address within it. */
static void test_partial_syncs(struct kunit *test)
{
	u64 big = BASE + 0x100000;

	map(test, BASE, 4096, DMA_FROM_DEVICE, 0);
	map(test, big, 65536, DMA_FROM_DEVICE, 0);
	/* rx copybreak done right: header to the CPU and back, repeatedly */
	for_cpu(test, BASE, 64, DMA_FROM_DEVICE);
	for_dev(test, BASE, 64, DMA_FROM_DEVICE);
	for_cpu(test, BASE, 64, DMA_FROM_DEVICE);
	for_dev(test, BASE, 64, DMA_FROM_DEVICE);
	/* adjacent and disjoint ranges to the CPU are fine */
	for_cpu(test, BASE, 64, DMA_FROM_DEVICE);
	for_cpu(test, BASE + 64, 64, DMA_FROM_DEVICE);
	for_cpu(test, BASE + 1024, 64, DMA_FROM_DEVICE);
	for_dev(test, BASE, 4096, DMA_FROM_DEVICE);
	/* deep inside a 64 KiB mapping, and across a 4 KiB boundary */
	for_cpu(test, big + 40000, 100, DMA_FROM_DEVICE);
	for_dev(test, big + 40000, 100, DMA_FROM_DEVICE);
	for_cpu(test, big + 4090, 12, DMA_FROM_DEVICE);
	for_dev(test, big, 65536, DMA_FROM_DEVICE);
	/* give back a CPU range in two pieces */
	for_cpu(test, big, 65536, DMA_FROM_DEVICE);
	for_dev(test, big, 32768, DMA_FROM_DEVICE);
	for_dev(test, big + 32768, 32768, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
	/* and now the device owns it all again */
	for_dev(test, big + 100, 10, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_REDUNDANT_SYNC_FOR_DEVICE);
	unmap(test, BASE, 4096, DMA_FROM_DEVICE);
	unmap(test, big, 65536, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
}

static void test_partial_missing_sync(struct kunit *test)
{
	map(test, BASE, 4096, DMA_FROM_DEVICE, 0);
	for_cpu(test, BASE, 64, DMA_FROM_DEVICE);
	for_cpu(test, BASE + 32, 64, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_MISSING_SYNC_FOR_DEVICE);
	unmap(test, BASE, 4096, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
}

/* The CPU's part in several ranges is known exactly. */
static void test_fragments_exact(struct kunit *test)
{
	map(test, BASE, 4096, DMA_FROM_DEVICE, 0);
	for_cpu(test, BASE, 4096, DMA_FROM_DEVICE);
	for_dev(test, BASE + 1024, 1024, DMA_FROM_DEVICE);	/* a hole */
	for_cpu(test, BASE + 1024, 1024, DMA_FROM_DEVICE);	/* fills it */
	for_dev(test, BASE + 2048, 16, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
	for_cpu(test, BASE + 2040, 16, DMA_FROM_DEVICE);	/* 8 bytes the CPU's */
	EXPECT_REPORTS(test, DMA_OWNER_MISSING_SYNC_FOR_DEVICE);
	for_dev(test, BASE, 4096, DMA_FROM_DEVICE);
	for_dev(test, BASE, 4096, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_REDUNDANT_SYNC_FOR_DEVICE);
	/* copybreak headers of three buffers in one mapping */
	for_cpu(test, BASE, 64, DMA_FROM_DEVICE);
	for_cpu(test, BASE + 1024, 64, DMA_FROM_DEVICE);
	for_cpu(test, BASE + 3000, 64, DMA_FROM_DEVICE);
	for_dev(test, BASE + 1024, 64, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
	for_dev(test, BASE + 1024, 64, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_REDUNDANT_SYNC_FOR_DEVICE);
	for_cpu(test, BASE + 3000, 8, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_MISSING_SYNC_FOR_DEVICE);
	unmap(test, BASE, 4096, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
}

/*
 * More CPU ranges than an entry keeps: one range holds them all, so the
 * CPU's bytes are no longer known exactly but the device's still are.
 */
static void test_too_many_fragments(struct kunit *test)
{
	int i;

	map(test, BASE, 65536, DMA_FROM_DEVICE, 0);
	for (i = 0; i < DMA_OWNER_MAX_RANGES + 5; i++)
		for_cpu(test, BASE + i * 1024, 16, DMA_FROM_DEVICE);
	for_cpu(test, BASE + 1024 + 100, 16, DMA_FROM_DEVICE);	/* maybe fine */
	EXPECT_SILENT(test);
	for_dev(test, BASE + 60000, 16, DMA_FROM_DEVICE);	/* surely not */
	EXPECT_REPORTS(test, DMA_OWNER_REDUNDANT_SYNC_FOR_DEVICE);
	for_dev(test, BASE, 65536, DMA_FROM_DEVICE);		/* exact again */
	for_cpu(test, BASE, 65536, DMA_FROM_DEVICE);
	for_cpu(test, BASE + 5, 1, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_MISSING_SYNC_FOR_DEVICE);
	unmap(test, BASE, 65536, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
}

/* An inexact set is exact again only after a sync of all of it. */
static void test_inexact_until_whole_sync(struct kunit *test)
{
	int i;

	map(test, BASE, 65536, DMA_FROM_DEVICE, 0);
	for (i = 0; i < 15; i++)
		for_cpu(test, BASE + i * 4096, 64, DMA_FROM_DEVICE);
	for_cpu(test, BASE + 15 * 4096, 4096, DMA_FROM_DEVICE);  /* spans all */
	for_cpu(test, BASE + 4096 + 64, 64, DMA_FROM_DEVICE);
	for_cpu(test, BASE + 8192 + 64, 64, DMA_FROM_DEVICE);	/* never the CPU's */
	EXPECT_SILENT(test);
	for_dev(test, BASE, 65536, DMA_FROM_DEVICE);
	unmap(test, BASE, 65536, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
}

static noinline void alloc_nc(struct kunit *test, u64 addr, size_t size,
			      enum dma_data_direction dir)
{
	__dma_owner_map(DEV(test), addr, size, dir, 0, DMA_OWNER_API_PAGES, 0,
			_RET_IP_);
}

static noinline void free_nc(struct kunit *test, u64 addr, size_t size,
			     enum dma_data_direction dir)
{
	__dma_owner_unmap(DEV(test), addr, size, dir, DMA_OWNER_API_PAGES,
			  _RET_IP_);
}

/* dma_alloc_noncoherent(): the CPU's until synced for the device. */
static void test_noncoherent_alloc(struct kunit *test)
{
	struct dma_owner_report *r;

	alloc_nc(test, BASE, 8192, DMA_BIDIRECTIONAL);
	for_dev(test, BASE, 8192, DMA_BIDIRECTIONAL);
	for_cpu(test, BASE, 8192, DMA_BIDIRECTIONAL);
	for_dev(test, BASE, 4096, DMA_BIDIRECTIONAL);
	for_cpu(test, BASE, 4096, DMA_BIDIRECTIONAL);
	free_nc(test, BASE, 8192, DMA_BIDIRECTIONAL);
	EXPECT_SILENT(test);

	/* playback: the device only reads it, the CPU refills it */
	alloc_nc(test, BASE, 4096, DMA_TO_DEVICE);
	for_dev(test, BASE, 4096, DMA_TO_DEVICE);
	for_dev(test, BASE, 4096, DMA_TO_DEVICE);
	free_nc(test, BASE, 4096, DMA_TO_DEVICE);
	EXPECT_SILENT(test);

	/* Part II: synced for the device before each hand-off, read or not. */
	alloc_nc(test, BASE, 4096, DMA_FROM_DEVICE);
	for_dev(test, BASE, 4096, DMA_FROM_DEVICE);
	for_dev(test, BASE, 4096, DMA_FROM_DEVICE);
	free_nc(test, BASE, 4096, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);

	alloc_nc(test, BASE, 4096, DMA_FROM_DEVICE);
	for_cpu(test, BASE, 4096, DMA_FROM_DEVICE);	/* it was the CPU's */
	EXPECT_REPORTS(test, DMA_OWNER_MISSING_SYNC_FOR_DEVICE);
	r = report(test, 0);
	KUNIT_EXPECT_EQ(test, (int)r->entry.api, DMA_OWNER_API_PAGES);
	KUNIT_EXPECT_STREQ(test, dma_owner_op_name(DMA_OWNER_OP_MAP, r->entry.api),
			   "alloc");
	/* the device got half; the other half is still the CPU's */
	for_dev(test, BASE, 2048, DMA_FROM_DEVICE);
	for_cpu(test, BASE + 2048, 16, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_MISSING_SYNC_FOR_DEVICE);
	free_nc(test, BASE, 4096, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
	for_dev(test, BASE, 4096, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_USE_AFTER_UNMAP);
	r = report(test, 0);
	KUNIT_EXPECT_EQ(test, (int)r->entry.api, DMA_OWNER_API_PAGES);
	KUNIT_EXPECT_NE(test, r->unmap_caller, 0UL);
}

/*
 * Make the case's device one whose hash slot has used level 0 at most, and
 * never with a mapping that runs on into the next chunk: its calls at level
 * 0 take the lookup's one-place path (find_only()). Slots are shared and
 * never cleared, so each try registers another device.
 */
static void use_one_place_device(struct kunit *test)
{
	struct ctx *c = test->priv;
	struct device *dev;
	char name[32];
	unsigned int i;

	for (i = 0; i < 1024; i++) {
		snprintf(name, sizeof(name), "dma-owner-kunit-%u", i);
		dev = kunit_device_register(test, name);
		KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dev);
		if ((READ_ONCE(*dma_owner_levels_of(dev)) & ~BIT(0)) ||
		    (READ_ONCE(*dma_owner_spans_of(dev)) & BIT(0)))
			continue;
		dev->coherent_dma_mask = DMA_BIT_MASK(64);
		dev->dma_mask = &dev->coherent_dma_mask;
		dma_owner_device_reset(dev);
		c->dev = dev;
		return;
	}
	KUNIT_FAIL(test, "every device slot has used several levels");
}

/* No IOMMU: one buffer mapped twice has one handle. */
static void identical_handles(struct kunit *test)
{
	long live = atomic_long_read(&dma_owner_stats.live);

	map(test, BASE, 2048, DMA_TO_DEVICE, 0);
	map(test, BASE, 2048, DMA_TO_DEVICE, 0);
	for_cpu(test, BASE, 2048, DMA_TO_DEVICE);
	for_cpu(test, BASE, 2048, DMA_TO_DEVICE);
	for_dev(test, BASE, 2048, DMA_TO_DEVICE);
	for_dev(test, BASE, 2048, DMA_TO_DEVICE);
	EXPECT_SILENT(test);
	/* a third sync for the CPU: one of the two got it twice */
	for_cpu(test, BASE, 2048, DMA_TO_DEVICE);
	for_cpu(test, BASE, 2048, DMA_TO_DEVICE);
	EXPECT_SILENT(test);
	for_cpu(test, BASE, 2048, DMA_TO_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_MISSING_SYNC_FOR_DEVICE);
	unmap(test, BASE, 2048, DMA_TO_DEVICE);
	unmap(test, BASE, 2048, DMA_TO_DEVICE);
	EXPECT_SILENT(test);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&dma_owner_stats.live), live);
	unmap(test, BASE, 2048, DMA_TO_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_USE_AFTER_UNMAP);
}

/* Looked up at the one place they can be. */
static void test_identical_handles(struct kunit *test)
{
	use_one_place_device(test);
	identical_handles(test);
}

/*
 * Three mappings in one page share a bucket, its chain the newest first:
 * each unlink, from the middle, the head and the end, leaves the others
 * where a call finds them.
 */
static void test_bucket_unlink(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < 3; i++)
		map(test, BASE + i * 0x100, 0x100, DMA_FROM_DEVICE, 0);
	unmap(test, BASE + 0x100, 0x100, DMA_FROM_DEVICE);	/* the middle */
	for (i = 0; i < 3; i += 2) {
		for_cpu(test, BASE + i * 0x100, 0x100, DMA_FROM_DEVICE);
		for_dev(test, BASE + i * 0x100, 0x100, DMA_FROM_DEVICE);
	}
	unmap(test, BASE, 0x100, DMA_FROM_DEVICE);		/* the end */
	for_cpu(test, BASE + 0x200, 0x100, DMA_FROM_DEVICE);
	unmap(test, BASE + 0x200, 0x100, DMA_FROM_DEVICE);	/* the head */
	EXPECT_SILENT(test);
	for_cpu(test, BASE + 0x100, 0x100, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_USE_AFTER_UNMAP);
}

/* Looked up at every level the device used: the same answers. */
static void test_identical_handles_levels(struct kunit *test)
{
	map(test, BASE + SZ_1M, 65536, DMA_TO_DEVICE, 0);	/* another level */
	identical_handles(test);
	unmap(test, BASE + SZ_1M, 65536, DMA_TO_DEVICE);
	EXPECT_SILENT(test);
}

/* Identical handles, different sizes or directions: each call finds its own. */
static void test_identical_handles_mixed(struct kunit *test)
{
	map(test, BASE, 2048, DMA_TO_DEVICE, 0);
	map(test, BASE, 512, DMA_TO_DEVICE, 0);
	map(test, BASE, 65536, DMA_TO_DEVICE, 0);	/* another level */
	unmap(test, BASE, 512, DMA_TO_DEVICE);
	unmap(test, BASE, 65536, DMA_TO_DEVICE);
	unmap(test, BASE, 2048, DMA_TO_DEVICE);
	EXPECT_SILENT(test);

	map(test, BASE, 1024, DMA_TO_DEVICE, 0);
	map(test, BASE, 1024, DMA_FROM_DEVICE, 0);
	for_cpu(test, BASE, 1024, DMA_FROM_DEVICE);
	for_dev(test, BASE, 1024, DMA_FROM_DEVICE);
	unmap(test, BASE, 1024, DMA_FROM_DEVICE);
	unmap(test, BASE, 1024, DMA_TO_DEVICE);
	EXPECT_SILENT(test);
	/* wrong for every candidate */
	map(test, BASE, 1024, DMA_TO_DEVICE, 0);
	map(test, BASE, 1024, DMA_TO_DEVICE, 0);
	unmap(test, BASE, 1000, DMA_TO_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_SIZE_MISMATCH);
	unmap(test, BASE, 1024, DMA_TO_DEVICE);
	EXPECT_SILENT(test);
}

/* Two sizes at one handle, both fit a sync: which one it meant is unknown. */
static void test_identical_handles_sizes(struct kunit *test)
{
	map(test, BASE, 4096, DMA_FROM_DEVICE, 0);	/* A */
	map(test, BASE, 2048, DMA_FROM_DEVICE, 0);	/* B */
	for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);	/* meant for A */
	for_dev(test, BASE, 4096, DMA_FROM_DEVICE);	/* A */
	for_cpu(test, BASE, 4096, DMA_FROM_DEVICE);	/* A */
	for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);	/* B, its first */
	EXPECT_SILENT(test);
	unmap(test, BASE, 2048, DMA_FROM_DEVICE);
	unmap(test, BASE, 4096, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
	/* a pool's twin keeps its leave to re-sync */
	map(test, BASE, 2048, DMA_FROM_DEVICE, 0);
	map(test, BASE, 2048, DMA_FROM_DEVICE, DMA_ATTR_SKIP_CPU_SYNC);
	unmap(test, BASE, 2048, DMA_FROM_DEVICE);
	for_dev(test, BASE, 2048, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
	unmap(test, BASE, 2048, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
}

/*
 * A mapping that starts in the chunk before holds a sync's address too: the
 * sync may have meant its middle, so it may be the CPU's now.
 */
static void test_twin_from_chunk_before(struct kunit *test)
{
	map(test, BASE - 256, 1024, DMA_FROM_DEVICE, 0);	/* A */
	map(test, BASE, 256, DMA_FROM_DEVICE, 0);		/* B */
	for_cpu(test, BASE, 256, DMA_FROM_DEVICE);		/* A's middle, or B? */
	for_dev(test, BASE - 256, 1024, DMA_FROM_DEVICE);	/* fine if A's */
	EXPECT_SILENT(test);
	unmap(test, BASE, 256, DMA_FROM_DEVICE);
	unmap(test, BASE - 256, 1024, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
}

/* A mapping of another size class holds a sync's bytes too: as above. */
static void test_twin_at_another_level(struct kunit *test)
{
	map(test, BASE, 65536, DMA_FROM_DEVICE, 0);		/* A */
	map(test, BASE, 2048, DMA_FROM_DEVICE, 0);		/* B */
	for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);		/* A's start, or B? */
	for_dev(test, BASE + 4096, 4096, DMA_FROM_DEVICE);	/* fine if A's */
	EXPECT_SILENT(test);
	unmap(test, BASE, 2048, DMA_FROM_DEVICE);
	unmap(test, BASE, 65536, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
}

/* Which of two differently owned twins an unmap ended cannot be told. */
static void test_identical_handles_ambiguous(struct kunit *test)
{
	map(test, BASE, 2048, DMA_FROM_DEVICE, 0);
	map(test, BASE, 2048, DMA_FROM_DEVICE, 0);
	for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);	/* one is the CPU's */
	unmap(test, BASE, 2048, DMA_FROM_DEVICE);	/* which one? */
	for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);	/* fine if the CPU's went */
	EXPECT_SILENT(test);
	for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);	/* now surely wrong */
	EXPECT_REPORTS(test, DMA_OWNER_MISSING_SYNC_FOR_DEVICE);
	unmap(test, BASE, 2048, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
}

/* A late sync, a thousand unrelated unmaps after: still use-after-unmap. */
static void test_use_after_unmap_late(struct kunit *test)
{
	struct dma_owner_report *r;
	int i;

	map(test, BASE, 2048, DMA_FROM_DEVICE, 0);
	unmap(test, BASE, 2048, DMA_FROM_DEVICE);
	for (i = 1; i <= 1000; i++) {
		map(test, BASE + i * 0x10000ULL, 4096, DMA_TO_DEVICE, 0);
		unmap(test, BASE + i * 0x10000ULL, 4096, DMA_TO_DEVICE);
	}
	EXPECT_SILENT(test);
	for_cpu(test, BASE + 1024, 64, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_USE_AFTER_UNMAP);
	r = report(test, 0);
	KUNIT_EXPECT_TRUE(test, r->has_entry);
	KUNIT_EXPECT_EQ(test, r->entry.handle, BASE);
	KUNIT_EXPECT_EQ(test, r->entry.size, 2048);
	KUNIT_EXPECT_NE(test, r->unmap_caller, 0UL);
}

/*
 * A ring of same-sized buffers side by side, as swiotlb's bounce slots or a
 * pool's fragments: their records spread over sets, so unmapping the rest
 * of the ring does not push out the record of the first buffer.
 */
static void test_use_after_unmap_ring(struct kunit *test)
{
	int i;

	/* 14 of them in one 64 KiB chunk, more than a set has ways */
	for (i = 0; i < 14; i++) {
		map(test, BASE + i * 4608ULL, 4608, DMA_TO_DEVICE, 0);
		unmap(test, BASE + i * 4608ULL, 4608, DMA_TO_DEVICE);
	}
	EXPECT_SILENT(test);
	for_dev(test, BASE + 100, 64, DMA_TO_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_USE_AFTER_UNMAP);
	KUNIT_EXPECT_EQ(test, report(test, 0)->entry.handle, BASE);
}

/*
 * A set of unmapped records is full after UNMAPPED_WAYS (8) mappings of one
 * place: the ninth evicts the oldest record, not the newest. Sixteen-byte
 * mappings side by side share a set (a sixteenth of their level's chunk).
 */
static void test_unmapped_evicts_oldest(struct kunit *test)
{
	int i;

	for (i = 0; i < 9; i++) {
		map(test, BASE + i * 16ULL, 16, DMA_FROM_DEVICE, 0);
		unmap(test, BASE + i * 16ULL, 16, DMA_FROM_DEVICE);
	}
	EXPECT_SILENT(test);
	for_cpu(test, BASE + 7 * 16, 16, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_USE_AFTER_UNMAP);
	KUNIT_EXPECT_EQ(test, report(test, 0)->entry.handle, BASE + 7 * 16);
	for_cpu(test, BASE + 16, 16, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_USE_AFTER_UNMAP);
	for_cpu(test, BASE, 16, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_UNKNOWN_HANDLE);
}

/*
 * A device deleted with mappings that no unbind dropped (it had no driver:
 * one that maps for its child, say): device_del() reports each as a leak
 * and drops it. (A driver's unbind drops its own first, so the suite's
 * device removals under traffic never reach this.)
 */
static void test_device_gone_drops_entries(struct kunit *test)
{
	long live = atomic_long_read(&dma_owner_stats.live);
	struct device *dev;

	dev = kunit_device_register_with_driver(test, "dma-owner-kunit-gone", NULL);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, dev);
	__dma_owner_map(dev, BASE, 512, DMA_TO_DEVICE, 0, DMA_OWNER_API_PAGE, 0,
			_THIS_IP_);
	__dma_owner_mapping_error(dev, BASE);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&dma_owner_stats.live), live + 1);
	kunit_device_unregister(test, dev);
	/* Of the other device, from its map site: not EXPECT_REPORTS()'s. */
	KUNIT_EXPECT_EQ(test, ((struct ctx *)test->priv)->n, 1);
	KUNIT_EXPECT_EQ(test, (int)report(test, 0)->kind, DMA_OWNER_LEAK);
	KUNIT_EXPECT_PTR_EQ(test, report(test, 0)->dev, dev);
	((struct ctx *)test->priv)->n = 0;
	KUNIT_EXPECT_EQ(test, atomic_long_read(&dma_owner_stats.live), live);
}

static void test_unknown_handle(struct kunit *test)
{
	for_cpu(test, BASE, 64, DMA_FROM_DEVICE);
	unmap(test, BASE, 64, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_UNKNOWN_HANDLE, DMA_OWNER_UNKNOWN_HANDLE);
	KUNIT_EXPECT_FALSE(test, report(test, 0)->has_entry);
	/* unmap must name the start, not an address inside */
	map(test, BASE, 4096, DMA_FROM_DEVICE, 0);
	unmap(test, BASE + 8, 64, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_UNKNOWN_HANDLE);
	unmap(test, BASE, 4096, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
}

static void test_use_after_unmap(struct kunit *test)
{
	struct dma_owner_report *r;

	map(test, BASE, 2048, DMA_FROM_DEVICE, 0);
	unmap(test, BASE, 2048, DMA_FROM_DEVICE);
	for_cpu(test, BASE + 100, 10, DMA_FROM_DEVICE);
	unmap(test, BASE, 2048, DMA_FROM_DEVICE);		/* double unmap */
	EXPECT_REPORTS(test, DMA_OWNER_USE_AFTER_UNMAP, DMA_OWNER_USE_AFTER_UNMAP);
	r = report(test, 0);
	KUNIT_EXPECT_TRUE(test, r->has_entry);
	KUNIT_EXPECT_EQ(test, r->entry.handle, BASE);
	KUNIT_EXPECT_NE(test, r->unmap_caller, 0UL);
	/* a new mapping at the same address is a new life */
	map(test, BASE, 2048, DMA_FROM_DEVICE, 0);
	for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);
	unmap(test, BASE, 2048, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
}

static void test_out_of_range(struct kunit *test)
{
	map(test, BASE, 256, DMA_FROM_DEVICE, 0);
	for_cpu(test, BASE + 200, 100, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_OUT_OF_RANGE);
	for_dev(test, BASE + 200, 56, DMA_FROM_DEVICE);
	for_cpu(test, BASE + 255, 1, DMA_FROM_DEVICE);
	unmap(test, BASE, 256, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
}

static void test_dir_mismatch(struct kunit *test)
{
	map(test, BASE, 256, DMA_TO_DEVICE, 0);
	for_cpu(test, BASE, 256, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_DIR_MISMATCH);
	unmap(test, BASE, 256, DMA_BIDIRECTIONAL);
	EXPECT_REPORTS(test, DMA_OWNER_DIR_MISMATCH);
	/*
	 * A bidirectional mapping may be synced in another direction, but
	 * not for the CPU as DMA_TO_DEVICE: swiotlb would bring nothing back
	 * (see sync_kinds()).
	 */
	map(test, BASE, 256, DMA_BIDIRECTIONAL, 0);
	for_cpu(test, BASE, 256, DMA_FROM_DEVICE);
	for_dev(test, BASE, 256, DMA_TO_DEVICE);
	EXPECT_SILENT(test);
	for_cpu(test, BASE, 256, DMA_TO_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_DIR_MISMATCH);
	for_dev(test, BASE, 256, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
	unmap(test, BASE, 256, DMA_BIDIRECTIONAL);
	EXPECT_SILENT(test);
}

static void test_size_mismatch(struct kunit *test)
{
	map(test, BASE, 256, DMA_TO_DEVICE, 0);
	unmap(test, BASE, 128, DMA_TO_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_SIZE_MISMATCH);
	KUNIT_EXPECT_EQ(test, report(test, 0)->entry.size, 256);
	/* the entry is gone all the same */
	unmap(test, BASE, 256, DMA_TO_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_USE_AFTER_UNMAP);
}

static void test_cpu_write_while_device_owned(struct kunit *test)
{
	u8 *buf = kunit_kzalloc(test, 512, GFP_KERNEL);
	u64 addr = BASE;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	dma_owner_check_contents = true;
	/* right: to the CPU, write, back to the device */
	__dma_owner_map(DEV(test), addr, 512, DMA_TO_DEVICE, 0,
			DMA_OWNER_API_PAGE, virt_to_phys(buf), _THIS_IP_);
	__dma_owner_mapping_error(DEV(test), addr);
	for_cpu(test, addr, 512, DMA_TO_DEVICE);
	buf[10] = 1;
	for_dev(test, addr, 512, DMA_TO_DEVICE);
	for_cpu(test, addr, 512, DMA_TO_DEVICE);
	for_dev(test, addr, 512, DMA_TO_DEVICE);
	EXPECT_SILENT(test);
	/* wrong: written while the device owns it, seen at sync and unmap */
	buf[11] = 2;
	for_cpu(test, addr, 512, DMA_TO_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_CPU_WRITE_WHILE_DEVICE_OWNED);
	for_dev(test, addr, 512, DMA_TO_DEVICE);
	buf[12] = 3;
	unmap(test, addr, 512, DMA_TO_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_CPU_WRITE_WHILE_DEVICE_OWNED);
}

static void test_leak_on_unbind(struct kunit *test)
{
	map(test, BASE, 256, DMA_TO_DEVICE, 0);
	map(test, BASE + 4096, 256, DMA_FROM_DEVICE, 0);
	dma_owner_driver_unbound(DEV(test));
	EXPECT_REPORTS(test, DMA_OWNER_LEAK, DMA_OWNER_LEAK);
	KUNIT_EXPECT_NE(test, report(test, 0)->caller, 0UL);
	/* they were dropped: unbinding again finds nothing */
	dma_owner_driver_unbound(DEV(test));
	EXPECT_SILENT(test);
	/*
	 * Whoever holds them may unmap them late, after another bind even:
	 * the tracker dropped them, and can tell no unknown handle from them.
	 */
	dma_owner_device_reset(DEV(test));
	unmap(test, BASE, 256, DMA_TO_DEVICE);
	unmap(test, BASE + 0x100000, 256, DMA_TO_DEVICE);
	EXPECT_SILENT(test);
	/* what it maps now is checked as ever */
	map(test, BASE, 256, DMA_FROM_DEVICE, 0);
	for_dev(test, BASE, 256, DMA_FROM_DEVICE);
	unmap(test, BASE, 256, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_REDUNDANT_SYNC_FOR_DEVICE);
}

/* An sg list of four segments at made-up addresses; @ents of them mapped. */
static struct scatterlist *fake_sg(struct kunit *test, int ents)
{
	struct scatterlist *sgl = kunit_kcalloc(test, 4, sizeof(*sgl), GFP_KERNEL);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, sgl);
	sg_init_table(sgl, 4);
	for (i = 0; i < 4; i++) {
		sg_dma_address(&sgl[i]) = i < ents ? BASE + i * 0x10000 : DMA_MAPPING_ERROR;
		sg_dma_len(&sgl[i]) = i < ents ? 4096 * (4 / ents) : 0;
	}
	return sgl;
}

static void test_sg(struct kunit *test)
{
	struct scatterlist *sgl = fake_sg(test, 4);
	struct device *dev = DEV(test);

	__dma_owner_map_sg(dev, sgl, 4, 4, DMA_FROM_DEVICE, 0, _THIS_IP_);
	__dma_owner_sync_sg(dev, sgl, 4, DMA_FROM_DEVICE, DMA_OWNER_OP_SYNC_FOR_CPU, _THIS_IP_);
	__dma_owner_sync_sg(dev, sgl, 4, DMA_FROM_DEVICE, DMA_OWNER_OP_SYNC_FOR_DEVICE, _THIS_IP_);
	/*
	 * The first two segments only: the count is wrong (every sync_sg
	 * passes the list's), but those two are the CPU's all the same.
	 */
	__dma_owner_sync_sg(dev, sgl, 2, DMA_FROM_DEVICE, DMA_OWNER_OP_SYNC_FOR_CPU, _THIS_IP_);
	__dma_owner_sync_sg(dev, sgl, 4, DMA_FROM_DEVICE, DMA_OWNER_OP_SYNC_FOR_CPU, _THIS_IP_);
	/* segments 0 and 1 were the CPU's already: one report per call */
	EXPECT_REPORTS(test, DMA_OWNER_SG_COUNT_MISMATCH,
		       DMA_OWNER_MISSING_SYNC_FOR_DEVICE);
	__dma_owner_sync_sg(dev, sgl, 4, DMA_FROM_DEVICE, DMA_OWNER_OP_SYNC_FOR_DEVICE, _THIS_IP_);
	__dma_owner_sync_sg(dev, sgl, 4, DMA_FROM_DEVICE, DMA_OWNER_OP_SYNC_FOR_DEVICE, _THIS_IP_);
	EXPECT_REPORTS(test, DMA_OWNER_REDUNDANT_SYNC_FOR_DEVICE);
	__dma_owner_unmap_sg(dev, sgl, 4, DMA_FROM_DEVICE, _THIS_IP_);
	EXPECT_SILENT(test);
	__dma_owner_unmap_sg(dev, sgl, 4, DMA_FROM_DEVICE, _THIS_IP_);
	EXPECT_REPORTS(test, DMA_OWNER_USE_AFTER_UNMAP);
	__dma_owner_sync_sg(dev, sgl, 4, DMA_TO_DEVICE, DMA_OWNER_OP_SYNC_FOR_DEVICE, _THIS_IP_);
	EXPECT_REPORTS(test, DMA_OWNER_USE_AFTER_UNMAP);
}

/* An IOMMU merged four entries into two segments: nents 4, mapped 2. */
static void test_sg_merged(struct kunit *test)
{
	struct scatterlist *sgl = fake_sg(test, 2);
	struct device *dev = DEV(test);

	__dma_owner_map_sg(dev, sgl, 4, 2, DMA_TO_DEVICE, 0, _THIS_IP_);
	__dma_owner_sync_sg(dev, sgl, 4, DMA_TO_DEVICE, DMA_OWNER_OP_SYNC_FOR_CPU, _THIS_IP_);
	__dma_owner_sync_sg(dev, sgl, 4, DMA_TO_DEVICE, DMA_OWNER_OP_SYNC_FOR_DEVICE, _THIS_IP_);
	__dma_owner_unmap_sg(dev, sgl, 4, DMA_TO_DEVICE, _THIS_IP_);
	EXPECT_SILENT(test);
	dma_owner_driver_unbound(dev);		/* nothing left behind */
	EXPECT_SILENT(test);
}

/*
 * A segment with no DMA length ends the list, at map as at unmap: what
 * follows it is not tracked, so nothing is left behind to leak.
 */
static void test_sg_zero_length_segment(struct kunit *test)
{
	struct scatterlist *sgl = fake_sg(test, 4);
	long live = atomic_long_read(&dma_owner_stats.live);
	struct device *dev = DEV(test);

	sg_dma_len(&sgl[1]) = 0;
	__dma_owner_map_sg(dev, sgl, 4, 4, DMA_TO_DEVICE, 0, _THIS_IP_);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&dma_owner_stats.live), live + 1);
	__dma_owner_sync_sg(dev, sgl, 4, DMA_TO_DEVICE, DMA_OWNER_OP_SYNC_FOR_CPU, _THIS_IP_);
	__dma_owner_sync_sg(dev, sgl, 4, DMA_TO_DEVICE, DMA_OWNER_OP_SYNC_FOR_DEVICE, _THIS_IP_);
	__dma_owner_unmap_sg(dev, sgl, 4, DMA_TO_DEVICE, _THIS_IP_);
	EXPECT_SILENT(test);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&dma_owner_stats.live), live);
	dma_owner_driver_unbound(dev);
	EXPECT_SILENT(test);
}

/* A zero-out bio: every segment maps ZERO_PAGE, one handle for all. */
static void test_sg_identical_segments(struct kunit *test)
{
	struct scatterlist *sgl = kunit_kcalloc(test, 4, sizeof(*sgl), GFP_KERNEL);
	long live = atomic_long_read(&dma_owner_stats.live);
	struct device *dev = DEV(test);
	int i;

	KUNIT_ASSERT_NOT_NULL(test, sgl);
	sg_init_table(sgl, 4);
	for (i = 0; i < 4; i++) {
		sg_dma_address(&sgl[i]) = BASE;
		sg_dma_len(&sgl[i]) = 4096;
	}
	__dma_owner_map_sg(dev, sgl, 4, 4, DMA_TO_DEVICE, 0, _THIS_IP_);
	__dma_owner_sync_sg(dev, sgl, 4, DMA_TO_DEVICE, DMA_OWNER_OP_SYNC_FOR_CPU, _THIS_IP_);
	__dma_owner_sync_sg(dev, sgl, 4, DMA_TO_DEVICE, DMA_OWNER_OP_SYNC_FOR_DEVICE, _THIS_IP_);
	__dma_owner_unmap_sg(dev, sgl, 4, DMA_TO_DEVICE, _THIS_IP_);
	EXPECT_SILENT(test);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&dma_owner_stats.live), live);
	dma_owner_driver_unbound(dev);		/* nothing left behind */
	EXPECT_SILENT(test);
}

static void test_sg_dir_and_range(struct kunit *test)
{
	struct scatterlist *sgl = fake_sg(test, 4);
	struct device *dev = DEV(test);

	__dma_owner_map_sg(dev, sgl, 4, 4, DMA_TO_DEVICE, 0, _THIS_IP_);
	__dma_owner_sync_sg(dev, sgl, 4, DMA_FROM_DEVICE, DMA_OWNER_OP_SYNC_FOR_CPU, _THIS_IP_);
	EXPECT_REPORTS(test, DMA_OWNER_DIR_MISMATCH);
	sg_dma_len(&sgl[1]) = 8192;	/* a driver that edited its list */
	__dma_owner_sync_sg(dev, sgl, 4, DMA_TO_DEVICE, DMA_OWNER_OP_SYNC_FOR_DEVICE, _THIS_IP_);
	EXPECT_REPORTS(test, DMA_OWNER_OUT_OF_RANGE);
	__dma_owner_unmap_sg(dev, sgl, 4, DMA_TO_DEVICE, _THIS_IP_);
	EXPECT_REPORTS(test, DMA_OWNER_SIZE_MISMATCH);
}

/*
 * dma_mapping_error() is the only way to tell a single mapping's handle
 * from a failure: a handle used without it is reported at its first use,
 * once. sg lists and the allocators report failure otherwise.
 */
static void test_map_error_unchecked(struct kunit *test)
{
	struct device *dev = DEV(test);

	__dma_owner_map(dev, BASE, 4096, DMA_FROM_DEVICE, 0,
			DMA_OWNER_API_PAGE, 0, _THIS_IP_);
	for_cpu(test, BASE, 4096, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_MAP_ERROR_UNCHECKED);
	unmap(test, BASE, 4096, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
	/* dma-debug's case: mapped, never checked, unmapped */
	__dma_owner_map(dev, BASE, 4096, DMA_BIDIRECTIONAL, 0,
			DMA_OWNER_API_RESOURCE, 0, _THIS_IP_);
	__dma_owner_unmap(dev, BASE, 4096, DMA_BIDIRECTIONAL,
			  DMA_OWNER_API_RESOURCE, _THIS_IP_);
	EXPECT_REPORTS(test, DMA_OWNER_MAP_ERROR_UNCHECKED);
	/* checked: silent */
	map(test, BASE, 4096, DMA_FROM_DEVICE, 0);
	for_cpu(test, BASE, 4096, DMA_FROM_DEVICE);
	unmap(test, BASE, 4096, DMA_FROM_DEVICE);
	/* no error handle to check */
	alloc_nc(test, BASE, 4096, DMA_BIDIRECTIONAL);
	free_nc(test, BASE, 4096, DMA_BIDIRECTIONAL);
	EXPECT_SILENT(test);
	/* identical handles: the check counts for each, it cannot be told which */
	__dma_owner_map(dev, BASE, 4096, DMA_TO_DEVICE, 0,
			DMA_OWNER_API_PAGE, 0, _THIS_IP_);
	map(test, BASE, 4096, DMA_TO_DEVICE, 0);
	unmap(test, BASE, 4096, DMA_TO_DEVICE);
	unmap(test, BASE, 4096, DMA_TO_DEVICE);
	EXPECT_SILENT(test);
	/* a failed map is not tracked, its check finds nothing */
	__dma_owner_mapping_error(dev, DMA_MAPPING_ERROR);
	EXPECT_SILENT(test);
}

/* Unmapped or freed with a function of another family than mapped it. */
static void test_api_mismatch(struct kunit *test)
{
	struct scatterlist *sgl = fake_sg(test, 4);
	struct device *dev = DEV(test);

	__dma_owner_map_sg(dev, sgl, 4, 4, DMA_TO_DEVICE, 0, _THIS_IP_);
	/* a segment of the list, as if it were a single mapping */
	unmap(test, BASE, 4096, DMA_TO_DEVICE);
	KUNIT_EXPECT_EQ(test, (int)report(test, 0)->entry.api, DMA_OWNER_API_SG);
	KUNIT_EXPECT_EQ(test, report(test, 0)->api, DMA_OWNER_API_PAGE);
	EXPECT_REPORTS(test, DMA_OWNER_API_MISMATCH);
	/* non-coherent memory unmapped instead of freed */
	alloc_nc(test, BASE + SZ_1M, 4096, DMA_BIDIRECTIONAL);
	unmap(test, BASE + SZ_1M, 4096, DMA_BIDIRECTIONAL);
	EXPECT_REPORTS(test, DMA_OWNER_API_MISMATCH);
	/* a single mapping freed as non-coherent memory */
	map(test, BASE + SZ_2M, 4096, DMA_TO_DEVICE, 0);
	free_nc(test, BASE + SZ_2M, 4096, DMA_TO_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_API_MISMATCH);
	/* syncs are the same for every family: silent */
	for_cpu(test, BASE + 0x10000, 4096, DMA_TO_DEVICE);
	for_dev(test, BASE + 0x10000, 4096, DMA_TO_DEVICE);
	EXPECT_SILENT(test);
}

/* Every sg call passes the entry count dma_map_sg() was passed. */
static void test_sg_count_mismatch(struct kunit *test)
{
	struct scatterlist *sgl = fake_sg(test, 4);
	struct device *dev = DEV(test);

	sg_dma_len(&sgl[3]) = 0;
	__dma_owner_map_sg(dev, sgl, 3, 3, DMA_FROM_DEVICE, 0, _THIS_IP_);
	__dma_owner_sync_sg(dev, sgl, 3, DMA_FROM_DEVICE, DMA_OWNER_OP_SYNC_FOR_CPU, _THIS_IP_);
	__dma_owner_sync_sg(dev, sgl, 3, DMA_FROM_DEVICE, DMA_OWNER_OP_SYNC_FOR_DEVICE, _THIS_IP_);
	EXPECT_SILENT(test);
	/* one more: reported once for the call, not for each segment */
	__dma_owner_sync_sg(dev, sgl, 4, DMA_FROM_DEVICE, DMA_OWNER_OP_SYNC_FOR_CPU, _THIS_IP_);
	KUNIT_EXPECT_EQ(test, report(test, 0)->nents, 4);
	KUNIT_EXPECT_EQ(test, report(test, 0)->entry.sg_nents, 3);
	EXPECT_REPORTS(test, DMA_OWNER_SG_COUNT_MISMATCH);
	__dma_owner_unmap_sg(dev, sgl, 4, DMA_FROM_DEVICE, _THIS_IP_);
	EXPECT_REPORTS(test, DMA_OWNER_SG_COUNT_MISMATCH);
}

/*
 * A list of more entries than an entry keeps count of, merged into one
 * segment: the same count passes, the returned one does not.
 */
static void test_sg_count_saturated(struct kunit *test)
{
	const unsigned int nents = U16_MAX + 4465;
	struct device *dev = DEV(test);
	struct sg_table t;

	if (IS_ENABLED(CONFIG_ARCH_NO_SG_CHAIN))
		kunit_skip(test, "no sg list of more than %lu entries here",
			   SG_MAX_SINGLE_ALLOC);
	KUNIT_ASSERT_EQ(test, sg_alloc_table(&t, nents, GFP_KERNEL), 0);
	sg_dma_address(t.sgl) = BASE;
	sg_dma_len(t.sgl) = 4096;
	__dma_owner_map_sg(dev, t.sgl, nents, 1, DMA_FROM_DEVICE, 0, _THIS_IP_);
	__dma_owner_sync_sg(dev, t.sgl, nents, DMA_FROM_DEVICE, DMA_OWNER_OP_SYNC_FOR_CPU,
			    _THIS_IP_);
	EXPECT_SILENT(test);
	__dma_owner_sync_sg(dev, t.sgl, 1, DMA_FROM_DEVICE, DMA_OWNER_OP_SYNC_FOR_DEVICE,
			    _THIS_IP_);
	KUNIT_EXPECT_EQ(test, report(test, 0)->nents, 1);
	KUNIT_EXPECT_EQ(test, report(test, 0)->entry.sg_nents, U16_MAX);
	EXPECT_REPORTS(test, DMA_OWNER_SG_COUNT_MISMATCH);
	__dma_owner_unmap_sg(dev, t.sgl, nents, DMA_FROM_DEVICE, _THIS_IP_);
	EXPECT_SILENT(test);
	sg_free_table(&t);
}

/* Segments longer than dma_get_max_seg_size() or across the boundary. */
static void test_sg_segment_limit(struct kunit *test)
{
	struct device_dma_parameters *parms;
	struct scatterlist *sgl = fake_sg(test, 1);
	struct device *dev = DEV(test);
	u64 limit = 0;

	/* without dma_parms: 64 KiB segments, no boundary */
	KUNIT_EXPECT_NULL(test, dma_owner_segment_breaks(dev, BASE, SZ_64K, &limit));
	KUNIT_EXPECT_NOT_NULL(test, dma_owner_segment_breaks(dev, BASE, SZ_64K + 1, &limit));
	KUNIT_EXPECT_EQ(test, limit, SZ_64K);
	parms = kunit_kzalloc(test, sizeof(*parms), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, parms);
	parms->max_segment_size = SZ_1M;
	parms->segment_boundary_mask = SZ_64K - 1;
	dev->dma_parms = parms;
	KUNIT_EXPECT_NULL(test, dma_owner_segment_breaks(dev, BASE, SZ_64K, &limit));
	KUNIT_EXPECT_NOT_NULL(test, dma_owner_segment_breaks(dev, BASE + 4096, SZ_64K, &limit));
	KUNIT_EXPECT_EQ(test, limit, SZ_64K - 1);
	/* through the hook, opt-in: a 16 KiB segment across the boundary */
	sg_dma_address(&sgl[0]) = BASE + SZ_64K - 4096;
	__dma_owner_map_sg(dev, sgl, 1, 1, DMA_TO_DEVICE, 0, _THIS_IP_);
	__dma_owner_unmap_sg(dev, sgl, 1, DMA_TO_DEVICE, _THIS_IP_);
	EXPECT_SILENT(test);
	dma_owner_check_segments = true;
	__dma_owner_map_sg(dev, sgl, 1, 1, DMA_TO_DEVICE, 0, _THIS_IP_);
	dma_owner_check_segments = false;
	KUNIT_EXPECT_EQ(test, report(test, 0)->addr, BASE + SZ_64K - 4096);
	KUNIT_EXPECT_EQ(test, report(test, 0)->size, SZ_16K);
	EXPECT_REPORTS(test, DMA_OWNER_SG_SEGMENT_LIMIT);
	/* the mapping is tracked all the same */
	__dma_owner_unmap_sg(dev, sgl, 1, DMA_TO_DEVICE, _THIS_IP_);
	EXPECT_SILENT(test);
	dev->dma_parms = NULL;
}

static noinline void alloc_coh(struct kunit *test, u64 addr, size_t size,
			       const void *cpu)
{
	__dma_owner_alloc_coherent(DEV(test), size, addr, cpu, _RET_IP_);
}

static noinline void free_coh(struct kunit *test, u64 addr, size_t size,
			      const void *cpu)
{
	__dma_owner_free_coherent(DEV(test), size, cpu, addr, _RET_IP_);
}

/*
 * Coherent memory has no owner: only how it is freed is checked, and
 * whether it is freed at all.
 */
static void test_coherent(struct kunit *test)
{
	struct ctx *c = test->priv;
	void *cpu = (void *)0x1000, *other = (void *)0x2000;

	alloc_coh(test, BASE, 4096, cpu);
	/* a sync of it is needless, but not of an unknown handle */
	for_cpu(test, BASE + 64, 64, DMA_FROM_DEVICE);
	for_dev(test, BASE + 64, 64, DMA_TO_DEVICE);
	free_coh(test, BASE, 4096, cpu);
	EXPECT_SILENT(test);
	/* freed twice */
	free_coh(test, BASE, 4096, cpu);
	EXPECT_REPORTS(test, DMA_OWNER_USE_AFTER_UNMAP);
	/* with another size, another CPU address, another handle */
	alloc_coh(test, BASE, 4096, cpu);
	free_coh(test, BASE, 2048, cpu);
	EXPECT_REPORTS(test, DMA_OWNER_SIZE_MISMATCH);
	alloc_coh(test, BASE, 4096, cpu);
	free_coh(test, BASE, 4096, other);
	KUNIT_EXPECT_PTR_EQ(test, report(test, 0)->entry.cpu_addr, (const void *)cpu);
	KUNIT_EXPECT_PTR_EQ(test, report(test, 0)->cpu_addr, (const void *)other);
	EXPECT_REPORTS(test, DMA_OWNER_CPU_ADDRESS_MISMATCH);
	free_coh(test, BASE + SZ_1M, 4096, cpu);
	EXPECT_REPORTS(test, DMA_OWNER_UNKNOWN_HANDLE);
	/* unmapped as a streaming mapping; a mapping freed as coherent */
	alloc_coh(test, BASE, 4096, cpu);
	unmap(test, BASE, 4096, DMA_BIDIRECTIONAL);
	EXPECT_REPORTS(test, DMA_OWNER_API_MISMATCH);
	map(test, BASE, 4096, DMA_BIDIRECTIONAL, 0);
	free_coh(test, BASE, 4096, cpu);
	EXPECT_REPORTS(test, DMA_OWNER_API_MISMATCH);
	/* still allocated when the driver unbinds */
	alloc_coh(test, BASE, 4096, cpu);
	dma_owner_driver_unbound(c->dev);
	EXPECT_REPORTS(test, DMA_OWNER_LEAK);
}

/*
 * No memory here, on 64-bit and on 32-bit: the cache line check only
 * computes with the address.
 */
#define FAR_PHYS	((phys_addr_t)(sizeof(phys_addr_t) > 4 ? 1ULL << 38 : 0xc0000000ULL))

static noinline void map_phys(struct kunit *test, u64 addr, size_t size,
			      enum dma_data_direction dir, unsigned long attrs,
			      phys_addr_t phys)
{
	__dma_owner_map(DEV(test), addr, size, dir, attrs, DMA_OWNER_API_PAGE,
			phys, _RET_IP_);
	__dma_owner_mapping_error(DEV(test), addr);
}

/*
 * Two mappings in one cache line (the kernel's DMA alignment, 128 bytes on
 * x86 with CONFIG_DMA_OWNER_DEBUG_CACHE_LINE), one of them written by the
 * device: reported at the second map, naming the first.
 */
static void test_cache_line_shared(struct kunit *test)
{
	const u32 l = dma_owner_cache_line();
	const u32 part = l / 4 * 3;	/* ends inside a line */

	if (dma_get_cache_alignment() < 16)
		kunit_skip(test, "no DMA alignment to check lines against");
	KUNIT_ASSERT_EQ(test, l, (u32)dma_get_cache_alignment());
	map_phys(test, BASE, part, DMA_FROM_DEVICE, 0, FAR_PHYS);
	map_phys(test, BASE + 0x1000, part, DMA_TO_DEVICE, 0, FAR_PHYS + part);
	KUNIT_EXPECT_EQ(test, report(test, 0)->addr, BASE + 0x1000);
	KUNIT_EXPECT_EQ(test, report(test, 0)->sharer.handle, BASE);
	KUNIT_EXPECT_EQ(test, report(test, 0)->sharer.line, FAR_PHYS);
	EXPECT_REPORTS(test, DMA_OWNER_CACHE_LINE_SHARED);
	/* a line of its own, whole */
	map_phys(test, BASE + 0x2000, l, DMA_FROM_DEVICE, 0, FAR_PHYS + 2 * l);
	/* both only read by the device: nothing to corrupt */
	map_phys(test, BASE + 0x3000, l / 2, DMA_TO_DEVICE, 0, FAR_PHYS + 4 * l);
	map_phys(test, BASE + 0x4000, l / 2, DMA_TO_DEVICE, 0,
		 FAR_PHYS + 4 * l + l / 2);
	/* DMA_ATTR_SKIP_CPU_SYNC: its owner keeps the caches itself */
	map_phys(test, BASE + 0x5000, l / 4, DMA_FROM_DEVICE,
		 DMA_ATTR_SKIP_CPU_SYNC, FAR_PHYS + l + part);
	/* the same bytes mapped twice: identical handles, not a shared line */
	map_phys(test, BASE + 0x6000, part, DMA_FROM_DEVICE, 0, FAR_PHYS + 8 * l);
	map_phys(test, BASE + 0x7000, part, DMA_FROM_DEVICE, 0, FAR_PHYS + 8 * l);
	EXPECT_SILENT(test);
	/* once unmapped, the line is free again */
	unmap(test, BASE, part, DMA_FROM_DEVICE);
	unmap(test, BASE + 0x1000, part, DMA_TO_DEVICE);
	map_phys(test, BASE + 0x8000, part, DMA_FROM_DEVICE, 0, FAR_PHYS + l / 4);
	EXPECT_SILENT(test);
}

/*
 * The segments of one dma_map_sg() call are synced and unmapped together:
 * sharing a line among them is harmless. Another call's mapping in one of
 * their lines is not.
 */
static void test_cache_line_shared_sg(struct kunit *test)
{
	const u32 l = dma_owner_cache_line();
	struct device *dev = DEV(test);
	struct scatterlist *sgl;
	u8 *buf;

	if (!l)
		kunit_skip(test, "no DMA alignment to check lines against");
	buf = kunit_kzalloc(test, 4 * l, GFP_KERNEL);
	sgl = kunit_kcalloc(test, 2, sizeof(*sgl), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_ASSERT_NOT_NULL(test, sgl);
	KUNIT_ASSERT_TRUE(test, IS_ALIGNED((unsigned long)buf, l));
	sg_init_table(sgl, 2);
	sg_set_buf(&sgl[0], buf, l / 2);
	sg_set_buf(&sgl[1], buf + l / 2, l);
	sg_dma_address(&sgl[0]) = BASE;
	sg_dma_len(&sgl[0]) = l / 2;
	sg_dma_address(&sgl[1]) = BASE + 0x1000;
	sg_dma_len(&sgl[1]) = l;
	__dma_owner_map_sg(dev, sgl, 2, 2, DMA_FROM_DEVICE, 0, _THIS_IP_);
	EXPECT_SILENT(test);
	/* segment 1 ends in the middle of the second line */
	map_phys(test, BASE + 0x2000, l / 4, DMA_TO_DEVICE, 0,
		 virt_to_phys(buf) + l + l / 2);
	KUNIT_EXPECT_EQ(test, report(test, 0)->sharer.handle, BASE + 0x1000);
	EXPECT_REPORTS(test, DMA_OWNER_CACHE_LINE_SHARED);
	unmap(test, BASE + 0x2000, l / 4, DMA_TO_DEVICE);
	__dma_owner_unmap_sg(dev, sgl, 2, DMA_FROM_DEVICE, _THIS_IP_);
	EXPECT_SILENT(test);
}

/* The physical address of @p, on a linear or a virtually mapped stack. */
static phys_addr_t stack_phys(void *p)
{
	if (is_vmalloc_addr(p))
		return page_to_phys(vmalloc_to_page(p)) + offset_in_page(p);
	return virt_to_phys(p);
}

/* The stack, the kernel image, vmalloc: never mapped for DMA. */
static void test_bad_memory(struct kunit *test)
{
	void *heap = kunit_kzalloc(test, 64, GFP_KERNEL);
	struct device *dev = DEV(test);
	char local[64];
	void *vm;

	KUNIT_ASSERT_NOT_NULL(test, heap);
	KUNIT_EXPECT_NULL(test, dma_owner_bad_memory(virt_to_phys(heap), 64));
	KUNIT_EXPECT_NOT_NULL(test, dma_owner_bad_memory(stack_phys(local), sizeof(local)));
	KUNIT_EXPECT_NOT_NULL(test, dma_owner_bad_memory(__pa_symbol(hex_asc), 16));
	KUNIT_EXPECT_NOT_NULL(test, dma_owner_bad_memory(__pa_symbol(dma_owner_bad_memory), 16));
	KUNIT_EXPECT_NULL(test, dma_owner_bad_cpu_addr(heap));

	/* through the hooks: reported at the map, then tracked as any other */
	__dma_owner_map(dev, BASE, sizeof(local), DMA_FROM_DEVICE, 0,
			DMA_OWNER_API_PAGE, stack_phys(local), _THIS_IP_);
	EXPECT_REPORTS(test, DMA_OWNER_BAD_MEMORY);
	__dma_owner_mapping_error(dev, BASE);
	unmap(test, BASE, sizeof(local), DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
	vm = vmalloc(64);
	KUNIT_ASSERT_NOT_NULL(test, vm);
	KUNIT_EXPECT_NOT_NULL(test, dma_owner_bad_cpu_addr(vm));
	__dma_owner_map_single(dev, vm, 64, DMA_TO_DEVICE);
	vfree(vm);
	EXPECT_REPORTS(test, DMA_OWNER_BAD_MEMORY);
	__dma_owner_map_single(dev, heap, 64, DMA_TO_DEVICE);
	EXPECT_SILENT(test);
}

/* One call site, whichever path reaches it. */
static noinline depot_stack_handle_t map_site(struct kunit *test)
{
	return dma_owner_save_map_stack(DEV(test), _THIS_IP_);
}

static noinline depot_stack_handle_t path_short(struct kunit *test)
{
	depot_stack_handle_t h = map_site(test);

	OPTIMIZER_HIDE_VAR(h);		/* a frame of its own, not a tail call */
	return h;
}

static noinline depot_stack_handle_t path_deep(struct kunit *test)
{
	char pad[128], *p = pad;	/* reaches the site deeper in the stack */
	depot_stack_handle_t h;

	OPTIMIZER_HIDE_VAR(p);
	p[0] = 0;
	h = map_site(test);
	OPTIMIZER_HIDE_VAR(h);
	return h + p[0];
}

/* Does the stack @h pass through @fn? */
static bool stack_through(depot_stack_handle_t h, const char *fn)
{
	char name[KSYM_SYMBOL_LEN];
	unsigned long *frames;
	unsigned int i, n;

	n = h ? stack_depot_fetch(h, &frames) : 0;
	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%ps", (void *)frames[i]);
		name[strcspn(name, " .")] = '\0';
		if (!strcmp(name, fn))
			return true;
	}
	return false;
}

/*
 * Map stacks are kept per call path: a call site reached by two paths gets
 * each path's own stack, however often and in whatever order, never the
 * other's.
 */
static void test_map_stack_per_path(struct kunit *test)
{
	depot_stack_handle_t s1, d1, s2, d2;

	/*
	 * The memo is per CPU: on another CPU the same key may hold the
	 * stack of an earlier case's path (seen under a loaded host, where
	 * the vCPU running the case changed between the calls).
	 */
	migrate_disable();
	s1 = path_short(test);
	d1 = path_deep(test);
	s2 = path_short(test);
	d2 = path_deep(test);
	migrate_enable();
	KUNIT_ASSERT_NE(test, s1, 0);
	KUNIT_ASSERT_NE(test, d1, 0);
	KUNIT_EXPECT_TRUE(test, stack_through(s1, "path_short"));
	KUNIT_EXPECT_FALSE(test, stack_through(s1, "path_deep"));
	KUNIT_EXPECT_TRUE(test, stack_through(d1, "path_deep"));
	KUNIT_EXPECT_FALSE(test, stack_through(d1, "path_short"));
	KUNIT_EXPECT_EQ(test, s2, s1);
	KUNIT_EXPECT_EQ(test, d2, d1);
}

/* A resource mapping is tracked like any other. */
static void test_resource(struct kunit *test)
{
	struct device *dev = DEV(test);

	__dma_owner_map(dev, BASE, 4096, DMA_BIDIRECTIONAL, 0,
			DMA_OWNER_API_RESOURCE, 0, _THIS_IP_);
	__dma_owner_mapping_error(dev, BASE);
	__dma_owner_unmap(dev, BASE, 4096, DMA_BIDIRECTIONAL,
			  DMA_OWNER_API_RESOURCE, _THIS_IP_);
	EXPECT_SILENT(test);
	__dma_owner_unmap(dev, BASE, 4096, DMA_BIDIRECTIONAL,
			  DMA_OWNER_API_RESOURCE, _THIS_IP_);
	EXPECT_REPORTS(test, DMA_OWNER_USE_AFTER_UNMAP);
}

/* Calls on a mapping the tracker could not record are silent. */
static void test_untracked_is_silent(struct kunit *test)
{
	long untracked = atomic_long_read(&dma_owner_stats.untracked);
	size_t huge = UNTRACKED_SIZE;

	need_untracked_size(test);

	map(test, BASE, huge, DMA_FROM_DEVICE, 0);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&dma_owner_stats.untracked),
			untracked + 1);
	for_cpu(test, BASE, 4096, DMA_FROM_DEVICE);
	unmap(test, BASE, huge, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
	/* until the driver rebinds: it then has no mappings */
	dma_owner_driver_bound(DEV(test));
	unmap(test, BASE, 4096, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_UNKNOWN_HANDLE);
}

/*
 * An untracked mapping costs only its own handle: the device's other calls
 * are judged meanwhile, and once it is unmapped, all of them again.
 */
static void test_untracked_handle_forgotten(struct kunit *test)
{
	size_t huge = UNTRACKED_SIZE;

	need_untracked_size(test);
	map(test, BASE, huge, DMA_FROM_DEVICE, 0);
	unmap(test, BASE + huge + 4096, 4096, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_UNKNOWN_HANDLE);
	for_cpu(test, BASE + 8192, 4096, DMA_FROM_DEVICE);
	unmap(test, BASE, huge, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
	/* forgotten by its unmap: a second unmap is judged */
	unmap(test, BASE, huge, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_UNKNOWN_HANDLE);
}

/* More untracked mappings than remembered: the device is incomplete. */
static void test_untracked_overflow(struct kunit *test)
{
	size_t huge = UNTRACKED_SIZE;
	int i;

	need_untracked_size(test);
	for (i = 0; i < 9; i++)
		map(test, BASE + i * huge, huge, DMA_FROM_DEVICE, 0);
	unmap(test, BASE - 4096, 4096, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
	/*
	 * Left mapped at the unbind, unseen: whoever holds them may unmap them
	 * late, so the device stays incomplete (leaked-at-unbind).
	 */
	dma_owner_driver_unbound(DEV(test));
	unmap(test, BASE - 4096, 4096, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
	/* Gone and back, it starts whole. */
	dma_owner_device_release(DEV(test));
	dma_owner_device_reset(DEV(test));
	unmap(test, BASE - 4096, 4096, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_UNKNOWN_HANDLE);
}

/*
 * The same memory mapped twice, once untracked: a call at the handle may
 * mean either mapping, so nothing the tracked one alone would draw is said.
 */
static void test_untracked_twin(struct kunit *test)
{
	need_untracked_size(test);
	map(test, BASE, 4096, DMA_FROM_DEVICE, 0);
	map(test, BASE, UNTRACKED_SIZE, DMA_FROM_DEVICE, 0);
	for_dev(test, BASE, 4096, DMA_FROM_DEVICE);
	unmap(test, BASE, 4096, DMA_FROM_DEVICE);
	unmap(test, BASE, UNTRACKED_SIZE, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
}

/* A zero-length mapping is untracked too; its unmap may share a handle. */
static void test_zero_length_twin(struct kunit *test)
{
	map(test, BASE, 2048, DMA_FROM_DEVICE, 0);
	map(test, BASE, 0, DMA_FROM_DEVICE, 0);
	unmap(test, BASE, 0, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
	for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);
	unmap(test, BASE, 2048, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
}

/*
 * A deleted device's mappings are leaks. Until its release, a reference may
 * still make calls, neither tracked nor judged; then nothing of it is kept.
 */
static void test_device_gone(struct kunit *test)
{
	long live = atomic_long_read(&dma_owner_stats.live);

	map(test, BASE, 256, DMA_TO_DEVICE, 0);
	map(test, BASE + 4096, 256, DMA_TO_DEVICE, 0);
	unmap(test, BASE + 4096, 256, DMA_TO_DEVICE);
	dma_owner_device_gone(DEV(test));
	EXPECT_REPORTS(test, DMA_OWNER_LEAK);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&dma_owner_stats.live), live);
	map(test, BASE + 8192, 256, DMA_TO_DEVICE, 0);
	for_dev(test, BASE + 8192, 256, DMA_TO_DEVICE);
	unmap(test, BASE + 8192, 256, DMA_TO_DEVICE);
	unmap(test, BASE + 12288, 256, DMA_TO_DEVICE);
	EXPECT_SILENT(test);
	KUNIT_EXPECT_EQ(test, atomic_long_read(&dma_owner_stats.live), live);
	/* nor its unmaps: a device at its address starts clean */
	dma_owner_device_release(DEV(test));
	dma_owner_device_reset(DEV(test));
	unmap(test, BASE + 4096, 256, DMA_TO_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_UNKNOWN_HANDLE);
}

/*
 * A device may map before it has a name (platform_device_alloc() names it
 * only in platform_device_add()): its reports and log records say so.
 */
static void test_unnamed_device(struct kunit *test)
{
	struct seq_file m = { .size = 2 * PAGE_SIZE };
	struct device *dev = DEV(test);
	const char *name = dev->kobj.name;

	m.buf = kunit_kzalloc(test, m.size, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, m.buf);
	dev->kobj.name = NULL;
	map(test, BASE, 2048, DMA_FROM_DEVICE, 0);
	for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);
	for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);
	unmap(test, BASE, 2048, DMA_FROM_DEVICE);
	dev->kobj.name = name;
	EXPECT_REPORTS(test, DMA_OWNER_MISSING_SYNC_FOR_DEVICE);
	KUNIT_ASSERT_EQ(test, dma_owner_log_show(&m, dma_owner_log_count() - 1), 0);
	KUNIT_EXPECT_NOT_NULL(test, strstr(m.buf, " device=(unnamed) "));
}

/* Switching tracking off and on with mappings live reports nothing. */
static void test_toggle_with_live_mappings(struct kunit *test)
{
	map(test, BASE, 2048, DMA_FROM_DEVICE, 0);
	for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);
	KUNIT_ASSERT_EQ(test, dma_owner_set_enabled(false), 0);
	KUNIT_ASSERT_EQ(test, dma_owner_set_enabled(true), 0);
	/* made before: unknown now, and must stay silent */
	for_cpu(test, BASE, 2048, DMA_FROM_DEVICE);
	unmap(test, BASE, 2048, DMA_FROM_DEVICE);
	unmap(test, BASE, 2048, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);
	/* made after: checked as usual */
	map(test, BASE, 2048, DMA_FROM_DEVICE, 0);
	for_dev(test, BASE, 2048, DMA_FROM_DEVICE);
	unmap(test, BASE, 2048, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_REDUNDANT_SYNC_FOR_DEVICE);
}

/* The rate limit holds back repeats from one site, counts them all. */
static void test_ratelimit(struct kunit *test)
{
	long before = atomic_long_read(&dma_owner_stats.violation[DMA_OWNER_UNKNOWN_HANDLE]);
	int i;

	dma_owner_report_mode = DMA_OWNER_REPORT_RATELIMIT;
	for (i = 0; i < 3; i++)
		__dma_owner_sync(DEV(test), BASE + 0x1000000, 4, DMA_TO_DEVICE,
				 DMA_OWNER_OP_SYNC_FOR_DEVICE,
				 (unsigned long)test_ratelimit);
	EXPECT_REPORTS(test, DMA_OWNER_UNKNOWN_HANDLE);
	KUNIT_EXPECT_GE(test,
			atomic_long_read(&dma_owner_stats.violation[DMA_OWNER_UNKNOWN_HANDLE]),
			before + 3);
}

/* Through the real DMA API: the hooks in kernel/dma/mapping.c. */
static void test_dma_api_hooks(struct kunit *test)
{
	struct device *dev = DEV(test);
	void *buf = kunit_kzalloc(test, 1024, GFP_KERNEL);
	struct sg_table sgt;
	dma_addr_t h;

	KUNIT_ASSERT_NOT_NULL(test, buf);
	KUNIT_EXPECT_TRUE(test, dma_dev_need_sync(dev));
	h = dma_map_single(dev, buf, 1024, DMA_FROM_DEVICE);
	KUNIT_ASSERT_FALSE(test, dma_mapping_error(dev, h));
	KUNIT_EXPECT_TRUE(test, dma_need_sync(dev, h));
	dma_sync_single_for_cpu(dev, h, 1024, DMA_FROM_DEVICE);
	dma_sync_single_range_for_cpu(dev, h, 512, 64, DMA_FROM_DEVICE);
	EXPECT_REPORTS(test, DMA_OWNER_MISSING_SYNC_FOR_DEVICE);
	KUNIT_EXPECT_EQ(test, report(test, 0)->addr, h + 512);
	dma_sync_single_for_device(dev, h, 1024, DMA_FROM_DEVICE);
	dma_unmap_single(dev, h, 1024, DMA_FROM_DEVICE);
	EXPECT_SILENT(test);

	KUNIT_ASSERT_EQ(test, sg_alloc_table(&sgt, 2, GFP_KERNEL), 0);
	sg_set_buf(&sgt.sgl[0], buf, 512);
	sg_set_buf(&sgt.sgl[1], buf + 512, 512);
	KUNIT_ASSERT_EQ(test, dma_map_sgtable(dev, &sgt, DMA_BIDIRECTIONAL, 0), 0);
	dma_sync_sgtable_for_device(dev, &sgt, DMA_BIDIRECTIONAL);
	EXPECT_REPORTS(test, DMA_OWNER_REDUNDANT_SYNC_FOR_DEVICE);
	dma_sync_sgtable_for_cpu(dev, &sgt, DMA_BIDIRECTIONAL);
	dma_unmap_sgtable(dev, &sgt, DMA_BIDIRECTIONAL, 0);
	EXPECT_SILENT(test);
	sg_free_table(&sgt);
}

/* Through the real non-coherent allocator. */
static void test_dma_api_noncoherent(struct kunit *test)
{
	struct device *dev = DEV(test);
	dma_addr_t h;
	void *p;

	p = dma_alloc_noncoherent(dev, 4096, &h, DMA_BIDIRECTIONAL, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	dma_sync_single_for_cpu(dev, h, 4096, DMA_BIDIRECTIONAL);
	EXPECT_REPORTS(test, DMA_OWNER_MISSING_SYNC_FOR_DEVICE);
	KUNIT_EXPECT_EQ(test, (int)report(test, 0)->entry.api, DMA_OWNER_API_PAGES);
	dma_sync_single_for_device(dev, h, 4096, DMA_BIDIRECTIONAL);
	dma_sync_single_for_cpu(dev, h, 4096, DMA_BIDIRECTIONAL);
	dma_free_noncoherent(dev, 4096, p, h, DMA_BIDIRECTIONAL);
	EXPECT_SILENT(test);
}

/*
 * Through the real noncontiguous allocator: a free names the allocation by
 * the pages its size spans (see noncontiguous_size()), so a size that
 * rounds to the same pages is silent. One that spans fewer pages draws
 * size-mismatch, in 30-scenarios (it leaks a page: not done here).
 */
static void test_dma_api_noncontiguous(struct kunit *test)
{
	struct device *dev = DEV(test);
	struct sg_table *sgt;

	sgt = dma_alloc_noncontiguous(dev, 3 * PAGE_SIZE, DMA_BIDIRECTIONAL,
				      GFP_KERNEL, 0);
	KUNIT_ASSERT_NOT_NULL(test, sgt);
	KUNIT_EXPECT_EQ(test, sg_dma_len(sgt->sgl), 3 * PAGE_SIZE);
	dma_sync_sgtable_for_device(dev, sgt, DMA_BIDIRECTIONAL);
	dma_free_noncontiguous(dev, 3 * PAGE_SIZE - 64, sgt, DMA_BIDIRECTIONAL);
	EXPECT_SILENT(test);
}

/* Through the real coherent allocator: tracked from alloc to free, silent. */
static void test_dma_api_coherent(struct kunit *test)
{
	struct device *dev = DEV(test);
	long live = atomic_long_read(&dma_owner_stats.live);
	dma_addr_t h;
	void *p;

	p = dma_alloc_coherent(dev, 4096, &h, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	dma_free_coherent(dev, 4096, p, h);
	EXPECT_SILENT(test);
	/* Not a mapping: the counters of mappings do not move. */
	KUNIT_EXPECT_EQ(test, atomic_long_read(&dma_owner_stats.live), live);
	/*
	 * Both hooks are wired: the tracker alone is told of a wrong free
	 * (a real one would make dma-debug WARN), then the real free comes
	 * as a second one.
	 */
	p = dma_alloc_coherent(dev, 4096, &h, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, p);
	__dma_owner_free_coherent(dev, 4096, p + 64, h, _THIS_IP_);
	EXPECT_REPORTS(test, DMA_OWNER_CPU_ADDRESS_MISMATCH);
	dma_free_coherent(dev, 4096, p, h);
	EXPECT_REPORTS(test, DMA_OWNER_USE_AFTER_UNMAP);
}

/* The poison cases' end, at the case's end or before: what poison_start() changed. */
static void poison_end(void *unused)
{
	static_branch_dec(&dma_owner_poison_key);
	WRITE_ONCE(dma_owner_poison_only, NULL);
}

/*
 * The poison cases' start: poisoning on for the case alone, and a 512-byte
 * buffer of the linear map, which KASAN's shadow covers.
 */
static u8 *poison_start(struct kunit *test)
{
	u8 *buf;

	if (!IS_ENABLED(CONFIG_DMA_OWNER_POISON))
		kunit_skip(test, "needs CONFIG_KASAN_GENERIC");
	if (!dma_owner_poison_ready())
		kunit_skip(test, "no memory for the index of poisoned mappings");
	buf = kunit_kmalloc(test, 512, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	/*
	 * A reference, not a switch: a dma_owner.poison=1 boot holds one of
	 * its own, which the case's end must leave. Only the suite's device
	 * is poisoned meanwhile, whatever the real drivers map.
	 */
	WRITE_ONCE(dma_owner_poison_only, DEV(test));
	static_branch_inc(&dma_owner_poison_key);
	KUNIT_ASSERT_EQ(test, kunit_add_action_or_reset(test, poison_end, NULL), 0);
	return buf;
}

/* map() of the whole of @buf at BASE, with its memory: it may be poisoned. */
static noinline void map_buf(struct kunit *test, u8 *buf,
			     enum dma_data_direction dir, unsigned long attrs)
{
	__dma_owner_map(DEV(test), BASE, 512, dir, attrs, DMA_OWNER_API_PAGE,
			virt_to_phys(buf), _RET_IP_);
	__dma_owner_mapping_error(DEV(test), BASE);
}

/*
 * dma_owner.poison: the shadow follows the owners, granule by granule: the
 * device's whole granules poisoned, every granule with a CPU byte not.
 * Poisoning is switched on for the case only; the buffer is never touched
 * while poisoned.
 */
static void test_poison_shadow(struct kunit *test)
{
	u8 *buf = poison_start(test);
	int i;

	map_buf(test, buf, DMA_FROM_DEVICE, 0);
	KUNIT_EXPECT_PTR_EQ(test, kasan_dma_owned(buf, 512), (const void *)buf);
	/* Bytes 100-119: the granules at 96, 104 and 112 hold some. */
	for_cpu(test, BASE + 100, 20, DMA_FROM_DEVICE);
	KUNIT_EXPECT_NULL(test, kasan_dma_owned(buf + 96, 24));
	KUNIT_EXPECT_PTR_EQ(test, kasan_dma_owned(buf + 88, 8), (const void *)(buf + 88));
	KUNIT_EXPECT_PTR_EQ(test, kasan_dma_owned(buf + 120, 8), (const void *)(buf + 120));
	for_dev(test, BASE + 100, 20, DMA_FROM_DEVICE);
	KUNIT_EXPECT_PTR_EQ(test, kasan_dma_owned(buf + 96, 24), (const void *)(buf + 96));
	/*
	 * Only the bytes a sync moves are rewritten, and the granules at its
	 * ends: one that keeps a CPU byte (124) stays the CPU's.
	 */
	for_cpu(test, BASE + 100, 20, DMA_FROM_DEVICE);
	for_cpu(test, BASE + 124, 2, DMA_FROM_DEVICE);
	for_dev(test, BASE + 100, 22, DMA_FROM_DEVICE);
	KUNIT_EXPECT_PTR_EQ(test, kasan_dma_owned(buf + 96, 24), (const void *)(buf + 96));
	KUNIT_EXPECT_NULL(test, kasan_dma_owned(buf + 120, 8));
	for_dev(test, BASE + 124, 2, DMA_FROM_DEVICE);
	KUNIT_EXPECT_PTR_EQ(test, kasan_dma_owned(buf + 120, 8), (const void *)(buf + 120));
	for (i = 96; i < 128; i += 8)
		KUNIT_EXPECT_PTR_EQ(test, kasan_dma_owned(buf + i, 8), (const void *)(buf + i));
	unmap(test, BASE, 512, DMA_FROM_DEVICE);
	KUNIT_EXPECT_NULL(test, kasan_dma_owned(buf, 512));

	/* Never poisoned: the CPU may read these, or keeps unknown bytes. */
	map_buf(test, buf, DMA_TO_DEVICE, 0);
	KUNIT_EXPECT_NULL(test, kasan_dma_owned(buf, 512));
	unmap(test, BASE, 512, DMA_TO_DEVICE);
	map_buf(test, buf, DMA_FROM_DEVICE, DMA_ATTR_SKIP_CPU_SYNC);
	for_dev(test, BASE, 512, DMA_FROM_DEVICE);
	KUNIT_EXPECT_NULL(test, kasan_dma_owned(buf, 512));
	unmap(test, BASE, 512, DMA_FROM_DEVICE);

	/*
	 * One buffer mapped twice, one handle: after two syncs for the CPU
	 * and one for the device, one of the two is the CPU's whichever the
	 * calls meant. The shadow must not follow the candidate the sync
	 * picked: nothing is poisoned.
	 */
	map_buf(test, buf, DMA_FROM_DEVICE, 0);
	map_buf(test, buf, DMA_FROM_DEVICE, 0);
	for_cpu(test, BASE, 512, DMA_FROM_DEVICE);
	for_cpu(test, BASE, 512, DMA_FROM_DEVICE);
	for_dev(test, BASE, 512, DMA_FROM_DEVICE);
	KUNIT_EXPECT_NULL(test, kasan_dma_owned(buf, 512));
	unmap(test, BASE, 512, DMA_FROM_DEVICE);
	unmap(test, BASE, 512, DMA_FROM_DEVICE);
	KUNIT_EXPECT_NULL(test, kasan_dma_owned(buf, 512));

	kunit_release_action(test, poison_end, NULL);
	EXPECT_SILENT(test);
}

/*
 * swiotlb's copy in a sync for the device reads bytes the sync has just
 * poisoned: it runs paused, and is not reported. A read of the same bytes
 * outside the pause is. Checked here, with a read KASAN always checks,
 * because the copy's memcpy() is not checked on every build: x86's
 * GENERIC_ENTRY keeps KASAN's memcpy() out unless the compiler prefixes
 * mem intrinsics (GCC 13, clang 15), so on Debian 12's GCC the swiotlb
 * scenario cannot see the pause.
 */
static void test_poison_pause(struct kunit *test)
{
	u8 *buf = poison_start(test);
	bool paused;

	map_buf(test, buf, DMA_FROM_DEVICE, 0);

	paused = dma_owner_poison_pause();
	KUNIT_EXPECT_TRUE(test, paused);
	kasan_check_read(buf, 512);		/* as swiotlb_bounce() reads */
	dma_owner_poison_resume(paused);
	EXPECT_SILENT(test);
	/* The pause lifted nothing: the bytes are still the device's. */
	KUNIT_EXPECT_PTR_EQ(test, kasan_dma_owned(buf, 512), (const void *)buf);

	kasan_check_read(buf, 16);		/* not paused: a breach */
	EXPECT_REPORTS(test, DMA_OWNER_CPU_READ_WHILE_DEVICE_OWNED);
	/*
	 * The report lifted the mapping's poison: the next sync, of a part,
	 * poisons again every byte the device owns, not only those it moved.
	 */
	KUNIT_EXPECT_NULL(test, kasan_dma_owned(buf, 512));
	for_cpu(test, BASE, 64, DMA_FROM_DEVICE);
	for_dev(test, BASE, 64, DMA_FROM_DEVICE);
	KUNIT_EXPECT_PTR_EQ(test, kasan_dma_owned(buf + 256, 8), (const void *)(buf + 256));

	unmap(test, BASE, 512, DMA_FROM_DEVICE);
	kunit_release_action(test, poison_end, NULL);
	EXPECT_SILENT(test);
}

/*
 * The content check's own reads of memory another mapping has poisoned (one
 * buffer mapped both ways at once, as an in-place transform does) are the
 * tracker's, not the CPU's: silent.
 */
static void test_poison_contents_csum(struct kunit *test)
{
	u8 *buf = poison_start(test);

	dma_owner_check_contents = true;
	map_buf(test, buf, DMA_FROM_DEVICE, 0);
	__dma_owner_map(DEV(test), BASE + SZ_64K, 512, DMA_TO_DEVICE, 0,
			DMA_OWNER_API_PAGE, virt_to_phys(buf), _THIS_IP_);
	__dma_owner_mapping_error(DEV(test), BASE + SZ_64K);
	unmap(test, BASE + SZ_64K, 512, DMA_TO_DEVICE);
	EXPECT_SILENT(test);
	unmap(test, BASE, 512, DMA_FROM_DEVICE);
	kunit_release_action(test, poison_end, NULL);
	EXPECT_SILENT(test);
}

/*
 * The suite poisons its own device only, and gives back what it took: a
 * real driver's mapping made while a poison case runs is not poisoned
 * (unless the boot poisons every mapping), and a dma_owner.poison=1 boot,
 * whose own reference the key stands for here, still poisons after it.
 */
static void test_poison_suite_only(struct kunit *test)
{
	bool was = static_key_enabled(&dma_owner_poison_key);
	struct device *other;
	u8 *buf, *obuf;

	other = kunit_device_register(test, "dma-owner-kunit-other");
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, other);
	obuf = kunit_kmalloc(test, 512, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, obuf);
	buf = poison_start(test);
	static_branch_inc(&dma_owner_poison_key);	/* the boot's */

	map_buf(test, buf, DMA_FROM_DEVICE, 0);
	KUNIT_EXPECT_PTR_EQ(test, kasan_dma_owned(buf, 512), (const void *)buf);
	__dma_owner_map(other, BASE, 512, DMA_FROM_DEVICE, 0, DMA_OWNER_API_PAGE,
			virt_to_phys(obuf), _THIS_IP_);
	__dma_owner_mapping_error(other, BASE);
	if (!was)
		KUNIT_EXPECT_NULL(test, kasan_dma_owned(obuf, 512));
	__dma_owner_unmap(other, BASE, 512, DMA_FROM_DEVICE, DMA_OWNER_API_PAGE,
			  _THIS_IP_);
	unmap(test, BASE, 512, DMA_FROM_DEVICE);

	kunit_release_action(test, poison_end, NULL);
	KUNIT_EXPECT_TRUE(test, static_key_enabled(&dma_owner_poison_key));
	static_branch_dec(&dma_owner_poison_key);
	KUNIT_EXPECT_EQ(test, static_key_enabled(&dma_owner_poison_key), was);
	KUNIT_EXPECT_NULL(test, READ_ONCE(dma_owner_poison_only));
	EXPECT_SILENT(test);
}

static struct kunit_case dma_owner_test_cases[] = {
	KUNIT_CASE(test_full_cycle),
	KUNIT_CASE(test_unmap_from_either_owner),
	KUNIT_CASE(test_missing_sync_for_device),
	KUNIT_CASE(test_history_caller_out_of_reach),
	KUNIT_CASE(test_history_wrap),
	KUNIT_CASE(test_log_record),
	KUNIT_CASE(test_sync_in_later_chunk),
	KUNIT_CASE(test_zero_length_sync),
	KUNIT_CASE(test_peak_live),
	KUNIT_CASE(test_syncs_walked),
	KUNIT_CASE(test_redundant_sync_for_device),
	KUNIT_CASE(test_to_device_refill),
	KUNIT_CASE(test_ignore_rule),
	KUNIT_CASE(test_ignore_verdict_per_site),
	KUNIT_CASE(test_skip_cpu_sync),
	KUNIT_CASE(test_skip_sync_fragments),
	KUNIT_CASE(test_half_page_reuse),
	KUNIT_CASE(test_partial_syncs),
	KUNIT_CASE(test_partial_missing_sync),
	KUNIT_CASE(test_fragments_exact),
	KUNIT_CASE(test_too_many_fragments),
	KUNIT_CASE(test_inexact_until_whole_sync),
	KUNIT_CASE(test_noncoherent_alloc),
	KUNIT_CASE(test_identical_handles),
	KUNIT_CASE(test_identical_handles_levels),
	KUNIT_CASE(test_identical_handles_mixed),
	KUNIT_CASE(test_identical_handles_sizes),
	KUNIT_CASE(test_identical_handles_ambiguous),
	KUNIT_CASE(test_twin_from_chunk_before),
	KUNIT_CASE(test_twin_at_another_level),
	KUNIT_CASE(test_unknown_handle),
	KUNIT_CASE(test_use_after_unmap),
	KUNIT_CASE(test_use_after_unmap_late),
	KUNIT_CASE(test_use_after_unmap_ring),
	KUNIT_CASE(test_unmapped_evicts_oldest),
	KUNIT_CASE(test_device_gone_drops_entries),
	KUNIT_CASE(test_out_of_range),
	KUNIT_CASE(test_dir_mismatch),
	KUNIT_CASE(test_size_mismatch),
	KUNIT_CASE(test_cpu_write_while_device_owned),
	KUNIT_CASE(test_leak_on_unbind),
	KUNIT_CASE(test_sg),
	KUNIT_CASE(test_sg_merged),
	KUNIT_CASE(test_sg_identical_segments),
	KUNIT_CASE(test_sg_zero_length_segment),
	KUNIT_CASE(test_sg_dir_and_range),
	KUNIT_CASE(test_resource),
	KUNIT_CASE(test_map_error_unchecked),
	KUNIT_CASE(test_api_mismatch),
	KUNIT_CASE(test_sg_count_mismatch),
	KUNIT_CASE(test_sg_count_saturated),
	KUNIT_CASE(test_bucket_unlink),
	KUNIT_CASE(test_history_slots),
	KUNIT_CASE(test_sg_segment_limit),
	KUNIT_CASE(test_bad_memory),
	KUNIT_CASE(test_map_stack_per_path),
	KUNIT_CASE(test_coherent),
	KUNIT_CASE(test_cache_line_shared),
	KUNIT_CASE(test_cache_line_shared_sg),
	KUNIT_CASE(test_untracked_is_silent),
	KUNIT_CASE(test_untracked_handle_forgotten),
	KUNIT_CASE(test_untracked_overflow),
	KUNIT_CASE(test_untracked_twin),
	KUNIT_CASE(test_zero_length_twin),
	KUNIT_CASE(test_device_gone),
	KUNIT_CASE(test_unnamed_device),
	KUNIT_CASE(test_ratelimit),
	KUNIT_CASE(test_dma_api_hooks),
	KUNIT_CASE(test_dma_api_noncoherent),
	KUNIT_CASE(test_dma_api_noncontiguous),
	KUNIT_CASE(test_dma_api_coherent),
	KUNIT_CASE(test_poison_shadow),
	KUNIT_CASE(test_poison_pause),
	KUNIT_CASE(test_poison_suite_only),
	KUNIT_CASE(test_poison_contents_csum),
	/* last: it makes every real device incomplete */
	KUNIT_CASE(test_toggle_with_live_mappings),
	{}
};

static struct kunit_suite dma_owner_test_suite = {
	.name = "dma_owner",
	.init = owner_test_init,
	.exit = owner_test_exit,
	.test_cases = dma_owner_test_cases,
};

kunit_test_suite(dma_owner_test_suite);

MODULE_DESCRIPTION("KUnit tests for the DMA ownership tracker");
MODULE_LICENSE("GPL");
