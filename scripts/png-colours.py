#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Where the dmaown timeline page's colours are in a screenshot.

usage: png-colours.py SHOT.png

Prints, for each colour of the page (see svg_mapping() in
tools/dmaown/dmaown.c), one line: NAME PIXELS MEAN_Y MEAN_X, the number of
pixels within a small distance of it and where they are on average (-1 when
there are none). Reads 8-bit non-interlaced RGB or RGBA PNGs, which is what
Chromium's --screenshot writes; needs nothing beyond the standard library.
"""
import struct
import sys
import zlib

COLOURS = {
    'cpu': (0x1f, 0x77, 0xb4),
    'device': (0x2c, 0xa0, 0x2c),
    'violation': (0xd6, 0x27, 0x28),
}


def read_png(path):
    data = open(path, 'rb').read()
    if data[:8] != b'\x89PNG\r\n\x1a\n':
        sys.exit(f'{path}: not a PNG')
    pos, idat = 8, b''
    while pos < len(data):
        length, kind = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b'IHDR':
            width, height, depth, ctype, _, _, interlace = struct.unpack('>IIBBBBB', body)
        elif kind == b'IDAT':
            idat += body
        pos += 12 + length
    if depth != 8 or ctype not in (2, 6) or interlace:
        sys.exit(f'{path}: only 8-bit RGB/RGBA non-interlaced PNGs')
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 0xff
            elif f == 2:
                line[i] = (line[i] + b) & 0xff
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xff
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[i] = (line[i] + pred) & 0xff
        rows.append(line)
        prev = line
    return width, height, bpp, rows


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    width, height, bpp, rows = read_png(sys.argv[1])
    found = {name: [0, 0, 0] for name in COLOURS}
    for y, line in enumerate(rows):
        for x in range(width):
            px = line[x * bpp:x * bpp + 3]
            for name, (r, g, b) in COLOURS.items():
                if abs(px[0] - r) + abs(px[1] - g) + abs(px[2] - b) <= 24:
                    f = found[name]
                    f[0] += 1
                    f[1] += y
                    f[2] += x
    for name, (n, sy, sx) in found.items():
        print(name, n, sy // n if n else -1, sx // n if n else -1)


if __name__ == '__main__':
    main()
