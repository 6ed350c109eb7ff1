#!/usr/bin/env python3
"""Versions of one photo (issue 40), measured against a peer in the same run.

1. Selective sync vs single applies: `photoedit copy-recipe SRC DST... --only
   wb,tone` onto N photos (default 200) against `photoedit apply CHAIN DST...`
   of the same chain onto N photos of an identical second library, renders
   included (each is one process committing N revisions). Interleaved runs;
   prints the ratio sync / apply (goal <= 1.2).
2. `photoedit duplicate` of an edited ~24 MP photo: how much the library
   grows (every file, catalog and WAL included) against the size of the
   render the copy gets (goal < 1.1x: no pixel data beyond its render and
   preview).

Python 3 standard library and the vips CLI (to make the test images).
    bench/versions-benchmark.py [--photoedit BIN] [--photos N] [--runs R]
"""

import argparse
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
CHAIN = "temperature=+20,exposure=+0.3,contrast=+10"
GOAL_SYNC_RATIO = 1.2
GOAL_DUPLICATE_GROWTH = 1.1


def run(binary, *args):
    r = subprocess.run([binary, *args], capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join(args[:3])}…: exit {r.returncode}: {r.stderr.strip()}")
    return r.stdout


def tree_size(folder):
    total = 0
    for base, _, names in os.walk(folder):
        for name in names:
            total += os.path.getsize(os.path.join(base, name))
    return total


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--photoedit", default=os.environ.get("PHOTOEDIT", DEFAULT_PHOTOEDIT))
    p.add_argument("--photos", type=int, default=200)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--skip-sync", action="store_true", help="only the duplicate figure")
    a = p.parse_args()
    if not os.path.exists(a.photoedit):
        sys.exit(f"no photoedit at {a.photoedit} (swift build -c release --disable-default-traits --product photoedit --build-path .build-release)")
    tmp = tempfile.mkdtemp(prefix="versions-bench-")
    try:
        if not a.skip_sync:
            # N different photos (content addressed: every file must differ).
            files = []
            for i in range(a.photos):
                out = os.path.join(tmp, f"p{i:03d}.jpg")
                subprocess.run(["vips", "crop", SAMPLE, out + "[Q=90]", str(i % 150), str(i // 150), "440", "300"], check=True)
                files.append(out)
            libs = {}
            for name in ("sync", "apply"):
                lib = os.path.join(tmp, name)
                ids = [line.split("\t")[0] for line in run(a.photoedit, "import", "--library", lib, SAMPLE, *files).splitlines()]
                run(a.photoedit, "apply", "--library", lib, CHAIN, ids[0])
                libs[name] = (lib, ids[0], ids[1:])
            times = {"sync": [], "apply": []}
            for r in range(a.runs):
                for name in ("sync", "apply"):
                    lib, source, targets = libs[name]
                    # Each run starts from unedited targets (a revert is not timed).
                    run(a.photoedit, "revert", "--library", lib, *targets)
                    args = (["copy-recipe", "--library", lib, source, *targets, "--only", "wb,tone"] if name == "sync"
                            else ["apply", "--library", lib, CHAIN, *targets])
                    t = time.perf_counter()
                    run(a.photoedit, *args)
                    times[name].append(time.perf_counter() - t)
            sync, apply = statistics.median(times["sync"]), statistics.median(times["apply"])
            ratio = sync / apply
            print(f"sync onto {a.photos} photos: median {sync:.2f} s; {a.photos} applies of the same chain: median {apply:.2f} s "
                  f"({a.runs} runs each, interleaved)")
            print(f"  ratio sync/apply: {ratio:.3f} (goal <= {GOAL_SYNC_RATIO}) {'OK' if ratio <= GOAL_SYNC_RATIO else 'MISSED'}")

        # duplicate of an edited 24 MP photo.
        # A photo that compresses like a camera's: the sample upscaled to
        # 6000x4000 with seeded sensor-like noise (an upscaled sample alone
        # compresses so well that its render is unrealistically small).
        big = os.path.join(tmp, "big.jpg")
        base, noise = os.path.join(tmp, "base.v"), os.path.join(tmp, "noise.v")
        subprocess.run(["vips", "thumbnail", SAMPLE, base, "6000", "--height", "4000", "--size", "force"], check=True)
        subprocess.run(["vips", "gaussnoise", noise, "6000", "4000", "--sigma", "6", "--mean", "0", "--seed", "1"], check=True)
        subprocess.run(["vips", "add", base, noise, big + "[Q=92]"], check=True)
        lib = os.path.join(tmp, "dup")
        big_id = run(a.photoedit, "import", "--library", lib, big).split("\t")[0]
        run(a.photoedit, "apply", "--library", lib, CHAIN, big_id)
        before = tree_size(lib)
        copy = run(a.photoedit, "duplicate", "--library", lib, big_id).split("\t")[0]
        after = tree_size(lib)
        render_dir = os.path.join(lib, "renders", copy[:2], copy)
        render = sum(os.path.getsize(os.path.join(render_dir, n)) for n in os.listdir(render_dir))
        growth = (after - before) / render
        print(f"duplicate of a {os.path.getsize(big) / 1e6:.1f} MB 6000x4000 photo: library +{(after - before) / 1e6:.2f} MB, "
              f"the copy's render {render / 1e6:.2f} MB: {growth:.3f}x (goal < {GOAL_DUPLICATE_GROWTH}) "
              f"{'OK' if growth < GOAL_DUPLICATE_GROWTH else 'MISSED'}")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
