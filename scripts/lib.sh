# SPDX-License-Identifier: GPL-2.0
# Shared paths and helpers for the dma-owner host scripts. Sourced, not run.

REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CACHE=${DMA_OWNER_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/dma-owner}
KVER_PKG=linux-source-6.12
TARBALL=${DMA_OWNER_TARBALL:-/usr/src/$KVER_PKG.tar.xz}
PRISTINE=$CACHE/pristine/$KVER_PKG	# unpacked once, never written
SRC=$CACHE/src				# pristine + our overlay and patches
CONFIG_NAME=${DMA_OWNER_CONFIG:-test}	# configs/$CONFIG_NAME.config
BUILD=$CACHE/build-$CONFIG_NAME		# O= directory, kept between runs
GUEST=$CACHE/guest-$CONFIG_NAME		# initramfs parts
export CCACHE_DIR=${CCACHE_DIR:-$CACHE/ccache}
JOBS=${JOBS:-$(nproc)}

die() { echo "dma-owner: error: $*" >&2; exit 2; }
say() { [ -n "$QUIET" ] || echo "dma-owner: $*" >&2; }
