#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Where does a mutant land? Apply it aside and name the functions it changes.

usage: mutant-where.py REPO PATCH

A mutant (tests/mutants/*.patch) names, in a "Function:" header line, the
function (or functions, space-separated) it breaks. patch(1) finds a hunk
by its context, at any offset: after a refactor the same lines can match
in another function, where the mutant then breaks something else, or
nothing that builds. This applies PATCH to copies of the files it touches
(exactly, no fuzz), finds the function around every changed line -- a
definition starts at column 0 with a name and "(", and its body ends at
the next "}" at column 0 -- and prints "FILE FUNCTION" per change.

Exit status: 0 every change is inside a function its "Function:" line
names; 1 one is not (each printed as "outside: FILE:LINE in FUNCTION, want
...") or the header is missing; 2 the patch does not apply.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

DEF = re.compile(r'^(?:[A-Za-z_][\w \t\*]*?[ \t\*])?([A-Za-z_]\w*)\s*\(')
# A table: "const char *const names[N] = {".
DATA = re.compile(r'^(?:[A-Za-z_][\w \t\*]*?[ \t\*])?([A-Za-z_]\w*)\s*(?:\[[^\]]*\]\s*)*=\s*\{')
KEYWORDS = {'if', 'for', 'while', 'switch', 'return', 'sizeof'}


def function_at(lines, n):
    """The function whose body holds line n (0-based), or None."""
    for i in range(n, -1, -1):
        line = lines[i]
        if line.startswith('}') and i != n:
            return None
        m = DATA.match(line)
        if m and not line.startswith(('#', ' ', '\t')):
            return m.group(1)
        m = DEF.match(line)
        if m and not line.rstrip().endswith(';') and m.group(1) not in KEYWORDS \
                and not line.startswith(('#', ' ', '\t')):
            return m.group(1)
    return None


def changed_lines(old, new):
    """Line numbers (0-based, in new) of lines the diff adds or changes."""
    out = subprocess.run(['diff', '-U0', old, new], capture_output=True,
                         text=True).stdout
    result = []
    for m in re.finditer(r'^@@ -\d+(?:,\d+)? \+(\d+)(?:,(\d+))? @@', out, re.M):
        start, count = int(m.group(1)), int(m.group(2) or 1)
        # A pure deletion: the line after it is where it was.
        result += range(start - 1, start - 1 + count) if count else [start]
    return result


def main():
    repo, patch = sys.argv[1], sys.argv[2]
    text = open(patch).read()
    header = re.search(r'^Function: (.+)$', text, re.M)
    want = set(header.group(1).split()) if header else set()
    files = re.findall(r'^\+\+\+ b/(\S+)', text, re.M)
    with tempfile.TemporaryDirectory() as tmp:
        for f in files:
            os.makedirs(os.path.dirname(os.path.join(tmp, 'new', f)), exist_ok=True)
            os.makedirs(os.path.dirname(os.path.join(tmp, 'old', f)), exist_ok=True)
            shutil.copy(os.path.join(repo, f), os.path.join(tmp, 'new', f))
            shutil.copy(os.path.join(repo, f), os.path.join(tmp, 'old', f))
        r = subprocess.run(['patch', '-d', os.path.join(tmp, 'new'), '-p1', '-F0',
                            '-s', '-f', '--no-backup-if-mismatch', '-i',
                            os.path.abspath(patch)], capture_output=True, text=True)
        if r.returncode:
            print(f'does not apply: {(r.stdout + r.stderr).strip()}')
            return 2
        bad = not header
        if not header:
            print('no "Function:" line')
        for f in files:
            if not f.endswith(('.c', '.h')):
                # A patch of a patch (the hooks): its own context names
                # the kernel function; "-" stands for it.
                print(f'{f} -')
                if header and '-' not in want:
                    print(f'outside: {f} is no C file, want "-"')
                    bad = True
                continue
            new = os.path.join(tmp, 'new', f)
            lines = open(new).read().split('\n')
            seen = set()
            for n in changed_lines(os.path.join(tmp, 'old', f), new):
                fn = function_at(lines, min(n, len(lines) - 1))
                if fn not in seen:
                    print(f'{f} {fn}')
                    seen.add(fn)
                if header and fn not in want:
                    print(f'outside: {f}:{n + 1} in {fn}, want {" ".join(sorted(want))}')
                    bad = True
        return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
