#!/usr/bin/env python3
"""From a key pressed in the web app's search field to its results on screen, in headless Chromium.

    Scripts/bench-web-latency.py --binary .build/release/moviesearch [--catalog ../shared/data/century-movies.json] \
        [--queries ../shared/queries/century-typing.txt] [--lines 300] [--json]

The script indexes the catalog, starts `serve` on it (port 0, --no-save), opens the page in headless Chromium
(selenium, the system's chromedriver) and types the first --lines lines of the keystroke file, one key a line: each
line is the field after a keystroke, so its last character is typed (a WebDriver key) into a field holding the rest
(set without an input event when the previous line was not that: a new query, or the same in another case), the
next key sent only once the previous one's answer is on screen. Inside the page, with the Performance API: a
keydown listener (capture phase) keeps the event's timeStamp; a MutationObserver on #results and #summary sees the
answer put into the DOM; the sample is performance.now() in the next requestAnimationFrame callback, the frame that
paints it, less the keydown's time. Beside it: key to DOM updated (the observer's call), key to that frame rendered
(a message posted from the rAF callback is handled after the frame's style, layout and paint), the number of cards
on screen, and the /api/search requests' resource timings (request start to response end), the part the
network and the server take. Figures are printed, never asserted: shared machines are noisy.
"""
import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

INSTRUMENT = """
window.__latency = {samples: [], pending: null};
performance.setResourceTimingBufferSize(100000);
document.addEventListener('keydown', (event) => {
    if (event.target.id === 'q') window.__latency.pending = {start: event.timeStamp, seen: false};
}, {capture: true});
const observer = new MutationObserver(() => {
    const pending = window.__latency.pending;
    if (!pending || pending.seen) return;
    pending.seen = true;
    const dom = performance.now() - pending.start;
    requestAnimationFrame(() => {
        const frame = performance.now() - pending.start;
        // A message posted from the rAF callback is handled after that frame's style, layout and paint.
        const channel = new MessageChannel();
        channel.port1.onmessage = () => {
            window.__latency.samples.push({dom: dom, frame: frame, rendered: performance.now() - pending.start,
                                           cards: document.querySelectorAll('#results article.movie').length});
            window.__latency.pending = null;
        };
        channel.port2.postMessage(null);
    });
});
for (const id of ['results', 'summary']) {
    observer.observe(document.getElementById(id), {childList: true, subtree: true, characterData: true});
}
"""

WAIT_FOR_SAMPLE = """
const [count, done] = [arguments[0], arguments[arguments.length - 1]];
const deadline = performance.now() + 2000;
(function poll() {
    if (window.__latency.samples.length > count) return done(true);
    if (performance.now() > deadline) { window.__latency.pending = null; return done(false); }
    setTimeout(poll, 1);
})();
"""


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered) + 0.5) - 1))]


def summary(values):
    return {"count": len(values), "p50": percentile(values, 0.5), "p90": percentile(values, 0.9),
            "p99": percentile(values, 0.99), "max": max(values), "mean": statistics.fmean(values)}


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--catalog", default=os.path.join(root, "../shared/data/century-movies.json"))
    parser.add_argument("--queries", default=os.path.join(root, "../shared/queries/century-typing.txt"))
    parser.add_argument("--lines", type=int, default=300)
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    options = parser.parse_args()

    with open(options.queries, encoding="utf-8") as file:
        lines = [line.rstrip("\n") for line in file][:options.lines]
    scratch = tempfile.mkdtemp(prefix="bench-web-latency-")
    cache = os.path.join(scratch, "catalog.mscache")
    subprocess.run([options.binary, "index", options.catalog, "-o", cache], check=True, capture_output=True)
    server = subprocess.Popen([options.binary, "serve", "--cache", cache, "--listen", "127.0.0.1:0", "--no-save",
                               "--quiet"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    driver = None
    try:
        first = server.stderr.readline().decode("utf-8", "replace")
        match = re.search(r"(http://127\.0\.0\.1:\d+/)", first)
        if not match:
            sys.exit(f"serve said {first!r}")
        url = match.group(1)

        browser = webdriver.ChromeOptions()
        browser.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
        for argument in ["--headless=new", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1280,800",
                         "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"]:
            browser.add_argument(argument)
        if os.geteuid() == 0:
            browser.add_argument("--no-sandbox")
        driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")),
                                  options=browser)
        driver.set_script_timeout(10)
        driver.get(url)
        field = driver.find_element(By.CSS_SELECTOR, "input#q")
        field.click()
        driver.execute_script(INSTRUMENT)

        typed, keys, missed = "", 0, 0
        for line in lines:
            if not line:
                continue
            if typed != line[:-1]:
                # A new query, or the same one in another case: the field is given all but the last character
                # without an input event, as if typed earlier, and the last one is typed.
                driver.execute_script("arguments[0].value = arguments[1]", field, line[:-1])
            count = driver.execute_script("return window.__latency.samples.length")
            field.send_keys(line[-1])
            keys += 1
            if not driver.execute_async_script(WAIT_FOR_SAMPLE, count):
                missed += 1
            typed = line
        samples = driver.execute_script("return window.__latency.samples")
        server_times = driver.execute_script("""
            return performance.getEntriesByType('resource').filter(e => e.name.includes('/api/search'))
                .map(e => e.responseEnd - e.requestStart);""")
    finally:
        if driver is not None:
            driver.quit()
        server.terminate()
        server.wait(timeout=5)
        subprocess.run(["rm", "-rf", scratch])

    figures = {"catalog": os.path.basename(options.catalog), "lines": len(lines), "keys": keys,
               "no_change_on_screen": missed,
               "key_to_next_frame_ms": summary([s["frame"] for s in samples]),
               "key_to_dom_updated_ms": summary([s["dom"] for s in samples]),
               "key_to_frame_rendered_ms": summary([s["rendered"] for s in samples]),
               "search_request_ms": summary(server_times) if server_times else None,
               "cards_per_answer": summary([s["cards"] for s in samples])}
    if options.json:
        print(json.dumps(figures))
        return
    print(f"{figures['catalog']}: {len(lines)} lines of {os.path.basename(options.queries)}, {keys} keys "
          f"({missed} with nothing new on screen within 2 s)")
    for label, values in [("key to next frame (rAF)", figures["key_to_next_frame_ms"]),
                          ("key to DOM updated", figures["key_to_dom_updated_ms"]),
                          ("key to frame rendered", figures["key_to_frame_rendered_ms"]),
                          ("/api/search request", figures["search_request_ms"])]:
        if values:
            print(f"  {label:24} p50 {values['p50']:6.2f} ms  p90 {values['p90']:6.2f} ms  "
                  f"p99 {values['p99']:6.2f} ms  max {values['max']:6.2f} ms  ({values['count']} samples)")
    cards = figures["cards_per_answer"]
    print(f"  cards on screen per answer: p50 {cards['p50']}, p99 {cards['p99']}, max {cards['max']}")


if __name__ == "__main__":
    main()
