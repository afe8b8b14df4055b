# SPDX-License-Identifier: GPL-2.0
# Running the suite's work side by side. Sourced by tests/check.sh and
# tests/lib-test.sh, not run.
#
# Tokens: the machine's cores, CHECK_JOBS of them (default nproc), as lock
# files in $CHECK_TOKENS, which tests/check.sh makes once for all stages
# (a stage run on its own makes its own). A QEMU boot under TCG keeps about
# one core busy, so it holds one token, a -smp 4 boot two, a compile all of
# them (tokens COST KEY COMMAND...). Whoever waits longest by its estimated
# seconds is served first (longest first keeps the two cores busy to the
# end); a holder that dies frees its tokens, since the kernel drops its
# locks.
#
# Units: a stage's independent parts (unit NAME COMMAND...) run at once,
# each with its output in a file of its own; units_wait prints them in the
# order they were started, whatever order they finish in, so that the
# sequence of ok/not ok lines is the same on every run.

CHECK_JOBS=${CHECK_JOBS:-$(nproc)}

# tokens_init DIR: DIR holds CHECK_JOBS tokens, a queue and a mutex.
tokens_init() {
	local i
	mkdir -p "$1/queue"
	for ((i = 0; i < CHECK_JOBS; i++)); do : >"$1/token$i"; done
	: >"$1/mutex"
	mkfifo "$1/never"	# nap reads it: nothing ever comes
	export CHECK_TOKENS=$1 CHECK_JOBS
}

# estimate KEY FALLBACK: the seconds KEY ("STAGE/NAME") took last time it
# was measured (tests/boot-times: the CPU seconds of each boot and job of a
# whole run, which tests/check.sh writes to out/boot-times), else FALLBACK.
estimate() {
	local s
	s=$(awk -v k="$1" '$1 == k { print $2; exit }' "$REPO/tests/boot-times" 2>/dev/null)
	echo "${s:-$2}"
}

# tokens COST SECONDS COMMAND...: run COMMAND holding COST tokens, once every
# waiter with a longer estimate has been served. Sets TOKENS_WAITED (seconds
# spent in the queue). Returns COMMAND's status. Waiting costs no fork but
# a sleep: dozens of boots queue at once on two cores.
tokens() {
	local cost=$1 est=$2 ticket fds=() fd tf i t0=$SECONDS st now
	shift 2
	[ "$cost" -le "$CHECK_JOBS" ] || cost=$CHECK_JOBS
	# The queue sorts by name: longest estimate first, then first come.
	printf -v now '%(%s)T' -1
	printf -v ticket '%s/queue/%08d-%010d-%06d-%d' "$CHECK_TOKENS" \
		$((99999999 - est)) "$now" $((TOKENS_SEQ++)) "$BASHPID"
	: >"$ticket"
	while :; do
		queue_head
		if [ "$QUEUE_HEAD" = "$ticket" ]; then
			exec {fd}>"$CHECK_TOKENS/mutex"
			flock "$fd"
			fds=()
			for ((i = 0; i < CHECK_JOBS && ${#fds[@]} < cost; i++)); do
				exec {tf}>"$CHECK_TOKENS/token$i"
				if flock -n "$tf"; then fds+=("$tf"); else exec {tf}>&-; fi
			done
			if [ ${#fds[@]} = "$cost" ]; then
				rm -f "$ticket"
				flock -u "$fd"
				exec {fd}>&-
				break
			fi
			for tf in "${fds[@]}"; do flock -u "$tf"; exec {tf}>&-; done
			fds=()
			flock -u "$fd"
			exec {fd}>&-
			nap 5
		else
			nap 10
		fi
	done
	TOKENS_WAITED=$((SECONDS - t0))
	"$@"
	st=$?
	for fd in "${fds[@]}"; do flock -u "$fd"; exec {fd}>&-; done
	return $st
}
TOKENS_SEQ=0

# nap TENTHS: sleep, without a process (a read that times out on a FIFO
# nobody writes).
nap() {
	[ -n "$NAP_FD" ] || exec {NAP_FD}<>"$CHECK_TOKENS/never"
	read -r -t "$(($1 / 10)).$(($1 % 10))" -u "$NAP_FD"
}

# QUEUE_HEAD: the queue's first ticket, after dropping those of waiters that
# died (a ticket ends in its waiter's PID).
queue_head() {
	local t LC_ALL=C
	QUEUE_HEAD=
	for t in "$CHECK_TOKENS"/queue/*; do
		[ -e "$t" ] || continue
		if kill -0 "${t##*-}" 2>/dev/null; then
			QUEUE_HEAD=$t
			return
		fi
		rm -f "$t"
	done
}

UNITS=()
# unit NAME COMMAND...: run COMMAND in the background, its output kept for
# units_wait. NAME is only for the line that says a unit died.
unit() {
	local name=$1 f
	shift
	mkdir -p "$T/units"
	f=$T/units/$(printf '%03d' ${#UNITS[@]})
	( "$@" ) >"$f" 2>&1 &
	UNITS+=("$!:$name:$f")
}

# units_wait: print each unit's output in order, as it comes; a unit killed
# by a signal, or that died of a shell error, is a failure.
units_wait() {
	local u pid name f st
	for u in "${UNITS[@]}"; do
		pid=${u%%:*} f=${u##*:} name=${u#*:} name=${name%:*}
		tail -n +1 -f --pid="$pid" "$f" 2>/dev/null
		wait "$pid"
		st=$?
		[ $st -lt 126 ] || echo "not ok - $name: the unit died (status $st)"
	done
	UNITS=()
}

# with VAR=VALUE... COMMAND...: COMMAND with those variables set, as
# "VAR=VALUE COMMAND" would for a function, for units (unit NAME with ...).
with() {
	while [[ $1 == [A-Za-z_]*=* ]]; do
		export "${1?}"
		shift
	done
	"$@"
}
