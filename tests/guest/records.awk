# SPDX-License-Identifier: GPL-2.0
# Check the violations file's ABI: each record's first line (key=value,
# blanks escaped in octal) must say what the prose under it says -- kind,
# caller, operation, handle, size, direction, device, driver and the map
# site. Prints "records N ok" or "records N bad SEQ:WHAT ...".
function val(k,    i, n, a, s) {
	n = split(rec, a, " ")
	for (i = 1; i <= n; i++)
		if (index(a[i], k "=") == 1) {
			s = substr(a[i], length(k) + 2)
			gsub(/\\040/, " ", s)
			gsub(/\\011/, "\t", s)
			gsub(/\\012/, "\n", s)
			gsub(/\\134/, "\\", s)
			return s
		}
	return "(none)"
}
function fail(what) { bad = bad " " val("seq") ":" what }
function check(    want, i, devok, stack) {
	if (rec == "")
		return
	total++
	if (L[1] != val("kind") " in " val("caller"))
		fail("kind/caller")
	if (val("kind") == "leak")
		want = "unbind of " val("driver") " " val("device")
	else
		want = val("op") " of " val("handle") " size " val("size") " " \
		       val("dir") " by " val("caller")
	if (L[3] != want)
		fail("call")
	devok = 0
	stack = ""
	for (i = 1; i <= n; i++) {
		if (L[i] == "device " val("device") " driver " val("driver"))
			devok = 1
		if (i < n && L[i] ~ /^(mapped|allocated) at:$/)
			stack = L[i + 1]
	}
	if (!devok)
		fail("device")
	if (stack != "" && stack != " " val("map_site"))
		fail("map_site")
	rec = ""
	n = 0
}
/^seq=/ { check(); rec = $0; n = 0; next }
/^$/ { check(); next }
rec != "" { L[++n] = $0 }
END {
	check()
	printf "records %d %s\n", total, bad == "" ? "ok" : "bad" bad
}
