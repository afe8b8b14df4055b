#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Instructions per DMA API cycle, function by function, from the boots of
"scripts/bench.sh --profile": for each mode, one boot runs ITERS cycles and
another 2*ITERS, so the difference of their counts is ITERS cycles' work
alone (boot and module load cancel out). Prints, for the tracker and for
dma-debug, what each function adds per cycle over the kernel with the
tracker built in but off; and, given the map of the kernel without the
tracker, what built in but off adds over compiled out (the two kernels'
functions matched by name).

usage: bench-profile.py SYSTEM_MAP ITERS DIR OP [BASE_SYSTEM_MAP]
  DIR holds profile-MODE-OP-{1,2}.pcs (tests/bench/insn_profile.c's output)
"""
import bisect
import collections
import sys


def functions(system_map):
    syms = []
    with open(system_map) as f:
        for line in f:
            addr, kind, name = line.split()[:3]
            if kind in 'tTwW':
                syms.append((int(addr, 16), name))
    syms.sort()
    return [a for a, _ in syms], [n for _, n in syms]


# x86-64's module area: the benchmark module, at a different place in
# each kernel, named alike in both.
MODULES = 0xffffffffa0000000


def counts(path, addrs, names):
    per_function = collections.Counter()
    with open(path) as f:
        for line in f:
            pc, n = line.split()
            pc = int(pc, 16)
            if pc >= MODULES:
                per_function['(modules)'] += int(n)
                continue
            i = bisect.bisect_right(addrs, pc) - 1
            per_function[names[i] if i >= 0 else '?'] += int(n)
    return per_function


def per_cycle(prefix, iters, addrs, names):
    one = counts(prefix + '-1.pcs', addrs, names)
    two = counts(prefix + '-2.pcs', addrs, names)
    return {f: (two[f] - one[f]) / iters for f in set(one) | set(two)}


def print_diff(diff, top):
    for f, n in sorted(diff.items(), key=lambda x: -abs(x[1]))[:top]:
        if abs(n) >= 0.5:
            print(f'  {n:8.1f}  {f}')


def main():
    if len(sys.argv) not in (5, 6):
        sys.exit(__doc__.strip())
    system_map, iters, d, op = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    top = 25
    addrs, names = functions(system_map)
    base = per_cycle(f'{d}/profile-off-{op}', iters, addrs, names)
    print(f'off: {sum(base.values()):.0f} instructions per {op} cycle')
    if len(sys.argv) == 6:
        out = per_cycle(f'{d}/profile-compiled-out-{op}', iters,
                        *functions(sys.argv[5]))
        diff = {f: base.get(f, 0) - out.get(f, 0) for f in set(base) | set(out)}
        total = sum(out.values())
        print(f'compiled-out: {total:.0f}; off adds {sum(diff.values()):.0f} '
              f'({sum(base.values()) / total:.3f} of it)')
        print_diff(diff, 12)
    added = {}
    for mode in ('tracker', 'dma-debug'):
        cyc = per_cycle(f'{d}/profile-{mode}-{op}', iters, addrs, names)
        diff = {f: cyc.get(f, 0) - base.get(f, 0) for f in set(cyc) | set(base)}
        added[mode] = sum(diff.values())
        print(f'\n{mode}: {added[mode]:.0f} instructions per {op} cycle over off')
        print_diff(diff, top)
    if added['dma-debug'] > 0:
        print(f'\ntracker / dma-debug (added instructions): '
              f'{added["tracker"] / added["dma-debug"]:.3f}')


if __name__ == '__main__':
    main()
