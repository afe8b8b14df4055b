#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the guest's base initramfs (uncompressed newc cpio, so each run can
# append a second archive with its own script and files): busybox-static,
# trace-cmd and perf with the shared libraries ldd lists, our modules,
# the dmaown tool and guest scripts.
set -e
. "$(dirname "$0")/lib.sh"
rm -f "$CACHE/kernel-$CONFIG_NAME.stamp"	# see scripts/kernel.sh

root=$GUEST/root
rm -rf "$root"
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,lib,lib64,etc,proc,sys,dev,tmp,root,vm}
mkdir -p "$root/usr/share/dma-owner"

cp /bin/busybox "$root/bin/busybox"
for app in $("$root/bin/busybox" --list); do
	[ -e "$root/bin/$app" ] || ln -s busybox "$root/bin/$app"
done
cp "$REPO/tests/guest/init" "$root/init"
chmod +x "$root/init"
# nobody: for tests of what a tool says to a user who is not root.
printf '%s\n' "root:x:0:0:root:/root:/bin/sh" "nobody:x:65534:65534:nobody:/:/bin/sh" \
	>"$root/etc/passwd"
printf '%s\n' "root:x:0:" "nogroup:x:65534:" >"$root/etc/group"

# A dynamically linked program (at DEST, by default its own path) and every
# library it needs, at the same paths.
copy_prog() {
	local prog=$1 dest=${2:-$1} lib
	install -D -m755 "$prog" "$root$dest"
	for lib in $(ldd "$prog" | grep -o '/[^ ]*'); do
		[ -e "$root$lib" ] || install -D -m755 "$lib" "$root$lib"
	done
}
copy_prog /usr/bin/trace-cmd
copy_prog /usr/bin/perf

mkdir -p "$CACHE/tools"
make -s -C "$REPO/tools/dmaown" OUTPUT="$CACHE/tools/" >"$CACHE/tools/build.log" 2>&1 ||
	{ cat "$CACHE/tools/build.log" >&2; die "tools/dmaown does not build"; }
copy_prog "$CACHE/tools/dmaown" /usr/bin/dmaown

[ -d "$GUEST/modroot/lib/modules" ] && cp -a "$GUEST/modroot/lib/modules" "$root/lib/"
cp "$REPO"/tests/guest/*.sh "$REPO"/tests/guest/*.awk "$root/usr/share/dma-owner/"

# Written aside and renamed: a boot already running reads the old one whole.
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) >"$GUEST/base.cpio.new"
mv "$GUEST/base.cpio.new" "$GUEST/base.cpio"
say "initramfs: $GUEST/base.cpio ($(du -h "$GUEST/base.cpio" | cut -f1))"
