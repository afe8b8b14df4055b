#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Real, unmodified drivers with real traffic under the tracker: e1000,
# e1000e and virtio-net fetching files from a server on the host, nvme, ahci
# and virtio-blk writing and reading back disk contents, on dma-direct,
# swiotlb=force and intel-iommu. The tracker must see the traffic, and the
# run must stay free of reports, lockdep, KASAN and WARNs: any report on
# these drivers is either a documented driver bug or a tracker bug to fix.
. "$(dirname "$0")/../lib-test.sh"

mkdir "$T/www"
head -c 4M /dev/urandom >"$T/www/blob"
md5=$(md5sum <"$T/www/blob" | cut -d' ' -f1)
start_http "$T/www"

scenario() {
	local name=$1 disk=$2
	shift 2
	cat >"$T/$name.sh" <<S
. /usr/share/dma-owner/traffic.sh
net_up || exit 10
fetch 3 http://10.0.2.2:$HTTP_PORT/blob $md5 || exit 11
disk_rw $disk 8 || exit 12
cat /sys/kernel/debug/dma-owner/stats
S
	vm "$T/$name.out" --timeout 900 "$@" "$T/$name.sh"
	check "$name: traffic verified, no report, no splat" \
		"rc=$rc: $(tail -2 "$T/$name.out") $(head -2 "$T/$name.out.err")" [ $rc = 0 ]
	local maps syncs
	maps=$(stat "$T/$name.out" maps)
	syncs=$(stat "$T/$name.out" syncs_for_cpu)
	echo "# $name: maps ${maps:-?}, syncs_for_cpu ${syncs:-?}, untracked $(stat "$T/$name.out" untracked)"
	check "$name: the tracker saw the traffic" "maps=${maps:-none}" [ "${maps:-0}" -gt 3000 ]
	check "$name: violations 0" "violations=$(stat "$T/$name.out" violations)" \
		[ "$(stat "$T/$name.out" violations)" = 0 ]
}

scenario e1000+nvme /dev/nvme0n1 --nic e1000 --nvme 64M
scenario e1000e+ahci /dev/sda --nic e1000e --ahci 64M
scenario virtio+iommu /dev/vda --iommu --nic virtio-net-pci --virtio-blk 64M
KERNEL_ARGS=swiotlb=force scenario e1000+nvme+swiotlb /dev/nvme0n1 --nic e1000 --nvme 64M
scenario nvme+iommu /dev/nvme0n1 --iommu --nic e1000 --nvme 64M

# Switching tracking off and on while traffic is in flight reports nothing.
cat >"$T/toggle.sh" <<S
. /usr/share/dma-owner/traffic.sh
net_up || exit 10
( for i in \$(seq 40); do echo 0 >/sys/kernel/debug/dma-owner/enabled; sleep 0.05
  echo 1 >/sys/kernel/debug/dma-owner/enabled; sleep 0.1; done ) &
fetch 3 http://10.0.2.2:$HTTP_PORT/blob $md5 || exit 11
disk_rw /dev/nvme0n1 8 || exit 12
wait
cat /sys/kernel/debug/dma-owner/stats
S
vm "$T/toggle.out" --timeout 900 --nic e1000 --nvme 64M "$T/toggle.sh"
check "toggle: on/off under traffic, no report, no splat" \
	"rc=$rc: $(tail -2 "$T/toggle.out") $(head -2 "$T/toggle.out.err")" [ $rc = 0 ]
check "toggle: violations 0" "violations=$(stat "$T/toggle.out" violations)" \
	[ "$(stat "$T/toggle.out" violations)" = 0 ]
