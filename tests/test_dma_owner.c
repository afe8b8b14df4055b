// SPDX-License-Identifier: GPL-2.0
/*
 * Test module for the DMA ownership tracker (CONFIG_DMA_OWNER_DEBUG).
 *
 * Runs named scenarios of correct and broken streaming DMA API use on a real
 * DMA device, so that the tracker's verdicts can be checked end to end on
 * the paths real machines take: dma-direct, swiotlb bouncing, an IOMMU. It
 * drives QEMU's "edu" PCI device (-device edu) when there is one, so the
 * mappings go through the same code as a PCI driver's; otherwise a platform
 * device of its own.
 *
 * /sys/kernel/debug/test_dma_owner/
 *   scenarios  one line per scenario: name, then the violation it commits
 *              ("none" for correct use)
 *   run        write a scenario name to run it; -EINVAL if there is none
 *   result     after a run: the scenario, device, handle and expected kind
 *   hold       write N (0 to 64) to keep N page mappings live, released
 *              when N is written again: the even ones owned by the device,
 *              the odd ones handed to the CPU (a listing with both owners
 *              for tools that read the tracker's mappings)
 *
 * Misuse is chosen to be harmless to the DMA layer itself: a use after unmap
 * is a sync, not a second unmap, and a wrong size stays within the pages
 * mapped, so that the tracker's report is the only consequence.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include <linux/prandom.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>

#define EDU_VENDOR	0x1234
#define EDU_DEVICE	0x11e8
#define BUF_SIZE	4096
#define NOT_MAPPED	(16UL << 20)	/* offset of a handle nobody mapped */

static DEFINE_MUTEX(run_lock);
static struct device *tdev;		/* the device we map for, when bound */
static struct platform_device *pdev;	/* the fallback, if no edu */

static struct {
	const char *scenario;
	dma_addr_t handle;
} result;

struct scenario {
	const char *name;
	const char *expect;	/* violation kind, or "none" */
	int (*run)(struct device *dev, void *buf);
};

/* Inline, so the DMA API sees the scenario as its caller. */
static __always_inline int map_single(struct device *dev, void *buf,
				      size_t size, enum dma_data_direction dir,
				      dma_addr_t *h)
{
	*h = dma_map_single(dev, buf, size, dir);
	result.handle = *h;
	return dma_mapping_error(dev, *h) ? -ENOMEM : 0;
}

/* An sg table of @n entries, one per quarter page of @buf. */
static __always_inline int map_sgt(struct device *dev, void *buf,
				   struct sg_table *sgt, int n,
				   enum dma_data_direction dir)
{
	int i, ret;

	ret = sg_alloc_table(sgt, n, GFP_KERNEL);
	if (ret)
		return ret;
	for (i = 0; i < n; i++)
		sg_set_buf(&sgt->sgl[i], buf + i * (BUF_SIZE / n), BUF_SIZE / n);
	ret = dma_map_sgtable(dev, sgt, dir, 0);
	if (ret) {
		sg_free_table(sgt);
		return ret;
	}
	result.handle = sg_dma_address(sgt->sgl);
	return 0;
}

static __always_inline void unmap_sgt(struct device *dev,
				      struct sg_table *sgt,
				       enum dma_data_direction dir)
{
	dma_unmap_sgtable(dev, sgt, dir, 0);
	sg_free_table(sgt);
}

/* ---- correct use: must stay silent ------------------------------------ */

static int cycle_single(struct device *dev, void *buf)
{
	dma_addr_t h;

	if (map_single(dev, buf, 2048, DMA_FROM_DEVICE, &h))
		return -ENOMEM;
	dma_sync_single_for_cpu(dev, h, 2048, DMA_FROM_DEVICE);
	dma_sync_single_for_device(dev, h, 2048, DMA_FROM_DEVICE);
	dma_sync_single_for_cpu(dev, h, 2048, DMA_FROM_DEVICE);
	dma_unmap_single(dev, h, 2048, DMA_FROM_DEVICE);
	return 0;
}

static int cycle_page(struct device *dev, void *buf)
{
	struct page *page = virt_to_page(buf);
	dma_addr_t h;

	h = dma_map_page(dev, page, 0, BUF_SIZE, DMA_TO_DEVICE);
	result.handle = h;
	if (dma_mapping_error(dev, h))
		return -ENOMEM;
	dma_sync_single_for_cpu(dev, h, BUF_SIZE, DMA_TO_DEVICE);
	memset(buf, 0x5a, 64);
	dma_sync_single_for_device(dev, h, BUF_SIZE, DMA_TO_DEVICE);
	dma_unmap_page(dev, h, BUF_SIZE, DMA_TO_DEVICE);
	return 0;
}

static int cycle_sg(struct device *dev, void *buf)
{
	struct sg_table sgt;

	if (map_sgt(dev, buf, &sgt, 4, DMA_BIDIRECTIONAL))
		return -ENOMEM;
	dma_sync_sgtable_for_cpu(dev, &sgt, DMA_BIDIRECTIONAL);
	dma_sync_sgtable_for_device(dev, &sgt, DMA_BIDIRECTIONAL);
	unmap_sgt(dev, &sgt, DMA_BIDIRECTIONAL);
	return 0;
}

static int cycle_resource(struct device *dev, void *buf)
{
	dma_addr_t h = dma_map_resource(dev, virt_to_phys(buf), BUF_SIZE,
					DMA_BIDIRECTIONAL, 0);

	result.handle = h;
	if (dma_mapping_error(dev, h))
		return -ENOMEM;
	dma_unmap_resource(dev, h, BUF_SIZE, DMA_BIDIRECTIONAL, 0);
	return 0;
}

static int partial_sync(struct device *dev, void *buf)
{
	dma_addr_t h;

	if (map_single(dev, buf, BUF_SIZE, DMA_FROM_DEVICE, &h))
		return -ENOMEM;
	dma_sync_single_range_for_cpu(dev, h, 256, 128, DMA_FROM_DEVICE);
	dma_sync_single_range_for_cpu(dev, h, 1024, 128, DMA_FROM_DEVICE);
	dma_sync_single_for_device(dev, h, BUF_SIZE, DMA_FROM_DEVICE);
	dma_unmap_single(dev, h, BUF_SIZE, DMA_FROM_DEVICE);
	return 0;
}

/* rx copybreak done right: the header to the CPU and back, buffer reused */
static int copybreak(struct device *dev, void *buf)
{
	dma_addr_t h;
	int i;

	if (map_single(dev, buf, 2048, DMA_FROM_DEVICE, &h))
		return -ENOMEM;
	for (i = 0; i < 3; i++) {
		dma_sync_single_for_cpu(dev, h, 128, DMA_FROM_DEVICE);
		dma_sync_single_for_device(dev, h, 128, DMA_FROM_DEVICE);
	}
	dma_unmap_single(dev, h, 2048, DMA_FROM_DEVICE);
	return 0;
}

/* page_pool: mapped once with SKIP_CPU_SYNC, synced for each use */
static int skip_cpu_sync_recycle(struct device *dev, void *buf)
{
	struct page *page = virt_to_page(buf);
	dma_addr_t h;
	int i;

	h = dma_map_page_attrs(dev, page, 0, BUF_SIZE, DMA_FROM_DEVICE,
			       DMA_ATTR_SKIP_CPU_SYNC);
	result.handle = h;
	if (dma_mapping_error(dev, h))
		return -ENOMEM;
	dma_sync_single_for_device(dev, h, BUF_SIZE, DMA_FROM_DEVICE);
	for (i = 0; i < 3; i++) {
		dma_sync_single_range_for_cpu(dev, h, 64, 1500, DMA_FROM_DEVICE);
		dma_sync_single_for_device(dev, h, BUF_SIZE, DMA_FROM_DEVICE);
	}
	dma_unmap_page_attrs(dev, h, BUF_SIZE, DMA_FROM_DEVICE,
			     DMA_ATTR_SKIP_CPU_SYNC);
	return 0;
}

static int unmap_cpu_owned(struct device *dev, void *buf)
{
	dma_addr_t h;

	if (map_single(dev, buf, 2048, DMA_FROM_DEVICE, &h))
		return -ENOMEM;
	dma_sync_single_for_cpu(dev, h, 2048, DMA_FROM_DEVICE);
	dma_unmap_single(dev, h, 2048, DMA_FROM_DEVICE);
	return 0;
}

/* dma_map_sg() may map fewer segments than nents (an IOMMU merges them) */
static int sg_fewer_ents(struct device *dev, void *buf)
{
	struct scatterlist sg[4];
	int i, ents;

	sg_init_table(sg, 4);
	for (i = 0; i < 4; i++)
		sg_set_buf(&sg[i], buf + i * 1024, 1024);
	ents = dma_map_sg(dev, sg, 4, DMA_TO_DEVICE);
	if (!ents)
		return -ENOMEM;
	result.handle = sg_dma_address(sg);
	dma_sync_sg_for_cpu(dev, sg, 4, DMA_TO_DEVICE);
	dma_sync_sg_for_device(dev, sg, 4, DMA_TO_DEVICE);
	dma_unmap_sg(dev, sg, 4, DMA_TO_DEVICE);
	return 0;
}

/* ---- misuse: each must be reported once, with its kind ---------------- */

static int missing_sync_single(struct device *dev, void *buf)
{
	dma_addr_t h;

	if (map_single(dev, buf, 2048, DMA_FROM_DEVICE, &h))
		return -ENOMEM;
	dma_sync_single_for_cpu(dev, h, 2048, DMA_FROM_DEVICE);
	/* ...the device is given the buffer again, no sync_for_device... */
	dma_sync_single_for_cpu(dev, h, 2048, DMA_FROM_DEVICE);
	dma_unmap_single(dev, h, 2048, DMA_FROM_DEVICE);
	return 0;
}

static int missing_sync_page(struct device *dev, void *buf)
{
	struct page *page = virt_to_page(buf);
	dma_addr_t h;

	h = dma_map_page(dev, page, 0, BUF_SIZE, DMA_FROM_DEVICE);
	result.handle = h;
	if (dma_mapping_error(dev, h))
		return -ENOMEM;
	dma_sync_single_for_cpu(dev, h, BUF_SIZE, DMA_FROM_DEVICE);
	dma_sync_single_range_for_cpu(dev, h, 512, 64, DMA_FROM_DEVICE);
	dma_unmap_page(dev, h, BUF_SIZE, DMA_FROM_DEVICE);
	return 0;
}

static int missing_sync_sg(struct device *dev, void *buf)
{
	struct sg_table sgt;

	if (map_sgt(dev, buf, &sgt, 4, DMA_FROM_DEVICE))
		return -ENOMEM;
	dma_sync_sgtable_for_cpu(dev, &sgt, DMA_FROM_DEVICE);
	dma_sync_sgtable_for_cpu(dev, &sgt, DMA_FROM_DEVICE);
	unmap_sgt(dev, &sgt, DMA_FROM_DEVICE);
	return 0;
}

static int redundant_sync_single(struct device *dev, void *buf)
{
	dma_addr_t h;

	if (map_single(dev, buf, 2048, DMA_TO_DEVICE, &h))
		return -ENOMEM;
	dma_sync_single_for_device(dev, h, 2048, DMA_TO_DEVICE);
	dma_unmap_single(dev, h, 2048, DMA_TO_DEVICE);
	return 0;
}

static int redundant_sync_page(struct device *dev, void *buf)
{
	struct page *page = virt_to_page(buf);
	dma_addr_t h;

	h = dma_map_page(dev, page, 0, BUF_SIZE, DMA_TO_DEVICE);
	result.handle = h;
	if (dma_mapping_error(dev, h))
		return -ENOMEM;
	dma_sync_single_for_cpu(dev, h, BUF_SIZE, DMA_TO_DEVICE);
	dma_sync_single_for_device(dev, h, BUF_SIZE, DMA_TO_DEVICE);
	dma_sync_single_for_device(dev, h, BUF_SIZE, DMA_TO_DEVICE);
	dma_unmap_page(dev, h, BUF_SIZE, DMA_TO_DEVICE);
	return 0;
}

static int redundant_sync_sg(struct device *dev, void *buf)
{
	struct sg_table sgt;

	if (map_sgt(dev, buf, &sgt, 4, DMA_TO_DEVICE))
		return -ENOMEM;
	dma_sync_sgtable_for_device(dev, &sgt, DMA_TO_DEVICE);
	unmap_sgt(dev, &sgt, DMA_TO_DEVICE);
	return 0;
}

static int unknown_handle_single(struct device *dev, void *buf)
{
	dma_addr_t h;

	if (map_single(dev, buf, 2048, DMA_FROM_DEVICE, &h))
		return -ENOMEM;
	dma_unmap_single(dev, h, 2048, DMA_FROM_DEVICE);
	/* an address nobody mapped: far from any mapping of ours */
	result.handle = h + NOT_MAPPED;
	dma_sync_single_for_cpu(dev, h + NOT_MAPPED, 64, DMA_FROM_DEVICE);
	return 0;
}

static int unknown_handle_page(struct device *dev, void *buf)
{
	dma_addr_t h;

	h = dma_map_page(dev, virt_to_page(buf), 0, BUF_SIZE, DMA_TO_DEVICE);
	if (dma_mapping_error(dev, h))
		return -ENOMEM;
	dma_unmap_page(dev, h, BUF_SIZE, DMA_TO_DEVICE);
	result.handle = h + NOT_MAPPED + 128;	/* what the sync names */
	dma_sync_single_range_for_device(dev, h + NOT_MAPPED, 128, 64,
					 DMA_TO_DEVICE);
	return 0;
}

/* A list whose DMA addresses were never mapped (a stale copy, say). */
static int unknown_handle_sg(struct device *dev, void *buf)
{
	struct scatterlist *s;
	struct sg_table sgt;
	int i;

	if (map_sgt(dev, buf, &sgt, 4, DMA_FROM_DEVICE))
		return -ENOMEM;
	dma_unmap_sgtable(dev, &sgt, DMA_FROM_DEVICE, 0);
	for_each_sgtable_dma_sg(&sgt, s, i)
		sg_dma_address(s) += NOT_MAPPED;
	result.handle = sg_dma_address(sgt.sgl);
	dma_sync_sgtable_for_cpu(dev, &sgt, DMA_FROM_DEVICE);
	sg_free_table(&sgt);
	return 0;
}

static int use_after_unmap_single(struct device *dev, void *buf)
{
	dma_addr_t h;

	if (map_single(dev, buf, 2048, DMA_FROM_DEVICE, &h))
		return -ENOMEM;
	dma_unmap_single(dev, h, 2048, DMA_FROM_DEVICE);
	dma_sync_single_for_cpu(dev, h, 2048, DMA_FROM_DEVICE);
	return 0;
}

static int use_after_unmap_page(struct device *dev, void *buf)
{
	dma_addr_t h;

	h = dma_map_page(dev, virt_to_page(buf), 0, BUF_SIZE, DMA_FROM_DEVICE);
	result.handle = h;
	if (dma_mapping_error(dev, h))
		return -ENOMEM;
	dma_unmap_page(dev, h, BUF_SIZE, DMA_FROM_DEVICE);
	dma_sync_single_range_for_cpu(dev, h, 0, 256, DMA_FROM_DEVICE);
	return 0;
}

static int use_after_unmap_sg(struct device *dev, void *buf)
{
	struct sg_table sgt;

	if (map_sgt(dev, buf, &sgt, 4, DMA_FROM_DEVICE))
		return -ENOMEM;
	dma_unmap_sgtable(dev, &sgt, DMA_FROM_DEVICE, 0);
	dma_sync_sgtable_for_cpu(dev, &sgt, DMA_FROM_DEVICE);
	sg_free_table(&sgt);
	return 0;
}

static int use_after_unmap_resource(struct device *dev, void *buf)
{
	dma_addr_t h = dma_map_resource(dev, virt_to_phys(buf), BUF_SIZE,
					DMA_BIDIRECTIONAL, 0);

	result.handle = h;
	if (dma_mapping_error(dev, h))
		return -ENOMEM;
	dma_unmap_resource(dev, h, BUF_SIZE, DMA_BIDIRECTIONAL, 0);
	dma_sync_single_for_cpu(dev, h, BUF_SIZE, DMA_BIDIRECTIONAL);
	return 0;
}

static int out_of_range_single(struct device *dev, void *buf)
{
	dma_addr_t h;

	if (map_single(dev, buf, 256, DMA_FROM_DEVICE, &h))
		return -ENOMEM;
	dma_sync_single_range_for_cpu(dev, h, 200, 100, DMA_FROM_DEVICE);
	dma_unmap_single(dev, h, 256, DMA_FROM_DEVICE);
	return 0;
}

static int out_of_range_page(struct device *dev, void *buf)
{
	dma_addr_t h;

	h = dma_map_page(dev, virt_to_page(buf), 0, 1024, DMA_TO_DEVICE);
	result.handle = h;
	if (dma_mapping_error(dev, h))
		return -ENOMEM;
	dma_sync_single_range_for_cpu(dev, h, 0, 1024, DMA_TO_DEVICE);
	dma_sync_single_range_for_device(dev, h, 512, 1024, DMA_TO_DEVICE);
	dma_unmap_page(dev, h, 1024, DMA_TO_DEVICE);
	return 0;
}

/* A list rebuilt with a longer first entry, then synced as if mapped so. */
static int out_of_range_sg(struct device *dev, void *buf)
{
	struct sg_table sgt;

	if (map_sgt(dev, buf, &sgt, 4, DMA_FROM_DEVICE))
		return -ENOMEM;
	sg_dma_len(sgt.sgl) += 256;
	dma_sync_sgtable_for_cpu(dev, &sgt, DMA_FROM_DEVICE);
	sg_dma_len(sgt.sgl) -= 256;
	unmap_sgt(dev, &sgt, DMA_FROM_DEVICE);
	return 0;
}

static int dir_mismatch_single(struct device *dev, void *buf)
{
	dma_addr_t h;

	if (map_single(dev, buf, 2048, DMA_TO_DEVICE, &h))
		return -ENOMEM;
	dma_sync_single_for_cpu(dev, h, 2048, DMA_FROM_DEVICE);
	dma_unmap_single(dev, h, 2048, DMA_TO_DEVICE);
	return 0;
}

static int dir_mismatch_sg(struct device *dev, void *buf)
{
	struct sg_table sgt;

	if (map_sgt(dev, buf, &sgt, 4, DMA_TO_DEVICE))
		return -ENOMEM;
	dma_sync_sgtable_for_cpu(dev, &sgt, DMA_FROM_DEVICE);
	unmap_sgt(dev, &sgt, DMA_TO_DEVICE);
	return 0;
}

static int dir_mismatch_page(struct device *dev, void *buf)
{
	dma_addr_t h;

	h = dma_map_page(dev, virt_to_page(buf), 0, BUF_SIZE, DMA_TO_DEVICE);
	result.handle = h;
	if (dma_mapping_error(dev, h))
		return -ENOMEM;
	dma_unmap_page(dev, h, BUF_SIZE, DMA_BIDIRECTIONAL);
	return 0;
}

static int dir_mismatch_resource(struct device *dev, void *buf)
{
	dma_addr_t h = dma_map_resource(dev, virt_to_phys(buf), BUF_SIZE,
					DMA_TO_DEVICE, 0);

	result.handle = h;
	if (dma_mapping_error(dev, h))
		return -ENOMEM;
	dma_unmap_resource(dev, h, BUF_SIZE, DMA_FROM_DEVICE, 0);
	return 0;
}

static int size_mismatch_single(struct device *dev, void *buf)
{
	dma_addr_t h;

	if (map_single(dev, buf, 256, DMA_TO_DEVICE, &h))
		return -ENOMEM;
	dma_unmap_single(dev, h, 128, DMA_TO_DEVICE);
	return 0;
}

static int size_mismatch_page(struct device *dev, void *buf)
{
	dma_addr_t h;

	h = dma_map_page(dev, virt_to_page(buf), 0, BUF_SIZE, DMA_TO_DEVICE);
	result.handle = h;
	if (dma_mapping_error(dev, h))
		return -ENOMEM;
	dma_unmap_page(dev, h, BUF_SIZE / 2, DMA_TO_DEVICE);
	return 0;
}

static int size_mismatch_resource(struct device *dev, void *buf)
{
	dma_addr_t h = dma_map_resource(dev, virt_to_phys(buf), 2048,
					DMA_BIDIRECTIONAL, 0);

	result.handle = h;
	if (dma_mapping_error(dev, h))
		return -ENOMEM;
	dma_unmap_resource(dev, h, 1024, DMA_BIDIRECTIONAL, 0);
	return 0;
}

/* needs dma_owner.check_contents=1 */
static int cpu_write_single(struct device *dev, void *buf)
{
	u8 *p = buf;
	dma_addr_t h;

	if (map_single(dev, buf, 2048, DMA_TO_DEVICE, &h))
		return -ENOMEM;
	p[100] ^= 0xff;		/* the device owns it */
	dma_unmap_single(dev, h, 2048, DMA_TO_DEVICE);
	return 0;
}

static int cpu_write_page(struct device *dev, void *buf)
{
	u8 *p = buf;
	dma_addr_t h;

	h = dma_map_page(dev, virt_to_page(buf), 0, BUF_SIZE, DMA_TO_DEVICE);
	result.handle = h;
	if (dma_mapping_error(dev, h))
		return -ENOMEM;
	p[BUF_SIZE - 1]++;	/* the device owns it */
	dma_sync_single_for_cpu(dev, h, BUF_SIZE, DMA_TO_DEVICE);
	dma_unmap_page(dev, h, BUF_SIZE, DMA_TO_DEVICE);
	return 0;
}

/*
 * One entry: the content check needs the CPU address of each DMA segment,
 * which an IOMMU that merges segments does not keep.
 */
static int cpu_write_sg(struct device *dev, void *buf)
{
	struct sg_table sgt;
	u8 *p = buf;

	if (map_sgt(dev, buf, &sgt, 1, DMA_TO_DEVICE))
		return -ENOMEM;
	p[8] = ~p[8];		/* the device owns it */
	unmap_sgt(dev, &sgt, DMA_TO_DEVICE);
	return 0;
}

/* The driver unbinds with a mapping live; then it is bound again. */
static int leak(struct device *dev, void *buf)
{
	dma_addr_t h;

	if (map_single(dev, buf, 512, DMA_TO_DEVICE, &h))
		return -ENOMEM;
	device_release_driver(dev);
	return device_attach(dev) > 0 ? 0 : -ENODEV;
}

/* ---- fault injection: misuse injected into correct traffic ------------ */

/*
 * "random" runs random_ops random operations on a pool of mappings, all of
 * them correct, except that with a chance of random_rate percent an
 * operation is replaced by one misuse of a random kind, each committed so
 * that it is exactly one violation and leaves the mapping as it was. The
 * same seed gives the same run. The result file then counts what was
 * injected, kind by kind, for the test to compare with what was detected.
 */
static unsigned int random_seed = 1;
module_param(random_seed, uint, 0644);
MODULE_PARM_DESC(random_seed, "Seed of the random scenario");
static unsigned int random_ops = 2000;
module_param(random_ops, uint, 0644);
MODULE_PARM_DESC(random_ops, "Operations of the random scenario");
static unsigned int random_rate = 5;
module_param(random_rate, uint, 0644);
MODULE_PARM_DESC(random_rate, "Percent of operations replaced by a misuse");
static bool random_cpu_write;
module_param(random_cpu_write, bool, 0644);
MODULE_PARM_DESC(random_cpu_write,
		 "Inject CPU writes to device-owned buffers too (needs dma_owner.check_contents=1)");

enum injected_kind {
	INJ_MISSING_SYNC, INJ_REDUNDANT_SYNC, INJ_UNKNOWN_HANDLE,
	INJ_USE_AFTER_UNMAP, INJ_OUT_OF_RANGE, INJ_DIR_MISMATCH,
	INJ_SIZE_MISMATCH, INJ_CPU_WRITE, NR_INJ
};

static const char *const injected_names[NR_INJ] = {
	"missing-sync-for-device", "redundant-sync-for-device",
	"unknown-handle", "use-after-unmap", "out-of-range",
	"dir-mismatch", "size-mismatch", "cpu-write-while-device-owned",
};

static unsigned int injected[NR_INJ];
static unsigned int nr_kinds;		/* of the last run: INJ_CPU_WRITE or all */
static unsigned int random_done;

#define POOL 32

struct pool_map {
	void *buf;
	dma_addr_t h;
	size_t size;
	enum dma_data_direction dir;
};

static int pool_map(struct device *dev, struct pool_map *m, struct rnd_state *rs)
{
	static const enum dma_data_direction dirs[] = {
		DMA_TO_DEVICE, DMA_FROM_DEVICE, DMA_BIDIRECTIONAL,
	};

	m->size = 256 << (prandom_u32_state(rs) % 4);	/* 256 .. 2048 */
	m->dir = dirs[prandom_u32_state(rs) % 3];
	m->h = dma_map_single(dev, m->buf, m->size, m->dir);
	return dma_mapping_error(dev, m->h) ? -ENOMEM : 0;
}

/* No mapping of the pool contains @addr. */
static bool pool_free_addr(struct pool_map *pool, dma_addr_t addr)
{
	int i;

	for (i = 0; i < POOL; i++)
		if (addr >= pool[i].h && addr - pool[i].h < pool[i].size)
			return false;
	return true;
}

static void inject(struct device *dev, struct pool_map *pool,
		   struct pool_map *m, struct rnd_state *rs)
{
	enum dma_data_direction wrong;
	enum injected_kind kind = prandom_u32_state(rs) % nr_kinds;
	u8 *p;
	dma_addr_t h;

	switch (kind) {
	case INJ_MISSING_SYNC:
		dma_sync_single_for_cpu(dev, m->h, m->size, m->dir);
		dma_sync_single_for_cpu(dev, m->h, m->size, m->dir);
		dma_sync_single_for_device(dev, m->h, m->size, m->dir);
		break;
	case INJ_REDUNDANT_SYNC:
		dma_sync_single_for_device(dev, m->h, m->size, m->dir);
		break;
	case INJ_UNKNOWN_HANDLE:
		h = m->h + NOT_MAPPED;
		if (!pool_free_addr(pool, h))
			return;
		dma_sync_single_for_cpu(dev, h, 64, m->dir);
		break;
	case INJ_USE_AFTER_UNMAP:
		dma_unmap_single(dev, m->h, m->size, m->dir);
		dma_sync_single_for_cpu(dev, m->h, m->size, m->dir);
		if (pool_map(dev, m, rs))
			m->h = DMA_MAPPING_ERROR;
		break;
	case INJ_OUT_OF_RANGE:
		dma_sync_single_range_for_cpu(dev, m->h, m->size - 8, 16, m->dir);
		dma_sync_single_range_for_device(dev, m->h, m->size - 8, 8, m->dir);
		break;
	case INJ_DIR_MISMATCH:
		if (m->dir == DMA_BIDIRECTIONAL)
			return;		/* any direction is right for it */
		wrong = m->dir == DMA_TO_DEVICE ? DMA_FROM_DEVICE : DMA_TO_DEVICE;
		dma_sync_single_for_cpu(dev, m->h, m->size, wrong);
		dma_sync_single_for_device(dev, m->h, m->size, m->dir);
		break;
	case INJ_SIZE_MISMATCH:
		dma_unmap_single(dev, m->h, m->size / 2, m->dir);
		if (pool_map(dev, m, rs))
			m->h = DMA_MAPPING_ERROR;
		break;
	case INJ_CPU_WRITE:
		if (m->dir != DMA_TO_DEVICE)
			return;		/* only these buffers are checksummed */
		p = m->buf;
		p[prandom_u32_state(rs) % m->size]++;
		/* found here; the sync for the device checksums it afresh */
		dma_sync_single_for_cpu(dev, m->h, m->size, m->dir);
		dma_sync_single_for_device(dev, m->h, m->size, m->dir);
		break;
	default:
		return;
	}
	injected[kind]++;
}

/* One correct operation on a device-owned mapping; it stays device-owned. */
static void correct_op(struct device *dev, struct pool_map *m,
		       struct rnd_state *rs)
{
	size_t off, len;

	switch (prandom_u32_state(rs) % 4) {
	case 0:
		dma_sync_single_for_cpu(dev, m->h, m->size, m->dir);
		dma_sync_single_for_device(dev, m->h, m->size, m->dir);
		break;
	case 1:		/* a partial sync, copybreak style */
		off = prandom_u32_state(rs) % (m->size / 2);
		len = 1 + prandom_u32_state(rs) % (m->size / 2);
		dma_sync_single_range_for_cpu(dev, m->h, off, len, m->dir);
		dma_sync_single_range_for_device(dev, m->h, off, len, m->dir);
		break;
	case 2:		/* unmap from the CPU's side, map again */
		dma_sync_single_for_cpu(dev, m->h, m->size, m->dir);
		fallthrough;
	default:
		dma_unmap_single(dev, m->h, m->size, m->dir);
		if (pool_map(dev, m, rs))
			m->h = DMA_MAPPING_ERROR;
		break;
	}
}

static int random_workload(struct device *dev, void *unused)
{
	struct pool_map *pool;
	struct rnd_state rs;
	unsigned int i, n = 0;
	int ret = 0;

	pool = kcalloc(POOL, sizeof(*pool), GFP_KERNEL);
	if (!pool)
		return -ENOMEM;
	prandom_seed_state(&rs, random_seed);
	memset(injected, 0, sizeof(injected));
	nr_kinds = random_cpu_write ? NR_INJ : INJ_CPU_WRITE;
	for (i = 0; i < POOL; i++) {
		pool[i].buf = (void *)__get_free_page(GFP_KERNEL);
		if (!pool[i].buf || pool_map(dev, &pool[i], &rs)) {
			ret = -ENOMEM;
			goto out;
		}
		n = i + 1;
	}
	for (i = 0; i < random_ops; i++) {
		struct pool_map *m = &pool[prandom_u32_state(&rs) % POOL];

		if (dma_mapping_error(dev, m->h)) {
			if (pool_map(dev, m, &rs))
				m->h = DMA_MAPPING_ERROR;
			continue;
		}
		if (prandom_u32_state(&rs) % 100 < random_rate)
			inject(dev, pool, m, &rs);
		else
			correct_op(dev, m, &rs);
	}
	random_done = 1;
out:
	for (i = 0; i < n; i++)
		if (!dma_mapping_error(dev, pool[i].h))
			dma_unmap_single(dev, pool[i].h, pool[i].size, pool[i].dir);
	for (i = 0; i < POOL; i++)
		free_page((unsigned long)pool[i].buf);
	kfree(pool);
	return ret;
}

static const struct scenario scenarios[] = {
	{ "cycle_single",		"none", cycle_single },
	{ "cycle_page",			"none", cycle_page },
	{ "cycle_sg",			"none", cycle_sg },
	{ "cycle_resource",		"none", cycle_resource },
	{ "partial_sync",		"none", partial_sync },
	{ "copybreak",			"none", copybreak },
	{ "skip_cpu_sync_recycle",	"none", skip_cpu_sync_recycle },
	{ "unmap_cpu_owned",		"none", unmap_cpu_owned },
	{ "sg_fewer_ents",		"none", sg_fewer_ents },
	{ "missing_sync_single",	"missing-sync-for-device", missing_sync_single },
	{ "missing_sync_page",		"missing-sync-for-device", missing_sync_page },
	{ "missing_sync_sg",		"missing-sync-for-device", missing_sync_sg },
	{ "redundant_sync_single",	"redundant-sync-for-device", redundant_sync_single },
	{ "redundant_sync_page",	"redundant-sync-for-device", redundant_sync_page },
	{ "redundant_sync_sg",		"redundant-sync-for-device", redundant_sync_sg },
	{ "unknown_handle_single",	"unknown-handle", unknown_handle_single },
	{ "unknown_handle_page",	"unknown-handle", unknown_handle_page },
	{ "unknown_handle_sg",		"unknown-handle", unknown_handle_sg },
	{ "use_after_unmap_single",	"use-after-unmap", use_after_unmap_single },
	{ "use_after_unmap_page",	"use-after-unmap", use_after_unmap_page },
	{ "use_after_unmap_sg",		"use-after-unmap", use_after_unmap_sg },
	{ "use_after_unmap_resource",	"use-after-unmap", use_after_unmap_resource },
	{ "out_of_range_single",	"out-of-range", out_of_range_single },
	{ "out_of_range_page",		"out-of-range", out_of_range_page },
	{ "out_of_range_sg",		"out-of-range", out_of_range_sg },
	{ "dir_mismatch_single",	"dir-mismatch", dir_mismatch_single },
	{ "dir_mismatch_page",		"dir-mismatch", dir_mismatch_page },
	{ "dir_mismatch_sg",		"dir-mismatch", dir_mismatch_sg },
	{ "dir_mismatch_resource",	"dir-mismatch", dir_mismatch_resource },
	{ "size_mismatch_single",	"size-mismatch", size_mismatch_single },
	{ "size_mismatch_page",		"size-mismatch", size_mismatch_page },
	{ "size_mismatch_resource",	"size-mismatch", size_mismatch_resource },
	{ "cpu_write_single",		"cpu-write-while-device-owned", cpu_write_single },
	{ "cpu_write_page",		"cpu-write-while-device-owned", cpu_write_page },
	{ "cpu_write_sg",		"cpu-write-while-device-owned", cpu_write_sg },
	{ "leak",			"leak", leak },
	{ "random",			"injected", random_workload },
};

static int scenarios_show(struct seq_file *m, void *v)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(scenarios); i++)
		seq_printf(m, "%s %s\n", scenarios[i].name, scenarios[i].expect);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(scenarios);

static int result_show(struct seq_file *m, void *v)
{
	mutex_lock(&run_lock);
	if (result.scenario)
		seq_printf(m, "scenario %s\ndevice %s\nhandle %pad\n",
			   result.scenario, tdev ? dev_name(tdev) : "-",
			   &result.handle);
	if (random_done) {
		int i;

		seq_printf(m, "seed %u ops %u rate %u\n", random_seed,
			   random_ops, random_rate);
		for (i = 0; i < nr_kinds; i++)
			seq_printf(m, "injected.%s %u\n", injected_names[i],
				   injected[i]);
	}
	mutex_unlock(&run_lock);
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(result);

static ssize_t run_write(struct file *file, const char __user *ubuf,
			 size_t count, loff_t *ppos)
{
	const struct scenario *sc = NULL;
	char name[40];
	void *buf;
	int i, ret;

	if (count >= sizeof(name))
		return -E2BIG;
	if (copy_from_user(name, ubuf, count))
		return -EFAULT;
	name[count] = '\0';
	strim(name);
	for (i = 0; i < ARRAY_SIZE(scenarios); i++)
		if (!strcmp(name, scenarios[i].name))
			sc = &scenarios[i];
	if (!sc)
		return -EINVAL;

	/* A page of its own, so no other data shares its cache lines. */
	buf = (void *)__get_free_page(GFP_KERNEL | __GFP_ZERO);
	if (!buf)
		return -ENOMEM;
	mutex_lock(&run_lock);
	if (!tdev) {
		ret = -ENODEV;
	} else {
		result.scenario = sc->name;
		result.handle = 0;
		random_done = 0;
		ret = sc->run(tdev, buf);
	}
	mutex_unlock(&run_lock);
	free_page((unsigned long)buf);
	return ret ?: count;
}

static const struct file_operations run_fops = {
	.write = run_write,
	.llseek = noop_llseek,
};

#define HOLD_MAX	64

/* Not run_lock: the leak scenario unbinds, and so releases, under that. */
static DEFINE_MUTEX(hold_lock);
static struct {
	unsigned int n;
	struct page *page[HOLD_MAX];
	dma_addr_t handle[HOLD_MAX];
} held;

/* Called under hold_lock, with the device still bound. */
static void hold_release(void)
{
	while (held.n) {
		held.n--;
		dma_unmap_page(tdev, held.handle[held.n], PAGE_SIZE,
			       DMA_FROM_DEVICE);
		__free_page(held.page[held.n]);
	}
}

static ssize_t hold_write(struct file *file, const char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	unsigned int n, i;
	int ret = kstrtouint_from_user(ubuf, count, 0, &n);

	if (ret)
		return ret;
	if (n > HOLD_MAX)
		return -EINVAL;
	mutex_lock(&hold_lock);
	if (!tdev) {
		ret = -ENODEV;
		goto out;
	}
	hold_release();
	for (i = 0; i < n; i++) {
		held.page[i] = alloc_page(GFP_KERNEL);
		if (!held.page[i]) {
			ret = -ENOMEM;
			break;
		}
		held.handle[i] = dma_map_page(tdev, held.page[i], 0, PAGE_SIZE,
					      DMA_FROM_DEVICE);
		if (dma_mapping_error(tdev, held.handle[i])) {
			__free_page(held.page[i]);
			ret = -ENOMEM;
			break;
		}
		held.n++;
		if (i % 2)
			dma_sync_single_for_cpu(tdev, held.handle[i], PAGE_SIZE,
						DMA_FROM_DEVICE);
	}
	if (ret)
		hold_release();
out:
	mutex_unlock(&hold_lock);
	return ret ?: count;
}

static int hold_show(struct seq_file *m, void *v)
{
	seq_printf(m, "%u\n", READ_ONCE(held.n));
	return 0;
}

DEFINE_SHOW_STORE_ATTRIBUTE(hold);

static int bind(struct device *dev)
{
	int ret = dma_coerce_mask_and_coherent(dev, DMA_BIT_MASK(64));

	if (ret)
		return ret;
	tdev = dev;
	dev_info(dev, "test_dma_owner: mapping for this device\n");
	return 0;
}

static int edu_probe(struct pci_dev *pci, const struct pci_device_id *id)
{
	int ret = pcim_enable_device(pci);

	if (ret)
		return ret;
	pci_set_master(pci);
	return bind(&pci->dev);
}

static void unbind(void)
{
	mutex_lock(&hold_lock);
	hold_release();
	tdev = NULL;
	mutex_unlock(&hold_lock);
}

static void edu_remove(struct pci_dev *pci)
{
	unbind();
}

static const struct pci_device_id edu_ids[] = {
	{ PCI_DEVICE(EDU_VENDOR, EDU_DEVICE) },
	{ }
};

static struct pci_driver edu_driver = {
	.name = "test_dma_owner",
	.id_table = edu_ids,
	.probe = edu_probe,
	.remove = edu_remove,
};

static int plat_probe(struct platform_device *p)
{
	return bind(&p->dev);
}

static void plat_remove(struct platform_device *p)
{
	unbind();
}

static struct platform_driver plat_driver = {
	.driver.name = "test_dma_owner",
	.probe = plat_probe,
	.remove = plat_remove,
};

static struct dentry *dir;

static int __init test_dma_owner_init(void)
{
	int ret;

	ret = pci_register_driver(&edu_driver);
	if (ret)
		return ret;
	if (!tdev) {
		ret = platform_driver_register(&plat_driver);
		if (ret)
			goto out_pci;
		pdev = platform_device_register_simple("test_dma_owner", -1, NULL, 0);
		if (IS_ERR(pdev)) {
			ret = PTR_ERR(pdev);
			goto out_plat;
		}
	}
	if (!tdev) {
		ret = -ENODEV;
		goto out_pdev;
	}
	dir = debugfs_create_dir("test_dma_owner", NULL);
	debugfs_create_file("scenarios", 0444, dir, NULL, &scenarios_fops);
	debugfs_create_file("result", 0444, dir, NULL, &result_fops);
	debugfs_create_file("run", 0200, dir, NULL, &run_fops);
	debugfs_create_file("hold", 0600, dir, NULL, &hold_fops);
	return 0;

out_pdev:
	if (!IS_ERR_OR_NULL(pdev))
		platform_device_unregister(pdev);
out_plat:
	platform_driver_unregister(&plat_driver);
out_pci:
	pci_unregister_driver(&edu_driver);
	return ret;
}
module_init(test_dma_owner_init);

static void __exit test_dma_owner_exit(void)
{
	debugfs_remove(dir);
	if (pdev) {
		platform_device_unregister(pdev);
		platform_driver_unregister(&plat_driver);
	}
	pci_unregister_driver(&edu_driver);
}
module_exit(test_dma_owner_exit);

MODULE_DESCRIPTION("Test module for the DMA ownership tracker");
MODULE_LICENSE("GPL");
