#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Mutation testing: does the suite fail when the tracker breaks?
#
# Each tests/mutants/NAME.patch is one small change to the tracker, headed
# by three lines:
#   Breaks:   what the change breaks, in words
#   Tests:    the checks that must catch it, each STAGE[:BOOT,BOOT...]
#             (tests/check.d/STAGE*.sh, only the boots named; see
#             CHECK_ONLY in tests/lib-test.sh)
#   Function: the function(s) it changes ("-" for a patch of the hooks
#             patch); scripts/mutant-where.py checks it lands there, since
#             patch(1) would take the same lines in another function
# First the unmutated kernel must pass every check the mutants name (else
# a kill would prove nothing). Then, one at a time, the patch is applied
# to a copy of the repository, the kernel rebuilt incrementally in the
# usual build directory and the checks run, cheapest first. The mutant is
# killed when a check fails ("not ok"), survived when all pass; it is an
# error when it lands outside its function, does not apply or build, or a
# stage fails without a failed check (no results, a crash of the script):
# the list has gone stale, or the run proves nothing. At the end the real
# tree is built again.
#
# Usage: mutants.sh [NAME...]       (default: every mutant)
# MUTANTS_BASELINE=skip leaves the unmutated run out, for a tree whose
# make check has just passed; the output says it was skipped.
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
	grep -q '^Breaks: ' "$LIST/$n.patch" && grep -q '^Tests: ' "$LIST/$n.patch" &&
		grep -q '^Function: ' "$LIST/$n.patch" ||
		die "tests/mutants/$n.patch: no 'Breaks:', 'Tests:' or 'Function:' line"
done

# The repository as it is now, tracked and new files alike, without out/.
copy_repo() {
	rm -rf "$COPY"
	mkdir -p "$COPY"
	(cd "$REPO" && git ls-files -z --cached --others --exclude-standard |
		tar --null -T - -cf -) | tar -C "$COPY" -xf -
}
git -C "$REPO" rev-parse --git-dir >/dev/null 2>&1 ||
	die "$REPO is not a git work tree: the mutants are applied to a copy of its files (run from a clone)"

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

# run_checks DIR LOG TESTS...: the checks, of the repository in DIR; sets
# $by to the first that failed ("STAGE: the check"), "error: ..." when a
# stage failed without a failed check, or nothing when all passed.
run_checks() {
	local dir=$1 log=$2 t stage only script out
	shift 2
	by=
	for t in "$@"; do
		stage=${t%%:*} only=
		[ "$stage" = "$t" ] || only=${t#*:}
		script=$(ls "$dir"/tests/check.d/"$stage"*.sh 2>/dev/null | head -1)
		if [ -z "$script" ]; then
			by="error: no stage $stage"
			return
		fi
		echo "=== $t" >>"$log"
		out=$(CHECK_ONLY=${only//,/ } "$dir/tests/check.sh" "$script" 2>&1)
		printf '%s\n' "$out" >>"$log"
		# Only a check that ran and failed kills; a stage without
		# results, or whose script died, is an error.
		if grep -q '^not ok - ' <<<"$(grep -v -e ': reported no results$' <<<"$out")"; then
			by="$t: $(grep -m1 '^not ok - ' <<<"$out" | cut -c10-)"
			return
		fi
		if ! grep -q '^0 failed\|, 0 failed$' <<<"$out"; then
			by="error: $t: $(sed -n '/^failures:/{n;p;q}' <<<"$out" | sed 's/^ *//')"
			return
		fi
	done
}

start=$(date +%s)
# The unmutated tree first: every check the mutants name must pass on it.
all_tests=$(for n in "${names[@]}"; do sed -n 's/^Tests: //p' "$LIST/$n.patch"; done |
	tr ' ' '\n' | sort -u)
say "the unmutated kernel against the checks the mutants name: $(echo $all_tests)"
# Stages named whole run whole, once; stages named by boots run those boots.
baseline=()
for t in $all_tests; do
	case "$t" in
	*:*) grep -qx "${t%%:*}" <<<"$all_tests" || baseline+=("$t") ;;
	*) baseline+=("$t") ;;
	esac
done
if [ "${MUTANTS_BASELINE:-}" = skip ]; then
	echo "baseline: skipped (MUTANTS_BASELINE=skip): the named checks are taken to pass unmutated"
else
	run_checks "$REPO" "$OUT/baseline.log" "${baseline[@]}"
	if [ -n "$by" ]; then
		echo "baseline: the unmutated kernel fails ${by#error: } (see ${OUT#$REPO/}/baseline.log)"
		die "fix the suite or the tracker first: a kill would prove nothing"
	fi
	echo "baseline: the unmutated kernel passes every named check ($(( $(date +%s) - start ))s)"
fi

killed=0 survived=0 errors=0
for n in "${names[@]}"; do
	t0=$(date +%s)
	log=$OUT/$n.log
	breaks=$(sed -n 's/^Breaks: //p' "$LIST/$n.patch")
	if ! where=$("$REPO/scripts/mutant-where.py" "$REPO" "$LIST/$n.patch" 2>&1); then
		echo "$where" >"$log"
		echo "error $n: lands outside its Function: line ($(grep -m1 -e '^outside' -e '^does not' <<<"$where"))"
		errors=$((errors + 1))
		continue
	fi
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
	# shellcheck disable=SC2046	# one word per check
	run_checks "$COPY" "$log" $(sed -n 's/^Tests: //p' "$LIST/$n.patch")
	secs=$(($(date +%s) - t0))
	if [ "${by#error: }" != "$by" ]; then
		echo "error $n: ${by#error: } (${secs}s)"
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
