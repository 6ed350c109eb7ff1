#!/usr/bin/env python3
"""`photoedit serve` against thumbor, serving the same 24 MP JPEGs on the same
machine in the same run, and edits over HTTP against the CLI.

1. Cold thumbnails: every photo fetched once as a 256 px JPEG (fit in
   256x256, quality 85) by a few concurrent clients, both servers freshly
   started with empty caches: requests per second. Goal: photoedit >= 3x thumbor.
   photoedit makes them from the previews it made at import (docs/library-layout.md,
   "Previews"); the import's cost per photo is printed, and one more round with
   the previews removed shows the first display of photos that have none yet.
2. Warm hits: one thumbnail both servers have already made (photoedit's
   image manager; thumbor's file result storage), `wrk` with 64 connections:
   requests per second and p99 latency. Goal: photoedit p99 < 5 ms.
   photoedit's server CPU per hit (its /proc stat over the wrk run / answers)
   for the plain URL (the catalog read that says the photo's current revision)
   and for the revision-addressed one (`&rev=N`, answered from memory).
   Goal: the revision-addressed hit costs at most half the CPU.
3. Peak memory (VmHWM; for thumbor every process summed) of each server.
4. Edits: `POST /v1/assets/{id}/edits` (client-side wall time) against
   `photoedit apply` (process wall time) on copies of the same 24 MP photo,
   each edit a new revision. Goal: HTTP at most 1.2x the CLI.

Needs: python3, libvips-tools (`vips`), `wrk` (Debian), a built photoedit, and
thumbor (PyPI; installed into --thumbor-venv when missing). See bench/README.md.
"""

import argparse
import http.client
import json
import os
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_PHOTOEDIT = os.path.join(ROOT, ".build-release", "release", "photoedit")
DEFAULT_THUMBOR_VENV = os.path.expanduser("~/.cache/photoedit/thumbor-venv")
SAMPLE = os.path.join(ROOT, "samples", "coffee.jpg")
GOAL_COLD_RATIO = 3.0
GOAL_WARM_P99_MS = 5.0
GOAL_EDIT_RATIO = 1.2
GOAL_REV_CPU_RATIO = 0.5
SIZE, QUALITY = 256, 85


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def run(cmd, **kw):
    r = subprocess.run(cmd, capture_output=True, text=True, **kw)
    if r.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd[:8])}\n{r.stderr[-2000:]}")
    return r.stdout


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_http(port, path, proc, timeout=60):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if proc.poll() is not None:
            sys.exit(f"server on port {port} exited with {proc.returncode}")
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            c.request("GET", path)
            r = c.getresponse()
            r.read()
            c.close()
            if r.status < 500:
                return
        except OSError:
            pass
        time.sleep(0.1)
    sys.exit(f"server on port {port} did not answer {path} within {timeout} s")


def process_tree(pid):
    pids, todo = [], [pid]
    while todo:
        p = todo.pop()
        pids.append(p)
        try:
            with open(f"/proc/{p}/task/{p}/children") as f:
                todo += [int(c) for c in f.read().split()]
        except OSError:
            pass
    return pids


def peak_mb(pid):
    """VmHWM of a process and all its descendants, summed (MB)."""
    total = 0
    for p in process_tree(pid):
        try:
            with open(f"/proc/{p}/status") as f:
                m = re.search(r"VmHWM:\s+(\d+) kB", f.read())
                total += int(m.group(1)) if m else 0
        except OSError:
            pass
    return total / 1024


def stop(proc):
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def make_large(folder, count, width, height):
    base = os.path.join(folder, "base.v")
    run(["vips", "thumbnail", SAMPLE, base, str(width), "--height", str(height), "--size", "force"])
    noise = os.path.join(folder, "noise.v")
    files = []
    for i in range(count):
        run(["vips", "gaussnoise", noise, str(width), str(height), "--sigma", "6", "--mean", "0", "--seed", str(i + 1)])
        out = os.path.join(folder, "photos", f"large-{i:03d}.jpg")
        run(["vips", "add", base, noise, out + "[Q=90,strip]"])
        files.append(out)
    os.unlink(noise)
    os.unlink(base)
    return files


def ensure_thumbor(venv):
    exe = os.path.join(venv, "bin", "thumbor")
    if not os.path.exists(exe):
        log(f"installing thumbor into {venv}…")
        run([sys.executable, "-m", "venv", venv])
        run([os.path.join(venv, "bin", "pip"), "install", "-q", "thumbor"])
    version = run([exe, "--version"]).strip()
    return exe, version


class PhotoEditServer:
    def __init__(self, photoedit, library):
        self.port = free_port()
        self.proc = subprocess.Popen(
            [photoedit, "serve", "--library", library, "--port", str(self.port)],
            env=dict(os.environ, PHOTOEDIT_LOG_LEVEL="warning"),
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        wait_http(self.port, "/health", self.proc)

    def thumb_path(self, asset):
        return f"/v1/assets/{asset}/render?w={SIZE}&h={SIZE}&fit=fit&format=jpeg&q={QUALITY}"


class ThumborServer:
    def __init__(self, exe, photos, work):
        self.port = free_port()
        results = os.path.join(work, "thumbor-results")
        shutil.rmtree(results, ignore_errors=True)
        conf = os.path.join(work, "thumbor.conf")
        with open(conf, "w") as f:
            f.write("\n".join([
                "LOADER = 'thumbor.loaders.file_loader'",
                f"FILE_LOADER_ROOT_PATH = {photos!r}",
                "STORAGE = 'thumbor.storages.no_storage'",
                "RESULT_STORAGE = 'thumbor.result_storages.file_storage'",
                f"RESULT_STORAGE_FILE_STORAGE_ROOT_PATH = {results!r}",
                "RESULT_STORAGE_STORES_UNSAFE = True",
                "ALLOW_UNSAFE_URL = True",
                f"QUALITY = {QUALITY}",
                "MAX_AGE = 0",
                "",
            ]))
        # --processes 0: one process per core, as photoedit renders on every core.
        self.proc = subprocess.Popen(
            [exe, "--port", str(self.port), "--ip", "127.0.0.1", "--conf", conf, "--processes", "0",
             "--log-level", "error"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        wait_http(self.port, "/healthcheck", self.proc)

    def thumb_path(self, name):
        return f"/unsafe/fit-in/{SIZE}x{SIZE}/{name}"


def fetch_all(port, paths, clients):
    """Fetch every path once with `clients` concurrent keep-alive connections;
    returns the wall time. Every answer must be a 200 JPEG."""
    chunks = [paths[i::clients] for i in range(clients)]

    def worker(chunk):
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
        for p in chunk:
            c.request("GET", p)
            r = c.getresponse()
            body = r.read()
            if r.status != 200 or body[:2] != b"\xff\xd8":
                raise RuntimeError(f"GET {p}: {r.status} {body[:200]!r}")
        c.close()

    start = time.perf_counter()
    with ThreadPoolExecutor(clients) as pool:
        list(pool.map(worker, chunks))
    return time.perf_counter() - start


def cpu_seconds(pid):
    """User + system CPU seconds of a process so far (/proc/PID/stat)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wrk(port, path, connections, seconds, pid=None):
    cpu = cpu_seconds(pid) if pid else 0.0
    out = run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", f"http://127.0.0.1:{port}{path}"])
    result = parse_wrk(out, path)
    if pid:
        answers = int(re.search(r"(\d+) requests in", out).group(1))
        result["cpu_us_per_hit"] = (cpu_seconds(pid) - cpu) * 1e6 / max(1, answers)
    return result


def parse_wrk(out, path):
    """Requests per second and p99 (ms) from `wrk --latency`'s output; stops on error answers."""
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)\b", out)
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[p99.group(2)]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    if errors:
        sys.exit(f"wrk on {path}: {errors.group(1)} error answers")
    return {"rps": rps, "p99_ms": float(p99.group(1)) * scale}


def import_ids(photoedit, library, paths):
    out = run([photoedit, "import", "--library", library] + paths)
    return [line.split("\t")[0] for line in out.splitlines()]


def edits(photoedit, work, runs, photo):
    """Median wall time of one edit: the CLI (a process per edit) and HTTP
    (one request per edit, the server already running), same photo, same
    chains, each edit a new revision."""
    chains = [f"exposure={0.05 * (i + 1):+.2f},contrast=0.1" for i in range(runs + 1)]
    cli_lib, http_lib = os.path.join(work, "edit-cli"), os.path.join(work, "edit-http")
    cli_id = import_ids(photoedit, cli_lib, [photo])[0]
    http_id = import_ids(photoedit, http_lib, [photo])[0]
    cli_times = []
    for i, chain in enumerate(chains):
        start = time.perf_counter()
        run([photoedit, "apply", "--library", cli_lib, chain, cli_id])
        if i > 0:
            cli_times.append(time.perf_counter() - start)
    server = PhotoEditServer(photoedit, http_lib)
    http_times = []
    try:
        c = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
        for i, chain in enumerate(chains):
            body = json.dumps({"chain": chain})
            start = time.perf_counter()
            c.request("POST", f"/v1/assets/{http_id}/edits", body,
                      {"Content-Type": "application/json", "If-Match": f'"r{i}"'})
            r = c.getresponse()
            answer = r.read()
            if r.status != 200:
                sys.exit(f"edit over HTTP: {r.status} {answer[:300]!r}")
            if i > 0:
                http_times.append(time.perf_counter() - start)
        c.close()
    finally:
        stop(server.proc)
    cli, http_ = statistics.median(cli_times), statistics.median(http_times)
    return {"photo": os.path.basename(photo), "runs": runs, "cli_ms": cli * 1000, "http_ms": http_ * 1000,
            "overhead_ms": (http_ - cli) * 1000, "ratio": http_ / cli}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--photoedit", default=DEFAULT_PHOTOEDIT)
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--thumbor-venv", default=DEFAULT_THUMBOR_VENV)
    ap.add_argument("--count", type=int, default=24, help="24 MP JPEGs (default 24)")
    ap.add_argument("--clients", type=int, default=4, help="concurrent clients for cold thumbnails (default 4)")
    ap.add_argument("-n", "--runs", type=int, default=3, help="cold rounds (default 3)")
    ap.add_argument("--wrk-seconds", type=int, default=10)
    ap.add_argument("--connections", type=int, default=64)
    ap.add_argument("--edit-runs", type=int, default=15)
    ap.add_argument("--workdir")
    ap.add_argument("--json")
    args = ap.parse_args()

    if not args.no_build and args.photoedit == DEFAULT_PHOTOEDIT:
        log("building photoedit (release)…")
        run(["swift", "build", "-c", "release", "--product", "photoedit", "--scratch-path", ".build-release"], cwd=ROOT)
    photoedit = os.path.abspath(args.photoedit)
    if not shutil.which("wrk"):
        sys.exit("wrk is missing (apt-get install wrk)")
    thumbor, thumbor_version = ensure_thumbor(args.thumbor_venv)
    work = os.path.abspath(args.workdir or tempfile.mkdtemp(prefix="photoedit-serve-bench-"))
    os.makedirs(os.path.join(work, "photos"), exist_ok=True)
    results = {"cores": os.cpu_count(), "thumbor": thumbor_version, "photos": args.count,
               "clients": args.clients, "size": SIZE, "quality": QUALITY}

    log(f"making {args.count} 24 MP JPEGs in {work}…")
    photos = make_large(work, args.count, 6000, 4000)
    names = [os.path.basename(p) for p in photos]
    library = os.path.join(work, "library")
    started = time.monotonic()
    ids = import_ids(photoedit, library, photos)
    results["import_ms_per_photo"] = (time.monotonic() - started) * 1000 / len(photos)
    log(f"  import: {results['import_ms_per_photo']:.0f} ms per photo (previews included)")

    cold = {"photoedit": [], "thumbor": []}
    peaks = {"photoedit": 0.0, "thumbor": 0.0}
    warm = {}
    for r in range(args.runs):
        for name in ("photoedit", "thumbor"):
            if name == "photoedit":
                shutil.rmtree(os.path.join(library, "cache"), ignore_errors=True)
                server = PhotoEditServer(photoedit, library)
                paths = [server.thumb_path(i) for i in ids]
            else:
                server = ThumborServer(thumbor, os.path.join(work, "photos"), work)
                paths = [server.thumb_path(n) for n in names]
            try:
                wall = fetch_all(server.port, paths, args.clients)
                cold[name].append(len(paths) / wall)
                log(f"  round {r + 1}: {name} cold {len(paths) / wall:.2f} req/s")
                if r == args.runs - 1:
                    pid = server.proc.pid if name == "photoedit" else None
                    warm[name] = wrk(server.port, paths[0], args.connections, args.wrk_seconds, pid)
                    if pid:
                        addressed = paths[0] + "&rev=0"
                        wrk(server.port, addressed, 8, 1)  # warm: its answer and the memo
                        warm["photoedit-rev"] = wrk(server.port, addressed, args.connections, args.wrk_seconds, pid)
                        log(f"  photoedit warm CPU per hit: plain {warm[name]['cpu_us_per_hit']:.0f} us, "
                            f"rev= {warm['photoedit-rev']['cpu_us_per_hit']:.0f} us")
                    # The same with 8 connections: at 64 on a small machine
                    # the p99 is mostly waiting in line (64 / throughput).
                    warm[name]["p99_ms_8"] = wrk(server.port, paths[0], 8, args.wrk_seconds)["p99_ms"]
                    log(f"  {name} warm {warm[name]['rps']:.0f} req/s, p99 {warm[name]['p99_ms']:.2f} ms")
                peaks[name] = max(peaks[name], peak_mb(server.proc.pid))
            finally:
                stop(server.proc)

    # The first display of photos without previews (a library from before
    # previews): each request makes its photo's preview, then the thumbnail.
    shutil.rmtree(os.path.join(library, "cache"), ignore_errors=True)
    shutil.rmtree(os.path.join(library, "previews"), ignore_errors=True)
    server = PhotoEditServer(photoedit, library)
    try:
        wall = fetch_all(server.port, [server.thumb_path(i) for i in ids], args.clients)
        results["cold_rps_without_previews"] = len(ids) / wall
        log(f"  photoedit cold without previews {len(ids) / wall:.2f} req/s")
    finally:
        stop(server.proc)

    results["cold_rps"] = {k: statistics.median(v) for k, v in cold.items()}
    results["cold_rounds"] = cold
    results["warm"] = warm
    results["peak_mb"] = peaks
    log("edits over HTTP against the CLI…")
    results["edit"] = edits(photoedit, work, args.edit_runs, photos[0])

    ratio = results["cold_rps"]["photoedit"] / results["cold_rps"]["thumbor"]
    e = results["edit"]
    goals = {
        "cold >= 3x thumbor": ratio >= GOAL_COLD_RATIO,
        "warm p99 < 5 ms": warm["photoedit"]["p99_ms"] < GOAL_WARM_P99_MS,
        "edit over HTTP <= 1.2x the CLI": e["ratio"] <= GOAL_EDIT_RATIO,
        "rev= hit <= half the CPU": warm["photoedit-rev"]["cpu_us_per_hit"] <= GOAL_REV_CPU_RATIO * warm["photoedit"]["cpu_us_per_hit"],
    }
    results["cold_ratio"] = ratio
    results["goals"] = goals
    print(f"{'':28} {'photoedit serve':>16} {'thumbor':>12}   ratio")
    print(f"{'cold 256 px (req/s)':28} {results['cold_rps']['photoedit']:16.2f} {results['cold_rps']['thumbor']:12.2f}"
          f"   {ratio:.2f}x  (goal >= {GOAL_COLD_RATIO:g}x)")
    print(f"{'  without previews (req/s)':28} {results['cold_rps_without_previews']:16.2f} {results['cold_rps']['thumbor']:12.2f}"
          f"   {results['cold_rps_without_previews'] / results['cold_rps']['thumbor']:.2f}x  (first display, no preview yet)")
    print(f"import: {results['import_ms_per_photo']:.0f} ms per 24 MP photo, its preview included")
    print(f"{'warm hit (req/s)':28} {warm['photoedit']['rps']:16.0f} {warm['thumbor']['rps']:12.0f}"
          f"   {warm['photoedit']['rps'] / warm['thumbor']['rps']:.2f}x")
    print(f"{'warm p99, 64 conns (ms)':28} {warm['photoedit']['p99_ms']:16.2f} {warm['thumbor']['p99_ms']:12.2f}"
          f"   (goal < {GOAL_WARM_P99_MS:g} ms)")
    print(f"{'warm p99, 8 conns (ms)':28} {warm['photoedit']['p99_ms_8']:16.2f} {warm['thumbor']['p99_ms_8']:12.2f}")
    print(f"{'warm rev= hit (req/s)':28} {warm['photoedit-rev']['rps']:16.0f}")
    plain_cpu, rev_cpu = warm["photoedit"]["cpu_us_per_hit"], warm["photoedit-rev"]["cpu_us_per_hit"]
    print(f"{'server CPU per hit (us)':28} {plain_cpu:16.0f}   rev= {rev_cpu:.0f} us: {rev_cpu / plain_cpu:.2f}x"
          f"  (goal <= {GOAL_REV_CPU_RATIO:g}x)")
    print(f"{'peak memory (MB)':28} {peaks['photoedit']:16.0f} {peaks['thumbor']:12.0f}")
    print(f"edit ({e['photo']}, 24 MP, median of {e['runs']}): HTTP {e['http_ms']:.1f} ms, CLI {e['cli_ms']:.1f} ms,"
          f" {e['ratio']:.2f}x (goal <= {GOAL_EDIT_RATIO:g}x)")
    for goal, met in goals.items():
        print(f"  {'met' if met else 'MISSED'}: {goal}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    if not args.workdir:
        shutil.rmtree(work, ignore_errors=True)
    sys.exit(0 if all(goals.values()) else 1)


if __name__ == "__main__":
    main()
