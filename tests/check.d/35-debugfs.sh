#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# /sys/kernel/debug/dma-owner/ after scripted workloads: exact counters, the
# violations log in order, log_size, the mappings listing, filter,
# clear and ignore; a fuzz of malformed writes; and reading mappings in a loop while
# another CPU maps and unmaps at full speed.
. "$(dirname "$0")/../lib-test.sh"

serve_blob 1M

cat >"$T/debugfs.sh" <<S
. /usr/share/dma-owner/traffic.sh
modprobe test_dma_owner || exit 10
dev=\$(test_device)
echo "testdev \$dev"
echo 1 >\$D/clear
for s in cycle_single cycle_sg missing_sync_single redundant_sync_single; do echo \$s >\$R; done
echo "--- stats1"; cat \$D/stats
echo "--- log1"; grep '^seq=' -A1 \$D/violations
echo 3 >/sys/module/dma_owner/parameters/log_size
for s in dir_mismatch_single size_mismatch_single out_of_range_single leak; do echo \$s >\$R; done
echo "--- log2"; grep '^seq=' -A1 \$D/violations
echo 64 >/sys/module/dma_owner/parameters/log_size
echo "--- log2grown"; grep '^seq=' -A1 \$D/violations
echo 1 >\$D/clear
echo "--- stats2"; cat \$D/stats
echo "--- log3"; cat \$D/violations
echo 0 >/sys/module/dma_owner/parameters/map_stacks
echo leak >\$R
echo "--- nostack"; cat \$D/violations
echo 1 >/sys/module/dma_owner/parameters/map_stacks
echo 1 >\$D/clear
net_up || exit 11
echo "--- mappings"; cat \$D/mappings
echo "\$dev" >\$D/filter
echo "--- filter"; cat \$D/filter
echo 1 >\$D/clear
fetch 2 http://10.0.2.2:$HTTP_PORT/blob $md5 >/dev/null || exit 12
echo cycle_single >\$R
echo "--- stats3"; cat \$D/stats
echo e1000 >\$D/filter
echo 1 >\$D/clear
fetch 2 http://10.0.2.2:$HTTP_PORT/blob $md5 >/dev/null || exit 13
echo redundant_sync_single >\$R
echo "--- stats4"; cat \$D/stats
echo >\$D/filter
echo "--- filter2"; cat \$D/filter
# One page mapped 40 times: 40 entries of one handle in one bucket, more
# than the listing copies out at a time.
echo "--- bucket"
H=/sys/kernel/debug/test_dma_owner/hold
echo 1 >\$D/clear
echo "40 same" >\$H || exit 14
echo "held \$(grep -c ' hold_write+0x' \$D/mappings)"
echo 0 >\$H
echo "held-violations \$(sed -n 's/^violations: //p' \$D/stats)"
echo "40 same junk" >\$H 2>/dev/null && echo "hold took trailing junk"
# Mappings made while the filter left the device out are unknown when it
# takes the device in: their unmaps must not be reported.
echo no-such-device >\$D/filter
echo 4 >\$H || exit 15
echo "\$dev" >\$D/filter
echo 1 >\$D/clear
echo 0 >\$H
echo >\$D/filter
echo "--- taken-in"; cat \$D/stats
# The rate limit: one report per call site and kind per interval, and the
# next one printed says how many were held back.
P=/sys/module/dma_owner/parameters
echo ratelimit >\$P/report
echo 2000 >\$P/ratelimit_ms
sleep 2.5
dmesg -c >/dev/null
for i in 1 2 3; do echo missing_sync_single >\$R; done
sleep 2.5
echo missing_sync_single >\$R
echo "printed \$(dmesg | grep -c 'dma-owner: missing-sync-for-device in ')"
echo "held-back \$(dmesg | sed -n 's/.* \([0-9][0-9]*\) more reports of this kind from this call site were rate-limited\$/\1/p' | xargs)"
echo 5000 >\$P/ratelimit_ms
# An ignore rule: its kind from its function is counted, not reported.
# (The filter keeps e1000's own finding out of the counts.)
echo all >/sys/module/dma_owner/parameters/report
echo "\$dev" >\$D/filter
echo 1 >\$D/clear
dmesg -c >/dev/null
echo "missing-sync-for-device:missing_sync_single" >\$D/ignore || exit 16
echo missing_sync_single >\$R
echo redundant_sync_single >\$R
echo "--- ignore"; cat \$D/ignore
echo "--- ignore-stats"; cat \$D/stats
echo "--- ignore-log"; grep '^seq=' \$D/violations
echo "--- ignore-dmesg"; dmesg | grep -o 'dma-owner: [a-z-]* in [a-z_]*'
echo "-missing-sync-for-device:missing_sync_single" >\$D/ignore || exit 17
echo missing_sync_single >\$R
echo "--- ignore-removed"; cat \$D/ignore; cat \$D/stats
echo >\$D/filter
echo ratelimit >/sys/module/dma_owner/parameters/report
echo "--- fuzz"
sh /usr/share/dma-owner/fuzz-writes.sh
maps() { sed -n 's/^maps: //p' \$D/stats; }
echo 0 >\$D/enabled; m0=\$(maps); e0=\$(cat \$D/enabled)
echo cycle_single >\$R; m1=\$(maps)
echo 1 >\$D/enabled; e1=\$(cat \$D/enabled)
echo cycle_single >\$R; m2=\$(maps)
echo "enabled-effect \$e0 \$m0 \$m1 \$e1 \$m2"
echo "--- race"
( end=\$((\$(date +%s) + 8)); while [ \$(date +%s) -lt \$end ]; do echo cycle_sg >\$R; done ) &
( end=\$((\$(date +%s) + 8)); while [ \$(date +%s) -lt \$end ]; do fetch 1 http://10.0.2.2:$HTTP_PORT/blob $md5 >/dev/null; done ) &
n=0 bad=0
end=\$((\$(date +%s) + 8))
while [ \$(date +%s) -lt \$end ]; do
	cat \$D/mappings >/tmp/m
	n=\$((n + 1))
	awk 'NR > 1 && (NF < 10 || NF > 11 || (NF == 11 && \$11 !~ /^\\[[a-z0-9_]+\\]\$/) || \$3 !~ /^0x[0-9a-f]+\$/ || \$5 !~ /^DMA_/ || \$6 !~ /^(device|cpu(-parts)?\\[0x[0-9a-f]+-0x[0-9a-f]+\\)|cpu\\+device)\$/)' /tmp/m >/tmp/bad
	[ -s /tmp/bad ] && sed 's/^/badline: /' /tmp/bad | head -3
	bad=\$((bad + \$(wc -l </tmp/bad)))
done
wait
echo "reads \$n badlines \$bad"
# A record names the functions of the module that drew it after the module
# is gone, as dmesg printed them.
echo 1 >\$D/clear
echo dir_mismatch_single >\$R
rmmod test_dma_owner || echo "rmmod failed"
echo "--- unloaded"; grep -A1 '^seq=' \$D/violations; echo "--- end"
S

QEMU_ARGS="-device edu" vm "$T/out" --nic e1000 --allow-warn "$REPORT_WARN|$DMA_DEBUG_WARN" "$T/debugfs.sh"
check "debugfs: guest run clean" "rc=$rc: $(tail -3 "$T/out") $(head -3 "$T/out.err")" [ $rc = 0 ]
tr -d '\r' <"$T/out" >"$T/o"
dev=$(sed -n 's/^testdev //p' "$T/o")
sec() { sed -n "/^--- $1\$/,/^---/p" "$T/o" | sed '1d;$d'; }
st() { sec "$1" | sed -n "s/^$2: //p"; }

# cycle_single: 1 map, 2 syncs for cpu, 1 for device; cycle_sg: 4 segments,
# each mapped, synced both ways, unmapped; missing_sync_single: 1 map, 2 for
# cpu; redundant_sync_single: 1 map, 1 for device.
for kv in maps=7 unmaps=7 syncs_for_cpu=8 syncs_for_device=6 live=0 untracked=0 \
	violations=2 violation.missing-sync-for-device=1 violation.redundant-sync-for-device=1 \
	violation.unknown-handle=0 violation.leak=0 enabled=1; do
	k=${kv%%=*}
	check "debugfs: stats $kv after the workload" "$k: $(st stats1 "$k")" [ "$(st stats1 "$k")" = "${kv#*=}" ]
done
check "debugfs: stats has a violation.<kind> line for each of the $NR_KINDS kinds, in order" \
	"$(sec stats1 | grep '^violation\.' | xargs)" \
	[ "$(sec stats1 | sed -n 's/^violation\.\([a-z-]*\):.*/\1/p' | xargs)" = "$(echo $KINDS)" ]
log1=$(sec log1 | sed -n 's/^\([a-z-]*\) in .*/\1/p' | xargs)
check "debugfs: violations log holds the kinds in order" "got: $log1" \
	[ "$log1" = "missing-sync-for-device redundant-sync-for-device" ]
log2=$(sec log2 | grep -o '^seq=[0-9]*\|^[a-z-]* in ' | xargs)
check "debugfs: log_size=3 keeps the newest three, oldest first" "got: $log2" \
	[ "$log2" = "seq=3 size-mismatch in seq=4 out-of-range in seq=5 leak in" ]
log2grown=$(sec log2grown | grep -o '^seq=[0-9]*\|^[a-z-]* in ' | xargs)
check "debugfs: growing the log to 64 keeps the same three and invents none" "got: $log2grown" \
	[ "$log2grown" = "$log2" ]
for k in maps violations violation.missing-sync-for-device; do
	check "debugfs: clear zeroes $k" "$k: $(st stats2 $k)" [ "$(st stats2 $k)" = 0 ]
done
check "debugfs: clear empties the log" "$(sec log3 | head -2)" [ -z "$(sec log3)" ]
check "debugfs: map_stacks=0: a leak report still names the map site, from the history" \
	"$(sec nostack | head -1)" grep -q '^leak in leak+' <(sec nostack)
check "debugfs: map_stacks=0: no stack recorded" "$(sec nostack | grep -A1 'mapped at:')" \
	[ "$(sec nostack | grep -c 'mapped at:')" = 0 ]
hdr=$(sec mappings | head -1)
check "debugfs: mappings header" "got: $hdr" \
	[ "$hdr" = "device driver handle size dir owner age_ms syncs_for_cpu syncs_for_device map_site" ]
rx=$(sec mappings | awk '$2 == "e1000" && $5 == "DMA_FROM_DEVICE" && $6 == "device"' | wc -l)
check "debugfs: mappings lists e1000's live rx buffers, device-owned" "$rx lines" [ "$rx" -ge 64 ]
has_site() { sec mappings | grep -q ' e1000_alloc_rx_buffers+0x'; }
check "debugfs: mappings names the map site" "$(sec mappings | sed -n 2p)" has_site
check "debugfs: filter reads back" "got: $(sec filter)" [ "$(sec filter)" = "$dev" ]
check "debugfs: filter on the device tracks only it (1 map)" "maps: $(st stats3 maps)" [ "$(st stats3 maps)" = 1 ]
check "debugfs: filter on driver e1000 tracks e1000, not the test device" \
	"maps: $(st stats4 maps), redundant-sync: $(st stats4 violation.redundant-sync-for-device)" \
	[ "$(st stats4 maps)" -gt 100 -a "$(st stats4 violation.redundant-sync-for-device)" = 0 ]
check "debugfs: empty filter reads back empty" "got: $(sec filter2)" [ -z "$(sec filter2)" ]
held=$(sed -n 's/^held //p' "$T/o")
check "debugfs: mappings lists all 40 entries of one bucket" "$held listed" [ "$held" = 40 ]
check "debugfs: 40 mappings of one page, half synced for the CPU, all unmapped: nothing reported" \
	"violations: $(sed -n 's/^held-violations //p' "$T/o")" [ "$(sed -n 's/^held-violations //p' "$T/o")" = 0 ]
check "debugfs: test_dma_owner's hold refuses trailing junk" "$(grep '^hold took' "$T/o")" \
	sh -c "! grep -q '^hold took' '$T/o'"
check "debugfs: a device the filter takes in: unmaps of its earlier mappings not reported" \
	"violations: $(st taken-in violations), unknown-handle: $(st taken-in violation.unknown-handle)" \
	[ "$(st taken-in violations)" = 0 ]
printed=$(sed -n 's/^printed //p' "$T/o") held_back=$(sed -n 's/^held-back //p' "$T/o")
check "debugfs: rate limit: 2 of 4 reports printed, the second says 2 were held back" \
	"printed $printed, held back: '$held_back'" [ "$printed" = 2 -a "$held_back" = 2 ]
ign=$(sec ignore)
check "debugfs: ignore lists the rule with its one hit" "got: $ign" \
	[ "$ign" = "missing-sync-for-device:missing_sync_single 1" ]
check "debugfs: an ignored report is counted as ignored, not as a violation" \
	"ignored $(st ignore-stats ignored), violations $(st ignore-stats violations), missing-sync $(st ignore-stats violation.missing-sync-for-device)" \
	[ "$(st ignore-stats ignored)" = 1 -a "$(st ignore-stats violations)" = 1 -a \
	  "$(st ignore-stats violation.missing-sync-for-device)" = 0 ]
check "debugfs: stats lists the rule" "$(sec ignore-stats | grep '^ignore')" \
	[ "$(st ignore-stats ignore)" = "missing-sync-for-device:missing_sync_single 1" ]
check "debugfs: an ignored report is neither logged nor printed; another kind is" \
	"log: $(sec ignore-log | xargs) dmesg: $(sec ignore-dmesg | xargs)" \
	[ "$(sec ignore-log | wc -l)" = 1 -a \
	  "$(sec ignore-dmesg | xargs)" = "dma-owner: redundant-sync-for-device in redundant_sync_single" ]
check "debugfs: a rule removed, the file is empty and the report is made again" \
	"$(sec ignore-removed | grep '^ignore\|^violation\.missing' | xargs)" \
	[ "$(st ignore-removed violation.missing-sync-for-device)" = 1 -a \
	  "$(sec ignore-removed | head -1)" = "enabled: 1" -a \
	  -z "$(st ignore-removed ignore)" -a "$(st ignore-removed ignored)" = 1 ]
fuzz=$(sec fuzz | grep "^refused " | tail -1)
echo "# fuzz: $fuzz"
check "debugfs: every malformed write refused" "$(sec fuzz | grep accepted: | head -3) $fuzz" \
	sh -c "echo '$fuzz' | grep -q 'accepted 0$' && ! grep -q '^accepted:' '$T/o'"
check "debugfs: malformed writes change nothing" "$(grep '^changed:' "$T/o" | head -3)" \
	sh -c "! grep -q '^changed:' '$T/o'"
check "debugfs: the fuzz's one-write path takes good values (enabled 0 and 1, filter set and emptied, an ignore rule added and removed)" \
	"$(grep '^control' "$T/o")" \
	[ "$(grep -c '^control ok:' "$T/o")" = 6 -a "$(grep -c '^control failed:' "$T/o")" = 0 ]
n=$(sed -n 's/^refused \([0-9]*\) .*/\1/p' "$T/o")
check "debugfs: fuzz covered hundreds of inputs" "$n" [ "${n:-0}" -ge 500 ]
set -- $(sed -n 's/^enabled-effect //p' "$T/o")
check "debugfs: enabled=0 reads back 0 and stops tracking; 1 reads back 1 and resumes" \
	"enabled $1, maps $2 -> $3 off; enabled $4, maps -> $5 on" \
	[ "$1" = 0 -a "$2" = "$3" -a "$4" = 1 -a "${5:-0}" -gt "${3:-0}" ]
race=$(sed -n 's/^reads //p' "$T/o")
echo "# mappings under load: reads $race"
check "debugfs: mappings read under load: well-formed lines" "$race $(grep -m3 "^badline:" "$T/o")" \
	[ "${race#* badlines }" = 0 -a "${race%% *}" -ge 5 ]
# The last section, read to the end of the output.
sed -n '/^--- unloaded$/,$p' "$T/o" | sed 1d >"$T/unloaded"
check "debugfs: a record names the code of a module unloaded since, as at the report (caller, map site, prose)" \
	"$(head -2 "$T/unloaded")" \
	grep -q 'caller=dir_mismatch_single+0x[0-9a-f]*/0x[0-9a-f]*\\040\[test_dma_owner\] map_site=dir_mismatch_single+0x[0-9a-f]*/0x[0-9a-f]*\\040\[test_dma_owner\]$' "$T/unloaded"
check "debugfs: its prose names the module's function too" "$(head -4 "$T/unloaded")" \
	grep -q '^dir-mismatch in dir_mismatch_single+0x[0-9a-f]*/0x[0-9a-f]* \[test_dma_owner\]$' "$T/unloaded"
