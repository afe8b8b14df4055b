# SPDX-License-Identifier: GPL-2.0
# Helpers for tests/check.d/*.sh. Each test prints one line per result:
#   ok - NAME            or            not ok - NAME: WHY
# and tests/check.sh counts them. Sourced, not run.
. "$(dirname "${BASH_SOURCE[0]}")/../scripts/lib.sh"
VM=$REPO/tests/vm/run-vm.sh
T=$(mktemp -d "${TMPDIR:-/tmp}/dma-owner-test.XXXXXX")
trap 'rm -rf "$T"' EXIT

ok() { echo "ok - $1"; }
not_ok() { echo "not ok - $1: $2"; }
# check NAME WHY COMMAND...: ok if COMMAND succeeds, else not ok with WHY.
check() {
	local name=$1 why=$2
	shift 2
	if "$@"; then ok "$name"; else not_ok "$name" "$why"; fi
}
# vm OUT [run-vm options] SCRIPT: boot, run; stdout in OUT, stderr in OUT.err;
# sets $rc.
vm() {
	local out=$1
	shift
	"$VM" "$@" >"$out" 2>"$out.err"
	rc=$?
}
