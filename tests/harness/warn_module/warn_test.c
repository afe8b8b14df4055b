// SPDX-License-Identifier: GPL-2.0
/*
 * An out-of-tree module for the harness self-test: proves that modules build
 * against "make -s kdir" and load in the guest, and, with warn=1, gives the
 * runner a WARN it must treat as a failure.
 */
#include <linux/module.h>
#include <linux/bug.h>

static bool warn;
module_param(warn, bool, 0444);
MODULE_PARM_DESC(warn, "WARN once at load time");

static int __init warn_test_init(void)
{
	pr_info("warn_test: loaded\n");
	WARN(warn, "warn_test: deliberate warning\n");
	return 0;
}
module_init(warn_test_init);

static void __exit warn_test_exit(void)
{
}
module_exit(warn_test_exit);

MODULE_DESCRIPTION("dma-owner harness self-test module");
MODULE_LICENSE("GPL");
