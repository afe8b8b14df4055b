#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The dma_owner trace events, recorded with trace-cmd in the guest: the
# exact event sequence of a mapping's life and of a violation, with their
# fields; filters on kind and on device; and perf's counts of the events
# against /sys/kernel/debug/dma-owner/stats.
. "$(dirname "$0")/../lib-test.sh"

serve_blob 512K

cat >"$T/trace.sh" <<S
. /usr/share/dma-owner/traffic.sh
modprobe test_dma_owner || exit 10
echo all >/sys/module/dma_owner/parameters/report
dev=\$(test_device)
echo "testdev \$dev"
cd /tmp
trace-cmd record -q -e dma_owner -o life.dat sh -c "echo cycle_single >\$R; echo missing_sync_single >\$R" >/dev/null || exit 11
echo "--- life"
trace-cmd report -i life.dat 2>/dev/null | grep dma_owner_
trace-cmd record -q -e dma_owner_violation -f 'kind == "missing-sync-for-device"' -o kind.dat \
	sh -c "echo redundant_sync_single >\$R; echo missing_sync_sg >\$R; echo dir_mismatch_single >\$R" >/dev/null || exit 12
echo "--- kind"
trace-cmd report -i kind.dat 2>/dev/null | grep dma_owner_
net_up || exit 13
trace-cmd record -q -e dma_owner -f "device == \"\$dev\"" -o dev.dat \
	sh -c ". /usr/share/dma-owner/traffic.sh; fetch 2 http://10.0.2.2:$HTTP_PORT/blob $md5 >/dev/null; echo cycle_sg >\$R" >/dev/null || exit 14
echo "--- device"
trace-cmd report -i dev.dat 2>/dev/null | grep dma_owner_
echo 1 >/sys/kernel/debug/dma-owner/clear
perf stat -x, -a -e 'dma_owner:*' -o perf.txt -- sh -c ". /usr/share/dma-owner/traffic.sh; fetch 2 http://10.0.2.2:$HTTP_PORT/blob $md5 >/dev/null; echo missing_sync_page >\$R; echo use_after_unmap_sg >\$R" || exit 15
echo "--- perf"
cat perf.txt
echo "--- stats"
cat /sys/kernel/debug/dma-owner/stats
S

QEMU_ARGS="-device edu" vm "$T/out" --nic e1000 --allow-warn "$REPORT_WARN|$DMA_DEBUG_WARN" "$T/trace.sh"
check "trace: guest run clean" "rc=$rc: $(tail -3 "$T/out") $(head -3 "$T/out.err")" [ $rc = 0 ]
tr -d '\r' <"$T/out" >"$T/o"
dev=$(sed -n 's/^testdev //p' "$T/o")
section() { sed -n "/^--- $1\$/,/^---/p" "$T/o" | grep dma_owner_; }

# event name, owner transition, size and the caller's function, in order
section life | sed -E 's/.*(dma_owner_violation): +([a-z-]+) .*size=([0-9]+) .*owner=([a-z+]+) caller=([a-z_]+).*/\1 \2 \4 \3 \5/;
	s/.*(dma_owner_[a-z_]+): +([^ ]+ [^ ]+) .*size=([0-9]+) .*owner=([a-z+>-]+) caller=([a-z_]+).*/\1 \4 \3 \5/' >"$T/life"
cat >"$T/want" <<W
dma_owner_map none->device 2048 cycle_single
dma_owner_sync_for_cpu device->cpu 2048 cycle_single
dma_owner_sync_for_device cpu->device 2048 cycle_single
dma_owner_sync_for_cpu device->cpu 2048 cycle_single
dma_owner_unmap cpu->none 2048 cycle_single
dma_owner_map none->device 2048 missing_sync_single
dma_owner_sync_for_cpu device->cpu 2048 missing_sync_single
dma_owner_sync_for_cpu cpu->cpu 2048 missing_sync_single
dma_owner_violation missing-sync-for-device cpu 2048 missing_sync_single
dma_owner_unmap cpu->none 2048 missing_sync_single
W
check "trace: a mapping's life and a violation, event by event" \
	"got: $(tr '\n' '|' <"$T/life")" cmp -s "$T/life" "$T/want"
handles=$(section life | head -5 | grep -o 'handle=0x[0-9a-f]*' | sort -u | wc -l)
check "trace: one handle through the whole life" "$handles handles" [ "$handles" = 1 ]
check "trace: events name the device and driver" "device $dev" \
	[ "$(section life | grep -c "test_dma_owner $dev ")" = 10 ]

kinds=$(section kind | grep -o 'dma_owner_violation: *[a-z-]*' | awk '{print $2}' | sort | uniq -c | xargs)
check "trace: a filter on kind records only that kind" "got: $kinds" [ "$kinds" = "1 missing-sync-for-device" ]

devs=$(section device | sed -E 's/.*dma_owner_[a-z_]+: +[^ ]+ ([^ ]+) .*/\1/' | sort | uniq -c | xargs)
check "trace: a filter on device records only that device" "got: $devs" [ "$devs" = "16 $dev" ]

perf_count() { sed -n "s/^\([0-9]*\),,dma_owner:$1,.*/\1/p" "$T/o"; }
st() { sed -n '/^--- stats$/,$p' "$T/o" | sed -n "s/^$1: //p"; }
echo "# perf: map $(perf_count dma_owner_map) unmap $(perf_count dma_owner_unmap) cpu $(perf_count dma_owner_sync_for_cpu) device $(perf_count dma_owner_sync_for_device) violation $(perf_count dma_owner_violation)"
check "perf: dma_owner_map count = stats maps" "perf $(perf_count dma_owner_map), stats $(st maps)" \
	[ "$(perf_count dma_owner_map)" = "$(st maps)" -a "$(st maps)" -gt 100 ]
check "perf: dma_owner_sync_for_cpu count = stats syncs_for_cpu" "perf $(perf_count dma_owner_sync_for_cpu), stats $(st syncs_for_cpu)" \
	[ "$(perf_count dma_owner_sync_for_cpu)" = "$(st syncs_for_cpu)" ]
check "perf: dma_owner_sync_for_device count = stats syncs_for_device" "perf $(perf_count dma_owner_sync_for_device), stats $(st syncs_for_device)" \
	[ "$(perf_count dma_owner_sync_for_device)" = "$(st syncs_for_device)" ]
# 2 from the test module, plus any of the documented e1000 finding
check "perf: dma_owner_violation count = stats violations (>= 2)" "perf $(perf_count dma_owner_violation), stats $(st violations)" \
	[ "$(perf_count dma_owner_violation)" = "$(st violations)" -a "$(st violations)" -ge 2 ]
