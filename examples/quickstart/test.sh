#!/bin/sh
# Runs as root in the guest, in /vm/files (the VM_FILES directory).
insmod ./mydma.ko || exit 1
ls /sys/bus/pci/drivers/mydma | grep -q : ||
	{ echo "mydma bound no device: is QEMU_ARGS=\"-device edu\" set?"; exit 1; }
dmaown violations	# the reports, grouped by call site
dmaown status		# the exit status: 0 clean, 1 violations, 2 error
