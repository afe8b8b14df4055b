#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Fault injection, two ways.
# 1. test_dma_owner's "random" scenario: thousands of random correct
#    operations with misuse of every kind injected at a seeded rate; the
#    tracker must detect exactly what was injected, kind by kind, on
#    dma-direct, swiotlb and intel-iommu.
# 2. fail_dma_map: dma_map_*() fails on demand under e1000 and nvme
#    traffic; the drivers' error paths must cope (contents still verified,
#    no splat) and the failures must really have been injected.
. "$(dirname "$0")/../lib-test.sh"

kinds="missing-sync-for-device redundant-sync-for-device unknown-handle use-after-unmap out-of-range dir-mismatch size-mismatch cpu-write-while-device-owned"
cat >"$T/random.sh" <<'S'
echo 1 >/sys/module/dma_owner/parameters/check_contents
modprobe test_dma_owner random_seed=42 random_ops=3000 random_rate=5 random_cpu_write=1 || exit 10
echo 1 >/sys/kernel/debug/dma-owner/clear
echo random >/sys/kernel/debug/test_dma_owner/run || exit 11
cat /sys/kernel/debug/test_dma_owner/result
cat /sys/kernel/debug/dma-owner/stats
S
allow='at kernel/dma/(owner_report|debug|swiotlb)\.c'

random_mode() {
	local mode=$1 k inj det total=0
	shift
	QEMU_ARGS="-device edu" vm "$T/$mode.out" --allow-warn "$allow" "$@" "$T/random.sh"
	check "random[$mode]: guest run clean" "rc=$rc: $(head -3 "$T/$mode.out.err")" [ $rc = 0 ]
	local summary=
	for k in $kinds; do
		inj=$(tr -d '\r' <"$T/$mode.out" | sed -n "s/^injected\.$k //p")
		det=$(stat "$T/$mode.out" "violation.$k")
		summary="$summary $k=$det/$inj"
		total=$((total + ${inj:-0}))
		check "random[$mode]: $k detected == injected (> 0)" "detected $det, injected $inj" \
			[ -n "$inj" -a "$det" = "$inj" -a "${inj:-0}" -gt 0 ]
	done
	echo "# random[$mode] detected/injected:$summary"
	check "random[$mode]: no other violation" "violations $(stat "$T/$mode.out" violations), injected $total" \
		[ "$(stat "$T/$mode.out" violations)" = "$total" ]
}
random_mode direct
KERNEL_ARGS=swiotlb=force random_mode swiotlb
random_mode iommu --iommu

mkdir "$T/www"
head -c 2M /dev/urandom >"$T/www/blob"
md5=$(md5sum <"$T/www/blob" | cut -d' ' -f1)
start_http "$T/www"
cat >"$T/fail.sh" <<S
. /usr/share/dma-owner/traffic.sh
F=/sys/kernel/debug/fail_dma_map
net_up || exit 10
echo 10 >\$F/probability
echo 1 >\$F/interval
echo 0 >\$F/verbose
echo 300 >\$F/times
fetch 3 http://10.0.2.2:$HTTP_PORT/blob $md5 || { echo "injected \$((300 - \$(cat \$F/times)))"; exit 11; }
disk_rw /dev/nvme0n1 8 || exit 12
echo "injected \$((300 - \$(cat \$F/times)))"
echo 0 >\$F/probability
report_sites
cat /sys/kernel/debug/dma-owner/stats
S
vm "$T/fail.out" --allow-warn 'at kernel/dma/owner_report\.c' --nic e1000 --nvme 64M "$T/fail.sh"
check "fail_dma_map: e1000 and nvme traffic verified despite failed maps, no splat" \
	"rc=$rc: $(tail -2 "$T/fail.out") $(head -2 "$T/fail.out.err")" [ $rc = 0 ]
n=$(tr -d '\r' <"$T/fail.out" | sed -n 's/^injected //p')
echo "# fail_dma_map: $n map failures injected"
check "fail_dma_map: map failures were injected" "injected ${n:-none}" [ "${n:-0}" -gt 10 ]
check_reports fail_dma_map "$T/fail.out" "$E1000_FINDING"
