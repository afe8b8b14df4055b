#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Real, unmodified drivers with real traffic under the tracker, data
# verified end to end: NICs fetch files and make short connections to a
# server on the host, disks write and read back their contents. One NIC and
# one disk a boot for e1000, e1000e, virtio-net, nvme, ahci and virtio-blk,
# on dma-direct, swiotlb=force and intel-iommu; then fleets of several
# devices a boot, all busy at once: e100, pcnet32, vmxnet3, 8139cp,
# sym53c8xx, megaraid_sas, vmw_pvscsi, virtio-scsi, usb-storage behind xhci
# and ehci, and mmc behind sdhci-pci, on all three DMA paths. Every driver
# runs in both modes a user runs: the default one (no poisoning, no sync
# event traced, so that syncs take the tracker's common path, which the
# stats file's syncs_walked shows they did) and dma_owner.poison=1, where
# the CPU's accesses to bytes a device owns are caught too and every
# event, syncs included, is counted per device. The run must stay free of
# lockdep, KASAN and WARNs. A report on these drivers is
# either a documented driver bug (a finding) or a tracker bug to fix. The
# findings (FINDINGS.md; FINDINGS in
# lib-test.sh): e1000 reposts rx copybreak buffers without syncing them for
# the device, e100 writes receive descriptors the device owns, virtio-net
# and virtio-scsi map a status the device writes in the cache line of a
# header it reads. Their drivers may draw only those reports, the others
# none; e1000's and e100's fixes, built as modules, draw none and move the
# same data (virtio_net cannot load beside its built-in self: its CPU
# hotplug state is a fixed one; test_dma_owner's cache_line_aligned_fields
# maps its fix's layout).
. "$(dirname "$0")/../lib-test.sh"

# MODE (each unit sets it): default, as most kernels will run: no poison,
# and no sync event traced (counts_start nosync); or poison, where KASAN
# catches the CPU at the bytes a device owns, in these drivers and in the
# kernel code they call, and the sync events are counted per device too.
mode_setup() {
	case "$MODE" in
	default) VM_KERNEL_ARGS= COUNTS=nosync WANT_POISON=N ;;
	poison) VM_KERNEL_ARGS=dma_owner.poison=1 COUNTS= WANT_POISON=Y ;;
	*) echo "MODE=$MODE: want default or poison" >&2; exit 2 ;;
	esac
}

# judge_mode NAME OUT: the boot ran in its mode, and its counts are whole.
# Default: the common paths judged the calls (stats, since counts_start:
# syncs_for_cpu + syncs_for_device - syncs_walked, unmaps - unmaps_walked).
# Poison: the sync events were counted, every sync of the run among them.
judge_mode() {
	local name=$1 out=$2 syncs walked fast hist dropped reports counted unmaps uwalked
	check "$name: the run was in $MODE mode (dma_owner.poison=$WANT_POISON)" \
		"$(grep -m1 '^poison' "$out")" grep -q "^poison $WANT_POISON" "$out"
	base() { tr -d '\r' <"$out" | awk -v k="$1" '$1 == "count_base" && $2 == k { print $3 }'; }
	delta() { echo $(( $(stat "$out" "$1") - $(base "$1") )); }
	syncs=$(( $(delta syncs_for_cpu) + $(delta syncs_for_device) ))
	walked=$(delta syncs_walked)
	fast=$((syncs - walked))
	unmaps=$(delta unmaps)
	uwalked=$(delta unmaps_walked)
	dropped=$(tr -d '\r' <"$out" | awk '$1 == "count_dropped" { n += $3 } END { print n + 0 }')
	check "$name: the kernel's counts are whole (no hist entry dropped)" \
		"dropped=$dropped: $(grep count_dropped "$out" | tr '\n' ' ')" \
		sh -c "[ '$dropped' = 0 ] && grep -q '^count_dropped map ' '$out'"
	# The reports the run made (stats) are all in the counts that judge
	# them: a hist trigger lost, or a count line not read, passes nothing.
	# (Calls go on while the hists are read: a count lies between the
	# counters read just before them, count_pre, and those read after.)
	pre() { echo $(( $(tr -d '\r' <"$out" | awk -v k="$1" '$1 == "count_pre" && $2 == k { print $3 }') - $(base "$1") )); }
	reports=$(delta violations)
	counted=$(tr -d '\r' <"$out" | awk '$1 == "count" && $2 == "violation" { n += $6 } END { print n + 0 }')
	check "$name: every report of the run is in the counts" \
		"violations=$(pre violations)..$reports counted=$counted" \
		sh -c "[ $(pre violations) -le $counted ] && [ $counted -le $reports ]"
	if [ "$MODE" = default ]; then
		# A call that draws a report takes the walk (e100's finding:
		# nearly every sync it makes for the device): most of the others
		# must have taken the common path. Not every driver syncs.
		echo "# $name: default mode: $syncs syncs, $fast on the common path;" \
			"$unmaps unmaps, $((unmaps - uwalked)) on the common path; $reports reports"
		check "$name: default mode: most unmaps, and most syncs that broke no rule, on the common path" \
			"syncs=$syncs walked=$walked unmaps=$unmaps walked=$uwalked reports=$reports" \
			sh -c "[ $unmaps -ge 1000 ] && [ $(((unmaps - uwalked) * 2)) -ge $unmaps ] &&
				[ $((fast * 2)) -ge $((syncs - reports)) ]"
		# The kernel's own word: an event traced by a trigger or enabled
		# reads "0*" or "1" (either would send syncs down the walk).
		check "$name: default mode: neither sync event was traced" \
			"$(grep -m1 '^sync_events' "$out")" grep -qx 'sync_events 00' <(tr -d '\r' <"$out")
	else
		hist=$(tr -d '\r' <"$out" | awk '$1 == "count" && ($2 == "sync_for_cpu" ||
			$2 == "sync_for_device") { n += $4 } END { print n + 0 }')
		echo "# $name: poison mode: $syncs syncs, $hist counted by device, $walked walked"
		local pre_syncs=$(( $(pre syncs_for_cpu) + $(pre syncs_for_device) ))
		check "$name: poison mode: every sync counted by device, and walked" \
			"syncs=$pre_syncs..$syncs counted=$hist walked=$walked" \
			sh -c "[ $pre_syncs -le $hist ] && [ $hist -le $syncs ] && [ $walked -ge $syncs ]"
	fi
}

mkdir "$T/www"
echo small >"$T/www/small"
serve_blob 8M

scenario() {
	local name=$1 disk=$2
	shift 2
	only "$name" || return 0
	mode_setup
	cat >"$T/$name.sh" <<S
. /usr/share/dma-owner/traffic.sh
counts_start device $COUNTS || exit 9
net_up || exit 10
# large packets: 2 x 8 MiB down; small ones: 200 short connections
fetch 2 http://10.0.2.2:$HTTP_PORT/blob $md5 || exit 11
connections 200 http://10.0.2.2:$HTTP_PORT/small || exit 13
disk_rw $disk 8 || exit 12
# swiotlb is freed at boot, with its debugfs, when nothing needs it.
echo "dma_path iommu_group=\$([ -e /sys/bus/pci/devices/\$(pci_of /sys/class/net/eth0/device)/iommu_group ] &&
	echo yes || echo no)" \
	"swiotlb_hiwater=\$(cat /sys/kernel/debug/swiotlb/io_tlb_used_hiwater 2>/dev/null || echo 0)"
echo "nic_device \$(pci_of /sys/class/net/eth0/device)"
echo "disk_device \$(pci_of /sys/block/${disk#/dev/}/device)"
counts
echo "poison \$(cat /sys/module/dma_owner/parameters/poison)"
E=/sys/kernel/tracing/events/dma_owner
echo "sync_events \$(cat \$E/dma_owner_sync_for_cpu/enable)\$(cat \$E/dma_owner_sync_for_device/enable)"
echo "packets \$((\$(cat /sys/class/net/eth0/statistics/rx_packets) + \$(cat /sys/class/net/eth0/statistics/tx_packets)))"
report_sites
cat /sys/kernel/debug/dma-owner/stats
S
	# A report is a WARN: allowed here, and judged below, by the counts.
	vm "$T/$name.out" --timeout 900 --allow-warn "$REPORT_WARN" "$@" "$T/$name.sh"
	check "$name: traffic verified, no splat" \
		"rc=$rc: $(tail -2 "$T/$name.out") $(head -2 "$T/$name.out.err")" [ $rc = 0 ]
	judge_mode "$name" "$T/$name.out"
	local maps syncs
	maps=$(stat "$T/$name.out" maps)
	syncs=$(stat "$T/$name.out" syncs_for_cpu)
	echo "# $name: maps ${maps:-?}, syncs_for_cpu ${syncs:-?}"
	local packets
	packets=$(tr -d '\r' <"$T/$name.out" | sed -n 's/^packets //p')
	echo "# $name: ${packets:-?} packets through the NIC"
	check "$name: thousands of packets, small and large" "packets=${packets:-none}" \
		[ "${packets:-0}" -gt 10000 ]
	check "$name: the tracker saw the traffic" "maps=${maps:-none}" [ "${maps:-0}" -gt 10000 ]
	# The DMA path the boot asked for is the one the traffic took.
	local path want=dma-direct
	path=$(tr -d '\r' <"$T/$name.out" | sed -n 's/^dma_path //p')
	case "$* $KERNEL_ARGS" in
	*--iommu*) want=intel-iommu ;;
	*swiotlb=force*) want=swiotlb ;;
	esac
	check "$name: the traffic took $want" "$path" sh -c "case '$want:$path' in
		intel-iommu:'iommu_group=yes '*|swiotlb:'iommu_group=no swiotlb_hiwater='[1-9]*) ;;
		dma-direct:'iommu_group=no swiotlb_hiwater=0') ;; *) exit 1 ;; esac"
	local dev what n
	for what in nic disk; do
		dev=$(tr -d '\r' <"$T/$name.out" | sed -n "s/^${what}_device //p")
		n=$(tr -d '\r' <"$T/$name.out" | awk -v d="${dev:-none}" \
			'$1 == "count" && $2 == "map" && $3 == d { n = $4 } END { print n + 0 }')
		echo "# $name: $what ${dev:-?}: maps $n"
		check "$name: the tracker saw the $what's own maps" "${dev:-no device}: maps=$n" \
			[ "$n" -ge 100 ]
	done
	check "$name: every mapping tracked" "untracked=$(stat "$T/$name.out" untracked)" \
		[ "$(stat "$T/$name.out" untracked)" = 0 ]
	# Every report of the run, counted in the kernel by driver, kind and
	# calling function (the log keeps only the newest), is a finding.
	local bad
	bad=$(unexpected_reports "$T/$name.out")
	check "$name: every report counted is a documented finding" "unexpected: $bad" \
		[ -z "$bad" ]
	check_reports "$name" "$T/$name.out"
}


# fleet NAME NICS DISKS [run-vm options]: several NICs and disk adapters in
# one boot, all moving data at once. NICS lists NIC drivers; DISKS lists the
# drivers of the disks' adapters, as DRIVER or DRIVER:DMA_DRIVER when
# another device makes the DMA calls (usb-storage:xhci_hcd). Each NIC
# fetches 2 x 8 MiB and makes 100 short connections on its own network;
# each disk writes and reads back 8 MiB through the page cache, 4 MiB
# direct and 4 MiB direct 4 KiB at a time. Every driver must move verified
# data, the tracker must see thousands of its maps, and the only reports
# allowed are a driver's documented finding, counted per driver and kind
# in the kernel (the violations log keeps only the newest).
fleet() {
	local name=$1 nics=$2 disks=$3 drv dma n out=$T/$1.out bad
	shift 3
	only "$name" || return 0
	mode_setup
	cat >"$T/$name.sh" <<S
. /usr/share/dma-owner/traffic.sh
counts_start driver $COUNTS || exit 9
for drv in $nics; do
	ifc=\$(nic_of \$drv) || exit 10
	net_up \$ifc || exit 10
done
pids=
for drv in $nics; do
	( ifc=\$(nic_of \$drv); h=\$(nic_host \$ifc)
	  fetch 2 http://\$h:$HTTP_PORT/blob $md5 || exit 1
	  connections 100 http://\$h:$HTTP_PORT/small || exit 2
	  echo "nic \$drv \$ifc packets \$(packets \$ifc) verified" ) &
	pids="\$pids \$!"
done
for drv in $disks; do
	( d=\$(disk_of \${drv%%:*} \${drv#*:}) || exit 1
	  disk_rw \$d 8 && disk_rw \$d 4 direct && disk_rw \$d 4 small &&
	  echo "disk \$drv \$d verified" ) &
	pids="\$pids \$!"
done
rc=0
for p in \$pids; do wait \$p || rc=11; done
counts
echo "poison \$(cat /sys/module/dma_owner/parameters/poison)"
E=/sys/kernel/tracing/events/dma_owner
echo "sync_events \$(cat \$E/dma_owner_sync_for_cpu/enable)\$(cat \$E/dma_owner_sync_for_device/enable)"
report_sites
cat /sys/kernel/debug/dma-owner/stats
exit \$rc
S
	vm "$out" --timeout 1200 --allow-warn "$REPORT_WARN" "$@" "$T/$name.sh"
	check "$name: traffic verified on every device, no splat" \
		"rc=$rc: $(tail -2 "$out") $(head -2 "$out.err")" [ $rc = 0 ]
	count() {	# 0 when the driver drew no such event
		tr -d '\r' <"$out" | awk -v e="$1" -v d="$2" \
			'$1 == "count" && $2 == e && $3 == d { n = $4 } END { print n + 0 }'
	}
	local syncs=
	for drv in $nics $disks; do
		dma=${drv#*:}
		[ -n "$COUNTS" ] || syncs="syncs_for_cpu $(count sync_for_cpu "$dma")
			syncs_for_device $(count sync_for_device "$dma")"
		echo "# $name: $drv: maps $(count map "$dma") unmaps $(count unmap "$dma")" \
			${syncs:+$syncs} \
			"reports $(tr -d '\r' <"$out" | awk -v d="$dma" \
				'$1 == "count" && $2 == "violation" && $3 == d { printf "%s:%s=%s ", $4, $5, $6 }')"
		n=$(count map "$dma")
		check "$name: $drv: the tracker saw thousands of maps" "maps=$n" [ "$n" -ge 1000 ]
	done
	for drv in $nics; do
		n=$(tr -d '\r' <"$out" | awk -v d="$drv" '$1 == "nic" && $2 == d && $6 == "verified" { print $5 }')
		echo "# $name: $drv: ${n:-?} packets"
		check "$name: $drv: thousands of packets, contents verified" "packets=${n:-none}" \
			[ "${n:-0}" -ge 5000 ]
	done
	for drv in $disks; do
		check "$name: $drv: disk contents verified" \
			"$(grep "disk $drv" "$out")" grep -q "^disk $drv .* verified" "$out"
	done
	# Every report, counted in the kernel, is a documented finding of the
	# driver that drew it, at its call site.
	bad=$(unexpected_reports "$out")
	check "$name: no report but the drivers' documented findings" "unexpected: $bad" \
		[ -z "$bad" -a "$(count map "${nics%% *}")" -gt 0 ]
	# (That the counts hold every report is judge_mode's: no hist entry
	# dropped. The counter of violations beside them would prove nothing:
	# it and the event are made side by side in the report path.)
	judge_mode "$name" "$out"
	check_reports "$name" "$out"
}

# The reports of a finding must be gone with its fix, the data intact:
# fixed NAME DRIVER PATCH SUBDIR OBJECTS NIC-MODEL [run-vm options] builds
# the driver in SUBDIR of the kernel tree with Documentation/findings/PATCH
# applied, as a module named DRIVER_fixed (a built-in DRIVER already holds
# its name), unbinds DRIVER from the NIC on the NIC's bus,
# loads the fixed one and runs the traffic that draws the finding unfixed.
fixed() {
	local name=$1 drv=$2 patch=$3 dir=$4 objs=$5 model=$6 m=$T/fixed-$2 kdir
	shift 6
	only "$name" || return 0
	mode_setup
	mkdir -p "$m/$dir" "$T/$name.files"
	cp "$SRC/$dir"/*.[ch] "$m/$dir/"
	(cd "$m" && git apply -p1 "$REPO/Documentation/findings/$patch") ||
		{ not_ok "$name: $patch applies to the 6.12 driver" "git apply failed"; return; }
	sed -i "s/\"$drv\";/\"${drv}_fixed\";/; s/\"$drv\"$/\"${drv}_fixed\"/" "$m/$dir"/*.c
	printf 'obj-m := %s_fixed.o\n%s_fixed-y := %s\n' "$drv" "$drv" "$objs" >"$m/$dir/Kbuild"
	kdir=$(make -s -C "$REPO" kdir)
	timed job "$name-build" 1 30 to "$T/$name.build" make -s -C "$kdir" M="$m/$dir" modules
	cp "$m/$dir/${drv}_fixed.ko" "$T/$name.files/" 2>/dev/null
	check "$name: the fixed driver builds" "$(tail -3 "$T/$name.build.err")" \
		test -f "$T/$name.files/${drv}_fixed.ko"
	cat >"$T/$name.sh" <<S
. /usr/share/dma-owner/traffic.sh
ifc=\$(nic_of $drv) || exit 10
dev=\$(basename \$(readlink /sys/class/net/\$ifc/device))
bus=\$(basename \$(readlink /sys/class/net/\$ifc/device/subsystem))
echo \$dev >/sys/bus/\$bus/drivers/$drv/unbind || exit 10
insmod ${drv}_fixed.ko || exit 10
ifc=\$(nic_of ${drv}_fixed) || exit 10
echo "bound to ${drv}_fixed: \$ifc"
net_up \$ifc || exit 10
fetch 2 http://10.0.2.2:$HTTP_PORT/blob $md5 || exit 11
connections 200 http://10.0.2.2:$HTTP_PORT/small || exit 13
echo "packets \$(packets \$ifc)"
report_sites
cat /sys/kernel/debug/dma-owner/stats
S
	vm "$T/$name.out" --timeout 900 --files "$T/$name.files" --nic "$model" "$@" "$T/$name.sh"
	check "$name: the fixed $drv moves verified data, no report, no splat" \
		"rc=$rc: $(tail -2 "$T/$name.out") $(head -2 "$T/$name.out.err")" [ $rc = 0 ]
	echo "# $name: maps $(stat "$T/$name.out" maps)," \
		"packets $(tr -d '\r' <"$T/$name.out" | sed -n 's/^packets //p')"
	check "$name: the fixed $drv was the one moving it" "$(grep -m1 'bound to' "$T/$name.out")" \
		grep -q "^bound to ${drv}_fixed" "$T/$name.out"
	# Not even the finding, nor before the fixed driver was bound.
	check "$name: no report at all" \
		"violations=$(stat "$T/$name.out" violations): $(tr -d '\r' <"$T/$name.out" | sed -n 's/^site //p' | xargs)" \
		[ "$(stat "$T/$name.out" violations)" = 0 ]
}

# Switching tracking off and on, and changing the filter, while traffic is
# in flight reports nothing: the tracker forgets what it flushed before it
# could take a later unmap for an unknown handle.
toggle() {
	only toggle || return 0
	mode_setup
	cat >"$T/toggle.sh" <<S
. /usr/share/dma-owner/traffic.sh
counts_start driver $COUNTS || exit 9
net_up || exit 10
# On and off alone first, while the devices are complete: a filter change
# (below) makes every device incomplete for good, whatever a switch does.
( for i in \$(seq 20); do echo 0 >\$D/enabled; sleep 0.05
  echo 1 >\$D/enabled; sleep 0.1; done ) &
fetch 2 http://10.0.2.2:$HTTP_PORT/blob $md5 || exit 13
wait
( for i in \$(seq 40); do echo 0 >\$D/enabled; sleep 0.05
  echo 1 >\$D/enabled; sleep 0.05
  echo nvme >\$D/filter; sleep 0.05; echo >\$D/filter; sleep 0.05; done ) &
fetch 4 http://10.0.2.2:$HTTP_PORT/blob $md5 || exit 11
disk_rw /dev/nvme0n1 8 || exit 12
wait
echo "final enabled \$(cat \$D/enabled) filter [\$(cat \$D/filter)]"
counts
report_sites
cat /sys/kernel/debug/dma-owner/stats
S
	vm "$T/toggle.out" --timeout 900 --allow-warn "$REPORT_WARN" --nic e1000 --nvme 64M "$T/toggle.sh"
	check "toggle: on/off under traffic, no splat" \
		"rc=$rc: $(tail -2 "$T/toggle.out") $(head -2 "$T/toggle.out.err")" [ $rc = 0 ]
	# Judged by the kernel's counts of every report, not the log's newest.
	local bad
	bad=$(unexpected_reports "$T/toggle.out")
	check "toggle: every report counted is a documented finding" "unexpected: $bad" \
		sh -c "[ -z '$bad' ] && grep -q '^count map ' '$T/toggle.out'"
	check_reports toggle "$T/toggle.out"
	check "toggle: the last writes took: tracking on, no filter" \
		"$(grep '^final' "$T/toggle.out")" grep -qx 'final enabled 1 filter \[\]' <(tr -d '\r' <"$T/toggle.out")
}

# Every driver in both modes (MODE), longest boots first: the fleets, the
# one-NIC boots, the fixes, the toggle. The fleets: the first in the
# default mode on dma-direct and with poison on swiotlb=force, the second
# in both behind intel-iommu. e100 is in both (its reports are the most
# of any driver): with poison on swiotlb=force, the serial console's
# printing of its reports starves its receive path until a fetch stalls
# (FINDINGS.md, e100), so its poison run is behind the IOMMU, as its default runs
# are on both.
nics1="pcnet32 vmxnet3" disks1="sym53c8xx megaraid_sas vmw_pvscsi sdhci-pci"
devices1="--nic pcnet --nic vmxnet3 --scsi lsi53c895a:64M --scsi megasas:64M --scsi pvscsi:64M
	--sd 64M"
nics2="8139cp e1000 e100" disks2="virtio_scsi:virtio-pci usb-storage:xhci_hcd usb-storage:ehci-pci"
devices2="--iommu --nic rtl8139 --nic e1000 --nic i82559er --scsi virtio-scsi-pci:64M
	--usb-storage 64M --usb-storage usb-ehci:64M"
# shellcheck disable=SC2086	# the device options are words
{
unit nics+hbas+sd with MODE=default \
	fleet nics+hbas+sd "e100 $nics1" "$disks1" --nic i82559er $devices1
unit nics+hbas+usb+iommu with MODE=default \
	fleet nics+hbas+usb+iommu "$nics2" "$disks2" $devices2
unit nics+hbas+sd+swiotlb+poison with MODE=poison KERNEL_ARGS=swiotlb=force \
	fleet nics+hbas+sd+swiotlb+poison "$nics1" "$disks1" $devices1
unit nics+hbas+usb+iommu+poison with MODE=poison \
	fleet nics+hbas+usb+iommu+poison "$nics2" "$disks2" $devices2
}
unit e1000+nvme with MODE=default scenario e1000+nvme /dev/nvme0n1 --nic e1000 --nvme 64M
unit e1000e+ahci with MODE=default scenario e1000e+ahci /dev/sda --nic e1000e --ahci 64M
unit virtio+iommu with MODE=default \
	scenario virtio+iommu /dev/vda --iommu --nic virtio-net-pci --virtio-blk 64M
unit nvme+iommu with MODE=default scenario nvme+iommu /dev/nvme0n1 --iommu --nic e1000 --nvme 64M
unit e1000+nvme+swiotlb+poison with MODE=poison KERNEL_ARGS=swiotlb=force \
	scenario e1000+nvme+swiotlb+poison /dev/nvme0n1 --nic e1000 --nvme 64M
unit e1000e+ahci+swiotlb+poison with MODE=poison KERNEL_ARGS=swiotlb=force \
	scenario e1000e+ahci+swiotlb+poison /dev/sda --nic e1000e --ahci 64M
unit virtio+iommu+poison with MODE=poison \
	scenario virtio+iommu+poison /dev/vda --iommu --nic virtio-net-pci --virtio-blk 64M
unit e100-fixed with MODE=poison fixed e100-fixed e100 e100-rfd-sync-for-cpu-before-write.patch \
	drivers/net/ethernet/intel e100.o i82559er
unit e1000-fixed with MODE=poison fixed e1000-fixed e1000 e1000-rx-copybreak-sync-for-device.patch \
	drivers/net/ethernet/intel/e1000 \
	"e1000_main.o e1000_hw.o e1000_ethtool.o e1000_param.o" e1000
unit toggle with MODE=poison toggle
units_wait
