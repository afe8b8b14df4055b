#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run every tests/check.d/*.sh (or those named), count their results, and end
# with the line "N passed, N failed". Exit 1 if anything failed.
. "$(dirname "$0")/../scripts/lib.sh"

passed=0 failed=0 failures=()
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=("$REPO"/tests/check.d/*.sh)
start=$(date +%s)
for t in "${tests[@]}"; do
	name=$(basename "$t" .sh)
	t0=$(date +%s)
	echo "=== $name"
	results=0
	while IFS= read -r line; do
		echo "$line"
		case "$line" in
		"ok - "*) passed=$((passed + 1)); results=$((results + 1)) ;;
		"not ok - "*) failed=$((failed + 1)); results=$((results + 1))
			failures+=("$name: ${line#not ok - }") ;;
		"# exit 0") ;;
		"# exit "*) failed=$((failed + 1)); results=$((results + 1))
			failures+=("$name: test script ${line#\# }") ;;
		esac
	done < <(bash "$t" 2>&1; echo "# exit $?")
	if [ $results -eq 0 ]; then
		failed=$((failed + 1))
		failures+=("$name: reported no results")
		echo "not ok - $name: reported no results"
	fi
	echo "=== $name: $(( $(date +%s) - t0 ))s"
done
echo
[ ${#failures[@]} -eq 0 ] || { echo "failures:"; printf '  %s\n' "${failures[@]}"; }
echo "time: $(( $(date +%s) - start ))s"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
