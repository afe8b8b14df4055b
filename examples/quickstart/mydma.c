// SPDX-License-Identifier: GPL-2.0
/*
 * mydma: a driver that breaks the streaming DMA API's ownership rules, for
 * the dma-owner quick start. It binds QEMU's "edu" PCI device (-device edu),
 * maps a receive buffer for the device to write, and polls it twice. Each
 * poll takes the buffer for the CPU with dma_sync_single_for_cpu() and reads
 * the packet, but never gives it back with dma_sync_single_for_device().
 *
 * On x86 nothing shows. On a machine whose caches are not coherent with DMA,
 * or with bounce buffers (swiotlb=force), the second poll can read the
 * first packet again, or the device's write can be lost to a dirty cache
 * line. CONFIG_DMA_OWNER_DEBUG reports it on any machine, at the second
 * poll: missing-sync-for-device.
 */
#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/pci.h>
#include <linux/slab.h>

#define RX_SIZE 2048

/* noinline: a real driver's poll is a callback, and reports name it. */
static noinline void mydma_rx_poll(struct device *dev, dma_addr_t dma,
				   const u8 *buf)
{
	dma_sync_single_for_cpu(dev, dma, RX_SIZE, DMA_FROM_DEVICE);
	dev_info(dev, "packet starts %*ph\n", 4, buf);
	/* The fix: dma_sync_single_for_device(dev, dma, RX_SIZE, DMA_FROM_DEVICE); */
}

static int mydma_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct device *dev = &pdev->dev;
	dma_addr_t dma;
	u8 *buf;
	int ret;

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;
	pci_set_master(pdev);
	ret = dma_set_mask_and_coherent(dev, DMA_BIT_MASK(32));
	if (ret)
		return dev_err_probe(dev, ret, "no usable DMA mask\n");
	buf = devm_kzalloc(dev, RX_SIZE, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	dma = dma_map_single(dev, buf, RX_SIZE, DMA_FROM_DEVICE);
	if (dma_mapping_error(dev, dma))
		return -ENOMEM;

	mydma_rx_poll(dev, dma, buf);	/* fine: the device owned it */
	mydma_rx_poll(dev, dma, buf);	/* the CPU still owns it: reported */

	dma_unmap_single(dev, dma, RX_SIZE, DMA_FROM_DEVICE);
	return 0;
}

static const struct pci_device_id mydma_ids[] = {
	{ PCI_DEVICE(0x1234, 0x11e8) },	/* QEMU edu */
	{ }
};
MODULE_DEVICE_TABLE(pci, mydma_ids);

static struct pci_driver mydma_driver = {
	.name = "mydma",
	.id_table = mydma_ids,
	.probe = mydma_probe,
};
module_pci_driver(mydma_driver);

MODULE_DESCRIPTION("dma-owner quick start: a missing dma_sync_single_for_device()");
MODULE_LICENSE("GPL");
