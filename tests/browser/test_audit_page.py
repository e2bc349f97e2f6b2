#!/usr/bin/env python3
"""Browser check of a `loom audit` report (issue 18).

usage: test_audit_page.py REPORT_DIR [MIN_DIAGRAMS]

Opens REPORT_DIR/report.html in headless Chromium: the page loads without a
console error, every rule set of report.json has its section, and at least
MIN_DIAGRAMS (default 1) SVG diagrams are present, each with its sites.
Exit 0 pass, 1 fail, 77 when Chromium is not installed.
"""
import json
import os
import sys
import tempfile

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__, file=sys.stderr)
        return 2
    report_dir = sys.argv[1]
    want = int(sys.argv[2]) if len(sys.argv) == 3 else 1
    if not os.path.exists(CHROMIUM):
        print("SKIP: %s is not installed" % CHROMIUM)
        return 77
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By

    report = json.load(open(os.path.join(report_dir, "report.json")))
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                 "--disable-background-networking", "--disable-dev-shm-usage",
                 "--user-data-dir=" + tempfile.mkdtemp(prefix="loom-chromium-")]:
        opts.add_argument(flag)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    failures = []
    try:
        driver.get("file://" + os.path.abspath(os.path.join(report_dir, "report.html")))
        sections = driver.find_elements(By.TAG_NAME, "section")
        if len(sections) < len(report["rule_sets"]):
            failures.append("%d sections for %d rule sets" % (len(sections),
                                                             len(report["rule_sets"])))
        svgs = driver.find_elements(By.CSS_SELECTOR, ".diagram svg")
        if len(svgs) < want:
            failures.append("%d SVG diagrams, want at least %d" % (len(svgs), want))
        for i, svg in enumerate(svgs):
            if not svg.find_elements(By.CSS_SELECTOR, ".site"):
                failures.append("diagram %d has no sites" % (i + 1))
        for entry in driver.get_log("browser"):
            if entry.get("level") == "SEVERE":
                failures.append("browser console: " + entry.get("message", ""))
    finally:
        driver.quit()
    for f in failures:
        print("FAIL:", f, file=sys.stderr)
    if failures:
        return 1
    print("audit page: %d rule sets, %d diagrams" % (len(report["rule_sets"]), len(svgs)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
