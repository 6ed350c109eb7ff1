#!/usr/bin/env python3
"""The independent reference of the lens filter (LensCorrectionTests): the
same correction computed by lensfunpy (PyPI), driving the same lensfun
database files, remapped here with numpy.

usage: lensfunpy_reference.py IN.f32 OUT.f32 WIDTH HEIGHT CAMERA_MAKER CAMERA_MODEL LENS FOCAL APERTURE DISTANCE FLAGS [autoscale]

IN.f32 / OUT.f32: linear RGB, float32, rows top to bottom, bands interleaved.
FLAGS: any of d (distortion), t (TCA), v (vignetting).
Vignetting is applied first (lensfun's colour modification, in the
distorted image's coordinates), then distortion and TCA through lensfun's
subpixel coordinates, sampled bilinearly with black outside the image.
With `autoscale`, the distortion and TCA are scaled to fill the frame by
lensfun's own automatic scale (LF_MODIFY_SCALE with scale 0, as
lf_modifier_get_auto_scale): the lens filter's `autoscale` finds its scale
on its own, so this checks it.
"""
import glob
import sys

import lensfunpy
import numpy as np


def bilinear(channel, xs, ys):
    h, w = channel.shape
    x0 = np.floor(xs).astype(np.int64)
    y0 = np.floor(ys).astype(np.int64)
    fx = (xs - x0).astype(np.float64)
    fy = (ys - y0).astype(np.float64)
    out = np.zeros(xs.shape, dtype=np.float64)
    for dy, wy in ((0, 1 - fy), (1, fy)):
        for dx, wx in ((0, 1 - fx), (1, fx)):
            xi, yi = x0 + dx, y0 + dy
            inside = (xi >= 0) & (xi < w) & (yi >= 0) & (yi < h)
            values = np.zeros(xs.shape, dtype=np.float64)
            values[inside] = channel[yi[inside], xi[inside]]
            out += wx * wy * values
    return out


def main():
    (src, dst, width, height, maker, model, lens_name, focal, aperture, distance, flags) = sys.argv[1:12]
    autoscale = sys.argv[12:13] == ['autoscale']
    width, height = int(width), int(height)
    focal, aperture, distance = float(focal), float(aperture), float(distance)
    db = lensfunpy.Database(paths=sorted(glob.glob('/usr/share/lensfun/version_1/*.xml')))
    cameras = db.find_cameras(maker, model) or [c for c in db.cameras if c.model == model]
    camera = cameras[0] if cameras else None
    lenses = [l for l in db.find_lenses(camera, None, lens_name) if l.model == lens_name]
    if not lenses:
        sys.exit(f"lensfunpy: no lens {lens_name!r}")
    lens = lenses[0]
    crop = camera.crop_factor if camera else lens.crop_factor
    image = np.fromfile(src, dtype=np.float32).reshape(height, width, 3).copy()

    if 'v' in flags:
        m = lensfunpy.Modifier(lens, crop, width, height)
        m.initialize(focal, aperture, distance, scale=1.0, pixel_format=np.float32,
                     flags=lensfunpy.ModifyFlags.VIGNETTING)
        if not m.apply_color_modification(image):
            sys.exit("lensfunpy: no vignetting data")

    geometry = (lensfunpy.ModifyFlags.DISTORTION if 'd' in flags else 0) | (lensfunpy.ModifyFlags.TCA if 't' in flags else 0)
    if geometry:
        m = lensfunpy.Modifier(lens, crop, width, height)
        if autoscale:
            geometry |= lensfunpy.ModifyFlags.SCALE
        m.initialize(focal, aperture, distance, scale=0.0 if autoscale else 1.0, pixel_format=np.float32, flags=geometry)
        coords = m.apply_subpixel_geometry_distortion()  # (h, w, 3 channels, x/y)
        out = np.empty_like(image)
        for c in range(3):
            out[..., c] = bilinear(image[..., c], coords[..., c, 0], coords[..., c, 1])
        image = out
    image.astype(np.float32).tofile(dst)
    print(f"{camera.model if camera else '-'} | {lens.model} | crop {crop}")


if __name__ == '__main__':
    main()
