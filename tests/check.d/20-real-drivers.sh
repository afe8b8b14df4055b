#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Real, unmodified drivers with real traffic under the tracker: e1000,
# e1000e and virtio-net fetching files and making short connections to a
# server on the host, nvme, ahci and virtio-blk writing and reading back
# disk contents, on dma-direct, swiotlb=force and intel-iommu. The tracker
# must see the traffic, and the run must stay free of lockdep, KASAN and
# WARNs. Any report on these drivers is either a documented driver bug or a
# tracker bug to fix. One is documented: e1000's rx copybreak reposts a
# buffer it synced for the CPU without syncing it back for the device
# (Documentation/dma-owner.rst, "Findings"). On e1000 the reports must be
# exactly that finding and nothing else; on the other drivers, none.
. "$(dirname "$0")/../lib-test.sh"

mkdir "$T/www"
head -c 8M /dev/urandom >"$T/www/blob"
echo small >"$T/www/small"
md5=$(md5sum <"$T/www/blob" | cut -d' ' -f1)
start_http "$T/www"

scenario() {
	local name=$1 disk=$2 finding=
	shift 2
	case "$*" in *"--nic e1000 "*|*"--nic e1000") finding=$E1000_FINDING ;; esac
	cat >"$T/$name.sh" <<S
. /usr/share/dma-owner/traffic.sh
net_up || exit 10
# large packets: 4 x 8 MiB down; small ones: 200 short connections
fetch 4 http://10.0.2.2:$HTTP_PORT/blob $md5 || exit 11
i=0
while [ \$i -lt 200 ]; do
	[ "\$(wget -q -O - http://10.0.2.2:$HTTP_PORT/small)" = small ] || exit 13
	i=\$((i + 1))
done
disk_rw $disk 8 || exit 12
echo "packets \$((\$(cat /sys/class/net/eth0/statistics/rx_packets) + \$(cat /sys/class/net/eth0/statistics/tx_packets)))"
report_sites
cat /sys/kernel/debug/dma-owner/stats
S
	if [ -n "$finding" ]; then
		vm "$T/$name.out" --timeout 900 --allow-warn 'at kernel/dma/owner_report\.c' "$@" "$T/$name.sh"
		check "$name: traffic verified, no splat" \
			"rc=$rc: $(tail -2 "$T/$name.out") $(head -2 "$T/$name.out.err")" [ $rc = 0 ]
	else
		vm "$T/$name.out" --timeout 900 "$@" "$T/$name.sh"
		check "$name: traffic verified, no report, no splat" \
			"rc=$rc: $(tail -2 "$T/$name.out") $(head -2 "$T/$name.out.err")" [ $rc = 0 ]
	fi
	local maps syncs
	maps=$(stat "$T/$name.out" maps)
	syncs=$(stat "$T/$name.out" syncs_for_cpu)
	echo "# $name: maps ${maps:-?}, syncs_for_cpu ${syncs:-?}, untracked $(stat "$T/$name.out" untracked)"
	local packets
	packets=$(tr -d '\r' <"$T/$name.out" | sed -n 's/^packets //p')
	echo "# $name: ${packets:-?} packets through the NIC"
	check "$name: tens of thousands of packets, small and large" "packets=${packets:-none}" \
		[ "${packets:-0}" -gt 20000 ]
	check "$name: the tracker saw the traffic" "maps=${maps:-none}" [ "${maps:-0}" -gt 10000 ]
	check_reports "$name" "$T/$name.out" "$finding"
}

scenario e1000+nvme /dev/nvme0n1 --nic e1000 --nvme 64M
scenario e1000e+ahci /dev/sda --nic e1000e --ahci 64M
scenario virtio+iommu /dev/vda --iommu --nic virtio-net-pci --virtio-blk 64M
KERNEL_ARGS=swiotlb=force scenario e1000+nvme+swiotlb /dev/nvme0n1 --nic e1000 --nvme 64M
scenario nvme+iommu /dev/nvme0n1 --iommu --nic e1000 --nvme 64M

# Switching tracking off and on, and changing the filter, while traffic is
# in flight reports nothing: the tracker forgets what it flushed before it
# could take a later unmap for an unknown handle.
cat >"$T/toggle.sh" <<S
. /usr/share/dma-owner/traffic.sh
net_up || exit 10
D=/sys/kernel/debug/dma-owner
( for i in \$(seq 40); do echo 0 >\$D/enabled; sleep 0.05
  echo 1 >\$D/enabled; sleep 0.05
  echo nvme >\$D/filter; sleep 0.05; echo >\$D/filter; sleep 0.05; done ) &
fetch 4 http://10.0.2.2:$HTTP_PORT/blob $md5 || exit 11
disk_rw /dev/nvme0n1 8 || exit 12
wait
report_sites
cat /sys/kernel/debug/dma-owner/stats
S
vm "$T/toggle.out" --timeout 900 --allow-warn 'at kernel/dma/owner_report\.c' --nic e1000 --nvme 64M "$T/toggle.sh"
check "toggle: on/off under traffic, no splat" \
	"rc=$rc: $(tail -2 "$T/toggle.out") $(head -2 "$T/toggle.out.err")" [ $rc = 0 ]
check_reports toggle "$T/toggle.out" "$E1000_FINDING"
