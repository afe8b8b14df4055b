# SPDX-License-Identifier: GPL-2.0
# Real-driver traffic helpers for guest scripts: source, then call.
. /usr/share/dma-owner/lib.sh

# The Nth NIC (from 0) has MAC 52:54:00:12:34:5N and slirp network
# 10.0.(2+N).0/24 (run-vm.sh): nic_index IFACE prints N.
nic_index() {
	a=$(cat /sys/class/net/"$1"/address) || return 1
	a=${a##*:}
	echo "${a#5}"
}

# nic_host IFACE: the host's address as seen through IFACE.
nic_host() {
	echo "10.0.$((2 + $(nic_index "$1"))).2"
}

# nic_of DRIVER: the interface DRIVER drives.
nic_of() {
	for n in /sys/class/net/*; do
		[ -e "$n/device/driver" ] || continue
		[ "$(basename "$(readlink "$n/device/driver")")" = "$1" ] &&
			{ echo "${n##*/}"; return 0; }
	done
	echo "no interface driven by $1" >&2
	return 1
}

# disk_of DRIVER [PCI_DRIVER]: the disk whose adapter DRIVER drives (the
# nearest bound device above the disk: the PCI HBA, the USB interface, the
# virtio device) and, if given, whose PCI device PCI_DRIVER drives (two USB
# disks, one behind xhci and one behind ehci, are told apart so).
disk_of() {
	for b in /sys/block/*; do
		d=$(readlink -f "$b/device") || continue
		d=${d%/*}
		while [ "${#d}" -gt 12 ]; do
			if [ -e "$d/driver" ]; then
				[ "$(basename "$(readlink "$d/driver")")" = "$1" ] &&
					{ [ -z "$2" ] || [ "$(basename "$(readlink \
						"/sys/bus/pci/devices/$(pci_of "$b/device")/driver")")" = "$2" ]; } &&
					{ echo "/dev/${b##*/}"; return 0; }
				break
			fi
			d=${d%/*}
		done
	done
	echo "no disk behind $1${2:+ on $2}" >&2
	return 1
}

# Bring up a NIC (default eth0) on its slirp network; the first NIC's
# network carries the default route.
net_up() {
	ifc=${1:-eth0}
	n=$(nic_index "$ifc") || return 1
	ip link set "$ifc" up || return 1
	ip addr add "10.0.$((2 + n)).15/24" dev "$ifc" || return 1
	[ "$n" != 0 ] || ip route add default via 10.0.2.2 || return 1
	# e1000e negotiates its link for a second or two after "up"; drivers
	# that do not report a carrier (pcnet32) stay "unknown".
	for _ in $(seq 100); do
		case "$(cat /sys/class/net/"$ifc"/operstate)" in up|unknown) return 0 ;; esac
		sleep 0.1
	done
	echo "$ifc: link did not come up"
	return 1
}

# pci_of PATH: the PCI address of the nearest PCI device at or above PATH
# in /sys/devices -- the device that makes a disk's or a NIC's DMA calls.
pci_of() {
	d=$(readlink -f "$1")
	while [ "${#d}" -gt 12 ]; do
		case "${d##*/}" in ????:??:??.?) echo "${d##*/}"; return 0 ;; esac
		d=${d%/*}
	done
	return 1
}

# packets IFACE: packets received and sent.
packets() {
	echo $(($(cat /sys/class/net/"$1"/statistics/rx_packets) +
		$(cat /sys/class/net/"$1"/statistics/tx_packets)))
}

# fetch N URL MD5: download URL N times, each copy must match MD5. A copy
# that stalls for FETCH_TIMEOUT seconds (default 240) fails, with the NIC's
# counters, rather than hanging the run.
fetch() {
	i=0
	while [ $i -lt "$1" ]; do
		got=$(timeout "${FETCH_TIMEOUT:-240}" wget -q -O - "$2" | md5sum | cut -d' ' -f1)
		[ "$got" = "$3" ] || {
			echo "fetch $2 (copy $((i + 1)) of $1): md5 $got, want $3"
			sed "s/^/  /" /proc/net/dev
			return 1
		}
		i=$((i + 1))
	done
	echo "fetched $2 $1 times, contents verified"
}

# connections N URL: N short connections, each fetching URL, which must
# hold "small" (the host's small file).
connections() {
	i=0
	while [ $i -lt "$1" ]; do
		[ "$(wget -q -O - "$2")" = small ] || { echo "connection $i to $2 failed"; return 1; }
		i=$((i + 1))
	done
}

# disk_rw DEV MB [direct|small]: write MB of random data through DEV, read
# it back, compare. "direct" bypasses the page cache (O_DIRECT), so the I/O
# is issued -- and its DMA mapped -- in dd's own context; "small" does so
# 4 KiB at a time, a mapping per block. Disks may be tested in parallel:
# each has its own data file.
disk_rw() {
	oflag= iflag= bs=64k
	[ -n "$3" ] && oflag=oflag=direct iflag=iflag=direct
	[ "$3" = small ] && bs=4k
	data=/tmp/disk.${1##*/}
	dd if=/dev/urandom of="$data" bs=64k count=$(($2 * 16)) 2>/dev/null
	want=$(md5sum <"$data" | cut -d' ' -f1)
	dd if="$data" of="$1" bs=$bs conv=fsync $oflag 2>/dev/null || { echo "write $1 failed"; return 1; }
	echo 3 >/proc/sys/vm/drop_caches
	got=$(dd if="$1" bs=$bs count=$(($2 * 1024 * 1024 / ${bs%k} / 1024)) $iflag 2>/dev/null |
		md5sum | cut -d' ' -f1)
	rm -f "$data"
	[ "$got" = "$want" ] || { echo "$1: read back $got, wrote $want"; return 1; }
	echo "$1: wrote and read back $2 MiB${3:+ ($3)}, contents verified"
}

# The kinds and call sites of the logged reports, one "site KIND in FUNC"
# each; and where a report names another mapping (cache-line-shared), the
# functions of that mapping's map stack, "stack KIND in FUNC: F1 F2 ...".
report_sites() {
	grep -E '^[a-z-]+ in ' /sys/kernel/debug/dma-owner/violations |
		sed 's/+0x.*//; s/^/site /' | sort -u
	awk '/^[a-z-]+ in / { site = $0; sub(/\+0x.*/, "", site) }
	     /^which was mapped at:$/ { w = 1; f = ""; next }
	     w && /^ / { s = $1; sub(/\+0x.*/, "", s); f = f " " s; next }
	     w { print "stack " site ":" f; w = 0 }
	     END { if (w) print "stack " site ":" f }' \
		/sys/kernel/debug/dma-owner/violations | sort -u
}

# counts_start [driver|device] [nosync]: count the tracker's events per
# driver (default) or per device, in the kernel: a hist trigger on each
# event, keyed by the device that made the call or its driver; violations
# always by driver, kind and the function that made the call (the device's
# name and the kind, two dynamic strings, would make too long a key).
# With nosync, no trigger on the two sync events: a traced sync takes the
# tracker's full walk, so a run that judges the common path must leave
# them off (the map, unmap and violation events are made on the same path
# whether traced or not). The stats file's counters at the start are kept,
# for counts to compare.
EVENTS="map unmap sync_for_cpu sync_for_device violation"
counts_start() {
	events=$EVENTS
	[ "$2" = nosync ] && events="map unmap violation"
	echo "$events" >/tmp/counts.events
	# reports made before, at boot, are in the counters but not the counts
	cp $D/stats /tmp/stats.before
	for e in $events; do
		keys=${1:-driver}
		[ $e = violation ] && keys=driver,kind,caller.sym
		echo "hist:keys=$keys" \
			>/sys/kernel/tracing/events/dma_owner/dma_owner_$e/trigger || return 1
	done
	# A cache line shared is judged by who made the call (a finding's
	# mapping is made through code many drivers share): its reports also
	# by the stack of the call.
	# (">>": a write that truncates the file removes the event's triggers)
	echo 'hist:keys=common_stacktrace if kind == "cache-line-shared"' \
		>>/sys/kernel/tracing/events/dma_owner/dma_owner_violation/trigger || return 1
}

# The counts so far: "count_base KEY N" for each counter of the stats file
# at counts_start; one "count EVENT KEY N" line per key of each event
# counted, and for violations one "count violation DRIVER KIND FUNCTION N"
# line each, and "count shared_stack N F1 F2 ..." for the cache-line-shared
# ones by the functions of their stack; "count_dropped EVENT N" for the
# entries a full hist table could not count (any makes the counts
# incomplete).
counts() {
	sed -n 's/^\([a-z_.-]*\): \([0-9]*\)$/count_base \1 \2/p' /tmp/stats.before
	# The counters just before the hists are read: what the hists hold
	# lies between these and the stats read after them (calls go on).
	sed -n 's/^\([a-z_.-]*\): \([0-9]*\)$/count_pre \1 \2/p' $D/stats
	for e in $(cat /tmp/counts.events); do
		h=/sys/kernel/tracing/events/dma_owner/dma_owner_$e/hist
		sed -n "s/^ *Dropped: *\([0-9]*\)/count_dropped $e \1/p" $h
		[ $e = violation ] && continue
		sed -n "s/^{ [a-z]*: *\([^ ,]*\) *} hitcount: *\([0-9]*\)\$/count $e \1 \2/p" $h
	done
	# { driver: e1000, kind: missing-sync-for-device, caller: [ffffffff81a0b0c0] e1000_clean_rx_irq } hitcount: 5
	sed -n 's/^{ driver: *\([^ ,]*\) *, kind: *\([^ ,]*\) *, caller: *\[[0-9a-f]*\] *\([^ ]*\) *} hitcount: *\([0-9]*\)$/count violation \1 \2 \3 \4/p' \
		/sys/kernel/tracing/events/dma_owner/dma_owner_violation/hist
	awk 'index($0, "{ common_stacktrace:") == 1 { s = ""; st = 1; next }
	     st && index($0, "} hitcount:") == 1 { print "count shared_stack " $3 s; st = 0; next }
	     st { f = $1; sub(/\+0x.*/, "", f); s = s " " f }' \
		/sys/kernel/tracing/events/dma_owner/dma_owner_violation/hist
}
