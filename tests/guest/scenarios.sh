#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run every test_dma_owner scenario (or those named) and print, per
# scenario, what the tracker said about it through each channel, raw:
#   B NAME           (after "--- scenarios", the module's list: NAME EXPECT)
#   --- result       test_dma_owner's result file (device, handle)
#   --- violations   the violations log
#   --- records      records.awk's verdict on it (each record line agrees
#                    with its prose)
#   --- stats        the stats file
#   --- dmesg        the kernel log since the scenario started
#   --- trace        the dma_owner_violation events
#   E
# tests/scenario-results.py turns that into one "R name=..." line per
# scenario on the host: a TCG guest forks slowly, so the guest only reads.
#
# CHECKS=all (the default) switches on the opt-in checks, the content check
# and the segment check, and runs every scenario; CHECKS=default leaves
# them off, as a user's kernel has them, and leaves out the scenarios whose
# misuse only they see (those that expect cpu-write-while-device-owned or
# sg-segment-limit), so that every sync the others make can take the
# tracker's common path.
. /usr/share/dma-owner/lib.sh
T=/sys/kernel/debug/test_dma_owner
modprobe test_dma_owner || { echo "cannot load test_dma_owner"; exit 1; }
# Every report printed: a scenario's report is judged in dmesg too.
echo all >/sys/module/dma_owner/parameters/report
if [ "${CHECKS:-all}" = all ]; then
	echo 1 >/sys/module/dma_owner/parameters/check_contents
	echo 1 >/sys/module/dma_owner/parameters/check_segments
	optin=
else
	optin=$(awk '$2 == "cpu-write-while-device-owned" || $2 == "sg-segment-limit" { print $1 }' $T/scenarios)
fi
echo "checks $(cat /sys/module/dma_owner/parameters/check_contents)$(cat /sys/module/dma_owner/parameters/check_segments)"
TR=/sys/kernel/tracing
echo 1 >$TR/events/dma_owner/dma_owner_violation/enable
# dma-debug prints its first error only, unless told to print them all.
A=/sys/kernel/debug/dma-api/all_errors
[ -f $A ] && echo 1 >$A
names=${*:-$(grep -v "^random " $T/scenarios | cut -d" " -f1)}
# The poison_ scenarios need a kernel booted with dma_owner.poison=1.
[ "$(cat /sys/module/dma_owner/parameters/poison)" = Y ] ||
	names=$(for n in $names; do case $n in poison_*) ;; *) echo $n ;; esac; done)
[ -z "$optin" ] ||
	names=$(for n in $names; do case " $(echo $optin) " in *" $n "*) ;; *) echo $n ;; esac; done)
echo "scenarios $(echo $names | wc -w)"
echo "--- scenarios"; cat $T/scenarios
for name in $names; do
	echo 1 >$D/clear
	dmesg -c >/dev/null
	echo >$TR/trace
	echo "B $name"
	echo "$name" >$T/run || { echo "runfailed"; echo E; continue; }
	echo "--- result"; cat $T/result
	echo "--- violations"; cat $D/violations >/tmp/violations; cat /tmp/violations
	echo "--- records"; awk -f /usr/share/dma-owner/records.awk /tmp/violations
	echo "--- stats"; cat $D/stats
	echo "--- dmesg"; dmesg
	echo "--- trace"; grep 'dma_owner_violation:' $TR/trace
	echo E
done
