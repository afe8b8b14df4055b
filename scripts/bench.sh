#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# "make bench": what the tracker costs, against no tracking and against
# CONFIG_DMA_API_DEBUG, and how that scales with live mappings.
#
# Builds two kernels the way a distribution builds its own
# (configs/bench.config with the tracker, configs/bench-base.config
# without it; no KASAN or lockdep), then boots:
#   compiled-out   bench-base, dma_debug=off        the kernel without us
#   off            bench, dma_owner=off dma_debug=off
#   tracker        bench, dma_debug=off             the default detail
#   tracker-nostack  the same with dma_owner.map_stacks=0 (what stacks cost)
#   tracker-stack-per-map  with dma_owner.map_stacks=2
#   dma-debug      bench, dma_owner=off
# and in each runs tests/guest/bench.sh: dma_owner_bench.ko cycles (with 1
# .. 1048576 other mappings live), memory in use, upstream's
# dma_map_benchmark, and two real drivers' workloads as operations per
# second of the work they cause (tests/bench/busytime.c): nvme's 4 KiB
# O_DIRECT reads, and small packets on e1000e (not e1000, whose copybreak
# finding would put a report on every small packet received).
# scripts/bench-report.py turns the figures into a table of ratios,
# out/bench/results.{csv,json} and a plot, out/bench/scaling.svg
# (matplotlib: one panel per cycle, the spread as error bars).
# Then off, tracker and dma-debug again on four vCPUs (off-smp4, ...),
# each cycle on one thread and on four in parallel: what a cycle costs
# when every CPU maps at once.
#
# Each boot is one vCPU under QEMU's -icount (tests/vm/run-vm.sh,
# ACCEL=icount): guest time advances one nanosecond per instruction, so a
# figure counts the instructions a cycle executes, whatever else the host
# is doing, and repeats to within a fraction of a percent. It weighs every
# instruction alike (a cache miss or an atomic costs no more than an add):
# the ratios are those of work done, not of a real CPU's time. With four
# vCPUs, -icount runs them in turn on one host thread: a cycle's figure
# is then the instructions of every CPU over every thread's cycles, so
# spinning on a lock another CPU holds counts, and a cache line moving
# between CPUs, which -icount cannot see, does not.
#
# usage: bench.sh [--smoke | --profile | --poison]
#   --smoke    one short boot of the tracker kernel (the check that the
#              benchmark still runs)
#   --poison   what dma_owner.poison=1 adds ("make bench-poison"): the
#              test kernel (KASAN, lockdep) booted with the tracker, with
#              and without poisoning, and a dma_owner_bench.ko cycle's
#              instructions in each (out/bench/poison.txt). About 4
#              minutes once built.
#   --profile  where the instructions go ("make profile"): boots
#              compiled-out, off, tracker and dma-debug under
#              tests/bench/insn_profile.c, a QEMU plugin that counts each
#              kernel instruction executed, and prints what each function
#              adds per map+unmap and per sync cycle, and what the tracker
#              built in but off adds over compiled out
#              (scripts/bench-profile.py; counts in
#              out/bench/profile-*.pcs). About 4 minutes once built.
# Environment: ITERS, REPS, LIVES, WORKLOAD_REPS, READS, PINGS (see
# tests/guest/bench.sh).
set -e
. "$(dirname "$0")/lib.sh"

smoke= profile= poison=
case "$1" in
--smoke) smoke=1 ;;
--profile) profile=1 ;;
--poison) poison=1 ;;
"") ;;
-h|--help) sed -n '3,56p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
*) die "usage: bench.sh [--smoke | --profile | --poison]" ;;
esac

out=$REPO/out/bench
mkdir -p "$out"
start=$(date +%s)

# Upstream's benchmark, static, for the guest.
tools=$CACHE/bench-tools
if [ ! -x "$tools/dma_map_benchmark" ]; then
	QUIET=1 "$REPO/scripts/prepare-tree.sh"
	mkdir -p "$tools/include/linux"
	# Only this header: the kernel's include/ would shadow libc's.
	cp "$SRC/include/linux/map_benchmark.h" "$tools/include/linux/"
	gcc -static -O2 -I"$tools/include" -o "$tools/dma_map_benchmark" \
		"$SRC/tools/testing/selftests/dma/dma_map_benchmark.c" ||
		die "cannot build dma_map_benchmark"
fi
gcc -static -O2 -Wall -o "$tools/busytime" "$REPO/tests/bench/busytime.c" ||
	die "cannot build busytime"

# A kernel, its initramfs and our module for it, in $CACHE/build-CONFIG.
build() {
	local cfg=$1 mod=$CACHE/bench-mod-$1
	DMA_OWNER_CONFIG=$cfg "$REPO/scripts/build-kernel.sh" || exit 2
	DMA_OWNER_CONFIG=$cfg "$REPO/scripts/mkinitramfs.sh" || exit 2
	rm -rf "$mod"
	mkdir -p "$mod/files"
	cp "$REPO"/tests/bench/{Kbuild,dma_owner_bench.c} "$mod/"
	make -s -C "$CACHE/build-$cfg" M="$mod" modules >"$mod/build.log" 2>&1 ||
		{ cat "$mod/build.log" >&2; die "dma_owner_bench.ko does not build for $cfg"; }
	cp "$mod/dma_owner_bench.ko" "$tools/dma_map_benchmark" "$tools/busytime" "$mod/files/"
}

# boot MODE CONFIG KERNEL-ARGS [CPUS]: the guest's figures, tagged with MODE.
boot() {
	local mode=$1 cfg=$2 args=$3 cpus=${4:-1} log=$out/$1.log
	say "bench: $mode ($cfg kernel, $args, $cpus vCPU)"
	local v settings=
	for v in ITERS REPS LIVES WORKLOAD_REPS READS PINGS THREADS_ONLY; do
		[ -z "${!v}" ] || settings="$settings$v='${!v}' "
	done
	echo "${settings}sh /usr/share/dma-owner/bench.sh" >"$out/run.sh"
	if ! ACCEL=icount DMA_OWNER_CONFIG=$cfg QEMU_ARGS="-m 3G -device edu -device edu" \
		KERNEL_ARGS="$args" "$REPO/tests/vm/run-vm.sh" --smp "$cpus" --timeout 3600 \
		--nvme 64M --nic e1000e \
		--files "$CACHE/bench-mod-$cfg/files" --log "$log.console" \
		"$out/run.sh" >"$log" 2>&1; then
		tail -20 "$log" >&2
		die "bench: the $mode boot failed (log: $log, $log.console)"
	fi
	tr -d '\r' <"$log" | grep -E '^[BMEDW] ' | sed "s/^/$mode /" >>"$out/raw.txt"
}

# profile_boot MODE ARGS OP N: run N cycles of OP under the plugin.
profile_boot() {
	local mode=$1 args=$2 op=$3 n=$4 pcs=$out/profile-$1-$3-$5.pcs cfg=bench
	[ "$mode" = compiled-out ] && cfg=bench-base
	printf '%s\n' "insmod /vm/files/dma_owner_bench.ko || exit 1" \
		"echo 'live 1' >/sys/kernel/debug/dma_owner_bench/run || exit 2" \
		"echo '$op $n 1' >/sys/kernel/debug/dma_owner_bench/run || exit 2" \
		>"$out/profile-run.sh"
	# The same boot each time: no KASLR, so System.map names every address.
	ACCEL=icount DMA_OWNER_CONFIG=$cfg \
		QEMU_ARGS="-m 1G -device edu -plugin $tools/insn_profile.so,out=$pcs" \
		KERNEL_ARGS="nokaslr $args" "$REPO/tests/vm/run-vm.sh" --smp 1 \
		--timeout 1800 --files "$CACHE/bench-mod-$cfg/files" \
		"$out/profile-run.sh" >"$out/profile.log" 2>&1 ||
		{ tail -20 "$out/profile.log" >&2; die "profile: the $mode boot failed"; }
	[ -s "$pcs" ] || die "profile: the plugin wrote no counts ($pcs)"
}

if [ -n "$poison" ]; then
	# The test kernel: poisoning needs KASAN, which no production kernel
	# has; the figure is what poisoning adds to a kernel that has it.
	build test
	: >"$out/raw.txt"
	for m in "tracker:dma_debug=off" "tracker+poison:dma_debug=off dma_owner.poison=1"; do
		ITERS=${ITERS:-2000} REPS=${REPS:-3} LIVES=${LIVES:-1} WORKLOAD_REPS=0 \
			boot "${m%%:*}" test "${m#*:}"
	done
	/usr/bin/python3 - "$out/raw.txt" <<'PY' | tee "$out/poison.txt"
import re, statistics, sys
ns = {}
for line in open(sys.argv[1]):
    m = re.match(r'(\S+) B op=(\w+) threads=1 live=1 rep=\d+ ns=(\d+)', line)
    if m:
        ns.setdefault((m.group(1), m.group(2)), []).append(int(m.group(3)))
print('instructions per cycle on the test kernel (KASAN, lockdep), median of %d'
      % len(ns.get(('tracker', 'map'), [])))
print('%-34s %10s %16s %8s' % ('cycle', 'tracker', 'tracker+poison', 'ratio'))
for op, name in (('map', 'map+unmap'),
                 ('sync', 'map+sync_for_cpu+sync_for_device+unmap')):
    a = statistics.median(ns[('tracker', op)])
    b = statistics.median(ns[('tracker+poison', op)])
    print('%-34s %10d %16d %8.2f' % (name, a, b, b / a))
PY
	say "bench: poison done in $(( $(date +%s) - start ))s; out/bench/poison.txt"
	exit
fi

if [ -n "$profile" ]; then
	gcc -O2 -Wall -shared -fPIC -o "$tools/insn_profile.so" \
		"$REPO/tests/bench/insn_profile.c" || die "cannot build the profiling plugin"
	build bench
	build bench-base
	iters=${ITERS:-20000}
	for op in map sync; do
		for m in "compiled-out:dma_debug=off" "off:dma_owner=off dma_debug=off" \
			 "tracker:dma_debug=off" "dma-debug:dma_owner=off"; do
			say "profile: ${m%%:*}, $op"
			profile_boot "${m%%:*}" "${m#*:}" $op $iters 1
			profile_boot "${m%%:*}" "${m#*:}" $op $((2 * iters)) 2
		done
		echo "== $op cycle =="
		/usr/bin/python3 "$REPO/scripts/bench-profile.py" \
			"$CACHE/build-bench/System.map" $iters "$out" $op \
			"$CACHE/build-bench-base/System.map"
	done | tee "$out/profile.txt"
	say "profile: done in $(( $(date +%s) - start ))s; out/bench/profile.txt"
	exit
fi

: >"$out/raw.txt"
if [ -n "$smoke" ]; then
	build bench
	ITERS=${ITERS:-200} REPS=${REPS:-1} LIVES=${LIVES:-"1 1000"} boot tracker bench dma_debug=off
	/usr/bin/python3 "$REPO/scripts/bench-report.py" --smoke "$out"
	exit
fi
build bench-base
build bench
boot compiled-out bench-base "dma_debug=off"
boot off bench "dma_owner=off dma_debug=off"
boot tracker bench "dma_debug=off"
boot tracker-nostack bench "dma_debug=off dma_owner.map_stacks=0"
boot tracker-stack-per-map bench "dma_debug=off dma_owner.map_stacks=2"
boot dma-debug bench "dma_owner=off"
for m in "off:dma_owner=off dma_debug=off" "tracker:dma_debug=off" "dma-debug:dma_owner=off"; do
	THREADS_ONLY=1 boot "${m%%:*}-smp4" bench "${m#*:}" 4
done
# Debian's python3, which has python3-matplotlib (scripts/setup.sh).
/usr/bin/python3 "$REPO/scripts/bench-report.py" "$out"
say "bench: done in $(( $(date +%s) - start ))s; figures in ${out#$REPO/}/"
