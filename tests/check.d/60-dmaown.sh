#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# dmaown, the command-line tool (tools/dmaown/), in the guest against known
# workloads of test_dma_owner: every subcommand's text and JSON output, its
# exit status (0 clean, 1 violations, 2 usage or environment), each usage
# and environment error; then the timeline page of a violating scenario,
# rendered by headless Chromium on the host and checked in the screenshot.
. "$(dirname "$0")/../lib-test.sh"

cat >"$T/dmaown.sh" <<'S'
. /usr/share/dma-owner/lib.sh
H=/sys/kernel/debug/test_dma_owner/hold
modprobe test_dma_owner || exit 10
dev=$(test_device)
echo "testdev $dev"
# run NAME COMMAND...: its output (stdout and stderr) as section NAME.
run() { n=$1; shift; echo "--- $n"; "$@" 2>&1; echo "rc=$?"; }

echo 1 >$D/clear
run status0 dmaown status
run status0j dmaown --json status
run viol0 dmaown violations
run viol0j dmaown --json violations
for s in missing_sync_single missing_sync_single redundant_sync_single dir_mismatch_single; do
	echo $s >$R
done
run stats1 cat $D/stats
run status1 dmaown status
run status1j dmaown --json status
run viol1 dmaown violations
run viol1j dmaown --json violations
run viol1k dmaown violations --kind redundant-sync-for-device
run viol1n dmaown violations --kind leak

echo 4 >$H
run map1 dmaown mappings --driver test_dma_owner
run map1j dmaown --json mappings --dev $dev
run mapcpu dmaown mappings --driver test_dma_owner --owner cpu
run mapdev dmaown mappings --dev $dev --owner device
run mapyoung dmaown mappings --driver test_dma_owner --older-than 1h
sleep 2
run mapold dmaown mappings --driver test_dma_owner --older-than 1500ms
echo 0 >$H
run map2 dmaown mappings --driver test_dma_owner

echo 1 >$D/clear
dmaown violations --follow >/tmp/follow 2>/tmp/follow.err &
fp=$!
dmaown --json violations --follow >/tmp/followj 2>/tmp/followj.err &
fpj=$!
# Both have read the log once when they say so.
for i in $(seq 100); do
	grep -q following /tmp/follow.err && grep -q following /tmp/followj.err && break
	sleep 0.1
done
echo missing_sync_single >$R
echo size_mismatch_single >$R
# Until both have printed the second report (they poll), at most 10 s.
for i in $(seq 100); do
	grep -q size-mismatch /tmp/follow && grep -q size-mismatch /tmp/followj && break
	sleep 0.1
done
kill $fp $fpj
wait $fp; frc=$?
wait $fpj; fjrc=$?
echo "--- followerr"; cat /tmp/follow.err; echo "rc=$frc"
echo "--- follow"; cat /tmp/follow; echo "rc=$frc"
echo "--- followj"; cat /tmp/followj; echo "rc=$fjrc"

run rec_ok dmaown record -o /tmp/ok.dat -- sh -c "echo cycle_single >$R"
run rec_bad dmaown record -o /tmp/bad.dat -- sh -c "echo missing_sync_single >$R"
run result cat /sys/kernel/debug/test_dma_owner/result
h=$(sed -n 's/^handle //p' /sys/kernel/debug/test_dma_owner/result)
run report_bad sh -c "trace-cmd report /tmp/bad.dat 2>/dev/null | grep -o 'dma_owner_[a-z_]*: .*'"
run tl_ok dmaown timeline /tmp/ok.dat --dev $dev
run tl_okj dmaown --json timeline /tmp/ok.dat --dev $dev
run tl_bad dmaown timeline /tmp/bad.dat --dev $dev
run tl_badj dmaown --json timeline /tmp/bad.dat --dev $dev
run tl_handle dmaown timeline /tmp/bad.dat --handle $h
run tl_nomatch dmaown timeline /tmp/bad.dat --dev no-such-device
run tl_html dmaown timeline /tmp/bad.dat --handle $h --html /tmp/bad.html
echo "--- html"; cat /tmp/bad.html
run tl_svg dmaown timeline /tmp/bad.dat --handle $h --svg /tmp/bad.svg
echo "--- svg"; cat /tmp/bad.svg
# 121 mappings, the 61st with a violation: the page shows 100, that one first.
run rec_many dmaown record -o /tmp/many.dat -- sh -c "for i in \$(seq 60); do echo cycle_single >$R; done
	echo missing_sync_single >$R; for i in \$(seq 60); do echo cycle_single >$R; done"
run tl_many dmaown timeline /tmp/many.dat --dev $dev --html /tmp/many.html
run many_text sh -c "dmaown timeline /tmp/many.dat --dev $dev | grep -c '^mapping '"
run many_html sh -c "grep -c '^<svg ' /tmp/many.html; grep -o '[0-9]* more mappings not shown' /tmp/many.html
	grep -m1 'font-weight=\"bold\">mapping' /tmp/many.html"

run e_nocmd dmaown
run e_badcmd dmaown frobnicate
run e_badopt dmaown status --frob
run e_extra dmaown status --kind leak
run e_owner dmaown mappings --owner gpu
run e_older dmaown mappings --older-than soon
run e_kind dmaown violations --kind oops
run e_tlfile dmaown timeline /nonexistent.dat
run e_tlnotrace dmaown timeline /etc/passwd
run e_tlhandle dmaown timeline /tmp/bad.dat --handle xyz
run e_reccmd dmaown record -o /tmp/x.dat -- /nonexistent-command
run e_recnocmd dmaown record -o /tmp/x.dat
run e_notroot su nobody -c "dmaown status"
run e_notbuilt dmaown --debugfs /sys/kernel/debug/test_dma_owner status
run e_help dmaown --help
umount -l /sys/kernel/debug
run e_nodebugfs dmaown status
echo "--- end"
S

# dir_mismatch_single also makes dma-debug WARN.
QEMU_ARGS="-device edu" vm "$T/out" --allow-warn "$REPORT_WARN|$DMA_DEBUG_WARN" "$T/dmaown.sh"
check "dmaown: guest run clean" "rc=$rc: $(tail -3 "$T/out") $(head -3 "$T/out.err")" [ $rc = 0 ]
tr -d '\r' <"$T/out" >"$T/o"
mkdir -p "$REPO/out/dmaown"
cp "$T/o" "$REPO/out/dmaown/session.txt"	# what each command printed
dev=$(sed -n 's/^testdev //p' "$T/o")
# sec NAME: the section's output without its rc line; rc NAME: its exit status.
sec() { sed -n "/^--- $1\$/,/^--- /p" "$T/o" | sed '1d;$d' | sed '$d'; }
rc() { sed -n "/^--- $1\$/,/^--- /p" "$T/o" | sed -n 's/^rc=//p' | tail -1; }
# json NAME PYTHON-EXPR: the expression, over the section's JSON as j, is true.
json() {
	sec "$1" | python3 -c "import json, sys; j = json.load(sys.stdin); sys.exit(0 if ($2) else 1)"
}
has() { sec "$1" | grep -q -- "$2"; }
lines() { sec "$1" | grep -c -- "$2"; }
# lanes NAME: a timeline's rows as C (CPU lane filled) D (device lane) - and
# the event, "|"-separated: the columns are fixed, see timeline_text().
lanes() {
	sec "$1" | awk 'NR > 2 { ev = substr($0, 32, 26); sub(/ +$/, "", ev);
		printf "%s%s:%s|", substr($0, 17, 2) == "##" ? "C" : "-",
			substr($0, 24, 2) == "##" ? "D" : "-", ev }'
}

# --- status ---------------------------------------------------------------
check "dmaown status: clean tracker exits 0" "rc=$(rc status0)" [ "$(rc status0)" = 0 ]
check "dmaown status: says on, no filter, no violations" "$(sec status0)" \
	eval "has status0 '^tracker:    on\$' && has status0 '^filter:     (everything)\$' &&
		has status0 '^violations: 0\$'"
check "dmaown --json status: clean" "$(sec status0j)" \
	json status0j "j['enabled'] == 1 and j['counters']['violations'] == 0 and j['violations_by_driver'] == {} and len(j['violations_by_kind']) == $NR_KINDS"
check "dmaown status: violations found exit 1" "rc=$(rc status1)" [ "$(rc status1)" = 1 ]
for kv in "violations: 4" "  missing-sync-for-device        2" \
	"  redundant-sync-for-device      1" "  dir-mismatch                   1" \
	"  test_dma_owner                 4"; do
	check "dmaown status: line '$kv'" "$(sec status1)" grep -qxF -- "$kv" <(sec status1)
done
calls="calls:      $(stat <(sec stats1) maps) maps, $(stat <(sec stats1) unmaps) unmaps, $(stat <(sec stats1) syncs_for_cpu) syncs for cpu, $(stat <(sec stats1) syncs_for_device) syncs for device"
check "dmaown status: counters are the stats file's" "want '$calls' in: $(sec status1)" grep -qxF -- "$calls" <(sec status1)
want_counters=$(sec stats1 | grep -v '^enabled\|^violation\.\|^incomplete:' | sed 's/: /=/' | sort | xargs)
got_counters=$(sec status1j | python3 -c "import json, sys; j = json.load(sys.stdin); print(' '.join(sorted('%s=%d' % kv for kv in j['counters'].items())))")
check "dmaown --json status: counters equal the stats file" "want $want_counters got $got_counters" \
	[ "$want_counters" = "$got_counters" ]
check "dmaown --json status: by kind and by driver" "$(sec status1j)" \
	json status1j "j['violations_by_kind'] == {'missing-sync-for-device': 2, 'redundant-sync-for-device': 1, 'unknown-handle': 0, 'use-after-unmap': 0, 'out-of-range': 0, 'dir-mismatch': 1, 'size-mismatch': 0, 'cpu-write-while-device-owned': 0, 'leak': 0, 'map-error-unchecked': 0, 'api-mismatch': 0, 'sg-count-mismatch': 0, 'sg-segment-limit': 0, 'bad-memory': 0, 'cpu-address-mismatch': 0, 'cache-line-shared': 0} and j['violations_by_driver'] == {'test_dma_owner': 4} and j['log_records'] == 4"

# --- violations -----------------------------------------------------------
check "dmaown violations: none exits 0" "rc=$(rc viol0): $(sec viol0)" \
	[ "$(rc viol0)" = 0 -a "$(sec viol0)" = "no violations in the log (0 counted since the last clear)" ]
check "dmaown --json violations: none" "$(sec viol0j)" json viol0j "j == {'violations': 0, 'log_records': 0, 'groups': []}"
check "dmaown violations: found exits 1" "rc=$(rc viol1)" [ "$(rc viol1)" = 1 ]
check "dmaown violations: 4 reports grouped into 3 call sites" "$(sec viol1 | head -1)" \
	[ "$(sec viol1 | head -1)" = "4 reports from 3 call sites (the log holds the last 4 of 4 violations)" ]
check "dmaown violations: the repeated site counted twice" "$(sec viol1)" \
	grep -qE '^    2 x missing-sync-for-device in missing_sync_single\+0x[0-9a-f]+/0x[0-9a-f]+ \[test_dma_owner\]$' <(sec viol1)
for k in redundant-sync-for-device dir-mismatch; do
	check "dmaown violations: $k once" "$(sec viol1)" \
		grep -qE "^    1 x $k in ${k%%-*}_[a-z]*_single\+0x" <(sec viol1)
done
check "dmaown violations: groups name driver, device and map site" "$(sec viol1)" \
	[ "$(lines viol1 "^        driver test_dma_owner, device $dev\$")" = 3 -a "$(lines viol1 '^        mapped at [a-z_]*_single+0x')" = 3 ]
check "dmaown --json violations: groups, counts, sequence numbers" "$(sec viol1j | head -c 600)" \
	json viol1j "j['violations'] == 4 and [(g['count'], g['kind'], g['first_seq'], g['last_seq']) for g in j['groups']] == [(2, 'missing-sync-for-device', 0, 1), (1, 'redundant-sync-for-device', 2, 2), (1, 'dir-mismatch', 3, 3)] and all(g['devices'] == '$dev' and g['driver'] == 'test_dma_owner' and ('\\n' + g['kind'] + ' in ') in g['report'] for g in j['groups'])"
check "dmaown violations --kind: only that kind" "$(sec viol1k)" \
	[ "$(rc viol1k)" = 1 -a "$(sec viol1k | head -1)" = "1 report from 1 call site (the log holds the last 4 of 4 violations)" -a "$(lines viol1k ' x ')" = 1 ]
check "dmaown violations --kind leak: none, exit 0" "rc=$(rc viol1n) $(sec viol1n)" \
	[ "$(rc viol1n)" = 0 -a "$(sec viol1n)" = "no violations of kind leak in the log (4 counted since the last clear)" ]
check "dmaown violations --follow: the two new reports, as they came" "$(sec follow)" \
	eval "[ \$(sec follow | wc -l) = 2 ] &&
		sec follow | sed -n 1p | grep -qE '^\[0\] [0-9.]+ missing-sync-for-device in missing_sync_single\+0x.* device $dev driver test_dma_owner handle 0x' &&
		sec follow | sed -n 2p | grep -qE '^\[1\] [0-9.]+ size-mismatch in size_mismatch_single\+0x'"
check "dmaown violations --follow: exit 1 after printing violations" "rc=$(rc follow)" [ "$(rc follow)" = 1 ]
check "dmaown violations --follow: says what it follows" "$(sec followerr)" \
	[ "$(sec followerr)" = "dmaown: following /sys/kernel/debug/dma-owner/violations; new reports appear here (Ctrl-C stops)" ]
follow_kinds() {
	sec followj | python3 -c 'import json, sys; print(" ".join(json.loads(l)["kind"] for l in sys.stdin))'
}
check "dmaown --json violations --follow: one object per line" "$(sec followj | head -c 400)" \
	[ "$(follow_kinds)" = "missing-sync-for-device size-mismatch" ]

# --- mappings -------------------------------------------------------------
check "dmaown mappings: header and the 4 held mappings" "$(sec map1)" \
	[ "$(rc map1)" = 0 -a "$(sec map1 | head -1 | awk '{print $1, $2, $3, $6, $NF}')" = "DEVICE DRIVER HANDLE OWNER MAP_SITE" -a "$(lines map1 " test_dma_owner ")" = 4 ]
check "dmaown mappings: 2 device-owned, 2 CPU-owned, map site hold_write" "$(sec map1)" \
	[ "$(sec map1 | awk '$6 == "device"' | wc -l)" = 2 -a "$(sec map1 | awk '$6 == "cpu[0x0-0x1000)"' | wc -l)" = 2 -a "$(lines map1 ' hold_write+0x')" = 4 ]
check "dmaown --json mappings --dev: the 4, with every field" "$(sec map1j | head -c 600)" \
	json map1j "len(j) == 4 and all(m['device'] == '$dev' and m['driver'] == 'test_dma_owner' and m['size'] == 4096 and m['dir'] == 'DMA_FROM_DEVICE' and m['handle'].startswith('0x') and m['map_site'].startswith('hold_write+0x') for m in j) and sorted(m['owner'] for m in j) == ['cpu[0x0-0x1000)', 'cpu[0x0-0x1000)', 'device', 'device'] and sorted(m['syncs_for_cpu'] for m in j) == [0, 0, 1, 1]"
check "dmaown mappings --owner cpu: the 2 CPU-owned" "$(sec mapcpu)" \
	[ "$(lines mapcpu ' cpu\[0x0-0x1000) ')" = 2 -a "$(sec mapcpu | wc -l)" = 3 ]
check "dmaown mappings --owner device --dev: the 2 device-owned" "$(sec mapdev)" \
	[ "$(sec mapdev | awk '$6 == "device"' | wc -l)" = 2 -a "$(sec mapdev | wc -l)" = 3 ]
check "dmaown mappings --older-than 1h: none" "$(sec mapyoung)" [ "$(sec mapyoung)" = "no live mappings match" ]
check "dmaown mappings --older-than 1500ms, 2 s later: all 4" "$(sec mapold)" [ "$(lines mapold " test_dma_owner ")" = 4 ]
check "dmaown mappings: released, none left" "$(sec map2)" [ "$(sec map2)" = "no live mappings match" -a "$(rc map2)" = 0 ]

# --- record and timeline --------------------------------------------------
check "dmaown record: correct use exits 0" "rc=$(rc rec_ok): $(sec rec_ok)" \
	eval '[ "$(rc rec_ok)" = 0 ] && has rec_ok "trace written to /tmp/ok.dat, 0 violations;"'
check "dmaown record: a violating command exits 1, counts it" "rc=$(rc rec_bad): $(sec rec_bad)" \
	eval '[ "$(rc rec_bad)" = 1 ] && has rec_bad "trace written to /tmp/bad.dat, 1 violation;"'
evs=$(sec report_bad | sed 's/:.*//' | xargs)
check "dmaown record: trace-cmd report reads the trace" "events: $evs" \
	[ "$evs" = "dma_owner_map dma_owner_sync_for_cpu dma_owner_sync_for_cpu dma_owner_violation dma_owner_unmap" ]
check "trace-cmd report: the violation event's kind" "$(sec report_bad | grep violation)" \
	grep -q "dma_owner_violation: *missing-sync-for-device test_dma_owner $dev handle=0x" <(sec report_bad)
check "dmaown timeline: correct cycle, one mapping, exit 0" "rc=$(rc tl_ok): $(sec tl_ok)" \
	[ "$(rc tl_ok)" = 0 -a "$(lines tl_ok '^mapping 0x')" = 1 ]
check "dmaown timeline: the mapping's header" "$(sec tl_ok | head -1)" \
	grep -qE "^mapping 0x[0-9a-f]+ size 2048 DMA_FROM_DEVICE on $dev \(test_dma_owner\)\$" <(sec tl_ok | head -1)
check "dmaown --json timeline: map, cpu, device, cpu, unmap with owners and callers" "$(sec tl_okj | head -c 900)" \
	json tl_okj "len(j) == 1 and [(e['event'], e['owner_before'], e['owner_after']) for e in j[0]['events']] == [('map', 'none', 'device'), ('sync_for_cpu', 'device', 'cpu'), ('sync_for_device', 'cpu', 'device'), ('sync_for_cpu', 'device', 'cpu'), ('unmap', 'cpu', 'none')] and all(e['caller'].startswith('cycle_single+0x') for e in j[0]['events']) and j[0]['violations'] == 0 and j[0]['mapped_in_trace'] and j[0]['unmapped_in_trace']"
check "dmaown timeline: owner lanes follow the events" "$(lanes tl_ok)" \
	[ "$(lanes tl_ok)" = "-D:map|C-:sync_for_cpu|-D:sync_for_device|C-:sync_for_cpu|--:unmap|" ]
check "dmaown timeline: callers named" "$(sec tl_ok)" [ "$(lines tl_ok ' cycle_single+0x[0-9a-f]*$')" = 5 ]
check "dmaown timeline: a violation marked in the CPU's lane, exit 1" "rc=$(rc tl_bad): $(lanes tl_bad)" \
	[ "$(rc tl_bad)" = 1 -a "$(lanes tl_bad)" = "-D:map|C-:sync_for_cpu|C-:sync_for_cpu|C-:!! missing-sync-for-device|--:unmap|" ]
check "dmaown --json timeline: the violation in the sequence" "$(sec tl_badj | head -c 900)" \
	json tl_badj "len(j) == 1 and [e['event'] for e in j[0]['events']] == ['map', 'sync_for_cpu', 'sync_for_cpu', 'violation', 'unmap'] and j[0]['events'][3]['kind'] == 'missing-sync-for-device' and j[0]['events'][3]['owner'] == 'cpu' and j[0]['violations'] == 1"
h=$(sec result | sed -n 's/^handle //p')
check "dmaown --json timeline: the handle is the scenario's" "want $h: $(sec tl_badj | head -c 300)" \
	json tl_badj "j[0]['handle'] == '$h'"
check "dmaown timeline --handle: that mapping" "$(sec tl_handle | head -1)" \
	[ "$(rc tl_handle)" = 1 -a "$(lines tl_handle '^mapping 0x')" = 1 ]
check "dmaown timeline --dev with no match: says so, exit 0" "rc=$(rc tl_nomatch) $(sec tl_nomatch)" \
	[ "$(rc tl_nomatch)" = 0 -a "$(sec tl_nomatch)" = "no mapping in the trace matches" ]
check "dmaown timeline --html: written, exit 1 (it holds a violation)" "rc=$(rc tl_html) $(sec tl_html)" \
	eval '[ "$(rc tl_html)" = 1 ] && has tl_html "1 mapping written to /tmp/bad.html"'
svg() { sed -n '/^--- svg$/,/^--- rec_many$/p' "$T/o"; }
check "dmaown timeline --svg: one mapping, its violation marked" "$(svg | head -3)" \
	eval "[ \$(svg | grep -c '^<svg ') = 1 ] && svg | grep -q 'class=\"violation\"' && svg | grep -q '>missing-sync-for-device</text>'"

check "dmaown timeline: 121 mappings of a longer trace, one violation, exit 1" "rc=$(rc tl_many) $(sec many_text)" \
	[ "$(rc tl_many)" = 1 -a "$(sec many_text)" = 121 ]
check "dmaown timeline --html: at most 100 pictures, says how many more" "$(sec many_html | head -2 | xargs)" \
	eval '[ "$(sec many_html | head -2 | xargs)" = "100 21 more mappings not shown" ] && has tl_many "100 mappings written to /tmp/many.html"'
check "dmaown timeline --html: the mapping with the violation comes first" "$(sec many_html | sed -n 3p | cut -c1-200)" \
	grep -q 'violation</text>$' <(sec many_html | sed -n 3p)

# --- errors ---------------------------------------------------------------
err() {	# NAME MESSAGE-REGEX: exit status 2 and the message
	check "dmaown error $1: exit 2, says what to do" "rc=$(rc $1): $(sec $1 | head -2)" \
		eval "[ \"\$(rc $1)\" = 2 ] && sec $1 | grep -qE -- '$2'"
}
err e_nocmd "which command\? status, mappings, violations, record or timeline"
err e_badcmd "frobnicate: no such command"
err e_badopt "bad option"
err e_extra "status does not take those arguments"
err e_owner "--owner gpu: say cpu or device"
err e_older "--older-than soon: a duration like 500ms"
err e_kind "--kind oops: not a violation kind; the kinds are missing-sync-for-device"
err e_tlfile "cannot read /nonexistent.dat"
err e_tlnotrace "/etc/passwd is not a trace-cmd trace"
err e_tlhandle "--handle xyz: not a number"
err e_reccmd "cannot run /nonexistent-command"
err e_recnocmd "record: what should run\?"
err e_notroot "needs root: .*run it as root"
err e_notbuilt "built without the DMA ownership tracker \(build it with CONFIG_DMA_OWNER_DEBUG=y\)"
err e_nodebugfs "debugfs is not mounted on /sys/kernel/debug: mount -t debugfs none /sys/kernel/debug"
help_ok() {
	local w
	[ "$(rc e_help)" = 0 ] || return 1
	for w in "  status " "  mappings " "  violations " "  record " "  timeline " \
		"examples:" "exit status:"; do
		has e_help "$w" || return 1
	done
}
check "dmaown --help: teaches every command with examples, exit 0" "rc=$(rc e_help)" help_ok

# --- the timeline page, in a browser -------------------------------------
sed -n '/^--- html$/,/^--- tl_svg$/p' "$T/o" | sed '1d;$d' >"$T/timeline.html"
cp "$T/timeline.html" "$REPO/out/dmaown/timeline.html"
if ! command -v chromium >/dev/null; then
	not_ok "dmaown timeline page renders in Chromium" "chromium is not installed (scripts/setup.sh installs it)"
else
	png=$REPO/out/dmaown/timeline.png
	rm -f "$png"
	timeout 120 chromium --headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars \
		--window-size=1300,400 --screenshot="$png" "file://$T/timeline.html" \
		>"$T/chromium.log" 2>&1
	check "dmaown timeline page renders in Chromium" "$(tail -3 "$T/chromium.log")" [ -s "$png" ]
	# Pixels of the page's colours, by region: the lanes, the CPU and device
	# spans, and the violation marker above the lanes.
	"$REPO/scripts/png-colours.py" "$png" >"$T/colours" 2>&1
	cat "$T/colours" | sed 's/^/# /'
	px() { sed -n "s/^$1 //p" "$T/colours"; }
	check "screenshot: the CPU lane holds CPU-owned spans" "$(px cpu)" [ "$(px cpu | cut -d' ' -f1)" -gt 500 ]
	check "screenshot: the device lane holds device-owned spans" "$(px device)" [ "$(px device | cut -d' ' -f1)" -gt 500 ]
	check "screenshot: the violation is marked" "$(px violation)" [ "$(px violation | cut -d' ' -f1)" -gt 100 ]
	check "screenshot: the device lane lies below the CPU lane" "cpu $(px cpu) device $(px device)" \
		[ "$(px cpu | cut -d' ' -f2)" -lt "$(px device | cut -d' ' -f2)" ]
fi
