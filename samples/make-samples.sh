#!/bin/sh
# Rebuilds every file in samples/ from the Debian 12 (bookworm) package
# python3-skimage 0.19.3-8. Needs: apt-get (download only, nothing is
# installed), dpkg, vips + vipsheader (libvips-tools 8.14), exiftool
# (libimage-exiftool-perl) and python3 (standard library only).
# Usage: sh samples/make-samples.sh   (from the repository root or anywhere)
set -eu

OUT=$(cd "$(dirname "$0")" && pwd)
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

cd "$WORK"
apt-get download python3-skimage=0.19.3-8
dpkg -x python3-skimage_0.19.3-8_all.deb x
D="$WORK/x/usr/lib/python3/dist-packages/skimage/data"

# --- real photos as JPEG, Q 90, sRGB -------------------------------------
# coffee.png: 600x400 sRGB, no ICC profile, no metadata
vips jpegsave "$D/coffee.png" "$OUT/coffee.jpg" --Q 90
# chelsea.png: 451x300 with an embedded sRGB IEC61966-2.1 ICC profile and
# XMP camera metadata; both are carried into the JPEG
vips jpegsave "$D/chelsea.png" "$OUT/chelsea.jpg" --Q 90
# astronaut.png: 512x512 with an embedded sRGB IEC61966-2.1 ICC profile
vips jpegsave "$D/astronaut.png" "$OUT/astronaut.jpg" --Q 90

# --- EXIF orientation 6 + date + GPS ------------------------------------
# Stored pixels = upright photo rotated 90 degrees counter-clockwise
# (vips "d270" = 270 degrees clockwise), so a viewer that applies
# Orientation 6 (rotate 90 CW) shows the cup upright again.
vips rot "$D/coffee.png" "$WORK/coffee-ccw.v" d270
vips jpegsave "$WORK/coffee-ccw.v" "$OUT/rotated-exif.jpg" --Q 90
exiftool -q -overwrite_original \
  -Orientation#=6 \
  -DateTimeOriginal='2021:06:15 14:30:00' \
  -CreateDate='2021:06:15 14:30:00' \
  -GPSLatitude=48.8584 -GPSLatitudeRef=N \
  -GPSLongitude=2.2945 -GPSLongitudeRef=E \
  -Make=PhotoEdit -Model='Fixture Cam 1' \
  "$OUT/rotated-exif.jpg"

# --- other containers, long edge <= 512 ----------------------------------
# 16-bit PNG: cast to 16-bit RGB, then resample, so the 16-bit values are
# real interpolated values (not just 8-bit values times 257).
vips colourspace "$D/chelsea.png" "$WORK/chelsea16.v" rgb16
vips resize "$WORK/chelsea16.v" "$OUT/chelsea-16bit.png" 0.75
# TIFF, 8-bit RGB, LZW with horizontal predictor
vips resize "$D/coffee.png" "$WORK/coffee512.v" 0.8533333333
vips tiffsave "$WORK/coffee512.v" "$OUT/coffee.tif" --compression lzw --predictor horizontal
# WebP, lossy Q 85
vips resize "$D/astronaut.png" "$WORK/astronaut384.v" 0.75
vips webpsave "$WORK/astronaut384.v" "$OUT/astronaut.webp" --Q 85
# AVIF (HEIF container, AV1) and HEIC (HEIF container, HEVC); libvips'
# default Q 50. Skipped if libheif has no encoder for it.
vips heifsave "$D/chelsea.png" "$OUT/chelsea.avif" --compression av1 \
  || echo "AVIF encoder not available: skipped chelsea.avif" >&2
vips heifsave "$D/coffee.png" "$OUT/coffee.heic" --compression hevc \
  || echo "HEVC encoder not available: skipped coffee.heic" >&2

# --- synthetic chart ----------------------------------------------------
python3 - "$WORK/chart.ppm" <<'PY'
import sys
W, H = 512, 256
px = bytearray(W * H * 3)
def put(x, y, rgb):
    i = (y * W + x) * 3
    px[i:i + 3] = bytes(rgb)
# rows 0-63: smooth grey ramp 0..255 (each value 2 px wide)
for y in range(0, 64):
    for x in range(W):
        v = x * 255 // (W - 1)
        put(x, y, (v, v, v))
# rows 64-127: 16-step grey wedge, 32 px per step, 0,17,34,...,255
for y in range(64, 128):
    for x in range(W):
        v = (x // 32) * 17
        put(x, y, (v, v, v))
# rows 128-191: primaries, secondaries, white, black (64x64 each)
row1 = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (0, 255, 255),
        (255, 0, 255), (255, 255, 0), (255, 255, 255), (0, 0, 0)]
# rows 192-255: first 8 ColorChecker-like patches (approximate sRGB)
row2 = [(115, 82, 68), (194, 150, 130), (98, 122, 157), (87, 108, 67),
        (133, 128, 177), (103, 189, 170), (214, 126, 44), (80, 91, 166)]
for band, colours in ((128, row1), (192, row2)):
    for y in range(band, band + 64):
        for x in range(W):
            put(x, y, colours[x // 64])
with open(sys.argv[1], "wb") as f:
    f.write(b"P6\n%d %d\n255\n" % (W, H))
    f.write(px)
PY
vips copy "$WORK/chart.ppm" "$OUT/chart.png"

ls -l "$OUT"
