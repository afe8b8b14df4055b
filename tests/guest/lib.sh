# SPDX-License-Identifier: GPL-2.0
# The guest scripts' library: the tracker's and the test module's files,
# and how to read them. Source it (traffic.sh does).

D=/sys/kernel/debug/dma-owner
R=/sys/kernel/debug/test_dma_owner/run

# stat KEY: KEY's value in the tracker's stats file.
stat() { sed -n "s/^$1: //p" $D/stats; }

# test_device: the PCI device test_dma_owner is bound to (QEMU's edu).
test_device() { basename "$(readlink /sys/bus/pci/drivers/test_dma_owner/0000:*)"; }
