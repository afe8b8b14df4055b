#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The benchmark's guest half, run by scripts/bench.sh in each boot: times DMA
# API cycles with dma_owner_bench.ko (in /vm/files) and upstream's
# dma_map_benchmark, and prints one line per figure:
#   B op=map|sync threads=T live=N rep=R ns=NS    ns per cycle
#   M live=N chunk=C used_kb=KB slab_kb=KB        memory in use with N live
#     mappings of C bytes: 128 fill their cache lines, as most buffers do;
#     64 share each line with another (measured at the largest N only)
#   E cache=C object=B slab=BYTES per_slab=N     the tracker's slab caches:
#     a slab of BYTES holds N entries of B bytes (/sys/kernel/slab)
#   D map_us=US unmap_us=US                       dma_map_benchmark, 1 thread
#   W name=W rep=R ops=N busy_ns=NS               a real driver's workload:
#     nvme-read-4k  4 KiB O_DIRECT reads of the nvme disk, each its mapping
#     ping-small    small packets out and in on the NIC (ping -A, 18 bytes)
#   busy_ns is the work the workload caused, measured by busytime (in
#   /vm/files) against a soaker: under -icount, instructions executed,
#   the devices' own latency left out.
# Settings come as the environment: ITERS, REPS, LIVES, DMB_SECONDS,
# WORKLOAD_REPS, READS, PINGS; THREADS_ONLY=1 runs only the cycles, on
# one thread and on one per CPU (the -smp 4 boots).
ITERS=${ITERS:-50000}
REPS=${REPS:-5}
LIVES=${LIVES:-"1 1000 65536 1048576"}
DMB_SECONDS=${DMB_SECONDS:-5}
WORKLOAD_REPS=${WORKLOAD_REPS:-3}
READS=${READS:-65536}
PINGS=${PINGS:-30000}
THREADS_ONLY=${THREADS_ONLY:-0}
B=/sys/kernel/debug/dma_owner_bench/run

# MemTotal - MemFree, and the slab's share of it (the tracker's entries
# are slab objects; dma-debug's come from whole pages).
memory() {
	awk '/^MemTotal:/ { t = $2 } /^MemFree:/ { f = $2 } /^Slab:/ { s = $2 }
	     END { print "used_kb=" t - f " slab_kb=" s }' /proc/meminfo
}

# entries CACHE...: how each of the tracker's slab caches packs its
# entries, what a further live mapping costs once its slabs are full. Where
# the cache is merged with another of its size, the shared one's packing.
entries() {
	page=$(awk '/^KernelPageSize:/ { print $2 * 1024; exit }' /proc/self/smaps)
	for c in "$@"; do
		d=/sys/kernel/slab/$c
		[ -r "$d/objs_per_slab" ] || continue
		echo "E cache=$c object=$(cat "$d/object_size")" \
		     "slab=$((page << $(cat "$d/order")))" \
		     "per_slab=$(cat "$d/objs_per_slab")"
	done
}

# The second edu device goes to upstream's benchmark, the first to ours.
edus=$(grep -l 0x11e8 /sys/bus/pci/devices/*/device | xargs -n1 dirname)
dmb_dev=$(echo "$edus" | tail -1)
if [ "$THREADS_ONLY" = 0 ] && [ "$(echo "$edus" | wc -l)" -ge 2 ] &&
   [ -x /vm/files/dma_map_benchmark ]; then
	echo dma_map_benchmark >"$dmb_dev/driver_override"
	basename "$dmb_dev" >/sys/bus/pci/drivers_probe
	/vm/files/dma_map_benchmark -t 1 -s "$DMB_SECONDS" -g 1 >/tmp/dmb 2>&1 ||
		{ cat /tmp/dmb; exit 3; }
	map=$(sed -n 's/.*average map latency(us):\([0-9.]*\).*/\1/p' /tmp/dmb)
	unmap=$(sed -n 's/.*average unmap latency(us):\([0-9.]*\).*/\1/p' /tmp/dmb)
	echo "D map_us=$map unmap_us=$unmap"
fi

# busy COMMAND...: the ns of work COMMAND caused, from busytime's figures
# and the soaker's rate (set by calibrate).
busy() {
	set -- $(/vm/files/busytime "$@" 2>/tmp/workload) || return 1
	elapsed=${1#elapsed_ns=} soaked=${2#soaked=}
	echo $((elapsed - soaked * cal_elapsed / cal_soaked))
}
calibrate() {
	set -- $(/vm/files/busytime sleep 1)
	cal_elapsed=${1#elapsed_ns=} cal_soaked=${2#soaked=}
}

# workload NAME OPS COMMAND...: run COMMAND (OPS operations) WORKLOAD_REPS
# times, print the work it caused each time.
workload() {
	name=$1 ops=$2
	shift 2
	r=1
	while [ $r -le "$WORKLOAD_REPS" ]; do
		ns=$(busy "$@") || { echo "workload $name failed:"; cat /tmp/workload; exit 4; }
		echo "W name=$name rep=$r ops=$ops busy_ns=$ns"
		r=$((r + 1))
	done
}

if [ "$THREADS_ONLY" = 0 ] && [ -x /vm/files/busytime ]; then
	calibrate
	if [ -b /dev/nvme0n1 ]; then
		# The disk's 4 KiB blocks, read in turn, READS in all.
		blocks=$(($(cat /sys/block/nvme0n1/size) / 8))
		passes=$(((READS + blocks - 1) / blocks))
		workload nvme-read-4k $((passes * blocks)) sh -c "i=0; while [ \$i -lt $passes ]; do
			dd if=/dev/nvme0n1 of=/dev/null bs=4k count=$blocks iflag=direct || exit 1
			i=\$((i + 1)); done"
	fi
	if [ -d /sys/class/net/eth0 ]; then
		. /usr/share/dma-owner/traffic.sh
		net_up || exit 5
		ping -q -c 3 10.0.2.2 >/dev/null || { echo "eth0: no reply from 10.0.2.2"; exit 5; }
		workload ping-small "$PINGS" ping -q -A -c "$PINGS" -s 18 10.0.2.2
	fi
fi

insmod /vm/files/dma_owner_bench.ko || exit 1

run() {	# OP THREADS
	r=1
	while [ $r -le "$REPS" ]; do
		echo "$1 $ITERS $2" >$B || { echo "bench $1 $ITERS $2 failed"; exit 2; }
		ns=$(sed -n 's/.* ns_per_cycle \([0-9]*\) errors 0$/\1/p' $B)
		[ -n "$ns" ] || { echo "bench $1: map errors: $(cat $B)"; exit 2; }
		echo "B op=$1 threads=$2 live=$live rep=$r ns=$ns"
		r=$((r + 1))
	done
}

live=1
echo "live 1" >$B || exit 2
run map 1
run sync 1
# With one vCPU, these would repeat the above.
if [ "$(nproc)" -gt 1 ]; then
	run map "$(nproc)"
	run sync "$(nproc)"
fi
[ "$THREADS_ONLY" = 0 ] || LIVES=
for live in $LIVES; do
	echo "live $live" >$B || { echo "cannot keep $live mappings live"; exit 2; }
	echo "M live=$live chunk=128 $(memory)"
	run map 1
	run sync 1
done
if [ -n "$LIVES" ]; then
	echo "live 0" >$B && echo "live $live 64" >$B ||
		{ echo "cannot keep $live mappings of 64 bytes live"; exit 2; }
	echo "M live=$live chunk=64 $(memory)"
	entries dma_owner_entry dma_owner_wide_entry
fi
echo "live 0" >$B
