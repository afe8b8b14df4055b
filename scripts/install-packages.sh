#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# install-packages.sh PACKAGE...: install, with apt-get, those of the
# Debian packages named that are not installed yet; nothing if all are.
# setup.sh installs everything with it; make dmaown only the tool's build
# dependencies ("make -C tools/dmaown deb-packages"), so that building the
# tool does not need the kernel source, QEMU and the tests' packages.
set -e
. "$(dirname "$0")/lib.sh"

[ $# -gt 0 ] || die "usage: $0 PACKAGE..."
missing=
for p in "$@"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
[ -n "$missing" ] || exit 0
command -v apt-get >/dev/null || die "missing packages:$missing; install them (no apt-get here)"
[ "$(id -u)" = 0 ] || die "missing packages:$missing; run as root or install them"
say "installing:$missing"
log=$(mktemp)
# shellcheck disable=SC2086	# one word per package
if ! { apt-get update && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y --no-install-recommends $missing; } >"$log" 2>&1; then
	tail -20 "$log" >&2
	die "apt-get failed installing:$missing (full log: $log)"
fi
rm -f "$log"
