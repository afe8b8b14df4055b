#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Run the dma_owner KUnit suite and print its KTAP results.
modprobe owner_kunit || { echo "not ok - cannot load owner_kunit"; exit 1; }
cat /sys/kernel/debug/kunit/dma_owner/results
