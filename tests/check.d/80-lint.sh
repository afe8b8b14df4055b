#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# "make lint": what a maintainer runs before reading the series --
# checkpatch --strict on every patch, kernel-doc on our files, every patch
# compiling on its own (the last one with W=1), the Sphinx docs build, and
# the series compiling for a big-endian and a 32-bit machine.
. "$(dirname "$0")/../lib-test.sh"

lint() {
	local stage=$1 what=$2
	only "$stage" || return 0
	# A compile: every token, so that it does not slow the boots.
	timed job "lint-$stage" "$CHECK_JOBS" 60 sh -c '"$0" "$1" >"$2" 2>&1' \
		"$REPO/scripts/lint.sh" "$stage" "$T/$stage.out"
	check "lint: $what" "rc=$rc: $(tail -15 "$T/$stage.out")" [ $rc = 0 ]
}
lint checkpatch "checkpatch.pl --strict: nothing on any patch but the listed exceptions"
lint kernel-doc "kernel-doc -none -Wall: silent on our files"
lint bisect "every patch compiles on its own, uses no symbol a later one defines; W=1 adds no warning in our files"
lint docs "Sphinx builds Documentation/dev-tools, no warning about dma-owner.rst"
lint cross "the series compiles for s390x (64-bit big-endian) and i386 (32-bit), W=1 clean"
