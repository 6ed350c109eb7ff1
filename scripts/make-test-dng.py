# Makes a small Bayer (RGGB) CFA DNG from a photo, for tests: the photo is
# linearised, scaled by "as shot" gains, mosaiced and written as 12-bit data in
# 16-bit samples with black 256, white 4095 (pip install pidng; needs vips).
#   python3 scripts/make-test-dng.py samples/coffee.jpg Tests/Fixtures/raw/coffee.dng
import numpy as np, subprocess, sys, os
from pidng.core import RAW2DNG, DNGTags, Tag
from pidng.defs import *
src, out = sys.argv[1], sys.argv[2]
w = int(subprocess.run(["vipsheader", "-f", "width", src], capture_output=True, text=True).stdout)
h = int(subprocess.run(["vipsheader", "-f", "height", src], capture_output=True, text=True).stdout)
subprocess.run(["vips", "colourspace", src, "/tmp/_lin.v", "scrgb"], check=True)
subprocess.run(["vips", "rawsave", "/tmp/_lin.v", "/tmp/_lin.raw"], check=True)
rgb = np.fromfile("/tmp/_lin.raw", dtype=np.float32).reshape(h, w, 3)
w2, h2 = w - w % 2, h - h % 2
rgb = rgb[:h2, :w2]
# camera "as shot": daylight-ish neutral with green strongest
gains = np.array([0.5, 1.0, 0.7])
black, white = 256, 4095
cfa = np.zeros((h2, w2), dtype=np.float32)
cfa[0::2, 0::2] = rgb[0::2, 0::2, 0] * gains[0]
cfa[0::2, 1::2] = rgb[0::2, 1::2, 1] * gains[1]
cfa[1::2, 0::2] = rgb[1::2, 0::2, 1] * gains[1]
cfa[1::2, 1::2] = rgb[1::2, 1::2, 2] * gains[2]
data = np.clip(black + cfa * (white - black) * 0.9, 0, white).astype(np.uint16)
t = DNGTags()
t.set(Tag.ImageWidth, w2); t.set(Tag.ImageLength, h2)
t.set(Tag.TileWidth, w2); t.set(Tag.TileLength, h2)
t.set(Tag.Orientation, Orientation.Horizontal)
t.set(Tag.PhotometricInterpretation, PhotometricInterpretation.Color_Filter_Array)
t.set(Tag.SamplesPerPixel, 1); t.set(Tag.BitsPerSample, 16)
t.set(Tag.CFARepeatPatternDim, [2, 2]); t.set(Tag.CFAPattern, CFAPattern.RGGB)
t.set(Tag.BlackLevel, black); t.set(Tag.WhiteLevel, white)
# XYZ(D65) -> camera = diag(gains) * sRGB^-1 * ... use sRGB primaries so camera = sRGB linear scaled
M = np.array([[3.2404542, -1.5371385, -0.4985314], [-0.9692660, 1.8760108, 0.0415560], [0.0556434, -0.2040259, 1.0572252]])
cm = (np.diag(gains) @ M)
cm = cm / cm[1].sum()  # normalise roughly
t.set(Tag.ColorMatrix1, [[int(round(v * 10000)), 10000] for v in cm.flatten()])
t.set(Tag.CalibrationIlluminant1, CalibrationIlluminant.D65)
t.set(Tag.AsShotNeutral, [[int(round(g / gains.max() * 10000)), 10000] for g in gains])
t.set(Tag.BaselineExposure, [[0, 100]])
t.set(Tag.Make, "PhotoEdit"); t.set(Tag.Model, "Synthetic CFA")
t.set(Tag.DNGVersion, DNGVersion.V1_4); t.set(Tag.DNGBackwardVersion, DNGVersion.V1_2)
t.set(Tag.PreviewColorSpace, PreviewColorSpace.sRGB)
r = RAW2DNG(); r.options(t, path="", compress=False)
r.convert(data, filename=os.path.splitext(out)[0])
