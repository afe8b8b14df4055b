#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The harness tests itself: a failing script, a panic, a hang and an
# unexpected WARN each fail the run with a clear message; an external module
# builds against "make -s kdir" and loads through "make vm-run VM_FILES=";
# and every mutant of "make mutants" still applies.
. "$(dirname "$0")/../lib-test.sh"

cat >"$T/exit3.sh" <<'S'
echo "hello from the guest"
test -d /sys/kernel/debug/dma-owner -o -d /sys/kernel/debug/block || exit 9
test -e /sys/kernel/tracing/events/dma || exit 8
exit 3
S
vm "$T/out" "$T/exit3.sh"
check "script exit status comes back" "rc=$rc, want 3 ($(tail -3 "$T/out.err"))" [ $rc = 3 ]
check "script output is printed" "no greeting in output" grep -q "hello from the guest" "$T/out"

echo 'echo c >/proc/sysrq-trigger; sleep 60' >"$T/panic.sh"
vm "$T/out" --timeout 240 "$T/panic.sh"
check "a guest panic fails the run" "rc=$rc, want 125" [ $rc = 125 ]
check "a guest panic is named" "message: $(head -1 "$T/out.err")" grep -q "FAIL: guest kernel panicked" "$T/out.err"

echo 'echo sleeping; sleep 100000' >"$T/hang.sh"
vm "$T/out" --timeout 40 "$T/hang.sh"
check "a hung guest fails the run" "rc=$rc, want 124" [ $rc = 124 ]
check "a hung guest is named" "message: $(head -1 "$T/out.err")" grep -q "FAIL: guest timed out after 40s" "$T/out.err"

# An external module, built the way a driver author would.
cp -r "$REPO/tests/harness/warn_module" "$T/mod"
kdir=$(make -s -C "$REPO" kdir)
make -s -C "$kdir" M="$T/mod" modules >"$T/build.log" 2>&1
check "external module builds against make -s kdir" "$(tail -3 "$T/build.log")" test -f "$T/mod/warn_test.ko"
mkdir "$T/files"
cp "$T/mod/warn_test.ko" "$T/files/"
cat >"$T/load.sh" <<'S'
insmod warn_test.ko || exit 1
grep -q '^warn_test ' /proc/modules || exit 2
echo loaded
S
make -s -C "$REPO" vm-run SCRIPT="$T/load.sh" VM_FILES="$T/files" >"$T/out" 2>"$T/out.err"
rc=$?
check "vm-run loads a VM_FILES module and returns 0" "rc=$rc: $(tail -3 "$T/out.err")" [ $rc = 0 ]
check "vm-run prints the script output" "no 'loaded'" grep -qx loaded "$T/out"

# The README's quick start, run as written from a driver directory outside
# the repository, in a home of its own (the clone is a link to this tree;
# the kernel cache is the one built).
qs=$T/quickstart
mkdir -p "$qs/home"
awk '/<!-- quickstart -->/ { f = 1; next } f && /^```/ { if (g) exit; g = 1; next } g' \
	"$REPO/README.md" | sed 's|^git clone .*|ln -s "$REPO" ~/dma-owner|' >"$qs/steps.sh"
check "quick start: the README has its steps" "$(cat "$qs/steps.sh")" \
	[ "$(grep -c '^make ' "$qs/steps.sh")" -ge 3 ]
(cd "$qs/home" && HOME="$qs/home" REPO="$REPO" DMA_OWNER_CACHE="$CACHE" \
	bash "$qs/steps.sh" >"$qs/out" 2>"$qs/err")
check "quick start: the module builds in the driver's directory" "$(tail -3 "$qs/err")" \
	test -f "$qs/home/mydma/mydma.ko"
check "quick start: vm-run says 125, a report's WARN, as documented" "$(tail -3 "$qs/err")" \
	grep -qx 'vm-run: exit status 125' "$qs/err"
check "quick start: dmaown shows the missing sync in mydma_rx_poll, on mydma's device" \
	"$(grep -m3 'mydma\|missing' "$qs/out")" \
	sh -c "grep -q 'missing-sync-for-device in mydma_rx_poll+' '$qs/out' && grep -q 'driver mydma, device ' '$qs/out'"

# Through make the status is a line and a file, not make's own exit code.
make -s -C "$REPO" vm-run SCRIPT="$T/exit3.sh" VM_STATUS="$T/status" VM_OPTS="--timeout 120" \
	>"$T/out" 2>"$T/out.err"
rc=$?
check "vm-run: make fails when the script fails" "rc=$rc" [ $rc != 0 ]
check "vm-run: the script's status is printed and written" \
	"stderr: $(tail -2 "$T/out.err" | tr '\n' ' '), VM_STATUS: $(cat "$T/status" 2>&1)" \
	[ "$(grep -cx 'vm-run: exit status 3' "$T/out.err")" = 1 -a "$(cat "$T/status" 2>/dev/null)" = 3 ]

echo 'insmod warn_test.ko warn=1; echo after' >"$T/warn.sh"
vm "$T/out" --files "$T/files" "$T/warn.sh"
check "an unexpected WARN fails the run" "rc=$rc, want 125" [ $rc = 125 ]
check "an unexpected WARN is named" "message: $(head -1 "$T/out.err")" grep -q "FAIL: unexpected WARN" "$T/out.err"
vm "$T/out" --files "$T/files" --allow-warn 'warn_test' "$T/warn.sh"
check "an expected WARN (--allow-warn) passes" "rc=$rc: $(head -1 "$T/out.err")" [ $rc = 0 ]

# The allow-lists admit a report's WARN, never another problem in its file.
allowed() { printf '%s\n' "$1" | grep -qE -- "$REPORT_WARN|$DMA_DEBUG_WARN|$SWIOTLB_WARN"; }
refused() { ! allowed "$1"; }
check "allow-list: the tracker's report WARN passes" "REPORT_WARN=$REPORT_WARN" \
	allowed 'WARNING: CPU: 1 PID: 91 at kernel/dma/owner_report.c:537 dma_owner_emit+0x14d/0x188'
check "allow-list: dma-debug's report WARN passes" "DMA_DEBUG_WARN=$DMA_DEBUG_WARN" \
	allowed 'WARNING: CPU: 1 PID: 31 at kernel/dma/debug.c:1042 check_unmap+0x9cd/0xb37'
for line in 'BUG: sleeping function called from invalid context at kernel/dma/owner_report.c:120' \
	'WARNING: CPU: 0 PID: 1 at kernel/dma/owner_report.c:80 log_resize+0x10/0x80' \
	'BUG: sleeping function called from invalid context at kernel/dma/debug.c:600' \
	'WARNING: CPU: 0 PID: 1 at kernel/dma/owner.c:300 insert+0x10/0x80'; do
	check "allow-list: refuses \"$line\"" "it matched" refused "$line"
done

# make mutants breaks the tracker one patch at a time (tests/mutants/): each
# must still apply to the tree as it is, exactly (no fuzz), or a refactor
# silently disarms it.
for p in "$REPO"/tests/mutants/*.patch; do
	check "mutant $(basename "$p" .patch) applies to the tree" \
		"$(patch --dry-run -p1 -F0 -f -d "$REPO" <"$p" 2>&1 | tail -2)" \
		patch --dry-run -p1 -F0 -s -f -d "$REPO" -i "$p"
done
