#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Export series/manifest as a git format-patch series in out/patches/.
#
#   export-patches.sh           write the series
#   export-patches.sh --verify  also prove it applies with git am to a full
#                               pristine linux-source-6.12 git tree and that
#                               the result is the tree we build and test
set -e
. "$(dirname "$0")/lib.sh"

QUIET=1 "$REPO/scripts/prepare-tree.sh"
out=$REPO/out/patches
git_id=(-c "user.name=$(git -C "$REPO" config user.name)"
	-c "user.email=$(git -C "$REPO" config user.email)")
[ -n "$(git -C "$REPO" config user.email)" ] || die "no git identity: git config user.email"

# The files the series touches, at their pristine state, are enough for
# format-patch: blob ids of pristine files are the same as in a full tree.
work=$CACHE/series-git
rm -rf "$work"
mkdir -p "$work"
files=$(awk '$1 == "add" { print $3 }' "$REPO/series/manifest"
	awk '$1 == "patch" { print $2 }' "$REPO/series/manifest" | while read -r p; do
		sed -n 's,^+++ b/\([^[:space:]]*\).*,\1,p' "$REPO/$p"
	done)
for f in $files; do
	[ -e "$PRISTINE/$f" ] || continue
	mkdir -p "$work/$(dirname "$f")"
	cp "$PRISTINE/$f" "$work/$f"
	chmod u+w "$work/$f"
done
g() { git -C "$work" "${git_id[@]}" "$@"; }
g init -q -b series
g add -A
g commit -q --allow-empty -m "$KVER_PKG (Debian), the files the series touches"
base=$(g rev-parse HEAD)

msg=
commit() { [ -z "$msg" ] || { g add -A; g commit -q -s -F "$REPO/$msg"; }; }
while read -r kind a b; do
	case "$kind" in
	commit) commit; msg=$a ;;
	add) mkdir -p "$work/$(dirname "$b")"; cp "$REPO/$a" "$work/$b" ;;
	patch) patch -d "$work" -p1 -s -f --no-backup-if-mismatch <"$REPO/$a" >/dev/null ||
		die "patch $a does not apply in series order" ;;
	esac
done < <(grep -v '^[[:space:]]*\(#\|$\)' "$REPO/series/manifest")
commit

rm -rf "$out"
mkdir -p "$out"
g config branch.series.description "$(cat "$REPO/series/cover-letter.txt")"
g format-patch -q --cover-letter --cover-from-description=subject \
	--subject-prefix="RFC PATCH" -o "$out" "$base..HEAD"
n=$(ls "$out" | grep -vc '^0000-')
say "wrote $n patches and a cover letter to out/patches/"

[ "$1" = --verify ] || exit 0

# A full pristine tree under git, made once; git am onto a fresh checkout.
am=$CACHE/am-tree
if [ ! -f "$CACHE/am-tree.stamp" ]; then
	say "making a git tree of the pristine source (once)"
	rm -rf "$am"
	cp -a "$PRISTINE" "$am"
	chmod -R u+w "$am"
	git -C "$am" "${git_id[@]}" init -q -b pristine
	git -C "$am" "${git_id[@]}" add -f -A
	git -C "$am" "${git_id[@]}" commit -q -m "$KVER_PKG (Debian)"
	touch "$CACHE/am-tree.stamp"
fi
ga() { git -C "$am" "${git_id[@]}" "$@"; }
ga am --abort >/dev/null 2>&1 || true
ga checkout -q -f pristine
ga clean -fdxq
ga checkout -q -B am-check
ga am -q $(ls "$out"/*.patch | grep -v /0000-) || die "the series does not apply with git am to $KVER_PKG"
for f in $files; do
	cmp -s "$am/$f" "$SRC/$f" || die "after git am, $f differs from the tree we build"
done
say "git am: $n patches apply to a pristine $KVER_PKG tree"
