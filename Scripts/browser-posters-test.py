#!/usr/bin/env python3
"""Posters found on TMDb, in a real browser (headless Chromium through selenium), for WebAppBrowserTests.

    Scripts/browser-posters-test.py --url http://127.0.0.1:PORT/ --images PORT --tmdb-log FILE [--screenshots DIR]

The server at --url serves a catalog without poster paths (the decade catalog) with --tmdb-endpoint naming the
stand-in (Scripts/flickr-stand-in.py) whose request log is --tmdb-log; image.tmdb.org is mapped to the local HTTPS
stand-in on --images (--host-resolver-rules; every other host but 127.0.0.1 does not resolve). The checks: the cards
on screen get their posters, loaded (naturalWidth > 0), in boxes of the grey box's size; scrolling through 200
results to the end asks only for the cards that were in view (the stand-in's requests counted), never for all; the
details page shows the w500 poster. The last line, `asked ids: 1,2,…`, names the movies whose poster the page asked
for, for the test's restart check. Each check prints `ok <name>` or `FAIL <name>: <why>`; exit status 1 when any
failed.
"""
import argparse
import os
import sys
import time
import urllib.parse

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

WAIT = 8


def start_browser(image_port):
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    rules = f"MAP image.tmdb.org 127.0.0.1:{image_port} , MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"
    for argument in ["--headless=new", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,800",
                     f"--host-resolver-rules={rules}", "--ignore-certificate-errors", "--disable-extensions",
                     "--no-first-run", "--disable-background-networking"]:
        options.add_argument(argument)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")
    service = Service(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(service=service, options=options)


def wait_for(driver, condition, message, timeout=WAIT):
    return WebDriverWait(driver, timeout, poll_frequency=0.05).until(lambda d: condition(d), message)


def tmdb_requests(log):
    with open(log) as file:
        return [line for line in file.read().splitlines() if "/search/movie?" in line]


# Records every card that is ever in view (its movie id), as the page's own observer sees the viewport.
SEEN_SCRIPT = """
window.__seen = new Set();
const seen = new IntersectionObserver((entries) => {
  for (const entry of entries) if (entry.isIntersecting) window.__seen.add(entry.target.dataset.id);
});
const watch = () => document.querySelectorAll('article.movie').forEach((card) => seen.observe(card));
watch();
new MutationObserver(watch).observe(document.querySelector('#results'), {childList: true, subtree: true});
"""

ASKED_SCRIPT = """
return performance.getEntriesByType('resource').map((e) => e.name)
  .map((name) => /\\/api\\/movies\\/(\\d+)\\/poster$/.exec(new URL(name).pathname)).filter(Boolean).map((m) => m[1]);
"""


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--url", required=True)
    parser.add_argument("--images", type=int, required=True)
    parser.add_argument("--tmdb-log", required=True)
    parser.add_argument("--screenshots")
    options = parser.parse_args()
    url = options.url.rstrip("/") + "/"
    failures = 0
    driver = start_browser(options.images)
    asked = set()
    try:
        def check(name, function):
            nonlocal failures
            try:
                reason = function()
            except Exception as error:  # a broken check is a failure, not the end of the run
                reason = f"{type(error).__name__}: {error}".strip().splitlines()[0]
            if reason:
                failures += 1
                print(f"FAIL {name}: {reason}", flush=True)
            else:
                print(f"ok {name}", flush=True)

        def cards_on_screen():
            driver.get(url + "?q=" + urllib.parse.quote("the"))
            wait_for(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "article.movie")) >= 20,
                     "no cards for 'the'")
            driver.execute_script(SEEN_SCRIPT)
            wait_for(driver, lambda d: d.execute_script("""
                const cards = [...document.querySelectorAll('article.movie')].filter((card) => {
                  const box = card.getBoundingClientRect();
                  return box.bottom > 0 && box.top < innerHeight;
                });
                return cards.length > 0 && cards.every((card) => {
                  const img = card.querySelector('img.poster');
                  return img && img.complete && img.naturalWidth > 0;
                });"""), "the cards on screen did not all get a loaded poster")
            sizes = driver.execute_script("""
                const img = document.querySelector('article.movie img.poster');
                const box = img.getBoundingClientRect();
                return [box.width, box.height, img.src];""")
            assert sizes[0] == 60 and sizes[1] == 90, f"a poster is {sizes[0]}x{sizes[1]}, not the box's 60x90"
            assert sizes[2].startswith("https://image.tmdb.org/t/p/w185/"), sizes[2]
            if options.screenshots:
                os.makedirs(options.screenshots, exist_ok=True)
                driver.save_screenshot(os.path.join(options.screenshots, "search-tmdb-posters-1280x800.png"))
        check("the cards on screen get their TMDb posters, loaded, in the grey box's size", cards_on_screen)

        def scrolling_asks_only_for_cards_seen():
            # Every year's "more" (below the screen: their cards are added out of view), up to 200 cards or more.
            for button in driver.find_elements(By.CSS_SELECTOR, "button.more"):
                if len(driver.find_elements(By.CSS_SELECTOR, "article.movie")) >= 200:
                    break
                count = len(driver.find_elements(By.CSS_SELECTOR, "article.movie"))
                driver.execute_script("arguments[0].click()", button)
                wait_for(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "article.movie")) > count,
                         "a year's 'more' added no cards")
            driver.execute_script("window.scrollTo(0, 0)")
            total = len(driver.find_elements(By.CSS_SELECTOR, "article.movie"))
            assert total >= 200, f"only {total} cards for 'the'"
            # Straight to the end, then back to the middle: the cards passed on the way were never in view.
            driver.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
            time.sleep(1.5)
            driver.execute_script("window.scrollTo(0, document.documentElement.scrollHeight / 2)")
            time.sleep(1.5)
            requests = tmdb_requests(options.tmdb_log)
            seen = set(driver.execute_script("return [...window.__seen]"))
            asked_now = set(driver.execute_script(ASKED_SCRIPT))
            asked.update(asked_now)
            assert asked_now, "the page asked for no poster"
            assert asked_now <= seen, f"asked for cards never in view: {sorted(asked_now - seen)[:10]}"
            assert len(requests) <= len(seen), f"{len(requests)} TMDb requests for {len(seen)} cards seen"
            assert len(requests) < total / 2, f"{len(requests)} TMDb requests for {total} cards"
            print(f"  ({total} cards, {len(seen)} in view at some time, {len(asked_now)} posters asked, "
                  f"{len(requests)} TMDb requests)", flush=True)
        check("scrolling through 200 results asks only for the cards seen", scrolling_asks_only_for_cards_seen)

        def details_large():
            movie_id = sorted(asked)[0]
            driver.get(url + f"movie/{movie_id}")
            wait_for(driver, lambda d: d.execute_script("""
                const img = document.querySelector('section#details .details-head img.poster');
                return img && img.complete && img.naturalWidth > 0 && img.src;"""),
                     "the details page shows no loaded poster")
            src = driver.execute_script("return document.querySelector('section#details img.poster').src")
            assert src.startswith("https://image.tmdb.org/t/p/w500/"), src
            asked.update(driver.execute_script(ASKED_SCRIPT))
        check("the details page shows the w500 poster", details_large)

        def filtered_screenshot():
            driver.get(url + "?q=the&genre=Drama&year=2010..2014")
            wait_for(driver, lambda d: d.execute_script("""
                const chip = document.querySelector('#genres button.chip[aria-pressed="true"]');
                const cards = [...document.querySelectorAll('article.movie')].filter((card) => {
                  const box = card.getBoundingClientRect();
                  return box.bottom > 0 && box.top < innerHeight;
                });
                return chip && cards.length > 0 && cards.every((card) => {
                  const img = card.querySelector('img.poster');
                  return img && img.complete && img.naturalWidth > 0;
                });"""), "the filtered search showed no pressed chip or not every poster")
            asked.update(driver.execute_script(ASKED_SCRIPT))
            driver.save_screenshot(os.path.join(options.screenshots, "search-filtered-1280x800.png"))
        if options.screenshots:
            check("a filtered search, its chip pressed and its posters loaded (screenshot)", filtered_screenshot)
    finally:
        driver.quit()
    print("asked ids: " + ",".join(sorted(asked, key=int)), flush=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
