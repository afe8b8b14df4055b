#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What the tracker said about each test_dma_owner scenario, channel by channel.

usage: scenario-results.py GUEST-OUTPUT

Reads what tests/guest/scenarios.sh printed (raw sections per scenario) and
prints, for tests/check.d/30-scenarios.sh:
  scenarios N            how many scenarios the guest meant to run
  R name=N expect=K dev=D handle=H violations=V kindcount=C
    logkind=K logop=O logdev=D loghandle=H dmesgkind=C dmesgall=C dmesgdev=C
    tracen=C tracekind=K tracedev=D tracehandle=H dmadebug_maperr=C
    records=N:ok|N:bad... dmesgfn=F syncs=N walked=N
                         one line per scenario ("R name=N runfailed" if its
                         run failed); handles in decimal, so that every
                         channel's spelling compares; "-" for nothing
  X NAME LINE            the scenario's kernel log, for scripts/doc-examples.py
"""
import re
import sys


def first(pattern, lines, group=1):
    for line in lines:
        m = re.search(pattern, line)
        if m:
            return m.group(group)
    return None


def count(pattern, lines):
    return sum(1 for line in lines if re.search(pattern, line))


def dec(handle):
    """A handle as the guest's shell would print $((handle)), or '-'."""
    if not handle:
        return '-'
    try:
        return str(int(handle, 16) if handle.startswith('0x') else int(handle))
    except ValueError:
        return handle


def result(name, expect, sec):
    """The R line of one scenario, from its sections."""
    res, log, dmesg, trace = (sec.get(k, []) for k in
                              ('result', 'violations', 'dmesg', 'trace'))
    stats = dict(line.split(': ', 1) for line in sec.get('stats', []) if ': ' in line)
    dev = first(r'^device (\S+)$', res) or ''
    handle = first(r'^handle (\S+)$', res)
    loghandle = first(r'^mapping (0x[0-9a-f]*) ', log) or \
        first(r'^[a-z_]* of (0x[0-9a-f]*) ', log)
    records = first(r'^records (.*)$', sec.get('records', [])) or ''
    tline = re.sub(r'.*dma_owner_violation: *', '', trace[0]) if trace else ''
    tfields = tline.split()
    ex = re.escape(expect)
    fn = first('dma-owner: ' + ex + r' in ([a-z_0-9]*)\+', dmesg) or ''
    handle_in_trace = first(r'handle=(0x[0-9a-f]*)', [tline])
    return ' '.join([
        'R', f'name={name}', f'expect={expect}', f'dev={dev}',
        f'handle={dec(handle)}',
        f"violations={stats.get('violations', '')}",
        f"kindcount={stats.get('violation.' + expect, '')}",
        f"logkind={first(r'^seq=.* kind=([^ ]*) ', log) or '-'}",
        f"logop={first(r'^seq=.* kind=[^ ]* op=([^ ]*) ', log) or '-'}",
        f"logdev={first(r'^device ([^ ]*) driver ', log) or '-'}",
        f'loghandle={dec(loghandle)}',
        f"dmesgkind={count('dma-owner: ' + ex + ' in ', dmesg)}",
        f"dmesgall={count('dma-owner: [a-z-]* in ', dmesg)}",
        f"dmesgdev={count('dma-owner: device ' + re.escape(dev) + ' driver', dmesg)}",
        f'tracen={len(trace)}',
        f"tracekind={tfields[0] if tfields else '-'}",
        f"tracedev={tfields[2] if len(tfields) > 2 else '-'}",
        f'tracehandle={dec(handle_in_trace)}',
        f"dmadebug_maperr={count('failed to check map error', dmesg)}",
        f"records={records.replace(' ', ':')}",
        f'dmesgfn={fn}',
        f"syncs={int(stats.get('syncs_for_cpu', 0)) + int(stats.get('syncs_for_device', 0))}",
        f"walked={stats.get('syncs_walked', '')}",
    ])


def main():
    expects, name, sec, where = {}, None, {}, None
    with open(sys.argv[1], errors='replace') as f:
        for raw in f:
            line = raw.rstrip('\r\n')
            if name is None:
                if line.startswith('scenarios '):
                    print(line)
                elif line == '--- scenarios':
                    where = 'list'
                elif line.startswith('B '):
                    name, sec, where = line[2:], {}, None
                elif where == 'list' and len(line.split()) >= 2:
                    expects[line.split()[0]] = line.split()[1]
                continue
            if line == 'runfailed':
                print(f'R name={name} runfailed')
                name = None
            elif line == 'E':
                print(result(name, expects.get(name, ''), sec))
                for d in sec.get('dmesg', []):
                    print(f'X {name} {d}')
                name = None
            elif line.startswith('--- '):
                where = line[4:]
                sec[where] = []
            elif where:
                sec[where].append(line)
    if name is not None:
        print(f'R name={name} runfailed: the guest stopped in it')


if __name__ == '__main__':
    main()
