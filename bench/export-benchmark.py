#!/usr/bin/env python3
"""Batch export (issue 38): N edited 24 MP JPEGs exported by `photoedit export`
against a libvips pipeline and darktable-cli, in the same run.

1. photoedit: `photoedit export IDS… -o DIR` to 2048 px AVIF (q60, effort 4,
   metadata none), and to 2048 px JPEG q85 with screen sharpening. The photos
   are edited first (`apply exposure=+0.3,contrast=10`), so each has a stored
   full-size render.
2. libvips peer: the same stored renders, one `vips` pipeline per photo under
   `xargs -P 2` doing decode (shrink-on-load) -> resize -> [sharpen] -> encode
   at the same size, quality and effort: the throughput photoedit must keep
   (goal: >= 0.9x).
3. darktable-cli exporting the same renders at the same size (JPEG q85);
   it runs on --darktable-count photos (it takes seconds each) and the rate
   per photo is compared (goal: photoedit >= 5x).
4. Peak memory (ru_maxrss of the photoedit process; goal <= 400 MB), and the
   max-bytes search: `render --max-bytes` of each photo to a 2048 px JPEG at
   most --max-bytes, encodes per photo on average (goal <= 4).

Needs: python3, libvips-tools (`vips`), darktable-cli (optional: skipped when
missing), a built photoedit (release). Ratios are printed; see bench/README.md.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLE = os.path.join(ROOT, "samples", "coffee.jpg")
GOAL_VIPS_RATIO, GOAL_DT_RATIO, GOAL_PEAK_MB, GOAL_ENCODES = 0.9, 5.0, 400, 4.0
EDGE, JPEG_Q, AVIF_Q, AVIF_EFFORT = 2048, 85, 60, 4
# photoedit's screen sharpening at 2048 px (docs/export.md): sigma 0.5, m2 2.0, x1 2, m1 0.
SHARPEN = ["--sigma", "0.5", "--x1", "2", "--m1", "0", "--m2", "2"]


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd[:8])}\n{r.stderr[-2000:]}")
    return r.stdout


def timed(cmd, env=None):
    """Wall seconds and peak RSS (MB) of one process (and what it waits for)."""
    start = time.monotonic()
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.monotonic() - start
    out, err = p.stdout.read().decode(), p.stderr.read().decode()
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit(f"failed ({p.returncode}): {' '.join(cmd[:8])}\n{err[-2000:]}")
    return wall, usage.ru_maxrss / 1024, out, err


def make_photos(folder, count, width, height):
    base = os.path.join(folder, "base.v")
    run(["vips", "thumbnail", SAMPLE, base, str(width), "--height", str(height), "--size", "force"])
    noise = os.path.join(folder, "noise.v")
    files = []
    os.makedirs(os.path.join(folder, "photos"), exist_ok=True)
    for i in range(count):
        run(["vips", "gaussnoise", noise, str(width), str(height), "--sigma", "6", "--mean", "0", "--seed", str(i + 1)])
        out = os.path.join(folder, "photos", f"large-{i:03d}.jpg")
        run(["vips", "add", base, noise, out + "[Q=90,strip]"])
        files.append(out)
    os.unlink(noise)
    os.unlink(base)
    return files


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--photoedit", default=os.path.join(ROOT, ".build", "release", "photoedit"))
    ap.add_argument("--count", type=int, default=50, help="photos (default 50)")
    ap.add_argument("--size", default="6000x4000", help="photo size WxH (default 24 MP)")
    ap.add_argument("--darktable-count", type=int, default=3, help="photos darktable-cli exports (default 3)")
    ap.add_argument("--max-bytes", default="400KB", help="max-bytes of the search round (default 400KB)")
    ap.add_argument("--keep", action="store_true", help="keep the work folder")
    args = ap.parse_args()
    width, height = map(int, args.size.lower().split("x"))
    if not os.path.exists(args.photoedit):
        sys.exit(f"no photoedit at {args.photoedit}: swift build -c release --disable-default-traits --product photoedit")
    work = tempfile.mkdtemp(prefix="photoedit-export-bench-")
    try:
        log(f"making {args.count} {width}x{height} JPEGs in {work}…")
        photos = make_photos(work, args.count, width, height)
        lib = os.path.join(work, "library")
        pe = lambda *a: [args.photoedit, a[0], "--library", lib, *a[1:]]
        ids = [line.split("\t")[0] for line in run(pe("import", *photos)).splitlines() if line.strip()]
        log("editing them (each gets a stored full-size render)…")
        run(pe("apply", "exposure=+0.3,contrast=10", *ids))
        renders = sorted(os.path.join(dp, f) for dp, _, fs in os.walk(os.path.join(lib, "renders")) for f in fs if f.endswith(".jpg"))
        if len(renders) != len(ids):
            sys.exit(f"expected {len(ids)} renders, found {len(renders)}")
        results = {}
        cases = {
            "avif": (["--format", "avif", "--quality", str(AVIF_Q), "--effort", str(AVIF_EFFORT)],
                     lambda src, out: f"vips thumbnail '{src}' '{out}.avif[Q={AVIF_Q},compression=av1,effort={AVIF_EFFORT},strip]' {EDGE} --height {EDGE}"),
            "jpeg": (["--format", "jpeg", "--quality", str(JPEG_Q), "--sharpen", "screen"],
                     lambda src, out: f"vips thumbnail '{src}' '{out}.v' {EDGE} --height {EDGE} && "
                                      f"vips sharpen '{out}.v' '{out}.jpg[Q={JPEG_Q},optimize_coding,strip]' {' '.join(SHARPEN)} && rm '{out}.v'"),
        }
        for name, (options, peer) in cases.items():
            out = os.path.join(work, f"out-{name}")
            os.makedirs(out)
            wall, peak, _, _ = timed(pe("export", *options, "--long-edge", str(EDGE), "--metadata", "none", "--force", *ids, "-o", out))
            written = len(os.listdir(out))
            if written != len(ids):
                sys.exit(f"{name}: photoedit wrote {written} files for {len(ids)} photos")
            peer_out = os.path.join(work, f"peer-{name}")
            os.makedirs(peer_out)
            script = os.path.join(work, f"peer-{name}.txt")
            with open(script, "w") as f:
                for i, src in enumerate(renders):
                    f.write(peer(src, os.path.join(peer_out, f"p{i:03d}")).replace("\n", " ") + "\n")
            start = time.monotonic()
            run(["bash", "-c", f"tr '\\n' '\\0' < '{script}' | xargs -0 -P 2 -I CMD bash -c CMD"])
            peer_wall = time.monotonic() - start
            results[name] = dict(photoedit_s=wall, peak_mb=peak, vips_s=peer_wall, ratio=peer_wall / wall)
            log(f"{name}: photoedit {wall:.1f} s ({len(ids) / wall:.2f} photos/s, peak {peak:.0f} MB), "
                f"vips xargs -P 2 {peer_wall:.1f} s -> throughput ratio {peer_wall / wall:.2f}x")
        dt = shutil.which("darktable-cli")
        if dt and args.darktable_count > 0:
            n = min(args.darktable_count, len(renders))
            dt_out = os.path.join(work, "dt")
            os.makedirs(dt_out)
            conf = os.path.join(work, "dtconf")
            start = time.monotonic()
            for i, src in enumerate(renders[:n]):
                run([dt, src, os.path.join(dt_out, f"d{i:03d}.jpg"), "--width", str(EDGE), "--height", str(EDGE), "--hq", "true",
                     "--core", "--configdir", conf, "--conf", f"plugins/imageio/format/jpeg/quality={JPEG_Q}"])
            dt_per = (time.monotonic() - start) / n
            pe_per = results["jpeg"]["photoedit_s"] / len(ids)
            results["darktable"] = dict(per_photo_s=dt_per, ratio=dt_per / pe_per, photos=n)
            log(f"darktable-cli: {dt_per:.2f} s per photo over {n}; photoedit {pe_per:.2f} s per photo -> {dt_per / pe_per:.1f}x")
        else:
            log("darktable-cli: not installed, skipped")
        encodes = []
        sizes = []
        for i, pid in enumerate(ids):
            out = os.path.join(work, f"mb-{i:03d}.jpg")
            _, _, _, err = timed(pe("render", pid, "-o", out, "--long-edge", str(EDGE), "--max-bytes", args.max_bytes, "--metadata", "none"))
            m = re.search(r"(\d+) bytes at quality (\d+) \((\d+) encodes\)", err)
            if not m:
                sys.exit(f"no encode count in: {err}")
            sizes.append(int(m.group(1)))
            encodes.append(int(m.group(3)))
        mean_encodes = sum(encodes) / len(encodes)
        log(f"max-bytes {args.max_bytes}: {mean_encodes:.2f} encodes per photo on average (max {max(encodes)}), "
            f"files {min(sizes)}-{max(sizes)} bytes")
        print(f"photos: {len(ids)} at {width}x{height}, to {EDGE} px")
        for name in cases:
            r = results[name]
            print(f"{name}: photoedit {r['photoedit_s']:.1f} s, vips xargs -P 2 {r['vips_s']:.1f} s, ratio {r['ratio']:.2f}x "
                  f"(goal >= {GOAL_VIPS_RATIO}), peak {r['peak_mb']:.0f} MB (goal <= {GOAL_PEAK_MB})")
        if "darktable" in results:
            r = results["darktable"]
            print(f"darktable-cli: {r['per_photo_s']:.2f} s per photo ({r['photos']} photos), photoedit {r['ratio']:.1f}x faster (goal >= {GOAL_DT_RATIO})")
        print(f"max-bytes: {mean_encodes:.2f} encodes per photo (goal <= {GOAL_ENCODES})")
    finally:
        if args.keep:
            log(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
