#!/usr/bin/env python3
"""Times `photoedit apply exposure=+0.3,crop=0.1:0.1:0.8:0.8` on a ~24 MP JPEG
against peers doing the same work on the same file, in one run.

Peers: the vips CLI (a full chain through .v files, and a minimal two-command
lower bound), pyvips running the very same pipeline in one process (libvips'
own time, if pyvips is installed), and ImageMagick 6 `convert`.

Each tool runs once untimed (warm-up), then N timed runs, interleaved (run 1 of
every tool, then run 2 of every tool, ...) so a change in machine load hits all
tools alike. Wall time is measured around the whole child process (for a chain
of commands, around the whole chain); peak memory is each child's ru_maxrss
from os.wait4 (for a chain, the largest of its commands).

Python 3 standard library only. See bench/README.md.
"""

import argparse
import json
import math
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DEFAULT_PHOTOEDIT = os.path.join(ROOT, ".build-release", "release", "photoedit")
SAMPLE = os.path.join(ROOT, "samples", "coffee.jpg")

EV = 0.3
CROP = (0.1, 0.1, 0.8, 0.8)  # normalized x:y:w:h, top-left origin
QUALITY = 92  # photoedit's full-size render quality (Renderer.renderQuality)
CHAIN = "exposure=+0.3,crop=0.1:0.1:0.8:0.8"

# The goals of issue 2, section 7.
GOAL_VS_LIBVIPS = 1.3  # photoedit time <= 1.3 x libvips' own time
GOAL_VS_IMAGEMAGICK = 3.0  # ImageMagick time >= 3 x photoedit time
GOAL_PEAK_MB = 300.0

# photoedit's pipeline, step for step (Sources/PhotoEdit/Render/Renderer.swift,
# Filters/Tone/Exposure.swift, Filters/Geometry/Crop.swift), in one pyvips process. It prints
# the time from load to the end of the save, i.e. without the interpreter's
# start-up and `import pyvips`.
PYVIPS_PIPELINE = r'''
import json, sys, time
t0 = time.perf_counter()
import pyvips
t1 = time.perf_counter()
src, dst, gain, left, top, width, height, quality = sys.argv[1:9]
gain = float(gain)
left, top, width, height, quality = (int(v) for v in (left, top, width, height, quality))
im = pyvips.Image.new_from_file(src, access="sequential", fail_on="truncated")
im = im.colourspace("scrgb")                                  # sRGB -> linear float
im = im.linear([gain, gain, gain], [0, 0, 0])                 # exposure: x 2^EV
im = im.extract_area(left, top, width, height)               # crop (normalized rect)
im = im.colourspace("srgb").cast("uchar")                    # back to sRGB 8-bit
im = im.copy()
im.set_type(pyvips.GValue.blob_type, "icc-profile-data", pyvips.Image.profile_load("srgb"))
im.set_type(pyvips.GValue.gint_type, "orientation", 1)
im.jpegsave(dst, Q=quality)
t2 = time.perf_counter()
print(json.dumps({"import_s": t1 - t0, "pipeline_s": t2 - t1,
                  "libvips": pyvips.version(0), "libvips_minor": pyvips.version(1),
                  "libvips_micro": pyvips.version(2), "pyvips": pyvips.__version__,
                  "api_mode": bool(pyvips.API_mode)}))
'''


# ---------------------------------------------------------------------------
# small helpers

def log(msg):
    print(msg, file=sys.stderr, flush=True)


def die(msg):
    log("apply-benchmark: " + msg)
    sys.exit(2)


def capture(argv, **kw):
    """Runs argv, returns stdout (str); raises with stderr on failure."""
    r = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kw)
    if r.returncode != 0:
        raise RuntimeError("%s: exit %d: %s" % (" ".join(argv), r.returncode, r.stderr.strip()))
    return r.stdout


def round_half_up(x):
    # Swift's .rounded() (schoolbook rounding), as photoedit's crop uses it.
    return int(math.floor(x + 0.5))


def crop_box(width, height):
    """The pixel rectangle photoedit's crop=X:Y:W:H takes (Filters/Geometry/Crop.swift)."""
    x, y, w, h = CROP
    left, top = round_half_up(x * width), round_half_up(y * height)
    cw = min(max(1, round_half_up(w * width)), width - min(left, width - 1))
    ch = min(max(1, round_half_up(h * height)), height - min(top, height - 1))
    return min(left, width - 1), min(top, height - 1), cw, ch


def image_size(path):
    out = capture(["vipsheader", "-f", "width", path]).strip()
    h = capture(["vipsheader", "-f", "height", path]).strip()
    return int(out), int(h)


def chroma(path):
    r = subprocess.run(["vipsheader", "-f", "jpeg-chroma-subsample", path], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    return r.stdout.strip() or "?"


def has_icc(path):
    r = subprocess.run(["vipsheader", "-a", path], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return "icc-profile-data" in r.stdout


def cpu_busy_seconds():
    """System-wide busy CPU time (all cores, seconds) from /proc/stat, or None."""
    try:
        with open("/proc/stat") as f:
            fields = [int(v) for v in f.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    idle = fields[3] + (fields[4] if len(fields) > 4 else 0)  # idle + iowait
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


def wait_idle(limit_s, ncpu):
    """Waits (up to limit_s) until the machine has been nearly idle (< 10% of
    one core) for 3 consecutive 2-second samples. Returns the last busy share."""
    deadline = time.monotonic() + limit_s
    quiet = 0
    share = None
    while time.monotonic() < deadline:
        a = cpu_busy_seconds()
        time.sleep(2)
        b = cpu_busy_seconds()
        if a is None or b is None:
            return None
        share = (b - a) / 2  # cores busy
        quiet = quiet + 1 if share < 0.1 else 0
        if quiet >= 3:
            return share
        log("waiting for an idle machine: %.2f of %d cores busy" % (share, ncpu))
    return share


def machine_info():
    info = {"nproc": len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()}
    model = None
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    info["cpu"] = model or platform.processor() or "unknown"
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemTotal:"):
                    info["mem_gb"] = round(int(line.split()[1]) / 1024 / 1024, 1)
    except OSError:
        pass
    info["kernel"] = platform.release()
    info["os"] = ""
    try:
        with open("/etc/os-release") as f:
            for line in f:
                if line.startswith("PRETTY_NAME="):
                    info["os"] = line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    info["loadavg"] = os.getloadavg()
    return info


def newest_source_mtime():
    newest = 0.0
    for base in ("Sources", "Package.swift", "Package.resolved"):
        path = os.path.join(ROOT, base)
        if os.path.isfile(path):
            newest = max(newest, os.path.getmtime(path))
        for folder, _, files in os.walk(path):
            for f in files:
                newest = max(newest, os.path.getmtime(os.path.join(folder, f)))
    return newest


def versions(photoedit):
    v = {}
    v["libvips"] = capture(["vips", "--version"]).strip() if shutil.which("vips") else None
    if shutil.which("convert"):
        first = capture(["convert", "-version"]).splitlines()[0]
        v["imagemagick"] = first.replace("Version: ", "")
    try:
        v["photoedit_commit"] = capture(["git", "-C", ROOT, "rev-parse", "--short", "HEAD"]).strip()
        dirty = capture(["git", "-C", ROOT, "status", "--porcelain", "--", "Sources", "Package.swift", "Package.resolved"]).strip()
        if dirty:
            v["photoedit_commit"] += " (+ uncommitted changes in Sources)"
        if os.path.getmtime(os.path.realpath(photoedit)) < newest_source_mtime():
            v["photoedit_commit"] += " (WARNING: the binary is older than Sources/; rebuild or drop --no-build)"
    except (RuntimeError, OSError):
        v["photoedit_commit"] = None
    try:
        v["swift"] = capture(["swift", "--version"], stdin=subprocess.DEVNULL).splitlines()[0] if shutil.which("swift") else None
    except (RuntimeError, IndexError):
        v["swift"] = None
    v["python"] = platform.python_version()
    return v


# ---------------------------------------------------------------------------
# running and measuring a child

class Failed(Exception):
    pass


def run_measured(argv, env, workdir, tag):
    """Runs one command; returns (wall seconds, ru_maxrss in KiB, stdout text, CPU seconds)."""
    out_path = os.path.join(workdir, "log", tag + ".out")
    err_path = os.path.join(workdir, "log", tag + ".err")
    with open(out_path, "wb") as out, open(err_path, "wb") as err:
        t0 = time.perf_counter()
        p = subprocess.Popen(argv, stdout=out, stderr=err, stdin=subprocess.DEVNULL, env=env)
        _, status, usage = os.wait4(p.pid, 0)
        t1 = time.perf_counter()
    p.returncode = os.waitstatus_to_exitcode(status)  # reaped by wait4, tell Popen
    if p.returncode != 0:
        with open(err_path, errors="replace") as f:
            raise Failed("%s: exit %d: %s" % (" ".join(argv), p.returncode, f.read().strip()[-2000:]))
    with open(out_path, errors="replace") as f:
        text = f.read()
    return t1 - t0, usage.ru_maxrss, text, usage.ru_utime + usage.ru_stime


class Tool:
    """One contender: a list of commands run one after the other (timed as a whole)."""

    def __init__(self, key, label, commands, output, env, before=None, after=None, note=""):
        self.key = key
        self.label = label
        self.commands = commands  # list of argv lists
        self.output = output  # where the final JPEG ends up (None: found by `after`)
        self.env = env
        self.before = before  # untimed, before each run
        self.after = after  # untimed, after each run: gets stdout, may return the output path
        self.note = note
        self.times = []
        self.rss_kib = []
        self.extra = []  # per-run data reported by the child (pyvips)
        self.error = None
        self.cpu = []  # user + system CPU seconds of each timed run

    def run(self, workdir, tag):
        if self.before:
            self.before()
        total = 0.0
        peak = 0
        cpu = 0.0
        text = ""
        for i, argv in enumerate(self.commands):
            dt, rss, text, c = run_measured(argv, self.env, workdir, "%s-%s-%d" % (self.key, tag, i))
            total += dt
            peak = max(peak, rss)
            cpu += c
        if self.after:
            result = self.after(text)
            if result:
                self.output = result
        self.last_cpu = cpu
        return total, peak, text


# ---------------------------------------------------------------------------

def make_input(path, width, height, sigma, quality, work):
    """Upscales samples/coffee.jpg to width x height, adds luminance grain
    (Gaussian, mean 0, `sigma` levels of 255) so the JPEG has camera-like
    entropy, and saves it at `quality` with 4:2:0 chroma like a camera."""
    up = os.path.join(work, "up.v")
    noise = os.path.join(work, "noise.v")
    grain = os.path.join(work, "grain.v")
    capture(["vips", "thumbnail", SAMPLE, up, str(width), "--height", str(height), "--size", "force"])
    if sigma > 0:
        capture(["vips", "gaussnoise", noise, str(width), str(height), "--sigma", str(sigma), "--mean", "0"])
        capture(["vips", "add", up, noise, grain])
    else:
        grain = up
    capture(["vips", "cast", grain, "%s[Q=%d,subsample-mode=on,strip]" % (path, quality), "uchar"])
    for f in (up, noise, grain):
        if os.path.exists(f) and f.endswith(".v"):
            os.unlink(f)


def ensure_photoedit(args):
    if args.photoedit:
        path = os.path.abspath(args.photoedit)
        if not os.access(path, os.X_OK):
            die("--photoedit %s is not an executable" % path)
        return path
    if not args.no_build:
        if shutil.which("swift"):
            log("building photoedit (release, static Swift stdlib, --scratch-path .build-release) ...")
            r = subprocess.run(["swift", "build", "-c", "release", "--static-swift-stdlib", "--scratch-path", ".build-release", "--product", "photoedit"],
                               cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if r.returncode != 0:
                die("swift build failed:\n" + r.stdout[-3000:])
        elif not os.access(DEFAULT_PHOTOEDIT, os.X_OK):
            die("no swift to build photoedit and no %s; pass --photoedit PATH" % DEFAULT_PHOTOEDIT)
    if not os.access(DEFAULT_PHOTOEDIT, os.X_OK):
        die("%s does not exist; build it or pass --photoedit PATH" % DEFAULT_PHOTOEDIT)
    return DEFAULT_PHOTOEDIT


def pyvips_available(env):
    r = subprocess.run([sys.executable, "-c", "import pyvips, json; print(json.dumps([pyvips.__version__, bool(pyvips.API_mode)]))"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    if r.returncode != 0:
        return None, r.stderr.strip().splitlines()[-1] if r.stderr.strip() else "import failed"
    version, api = json.loads(r.stdout)
    return "pyvips %s (%s mode)" % (version, "API" if api else "ABI"), None


def imagemagick_is_6():
    if not shutil.which("convert"):
        return False, "convert not found"
    r = subprocess.run(["convert", "-version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    first = r.stdout.splitlines()[0] if r.stdout else ""
    if "ImageMagick 6" not in first:
        return False, "convert is not ImageMagick 6 (%s)" % first
    return True, first


def mean_de00(a, b, work):
    """Mean and max CIEDE2000 between two images of the same size (vips dE00)."""
    de = os.path.join(work, "de.v")
    capture(["vips", "dE00", a, b, de])
    mean = float(capture(["vips", "avg", de]).strip())
    mx = float(capture(["vips", "max", de]).strip())
    os.unlink(de)
    return mean, mx


def fmt(x, digits=3):
    return "-" if x is None else ("%.*f" % (digits, x))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--input", help="use this JPEG instead of generating a 24 MP one from samples/coffee.jpg")
    ap.add_argument("--photoedit", help="photoedit binary (default: build and use .build-release/release/photoedit)")
    ap.add_argument("--no-build", action="store_true", help="do not run `swift build`; use the existing binary")
    ap.add_argument("-n", "--runs", type=int, default=5, help="timed runs per tool (default 5)")
    ap.add_argument("--warmup", type=int, default=1, help="untimed runs per tool first (default 1)")
    ap.add_argument("--size", default="6000x4000", help="size of the generated input (default 6000x4000)")
    ap.add_argument("--noise", type=float, default=6.0, help="grain sigma added to the generated input (default 6; 0 = none)")
    ap.add_argument("--only", help="comma-separated tools to run: photoedit,pyvips,vips-chain,vips-min,imagemagick")
    ap.add_argument("--vips-concurrency", type=int, help="set VIPS_CONCURRENCY for every child (default: libvips' own choice)")
    ap.add_argument("--wait-idle", type=float, default=0, metavar="SECONDS",
                    help="first wait up to SECONDS for the machine to be idle (default 0: do not wait)")
    ap.add_argument("--workdir", help="where the input, library and outputs go (default: a new temporary folder, removed at the end)")
    ap.add_argument("--keep", action="store_true", help="keep the temporary folder")
    ap.add_argument("--json", dest="json_out", help="also write the results as JSON to this file")
    ap.add_argument("--markdown", action="store_true", help="also print the table as Markdown")
    args = ap.parse_args()

    if args.runs < 1:
        die("--runs must be at least 1")
    for exe in ("vips", "vipsheader"):
        if not shutil.which(exe):
            die("%s not found (apt-get install libvips-tools)" % exe)
    wanted = None
    if args.only:
        wanted = set(s.strip() for s in args.only.split(","))
        wanted.add("photoedit")

    env = dict(os.environ)
    if args.vips_concurrency:
        env["VIPS_CONCURRENCY"] = str(args.vips_concurrency)

    photoedit = ensure_photoedit(args)

    own_workdir = args.workdir is None
    work = tempfile.mkdtemp(prefix="photoedit-bench-") if own_workdir else os.path.abspath(args.workdir)
    os.makedirs(os.path.join(work, "log"), exist_ok=True)
    # The vips CLI chain passes images between commands as .v files: in RAM if possible.
    shm_base = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else work
    shm = tempfile.mkdtemp(prefix="photoedit-bench-v-", dir=shm_base)

    try:
        return bench(args, env, photoedit, work, shm, wanted)
    finally:
        shutil.rmtree(shm, ignore_errors=True)
        if own_workdir and not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        elif own_workdir:
            log("kept %s" % work)


def bench(args, env, photoedit, work, shm, wanted):
    machine = machine_info()
    vers = versions(photoedit)

    # 1. The input.
    if args.input:
        src = os.path.abspath(args.input)
        if not os.path.isfile(src):
            die("--input %s: no such file" % src)
        how = "given with --input"
    else:
        try:
            w, h = (int(v) for v in args.size.lower().split("x"))
        except ValueError:
            die("--size must be WxH")
        src = os.path.join(work, "input-%dx%d.jpg" % (w, h))
        log("making %s from samples/coffee.jpg ..." % os.path.basename(src))
        make_input(src, w, h, args.noise, 90, work)
        how = "samples/coffee.jpg upscaled (vips thumbnail --size force), grain sigma %g, Q90 4:2:0" % args.noise
    width, height = image_size(src)
    left, top, cw, ch = crop_box(width, height)
    gain = 2.0 ** EV
    input_info = {"path": src, "how": how, "width": width, "height": height,
                  "megapixels": round(width * height / 1e6, 1), "bytes": os.path.getsize(src)}
    log("input: %dx%d (%.1f MP), %.1f MB; crop %dx%d+%d+%d, gain %.6f" % (
        width, height, width * height / 1e6, input_info["bytes"] / 1e6, cw, ch, left, top, gain))

    # sRGB profile for ImageMagick (libvips' built-in one, as photoedit embeds).
    icc = os.path.join(work, "srgb.icc")
    tmp_jpg = os.path.join(work, "icc-carrier.jpg")
    capture(["vips", "black", tmp_jpg + "[profile=srgb]", "8", "8", "--bands", "3"])
    if shutil.which("convert"):
        capture(["convert", tmp_jpg, icc])

    # 2. photoedit: a fresh library, the import untimed.
    library = os.path.join(work, "library")
    out = capture([photoedit, "import", "--library", library, src], env=env)
    asset = out.split("\t", 1)[0].strip()
    if not asset:
        die("photoedit import printed no id: %r" % out)
    log("photoedit: imported as %s" % asset)

    def photoedit_output(stdout):
        # "ID<TAB>REVISION": the render of that revision.
        rev = stdout.strip().splitlines()[-1].split("\t")[1]
        folder = os.path.join(library, "renders", asset[:2], asset)
        hits = [f for f in os.listdir(folder) if f.startswith(rev + "-")]
        if len(hits) != 1:
            raise Failed("cannot find the render of revision %s in %s" % (rev, folder))
        return os.path.join(folder, hits[0])

    tools = []
    tools.append(Tool(
        "photoedit", "photoedit apply",
        [[photoedit, "apply", "--library", library, "--reset", CHAIN, asset]],
        None, env, after=photoedit_output,
        note="whole command: start-up, catalog, render (decode, scRGB, x2^0.3, crop, sRGB, ICC, Q92), fsync, commit"))

    def remover(path):
        return lambda: os.path.exists(path) and os.unlink(path)

    # pyvips: photoedit's pipeline in one process.
    pyvips_label, why = pyvips_available(env)
    if pyvips_label:
        vers["pyvips"] = pyvips_label
        o = os.path.join(work, "pyvips.jpg")
        tools.append(Tool(
            "pyvips", "pyvips, same pipeline",
            [[sys.executable, "-c", PYVIPS_PIPELINE, src, o, repr(gain), str(left), str(top), str(cw), str(ch), str(QUALITY)]],
            o, env, before=remover(o),
            note="one process: python start-up + import pyvips + the pipeline"))
    else:
        log("pyvips: skipped (%s)" % why)
        vers["pyvips"] = None

    # vips CLI, full chain: the same maths, one operation per command, .v files in tmpfs.
    a, b, c = (os.path.join(shm, n) for n in ("a.v", "b.v", "c.v"))
    o = os.path.join(work, "vips-chain.jpg")
    chain_cmds = [
        ["vips", "extract_area", src, a, str(left), str(top), str(cw), str(ch)],
        ["vips", "colourspace", a, b, "scrgb"],
        ["vips", "linear", b, c, repr(gain), "0"],
        ["vips", "colourspace", c, "%s[Q=%d,profile=srgb]" % (o, QUALITY), "srgb"],
    ]

    def chain_cleanup(paths):
        def f():
            for p in paths:
                if os.path.exists(p):
                    os.unlink(p)
        return f
    tools.append(Tool("vips-chain", "vips CLI, full chain (4 cmds)", chain_cmds, o, env,
                      before=chain_cleanup([a, b, c, o]),
                      note="extract_area -> colourspace scrgb -> linear -> colourspace srgb + save Q92 with sRGB profile"))

    # vips CLI, minimal: crop, then one multiply on the 8-bit values (not the same colour maths).
    m = os.path.join(shm, "m.v")
    o = os.path.join(work, "vips-min.jpg")
    tools.append(Tool("vips-min", "vips CLI, minimal (2 cmds)", [
        ["vips", "extract_area", src, m, str(left), str(top), str(cw), str(ch)],
        ["vips", "linear", m, "%s[Q=%d]" % (o, QUALITY), repr(gain), "0", "--uchar"],
    ], o, env, before=chain_cleanup([m, o]),
        note="lower bound: decode, crop, one multiply in gamma space, encode; no linear light, no profile"))

    ok6, im_first = imagemagick_is_6()
    if ok6:
        o = os.path.join(work, "imagemagick.jpg")
        tools.append(Tool("imagemagick", "ImageMagick 6 convert", [[
            "convert", src, "-crop", "%dx%d+%d+%d" % (cw, ch, left, top), "+repage",
            "-colorspace", "RGB", "-evaluate", "Multiply", repr(gain), "-colorspace", "sRGB",
            "-profile", icc, "-quality", str(QUALITY), "-sampling-factor", "1x1", o]], o, env, before=remover(o),
            note="crop first (least work for ImageMagick), linear RGB, multiply, sRGB, profile, Q92 4:4:4 like libvips"))
    else:
        log("imagemagick: skipped (%s)" % im_first)

    if wanted:
        tools = [t for t in tools if t.key in wanted]

    # 3. Warm-up, then interleaved timed runs.
    for t in tools:
        for i in range(args.warmup):
            try:
                t.run(work, "warmup%d" % i)
            except Failed as e:
                t.error = str(e)
                log("%s: FAILED: %s" % (t.key, e))
    tools = [t for t in tools if t.error is None] + [t for t in tools if t.error is not None]
    if args.wait_idle > 0:
        wait_idle(args.wait_idle, machine["nproc"])
    busy0, wall0 = cpu_busy_seconds(), time.perf_counter()
    for r in range(args.runs):
        for t in tools:
            if t.error:
                continue
            try:
                dt, peak, text = t.run(work, "run%d" % r)
            except Failed as e:
                t.error = str(e)
                log("%s: FAILED: %s" % (t.key, e))
                continue
            t.times.append(dt)
            t.rss_kib.append(peak)
            t.cpu.append(t.last_cpu)
            if t.key == "pyvips":
                t.extra.append(json.loads(text.strip().splitlines()[-1]))
            log("run %d/%d  %-32s %7.3f s  %6.1f MB" % (r + 1, args.runs, t.label, dt, peak / 1024))

    busy1, wall1 = cpu_busy_seconds(), time.perf_counter()
    ours = sum(sum(t.cpu) for t in tools)
    if busy0 is not None and busy1 is not None:
        # CPU time other processes used while the timed runs ran (the
        # script's own bookkeeping is included, and is small).
        machine["foreign_cpu_s"] = max(0.0, (busy1 - busy0) - ours)
        machine["foreign_cores"] = machine["foreign_cpu_s"] / (wall1 - wall0)
        machine["timed_wall_s"] = wall1 - wall0

    # A pseudo-row: pyvips' pipeline alone (from load to end of save), measured inside the process.
    rows = []
    for t in tools:
        if t.error or not t.times:
            continue
        rows.append({"key": t.key, "tool": t.label, "times": t.times, "median": statistics.median(t.times),
                     "min": min(t.times), "peak_mb": max(t.rss_kib) / 1024, "note": t.note,
                     "cpu_median": statistics.median(t.cpu),
                     "commands": t.commands, "output": t.output})
        if t.key == "pyvips" and t.extra:
            pt = [e["pipeline_s"] for e in t.extra]
            rows.append({"key": "pyvips-pipeline", "tool": "  pyvips pipeline only", "times": pt,
                         "median": statistics.median(pt), "min": min(pt), "peak_mb": max(t.rss_kib) / 1024,
                         "note": "the same runs, timed inside the process from load to end of save (no interpreter start-up, no import)",
                         "cpu_median": None,
                         "commands": [], "output": t.output})
            vers["pyvips_import_s"] = statistics.median(e["import_s"] for e in t.extra)

    pe = next((r for r in rows if r["key"] == "photoedit"), None)
    if pe is None:
        die("photoedit did not run: %s" % next(t.error for t in tools if t.key == "photoedit"))
    for r in rows:
        r["ratio"] = r["median"] / pe["median"]

    # 4. Outputs comparable?
    checks = []
    for t in tools:
        if t.error or not t.output or not os.path.exists(t.output):
            continue
        w, h = image_size(t.output)
        entry = {"tool": t.label, "key": t.key, "width": w, "height": h, "size_ok": (w, h) == (cw, ch),
                 "icc": has_icc(t.output), "chroma": chroma(t.output), "bytes": os.path.getsize(t.output)}
        if t.key != "photoedit" and entry["size_ok"]:
            try:
                entry["de00_mean"], entry["de00_max"] = mean_de00(pe["output"], t.output, work)
            except RuntimeError as e:
                entry["de00_error"] = str(e)
        checks.append(entry)

    # 5. Goals.
    ref = next((r for r in rows if r["key"] == "pyvips-pipeline"), None) or \
        next((r for r in rows if r["key"] == "vips-chain"), None)
    im = next((r for r in rows if r["key"] == "imagemagick"), None)
    goals = []
    if ref:
        x = pe["median"] / ref["median"]
        goals.append(("within %.1fx of libvips' own time (%s)" % (GOAL_VS_LIBVIPS, ref["tool"].strip()),
                      "photoedit / reference = %.2fx" % x, x <= GOAL_VS_LIBVIPS))
        pyproc = next((r for r in rows if r["key"] == "pyvips"), None)
        if pyproc and ref is not pyproc:
            y = pe["median"] / pyproc["median"]
            goals.append(("  (for information) vs the whole pyvips process",
                          "photoedit / pyvips process = %.2fx" % y, y <= GOAL_VS_LIBVIPS))
    if im:
        x = im["median"] / pe["median"]
        goals.append(("at least %.0fx faster than ImageMagick" % GOAL_VS_IMAGEMAGICK,
                      "ImageMagick / photoedit = %.2fx" % x, x >= GOAL_VS_IMAGEMAGICK))
    goals.append(("peak memory under %.0f MB" % GOAL_PEAK_MB, "photoedit peak = %.1f MB" % pe["peak_mb"],
                  pe["peak_mb"] < GOAL_PEAK_MB))

    machine["loadavg_end"] = os.getloadavg()

    # Print.
    print()
    print("machine : %d CPUs (%s), %s GB RAM, %s, kernel %s" % (
        machine["nproc"], machine["cpu"], machine.get("mem_gb", "?"), machine["os"], machine["kernel"]))
    print("load    : %.2f at start, %.2f at end (1-min average)" % (machine["loadavg"][0], machine["loadavg_end"][0]), end="")
    if "foreign_cores" in machine:
        print("; other processes used %.2f cores during the timed runs%s" % (
            machine["foreign_cores"], "  <-- NOT QUIET, figures inflated" if machine["foreign_cores"] > 0.1 else ""))
    else:
        print()
    print("versions: %s; %s; %s; photoedit %s; %s" % (
        vers.get("libvips"), vers.get("imagemagick") or "no ImageMagick", vers.get("pyvips") or "no pyvips",
        vers.get("photoedit_commit"), vers.get("swift") or ""))
    if args.vips_concurrency:
        print("VIPS_CONCURRENCY=%d for every child" % args.vips_concurrency)
    print("input   : %dx%d (%.1f MP), %.1f MB, %s" % (width, height, width * height / 1e6, input_info["bytes"] / 1e6, how))
    print("work    : %s -> crop %dx%d+%d+%d, x%.4f in linear light, JPEG Q%d; %d timed runs (+%d warm-up) each" % (
        CHAIN, cw, ch, left, top, gain, QUALITY, args.runs, args.warmup))
    print()
    head = "%-32s %9s %9s %9s %12s %9s" % ("tool", "median s", "min s", "peak MB", "vs photoedit", "CPU s")
    print(head)
    print("-" * len(head))
    for r in rows:
        print("%-32s %9.3f %9.3f %9.1f %11.2fx %9s" % (r["tool"], r["median"], r["min"], r["peak_mb"], r["ratio"],
                                                      fmt(r["cpu_median"], 2)))
    for t in tools:
        if t.error:
            print("%-32s FAILED: %s" % (t.label, t.error.splitlines()[0][:200]))
    print("(vs photoedit = tool median / photoedit median: above 1 means photoedit is faster;")
    print(" CPU s = median user+system CPU seconds of the child processes)")
    print()
    print("outputs (expected %dx%d; dE00 against photoedit's render):" % (cw, ch))
    for c in checks:
        de = ""
        if "de00_mean" in c:
            de = "  dE00 mean %.3f max %.2f" % (c["de00_mean"], c["de00_max"])
        elif "de00_error" in c:
            de = "  dE00: " + c["de00_error"][:100]
        print("  %-30s %dx%d %-3s %-6s %s %4.1f MB%s" % (
            c["tool"], c["width"], c["height"], "ok" if c["size_ok"] else "WRONG SIZE",
            "ICC" if c["icc"] else "no ICC", c["chroma"], c["bytes"] / 1e6, de))
    print()
    print("goals:")
    for name, value, ok in goals:
        print("  [%s] %-55s %s" % ("met " if ok else "MISS", name, value))

    if args.markdown:
        print()
        print("| tool | median s | min s | peak MB | vs photoedit | CPU s |")
        print("|---|---:|---:|---:|---:|---:|")
        for r in rows:
            print("| %s | %.3f | %.3f | %.1f | %.2f× | %s |" % (r["tool"].strip(), r["median"], r["min"], r["peak_mb"],
                                                              r["ratio"], fmt(r["cpu_median"], 2)))

    if args.json_out:
        with open(args.json_out, "w") as f:
            json.dump({"machine": machine, "versions": vers, "input": input_info,
                       "crop": [left, top, cw, ch], "gain": gain, "runs": args.runs, "warmup": args.warmup,
                       "vips_concurrency": args.vips_concurrency,
                       "rows": [{k: v for k, v in r.items() if k != "output"} for r in rows],
                       "failed": {t.key: t.error for t in tools if t.error},
                       "outputs": checks,
                       "goals": [{"goal": g, "value": v, "met": ok} for g, v, ok in goals]}, f, indent=2)
    return 0 if all(ok for name, _, ok in goals if not name.startswith("  ")) else 1


if __name__ == "__main__":
    sys.exit(main())
