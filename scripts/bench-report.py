#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Turn scripts/bench.sh's figures into ratios, CSV, JSON and a plot.

usage: bench-report.py [--smoke] OUTDIR

Reads OUTDIR/raw.txt ("MODE B|M|E|D|W key=value ..." lines, one boot per MODE)
and each boot's console log for the tracker's hash table size; writes
OUTDIR/results.csv, OUTDIR/results.json and OUTDIR/scaling.svg (with
matplotlib), and prints
the table. Every figure is the median of its repetitions; its spread is
(max - min) / median over them, and a row's spread the largest of its
modes'. Ratios, not absolute times, are what carry over from QEMU to a
real machine.

--smoke: only check that the tracker boot produced every kind of figure.
Exit status: 0, 1 a figure is missing, 2 usage.
"""
import json
import re
import statistics
import sys

# The fewest live mappings whose memory per mapping the guest can tell apart.
MEMORY_MIN_LIVE = 1000
MODES = ['compiled-out', 'off', 'tracker', 'tracker-nostack', 'tracker-stack-per-map',
         'dma-debug']
# Booted again on four vCPUs, as MODE-smp4, for the cycles on 1 and 4 threads.
SMP_MODES = ['off', 'tracker', 'dma-debug']


def parse(outdir):
    cycles, memory, dmb, work, entries = {}, {}, {}, {}, {}
    for line in open(f'{outdir}/raw.txt'):
        f = line.split()
        if len(f) < 3:
            continue
        mode, kind = f[0], f[1]
        kv = dict(x.split('=', 1) for x in f[2:] if '=' in x)
        if kind == 'B':
            key = (mode, kv['op'], int(kv['threads']), int(kv['live']))
            cycles.setdefault(key, []).append(int(kv['ns']))
        elif kind == 'M':
            # chunk: the mappings' size (128 fill their cache lines, 64 share them)
            memory[(mode, int(kv['live']), int(kv.get('chunk', 128)))] = (
                int(kv['used_kb']), int(kv['slab_kb']) if 'slab_kb' in kv else None)
        elif kind == 'E':
            # a slab cache of the tracker's: a slab's bytes, entries per slab
            entries[(mode, kv['cache'])] = {k: int(kv[k]) for k in
                                            ('object', 'slab', 'per_slab')}
        elif kind == 'W' and int(kv['busy_ns']) > 0:
            # operations per second of work
            work.setdefault((mode, kv['name']), []).append(
                int(kv['ops']) * 1e9 / int(kv['busy_ns']))
        elif kind == 'D' and kv.get('map_us'):
            dmb[mode] = {'map_us': float(kv['map_us']),
                         'unmap_us': float(kv['unmap_us'])}
    return cycles, memory, dmb, work, entries


def hash_bytes(outdir):
    """The tracker's hash table, allocated at boot: fixed, not per mapping."""
    try:
        log = open(f'{outdir}/tracker.log.console', errors='replace').read()
    except OSError:
        return None
    m = re.search(r'dma-owner hash table entries: \d+ \(order: -?\d+, (\d+) bytes', log)
    return int(m.group(1)) if m else None


def round_count(x):
    """1, 10, 100, 1k, 10k, 100k, 1M: tick labels that fit."""
    for div, unit in ((1e6, 'M'), (1e3, 'k')):
        if x >= div:
            return f'{x / div:g}{unit}'
    return f'{x:g}'


def plot(cycles, lives, path):
    """Instructions per cycle against live mappings, one panel per cycle kind:
    the median of each mode, its repetitions' range as error bars."""
    import matplotlib
    matplotlib.use('Agg')
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter, LogLocator

    colours = {'tracker': '#c0392b', 'tracker-nostack': '#e67e22',
               'tracker-stack-per-map': '#8e44ad', 'dma-debug': '#2c3e50',
               'off': '#7f8c8d', 'compiled-out': '#27ae60'}
    panels = [('map', 'map + unmap'), ('sync', 'map + sync_for_cpu + sync_for_device + unmap')]
    fig, axes = plt.subplots(1, len(panels), figsize=(12, 4.5))
    for ax, (op, title) in zip(axes, panels):
        for mode in MODES:
            xs, ys, lo, hi = [], [], [], []
            for lv in lives:
                v = cycles.get((mode, op, 1, lv))
                if not v:
                    continue
                m = statistics.median(v)
                xs.append(lv)
                ys.append(m)
                lo.append(m - min(v))
                hi.append(max(v) - m)
            if xs:
                ax.errorbar(xs, ys, yerr=[lo, hi], label=mode, color=colours.get(mode),
                            marker='o', markersize=4, capsize=3, linewidth=1.5)
        ax.set_xscale('log')
        ax.xaxis.set_major_locator(LogLocator(base=10))
        ax.xaxis.set_major_formatter(FuncFormatter(lambda x, _: round_count(x)))
        ax.set_ylim(bottom=0)
        ax.yaxis.set_major_formatter(FuncFormatter(lambda y, _: f'{y:,.0f}'))
        ax.set_title(title, fontsize=10)
        ax.set_xlabel('other mappings live')
        ax.grid(True, which='major', alpha=0.3)
    for ax in axes:
        ax.set_ylabel('instructions per cycle (QEMU -icount)')
    axes[-1].legend(fontsize=8, loc='upper left', bbox_to_anchor=(1.02, 1))
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def main():
    args = sys.argv[1:]
    smoke = '--smoke' in args
    args = [a for a in args if a != '--smoke']
    if len(args) != 1:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    outdir = args[0]
    cycles, memory, dmb, work, entries = parse(outdir)
    med = {k: statistics.median(v) for k, v in cycles.items()}
    spread = {k: (max(v) - min(v)) / statistics.median(v) for k, v in cycles.items()}

    if smoke:
        want = [('tracker', 'map', 1, 1), ('tracker', 'sync', 1, 1),
                ('tracker', 'sync', 1, 1000)]
        missing = [k for k in want if k not in med]
        missing += [] if ('tracker', 1000, 128) in memory else ['memory']
        missing += [] if ('tracker', 1000, 64) in memory else ['memory of line-sharing mappings']
        missing += [] if 'tracker' in dmb else ['dma_map_benchmark']
        missing += [] if ('tracker', 'dma_owner_entry') in entries else ['entry cache']
        for k, v in sorted(med.items()):
            print(f'# bench smoke: {k[1]} threads={k[2]} live={k[3]}: {v:.0f} ns')
        if missing:
            print(f'bench smoke: missing figures: {missing}')
            return 1
        return 0

    lives = sorted({k[3] for k in med if k[1] == 'sync' and k[2] == 1 and k[0] in MODES})
    rows = [('map+unmap, 1 thread', ('map', 1, 1)),
            ('map+sync+sync+unmap, 1 thread', ('sync', 1, 1))]
    rows += [(f'sync cycle, {lv} live', ('sync', 1, lv)) for lv in lives if lv != 1]

    def get(mode, key):
        return med.get((mode,) + key)

    def ratio(a, b):
        return a / b if a and b else None

    table, results = [], {'modes': MODES, 'rows': []}
    for name, key in rows:
        v = {m: get(m, key) for m in MODES}
        sp = [spread[(m,) + key] for m in MODES if (m,) + key in spread]
        row = {'name': name, 'ns': v, 'spread': max(sp) if sp else None,
               'tracker/off': ratio(v['tracker'], v['off']),
               'nostack/off': ratio(v['tracker-nostack'], v['off']),
               'dma-debug/off': ratio(v['dma-debug'], v['off']),
               'tracker/dma-debug': ratio(v['tracker'], v['dma-debug']),
               'off/compiled-out': ratio(v['off'], v['compiled-out'])}
        results['rows'].append(row)
        table.append(row)

    big = max(lives)
    # Memory at the most live mappings against the tracker-off boot: all of
    # it (dma-debug allocates whole pages), and the slab's part (the
    # tracker's entries), which is the less noisy figure for the tracker.
    # Mappings of 128 bytes fill their cache lines, as most buffers do;
    # those of 64 share a line, and take the tracker's wide entry. Below
    # MEMORY_MIN_LIVE mappings the rest of the guest's memory use drowns
    # them (LIVES=1 runs): not measured.
    mem, slab = {}, {}
    for chunk in (128, 64):
        base = memory.get(('off', big, chunk))
        for m in MODES if big >= MEMORY_MIN_LIVE and base else ():
            v = memory.get((m, big, chunk))
            if not v:
                continue
            mem.setdefault(chunk, {})[m] = (v[0] - base[0]) * 1024 / big
            if None not in (v[1], base[1]):
                slab.setdefault(chunk, {})[m] = (v[1] - base[1]) * 1024 / big
    # What each further mapping costs: the slope of the slab between the
    # two largest counts of the same boot, so that what does not grow with
    # the mappings (a slab page part filled, a device's state) is not
    # charged to them. It is a measurement of the whole guest's slab, to
    # the kilobyte: what else the boot allocates meanwhile moves it by
    # hundredths of a byte, either way.
    further, further_all = {}, {}
    second = max([lv for lv in lives if MEMORY_MIN_LIVE <= lv < big], default=None)
    for m in MODES if second else ():
        a, b = memory.get((m, second, 128)), memory.get((m, big, 128))
        if a and b:
            further_all[m] = (b[0] - a[0]) * 1024 / (big - second)
            if None not in (a[1], b[1]):
                further[m] = (b[1] - a[1]) * 1024 / (big - second)
    # The target is judged on what the slope measures, without its noise:
    # the tracker's entry cache's packing, a slab's bytes over the entries
    # it holds, which is what each further entry costs once slabs are full.
    caches = {c: e for (m, c), e in entries.items() if m == 'tracker'}
    packing = {c: e['slab'] / e['per_slab'] for c, e in caches.items()}
    hb = hash_bytes(outdir)
    results['memory'] = {'tracker_slab_bytes_per_entry': packing,
                         'tracker_entry_caches': caches,
                         'live': big, 'slab_bytes_per_further_mapping': further,
                         'bytes_per_further_mapping': further_all,
                         'from_live': second,
                         'bytes_per_mapping_vs_off': {str(c): v for c, v in mem.items()},
                         'slab_bytes_per_mapping_vs_off': {str(c): v for c, v in slab.items()},
                         'tracker_hash_table_bytes': hb}
    results['dma_map_benchmark'] = dmb
    # Real drivers' workloads: operations per busy second, and each mode's
    # throughput against the tracker-off boot's.
    wl = {}
    for name in sorted({n for _, n in work}):
        ops = {m: statistics.median(work[(m, name)]) for m in MODES if (m, name) in work}
        sp = [(max(v) - min(v)) / statistics.median(v) for (m, n), v in work.items() if n == name]
        wl[name] = {'ops_per_busy_s': ops, 'spread': max(sp) if sp else None,
                    'vs_off': {m: ratio(v, ops.get('off')) for m, v in ops.items()}}
    results['workloads'] = wl

    def scaling(m):
        if big == 1:
            return None
        return ratio(get(m, ('sync', 1, big)), get(m, ('sync', 1, 1)))

    # Every CPU mapping at once: a cycle's cost on 4 threads against 1, in
    # the same -smp 4 boot (under -icount, the instructions of all CPUs).
    threads = {}
    for m in SMP_MODES:
        for op in ('map', 'sync'):
            one = get(f'{m}-smp4', (op, 1, 1))
            many = [k[2] for k in med if k[0] == f'{m}-smp4' and k[1] == op and k[2] > 1]
            if one and many:
                n = max(many)
                sp = [spread[(f'{m}-smp4', op, t, 1)] for t in (1, n)]
                threads.setdefault(m, {})[op] = {
                    'threads': n, 'ns_1': one, 'ns_n': get(f'{m}-smp4', (op, n, 1)),
                    'ratio': ratio(get(f'{m}-smp4', (op, n, 1)), one), 'spread': max(sp)}
    results['threads'] = threads

    def thread_ratio(op):
        t = threads.get('tracker', {}).get(op)
        return t['ratio'] if t else None

    def added(key, mode='tracker'):
        t, d, o = get(mode, key), get('dma-debug', key), get('off', key)
        return (t - o) / (d - o) if None not in (t, d, o) and d != o else None
    targets = [
        ('added cost per sync cycle <= 1/4 of dma-debug\'s', added(('sync', 1, 1)), 0.25),
        ('added cost per map+unmap <= 1/4 of dma-debug\'s', added(('map', 1, 1)), 0.25),
        (f'sync cycle at {big} live / at 1 <= 1.15', scaling('tracker'), 1.15),
        ('tracker bytes per live mapping, in its slab cache <= 64',
         packing.get('dma_owner_entry'), 64),
        ('map+unmap on 4 threads / on 1 <= 1.2', thread_ratio('map'), 1.2),
        ('sync cycle on 4 threads / on 1 <= 1.2', thread_ratio('sync'), 1.2),
        ('compiled in but off / compiled out <= 1.03',
         ratio(get('off', ('sync', 1, 1)), get('compiled-out', ('sync', 1, 1))), 1.03),
    ]
    # A target with no figure (not measured by this run's LIVES) is neither.
    results['targets'] = [{'target': n, 'value': v, 'limit': lim,
                           'met': None if v is None else v <= lim}
                          for n, v, lim in targets]
    results['dma_debug_scaling'] = scaling('dma-debug')
    results['added_cost_vs_dma_debug_without_map_stacks'] = {
        'sync': added(('sync', 1, 1), 'tracker-nostack'),
        'map': added(('map', 1, 1), 'tracker-nostack')}
    results['added_cost_vs_dma_debug_with_a_stack_per_map'] = {
        'sync': added(('sync', 1, 1), 'tracker-stack-per-map'),
        'map': added(('map', 1, 1), 'tracker-stack-per-map')}

    with open(f'{outdir}/results.csv', 'w') as f:
        f.write('mode,op,threads,live,rep,ns\n')
        for (m, op, th, lv), vals in sorted(cycles.items()):
            for i, v in enumerate(vals):
                f.write(f'{m},{op},{th},{lv},{i + 1},{v}\n')
    with open(f'{outdir}/results.json', 'w') as f:
        json.dump(results, f, indent=1)
    plot(cycles, sorted({k[3] for k in cycles}), f'{outdir}/scaling.svg')

    def fmt(x, spec):
        return format(x, spec) if x is not None else '-'
    short = {'tracker-nostack': 'nostack', 'tracker-stack-per-map': 'stack/map'}
    print(f'{"ns per cycle (median)":32}' + ''.join(f'{short.get(m, m)[:11]:>12}' for m in MODES) +
          f'{"spread":>8}{"tracker/off":>12}{"dbg/off":>12}{"trk/dbg":>12}{"off/compout":>12}')
    for row in table:
        print(f'{row["name"]:32}' + ''.join(f'{fmt(row["ns"][m], ".0f"):>12}' for m in MODES) +
              f'{fmt(row["spread"] and 100 * row["spread"], ".1f") + "%":>8}' +
              ''.join(f'{fmt(row[k], ".2f"):>12}' for k in
                      ('tracker/off', 'dma-debug/off', 'tracker/dma-debug',
                       'off/compiled-out')))
    if big > 1:
        print(f'\nscaling, sync cycle at {big} live / at 1 live: tracker '
              f'{fmt(scaling("tracker"), ".2f")}x, dma-debug {fmt(scaling("dma-debug"), ".2f")}x')
    for m, ops in threads.items():
        print(f'{m}, -smp 4, {max(o["threads"] for o in ops.values())} threads against 1: ' +
              ', '.join(f'{"map+unmap" if op == "map" else "sync cycle"} '
                        f'{o["ns_n"]:.0f} / {o["ns_1"]:.0f} = {o["ratio"]:.2f}x '
                        f'(spread {100 * o["spread"]:.1f}%)' for op, o in ops.items()))
    for chunk, what in ((128, 'filling their cache lines'), (64, 'sharing a cache line')):
        if chunk in mem:
            print(f'memory at {big} live, {chunk}-byte mappings {what}, bytes per mapping '
                  'over the off boot: ' +
                  ', '.join(f'{m} {v:.0f} (slab {fmt(slab.get(chunk, {}).get(m), ".0f")})'
                            for m, v in mem[chunk].items()
                            if m in ('tracker', 'tracker-nostack', 'dma-debug')))
    if further:
        print(f'bytes per further 128-byte mapping, from {second} to {big} live, '
              'all memory over the off boot\'s (slab): ' +
              ', '.join(f'{m} {further_all[m] - further_all["off"]:.0f} '
                        f'({further[m] - further["off"]:.2f})'
                        for m in ('tracker', 'tracker-nostack', 'dma-debug')
                        if m in further and 'off' in further))
    if caches:
        print('tracker slab caches, bytes per entry once slabs are full: ' +
              ', '.join(f'{c} {packing[c]:.1f} ({e["slab"]}-byte slabs of {e["per_slab"]} '
                        f'{e["object"]}-byte entries)' for c, e in caches.items()) +
              (f'; the slab\'s measured slope above: {further["tracker"] - further["off"]:.2f}'
               if 'tracker' in further and 'off' in further else ''))
    if mem and hb:
        print(f'tracker hash table: {hb} bytes, fixed at boot')
    if not mem:
        print(f'\nmemory per mapping: not measured (LIVES ran no more than {big} '
              f'live; it takes {MEMORY_MIN_LIVE} or more)')
    for name, w in wl.items():
        print(f'{name}: operations per busy second (median), and against the off boot: ' +
              ', '.join(f'{m} {v:.0f} ({fmt(w["vs_off"][m], ".2f")})'
                        for m, v in w['ops_per_busy_s'].items()) +
              f'; spread {fmt(w["spread"] and 100 * w["spread"], ".1f")}%')
    if dmb:
        print('dma_map_benchmark, 1 thread (us): ' + ', '.join(
            f'{m} map {v["map_us"]} unmap {v["unmap_us"]}' for m, v in dmb.items()))
    nostack = results['added_cost_vs_dma_debug_without_map_stacks']
    print('without map stacks (dma_owner.map_stacks=0), added cost / dma-debug\'s: '
          f'sync cycle {fmt(nostack["sync"], ".2f")}, map+unmap {fmt(nostack["map"], ".2f")}')
    every = results['added_cost_vs_dma_debug_with_a_stack_per_map']
    print('with a stack per map (dma_owner.map_stacks=2), added cost / dma-debug\'s: '
          f'sync cycle {fmt(every["sync"], ".2f")}, map+unmap {fmt(every["map"], ".2f")}')
    print('\ntargets:')
    for t in results['targets']:
        verdict = {True: 'met   ', False: 'MISSED', None: 'n/a   '}[t['met']]
        print(f'  {verdict} {t["target"]}: {fmt(t["value"], ".2f")}')
    return 0


sys.exit(main())
