#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# "make kernel": build the test kernel and the guest's initramfs, or do
# nothing when nothing they are made of changed since the last build.
#
# A stamp holds a checksum of everything the two are made of: the series and
# the files it adds or patches, the config fragments, the guest's scripts,
# the dmaown sources and the build scripts themselves. build-kernel.sh and
# mkinitramfs.sh, run on their own (make mutants does), remove the stamp
# first, so a tree they built from other sources is never taken as current.
# An unchanged tree is then a true no-op: kbuild's own walk of the tree
# takes most of a minute, and a rewritten initramfs would pull the base
# from under boots already reading it.
set -e
. "$(dirname "$0")/lib.sh"

stamp=$CACHE/kernel-$CONFIG_NAME.stamp
inputs() {
	cd "$REPO"
	{
		echo "config $CONFIG_NAME"
		find series configs kernel debugfs-ui tracepoints tools Documentation \
			tests/guest tests/patches tests/*.c \
			scripts/lib.sh scripts/kernel.sh scripts/build-kernel.sh \
			scripts/prepare-tree.sh scripts/mkinitramfs.sh \
			-type f ! -name '*.o' ! -path 'tools/*/out*' 2>/dev/null | LC_ALL=C sort |
			xargs md5sum
		md5sum /bin/busybox /usr/bin/trace-cmd /usr/bin/perf 2>/dev/null
	} | md5sum | cut -d' ' -f1
}
want=$(inputs)
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] &&
	[ -f "$BUILD/arch/x86/boot/bzImage" ] && [ -f "$GUEST/base.cpio" ]; then
	say "kernel and initramfs up to date"
	exit 0
fi
"$REPO/scripts/build-kernel.sh"
"$REPO/scripts/mkinitramfs.sh"
echo "$want" >"$stamp"
