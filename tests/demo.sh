#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# "make run": boot the tracker kernel with a real NIC, an nvme disk and
# QEMU's edu device, push verified traffic through the real drivers, run the
# test module's correct and broken scenarios, and show what the tracker saw:
# a report, its debugfs files and a trace.
. "$(dirname "$0")/lib-test.sh"

serve_blob 2M

cat >"$T/demo.sh" <<S
. /usr/share/dma-owner/traffic.sh
say() { printf '\n\033[1m== %s\033[0m\n' "\$*"; }
say "kernel \$(uname -r); the tracker at boot:"
dmesg | grep 'dma-owner' | sed 's/^\[[^]]*\] /  /'
say "real drivers, real traffic: e1000 fetches 3 x 2 MiB from the host, nvme writes and reads back 4 MiB"
net_up && fetch 3 http://10.0.2.2:$HTTP_PORT/blob $md5
disk_rw /dev/nvme0n1 4
say "every map, sync and unmap was checked; nothing reported (\$D/stats):"
sed 's/^/  /' \$D/stats | head -9
say "live mappings right now (\$D/mappings, first lines):"
head -5 \$D/mappings | cut -c1-150 | sed 's/^/  /'
modprobe test_dma_owner
echo all >/sys/module/dma_owner/parameters/report
say "test_dma_owner: correct use stays silent"
for s in cycle_single partial_sync copybreak skip_cpu_sync_recycle cycle_sg; do
	echo \$s >\$R && echo "  \$s: ok, violations still \$(sed -n 's/^violations: //p' \$D/stats)"
done
say "test_dma_owner: a driver that forgets dma_sync_single_for_device(); the report in dmesg:"
dmesg -c >/dev/null
cd /tmp && trace-cmd record -q -e dma_owner -o demo.dat sh -c "echo missing_sync_single >\$R" >/dev/null
dmesg | sed -n '/dma-owner: =====/,/cut here/p' | sed 's/^\[[^]]*\] /  /' | grep -v 'cut here'
say "the same in \$D/violations:"
sed 's/^/  /' \$D/violations | head -8
say "and as a trace (trace-cmd record -e dma_owner; trace-cmd report):"
trace-cmd report -i demo.dat 2>/dev/null | grep dma_owner_ | sed 's/^ *//' | cut -c1-190 | sed 's/^/  /'
say "one misuse of each kind:"
for s in redundant_sync_single unknown_handle_single use_after_unmap_single out_of_range_single dir_mismatch_single size_mismatch_single leak; do
	echo \$s >\$R
done
grep '^violation\.' \$D/stats | sed 's/^/  /'
say "dmaown status: the tracker summed up (tools/dmaown; exit 1: violations found)"
dmaown status | sed 's/^/  /'
say "dmaown record, then dmaown timeline: one buffer's life, who owned it after each call"
dmaown record -o /tmp/own.dat -- sh -c "echo missing_sync_single >\$R" 2>/dev/null
dmaown timeline /tmp/own.dat --handle \$(sed -n 's/^handle //p' /sys/kernel/debug/test_dma_owner/result) |
	sed 's/^/  /'
S
echo "dma-owner: booting the guest (QEMU, $(cat "$CACHE/kvm.probe.$(cat /proc/sys/kernel/random/boot_id)" 2>/dev/null || echo tcg))..."
QEMU_ARGS="-device edu $QEMU_ARGS" "$VM" --nic e1000 --nvme 64M \
	--allow-warn "$REPORT_WARN|$DMA_DEBUG_WARN" "$T/demo.sh"
rc=$?
echo
if [ $rc = 0 ]; then
	echo "dma-owner: demo done. 'make check' runs the whole suite;"
	echo "'make vm-run SCRIPT=your.sh VM_FILES=dir' runs your own driver under the tracker;"
	echo "Documentation/dma-owner.rst explains every report; tools/dmaown/README.md the tool."
else
	echo "dma-owner: the demo guest failed (status $rc), see above."
fi
exit $rc
