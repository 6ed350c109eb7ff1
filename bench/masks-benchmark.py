#!/usr/bin/env python3
"""Local corrections (issue 25): a 24 MP JPEG rendered with two radial, one
linear and one brush correction against the same edit without them, in the
same run, as time and peak-memory ratios (goals: 1.5x, 1.3x); and the warm
1440 px preview of that masked chain through `photoedit serve` (goal: under
150 ms), against the same preview without masks.

Render: `photoedit apply --reset CHAIN ID`, the whole command (start-up,
catalog, decode, filters, sRGB, JPEG encode, commit); each chain once untimed,
then N timed runs interleaved (run 1 of each chain, then run 2, ...) so a
change in machine load hits both alike; medians of wall and CPU time. Peak
memory is each child's ru_maxrss (os.wait4), the largest of its runs.

Preview: GET /v1/assets/ID/preview?chain=...&w=1440&reset=true on a server
started here on loopback (stopped at the end) -- the route the web editor's
live preview asks (app.js runPreview -> api.js preview -> PhotoLibrary.preview);
two untimed requests, then N timed ones interleaved; medians in ms, wall time
of the request. With --peer OTHER_BINARY (e.g. the build before a change), a
second server of that binary on the same library is timed in the same run,
its requests interleaved with this one's (this/without, peer/without,
this/with, peer/with, ...), and the ratios this/peer are printed.
--preview-only skips the renders.

Python 3 standard library only, plus libvips-tools (`vips`) to make the input.
See bench/README.md.
"""

import argparse
import http.client
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse

import importlib.util

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def sibling(name):
    """Another benchmark script of this folder, as a module (its helpers)."""
    spec = importlib.util.spec_from_file_location(name.replace("-", "_"), os.path.join(ROOT, "bench", name + ".py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


make_input = sibling("presence-benchmark").make_input  # coffee.jpg upscaled with grain, Q90
stop = sibling("serve-benchmark").stop
SAMPLE = os.path.join(ROOT, "samples", "coffee.jpg")
TIME_GOAL, MEMORY_GOAL, PREVIEW_GOAL_MS = 1.5, 1.3, 150.0

# The edit without masks, and the same edit with four local corrections.
BASE = "exposure=+0.3,contrast=+15,highlights=-20,saturation=+10"
MASKS = ",".join([
    "local=radial(0.35 0.45 0.2 0.3 feather=0.6) exposure=+0.6 contrast=+10",
    "local=radial(0.7 0.3 0.15 0.2 angle=20 outside) exposure=-0.4 saturation=-20",
    "local=linear(0.5 0 0.5 0.4) exposure=-0.7 temperature=-10",
    "local=brush(r=0.04 0.2/0.7 0.3/0.72 0.4/0.75 0.5/0.74 0.6/0.7 | erase r=0.02 0.4/0.75) exposure=+0.3 shadows=+20",
])
CHAINS = [("without masks", BASE), ("with 4 masks", BASE + "," + MASKS)]


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def run(argv):
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.returncode != 0:
        sys.exit("%s failed (%d): %s" % (" ".join(argv[:3]), r.returncode, r.stderr.strip()[-500:]))
    return r.stdout


def timed(argv):
    """(wall seconds, peak resident MB, CPU seconds) of one command."""
    start = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    _, status, usage = os.wait4(p.pid, 0)
    elapsed = time.perf_counter() - start
    err = p.stderr.read().decode(errors="replace")
    p.stderr.close()
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit("%s failed: %s" % (" ".join(argv[:4]), err.strip()[-500:]))
    return elapsed, usage.ru_maxrss / 1024, usage.ru_utime + usage.ru_stime


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(port, path):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    c.request("GET", path)
    r = c.getresponse()
    body = r.read()
    c.close()
    return r.status, body


def start_server(photoedit, library):
    port = free_port()
    proc = subprocess.Popen([photoedit, "serve", "--library", library, "--port", str(port)],
                            env=dict(os.environ, PHOTOEDIT_LOG_LEVEL="warning"),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    deadline = time.time() + 60
    while time.time() < deadline:
        if proc.poll() is not None:
            sys.exit("photoedit serve exited with %d" % proc.returncode)
        try:
            if get(port, "/health")[0] < 500:
                return proc, port
        except OSError:
            time.sleep(0.1)
    stop(proc)
    sys.exit("photoedit serve did not answer within 60 s")


def previews(binaries, library, asset, runs):
    """Median ms of the 1440 px preview of each chain, warm, for each binary
    (one server each, all running; requests interleaved): {binary: {chain: ms}}."""
    servers = []
    try:
        for binary in binaries:
            servers.append(start_server(binary, library))
        paths = {name: "/v1/assets/%s/preview?%s" % (asset, urllib.parse.urlencode({"chain": chain, "w": 1440, "reset": "true"}))
                 for name, chain in CHAINS}
        for _, port in servers:
            for name, _ in CHAINS:
                for _ in range(2):
                    status, body = get(port, paths[name])
                    if status != 200:
                        sys.exit("preview %s: HTTP %d %s" % (name, status, body[:300]))
        times = [{name: [] for name, _ in CHAINS} for _ in binaries]
        for _ in range(runs):
            for name, _ in CHAINS:
                for i, (_, port) in enumerate(servers):
                    start = time.perf_counter()
                    get(port, paths[name])
                    times[i][name].append((time.perf_counter() - start) * 1000)
        return [{name: statistics.median(v) for name, v in t.items()} for t in times]
    finally:
        for proc, _ in servers:
            stop(proc)


def renders(args, library, asset, src, results):
    """The render figures (time, CPU, peak memory with and without masks), printed; True when the goals are met."""
    times = {name: [] for name, _ in CHAINS}
    cpu = {name: [] for name, _ in CHAINS}
    peaks = {name: 0.0 for name, _ in CHAINS}
    for name, chain in CHAINS:
        timed([args.photoedit, "apply", "--library", library, "--reset", chain, asset])  # warm-up
    for i in range(args.runs):
        for name, chain in CHAINS:
            t, mb, c = timed([args.photoedit, "apply", "--library", library, "--reset", chain, asset])
            times[name].append(t)
            cpu[name].append(c)
            peaks[name] = max(peaks[name], mb)
        log("render run %d/%d done" % (i + 1, args.runs))
    base, masked = (statistics.median(times[name]) for name, _ in CHAINS)
    base_mb, masked_mb = (peaks[name] for name, _ in CHAINS)
    base_cpu, masked_cpu = (statistics.median(cpu[name]) for name, _ in CHAINS)
    results.update({"render_s": {name: times[name] for name, _ in CHAINS}, "cpu_s": cpu, "peak_mb": peaks})
    print("input: %s (%.1f MB); %d runs each; median seconds, whole command" % (src, os.path.getsize(src) / 1e6, args.runs))
    print("%-26s %12s %12s %8s  %s" % ("", "without", "with masks", "ratio", "goal"))
    ok = True
    print("%-26s %12.3f %12.3f %7.2fx  (CPU seconds: the figure a loaded machine distorts least)"
          % ("render CPU (s)", base_cpu, masked_cpu, masked_cpu / base_cpu))
    for label, a, b, goal, fmt in (("render (s)", base, masked, TIME_GOAL, "%12.3f"),
                                   ("peak memory (MB)", base_mb, masked_mb, MEMORY_GOAL, "%12.1f")):
        ratio = b / a
        ok = ok and ratio <= goal
        print(("%-26s " + fmt + " " + fmt + " %7.2fx  %s") % (label, a, b, ratio, ("met" if ratio <= goal else "MISSED") + " (<= %.1fx)" % goal))
    return ok


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--photoedit", default=os.path.join(ROOT, ".build-release", "release", "photoedit"),
                    help="the photoedit binary (default .build-release/release/photoedit)")
    ap.add_argument("-n", "--runs", type=int, default=3, help="timed renders per chain (default 3; previews: 5 x this)")
    ap.add_argument("--size", default="6000x4000", help="input size WxH (default 6000x4000, 24 MP)")
    ap.add_argument("--input", help="a JPEG to use instead of the generated one")
    ap.add_argument("--workdir", help="keep the input and library here")
    ap.add_argument("--no-preview", action="store_true", help="skip the preview figures")
    ap.add_argument("--preview-only", action="store_true", help="skip the renders (the preview figures only)")
    ap.add_argument("--peer", help="another photoedit binary with the server (e.g. the build before a change): "
                                   "its previews are timed in the same run, interleaved, and compared")
    ap.add_argument("--json", help="write the figures to this file")
    args = ap.parse_args()
    for binary in [args.photoedit] + ([args.peer] if args.peer else []):
        if not os.access(binary, os.X_OK):
            sys.exit("%s is not an executable; build photoedit or pass --photoedit PATH" % binary)
    if args.preview_only and args.no_preview:
        sys.exit("--preview-only and --no-preview leave nothing to measure")
    if args.runs < 1 or args.runs > 50:
        sys.exit("--runs must be 1…50")
    work = args.workdir or tempfile.mkdtemp(prefix="masks-bench-")
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
        library = os.path.join(work, "library")
        if os.path.exists(library):
            shutil.rmtree(library)
        asset = run([args.photoedit, "import", "--library", library, src]).split("\t", 1)[0].strip()
        results = {"input": src, "runs": args.runs, "chains": dict(CHAINS)}
        ok = True
        if not args.preview_only:
            ok = renders(args, library, asset, src, results)
        serves = "not in this build" not in run([args.photoedit, "serve", "--help"])
        if not args.no_preview and not serves:
            print("preview: skipped, this build has no HTTP server (the quick start's build without the Server trait)")
        if args.peer and "not in this build" in run([args.peer, "serve", "--help"]):
            sys.exit("%s has no HTTP server: --peer needs a build with the Server trait" % args.peer)
        if not args.no_preview and serves:
            binaries = [args.photoedit] + ([args.peer] if args.peer else [])
            figures = previews(binaries, library, asset, 5 * args.runs)
            ms = figures[0]
            a, b = (ms[name] for name, _ in CHAINS)
            met = b < PREVIEW_GOAL_MS
            ok = ok and met
            results["preview_ms"] = ms
            print("%-26s %12s %12s %8s  %s" % ("warm 1440 px preview, ms", "without", "with masks", "ratio", "goal"))
            print("%-26s %12.1f %12.1f %7.2fx  %s" % ("this build", a, b, b / a,
                                                      ("met" if met else "MISSED") + " (< %.0f ms)" % PREVIEW_GOAL_MS))
            if args.peer:
                pa, pb = (figures[1][name] for name, _ in CHAINS)
                results["peer_preview_ms"] = figures[1]
                print("%-26s %12.1f %12.1f %7.2fx" % ("peer (%s)" % os.path.basename(args.peer)[:19], pa, pb, pb / pa))
                print("%-26s %11.2fx %11.2fx %8s  (each preview's time against the peer's, same run)" % ("this / peer", a / pa, b / pb, ""))
        if args.json:
            with open(args.json, "w") as f:
                json.dump(results, f, indent=2)
        return 0 if ok else 1
    finally:
        if not args.workdir:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
