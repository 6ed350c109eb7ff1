#!/usr/bin/env python3
"""The web editor in a real browser (headless Debian chromium + chromedriver,
selenium from PyPI), against the real `photoedit serve` on loopback with a
fresh library, an API token and a signing key.

    test_editor.py --binary .build/debug/photoedit [--screenshots DIR] [--keep]

What it does, as a user would: opens the page, gives the token, uploads a
photo with the file picker and two by drag and drop (one a duplicate), opens
a photo, moves the exposure slider with the keyboard and sees the preview get
brighter (pixels of the <img>), saves and sees revision 1 in the history,
reverts, sees another client's edit arrive live (over the change feed),
gets "changed elsewhere" when saving on a stale revision, presses Auto (a
new revision; the sliders show the concrete values it wrote), picks Upright
on a photo without lines (the one-line reason, nothing saved), marks a favorite,
raises the curve's middle on its canvas (a brighter preview), crops with the crop tool (a handle dragged with the pointer, the frame moved
with the keyboard, the 1:1 preset, a straighten angle) and saves a square
render, draws local corrections (a radial on the cropped photo lands in the
uncropped photo's fractions; on another photo a linear gradient, a radial, a
brush stroke, a clone spot and a heal spot are drawn with the pointer and saved: the
render read back through the API changes in each place and not elsewhere,
and a correction switched off renders nothing), creates an album with the photo and adds/removes it from another,
filters the grid by album (thumbnails signed in the listing, no render-url
call), hides a photo and sees it leave the default grid, levels a chart the
CLI turned 2.5° with Upright and Constrain (the rotate control shows the value), searches with
spaces (and sees a bad query's problem+json message), recrops an aspect crop
made elsewhere (a plain rectangle is saved), and, on a server without tokens
or keys, works with no console error, no render-url request and no 5xx in
/metrics. Takes screenshots at 1280 px and at a phone's width. Exit status 0 when every
check passed; each check prints one line. Leaves nothing running: the
browser, chromedriver and the server are stopped in `finally`.
"""

import argparse
import base64
import json
import math
import re
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import TimeoutException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHECKS = []


def check(condition, what):
    CHECKS.append(what)
    print(("ok   " if condition else "FAIL ") + what, flush=True)
    if not condition:
        raise AssertionError(what)


class Server:
    """`photoedit serve` on a free loopback port, with one edit token and a signing key."""

    def __init__(self, binary, folder, secured=True):
        self.binary = binary
        os.makedirs(folder, exist_ok=True)
        self.library = os.path.join(folder, "library")
        command = [binary, "serve", "--library", self.library, "--port", "0"]
        self.token = None
        if secured:
            token_lines = self.run("serve", "--new-token", "edit").splitlines()
            self.token = token_lines[0].strip()
            tokens = os.path.join(folder, "tokens")
            with open(tokens, "w") as f:
                f.write(token_lines[1] + "\n")
            keys = os.path.join(folder, "keys")
            with open(keys, "w") as f:
                f.write(self.run("serve", "--new-signing-key", "k1").strip() + "\n")
            command += ["--tokens", tokens, "--signing-keys", keys]
        self.log = open(os.path.join(folder, "serve.log"), "w")
        self.command = command
        self.start()

    def start(self):
        self.process = subprocess.Popen(self.command, stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.process.stdout.readline()
        if "listening on http://127.0.0.1:" not in line:
            raise RuntimeError(f"serve did not start: {line!r} (log: {self.log.name})")
        self.url = line.split()[2]

    def restart(self):
        """Stops the server and starts it again on the same port."""
        self.stop(close_log=False)
        port = self.url.rsplit(":", 1)[1]
        self.command = [c for c in self.command]
        self.command[self.command.index("--port") + 1] = port
        self.start()

    def run(self, *args):
        return subprocess.run([self.binary, *args], check=True, capture_output=True, text=True).stdout

    def api(self, method, path, body=None, headers=None):
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.url + path, data=data, method=method)
        if self.token:
            request.add_header("Authorization", f"Bearer {self.token}")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        for key, value in (headers or {}).items():
            request.add_header(key, value)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, json.loads(response.read() or b"null")
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"null")

    def stop(self, close_log=True):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process.stdout.close()
        if close_log:
            self.log.close()


def server_errors(server):
    """How many kinds of answer a server's /metrics counts, and those that were 5xx."""
    with urllib.request.urlopen(server.url + "/metrics", timeout=30) as response:
        metrics = response.read().decode()
    served = [line for line in metrics.splitlines() if line.startswith("photoedit_http_requests_total{")]
    return len(served), [line for line in served if 'status="5' in line]


def browser(width, height):
    """Headless chromium. Its profile and every temporary file it makes
    (TMPDIR: the process singleton's org.chromium.Chromium.* folder) are in a
    folder of the test's own, which tear_down removes."""
    scratch = tempfile.mkdtemp(prefix="photoedit-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("PHOTOEDIT_CHROMIUM", "/usr/bin/chromium")
    for arg in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                f"--window-size={width},{height}", "--force-device-scale-factor=1", "--lang=en-GB",
                "--disable-extensions", "--no-first-run", "--password-store=basic",
                f"--user-data-dir={os.path.join(scratch, 'profile')}"):
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=os.environ.get("PHOTOEDIT_CHROMEDRIVER", "/usr/bin/chromedriver"),
                      env={**os.environ, "TMPDIR": scratch})
    try:
        driver = webdriver.Chrome(options=options, service=service)
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    driver.photoedit_scratch = scratch
    return driver


# The mean luminance (0…255) of an <img>, drawn into a canvas (the renders
# and previews are same-origin, so the canvas can be read).
# A photo's render as ImageData (PNG at 512 px, fetched with the page's
# token); `load(which)`: which = 'version=unadjusted' or 'rev=N'. Needs `id`.
LOAD_RENDER = """
const token = sessionStorage.getItem('photoedit.token');
const load = async (which) => {
  const response = await fetch(`/v1/assets/${id}/render?w=512&h=512&format=png&${which}`,
                               {headers: token ? {Authorization: `Bearer ${token}`} : {}});
  if (!response.ok) throw new Error(`render ${which}: ${response.status}`);
  const bitmap = await createImageBitmap(await response.blob());
  const c = new OffscreenCanvas(bitmap.width, bitmap.height), g = c.getContext('2d');
  g.drawImage(bitmap, 0, 0);
  return g.getImageData(0, 0, bitmap.width, bitmap.height);
};
"""

# Mean luminance difference (and mean absolute difference) between the
# photo's render before any edit (arguments[1] null) or at revision
# arguments[1] (the current one: other revisions are 404) and at revision
# arguments[2], in regions given
# as fractions [x0, y0, x1, y1]; PNG renders fetched with the page's token.
REGION_DIFF = """
const [id, base, rev, regions, done] = arguments;
""" + LOAD_RENDER + """
const which = (r) => (r === null ? 'version=unadjusted' : `rev=${r}`);
Promise.all([load(which(base)), load(which(rev))]).then(([a, b]) => {
  const out = {};
  for (const [name, [x0, y0, x1, y1]] of Object.entries(regions)) {
    let sum = 0, abs = 0, n = 0;
    for (let y = Math.floor(y0 * a.height); y < Math.ceil(y1 * a.height); y++) {
      for (let x = Math.floor(x0 * a.width); x < Math.ceil(x1 * a.width); x++) {
        const i = (y * a.width + x) * 4;
        const la = 0.2126 * a.data[i] + 0.7152 * a.data[i + 1] + 0.0722 * a.data[i + 2];
        const lb = 0.2126 * b.data[i] + 0.7152 * b.data[i + 1] + 0.0722 * b.data[i + 2];
        sum += lb - la; abs += Math.abs(lb - la); n++;
      }
    }
    out[name] = {mean: Math.round(sum / n * 100) / 100, abs: Math.round(abs / n * 100) / 100};
  }
  done(out);
}).catch((e) => done({error: String(e)}));
"""

# Where a luminance range selects and where it does not: the photo's render
# before any edit and at revision arguments[1], PNG at 512 px; each pixel's
# CIE L* (sRGB, D65) of the photo before; arguments[2] = [low, high, feather]
# (L*/100). "inside": pixels clearly within [low, high]; "outside": pixels
# clearly beyond the feather. Mean luminance change (0…255), mean absolute
# change and count of each.
RANGE_DIFF = """
const [id, rev, [low, high, feather], done] = arguments;
""" + LOAD_RENDER + """
const lin = (v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
Promise.all([load('version=unadjusted'), load(`rev=${rev}`)]).then(([a, b]) => {
  const out = {inside: {sum: 0, abs: 0, n: 0}, outside: {sum: 0, abs: 0, n: 0}};
  for (let i = 0; i < a.data.length; i += 4) {
    const y = 0.2126 * lin(a.data[i] / 255) + 0.7152 * lin(a.data[i + 1] / 255) + 0.0722 * lin(a.data[i + 2] / 255);
    const l = (y > 216 / 24389 ? 116 * Math.cbrt(y) - 16 : 24389 / 27 * y) / 100;
    const where = l > low + 0.05 && l < high - 0.05 ? out.inside : l < low - feather - 0.05 || l > high + feather + 0.05 ? out.outside : null;
    if (!where) continue;
    const d = (0.2126 * (b.data[i] - a.data[i]) + 0.7152 * (b.data[i + 1] - a.data[i + 1]) + 0.0722 * (b.data[i + 2] - a.data[i + 2]));
    where.sum += d; where.abs += Math.abs(d); where.n++;
  }
  for (const k of ['inside', 'outside']) {
    const r = out[k];
    out[k] = {mean: Math.round(r.sum / Math.max(1, r.n) * 100) / 100, abs: Math.round(r.abs / Math.max(1, r.n) * 100) / 100, n: r.n};
  }
  done(out);
}).catch((e) => done({error: String(e)}));
"""

MEAN = """
const img = document.getElementById(arguments[0]);
if (!img || !img.complete || !img.naturalWidth) return null;
const c = document.createElement('canvas');
c.width = 64; c.height = Math.max(1, Math.round(64 * img.naturalHeight / img.naturalWidth));
const g = c.getContext('2d');
g.drawImage(img, 0, 0, c.width, c.height);
const d = g.getImageData(0, 0, c.width, c.height).data;
let s = 0;
for (let i = 0; i < d.length; i += 4) s += 0.2126 * d[i] + 0.7152 * d[i + 1] + 0.0722 * d[i + 2];
return s / (d.length / 4);
"""

# A drop of files on the page, as the browser makes it when files are
# dragged in (a DataTransfer holding File objects made from the bytes).
DROP = """
const [items] = arguments;
const transfer = new DataTransfer();
for (const item of items) {
  const bytes = Uint8Array.from(atob(item.data), (c) => c.charCodeAt(0));
  transfer.items.add(new File([bytes], item.name, { type: item.type }));
}
const target = document.getElementById('grid');
for (const type of ['dragenter', 'dragover', 'drop']) {
  target.dispatchEvent(new DragEvent(type, { bubbles: true, cancelable: true, dataTransfer: transfer }));
}
"""


class Stop(Exception):
    """SIGTERM, SIGINT or the overall deadline: stop, cleaning up."""


def stop(signum, frame):
    # Once: a second signal must not cut the cleanup in `finally` short.
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGALRM, signal.SIG_IGN)
    raise Stop(f"signal {signum}")


def report_failure(error, driver, screenshot):
    """Prints why a run failed (a Stop, an exception; a failed check has
    printed itself), saves a screenshot and the browser's last warnings."""
    if isinstance(error, Stop):
        print(f"FAIL stopped: {error}", flush=True)
    elif not isinstance(error, AssertionError):
        import traceback
        traceback.print_exc(limit=3)
        print(f"FAIL {type(error).__name__}: {error}", flush=True)
    if driver:
        try:
            driver.save_screenshot(screenshot)
            for entry in [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "WARNING")][-20:]:
                print("     console:", entry["level"], entry["message"][:300])
        except Exception:
            pass


def tear_down(driver, servers):
    """Quits the browser and stops the servers, each step on its own: one
    failing must not leave the others running."""
    signal.alarm(0)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    if driver:
        try:
            driver.quit()
        except Exception as error:
            print(f"     quitting the browser: {error}", flush=True)
        shutil.rmtree(driver.photoedit_scratch, ignore_errors=True)
    for each in servers:
        if each:
            try:
                each.stop()
            except Exception as error:
                print(f"     stopping serve: {error}", flush=True)


def main():
    # A SIGTERM (the Swift test's time limit) or the deadline unwinds through
    # `finally`, which quits the browser and stops the server.
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGALRM, stop)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--screenshots", default=os.path.join(ROOT, ".build", "web-screenshots"))
    parser.add_argument("--keep", action="store_true", help="keep the temporary library")
    parser.add_argument("--deadline", type=int, default=150, help="seconds before the run gives up")
    parser.add_argument("--process-group", action="store_true",
                        help="lead a process group of our own (the caller can then end the browser and servers with us)")
    args = parser.parse_args()
    if args.process_group:
        os.setpgrp()
    signal.alarm(args.deadline)
    os.makedirs(args.screenshots, exist_ok=True)
    folder = tempfile.mkdtemp(prefix="photoedit-web-")
    server = plain_server = driver = None
    started = time.monotonic()
    try:
        server = Server(os.path.abspath(args.binary), folder)
        print(f"serve at {server.url}, library {server.library}", flush=True)
        driver = browser(1280, 900)
        wait = WebDriverWait(driver, 30, poll_frequency=0.1)
        js = driver.execute_script

        def shot(name):
            path = os.path.join(args.screenshots, name + ".png")
            driver.save_screenshot(path)
            print(f"     screenshot {path}", flush=True)

        def press(element):
            # Centred first: chromedriver's own scrolling can leave an element
            # of the scrolling panel under its sticky Save bar.
            js("arguments[0].scrollIntoView({block: 'center'})", element)
            element.click()

        def until(condition, what, timeout=30):
            try:
                return WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda d: condition())
            except TimeoutException:
                check(False, what + " (timed out)")

        # --- The page asks for the token once -------------------------------
        driver.get(server.url + "/")
        dialog = until(lambda: driver.find_element(By.ID, "login") if js("return document.getElementById('login').open") else None,
                       "the page asks for an API token")
        check(dialog is not None, "the page asks for an API token when the API answers 401")
        shot("01-token")
        token_field = driver.find_element(By.ID, "token")
        token_field.send_keys(server.token)
        token_field.send_keys(Keys.ENTER)
        until(lambda: js("return document.body.dataset.ready === 'true'"), "the page starts after the token")
        check(js("return sessionStorage.getItem('photoedit.token')") == server.token, "the token is kept in sessionStorage")
        until(lambda: driver.find_element(By.ID, "live").text == "live", "the change feed is followed")
        check(True, "the change feed stream is live")

        # --- Uploads: the file picker, then a drop with a duplicate ---------
        coffee = os.path.join(ROOT, "samples", "coffee.jpg")
        chelsea = os.path.join(ROOT, "samples", "chelsea.jpg")
        driver.find_element(By.ID, "file-picker").send_keys(coffee)
        until(lambda: len(driver.find_elements(By.CSS_SELECTOR, ".upload.done")) == 1, "the picked file is uploaded")
        check(True, "file picker upload: progress row ends 'uploaded'")

        def b64(path):
            with open(path, "rb") as f:
                return base64.b64encode(f.read()).decode()

        js(DROP, [{"name": "chelsea.jpg", "type": "image/jpeg", "data": b64(chelsea)},
                  {"name": "coffee-again.jpg", "type": "image/jpeg", "data": b64(coffee)}])
        until(lambda: len(driver.find_elements(By.CSS_SELECTOR, ".upload.done, .upload.duplicate")) == 3, "the dropped files are uploaded")
        duplicates = driver.find_elements(By.CSS_SELECTOR, ".upload.duplicate")
        check(len(duplicates) == 1 and "already in the library" in duplicates[0].text,
              "drag-and-drop upload: the duplicate is reported 'already in the library'")
        check(all(float(p.get_attribute("value")) == 1.0 for p in driver.find_elements(By.CSS_SELECTOR, ".upload progress")),
              "every upload's progress bar reaches the end")
        until(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#grid .tile")) == 2, "the grid shows the two photos")
        until(lambda: js("return [...document.querySelectorAll('#grid img')].every(i => i.complete && i.naturalWidth > 0)"),
              "the thumbnails load")
        sources = js("return [...document.querySelectorAll('#grid img')].map(i => i.getAttribute('src'))")
        check(all("sig=" in s and "rev=" in s for s in sources), "thumbnails are signed, revision-addressed render URLs")
        check(all(i.get_attribute("loading") == "lazy" for i in driver.find_elements(By.CSS_SELECTOR, "#grid img")),
              "thumbnails load lazily")
        shot("02-library")

        status, listing = server.api("GET", "/v1/assets?where=" + urllib.request.quote('name="coffee.jpg"'))
        coffee_id = listing["assets"][0]["id"]

        # --- The photo page: a slider, a live preview -----------------------
        driver.find_element(By.CSS_SELECTOR, f'.tile[data-id="{coffee_id}"] a').click()
        until(lambda: js("return !document.getElementById('photo').hidden"), "the photo page opens")
        until(lambda: js(MEAN, "view") is not None, "the photo is shown")
        check(len(driver.find_elements(By.CSS_SELECTOR, "#sliders input[type=range]")) >= 20,
              "sliders are generated from /v1/filters")
        # The panels photographers know, in their order, the tools drawn on
        # the photo above them; each filter where its declaration puts it.
        panels = js("return [...document.querySelectorAll('#sliders > .panel-group > summary')].map(s => s.textContent)")
        check(panels == ["Basic", "Tone Curve", "Colour", "Detail", "Optics", "Effects", "Calibration", "Output"],
              f"the panels are Basic, Tone Curve, Colour, Detail, Optics, Effects, Calibration (and Output), in order ({panels})")
        check(js("return document.querySelector('#sliders > :first-child').matches('.tool-group') "
                 "&& !!document.querySelector('.tool-group [data-filter=\"local\"]') && !!document.querySelector('.tool-group [data-filter=\"retouch\"]')"),
              "local corrections and spots are tools above the panels")
        placed = js("""const where = (id) => document.querySelector(`[data-filter="${id}"]`)?.closest('[data-panel]')?.dataset.panel;
                       return Object.fromEntries(['temperature', 'exposure', 'clarity', 'vibrance', 'curve', 'hsl', 'sharpen', 'noise',
                                                  'lens', 'perspective', 'vignette', 'calibration'].map((id) => [id, where(id)]));""")
        check(placed == {"temperature": "basic", "exposure": "basic", "clarity": "basic", "vibrance": "basic", "curve": "toneCurve",
                         "hsl": "colour", "sharpen": "detail", "noise": "detail", "lens": "optics", "perspective": "optics",
                         "vignette": "effects", "calibration": "calibration"},
              f"white balance, tone and presence are in Basic, lens with perspective in Optics, noise in Detail ({placed})")
        sections = js("return [...document.querySelectorAll('[data-panel=\"basic\"] .panel-section')].map(h => h.textContent)")
        check(sections == ["White balance", "Tone", "Presence"], f"Basic has White balance, Tone and Presence ({sections})")
        check(not driver.find_elements(By.ID, "p-lut-sha256") and driver.find_elements(By.ID, "p-lut-strength"),
              "the LUT's recorded SHA-256 has no control (its strength has one)")
        check(not driver.find_elements(By.CSS_SELECTOR, '[data-panel="development"]'), "a JPEG shows no RAW development panel")
        exposure = driver.find_element(By.ID, "p-exposure-ev")
        check(exposure.get_attribute("min") == "-5" and exposure.get_attribute("max") == "5",
              "the exposure slider has the declared range -5…5")
        before = js(MEAN, "view")
        requests_before = js("return performance.getEntriesByType('resource').filter(e => e.name.includes('/preview?')).length")
        press(exposure)  # the slider's middle: its default, 0
        for _ in range(20):
            exposure.send_keys(Keys.ARROW_RIGHT)
        check(abs(float(exposure.get_attribute("value")) - 1.0) < 1e-6, "the keyboard moves the exposure slider to +1 EV")
        until(lambda: js("return document.getElementById('view').dataset.chain") == "exposure.ev=1"
              and js("return document.getElementById('view').complete"),
              "the preview of exposure.ev=1 is shown")
        after = js(MEAN, "view")
        previews = js("return performance.getEntriesByType('resource').filter(e => e.name.includes('/preview?')).map(e => e.name)")
        check(after > before + 15, f"the preview is brighter after +1 EV (mean {before:.1f} → {after:.1f})")
        check(len(previews) - requests_before < 20, f"previews are debounced ({len(previews) - requests_before} requests for 20 key presses)")
        check(any("chain=exposure.ev%3D1&" in p for p in previews), "the preview request carries the chain exposure.ev=1")
        check(js("return document.getElementById('save').disabled") is False, "Save is enabled for an unsaved edit")
        shot("03-editor-preview")

        # Before/after: hold B.
        webdriver.ActionChains(driver).key_down("b").perform()
        until(lambda: js("return !document.getElementById('before').hidden && document.getElementById('before').naturalWidth > 0"),
              "holding B shows the photo before any edit")
        shot("04-before")
        check(abs(js(MEAN, "before") - before) < 3, "'before' is the unadjusted photo")
        webdriver.ActionChains(driver).key_up("b").perform()
        until(lambda: js("return document.getElementById('before').hidden"), "releasing B shows the edit again")
        check(True, "before/after: hold B to compare")

        # --- Save: revision 1 in the history --------------------------------
        driver.find_element(By.ID, "save").click()
        until(lambda: "revision 1" in driver.find_element(By.ID, "photo-rev").text, "the save makes revision 1")
        until(lambda: js("return document.querySelector('#history li.current')?.dataset.revision") == "1",
              "the history shows revision 1 as current")
        check("exposure=+1" in driver.find_element(By.CSS_SELECTOR, "#history li.current").text,
              "the history's revision 1 is the exposure edit")
        status, asset = server.api("GET", f"/v1/assets/{coffee_id}")
        check(asset["revision"] == 1 and asset["chain"] == "exposure=+1", f"the server has revision 1, exposure=+1 (got {asset['chain']})")
        until(lambda: js("return document.getElementById('view').dataset.preview === undefined && "
                         "document.getElementById('view').complete && document.getElementById('view').naturalWidth > 0 && "
                         "document.getElementById('view').src.includes('rev=1')"), "the saved render is shown")
        saved = js(MEAN, "view")
        check(abs(saved - after) < 12, f"the saved render looks like the preview (mean {saved:.1f} vs {after:.1f})")
        check(float(exposure.get_attribute("value")) == 1.0, "the slider stays at the saved value")
        shot("05-saved")

        # --- Revert to the original: revision 2 -----------------------------
        press(driver.find_element(By.ID, "revert-original"))
        until(lambda: js("return document.querySelector('#history li.current')?.dataset.revision") == "2",
              "revert makes revision 2")
        until(lambda: js("return document.getElementById('view').src.includes('rev=2') && document.getElementById('view').complete"),
              "the reverted render is shown")
        reverted = js(MEAN, "view")
        check(abs(reverted - before) < 3, f"after the revert the photo is as before (mean {reverted:.1f} vs {before:.1f})")
        check(float(exposure.get_attribute("value")) == 0.0, "the exposure slider is back at 0")
        # Go to revision 1 from the history.
        press(driver.find_element(By.CSS_SELECTOR, '#history li[data-revision="1"] button'))
        until(lambda: js("return document.querySelector('#history li.current')?.dataset.revision") == "3",
              "going to revision 1 makes revision 3")
        check(float(exposure.get_attribute("value")) == 1.0, "go to revision 1: its exposure is back on the slider")

        # --- Another client's edit arrives live -----------------------------
        status, _ = server.api("POST", f"/v1/assets/{coffee_id}/edits", {"chain": "exposure=-1"}, {"If-Match": '"r3"'})
        check(status == 200, "another client edits the photo (revision 4)")
        until(lambda: "revision 4" in driver.find_element(By.ID, "photo-rev").text, "the other client's edit arrives live")
        until(lambda: js("return document.getElementById('view').src.includes('rev=4') && document.getElementById('view').complete "
                         "&& document.getElementById('view').naturalWidth > 0"), "the live render is shown")
        darker = js(MEAN, "view")
        check(darker < before - 10, f"the live update shows the darker photo (mean {darker:.1f})")
        check(float(exposure.get_attribute("value")) == -1.0, "the live update moves the exposure slider to -1")
        shot("06-live-update")

        # --- A stale save: 412 "changed elsewhere", reloaded ----------------
        contrast = driver.find_element(By.ID, "p-contrast-amount")
        press(contrast)
        for _ in range(10):
            contrast.send_keys(Keys.ARROW_RIGHT)
        # The other client moves the photo on while this page holds revision 4.
        status, _ = server.api("POST", f"/v1/assets/{coffee_id}/edits", {"chain": "saturation=+20"}, {"If-Match": '"r4"'})
        check(status == 200, "another client edits again (revision 5) while the page has unsaved changes")
        until(lambda: "changed elsewhere" in driver.find_element(By.ID, "alert-text").text,
              "the page warns that the photo changed elsewhere")
        driver.find_element(By.ID, "save").click()
        until(lambda: "revision 5" in driver.find_element(By.ID, "photo-rev").text, "after the 412 the photo is reloaded")
        alert = driver.find_element(By.ID, "alert-text").text
        check("changed elsewhere" in alert and "reloaded" in alert, f"a stale save says 'changed elsewhere' and reloads ({alert!r})")
        status, asset = server.api("GET", f"/v1/assets/{coffee_id}")
        check(asset["revision"] == 5 and "contrast" not in (asset["chain"] or ""), "the stale save changed nothing on the server")
        shot("07-changed-elsewhere")
        driver.find_element(By.ID, "alert-close").click()
        # The bar shrinks and what sticks below it follows (a ResizeObserver):
        # let the layout settle before the next click, as a person would.
        until(lambda: js("return document.getElementById('alert').hidden && "
                         "getComputedStyle(document.documentElement).getPropertyValue('--bar-h') === "
                         "Math.ceil(document.querySelector('header.bar').getBoundingClientRect().height) + 'px'"),
              "the alert closes")
        driver.execute_async_script("requestAnimationFrame(() => requestAnimationFrame(arguments[0]))")

        # --- Auto: concrete values saved, shown on the sliders ---------------
        # Revision 5 is exposure=-1 (dark), saturation=+20. Auto measures the
        # original and replaces white balance, exposure and tone; saturation stays.
        driver.find_element(By.ID, "auto").click()
        until(lambda: "revision 6" in driver.find_element(By.ID, "photo-rev").text, "Auto saves revision 6")
        status, asset = server.api("GET", f"/v1/assets/{coffee_id}")
        chain = asset["chain"] or ""
        check("saturation=+20" in chain and "exposure=-1," not in chain + ",", f"Auto keeps saturation and replaces exposure ({chain})")
        names = {"temperature": "amount", "tint": "amount", "exposure": "ev", "contrast": "amount", "highlights": "amount",
                 "shadows": "amount", "whites": "amount", "blacks": "amount", "vibrance": "amount"}
        written = {}
        for step in chain.split(","):
            name, _, value = step.partition("=")
            if name in names and ":" not in value:
                written[name] = float(value)
        check(len(written) >= 3, f"Auto wrote concrete values for several filters ({chain})")
        for name, param in names.items():
            slider = driver.find_element(By.ID, f"p-{name}-{param}")
            until(lambda: abs(float(slider.get_attribute("value")) - written.get(name, 0.0)) < 1e-6,
                  f"the {name} slider shows Auto's value {written.get(name, 0.0)}")
        until(lambda: js("return document.getElementById('view').src.includes('rev=6') && document.getElementById('view').complete "
                         "&& document.getElementById('view').naturalWidth > 0"), "Auto's render is shown")
        automatic = js(MEAN, "view")
        check(automatic > darker + 10, f"Auto's render is brighter than the -1 EV one (mean {automatic:.1f} vs {darker:.1f})")
        check(js("return document.getElementById('save').disabled") is True, "nothing is left unsaved after Auto")
        shot("07b-auto")

        # --- Upright without reliable lines: nothing saved, the reason shown -
        Select(driver.find_element(By.ID, "upright")).select_by_value("full")
        until(lambda: "perspective unchanged" in driver.find_element(By.ID, "edit-error").text,
              "Upright on a photo without a building says why it changes nothing")
        note = driver.find_element(By.ID, "edit-error").text
        check(note.startswith("upright full: ") and "\n" not in note, f"the reason is one line ({note!r})")
        check(js("return document.getElementById('upright').value") == "" and
              js("return !document.getElementById('upright').disabled"), "the Upright menu is ready again")
        status, asset = server.api("GET", f"/v1/assets/{coffee_id}")
        check(asset["revision"] == 6 and "perspective" not in (asset["chain"] or ""), "Upright without a solution saved nothing")

        # --- Favorite -------------------------------------------------------
        driver.find_element(By.ID, "favorite").click()
        try:
            WebDriverWait(driver, 30, poll_frequency=0.1).until(
                lambda d: d.find_element(By.ID, "favorite").get_attribute("aria-pressed") == "true")
        except TimeoutException:
            status, asset = server.api("GET", f"/v1/assets/{coffee_id}")
            patches = js("return performance.getEntriesByType('resource').filter(e => e.initiatorType === 'fetch').slice(-6).map(e => e.name)")
            check(False, f"favorite is pressed (server: isFavorite {asset['isFavorite']}; last requests {patches})")
        status, asset = server.api("GET", f"/v1/assets/{coffee_id}")
        check(asset["isFavorite"] is True, "favorite is saved on the server")

        # --- Rating, colour label, keywords ---------------------------------
        Select(driver.find_element(By.ID, "rating")).select_by_value("4")
        until(lambda: server.api("GET", f"/v1/assets/{coffee_id}")[1].get("rating") == 4, "choosing 4 stars saves the rating")
        Select(driver.find_element(By.ID, "color-label")).select_by_value("red")
        until(lambda: server.api("GET", f"/v1/assets/{coffee_id}")[1].get("colorLabel") == "red", "choosing Red saves the label")
        keywords = driver.find_element(By.ID, "keywords")
        keywords.clear()
        keywords.send_keys("Birds, Trips/Iceland", Keys.ENTER)
        until(lambda: server.api("GET", f"/v1/assets/{coffee_id}")[1].get("keywords") == ["Birds", "Trips/Iceland"],
              "Enter in the keywords field saves them")
        check(True, "rating, label and keywords are saved from the photo page")

        # --- A preset, previewed, then discarded ----------------------------
        plain = js(MEAN, "view")
        Select(driver.find_element(By.ID, "preset")).select_by_value("bw")
        until(lambda: js("return document.getElementById('view').dataset.chain") == "preset:bw"
              and js("return document.getElementById('view').complete"), "choosing a preset previews it")
        check(driver.find_element(By.ID, "pending-preset").text.startswith("bw"), "the pending preset is shown")
        grey = js("""
            const img = document.getElementById('view'); const c = document.createElement('canvas');
            c.width = 32; c.height = 32; const g = c.getContext('2d'); g.drawImage(img, 0, 0, 32, 32);
            const d = g.getImageData(0, 0, 32, 32).data; let m = 0;
            for (let i = 0; i < d.length; i += 4) m = Math.max(m, Math.max(d[i], d[i+1], d[i+2]) - Math.min(d[i], d[i+1], d[i+2]));
            return m;""")
        check(grey <= 12, f"the 'bw' preset's preview is black and white (largest channel spread {grey})")
        driver.find_element(By.ID, "discard").click()
        until(lambda: js("return document.getElementById('view').dataset.preview === undefined && document.getElementById('view').complete"),
              "discard shows the saved photo again")
        check(driver.find_element(By.ID, "pending-preset").get_attribute("hidden") is not None and
              abs(js(MEAN, "view") - plain) < 3, "discard drops the preset")

        # --- A Lightroom preset uploaded from the preset menu, then applied --
        lightroom = os.path.join(ROOT, "Tests/Fixtures/lightroom/corpus/17-f-stopurban-grunge-black-white.xmp")
        SIGNATURE = """
            const img = document.getElementById('view'); const c = document.createElement('canvas');
            c.width = 32; c.height = 32; const g = c.getContext('2d'); g.drawImage(img, 0, 0, 32, 32);
            return Array.from(g.getImageData(0, 0, 32, 32).data);"""
        before = js(SIGNATURE)
        check(driver.find_element(By.ID, "preset-upload").text.startswith("Upload Lightroom preset"),
              "the preset menu offers to upload a Lightroom preset")
        driver.find_element(By.ID, "preset-file").send_keys(lightroom)
        uploaded = "17-f-stopurban-grunge-black-white"
        until(lambda: js("return document.getElementById('view').dataset.chain") == f"preset:{uploaded}"
              and js("return document.getElementById('view').complete"), "an uploaded Lightroom preset is chosen and previewed")
        check(any(o.get_attribute("value") == uploaded for o in Select(driver.find_element(By.ID, "preset")).options),
              "the preset menu lists the uploaded preset")
        check(any(p["name"] == uploaded for p in server.api("GET", "/v1/presets")[1]["presets"]),
              "GET /v1/presets lists the uploaded preset")
        after = js(SIGNATURE)
        change = sum(abs(a - b) for a, b in zip(before, after)) / len(before)
        check(change > 4, f"the uploaded preset changes the photo's render (mean difference {change:.1f} of 255)")
        driver.find_element(By.ID, "discard").click()
        until(lambda: js("return document.getElementById('view').dataset.preview === undefined && document.getElementById('view').complete"),
              "discard drops the uploaded preset's preview")

        # --- The curve tool: a point added and dragged on the canvas ---------
        curve = driver.find_element(By.CSS_SELECTOR, '[data-filter="curve"] canvas')
        js("arguments[0].scrollIntoView({block: 'center'})", curve)
        flat = js(MEAN, "view")
        size = curve.size["width"]
        # Press on the middle of the diagonal (adds a point there) and drag it up by a quarter.
        webdriver.ActionChains(driver).move_to_element(curve).click_and_hold().move_by_offset(0, -size // 8) \
            .move_by_offset(0, -size // 8).release().perform()
        until(lambda: "curve.n=3" in (js("return document.getElementById('view').dataset.chain") or "")
              and js("return document.getElementById('view').complete && !document.getElementById('viewer').getAttribute('aria-busy')"),
              "dragging on the curve previews a three-point curve")
        y2 = float(driver.find_element(By.ID, "p-curve-y2").get_attribute("value"))
        x2 = float(driver.find_element(By.ID, "p-curve-x2").get_attribute("value"))
        check(abs(x2 - 0.5) < 0.05 and y2 > 0.65, f"the new point is at x {x2}, raised to y {y2} (its number fields follow)")
        lifted = js(MEAN, "view")
        check(lifted > flat + 8, f"raising the curve's middle brightens the preview (mean {flat:.1f} → {lifted:.1f})")
        shot("17-curve")
        driver.find_element(By.ID, "discard").click()
        until(lambda: js("return document.getElementById('view').dataset.preview === undefined && document.getElementById('view').complete"),
              "discard drops the curve")
        check(driver.find_element(By.ID, "p-curve-n").get_attribute("value") == "2", "discard puts the curve back to two points")

        # --- Crop and straighten --------------------------------------------
        status, asset = server.api("GET", f"/v1/assets/{coffee_id}")
        revision = asset["revision"]
        press(driver.find_element(By.ID, "crop-open"))
        until(lambda: js("return !document.getElementById('crop-panel').hidden && "
                         "(document.getElementById('view').dataset.chain || '').includes('crop.w=1') && "
                         "document.getElementById('view').complete && "
                         "getComputedStyle(document.querySelector('.crop-overlay')).display !== 'none'"),
              "the crop tool shows the uncropped photo with the frame")
        frame = lambda: js("const r = document.querySelector('.crop-rect').getBoundingClientRect(); return [r.width, r.height];")
        whole = frame()
        check(driver.find_element(By.ID, "crop-w").get_attribute("value") == "100", "the frame starts as the whole photo (W 100 %)")
        # Drag the bottom-right handle up and left with the pointer.
        handle = driver.find_element(By.CSS_SELECTOR, ".crop-se")
        webdriver.ActionChains(driver).click_and_hold(handle).move_by_offset(-40, -20).move_by_offset(-80, -40).release().perform()
        dragged = frame()
        w_after = float(driver.find_element(By.ID, "crop-w").get_attribute("value"))
        check(dragged[0] < whole[0] - 100 and dragged[1] < whole[1] - 50 and w_after < 90,
              f"dragging the corner handle shrinks the frame ({whole[0]:.0f}×{whole[1]:.0f} → {dragged[0]:.0f}×{dragged[1]:.0f}, W {w_after} %)")
        # The keyboard moves it.
        x_before = float(driver.find_element(By.ID, "crop-x").get_attribute("value"))
        box = driver.find_element(By.CSS_SELECTOR, ".crop-rect")
        for _ in range(3):
            box.send_keys(Keys.ARROW_RIGHT)
        x_after = float(driver.find_element(By.ID, "crop-x").get_attribute("value"))
        check(abs(x_after - x_before - 3) < 0.15, f"arrow keys move the frame (X {x_before} → {x_after} %)")
        # A square, and a straightened horizon.
        Select(driver.find_element(By.ID, "crop-aspect")).select_by_value("1:1")
        square = frame()
        check(abs(square[0] - square[1]) <= 2, f"the 1:1 preset makes the frame square on screen ({square[0]:.0f}×{square[1]:.0f})")
        angle = driver.find_element(By.ID, "crop-angle-value")
        angle.clear()
        angle.send_keys("3", Keys.TAB)
        until(lambda: "straighten.angle=3" in (js("return document.getElementById('view').dataset.chain") or "")
              and js("return document.getElementById('view').complete"), "the straightened photo is shown under the frame")
        shot("12-crop-tool")
        driver.find_element(By.ID, "crop-done").click()
        until(lambda: js("const c = document.getElementById('view').dataset.chain || ''; "
                         "return c.includes('crop.w=') && !c.includes('crop.w=1,') && c.includes('straighten.angle=3')")
              and js("return document.getElementById('view').complete && !document.querySelector('#view').closest('.viewer').getAttribute('aria-busy')"),
              "Done previews the crop")
        until(lambda: js("const i = document.getElementById('view'); return i.complete && i.naturalWidth > 0 && "
                         "Math.abs(i.naturalWidth / i.naturalHeight - 1) < 0.02"), "the cropped preview is square")
        check(js("return document.getElementById('crop-panel').hidden"), "Done closes the crop tool")
        check(js("return document.querySelector('[data-filter=\"crop\"]').classList.contains('edited')"),
              "the crop filter's controls show the unsaved crop")
        driver.find_element(By.ID, "save").click()
        until(lambda: f"revision {revision + 1}" in driver.find_element(By.ID, "photo-rev").text, "saving the crop makes a revision")
        status, asset = server.api("GET", f"/v1/assets/{coffee_id}")
        check(abs(asset["pixelWidth"] - asset["pixelHeight"]) <= 1 and asset["pixelWidth"] < asset["originalPixelHeight"],
              f"the saved photo is square ({asset['pixelWidth']}×{asset['pixelHeight']}, chain {asset['chain']})")
        check("crop=" in asset["chain"] and "straighten=+3" in asset["chain"], f"the recipe has the crop and the angle ({asset['chain']})")
        until(lambda: js(f"const i = document.getElementById('view'); return i.src.includes('rev={revision + 1}') && i.complete && "
                         "i.naturalWidth > 0 && Math.abs(i.naturalWidth - i.naturalHeight) <= 2"),
              "the saved render shown is square")
        fits = js("const i = document.getElementById('view'), v = document.getElementById('viewer').getBoundingClientRect(), "
                  "r = i.getBoundingClientRect(); return r.height <= v.height + 1 && r.width <= v.width + 1")
        check(fits, "a square photo is letterboxed inside the viewer, not cut off")
        shot("13-cropped")

        # An aspect crop made elsewhere (crop=16:9), then a drag in the tool:
        # the saved crop is a plain rectangle (no stale crop.aw/ah), and the
        # sides the drag left on the image's edges are exactly on them.
        status, asset = server.api("POST", f"/v1/assets/{coffee_id}/edits", {"chain": "crop=16:9", "reset": True},
                                   headers={"If-Match": asset["etag"]})
        check(status == 200 and "crop=16:9" in asset["chain"], f"another client crops to 16:9 ({status}, {asset.get('chain')})")
        revision = asset["revision"]
        until(lambda: f"revision {revision}" in driver.find_element(By.ID, "photo-rev").text, "the 16:9 crop arrives live")
        press(driver.find_element(By.ID, "crop-open"))
        until(lambda: js("return !document.getElementById('crop-panel').hidden && document.getElementById('view').complete && "
                         "document.querySelector('.crop-rect').getBoundingClientRect().width > 50"),
              "the crop tool opens on the 16:9 crop")
        check(driver.find_element(By.ID, "crop-x").get_attribute("value") == "0" and
              driver.find_element(By.ID, "crop-w").get_attribute("value") == "100",
              "the 16:9 frame spans the width of the 3:2 photo")
        webdriver.ActionChains(driver).click_and_hold(driver.find_element(By.CSS_SELECTOR, ".crop-nw")) \
            .move_by_offset(30, 20).move_by_offset(30, 20).release().perform()
        check(float(driver.find_element(By.ID, "crop-x").get_attribute("value")) > 2, "dragging the top-left handle moves the left side")
        driver.find_element(By.ID, "crop-done").click()
        until(lambda: not js("return document.getElementById('save').disabled"), "the dragged crop is unsaved")
        driver.find_element(By.ID, "save").click()
        until(lambda: f"revision {revision + 1}" in driver.find_element(By.ID, "photo-rev").text, "saving the dragged crop makes a revision")
        status, asset = server.api("GET", f"/v1/assets/{coffee_id}")
        chain = asset["chain"] or ""
        crop_step = next((step for step in chain.split(",") if step.startswith("crop=")), "")
        numbers = [float(n) for n in crop_step[5:].split(":")] if crop_step.count(":") == 3 else []
        check(numbers and "crop.aw" not in chain and "crop.ah" not in chain and "crop.mode" not in chain,
              f"the saved crop is a plain rectangle, no stale aw/ah ({chain})")
        check(numbers and abs(numbers[0] + numbers[2] - 1) < 1e-9, f"the right side stays exactly on the image's edge (x + w = 1: {crop_step})")

        # --- Albums: create one with the photo in it ------------------------
        title = driver.find_element(By.ID, "album-title")
        js("arguments[0].scrollIntoView({block: 'center'})", title)
        title.send_keys("Trip", Keys.ENTER)
        until(lambda: js("return [...document.querySelectorAll('#photo-albums .album-chip span')].map(s => s.textContent)") == ["Trip"],
              "the new album is shown on the photo")
        status, albums = server.api("GET", "/v1/albums")
        trip = next((a for a in albums["albums"] if a["title"] == "Trip"), None)
        check(trip is not None and trip["assets"] == [coffee_id], "'Create and add' makes the album Trip with the photo in it")
        # Another album, from the menu, then out again.
        server.api("POST", "/v1/albums", {"title": "Later"})
        driver.refresh()
        until(lambda: js("return document.body.dataset.ready === 'true' && !document.getElementById('photo').hidden"), "the photo page reloads")
        until(lambda: js("return document.querySelectorAll('#album-add option').length") == 2, "the other album is offered")
        Select(driver.find_element(By.ID, "album-add")).select_by_visible_text("Later")
        press(driver.find_element(By.ID, "album-add-button"))
        until(lambda: js("return document.querySelectorAll('#photo-albums .album-chip').length") == 2, "added to a second album")
        shot("14-albums")
        press(driver.find_element(By.CSS_SELECTOR, '#photo-albums .album-chip button[aria-label="Remove from Later"]'))
        until(lambda: js("return [...document.querySelectorAll('#photo-albums .album-chip span')].map(s => s.textContent)") == ["Trip"],
              "removed from the second album")
        status, albums = server.api("GET", "/v1/albums")
        check([a["assets"] for a in albums["albums"] if a["title"] == "Later"] == [[]], "the server agrees: Later is empty again")
        # Another client puts it back: the chips follow live (the change feed).
        status, _ = server.api("PATCH", "/v1/albums/Later", {"add": [coffee_id]})
        until(lambda: js("return [...document.querySelectorAll('#photo-albums .album-chip span')].map(s => s.textContent)") == ["Later", "Trip"],
              "another client's album change arrives live")
        check(status == 200, "another client's album change is shown on the photo page live")

        # --- Masks and spots: linear, radial, brush, spot, saved ------------
        # Drawn on the cat photo (no geometry), one correction per kind; the
        # saved render (PNG, through the API) must change in each drawn place
        # and not in a place no mask or spot touches.
        # On the cropped photo the tools show it upright and uncropped (what
        # mask coordinates are fractions of): a radial lands where it is drawn.
        status, asset = server.api("GET", f"/v1/assets/{coffee_id}")
        check("crop=" in (asset["chain"] or ""), f"the coffee photo is cropped ({asset['chain']})")
        until(lambda: js("return document.getElementById('before').naturalWidth > 0"), "the unadjusted photo is loaded")
        press(driver.find_element(By.ID, "mask-tool-radial"))
        until(lambda: "crop.w=1" in (js("return document.getElementById('view').dataset.chain") or "")
              and js("return document.getElementById('view').complete && !document.querySelector('.mask-overlay').hidden"),
              "on a cropped photo the mask tools show the uncropped preview")
        ratios = js("const v = document.getElementById('view'), b = document.getElementById('before'); "
                    "return [v.naturalWidth / v.naturalHeight, b.naturalWidth / b.naturalHeight]")
        check(abs(ratios[0] - ratios[1]) < 0.02, f"the photo drawn on has the uncropped photo's shape ({ratios[0]:.3f} vs {ratios[1]:.3f})")
        cropped_overlay = driver.find_element(By.CSS_SELECTOR, ".mask-overlay")
        w, h = cropped_overlay.size["width"], cropped_overlay.size["height"]
        webdriver.ActionChains(driver).move_to_element_with_offset(cropped_overlay, int(-0.3 * w), int(-0.3 * h)).click_and_hold() \
            .move_to_element_with_offset(cropped_overlay, int(-0.15 * w), int(-0.1 * h)) \
            .move_to_element_with_offset(cropped_overlay, int(-0.1 * w), int(0.0 * h)).release().perform()
        until(lambda: "radial(" in (js("return document.getElementById('view').dataset.chain") or ""), "the radial drawn is previewed")
        shown = js("return document.getElementById('view').dataset.chain")
        centre = [float(v) for v in re.search(r"radial\(([-\d. ]+)", shown).group(1).split()]
        check(all(abs(a - b) < 0.01 for a, b in zip(centre, [0.3, 0.35, 0.1, 0.15])),
              f"the radial is in the uncropped photo's fractions, where it was drawn ({centre})")
        press(driver.find_element(By.ID, "discard"))
        until(lambda: js("return document.querySelector('.mask-overlay').hidden && !document.querySelector('[data-filter=\"local\"] .mask-list li')"),
              "discard drops the drawn correction and closes the tools")

        status, listing = server.api("GET", "/v1/assets?where=" + urllib.request.quote('name="chelsea.jpg"'))
        chelsea_id = listing["assets"][0]["id"]
        driver.get(server.url + f"/#/photo/{chelsea_id}")
        until(lambda: js("return !document.getElementById('photo').hidden && document.getElementById('view').complete "
                         "&& document.getElementById('view').naturalWidth > 0"), "the cat photo opens")
        status, filters = server.api("GET", "/v1/filters")
        local_decl = next(f for f in filters["filters"] if f["id"] == "local")
        check([a["name"] for a in local_decl["structure"]["amounts"]][:3] == ["temperature", "tint", "exposure"]
              and len(driver.find_elements(By.CSS_SELECTOR, '[data-filter="local"] .mask-tools button')) >= 4,
              "/v1/filters declares local's amounts and shapes, and the panel has its tools")
        start_revision = server.api("GET", f"/v1/assets/{chelsea_id}")[1]["revision"]
        check(start_revision == 0, "the cat photo has no edit yet (its renders are compared with the photo before any edit)")
        press(driver.find_element(By.ID, "mask-tool-linear"))
        until(lambda: "crop.w=1" in (js("return document.getElementById('view').dataset.chain") or "")
              and js("return document.getElementById('view').complete && !document.querySelector('.mask-overlay').hidden"),
              "the mask tools show the upright, uncropped preview with the overlay")
        overlay = driver.find_element(By.CSS_SELECTOR, ".mask-overlay")

        def drag(points):
            # points: fractions of the photo; ActionChains offsets are from the element's centre.
            w, h = overlay.size["width"], overlay.size["height"]
            at = lambda p: (int((p[0] - 0.5) * w), int((p[1] - 0.5) * h))
            chain = webdriver.ActionChains(driver).move_to_element_with_offset(overlay, *at(points[0])).click_and_hold()
            for p in points[1:]:
                chain = chain.move_to_element_with_offset(overlay, *at(p))
            chain.release().perform()

        def amount(name, value):
            slider = driver.find_element(By.ID, f"local-{name}")
            js("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))", slider, str(value))

        def corrections():
            return len(driver.find_elements(By.CSS_SELECTOR, '[data-filter="local"] .mask-list li'))

        drag([(0.5, 0.3), (0.5, 0.2), (0.5, 0.1)])            # linear: nothing below y 0.3, full above y 0.1
        until(lambda: corrections() == 1, "dragging with the linear tool adds a correction")
        amount("exposure", -2)
        press(driver.find_element(By.ID, "mask-tool-radial"))
        drag([(0.62, 0.55), (0.8, 0.8), (0.9, 0.95)])           # radial: the box (0.62, 0.55)–(0.9, 0.95)
        until(lambda: corrections() == 2, "dragging a box with the radial tool adds a second correction")
        amount("exposure", 2)
        press(driver.find_element(By.ID, "mask-tool-brush"))
        drag([(0.08, 0.8), (0.15, 0.8), (0.22, 0.8), (0.3, 0.8)])  # brush: a stroke across the bottom left
        until(lambda: corrections() == 3, "a brush stroke adds a third correction")
        amount("exposure", 2.5)
        shot("18-masks")
        check(js("return getComputedStyle(document.querySelector('.mask-overlay')).display") != "none",
              "the selected correction's mask is shown over the photo")
        press(driver.find_element(By.ID, "spot-tool"))
        Select(driver.find_element(By.ID, "spot-mode")).select_by_value("clone")
        js("const s = document.getElementById('spot-size'); s.value = '0.05'; s.dispatchEvent(new Event('input'))")
        drag([(0.5, 0.5), (0.5, 0.35), (0.5, 0.15)])           # spot at the centre, its source up near the top
        until(lambda: len(driver.find_elements(By.CSS_SELECTOR, '[data-filter="retouch"] .mask-list li')) == 1,
              "press and drag with the spot tool adds a spot")
        Select(driver.find_element(By.ID, "spot-mode")).select_by_value("heal")
        drag([(0.2, 0.6)])                                      # a click: a heal spot, its source beside it
        until(lambda: len(driver.find_elements(By.CSS_SELECTOR, '[data-filter="retouch"] .mask-list li')) == 2,
              "a click with the spot tool adds a heal spot")
        until(lambda: all(k in (js("return document.getElementById('view').dataset.chain") or "")
                          for k in ("local=linear(", "radial(", "brush(", "retouch=clone(")),
              "the preview shows the three corrections and the spot")
        shot("19-masks-spot")
        press(driver.find_element(By.ID, "save"))
        until(lambda: f"revision {start_revision + 1}" in driver.find_element(By.ID, "photo-rev").text, "saving the masks makes a revision")
        status, asset = server.api("GET", f"/v1/assets/{chelsea_id}")
        chain = asset["chain"] or ""
        check(all(k in chain for k in ("local=linear(", "exposure=-2", "radial(", "brush(r=", "exposure=+2.5", "retouch=clone(", ") heal(0.2 0.")),
              f"the saved chain is the engine's grammar with the drawn shapes ({chain})")
        numbers = lambda name: [float(v) for v in re.search(name + r"\(([-\d. ]+)", chain).group(1).split()]
        drawn = {"linear": [0.5, 0.3, 0.5, 0.1], "radial": [0.76, 0.75, 0.14, 0.2], "clone": [0.5, 0.5, 0.05], "heal": [0.2, 0.6, 0.05]}
        check(all(abs(a - b) < 0.01 for name, want in drawn.items() for a, b in zip(numbers(name), want)),
              "the pointer maps to the photo's fractions (linear, radial and spot where they were drawn, within 1 %)")
        diffs = driver.execute_async_script(REGION_DIFF, chelsea_id, None, asset["revision"], {
            "linear": [0.1, 0.0, 0.9, 0.08], "radial": [0.72, 0.7, 0.8, 0.8], "brush": [0.12, 0.78, 0.26, 0.82],
            "spot": [0.48, 0.48, 0.52, 0.52], "heal": [0.18, 0.57, 0.22, 0.63], "untouched": [0.05, 0.36, 0.35, 0.5]})
        check("error" not in diffs, f"the renders before and after are read through the API ({diffs.get('error')})")
        check(diffs["linear"]["mean"] < -15, f"the linear gradient darkens the top ({diffs['linear']})")
        check(diffs["radial"]["mean"] > 15, f"the radial brightens its ellipse ({diffs['radial']})")
        check(diffs["brush"]["mean"] > 15, f"the brush stroke brightens where it was painted ({diffs['brush']})")
        check(diffs["spot"]["abs"] > 4, f"the clone spot changes the spot ({diffs['spot']})")
        check(diffs["heal"]["abs"] > 3, f"the heal spot changes its place ({diffs['heal']})")
        check(diffs["untouched"]["abs"] < 1, f"nothing changes where no mask or spot is ({diffs['untouched']})")
        # Switched off and saved: the radial's place is as before.
        press(driver.find_element(By.CSS_SELECTOR, '[data-filter="local"] .mask-list li[data-correction="2"] .mask-on'))
        until(lambda: js("return !document.getElementById('save').disabled"), "switching a correction off is an unsaved change")
        press(driver.find_element(By.ID, "save"))
        until(lambda: f"revision {start_revision + 2}" in driver.find_element(By.ID, "photo-rev").text
              or not driver.find_element(By.ID, "edit-error").get_attribute("hidden") is not None, "the save answers")
        check(driver.find_element(By.ID, "edit-error").get_attribute("hidden") is not None,
              "saving the switched-off correction succeeds (" + driver.find_element(By.ID, "edit-error").text + ")")
        until(lambda: f"revision {start_revision + 2}" in driver.find_element(By.ID, "photo-rev").text, "switching a correction off saves a revision")
        status, asset = server.api("GET", f"/v1/assets/{chelsea_id}")
        off = driver.execute_async_script(REGION_DIFF, chelsea_id, None, asset["revision"], {"radial": [0.72, 0.7, 0.8, 0.8]})
        check(" off" in asset["chain"] and abs(off["radial"]["mean"]) < 1,
              f"a correction switched off renders nothing ({off['radial']})")
        # Every correction and spot deleted: the filters leave the recipe.
        for kind in ("local", "retouch"):
            while driver.find_elements(By.CSS_SELECTOR, f'[data-filter="{kind}"] .mask-list li button'):
                press(driver.find_elements(By.CSS_SELECTOR, f'[data-filter="{kind}"] .mask-list li button')[0])
        press(driver.find_element(By.ID, "save"))
        until(lambda: f"revision {start_revision + 3}" in driver.find_element(By.ID, "photo-rev").text
              or driver.find_element(By.ID, "edit-error").get_attribute("hidden") is None, "deleting them all: the save answers")
        check(f"revision {start_revision + 3}" in driver.find_element(By.ID, "photo-rev").text,
              "deleting them all saves a revision (" + driver.find_element(By.ID, "edit-error").text + ")")
        status, asset = server.api("GET", f"/v1/assets/{chelsea_id}")
        check(not asset["chain"], f"deleting every correction and spot removes local and retouch (chain {asset['chain']!r})")

        # A luminance range from the panel (declared by /v1/filters): a
        # correction of its own over the light tones, darkened; the render
        # changes where the photo was light and not where it was dark.
        press(driver.find_element(By.ID, "mask-add-luminance"))
        until(lambda: corrections() == 1 and driver.find_elements(By.ID, "range-0-low"), "the luminance range button adds a correction with the range's sliders")
        def slide(element_id, value):
            js("arguments[0].value = arguments[1]; arguments[0].dispatchEvent(new Event('input'))", driver.find_element(By.ID, element_id), str(value))
        range_decl = {p["name"]: p for s in local_decl["structure"]["shapes"] if s["type"] == "luminance" for p in s["parameters"]}
        low_slider = driver.find_element(By.ID, "range-0-low")
        check((float(low_slider.get_attribute("min")), float(low_slider.get_attribute("max"))) == (range_decl["low"]["min"], range_decl["low"]["max"]),
              "the range sliders' bounds are /v1/filters' declarations")
        slide("range-0-low", 0.55)
        slide("range-0-feather", 0.05)
        amount("exposure", -1.5)
        until(lambda: "luminance(0.55 1 feather=0.05)" in (js("return document.getElementById('view').dataset.chain") or ""),
              "the preview shows the luminance range")
        shot("20-luminance-range")
        press(driver.find_element(By.ID, "save"))
        until(lambda: f"revision {start_revision + 4}" in driver.find_element(By.ID, "photo-rev").text, "saving the range makes a revision")
        status, asset = server.api("GET", f"/v1/assets/{chelsea_id}")
        check("local=luminance(0.55 1 feather=0.05) exposure=-1.5" in (asset["chain"] or ""), f"the saved chain holds the range ({asset['chain']})")
        ranged = driver.execute_async_script(RANGE_DIFF, chelsea_id, asset["revision"], [0.55, 1, 0.05])
        check("error" not in ranged and ranged["inside"]["n"] > 1000 and ranged["outside"]["n"] > 1000,
              f"the photo has light and dark pixels to compare ({ranged})")
        check(ranged["inside"]["mean"] < -20, f"the range darkens the light tones ({ranged['inside']})")
        check(ranged["outside"]["abs"] < 1.5, f"the range leaves the dark tones as they were ({ranged['outside']})")
        # A colour range picked from the photo, intersected with that correction.
        Select(driver.find_element(By.ID, "mask-draw-as")).select_by_value("intersect")
        press(driver.find_element(By.ID, "mask-add-colour"))
        until(lambda: driver.find_elements(By.ID, "range-1-pick"), "the colour range button adds a colour range to the selected correction")
        press(driver.find_element(By.ID, "range-1-pick"))
        # The colour around the press, as the editor samples it (5×5 pixels of the shown preview, averaged).
        picked = js("const c = new OffscreenCanvas(5, 5), g = c.getContext('2d'), i = document.getElementById('view');"
                    "g.drawImage(i, 0.3 * i.naturalWidth - 2.5, 0.5 * i.naturalHeight - 2.5, 5, 5, 0, 0, 5, 5);"
                    "const d = g.getImageData(0, 0, 5, 5).data; return [0, 1, 2].map((k) => { let t = 0; for (let j = k; j < d.length; j += 4) t += d[j]; return t / 25; })")
        drag([(0.3, 0.5)])
        default_hue = next(p["default"] for s in local_decl["structure"]["shapes"] if s["type"] == "colour" for p in s["parameters"] if p["name"] == "hue")
        colour_hue = lambda: float((re.search(r"&colour\(([-\d.]+)", js("return document.getElementById('view').dataset.chain") or "") or [0, default_hue])[1])
        until(lambda: colour_hue() != default_hue, "the preview shows the picked colour range")
        shot("21-colour-range")
        hue = colour_hue()
        lin = lambda v: v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
        R, G, B = (lin(v / 255) for v in picked)
        X, Y, Z = 0.4124 * R + 0.3576 * G + 0.1805 * B, 0.2126 * R + 0.7152 * G + 0.0722 * B, 0.0193 * R + 0.1192 * G + 0.9505 * B
        f = lambda t: t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116
        want = math.degrees(math.atan2(200 * (f(Y) - f(Z / 1.08883)), 500 * (f(X / 0.95047) - f(Y)))) % 360
        check(abs((hue - want + 180) % 360 - 180) < 2, f"picking sets the range's hue to the photo's there ({hue}°, the pixels' {want:.1f}°)")
        Select(driver.find_element(By.ID, "mask-draw-as")).select_by_value("new")
        for button in driver.find_elements(By.CSS_SELECTOR, '[data-filter="local"] .mask-list li button'):
            press(button)
        press(driver.find_element(By.ID, "save"))
        until(lambda: f"revision {start_revision + 5}" in driver.find_element(By.ID, "photo-rev").text, "deleting the range correction saves")

        # --- A phone's width -----------------------------------------------
        driver.set_window_size(390, 844)
        time.sleep(0.3)
        overflow = js("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        check(overflow <= 1, f"the photo page fits a phone's width (overflow {overflow} px)")
        shot("08-phone-photo")
        press(driver.find_element(By.ID, "crop-open"))
        until(lambda: js("return !document.getElementById('crop-panel').hidden && "
                         "getComputedStyle(document.querySelector('.crop-overlay')).display !== 'none' && "
                         "document.querySelector('.crop-rect').getBoundingClientRect().width > 50"),
              "the crop tool opens at a phone's width")
        overflow = js("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        check(overflow <= 1, f"the crop tool fits a phone's width (overflow {overflow} px)")
        js("document.getElementById('crop-panel').scrollIntoView({block: 'end'})")
        shot("08b-phone-crop")
        press(driver.find_element(By.ID, "crop-cancel"))
        until(lambda: js("return document.getElementById('crop-panel').hidden && document.getElementById('save').disabled"),
              "Cancel closes the crop tool and leaves nothing to save")
        driver.find_element(By.ID, "back").click()
        until(lambda: js("return !document.getElementById('library').hidden && document.querySelectorAll('#grid .tile').length === 2"),
              "back to the library")
        until(lambda: js("return [...document.querySelectorAll('#grid img')].every(i => i.complete && i.naturalWidth > 0)"),
              "the thumbnails load at a phone's width")
        overflow = js("return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        check(overflow <= 1, f"the library fits a phone's width (overflow {overflow} px)")
        until(lambda: js(f"return document.querySelector('.tile[data-id=\"{coffee_id}\"]')?.classList.contains('favorite')"),
              "the library marks the favorite")
        check(True, "back in the library, the photo's tile is marked favorite")
        shot("09-phone-library")
        driver.set_window_size(1280, 900)

        # --- Search with the CLI's query syntax, and a problem+json error ---
        where = driver.find_element(By.ID, "where")
        where.clear()
        # Spaces travel as '+' (URLSearchParams): the server reads the query as a form.
        where.send_keys("favorite and width >= 16", Keys.ENTER)
        until(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#grid .tile")) == 1, "the search 'favorite and width >= 16' finds one photo")
        check(driver.find_element(By.CSS_SELECTOR, "#grid .tile").get_attribute("data-id") == coffee_id,
              "search with spaces in the query syntax: 'favorite and width >= 16' finds the favorite")
        check(js("return document.getElementById('alert').hidden"), "a query with spaces is no error")
        where.clear()
        where.send_keys("width>>3", Keys.ENTER)
        until(lambda: driver.find_element(By.ID, "alert").is_displayed(), "a bad query shows an error")
        message = driver.find_element(By.ID, "alert-text").text
        check("400 invalid-query" in message, f"a bad query shows the API's problem+json message ({message!r})")
        check(not driver.find_elements(By.CSS_SELECTOR, "#grid .tile") and
              "could not be listed" in driver.find_element(By.ID, "library-summary").text,
              "after a bad query the grid is empty and the summary says the listing failed")
        shot("10-query-error")

        # --- The grid by album, from one listing with its thumbnails ---------
        where.clear()
        mints = "return performance.getEntriesByType('resource').filter(e => e.name.includes('/render-url?')).length"
        minted = js(mints)
        Select(driver.find_element(By.ID, "album-filter")).select_by_visible_text("Trip (1)")
        until(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#grid .tile")) == 1, "the album filter shows one photo")
        check(driver.find_element(By.CSS_SELECTOR, "#grid .tile").get_attribute("data-id") == coffee_id, "the album Trip's grid is its photo")
        Select(driver.find_element(By.ID, "album-filter")).select_by_value("")
        until(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#grid .tile")) == 2, "all photos again")
        until(lambda: js("return [...document.querySelectorAll('#grid img')].every(i => i.complete && i.naturalWidth > 0)"),
              "the listed thumbnails load")
        sources = js("return [...document.querySelectorAll('#grid img')].map(i => i.getAttribute('src'))")
        check(js(mints) == minted and all("sig=" in s and "rev=" in s for s in sources),
              "listed thumbnails come signed with the listing (no render-url request)")
        shot("15-album-filter")

        # --- Hide: a hidden photo leaves the default grid --------------------
        chelsea_id = next(t.get_attribute("data-id") for t in driver.find_elements(By.CSS_SELECTOR, "#grid .tile")
                          if t.get_attribute("data-id") != coffee_id)
        driver.find_element(By.CSS_SELECTOR, f'.tile[data-id="{chelsea_id}"] a').click()
        until(lambda: js("return !document.getElementById('photo').hidden"), "the second photo opens")
        driver.find_element(By.ID, "hide").click()
        until(lambda: driver.find_element(By.ID, "hide").get_attribute("aria-pressed") == "true", "Hide is pressed")
        status, asset = server.api("GET", f"/v1/assets/{chelsea_id}")
        check(asset["isHidden"] is True, "hide is saved on the server")
        driver.find_element(By.ID, "back").click()
        until(lambda: js("return !document.getElementById('library').hidden") and
              len(driver.find_elements(By.CSS_SELECTOR, "#grid .tile")) == 1, "the hidden photo leaves the grid")
        check(not driver.find_elements(By.CSS_SELECTOR, f'.tile[data-id="{chelsea_id}"]'), "a hidden photo is not in the default grid")
        driver.find_element(By.ID, "show-hidden").click()
        driver.find_element(By.ID, "where").send_keys(Keys.ENTER)
        until(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#grid .tile")) == 2, "'Hidden' shows it again")
        check(js("return document.getElementById('alert').hidden"), "a new search clears the last search's error")
        check(driver.find_element(By.CSS_SELECTOR, f'.tile[data-id="{chelsea_id}"]').get_attribute("class").find("hidden-photo") >= 0,
              "with 'Hidden' the hidden photo is listed, marked as hidden")
        shot("16-hidden")

        # --- Upright: a chart turned 2.5° (made by the CLI) is levelled ------
        made = os.path.join(folder, "made")
        chart_id = server.run("import", "--library", made, os.path.join(ROOT, "samples", "chart.png")).split("\t")[0]
        server.run("apply", "--library", made, "perspective=0:0:2.5", chart_id)
        turned = os.path.join(folder, "chart-turned.jpg")
        server.run("render", "--library", made, chart_id, "-o", turned)
        driver.find_element(By.ID, "file-picker").send_keys(turned)
        until(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#grid .tile")) == 3, "the turned chart is uploaded")
        status, listing = server.api("GET", "/v1/assets?where=" + urllib.request.quote('name="chart-turned.jpg"'))
        turned_id = listing["assets"][0]["id"]
        driver.find_element(By.CSS_SELECTOR, f'.tile[data-id="{turned_id}"] a').click()
        until(lambda: js("return !document.getElementById('photo').hidden") and js(MEAN, "view") is not None, "the turned chart opens")
        driver.find_element(By.ID, "upright-constrain").click()
        Select(driver.find_element(By.ID, "upright")).select_by_value("level")
        until(lambda: "revision 1" in driver.find_element(By.ID, "photo-rev").text, "Upright Level saves revision 1")
        status, asset = server.api("GET", f"/v1/assets/{turned_id}")
        chain = asset["chain"] or ""
        written = re.search(r"perspective(?:=0:0:|\.rotate=)(-?[0-9.]+)", chain)
        check(written is not None and "vertical" not in chain, f"Upright Level wrote a concrete rotation ({chain})")
        status, found = server.api("GET", f"/v1/assets/{turned_id}/upright?mode=level")
        check(f"perspective.scale={found['constrainedScale']:g}" in chain and found["constrainedScale"] > 100,
              f"with Constrain ticked the scale leaving no empty corner is saved ({chain}, {found['constrainedScale']})")
        rotate = float(written.group(1))
        check(abs(rotate + 2.5) <= 0.15, f"the rotation undoes the 2.5° turn ({rotate})")
        # The slider moves in whole degrees; the number beside it shows the value.
        number = driver.find_element(By.CSS_SELECTOR, "#p-perspective-rotate + input.number")
        until(lambda: abs(float(number.get_attribute("value")) - rotate) < 1e-6, f"the rotate control shows Upright's value {rotate}")
        check(js("return document.getElementById('save').disabled") is True, "nothing is left unsaved after Upright")
        shot("16b-upright")
        driver.find_element(By.ID, "back").click()
        until(lambda: js("return !document.getElementById('library').hidden"), "back to the library")

        # --- The default server: no tokens, no signing keys ----------------
        # (photoedit serve as the README starts it): no token asked for,
        # renders loaded from plain revision-addressed URLs.
        # Answers the test provoked on the first server (401 before the
        # token, 400 bad query, 412 stale save) are logged as failed loads.
        expected = ("invalid-query", "status of 400", "status of 401", "status of 412")
        errors = [e for e in driver.get_log("browser")
                  if e["level"] == "SEVERE" and not any(x in e["message"] for x in expected)]
        check(not errors, "no script errors in the console" + ("" if not errors else f": {errors[:3]}"))
        plain_server = Server(server.binary, os.path.join(folder, "plain"), secured=False)
        driver.execute_script("sessionStorage.clear()")
        driver.get(plain_server.url + "/")
        until(lambda: js("return document.body.dataset.ready === 'true'"), "the page starts on a server without tokens")
        check(not js("return document.getElementById('login').open"), "a server without tokens asks for none")
        driver.find_element(By.ID, "file-picker").send_keys(chelsea)
        until(lambda: js("return [...document.querySelectorAll('#grid img')].length === 1 && "
                         "[...document.querySelectorAll('#grid img')].every(i => i.complete && i.naturalWidth > 0)"),
              "the upload's thumbnail loads without signing keys")
        src = js("return document.querySelector('#grid img').getAttribute('src')")
        check(src.startswith("/v1/assets/") and "rev=0" in src and "sig=" not in src,
              f"without signing keys thumbnails are plain revision-addressed URLs ({src})")
        driver.find_element(By.CSS_SELECTOR, "#grid .tile a").click()
        until(lambda: js(MEAN, "view") is not None, "the photo opens on the plain server")
        start = js(MEAN, "view")
        slider = driver.find_element(By.ID, "p-exposure-ev")
        press(slider)
        for _ in range(10):
            slider.send_keys(Keys.ARROW_LEFT)
        until(lambda: js("return document.getElementById('view').dataset.chain") == "exposure.ev=-0.5"
              and js("return document.getElementById('view').complete"), "a preview on the plain server")
        check(js(MEAN, "view") < start - 10, "on the plain server too, -0.5 EV previews darker")
        shot("11-plain-server")
        driver.find_element(By.ID, "discard").click()

        # The server goes away; meanwhile the CLI edits the photo; the
        # server comes back on the same port and the page, resuming the
        # feed with Last-Event-ID, gets the change it missed.
        plain_id = js("return location.hash.split('/').pop()")
        # The session so far on the server without keys: no 5xx (its
        # counters start again with the restart below, checked again then).
        served, fives = server_errors(plain_server)
        check(served >= 8 and not fives, f"no 5xx in /metrics after the session on the server without keys ({fives[:3] or served})")
        plain_server.stop(close_log=False)
        until(lambda: driver.find_element(By.ID, "live").text == "reconnecting", "the page sees the feed drop")
        plain_server.run("apply", "--library", plain_server.library, "exposure=+1", plain_id)
        plain_server.restart()
        until(lambda: "revision 1" in driver.find_element(By.ID, "photo-rev").text,
              "the change made while the server was down arrives after the reconnection", timeout=45)
        check(driver.find_element(By.ID, "live").text == "live",
              "the feed resumes with Last-Event-ID and brings the change made while it was down")

        # A session on a server without keys: it said so once
        # (GET /v1/capabilities), the page never asked for a signed URL, and
        # nothing failed — the only console errors are the feed's refused
        # reconnections while the server was down.
        refused = "/v1/changes/stream - Failed to load resource: net::ERR_CONNECTION_REFUSED"
        errors = [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and refused not in e["message"]]
        check(not errors, "no console error in a session on a server without keys" + ("" if not errors else f": {errors[:3]}"))
        asked = js("return performance.getEntriesByType('resource').map(e => e.name)")
        check(not [n for n in asked if "/render-url" in n] and len([n for n in asked if "/v1/capabilities" in n]) == 1,
              "without keys the page asks /v1/capabilities once and never /render-url")
        served, fives = server_errors(plain_server)
        check(served and not fives, f"no 5xx in /metrics after the reconnection ({fives[:3] or served})")
        print(f"{len(CHECKS)} checks passed in {time.monotonic() - started:.1f} s", flush=True)
        return 0
    except (Exception, Stop) as error:
        report_failure(error, driver, os.path.join(args.screenshots, "failure.png"))
        return 1
    finally:
        tear_down(driver, (plain_server, server))
        if args.keep:
            print(f"kept {folder}")
        else:
            shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
