#!/usr/bin/env python3
"""The web app of `moviesearch serve` in a real browser (headless Chromium through selenium), used as a person uses it.

    Scripts/browser-tests.py --url http://127.0.0.1:PORT/ --cli .build/debug/moviesearch --cache C --favorites F \
        --photos-dir D [--screenshots DIR]

The server at --url serves --cache with --favorites F and --photos-dir D (the script writes a saved Flickr answer
into D). The checks: typing `dark kni` key by key shows The Dark Knight Rises under its year's header with the
matched spans in <mark>, as `query --json` gives them; a heart set in Top 15 shows pressed in Search, in Favorites
and in `favorites list --json`; details by a click, by a deep link /movie/<id> and /?q=…, Back to the results with
the query and the scroll position kept; the keyboard (↓, Enter, Esc); a year's first cards and its "more" button,
and the top list's tab and length, by the numbers of /api/config (as `query --per-year` lists); the photo grid's
two columns measured from the boxes of its items, with placeholders for photos that fail to load; no sideways
scrolling at 375 and 320 px, nor at 375 px with titles of one grapheme cluster thousands of pixels wide (a third
server, generated catalog); the decade catalog's five-point rating as stars out of 5 labelled "out of 5"; a
catalog title holding an <img onerror=…> shows as text and runs nothing (a second server the script starts on a
tiny catalog, `--no-save`); the filters (genre chips from the facet or /api/genres, pressed by click and by keyboard,
a year range and a least rating, in the address, restored by Back, Forward and a deep link, the top lists' heading
naming them, Clear, the fold behind "Filters (n)" at 375 px), each list against the CLI's for the same filters; no
SEVERE message in the browser's console, but the failed loads of the deliberately
unreachable photos. The browser resolves no host but 127.0.0.1 (--host-resolver-rules): the test never leaves the
machine, and every Flickr photo fails to load.

Each check prints `ok <name>` or `FAIL <name>: <why>`; the exit status is 1 when any failed, 2 when the browser
could not start. --screenshots writes search and details at 375×667 and 1280×800 (PNG, optimized with Pillow when
it is installed).
"""
import argparse
import atexit
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

from selenium import webdriver
from selenium.common.exceptions import TimeoutException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

XSS_TITLE = "<img src=x onerror=window.__xss=1>"
WAIT = 5  # seconds any one thing may take to show


def start_browser(image_port=None):
    options = webdriver.ChromeOptions()
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    # With image_port, Flickr's image host is a local HTTPS server with a self-signed certificate (made by the test).
    rules = "MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"
    extra = []
    if image_port:
        rules = f"MAP live.staticflickr.com 127.0.0.1:{image_port} , " + rules
        extra = ["--ignore-certificate-errors"]
    for argument in ["--headless=new", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,800",
                     f"--host-resolver-rules={rules}", "--disable-extensions",
                     "--no-first-run", "--disable-background-networking"] + extra:
        options.add_argument(argument)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver"))
    return webdriver.Chrome(service=service, options=options)


class Checks:
    def __init__(self):
        self.failures = 0

    def check(self, name, function):
        """Runs `function`: it returns None (ok) or a reason, or raises; prints the line."""
        try:
            reason = function()
        except AssertionError as error:
            reason = str(error) or "assertion failed"
        except TimeoutException as error:
            reason = "timed out" + (f": {error.msg}" if error.msg else "")
        except Exception as error:  # a broken check is a failure, not the end of the run
            reason = f"{type(error).__name__}: {error}".strip().splitlines()[0]
        if reason:
            self.failures += 1
            print(f"FAIL {name}: {reason}", flush=True)
        else:
            print(f"ok {name}", flush=True)


def wait_for(driver, condition, message, timeout=WAIT):
    return WebDriverWait(driver, timeout, poll_frequency=0.02).until(lambda d: condition(d), message)


def scratch_folder():
    """A new temporary folder for a check's own catalog and cache, removed when the script ends."""
    folder = tempfile.mkdtemp(prefix="browser-tests-")
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    return folder


def cli_json(cli, arguments):
    output = subprocess.run([cli] + arguments + ["--json"], check=True, capture_output=True, text=True).stdout
    return json.loads(output)


def utf16_slice(text, start, end):
    encoded = text.encode("utf-16-le")
    return encoded[start * 2:end * 2].decode("utf-16-le")


class Page:
    """The DOM contract of the page (the webapp brief), read through the driver."""

    def __init__(self, driver, url):
        self.driver = driver
        self.url = url.rstrip("/") + "/"

    def open(self, path=""):
        self.driver.get(self.url + path.lstrip("/"))
        wait_for(self.driver, lambda d: d.execute_script("return document.readyState") == "complete", "load")

    def js(self, script, *arguments):
        return self.driver.execute_script(script, *arguments)

    def field(self):
        return self.driver.find_element(By.CSS_SELECTOR, "input#q[type=search]")

    def type(self, text, clear=True):
        field = self.field()
        if clear:
            field.send_keys(Keys.CONTROL, "a")
            field.send_keys(Keys.BACKSPACE)
        for character in text:
            field.send_keys(character)

    def settle(self, quiet=0.25):
        """Waits until #results has not changed for `quiet` seconds (the answers of earlier keys, and the years
        the page adds after its first paint, are in), up to WAIT seconds."""
        self.driver.set_script_timeout(WAIT + 1)
        settled = self.driver.execute_async_script("""
            const [quiet, limit, done] = arguments;
            const results = document.querySelector('#results');
            let last = performance.now();
            const observer = new MutationObserver(() => { last = performance.now(); });
            observer.observe(results, {childList: true, subtree: true, characterData: true, attributes: true});
            const start = performance.now();
            (function poll() {
                const now = performance.now();
                if (now - last >= quiet || now - start >= limit) {
                    observer.disconnect();
                    return done(now - last >= quiet);
                }
                setTimeout(poll, 20);
            })();""", quiet * 1000, WAIT * 1000)
        assert settled, f"#results still changing after {WAIT} s"

    def card(self, movie_id):
        found = self.driver.find_elements(By.CSS_SELECTOR, f'#results article.movie[data-id="{movie_id}"]')
        return found[0] if found else None

    def wait_card(self, movie_id, what):
        return wait_for(self.driver, lambda d: self.card(movie_id), f"no card of movie {movie_id} ({what})")

    def list_shown(self):
        return self.js("const r = document.querySelector('#results');"
                       "const s = document.querySelector('section#details');"
                       "return !!r && r.offsetParent !== null && (!s || s.hidden || s.offsetParent === null);")

    def details_shown(self):
        return self.js("const s = document.querySelector('section#details');"
                       "return !!s && !s.hidden && s.offsetParent !== null;")

    def wait_details(self, title):
        wait_for(self.driver, lambda d: self.details_shown() and self.js(
            "const h = document.querySelector('section#details h1'); return h ? h.textContent : null") == title,
            f"no details page of {title!r}")

    def heart(self, scope):
        return scope.find_element(By.CSS_SELECTOR, "button.heart")

    def view_button(self, view):
        return self.driver.find_element(By.CSS_SELECTOR, f'nav#views button[data-view="{view}"]')

    def headers_and_cards(self):
        """[(year header text, movie id)] in document order: the header each card is under."""
        return self.js("""
            let header = null; const out = [];
            for (const e of document.querySelectorAll('#results h2.year, #results article.movie')) {
                if (e.matches('h2.year')) header = e.textContent.trim();
                else out.push([header, e.dataset.id]);
            }
            return out;""")

    def no_sideways_scroll(self):
        return self.js("return [document.scrollingElement.scrollWidth, window.innerWidth]")


def set_viewport(driver, width, height, mobile):
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})


def save_screenshot(driver, path):
    driver.save_screenshot(path)
    try:
        from PIL import Image
    except ImportError:
        return
    image = Image.open(path)
    image = image.convert("P", palette=Image.ADAPTIVE, colors=128) if image.mode in ("RGB", "RGBA") else image
    image.save(path, optimize=True)


def read_server_port(process):
    line = process.stderr.readline().decode("utf-8", "replace")
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not match:
        raise RuntimeError(f"serve said {line!r}")
    return int(match.group(1))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--url", required=True)
    parser.add_argument("--cli", required=True, help="the moviesearch binary the server runs")
    parser.add_argument("--cache", required=True, help="the server's cache (the decade catalog)")
    parser.add_argument("--favorites", required=True, help="the server's favorites file")
    parser.add_argument("--photos-dir", required=True, help="the server's --photos-dir: a saved answer goes there")
    parser.add_argument("--screenshots", help="a folder for PNGs of search and details at 375×667 and 1280×800")
    parser.add_argument("--flickr-images", type=int, metavar="PORT",
                        help="fetched photos: the server asks a Flickr stand-in, and live.staticflickr.com is mapped "
                             "to this HTTPS port on 127.0.0.1 (runs the photo checks only)")
    parser.add_argument("--flickr-modes", help="with --flickr-images: the stand-in's per-title modes file")
    parser.add_argument("--flickr-log", help="with --flickr-images: the stand-in's request log")
    options = parser.parse_args()
    if options.flickr_images:
        return fetched_photos(options)

    checks = Checks()
    url = options.url.rstrip("/") + "/"
    cli = options.cli

    # The server's numbers, which the page reads from /api/config too rather than copy them.
    with urllib.request.urlopen(f"{url}api/config", timeout=5) as response:
        config = json.loads(response.read())
    top_length = config["top_list_length"]

    # What the page must show, from the CLI on the same cache.
    answer = cli_json(cli, ["query", "dark kni", "--cache", options.cache])
    target = None
    for year in answer["years"]:
        for movie in year["movies"]:
            if movie["title"] == "The Dark Knight Rises":
                target = (year, movie)
    if target is None:
        print("FAIL catalog: `query 'dark kni'` does not find The Dark Knight Rises in this catalog")
        return 1
    year, movie = target
    movie_id, title = str(movie["id"]), movie["title"]
    marks = [utf16_slice(title, start, end) for start, end in movie["match"]]

    # A saved Flickr answer of four photos for the movie: their URLs are Flickr's, which this browser cannot resolve.
    photos = [{"id": f"5300{n}", "owner": "1@N01", "secret": f"abc{n}", "server": "65535", "farm": 66,
               "title": f"photo {n}"} for n in range(1, 5)]
    with open(os.path.join(options.photos_dir, f"{movie_id}.json"), "w") as file:
        json.dump({"photos": {"page": 1, "pages": 1, "perpage": 10, "total": "4", "photo": photos}, "stat": "ok"},
                  file)
    with urllib.request.urlopen(f"{url}api/photos/{movie_id}", timeout=5) as response:
        saved_answer = json.loads(response.read())
        photo_urls = saved_answer["photos"] + [p["image"] for p in saved_answer["pictures"]]
    other_id = next(str(m["id"]) for y in answer["years"] for m in y["movies"] if str(m["id"]) != movie_id)
    unreachable = set(photo_urls) | {u.replace("http://", "https://", 1) for u in photo_urls}

    try:
        driver = start_browser()
    except WebDriverException as error:
        print(f"FAIL browser: cannot start headless Chromium: {error.msg}")
        return 2
    page = Page(driver, url)
    console = []

    def drain_console():
        console.extend(driver.get_log("browser"))

    try:
        page.open()

        def typing():
            wait_for(driver, lambda d: d.switch_to.active_element == page.field(), "the field is not focused on load")
            page.type("dark kni", clear=False)
            page.wait_card(movie_id, "after typing 'dark kni'")
            # The answers of the earlier keys may still be on screen: wait for the last one's marks.
            marked = lambda: [e.text for e in page.card(movie_id).find_elements(By.CSS_SELECTOR, "a.title mark")]
            try:
                wait_for(driver, lambda d: page.card(movie_id) and marked() == marks, "")
            except TimeoutException:
                raise AssertionError(f"marked {marked()}, expected {marks}")
            under = dict((card, header) for header, card in page.headers_and_cards())
            header = under.get(movie_id) or ""
            count = year["count"]
            expected = f"{year['year']} · {count} {'match' if count == 1 else 'matches'}"
            assert header == expected, f"{title} is under {header!r}, not {expected!r}"
            link = page.card(movie_id).find_element(By.CSS_SELECTOR, "a.title")
            assert link.text == title, f"title {link.text!r}"
            assert link.get_attribute("href") == f"{url}movie/{movie_id}", link.get_attribute("href")
        checks.check(f"typing 'dark kni' shows {title} under {year['year']} with {marks} marked", typing)

        def keyboard():
            field = page.field()
            field.send_keys(Keys.ARROW_DOWN)
            wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#results article.movie.selected"),
                     "↓ selects no card")
            first = driver.find_elements(By.CSS_SELECTOR, "#results article.movie")[0].get_attribute("data-id")
            selected = driver.find_element(By.CSS_SELECTOR, "#results article.movie.selected").get_attribute("data-id")
            assert selected == first, f"↓ selected {selected}, not the first card {first}"
            driver.switch_to.active_element.send_keys(Keys.ENTER)
            wait_for(driver, lambda d: page.details_shown(), "Enter opens no details page")
            assert driver.current_url == f"{url}movie/{first}", driver.current_url
            driver.switch_to.active_element.send_keys(Keys.ESCAPE)
            wait_for(driver, lambda d: page.list_shown(), "Esc does not go back to the results")
            assert page.field().get_attribute("value") == "dark kni", page.field().get_attribute("value")
        checks.check("keyboard: ↓ selects, Enter opens, Esc goes back", keyboard)

        def details_by_click():
            page.settle()
            page.wait_card(movie_id, "before the click")
            page.card(movie_id).find_element(By.CSS_SELECTOR, "a.title").click()
            page.wait_details(title)
            assert driver.current_url == f"{url}movie/{movie_id}", driver.current_url
            details = driver.find_element(By.CSS_SELECTOR, "section#details")
            assert str(movie["year"]) in details.find_element(By.CSS_SELECTOR, ".year").text
            for selector in [".rating", ".genres", ".cast", "button.heart"]:
                assert details.find_elements(By.CSS_SELECTOR, selector), f"no {selector} on the details page"
            assert movie["cast"][0] in details.find_element(By.CSS_SELECTOR, ".cast").text, "cast"
            driver.back()
            wait_for(driver, lambda d: page.list_shown() and page.card(movie_id), "Back shows no results")
            assert driver.current_url in (url, f"{url}?q=dark%20kni", f"{url}?q=dark+kni"), driver.current_url
            value = page.field().get_attribute("value")
            assert value == "dark kni", f"the field holds {value!r} after Back"
        checks.check("details by a click on the title; Back returns to the results with the query", details_by_click)

        def rating_on_its_scale():
            scale, rating = movie["rating_scale"], movie["rating"]
            assert scale == 5, f"`query --json` says the decade catalog rates out of {scale}, not 5"
            stars = "★" * round(rating) + "☆" * (5 - round(rating))
            for path, selector in [("?q=dark%20kni", f'#results article.movie[data-id="{movie_id}"] .rating'),
                                   (f"movie/{movie_id}", "section#details .rating")]:
                page.open(path)
                wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, selector), f"{path}: no rating shown")
                shown = driver.find_element(By.CSS_SELECTOR, selector)
                text = shown.text
                assert f"{stars} {rating}/5" in text and "/10" not in text, f"{path}: the rating reads {text!r}"
                labels = [e.get_attribute("aria-label") for e in shown.find_elements(By.CSS_SELECTOR, "[role=img]")]
                assert labels == [f"Rated {rating} out of 5"], f"{path}: the stars are labelled {labels}"
        checks.check(f"{title}'s five-point rating shows as stars out of 5, read as 'out of 5'", rating_on_its_scale)

        def back_keeps_scroll():
            page.type("the")
            wait_for(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "#results article.movie")) >= 20,
                     "fewer than 20 cards for 'the'")
            page.settle()
            cards = driver.find_elements(By.CSS_SELECTOR, "#results article.movie")
            deep = cards[15]
            page.js("arguments[0].scrollIntoView({block: 'center'})", deep)
            time.sleep(0.1)
            before = page.js("return window.scrollY")
            assert before > 200, f"the page did not scroll ({before})"
            deep_title = deep.find_element(By.CSS_SELECTOR, "a.title").text
            deep.find_element(By.CSS_SELECTOR, "a.title").click()
            page.wait_details(deep_title)
            driver.back()
            wait_for(driver, lambda d: page.list_shown(), "Back shows no results")
            wait_for(driver, lambda d: abs(page.js("return window.scrollY") - before) <= 2,
                     f"scrollY is not {before} after Back")
            assert page.field().get_attribute("value") == "the"
        checks.check("Back keeps the scroll position", back_keeps_scroll)

        def new_search_from_details():
            # Typing on a details page is a new history entry of the list: Back goes to the details, Back again to
            # the list they were opened from, Forward twice to the new search (the tab, the field, the address and
            # what is shown must agree at each step).
            page.type("dark kni")
            page.wait_card(movie_id, "before the click")
            page.settle()
            page.card(movie_id).find_element(By.CSS_SELECTOR, "a.title").click()
            page.wait_details(title)
            page.type("the")
            wait_for(driver, lambda d: page.list_shown() and "q=the" in d.current_url, "typing shows no list")
            page.settle()
            time.sleep(0.5)  # the address follows typing at most a few times a second
            for step, expected in [("Back", "details"), ("Back", "dark kni"), ("Forward", "details"),
                                   ("Forward", "the")]:
                driver.back() if step == "Back" else driver.forward()
                if expected == "details":
                    page.wait_details(title)
                    assert driver.current_url == f"{url}movie/{movie_id}", f"{step}: {driver.current_url}"
                    continue
                wait_for(driver, lambda d: page.list_shown() and page.field().get_attribute("value") == expected,
                         f"{step} shows no list for {expected!r}")
                page.settle()
                pressed = page.view_button("search").get_attribute("aria-pressed")
                assert pressed == "true", f"{step}: the Search tab is not pressed ({pressed})"
                summary = driver.find_element(By.CSS_SELECTOR, "#summary").text
                assert "match" in summary, f"{step} to {expected!r}: the summary reads {summary!r}"
                if expected == "dark kni":
                    assert page.card(movie_id), f"{step}: no card of {title} for 'dark kni'"
        checks.check("a new search from a details page: Back to the details, Back to the old results, Forward",
                     new_search_from_details)

        def deep_link_and_photos():
            page.open(f"movie/{movie_id}")
            page.wait_details(title)
            wait_for(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "section#details div.photos > *")) == 4,
                     "the photo grid does not hold 4 items")
            # Every photo fails to load (no host but 127.0.0.1 resolves): each becomes a placeholder, or at least
            # never a broken image.
            wait_for(driver, lambda d: page.js("""
                return [...document.querySelectorAll('section#details div.photos .photo')].every(e =>
                    e.matches('.photo.placeholder') || (e.complete && e.naturalWidth > 0));"""),
                "a failed photo shows as a broken image, not a placeholder")
            boxes = page.js("""
                return [...document.querySelectorAll('section#details div.photos > *')].map(e => {
                    const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; });""")
            lefts = sorted({round(b[0]) for b in boxes})
            assert len(lefts) == 2, f"the photos' left edges are {lefts}, not two columns ({boxes})"
            assert abs(boxes[0][1] - boxes[1][1]) < 1 and boxes[0][0] < boxes[1][0], f"row one: {boxes[:2]}"
            assert boxes[2][1] >= boxes[0][1] + boxes[0][3] - 1, f"row two starts inside row one: {boxes}"
            assert all(b[2] > 20 and b[3] > 20 for b in boxes), f"an empty box: {boxes}"
            page.open(f"movie/{other_id}")
            wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "section#details p.photos-status.no-key"),
                     f"no line about the missing key on movie {other_id}, which has no saved answer")
            line = driver.find_element(By.CSS_SELECTOR, "section#details p.photos-status.no-key").text
            assert "FLICKR_API_KEY" in line and "--flickr-key" in line, line
        checks.check("deep link /movie/<id>; the photo grid's two columns of placeholders; no key",
                     deep_link_and_photos)

        def deep_link_query():
            page.open("?q=dark")
            wait_for(driver, lambda d: page.card(movie_id), "/?q=dark shows no results")
            assert page.field().get_attribute("value") == "dark", page.field().get_attribute("value")
        checks.check("deep link /?q=dark", deep_link_query)

        def more_in_a_year():
            # The page asks with the server's numbers (`GET /api/config`), not copies of them: a year lists the
            # default per year, and its "more" button the rest up to the maximum, as `query --per-year` does.
            full = cli_json(cli, ["query", "the", "--per-year", str(config["maximum_per_year"]),
                                  "--cache", options.cache])
            year = next((y for y in full["years"] if y["count"] > config["default_per_year"]), None)
            assert year, "no year of 'the' has more matches than the default per year"
            section = f'#results section.year-group[data-year="{year["year"]}"]'
            shown = lambda: [e.get_attribute("data-id")
                             for e in driver.find_elements(By.CSS_SELECTOR, section + " article.movie")]
            page.open("?q=the")
            wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, section + " button.more"),
                     f"{year['year']} shows no 'more' button")
            expected = [str(m["id"]) for m in year["movies"]]
            assert shown() == expected[:config["default_per_year"]], f"{year['year']} first lists {shown()}"
            driver.find_element(By.CSS_SELECTOR, section + " button.more").click()
            try:
                wait_for(driver, lambda d: shown() == expected, "")
            except TimeoutException:
                raise AssertionError(f"after 'more', {year['year']} lists {len(shown())} cards, not {len(expected)}")
        checks.check("a year lists the server's default per year, and its 'more' button the rest", more_in_a_year)

        def tab_from_deep_link():
            # A details page opened by its address: a tab is a new entry, Back returns to the details, and the
            # page's own Back button then shows the tab's list in place of the details (no entry before it to go to).
            page.open(f"movie/{movie_id}")
            page.wait_details(title)
            page.view_button("top").click()
            wait_for(driver, lambda d: page.list_shown() and d.current_url == f"{url}?view=top", "Top 15 not shown")
            wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#results article.movie"), "no Top 15")
            driver.back()
            page.wait_details(title)
            driver.find_element(By.CSS_SELECTOR, "section#details button.back").click()
            wait_for(driver, lambda d: page.list_shown() and d.current_url == f"{url}?view=top",
                     f"the page's Back shows no Top 15 (at {driver.current_url})")
            assert page.view_button("top").get_attribute("aria-pressed") == "true", "Top 15 is not pressed"
            assert page.view_button("search").get_attribute("aria-pressed") == "false", "Search is pressed"
            wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#results article.movie"),
                     "the Top 15 list is empty after Back")
            assert driver.title == "Movie search", driver.title
        checks.check("a tab from a deep-linked details page; Back; the page's Back button shows the tab's list",
                     tab_from_deep_link)

        def hearts():
            page.open()
            favorites_button = page.view_button("favorites")
            before = int(re.fullmatch(r"Favorites \((\d+)\)", favorites_button.text.strip()).group(1))
            label = page.view_button("top").text.strip()
            assert label == f"Top {top_length}", f"the top list's tab says {label!r}"
            page.view_button("top").click()
            wait_for(driver, lambda d: page.view_button("top").get_attribute("aria-pressed") == "true",
                     "the Top 15 button is not pressed")
            wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#results article.movie"), "Top 15 is empty")
            cards = driver.find_elements(By.CSS_SELECTOR, "#results article.movie")
            assert len(cards) == top_length, f"Top {top_length} shows {len(cards)} cards"
            chosen = next(c for c in cards if page.heart(c).get_attribute("aria-pressed") == "false")
            chosen_id = chosen.get_attribute("data-id")
            chosen_title = chosen.find_element(By.CSS_SELECTOR, "a.title").text
            heart = page.heart(chosen)
            assert heart.get_attribute("aria-label") == f"Favorite {chosen_title}", heart.get_attribute("aria-label")
            heart.click()
            wait_for(driver, lambda d: page.heart(page.card(chosen_id)).get_attribute("aria-pressed") == "true",
                     "the heart is not pressed after the click")
            wait_for(driver, lambda d: page.view_button("favorites").text.strip() == f"Favorites ({before + 1})",
                     f"the Favorites button does not say {before + 1}")
            page.view_button("search").click()
            page.field().click()
            page.type(chosen_title)
            page.wait_card(chosen_id, f"searching {chosen_title!r}")
            page.settle()
            pressed = page.heart(page.card(chosen_id)).get_attribute("aria-pressed")
            assert pressed == "true", f"in Search the heart is {pressed}"
            page.view_button("favorites").click()
            page.wait_card(chosen_id, "in Favorites")
            pressed = page.heart(page.card(chosen_id)).get_attribute("aria-pressed")
            assert pressed == "true", f"in Favorites the heart is {pressed}"
            listed = cli_json(cli, ["favorites", "list", "--favorites", options.favorites, "--cache", options.cache])
            text = json.dumps(listed)
            assert f'"id": {chosen_id}' in text or f'"id": "{chosen_id}"' in text, f"favorites list: {text[:300]}"
            page.open(f"movie/{chosen_id}")
            page.wait_details(chosen_title)
            pressed = driver.find_element(By.CSS_SELECTOR, "section#details button.heart").get_attribute(
                "aria-pressed")
            assert pressed == "true", f"on the details page the heart is {pressed}"
        checks.check("a heart set in Top 15 shows in Search, Favorites, details and `favorites list`", hearts)

        def narrow(width, height):
            def check():
                set_viewport(driver, width, height, True)
                try:
                    for path, ready in [("?q=the", lambda d: page.card(movie_id) or d.find_elements(
                            By.CSS_SELECTOR, "#results article.movie")),
                                        (f"movie/{movie_id}", lambda d: page.details_shown())]:
                        page.open(path)
                        wait_for(driver, ready, f"{path} did not show")
                        time.sleep(0.1)
                        scroll, inner = page.no_sideways_scroll()
                        assert inner == width, f"{path}: innerWidth {inner}: the page is wider than the screen"
                        assert scroll <= inner, f"{path}: scrollWidth {scroll} > innerWidth {inner}"
                finally:
                    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
            return check
        checks.check("no sideways scrolling at 375 px", narrow(375, 667))
        checks.check("no sideways scrolling at 320 px", narrow(320, 568))

        filter_checks(checks, driver, page, cli, options.cache, url, top_length)

        drain_console()

        def script_in_a_title():
            folder = scratch_folder()
            catalog = os.path.join(folder, "xss.json")
            with open(catalog, "w") as file:
                json.dump({"movies": [{"title": XSS_TITLE, "year": 2001, "rating": 4, "genres": ["Drama"],
                                       "cast": ["<b>Bold</b>"], "overview": "<script>window.__xss=2</script>"},
                                      {"title": "Plain", "year": 2001, "rating": 3}]}, file)
            cache = os.path.join(folder, "xss.mscache")
            subprocess.run([cli, "index", catalog, "-o", cache], check=True, capture_output=True)
            server = subprocess.Popen([cli, "serve", "--cache", cache, "--listen", "127.0.0.1:0", "--no-save",
                                       "--quiet"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            try:
                port = read_server_port(server)
                other = Page(driver, f"http://127.0.0.1:{port}/")
                other.open()
                other.type("img src")
                wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "#results article.movie"),
                         "no card for 'img src'")
                other.settle()
                shown = driver.find_element(By.CSS_SELECTOR, "#results article.movie a.title").text
                assert shown == XSS_TITLE, f"the title shows as {shown!r}"
                xss_id = driver.find_element(By.CSS_SELECTOR, "#results article.movie").get_attribute("data-id")
                other.open(f"movie/{xss_id}")
                other.wait_details(XSS_TITLE)
                time.sleep(0.3)
                injected = other.js("return [window.__xss, document.querySelectorAll("
                                    "'#results img:not(.poster), section#details img:not(.poster):not(.photo),"
                                    " #results b, section#details b, #results script, section#details script')"
                                    ".length]")
                assert injected == [None, 0], f"window.__xss and injected elements: {injected}"
            finally:
                server.terminate()
                server.wait(timeout=5)
        checks.check("a title holding <img onerror=…> shows as text and runs nothing", script_in_a_title)

        def long_clusters():
            # Two titles that are each one grapheme cluster thousands of pixels wide, which no line break can cut:
            # a letter under 800 combining marks (U+0489), and 300 people joined by ZWJ. Made here, never committed.
            zalgo = "Z" + "\u0489" * 800
            crowd = "\u200d".join(["\U0001F9D1"] * 300)
            folder = scratch_folder()
            catalog = os.path.join(folder, "clusters.json")
            with open(catalog, "w") as file:
                # The newest years, so that their year groups are on screen (groups below it are not laid out).
                json.dump({"movies": [{"title": zalgo, "year": 2003, "rating": 9, "critic_rating": 9},
                                      {"title": crowd, "year": 2002, "rating": 8, "critic_rating": 8},
                                      {"title": "Plain", "year": 2001, "rating": 7}]}, file)
            cache = os.path.join(folder, "clusters.mscache")
            subprocess.run([cli, "index", catalog, "-o", cache], check=True, capture_output=True)
            server = subprocess.Popen([cli, "serve", "--cache", cache, "--listen", "127.0.0.1:0", "--no-save",
                                       "--quiet"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
            set_viewport(driver, 375, 667, True)
            try:
                other = Page(driver, f"http://127.0.0.1:{read_server_port(server)}/")
                titles = lambda: other.js("return [...document.querySelectorAll("
                                          "'#results a.title, section#details h1')].map(e => e.textContent)")
                def measure(where, shown):
                    wait_for(driver, lambda d: shown(titles()), f"{where}: the long titles do not show")
                    time.sleep(0.1)
                    scroll, inner = other.no_sideways_scroll()
                    assert inner == 375, f"{where}: innerWidth {inner}"
                    assert scroll <= inner, f"{where}: scrollWidth {scroll} > innerWidth {inner}"
                both = lambda found: zalgo in found and crowd in found
                other.open("?q=%21")  # no words: every movie matches
                measure("the results", both)
                for view in ["top", "critics"]:
                    other.open()
                    wait_for(driver, lambda d: other.view_button(view).is_displayed(), f"no {view} button")
                    other.view_button(view).click()
                    measure(f"the {view} list", both)
                for number, title_shown in enumerate([zalgo, crowd]):
                    other.open(f"movie/{number}")
                    measure(f"the details of movie {number}", lambda found: title_shown in found)
            finally:
                driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
                server.terminate()
                server.wait(timeout=5)
        checks.check("titles of one long grapheme cluster never scroll the page sideways at 375 px "
                     "(results, top lists, details)", long_clusters)

        drain_console()

        def console_is_clean():
            severe, ignored = [], 0
            for entry in console:
                if entry.get("level") != "SEVERE":
                    continue
                message = entry.get("message", "")
                # "<page URL> - Loading the image '<URL>' violates … "img-src …"", or "<URL> - Failed to load
                # resource: net::ERR_NAME_NOT_RESOLVED": the deliberate photos that cannot load.
                blocked = re.search(r"Loading the image '([^']+)' violates [^\"]*\"img-src", message)
                failed = re.match(r"(\S+) - Failed to load resource: net::ERR_NAME_NOT_RESOLVED", message)
                if (blocked and blocked.group(1) in unreachable) or (failed and failed.group(1) in unreachable):
                    ignored += 1
                    continue
                severe.append(message)
            assert not severe, f"{len(severe)} SEVERE: " + " | ".join(severe[:3])
            print(f"  (console: {len(console)} messages, {ignored} failed loads of the unreachable photos ignored)")
        checks.check("no SEVERE messages in the browser console", console_is_clean)

        if options.screenshots:
            def screenshots():
                os.makedirs(options.screenshots, exist_ok=True)
                for width, height in [(375, 667), (1280, 800)]:
                    set_viewport(driver, width, height, width < 600)
                    try:
                        page.open()
                        page.type("dark")
                        page.wait_card(movie_id, "for the screenshot")
                        page.settle()
                        time.sleep(0.2)
                        save_screenshot(driver, os.path.join(options.screenshots, f"search-{width}x{height}.png"))
                        page.open(f"movie/{movie_id}")
                        page.wait_details(title)
                        time.sleep(0.3)
                        save_screenshot(driver, os.path.join(options.screenshots, f"details-{width}x{height}.png"))
                    finally:
                        driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
            checks.check(f"screenshots in {options.screenshots}", screenshots)
    finally:
        driver.quit()

    if checks.failures:
        print(f"{checks.failures} failed")
        return 1
    print("all passed")
    return 0


def filter_checks(checks, driver, page, cli, cache, url, top_length):
    """The filters (issue 37): genre chips from the search's facet (/api/genres with no query), pressed ones
    aria-pressed="true", a year range and a least rating, all in the address, Back and a deep link restoring them, the
    top lists honouring them and naming them in their heading, one button clearing them, the 375 px fold behind
    "Filters (n)"; every list against the CLI's answer for the same filters."""

    def search_ids(arguments):
        answer = cli_json(cli, ["query"] + arguments + ["--cache", cache])
        return [str(m["id"]) for y in answer["years"] for m in y["movies"]]

    def top_ids(arguments):
        return [str(m["id"]) for m in cli_json(cli, ["top"] + arguments + ["--cache", cache])["movies"]]

    def shown_ids():
        return page.js("return [...document.querySelectorAll('#results article.movie')].map(a => a.dataset.id)")

    def wait_ids(expected, what):
        try:
            wait_for(driver, lambda d: shown_ids() == expected, "")
        except TimeoutException:
            raise AssertionError(f"{what}: the cards are {shown_ids()[:6]}…, the CLI's {expected[:6]}…")

    def chips():
        """[(genre, count text, aria-pressed)] of the chips in order."""
        return page.js("return [...document.querySelectorAll('#genres button.chip')].map(c => "
                       "[c.dataset.genre, c.querySelector('.count').textContent, c.getAttribute('aria-pressed')])")

    def chip(name):
        for element in driver.find_elements(By.CSS_SELECTOR, "#genres button.chip"):
            if element.get_attribute("data-genre") == name:
                return element
        return None

    def pressed():
        return [name for name, _, state in chips() if state == "true"]

    def query_of(address):
        return urllib.parse.parse_qs(urllib.parse.urlsplit(address).query)

    def fields():
        return page.js("return ['year-from', 'year-to', 'min-rating'].map(i => document.getElementById(i).value)")

    def set_field(element_id, value):
        element = driver.find_element(By.ID, element_id)
        element.send_keys(Keys.CONTROL, "a")
        element.send_keys(Keys.BACKSPACE)
        element.send_keys(value)
        element.send_keys(Keys.ENTER)  # a number field's change: Enter (or leaving it)

    def chip_narrows():
        page.open("?q=the")
        wait_ids(search_ids(["the"]), "'the' before any filter")
        facet = cli_json(cli, ["query", "the", "--facets", "genre", "--cache", cache])["facets"]["genre"]
        expected = [(g["name"], f"{g['count']:,}") for g in facet][:12]
        wait_for(driver, lambda d: [(n, c) for n, c, _ in chips()][:12] == expected,
                 f"the chips are not the facet's first 12 genres {expected}")
        assert pressed() == [], f"pressed before any click: {pressed()}"
        chip("Drama").click()
        wait_ids(search_ids(["the", "--genre", "Drama"]), "'the' under Drama")
        wait_for(driver, lambda d: pressed() == ["Drama"], "the Drama chip is not the one pressed")
        assert query_of(driver.current_url) == {"q": ["the"], "genre": ["Drama"]}, driver.current_url
        summary = driver.find_element(By.CSS_SELECTOR, "#summary").text
        total = cli_json(cli, ["query", "the", "--genre", "Drama", "--cache", cache])["total"]
        assert f"{total:,} match" in summary and "Drama" in summary, f"the summary reads {summary!r}"
    checks.check("a genre chip narrows the results to the CLI's --genre answer, pressed and in the address",
                 chip_narrows)

    def chips_by_keyboard():
        # Chips are buttons: focused (as Tab would), Space presses one and Enter lets it go; the focus stays on it
        # while the chips are redrawn from the new answer's facet.
        comedy = chip("Comedy")
        page.js("arguments[0].focus()", comedy)
        comedy.send_keys(Keys.SPACE)
        wait_ids(search_ids(["the", "--genre", "Drama", "--genre", "Comedy"]), "'the' under Drama and Comedy")
        wait_for(driver, lambda d: sorted(pressed()) == ["Comedy", "Drama"], "Space did not press Comedy")
        focused = page.js("return document.activeElement.dataset.genre || document.activeElement.id")
        assert focused == "Comedy", f"the focus went to {focused!r}"
        assert page.js("return document.activeElement.tagName") == "BUTTON"
        driver.switch_to.active_element.send_keys(Keys.ENTER)
        wait_ids(search_ids(["the", "--genre", "Drama"]), "'the' under Drama again")
        wait_for(driver, lambda d: pressed() == ["Drama"], "Enter did not let Comedy go")
    checks.check("the chips work from the keyboard (Space, Enter) and keep the focus", chips_by_keyboard)

    def years_and_rating():
        set_field("year-from", "2010")
        set_field("year-to", "2014")
        set_field("min-rating", "4")
        arguments = ["the", "--genre", "Drama", "--year", "2010..2014", "--min-rating", "4"]
        wait_ids(search_ids(arguments), "'the' under Drama, 2010..2014, rated 4 or more")
        wait_for(driver, lambda d: query_of(d.current_url).get("min_rating") == ["4"], "min_rating is not in the URL")
        assert query_of(driver.current_url) == {"q": ["the"], "genre": ["Drama"], "year": ["2010..2014"],
                                                "min_rating": ["4"]}, driver.current_url
        assert driver.find_element(By.ID, "filters-toggle").get_attribute("textContent") == "Filters (3)"
    checks.check("a year range and a least rating narrow the results and go in the address", years_and_rating)

    def back_restores():
        driver.back()
        wait_ids(search_ids(["the", "--genre", "Drama", "--year", "2010..2014"]), "Back: 'the' without min_rating")
        assert fields() == ["2010", "2014", ""], f"Back: the fields hold {fields()}"
        assert pressed() == ["Drama"], pressed()
        assert query_of(driver.current_url) == {"q": ["the"], "genre": ["Drama"], "year": ["2010..2014"]}, \
            f"Back: the address is {driver.current_url}"
        driver.forward()
        wait_ids(search_ids(["the", "--genre", "Drama", "--year", "2010..2014", "--min-rating", "4"]),
                 "Forward: the least rating again")
        assert fields() == ["2010", "2014", "4"], f"Forward: the fields hold {fields()}"
    checks.check("Back and Forward restore the filters before and after", back_restores)

    def top_heading():
        page.view_button("top").click()
        arguments = ["--genre", "Drama", "--year", "2010..2014", "--min-rating", "4"]
        wait_ids(top_ids(arguments), "Top under the filters")
        heading = driver.find_element(By.CSS_SELECTOR, "#results h2.list-title").text
        assert heading == f"Top {top_length} · Drama · 2010–2014 · rated 4+", f"the heading reads {heading!r}"
        assert query_of(driver.current_url) == {"view": ["top"], "genre": ["Drama"], "year": ["2010..2014"],
                                                "min_rating": ["4"]}, driver.current_url
        page.open("?view=critics&genre=Comedy")
        wait_ids(top_ids(["--by", "critic", "--genre", "Comedy"]), "Critics' list under Comedy")
        heading = driver.find_element(By.CSS_SELECTOR, "#results h2.list-title").text
        assert heading == f"Critics' {top_length} · Comedy", f"the heading reads {heading!r}"
        wait_for(driver, lambda d: pressed() == ["Comedy"], "the Comedy chip is not pressed on the critics' list")
    checks.check("Top 15 and Critics' 15 honour the filters and name them in their heading", top_heading)

    def deep_link():
        page.open("?q=dark&genre=comedy&year=..2013&min_rating=3")
        wait_ids(search_ids(["dark", "--genre", "comedy", "--year", "..2013", "--min-rating", "3"]),
                 "the deep link's search")
        assert page.field().get_attribute("value") == "dark"
        assert fields() == ["", "2013", "3"], f"the fields hold {fields()}"
        wait_for(driver, lambda d: pressed() == ["Comedy"], f"the Comedy chip is not pressed ({chips()[:3]})")
    checks.check("a deep link restores the query and every filter", deep_link)

    def clear_all():
        driver.find_element(By.ID, "clear-filters").click()
        wait_ids(search_ids(["dark"]), "'dark' with the filters cleared")
        assert pressed() == [] and fields() == ["", "", ""], f"{pressed()} {fields()}"
        assert query_of(driver.current_url) == {"q": ["dark"]}, driver.current_url
        assert driver.find_element(By.ID, "filters-toggle").get_attribute("textContent") == "Filters"
        assert page.js("return document.getElementById('clear-filters').disabled"), "Clear is still enabled"
        driver.back()
        wait_ids(search_ids(["dark", "--genre", "comedy", "--year", "..2013", "--min-rating", "3"]),
                 "Back after Clear")
    checks.check("one button clears every filter (and Back brings them back)", clear_all)

    def catalog_chips():
        page.open()
        with urllib.request.urlopen(f"{url}api/genres", timeout=5) as response:
            genres = json.loads(response.read())["genres"]
        expected = [(g["name"], f"{g['count']:,}") for g in genres][:12]
        wait_for(driver, lambda d: [(n, c) for n, c, _ in chips()] == expected,
                 f"with no query the chips are not /api/genres' first 12: {chips()[:3]}")
        more = driver.find_element(By.ID, "more-genres")
        more.click()
        wait_for(driver, lambda d: len(chips()) == len(genres), f"'All genres' shows {len(chips())} of {len(genres)}")
        assert more.get_attribute("aria-expanded") == "true"
    checks.check("with no query the chips are every genre of /api/genres with its count", catalog_chips)

    def fold_at_375():
        set_viewport(driver, 375, 667, True)
        try:
            page.open("?q=the&genre=Drama&year=2010..2014")
            wait_ids(search_ids(["the", "--genre", "Drama", "--year", "2010..2014"]), "at 375 px")
            toggle = driver.find_element(By.ID, "filters-toggle")
            assert toggle.is_displayed() and toggle.text == "Filters (2)", f"the toggle reads {toggle.text!r}"
            assert not driver.find_element(By.ID, "filters").is_displayed(), "the filters are not folded"
            assert toggle.get_attribute("aria-expanded") == "false"
            toggle.click()
            wait_for(driver, lambda d: d.find_element(By.ID, "filters").is_displayed(), "the toggle shows no filters")
            assert toggle.get_attribute("aria-expanded") == "true"
            assert chip("Drama").is_displayed() and driver.find_element(By.ID, "year-from").is_displayed()
            time.sleep(0.1)
            scroll, inner = page.no_sideways_scroll()
            assert scroll <= inner, f"scrollWidth {scroll} > innerWidth {inner} with the filters open"
        finally:
            driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
        assert not driver.find_element(By.ID, "filters-toggle").is_displayed(), "the toggle shows at 1280 px"
    checks.check("at 375 px the filters fold behind 'Filters (2)'", fold_at_375)


def fetched_photos(options):
    """The details page with photos fetched from a Flickr stand-in and loaded from a local live.staticflickr.com:
    loading, two columns of pictures that really load, each linking to its Flickr page; a title Flickr has no photos
    for; a failure with its Retry button; a card without a poster showing its movie's first cached photo."""
    checks = Checks()
    url = options.url.rstrip("/") + "/"
    answer = cli_json(options.cli, ["query", "dark", "--cache", options.cache])
    movies = [m for y in answer["years"] for m in y["movies"]]
    target = next((m for m in movies if m["title"] == "The Dark Knight Rises"), None)
    others = [m for m in movies if target and m["title"] != target["title"]]
    if target is None or len(others) < 2:
        print("FAIL catalog: `query 'dark kni'` does not find The Dark Knight Rises and two others")
        return 1
    empty, failing = others[0], others[1]
    with open(options.flickr_modes, "w") as file:
        json.dump({empty["title"]: "empty", failing["title"]: "status"}, file)
    try:
        driver = start_browser(options.flickr_images)
    except WebDriverException as error:
        print(f"FAIL browser: cannot start headless Chromium: {error.msg}")
        return 2
    page = Page(driver, url)
    try:
        def photos_load():
            page.open(f"movie/{target['id']}")
            page.wait_details(target["title"])
            wait_for(driver, lambda d: len(d.find_elements(By.CSS_SELECTOR, "section#details div.photos img.photo")) == 3,
                     "the fetched answer's 3 photos are not shown")
            wait_for(driver, lambda d: page.js("""
                return [...document.querySelectorAll('section#details div.photos img.photo')].every(e =>
                    e.complete && e.naturalWidth > 0);"""), "the photos did not load from live.staticflickr.com")
            shown = page.js("""
                return [...document.querySelectorAll('section#details div.photos a.photo-link')].map(a => {
                    const r = a.getBoundingClientRect(); const img = a.querySelector('img');
                    return [a.href, img.currentSrc, img.loading, Math.round(r.left), Math.round(r.top)]; });""")
            assert all(href.startswith("https://www.flickr.com/photos/") for href, *_ in shown), shown
            assert all(src.startswith("https://live.staticflickr.com/") and src.endswith("_w.jpg")
                       for _, src, *_ in shown), shown
            assert all(loading == "lazy" for _, _, loading, *_ in shown), shown
            assert len({left for *_, left, _ in shown}) == 2, f"not two columns: {shown}"
            if options.screenshots:
                os.makedirs(options.screenshots, exist_ok=True)
                time.sleep(0.3)
                save_screenshot(driver, os.path.join(options.screenshots, "details-fetched-photos-1280x800.png"))
        checks.check("fetched photos load from live.staticflickr.com, in two columns, linking to Flickr", photos_load)

        def no_photos():
            page.open(f"movie/{empty['id']}")
            page.wait_details(empty["title"])
            wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "section#details p.photos-status.no-photos"),
                     "no 'Flickr has no photos' line")
            line = driver.find_element(By.CSS_SELECTOR, "section#details p.photos-status.no-photos").text
            assert line == "Flickr has no photos for this title", line
        checks.check("a title Flickr has no photos for says so", no_photos)

        def failure_and_retry():
            page.open(f"movie/{failing['id']}")
            page.wait_details(failing["title"])
            wait_for(driver, lambda d: d.find_elements(By.CSS_SELECTOR, "section#details p.photos-status.error"),
                     "no failure line")
            line = driver.find_element(By.CSS_SELECTOR, "section#details p.photos-status.error").text
            assert "HTTP status 500" in line, line
            def asked():
                with open(options.flickr_log) as log:
                    return log.read().count("text=")
            before = asked()
            driver.find_element(By.CSS_SELECTOR, "section#details button.retry").click()
            wait_for(driver, lambda d: asked() > before and
                     d.find_elements(By.CSS_SELECTOR, "section#details button.retry"), "Retry did not ask again")
        checks.check("a failure shows its message and a Retry button", failure_and_retry)

        def card_shows_cached_photo():
            page.open()
            page.type("dark kni")
            page.wait_card(str(target["id"]), "after typing 'dark kni'")
            wait_for(driver, lambda d: page.js(f"""
                const img = document.querySelector('#results article.movie[data-id="{target["id"]}"] img.poster');
                return img !== null && img.complete && img.naturalWidth > 0;"""),
                "the card of a movie without a poster does not show its first cached photo")
            # Every other card (no poster, no cached photo) keeps its grey box.
            time.sleep(0.3)
            other = page.js(f"""return document.querySelectorAll(
                '#results article.movie:not([data-id="{target["id"]}"]) img.poster').length""")
            assert other == 0, f"{other} cards of movies with no cached photo show a picture"
        checks.check("a card without a poster shows its first cached photo", card_shows_cached_photo)
    finally:
        driver.quit()
    if checks.failures:
        print(f"{checks.failures} failed")
        return 1
    print("all passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
