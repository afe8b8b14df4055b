#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The tracker under stress and faults: it never crashes, never stalls, never
# reports what the workload did not do.
#
#   torture  4 CPUs: NIC, disk and test_dma_owner's correct scenarios while
#            enabled, filter, clear and log_size change in a loop; then the
#            counters must add up; then both PCI devices are removed under
#            traffic while mappings and trace events are read; kmemleak on
#            throughout. KASAN and lockdep (with the PREEMPT_RT raw-lock
#            rules) fail the run on any report, and so does any tracker WARN.
#   faults   failslab on the tracker's entry caches under traffic: the
#            failures are counted as untracked, nothing is reported, a
#            device whose untracked mappings were all unmapped is checked
#            again without a rebind, and a rebind brings back the rest.
. "$(dirname "$0")/../lib-test.sh"

serve_blob 1M
url=http://10.0.2.2:$HTTP_PORT/blob
correct="cycle_single cycle_page cycle_sg cycle_resource partial_sync to_device_refill copybreak skip_cpu_sync_recycle unmap_cpu_owned sg_fewer_ents noncoherent_cycle pages_cycle noncontiguous_cycle skip_sync_fragments half_page_reuse page_pool_rx identical_handles"

# Guest helpers shared by both boots.
mkdir "$T/files"
cat >"$T/files/common.sh" <<S
. /usr/share/dma-owner/traffic.sh
TR=/sys/kernel/tracing
# traffic TAG: NIC, disk and scenario loops until /tmp/stop exists.
traffic() {
	rm -f /tmp/stop
	( while [ ! -f /tmp/stop ]; do fetch 1 $url $md5 >/dev/null ||
		{ echo "traffic-failed \$1 fetch"; sleep 1; }; done ) &
	( while [ ! -f /tmp/stop ]; do disk_rw /dev/nvme0n1 2 >/dev/null ||
		{ echo "traffic-failed \$1 disk"; sleep 1; }; done ) &
	( while [ ! -f /tmp/stop ]; do for s in $correct; do
		echo \$s >/sys/kernel/debug/test_dma_owner/run ||
			echo "traffic-failed \$1 \$s"; done; done ) &
}
stop() { touch /tmp/stop; wait; }
S

cat >"$T/torture.sh" <<S
. /vm/files/common.sh
net_up || exit 10
modprobe test_dma_owner || exit 11
# Violations in an instance of their own: the main buffer floods below.
V=\$TR/instances/violations
mkdir \$V || exit 12
echo 1 >\$V/events/dma_owner/dma_owner_violation/enable
traffic torture
i=0
while [ \$i -lt 20 ]; do
	echo 0 >\$D/enabled; sleep 0.1; echo 1 >\$D/enabled
	echo e1000e >\$D/filter; cat \$D/mappings >/dev/null; sleep 0.1
	echo nvme >\$D/filter; sleep 0.1; echo >\$D/filter
	echo 1 >\$D/clear
	echo \$((1 + i % 3 * 30000)) >/sys/module/dma_owner/parameters/log_size
	cat \$D/violations \$D/stats >/dev/null
	i=\$((i + 1))
done
echo 64 >/sys/module/dma_owner/parameters/log_size
stop
echo "torture-loops \$i"

# Counted from a clean start, with traffic again: maps - unmaps = live.
echo 0 >\$D/enabled; echo 1 >\$D/enabled; echo 1 >\$D/clear
traffic counted
sleep 20
stop
echo "counted maps \$(stat maps) unmaps \$(stat unmaps) live \$(stat live)"

# Remove both PCI devices under traffic, reading mappings and events.
echo 1 >\$TR/events/dma_owner/enable
cat \$TR/trace_pipe >/dev/null &
tp=\$!
( while [ ! -f /tmp/stop-readers ]; do cat \$D/mappings \$D/stats >/dev/null; done ) &
traffic remove
sleep 5
nvme=\$(basename \$(readlink -f /sys/block/nvme0n1/device/device))
nic=\$(basename \$(readlink -f /sys/class/net/eth0/device))
# The devices' own live mappings, by the mappings file's device column.
echo "live-of-devices-before \$(awk -v a=\$nvme -v b=\$nic '\$1 == a || \$1 == b' \$D/mappings | wc -l)"
echo 1 >/sys/bus/pci/devices/\$nvme/remove || exit 13
echo 1 >/sys/bus/pci/devices/\$nic/remove || exit 14
sleep 3
touch /tmp/stop-readers
kill \$tp
stop 2>/dev/null
echo 0 >\$TR/events/dma_owner/enable
echo "removed \$nvme \$nic present \$(ls /sys/bus/pci/devices | grep -c -e \$nvme -e \$nic)"
echo "live-of-devices-after \$(awk -v a=\$nvme -v b=\$nic '\$1 == a || \$1 == b' \$D/mappings | wc -l)"

echo "reported \$(grep -c 'dma_owner_violation:' \$V/trace)"
grep 'dma_owner_violation:' \$V/trace | head -5
echo scan >/sys/kernel/debug/kmemleak; sleep 5; echo scan >/sys/kernel/debug/kmemleak
echo "kmemleak-objects \$(grep -c '^unreferenced object' /sys/kernel/debug/kmemleak)"
sed 's/^/leak /' /sys/kernel/debug/kmemleak
S

# failslab on the entry caches only (slab_debug=A marks them), at 20% under
# NIC and disk traffic, then at 50% on the test device alone.
cat >"$T/faults.sh" <<S
. /vm/files/common.sh
F=/sys/kernel/debug/failslab
net_up || exit 10
modprobe test_dma_owner || exit 11
tdev=\$(test_device)
nic=\$(basename \$(readlink -f /sys/class/net/eth0/device))
echo Y >\$F/cache-filter; echo 0 >\$F/verbose; echo 1 >\$F/interval
echo -1 >\$F/times; echo 20 >\$F/probability
fetch 3 $url $md5 || exit 12
disk_rw /dev/nvme0n1 8 || exit 13
echo 0 >\$F/probability
echo "untracked-traffic \$(stat untracked)"
grep '^incomplete:' \$D/stats | sed 's/^/during /'

# The test device: each mapping unmapped before the next, half untracked.
echo 50 >\$F/probability
u=\$(stat untracked)
for i in \$(seq 20); do echo cycle_single >/sys/kernel/debug/test_dma_owner/run || exit 14; done
for i in \$(seq 5); do echo cycle_sg >/sys/kernel/debug/test_dma_owner/run || exit 14; done
echo 0 >\$F/probability
echo "untracked-tdev \$((\$(stat untracked) - u))"
echo "tdev-incomplete \$(grep -c "^incomplete: \$tdev " \$D/stats)"
echo "violations-before \$(stat violations)"
echo unknown_handle_single >/sys/kernel/debug/test_dma_owner/run || exit 15
echo "unknown-handle \$(stat violation.unknown-handle)"

# Unbound while tracking was off, then switched on (every device is then
# incomplete): the bind makes the test device complete, so an unknown
# handle on it is reported.
# (A platform device where QEMU has no edu: named as the module names it.)
dev=\$(sed -n 's/^device //p' /sys/kernel/debug/test_dma_owner/result)
P=\$(readlink -f /sys/bus/*/devices/\$dev/driver)
echo 0 >\$D/enabled
echo \$dev >\$P/unbind
echo 1 >\$D/enabled
echo \$dev >\$P/bind || exit 18
u=\$(stat violation.unknown-handle)
echo unknown_handle_single >/sys/kernel/debug/test_dma_owner/run || exit 19
echo "rebound-unknown-handle \$((\$(stat violation.unknown-handle) - u))"

# A rebind gives the NIC its checking back.
echo \$nic >/sys/bus/pci/drivers/e1000e/unbind
echo \$nic >/sys/bus/pci/drivers/e1000e/bind
sleep 1
net_up || exit 16
fetch 2 $url $md5 || exit 17
echo "nic-incomplete \$(grep -c "^incomplete: \$nic " \$D/stats)"
cat \$D/stats
S
out() { tr -d '\r' <"$T/$1.out" | sed -n "s/^$2 //p"; }
lacks() { ! grep -qE "$1" "$2"; }

torture() {
	only torture || return 0
	KERNEL_ARGS="kmemleak=on" vm "$T/torture.out" --timeout 2400 --smp 4 \
		--nic e1000e --nvme 64M --files "$T/files" "$T/torture.sh"
	check "torture: 4 CPUs, controls changed under traffic, devices removed: no splat, no WARN" \
		"rc=$rc: $(tail -2 "$T/torture.out") $(head -2 "$T/torture.out.err")" [ $rc = 0 ]
	check "torture: the control loop ran" "loops=$(out torture torture-loops)" \
		[ "$(out torture torture-loops)" = 20 ]
	check "torture: the traffic never failed before the removal" \
		"$(grep -E '^traffic-failed (torture|counted)' "$T/torture.out" | head -3)" \
		lacks '^traffic-failed (torture|counted)' "$T/torture.out"
	read -r _ maps _ unmaps _ live <<<"$(out torture counted)"
	# (each condition inside the check: after it, "&&" would test nothing)
	check "torture: maps - unmaps = live after a clean start" \
		"maps=$maps unmaps=$unmaps live=$live" \
		sh -c "[ -n '$live' ] && [ '${maps:-0}' -gt 1000 ] && [ $((${maps:-0} - ${unmaps:-0})) = '$live' ]"
	check "torture: both PCI devices were removed" "$(out torture removed)" \
		[ "$(out torture removed | awk '{print $NF}')" = 0 ]
	check "torture: the devices had live mappings before their removal" \
		"live-of-devices-before=$(out torture live-of-devices-before)" \
		[ "$(out torture live-of-devices-before)" -gt 0 ]
	check "torture: ... and none after it" \
		"live-of-devices-after=$(out torture live-of-devices-after)" \
		[ "$(out torture live-of-devices-after)" = 0 ]
	check "torture: nothing reported (no violation event in the whole run)" \
		"reported=$(out torture reported): $(grep -m3 dma_owner_violation: "$T/torture.out")" \
		[ "$(out torture reported)" = 0 ]
	# The tracker's own functions, from its sources: a leak whose allocation
	# backtrace passes through one of them is the tracker's.
	ours=$(cat "$REPO"/kernel/owner*.c "$REPO"/debugfs-ui/owner_debugfs.c |
		sed -nE 's/^(static )?[a-z_ ]+[ *]([a-z_0-9]+)\(.*/\2/p' | sort -u | paste -sd'|')
	check "torture: kmemleak ran" "kmemleak-objects=$(out torture kmemleak-objects)" \
		[ -n "$(out torture kmemleak-objects)" ]
	check "torture: kmemleak finds no leak allocated by the tracker" \
		"$(grep -E "^leak .*\b($ours)\+0x" "$T/torture.out" | head -3)" \
		lacks "^leak .*\b($ours)\+0x" "$T/torture.out"
}

faults() {
	only faults || return 0
	KERNEL_ARGS="slab_debug=A,dma_owner_entry,dma_owner_wide_entry" \
		vm "$T/faults.out" --timeout 1200 --nic e1000e --nvme 64M \
		--allow-warn "$REPORT_WARN|$DMA_DEBUG_WARN" \
		--files "$T/files" "$T/faults.sh"
	check "faults: traffic verified under failslab, no splat" \
		"rc=$rc: $(tail -2 "$T/faults.out") $(head -2 "$T/faults.out.err")" [ $rc = 0 ]
	check "faults: failed entry allocations counted as untracked" \
		"untracked-traffic=$(out faults untracked-traffic) untracked-tdev=$(out faults untracked-tdev)" \
		sh -c "[ '$(out faults untracked-traffic)' -gt 0 ] && [ '$(out faults untracked-tdev)' -gt 0 ]"
	check "faults: nothing reported while allocations failed" \
		"violations=$(out faults violations-before)" [ "$(out faults violations-before)" = 0 ]
	check "faults: the test device, its untracked mappings unmapped, is complete" \
		"$(grep '^during\|^incomplete' "$T/faults.out" | tr '\n' ' ')" \
		[ "$(out faults tdev-incomplete)" = 0 ]
	check "faults: ... and an unknown handle on it is reported again, without a rebind" \
		"unknown-handle=$(out faults unknown-handle)" [ "$(out faults unknown-handle)" = 1 ]
	check "faults: a rebind makes the NIC complete" "nic-incomplete=$(out faults nic-incomplete)" \
		[ "$(out faults nic-incomplete)" = 0 ]
	check "faults: a bind after an unbind made while tracking was off makes the device complete" \
		"unknown handles reported after the bind: $(out faults rebound-unknown-handle)" \
		[ "$(out faults rebound-unknown-handle)" = 1 ]
	check "faults: nothing else reported (the two unknown handles)" \
		"violations=$(stat "$T/faults.out" violations)" \
		[ "$(stat "$T/faults.out" violations)" = 2 ]
}

unit torture torture
unit faults faults
units_wait
