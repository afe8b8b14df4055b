#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The violation matrix: every test_dma_owner scenario on dma-direct, with
# swiotlb bouncing everything and behind intel-iommu, each checked three
# ways -- the debugfs counters, the debugfs violations log (kind, device,
# handle) and the report in dmesg -- for exactly the expected violation,
# or for silence.
. "$(dirname "$0")/../lib-test.sh"

echo 'sh /usr/share/dma-owner/scenarios.sh' >"$T/run.sh"
# The misuse is real misuse: dma-debug and swiotlb's overflow check WARN too.
allow='at kernel/dma/(owner_report|debug|swiotlb)\.c'

matrix() {
	local mode=$1 line
	shift
	vm "$T/$mode.out" --allow-warn "$allow" "$@" "$T/run.sh"
	check "$mode: guest run clean" "rc=$rc: $(head -3 "$T/$mode.out.err")" [ $rc = 0 ]
	local n=0
	while read -r line; do
		n=$((n + 1))
		unset name expect dev handle violations kindcount logkind logdev loghandle dmesgkind dmesgall dmesgdev runfailed
		eval "$(echo "${line#R }" | tr ' ' '\n' | grep '=' | sed "s/=\(.*\)/='\1'/")"
		if [ -z "$expect" ]; then
			not_ok "$mode/$name" "the scenario did not run: $line"
			continue
		fi
		if [ "$expect" = none ]; then
			check "$mode/$name: debugfs counts no violation" "violations=$violations" [ "$violations" = 0 ]
			check "$mode/$name: debugfs log empty" "log has $logkind" [ "$logkind" = - ]
			check "$mode/$name: dmesg silent" "$dmesgall reports" [ "$dmesgall" = 0 ]
		else
			check "$mode/$name: debugfs counts one $expect" \
				"violations=$violations violation.$expect=$kindcount" \
				[ "$violations" = 1 -a "$kindcount" = 1 ]
			check "$mode/$name: debugfs log names $expect, the device, the handle" \
				"log: $logkind $logdev $loghandle, want $expect $dev $handle" \
				[ "$logkind" = "$expect" -a "$logdev" = "$dev" -a "$loghandle" = "$handle" ]
			check "$mode/$name: dmesg reports $expect on the device" \
				"dmesg: $dmesgkind of $expect, $dmesgall in all, device lines $dmesgdev" \
				[ "$dmesgkind" = 1 -a "$dmesgall" = 1 -a "$dmesgdev" -ge 1 ]
		fi
	done < <(tr -d '\r' <"$T/$mode.out" | grep '^R ')
	check "$mode: every scenario ran" "$n scenarios reported" [ $n -ge 26 ]
}

QEMU_ARGS="-device edu" matrix direct
QEMU_ARGS="-device edu" KERNEL_ARGS="swiotlb=force" matrix swiotlb
QEMU_ARGS="-device edu" matrix iommu --iommu
matrix platform-device
