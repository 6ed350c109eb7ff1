#!/usr/bin/env python3
"""Versions (issue 40) in the web editor, in a real browser (headless chromium
+ chromedriver, selenium), against the real `photoedit serve` with a token.

    test_versions.py --binary .build/debug/photoedit [--screenshots DIR] [--deadline 120]

As a user would: opens a photo the CLI edited, makes a virtual copy with
"Virtual copy…" (the page opens the copy, which says whose copy it is), sees
the master's stack badge in the grid and expands it, takes a snapshot in the
history panel (its name shows on the revision), edits and restores the
snapshot (a new revision with the snapshot's chain), saves a preset from the
edit with the groups' checklist (it shows in the preset menu), then checks two
photos in the grid and syncs the white balance and tone of one onto the other.
Each step is checked in the page and in the library (the API). Exit status 0
when every check passed; the browser and the server are stopped in `finally`.
"""

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from test_editor import CHECKS, ROOT, Server, Stop, browser, check, report_failure, stop, tear_down  # noqa: E402

from selenium.common.exceptions import StaleElementReferenceException, TimeoutException  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402
from selenium.webdriver.common.keys import Keys  # noqa: E402
from selenium.webdriver.support.ui import Select, WebDriverWait  # noqa: E402


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
    folder = tempfile.mkdtemp(prefix="photoedit-web-versions-")
    server = driver = None
    started = time.monotonic()
    try:
        server = Server(os.path.abspath(args.binary), folder)
        library = ["--library", server.library]
        # Two photos, the first edited, imported by the CLI beside the running server.
        out = server.run("import", *library, os.path.join(ROOT, "samples", "coffee.jpg"), os.path.join(ROOT, "samples", "chelsea.jpg"))
        status, listing = server.api("GET", "/v1/assets?sort=name")
        ids = {a["originalFilename"]: a["id"] for a in listing["assets"]}
        check(len(ids) == 2, f"two photos imported ({out.strip()[:80]})")
        coffee, chelsea = ids["coffee.jpg"], ids["chelsea.jpg"]
        server.run("apply", *library, "temperature=+20,exposure=+0.5,vignette=-20", coffee)
        server.run("apply", *library, "contrast=+25", chelsea)

        driver = browser(1280, 900)
        js = driver.execute_script

        def until(condition, what, timeout=30):
            # An element the page re-rendered meanwhile is looked up again.
            def attempt(_):
                try:
                    return condition()
                except StaleElementReferenceException:
                    return False
            try:
                return WebDriverWait(driver, timeout, poll_frequency=0.1).until(attempt)
            except TimeoutException:
                check(False, what + " (timed out)")

        def press(target):
            """Clicks an element, or the element a CSS selector names (looked up again if the page re-rendered it)."""
            for attempt in range(5):
                element = driver.find_element(By.CSS_SELECTOR, target) if isinstance(target, str) else target
                try:
                    js("arguments[0].scrollIntoView({block: 'center'})", element)
                    element.click()
                    return
                except StaleElementReferenceException:
                    if not isinstance(target, str) or attempt == 4:
                        raise
                    time.sleep(0.2)

        def shot(name):
            path = os.path.join(args.screenshots, name + ".png")
            driver.save_screenshot(path)
            print(f"     screenshot {path}", flush=True)

        def chain(photo):
            return server.api("GET", f"/v1/assets/{photo}")[1]["chain"]

        driver.get(server.url + "/")
        until(lambda: js("return document.getElementById('login').open"), "the page asks for the token")
        driver.find_element(By.ID, "token").send_keys(server.token, Keys.ENTER)
        until(lambda: js("return document.body.dataset.ready === 'true'"), "the page starts")
        until(lambda: driver.find_element(By.ID, "live").text == "live", "the change feed is followed")

        # --- A virtual copy from the photo page ---------------------------------
        driver.get(server.url + f"/#/photo/{coffee}")
        until(lambda: js("return !document.getElementById('photo').hidden && document.getElementById('history').children.length === 2"),
              "the photo page opens with its history")
        press("#duplicate")
        until(lambda: js("return document.getElementById('duplicate-dialog').open"), "Virtual copy… opens its dialog")
        driver.find_element(By.ID, "duplicate-name").send_keys("B&W")
        press("#duplicate-go")
        until(lambda: coffee not in driver.current_url, "the page opens the copy")
        copy = driver.current_url.rsplit("/", 1)[1]
        until(lambda: js("return !document.getElementById('copy-of').hidden"), "the copy says it is one")
        check("B&W" in driver.find_element(By.ID, "copy-of").text and
              driver.find_element(By.CSS_SELECTOR, "#copy-of a").get_attribute("href").endswith(coffee),
              "the copy's page names it “B&W” and links to its master")
        status, copy_json = server.api("GET", f"/v1/assets/{copy}")
        check(status == 200 and copy_json["masterIdentifier"] == coffee and copy_json["copyName"] == "B&W"
              and copy_json["chain"] == chain(coffee) and copy_json["sha256"] == server.api("GET", f"/v1/assets/{coffee}")[1]["sha256"],
              "the library holds the copy: same original, the master's edit, named B&W")

        # --- The grid stacks it under its master ---------------------------------
        driver.get(server.url + "/#/")
        until(lambda: js(f"return !!document.querySelector('.tile[data-id=\"{coffee}\"] .stack-toggle')"), "the master has a stack badge")
        badge = js(f"return document.querySelector('.tile[data-id=\"{coffee}\"] .stack-toggle').textContent")
        check(badge.strip().startswith("1 copy") and not js(f"return document.querySelector('.tile[data-id=\"{copy}\"]').checkVisibility()"),
              f"the grid shows the master with a badge of 1 copy, the copy stacked under it ({badge!r})")
        press(f'.tile[data-id="{coffee}"] .stack-toggle')
        until(lambda: js(f"return document.querySelector('.tile[data-id=\"{copy}\"]').checkVisibility()"), "expanding shows the copy")
        order = js("return [...document.querySelectorAll('#grid .tile')].filter(t => !t.hidden).map(t => t.dataset.id)")
        check(order.index(copy) == order.index(coffee) + 1, "expanded, the copy follows its master")
        until(lambda: js(f"const i = document.querySelector('.tile[data-id=\"{copy}\"] img'); return i.complete && i.naturalWidth > 0"),
              "the copy's thumbnail (its own render) loads")
        shot("v1-stack")

        # --- A snapshot in the history panel, then restored ----------------------
        driver.get(server.url + f"/#/photo/{coffee}")
        until(lambda: js("return document.getElementById('history').children.length === 2 && !!window.location.hash.includes('"
                         + coffee + "')"), "the master's page opens")
        field = driver.find_element(By.ID, "snapshot-name")
        field.send_keys("Before client")
        press("#snapshot-take")
        until(lambda: js("return [...document.querySelectorAll('#history .snapshot-name')].some(s => s.textContent.includes('Before client'))"),
              "the snapshot's name shows on its revision in the history")
        check(js("return document.querySelector('#history li[data-revision=\"1\"] .snapshot-name')?.textContent || ''").endswith("Before client"),
              "the name is on revision 1, the one it names")
        status, snapshots = server.api("GET", f"/v1/assets/{coffee}/snapshots")
        check(snapshots["snapshots"] == [{"name": "Before client", "revision": 1, "date": snapshots["snapshots"][0]["date"]}],
              "the library holds the snapshot of revision 1")
        server.run("apply", *library, "exposure=-1", coffee)
        until(lambda: js("return document.getElementById('history').children.length === 3"), "another client's edit arrives live")
        press('#snapshots .snapshot[data-snapshot="Before client"] .snapshot-restore')
        until(lambda: js("return document.getElementById('history').children.length === 4"), "Restore adds a revision")
        check(chain(coffee) == "temperature=+20,exposure=+0.5,vignette=-20" and
              server.api("GET", f"/v1/assets/{coffee}")[1]["revision"] == 3,
              "restoring the snapshot makes revision 3 with the snapshot's chain")
        shot("v2-snapshot")

        # --- Save as preset… with the groups' checklist ---------------------------
        Select(driver.find_element(By.ID, "preset")).select_by_value("__save__")
        until(lambda: js("return document.getElementById('save-preset-dialog')?.open"), "Save as preset… opens its dialog")
        until(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#save-preset-groups input")) >= 8, "the checklist lists the groups")
        labels = js("return [...document.querySelectorAll('#save-preset-groups label')].map(l => l.textContent.trim())")
        check("White balance" in labels and "Tone" in labels and "Crop and rotate" in labels,
              f"the checklist's groups come from /v1/recipe-groups ({labels})")
        check(not driver.find_element(By.ID, "preset-group-geometry").is_selected() and driver.find_element(By.ID, "preset-group-wb").is_selected(),
              "geometry starts unticked, white balance ticked (Lightroom's default)")
        for group in ("effects",):
            box = driver.find_element(By.ID, f"preset-group-{group}")
            if box.is_selected():
                press(box)
        driver.find_element(By.ID, "save-preset-name").send_keys("Warm")
        press("#save-preset-go")
        until(lambda: "Saved Warm" in driver.find_element(By.ID, "save-preset-status").text, "the preset is saved")
        check(js("return [...document.querySelectorAll('#preset option')].some(o => o.value === 'Warm')"), "the new preset is in the preset menu")
        status, presets = server.api("GET", "/v1/presets")
        warm = [p for p in presets["presets"] if p["name"] == "Warm"]
        check(warm and warm[0]["chain"] == "temperature=+20,exposure=+0.5", f"the library lists Warm without the vignette ({warm})")
        driver.find_element(By.CSS_SELECTOR, "#save-preset-dialog .dialog-actions button").click()

        # --- Sync: two checked photos, white balance and tone ---------------------
        driver.get(server.url + "/#/")
        until(lambda: len(driver.find_elements(By.CSS_SELECTOR, "#grid .tile .export-pick")) == 3, "the grid has its check boxes")
        for photo in (coffee, chelsea):
            press(f'.tile[data-id="{photo}"] .export-pick')
        until(lambda: driver.find_element(By.ID, "sync-selected").is_displayed(), "Sync… shows for two checked photos")
        press("#sync-selected")
        until(lambda: js("return document.getElementById('sync-dialog')?.open && document.querySelectorAll('#sync-groups input').length >= 8"),
              "the sync dialog opens with the checklist")
        Select(driver.find_element(By.ID, "sync-source")).select_by_value(coffee)
        for box in driver.find_elements(By.CSS_SELECTOR, "#sync-groups input"):
            if box.is_selected() != (box.get_attribute("value") in ("wb", "tone")):
                press(box)
        shot("v3-sync")
        press("#sync-go")
        until(lambda: "Synced" in driver.find_element(By.ID, "sync-status").text, "the sync is reported")
        check("onto 1 photo" in driver.find_element(By.ID, "sync-status").text, "the dialog says it synced onto 1 photo")
        check(chain(chelsea) == "temperature=+20,exposure=+0.5", f"the target has the source's white balance and tone exactly ({chain(chelsea)})")
        check(chain(coffee) == "temperature=+20,exposure=+0.5,vignette=-20", "the source is unchanged")

        # The 401 before the token is logged as a failed load; nothing else may be.
        logs = [e for e in driver.get_log("browser") if e["level"] == "SEVERE" and "status of 401" not in e["message"]]
        check(not logs, f"no console error ({logs[:3]})")
        print(f"{len(CHECKS)} checks passed in {time.monotonic() - started:.1f} s", flush=True)
        return 0
    except (Exception, Stop) as error:
        report_failure(error, driver, os.path.join(args.screenshots, "v-failure.png"))
        return 1
    finally:
        tear_down(driver, (server,))
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
