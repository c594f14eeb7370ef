#!/usr/bin/env python3
"""The HTML profile in a real browser: headless Chromium renders the page,
its DOM after the scripts ran is checked, and a screenshot is decoded (PNG,
with zlib only) and checked for the heat-coloured table.  Skips, saying why,
when Chromium is not installed.  usage: browser.py PTXEMU [SCREENSHOT.png]"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

EMU = sys.argv[1]
SHOT = sys.argv[2] if len(sys.argv) > 2 else None
npass = nfail = 0


def check(ok, what):
    global npass, nfail
    print("%s browser %s" % ("PASS" if ok else "FAIL", what))
    if ok:
        npass += 1
    else:
        nfail += 1


def png_pixels(path):
    """(width, height, rows of (r, g, b)) of an 8-bit RGB/RGBA PNG."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and ctype in (2, 6) and interlace == 0, "unexpected PNG format"
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b, c = prev[i], prev[i - bpp] if i >= bpp else 0
            if f == 1: line[i] = (line[i] + a) & 255
            elif f == 2: line[i] = (line[i] + b) & 255
            elif f == 3: line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x * bpp:x * bpp + 3]) for x in range(w)])
        prev = line
    return w, h, rows


def main():
    chrome = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome") if shutil.which(n)), None)
    if not chrome:
        print("browser: Chromium is not installed (apt-get install chromium), suite not run")
        print("0 passed, 0 failed")
        return 0
    tmp = tempfile.mkdtemp()
    page = os.path.join(tmp, "transpose.html")
    rc = subprocess.run([EMU, "profile", "tests/profile/cases/transpose_tile/case.txt", "--format", "html",
                         "--output", page]).returncode
    check(rc == 0, "ptxemu profile --format html")
    flags = [chrome, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--user-data-dir=" + tmp]
    url = "file://" + page + "#line=83"
    dom = subprocess.run(flags + ["--dump-dom", url], capture_output=True, text=True, timeout=120).stdout
    nsrc = len(open("tests/profile/kernels/profk.cu").read().splitlines())
    m = re.search(r'<body[^>]*data-rendered="(\d+)"', dom)
    check(m and int(m.group(1)) == nsrc, "the script laid out every line of profk.cu (%d)" % nsrc)
    check(dom.count('<tr class="ptx">') == 18 and dom.count('<tr class="ptx hide">') > 0,
          "#line=83 unfolded that line's 18 PTX lines, the others stay folded")
    hot = re.search(r'<td class="c col-shared_bank_conflicts" data-c="shared_bank_conflicts" style="background: rgb\(255, 85, 85\);">3968</td>', dom)
    check(hot is not None, "the line with the most bank conflicts is the hottest cell of its column")
    check(len(re.findall(r'<input type="checkbox"', dom)) == 14, "a column chooser: 12 counters, active lanes, whole files")
    png = os.path.join(tmp, "shot.png")
    subprocess.run(flags + ["--window-size=1280,900", "--screenshot=" + png, url], capture_output=True, timeout=120)
    if not os.path.exists(png):
        check(False, "screenshot taken")
    else:
        w, h, rows = png_pixels(png)
        px = [p for r in rows for p in r]
        red = sum(1 for r, g, b in px if r > 240 and g < 110 and b < 110)
        dark = sum(1 for r, g, b in px if r < 90 and g < 90 and b < 90)
        check((w, h) == (1280, 900), "screenshot is 1280x900")
        check(red > 2000, "screenshot shows the hot cells (%d strongly red pixels)" % red)
        check(dark > 10000, "screenshot shows text (%d dark pixels)" % dark)
        # the table's rows: dark pixels in the lower half too (the annotated source, not only the header)
        low = sum(1 for r in rows[h // 2:] for p in r if max(p) < 160)
        check(low > 4000, "the annotated source and its PTX fill the page (%d text pixels in its lower half)" % low)
        if SHOT:
            shutil.copy(png, SHOT)
    print("%d passed, %d failed" % (npass, nfail))
    return 1 if nfail else 0


if __name__ == "__main__":
    sys.exit(main())
