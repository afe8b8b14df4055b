# SPDX-License-Identifier: GPL-2.0
# Helpers for tests/check.d/*.sh. Each test prints one line per result:
#   ok - NAME            or            not ok - NAME: WHY
# and tests/check.sh counts them. Sourced, not run.
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
. "$REPO/tests/jobs.sh"
VM=$REPO/tests/vm/run-vm.sh
T=$(mktemp -d "${TMPDIR:-/tmp}/dma-owner-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
# A stage run on its own has the machine to itself.
[ -n "$CHECK_TOKENS" ] || tokens_init "$T/tokens"

ok() { echo "ok - $1"; }
# only BOOT: is this boot of the stage to run? All are, unless CHECK_ONLY
# names some ("direct swiotlb"): make mutants runs the one that catches a
# mutant, not the whole stage.
only() { [ -z "$CHECK_ONLY" ] || [[ " $CHECK_ONLY " == *" $1 "* ]]; }
not_ok() { echo "not ok - $1: $2"; }
# check NAME WHY COMMAND...: ok if COMMAND succeeds, else not ok with WHY.
check() {
	local name=$1 why=$2
	shift 2
	if "$@"; then ok "$name"; else not_ok "$name" "$why"; fi
}
# vm OUT [run-vm options] SCRIPT: boot, run; stdout in OUT, stderr in OUT.err;
# sets $rc. The boot waits for its tokens (tests/jobs.sh: one, two with
# --smp above 2) and prints a line with its wall and CPU seconds:
#   # boot STAGE/NAME: wall W s, cpu C s, queued Q s, tokens N, rc R
# and, when QEMU itself died and the boot was run again, a line that
# tests/check.sh counts and shows:
#   # QEMU died, booted again: STAGE/NAME: ...
# A failed run's output, stderr and kernel log are kept in out/logs/.
vm() {
	local out=$1 keep cost=1 smp=2 tmo=600 a prev=
	shift
	for a in "$@"; do
		case "$prev" in --smp) smp=$a ;; --timeout) tmo=$a ;; esac
		prev=$a
	done
	[ "$smp" -le 2 ] || cost=2
	# A one-token boot runs its vCPUs on one host thread: two such boots
	# on two cores, each with a thread per vCPU, took 20% longer and 40%
	# more CPU (a vCPU spins on a lock whose holder's thread the host has
	# descheduled). The 4-CPU torture boot, two tokens, keeps a thread per
	# vCPU: it is there for CPUs that really run at once.
	local thread=single
	[ $cost = 1 ] || thread=multi
	timed boot "$(basename "$out" .out)" $cost $((tmo / 3)) to "$out" env \
		KERNEL_ARGS="$KERNEL_ARGS $VM_KERNEL_ARGS" TCG_THREAD=$thread \
		"$VM" --log "$out.console" "$@"
	grep -q '^vm: qemu died of signal' "$out.err" &&
		echo "# QEMU died, booted again: $(basename "$0" .sh)/$(basename "$out" .out):" \
			"$(grep -m1 '^vm: qemu died' "$out.err")"
	if [ $rc != 0 ]; then
		keep=$REPO/out/logs/$(basename "$0" .sh)-$(basename "$out")
		mkdir -p "$REPO/out/logs"
		cp "$out" "$keep.out"; cp "$out.err" "$keep.err"; cp "$out.console" "$keep.console"
		echo "# run exited $rc: kept in ${keep#$REPO/}.{out,err,console}"
	fi
}

# to OUT COMMAND...: COMMAND's output in OUT, its stderr in OUT.err.
to() {
	local out=$1
	shift
	"$@" >"$out" 2>"$out.err"
}

# timed boot|job NAME COST SECONDS COMMAND...: a boot (or another job, a
# compile) that holds COST tokens, queued by its estimate (tests/boot-times,
# else SECONDS); sets $rc and prints
#   # boot STAGE/NAME: wall W s, cpu C s, queued Q s, tokens N, rc R
# ("# job" for a job); wall is from the start, after the queue.
timed() {
	local what=$1 key times wall user sys
	shift
	key=$(basename "$0" .sh)/$1
	times=$T/times.$BASHPID
	local TIMEFORMAT='%R %U %S'
	{ time tokens "$2" "$(estimate "$key" "$3")" "${@:4}"; } 2>"$times"
	rc=$?
	read -r wall user sys <"$times"
	echo "# $what $key: wall $((${wall%.*} - ${TOKENS_WAITED:-0})) s, cpu $(awk -v u="$user" -v s="$sys" \
		'BEGIN { printf "%d", u + s }') s, queued ${TOKENS_WAITED:-0} s, tokens $2, rc $rc"
}

# A web server on the host's loopback for guest traffic (the guest dials
# 10.0.2.2:$HTTP_PORT through slirp), serving the files of $1.
start_http() {
	# The server binds port 0 itself and says which port it got: a port
	# chosen here and bound later could be taken in between.
	python3 -u -c '
import functools, http.server, sys
h = functools.partial(http.server.SimpleHTTPRequestHandler, directory=sys.argv[1])
s = http.server.ThreadingHTTPServer(("127.0.0.1", 0), h)
print(s.server_address[1], flush=True)
s.serve_forever()' "$1" >"$T/http.port" 2>"$T/http.log" &
	HTTP_PID=$!
	trap 'kill $HTTP_PID 2>/dev/null; rm -rf "$T"' EXIT
	# Up to a minute: the stages start at once on a loaded machine.
	for _ in $(seq 600); do
		HTTP_PORT=$(head -1 "$T/http.port")
		[ -n "$HTTP_PORT" ] && return
		sleep 0.1
	done
	echo "not ok - http server did not start"
}

# serve_blob SIZE: serve $T/www/ over HTTP, holding "blob", SIZE random
# bytes (head -c units) whose md5sum is in $md5, for the guest's traffic.
serve_blob() {
	mkdir -p "$T/www"
	head -c "$1" /dev/urandom >"$T/www/blob"
	md5=$(md5sum <"$T/www/blob" | cut -d' ' -f1)
	start_http "$T/www"
}

# stat OUT KEY: the value of KEY in a "key: value" dump in OUT.
stat() {
	tr -d '\r' <"$1" | sed -n "s/^$2: //p" | tail -1
}

# The WARNs a run may expect, each exactly: the tracker's report (one WARN,
# in dma_owner_emit()), and, where a test misuses the DMA API on purpose,
# dma-debug's reports and swiotlb's bounce overflow. Each names the function
# that warned, so that a BUG or lockdep splat in the same file
# ("sleeping function called from invalid context at ...") never passes.
REPORT_WARN='at kernel/dma/owner_report\.c:[0-9]+ dma_owner_emit\+0x'
DMA_DEBUG_WARN='at kernel/dma/debug\.c:[0-9]+ (check_|debug_dma_|dma_debug_|add_dma_entry|active_cacheline_)[a-z_]*\+0x'
SWIOTLB_WARN='at kernel/dma/swiotlb\.c:[0-9]+ swiotlb_[a-z_]*\+0x'

# Every violation kind, as stats names them (violation.KIND), in their
# order: the tests that count or list them take them from here.
KINDS="missing-sync-for-device redundant-sync-for-device unknown-handle
use-after-unmap out-of-range dir-mismatch size-mismatch
cpu-write-while-device-owned leak map-error-unchecked api-mismatch
sg-count-mismatch sg-segment-limit bad-memory cpu-address-mismatch
cache-line-shared cpu-read-while-device-owned freed-while-mapped"
NR_KINDS=$(echo $KINDS | wc -w)

# The documented findings (FINDINGS.md), one
# a line: DRIVER KIND FUNCTION [STACK], as the kernel counts a report: the
# driver of the device that made the DMA call, the kind, the function that
# made it, exactly. Where that function maps for many drivers
# (virtio's ring), STACK, an extended regex, must match the map stack of the
# other mapping the logged report names. Any test with these drivers'
# traffic may see them; a report no line matches is a tracker bug, or a
# finding to document.
FINDINGS="e1000 missing-sync-for-device e1000_clean_rx_irq
e100 redundant-sync-for-device e100_rx_alloc_skb
e100 redundant-sync-for-device e100_poll
e100 redundant-sync-for-device e100_rx_clean
e100 redundant-sync-for-device e100_rx_alloc_list
e100 cpu-write-while-device-owned e100_rx_alloc_skb
e100 cpu-write-while-device-owned e100_poll
e100 cpu-read-while-device-owned e100_poll
e100 cpu-read-while-device-owned e100_rx_alloc_list
e100 cpu-write-while-device-owned e100_rx_alloc_list
virtio-pci cache-line-shared vring_map_one_sg virtnet_send_command_reply|__virtscsi_add_cmd"

# is_finding DRIVER KIND FUNCTION: does a documented finding match? A
# DRIVER of '*' matches any.
is_finding() {
	local d k f
	while read -r d k f _; do
		# shellcheck disable=SC2053	# $f is a pattern
		[ "$1" = "*" -o "$1" = "$d" ] && [ "$2" = "$k" ] && [[ $3 == $f ]] &&
			return 0
	done <<<"$FINDINGS"
	return 1
}

# finding_stack KIND FUNCTION: the STACK of the finding at that site, if any.
finding_stack() {
	local d k f st
	while read -r d k f st; do
		# shellcheck disable=SC2053	# $f is a pattern
		[ "$1" = "$k" ] && [[ $2 == $f ]] && [ -n "$st" ] && echo "$st" && return
	done <<<"$FINDINGS"
}

# unexpected_reports OUT: the reports OUT counted (lines "count violation
# DRIVER KIND FUNCTION N" of the guest's counts) that are no documented
# finding, as DRIVER:KIND:FUNCTION=N, one a line. A finding with a STACK
# holds only the reports whose call's stack ("count shared_stack N F..."
# lines) has one of its functions: every one of the N must.
unexpected_reports() {
	local drv kind func n st from
	tr -d '\r' <"$1" | awk '$1 == "count" && $2 == "violation" { print $3, $4, $5, $6 }' |
		while read -r drv kind func n; do
			is_finding "$drv" "$kind" "$func" || { echo "$drv:$kind:$func=$n"; continue; }
			st=$(finding_stack "$kind" "$func")
			[ -n "$st" ] || continue
			from=$(tr -d '\r' <"$1" | awk -v f="$func" -v re=" ($st)( |\$)" '
				$1 == "count" && $2 == "shared_stack" {
					s = ""; for (i = 4; i <= NF; i++) s = s " " $i
					if (index(s " ", " " f " ") && s " " ~ re) n += $3 }
				END { print n + 0 }')
			[ "$from" = "$n" ] ||
				echo "$drv:$kind:$func=$n (only $from of them called from $st)"
		done
}

# check_reports NAME OUT: every report logged (OUT has "site KIND in FUNC"
# lines from the guest's report_sites) is a documented finding's, and the
# log agrees with the counter of violations: none logged, none counted.
check_reports() {
	local v sites bad
	v=$(stat "$2" violations)
	sites=$(tr -d '\r' <"$2" | sed -n 's/^site //p' | sort -u)
	# the log's site line names no driver
	bad=$(while read -r kind _ func; do
		[ -z "$kind" ] || is_finding '*' "$kind" "$func" || echo "$kind in $func"
	done <<<"$sites"
	tr -d '\r' <"$2" | sed -n 's/^stack //p' | while read -r kind _ func frames; do
		func=${func%:} st=$(finding_stack "$kind" "$func")
		[ -z "$st" ] || grep -qE " ($st)( |\$)" <<<" $frames " ||
			echo "$kind in $func, the other mapping from:$frames"
	done)
	echo "# $1: $v reports${sites:+, at: $(tr '\n' '|' <<<"$sites")}"
	check "$1: no report but the documented findings" \
		"violations=$v, undocumented sites: $bad" \
		[ -z "$bad" -a \( "$v" != 0 -o -z "$sites" \) ]
}
