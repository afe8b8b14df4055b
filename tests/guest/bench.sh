#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# The benchmark's guest half, run by scripts/bench.sh in each boot: times DMA
# API cycles with dma_owner_bench.ko (in /vm/files) and upstream's
# dma_map_benchmark, and prints one line per figure:
#   B op=map|sync threads=T live=N rep=R ns=NS    ns per cycle
#   M live=N used_kb=KB slab_kb=KB                memory in use with N live
#   D map_us=US unmap_us=US                       dma_map_benchmark, 1 thread
# Settings come as the environment: ITERS, REPS, LIVES, DMB_SECONDS.
ITERS=${ITERS:-50000}
REPS=${REPS:-5}
LIVES=${LIVES:-"1 1000 65536 1048576"}
DMB_SECONDS=${DMB_SECONDS:-5}
B=/sys/kernel/debug/dma_owner_bench/run

# MemTotal - MemFree, and the slab's share of it (the tracker's entries
# are slab objects; dma-debug's come from whole pages).
memory() {
	awk '/^MemTotal:/ { t = $2 } /^MemFree:/ { f = $2 } /^Slab:/ { s = $2 }
	     END { print "used_kb=" t - f " slab_kb=" s }' /proc/meminfo
}

# The second edu device goes to upstream's benchmark, the first to ours.
edus=$(grep -l 0x11e8 /sys/bus/pci/devices/*/device | xargs -n1 dirname)
dmb_dev=$(echo "$edus" | tail -1)
if [ "$(echo "$edus" | wc -l)" -ge 2 ] && [ -x /vm/files/dma_map_benchmark ]; then
	echo dma_map_benchmark >"$dmb_dev/driver_override"
	basename "$dmb_dev" >/sys/bus/pci/drivers_probe
	/vm/files/dma_map_benchmark -t 1 -s "$DMB_SECONDS" -g 1 >/tmp/dmb 2>&1 ||
		{ cat /tmp/dmb; exit 3; }
	map=$(sed -n 's/.*average map latency(us):\([0-9.]*\).*/\1/p' /tmp/dmb)
	unmap=$(sed -n 's/.*average unmap latency(us):\([0-9.]*\).*/\1/p' /tmp/dmb)
	echo "D map_us=$map unmap_us=$unmap"
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
# With one vCPU (the -icount boots), these would repeat the above.
if [ "$(nproc)" -gt 1 ]; then
	run map "$(nproc)"
	run sync "$(nproc)"
fi
for live in $LIVES; do
	echo "live $live" >$B || { echo "cannot keep $live mappings live"; exit 2; }
	echo "M live=$live $(memory)"
	run map 1
	run sync 1
done
echo "live 0" >$B
