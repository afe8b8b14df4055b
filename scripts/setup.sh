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

# shellcheck disable=SC2086	# one word per package
"$(dirname "$0")/install-packages.sh" $PACKAGES
mkdir -p "$CACHE"
echo "$want" >"$stamp"
