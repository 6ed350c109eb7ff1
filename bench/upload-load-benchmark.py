#!/usr/bin/env python3
"""Warm render hits of `photoedit serve` while 64 clients upload 7 MB photos.

Issue 42's bar: uploads (streamed to a staging file, hashed, imported with
their previews) run on the server's blocking executor, never on Swift's
cooperative pool or the event loops, so a render hit that is already made
(the image manager's answer cache) stays fast while they run.

1. Idle: `wrk` on one warm hit (a 256 px JPEG of a photo already rendered)
   with --connections connections for --seconds: p99 and requests per second.
2. Loaded: the same `wrk` run while --uploads clients each post distinct
   ~7 MB JPEGs (24 MP) to `POST /v1/assets` one after another, from before
   wrk starts until it ends.
Printed: both p99s and their ratio (goal: loaded p99 <= 2x idle p99), the
uploads answered during wrk and their statuses (every one must be 201), MB/s
uploaded, and the load average. Repeated --runs times, idle and loaded
interleaved; the goal is judged on the median ratio.

Floors of the machine: `--separate-server` (the same uploads to a second
serve process on the same cores) and `--hogs N` (processes at nice +10
instead of uploads) show what sharing the cores alone costs a hit.
`--upload-mb-s R` caps the uploads' throughput (all clients together) to
show the hits' p99 as a function of how fast photos are taken in.

Needs: python3, `vips` (libvips-tools), `wrk`, a release photoedit. See
bench/README.md.
"""

import argparse
import http.client
import importlib.util
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location("serve_benchmark", os.path.join(HERE, "serve-benchmark.py"))
serve = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(serve)

GOAL_P99_RATIO = 2.0


def distinct_copies(bases, count, folder):
    """`count` files with distinct bytes (so each upload is a new photo): a base
    JPEG with a different JPEG comment (COM segment) after its SOI marker."""
    files = []
    datas = []
    for b in bases:
        with open(b, "rb") as f:
            datas.append(f.read())
    for i in range(count):
        data = datas[i % len(datas)]
        text = f"photoedit upload benchmark copy {i}".encode()
        segment = b"\xff\xfe" + (len(text) + 2).to_bytes(2, "big") + text
        out = os.path.join(folder, f"upload-{i:04d}.jpg")
        with open(out, "wb") as f:
            f.write(data[:2] + segment + data[2:])
        files.append(out)
    return files


class Uploader:
    """Clients posting files one after another until told to stop."""

    def __init__(self, port, files, clients, nice=0, rate_mb_s=0.0):
        self.port, self.files, self.clients, self.nice = port, files, clients, nice
        # --upload-mb-s: one budget for all clients together (bytes a second), 0 for none.
        self.rate = rate_mb_s * 1e6
        self.budget_due = 0.0  # when the bytes handed out so far have been earned
        self.next = 0
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.statuses = {}
        self.answered = []  # (end time, bytes)
        self.ran_out = None  # when a client first found no file left
        self.threads = [threading.Thread(target=self.client, daemon=True) for _ in range(clients)]

    def take(self):
        with self.lock:
            if self.next >= len(self.files):
                self.ran_out = self.ran_out or time.monotonic()
                return None
            self.next += 1
            return self.files[self.next - 1]

    def send_paced(self, connection, body):
        """Sends `body` in 64 KiB pieces, each when the shared budget allows it."""
        piece = 65536
        for start in range(0, len(body), piece):
            chunk = body[start:start + piece]
            with self.lock:
                self.budget_due = max(self.budget_due, time.monotonic()) + len(chunk) / self.rate
                due = self.budget_due
            delay = due - time.monotonic()
            if delay > 0:
                time.sleep(delay)
            connection.send(chunk)

    def client(self):
        if self.nice:
            # This client thread only (Linux: a nice value is a thread's).
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), self.nice)
        while not self.stopping.is_set():
            path = self.take()
            if path is None:
                return
            with open(path, "rb") as f:
                body = f.read()
            try:
                c = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
                target = f"/v1/assets?filename={os.path.basename(path)}"
                if self.rate:
                    c.putrequest("POST", target)
                    c.putheader("Content-Type", "image/jpeg")
                    c.putheader("Content-Length", str(len(body)))
                    c.endheaders()
                    self.send_paced(c, body)
                else:
                    c.request("POST", target, body=body, headers={"Content-Type": "image/jpeg"})
                r = c.getresponse()
                r.read()
                c.close()
                status = r.status
            except OSError as e:
                status = f"error: {e.__class__.__name__}"
            with self.lock:
                self.statuses[status] = self.statuses.get(status, 0) + 1
                self.answered.append((time.monotonic(), len(body)))

    def start(self):
        for t in self.threads:
            t.start()

    def stop(self):
        self.stopping.set()
        for t in self.threads:
            t.join()


class Hogs:
    """Processes spinning at nice +10 until told to stop (`--hogs`)."""

    def __init__(self, count, kind="spin", image=None):
        self.count, self.kind, self.image = count, kind, image
        self.procs = []
        self.statuses = {}  # no uploads: nothing answered, nothing refused
        self.answered = []
        self.ran_out = None

    def start(self):
        if self.kind == "decode":
            loop = ["sh", "-c", 'while :; do vips avg "$0" >/dev/null; done', self.image]
        else:
            loop = [sys.executable, "-c", "while True: pass"]
        env = dict(os.environ, VIPS_CONCURRENCY="1")
        self.procs = [subprocess.Popen(["nice", "-n", "10"] + loop, env=env, process_group=0)
                      for _ in range(self.count)]

    def stop(self):
        for p in self.procs:
            os.killpg(p.pid, 9)
            p.wait()


def hits(port, path, connections, seconds, pace_ms, work):
    """`wrk` on the warm hit: back to back, or paced (each connection waits
    `pace_ms` after an answer before its next request: a steady stream of
    requests well below what the server can answer, as a service sees it)."""
    if not pace_ms:
        return serve.wrk(port, path, connections, seconds)
    script = os.path.join(work, "pace.lua")
    with open(script, "w") as f:
        f.write(f"function delay()\n  return {pace_ms}\nend\n")
    out = serve.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "-s", script,
                     f"http://127.0.0.1:{port}{path}"])
    return serve.parse_wrk(out, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--photoedit", default=serve.DEFAULT_PHOTOEDIT)
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--uploads", type=int, default=64, help="concurrent upload clients (default 64)")
    ap.add_argument("--connections", type=int, default=8, help="wrk connections on the warm hit (default 8)")
    ap.add_argument("--seconds", type=int, default=10, help="each wrk run (default 10)")
    ap.add_argument("-n", "--runs", type=int, default=3)
    ap.add_argument("--workdir")
    ap.add_argument("--pace-ms", type=float, default=0,
                    help="each wrk connection waits this long between a hit's answer and its next request "
                         "(0: back to back, as many hits as the server answers)")
    ap.add_argument("--revision-url", action="store_true",
                    help="hit the photo's revision-addressed URL (`&rev=N`, immutable, answered from memory) "
                         "instead of its current-version URL (revalidated: one catalog read per hit)")
    ap.add_argument("--clients-nice", type=int, default=0,
                    help="nice value of the upload clients' threads (e.g. 19: clients standing in for other "
                         "machines, their own CPU not taken from the server's cores; default 0)")
    ap.add_argument("--upload-mb-s", type=float, default=0, metavar="MB/S",
                    help="the upload clients together send at most this many MB a second (0: as fast as the server "
                         "reads): what the hits' p99 costs at a given upload throughput. Give fewer --uploads and a "
                         "longer --warmup with it, so uploads are being answered (decoded, imported) during wrk")
    ap.add_argument("--warmup", type=float, default=2,
                    help="seconds between starting the uploads and starting the loaded wrk run (default 2)")
    ap.add_argument("--hogs", type=int, default=0, metavar="N",
                    help="instead of uploads, N processes at nice +10 (what they do: --hog-kind): the floor, "
                         "what sharing the cores with work at that priority alone costs a hit")
    ap.add_argument("--hog-kind", choices=["spin", "decode"], default="spin",
                    help="what each --hogs process does: spin (CPU only), or decode (`vips avg` of a 24 MP JPEG "
                         "in a loop, one thread: the memory traffic of an import's decode, without the server)")
    ap.add_argument("--separate-server", action="store_true",
                    help="the uploads go to a second `photoedit serve` (its own process and library) on the same "
                         "cores: the floor of this machine, what sharing the cores costs a hit without sharing the process")
    ap.add_argument("--json")
    args = ap.parse_args()

    if not args.no_build and args.photoedit == serve.DEFAULT_PHOTOEDIT:
        serve.log("building photoedit (release)…")
        serve.run(["swift", "build", "-c", "release", "--product", "photoedit", "--scratch-path", ".build-release"],
                  cwd=serve.ROOT)
    photoedit = os.path.abspath(args.photoedit)
    if not shutil.which("wrk"):
        sys.exit("wrk is missing (apt-get install wrk)")
    work = os.path.abspath(args.workdir or tempfile.mkdtemp(prefix="photoedit-upload-bench-"))
    os.makedirs(os.path.join(work, "photos"), exist_ok=True)

    serve.log("making 24 MP JPEGs…")
    bases = serve.make_large(work, 4, 6000, 4000)
    mb = statistics.mean(os.path.getsize(b) for b in bases) / 1e6
    # Enough distinct files that the clients never run out during a loaded run: at least
    # 4 a client, one a client every 2 s, and 4 a second (what a few fast clients take).
    per_run = max(args.uploads * 4, int(args.uploads * args.seconds / 2), int(4 * (args.warmup + args.seconds)))
    copies = distinct_copies(bases, per_run * args.runs, os.path.join(work, "photos"))
    library = os.path.join(work, "library")
    photo = serve.import_ids(photoedit, library, [serve.SAMPLE])[0]
    server = serve.PhotoEditServer(photoedit, library)
    target = server
    if args.separate_server:
        other = os.path.join(work, "library-uploads")
        serve.import_ids(photoedit, other, [serve.SAMPLE])
        target = serve.PhotoEditServer(photoedit, other)
    hit = server.thumb_path(photo) + ("&rev=0" if args.revision_url else "")
    results = {"cores": os.cpu_count(), "upload_mb": round(mb, 1), "uploads": args.uploads,
               "connections": args.connections, "runs": []}
    try:
        serve.wrk(server.port, hit, args.connections, 2)  # makes the render, warms the answer cache
        for r in range(args.runs):
            idle = hits(server.port, hit, args.connections, args.seconds, args.pace_ms, work)
            files = copies[r * per_run:(r + 1) * per_run]
            uploader = Hogs(args.hogs, args.hog_kind, bases[0]) if args.hogs else Uploader(target.port, files, args.uploads, args.clients_nice, args.upload_mb_s)
            uploader.start()
            time.sleep(args.warmup)  # every client has a request under way
            began = time.monotonic()
            loaded = hits(server.port, hit, args.connections, args.seconds, args.pace_ms, work)
            ended = time.monotonic()
            uploader.stop()
            during = [n for t, n in uploader.answered if began <= t <= ended]
            load = os.getloadavg()[0]
            if uploader.ran_out and uploader.ran_out < ended:
                serve.log(f"  (the upload clients ran out of files {ended - uploader.ran_out:.1f} s before wrk ended: "
                          "this run's load was lighter at its end)")
            run = {"idle_p99_ms": idle["p99_ms"], "loaded_p99_ms": loaded["p99_ms"],
                   "ratio": loaded["p99_ms"] / idle["p99_ms"], "idle_rps": idle["rps"], "loaded_rps": loaded["rps"],
                   "uploads_during": len(during), "upload_mb_s": sum(during) / 1e6 / (ended - began),
                   "statuses": {str(k): v for k, v in uploader.statuses.items()}, "load": load}
            results["runs"].append(run)
            load_name = (f"{args.hogs} {args.hog_kind} hogs at nice 10" if args.hogs
                         else f"{args.uploads} uploads" + (" to another server" if args.separate_server else "")
                         + (f" capped at {args.upload_mb_s:g} MB/s" if args.upload_mb_s else ""))
            serve.log(f"  run {r + 1}: warm hit p99 idle {idle['p99_ms']:.2f} ms, under {load_name} "
                      f"{loaded['p99_ms']:.2f} ms = {run['ratio']:.2f}x; {len(during)} uploads answered during "
                      f"wrk ({run['upload_mb_s']:.0f} MB/s), statuses {run['statuses']}, load {load:.1f}")
    finally:
        serve.stop(server.proc)
        if target is not server:
            serve.stop(target.proc)

    ratio = statistics.median(r["ratio"] for r in results["runs"])
    bad = {k: v for r in results["runs"] for k, v in r["statuses"].items() if k != "201"}
    results["median_ratio"] = ratio
    under = (f"{args.hogs} processes at nice +10 each decoding a 24 MP JPEG over and over" if args.hog_kind == "decode"
                                    else f"{args.hogs} processes spinning at nice +10") if args.hogs else f"{args.uploads} concurrent {mb:.1f} MB uploads" + (
                                        " to another photoedit serve on the same cores" if args.separate_server else "") + (
                                        f" capped at {args.upload_mb_s:g} MB/s together" if args.upload_mb_s else "")
    print(f"warm render hit p99 under {under} / idle: median {ratio:.2f}x "
          f"(goal <= {GOAL_P99_RATIO}x); idle p99 {statistics.median(r['idle_p99_ms'] for r in results['runs']):.2f} ms, "
          f"loaded {statistics.median(r['loaded_p99_ms'] for r in results['runs']):.2f} ms; "
          f"{os.cpu_count()} cores; uploads not 201: {bad or 'none'}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)
    if not args.workdir:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if ratio <= GOAL_P99_RATIO and not bad else 1


if __name__ == "__main__":
    sys.exit(main())
