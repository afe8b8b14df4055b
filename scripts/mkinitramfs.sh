#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Build the guest's base initramfs (uncompressed newc cpio, so each run can
# append a second archive with its own script and files): busybox-static,
# trace-cmd and perf with the shared libraries ldd lists, our modules,
# tools and guest scripts.
set -e
. "$(dirname "$0")/lib.sh"

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
echo "root:x:0:0:root:/root:/bin/sh" >"$root/etc/passwd"
echo "root:x:0:" >"$root/etc/group"

# A dynamically linked program and every library it needs, at the same paths.
copy_prog() {
	local prog=$1 lib
	install -D -m755 "$prog" "$root$prog"
	for lib in $(ldd "$prog" | grep -o '/[^ ]*'); do
		[ -e "$root$lib" ] || install -D -m755 "$lib" "$root$lib"
	done
}
copy_prog /usr/bin/trace-cmd
copy_prog /usr/bin/perf

[ -d "$GUEST/modroot/lib/modules" ] && cp -a "$GUEST/modroot/lib/modules" "$root/lib/"
cp "$REPO"/tests/guest/*.sh "$root/usr/share/dma-owner/" 2>/dev/null || true

(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) >"$GUEST/base.cpio"
say "initramfs: $GUEST/base.cpio ($(du -h "$GUEST/base.cpio" | cut -f1))"
