#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Write a -p1 patch of existing kernel files, edited in the work tree $SRC,
# against the pristine tree. For a series patch: edit in $SRC, then
#   scripts/mkpatch.sh kernel/patches/NAME.patch kernel/dma/mapping.c ...
# Only diffs of files the series does not add belong in patches.
set -e
. "$(dirname "$0")/lib.sh"
[ $# -ge 2 ] || die "usage: mkpatch.sh OUT.patch FILE..."
out=$1
shift
tree=${TREE:-$SRC}
: >"$out.tmp"
for f in "$@"; do
	diff -u --label "a/$f" --label "b/$f" "$PRISTINE/$f" "$tree/$f" >>"$out.tmp" && true
	[ $? -le 1 ] || die "diff failed on $f"
done
mv "$out.tmp" "$out"
