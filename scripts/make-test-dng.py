#!/usr/bin/env python3
"""Writes test DNGs from an ordinary photo: a small, self-contained DNG writer
(numpy and the `vips` command line only; no DNG library).

    python3 scripts/make-test-dng.py IN.jpg OUT.dng [--linear] [--orientation N]
        [--preview PX] [--scale F] [--iso N]

- CFA (default): the photo is linearised (vips scRGB), multiplied by "as shot"
  gains (0.5, 1, 0.7: a camera whose green is strongest), mosaiced as RGGB and
  written as 12-bit values (black 256, white 4095) in 16-bit samples, with a
  ColorMatrix1 that maps XYZ (D65) to those camera values and AsShotNeutral
  = the gains. libraw then develops it back to the photo.
- --linear: a LinearRaw DNG (three samples per pixel, already demosaiced).
- --orientation N: the TIFF/EXIF orientation tag (6 = the camera was turned
  90° clockwise: the stored data is the photo turned 90° counter-clockwise,
  as a camera stores it).
- --preview PX: an embedded sRGB JPEG preview of PX pixels on its longer side
  in IFD 0 (the raw data moves to a SubIFD, as cameras' DNGs do).
- --scale F: resize the photo by F first (the benchmark makes ~24 MP RAWs).
"""
import argparse, os, struct, subprocess, sys, tempfile
import numpy as np

GAINS = np.array([0.5, 1.0, 0.7])
BLACK, WHITE = 256, 4095
# Linear sRGB -> XYZ (D65).
SRGB_TO_XYZ = np.array([[0.4124564, 0.3575761, 0.1804375],
                        [0.2126729, 0.7151522, 0.0721750],
                        [0.0193339, 0.1191920, 0.9503041]])


def vips(*args):
    subprocess.run(["vips", *map(str, args)], check=True)


def linear_rgb(src, scale, tmp):
    img = src
    if scale != 1:
        img = os.path.join(tmp, "scaled.v")
        vips("resize", src, img, scale)
    lin = os.path.join(tmp, "lin.v")
    vips("colourspace", img, lin, "scrgb")
    w = int(subprocess.run(["vipsheader", "-f", "width", lin], capture_output=True, text=True, check=True).stdout)
    h = int(subprocess.run(["vipsheader", "-f", "height", lin], capture_output=True, text=True, check=True).stdout)
    raw = os.path.join(tmp, "lin.raw")
    vips("rawsave", lin, raw)
    rgb = np.fromfile(raw, dtype=np.float32).reshape(h, w, -1)[:, :, :3]
    return rgb[: h - h % 2, : w - w % 2]


class Tiff:
    """A little-endian TIFF: IFDs of (tag, type, values) plus data blocks."""
    SIZES = {1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 7: 1, 10: 8}
    FMT = {1: "B", 2: "B", 3: "H", 4: "I", 7: "B"}

    def encode(self, typ, values):
        if typ in (5, 10):
            f = "<II" if typ == 5 else "<ii"
            return b"".join(struct.pack(f, n, d) for n, d in values)
        if typ == 2:
            return values.encode() + b"\0"
        if typ == 7 and isinstance(values, bytes):
            return values
        return struct.pack("<" + self.FMT[typ] * len(values), *values)

    def write(self, path, ifds):
        """ifds: list of dicts {tag: (type, values)}; a value may be
        ('data', bytes) for strip data, or ('ifd', index) for a SubIFD link."""
        out = bytearray(b"II*\0\0\0\0\0")
        data_at = {}
        for i, ifd in enumerate(ifds):  # strip data first
            for tag, (typ, v) in ifd.items():
                if isinstance(v, tuple) and v[0] == "data":
                    data_at[(i, tag)] = len(out)
                    out += v[1]
                    if len(out) % 2: out += b"\0"
        # IFD sizes, to know their offsets before writing them.
        ifd_at, pos, blobs = [], len(out), []
        for ifd in ifds:
            ifd_at.append(pos)
            pos += 2 + 12 * len(ifd) + 4
        extra_at = pos
        body = bytearray()
        for i, ifd in enumerate(ifds):
            entries = bytearray(struct.pack("<H", len(ifd)))
            for tag in sorted(ifd):
                typ, v = ifd[tag]
                if isinstance(v, tuple) and v[0] == "data":
                    payload, count = struct.pack("<I", data_at[(i, tag)]), 1
                elif isinstance(v, tuple) and v[0] == "ifd":
                    payload, count = struct.pack("<I", ifd_at[v[1]]), 1
                else:
                    payload = self.encode(typ, v)
                    count = len(payload) // self.SIZES[typ]
                if len(payload) > 4:
                    offset = extra_at + sum(map(len, blobs))
                    blobs.append(payload + (b"\0" if len(payload) % 2 else b""))
                    payload = struct.pack("<I", offset)
                entries += struct.pack("<HHI", tag, typ, count) + payload.ljust(4, b"\0")
            entries += struct.pack("<I", 0)
            body += entries
        out += body + b"".join(blobs)
        struct.pack_into("<I", out, 4, ifd_at[0])
        with open(path, "wb") as f:
            f.write(out)


def rational(x, d=10000):
    return (int(round(x * d)), d)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("src"); ap.add_argument("out")
    ap.add_argument("--linear", action="store_true")
    ap.add_argument("--orientation", type=int, default=1)
    ap.add_argument("--preview", type=int, default=0)
    ap.add_argument("--scale", type=float, default=1)
    ap.add_argument("--iso", type=int, default=200)
    ap.add_argument("--make", default="PhotoEdit")
    ap.add_argument("--model", default=None)
    ap.add_argument("--noise", default=None,
                    help="Poisson-Gaussian noise 'a,b' or 'aR,aG,aB,bR,bG,bB': variance a*x + b of the raw value x (0..1 of white - black)")
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        rgb = linear_rgb(a.src, a.scale, tmp)
        if a.orientation == 6:  # stored turned back: the camera applies +90°
            rgb = np.ascontiguousarray(np.rot90(rgb, 1))
        elif a.orientation == 8:
            rgb = np.ascontiguousarray(np.rot90(rgb, -1))
        elif a.orientation == 3:
            rgb = np.ascontiguousarray(rgb[::-1, ::-1])
        h, w = rgb.shape[:2]
        cam = np.clip(rgb, 0, None) * GAINS
        scaled = lambda v: np.clip(BLACK + v * (WHITE - BLACK) * 0.9, 0, WHITE).astype("<u2")
        if a.noise:
            # Sensor noise on the raw values x = 0.9 * cam (what darktable's profiles measure).
            v = [float(t) for t in a.noise.split(",")]
            na, nb = (np.array(v[:3]), np.array(v[3:])) if len(v) == 6 else (np.full(3, v[0]), np.full(3, v[1]))
            rng = np.random.default_rng(a.seed)
            x = cam * 0.9
            x = x + rng.standard_normal(x.shape).astype(np.float32) * np.sqrt(np.clip(na * x + nb, 0, None))
            cam = x / 0.9
        if a.linear:
            samples, photometric, data = 3, 34892, scaled(cam).tobytes()
        else:
            cfa = np.zeros((h, w), dtype=np.float32)
            cfa[0::2, 0::2] = cam[0::2, 0::2, 0]
            cfa[0::2, 1::2] = cam[0::2, 1::2, 1]
            cfa[1::2, 0::2] = cam[1::2, 0::2, 1]
            cfa[1::2, 1::2] = cam[1::2, 1::2, 2]
            samples, photometric, data = 1, 32803, scaled(cfa).tobytes()
        # XYZ (D65) -> camera = diag(gains) · XYZ->sRGB, normalised as DNG
        # colour matrices usually are (the white maps to max 1).
        cm = np.diag(GAINS) @ np.linalg.inv(SRGB_TO_XYZ)
        cm = cm / (cm @ SRGB_TO_XYZ.sum(axis=1)).max()
        rawifd = {
            254: (4, [0]), 256: (4, [w]), 257: (4, [h]), 258: (3, [16] * samples), 259: (3, [1]),
            262: (3, [photometric]), 273: (4, ("data", data)), 277: (3, [samples]), 278: (4, [h]),
            279: (4, [len(data)]), 284: (3, [1]),
            50714: (4, [BLACK] * samples if a.linear else [BLACK]), 50717: (4, [WHITE] * samples if a.linear else [WHITE]),
        }
        if not a.linear:
            rawifd.update({33421: (3, [2, 2]), 33422: (1, [0, 1, 1, 2]), 50710: (1, [0, 1, 2]), 50711: (3, [1])})
        main_tags = {
            271: (2, a.make), 272: (2, a.model or "Synthetic " + ("LinearRaw" if a.linear else "CFA")), 274: (3, [a.orientation]),
            305: (2, "photoedit make-test-dng.py"), 306: (2, "2024:05:17 10:30:00"),
            33434: (5, [(1, 250)]), 33437: (5, [(56, 10)]), 34855: (3, [a.iso]),
            36867: (2, "2024:05:17 10:30:00"), 37386: (5, [(35, 1)]),
            50706: (1, [1, 4, 0, 0]), 50707: (1, [1, 2, 0, 0]), 50708: (2, (a.make + " " + a.model) if a.model else "PhotoEdit Synthetic"),
            50721: (10, [rational(v) for v in cm.flatten()]), 50778: (3, [21]),
            50728: (5, [rational(g / GAINS.max()) for g in GAINS]),
        }
        if a.preview:
            jpg = os.path.join(tmp, "preview.jpg")
            vips("thumbnail", a.src, jpg + "[Q=85,strip]", a.preview)
            if a.orientation in (6, 8, 3):  # stored like the raw data, turned back
                angle = {6: "d270", 8: "d90", 3: "d180"}[a.orientation]
                vips("rot", jpg, os.path.join(tmp, "p2.jpg") + "[Q=85,strip]", angle)
                jpg = os.path.join(tmp, "p2.jpg")
            blob = open(jpg, "rb").read()
            pw = int(subprocess.run(["vipsheader", "-f", "width", jpg], capture_output=True, text=True).stdout)
            ph = int(subprocess.run(["vipsheader", "-f", "height", jpg], capture_output=True, text=True).stdout)
            ifd0 = dict(main_tags)
            ifd0.update({254: (4, [1]), 256: (4, [pw]), 257: (4, [ph]), 258: (3, [8, 8, 8]), 259: (3, [7]),
                         262: (3, [6]), 273: (4, ("data", blob)), 277: (3, [3]), 278: (4, [ph]), 279: (4, [len(blob)]),
                         330: (4, ("ifd", 1))})
            ifds = [ifd0, rawifd]
        else:
            rawifd.update(main_tags)
            ifds = [rawifd]
        if a.model:
            # A camera's DNG: the ISO also in an EXIF IFD, where libraw reads it.
            ifds[0][34665] = (4, ("ifd", len(ifds)))
            ifds.append({34855: (3, [a.iso])})
        Tiff().write(a.out, ifds)


if __name__ == "__main__":
    main()
