#!/usr/bin/env python3
"""Browser test of the puzzle collection page (issue 13).

usage: test_collection.py MAKE_FIXTURE_PAGE FIXTURE.jsonl OUTDIR [--screenshot FILE.png]

Builds the page from the fixture with make_fixture_page (the puzzles/ API),
opens it in headless Chromium through chromedriver (Debian packages chromium,
chromium-driver, python3-selenium; scripts/setup-deps installs them) and
checks, for every puzzle: its diagram is there with its sites, clicking the
answer says correct, clicking each other move says wrong with that move's
exact value, "show solution" steps through the whole line; and the browser
logged no error. Exit 0 pass, 1 fail, 77 (ctest SKIP_RETURN_CODE) only when
Chromium itself is not installed.
"""
import json
import os
import subprocess
import sys
import tempfile

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)
        print("FAIL:", what, file=sys.stderr)


def js_string(v):
    """The text JavaScript's String(v) gives for a JSON value."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    if isinstance(v, (int, float)):
        return repr(v)
    return str(v)


def main():
    args = sys.argv[1:]
    shot = None
    if "--screenshot" in args:
        i = args.index("--screenshot")
        shot = args[i + 1]
        del args[i:i + 2]
    if len(args) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    maker, fixture, outdir = args
    if not os.path.exists(CHROMIUM):
        print("SKIP: %s is not installed (scripts/setup-deps installs it)" % CHROMIUM)
        return 77
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        from selenium.webdriver.common.by import By
    except ImportError:
        print("FAIL: chromium is installed but python3-selenium is not (scripts/setup-deps)",
              file=sys.stderr)
        return 1
    if not os.path.exists(CHROMEDRIVER):
        print("FAIL: chromium is installed but chromium-driver is not (scripts/setup-deps)",
              file=sys.stderr)
        return 1

    subprocess.run([maker, fixture, outdir], check=True)
    puzzles = [json.loads(l) for l in open(fixture) if l.strip()]
    page = os.path.abspath(os.path.join(outdir, "index.html"))

    profile = tempfile.mkdtemp(prefix="loom-chromium-")
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 "--disable-dev-shm-usage", "--window-size=1100,1400",
                 "--user-data-dir=" + profile]:
        opts.add_argument(flag)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=opts)
    try:
        driver.get("file://" + page)
        sections = driver.find_elements(By.CSS_SELECTOR, "section.puzzle")
        check(len(sections) == len(puzzles),
              "%d sections for %d puzzles" % (len(sections), len(puzzles)))

        for i, (sec, p) in enumerate(zip(sections, puzzles)):
            name = "puzzle %d (%s)" % (i + 1, p["id"])
            svg = sec.find_elements(By.CSS_SELECTOR, ".diagram svg")
            check(len(svg) == 1, name + ": one diagram")
            nardy = p["game"] == "nardy"
            sites = sec.find_elements(By.CSS_SELECTOR,
                                      ".diagram .point" if nardy else ".diagram .site")
            if nardy:
                check(len(sites) == 24, name + ": 24 points")
            else:
                n = p["size"]
                want = 3 * n * (n - 1) + 1 - (1 if p["game"] == "migong" else 0)
                check(len(sites) == want, name + ": %d sites, want %d" % (len(sites), want))
            check(sec.find_element(By.CSS_SELECTOR, ".to-move").text.endswith("to move"),
                  name + ": side to move shown")
            check(("difficulty " + js_string(p["difficulty"])) in sec.text,
                  name + ": difficulty shown")

            def play(token):
                """Answers with `token` the way a reader would."""
                if nardy:
                    sec.find_element(By.CSS_SELECTOR,
                                     'button.turn[data-move="%s"]' % token).click()
                elif token == "pass":
                    sec.find_element(By.CSS_SELECTOR, "button.pass").click()
                elif p["game"] == "migong":
                    site = token.split("@")[1]
                    sec.find_element(By.CSS_SELECTOR, '.site[data-site="%s"]' % site).click()
                    sec.find_element(By.CSS_SELECTOR,
                                     'button.pattern[data-move="%s"]' % token).click()
                else:
                    sec.find_element(By.CSS_SELECTOR, '.site[data-site="%s"]' % token).click()
                fb = sec.find_element(By.CSS_SELECTOR, ".feedback")
                return sec.get_attribute("data-result"), fb.text

            result, text = play(p["answer"])
            check(result == "correct" and text.startswith("Correct"),
                  name + ": answer %s gave %r" % (p["answer"], text))
            wrong = [m for m in p["moves"] if m["move"] != p["answer"]]
            check(len(wrong) > 0, name + ": the fixture has a wrong move")
            for m in wrong:
                result, text = play(m["move"])
                want = "value: " + js_string(m["value"])
                check(result == "wrong" and text.startswith("Wrong") and want in text,
                      name + ": wrong move %s gave %r (want %r)" % (m["move"], text, want))

            # A site that is no legal move (an occupied one) is named as such.
            if not nardy:
                legal = {m["move"].split("@")[-1] for m in p["moves"]}
                other = [s for s in sites if s.get_attribute("data-site") not in legal]
                if other:
                    other[0].click()
                    check(sec.get_attribute("data-result") == "illegal",
                          name + ": a site with no legal move says so")

            # Show solution, then step to the end of the line.
            steps = sec.find_element(By.CSS_SELECTOR, ".solution-steps")
            sec.find_element(By.CSS_SELECTOR, ".reset").click()
            sec.find_element(By.CSS_SELECTOR, ".show-solution").click()
            nxt = sec.find_element(By.CSS_SELECTOR, ".next-step")
            for k in range(1, len(p["line"]) + 1):
                items = steps.find_elements(By.TAG_NAME, "li")
                check(len(items) == k, name + ": %d solution steps shown, want %d"
                      % (len(items), k))
                if items:
                    check(items[-1].text.endswith(p["line"][k - 1] or "(no step)"),
                          name + ": step %d reads %r" % (k, items[-1].text))
                marks = sec.find_elements(By.CSS_SELECTOR, ".diagram .js-mark")
                # A pass marks no site.
                placed = sum(1 for t in p["line"][:k] if t != "pass")
                check(len(marks) >= (1 if nardy else placed),
                      name + ": %d solution marks after step %d" % (len(marks), k))
                if k < len(p["line"]):
                    check(nxt.is_enabled(), name + ": next step enabled")
                    nxt.click()
            check(not nxt.is_enabled(), name + ": next step disabled at the end")

        if shot:
            sec = sections[0] if sections else None
            height = driver.execute_script("return document.body.scrollHeight")
            driver.set_window_size(1100, min(int(height) + 100, 16000))
            driver.find_elements(By.CSS_SELECTOR, ".reset")[0].click() if sec else None
            driver.save_screenshot(shot)

        for entry in driver.get_log("browser"):
            if entry.get("level") == "SEVERE":
                check(False, "browser console: " + entry.get("message", ""))
    finally:
        driver.quit()

    if failures:
        print("%d check(s) failed" % len(failures), file=sys.stderr)
        return 1
    print("browser test: %d puzzles checked" % len(puzzles))
    return 0


if __name__ == "__main__":
    sys.exit(main())
