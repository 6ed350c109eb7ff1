#!/usr/bin/env python3
"""Times `photoedit apply --reset CHAIN ID` on a ~24 MP JPEG for the presence
filters (clarity, texture, dehaze) against `exposure` in the same run, and
prints each as a ratio of the exposure time (issue 26: within 1.5x).

Whole command: start-up, catalog, decode, the filter, sRGB, JPEG Q92 encode,
fsync, commit. Each chain runs once untimed (warm-up), then N timed runs
interleaved (run 1 of every chain, then run 2, ...) so a change in machine
load hits all alike; the median is reported.

Python 3 standard library only, plus libvips-tools (`vips`) to make the input.
See bench/README.md.
"""

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLE = os.path.join(ROOT, "samples", "coffee.jpg")
GOAL = 1.5

CHAINS = [
    ("exposure", "exposure=+0.3"),
    ("highlights", "highlights=-30"),  # a reference: a point tone filter (toneMapLuminance), no goal
    ("clarity", "clarity=+40"),
    ("texture", "texture=+40"),
    ("dehaze", "dehaze=+40"),
    # Lens correction (a reference, no goal in the list): a profile
    # named by hand (the generated JPEG has no EXIF), every correction on,
    # and distortion alone.
    ("lens", "lens.camera=Canon EOS 5D Mark II,lens.lens=Canon EF 24-105mm f/4L IS USM,lens.focal=24,lens.distortion=100,lens.tca=100,lens.vignetting=100"),
    ("lens dist.", "lens.camera=Canon EOS 5D Mark II,lens.lens=Canon EF 24-105mm f/4L IS USM,lens.focal=24,lens.distortion=100"),
]

# Version 1 of the presence filters (libvips resize and arithmetic graph), as
# recipes of that version (`apply --recipe`): the "before" of version 2, in
# the same run; and texture version 2 (its reduced copy's guided filter in
# libvips operations), the "before" of version 3. No goal.
VERSION_ONE = [
    ("clarity v1", {"id": "clarity", "version": 1, "params": {"amount": 40, "radius": 50}}),
    ("texture v1", {"id": "texture", "version": 1, "params": {"amount": 40, "radius": 4}}),
    ("dehaze v1", {"id": "dehaze", "version": 1, "params": {"strength": 40}}),
    ("texture v2", {"id": "texture", "version": 2, "params": {"amount": 40, "radius": 4}}),
]


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def run(argv, **kw):
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    if r.returncode != 0:
        sys.exit("%s failed (%d): %s" % (" ".join(argv[:3]), r.returncode, r.stderr.strip()[-500:]))
    return r.stdout


def make_input(path, width, height, work):
    """samples/coffee.jpg upscaled to width x height with gaussian grain
    (sigma 8 levels) so the JPEG has camera-like entropy; Q90, 4:2:0."""
    up, noise, grain = (os.path.join(work, n) for n in ("up.v", "noise.v", "grain.v"))
    run(["vips", "thumbnail", SAMPLE, up, str(width), "--height", str(height), "--size", "force"])
    run(["vips", "gaussnoise", noise, str(width), str(height), "--sigma", "8", "--mean", "0"])
    run(["vips", "add", up, noise, grain])
    run(["vips", "cast", grain, "%s[Q=90,subsample-mode=on,strip]" % path, "uchar"])
    for f in (up, noise, grain):
        os.unlink(f)


def cpu_seconds():
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(argv):
    """Wall seconds and CPU seconds (user + sys) of one run."""
    cpu = cpu_seconds()
    start = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, text=True)
    _, err = p.communicate()
    elapsed = time.perf_counter() - start
    if p.returncode != 0:
        sys.exit("%s failed: %s" % (" ".join(argv), err.strip()[-500:]))
    return elapsed, cpu_seconds() - cpu


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--photoedit", default=os.path.join(ROOT, ".build-release", "release", "photoedit"),
                    help="the photoedit binary (default .build-release/release/photoedit)")
    ap.add_argument("-n", "--runs", type=int, default=3, help="timed runs per chain (default 3)")
    ap.add_argument("--size", default="6000x4000", help="input size WxH (default 6000x4000, 24 MP)")
    ap.add_argument("--input", help="a JPEG to use instead of the generated one")
    ap.add_argument("--workdir", help="keep the input and library here")
    ap.add_argument("--json", help="write the figures to this file")
    ap.add_argument("--no-build", action="store_true",
                    help="accepted as the other benchmarks take it; this script never builds (pass --photoedit)")
    ap.add_argument("--v1", action="store_true", help="also time version 1 of clarity, texture and dehaze and version 2 of texture (recipes of those versions)")
    ap.add_argument("--only", help="time only these chains (comma-separated names, e.g. texture,dehaze; exposure is always timed)")
    ap.add_argument("--peer", help="another photoedit build (e.g. before a change): its runs of the same chains, on its own library, "
                    "interleaved with this one's; its rows are marked @peer and their ratios are against its own exposure")
    args = ap.parse_args()
    for binary in [args.photoedit] + ([args.peer] if args.peer else []):
        if not os.access(binary, os.X_OK):
            sys.exit("%s is not an executable; build photoedit or pass --photoedit PATH" % binary)
    chains = CHAINS
    if args.only:
        wanted = {name.strip() for name in args.only.split(",")} | {"exposure"}
        unknown = wanted - {name for name, _ in CHAINS}
        if unknown:
            sys.exit("--only: unknown chain %s (known: %s)" % (", ".join(sorted(unknown)), ", ".join(name for name, _ in CHAINS)))
        chains = [(name, chain) for name, chain in CHAINS if name in wanted]
    if args.runs < 1 or args.runs > 50:
        sys.exit("--runs must be 1…50")
    work = args.workdir or tempfile.mkdtemp(prefix="presence-bench-")
    os.makedirs(work, exist_ok=True)
    try:
        if args.input:
            src = os.path.abspath(args.input)
        else:
            w, h = (int(v) for v in args.size.lower().split("x"))
            src = os.path.join(work, "input-%dx%d.jpg" % (w, h))
            if not os.path.exists(src):
                log("making %s ..." % src)
                make_input(src, w, h, work)
        commands = []
        for binary, suffix in [(args.photoedit, "")] + ([(args.peer, "@peer")] if args.peer else []):
            library = os.path.join(work, "library" + suffix.replace("@", "-"))
            if os.path.exists(library):
                shutil.rmtree(library)
            asset = run([binary, "import", "--library", library, src]).split("\t", 1)[0].strip()
            commands += [(name + suffix, chain, [binary, "apply", "--library", library, "--reset", chain, asset]) for name, chain in chains]
        library = os.path.join(work, "library")
        asset = commands[0][2][-1]
        if args.v1:
            for name, node in VERSION_ONE:
                path = os.path.join(work, name.replace(" ", "-") + ".json")
                with open(path, "w") as f:
                    json.dump({"format": "org.photoedit.recipe", "formatVersion": 1, "filters": [node]}, f)
                commands.append((name, "(recipe, version 1)", [args.photoedit, "apply", "--library", library, "--recipe", path, asset]))
        times = {name: [] for name, _, _ in commands}
        cpus = {name: [] for name, _, _ in commands}
        for name, chain, argv in commands:
            timed(argv)  # warm-up
        for i in range(args.runs):
            for name, chain, argv in commands:
                wall, cpu = timed(argv)
                times[name].append(wall)
                cpus[name].append(cpu)
            log("run %d/%d done" % (i + 1, args.runs))
        base = {suffix: statistics.median(times["exposure" + suffix]) for suffix in ("", "@peer") if "exposure" + suffix in times}
        cpu_base = {suffix: statistics.median(cpus["exposure" + suffix]) for suffix in ("", "@peer") if "exposure" + suffix in cpus}
        print("input: %s (%.1f MB); %d runs each; median seconds, whole command; load average %.2f" %
              (src, os.path.getsize(src) / 1e6, args.runs, os.getloadavg()[0]))
        print("(cpu: user + sys of the command, less sensitive to other load than the wall time; the goal is on the wall ratio)")
        if args.peer:
            print("this build: %s; peer (@peer): %s" % (args.photoedit, args.peer))
        print("%-16s %-20s %9s %8s %7s %8s  %s" % ("filter", "chain", "seconds", "ratio", "cpu s", "cpu rat.", "goal"))
        short = lambda chain: chain if len(chain) <= 20 else chain[:17] + "..."
        ok = True
        results = {}
        for name, chain, _ in commands:
            suffix = "@peer" if name.endswith("@peer") else ""
            plain = name[:-len(suffix)] if suffix else name
            m = statistics.median(times[name])
            ratio = m / base[suffix]
            c = statistics.median(cpus[name])
            reference = suffix or plain in ("exposure", "highlights") or plain.startswith("lens") or plain.endswith((" v1", " v2"))
            met = reference or ratio <= GOAL
            ok = ok and met
            results[name] = {"chain": chain, "median_s": m, "runs_s": times[name], "ratio": ratio,
                             "cpu_median_s": c, "cpu_runs_s": cpus[name], "cpu_ratio": c / cpu_base[suffix]}
            print("%-16s %-20s %9.3f %7.2fx %7.3f %7.2fx  %s" % (name, short(chain), m, ratio, c, c / cpu_base[suffix],
                                                                "-" if reference else ("met" if met else "MISSED") + " (<= %.1fx)" % GOAL))
        if args.json:
            with open(args.json, "w") as f:
                json.dump({"input": src, "runs": args.runs, "results": results}, f, indent=2)
        return 0 if ok else 1
    finally:
        if not args.workdir:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
