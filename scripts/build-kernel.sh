#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Configure and build the kernel of configs/$CONFIG_NAME.config out of tree,
# with ccache, and install its modules for the guest.
#
# The config is tinyconfig + the fragment; a fragment's "#include NAME"
# lines pull in configs/NAME first. It is regenerated in a scratch
# directory each time and copied into the build only when it changed, so an
# unchanged config never triggers a full rebuild. Every option the fragment
# asks for must survive olddefconfig: a silently dropped dependency fails
# the build here rather than as a mystery in the guest.
set -e
. "$(dirname "$0")/lib.sh"

[ -f "$REPO/configs/$CONFIG_NAME.config" ] || die "no config fragment configs/$CONFIG_NAME.config"
expand() {
	local line
	[ -f "$REPO/configs/$1" ] || die "configs/$1: no such fragment"
	while IFS= read -r line; do
		case "$line" in
		"#include "*) expand "${line#\#include }" ;;
		*) printf '%s\n' "$line" ;;
		esac
	done <"$REPO/configs/$1"
}

# Whatever this builds, "make kernel" (scripts/kernel.sh) must look again.
rm -f "$CACHE/kernel-$CONFIG_NAME.stamp"
"$REPO/scripts/prepare-tree.sh" "$@"

cfg=$CACHE/config-$CONFIG_NAME
mkdir -p "$cfg" "$BUILD"
fragment=$cfg/fragment.config
expand "$CONFIG_NAME.config" >"$fragment"
log=$BUILD/build.log
: >"$log"
kmake() { make -C "$SRC" CC="ccache gcc" -j"$JOBS" "$@"; }

# The config depends on the fragment and on the Kconfig files the series
# changes, nothing else: when neither changed, the last one stands (this
# saves a third of an incremental rebuild).
stamp=$( (cat "$fragment"; grep Kconfig "$SRC/.dma-owner-files" | sed "s,^,$SRC/," |
	xargs -r cat) | md5sum | cut -d' ' -f1)
if [ -f "$BUILD/.config" ] && [ "$(cat "$cfg/stamp" 2>/dev/null)" = "$stamp" ] &&
	cmp -s "$cfg/.config" "$BUILD/.config"; then
	say "config unchanged"
else
	rm -f "$cfg/stamp"
	kmake O="$cfg" tinyconfig >>"$log" 2>&1 || die "tinyconfig failed (see $log)"
	"$SRC/scripts/kconfig/merge_config.sh" -m -O "$cfg" "$cfg/.config" "$fragment" >>"$log" 2>&1
	kmake O="$cfg" olddefconfig >>"$log" 2>&1 || die "olddefconfig failed (see $log)"
	bad=
	for o in $(grep -o '^CONFIG_[A-Za-z0-9_]*=[^ ]*' "$fragment"); do
		k=${o%%=*}
		if [ "${o#*=}" = n ]; then
			grep -q "^$k=" "$cfg/.config" && bad="$bad $k=n"
		else
			grep -qx "$o" "$cfg/.config" || bad="$bad $o"
		fi
	done
	[ -z "$bad" ] || die "config options dropped by Kconfig dependencies:$bad"
	cmp -s "$cfg/.config" "$BUILD/.config" || cp "$cfg/.config" "$BUILD/.config"
	echo "$stamp" >"$cfg/stamp"
fi

say "building the $CONFIG_NAME kernel in $BUILD (log: $log)"
start=$(date +%s)
if ! kmake O="$BUILD" bzImage modules >>"$log" 2>&1; then
	grep -E 'error|Error' "$log" | head -20 >&2
	die "kernel build failed (see $log)"
fi
rm -rf "$GUEST/modroot"
kmake O="$BUILD" INSTALL_MOD_PATH="$GUEST/modroot" INSTALL_MOD_STRIP=1 \
	modules_install >>"$log" 2>&1 || die "modules_install failed (see $log)"
grep -E "^$SRC/(kernel/dma/owner|include/linux/dma-owner|lib/test_dma_owner)[^:]*:[0-9]+:[0-9]+: warning:" "$log" >&2 || true
say "kernel built in $(( $(date +%s) - start ))s: $BUILD/arch/x86/boot/bzImage"
