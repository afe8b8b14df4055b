#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run every test_dma_owner scenario (or those named) and print one line per
# scenario with what the tracker said about it through each channel:
#   R name=N expect=K dev=D handle=H violations=V kindcount=C
#     logkind=K logop=O logdev=D loghandle=H dmesgkind=C dmesgall=C dmesgdev=C
#     tracen=C tracekind=K tracedev=D tracehandle=H dmadebug_maperr=C
#     records=N:ok|N:bad... (records.awk: each record line agrees with its prose)
#     dmesgfn=F (the function the report names: "KIND in F+0x..")
# (handles in decimal, so that every channel's spelling compares;
# dmadebug_maperr counts CONFIG_DMA_API_DEBUG's unchecked map error reports,
# which must go on beside the tracker's)
. /usr/share/dma-owner/lib.sh
T=/sys/kernel/debug/test_dma_owner
modprobe test_dma_owner || { echo "cannot load test_dma_owner"; exit 1; }
echo all >/sys/module/dma_owner/parameters/report
echo 1 >/sys/module/dma_owner/parameters/check_contents
echo 1 >/sys/module/dma_owner/parameters/check_segments
dec() { [ -n "$1" ] && echo $(($1)) || echo -; }
TR=/sys/kernel/tracing
echo 1 >$TR/events/dma_owner/dma_owner_violation/enable
# dma-debug prints its first error only, unless told to print them all.
A=/sys/kernel/debug/dma-api/all_errors
[ -f $A ] && echo 1 >$A
names=${*:-$(grep -v "^random " $T/scenarios | cut -d" " -f1)}
# The poison_ scenarios need a kernel booted with dma_owner.poison=1.
[ "$(cat /sys/module/dma_owner/parameters/poison)" = Y ] ||
	names=$(for n in $names; do case $n in poison_*) ;; *) echo $n ;; esac; done)
echo "scenarios $(echo $names | wc -w)"
for name in $names; do
	expect=$(grep "^$name " $T/scenarios | cut -d' ' -f2)
	echo 1 >$D/clear
	dmesg -c >/dev/null
	echo >$TR/trace
	echo "$name" >$T/run || { echo "R name=$name runfailed"; continue; }
	dev=$(sed -n 's/^device //p' $T/result)
	handle=$(sed -n 's/^handle //p' $T/result)
	log=/tmp/violations
	cat $D/violations >$log
	logkind=$(sed -n 's/^seq=.* kind=\([^ ]*\) .*/\1/p' $log | head -1)
	logop=$(sed -n 's/^seq=.* kind=[^ ]* op=\([^ ]*\) .*/\1/p' $log | head -1)
	records=$(awk -f /usr/share/dma-owner/records.awk $log | sed 's/^records //; s/ /:/g')
	logdev=$(sed -n 's/^device \([^ ]*\) driver .*/\1/p' $log | head -1)
	loghandle=$(sed -n 's/^mapping \(0x[0-9a-f]*\) .*/\1/p' $log | head -1)
	[ -n "$loghandle" ] || loghandle=$(sed -n 's/^[a-z_]* of \(0x[0-9a-f]*\) .*/\1/p' $log | head -1)
	dmesg >/tmp/dmesg
	# the report as dmesg has it, for the docs (scripts/doc-examples.py)
	sed "s/^/X $name /" /tmp/dmesg
	grep 'dma_owner_violation:' $TR/trace >/tmp/trace
	tline=$(head -1 /tmp/trace | sed 's/.*dma_owner_violation: *//')
	set -- $tline
	tracekind=${1:--} tracedev=${3:--}
	tracehandle=$(echo "$tline" | sed -n 's/.*handle=\(0x[0-9a-f]*\).*/\1/p')
	echo "R name=$name expect=$expect dev=$dev handle=$(dec $handle)" \
		"violations=$(stat violations) kindcount=$(stat violation.$expect)" \
		"logkind=${logkind:--} logop=${logop:--} logdev=${logdev:--} loghandle=$(dec $loghandle)" \
		"dmesgkind=$(grep -c "dma-owner: $expect in " /tmp/dmesg)" \
		"dmesgall=$(grep -c 'dma-owner: [a-z-]* in ' /tmp/dmesg)" \
		"dmesgdev=$(grep -c "dma-owner: device $dev driver" /tmp/dmesg)" \
		"tracen=$(wc -l </tmp/trace) tracekind=$tracekind tracedev=$tracedev" \
		"tracehandle=$(dec $tracehandle)" \
		"dmadebug_maperr=$(grep -c 'failed to check map error' /tmp/dmesg)" \
		"records=$records" \
		"dmesgfn=$(sed -n "s/.*dma-owner: $expect in \([a-z_0-9]*\)+.*/\1/p" /tmp/dmesg | head -1)"
done
