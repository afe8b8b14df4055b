#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run every test_dma_owner scenario (or those named) and print one line per
# scenario with what the tracker said about it through each channel:
#   R name=N expect=K dev=D handle=H violations=V kindcount=C
#     logkind=K logdev=D loghandle=H dmesgkind=C dmesgall=C
D=/sys/kernel/debug/dma-owner
T=/sys/kernel/debug/test_dma_owner
modprobe test_dma_owner || { echo "cannot load test_dma_owner"; exit 1; }
echo all >/sys/module/dma_owner/parameters/report
echo 1 >/sys/module/dma_owner/parameters/check_contents
stat() { sed -n "s/^$1: //p" $D/stats; }
names=${*:-$(cut -d' ' -f1 $T/scenarios)}
for name in $names; do
	expect=$(grep "^$name " $T/scenarios | cut -d' ' -f2)
	echo 1 >$D/clear
	dmesg -c >/dev/null
	echo "$name" >$T/run || { echo "R name=$name runfailed"; continue; }
	dev=$(sed -n 's/^device //p' $T/result)
	handle=$(sed -n 's/^handle //p' $T/result)
	log=/tmp/violations
	cat $D/violations >$log
	logkind=$(sed -n '2s/ in .*//p' $log)
	logdev=$(sed -n 's/^device \([^ ]*\) driver .*/\1/p' $log | head -1)
	loghandle=$(sed -n 's/^mapping \(0x[0-9a-f]*\) .*/\1/p' $log | head -1)
	[ -n "$loghandle" ] || loghandle=$(sed -n 's/^[a-z_]* of \(0x[0-9a-f]*\) .*/\1/p' $log | head -1)
	dmesg >/tmp/dmesg
	echo "R name=$name expect=$expect dev=$dev handle=$handle" \
		"violations=$(stat violations) kindcount=$(stat violation.$expect)" \
		"logkind=${logkind:--} logdev=${logdev:--} loghandle=${loghandle:--}" \
		"dmesgkind=$(grep -c "dma-owner: $expect in " /tmp/dmesg)" \
		"dmesgall=$(grep -c 'dma-owner: [a-z-]* in ' /tmp/dmesg)" \
		"dmesgdev=$(grep -c "dma-owner: device $dev driver" /tmp/dmesg)"
done
