#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Write hundreds of malformed inputs to every writable dma-owner file; each
# write must be refused and change nothing. Prints "refused N accepted M"
# and, for each accepted or state-changing write, a line saying which.
. /usr/share/dma-owner/lib.sh
state() {
	echo "$(cat $D/enabled)|$(cat $D/filter)|$(cat $D/ignore | tr '\n' ' ')|$(grep -v '^live\|^peak_live\|^maps\|^unmaps\|^syncs' $D/stats | tr '\n' ' ')|$(wc -c <$D/violations)"
}
# put FILE BYTES...: one write(2) of the bytes (octal escapes allowed)
put() {
	f=$1
	shift
	printf "$@" | dd of="$f" bs=4096 2>/dev/null
}
refused=0 accepted=0
try() {
	if put "$@"; then
		accepted=$((accepted + 1))
		echo "accepted: $1 <- $(printf "$2" | od -An -c | tr -s ' ' | head -c 60)"
	else
		refused=$((refused + 1))
	fi
}
# Nothing any batch of refused writes did may show in the state.
before=$(state)
batch() {
	after=$(state)
	[ "$before" = "$after" ] || echo "changed: by writes to $1: $before -> $after"
	before=$after
}
long=$(printf '%0100d' 0)
for f in enabled clear; do
	for s in '\n' '2' '-1' '01' '1 ' ' 1' 'yes' 'no' 'on' '0x1' '10' '11' '1\n\n' '1\r' \
		'\0' '1\0' '-0' '+1' 'true' '00' "$long" '\377' '\t1' '1\n1'; do
		try $D/$f "$s"
	done
	# every single byte but the valid ones
	i=0
	while [ $i -lt 256 ]; do
		case $i in 48|49) ;; *) [ $i = 10 ] || try $D/$f "\\$(printf %o $i)" ;; esac
		i=$((i + 1))
	done
	batch $f
done
# clear accepts only "1"
try $D/clear '0'
try $D/clear '0\n'
batch clear
# filter: names are printable, no blanks, at most 63 bytes
for s in "$long" 'a b' ' a' 'a\tb' 'a\001' '\377\376' 'e1000\n\n' 'x\r' '\0'; do
	try $D/filter "$s"
done
i=0
while [ $i -lt 256 ]; do
	if [ $i -le 32 ] || [ $i -ge 127 ]; then
		[ $i = 10 ] || try $D/filter "a\\$(printf %o $i)b"
	fi
	i=$((i + 1))
done
batch filter
# ignore: KIND:FUNCTION tokens, all or nothing
many=
i=0
while [ $i -le 32 ]; do many="$many leak:f$i"; i=$((i + 1)); done
for s in 'a' ':' 'leak:' ':foo' 'leak:1a' 'leak:a-b' 'nokind:a' 'LEAK:a' 'leak::a' \
	'leak:a:b' 'leak :a' '**:a' '*:' 'leak:a nokind:b' 'leak:a,leak:' '-leak:a' \
	'leak:a -leak:b' 'leak:a\0' 'leak:a\001' '\377' "leak:$long" "$many" '--leak:a'; do
	try $D/ignore "$s"
done
batch ignore
# module parameters with choices are strict too
for s in 'sometimes' '' '2' 'ALL'; do
	if echo "$s" >/sys/module/dma_owner/parameters/report 2>/dev/null; then
		echo "accepted: report <- $s"; accepted=$((accepted + 1))
	else
		refused=$((refused + 1))
	fi
done
for s in 0 -1 65537 x; do
	if echo "$s" >/sys/module/dma_owner/parameters/log_size 2>/dev/null; then
		echo "accepted: log_size <- $s"; accepted=$((accepted + 1))
	else
		refused=$((refused + 1))
	fi
done
batch parameters
# Positive control: the same one-write path takes well-formed values, and
# each takes effect, so that a refusal above means the value was refused.
control() {
	if put "$1" "$2" && [ "$(cat "$1")" = "$3" ]; then
		echo "control ok: ${1##*/} <- $2"
	else
		echo "control failed: ${1##*/} <- $2 reads back '$(cat "$1")', want '$3'"
	fi
}
control $D/enabled '0\n' 0
control $D/enabled '1' 1
control $D/filter 'e1000\n' e1000
control $D/filter '\n' ''
control $D/ignore 'leak:fuzz_control\n' 'leak:fuzz_control 0'
control $D/ignore '-leak:fuzz_control' ''
echo "refused $refused accepted $accepted"
