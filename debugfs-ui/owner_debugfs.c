// SPDX-License-Identifier: GPL-2.0
/*
 * DMA ownership tracker: /sys/kernel/debug/dma-owner/.
 *
 *   enabled	 rw: 1 tracking, 0 not
 *   mappings	 one line per live mapping, after a header line
 *   violations	 the last reports (dma_owner.log_size of them), oldest first,
 *		 including those the rate limit kept out of dmesg
 *   stats	 "key: value" lines, one per counter
 *   filter	 rw: track only this device or driver name; empty: all
 *   clear	 write 1: empty the violations log, zero the counters
 *   ignore	 rw: rules that silence known findings, "KIND:FUNCTION HITS";
 *		 write "KIND:FUNCTION" to add one, "-KIND:FUNCTION" to remove
 *		 one, nothing to remove all
 *
 * Writes are parsed strictly: anything but the documented values is refused
 * with -EINVAL (-E2BIG when too long; ignore also says -ENOSPC for a rule
 * too many, -ENOENT for the removal of an absent one) and changes nothing.
 */

#include <linux/ctype.h>
#include <linux/debugfs.h>
#include <linux/device.h>
#include <linux/init.h>
#include <linux/jiffies.h>
#include <linux/seq_file.h>
#include <linux/slab.h>
#include <linux/uaccess.h>

#include "owner.h"

#define FILTER_MAX	64	/* longest filter, with its NUL */

/* Copy a short write; accept one trailing newline, then only printable ASCII. */
static ssize_t get_word(const char __user *ubuf, size_t count, char *buf,
			size_t size)
{
	size_t i;

	if (count >= size)
		return -E2BIG;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	buf[count] = '\0';
	if (count && buf[count - 1] == '\n')
		buf[--count] = '\0';
	for (i = 0; i < count; i++)
		if (!isascii(buf[i]) || !isgraph(buf[i]))
			return -EINVAL;
	return count;
}

/* A write of exactly "0" or "1" (newline allowed): 0 or 1, else -errno. */
static int get_bool(const char __user *ubuf, size_t count)
{
	char buf[4];
	ssize_t len = get_word(ubuf, count, buf, sizeof(buf));

	if (len < 0)
		return len;
	if (len != 1 || (buf[0] != '0' && buf[0] != '1'))
		return -EINVAL;
	return buf[0] - '0';
}

static ssize_t enabled_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	char buf[2] = { dma_owner_is_enabled() ? '1' : '0', '\n' };

	return simple_read_from_buffer(ubuf, count, ppos, buf, sizeof(buf));
}

static ssize_t enabled_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	int on = get_bool(ubuf, count);
	int ret;

	if (on < 0)
		return on;
	ret = dma_owner_set_enabled(on);
	return ret ?: count;
}

static const struct file_operations enabled_fops = {
	.read = enabled_read,
	.write = enabled_write,
	.llseek = default_llseek,
};

static ssize_t clear_write(struct file *file, const char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	int one = get_bool(ubuf, count);
	int ret;

	if (one < 0)
		return one;
	if (one != 1)
		return -EINVAL;
	ret = dma_owner_log_clear();
	if (ret)
		return ret;
	dma_owner_clear_counters();
	return count;
}

static const struct file_operations clear_fops = {
	.write = clear_write,
	.llseek = noop_llseek,
};

static ssize_t filter_read(struct file *file, char __user *ubuf,
			   size_t count, loff_t *ppos)
{
	char buf[FILTER_MAX + 1];
	size_t len;

	dma_owner_get_filter(buf, FILTER_MAX);
	len = strlen(buf);
	buf[len++] = '\n';
	return simple_read_from_buffer(ubuf, count, ppos, buf, len);
}

static ssize_t filter_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	char buf[FILTER_MAX];
	ssize_t len = get_word(ubuf, count, buf, sizeof(buf));
	int ret;

	if (len < 0)
		return len;
	ret = dma_owner_set_filter(buf);
	return ret ?: count;
}

static const struct file_operations filter_fops = {
	.read = filter_read,
	.write = filter_write,
	.llseek = default_llseek,
};

/* ignore: at most DMA_OWNER_IGNORE_MAX rules of some 100 characters */
#define IGNORE_WRITE_MAX	4096

static int ignore_show(struct seq_file *m, void *v)
{
	dma_owner_ignore_show(m, "");
	return 0;
}

static int ignore_open(struct inode *inode, struct file *file)
{
	return single_open(file, ignore_show, NULL);
}

static ssize_t ignore_write(struct file *file, const char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	char *buf;
	size_t i;
	int ret;

	if (count >= IGNORE_WRITE_MAX)
		return -E2BIG;
	buf = memdup_user_nul(ubuf, count);
	if (IS_ERR(buf))
		return PTR_ERR(buf);
	for (i = 0; i < count; i++)
		if (!isascii(buf[i]) || !(isgraph(buf[i]) || isspace(buf[i]))) {
			kfree(buf);
			return -EINVAL;
		}
	ret = dma_owner_ignore_update(buf);
	kfree(buf);
	return ret ?: count;
}

static const struct file_operations ignore_fops = {
	.open = ignore_open,
	.read = seq_read,
	.write = ignore_write,
	.llseek = seq_lseek,
	.release = single_release,
};

static int stats_show(struct seq_file *m, void *v)
{
	struct dma_owner_stats *s = &dma_owner_stats;
	struct dma_owner_op_counts ops;
	int kind, op;

	dma_owner_op_counts(&ops);
	seq_printf(m, "enabled: %d\n", dma_owner_is_enabled());
	for (op = 0; op < DMA_OWNER_NR_OPS; op++)
		seq_printf(m, "%s: %lu\n", dma_owner_op_counter_names[op], ops.n[op]);
	seq_printf(m, "syncs_walked: %lu\n", ops.syncs_walked);
	seq_printf(m, "unmaps_walked: %lu\n", ops.unmaps_walked);
	seq_printf(m, "live: %ld\n", atomic_long_read(&s->live));
	seq_printf(m, "peak_live: %ld\n", atomic_long_read(&s->peak_live));
	seq_printf(m, "untracked: %ld\n", atomic_long_read(&s->untracked));
	seq_printf(m, "violations: %ld\n", atomic_long_read(&s->violations));
	for (kind = 0; kind < DMA_OWNER_NR_KINDS; kind++)
		seq_printf(m, "violation.%s: %ld\n", dma_owner_kind_names[kind],
			   atomic_long_read(&s->violation[kind]));
	seq_printf(m, "ignored: %ld\n", atomic_long_read(&s->ignored));
	/* Devices whose unknown handles go unreported, and why. */
	dma_owner_show_incomplete(m);
	dma_owner_ignore_show(m, "ignore: ");
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

/* mappings: one seq_file record per non-empty hash bucket. */
#define COPY_MAX 16

static void *mappings_start(struct seq_file *m, loff_t *pos)
{
	unsigned long i;

	if (*pos == 0)
		return SEQ_START_TOKEN;
	i = dma_owner_next_bucket(*pos - 1);
	if (i >= dma_owner_nr_buckets())
		return NULL;
	*pos = i + 1;
	return pos;
}

static void *mappings_next(struct seq_file *m, void *v, loff_t *pos)
{
	unsigned long i = dma_owner_next_bucket(*pos);

	if (i >= dma_owner_nr_buckets()) {
		*pos = dma_owner_nr_buckets() + 1;
		return NULL;
	}
	*pos = i + 1;
	return pos;
}

static void mappings_stop(struct seq_file *m, void *v)
{
}

static int mappings_show(struct seq_file *m, void *v)
{
	struct dma_owner_mapping *buf = m->private;
	unsigned int n, i, skip = 0;
	u32 now = jiffies;
	char owner[40];

	if (v == SEQ_START_TOKEN) {
		seq_puts(m, "device driver handle size dir owner age_ms syncs_for_cpu syncs_for_device map_site\n");
		return 0;
	}
	do {
		n = dma_owner_copy_bucket(*(loff_t *)v - 1, skip, buf, COPY_MAX);
		for (i = 0; i < n; i++) {
			struct dma_owner_entry *e = &buf[i].e;
			void *site = (void *)dma_owner_map_caller(e);

			seq_printf(m, "%s %s %pad %u %s %s %u %u %u %pS\n",
				   buf[i].dev, buf[i].drv,
				   &e->handle, (u32)e->size,
				   dma_owner_dir_name(e->dir),
				   dma_owner_owner_string(e, owner, sizeof(owner)),
				   jiffies_to_msecs(now - e->map_jiffies),
				   e->syncs_for_cpu, e->syncs_for_device, site);
		}
		skip += n;
	} while (n == COPY_MAX);
	return 0;
}

static const struct seq_operations mappings_sops = {
	.start = mappings_start,
	.next = mappings_next,
	.stop = mappings_stop,
	.show = mappings_show,
};

static int mappings_open(struct inode *inode, struct file *file)
{
	struct dma_owner_mapping *buf = kcalloc(COPY_MAX, sizeof(*buf), GFP_KERNEL);
	int ret;

	if (!buf)
		return -ENOMEM;
	ret = seq_open(file, &mappings_sops);
	if (ret) {
		kfree(buf);
		return ret;
	}
	((struct seq_file *)file->private_data)->private = buf;
	return 0;
}

static int mappings_release(struct inode *inode, struct file *file)
{
	kfree(((struct seq_file *)file->private_data)->private);
	return seq_release(inode, file);
}

static const struct file_operations mappings_fops = {
	.open = mappings_open,
	.read = seq_read,
	.llseek = seq_lseek,
	.release = mappings_release,
};

/* violations: one seq_file record per logged report, oldest first. */
static void *violations_start(struct seq_file *m, loff_t *pos)
{
	return *pos < dma_owner_log_count() ? pos : NULL;
}

static void *violations_next(struct seq_file *m, void *v, loff_t *pos)
{
	++*pos;
	return violations_start(m, pos);
}

static void violations_stop(struct seq_file *m, void *v)
{
}

static int violations_show(struct seq_file *m, void *v)
{
	int ret = dma_owner_log_show(m, *(loff_t *)v);

	/* Overwritten since start(): nothing to print for it. */
	return ret == -ENOENT ? SEQ_SKIP : ret;
}

static const struct seq_operations violations_sops = {
	.start = violations_start,
	.next = violations_next,
	.stop = violations_stop,
	.show = violations_show,
};
DEFINE_SEQ_ATTRIBUTE(violations);

static int __init dma_owner_debugfs_init(void)
{
	struct dentry *dir = debugfs_create_dir("dma-owner", NULL);

	debugfs_create_file("enabled", 0600, dir, NULL, &enabled_fops);
	debugfs_create_file("mappings", 0400, dir, NULL, &mappings_fops);
	debugfs_create_file("violations", 0400, dir, NULL, &violations_fops);
	debugfs_create_file("stats", 0400, dir, NULL, &stats_fops);
	debugfs_create_file("filter", 0600, dir, NULL, &filter_fops);
	debugfs_create_file("clear", 0200, dir, NULL, &clear_fops);
	debugfs_create_file("ignore", 0600, dir, NULL, &ignore_fops);
	return 0;
}
late_initcall(dma_owner_debugfs_init);
