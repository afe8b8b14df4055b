#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Install, once, the Debian packages the build, the guest and the tests need.
# A stamp remembers success; delete it (or the package) to redo the check.
set -e
. "$(dirname "$0")/lib.sh"

PACKAGES="linux-source-6.12 build-essential gcc make flex bison bc libelf-dev
libssl-dev cpio xz-utils kmod rsync ccache python3 qemu-system-x86
busybox-static trace-cmd linux-perf libtracefs-dev libtraceevent-dev
libtracecmd-dev pkg-config python3-sphinx python3-ply python3-git python3-matplotlib
chromium
gcc-s390x-linux-gnu"

stamp=$CACHE/setup.stamp
want=$(echo $PACKAGES | md5sum | cut -d' ' -f1)
[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && exit 0

missing=
for p in $PACKAGES; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
		missing="$missing $p"
done
if [ -n "$missing" ]; then
	[ "$(id -u)" = 0 ] || die "missing packages:$missing; run as root or install them"
	say "installing:$missing"
	log=$(mktemp)
	if ! { apt-get update && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y --no-install-recommends $missing; } >"$log" 2>&1; then
		tail -20 "$log" >&2
		die "apt-get failed installing:$missing (full log: $log)"
	fi
	rm -f "$log"
fi
mkdir -p "$CACHE"
echo "$want" >"$stamp"
