#!/usr/bin/env python3
"""Import on one core against import on every core, and against the least
any importer must do, in the same run.

`photoedit import` copies each file into the library while hashing it,
decodes every pixel once (a damaged file never gets in), reads its metadata,
writes its revision record and commits. Files are imported `--jobs` at a time
(default: the number of cores). This times, on a folder of distinct
generated JPEGs, each run into a new library:

- `photoedit import --jobs 1 DIR`
- `photoedit import DIR` (one job per core)
- the floor, one file after another: `sha256sum FILE` (read and hash) then
  `vips avg FILE` (decode every pixel), which is what import cannot skip.

Goal: with 2 cores, `import` takes at most 0.65x the time of `--jobs 1`.

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

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_PHOTOEDIT = os.path.join(ROOT, ".build-release", "release", "photoedit")
SAMPLE = os.path.join(ROOT, "samples", "coffee.jpg")
GOAL_PARALLEL_VS_ONE = 0.65


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd[:6])}\n{r.stderr}")
    return r.stdout


def make_photos(folder, count, width, height):
    """Distinct JPEGs: the sample scaled up plus different noise each."""
    base = os.path.join(folder, "base.v")
    noise = os.path.join(folder, "noise.v")
    run(["vips", "thumbnail", SAMPLE, base, str(width), "--height", str(height), "--size", "force"])
    photos = os.path.join(folder, "photos")
    os.makedirs(photos)
    for i in range(count):
        run(["vips", "gaussnoise", noise, str(width), str(height), "--sigma", "6", "--mean", "0", "--seed", str(i + 1)])
        run(["vips", "add", base, noise, os.path.join(photos, f"p{i:03d}.jpg") + "[Q=90]"])
    os.unlink(noise)
    os.unlink(base)
    return photos


def floor_work(files):
    """Read and hash, then decode every pixel, one file after another."""
    def go():
        for f in files:
            run(["sha256sum", f])
            run(["vips", "avg", f])
    return go


def timed(work):
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--photoedit", default=DEFAULT_PHOTOEDIT)
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--count", type=int, default=16, help="photos (default 16)")
    ap.add_argument("--size", default="4000x3000", help="WxH of each photo (default 4000x3000, 12 MP)")
    ap.add_argument("-n", "--runs", type=int, default=3)
    ap.add_argument("--workdir")
    ap.add_argument("--json")
    args = ap.parse_args()

    if not args.no_build and args.photoedit == DEFAULT_PHOTOEDIT:
        log("building photoedit (release)…")
        run(["swift", "build", "-c", "release", "--scratch-path", ".build-release", "--product", "photoedit"], cwd=ROOT)
    width, height = (int(v) for v in args.size.lower().split("x"))
    work = args.workdir or tempfile.mkdtemp(prefix="photoedit-import-bench-")
    os.makedirs(work, exist_ok=True)
    log(f"making {args.count} {width}x{height} JPEGs in {work}…")
    photos = make_photos(work, args.count, width, height)
    files = sorted(os.path.join(photos, f) for f in os.listdir(photos))
    megabytes = sum(os.path.getsize(f) for f in files) / 1e6
    library = os.path.join(work, "library")

    def importer(jobs):
        def go():
            shutil.rmtree(library, ignore_errors=True)
            cmd = [args.photoedit, "import", "--library", library, photos]
            if jobs:
                cmd[2:2] = ["--jobs", str(jobs)]
            out = run(cmd)
            if len(out.splitlines()) != len(files):
                sys.exit(f"import printed {len(out.splitlines())} lines for {len(files)} files")
        return go

    tools = {
        "photoedit import --jobs 1": importer(1),
        "photoedit import (one job per core)": importer(None),
        "floor: sha256sum + vips avg, per file": floor_work(files),
    }
    times = {k: [] for k in tools}
    for r in range(args.runs + 1):  # run 0 is the warm-up
        for name, go in tools.items():
            wall = timed(go)
            if r > 0:
                times[name].append(wall)
    one = statistics.median(times["photoedit import --jobs 1"])
    results = {"cores": os.cpu_count(), "vips": run(["vips", "--version"]).strip(), "photos": len(files),
               "size": f"{width}x{height}", "megabytes": round(megabytes, 1), "tools": {}}
    for name, values in times.items():
        median = statistics.median(values)
        results["tools"][name] = {"median_s": median, "min_s": min(values), "per_photo_ms": median / len(files) * 1000,
                                  "vs_jobs_1": median / one}
    print(json.dumps(results, indent=2))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    parallel = results["tools"]["photoedit import (one job per core)"]["vs_jobs_1"]
    floor = results["tools"]["floor: sha256sum + vips avg, per file"]["median_s"]
    log(f"import, one job per core / --jobs 1 = {parallel:.2f}x (goal <= {GOAL_PARALLEL_VS_ONE}x on 2 cores); "
        f"--jobs 1 / floor = {one / floor:.2f}x")
    if not args.workdir:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(0 if parallel <= GOAL_PARALLEL_VS_ONE or (os.cpu_count() or 1) < 2 else 1)


if __name__ == "__main__":
    main()
