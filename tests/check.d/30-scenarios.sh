#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The violation matrix: every test_dma_owner scenario on dma-direct, with
# swiotlb bouncing everything, behind intel-iommu and on a platform device,
# in the default mode and with poison and the opt-in checks (see the units
# at the end),
# each checked three ways -- debugfs (the counters, and the violations log's
# kind, device and handle), the report in dmesg, and the dma_owner_violation
# trace event (kind, device, handle) -- for exactly the expected violation,
# or for silence; with dma_owner.poison=1 on the three DMA paths, where the
# poison_ scenarios check that KASAN catches the CPU at the right function.
# And CONFIG_DMA_API_DEBUG, built in beside the tracker,
# still reports a map error nobody checked.
. "$(dirname "$0")/../lib-test.sh"

echo 'sh /usr/share/dma-owner/scenarios.sh' >"$T/run-all.sh"
echo 'CHECKS=default sh /usr/share/dma-owner/scenarios.sh' >"$T/run-default.sh"
# The misuse is real misuse: dma-debug and swiotlb's overflow check WARN too.
allow="$REPORT_WARN|$DMA_DEBUG_WARN|$SWIOTLB_WARN"

quiet() { "$@" >/dev/null 2>&1; }

matrix() {
	local mode=$1 line
	shift
	only "$mode" || return 0
	vm "$T/$mode.out" --allow-warn "$allow" "$@" "$T/run-$CHECKS.sh"
	check "$mode: guest run clean" "rc=$rc: $(head -3 "$T/$mode.out.err")" [ $rc = 0 ]
	# The guest printed each scenario's channels raw; they are read here.
	local res=$T/$mode.res
	python3 "$REPO/tests/scenario-results.py" "$T/$mode.out" >"$res"
	local n=0 fast=0 all=0 poison=
	case "$KERNEL_ARGS" in *dma_owner.poison=1*) poison=1 ;; esac
	local want_checks=NN
	[ "$CHECKS" = all ] && want_checks=YY
	check "$mode: the opt-in checks were as asked (CHECKS=$CHECKS)" \
		"$(grep -m1 '^checks' "$T/$mode.out")" grep -q "^checks $want_checks" "$T/$mode.out"
	while read -r line; do
		n=$((n + 1))
		unset name expect dev handle records violations kindcount logkind logop logdev loghandle dmesgkind dmesgall dmesgdev runfailed tracen tracekind tracedev tracehandle dmadebug_maperr dmesgfn syncs walked
		eval "$(echo "${line#R }" | tr ' ' '\n' | grep '=' | sed "s/=\(.*\)/='\1'/")"
		if [ -z "$expect" ]; then
			not_ok "$mode/$name" "the scenario did not run: $line"
			continue
		fi
		if [ "$expect" = none ]; then
			check "$mode/$name: debugfs silent" "violations=$violations, log: $logkind" \
				[ "$violations" = 0 -a "$logkind" = - ]
			check "$mode/$name: dmesg silent" "$dmesgall reports" [ "$dmesgall" = 0 ]
			check "$mode/$name: no trace event" "$tracen events" [ "$tracen" = 0 ]
		else
			check "$mode/$name: debugfs counts one $expect and logs it on the device and handle" \
				"violations=$violations violation.$expect=$kindcount; log: $logkind $logdev $loghandle, want $expect $dev $handle" \
				[ "$violations" = 1 -a "$kindcount" = 1 -a "$logkind" = "$expect" -a "$logdev" = "$dev" -a "$loghandle" = "$handle" ]
			check "$mode/$name: the log's record line says what its prose says" \
				"records: ${records:-none}, want 1:ok" [ "$records" = 1:ok ]
			check "$mode/$name: dmesg reports $expect on the device" \
				"dmesg: $dmesgkind of $expect, $dmesgall in all, device lines $dmesgdev" \
				[ "$dmesgkind" = 1 -a "$dmesgall" = 1 -a "$dmesgdev" -ge 1 ]
			check "$mode/$name: one trace event, $expect on the device and handle" \
				"trace: $tracen events, $tracekind $tracedev $tracehandle" \
				[ "$tracen" = 1 -a "$tracekind" = "$expect" -a "$tracedev" = "$dev" -a "$tracehandle" = "$handle" ]
		fi
		# KASAN caught the access: the report names the function that
		# made it (or, for a free, the function that called kfree()).
		case $name in poison_correct|poison_identical_handles) ;; poison_*)
			check "$mode/$name: the report names the scenario's own function" \
				"report in ${dmesgfn:-nothing}, want $name" [ "$dmesgfn" = "$name" ] ;;
		esac
		# And it is KASAN's report, of the access, not a later call's: a
		# freed buffer is reported at the kfree(), while the device owns
		# it, and at the unmap only when the CPU owned it then.
		local wantop=
		case $name in
		poison_read_*)			wantop=read ;;
		poison_write_*)			wantop=write ;;
		poison_free_device_owned)	wantop=free ;;
		poison_free_cpu_owned)		wantop=unmap ;;
		esac
		[ -z "$wantop" ] ||
			check "$mode/$name: the log's record names the $wantop" \
				"record op=${logop:--}, want $wantop" [ "$logop" = "$wantop" ]
		# The tracker must not take dma-debug's map error check away;
		# cycle_single checks its map, so the count can be told apart.
		case $name in
		unchecked_map_error)
			check "$mode/$name: dma-debug reports the unchecked map error" \
				"dma-debug printed 'failed to check map error' ${dmadebug_maperr:-no} times" \
				[ "${dmadebug_maperr:-0}" -ge 1 ] ;;
		cycle_single)
			check "$mode/$name: dma-debug sees its map error checked" \
				"dma-debug printed 'failed to check map error' ${dmadebug_maperr:-no} times" \
				[ "$dmadebug_maperr" = 0 ]
			# Its three syncs are the common path's, but where a
			# check or the poison sends them down the walk.
			[ "$CHECKS" = default ] && [ -z "$poison" ] &&
				check "$mode/$name: its 3 syncs took the common path" \
					"syncs=$syncs walked=$walked" [ "$syncs" = 3 -a "$walked" = 0 ] ;;
		esac
		[ "$expect" != none ] || { fast=$((fast + ${syncs:-0} - ${walked:-0})); all=$((all + ${syncs:-0})); }
	done < <(grep '^R ' "$res")
	echo "# $mode: correct scenarios: $all syncs, $fast on the common path"
	# Every scenario the module lists but "random" (test 50's), as the
	# guest counted them.
	local want
	want=$(sed -n 's/^scenarios //p' "$res")
	check "$mode: every scenario ran" "$n scenarios reported, want ${want:-none}" \
		[ "${want:-0}" -gt 0 -a "$n" = "${want:-0}" ]
	# dma_owner.poison=1 on the three DMA paths: its scenarios ran there.
	local poisoned
	poisoned=$(grep -c '^R name=poison_' "$res")
	case $mode in direct|swiotlb|iommu)
		check "$mode: the dma_owner.poison scenarios ran" "$poisoned ran, want 8" \
			[ "$poisoned" = 8 ] ;;
	esac
	[ "$mode" = direct ] || return 0
	# The reports the docs quote are this run's (scripts/doc-examples.py
	# update out/doc-examples.txt ... rewrites them after a change).
	mkdir -p "$REPO/out"
	grep '^X ' "$res" >"$REPO/out/doc-examples.txt"
	local docs=("$REPO/Documentation/dma-owner.rst" "$REPO/README.md")
	check "docs: the reports they quote are what the tracker prints" \
		"$("$REPO/scripts/doc-examples.py" check "$REPO/out/doc-examples.txt" "${docs[@]}" 2>&1 | head -30)" \
		quiet "$REPO/scripts/doc-examples.py" check "$REPO/out/doc-examples.txt" "${docs[@]}"
}

# Both modes on every DMA path. With dma_owner.poison=1 and the opt-in
# checks on (CHECKS=all), every scenario, correct or not, must draw exactly
# what it draws without them. In the default mode (no poison, the opt-in
# checks off, as most kernels will run), every scenario but those only the
# opt-in checks see: on dma-direct through the platform device, on swiotlb
# and behind intel-iommu through edu.
unit direct with CHECKS=all QEMU_ARGS="-device edu" KERNEL_ARGS="dma_owner.poison=1" matrix direct
unit swiotlb with CHECKS=all QEMU_ARGS="-device edu" KERNEL_ARGS="swiotlb=force dma_owner.poison=1" \
	matrix swiotlb
unit iommu with CHECKS=all QEMU_ARGS="-device edu" KERNEL_ARGS="dma_owner.poison=1" matrix iommu --iommu
unit platform-device with CHECKS=default matrix platform-device
unit swiotlb-default with CHECKS=default QEMU_ARGS="-device edu" KERNEL_ARGS="swiotlb=force" \
	matrix swiotlb-default
unit iommu-default with CHECKS=default QEMU_ARGS="-device edu" matrix iommu-default --iommu
units_wait
