#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Mutation testing: does the suite fail when the tracker breaks?
#
# Each tests/mutants/NAME.patch is one small change to the tracker, headed
# by two lines:
#   Breaks: what the change breaks, in words
#   Tests:  the checks that must catch it, each STAGE[:BOOT,BOOT...]
#           (tests/check.d/STAGE*.sh, only the boots named; see
#           CHECK_ONLY in tests/lib-test.sh)
# One at a time, the patch is applied to a copy of the repository, the
# kernel rebuilt incrementally in the usual build directory and the checks
# run, cheapest first. The mutant is killed when a check fails, survived
# when all pass; a mutant that no longer applies or builds is an error (the
# list has gone stale: fix it). At the end the real tree is built again.
#
# Usage: mutants.sh [NAME...]       (default: every mutant)
# Prints "killed|survived|error NAME ..." per mutant, then
# "N of M killed (P%)"; logs in out/mutants/. Exit 0 when nothing survived
# and nothing errored, 1 otherwise, 2 on a setup failure.
. "$(dirname "$0")/lib.sh"

LIST=$REPO/tests/mutants
OUT=$REPO/out/mutants
COPY=$CACHE/mutant-repo

names=("$@")
if [ ${#names[@]} -eq 0 ]; then
	for p in "$LIST"/*.patch; do names+=("$(basename "$p" .patch)"); done
fi
for n in "${names[@]}"; do
	[ -f "$LIST/$n.patch" ] || die "no mutant $n (tests/mutants/$n.patch)"
	grep -q '^Breaks: ' "$LIST/$n.patch" && grep -q '^Tests: ' "$LIST/$n.patch" ||
		die "tests/mutants/$n.patch: no 'Breaks:' or 'Tests:' line"
done

# The repository as it is now, tracked and new files alike, without out/.
copy_repo() {
	rm -rf "$COPY"
	mkdir -p "$COPY"
	(cd "$REPO" && git ls-files -z --cached --others --exclude-standard |
		tar --null -T - -cf -) | tar -C "$COPY" -xf -
}

build() {
	QUIET=1 "$1/scripts/build-kernel.sh" >>"$2" 2>&1 &&
		QUIET=1 "$1/scripts/mkinitramfs.sh" >>"$2" 2>&1
}

rm -rf "$OUT"
mkdir -p "$OUT"
exec > >(tee "$OUT/result.txt")
say "building the unmutated kernel first"
build "$REPO" "$OUT/build.log" || die "the unmutated kernel does not build (see $OUT/build.log)"
restore() {
	say "building the unmutated kernel again"
	build "$REPO" "$OUT/build.log" || echo "mutants: the unmutated rebuild failed: run 'make kernel'" >&2
	rm -rf "$COPY"
}
trap restore EXIT

start=$(date +%s)
killed=0 survived=0 errors=0
for n in "${names[@]}"; do
	t0=$(date +%s)
	log=$OUT/$n.log
	breaks=$(sed -n 's/^Breaks: //p' "$LIST/$n.patch")
	copy_repo
	if ! patch -d "$COPY" -p1 -F0 -s -f --no-backup-if-mismatch <"$LIST/$n.patch" >"$log" 2>&1; then
		echo "error $n: does not apply (see ${log#$REPO/})"
		errors=$((errors + 1))
		continue
	fi
	if ! build "$COPY" "$log"; then
		echo "error $n: does not build (see ${log#$REPO/})"
		errors=$((errors + 1))
		continue
	fi
	by=
	for t in $(sed -n 's/^Tests: //p' "$LIST/$n.patch"); do
		stage=${t%%:*} only=
		[ "$stage" = "$t" ] || only=${t#*:}
		script=$(ls "$COPY"/tests/check.d/"$stage"*.sh 2>/dev/null | head -1)
		if [ -z "$script" ]; then
			echo "# $n: no stage $stage" >>"$log"
			by="?"
			break
		fi
		echo "=== $t" >>"$log"
		if ! CHECK_ONLY=${only//,/ } "$COPY/tests/check.sh" "$script" >>"$log" 2>&1; then
			by="$t: $(grep -m1 '^not ok - ' "$log" | cut -c10-)"
			break
		fi
	done
	secs=$(($(date +%s) - t0))
	if [ "$by" = "?" ]; then
		echo "error $n: names a stage that does not exist (${secs}s)"
		errors=$((errors + 1))
	elif [ -n "$by" ]; then
		echo "killed $n by ${by:0:160} (${secs}s)"
		killed=$((killed + 1))
	else
		echo "survived $n: $breaks (${secs}s)"
		survived=$((survived + 1))
	fi
done
total=$((killed + survived + errors))
echo "time: $(($(date +%s) - start))s"
echo "$killed of $total killed ($((total ? 100 * killed / total : 0))%), $survived survived, $errors errors"
[ $survived = 0 ] && [ $errors = 0 ]
