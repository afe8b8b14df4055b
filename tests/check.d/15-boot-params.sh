#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Hostile and extreme boot parameters: every dma_owner.* parameter at its
# limits, and values that must be refused. Each boot carries NIC and disk
# traffic and test_dma_owner's correct scenarios (nothing may be reported,
# nothing may crash), then one misuse as a positive control, reported with
# the kind those parameters imply. Refused values leave the defaults. Then
# two short boots: dma_owner=off, and report=panic.
. "$(dirname "$0")/../lib-test.sh"

serve_blob 1M

# boot NAME MISUSE KERNEL_ARGS: traffic, correct scenarios, one misuse.
boot() {
	local name=$1 misuse=$2 args=$3
	cat >"$T/$name.sh" <<S
. /usr/share/dma-owner/traffic.sh
P=/sys/module/dma_owner/parameters
for p in enabled hash_entries unmapped_entries log_size report ratelimit_ms map_stacks check_contents check_segments cache_line ignore; do
echo "param \$p \$(cat \$P/\$p)"
done
dmesg | sed -n 's/.*dma-owner hash table entries: \([0-9]*\) .*/buckets \1/p'
net_up || exit 10
fetch 2 http://10.0.2.2:$HTTP_PORT/blob $md5 || exit 11
disk_rw /dev/nvme0n1 4 || exit 12
modprobe test_dma_owner || exit 13
for s in cycle_single cycle_sg partial_sync skip_sync_fragments page_pool_rx identical_handles noncoherent_cycle cache_line_aligned_fields cache_line_sg_segments; do
echo \$s >/sys/kernel/debug/test_dma_owner/run || exit 14
done
echo "correct \$(sed -n 's/^violations: //p' /sys/kernel/debug/dma-owner/stats)"
echo "correct-kinds \$(grep '^violation\.' /sys/kernel/debug/dma-owner/stats | grep -v ': 0\$' | tr '\n' ' ')"
dmesg | grep -oE 'dma-owner: [a-z-]+ in [^+]*' | sort | uniq -c | sed 's/^/correct-site /'
echo $misuse >/sys/kernel/debug/test_dma_owner/run || exit 15
cat /sys/kernel/debug/dma-owner/stats
echo "logged \$(grep -c '^seq=' /sys/kernel/debug/dma-owner/violations)"
S
	KERNEL_ARGS="$args" vm "$T/$name.out" --timeout 900 \
		--allow-warn "$REPORT_WARN|$DMA_DEBUG_WARN" \
		--nic e1000e --nvme 64M "$T/$name.sh"
	check "$name: boots, traffic verified, no splat" \
		"rc=$rc: $(tail -2 "$T/$name.out") $(head -2 "$T/$name.out.err")" [ $rc = 0 ]
	local correct
	correct=$(tr -d '\r' <"$T/$name.out" | sed -n 's/^correct //p')
	check "$name: correct traffic and scenarios report nothing" \
		"violations=${correct:-none}: $(tr -d '\r' <"$T/$name.out" | sed -n 's/^correct-kinds //p')" \
		[ "$correct" = 0 ]
	check "$name: the tracker saw the traffic" "maps=$(stat "$T/$name.out" maps)" \
		[ "$(stat "$T/$name.out" maps)" -gt 1000 ]
}

param() { tr -d '\r' <"$T/$1.out" | sed -n "s/^param $2 //p"; }

# The limits: the smallest table (hash_entries=1 once shifted by 64), no
# memory of unmapped handles, a one-record log, no rate limit, no stacks.
# (Not check_contents=1: QEMU's e1000e writes offloaded TCP checksums into
# the guest's TX buffers, which the content check rightly sees change;
# Documentation/dma-owner.rst, "What the tracker cannot see".)
params_limits() {
	only limits || return 0
	boot limits use_after_unmap_single "dma_owner.hash_entries=1 dma_owner.unmapped_entries=0 dma_owner.log_size=1 dma_owner.ratelimit_ms=0 dma_owner.map_stacks=off dma_owner.report=all dma_owner.cache_line=16"
	check "limits: a use after unmap, with no unmapped memory, is an unknown handle" \
		"violation.unknown-handle=$(stat "$T/limits.out" violation.unknown-handle), use-after-unmap=$(stat "$T/limits.out" violation.use-after-unmap)" \
		[ "$(stat "$T/limits.out" violation.unknown-handle)" = 1 -a "$(stat "$T/limits.out" violation.use-after-unmap)" = 0 ]
	check "limits: the log keeps one record" "logged $(tr -d '\r' <"$T/limits.out" | sed -n 's/^logged //p')" \
		[ "$(tr -d '\r' <"$T/limits.out" | sed -n 's/^logged //p')" = 1 ]
	buckets() { tr -d '\r' <"$T/$1.out" | sed -n 's/^buckets //p'; }
	check "limits: the values were taken" "unmapped_entries=$(param limits unmapped_entries) log_size=$(param limits log_size) buckets=$(buckets limits) cache_line=$(param limits cache_line)" \
		[ "$(param limits unmapped_entries)" = 0 -a "$(param limits log_size)" = 1 -a "$(param limits map_stacks)" = 0 -a "$(buckets limits)" = 256 -a "$(param limits cache_line)" = 16 ]
}

# Huge: more buckets than memory holds are clamped, a million unmapped records.
params_huge() {
	only huge || return 0
	boot huge use_after_unmap_single "dma_owner.hash_entries=99999999999999 dma_owner.unmapped_entries=1048576 dma_owner.log_size=65536 dma_owner.cache_line=0"
	check "huge: a use after unmap is named" "violation.use-after-unmap=$(stat "$T/huge.out" violation.use-after-unmap)" \
		[ "$(stat "$T/huge.out" violation.use-after-unmap)" = 1 ]
}

# A few unmapped records (1 to 8 once made one set, whose hash shifted a
# u64 by 64: the first unmap then locked memory outside the table).
params_few() {
	only few || return 0
	boot few use_after_unmap_single "dma_owner.unmapped_entries=5"
	check "few: a use after unmap is named, with 5 unmapped records" \
		"violation.use-after-unmap=$(stat "$T/few.out" violation.use-after-unmap)" \
		[ "$(stat "$T/few.out" violation.use-after-unmap)" = 1 ]
	check "few: the value was taken" "unmapped_entries=$(param few unmapped_entries)" \
		[ "$(param few unmapped_entries)" = 5 ]
}

# Garbage: every value refused, the defaults kept, the tracker on.
params_garbage() {
	only garbage || return 0
	boot garbage missing_sync_single "dma_owner=maybe dma_owner.enabled=2 dma_owner.hash_entries=-1 dma_owner.unmapped_entries=99999999999 dma_owner.log_size=0 dma_owner.report=bogus dma_owner.ratelimit_ms=-5 dma_owner.check_contents=maybe dma_owner.map_stacks=3 dma_owner.check_segments=maybe dma_owner.cache_line=256 dma_owner.ignore=missing-sync-for-device:missing_sync_single,nokind:foo"
	check "garbage: refused values leave the defaults" \
		"$(tr -d '\r' <"$T/garbage.out" | grep '^param ' | tr '\n' ' ')" \
		[ "$(param garbage enabled)" = 1 -a "$(param garbage hash_entries)" = 0 -a \
		  "$(param garbage unmapped_entries)" = 8192 -a "$(param garbage log_size)" = 64 -a \
		  "$(param garbage report)" = ratelimit -a "$(param garbage ratelimit_ms)" = 5000 -a \
		  "$(param garbage check_contents)" = N -a "$(param garbage map_stacks)" = 1 -a \
		  "$(param garbage check_segments)" = N -a "$(param garbage cache_line)" = 128 -a \
		  -z "$(param garbage ignore)" ]
	check "garbage: the tracker still reports a missing sync" \
		"violation.missing-sync-for-device=$(stat "$T/garbage.out" violation.missing-sync-for-device)" \
		[ "$(stat "$T/garbage.out" violation.missing-sync-for-device)" = 1 ]
}

# dma_owner=off: nothing is tracked until tracking is switched on.
params_off() {
	only off || return 0
	cat >"$T/off.sh" <<S
. /usr/share/dma-owner/lib.sh
modprobe test_dma_owner || exit 13
echo "off enabled \$(cat \$D/enabled) param \$(cat /sys/module/dma_owner/parameters/enabled)"
echo missing_sync_single >\$R || exit 14
echo "off maps \$(stat maps) violations \$(stat violations)"
echo 1 >\$D/enabled || exit 15
echo missing_sync_single >\$R || exit 16
echo "on enabled \$(cat \$D/enabled) maps \$(stat maps) violations \$(stat violations)"
S
	KERNEL_ARGS="dma_owner=off" vm "$T/off.out" --allow-warn "$REPORT_WARN|$DMA_DEBUG_WARN" "$T/off.sh"
	tr -d '\r' <"$T/off.out" >"$T/off"
	check "off: boots, no splat" "rc=$rc: $(tail -2 "$T/off") $(head -2 "$T/off.out.err")" [ $rc = 0 ]
	check "off: dma_owner=off boots with tracking off, nothing tracked or reported" \
		"$(grep '^off ' "$T/off" | tr '\n' ' ')" \
		sh -c "grep -qx 'off enabled 0 param 0' '$T/off' && grep -qx 'off maps 0 violations 0' '$T/off'"
	set -- $(sed -n 's/^on //p' "$T/off")
	check "off: switched on, the tracker sees and reports the misuse" "$*" \
		[ "$2" = 1 -a "${4:-0}" -ge 1 -a "$6" = 1 ]
}

# dma_owner.report=panic: the first report panics, with the kind; a report
# an ignore rule of the command line matches is only counted.
params_panic() {
	only panic || return 0
	cat >"$T/panic.sh" <<S
. /usr/share/dma-owner/lib.sh
modprobe test_dma_owner || exit 13
echo missing_sync_single >\$R
echo "ignored \$(stat ignored) violations \$(stat violations) rules \$(cat /sys/module/dma_owner/parameters/ignore)"
echo redundant_sync_single >\$R
echo "still running"
S
	KERNEL_ARGS="dma_owner.report=panic dma_owner.ignore=missing-sync-for-device:missing_sync_single,*:no_such_function" \
		vm "$T/panic.out" --allow-warn "$REPORT_WARN|$DMA_DEBUG_WARN" "$T/panic.sh"
	check "panic: report=panic panics on the first report, naming its kind" \
		"rc=$rc: $(tr -d '\r' <"$T/panic.out.console" | grep -m1 'Kernel panic')" \
		sh -c "[ $rc = 125 ] && tr -d '\r' <'$T/panic.out.console' | grep -q 'Kernel panic - not syncing: dma-owner: redundant-sync-for-device (dma_owner.report=panic)'"
	check "panic: dma_owner.ignore= rules are taken; the report one matches is counted, not made" \
		"$(tr -d '\r' <"$T/panic.out.console" | grep -m1 '^ignored ')" \
		grep -qx 'ignored 1 violations 0 rules missing-sync-for-device:missing_sync_single,\*:no_such_function' \
		<(cat "$T/panic.out" "$T/panic.out.console" 2>/dev/null | tr -d '\r')
}

unit limits params_limits
unit huge params_huge
unit few params_few
unit garbage params_garbage
unit off params_off
unit panic params_panic
units_wait
