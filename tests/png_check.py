#!/usr/bin/env python3
"""Reads a PNG (8-bit RGB or RGBA, not interlaced: what Chromium writes) with
the standard library only, and checks that the picture is not blank and that
given colours appear in it.

usage: png_check.py FILE [#rrggbb ...]
Exit 0 when more than 2% of the pixels are not white and every colour given
appears (within a small tolerance) in at least 20 pixels; 1 otherwise.
"""
import struct
import sys
import zlib


def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat = 8, b""
    width = height = depth = ctype = interlace = None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        elif kind == b"IEND":
            break
    if depth != 8 or ctype not in (2, 6) or interlace != 0:
        raise ValueError(f"unsupported PNG: depth {depth}, colour type {ctype}")
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def main():
    path, wanted = sys.argv[1], sys.argv[2:]
    width, height, bpp, rows = pixels(path)
    targets = [tuple(int(c[i:i + 2], 16) for i in (1, 3, 5)) for c in wanted]
    found = [0] * len(targets)
    inked = 0
    for row in rows:
        for x in range(0, len(row), bpp):
            r, g, b = row[x], row[x + 1], row[x + 2]
            if r < 245 or g < 245 or b < 245:
                inked += 1
                for k, (tr, tg, tb) in enumerate(targets):
                    if abs(r - tr) <= 12 and abs(g - tg) <= 12 and abs(b - tb) <= 12:
                        found[k] += 1
    share = inked / (width * height)
    print(f"{path}: {width}x{height}, {100 * share:.1f}% not white")
    ok = share > 0.02
    if not ok:
        print("  blank: at most 2% of the pixels are not white")
    for colour, n in zip(wanted, found):
        print(f"  {colour}: {n} pixels")
        if n < 20:
            ok = False
            print(f"  {colour} does not appear")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
