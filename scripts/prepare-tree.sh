#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Make $SRC = pristine linux-source-6.12 + the series in series/manifest.
#
# The pristine tree is unpacked once and never written. $SRC is a copy of it
# into which only the files our series adds or patches are written, and only
# when their contents change, so an out-of-tree build of $SRC stays
# incremental: touching one overlaid file rebuilds what depends on it.
#
# Usage: prepare-tree.sh [--upto N]   (apply only the first N commits)
set -e
. "$(dirname "$0")/lib.sh"

upto=9999
[ "$1" = --upto ] && upto=$2

unpack_pristine() {
	[ -f "$CACHE/pristine.stamp" ] && [ -d "$PRISTINE" ] && return
	[ -f "$TARBALL" ] || die "$TARBALL not found (package $KVER_PKG)"
	say "unpacking $TARBALL"
	rm -rf "$CACHE/pristine"
	mkdir -p "$CACHE/pristine.tmp"
	tar -C "$CACHE/pristine.tmp" -xf "$TARBALL"
	mv "$CACHE/pristine.tmp" "$CACHE/pristine"
	chmod -R a-w "$PRISTINE"
	touch "$CACHE/pristine.stamp"
	rm -rf "$SRC"
}

make_src() {
	[ -f "$SRC/.dma-owner-files" ] && return
	say "copying the pristine tree to $SRC"
	rm -rf "$SRC" "$SRC.tmp"
	cp -a "$PRISTINE" "$SRC.tmp"
	chmod -R u+w "$SRC.tmp"
	: >"$SRC.tmp/.dma-owner-files"
	mv "$SRC.tmp" "$SRC"
}

# Build the desired contents of every file the series touches in $stage.
stage_series() {
	stage=$CACHE/stage
	rm -rf "$stage"
	mkdir -p "$stage"
	local n=0 kind a b f
	while read -r kind a b; do
		case "$kind" in
		''|'#'*) continue ;;
		commit)
			n=$((n + 1))
			[ $n -le "$upto" ] || break
			[ -f "$REPO/$a" ] || die "series/manifest: no commit message $a"
			;;
		add)
			[ -f "$REPO/$a" ] || die "series/manifest: no file $a"
			[ -n "$b" ] || die "series/manifest: add $a has no tree path"
			mkdir -p "$stage/$(dirname "$b")"
			cp "$REPO/$a" "$stage/$b"
			;;
		patch)
			[ -f "$REPO/$a" ] || die "series/manifest: no patch $a"
			for f in $(sed -n 's,^+++ b/\([^[:space:]]*\).*,\1,p' "$REPO/$a"); do
				[ -e "$stage/$f" ] || [ ! -e "$PRISTINE/$f" ] || {
					mkdir -p "$stage/$(dirname "$f")"
					cp "$PRISTINE/$f" "$stage/$f"
					chmod u+w "$stage/$f"
				}
			done
			patch -d "$stage" -p1 -s -f --no-backup-if-mismatch \
				<"$REPO/$a" >"$CACHE/patch.log" 2>&1 || {
				cat "$CACHE/patch.log" >&2
				die "patch $a no longer applies to $KVER_PKG"
			}
			;;
		*) die "series/manifest: unknown line '$kind $a $b'" ;;
		esac
	done <"$REPO/series/manifest"
}

# Write into $SRC the staged files whose contents differ, and put back the
# pristine version of files an earlier run wrote but the series no longer has.
sync_src() {
	local new=$CACHE/files.new f
	(cd "$stage" && find . -type f | sed 's,^\./,,' | sort) >"$new"
	while read -r f; do
		cmp -s "$stage/$f" "$SRC/$f" && continue
		mkdir -p "$SRC/$(dirname "$f")"
		rm -f "$SRC/$f"
		cp "$stage/$f" "$SRC/$f"
	done <"$new"
	comm -23 <(sort "$SRC/.dma-owner-files") "$new" | while read -r f; do
		rm -f "$SRC/$f"
		# A file the series added and no longer does is just gone.
		if [ -e "$PRISTINE/$f" ]; then
			cp "$PRISTINE/$f" "$SRC/$f" && chmod u+w "$SRC/$f"
		fi
	done
	mv "$new" "$SRC/.dma-owner-files"
}

mkdir -p "$CACHE"
unpack_pristine
make_src
stage_series
sync_src
