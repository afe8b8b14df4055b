# SPDX-License-Identifier: GPL-2.0
# Real-driver traffic helpers for guest scripts: source, then call.

# Bring up the first NIC on slirp's network; the host is 10.0.2.2.
net_up() {
	ip link set "${1:-eth0}" up || return 1
	ip addr add 10.0.2.15/24 dev "${1:-eth0}" || return 1
	ip route add default via 10.0.2.2 || return 1
	# e1000e negotiates its link for a second or two after "up".
	for _ in $(seq 100); do
		[ "$(cat /sys/class/net/"${1:-eth0}"/operstate)" = up ] && return 0
		sleep 0.1
	done
	echo "${1:-eth0}: link did not come up"
	return 1
}

# fetch N URL MD5: download URL N times, each copy must match MD5. A copy
# that stalls for FETCH_TIMEOUT seconds (default 240) fails, with the NIC's
# counters, rather than hanging the run.
fetch() {
	i=0
	while [ $i -lt "$1" ]; do
		got=$(timeout "${FETCH_TIMEOUT:-240}" wget -q -O - "$2" | md5sum | cut -d' ' -f1)
		[ "$got" = "$3" ] || {
			echo "fetch $2 (copy $((i + 1)) of $1): md5 $got, want $3"
			sed "s/^/  /" /proc/net/dev
			return 1
		}
		i=$((i + 1))
	done
	echo "fetched $2 $1 times, contents verified"
}

# disk_rw DEV MB [direct]: write MB of random data through DEV, read it
# back, compare. "direct" bypasses the page cache (O_DIRECT), so the I/O is
# issued -- and its DMA mapped -- in dd's own context.
disk_rw() {
	oflag= iflag=
	[ "$3" = direct ] && oflag=oflag=direct iflag=iflag=direct
	dd if=/dev/urandom of=/tmp/disk.data bs=64k count=$(($2 * 16)) 2>/dev/null
	want=$(md5sum </tmp/disk.data | cut -d' ' -f1)
	dd if=/tmp/disk.data of="$1" bs=64k conv=fsync $oflag 2>/dev/null || { echo "write $1 failed"; return 1; }
	echo 3 >/proc/sys/vm/drop_caches
	got=$(dd if="$1" bs=64k count=$(($2 * 16)) $iflag 2>/dev/null | md5sum | cut -d' ' -f1)
	rm -f /tmp/disk.data
	[ "$got" = "$want" ] || { echo "$1: read back $got, wrote $want"; return 1; }
	echo "$1: wrote and read back $2 MiB${3:+ ($3)}, contents verified"
}

# The kinds and call sites of the logged reports, one "site KIND in FUNC" each.
report_sites() {
	grep -E '^[a-z-]+ in ' /sys/kernel/debug/dma-owner/violations |
		sed 's/+0x.*//; s/^/site /' | sort -u
}
