#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The harness tests itself: a failing script, a panic, a hang and an
# unexpected WARN each fail the run with a clear message; an external module
# builds against "make -s kdir" and loads through "make vm-run VM_FILES=";
# a QEMU that dies of SIGSEGV is booted again, its first log still judged,
# and one that aborts is not; and every mutant of "make mutants" still
# applies. The boots run side by side (units, tests/jobs.sh).
. "$(dirname "$0")/../lib-test.sh"

quiet() { "$@" >/dev/null 2>&1; }

cat >"$T/exit3.sh" <<'S'
echo "hello from the guest"
test -d /sys/kernel/debug/dma-owner -o -d /sys/kernel/debug/block || exit 9
test -e /sys/kernel/tracing/events/dma || exit 8
exit 3
S
exit_status() {
	vm "$T/exit3.out" "$T/exit3.sh"
	check "script exit status comes back" "rc=$rc, want 3 ($(tail -3 "$T/exit3.out.err"))" [ $rc = 3 ]
	check "script output is printed" "no greeting in output" grep -q "hello from the guest" "$T/exit3.out"
}

panic() {
	echo 'echo c >/proc/sysrq-trigger; sleep 60' >"$T/panic.sh"
	vm "$T/panic.out" --timeout 240 "$T/panic.sh"
	check "a guest panic fails the run" "rc=$rc, want 125" [ $rc = 125 ]
	check "a guest panic is named" "message: $(head -1 "$T/panic.out.err")" grep -q "FAIL: guest kernel panicked" "$T/panic.out.err"
}

hang() {
	echo 'echo sleeping; sleep 100000' >"$T/hang.sh"
	vm "$T/hang.out" --timeout 40 "$T/hang.sh"
	check "a hung guest fails the run" "rc=$rc, want 124" [ $rc = 124 ]
	check "a hung guest is named" "message: $(head -1 "$T/hang.out.err")" grep -q "FAIL: guest timed out after 40s" "$T/hang.out.err"
}

# fake_qemu NAME SIGNAL LINE: a stand-in for QEMU that, the first time,
# writes LINE to the console log and dies of SIGNAL; after that it is QEMU.
fake_qemu() {
	local f=$T/fake-$1
	shift
	cat >"$f" <<F
#!/bin/bash
if [ ! -e "$f.ran" ]; then
	: >"$f.ran"
	for a in "\$@"; do case "\$a" in file:*) echo "$2" >"\${a#file:}"; break ;; esac; done
	kill -$1 \$\$
fi
exec qemu-system-x86_64 "\$@"
F
	chmod +x "$f"
	echo "$f"
}

# QEMU's own crash is retried, and says so; the first boot is still judged;
# an abort is not retried.
retry() {
	local q
	q=$(fake_qemu segv SEGV "[    0.5] booting")
	timed boot retry-segv 1 60 to "$T/segv.out" env QEMU_SYSTEM="$q" "$VM" "$T/exit3.sh"
	check "QEMU dead of SIGSEGV: booted again, the script's status comes back" \
		"rc=$rc, want 3: $(tail -3 "$T/segv.out.err")" [ $rc = 3 ]
	check "QEMU dead of SIGSEGV: the retry is said" "$(head -2 "$T/segv.out.err")" \
		grep -q '^vm: qemu died of signal 11 (the host' "$T/segv.out.err"
	q=$(fake_qemu segv-warn SEGV "[    0.5] WARNING: CPU: 0 PID: 1 at lib/fake.c:1 fake_warn+0x0/0x10")
	timed boot retry-segv-warn 1 60 to "$T/segvw.out" env QEMU_SYSTEM="$q" "$VM" "$T/exit3.sh"
	check "QEMU dead of SIGSEGV: a WARN of the first boot still fails the run" \
		"rc=$rc, want 125: $(grep FAIL "$T/segvw.out.err")" \
		sh -c "[ $rc = 125 ] && grep -q 'FAIL: unexpected WARN in the guest: WARNING: .*fake_warn' '$T/segvw.out.err'"
	q=$(fake_qemu abrt ABRT "[    0.5] booting")
	timed boot retry-abrt 1 60 to "$T/abrt.out" env QEMU_SYSTEM="$q" "$VM" "$T/exit3.sh"
	check "QEMU dead of SIGABRT (what a guest can trigger): not booted again, the run fails" \
		"rc=$rc, want 126: $(tail -3 "$T/abrt.out.err")" \
		sh -c "[ $rc = 126 ] && ! grep -q 'booting again' '$T/abrt.out.err'"
}

module() {
	# An external module, built the way a driver author would.
	cp -r "$REPO/tests/harness/warn_module" "$T/mod"
	kdir=$(make -s -C "$REPO" kdir)
	make -s -C "$kdir" M="$T/mod" modules >"$T/build.log" 2>&1
	check "external module builds against make -s kdir" "$(tail -3 "$T/build.log")" test -f "$T/mod/warn_test.ko"
	mkdir "$T/files"
	cp "$T/mod/warn_test.ko" "$T/files/"
	printf '%s\n' 'insmod warn_test.ko || exit 1' \
		"grep -q '^warn_test ' /proc/modules || exit 2" 'echo loaded' >"$T/load.sh"
	timed boot vm-run-load 1 60 to "$T/load.out" make -s -C "$REPO" vm-run SCRIPT="$T/load.sh" VM_FILES="$T/files"
	check "vm-run loads a VM_FILES module and returns 0" "rc=$rc: $(tail -3 "$T/load.out.err")" [ $rc = 0 ]
	check "vm-run prints the script output" "no 'loaded'" grep -qx loaded "$T/load.out"

	echo 'insmod warn_test.ko warn=1; echo after' >"$T/warn.sh"
	vm "$T/warn.out" --files "$T/files" "$T/warn.sh"
	check "an unexpected WARN fails the run" "rc=$rc, want 125" [ $rc = 125 ]
	check "an unexpected WARN is named" "message: $(head -1 "$T/warn.out.err")" grep -q "FAIL: unexpected WARN" "$T/warn.out.err"
	vm "$T/warn-allowed.out" --files "$T/files" --allow-warn 'warn_test' "$T/warn.sh"
	check "an expected WARN (--allow-warn) passes" "rc=$rc: $(head -1 "$T/warn-allowed.out.err")" [ $rc = 0 ]
}

quickstart() {
	# The README's quick start, run as written from a driver directory outside
	# the repository, in a home of its own (the clone is a link to this tree;
	# the kernel cache is the one built).
	qs=$T/quickstart
	mkdir -p "$qs/home"
	awk '/<!-- quickstart -->/ { f = 1; next } f && /^```/ { if (g) exit; g = 1; next } g' \
		"$REPO/README.md" | sed 's|^git clone .*|ln -s "$REPO" ~/dma-owner|' >"$qs/steps.sh"
	check "quick start: the README has its steps" "$(cat "$qs/steps.sh")" \
		[ "$(grep -c '^make ' "$qs/steps.sh")" -ge 3 ]
	steps() { (cd "$qs/home" && HOME="$qs/home" REPO="$REPO" DMA_OWNER_CACHE="$CACHE" \
		bash "$qs/steps.sh" >"$qs/out" 2>"$qs/err"); }
	timed boot quickstart 1 120 steps
	check "quick start: the module builds in the driver's directory" "$(tail -3 "$qs/err")" \
		test -f "$qs/home/mydma/mydma.ko"
	check "quick start: vm-run says 125, a report's WARN, as documented" "$(tail -3 "$qs/err")" \
		grep -qx 'vm-run: exit status 125' "$qs/err"
	check "quick start: dmaown shows the missing sync in mydma_rx_poll, on mydma's device" \
		"$(grep -m3 'mydma\|missing' "$qs/out")" \
		sh -c "grep -q 'missing-sync-for-device in mydma_rx_poll+' '$qs/out' && grep -q 'driver mydma, device ' '$qs/out'"
}

# Through make the status is a line and a file, not make's own exit code.
make_status() {
	timed boot vm-run-status 1 60 to "$T/status.out" make -s -C "$REPO" vm-run \
		SCRIPT="$T/exit3.sh" VM_STATUS="$T/status" VM_OPTS="--timeout 120"
	check "vm-run: make fails when the script fails" "rc=$rc" [ $rc != 0 ]
	check "vm-run: the script's status is printed and written" \
		"stderr: $(tail -2 "$T/status.out.err" | tr '\n' ' '), VM_STATUS: $(cat "$T/status" 2>&1)" \
		[ "$(grep -cx 'vm-run: exit status 3' "$T/status.out.err")" = 1 -a "$(cat "$T/status" 2>/dev/null)" = 3 ]
}

unit quickstart quickstart
unit module module
unit panic panic
unit hang hang
unit exit-status exit_status
unit make-status make_status
unit retry retry
units_wait

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
# must still apply to the tree as it is, exactly (no fuzz), and inside the
# function its "Function:" line names, or a refactor silently disarms it
# (patch(1) takes the same lines wherever they are).
for p in "$REPO"/tests/mutants/*.patch; do
	check "mutant $(basename "$p" .patch) applies to the tree, in its function" \
		"$("$REPO/scripts/mutant-where.py" "$REPO" "$p" 2>&1 | grep -v '^[^ ]* [^ ]*$' | tail -2)" \
		quiet "$REPO/scripts/mutant-where.py" "$REPO" "$p"
done
