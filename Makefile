# SPDX-License-Identifier: GPL-2.0
# dma-owner: one entry point. See README.md.
#
#   make run          fresh machine -> packages, kernel, boot, demo
#   make check        the whole test suite; ends with "N passed, N failed"
#   make shell        interactive guest
#   make vm-run SCRIPT=path [VM_FILES=dir] [VM_OPTS=..] [VM_STATUS=file]
#                     [QEMU_ARGS=..] [KERNEL_ARGS=..]
#   make -s kdir      the built kernel tree, for make -C $(make -s kdir) M=$PWD
#   make patches      the series as git format-patch files in out/patches/
#   make lint         checkpatch, kernel-doc, bisect, Sphinx, cross (in check)
#   make bench        the tracker's cost against none and dma-debug (~12 min; its two kernels take ~40 min to build cold)
#   make profile      where the tracker's and dma-debug's instructions go, per function and cycle
#   make bench-poison what dma_owner.poison=1 adds to a cycle on the KASAN test kernel
#   make mutants [MUTANTS="name ..."]
#                     does the suite catch tests/mutants/*.patch? (~75 min)
#   make dmaown       the dmaown tool for this machine, in out/bin/dmaown
#
# The kernel tree and build live outside the repository, in
# DMA_OWNER_CACHE (default ${XDG_CACHE_HOME:-$HOME/.cache}/dma-owner).

SHELL := /bin/bash
export DMA_OWNER_CACHE ?= $(or $(XDG_CACHE_HOME),$(HOME)/.cache)/dma-owner
export QEMU_ARGS KERNEL_ARGS ACCEL

.PHONY: all setup kernel run shell check vm-run kdir patches lint bench profile bench-poison mutants dmaown clean help

all: help

help:
	@sed -n '3,19p' Makefile | sed 's/^# \{0,1\}//'

setup:
	@scripts/setup.sh

kernel: setup
	@scripts/kernel.sh

run: kernel
	@tests/demo.sh

shell: kernel
	@tests/vm/run-vm.sh --shell

check: kernel
	@tests/check.sh

# make itself exits 2 on any failure: the guest's status is printed on
# stderr, "vm-run: exit status N", and written to the file VM_STATUS names.
vm-run: kernel
	@test -n "$(SCRIPT)" || { echo "usage: make vm-run SCRIPT=path [VM_FILES=dir] [VM_OPTS='--nvme 64M ...'] [VM_STATUS=file]" >&2; exit 2; }
	@tests/vm/run-vm.sh $(VM_OPTS) $(if $(VM_FILES),--files "$(VM_FILES)") "$(SCRIPT)"; rc=$$?; \
	echo "vm-run: exit status $$rc" >&2; \
	$(if $(VM_STATUS),echo $$rc >"$(VM_STATUS)";) exit $$rc

kdir:
	@. scripts/lib.sh && test -f "$$BUILD/Makefile" || { echo "no kernel built yet: run 'make kernel'" >&2; exit 2; }; echo "$$BUILD"

patches: setup
	@scripts/export-patches.sh

lint: kernel
	@scripts/lint.sh

bench: setup
	@scripts/bench.sh

profile: setup
	@scripts/bench.sh --profile

bench-poison: setup
	@scripts/bench.sh --poison

mutants: kernel
	@scripts/mutants.sh $(MUTANTS)

# Only the tool's build dependencies, not setup's kernel, QEMU and browser.
dmaown:
	@scripts/install-packages.sh $$($(MAKE) -s --no-print-directory -C tools/dmaown deb-packages)
	@mkdir -p out/bin && $(MAKE) -s -C tools/dmaown OUTPUT=$(CURDIR)/out/bin/ && echo out/bin/dmaown

clean:
	rm -rf out
