#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# "make patches" writes the series, one patch per commit of series/manifest
# (signed off by the export itself, so not checked), and the series applies
# with git am to a pristine tree and gives exactly the tree we build and
# test.
. "$(dirname "$0")/../lib-test.sh"

# Every token: it shares $CACHE/am-tree with 80-lint, which holds them all.
timed job export "$CHECK_JOBS" 60 to "$T/out" "$REPO/scripts/export-patches.sh" --verify
check "make patches: series applies with git am to pristine $KVER_PKG" "$(cat "$T/out" "$T/out.err" | tail -n 3)" [ $rc = 0 ]
commits=$(grep -c '^commit ' "$REPO/series/manifest")
n=$(ls "$REPO"/out/patches/*.patch 2>/dev/null | grep -vc /0000-)
check "make patches: one patch per commit ($commits)" "$n patches" [ "$n" = "$commits" ]
check "make patches: a cover letter" "no 0000-cover-letter.patch" test -s "$REPO/out/patches/0000-cover-letter.patch"
