#!/usr/bin/env python3
"""Profiled noise reduction (`denoise`, issue 39): quality on synthetic RAWs
whose truth is known, and speed.

Quality. scripts/make-test-dng.py writes a clean Bayer DNG from
samples/coffee.jpg (scaled by --quality-scale) and the same scene with
Poisson-Gaussian noise (variance a*x + b of the raw values) at the profile
of two real cameras from darktable's noiseprofiles.json, at ISO 1600 and
6400, tagged with their make, model and ISO. Each is imported into a
photoedit library and developed neutrally (`photoedit render`, 16-bit PNG):
the clean DNG, the noisy DNG as it is, and the noisy DNG with `denoise`
(`photoedit apply denoise`: the camera's profile, recorded). PSNR (dB) and
SSIM (Gaussian window, sigma 1.5, on the Rec. 709 luma of sRGB values) of each
against the clean development are printed.
Not yet here: darktable-cli's denoise (profiled) at its defaults (its
sidecar needs darktable 4.2's denoiseprofile params blob, version-specific).

Speed. A ~24 MP DNG (--speed-scale 10): `photoedit render` (JPEG) of the
development without and with `denoise`, and a 1440 px preview (`photoedit
render --size 1440`) with denoise. Each runs once untimed, then N timed runs
interleaved (wall time; CPU time from os.wait4). Use a release build
(.build-release, or --photoedit).

Python 3 with numpy and scipy.
"""
import argparse, json, os, shutil, statistics, subprocess, sys, tempfile, time
import numpy as np
from scipy.ndimage import gaussian_filter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROFILES = "/usr/share/darktable/noiseprofiles.json"
CAMERAS = [("Canon", "EOS 1300D"), ("Nikon", "D750")]
ISOS = [1600, 6400]


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def run(argv, env=None):
    t0 = time.perf_counter()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    pid, status, usage = os.wait4(p.pid, 0)
    out = p.stdout.read().decode(errors="replace"); err = p.stderr.read().decode(errors="replace")
    p.stdout.close(); p.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("failed: %s\n%s" % (" ".join(argv), err))
    return time.perf_counter() - t0, usage.ru_utime + usage.ru_stime, out


def profile(maker, model, iso):
    for mk in json.load(open(PROFILES))["noiseprofiles"]:
        if mk["maker"] != maker: continue
        for m in mk["models"]:
            if m["model"] != model: continue
            for p in m["profiles"]:
                if p["iso"] == iso: return p["a"], p["b"]
    sys.exit("no profile %s %s %d" % (maker, model, iso))


def load16(path):
    """A PNG (8 or 16 bit) as float RGB 0..1, through the vips CLI."""
    raw = path + ".raw"
    subprocess.run(["vips", "cast", path, path + ".v", "float"], check=True)
    subprocess.run(["vips", "rawsave", path + ".v", raw], check=True)
    w = int(subprocess.run(["vipsheader", "-f", "width", path], capture_output=True, text=True).stdout)
    h = int(subprocess.run(["vipsheader", "-f", "height", path], capture_output=True, text=True).stdout)
    fmt = subprocess.run(["vipsheader", "-f", "format", path], capture_output=True, text=True).stdout.strip()
    a = np.fromfile(raw, dtype=np.float32).reshape(h, w, -1)[:, :, :3]
    return a / (65535.0 if fmt in ("5", "ushort", "2") or a.max() > 255.5 else 255.0)


def psnr(x, ref):
    mse = np.mean((x - ref) ** 2)
    return 10 * np.log10(1 / mse)


def ssim(x, ref):
    def luma(a): return 0.2126 * a[..., 0] + 0.7152 * a[..., 1] + 0.0722 * a[..., 2]
    x, y = luma(x), luma(ref)
    c1, c2 = 0.01 ** 2, 0.03 ** 2
    mx, my = gaussian_filter(x, 1.5), gaussian_filter(y, 1.5)
    sxx = gaussian_filter(x * x, 1.5) - mx * mx
    syy = gaussian_filter(y * y, 1.5) - my * my
    sxy = gaussian_filter(x * y, 1.5) - mx * my
    m = ((2 * mx * my + c1) * (2 * sxy + c2)) / ((mx * mx + my * my + c1) * (sxx + syy + c2))
    return float(m.mean())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--photoedit", default=None)
    ap.add_argument("--quality-scale", type=float, default=2)
    ap.add_argument("--speed-scale", type=float, default=10)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--skip-speed", action="store_true")
    a = ap.parse_args()
    pe = a.photoedit or next((p for p in [os.path.join(ROOT, ".build-release", "release", "photoedit"),
                                           os.path.join(ROOT, ".build", "release", "photoedit"),
                                           os.path.join(ROOT, ".build", "debug", "photoedit")] if os.path.exists(p)), None)
    log("photoedit: %s" % pe)
    tmp = tempfile.mkdtemp(prefix="denoise-bench-")
    env = dict(os.environ, PHOTOEDIT_LIBRARY=os.path.join(tmp, "library"))
    src = os.path.join(ROOT, "samples", "coffee.jpg")
    make = os.path.join(ROOT, "scripts", "make-test-dng.py")

    def dng(name, scale, *extra):
        out = os.path.join(tmp, name + ".dng")
        subprocess.run([sys.executable, make, src, out, "--scale", str(scale), *extra], check=True)
        return out

    def imported(path):
        _, _, out = run([pe, "import", path], env)
        return out.split()[0]

    def develop(ident, name):
        out = os.path.join(tmp, name + ".png")
        run([pe, "render", ident, "-o", out, "--depth", "16"], env)
        return out

    try:
        print("quality (PSNR dB / SSIM against the clean development; %s scaled x%g)" % (os.path.basename(src), a.quality_scale))
        print("%-18s %5s  %-16s %-16s %s" % ("camera", "ISO", "noisy", "photoedit", "profile recorded"))
        results = []
        for maker, model in CAMERAS:
            clean_id = imported(dng("clean-%s" % model.replace(" ", ""), a.quality_scale, "--make", maker, "--model", model, "--iso", "100"))
            clean = load16(develop(clean_id, "clean-%s" % model.replace(" ", "")))
            for iso in ISOS:
                pa, pb = profile(maker, model, iso)
                noise = ",".join("%.6g" % v for v in list(pa) + list(pb))
                name = "%s-%d" % (model.replace(" ", ""), iso)
                ident = imported(dng(name, a.quality_scale, "--make", maker, "--model", model, "--iso", str(iso), "--noise", noise, "--seed", str(iso)))
                noisy = load16(develop(ident, name + "-noisy"))
                run([pe, "apply", "denoise", ident], env)
                _, _, shown = run([pe, "show", ident, "--json"], env)
                chain = json.loads(shown).get("chain", "")
                denoised = load16(develop(ident, name + "-denoised"))
                r = (psnr(noisy, clean), ssim(noisy, clean), psnr(denoised, clean), ssim(denoised, clean))
                results.append(r)
                print("%-18s %5d  %5.2f / %.4f  %5.2f / %.4f  %s" % (maker + " " + model, iso, *r, chain), flush=True)
        if not a.skip_speed:
            print("\nspeed (coffee.jpg scaled x%g; wall s, median of %d; CPU s)" % (a.speed_scale, a.runs))
            big = imported(dng("big", a.speed_scale, "--make", "Nikon", "--model", "D750", "--iso", "3200",
                               "--noise", ",".join("%.6g" % v for v in sum(profile("Nikon", "D750", 3200), []))))
            plain = imported(shutil.copy(os.path.join(tmp, "big.dng"), os.path.join(tmp, "big2.dng")) or os.path.join(tmp, "big2.dng"))
            run([pe, "apply", "denoise", big], env)
            cases = [("develop", [pe, "render", plain, "-o", os.path.join(tmp, "plain.jpg")]),
                     ("develop + denoise", [pe, "render", big, "-o", os.path.join(tmp, "big.jpg")]),
                     ("1440 px preview + denoise", [pe, "render", big, "--size", "1440x1440", "-o", os.path.join(tmp, "preview.jpg")])]
            times = {n: [] for n, _ in cases}; cpu = {n: [] for n, _ in cases}
            for n, argv in cases: run(argv, env)
            for _ in range(a.runs):
                for n, argv in cases:
                    w, c, _ = run(argv, env)
                    times[n].append(w); cpu[n].append(c)
            for n, _ in cases:
                print("%-28s %6.2f s wall  %6.2f s CPU" % (n, statistics.median(times[n]), statistics.median(cpu[n])))
            ratio = statistics.median(times["develop + denoise"]) / statistics.median(times["develop"])
            print("denoise / plain development: %.2fx (goal <= 3)" % ratio)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
