// SPDX-License-Identifier: GPL-2.0
/*
 * Test module for the DMA ownership tracker (CONFIG_DMA_OWNER_DEBUG).
 *
 * Runs named scenarios of correct and broken streaming DMA API use on a real
 * DMA device, so that the tracker's verdicts can be checked end to end on
 * the paths real machines take: dma-direct, swiotlb bouncing, an IOMMU. It
 * drives QEMU's "edu" PCI device (-device edu) when there is one, so the
 * mappings go through the same code as a PCI driver's; otherwise a platform
 * device of its own. Besides map/sync/unmap it uses what the tracker follows
 * the same way: memory from dma_alloc_pages() and its kin, pages mapped with
 * DMA_ATTR_SKIP_CPU_SYNC and handed out in fragments, a real page_pool, one
 * buffer mapped twice (equal handles without an IOMMU).
 *
 * /sys/kernel/debug/test_dma_owner/
 *   scenarios  one line per scenario: name, then the violation it commits
 *              ("none" for correct use)
 *   run        write a scenario name to run it; -EINVAL if there is none
 *   result     after a run: the scenario, device, handle and expected kind
 *   hold       write N (0 to 64) to keep N page mappings live, released
 *              when N is written again: the even ones owned by the device,
 *              the odd ones handed to the CPU (a listing with both owners
 *              for tools that read the tracker's mappings); "N same" maps
 *              one page N times, so that without an IOMMU the tracker
 *              keeps N entries of one handle in one hash bucket
 *
 * Misuse is chosen to be harmless to the DMA layer itself: a use after unmap
 * (or free) is a sync, not a second unmap, and a wrong size stays within the
 * pages mapped, so that the tracker's report is the only consequence.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bottom_half.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/dma-mapping.h>
#include <linux/hex.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/platform_device.h>
#include <linux/prandom.h>
#include <linux/scatterlist.h>
#include <linux/slab.h>
#include <net/page_pool/helpers.h>
#include <net/page_pool/types.h>
#include <trace/events/dma_owner.h>

#define EDU_VENDOR	0x1234
#define EDU_DEVICE	0x11e8
#define BUF_SIZE	4096
/*
 * Offset of a handle nobody mapped: 1 TiB above a real one is out of reach
 * of the test machines' memory, bounce buffers and IOVAs, so it was not
 * unmapped either (the tracker remembers thousands of unmapped handles).
 */
#ifdef CONFIG_ARCH_DMA_ADDR_T_64BIT
#define NOT_MAPPED	((dma_addr_t)1 << 40)
#else
#define NOT_MAPPED	((dma_addr_t)3 << 30)	/* past a 32-bit lowmem */
#endif
#define FRAG		(BUF_SIZE / 4)	/* a fragment, as page_pool cuts them */
#define NONCONTIG_SIZE	(3 * PAGE_SIZE)
#define LATE_UNMAPS	500

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

/*
 * A page mapped as page_pool and igb map theirs: once, DMA_ATTR_SKIP_CPU_SYNC,
 * for the device to fill; parts of it are then synced on their own.
 */
static __always_inline int map_skip_sync(struct device *dev, void *buf,
					 dma_addr_t *h)
{
	*h = dma_map_page_attrs(dev, virt_to_page(buf), 0, BUF_SIZE,
				DMA_FROM_DEVICE, DMA_ATTR_SKIP_CPU_SYNC);
	result.handle = *h;
	return dma_mapping_error(dev, *h) ? -ENOMEM : 0;
}

static __always_inline void unmap_skip_sync(struct device *dev, dma_addr_t h)
{
	dma_unmap_page_attrs(dev, h, BUF_SIZE, DMA_FROM_DEVICE,
			     DMA_ATTR_SKIP_CPU_SYNC);
}

/* Fragment @i of a page mapped by map_skip_sync() to the CPU, or back. */
static __always_inline void frag_for_cpu(struct device *dev, dma_addr_t h,
					 int i)
{
	dma_sync_single_range_for_cpu(dev, h, i * FRAG, FRAG, DMA_FROM_DEVICE);
}

static __always_inline void frag_for_device(struct device *dev, dma_addr_t h,
					    int i)
{
	dma_sync_single_range_for_device(dev, h, i * FRAG, FRAG,
					 DMA_FROM_DEVICE);
}

/*
 * A page_pool as a NIC driver makes one: it maps its pages once and syncs
 * them for the device when they come back; syncs for the CPU are ours.
 */
static struct page_pool *pp_create(struct device *dev)
{
	struct page_pool_params pp = {
		.flags = PP_FLAG_DMA_MAP | PP_FLAG_DMA_SYNC_DEV,
		.pool_size = 16,
		.nid = NUMA_NO_NODE,
		.dev = dev,
		.dma_dir = DMA_FROM_DEVICE,
		.max_len = PAGE_SIZE,
		.offset = 0,
	};

	return page_pool_create(&pp);
}

/* ---- correct use: must stay silent ------------------------------------ */

/* What a scenario reads, so that the read is not optimised away. */
static u8 poison_sink;

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

/* Non-coherent memory is the CPU's from allocation; syncs hand it over. */
static int noncoherent_cycle(struct device *dev, void *buf)
{
	dma_addr_t h;
	void *p;

	p = dma_alloc_noncoherent(dev, BUF_SIZE, &h, DMA_FROM_DEVICE,
				  GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	result.handle = h;
	memset(p, 0, BUF_SIZE);
	dma_sync_single_for_device(dev, h, BUF_SIZE, DMA_FROM_DEVICE);
	dma_sync_single_for_cpu(dev, h, BUF_SIZE, DMA_FROM_DEVICE);
	dma_sync_single_for_device(dev, h, BUF_SIZE, DMA_FROM_DEVICE);
	dma_sync_single_range_for_cpu(dev, h, 512, 256, DMA_FROM_DEVICE);
	dma_sync_single_range_for_device(dev, h, 512, 256, DMA_FROM_DEVICE);
	dma_sync_single_for_cpu(dev, h, BUF_SIZE, DMA_FROM_DEVICE);
	dma_free_noncoherent(dev, BUF_SIZE, p, h, DMA_FROM_DEVICE);
	return 0;
}

static int pages_cycle(struct device *dev, void *buf)
{
	struct page *page;
	dma_addr_t h;

	page = dma_alloc_pages(dev, BUF_SIZE, &h, DMA_BIDIRECTIONAL,
			       GFP_KERNEL);
	if (!page)
		return -ENOMEM;
	result.handle = h;
	memset(page_address(page), 0x5a, 64);
	dma_sync_single_for_device(dev, h, BUF_SIZE, DMA_BIDIRECTIONAL);
	dma_sync_single_for_cpu(dev, h, BUF_SIZE, DMA_BIDIRECTIONAL);
	dma_sync_single_for_device(dev, h, BUF_SIZE, DMA_BIDIRECTIONAL);
	dma_sync_single_range_for_cpu(dev, h, 0, 128, DMA_BIDIRECTIONAL);
	dma_sync_single_range_for_device(dev, h, 0, 128, DMA_BIDIRECTIONAL);
	dma_sync_single_for_cpu(dev, h, BUF_SIZE, DMA_BIDIRECTIONAL);
	dma_free_pages(dev, BUF_SIZE, page, h, DMA_BIDIRECTIONAL);
	return 0;
}

/* One DMA segment; behind an IOMMU the pages need not be contiguous. */
static int noncontiguous_cycle(struct device *dev, void *buf)
{
	struct sg_table *sgt;
	void *vaddr;

	sgt = dma_alloc_noncontiguous(dev, NONCONTIG_SIZE, DMA_BIDIRECTIONAL,
				      GFP_KERNEL, 0);
	if (!sgt)
		return -ENOMEM;
	result.handle = sg_dma_address(sgt->sgl);
	vaddr = dma_vmap_noncontiguous(dev, NONCONTIG_SIZE, sgt);
	if (vaddr)
		memset(vaddr, 0, NONCONTIG_SIZE);
	dma_sync_sgtable_for_device(dev, sgt, DMA_BIDIRECTIONAL);
	dma_sync_sgtable_for_cpu(dev, sgt, DMA_BIDIRECTIONAL);
	dma_sync_sgtable_for_device(dev, sgt, DMA_BIDIRECTIONAL);
	if (vaddr)
		dma_vunmap_noncontiguous(dev, vaddr);
	dma_free_noncontiguous(dev, NONCONTIG_SIZE, sgt, DMA_BIDIRECTIONAL);
	return 0;
}

/*
 * page_pool fragments: each quarter of a skip-sync page is armed on its own,
 * goes to the CPU and back on its own, while others are with the CPU too;
 * one the CPU never took is armed again, as a pool recycling it does.
 */
static int skip_sync_fragments(struct device *dev, void *buf)
{
	dma_addr_t h;
	int i;

	if (map_skip_sync(dev, buf, &h))
		return -ENOMEM;
	for (i = 0; i < 4; i++)
		frag_for_device(dev, h, i);
	frag_for_cpu(dev, h, 1);
	frag_for_device(dev, h, 1);
	frag_for_cpu(dev, h, 0);
	frag_for_cpu(dev, h, 2);	/* two disjoint ranges with the CPU */
	frag_for_device(dev, h, 0);
	frag_for_device(dev, h, 2);
	frag_for_device(dev, h, 3);	/* never the CPU's */
	unmap_skip_sync(dev, h);
	return 0;
}

/*
 * igb/ixgbe: the device fills one half of a page while the stack holds a
 * packet in the other; each half is synced for the device before it is
 * posted, the first time included, and then the page flips.
 */
static int half_page_reuse(struct device *dev, void *buf)
{
	unsigned int half = 0;
	dma_addr_t h;
	int i;

	if (map_skip_sync(dev, buf, &h))
		return -ENOMEM;
	dma_sync_single_range_for_device(dev, h, 0, BUF_SIZE / 2,
					 DMA_FROM_DEVICE);
	for (i = 0; i < 4; i++) {
		dma_sync_single_range_for_cpu(dev, h, half, 1500,
					      DMA_FROM_DEVICE);
		half ^= BUF_SIZE / 2;
		dma_sync_single_range_for_device(dev, h, half, BUF_SIZE / 2,
						 DMA_FROM_DEVICE);
	}
	unmap_skip_sync(dev, h);
	return 0;
}

/*
 * A real page_pool, used as a NIC driver's NAPI poll uses it (hence bottom
 * halves off): whole pages, some never given to the CPU before the pool
 * takes them back and syncs them for the device; XDP_DROP-style direct
 * recycling, which hands the same page out again; fragments of one page.
 */
static int page_pool_rx(struct device *dev, void *buf)
{
	struct page *page[8], *frag[4];
	unsigned int off[4], len = PAGE_SIZE / ARRAY_SIZE(frag);
	struct page_pool *pool;
	int i, n, ret = 0;

	if (!IS_ENABLED(CONFIG_PAGE_POOL))
		return -EOPNOTSUPP;
	pool = pp_create(dev);
	if (IS_ERR(pool))
		return PTR_ERR(pool);
	local_bh_disable();
	for (n = 0; n < ARRAY_SIZE(page); n++) {
		page[n] = page_pool_dev_alloc_pages(pool);
		if (!page[n])
			break;
	}
	if (n)
		result.handle = page_pool_get_dma_addr(page[0]);
	for (i = 0; i < n; i++) {
		if (i % 2 == 0)		/* a packet landed in the even ones */
			page_pool_dma_sync_for_cpu(pool, page[i], 0, 1500);
		page_pool_put_full_page(pool, page[i], false);
	}
	if (n < ARRAY_SIZE(page)) {
		ret = -ENOMEM;
		goto out;
	}

	/* XDP_DROP: straight back into the pool's cache, out again next */
	for (i = 0; i < 4; i++) {
		page[0] = page_pool_dev_alloc_pages(pool);
		if (!page[0]) {
			ret = -ENOMEM;
			goto out;
		}
		if (i % 2 == 0)
			page_pool_dma_sync_for_cpu(pool, page[0], 0, 1500);
		page_pool_recycle_direct(pool, page[0]);
	}

	/* Four quarters of one page, then a fifth: the page drained, reused. */
	for (n = 0; n < ARRAY_SIZE(frag); n++) {
		frag[n] = page_pool_dev_alloc_frag(pool, &off[n], len);
		if (!frag[n])
			break;
		page_pool_dma_sync_for_cpu(pool, frag[n], off[n], len);
	}
	for (i = 0; i < n; i++)
		page_pool_put_page(pool, frag[i], -1, false);
	if (n < ARRAY_SIZE(frag)) {
		ret = -ENOMEM;
		goto out;
	}
	frag[0] = page_pool_dev_alloc_frag(pool, &off[0], len);
	if (!frag[0]) {
		ret = -ENOMEM;
		goto out;
	}
	page_pool_dma_sync_for_cpu(pool, frag[0], off[0], len);
	page_pool_put_page(pool, frag[0], -1, false);
out:
	local_bh_enable();
	page_pool_destroy(pool);
	return ret;
}

/*
 * Without an IOMMU, a buffer mapped twice gets the same handle twice: each
 * call could mean either mapping, and the tracker must not guess. Then the
 * same start at two sizes, and a zero-out bio's list: the zero page in
 * every entry.
 */
static int identical_handles(struct device *dev, void *buf)
{
	struct scatterlist sg[4];
	dma_addr_t h1, h2;
	int i;

	if (map_single(dev, buf, 2048, DMA_TO_DEVICE, &h1))
		return -ENOMEM;
	if (map_single(dev, buf, 2048, DMA_TO_DEVICE, &h2)) {
		dma_unmap_single(dev, h1, 2048, DMA_TO_DEVICE);
		return -ENOMEM;
	}
	dma_sync_single_for_cpu(dev, h1, 2048, DMA_TO_DEVICE);
	dma_sync_single_for_cpu(dev, h2, 2048, DMA_TO_DEVICE);
	dma_sync_single_for_device(dev, h1, 2048, DMA_TO_DEVICE);
	dma_sync_single_for_device(dev, h2, 2048, DMA_TO_DEVICE);
	dma_unmap_single(dev, h1, 2048, DMA_TO_DEVICE);
	dma_unmap_single(dev, h2, 2048, DMA_TO_DEVICE);

	if (map_single(dev, buf, 2048, DMA_TO_DEVICE, &h1))
		return -ENOMEM;
	if (map_single(dev, buf, 512, DMA_TO_DEVICE, &h2)) {
		dma_unmap_single(dev, h1, 2048, DMA_TO_DEVICE);
		return -ENOMEM;
	}
	dma_unmap_single(dev, h1, 2048, DMA_TO_DEVICE);
	dma_unmap_single(dev, h2, 512, DMA_TO_DEVICE);

	sg_init_table(sg, 4);
	for (i = 0; i < 4; i++)
		sg_set_page(&sg[i], ZERO_PAGE(0), PAGE_SIZE, 0);
	if (!dma_map_sg(dev, sg, 4, DMA_TO_DEVICE))
		return -ENOMEM;
	result.handle = sg_dma_address(sg);
	dma_unmap_sg(dev, sg, 4, DMA_TO_DEVICE);
	return 0;
}

/* Coherent memory has no owner: written and read at any time, no syncs. */
static int coherent_cycle(struct device *dev, void *buf)
{
	dma_addr_t h;
	u8 *p = dma_alloc_coherent(dev, BUF_SIZE, &h, GFP_KERNEL);

	if (!p)
		return -ENOMEM;
	result.handle = h;
	p[0] = 1;
	dma_free_coherent(dev, BUF_SIZE, p, h);
	return 0;
}

/*
 * Cache lines are the kernel's DMA alignment, dma_get_cache_alignment():
 * 128 bytes on x86 with CONFIG_DMA_OWNER_DEBUG_CACHE_LINE. The buffer
 * starts on one.
 */
#define LINE		dma_get_cache_alignment()
#define PART		(LINE / 4 * 3)	/* ends inside a line */

/* Two buffers, each in cache lines of its own. */
static int cache_lines_apart(struct device *dev, void *buf)
{
	dma_addr_t a, b;

	if (map_single(dev, buf, PART, DMA_FROM_DEVICE, &a))
		return -ENOMEM;
	if (map_single(dev, buf + LINE, PART, DMA_FROM_DEVICE, &b)) {
		dma_unmap_single(dev, a, PART, DMA_FROM_DEVICE);
		return -ENOMEM;
	}
	dma_unmap_single(dev, b, PART, DMA_FROM_DEVICE);
	dma_unmap_single(dev, a, PART, DMA_FROM_DEVICE);
	return 0;
}

/*
 * A header the device reads and a status it writes, in one kmalloc()'d
 * structure, the status aligned for DMA as Documentation/core-api/dma-api.rst
 * asks: each has lines of its own. virtio-net's struct control_buf with
 * its fix applied.
 */
struct command {
	u8 header[2];

	__dma_from_device_group_begin();
	u8 status;

	__dma_from_device_group_end();
};

static int cache_line_aligned_fields(struct device *dev, void *buf)
{
	struct command *cmd = kzalloc(sizeof(*cmd), GFP_KERNEL);
	dma_addr_t a, b;
	int ret = -ENOMEM;

	if (!cmd)
		return -ENOMEM;
	if (map_single(dev, cmd->header, sizeof(cmd->header), DMA_TO_DEVICE, &a))
		goto out;
	if (map_single(dev, &cmd->status, 1, DMA_FROM_DEVICE, &b)) {
		dma_unmap_single(dev, a, sizeof(cmd->header), DMA_TO_DEVICE);
		goto out;
	}
	dma_unmap_single(dev, b, 1, DMA_FROM_DEVICE);
	dma_unmap_single(dev, a, sizeof(cmd->header), DMA_TO_DEVICE);
	ret = 0;
out:
	kfree(cmd);
	return ret;
}

/* The segments of one sg call share lines: they are synced together. */
static int cache_line_sg_segments(struct device *dev, void *buf)
{
	struct scatterlist sg[2];
	int ents;

	sg_init_table(sg, 2);
	sg_set_buf(&sg[0], buf, PART);
	sg_set_buf(&sg[1], buf + PART, LINE);
	ents = dma_map_sg(dev, sg, 2, DMA_FROM_DEVICE);
	if (!ents)
		return -ENOMEM;
	dma_sync_sg_for_cpu(dev, sg, 2, DMA_FROM_DEVICE);
	dma_unmap_sg(dev, sg, 2, DMA_FROM_DEVICE);
	return 0;
}

/* ---- misuse: each must be reported once, with its kind ---------------- */

/*
 * The handle compared with DMA_MAPPING_ERROR instead of checked with
 * dma_mapping_error(): the tracker reports it, and dma-debug too.
 */
static int unchecked_map_error(struct device *dev, void *buf)
{
	dma_addr_t h = dma_map_single(dev, buf, 2048, DMA_TO_DEVICE);

	result.handle = h;
	if (h == DMA_MAPPING_ERROR)
		return -ENOMEM;
	dma_unmap_single(dev, h, 2048, DMA_TO_DEVICE);
	return 0;
}

/* One segment of an sg list unmapped as if it were a single mapping. */
static int api_mismatch_sg(struct device *dev, void *buf)
{
	struct sg_table sgt;

	if (map_sgt(dev, buf, &sgt, 1, DMA_TO_DEVICE))
		return -ENOMEM;
	dma_unmap_single(dev, sg_dma_address(sgt.sgl), sg_dma_len(sgt.sgl),
			 DMA_TO_DEVICE);
	sg_free_table(&sgt);
	return 0;
}

/* A resource mapping unmapped with dma_unmap_page(). */
static int api_mismatch_resource(struct device *dev, void *buf)
{
	dma_addr_t h = dma_map_resource(dev, virt_to_phys(buf), BUF_SIZE,
					DMA_BIDIRECTIONAL, 0);

	result.handle = h;
	if (dma_mapping_error(dev, h))
		return -ENOMEM;
	dma_unmap_page(dev, h, BUF_SIZE, DMA_BIDIRECTIONAL);
	return 0;
}

/* Three of four entries mapped, the list unmapped as four. */
static int sg_count_mismatch(struct device *dev, void *buf)
{
	struct scatterlist sg[4];
	int i;

	sg_init_table(sg, 4);
	for (i = 0; i < 4; i++)
		sg_set_buf(&sg[i], buf + i * 1024, 1024);
	if (!dma_map_sg(dev, sg, 3, DMA_TO_DEVICE))
		return -ENOMEM;
	result.handle = sg_dma_address(sg);
	dma_unmap_sg(dev, sg, 4, DMA_TO_DEVICE);
	return 0;
}

#define LONG_SEG	(128 * 1024)	/* twice what a device without dma_parms takes */

/*
 * A physically contiguous buffer mapped as one sg entry of @n, or two
 * halves: no IOMMU merges them past dma_get_max_seg_size(), 64 KiB here.
 */
static int long_segment(struct device *dev, int n)
{
	void *big = alloc_pages_exact(LONG_SEG, GFP_KERNEL);
	struct scatterlist sg[2];
	int i;

	if (!big)
		return -ENOMEM;
	sg_init_table(sg, n);
	for (i = 0; i < n; i++)
		sg_set_buf(&sg[i], big + i * (LONG_SEG / n), LONG_SEG / n);
	if (!dma_map_sg(dev, sg, n, DMA_TO_DEVICE)) {
		free_pages_exact(big, LONG_SEG);
		return -ENOMEM;
	}
	result.handle = sg_dma_address(sg);
	dma_unmap_sg(dev, sg, n, DMA_TO_DEVICE);
	free_pages_exact(big, LONG_SEG);
	return 0;
}

static int sg_segment_too_long(struct device *dev, void *buf)
{
	return long_segment(dev, 1);
}

static int sg_segments_within_limit(struct device *dev, void *buf)
{
	return long_segment(dev, 2);
}

/*
 * Freed with another size, or another CPU address, that the allocator
 * rounds to the same page, so the free itself does no harm. The CPU
 * address is only its own if the allocation is not remapped (an IOMMU
 * remaps one unless it is to be contiguous).
 */
static int coherent_free_mismatch(struct device *dev, size_t size, int off)
{
	dma_addr_t h;
	u8 *p = dma_alloc_attrs(dev, BUF_SIZE, &h, GFP_KERNEL,
				DMA_ATTR_FORCE_CONTIGUOUS);

	if (!p)
		return -ENOMEM;
	result.handle = h;
	dma_free_attrs(dev, size, p + off, h, DMA_ATTR_FORCE_CONTIGUOUS);
	return 0;
}

static int coherent_size_mismatch(struct device *dev, void *buf)
{
	return coherent_free_mismatch(dev, BUF_SIZE - 64, 0);
}

static int coherent_cpu_address_mismatch(struct device *dev, void *buf)
{
	return coherent_free_mismatch(dev, BUF_SIZE, 64);
}

/*
 * A status the device writes and a command it reads, side by side in one
 * structure, mapped separately: one cache line, as virtio-net's
 * struct control_buf has them.
 */
static int cache_line_shared(struct device *dev, void *buf)
{
	dma_addr_t a, b;

	if (map_single(dev, buf, PART, DMA_FROM_DEVICE, &a))
		return -ENOMEM;
	if (map_single(dev, buf + PART, PART, DMA_TO_DEVICE, &b)) {
		dma_unmap_single(dev, a, PART, DMA_FROM_DEVICE);
		return -ENOMEM;
	}
	dma_unmap_single(dev, b, PART, DMA_TO_DEVICE);
	dma_unmap_single(dev, a, PART, DMA_FROM_DEVICE);
	return 0;
}

/* A buffer on the stack, reached through its page as the DMA API wants. */
static noinline int map_stack(struct device *dev, void *buf)
{
	char on_stack[256];
	struct page *page = is_vmalloc_addr(on_stack) ?
			    vmalloc_to_page(on_stack) : virt_to_page(on_stack);
	dma_addr_t h;

	memset(on_stack, 0, sizeof(on_stack));
	h = dma_map_page(dev, page, offset_in_page(on_stack), sizeof(on_stack),
			 DMA_TO_DEVICE);
	result.handle = h;
	if (dma_mapping_error(dev, h))
		return -ENOMEM;
	dma_unmap_page(dev, h, sizeof(on_stack), DMA_TO_DEVICE);
	return 0;
}

/* The kernel's read-only data, for the device to read. */
static int map_rodata(struct device *dev, void *buf)
{
	dma_addr_t h;

	h = dma_map_page(dev, virt_to_page(hex_asc), offset_in_page(hex_asc),
			 16, DMA_TO_DEVICE);
	result.handle = h;
	if (dma_mapping_error(dev, h))
		return -ENOMEM;
	dma_unmap_page(dev, h, 16, DMA_TO_DEVICE);
	return 0;
}

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

/*
 * A buffer the device writes, synced for the device while the device owns
 * it: the CPU wrote it without taking it first. (A DMA_TO_DEVICE buffer
 * may be refilled and synced for the device again: see to_device_refill.)
 */
static int redundant_sync_single(struct device *dev, void *buf)
{
	dma_addr_t h;

	if (map_single(dev, buf, 2048, DMA_FROM_DEVICE, &h))
		return -ENOMEM;
	dma_sync_single_for_device(dev, h, 2048, DMA_FROM_DEVICE);
	dma_unmap_single(dev, h, 2048, DMA_FROM_DEVICE);
	return 0;
}

static int redundant_sync_page(struct device *dev, void *buf)
{
	struct page *page = virt_to_page(buf);
	dma_addr_t h;

	h = dma_map_page(dev, page, 0, BUF_SIZE, DMA_BIDIRECTIONAL);
	result.handle = h;
	if (dma_mapping_error(dev, h))
		return -ENOMEM;
	dma_sync_single_for_cpu(dev, h, BUF_SIZE, DMA_BIDIRECTIONAL);
	dma_sync_single_for_device(dev, h, BUF_SIZE, DMA_BIDIRECTIONAL);
	dma_sync_single_for_device(dev, h, BUF_SIZE, DMA_BIDIRECTIONAL);
	dma_unmap_page(dev, h, BUF_SIZE, DMA_BIDIRECTIONAL);
	return 0;
}

static int redundant_sync_sg(struct device *dev, void *buf)
{
	struct sg_table sgt;

	if (map_sgt(dev, buf, &sgt, 4, DMA_FROM_DEVICE))
		return -ENOMEM;
	dma_sync_sgtable_for_device(dev, &sgt, DMA_FROM_DEVICE);
	unmap_sgt(dev, &sgt, DMA_FROM_DEVICE);
	return 0;
}

/*
 * Correct: a buffer the device only reads, written and synced for the
 * device again and again, never synced for the CPU (dma-api.rst asks for
 * that only before reading what the device wrote).
 */
static int to_device_refill(struct device *dev, void *buf)
{
	dma_addr_t h;
	int i;

	if (map_single(dev, buf, 2048, DMA_TO_DEVICE, &h))
		return -ENOMEM;
	for (i = 0; i < 3; i++) {
		memset(buf, i, 2048);
		dma_sync_single_for_device(dev, h, 2048, DMA_TO_DEVICE);
	}
	dma_unmap_single(dev, h, 2048, DMA_TO_DEVICE);
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

/*
 * A bidirectional mapping synced for the CPU as if the device only read
 * it: swiotlb copies nothing back and arm64 does not invalidate, so the
 * CPU reads stale bytes where the device wrote.
 */
static int dir_mismatch_bidir_for_cpu(struct device *dev, void *buf)
{
	dma_addr_t h;

	if (map_single(dev, buf, 2048, DMA_BIDIRECTIONAL, &h))
		return -ENOMEM;
	dma_sync_single_for_cpu(dev, h, 2048, DMA_TO_DEVICE);
	dma_unmap_single(dev, h, 2048, DMA_BIDIRECTIONAL);
	return 0;
}

/*
 * A bidirectional buffer whose header the CPU only read, handed back as
 * DMA_FROM_DEVICE (e100_rx_indicate()'s RFD not yet complete): swiotlb
 * copies nothing to the bounce buffer, and nothing the CPU wrote is lost.
 */
static int bidir_read_back_from_device(struct device *dev, void *buf)
{
	dma_addr_t h;

	if (map_single(dev, buf, 2048, DMA_BIDIRECTIONAL, &h))
		return -ENOMEM;
	dma_sync_single_for_cpu(dev, h, 64, DMA_BIDIRECTIONAL);
	poison_sink = READ_ONCE(((u8 *)buf)[0]);
	dma_sync_single_for_device(dev, h, 64, DMA_FROM_DEVICE);
	dma_unmap_single(dev, h, 2048, DMA_BIDIRECTIONAL);
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

/* Memory from dma_alloc_noncoherent() is the CPU's until synced over. */
static int noncoherent_missing_sync(struct device *dev, void *buf)
{
	dma_addr_t h;
	void *p;

	p = dma_alloc_noncoherent(dev, BUF_SIZE, &h, DMA_FROM_DEVICE,
				  GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	result.handle = h;
	dma_sync_single_for_cpu(dev, h, BUF_SIZE, DMA_FROM_DEVICE);
	dma_free_noncoherent(dev, BUF_SIZE, p, h, DMA_FROM_DEVICE);
	return 0;
}

static int noncontiguous_missing_sync(struct device *dev, void *buf)
{
	struct sg_table *sgt;

	sgt = dma_alloc_noncontiguous(dev, NONCONTIG_SIZE, DMA_BIDIRECTIONAL,
				      GFP_KERNEL, 0);
	if (!sgt)
		return -ENOMEM;
	result.handle = sg_dma_address(sgt->sgl);
	dma_sync_sgtable_for_cpu(dev, sgt, DMA_BIDIRECTIONAL);
	dma_free_noncontiguous(dev, NONCONTIG_SIZE, sgt, DMA_BIDIRECTIONAL);
	return 0;
}

/*
 * Freed by a size that spans fewer pages than were allocated: the last page
 * leaks (behind an IOMMU, its IOVA stays mapped). Smaller, not larger: a
 * larger size would free pages the test does not own.
 */
static int noncontiguous_size_mismatch(struct device *dev, void *buf)
{
	struct sg_table *sgt;

	sgt = dma_alloc_noncontiguous(dev, NONCONTIG_SIZE, DMA_BIDIRECTIONAL,
				      GFP_KERNEL, 0);
	if (!sgt)
		return -ENOMEM;
	result.handle = sg_dma_address(sgt->sgl);
	dma_free_noncontiguous(dev, NONCONTIG_SIZE - PAGE_SIZE, sgt,
			       DMA_BIDIRECTIONAL);
	return 0;
}

/* Fragment 0 taken twice while fragment 1 is with the CPU as well. */
static int fragment_missing_sync(struct device *dev, void *buf)
{
	dma_addr_t h;

	if (map_skip_sync(dev, buf, &h))
		return -ENOMEM;
	frag_for_device(dev, h, 0);
	frag_for_device(dev, h, 1);
	frag_for_cpu(dev, h, 0);
	frag_for_cpu(dev, h, 1);
	frag_for_cpu(dev, h, 0);
	unmap_skip_sync(dev, h);
	return 0;
}

/* A pool's page synced for the CPU twice, as if reposted in between. */
static int page_pool_missing_sync(struct device *dev, void *buf)
{
	struct page_pool *pool;
	struct page *page;

	if (!IS_ENABLED(CONFIG_PAGE_POOL))
		return -EOPNOTSUPP;
	pool = pp_create(dev);
	if (IS_ERR(pool))
		return PTR_ERR(pool);
	local_bh_disable();
	page = page_pool_dev_alloc_pages(pool);
	if (page) {
		result.handle = page_pool_get_dma_addr(page);
		page_pool_dma_sync_for_cpu(pool, page, 0, 1500);
		page_pool_dma_sync_for_cpu(pool, page, 0, 1500);
		/* the pool's sync for the device: legal, the CPU has it */
		page_pool_put_full_page(pool, page, false);
	}
	local_bh_enable();
	page_pool_destroy(pool);
	return page ? 0 : -ENOMEM;
}

/*
 * Mapped twice: where the handles are equal, the third sync for the CPU
 * takes one of the mappings twice whichever it is, so it is reported.
 */
static int identical_handles_missing_sync(struct device *dev, void *buf)
{
	dma_addr_t h1, h2;

	if (map_single(dev, buf, 2048, DMA_TO_DEVICE, &h1))
		return -ENOMEM;
	if (map_single(dev, buf, 2048, DMA_TO_DEVICE, &h2)) {
		dma_unmap_single(dev, h1, 2048, DMA_TO_DEVICE);
		return -ENOMEM;
	}
	result.handle = h1;
	dma_sync_single_for_cpu(dev, h1, 2048, DMA_TO_DEVICE);
	dma_sync_single_for_cpu(dev, h2, 2048, DMA_TO_DEVICE);
	dma_sync_single_for_cpu(dev, h1, 2048, DMA_TO_DEVICE);
	dma_unmap_single(dev, h1, 2048, DMA_TO_DEVICE);
	dma_unmap_single(dev, h2, 2048, DMA_TO_DEVICE);
	return 0;
}

static int noncoherent_use_after_free(struct device *dev, void *buf)
{
	dma_addr_t h;
	void *p;

	p = dma_alloc_noncoherent(dev, BUF_SIZE, &h, DMA_FROM_DEVICE,
				  GFP_KERNEL);
	if (!p)
		return -ENOMEM;
	result.handle = h;
	dma_sync_single_for_device(dev, h, BUF_SIZE, DMA_FROM_DEVICE);
	dma_free_noncoherent(dev, BUF_SIZE, p, h, DMA_FROM_DEVICE);
	dma_sync_single_for_cpu(dev, h, BUF_SIZE, DMA_FROM_DEVICE);
	return 0;
}

/*
 * A stale handle used long after its unmap, hundreds of other unmaps
 * later. The others are two pages long: an IOVA of another size order, so
 * that the IOMMU's IOVA caches do not hand out the stale one again.
 */
static int late_use_after_unmap(struct device *dev, void *buf)
{
	void *other = (void *)__get_free_pages(GFP_KERNEL, 1);
	dma_addr_t h, o;
	int i;

	if (!other)
		return -ENOMEM;
	if (map_single(dev, buf, 2048, DMA_FROM_DEVICE, &h)) {
		free_pages((unsigned long)other, 1);
		return -ENOMEM;
	}
	dma_unmap_single(dev, h, 2048, DMA_FROM_DEVICE);
	for (i = 0; i < LATE_UNMAPS; i++) {
		o = dma_map_single(dev, other, 2 * PAGE_SIZE, DMA_TO_DEVICE);
		if (dma_mapping_error(dev, o))
			break;
		dma_unmap_single(dev, o, 2 * PAGE_SIZE, DMA_TO_DEVICE);
	}
	free_pages((unsigned long)other, 1);
	if (i < LATE_UNMAPS)
		return -ENOMEM;
	dma_sync_single_for_cpu(dev, h, 2048, DMA_FROM_DEVICE);
	return 0;
}

/* The driver unbinds with a mapping live; then it is bound again. */
/*
 * ---- dma_owner.poison=1: CPU accesses KASAN catches ---------------------
 * Each breach is one access; the report names the scenario as the
 * function, and the rest of the scenario is correct. scenarios.sh runs
 * them only on a kernel booted with dma_owner.poison=1.
 */

/* A DMA_FROM_DEVICE buffer read before it was synced for the CPU. */
static int poison_read_before_sync(struct device *dev, void *buf)
{
	u8 *p = buf;
	dma_addr_t h;

	if (map_single(dev, buf, 2048, DMA_FROM_DEVICE, &h))
		return -ENOMEM;
	poison_sink = READ_ONCE(p[100]);	/* the device owns it */
	dma_sync_single_for_cpu(dev, h, 2048, DMA_FROM_DEVICE);
	poison_sink += READ_ONCE(p[100]);
	dma_unmap_single(dev, h, 2048, DMA_FROM_DEVICE);
	return 0;
}

/* A page handed back to the device, then written. */
static int poison_write_after_sync_for_device(struct device *dev, void *buf)
{
	u8 *p = buf;
	dma_addr_t h;

	h = dma_map_page(dev, virt_to_page(buf), 0, BUF_SIZE, DMA_BIDIRECTIONAL);
	result.handle = h;
	if (dma_mapping_error(dev, h))
		return -ENOMEM;
	dma_sync_single_for_cpu(dev, h, BUF_SIZE, DMA_BIDIRECTIONAL);
	p[200] = 1;
	dma_sync_single_for_device(dev, h, BUF_SIZE, DMA_BIDIRECTIONAL);
	WRITE_ONCE(p[3000], 2);		/* the device owns it again */
	dma_unmap_page(dev, h, BUF_SIZE, DMA_BIDIRECTIONAL);
	return 0;
}

/* One entry of an sg list read while the device owns the list. */
static int poison_read_sg(struct device *dev, void *buf)
{
	struct sg_table sgt;
	u8 *p = buf;

	if (map_sgt(dev, buf, &sgt, 1, DMA_FROM_DEVICE))
		return -ENOMEM;
	poison_sink = READ_ONCE(p[BUF_SIZE / 2]);	/* the device owns it */
	unmap_sgt(dev, &sgt, DMA_FROM_DEVICE);
	return 0;
}

/* Only part of the buffer synced for the CPU, and a byte past it read. */
static int poison_read_past_partial_sync(struct device *dev, void *buf)
{
	u8 *p = buf;
	dma_addr_t h;

	if (map_single(dev, buf, BUF_SIZE, DMA_FROM_DEVICE, &h))
		return -ENOMEM;
	dma_sync_single_range_for_cpu(dev, h, 0, 128, DMA_FROM_DEVICE);
	poison_sink = READ_ONCE(p[64]);
	poison_sink += READ_ONCE(p[1024]);	/* the device owns it */
	dma_unmap_single(dev, h, BUF_SIZE, DMA_FROM_DEVICE);
	return 0;
}

/*
 * Freed while the device owns it. Unmapped without the CPU sync, whose
 * swiotlb copy would write the freed memory (KASAN's use-after-free).
 */
static int poison_free_device_owned(struct device *dev, void *unused)
{
	void *buf = kmalloc(512, GFP_KERNEL);
	dma_addr_t h;

	if (!buf)
		return -ENOMEM;
	if (map_single(dev, buf, 512, DMA_FROM_DEVICE, &h)) {
		kfree(buf);
		return -ENOMEM;
	}
	kfree(buf);			/* the device owns it */
	dma_unmap_single_attrs(dev, h, 512, DMA_FROM_DEVICE,
			       DMA_ATTR_SKIP_CPU_SYNC);
	return 0;
}

/* Freed while the CPU owns it, but still mapped: found at the unmap. */
static int poison_free_cpu_owned(struct device *dev, void *unused)
{
	void *buf = kmalloc(512, GFP_KERNEL);
	dma_addr_t h;

	if (!buf)
		return -ENOMEM;
	if (map_single(dev, buf, 512, DMA_FROM_DEVICE, &h)) {
		kfree(buf);
		return -ENOMEM;
	}
	dma_sync_single_for_cpu(dev, h, 512, DMA_FROM_DEVICE);
	kfree(buf);
	dma_unmap_single_attrs(dev, h, 512, DMA_FROM_DEVICE,
			       DMA_ATTR_SKIP_CPU_SYNC);
	return 0;
}

/* The same accesses done right: silent. */
static int poison_correct(struct device *dev, void *buf)
{
	u8 *p = buf, *k;
	struct sg_table sgt;
	dma_addr_t h;

	/* Read after the sync for the CPU, and after the unmap. */
	if (map_single(dev, buf, 2048, DMA_FROM_DEVICE, &h))
		return -ENOMEM;
	dma_sync_single_for_cpu(dev, h, 2048, DMA_FROM_DEVICE);
	poison_sink = READ_ONCE(p[100]);
	dma_sync_single_for_device(dev, h, 2048, DMA_FROM_DEVICE);
	dma_unmap_single(dev, h, 2048, DMA_FROM_DEVICE);
	poison_sink += READ_ONCE(p[100]);

	/*
	 * A range synced on unaligned bytes: read at both of its ends. Then
	 * the whole buffer back to the device, which swiotlb copies out,
	 * bytes the device kept included. (That copy is a memcpy(), which
	 * KASAN checks only where the compiler prefixes mem intrinsics or
	 * the architecture has no GENERIC_ENTRY: KUnit's test_poison_pause
	 * checks the pause on every build.)
	 */
	if (map_single(dev, buf, BUF_SIZE, DMA_BIDIRECTIONAL, &h))
		return -ENOMEM;
	dma_sync_single_range_for_cpu(dev, h, 250, 140, DMA_BIDIRECTIONAL);
	poison_sink += READ_ONCE(p[250]) + READ_ONCE(p[389]);
	WRITE_ONCE(p[251], 3);
	dma_sync_single_for_device(dev, h, BUF_SIZE, DMA_BIDIRECTIONAL);
	dma_unmap_single(dev, h, BUF_SIZE, DMA_BIDIRECTIONAL);

	/* A DMA_TO_DEVICE buffer is read by the CPU while the device reads it. */
	if (map_single(dev, buf, 1024, DMA_TO_DEVICE, &h))
		return -ENOMEM;
	poison_sink += READ_ONCE(p[10]);
	dma_unmap_single(dev, h, 1024, DMA_TO_DEVICE);

	/* Mapped without a sync: the CPU's until synced for the device. */
	if (map_skip_sync(dev, buf, &h))
		return -ENOMEM;
	WRITE_ONCE(p[8], 4);
	dma_sync_single_for_device(dev, h, BUF_SIZE, DMA_FROM_DEVICE);
	dma_sync_single_for_cpu(dev, h, BUF_SIZE, DMA_FROM_DEVICE);
	poison_sink += READ_ONCE(p[8]);
	unmap_skip_sync(dev, h);

	/* An sg list read after its sync. */
	if (map_sgt(dev, buf, &sgt, 4, DMA_FROM_DEVICE))
		return -ENOMEM;
	dma_sync_sgtable_for_cpu(dev, &sgt, DMA_FROM_DEVICE);
	poison_sink += READ_ONCE(p[BUF_SIZE - 1]);
	unmap_sgt(dev, &sgt, DMA_FROM_DEVICE);

	/* kmalloc()ed, mapped, unmapped, freed. */
	k = kmalloc(300, GFP_KERNEL);
	if (!k)
		return -ENOMEM;
	if (map_single(dev, k, 300, DMA_FROM_DEVICE, &h)) {
		kfree(k);
		return -ENOMEM;
	}
	dma_unmap_single(dev, h, 300, DMA_FROM_DEVICE);
	poison_sink += READ_ONCE(k[299]);
	kfree(k);
	return 0;
}

/*
 * One buffer mapped twice: without an IOMMU or swiotlb the two have one
 * handle, and a sync may mean either. After two syncs for the CPU and one
 * for the device, one of them is the CPU's, whichever the calls meant: the
 * CPU may read. With two handles, the device owns the first again, and
 * the read is left out.
 */
static int poison_identical_handles(struct device *dev, void *buf)
{
	u8 *p = buf;
	dma_addr_t h1, h2;

	if (map_single(dev, buf, 2048, DMA_FROM_DEVICE, &h1))
		return -ENOMEM;
	if (map_single(dev, buf, 2048, DMA_FROM_DEVICE, &h2)) {
		dma_unmap_single(dev, h1, 2048, DMA_FROM_DEVICE);
		return -ENOMEM;
	}
	dma_sync_single_for_cpu(dev, h1, 2048, DMA_FROM_DEVICE);
	dma_sync_single_for_cpu(dev, h2, 2048, DMA_FROM_DEVICE);
	dma_sync_single_for_device(dev, h1, 2048, DMA_FROM_DEVICE);
	if (h1 == h2)
		poison_sink = READ_ONCE(p[100]);
	dma_unmap_single(dev, h1, 2048, DMA_FROM_DEVICE);
	dma_unmap_single(dev, h2, 2048, DMA_FROM_DEVICE);
	return 0;
}

/*
 * An in-place transform (a cipher with src == dst): one buffer mapped for
 * the device to write and, after, to read. With poison and the content
 * check, the checksum of the second reads bytes the first has poisoned:
 * the tracker's own reads, not the CPU's.
 */
static int in_place_transform(struct device *dev, void *buf)
{
	dma_addr_t src, dst;

	if (map_single(dev, buf, 2048, DMA_FROM_DEVICE, &dst))
		return -ENOMEM;
	if (map_single(dev, buf, 2048, DMA_TO_DEVICE, &src)) {
		dma_unmap_single(dev, dst, 2048, DMA_FROM_DEVICE);
		return -ENOMEM;
	}
	dma_unmap_single(dev, src, 2048, DMA_TO_DEVICE);
	dma_unmap_single(dev, dst, 2048, DMA_FROM_DEVICE);
	return 0;
}

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
 * "random" runs random_ops random operations on a pool of slots, all of
 * them correct, except that with a chance of random_rate percent an
 * operation is replaced by one misuse of a random kind, each committed so
 * that it is exactly one violation and leaves the slot usable. Most slots
 * hold a single mapping; the others hold what drivers keep besides: a page
 * mapped with DMA_ATTR_SKIP_CPU_SYNC whose fragments go to the CPU and back
 * on their own (page_pool), memory from dma_alloc_noncoherent(), and one
 * buffer mapped twice for the device (equal handles without an IOMMU). A
 * kind of misuse that a slot cannot commit unmistakably is committed on a
 * single mapping instead. The same seed gives the same run. The result
 * file then counts what was injected, kind by kind, for the test to
 * compare with what was detected.
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
	INJ_SIZE_MISMATCH, INJ_MAP_ERROR_UNCHECKED, INJ_API_MISMATCH,
	INJ_CPU_WRITE, NR_INJ	/* INJ_CPU_WRITE last: only with the content check */
};

static const char *const injected_names[NR_INJ] = {
	"missing-sync-for-device", "redundant-sync-for-device",
	"unknown-handle", "use-after-unmap", "out-of-range",
	"dir-mismatch", "size-mismatch", "map-error-unchecked", "api-mismatch",
	"cpu-write-while-device-owned",
};

static unsigned int injected[NR_INJ];
static unsigned int nr_kinds;		/* of the last run: INJ_CPU_WRITE or all */
static unsigned int random_done;

/*
 * Each operation's reports, caught from the dma_owner_violation trace
 * event: an injection must draw exactly one report, of its kind, and a
 * correct operation none, so that a missed injection and a false report
 * of the same kind cannot cancel out in the totals.
 */
static struct device *random_dev;
static unsigned int drawn[NR_INJ + 1];	/* + 1: a kind not injected here */
static unsigned int mismatches;
static char first_mismatch[3][96];

static void count_report(void *data, const char *kind, struct device *dev,
			 u64 handle, size_t size, int dir, int owner,
			 unsigned long caller)
{
	unsigned int i;

	if (dev != READ_ONCE(random_dev))
		return;
	for (i = 0; i < NR_INJ && strcmp(kind, injected_names[i]); i++)
		;
	drawn[i]++;
}

/* After operation @op: were the reports it drew exactly @want (or none)? */
static void check_drawn(unsigned int op, int want)
{
	unsigned int i, expected;
	bool ok = true;

	for (i = 0; i <= NR_INJ; i++) {
		expected = (int)i == want;
		if (drawn[i] != expected)
			ok = false;
	}
	if (!ok) {
		if (mismatches < ARRAY_SIZE(first_mismatch)) {
			char *b = first_mismatch[mismatches];
			int len;

			len = scnprintf(b, sizeof(first_mismatch[0]),
					"op %u: injected %s, reports:", op,
					want < 0 ? "nothing" : injected_names[want]);
			for (i = 0; i <= NR_INJ; i++)
				if (drawn[i])
					len += scnprintf(b + len, sizeof(first_mismatch[0]) - len,
							 " %s=%u", i < NR_INJ ?
							 injected_names[i] : "other", drawn[i]);
		}
		mismatches++;
	}
	memset(drawn, 0, sizeof(drawn));
}

#define POOL		32
#define NR_FRAGS	(BUF_SIZE / FRAG)

enum slot_type { SLOT_SINGLE, SLOT_FRAGS, SLOT_NONCOHERENT, SLOT_TWICE };

/* Each group of eight slots: five single mappings, one of each other type. */
static const enum slot_type slot_types[] = {
	SLOT_SINGLE, SLOT_SINGLE, SLOT_SINGLE, SLOT_SINGLE, SLOT_SINGLE,
	SLOT_FRAGS, SLOT_NONCOHERENT, SLOT_TWICE,
};

/*
 * The kinds of misuse each type commits, each one violation whichever
 * mapping the tracker takes a call for: a skip-sync page is never synced
 * for the device redundantly, and a size or direction that fits neither of
 * two equal mappings would leave the tracker to guess which was meant.
 * Non-coherent memory commits what is its own: a sync after the free, and
 * a sync for the CPU while the CPU has it, from allocation on too. The
 * group's first slot, a single mapping, takes the other kinds.
 */
static const unsigned int slot_kinds[] = {
	[SLOT_SINGLE] = ~0U,
	[SLOT_FRAGS] = BIT(INJ_MISSING_SYNC),
	[SLOT_NONCOHERENT] = BIT(INJ_MISSING_SYNC) | BIT(INJ_USE_AFTER_UNMAP),
	[SLOT_TWICE] = BIT(INJ_MISSING_SYNC) | BIT(INJ_REDUNDANT_SYNC),
};

static const enum dma_data_direction dirs[] = {
	DMA_TO_DEVICE, DMA_FROM_DEVICE, DMA_BIDIRECTIONAL,
};

/*
 * Between operations the device owns every byte of a live slot, but for
 * the fragments of a SLOT_FRAGS page in @cpu_frags: the CPU owns the start
 * of each of those, a packet's length of it.
 */
struct pool_map {
	enum slot_type type;
	bool live;		/* mapped (allocated); if not, done again */
	void *buf;		/* a page of the slot's own */
	void *vaddr;		/* SLOT_NONCOHERENT: the memory allocated */
	dma_addr_t h;
	dma_addr_t h2;		/* SLOT_TWICE: the second mapping */
	size_t size;
	enum dma_data_direction dir;
	unsigned int cpu_frags;	/* SLOT_FRAGS: a bit per fragment */
};

/* No handle of the run reaches above it: nothing was ever mapped there. */
static dma_addr_t hi_water;

static void note_handle(dma_addr_t h, size_t size)
{
	if (h + size > hi_water)
		hi_water = h + size;
}

/* Non-coherent memory: the CPU's until it is synced for the device. */
static int nc_alloc(struct device *dev, struct pool_map *m)
{
	m->vaddr = dma_alloc_noncoherent(dev, m->size, &m->h, m->dir,
					 GFP_KERNEL);
	if (!m->vaddr)
		return -ENOMEM;
	note_handle(m->h, m->size);
	memset(m->vaddr, 0, m->size);
	m->live = true;
	return 0;
}

/* Map (or allocate) the slot afresh: the device owns all of it after. */
static int slot_open(struct device *dev, struct pool_map *m,
		     struct rnd_state *rs)
{
	unsigned int f;

	switch (m->type) {
	case SLOT_SINGLE:		/* 256 .. 2048 bytes, any direction */
		m->size = 256 << (prandom_u32_state(rs) % 4);
		m->dir = dirs[prandom_u32_state(rs) % 3];
		m->h = dma_map_single(dev, m->buf, m->size, m->dir);
		if (dma_mapping_error(dev, m->h))
			return -ENOMEM;
		break;
	case SLOT_FRAGS:
		m->size = BUF_SIZE;
		m->dir = DMA_FROM_DEVICE;
		m->h = dma_map_page_attrs(dev, virt_to_page(m->buf), 0, m->size,
					  m->dir, DMA_ATTR_SKIP_CPU_SYNC);
		if (dma_mapping_error(dev, m->h))
			return -ENOMEM;
		m->cpu_frags = 0;
		for (f = 0; f < NR_FRAGS; f++)	/* each armed on its own */
			dma_sync_single_range_for_device(dev, m->h, f * FRAG,
							 FRAG, m->dir);
		break;
	case SLOT_NONCOHERENT:
		m->size = BUF_SIZE;
		m->dir = dirs[prandom_u32_state(rs) % 3];
		if (nc_alloc(dev, m))
			return -ENOMEM;
		dma_sync_single_for_device(dev, m->h, m->size, m->dir);
		return 0;
	case SLOT_TWICE:
		m->size = 256 << (prandom_u32_state(rs) % 4);
		m->dir = DMA_TO_DEVICE;
		m->h = dma_map_single(dev, m->buf, m->size, m->dir);
		if (dma_mapping_error(dev, m->h))
			return -ENOMEM;
		m->h2 = dma_map_single(dev, m->buf, m->size, m->dir);
		if (dma_mapping_error(dev, m->h2)) {
			dma_unmap_single(dev, m->h, m->size, m->dir);
			return -ENOMEM;
		}
		note_handle(m->h2, m->size);
		break;
	}
	note_handle(m->h, m->size);
	m->live = true;
	return 0;
}

/* Unmap (or free) the slot, whoever owns it. */
static void slot_close(struct device *dev, struct pool_map *m)
{
	if (!m->live)
		return;
	m->live = false;
	switch (m->type) {
	case SLOT_SINGLE:
		dma_unmap_single(dev, m->h, m->size, m->dir);
		break;
	case SLOT_FRAGS:
		dma_unmap_page_attrs(dev, m->h, m->size, m->dir,
				     DMA_ATTR_SKIP_CPU_SYNC);
		break;
	case SLOT_NONCOHERENT:
		dma_free_noncoherent(dev, m->size, m->vaddr, m->h, m->dir);
		break;
	case SLOT_TWICE:
		dma_unmap_single(dev, m->h, m->size, m->dir);
		dma_unmap_single(dev, m->h2, m->size, m->dir);
		break;
	}
}

static bool inject_single(struct device *dev, struct pool_map *m,
			  enum injected_kind kind, struct rnd_state *rs)
{
	enum dma_data_direction wrong;
	struct scatterlist sg;
	dma_addr_t h = m->h;
	u8 *p;

	switch (kind) {
	case INJ_MISSING_SYNC:
		dma_sync_single_for_cpu(dev, h, m->size, m->dir);
		dma_sync_single_for_cpu(dev, h, m->size, m->dir);
		dma_sync_single_for_device(dev, h, m->size, m->dir);
		break;
	case INJ_REDUNDANT_SYNC:
		dma_sync_single_for_device(dev, h, m->size, m->dir);
		break;
	case INJ_UNKNOWN_HANDLE:
		dma_sync_single_for_cpu(dev, hi_water + NOT_MAPPED, 64, m->dir);
		break;
	case INJ_USE_AFTER_UNMAP:
		slot_close(dev, m);
		dma_sync_single_for_cpu(dev, h, m->size, m->dir);
		slot_open(dev, m, rs);
		break;
	case INJ_OUT_OF_RANGE:
		dma_sync_single_range_for_cpu(dev, h, m->size - 8, 16,
					      m->dir);
		dma_sync_single_range_for_device(dev, h, m->size - 8, 8,
						 m->dir);
		break;
	case INJ_DIR_MISMATCH:
		if (m->dir == DMA_BIDIRECTIONAL)
			return false;	/* any direction is right for it */
		wrong = m->dir == DMA_TO_DEVICE ? DMA_FROM_DEVICE : DMA_TO_DEVICE;
		dma_sync_single_for_cpu(dev, h, m->size, wrong);
		dma_sync_single_for_device(dev, h, m->size, m->dir);
		break;
	case INJ_SIZE_MISMATCH:
		m->live = false;
		dma_unmap_single(dev, h, m->size / 2, m->dir);
		slot_open(dev, m, rs);
		break;
	case INJ_MAP_ERROR_UNCHECKED:
		/* mapped afresh, compared instead of checked, then used */
		slot_close(dev, m);
		h = dma_map_single(dev, m->buf, m->size, m->dir);
		if (h == DMA_MAPPING_ERROR) {
			slot_open(dev, m, rs);
			return false;
		}
		m->h = h;
		m->live = true;
		dma_sync_single_for_cpu(dev, h, m->size, m->dir);
		dma_sync_single_for_device(dev, h, m->size, m->dir);
		break;
	case INJ_API_MISMATCH:
		/* unmapped as a one-entry sg list */
		sg_init_table(&sg, 1);
		sg_set_buf(&sg, m->buf, m->size);
		sg_dma_address(&sg) = h;
		sg_dma_len(&sg) = m->size;
		m->live = false;
		dma_unmap_sg(dev, &sg, 1, m->dir);
		slot_open(dev, m, rs);
		break;
	case INJ_CPU_WRITE:
		if (m->dir != DMA_TO_DEVICE)
			return false;	/* only these buffers are checksummed */
		p = m->buf;
		p[prandom_u32_state(rs) % m->size]++;
		/* found here; the sync for the device checksums it afresh */
		dma_sync_single_for_cpu(dev, h, m->size, m->dir);
		dma_sync_single_for_device(dev, h, m->size, m->dir);
		break;
	default:
		return false;
	}
	return true;
}

/* A fragment taken again while another one is with the CPU as well. */
static void inject_frags(struct device *dev, struct pool_map *m,
			 struct rnd_state *rs)
{
	unsigned int f = prandom_u32_state(rs) % NR_FRAGS;
	unsigned int g = (f + 1 + prandom_u32_state(rs) % (NR_FRAGS - 1)) %
			 NR_FRAGS;

	if (!(m->cpu_frags & BIT(g)))
		dma_sync_single_range_for_cpu(dev, m->h, g * FRAG, FRAG,
					      m->dir);
	if (!(m->cpu_frags & BIT(f)))
		dma_sync_single_range_for_cpu(dev, m->h, f * FRAG, FRAG,
					      m->dir);
	m->cpu_frags |= BIT(f) | BIT(g);
	dma_sync_single_range_for_cpu(dev, m->h, f * FRAG,
				      1 + prandom_u32_state(rs) % FRAG, m->dir);
}

static bool inject_noncoherent(struct device *dev, struct pool_map *m,
			       enum injected_kind kind, struct rnd_state *rs)
{
	dma_addr_t h = m->h;

	if (kind == INJ_USE_AFTER_UNMAP) {
		slot_close(dev, m);
		dma_sync_single_for_cpu(dev, h, m->size, m->dir);
		slot_open(dev, m, rs);
		return true;
	}
	if (prandom_u32_state(rs) % 2) {
		/* back with the CPU, then taken again */
		dma_sync_single_for_cpu(dev, h, m->size, m->dir);
	} else {
		/* allocated afresh: the CPU's already */
		slot_close(dev, m);
		if (nc_alloc(dev, m))
			return false;
	}
	dma_sync_single_for_cpu(dev, m->h, m->size, m->dir);
	dma_sync_single_for_device(dev, m->h, m->size, m->dir);
	return true;
}

/* Wrong whichever of the two equal mappings each call means. */
static void inject_twice(struct device *dev, struct pool_map *m,
			 enum injected_kind kind)
{
	if (kind == INJ_REDUNDANT_SYNC) {
		dma_sync_single_for_device(dev, m->h, m->size, m->dir);
		return;
	}
	dma_sync_single_for_cpu(dev, m->h, m->size, m->dir);
	dma_sync_single_for_cpu(dev, m->h2, m->size, m->dir);
	dma_sync_single_for_cpu(dev, m->h, m->size, m->dir);
	dma_sync_single_for_device(dev, m->h, m->size, m->dir);
	dma_sync_single_for_device(dev, m->h2, m->size, m->dir);
}

/* Return: the kind injected, or -1 if none could be. */
static int inject(struct device *dev, struct pool_map *pool,
		  struct pool_map *m, struct rnd_state *rs)
{
	enum injected_kind kind = prandom_u32_state(rs) % nr_kinds;
	bool done = true;

	if (!(slot_kinds[m->type] & BIT(kind)))
		m = pool + (m - pool) / ARRAY_SIZE(slot_types) *
			   ARRAY_SIZE(slot_types);
	if (!m->live)
		return -1;
	/* A buffer the device only reads may be synced for it again. */
	if (kind == INJ_REDUNDANT_SYNC && m->dir == DMA_TO_DEVICE)
		return -1;
	switch (m->type) {
	case SLOT_SINGLE:
		done = inject_single(dev, m, kind, rs);
		break;
	case SLOT_FRAGS:
		inject_frags(dev, m, rs);
		break;
	case SLOT_NONCOHERENT:
		done = inject_noncoherent(dev, m, kind, rs);
		break;
	case SLOT_TWICE:
		inject_twice(dev, m, kind);
		break;
	}
	if (!done)
		return -1;
	injected[kind]++;
	return kind;
}

/*
 * A fragment's packet to the CPU, or the fragment back to the device; a
 * fragment armed again, whether the CPU had it or not (the pool recycling
 * it); now and then the page leaves the pool and another comes in.
 */
static void correct_frags(struct device *dev, struct pool_map *m,
			  struct rnd_state *rs)
{
	unsigned int f = prandom_u32_state(rs) % NR_FRAGS;
	size_t len;

	switch (prandom_u32_state(rs) % 8) {
	case 0:
		slot_close(dev, m);
		slot_open(dev, m, rs);
		return;
	case 1:
		break;
	default:
		if (m->cpu_frags & BIT(f))
			break;
		len = 1 + prandom_u32_state(rs) % FRAG;
		dma_sync_single_range_for_cpu(dev, m->h, f * FRAG, len, m->dir);
		m->cpu_frags |= BIT(f);
		return;
	}
	dma_sync_single_range_for_device(dev, m->h, f * FRAG, FRAG, m->dir);
	m->cpu_frags &= ~BIT(f);
}

/* One correct operation; the device owns the slot before and after. */
static void correct_op(struct device *dev, struct pool_map *m,
		       struct rnd_state *rs)
{
	size_t off, len;

	if (m->type == SLOT_FRAGS) {
		correct_frags(dev, m, rs);
		return;
	}
	switch (prandom_u32_state(rs) % 4) {
	case 0:
		dma_sync_single_for_cpu(dev, m->h, m->size, m->dir);
		dma_sync_single_for_device(dev, m->h, m->size, m->dir);
		break;
	case 1:
		if (m->type == SLOT_TWICE) {	/* both, interleaved */
			dma_sync_single_for_cpu(dev, m->h, m->size, m->dir);
			dma_sync_single_for_cpu(dev, m->h2, m->size, m->dir);
			dma_sync_single_for_device(dev, m->h, m->size, m->dir);
			dma_sync_single_for_device(dev, m->h2, m->size, m->dir);
			break;
		}
		/* a partial sync, copybreak style */
		off = prandom_u32_state(rs) % (m->size / 2);
		len = 1 + prandom_u32_state(rs) % (m->size / 2);
		dma_sync_single_range_for_cpu(dev, m->h, off, len, m->dir);
		dma_sync_single_range_for_device(dev, m->h, off, len, m->dir);
		break;
	case 2:		/* unmap (free) from the CPU's side, map again */
		dma_sync_single_for_cpu(dev, m->h, m->size, m->dir);
		fallthrough;
	default:
		if (m->type == SLOT_TWICE && prandom_u32_state(rs) % 2)
			swap(m->h, m->h2);	/* unmapped in either order */
		slot_close(dev, m);
		slot_open(dev, m, rs);
		break;
	}
}

static int random_workload(struct device *dev, void *unused)
{
	struct pool_map *pool;
	struct rnd_state rs;
	unsigned int i;
	int ret = 0;

	BUILD_BUG_ON(POOL % ARRAY_SIZE(slot_types));
	pool = kcalloc(POOL, sizeof(*pool), GFP_KERNEL);
	if (!pool)
		return -ENOMEM;
	ret = register_trace_dma_owner_violation(count_report, NULL);
	if (ret) {
		kfree(pool);
		return ret;
	}
	WRITE_ONCE(random_dev, dev);
	prandom_seed_state(&rs, random_seed);
	memset(injected, 0, sizeof(injected));
	memset(drawn, 0, sizeof(drawn));
	mismatches = 0;
	nr_kinds = random_cpu_write ? NR_INJ : INJ_CPU_WRITE;
	hi_water = 0;
	for (i = 0; i < POOL; i++) {
		pool[i].type = slot_types[i % ARRAY_SIZE(slot_types)];
		pool[i].buf = (void *)__get_free_page(GFP_KERNEL);
		if (!pool[i].buf || slot_open(dev, &pool[i], &rs)) {
			ret = -ENOMEM;
			goto out;
		}
	}
	for (i = 0; i < random_ops; i++) {
		struct pool_map *m = &pool[prandom_u32_state(&rs) % POOL];

		if (!m->live) {
			slot_open(dev, m, &rs);
			check_drawn(i, -1);
			continue;
		}
		if (prandom_u32_state(&rs) % 100 < random_rate) {
			check_drawn(i, inject(dev, pool, m, &rs));
		} else {
			correct_op(dev, m, &rs);
			check_drawn(i, -1);
		}
	}
	random_done = 1;
out:
	for (i = 0; i < POOL; i++) {
		slot_close(dev, &pool[i]);
		free_page((unsigned long)pool[i].buf);
	}
	WRITE_ONCE(random_dev, NULL);
	unregister_trace_dma_owner_violation(count_report, NULL);
	tracepoint_synchronize_unregister();
	kfree(pool);
	return ret;
}

static const struct scenario scenarios[] = {
	{ "cycle_single",		"none", cycle_single },
	{ "cycle_page",			"none", cycle_page },
	{ "cycle_sg",			"none", cycle_sg },
	{ "cycle_resource",		"none", cycle_resource },
	{ "partial_sync",		"none", partial_sync },
	{ "to_device_refill",		"none", to_device_refill },
	{ "copybreak",			"none", copybreak },
	{ "bidir_read_back_from_device", "none", bidir_read_back_from_device },
	{ "skip_cpu_sync_recycle",	"none", skip_cpu_sync_recycle },
	{ "unmap_cpu_owned",		"none", unmap_cpu_owned },
	{ "sg_fewer_ents",		"none", sg_fewer_ents },
	{ "noncoherent_cycle",		"none", noncoherent_cycle },
	{ "pages_cycle",		"none", pages_cycle },
	{ "noncontiguous_cycle",	"none", noncontiguous_cycle },
	{ "skip_sync_fragments",	"none", skip_sync_fragments },
	{ "half_page_reuse",		"none", half_page_reuse },
	{ "page_pool_rx",		"none", page_pool_rx },
	{ "identical_handles",		"none", identical_handles },
	{ "sg_segments_within_limit",	"none", sg_segments_within_limit },
	{ "coherent_cycle",		"none", coherent_cycle },
	{ "cache_lines_apart",		"none", cache_lines_apart },
	{ "cache_line_aligned_fields",	"none", cache_line_aligned_fields },
	{ "cache_line_sg_segments",	"none", cache_line_sg_segments },
	{ "missing_sync_single",	"missing-sync-for-device", missing_sync_single },
	{ "missing_sync_page",		"missing-sync-for-device", missing_sync_page },
	{ "missing_sync_sg",		"missing-sync-for-device", missing_sync_sg },
	{ "noncoherent_missing_sync",	"missing-sync-for-device", noncoherent_missing_sync },
	{ "noncontiguous_missing_sync",	"missing-sync-for-device", noncontiguous_missing_sync },
	{ "fragment_missing_sync",	"missing-sync-for-device", fragment_missing_sync },
	{ "page_pool_missing_sync",	"missing-sync-for-device", page_pool_missing_sync },
	{ "identical_handles_missing_sync", "missing-sync-for-device",
	  identical_handles_missing_sync },
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
	{ "noncoherent_use_after_free",	"use-after-unmap", noncoherent_use_after_free },
	{ "late_use_after_unmap",	"use-after-unmap", late_use_after_unmap },
	{ "out_of_range_single",	"out-of-range", out_of_range_single },
	{ "out_of_range_page",		"out-of-range", out_of_range_page },
	{ "out_of_range_sg",		"out-of-range", out_of_range_sg },
	{ "dir_mismatch_single",	"dir-mismatch", dir_mismatch_single },
	{ "dir_mismatch_page",		"dir-mismatch", dir_mismatch_page },
	{ "dir_mismatch_sg",		"dir-mismatch", dir_mismatch_sg },
	{ "dir_mismatch_bidir_for_cpu",	"dir-mismatch", dir_mismatch_bidir_for_cpu },
	{ "dir_mismatch_resource",	"dir-mismatch", dir_mismatch_resource },
	{ "size_mismatch_single",	"size-mismatch", size_mismatch_single },
	{ "size_mismatch_page",		"size-mismatch", size_mismatch_page },
	{ "size_mismatch_resource",	"size-mismatch", size_mismatch_resource },
	{ "noncontiguous_size_mismatch", "size-mismatch", noncontiguous_size_mismatch },
	{ "cpu_write_single",		"cpu-write-while-device-owned", cpu_write_single },
	{ "cpu_write_page",		"cpu-write-while-device-owned", cpu_write_page },
	{ "cpu_write_sg",		"cpu-write-while-device-owned", cpu_write_sg },
	{ "unchecked_map_error",	"map-error-unchecked", unchecked_map_error },
	{ "api_mismatch_sg",		"api-mismatch", api_mismatch_sg },
	{ "api_mismatch_resource",	"api-mismatch", api_mismatch_resource },
	{ "sg_count_mismatch",		"sg-count-mismatch", sg_count_mismatch },
	{ "sg_segment_too_long",	"sg-segment-limit", sg_segment_too_long },
	{ "map_stack",			"bad-memory", map_stack },
	{ "map_rodata",			"bad-memory", map_rodata },
	{ "coherent_size_mismatch",	"size-mismatch", coherent_size_mismatch },
	{ "coherent_cpu_address_mismatch", "cpu-address-mismatch",
	  coherent_cpu_address_mismatch },
	{ "cache_line_shared",		"cache-line-shared", cache_line_shared },
	{ "leak",			"leak", leak },
	{ "poison_correct",		"none", poison_correct },
	{ "poison_identical_handles",	"none", poison_identical_handles },
	{ "in_place_transform",		"none", in_place_transform },
	{ "poison_read_before_sync",	"cpu-read-while-device-owned",
	  poison_read_before_sync },
	{ "poison_write_after_sync_for_device", "cpu-write-while-device-owned",
	  poison_write_after_sync_for_device },
	{ "poison_read_sg",		"cpu-read-while-device-owned", poison_read_sg },
	{ "poison_read_past_partial_sync", "cpu-read-while-device-owned",
	  poison_read_past_partial_sync },
	{ "poison_free_device_owned",	"freed-while-mapped", poison_free_device_owned },
	{ "poison_free_cpu_owned",	"freed-while-mapped", poison_free_cpu_owned },
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
		seq_printf(m, "mismatches %u\n", mismatches);
		for (i = 0; i < min_t(unsigned int, mismatches,
				      ARRAY_SIZE(first_mismatch)); i++)
			seq_printf(m, "mismatch %s\n", first_mismatch[i]);
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

/*
 * Called under hold_lock, with the device still bound. Entry i holds the
 * page it mapped, or NULL when it mapped entry 0's page.
 */
static void hold_release(void)
{
	while (held.n) {
		held.n--;
		dma_unmap_page(tdev, held.handle[held.n], PAGE_SIZE,
			       DMA_FROM_DEVICE);
		if (held.page[held.n])
			__free_page(held.page[held.n]);
	}
}

static ssize_t hold_write(struct file *file, const char __user *ubuf,
			  size_t count, loff_t *ppos)
{
	char buf[16], how[8] = "", extra;
	unsigned int n, i;
	struct page *page;
	bool same;
	int ret = 0;

	if (count >= sizeof(buf))
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	/* N, or "N same", and nothing after it. */
	ret = sscanf(buf, "%u %7s %c", &n, how, &extra);
	if (ret < 1 || ret > 2 || n > HOLD_MAX || (*how && strcmp(how, "same")))
		return -EINVAL;
	ret = 0;
	same = *how;
	mutex_lock(&hold_lock);
	if (!tdev) {
		ret = -ENODEV;
		goto out;
	}
	hold_release();
	for (i = 0; i < n; i++) {
		page = same && i ? held.page[0] : alloc_page(GFP_KERNEL);
		if (!page) {
			ret = -ENOMEM;
			break;
		}
		held.page[i] = same && i ? NULL : page;
		held.handle[i] = dma_map_page(tdev, page, 0, PAGE_SIZE,
					      DMA_FROM_DEVICE);
		if (dma_mapping_error(tdev, held.handle[i])) {
			if (held.page[i])
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
