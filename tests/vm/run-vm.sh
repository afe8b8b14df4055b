#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Boot the built kernel in QEMU, run a script as root in the guest, print its
# output and return its exit status -- unless the kernel itself went wrong.
usage() {
	cat <<'USAGE'
usage: run-vm.sh [options] SCRIPT      run SCRIPT in the guest
       run-vm.sh [options] --shell     interactive guest shell

The guest has debugfs at /sys/kernel/debug and tracefs at /sys/kernel/tracing.
SCRIPT runs with sh as root, in /vm/files (the --files copy) if given.

options:
  --files DIR        copy DIR's contents into the guest at /vm/files
  --timeout SEC      kill the guest after SEC seconds (default 600)
  --allow-warn RE    WARNINGs whose line matches RE (extended regex) are
                     expected; any other WARN fails the run
  --nic MODEL        add a NIC (e1000, e1000e, virtio-net-pci, i82559er,
                     pcnet, vmxnet3, rtl8139, tulip...) on slirp; the Nth
                     (from 0) has MAC 52:54:00:12:34:5N and its own network
                     10.0.(2+N).0/24, the host being 10.0.(2+N).2
  --nvme SIZE        add an nvme disk of SIZE (e.g. 64M), made on the fly
  --ahci SIZE        add a SATA disk on q35's AHCI controller
  --virtio-blk SIZE  add a virtio-blk disk
  --scsi HBA:SIZE    add a SCSI disk on its own host adapter HBA
                     (lsi53c895a, megasas, mptsas1068, pvscsi, am53c974,
                     virtio-scsi-pci)
  --usb-storage [HC:]SIZE
                     add a USB disk behind its own host controller HC
                     (qemu-xhci, the default, or usb-ehci)
  --sd SIZE          add an SD card (SIZE a power of 2) on an sdhci-pci
                     controller
  --iommu            add intel-iommu (and intel_iommu=on); virtio devices
                     then use iommu_platform=on
  --smp N            N virtual CPUs (default 2)
  --log FILE         keep the kernel console log in FILE
  -q                 do not print the script output as it runs

environment: QEMU_ARGS (extra QEMU options), KERNEL_ARGS (extra kernel
command line), ACCEL=tcg|kvm|icount (default: kvm only if a probe boot
works; icount: TCG in which guest time counts instructions, 1 ns each, so
that a guest-side timer measures work, not the host's load),
QEMU_SYSTEM (the emulator, default qemu-system-x86_64), TCG_THREAD=multi|single
(under TCG, a host thread per vCPU, the default, or one for all: make check
runs its one-core boots side by side with single, see tests/lib-test.sh).

QEMU itself dying of SIGSEGV or SIGBUS (a host emulator crash) boots the
guest once more, says so on stderr ("vm: qemu died of signal N"), and
judges both boots' console logs; any other death of QEMU is the run's.

exit status: the script's own, or 124 the guest timed out, 125 the kernel
panicked, oopsed, or printed a KASAN, lockdep, BUG or unexpected WARN report,
126 the guest died without reporting a status, 2 usage or setup error.
USAGE
}
. "$(dirname "$0")/../../scripts/lib.sh"

timeout=${VM_TIMEOUT:-600} files= allow= log= quiet= shell= script= iommu= smp=2
devices=() disks=() kargs=()
while [ $# -gt 0 ]; do
	case "$1" in
	--files) files=$2; shift ;;
	--timeout) timeout=$2; shift ;;
	--allow-warn) allow=$2; shift ;;
	--nic) devices+=(nic:$2); shift ;;
	--nvme|--ahci|--virtio-blk|--sd) disks+=("${1#--}:$2"); shift ;;
	--usb-storage) hc=qemu-xhci:$2; [[ "$2" == ?*:?* ]] && hc=$2
		disks+=("usb-storage:$hc"); shift ;;
	--scsi) [[ "$2" == ?*:?* ]] || die "--scsi wants HBA:SIZE"
		disks+=("scsi:$2"); shift ;;
	--iommu) iommu=1 ;;
	--smp) smp=$2; shift ;;
	--log) log=$2; shift ;;
	-q) quiet=1 ;;
	--shell) shell=1 ;;
	-h|--help) usage; exit 0 ;;
	-*) usage >&2; die "unknown option $1" ;;
	*) [ -z "$script" ] || die "one script only"; script=$1 ;;
	esac
	shift
done
[ -n "$script$shell" ] || { usage >&2; exit 2; }
[ -z "$script" ] || [ -f "$script" ] || die "no script $script"
[ -z "$files" ] || [ -d "$files" ] || die "--files $files: not a directory"
[[ "$timeout" =~ ^[0-9]+$ ]] || die "--timeout wants seconds"
[[ "$smp" =~ ^[1-8]$ ]] || die "--smp wants 1 to 8 CPUs (the test kernel's NR_CPUS)"
kernel=$BUILD/arch/x86/boot/bzImage
[ -f "$kernel" ] && [ -f "$GUEST/base.cpio" ] || die "no built kernel; run 'make kernel' first"

run=$(mktemp -d "${TMPDIR:-/tmp}/dma-owner-vm.XXXXXX")
trap 'rm -rf "$run"' EXIT
log=${log:-$run/console.log}
out=$run/output.log
: >"$log"; : >"$out"

# The run's own files, appended to the base initramfs as a second archive.
mkdir -p "$run/extra/vm"
[ -n "$script" ] && cp "$script" "$run/extra/vm/run.sh"
[ -n "$files" ] && cp -a "$files/." "$run/extra/vm/files/"
(cd "$run/extra" && find . | cpio -o -H newc --quiet -R 0:0) >"$run/extra.cpio"
cat "$GUEST/base.cpio" "$run/extra.cpio" >"$run/initrd"

qargs=(-machine q35 -smp "$smp" -m 1G -nodefaults -display none -no-reboot
       -kernel "$kernel" -initrd "$run/initrd")
kargs=(console=ttyS0 panic=-1 oops=panic)
virtio_opt=
if [ -n "$iommu" ]; then
	qargs+=(-device intel-iommu,intremap=off)
	kargs+=(intel_iommu=on)
	virtio_opt=,disable-legacy=on,iommu_platform=on
fi
i=0 ahci_port=0
for d in "${devices[@]}"; do
	model=${d#nic:}
	case "$model" in virtio*) model=$model$virtio_opt ;; esac
	[ $i -lt 10 ] || die "at most 10 NICs"
	qargs+=(-netdev "user,id=net$i,net=10.0.$((2 + i)).0/24"
		-device "$model,netdev=net$i,mac=52:54:00:12:34:5$i")
	i=$((i + 1))
done
for d in "${disks[@]}"; do
	kind=${d%%:*} size=${d##*:}
	truncate -s "$size" "$run/disk$i.img" || die "bad disk size in --$kind $size"
	qargs+=(-drive "file=$run/disk$i.img,if=none,id=disk$i,format=raw")
	case "$kind" in
	nvme) qargs+=(-device "nvme,serial=dmaowner$i,drive=disk$i") ;;
	ahci) qargs+=(-device "ide-hd,drive=disk$i,bus=ide.$ahci_port")
	      ahci_port=$((ahci_port + 1)) ;;
	virtio-blk) qargs+=(-device "virtio-blk-pci,drive=disk$i$virtio_opt") ;;
	scsi) hba=${d#scsi:} hba=${hba%:*}
	      case "$hba" in virtio*) hba=$hba$virtio_opt ;; esac
	      qargs+=(-device "$hba,id=hba$i" -device "scsi-hd,drive=disk$i,bus=hba$i.0") ;;
	usb-storage) hc=${d#usb-storage:} hc=${hc%:*}
		     qargs+=(-device "$hc,id=hc$i" -device "usb-storage,drive=disk$i,bus=hc$i.0") ;;
	sd) qargs+=(-device "sdhci-pci,id=sdhci$i" -device "sd-card,drive=disk$i") ;;
	esac
	i=$((i + 1))
done

# KVM hangs at boot under nested virtualisation on some machines: use it only
# where a short probe boot works, and remember the verdict until the host
# reboots (one slow probe must not rule KVM out for good).
accel=$ACCEL
if [ -z "$accel" ]; then
	accel=tcg
	if [ -w /dev/kvm ]; then
		probe=$CACHE/kvm.probe.$(cat /proc/sys/kernel/random/boot_id)
		if [ ! -f "$probe" ]; then
			echo 'exit 0' >"$run/probe.sh"
			if ACCEL=kvm "$0" -q --timeout 30 "$run/probe.sh" >/dev/null 2>&1; then
				echo kvm >"$probe"
			else
				echo tcg >"$probe"
			fi
		fi
		accel=$(cat "$probe")
	fi
fi
# No 5-level paging under TCG: with la57, KASAN sometimes reports a
# wild-memory-access in rcu_is_watching() when an interrupt hits early boot
# (start_kernel -> identify_cpu), before any of our code runs.
case "$accel" in
kvm) qargs+=(-accel kvm -cpu host) ;;
tcg) qargs+=(-accel tcg,thread=${TCG_THREAD:-multi} -cpu max,la57=off) ;;
# One host thread runs every vCPU, and an idle guest skips ahead.
icount) qargs+=(-accel tcg,thread=single -icount shift=0,sleep=off -cpu max,la57=off) ;;
*) die "ACCEL=$accel: want tcg, kvm or icount" ;;
esac

# shellcheck disable=SC2206
extra_qemu=($QEMU_ARGS)
# The emulator; 00-harness puts a stand-in here that crashes on purpose.
qemu=${QEMU_SYSTEM:-qemu-system-x86_64}
cmdline="${kargs[*]} $KERNEL_ARGS"

if [ -n "$shell" ]; then
	exec "$qemu" "${qargs[@]}" "${extra_qemu[@]}" -append "$cmdline" \
		-serial mon:stdio -serial null
fi

# One boot; sets qemu_rc and timed_out. timeout(1) keeps the time, so
# that waiting costs no process a tenth of a second (dozens of boots may
# run or wait at once); it passes on the signal that killed QEMU.
boot() {
	local t0=$SECONDS
	: >"$log"; : >"$out"
	timeout -k 2 "$timeout" "$qemu" "${qargs[@]}" "${extra_qemu[@]}" -append "$cmdline" \
		-serial "file:$log" -serial "file:$out" </dev/null >"$run/qemu.log" 2>&1 &
	qpid=$!
	[ -n "$quiet" ] || tail -n +1 -f --pid=$qpid "$out" 2>/dev/null |
		tr -d '\r' | grep --line-buffered -v '^DMA-OWNER-EXIT: ' &
	tailpid=$!
	wait $qpid 2>/dev/null
	qemu_rc=$?
	timed_out=
	# 124: timed out and ended by SIGTERM; 137: it took SIGKILL.
	if [ $qemu_rc = 124 ] || { [ $qemu_rc = 137 ] && [ $((SECONDS - t0)) -ge "$timeout" ]; }; then
		timed_out=1
	fi
	qemu_rc_first=${qemu_rc_first:-$qemu_rc}
	wait $tailpid 2>/dev/null
}

boot
# QEMU itself dying of SIGSEGV or SIGBUS is the host's emulator crashing
# (TCG with several vCPUs, seen once in CI), not the guest failing: boot
# once more, and say so on stderr (tests/lib-test.sh makes it a line that
# make check counts). No other signal: an abort is what QEMU does on a
# guest-triggered assertion, and a guest must never get a second chance.
# The first boot's console log is kept, ahead of the second's, and scanned
# with it: a KASAN report or WARN before the crash still fails the run.
if [ -z "$timed_out" ] && { [ "$qemu_rc" = $((128 + 11)) ] || [ "$qemu_rc" = $((128 + 7)) ]; }; then
	echo "vm: qemu died of signal $((qemu_rc - 128)) (the host's emulator, not the guest); booting again" >&2
	sed 's/^/vm: qemu: /' "$run/qemu.log" >&2
	cp "$log" "$run/console.first"
	boot
	{ echo "=== vm: first boot, until qemu died of signal $((qemu_rc_first - 128))"
	  cat "$run/console.first"; echo "=== vm: second boot"; cat "$log"; } >"$run/console.both"
	cp "$run/console.both" "$log"
fi

fail() {
	echo "vm: FAIL: $1" >&2
	if [ -n "$2" ]; then
		echo "vm: --- kernel log around it ($log) ---" >&2
		grep -n -m1 -E -- "$2" "$log" | cut -d: -f1 | while read -r l; do
			sed -n "$((l > 5 ? l - 5 : 1)),$((l + 30))p" "$log" | tr -d '\r' >&2
		done
	else
		echo "vm: --- last lines of the kernel log ($log) ---" >&2
		tail -n 25 "$log" | tr -d '\r' >&2
	fi
	[ -s "$run/qemu.log" ] && sed 's/^/vm: qemu: /' "$run/qemu.log" >&2
	exit "$3"
}

problems='Kernel panic|BUG: KASAN|Oops:|BUG:|WARNING:|INFO: |general protection fault'
first=$(tr -d '\r' <"$log" | grep -E -- "$problems" |
	{ if [ -n "$allow" ]; then grep -v -E -- "$allow"; else cat; fi } | head -1)
# A panic is the outcome that matters, whatever the dying kernel said first.
panic=$(tr -d '\r' <"$log" | grep -m1 -- 'Kernel panic')
[ -z "$panic" ] || first=$panic
if [ -n "$first" ]; then
	case "$first" in
	*"Kernel panic"*) what="guest kernel panicked" ;;
	*KASAN*) what="KASAN report in the guest" ;;
	*locking*|*"lock state"*|*"lock inversion"*) what="lockdep report in the guest" ;;
	*WARNING:*) what="unexpected WARN in the guest" ;;
	*) what="kernel error in the guest" ;;
	esac
	fail "$what: ${first#*] }" "$(printf '%s' "${first#*] }" | sed 's/[][\.*^$(){}+?|]/\\&/g')" 125
fi
[ -z "$timed_out" ] || fail "guest timed out after ${timeout}s (hung?)" "" 124
status=$(tr -d '\r' <"$out" | sed -n 's/^DMA-OWNER-EXIT: \([0-9]*\)$/\1/p' | tail -1)
[ -n "$status" ] || fail "guest died without reporting an exit status (qemu exit $qemu_rc)" "" 126
exit "$status"
