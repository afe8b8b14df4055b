#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# dmaown, the command-line tool (tools/dmaown/), in the guest against known
# workloads of test_dma_owner: every subcommand's text and JSON output, its
# exit status (0 clean, 1 violations, 2 usage or environment, 3 record's
# failed command), each usage and environment error, the changes the
# kernel refuses; a bundle that dmaown save wrote in the guest, read on the
# host by the host's dmaown (make dmaown) as the guest read it live; then
# the timeline page of a violating scenario, rendered by headless Chromium
# on the host and checked in the screenshot.
. "$(dirname "$0")/../lib-test.sh"

cat >"$T/dmaown.sh" <<'S'
. /usr/share/dma-owner/lib.sh
H=/sys/kernel/debug/test_dma_owner/hold
modprobe test_dma_owner || exit 10
dev=$(test_device)
echo "testdev $dev"
echo "uname $(uname -r)"
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
run viol1d dmaown violations --driver test_dma_owner
run viol1dn dmaown violations --driver e1000
run viol1dnj dmaown --json violations --driver e1000
run viol1dk dmaown violations --driver test_dma_owner --kind dir-mismatch
run viol1dkj dmaown --json violations --kind dir-mismatch --driver test_dma_owner

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
dmaown violations --follow --driver test_dma_owner --kind size-mismatch \
	>/tmp/followdk 2>/tmp/followdk.err &
fpdk=$!
dmaown violations --follow --driver e1000 >/tmp/followdn 2>/tmp/followdn.err &
fpdn=$!
# All have read the log once when they say so.
for i in $(seq 100); do
	grep -q following /tmp/follow.err && grep -q following /tmp/followj.err &&
		grep -q following /tmp/followdk.err && grep -q following /tmp/followdn.err && break
	sleep 0.1
done
echo missing_sync_single >$R
echo size_mismatch_single >$R
# Until they have printed the second report (they poll), at most 10 s.
for i in $(seq 100); do
	grep -q size-mismatch /tmp/follow && grep -q size-mismatch /tmp/followj &&
		grep -q size-mismatch /tmp/followdk && break
	sleep 0.1
done
# The one that prints nothing has polled the log after the reports too.
sleep 1
kill $fp $fpj $fpdk $fpdn
wait $fp; frc=$?
wait $fpj; fjrc=$?
wait $fpdk; fdkrc=$?
wait $fpdn; fdnrc=$?
echo "--- followerr"; cat /tmp/follow.err; echo "rc=$frc"
echo "--- follow"; cat /tmp/follow; echo "rc=$frc"
echo "--- followj"; cat /tmp/followj; echo "rc=$fjrc"
echo "--- followdk"; cat /tmp/followdk; echo "rc=$fdkrc"
echo "--- followdn"; cat /tmp/followdn; echo "rc=$fdnrc"

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
# A report made inside a map call (the new mapping shares a cache line with
# the one mapped before it) belongs to the mapping that map made.
run rec_line dmaown record -o /tmp/line.dat -- sh -c "echo cache_line_shared >$R"
run tl_linej dmaown --json timeline /tmp/line.dat --dev $dev
# record's status: violations first, then how the command ended.
run rec_badfail dmaown record -o /tmp/bf.dat -- sh -c "echo missing_sync_single >$R; exit 5"
run rec_fail dmaown record -o /tmp/f.dat -- sh -c "echo cycle_single >$R; exit 4"
run rec_127 dmaown record -o /tmp/f127.dat -- sh -c "exit 127"
run rec_sig dmaown record -o /tmp/fs.dat -- sh -c 'kill -TERM $$'

# clear, then ignore rules: a scenario's report silenced, counted against
# its rule, not as a violation.
run status_preclear dmaown status
run clear dmaown clear
run status_clear dmaown status
run ign0 dmaown ignore
run ign_add dmaown ignore add missing-sync-for-device:missing_sync_single
echo missing_sync_single >$R
run ign_list dmaown ignore
run ign_listj dmaown --json ignore
run ign_status dmaown status
run ign_statusj dmaown --json status
run ign_viol dmaown violations
run ign_stats cat $D/stats
run ign_file cat $D/ignore
run ign_add_any dmaown ignore add '*:redundant_sync_single'
echo redundant_sync_single >$R
# Another function's report of the same kind is no rule's.
echo missing_sync_page >$R
run ign_status2 dmaown status
run ign_status2j dmaown --json status

# A bundle of that state, read back on the host: the live answers first.
echo 4 >$H
run live_status dmaown status
run live_statusj dmaown --json status
run live_viol dmaown violations
run live_violj dmaown --json violations
run live_map dmaown mappings --driver test_dma_owner
run live_mapj dmaown --json mappings --driver test_dma_owner
run live_ign dmaown ignore
run live_filter dmaown filter
run save dmaown save /tmp/bundle
run save_again dmaown save /tmp/bundle
mkdir -m 777 /tmp/shared
run save_shared dmaown save /tmp/shared
run save_shared_left ls -A /tmp/shared
echo "--- manifest"; cat /tmp/bundle/manifest; echo "rc=$?"
echo "--- bundle"; tar -c -f - -C /tmp/bundle . | base64; echo "rc=$?"
echo 0 >$H

run ign_remove dmaown ignore remove missing-sync-for-device:missing_sync_single
run ign_remove_absent dmaown ignore remove missing-sync-for-device:missing_sync_single
run ign_nokind dmaown ignore add missing_sync_single
run ign_badkind dmaown ignore add no-such-kind:missing_sync_single
run ign_offset dmaown ignore add missing-sync-for-device:missing_sync_single+0x148/0x174
# A function name longer than the kernel takes (63): the kernel refuses it.
run ign_toolong dmaown ignore add leak:a_function_name_longer_than_the_sixty_three_characters_the_kernel_takes
run ign_after dmaown ignore
# The kernel keeps 32 rules: *:redundant_sync_single and 31 more.
echo "--- ign_fill"
for i in $(seq 31); do dmaown ignore add leak:f$i >/dev/null || echo "add leak:f$i failed"; done
echo "rc=0"
run ign_full dmaown ignore add leak:one_too_many
run ign_count sh -c "dmaown ignore | grep -c ':'"
run ign_clear dmaown ignore clear
run ign_cleared dmaown ignore

# filter: shown, set, refused, emptied.
run filt0 dmaown filter
run filt_set dmaown filter test_dma_owner
run filt1 dmaown filter
run filt1j dmaown --json filter
run filt_file cat $D/filter
run filt_status dmaown status
run filt_bad dmaown filter "two words"
run filt_long dmaown filter 0123456789012345678901234567890123456789012345678901234567890123456789
run filt_kept dmaown filter
run filt_empty dmaown filter ""
run filt_none dmaown filter --none
run filt2 dmaown filter
run filt2_file cat $D/filter

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
run e_clear_args dmaown clear now
run e_save_nodir dmaown save
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
want_counters=$(sec stats1 | grep -v '^enabled\|^violation\.\|^incomplete:\|^ignore:' | sed 's/: /=/' | sort | xargs)
got_counters=$(sec status1j | python3 -c "import json, sys; j = json.load(sys.stdin); print(' '.join(sorted('%s=%d' % kv for kv in j['counters'].items())))")
check "dmaown --json status: counters equal the stats file" "want $want_counters got $got_counters" \
	[ "$want_counters" = "$got_counters" ]
check "dmaown --json status: by kind and by driver" "$(sec status1j)" \
	json status1j "j['violations_by_kind'] == {'missing-sync-for-device': 2, 'redundant-sync-for-device': 1, 'unknown-handle': 0, 'use-after-unmap': 0, 'out-of-range': 0, 'dir-mismatch': 1, 'size-mismatch': 0, 'cpu-write-while-device-owned': 0, 'leak': 0, 'map-error-unchecked': 0, 'api-mismatch': 0, 'sg-count-mismatch': 0, 'sg-segment-limit': 0, 'bad-memory': 0, 'cpu-address-mismatch': 0, 'cache-line-shared': 0, 'cpu-read-while-device-owned': 0, 'freed-while-mapped': 0} and j['violations_by_driver'] == {'test_dma_owner': 4} and j['log_records'] == 4"

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
check "dmaown violations --driver: the driver of every report, all of them" "rc=$(rc viol1d) $(sec viol1d | head -3)" \
	[ "$(rc viol1d)" = 1 -a "$(sec viol1d)" = "$(sec viol1)" ]
check "dmaown violations --driver: a driver with none, exit 0" "rc=$(rc viol1dn) $(sec viol1dn)" \
	[ "$(rc viol1dn)" = 0 -a "$(sec viol1dn)" = "no violations by driver e1000 in the log (4 counted since the last clear)" ]
check "dmaown --json violations --driver: a driver with none" "rc=$(rc viol1dnj) $(sec viol1dnj)" \
	json viol1dnj "j == {'violations': 4, 'log_records': 4, 'groups': []}"
check "dmaown violations --driver --kind: both filters" "rc=$(rc viol1dk) $(sec viol1dk)" \
	[ "$(rc viol1dk)" = 1 -a "$(sec viol1dk | head -1)" = "1 report from 1 call site (the log holds the last 4 of 4 violations)" -a "$(lines viol1dk '^    1 x dir-mismatch in dir_mismatch_single+0x')" = 1 ]
check "dmaown --json violations --kind --driver: both filters" "$(sec viol1dkj | head -c 400)" \
	json viol1dkj "[(g['kind'], g['driver'], g['count']) for g in j['groups']] == [('dir-mismatch', 'test_dma_owner', 1)]"
check "dmaown violations --follow: the two new reports, as they came" "$(sec follow)" \
	eval "[ \$(sec follow | wc -l) = 2 ] &&
		sec follow | sed -n 1p | grep -qE '^\[0\] [0-9.]+ missing-sync-for-device in missing_sync_single\+0x.* device $dev driver test_dma_owner handle 0x' &&
		sec follow | sed -n 2p | grep -qE '^\[1\] [0-9.]+ size-mismatch in size_mismatch_single\+0x'"
check "dmaown violations --follow: exit 1 after printing violations" "rc=$(rc follow)" [ "$(rc follow)" = 1 ]
check "dmaown violations --follow: says what it follows" "$(sec followerr)" \
	[ "$(sec followerr)" = "dmaown: following /sys/kernel/debug/dma-owner/violations; new reports appear here (Ctrl-C stops)" ]
check "dmaown violations --follow --driver --kind: only the report of both" "rc=$(rc followdk) $(sec followdk)" \
	eval "[ \"\$(rc followdk)\" = 1 ] && [ \$(sec followdk | wc -l) = 1 ] &&
		sec followdk | grep -qE '^\[1\] [0-9.]+ size-mismatch in size_mismatch_single\+0x.* driver test_dma_owner '"
check "dmaown violations --follow --driver: a driver with none prints none, exit 0" "rc=$(rc followdn) $(sec followdn)" \
	[ "$(rc followdn)" = 0 -a -z "$(sec followdn)" ]
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
check "dmaown --json timeline: a report made by a map is in that mapping's sequence" "$(sec tl_linej | head -c 900)" \
	json tl_linej "len(j) == 2 and sorted([e['event'] for e in m['events']] for m in j) == [['map', 'unmap'], ['map', 'violation', 'unmap']] and [e['kind'] for m in j for e in m['events'] if e['event'] == 'violation'] == ['cache-line-shared']"

# --- record's exit status ------------------------------------------------
check "dmaown record: violations and a failing command: exit 1, says both" "rc=$(rc rec_badfail): $(sec rec_badfail)" \
	eval '[ "$(rc rec_badfail)" = 1 ] && has rec_badfail "trace written to /tmp/bf.dat, 1 violation;" &&
		has rec_badfail "^dmaown: the command exited with status 5\$"'
check "dmaown record: no violation, a failing command: exit 3, says its status" "rc=$(rc rec_fail): $(sec rec_fail)" \
	eval '[ "$(rc rec_fail)" = 3 ] && has rec_fail "trace written to /tmp/f.dat, 0 violations;" &&
		has rec_fail "^dmaown: the command exited with status 4\$"'
check "dmaown record: a command that ran and exited 127 failed: exit 3, not 2" "rc=$(rc rec_127): $(sec rec_127)" \
	eval '[ "$(rc rec_127)" = 3 ] && has rec_127 "the command exited with status 127"'
check "dmaown record: a command killed by a signal: exit 3, says which" "rc=$(rc rec_sig): $(sec rec_sig)" \
	eval '[ "$(rc rec_sig)" = 3 ] && has rec_sig "^dmaown: the command was killed by signal 15 (SIGTERM)\$"'

# --- clear ----------------------------------------------------------------
check "dmaown clear: empties the log and the counters" \
	"preclear rc=$(rc status_preclear), clear rc=$(rc clear): $(sec clear), after rc=$(rc status_clear)" \
	eval '[ "$(rc status_preclear)" = 1 -a "$(rc clear)" = 0 -a "$(rc status_clear)" = 0 ] &&
		has status_clear "^violations: 0\$" && has clear "^cleared the violations log and the counters of /sys/kernel/debug/dma-owner\$"'

# --- ignore ---------------------------------------------------------------
rule=missing-sync-for-device:missing_sync_single
check "dmaown ignore: none at first" "rc=$(rc ign0) $(sec ign0)" \
	[ "$(rc ign0)" = 0 -a "$(sec ign0)" = "no ignore rules: every report counts" ]
check "dmaown ignore add: the rule listed, no hit yet" "rc=$(rc ign_add) $(sec ign_add)" \
	eval '[ "$(rc ign_add)" = 0 ] && [ "$(sec ign_add | awk "NR == 2 { print \$1, \$2 }")" = "$rule 0" ] && [ $(sec ign_add | wc -l) = 2 ]'
check "dmaown ignore: the scenario's report is a hit of its rule" "$(sec ign_list)" \
	[ "$(sec ign_list | awk 'NR == 2 { print $1, $2 }')" = "$rule 1" ]
check "dmaown --json ignore: the rule and its hit" "$(sec ign_listj)" \
	json ign_listj "j == {'rules': [{'rule': '$rule', 'kind': 'missing-sync-for-device', 'function': 'missing_sync_single', 'hits': 1}]}"
check "stats: an ignored report is counted as ignored, not as a violation" "$(sec ign_stats | grep -v '^violation\.')" \
	eval '[ "$(stat <(sec ign_stats) ignored)" = 1 -a "$(stat <(sec ign_stats) violations)" = 0 -a "$(stat <(sec ign_stats) violation.missing-sync-for-device)" = 0 ] &&
		[ "$(stat <(sec ign_stats) ignore)" = "$rule 1" ] && [ "$(sec ign_file)" = "$rule 1" ]'
check "dmaown status: ignored reports and the rule shown, exit 0" "rc=$(rc ign_status) $(sec ign_status)" \
	eval '[ "$(rc ign_status)" = 0 ] && has ign_status "^violations: 0\$" &&
		has ign_status "^ignored:    1 (reports the ignore rules silenced, not in violations)\$" &&
		sec ign_status | grep -qE "^  $rule +1\$"'
check "dmaown --json status: ignored count and rules" "$(sec ign_statusj | head -c 600)" \
	json ign_statusj "j['counters']['violations'] == 0 and j['counters']['ignored'] == 1 and j['ignore_rules'] == [{'rule': '$rule', 'kind': 'missing-sync-for-device', 'function': 'missing_sync_single', 'hits': 1}]"
check "dmaown violations: an ignored report is not in the log, exit 0" "rc=$(rc ign_viol) $(sec ign_viol)" \
	[ "$(rc ign_viol)" = 0 -a "$(sec ign_viol)" = "no violations in the log (0 counted since the last clear)" ]
check "dmaown ignore: a '*' rule and a report no rule matches: exit 1 for that one only" "rc=$(rc ign_status2) $(sec ign_status2)" \
	eval '[ "$(rc ign_add_any)" = 0 -a "$(rc ign_status2)" = 1 ] && has ign_status2 "^violations: 1\$" &&
		has ign_status2 "^  missing-sync-for-device        1\$" && has ign_status2 "^ignored:    2 " &&
		sec ign_status2 | grep -qE "^  \*:redundant_sync_single +1\$"'
check "dmaown --json status: two rules, a hit each, one violation" "$(sec ign_status2j | head -c 600)" \
	json ign_status2j "j['counters']['violations'] == 1 and j['counters']['ignored'] == 2 and [(r['rule'], r['hits']) for r in j['ignore_rules']] == [('$rule', 1), ('*:redundant_sync_single', 1)]"
check "dmaown ignore remove: the rule gone, the other kept" "rc=$(rc ign_remove) $(sec ign_after)" \
	[ "$(rc ign_remove)" = 0 -a "$(sec ign_after | awk 'NR > 1 { print $1 }' | xargs)" = "*:redundant_sync_single" ]
check "dmaown ignore: 32 rules taken" "$(sec ign_fill) count $(sec ign_count)" \
	[ -z "$(sec ign_fill)" -a "$(sec ign_count)" = 32 ]
check "dmaown ignore clear: no rule left" "rc=$(rc ign_clear) $(sec ign_cleared)" \
	[ "$(rc ign_clear)" = 0 -a "$(sec ign_cleared)" = "no ignore rules: every report counts" ]

# --- filter ---------------------------------------------------------------
check "dmaown filter: none at first" "rc=$(rc filt0) $(sec filt0)" [ "$(rc filt0)" = 0 -a "$(sec filt0)" = "(everything)" ]
check "dmaown filter NAME: set in the kernel, shown, says what it costs" "rc=$(rc filt_set) $(sec filt_set) file $(sec filt_file)" \
	eval '[ "$(rc filt_set)" = 0 -a "$(sec filt_file)" = test_dma_owner -a "$(sec filt1)" = test_dma_owner ] &&
		has filt_set "^filter: test_dma_owner (was (everything))\$" && has filt_set "emptied its table of live mappings"'
check "dmaown --json filter" "$(sec filt1j)" json filt1j "j == {'filter': 'test_dma_owner'}"
check "dmaown status: the filter" "$(sec filt_status | head -2)" has filt_status "^filter:     test_dma_owner\$"
check "dmaown filter: refused names leave the filter as it was" "$(sec filt_kept)" [ "$(sec filt_kept)" = test_dma_owner ]
check "dmaown filter --none: every device again" "rc=$(rc filt_none) $(sec filt2) file '$(sec filt2_file)'" \
	eval '[ "$(rc filt_none)" = 0 -a "$(sec filt2)" = "(everything)" -a -z "$(sec filt2_file)" ] &&
		has filt_none "^filter: (everything) (was test_dma_owner)\$"'

# --- the bundle, read on the host -----------------------------------------
mkdir -p "$T/bundle"
sec bundle | base64 -d | tar -x -C "$T/bundle" 2>"$T/untar.err"
check "dmaown save: a bundle in the guest" "rc=$(rc save) $(sec save) $(cat "$T/untar.err")" \
	eval '[ "$(rc save)" = 0 ] && has save "^saved [0-9]* files of /sys/kernel/debug/dma-owner (.*) and [0-9]* module parameters to /tmp/bundle, kernel " &&
		[ -f "$T/bundle/manifest" -a -f "$T/bundle/dma-owner/violations" ]'
kernel=$(sed -n 's/^uname //p' "$T/o")
version=$(sed -n 's/^#define DMAOWN_VERSION\t"\(.*\)"$/\1/p' "$REPO/tools/dmaown/dmaown.h")
manifest_ok() {
	local f
	[ -n "$kernel" -a "$(stat <(sec manifest) kernel)" = "$kernel" ] || return 1
	[ "$(stat <(sec manifest) format)" = "dmaown-bundle 1" ] || return 1
	[ -n "$version" -a "$(stat <(sec manifest) dmaown)" = "$version" ] || return 1
	has manifest "^not_saved: /sys/kernel/debug/dma-owner/clear (write-only)\$" || return 1
	for f in enabled filter ignore mappings stats violations; do
		[[ " $(stat <(sec manifest) files) " == *" $f "* ]] || return 1
		[ -s "$T/bundle/dma-owner/$f" ] || return 1
	done
	[ "$(cat "$T/bundle/parameters/log_size")" = 64 ]
}
check "dmaown save: the manifest names the kernel, the version, the files" "$(sec manifest)" manifest_ok
make -s -C "$REPO" dmaown >"$T/make-dmaown.log" 2>&1
mrc=$?
hd=$REPO/out/bin/dmaown
check "make dmaown: the tool built for the host" "rc=$mrc: $(tail -5 "$T/make-dmaown.log")" \
	[ $mrc = 0 -a -x "$hd" -a "$(tail -1 "$T/make-dmaown.log")" = out/bin/dmaown ]
# bundle NAME ARGS...: the host's dmaown on the bundle; its stdout in
# $T/b.NAME, stderr in $T/b.NAME.err, status in $T/b.NAME.rc.
bundle() {
	local name=$1
	shift
	"$hd" --debugfs "$T/bundle" "$@" >"$T/b.$name" 2>"$T/b.$name.err"
	echo $? >"$T/b.$name.rc"
}
bundle status status
bundle statusj --json status
bundle viol violations
bundle violj --json violations
bundle map mappings --driver test_dma_owner
bundle mapj --json mappings --driver test_dma_owner
bundle ign ignore
bundle filter filter
bundle clear clear
bundle filt_set filter e1000
bundle ign_add ignore add leak:foo
# same NAME LIVE: the bundle's answer and status are the guest's live ones.
same() {
	check "dmaown --debugfs BUNDLE: $1 as it was live" "rc $(rc $2)/$(cat "$T/b.$1.rc"): $(diff <(sec $2) "$T/b.$1" | head -5)" \
		eval "[ \"\$(rc $2)\" = \"\$(cat $T/b.$1.rc)\" ] && [ \"\$(sec $2)\" = \"\$(cat $T/b.$1)\" ]"
}
same status live_status
same statusj live_statusj
same violj live_violj
same ign live_ign
same filter live_filter
check "dmaown --debugfs BUNDLE: status exits 1 for the violation, shows the rules" "rc=$(cat "$T/b.status.rc") $(cat "$T/b.status")" \
	eval '[ "$(cat "$T/b.status.rc")" = 1 ] && grep -q "^ignored:    2 " "$T/b.status"'
check "dmaown --debugfs BUNDLE: violations as it was live, pointing at the bundle's log" "$(diff <(sec live_viol) "$T/b.viol" | head -5)" \
	eval '[ "$(rc live_viol)" = 1 -a "$(cat "$T/b.viol.rc")" = 1 ] &&
		[ "$(sec live_viol | sed "s|/sys/kernel/debug/|$T/bundle/|")" = "$(cat "$T/b.viol")" ] &&
		grep -q "^    1 x missing-sync-for-device in missing_sync_page+0x" "$T/b.viol"'
# The mappings' ages are those of the save, a moment after the live read.
no_age() { awk '{ $7 = ""; print }'; }
check "dmaown --debugfs BUNDLE: mappings as they were live (ages aside)" "$(diff <(sec live_map | no_age) <(no_age <"$T/b.map") | head -5)" \
	eval '[ "$(cat "$T/b.map.rc")" = 0 ] && [ "$(sec live_map | no_age)" = "$(no_age <"$T/b.map")" ] &&
		[ "$(grep -c " test_dma_owner " "$T/b.map")" = 4 ]'
check "dmaown --json --debugfs BUNDLE: mappings as they were live (ages aside)" "$(head -c 300 "$T/b.mapj")" \
	python3 -c "import json, sys
strip = lambda ms: [{k: v for k, v in m.items() if k != 'age_ms'} for m in ms]
live, saved = json.loads(sys.argv[1]), json.load(open(sys.argv[2]))
sys.exit(0 if len(saved) == 4 and strip(live) == strip(saved) else 1)" "$(sec live_mapj)" "$T/b.mapj"
check "dmaown --debugfs BUNDLE: says it reads a bundle, on stderr" "$(cat "$T/b.status.err")" \
	grep -q "^dmaown: reading the bundle $T/bundle, saved .* (kernel $kernel)\$" "$T/b.status.err"
for w in clear filt_set ign_add; do
	check "dmaown --debugfs BUNDLE: $w refused, exit 2" "rc=$(cat "$T/b.$w.rc") $(cat "$T/b.$w.err")" \
		eval '[ "$(cat "$T/b.$w.rc")" = 2 ] && grep -q "needs a running tracker: $T/bundle is a bundle" "$T/b.$w.err"'
done

# --- errors ---------------------------------------------------------------
err() {	# NAME MESSAGE-REGEX: exit status 2 and the message
	check "dmaown error $1: exit 2, says what to do" "rc=$(rc $1): $(sec $1 | head -2)" \
		eval "[ \"\$(rc $1)\" = 2 ] && sec $1 | grep -qE -- '$2'"
}
err e_nocmd "which command\? status, mappings, violations, record, timeline, save, clear, filter or ignore"
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
err save_again "save: /tmp/bundle exists and is not empty"
err save_shared "save: /tmp/shared may be written by others \(owner uid 0, mode 777\)"
check "dmaown save: nothing written into a directory others may write" "$(sec save_shared_left)" \
	[ -z "$(sec save_shared_left)" ]
err e_save_nodir "save: where to\?"
err e_clear_args "clear takes no arguments"
err ign_remove_absent "the kernel refused it, and changed nothing: No such file or directory \(ENOENT\): no such rule: missing-sync-for-device:missing_sync_single"
err ign_nokind ".missing_sync_single. is not a rule: say KIND:FUNCTION"
err ign_badkind "no-such-kind is not a violation kind; the kinds are \* \(every kind\), missing-sync-for-device"
err ign_offset "name the function alone, without the offset"
err ign_toolong "the kernel refused it, and changed nothing: Invalid argument \(EINVAL\)"
err ign_full "the kernel refused it, and changed nothing: No space left on device \(ENOSPC\)"
err filt_bad "the kernel refused \"two words\": Invalid argument \(EINVAL\)"
err filt_long "the kernel refused \"0123456789.*\": Argument list too long \(E2BIG\)"
err filt_empty "an empty name; to track every device say: dmaown filter --none"
err e_recnocmd "record: what should run\?"
err e_notroot "needs root: .*run it as root"
err e_notbuilt "built without the DMA ownership tracker \(build it with CONFIG_DMA_OWNER_DEBUG=y\)"
err e_nodebugfs "debugfs is not mounted on /sys/kernel/debug: mount -t debugfs none /sys/kernel/debug"
help_ok() {
	local w
	[ "$(rc e_help)" = 0 ] || return 1
	for w in "  status " "  mappings " "  violations " "  record " "  timeline " \
		"  save " "  clear " "  filter " "  ignore " "examples:" "exit status:"; do
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
