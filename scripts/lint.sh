#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The checks a maintainer runs before reading a series.
#
#   lint.sh [STAGE...]    run the stages named, or all of them, in order:
#     checkpatch   scripts/checkpatch.pl --strict on every patch of the series;
#                  anything not in series/checkpatch-exceptions fails
#     kernel-doc   scripts/kernel-doc -none -Wall on our kernel files: silent,
#                  and a kernel-doc comment above every non-static function
#     bisect       every patch, applied in turn with git am, compiles the
#                  files it and the patches before it touch; the last step
#                  with W=1, which must add no warning in our files; and
#                  no patch's objects use a symbol only a later patch defines
#                  (what would stop that step linking)
#     docs         Sphinx builds Documentation/dev-tools with no warning
#                  about our files
#     cross        the whole series compiles, W=1 and warning-free in our
#                  files, for a 64-bit big-endian machine (s390x) and a
#                  32-bit one (i386, 32-bit dma_addr_t): a compile, no boot
#
# Exit status: 0 all clean, 1 a stage found problems (printed), 2 setup error.
set -o pipefail
. "$(dirname "$0")/lib.sh"
# Debian's python3 first: checkpatch's spdxcheck.py and Sphinx need the
# modules apt installed (python3-ply, python3-git, python3-sphinx), not
# whatever python3 a user environment puts earlier in PATH.
export PATH=/usr/bin:/bin:$PATH

stages=("$@")
[ ${#stages[@]} -gt 0 ] || stages=(checkpatch kernel-doc bisect docs cross)
for s in "${stages[@]}"; do
	case "$s" in
	checkpatch|kernel-doc|bisect|docs|cross) ;;
	-h|--help) sed -n '3,18p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown stage '$s' (checkpatch, kernel-doc, bisect, docs, cross)" ;;
	esac
done

# The kernel files the series adds or changes, as tree paths.
series_files() {
	awk '$1 == "add" { print $3 }' "$REPO/series/manifest"
	awk '$1 == "patch" { print $2 }' "$REPO/series/manifest" | while read -r p; do
		sed -n 's,^+++ b/\([^[:space:]]*\).*,\1,p' "$REPO/$p"
	done
}

patches_ready=
patches() {
	[ -n "$patches_ready" ] && return
	# --verify leaves $CACHE/am-tree, a git tree with the series applied
	"$REPO/scripts/export-patches.sh" --verify >/dev/null || die "make patches failed"
	patches_ready=1
}

# checkpatch's problems as "TYPE FILE LEVEL: message", FILE "-" when the
# message is about the commit message or the patch as a whole.
checkpatch_problems() {
	local raw=$CACHE/checkpatch.raw
	# In the git tree with the whole series applied: spdxcheck.py wants
	# git, and checkpatch looks up boot parameters in kernel-parameters.txt.
	# It exits 1 when it has anything to say: its output decides.
	(cd "$CACHE/am-tree" && perl scripts/checkpatch.pl --strict --show-types --no-summary \
		--color=never "$1") >"$raw" 2>&1
	grep -q . "$raw" || return 0
	grep -qE '^(total|ERROR|WARNING|CHECK)|has no obvious style problems' "$raw" ||
		{ cat "$raw"; return 1; }
	awk '
		function flush() { if (msg != "") print type, (file == "" ? "-" : file), msg; msg = ""; file = "" }
		/^(ERROR|WARNING|CHECK):[A-Z_0-9]+:/ {
			flush(); split($0, f, ":"); level = f[1]; type = f[2]
			msg = level ":" substr($0, length(f[1]) + length(f[2]) + 3); next }
		/^#[0-9]+: FILE: / { path = $3; sub(/:[0-9]+:$/, "", path); file = path; next }
		END { flush() }' "$raw"
}

stage_checkpatch() {
	local p bad=0 type file msg exc probs=$CACHE/checkpatch.txt
	patches
	for p in "$REPO"/out/patches/00[0-9][0-9]-*.patch; do
		case "$p" in */0000-*) continue ;; esac
		checkpatch_problems "$p" >"$probs" || { echo "checkpatch.pl failed on $(basename "$p")"; bad=1; }
		while read -r type file msg; do
			exc=$(grep -v '^[[:space:]]*\(#\|$\)' "$REPO/series/checkpatch-exceptions" |
			      while read -r t f _; do
				      # shellcheck disable=SC2053
				      [ "$t" = "$type" ] && [[ "$file" == $f ]] && echo x && break
			      done)
			[ -n "$exc" ] && continue
			echo "$(basename "$p"): $file: $msg ($type)"
			bad=1
		done <"$probs"
	done
	[ $bad = 0 ] && say "checkpatch --strict: clean but for series/checkpatch-exceptions"
	return $bad
}

stage_kernel_doc() {
	local files out
	files=$(series_files | grep -E '\.[ch]$' | sort -u | while read -r f; do
		# only our own files: kernel-doc of the files we patch is not ours
		grep -q "^add .* $f\$" "$REPO/series/manifest" && echo "$SRC/$f"
	done)
	QUIET=1 "$REPO/scripts/prepare-tree.sh" || die "cannot prepare the tree"
	# shellcheck disable=SC2086
	out=$("$SRC/scripts/kernel-doc" -none -Wall $files 2>&1)
	# kernel-doc checks the comments there are; this, that there is one
	# above every function other files can call (not static, not a test).
	# shellcheck disable=SC2086
	out=$out$(awk '
		/^[a-z_].*\(/ && !/^static/ && !/;$/ && !/^(EXPORT|module_|[a-z_]*initcall|__setup|MODULE|DEFINE|DECLARE|kunit_)/ {
			if (prev !~ /^ \*\/$/) print FILENAME ":" FNR ": no kernel-doc comment: " $0 }
		$0 != "" { prev = $0 }' $(echo "$files" | grep '\.c$' | grep -v -e _kunit -e /test_))
	if [ -n "$out" ]; then
		echo "$out" | sed "s,$SRC/,,"
		return 1
	fi
	say "kernel-doc -none -Wall: silent on $(echo "$files" | wc -w) files; every non-static function documented"
}

# The warnings of build log $1 in the files the series adds, as paths in
# tree $2 (the files it only patches have warnings of their own under W=1).
ours_warnings() {
	local added
	added=$(awk '$1 == "add" { print $3 }' "$REPO/series/manifest" | paste -sd'|')
	grep -E '(warning|error):' "$1" | sed "s|^$2/||" | grep -E "^($added):"
}

# Every patch, in order: apply it, compile what the series touched so far.
stage_bisect() {
	local am=$CACHE/am-tree bo=$CACHE/build-bisect n=0 commits c objs log bad=0 w1 last=
	patches
	[ -f "$BUILD/.config" ] || die "no test kernel configured: make kernel first"
	mkdir -p "$bo"
	rm -f "$bo"/step-*.defined "$bo"/step-*.used
	commits=$(git -C "$am" rev-list --reverse pristine..am-check)
	for c in $commits; do
		n=$((n + 1))
		git -C "$am" checkout -q "$c"
		# The whole test config each time: a patch that adds an option
		# must see it set, not defaulted away by an earlier step.
		cp "$BUILD/.config" "$bo/.config"
		make -s -C "$am" O="$bo" olddefconfig >/dev/null 2>&1 || { echo "patch $n: olddefconfig failed"; bad=1; break; }
		objs=$(git -C "$am" diff --name-only pristine "$c" | grep '\.c$' | while read -r f; do
			[ -f "$am/$f" ] && [ -f "$am/$(dirname "$f")/Makefile" ] &&
				grep -q "$(basename "$f" .c)\.o" "$am/$(dirname "$f")/Makefile" &&
				echo "${f%.c}.o"
		done)
		if [ -z "$objs" ]; then
			say "patch $n: no C file yet, nothing to compile"
			continue
		fi
		w1=
		[ "$c" = "$(echo "$commits" | tail -1)" ] && w1=W=1
		log=$bo/step-$n.log
		# shellcheck disable=SC2086
		if ! make -C "$am" O="$bo" -j"$JOBS" CC="ccache gcc" $w1 $objs >"$log" 2>&1; then
			echo "patch $n ($(git -C "$am" log -1 --format=%s "$c")) does not compile:"
			grep -E 'error|Error' "$log" | head -20
			bad=1
			break
		fi
		if [ -n "$w1" ]; then
			if ours_warnings "$log" "$am" >"$bo/w1.txt"; then
				echo "W=1 warnings in our files:"; cat "$bo/w1.txt"; bad=1
			fi
		fi
		# What this step's objects define and use, for the link check.
		(cd "$bo" && nm -g --defined-only $objs | awk 'NF == 3 { print $3 }' | sort -u) >"$bo/step-$n.defined"
		(cd "$bo" && nm -u $objs | awk '{ print $NF }' | sort -u) >"$bo/step-$n.used"
		last=$n
		say "patch $n: compiles ($(echo $objs | wc -w) files${w1:+, W=1})"
	done
	git -C "$am" checkout -q am-check
	[ $bad = 0 ] && [ -n "$last" ] || return $bad
	# A symbol the series defines by its end must be defined by the step
	# that uses it: else that step, built whole, would not link. (Symbols
	# the series never defines come from the kernel it applies to.)
	local i later
	for i in $(seq 1 "$last"); do
		[ -f "$bo/step-$i.used" ] || continue
		later=$(comm -12 "$bo/step-$i.used" "$bo/step-$last.defined" |
			comm -23 - "$bo/step-$i.defined")
		if [ -n "$later" ]; then
			echo "patch $i uses what only a later patch defines: $(echo $later)"
			bad=1
		fi
	done
	[ $bad = 1 ] || say "no patch uses a symbol a later patch defines"
	return $bad
}

stage_docs() {
	local out=$CACHE/htmldocs log
	QUIET=1 "$REPO/scripts/prepare-tree.sh" || die "cannot prepare the tree"
	command -v sphinx-build >/dev/null || die "no sphinx-build: run scripts/setup.sh"
	log=$out.log
	rm -rf "$out"
	if ! make -C "$SRC" O="$out" SPHINXDIRS=dev-tools htmldocs >"$log" 2>&1; then
		echo "Sphinx failed:"; tail -20 "$log"; return 1
	fi
	if grep -E 'WARNING|ERROR' "$log" | grep -E 'dev-tools/(dma-owner|index)\.rst' >"$out.ours"; then
		echo "Sphinx warnings about our files:"; cat "$out.ours"; return 1
	fi
	[ -s "$out/Documentation/output/dev-tools/dma-owner.html" ] ||
		[ -n "$(find "$out" -name dma-owner.html -size +1k)" ] ||
		{ echo "Sphinx wrote no dma-owner.html"; return 1; }
	say "Sphinx: Documentation/dev-tools builds, no warning about our files"
}

# The tracker on other machines: tinyconfig plus configs/cross.config, then
# our objects and the files we patch, with W=1.
stage_cross() {
	local am=$CACHE/am-tree target arch cross bo log objs bad=0
	patches
	objs=$(git -C "$am" diff --name-only pristine am-check | grep -E '^(kernel/dma|drivers/base|lib)/.*\.c$' |
		sed 's/\.c$/.o/' | tr '\n' ' ')
	for target in s390:s390x-linux-gnu- i386:; do
		arch=${target%%:*} cross=${target#*:}
		bo=$CACHE/build-cross-$arch
		log=$bo/build.log
		mkdir -p "$bo"
		if [ -n "$cross" ] && ! command -v "${cross}gcc" >/dev/null; then
			echo "$arch: no ${cross}gcc: run scripts/setup.sh"; bad=1; continue
		fi
		{ make -C "$am" O="$bo" ARCH="$arch" CROSS_COMPILE="$cross" tinyconfig &&
		  "$am/scripts/kconfig/merge_config.sh" -m -O "$bo" "$bo/.config" "$REPO/configs/cross.config" &&
		  make -C "$am" O="$bo" ARCH="$arch" CROSS_COMPILE="$cross" olddefconfig; } >"$log" 2>&1 ||
			{ echo "$arch: configuration failed (see $log)"; bad=1; continue; }
		if ! grep -q '^CONFIG_DMA_OWNER_DEBUG=y' "$bo/.config"; then
			echo "$arch: CONFIG_DMA_OWNER_DEBUG did not survive olddefconfig"; bad=1; continue
		fi
		# shellcheck disable=SC2086
		if ! make -C "$am" O="$bo" ARCH="$arch" CROSS_COMPILE="$cross" CC="ccache ${cross}gcc" \
				-j"$JOBS" W=1 $objs >>"$log" 2>&1; then
			echo "$arch: does not compile:"; grep -E 'error' "$log" | head -20; bad=1; continue
		fi
		if ours_warnings "$log" "$am"; then
			echo "$arch: W=1 warnings in our files"; bad=1; continue
		fi
		say "$arch: the series compiles ($(echo $objs | wc -w) files, W=1, no warning in ours)"
	done
	return $bad
}

rc=0
for s in "${stages[@]}"; do
	"stage_${s//-/_}" || rc=1
done
exit $rc
