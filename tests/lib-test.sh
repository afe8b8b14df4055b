# SPDX-License-Identifier: GPL-2.0
# Helpers for tests/check.d/*.sh. Each test prints one line per result:
#   ok - NAME            or            not ok - NAME: WHY
# and tests/check.sh counts them. Sourced, not run.
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
VM=$REPO/tests/vm/run-vm.sh
T=$(mktemp -d "${TMPDIR:-/tmp}/dma-owner-test.XXXXXX")
trap 'rm -rf "$T"' EXIT

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
# sets $rc.
# A failed run's output, stderr and kernel log are kept in out/logs/.
vm() {
	local out=$1 keep
	shift
	"$VM" --log "$out.console" "$@" >"$out" 2>"$out.err"
	rc=$?
	if [ $rc != 0 ]; then
		keep=$REPO/out/logs/$(basename "$0" .sh)-$(basename "$out")
		mkdir -p "$REPO/out/logs"
		cp "$out" "$keep.out"; cp "$out.err" "$keep.err"; cp "$out.console" "$keep.console"
		echo "# run exited $rc: kept in ${keep#$REPO/}.{out,err,console}"
	fi
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
	for _ in $(seq 100); do
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
sg-count-mismatch sg-segment-limit bad-memory cpu-address-mismatch"
NR_KINDS=$(echo $KINDS | wc -w)

# The documented e1000 finding (Documentation/dma-owner.rst, "Findings"),
# as the violations log names it. Any test with e1000 traffic may see it.
E1000_FINDING="missing-sync-for-device in e1000_clean_rx_irq"

# check_reports NAME OUT FINDING: no violation at all, or, with FINDING, only
# that one: every violation of its kind, every logged report at its site
# (OUT has "site KIND in FUNC" lines from the guest's report_sites).
check_reports() {
	local v sites
	v=$(stat "$2" violations)
	if [ -z "$3" ]; then
		check "$1: violations 0" "violations=$v" [ "$v" = 0 ]
		return
	fi
	sites=$(tr -d '\r' <"$2" | sed -n 's/^site //p' | sort -u | tr '\n' '|')
	echo "# $1: $v reports, all of them the documented finding ($3)"
	check "$1: no report but the documented e1000 finding" \
		"violations=$v, missing-sync=$(stat "$2" violation.missing-sync-for-device), sites: $sites" \
		[ "$v" = "$(stat "$2" violation.missing-sync-for-device)" -a \( "$v" = 0 -o "$sites" = "$3|" \) ]
}
