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
darktable: the same DNGs developed by darktable-cli (4.2) with a sidecar
this script writes: one history entry, denoise (profiled) at its defaults
(params version 11: the struct's fields in order, little-endian: radius 1,
search radius 7, strength 1, preserve shadows 1, bias 0, scattering 0,
central pixel weight 0.1, overshooting 1, a[0] = -1 (darktable finds the
camera's profile for the ISO itself), mode wavelets, the 6 x 7 force curves
flat at 0.5, white-balance-adaptive transform, the bug fixes and new VST on,
colour mode Y0U0V0), enabled for the denoised development and disabled for
the clean and the noisy ones; auto_presets_applied is set so that no
workflow preset (filmic, exposure) is added: darktable's default-on modules
only (raw prepare, white balance, highlights, demosaic, input and output
colour). Each tool is measured against its own clean development.

Speed. A ~24 MP DNG (--speed-scale 10): `photoedit render` (uncompressed
TIFF: a JPEG of the current version is the render `apply` stored) of the
development without (`--version unadjusted`) and with `denoise`, a 1440 px
render (`photoedit render --size 1440`, a new process that decodes the RAW)
with and without denoise, and darktable-cli's development without and with
denoise (profiled) (JPEG). Each runs once untimed, then N timed runs
interleaved (wall time; CPU time from os.wait4). Use a release build
(.build-release, or --photoedit).

--skip-full keeps only the 1440 px renders, and adds darktable-cli's export
at 1440 px (--width/--height 1440 --hq false: its pipeline at the output's
scale, as photoedit's small render) with and without denoise, as the peer.

Preview (--preview, needs a build with the Server trait). The warm 1440 px
preview through `photoedit serve` (GET /v1/assets/ID/preview?chain=...&w=1440,
the web editor's live preview; bench/masks-benchmark.py's server helpers) of
the 24 MP DNG and of a 24 MP JPEG of the same scene, with and without
`denoise`: two untimed requests each, then 5 x N timed, interleaved; medians.

Python 3 with numpy and scipy.
"""
import argparse, json, os, shutil, statistics, struct, subprocess, sys, tempfile, time
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
    quiet = dict(stderr=subprocess.DEVNULL)  # libvips warns about darktable's EXIF tags in TIFFs
    subprocess.run(["vips", "cast", path, path + ".v", "float"], check=True, **quiet)
    subprocess.run(["vips", "rawsave", path + ".v", raw], check=True, **quiet)
    w = int(subprocess.run(["vipsheader", "-f", "width", path + ".v"], capture_output=True, text=True).stdout)
    h = int(subprocess.run(["vipsheader", "-f", "height", path + ".v"], capture_output=True, text=True).stdout)
    fmt = subprocess.run(["vipsheader", "-f", "format", path], capture_output=True, text=True).stdout.strip()
    a = np.fromfile(raw, dtype=np.float32).reshape(h, w, -1)[:, :, :3]
    return a / (65535.0 if fmt in ("5", "ushort", "2") or a.max() > 255.5 else 255.0)


def darktable_sidecar(path, enabled):
    """A darktable XMP whose history is denoise (profiled) at its defaults
    (darktable 4.2: denoiseprofile params version 11, 412 bytes)."""
    bands, channels = 7, 6
    blob = struct.pack("<8f", 1.0, 7.0, 1.0, 1.0, 0.0, 0.0, 0.1, 1.0)
    blob += struct.pack("<3f3f", -1.0, 0.0, 0.0, 0.0, 0.0, 0.0)          # a[0] = -1: the camera's profile, found by darktable
    blob += struct.pack("<i", 1)                                          # MODE_WAVELETS
    blob += struct.pack("<%df" % (bands * channels), *[k / (bands - 1.0) for _ in range(channels) for k in range(bands)])
    blob += struct.pack("<%df" % (bands * channels), *[0.5] * (bands * channels))
    blob += struct.pack("<4i", 1, 1, 1, 1)                                # wb-adaptive, fixes, new VST, Y0U0V0
    assert len(blob) == 412
    with open(path, "w") as f:
        f.write('<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n'
                '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
                '<rdf:Description rdf:about="" xmlns:darktable="http://darktable.sf.net/" darktable:xmp_version="5" '
                'darktable:raw_params="0" darktable:auto_presets_applied="1" darktable:history_end="1" darktable:iop_order_version="2">'
                '<darktable:masks_history><rdf:Seq/></darktable:masks_history><darktable:history><rdf:Seq>'
                '<rdf:li darktable:num="0" darktable:operation="denoiseprofile" darktable:enabled="%d" darktable:modversion="11" '
                'darktable:params="%s" darktable:multi_name="" darktable:multi_priority="0" darktable:blendop_version="11" '
                'darktable:blendop_params="gz14eJxjYIAACQYYOOHEgAZY0QVwggZ7CB6pfNoAAE8gGQg="/>'
                '</rdf:Seq></darktable:history></rdf:Description></rdf:RDF></x:xmpmeta>\n<?xpacket end="w"?>'
                % (1 if enabled else 0, blob.hex()))


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
    ap.add_argument("--skip-darktable", action="store_true")
    ap.add_argument("--skip-quality", action="store_true")
    ap.add_argument("--preview", action="store_true", help="time the warm 1440 px preview through photoedit serve")
    ap.add_argument("--skip-full", action="store_true",
                    help="speed: only the 1440 px renders (photoedit's and darktable-cli's), not the full-size developments")
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

    dt_config = os.path.join(tmp, "darktable")

    def darktable(dng_path, name, enabled):
        """darktable-cli's development of `dng_path` (16-bit TIFF), with
        denoise (profiled) at its defaults when `enabled`; (path, wall s, CPU s)."""
        sidecar = os.path.join(tmp, name + ".xmp")
        darktable_sidecar(sidecar, enabled)
        out = os.path.join(tmp, name + ".tif")
        if os.path.exists(out): os.remove(out)
        wall, cpu, _ = run(["darktable-cli", dng_path, sidecar, out, "--icc-type", "SRGB", "--apply-custom-presets", "false",
                            "--core", "--configdir", dt_config, "--library", ":memory:", "--disable-opencl",
                            "--conf", "write_sidecar_files=never", "--conf", "plugins/imageio/format/tiff/bpp=16"])
        return out, wall, cpu

    def imported(path):
        _, _, out = run([pe, "import", path], env)
        return out.split()[0]

    def develop(ident, name):
        out = os.path.join(tmp, name + ".png")
        run([pe, "render", ident, "-o", out, "--depth", "16"], env)
        return out

    try:
        print("quality (PSNR dB / SSIM against the clean development; %s scaled x%g)" % (os.path.basename(src), a.quality_scale))
        print("%-18s %5s  %-16s %-16s %-16s %-16s %s" % ("camera", "ISO", "noisy", "photoedit", "dt noisy", "darktable", "photoedit's profile"))
        results = []
        for maker, model in ([] if a.skip_quality else CAMERAS):
            key = model.replace(" ", "")
            clean_dng = dng("clean-" + key, a.quality_scale, "--make", maker, "--model", model, "--iso", "100")
            clean = load16(develop(imported(clean_dng), "clean-" + key))
            dt_clean = None if a.skip_darktable else load16(darktable(clean_dng, "dt-clean-" + key, False)[0])
            for iso in ISOS:
                pa, pb = profile(maker, model, iso)
                noise = ",".join("%.6g" % v for v in list(pa) + list(pb))
                name = "%s-%d" % (key, iso)
                noisy_dng = dng(name, a.quality_scale, "--make", maker, "--model", model, "--iso", str(iso), "--noise", noise, "--seed", str(iso))
                ident = imported(noisy_dng)
                noisy = load16(develop(ident, name + "-noisy"))
                run([pe, "apply", "denoise", ident], env)
                _, _, shown = run([pe, "denoise", ident, "--json"], env)
                used = (json.loads(shown).get("profile") or {}).get("name", "estimated")
                denoised = load16(develop(ident, name + "-denoised"))
                r = [psnr(noisy, clean), ssim(noisy, clean), psnr(denoised, clean), ssim(denoised, clean)]
                if dt_clean is not None:
                    dt_noisy = load16(darktable(noisy_dng, "dt-noisy-" + name, False)[0])
                    dt_denoised = load16(darktable(noisy_dng, "dt-denoised-" + name, True)[0])
                    r += [psnr(dt_noisy, dt_clean), ssim(dt_noisy, dt_clean), psnr(dt_denoised, dt_clean), ssim(dt_denoised, dt_clean)]
                else:
                    r += [float("nan")] * 4
                results.append(r)
                print("%-18s %5d  %5.2f / %.4f  %5.2f / %.4f  %5.2f / %.4f  %5.2f / %.4f  %s" % (maker + " " + model, iso, *r, used), flush=True)
        if results and dt_clean is not None:
            wins = sum(1 for r in results if r[2] >= r[6] and r[3] >= r[7])
            print("photoedit >= darktable in PSNR and SSIM: %d of %d" % (wins, len(results)))
        if not a.skip_speed:
            print("\nspeed (coffee.jpg scaled x%g; wall s, median of %d; CPU s)" % (a.speed_scale, a.runs))
            big = imported(dng("big", a.speed_scale, "--make", "Nikon", "--model", "D750", "--iso", "3200",
                               "--noise", ",".join("%.6g" % v for v in sum(profile("Nikon", "D750", 3200), []))))
            run([pe, "apply", "denoise", big], env)
            big_dng = os.path.join(tmp, "big.dng")
            dt_common = ["--icc-type", "SRGB", "--apply-custom-presets", "false", "--core", "--configdir", dt_config,
                         "--library", ":memory:", "--disable-opencl", "--conf", "write_sidecar_files=never"]
            darktable_sidecar(os.path.join(tmp, "dt-off.xmp"), False)
            darktable_sidecar(os.path.join(tmp, "dt-on.xmp"), True)
            # Uncompressed TIFFs: `render` of the current version as JPEG copies the render
            # `apply` stored; a TIFF is rendered again (the RAW developed, then the recipe).
            tiff = ["--compression", "none"]
            full = [] if a.skip_full else [
                ("develop", [pe, "render", big, "--version", "unadjusted", "-o", os.path.join(tmp, "plain.tif")] + tiff),
                ("develop + denoise", [pe, "render", big, "-o", os.path.join(tmp, "big.tif")] + tiff)]
            cases = full + [("1440 px preview + denoise", [pe, "render", big, "--size", "1440x1440", "-o", os.path.join(tmp, "preview.jpg")]),
                            ("1440 px preview", [pe, "render", big, "--version", "unadjusted", "--size", "1440x1440", "-o", os.path.join(tmp, "preview0.jpg")])]
            if not a.skip_darktable:
                if not a.skip_full:
                    cases += [("darktable-cli develop", ["darktable-cli", big_dng, os.path.join(tmp, "dt-off.xmp"), os.path.join(tmp, "dt-off.jpg")] + dt_common),
                              ("darktable-cli + denoise", ["darktable-cli", big_dng, os.path.join(tmp, "dt-on.xmp"), os.path.join(tmp, "dt-on.jpg")] + dt_common)]
                # darktable's export at 1440 px without high quality: its pipeline runs at the output's scale.
                small = ["--width", "1440", "--height", "1440", "--hq", "false"]
                cases += [("darktable-cli 1440 px", ["darktable-cli", big_dng, os.path.join(tmp, "dt-off.xmp"), os.path.join(tmp, "dt-off-1440.jpg")] + small + dt_common),
                          ("darktable-cli 1440 px + denoise", ["darktable-cli", big_dng, os.path.join(tmp, "dt-on.xmp"), os.path.join(tmp, "dt-on-1440.jpg")] + small + dt_common)]
            times = {n: [] for n, _ in cases}; cpu = {n: [] for n, _ in cases}
            def fresh(argv):
                for path in argv:  # darktable-cli never overwrites its output
                    if path.endswith((".jpg", ".tif")) and os.path.exists(path): os.remove(path)
                return argv
            for n, argv in cases: run(fresh(argv), env)
            for _ in range(a.runs):
                for n, argv in cases:
                    fresh(argv)
                    w, c, _ = run(argv, env)
                    times[n].append(w); cpu[n].append(c)
            for n, _ in cases:
                print("%-32s %6.2f s wall  %6.2f s CPU" % (n, statistics.median(times[n]), statistics.median(cpu[n])))
            print("load average after: %.1f %.1f %.1f" % os.getloadavg())
            def median(d, n): return statistics.median(d[n])
            if not a.skip_full:
                print("denoise / plain development: %.2fx (goal <= 3)" % (median(times, "develop + denoise") / median(times, "develop")))
                if not a.skip_darktable:
                    print("photoedit develop + denoise CPU / darktable-cli + denoise CPU: %.2fx (goal <= 1)"
                          % (median(cpu, "develop + denoise") / median(cpu, "darktable-cli + denoise")))
            print("1440 px render + denoise / without: %.2fx wall (a RAW's small render develops at the output's scale only"
                  " when it denoises in camera RGB; without denoise it develops at full size, then reduces)"
                  % (median(times, "1440 px preview + denoise") / median(times, "1440 px preview")))
            if not a.skip_darktable:
                print("1440 px: photoedit + denoise / darktable-cli + denoise: %.2fx wall, %.2fx CPU; darktable's denoise / without: %.2fx wall"
                      % (median(times, "1440 px preview + denoise") / median(times, "darktable-cli 1440 px + denoise"),
                         median(cpu, "1440 px preview + denoise") / median(cpu, "darktable-cli 1440 px + denoise"),
                         median(times, "darktable-cli 1440 px + denoise") / median(times, "darktable-cli 1440 px")))
            print("1440 px render + denoise: %.0f ms wall (the goal, < 300 ms, is for the editor's warm preview: --preview;"
                  " this one is a new process that decodes the RAW)" % (1000 * statistics.median(times["1440 px preview + denoise"])))
        if a.preview:
            preview(a, pe, env, dng, imported, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def preview(a, pe, env, dng, imported, tmp):
    """The warm 1440 px preview through `photoedit serve`, RAW and JPEG, with and without denoise."""
    import importlib.util, urllib.parse
    spec = importlib.util.spec_from_file_location("masks_benchmark", os.path.join(ROOT, "bench", "masks-benchmark.py"))
    server = importlib.util.module_from_spec(spec); spec.loader.exec_module(server)
    raw = imported(dng("preview", a.speed_scale, "--make", "Nikon", "--model", "D750", "--iso", "3200",
                       "--noise", ",".join("%.6g" % v for v in sum(profile("Nikon", "D750", 3200), []))))
    # Not preview.jpg: beside preview.dng, import would pair it with the RAW (one asset).
    jpeg_path = os.path.join(tmp, "scene.jpg")
    subprocess.run(["vips", "resize", os.path.join(ROOT, "samples", "coffee.jpg"), jpeg_path + "[Q=92]", str(a.speed_scale)], check=True)
    jpeg = imported(jpeg_path)
    if jpeg == raw: sys.exit("the JPEG was imported as the RAW's pair")
    for ident in (raw, jpeg): run([pe, "apply", "denoise", ident], env)   # the camera's profile recorded (RAW)
    cases = [("RAW", raw, "exposure=+0.1"), ("RAW", raw, None), ("JPEG", jpeg, "exposure=+0.1"), ("JPEG", jpeg, None)]
    def path(ident, chain):
        # reset=false: on top of the recipe (denoise, the profile recorded); without: reset, no denoise.
        q = {"w": 1440, "chain": chain or "exposure=+0.1"}
        if chain: q["reset"] = "true"
        return "/v1/assets/%s/preview?%s" % (ident, urllib.parse.urlencode(q))
    load = os.getloadavg()
    proc, port = server.start_server(pe, env["PHOTOEDIT_LIBRARY"])
    try:
        paths = [(kind, chain is None, path(ident, chain)) for kind, ident, chain in cases]
        for _, _, p in paths:
            for _ in range(2):
                status, body = server.get(port, p)
                if status != 200: sys.exit("preview %s: HTTP %d %s" % (p, status, body[:300]))
        times = {p: [] for _, _, p in paths}
        for _ in range(5 * a.runs):
            for _, _, p in paths:
                t0 = time.perf_counter(); server.get(port, p); times[p].append(1000 * (time.perf_counter() - t0))
    finally:
        server.stop(proc)
    print("\nwarm 1440 px preview through photoedit serve (median ms of %d; min; load average %.1f before, %.1f after)"
          % (5 * a.runs, load[0], os.getloadavg()[0]))
    plain = {}
    for kind, denoised, p in paths:
        m = statistics.median(times[p])
        if not denoised: plain[kind] = m
        print("%-5s %-16s %6.0f ms (min %4.0f)%s" % (kind, "with denoise" if denoised else "without denoise", m, min(times[p]),
                                                    "  (goal < 300 ms)" if denoised else ""))
    for kind, denoised, p in paths:
        if denoised and plain.get(kind):
            print("%-5s with denoise / without: %.1fx" % (kind, statistics.median(times[p]) / plain[kind]))


if __name__ == "__main__":
    main()
