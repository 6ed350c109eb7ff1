#!/usr/bin/env python3
"""The web editor's Export dialog in a real browser (headless chromium +
chromedriver, selenium; the same setup as test_editor.py, whose Server and
browser it uses), against the real `photoedit serve` with a token.

    test_export.py --binary .build/debug/photoedit [--screenshots DIR] [--deadline 120]

As a user would: two photos are in the library (one tagged by exiftool with
GPS, serial numbers and a copyright), the grid's check boxes select both,
"Export 2 selected…" opens the dialog; the preset menu lists the built-in
presets; picking share-jpeg fills the fields from the preset; the expected
file size is the size of the render the server makes at those settings (the
same bytes fetched again here: no made-up number), and it follows a change of
the long edge; the metadata menu offers no "all" (HTTP never serves location);
Export runs a job whose ZIP the browser downloads: two JPEGs at the long edge
asked, the copyright kept and no GPS or serial number (exiftool). Exit status
0 when every check passed; each check prints one line. Leaves nothing running.
"""

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_editor import CHECKS, ROOT, Server, Stop, browser, check, report_failure, stop, tear_down  # noqa: E402

from selenium.common.exceptions import TimeoutException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402

COPYRIGHT = "(c) Jane Doe"


def upload(server, path):
    """POST /v1/assets?filename=NAME with the file as the body; the photo's id."""
    with open(path, "rb") as f:
        data = f.read()
    request = urllib.request.Request(server.url + "/v1/assets?filename=" + urllib.request.quote(os.path.basename(path)),
                                     data=data, method="POST")
    request.add_header("Authorization", f"Bearer {server.token}")
    request.add_header("Content-Type", "application/octet-stream")
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.loads(response.read())["id"]


def render_bytes(server, photo, query):
    """The bytes of GET /v1/assets/ID/render?QUERY (with the token)."""
    request = urllib.request.Request(f"{server.url}/v1/assets/{photo}/render?{query}")
    request.add_header("Authorization", f"Bearer {server.token}")
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.read()


def tags(path):
    """exiftool's tags of a file, Group:Name -> value."""
    out = subprocess.run(["exiftool", "-a", "-G0", "-s", "-j", "-q", path], capture_output=True, text=True).stdout
    return json.loads(out)[0] if out.strip() else {}


def long_edge(path):
    width = int(subprocess.run(["vipsheader", "-f", "width", path], capture_output=True, text=True, check=True).stdout)
    height = int(subprocess.run(["vipsheader", "-f", "height", path], capture_output=True, text=True, check=True).stdout)
    return max(width, height)


def bytes_text(n):
    """A size as the dialog writes it (export.js bytesText): "183 KB", "1.2 MB"."""
    return f"{n / 1e6:.1f} MB" if n >= 1e6 else f"{max(1, int(n / 1e3 + 0.5))} KB"


def shown(text):
    """The size at the start of the dialog's text ("183 KB for the first photo (2 photos)"), or None."""
    match = re.match(r"(\d+ KB|\d+\.\d MB)", text)
    return match.group(1) if match else None


def main():
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGALRM, stop)
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--screenshots", default=os.path.join(ROOT, ".build", "web-screenshots"))
    parser.add_argument("--deadline", type=int, default=120, help="seconds before the run gives up")
    parser.add_argument("--process-group", action="store_true", help="lead a process group of our own")
    args = parser.parse_args()
    if args.process_group:
        os.setpgrp()
    signal.alarm(args.deadline)
    os.makedirs(args.screenshots, exist_ok=True)
    folder = tempfile.mkdtemp(prefix="photoedit-web-export-")
    downloads = os.path.join(folder, "downloads")
    os.makedirs(downloads)
    server = driver = None
    started = time.monotonic()
    try:
        server = Server(os.path.abspath(args.binary), folder)
        print(f"serve at {server.url}, library {server.library}", flush=True)
        # A tagged copy of coffee.jpg (location, serials, copyright), and chelsea.jpg.
        tagged = os.path.join(folder, "coffee.jpg")
        shutil.copy(os.path.join(ROOT, "samples", "coffee.jpg"), tagged)
        subprocess.run(["exiftool", "-q", "-overwrite_original", "-GPSLatitude=48.85", "-GPSLatitudeRef=N", "-GPSLongitude=2.35",
                        "-GPSLongitudeRef=E", "-SerialNumber=SN12345", f"-Copyright={COPYRIGHT}", "-Artist=Jane Doe", tagged], check=True)
        coffee = upload(server, tagged)
        chelsea = upload(server, os.path.join(ROOT, "samples", "chelsea.jpg"))

        driver = browser(1280, 900)
        driver.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": downloads})
        js = driver.execute_script

        def until(condition, what, timeout=30):
            try:
                return WebDriverWait(driver, timeout, poll_frequency=0.1).until(lambda d: condition())
            except TimeoutException:
                check(False, what + " (timed out)")

        def shot(name):
            path = os.path.join(args.screenshots, name + ".png")
            driver.save_screenshot(path)
            print(f"     screenshot {path}", flush=True)

        driver.get(server.url + "/")
        until(lambda: js("return document.getElementById('login').open"), "the page asks for an API token")
        field = driver.find_element(By.ID, "token")
        field.send_keys(server.token)
        field.send_keys(Keys.ENTER)
        until(lambda: js("return document.body.dataset.ready === 'true'"), "the page starts after the token")
        until(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#grid .tile .export-pick")) == 2, "both photos in the grid, with check boxes")
        check(True, "the grid shows both photos, each with a selection check box")

        # --- Select both photos in the grid --------------------------------
        button = driver.find_element(By.ID, "export-selected")
        check(not button.is_displayed(), "no 'Export selected' button before a photo is checked")
        for photo in (coffee, chelsea):
            driver.find_element(By.CSS_SELECTOR, f'.tile[data-id="{photo}"] .export-pick').click()
        until(lambda: button.is_displayed() and button.text == "Export 2 selected…", "checking two photos shows 'Export 2 selected…'")
        check(True, "checking two photos shows 'Export 2 selected…'")
        button.click()
        until(lambda: js("return document.getElementById('export-dialog').open"), "the Export dialog opens")
        title = js("return document.getElementById('export-title').textContent")
        check(title == "Export 2 photos", f"the dialog says 'Export 2 photos' ({title!r})")

        # --- Presets and fields ---------------------------------------------
        preset = Select(driver.find_element(By.ID, "export-preset"))
        until(lambda: len(preset.options) >= 4, "the preset menu is filled from GET /v1/export-presets")
        names = [o.get_attribute("value") for o in preset.options]
        check(names[:4] == ["", "web-avif", "print-tiff", "share-jpeg"], f"the preset menu lists the built-in presets ({names})")
        metadata_values = [o.get_attribute("value") for o in Select(driver.find_element(By.ID, "export-metadata")).options]
        check("all" not in metadata_values and "copyright" in metadata_values,
              f"the metadata menu offers no 'all': HTTP never serves location ({metadata_values})")
        preset.select_by_value("share-jpeg")
        value = lambda element_id: driver.find_element(By.ID, element_id).get_attribute("value")  # noqa: E731
        check((value("export-format"), value("export-long-edge"), value("export-quality"), value("export-sharpen"), value("export-metadata"))
              == ("jpeg", "2048", "85", "screen:standard", "no-location"),
              "picking share-jpeg fills format, long edge, quality, sharpening and metadata from the preset")

        # --- The expected file size is a real encode's ----------------------
        size = driver.find_element(By.ID, "export-size")
        until(lambda: shown(size.text) is not None, "the expected file size is shown")
        check(size.text.endswith("for the first photo (2 photos)"), f"the size is said to be the first photo's ({size.text!r})")
        query = "preset=share-jpeg&format=jpeg&metadata=no-location&sharpen=screen%3Astandard&long-edge=2048&quality=85"
        real = len(render_bytes(server, coffee, query))
        check(shown(size.text) == bytes_text(real),
              f"the expected size ({size.text}) is the render's at those settings ({real} bytes)")
        long_field = driver.find_element(By.ID, "export-long-edge")
        long_field.clear()
        long_field.send_keys("300")
        long_field.send_keys(Keys.TAB)   # change fires on blur
        small = len(render_bytes(server, coffee, query.replace("long-edge=2048", "long-edge=300")))
        until(lambda: shown(size.text) == bytes_text(small), f"the expected size follows the long edge ({small} bytes)")
        check(small < real, f"the expected size follows the long edge: {size.text} at 300 px ({small} < {real} bytes)")
        overflow = js("const d = document.getElementById('export-dialog'); return [d.scrollWidth, d.clientWidth]")
        check(overflow[0] <= overflow[1], f"the dialog's fields fit its width (no sideways scrolling: {overflow})")
        shot("20-export-dialog")

        # --- Export: a job, its ZIP downloaded ------------------------------
        driver.find_element(By.ID, "export-go").click()
        status = driver.find_element(By.ID, "export-status")
        until(lambda: status.text == "Exported 2 of 2.", f"the job ends 'Exported 2 of 2.' ({status.text!r})", timeout=60)
        check(True, "the export job ends 'Exported 2 of 2.'")
        until(lambda: [n for n in os.listdir(downloads) if n.endswith(".zip")], "the ZIP is downloaded")
        name = [n for n in os.listdir(downloads) if n.endswith(".zip")][0]
        path = os.path.join(downloads, name)
        until(lambda: zipfile.is_zipfile(path), "the downloaded ZIP is complete")
        with zipfile.ZipFile(path) as archive:
            check(archive.testzip() is None, f"{name} reads whole (every CRC-32 right)")
            entries = sorted(archive.namelist())
            check(entries == ["chelsea.jpg", "coffee.jpg"], f"the ZIP holds the two photos by name ({entries})")
            archive.extractall(os.path.join(folder, "unzipped"))
        for entry in entries:
            file = os.path.join(folder, "unzipped", entry)
            with open(file, "rb") as f:
                check(f.read(2) == b"\xff\xd8", f"{entry} is a JPEG")
            check(long_edge(file) == 300, f"{entry} has the long edge asked (300 px)")
        t = tags(os.path.join(folder, "unzipped", "coffee.jpg"))
        check(t.get("EXIF:Copyright") == COPYRIGHT, "the exported coffee.jpg keeps its copyright")
        check(not [k for k in t if "GPS" in k or "Serial" in k], f"and carries no GPS or serial number ({sorted(t)[:12]}…)")
        driver.find_element(By.CSS_SELECTOR, "#export-dialog .dialog-actions button:not(.primary)").click()
        until(lambda: not js("return document.getElementById('export-dialog').open"), "Close closes the dialog")
        check(len(driver.find_elements(By.CSS_SELECTOR, "#grid .tile .export-pick:checked")) == 2,
              "the selection stays after the export")
        shot("21-export-done")
        print(f"{len(CHECKS)} checks passed in {time.monotonic() - started:.1f} s", flush=True)
        return 0
    except (Exception, Stop) as error:
        report_failure(error, driver, os.path.join(args.screenshots, "export-failure.png"))
        return 1
    finally:
        tear_down(driver, (server,))
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
