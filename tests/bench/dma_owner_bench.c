// SPDX-License-Identifier: GPL-2.0
/*
 * dma_owner_bench: a micro-benchmark of the streaming DMA API calls, on
 * QEMU's "edu" PCI device (-device edu), the device test_dma_owner uses.
 */

#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/completion.h>
#include <linux/debugfs.h>
#include <linux/dma-mapping.h>
#include <linux/kthread.h>
#include <linux/log2.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/seq_file.h>
#include <linux/slab.h>

static DEFINE_MUTEX(bench_lock);
static struct device *tdev;

/*
 * What the DMA API costs with the tracker on, off, compiled out, or
 * CONFIG_DMA_API_DEBUG instead: scripts/bench.sh boots each and compares.
 * Built as an external module against each benchmark kernel, so that it
 * needs nothing from the tracker. Write to
 * /sys/kernel/debug/dma_owner_bench/run:
 *
 *   live N [CHUNK]          keep N other mappings live, CHUNK bytes each
 *                           (default 128, which fills its cache lines at
 *                           the largest ARCH_DMA_MINALIGN; 64 shares each
 *                           line with another mapping). The chunk changes
 *                           only from no live mappings.
 *   map|sync ITERS THREADS  time ITERS cycles on each of THREADS CPUs:
 *                           map+unmap of 256 bytes, or
 *                           map+sync_for_cpu+sync_for_device+unmap
 *
 * and read it for the live count and the last run: ns per cycle, the
 * run's time (first thread's start to last thread's end) over all its
 * threads' cycles. On one CPU that is what a cycle takes. Under QEMU's
 * -icount the vCPUs take turns on one host thread and guest time counts
 * the instructions of all of them, so with several threads it is what a
 * cycle costs every CPU together: spinning on a lock another CPU holds,
 * or retrying an atomic it changed, counts; a cache line moving between
 * CPUs does not.
 *
 * Each thread cycles through a ring of BENCH_RING buffers, a page each, as
 * a driver's receive ring does. What dma-debug's cache line tree costs a
 * map depends on where the buffer lies against the other live mappings
 * (whether the tree's nodes on its path exist already or are allocated
 * and freed with it): one buffer would measure one placement, and move by
 * tens of percent from run to run; a ring measures the mean of many.
 */
#define BENCH_BUF	256
#define BENCH_RING	64
#define LIVE_CHUNK	128	/* the default, and the largest */
#define LIVE_MAX	(2UL << 20)

static struct page **live_pages;
static dma_addr_t *live_handles;
static unsigned long live_nr;
static unsigned int live_chunk = LIVE_CHUNK;
static struct {
	bool sync;
	unsigned int iters, threads;
	u64 ns_per_cycle;
	unsigned long errors;
} bench_result;

static void live_set(struct device *dev, unsigned long n)
{
	const unsigned long per_page = PAGE_SIZE / live_chunk;
	unsigned long pages = DIV_ROUND_UP(n, per_page);

	while (live_nr > n) {
		live_nr--;
		dma_unmap_page(dev, live_handles[live_nr], live_chunk,
			       DMA_TO_DEVICE);
		if (live_nr % per_page == 0) {
			__free_page(live_pages[live_nr / per_page]);
			live_pages[live_nr / per_page] = NULL;
		}
	}
	if (!n) {
		kvfree(live_pages);
		kvfree(live_handles);
		live_pages = NULL;
		live_handles = NULL;
		return;
	}
	if (!live_handles) {
		live_handles = kvcalloc(LIVE_MAX, sizeof(*live_handles), GFP_KERNEL);
		live_pages = kvcalloc(LIVE_MAX / (PAGE_SIZE / LIVE_CHUNK),
				      sizeof(*live_pages), GFP_KERNEL);
		if (!live_handles || !live_pages) {
			kvfree(live_pages);
			kvfree(live_handles);
			live_pages = NULL;
			live_handles = NULL;
			return;
		}
	}
	while (live_nr < n && live_nr / per_page < pages) {
		unsigned long i = live_nr / per_page;
		dma_addr_t h;

		if (!live_pages[i]) {
			live_pages[i] = alloc_page(GFP_KERNEL);
			if (!live_pages[i])
				return;
		}
		h = dma_map_page(dev, live_pages[i],
				 (live_nr % per_page) * live_chunk, live_chunk,
				 DMA_TO_DEVICE);
		if (dma_mapping_error(dev, h)) {
			if (live_nr % per_page == 0) {
				__free_page(live_pages[i]);
				live_pages[i] = NULL;
			}
			return;
		}
		live_handles[live_nr++] = h;
		if (live_nr % 4096 == 0)
			cond_resched();
	}
}

struct bench_thread {
	struct device *dev;
	void *buf[BENCH_RING];
	u64 start, end;
	unsigned long errors;
	struct completion *go;
	struct completion done;
};

static int bench_thread_fn(void *data)
{
	struct bench_thread *bt = data;
	struct device *dev = bt->dev;
	unsigned int i;

	/* All threads start together, once every one of them exists. */
	wait_for_completion(bt->go);
	bt->start = ktime_get_ns();
	for (i = 0; i < bench_result.iters; i++) {
		dma_addr_t h = dma_map_single(dev, bt->buf[i % BENCH_RING],
					      BENCH_BUF, DMA_FROM_DEVICE);

		if (dma_mapping_error(dev, h)) {
			bt->errors++;
			continue;
		}
		if (bench_result.sync) {
			dma_sync_single_for_cpu(dev, h, BENCH_BUF,
						DMA_FROM_DEVICE);
			dma_sync_single_for_device(dev, h, BENCH_BUF,
						   DMA_FROM_DEVICE);
		}
		dma_unmap_single(dev, h, BENCH_BUF, DMA_FROM_DEVICE);
		if (i % 1024 == 1023)
			cond_resched();
	}
	bt->end = ktime_get_ns();
	complete(&bt->done);
	return 0;
}

static void ring_free(void **buf)
{
	unsigned int i;

	for (i = 0; i < BENCH_RING; i++)
		free_page((unsigned long)buf[i]);	/* 0 is ignored */
}

static bool ring_alloc(void **buf)
{
	unsigned int i;

	for (i = 0; i < BENCH_RING; i++) {
		buf[i] = (void *)__get_free_page(GFP_KERNEL);
		if (!buf[i]) {
			ring_free(buf);
			return false;
		}
	}
	return true;
}

static int bench_run(struct device *dev, unsigned int threads)
{
	struct bench_thread *bt;
	unsigned int i, started = 0, cpu;
	DECLARE_COMPLETION_ONSTACK(go);
	u64 start = U64_MAX, end = 0;
	int ret = 0;

	bt = kcalloc(threads, sizeof(*bt), GFP_KERNEL);
	if (!bt)
		return -ENOMEM;
	bench_result.errors = 0;
	i = 0;
	for_each_online_cpu(cpu) {
		struct task_struct *t;

		if (i == threads)
			break;
		bt[i].dev = dev;
		bt[i].go = &go;
		init_completion(&bt[i].done);
		/* a page each: no false sharing, no shared cache lines */
		if (!ring_alloc(bt[i].buf)) {
			ret = -ENOMEM;
			break;
		}
		t = kthread_create(bench_thread_fn, &bt[i], "dma_owner_bench/%u",
				   cpu);
		if (IS_ERR(t)) {
			ring_free(bt[i].buf);
			ret = PTR_ERR(t);
			break;
		}
		kthread_bind(t, cpu);
		wake_up_process(t);
		started = ++i;
	}
	complete_all(&go);
	for (i = 0; i < started; i++) {
		wait_for_completion(&bt[i].done);
		start = min(start, bt[i].start);
		end = max(end, bt[i].end);
		bench_result.errors += bt[i].errors;
		ring_free(bt[i].buf);
	}
	if (!ret && started < threads)
		ret = -EINVAL;		/* fewer CPUs online than asked for */
	if (!ret)
		bench_result.ns_per_cycle =
			div64_u64(end - start, (u64)started * bench_result.iters);
	kfree(bt);
	return ret;
}

static ssize_t bench_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	unsigned int iters, threads, chunk;
	unsigned long n;
	char cmd[64], op[8];
	int ret = 0;

	if (count >= sizeof(cmd))
		return -E2BIG;
	if (copy_from_user(cmd, ubuf, count))
		return -EFAULT;
	cmd[count] = '\0';
	mutex_lock(&bench_lock);
	if (!tdev) {
		ret = -ENODEV;
	} else if (sscanf(cmd, "live %lu", &n) == 1) {
		if (sscanf(cmd, "live %lu %u", &n, &chunk) != 2)
			chunk = live_chunk;
		if (n > LIVE_MAX || chunk < 64 || chunk > LIVE_CHUNK ||
		    !is_power_of_2(chunk)) {
			ret = -EINVAL;
		} else if (chunk != live_chunk && live_nr) {
			ret = -EBUSY;
		} else {
			live_chunk = chunk;
			live_set(tdev, n);
			if (live_nr != n)
				ret = -ENOMEM;
		}
	} else if (sscanf(cmd, "%7s %u %u", op, &iters, &threads) == 3 &&
		   (!strcmp(op, "map") || !strcmp(op, "sync")) &&
		   iters && threads && threads <= num_online_cpus()) {
		bench_result.sync = !strcmp(op, "sync");
		bench_result.iters = iters;
		bench_result.threads = threads;
		ret = bench_run(tdev, threads);
	} else {
		ret = -EINVAL;
	}
	mutex_unlock(&bench_lock);
	return ret ?: count;
}

static int bench_show(struct seq_file *m, void *v)
{
	mutex_lock(&bench_lock);
	seq_printf(m, "live %lu\n", live_nr);
	if (bench_result.iters)
		seq_printf(m, "%s iters %u threads %u ns_per_cycle %llu errors %lu\n",
			   bench_result.sync ? "sync" : "map", bench_result.iters,
			   bench_result.threads, bench_result.ns_per_cycle,
			   bench_result.errors);
	mutex_unlock(&bench_lock);
	return 0;
}

DEFINE_SHOW_STORE_ATTRIBUTE(bench);

static int edu_probe(struct pci_dev *pci, const struct pci_device_id *id)
{
	int ret;

	if (tdev)
		return -EBUSY;		/* one device is enough */
	ret = pcim_enable_device(pci);
	if (ret)
		return ret;
	ret = dma_coerce_mask_and_coherent(&pci->dev, DMA_BIT_MASK(64));
	if (ret)
		return ret;
	pci_set_master(pci);
	tdev = &pci->dev;
	return 0;
}

static void edu_remove(struct pci_dev *pci)
{
	if (&pci->dev != tdev)
		return;
	mutex_lock(&bench_lock);
	live_set(tdev, 0);
	tdev = NULL;
	mutex_unlock(&bench_lock);
}

static const struct pci_device_id edu_ids[] = {
	{ PCI_DEVICE(0x1234, 0x11e8) },
	{ }
};

static struct pci_driver edu_driver = {
	.name = "dma_owner_bench",
	.id_table = edu_ids,
	.probe = edu_probe,
	.remove = edu_remove,
};

static struct dentry *dir;

static int __init dma_owner_bench_init(void)
{
	int ret = pci_register_driver(&edu_driver);

	if (ret)
		return ret;
	if (!tdev) {
		pci_unregister_driver(&edu_driver);
		pr_err("no edu device (QEMU -device edu) to map for\n");
		return -ENODEV;
	}
	dir = debugfs_create_dir("dma_owner_bench", NULL);
	debugfs_create_file("run", 0600, dir, NULL, &bench_fops);
	return 0;
}
module_init(dma_owner_bench_init);

static void __exit dma_owner_bench_exit(void)
{
	debugfs_remove(dir);
	pci_unregister_driver(&edu_driver);
}
module_exit(dma_owner_bench_exit);

MODULE_DESCRIPTION("Micro-benchmark of the streaming DMA API");
MODULE_LICENSE("GPL");
