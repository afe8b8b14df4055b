#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The KUnit suite, in the guest, on dma-direct and with swiotlb bouncing
# everything (its real-API cases map through it). Not behind intel-iommu:
# the suite's device is a KUnit device no IOMMU ever translates for, so
# such a run would repeat dma-direct; 30-scenarios and 50-fault-injection
# take the IOMMU path on a PCI device. Each KTAP case is a result;
# a case missing from the output is a failure, and so is a skipped one: a
# case skips only when tracking is off, size_t is 32-bit or the kernel has
# no DMA alignment (CONFIG_DMA_OWNER_DEBUG_CACHE_LINE=n), none of which
# may happen here.
. "$(dirname "$0")/../lib-test.sh"

# A rule the user set before the suite ran is there after it.
cat >"$T/kunit.sh" <<'S'
echo 'leak:user_rule' >/sys/kernel/debug/dma-owner/ignore
sh /usr/share/dma-owner/kunit.sh
echo "rules after: $(cat /sys/kernel/debug/dma-owner/ignore)"
S

run_mode() {
	local mode=$1
	shift
	only "$mode" || return 0
	vm "$T/$mode.out" "$@" "$T/kunit.sh"
	check "kunit[$mode]: guest run clean" "rc=$rc: $(head -3 "$T/$mode.out.err")" [ $rc = 0 ]
	local n=0 line
	while read -r line; do
		n=$((n + 1))
		case "$line" in
		"ok "*"# SKIP"*) not_ok "kunit[$mode]: ${line#ok [0-9]* }" \
			"skipped: on this 64-bit kernel with tracking on and 128-byte lines, nothing may skip" ;;
		"ok "*) ok "kunit[$mode]: ${line#ok [0-9]* }" ;;
		*) not_ok "kunit[$mode]: ${line#not ok [0-9]* }" "failed in the guest" ;;
		esac
	done < <(tr -d '\r' <"$T/$mode.out" | sed -n 's/^    \(\(not \)\{0,1\}ok [0-9][0-9]* test_.*\)/\1/p')
	# The suite's KTAP plan ("1..N") says how many cases it has.
	local want
	want=$(tr -d '\r' <"$T/$mode.out" | sed -n 's/^    1\.\.\([0-9]*\)$/\1/p' | head -1)
	check "kunit[$mode]: all ${want:-?} cases of the plan ran" "$n of ${want:-no plan} reported" \
		[ "${want:-0}" -gt 0 -a "$n" = "${want:-0}" ]
	check "kunit[$mode]: suite passed" "no 'ok 1 dma_owner'" grep -q "^ok 1 dma_owner" "$T/$mode.out"
	check "kunit[$mode]: the user's ignore rules survive the suite" \
		"$(tr -d '\r' <"$T/$mode.out" | grep '^rules after')" \
		grep -qx 'rules after: leak:user_rule 0' <(tr -d '\r' <"$T/$mode.out")
}

unit direct run_mode direct
unit swiotlb with KERNEL_ARGS=swiotlb=force run_mode swiotlb
units_wait
