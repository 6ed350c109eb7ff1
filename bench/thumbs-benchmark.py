#!/usr/bin/env python3
"""Thumbnails through photoedit's image manager against vipsthumbnail, a warm
cache hit timed in-process, and memory while prefetching many photos.

1. Cold thumbnails: 256 px thumbnails of a folder of ~24 MP JPEGs with
   `photoedit thumbs --size 256 -o DIR ID...` (the cache emptied before every
   run) against `vipsthumbnail --size 256 -o DIR/%s.jpg[Q=90] FILE...` on the
   same files, in the same run, interleaved. Goal: within 1.2x.
2. Warm hits: `photoedit bench-requests` times requests served from memory
   (and from disk, by a new manager) inside one process. Goal: under 1 ms.
3. Prefetch: `photoedit bench-requests --prefetch` runs startCaching over N
   generated photos and reports the process's peak RSS, for 100 and for all N
   photos: bounded means it does not grow with N.

Python 3 standard library only; needs libvips-tools. See bench/README.md.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_PHOTOEDIT = os.path.join(ROOT, ".build-release", "release", "photoedit")
SAMPLE = os.path.join(ROOT, "samples", "coffee.jpg")
GOAL_VS_VIPSTHUMBNAIL = 1.2
GOAL_WARM_MS = 1.0


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{r.stderr}")
    return r.stdout


def timed(cmd):
    """Wall seconds and peak RSS (MB) of one child."""
    start = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - start
    err = p.stderr.read().decode()
    if status != 0:
        sys.exit(f"failed: {' '.join(cmd[:6])}…\n{err}")
    return wall, usage.ru_maxrss / 1024


def make_large(folder, count, width, height):
    base = os.path.join(folder, "base.v")
    run(["vips", "thumbnail", SAMPLE, base, str(width), "--height", str(height), "--size", "force"])
    files = []
    for i in range(count):
        noise = os.path.join(folder, "noise.v")
        run(["vips", "gaussnoise", noise, str(width), str(height), "--sigma", "6", "--mean", "0", "--seed", str(i + 1)])
        out = os.path.join(folder, f"large-{i:02d}.jpg")
        run(["vips", "add", base, noise, out + "[Q=90,strip]"])
        files.append(out)
        log(f"  made {out} ({os.path.getsize(out) / 1e6:.1f} MB)")
    os.unlink(noise)
    os.unlink(base)
    return files


def make_many(folder, count):
    base = os.path.join(folder, "base.v")
    run(["vips", "thumbnail", SAMPLE, base, "1500", "--height", "1000", "--size", "force"])
    os.makedirs(os.path.join(folder, "many"), exist_ok=True)

    def one(i):
        out = os.path.join(folder, "many", f"p{i:04d}.jpg")
        run(["vips", "linear", base, out + "[Q=85,strip]", str(0.6 + 0.4 * i / count), "0", "--uchar"])
        return out

    with ThreadPoolExecutor(2) as pool:
        files = list(pool.map(one, range(count)))
    os.unlink(base)
    return files


def import_ids(photoedit, library, paths):
    out = run([photoedit, "import", "--library", library] + paths)
    return [line.split("\t")[0] for line in out.splitlines()]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--photoedit", default=DEFAULT_PHOTOEDIT)
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--count", type=int, default=8, help="24 MP JPEGs (default 8)")
    ap.add_argument("-n", "--runs", type=int, default=3)
    ap.add_argument("--many", type=int, default=1000, help="photos to prefetch (default 1000; 0 skips)")
    ap.add_argument("--workdir")
    ap.add_argument("--json")
    args = ap.parse_args()

    if not args.no_build and args.photoedit == DEFAULT_PHOTOEDIT:
        log("building photoedit (release)…")
        run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--scratch-path", ".build-release"], cwd=ROOT)
    work = args.workdir or tempfile.mkdtemp(prefix="photoedit-thumbs-")
    os.makedirs(work, exist_ok=True)
    results = {"cores": os.cpu_count(), "vips": run(["vips", "--version"]).strip()}

    log(f"making {args.count} 24 MP JPEGs in {work}…")
    large = make_large(work, args.count, 6000, 4000)
    library = os.path.join(work, "library")
    ids = import_ids(args.photoedit, library, large)
    out_pe, out_vt = os.path.join(work, "out-pe"), os.path.join(work, "out-vt")
    tools = {
        "photoedit thumbs": [args.photoedit, "thumbs", "--library", library, "--size", "256", "-o", out_pe] + ids,
        "photoedit thumbs --jobs 1": [args.photoedit, "thumbs", "--library", library, "--size", "256", "--jobs", "1", "-o", out_pe] + ids,
        "vipsthumbnail": ["vipsthumbnail", "--size", "256", "-o", os.path.join(out_vt, "%s.jpg[Q=90]")] + large,
    }
    times = {k: [] for k in tools}
    peaks = {k: 0.0 for k in tools}
    for r in range(args.runs + 1):  # run 0 is the warm-up
        for name, cmd in tools.items():
            shutil.rmtree(os.path.join(library, "cache", "images"), ignore_errors=True)
            out = out_vt if name == "vipsthumbnail" else out_pe
            shutil.rmtree(out, ignore_errors=True)
            os.makedirs(out)
            wall, peak = timed(cmd)
            if r > 0:
                times[name].append(wall)
                peaks[name] = max(peaks[name], peak)
    cold = {k: {"median_s": statistics.median(v), "min_s": min(v), "peak_mb": peaks[k],
                "per_photo_ms": statistics.median(v) / len(large) * 1000} for k, v in times.items()}
    results["cold"] = cold
    ratio = cold["photoedit thumbs"]["median_s"] / cold["vipsthumbnail"]["median_s"]
    ratio1 = cold["photoedit thumbs --jobs 1"]["median_s"] / cold["vipsthumbnail"]["median_s"]
    results["ratio"] = ratio
    results["ratio_jobs1"] = ratio1
    sizes = sorted({run(["vipsheader", os.path.join(out_pe, f)]).split(":")[1].split()[0] for f in os.listdir(out_pe)})
    log(f"photoedit thumbnail sizes: {sizes}")

    log("warm hits in-process…")
    results["warm"] = json.loads(run([args.photoedit, "bench-requests", "--library", library, "--size", "256", "--hits", "5000"]))

    if args.many > 0:
        log(f"making {args.many} 1500x1000 JPEGs…")
        many = make_many(work, args.many)
        many_library = os.path.join(work, "many-library")
        many_ids = import_ids(args.photoedit, many_library, [os.path.join(work, "many")])
        results["prefetch"] = {}
        for n in (100, len(many_ids)):
            shutil.rmtree(os.path.join(many_library, "cache", "images"), ignore_errors=True)
            results["prefetch"][str(n)] = json.loads(run([args.photoedit, "bench-requests", "--library", many_library,
                                                          "--size", "256", "--prefetch"] + many_ids[:n]))

    print(json.dumps(results, indent=2))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    log(f"photoedit thumbs / vipsthumbnail = {ratio:.2f}x (--jobs 1: {ratio1:.2f}x; goal {GOAL_VS_VIPSTHUMBNAIL}x)")
    warm = results["warm"]["memoryHit"]["medianMs"]
    log(f"warm memory hit median {warm:.3f} ms (goal < {GOAL_WARM_MS} ms)")
    ok = ratio <= GOAL_VS_VIPSTHUMBNAIL and warm < GOAL_WARM_MS
    if not args.workdir:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
