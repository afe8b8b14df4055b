#!/bin/sh
# Runs as root in the guest, in /vm/files (the VM_FILES directory).
insmod ./mydma.ko || exit 1
dmaown violations	# the reports, grouped by call site
dmaown status		# the exit status: 0 clean, 1 violations, 2 error
