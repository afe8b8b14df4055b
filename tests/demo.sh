#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# "make run": boot the tracker kernel with a real NIC and an nvme disk, push
# traffic through them, and show what the tracker saw.
. "$(dirname "$0")/lib-test.sh"

mkdir "$T/www"
head -c 2M /dev/urandom >"$T/www/blob"
md5=$(md5sum <"$T/www/blob" | cut -d' ' -f1)
start_http "$T/www"

cat >"$T/demo.sh" <<S
. /usr/share/dma-owner/traffic.sh
say() { printf '\n\033[1m== %s\033[0m\n' "\$*"; }
say "kernel \$(uname -r), tracker: dmesg says"
dmesg | grep 'dma-owner' | sed 's/^\[[^]]*\] /  /'
say "real traffic: e1000 fetching from the host, nvme writing and reading back"
net_up && fetch 3 http://10.0.2.2:$HTTP_PORT/blob $md5
disk_rw /dev/nvme0n1 4
say "/sys/kernel/debug/dma-owner/stats: every map, sync and unmap was checked"
sed 's/^/  /' /sys/kernel/debug/dma-owner/stats
say "the KUnit suite: every transition and every violation kind"
sh /usr/share/dma-owner/kunit.sh | grep -E '^    (not )?ok|^# Totals' | sed 's/^ */  /'
S
echo "dma-owner: booting the guest (QEMU, $(cat "$CACHE/kvm.probe" 2>/dev/null || echo tcg))..."
"$VM" --nic e1000 --nvme 64M "$T/demo.sh"
rc=$?
echo
if [ $rc = 0 ]; then
	echo "dma-owner: demo done. Next: 'make check' runs the whole suite;"
	echo "'make vm-run SCRIPT=your.sh VM_FILES=dir' runs your own driver under the tracker."
else
	echo "dma-owner: the demo guest failed (status $rc), see above."
fi
exit $rc
