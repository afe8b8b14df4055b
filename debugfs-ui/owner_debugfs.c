// SPDX-License-Identifier: GPL-2.0
/*
 * DMA ownership tracker: /sys/kernel/debug/dma-owner/.
 *
 *   enabled	rw: 1 tracking, 0 not; writes anything else: -EINVAL
 *   stats	"key: value" lines, one per counter, for scripts to grep
 */

#include <linux/debugfs.h>
#include <linux/init.h>
#include <linux/kstrtox.h>
#include <linux/seq_file.h>
#include <linux/uaccess.h>

#include "owner.h"

static struct dentry *dma_owner_dir;

static ssize_t enabled_read(struct file *file, char __user *ubuf,
			    size_t count, loff_t *ppos)
{
	char buf[3];

	buf[0] = dma_owner_is_enabled() ? '1' : '0';
	buf[1] = '\n';
	return simple_read_from_buffer(ubuf, count, ppos, buf, 2);
}

static ssize_t enabled_write(struct file *file, const char __user *ubuf,
			     size_t count, loff_t *ppos)
{
	char buf[4] = {};
	int ret;

	/* "0" or "1", with or without a newline: nothing else. */
	if (count == 0 || count > 2)
		return -EINVAL;
	if (copy_from_user(buf, ubuf, count))
		return -EFAULT;
	if (count == 2 && buf[1] != '\n')
		return -EINVAL;
	if (buf[0] != '0' && buf[0] != '1')
		return -EINVAL;
	ret = dma_owner_set_enabled(buf[0] == '1');
	return ret ?: count;
}

static const struct file_operations enabled_fops = {
	.read = enabled_read,
	.write = enabled_write,
	.llseek = default_llseek,
};

static int stats_show(struct seq_file *m, void *v)
{
	struct dma_owner_stats *s = &dma_owner_stats;
	int kind;

	seq_printf(m, "enabled: %d\n", dma_owner_is_enabled());
	seq_printf(m, "maps: %ld\n", atomic_long_read(&s->maps));
	seq_printf(m, "unmaps: %ld\n", atomic_long_read(&s->unmaps));
	seq_printf(m, "syncs_for_cpu: %ld\n", atomic_long_read(&s->syncs_for_cpu));
	seq_printf(m, "syncs_for_device: %ld\n", atomic_long_read(&s->syncs_for_device));
	seq_printf(m, "live: %ld\n", atomic_long_read(&s->live));
	seq_printf(m, "peak_live: %ld\n", atomic_long_read(&s->peak_live));
	seq_printf(m, "untracked: %ld\n", atomic_long_read(&s->untracked));
	seq_printf(m, "violations: %ld\n", atomic_long_read(&s->violations));
	for (kind = 0; kind < DMA_OWNER_NR_KINDS; kind++)
		seq_printf(m, "violation.%s: %ld\n", dma_owner_kind_names[kind],
			   atomic_long_read(&s->violation[kind]));
	return 0;
}
DEFINE_SHOW_ATTRIBUTE(stats);

static int __init dma_owner_debugfs_init(void)
{
	dma_owner_dir = debugfs_create_dir("dma-owner", NULL);
	debugfs_create_file("enabled", 0600, dma_owner_dir, NULL, &enabled_fops);
	debugfs_create_file("stats", 0400, dma_owner_dir, NULL, &stats_fops);
	return 0;
}
late_initcall(dma_owner_debugfs_init);
