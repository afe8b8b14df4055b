#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Keep the reports quoted in the docs the ones the tracker really prints.

usage: doc-examples.py check|update RUN DOC...

RUN is what tests/guest/scenarios.sh printed ("X SCENARIO DMESG-LINE" lines;
tests/check.d/30-scenarios.sh keeps the dma-direct run's in
out/doc-examples.txt). In each DOC, a line holding
"dma-owner-example: SCENARIO" is followed by a literal block (rst "::" or a
markdown fence) that quotes SCENARIO's report.

check   compares each quoted report with RUN's, ignoring what changes from
        boot to boot (addresses, code offsets, ages, CPU and PID numbers,
        line numbers); exit 1 and a diff when one drifted
update  rewrites each quoted report from RUN

Exit status: 0 in sync (or updated), 1 drifted, 2 usage or input error.
"""
import difflib
import re
import sys

STACK_FRAMES = 3	# of "mapped at:"; the rest is the syscall path


def reports(run):
    """SCENARIO -> its report lines as dmesg printed them, WARN line last."""
    lines = {}
    for raw in open(run, errors='replace'):
        m = re.match(r'X (\S+) (.*)$', raw.rstrip('\r\n'))
        if m:
            lines.setdefault(m.group(1), []).append(
                re.sub(r'^(<\d+>)?\[[ 0-9.]+\] ', '', m.group(2)))
    out = {}
    for name, dmesg in lines.items():
        start = next((i for i, l in enumerate(dmesg)
                      if re.match(r'dma-owner: [a-z-]+ in ', l)), None)
        if start is None:
            continue
        rep, frames = [], None
        for l in dmesg[start:]:
            if l.startswith('WARNING:'):
                rep.append(l)
                break
            if l == 'dma-owner: mapped at:':
                frames = 0
            elif frames is not None and l.startswith('dma-owner:  '):
                frames += 1
                if frames == STACK_FRAMES + 1:
                    rep.append('dma-owner:  ...')
                if frames > STACK_FRAMES:
                    continue
            else:
                frames = None
            if l.startswith('dma-owner: ') or 'cut here' in l:
                rep.append(l)
        out[name] = rep
    return out


def normal(line):
    line = re.sub(r'0x[0-9a-f]+', '0x#', line)
    line = re.sub(r'\d+ms ago', '#ms ago', line)
    line = re.sub(r'CPU: \d+ PID: \d+', 'CPU: # PID: #', line)
    line = re.sub(r'(\.[ch]):\d+', r'\1:#', line)
    return line.rstrip()


def blocks(text):
    """(scenario, first line, end line, indent) of each quoted example."""
    lines = text.split('\n')
    for i, l in enumerate(lines):
        m = re.search(r'dma-owner-example: (\w+)', l)
        if not m:
            continue
        j = i + 1
        while j < len(lines) and not (lines[j].strip() == '::' or
                                      lines[j].startswith('```')):
            j += 1
        if j == len(lines):
            raise SystemExit(f'doc-examples: no literal block after "{l}"')
        if lines[j].startswith('```'):
            k = j + 1
            while k < len(lines) and not lines[k].startswith('```'):
                k += 1
            yield m.group(1), j + 1, k, ''
        else:
            j += 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            k = j
            while k < len(lines) and (not lines[k].strip() or
                                      lines[k].startswith('    ')):
                k += 1
            while k > j and not lines[k - 1].strip():
                k -= 1
            yield m.group(1), j, k, '    '


def main():
    if len(sys.argv) < 4 or sys.argv[1] not in ('check', 'update'):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    mode, run, docs = sys.argv[1], sys.argv[2], sys.argv[3:]
    try:
        got = reports(run)
    except OSError as e:
        print(f'doc-examples: {e}', file=sys.stderr)
        return 2
    drift = 0
    for doc in docs:
        text = open(doc).read()
        lines = text.split('\n')
        found = list(blocks(text))
        if not found:
            print(f'doc-examples: {doc} quotes no example', file=sys.stderr)
            return 2
        for name, a, b, indent in reversed(found):
            if name not in got:
                print(f'{doc}: {name}: the run has no report for it')
                drift = 1
                continue
            quoted = [l[len(indent):] for l in lines[a:b]]
            if mode == 'update':
                lines[a:b] = [indent + l for l in got[name]]
                continue
            if [normal(l) for l in quoted] != [normal(l) for l in got[name]]:
                drift = 1
                print(f'{doc}: {name}: the quoted report drifted from the run:')
                sys.stdout.writelines(difflib.unified_diff(
                    [l + '\n' for l in quoted], [l + '\n' for l in got[name]],
                    'quoted', 'printed'))
        if mode == 'update':
            open(doc, 'w').write('\n'.join(lines))
    return drift


sys.exit(main())
