#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Run every tests/check.d/*.sh (or those named), count their results, and end
# with the line "N passed, N failed". Exit 1 if anything failed.
#
# The stages run side by side, their boots and compiles sharing the
# machine's cores through tests/jobs.sh's tokens; each stage's output is
# printed whole and in order (the first unfinished stage's as it comes), so
# the sequence of results is the same on every run. Each boot prints a
# "# boot" line with its wall and CPU seconds; a boot QEMU itself had to
# retry ("# QEMU died, booted again") is counted and listed at the end.
. "$(dirname "$0")/../scripts/lib.sh"
. "$REPO/tests/jobs.sh"

run=$(mktemp -d "${TMPDIR:-/tmp}/dma-owner-check.XXXXXX")
trap 'kill $(jobs -p) 2>/dev/null; rm -rf "$run"' EXIT
tokens_init "$run/tokens"

passed=0 failed=0 failures=() retried=() boots=0 boot_cpu=0 job_cpu=0 times=()
tests=("$@")
[ ${#tests[@]} -gt 0 ] || tests=("$REPO"/tests/check.d/*.sh)
start=$(date +%s)
# Every token held while the stages queue their first boots, so that the
# longest go first (a queue served as boots arrive would start whichever
# stage forked first).
held=()
for ((i = 0; i < CHECK_JOBS; i++)); do
	exec {fd}>"$CHECK_TOKENS/token$i"
	flock "$fd"
	held+=("$fd")
done
pids=()
for t in "${tests[@]}"; do
	name=$(basename "$t" .sh)
	( t0=$(date +%s); bash "$t" 2>&1; st=$?
	  echo "# exit $st"; echo "=== $name: $(( $(date +%s) - t0 ))s" ) >"$run/$name.log" &
	pids+=("$!")
done
echo "# $CHECK_JOBS tokens: $CHECK_JOBS boots at a time (a -smp 4 boot takes two)"
# Until the queue has stopped growing for 3 s (at most 60 s): stages set
# up for a few seconds (an HTTP server, files) before their first boot.
last=-1 still=0
for ((i = 0; i < 60 && still < 3; i++)); do
	sleep 1
	n=$(ls "$CHECK_TOKENS/queue" | wc -l)
	if [ "$n" = "$last" ] && [ "$n" -gt 0 ]; then still=$((still + 1)); else still=0; fi
	last=$n
done
for fd in "${held[@]}"; do flock -u "$fd"; exec {fd}>&-; done
i=0
for t in "${tests[@]}"; do
	name=$(basename "$t" .sh)
	echo "=== $name"
	results=0
	while IFS= read -r line; do
		case "$line" in "# exit "*) ;; *) echo "$line" ;; esac
		case "$line" in
		"ok - "*) passed=$((passed + 1)); results=$((results + 1)) ;;
		"not ok - "*) failed=$((failed + 1)); results=$((results + 1))
			failures+=("$name: ${line#not ok - }") ;;
		"# exit 0") ;;
		"# exit "*) failed=$((failed + 1)); results=$((results + 1))
			failures+=("$name: test script ${line#\# }") ;;
		"# boot "*) boots=$((boots + 1))
			c=${line#*, cpu } c=${c%% s,*}
			boot_cpu=$((boot_cpu + ${c:-0}))
			k=${line#\# boot } times+=("${k%%:*} ${c:-0}") ;;
		"# job "*) c=${line#*, cpu } c=${c%% s,*}
			job_cpu=$((job_cpu + ${c:-0}))
			k=${line#\# job } times+=("${k%%:*} ${c:-0}") ;;
		"# QEMU died, booted again: "*) retried+=("$name: ${line#\# QEMU died, booted again: }") ;;
		esac
	done < <(tail -n +1 -f --pid="${pids[$i]}" "$run/$name.log" 2>/dev/null)
	wait "${pids[$i]}"
	if [ $results -eq 0 ]; then
		failed=$((failed + 1))
		failures+=("$name: reported no results")
		echo "not ok - $name: reported no results"
	fi
	i=$((i + 1))
done
echo
[ ${#failures[@]} -eq 0 ] || { echo "failures:"; printf '  %s\n' "${failures[@]}"; }
echo "QEMU died, booted again: ${#retried[@]}"
[ ${#retried[@]} -eq 0 ] || printf '  %s\n' "${retried[@]}"
wall=$(( $(date +%s) - start ))
echo "boots: $boots, ${boot_cpu}s of CPU in them; ${job_cpu}s of CPU in compiles"
# What each took, for the queue's estimates: cp out/boot-times tests/boot-times
mkdir -p "$REPO/out"
printf '%s\n' "${times[@]}" | sort -k2,2nr >"$REPO/out/boot-times"
echo "time: ${wall}s ($((wall / 60)) min $((wall % 60)) s) on $CHECK_JOBS tokens"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
