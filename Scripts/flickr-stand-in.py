#!/usr/bin/env python3
"""A loopback stand-in for Flickr and TMDb, for tests: Flickr's REST endpoint (photos.search), TMDb's search/movie,
and their image hosts.

    python3 Scripts/flickr-stand-in.py [--mode MODE] [--modes FILE] [--delay S] [--log FILE] [--tls CERT KEY]

Listens on 127.0.0.1 on a free port and prints `listening on PORT` as its first line. Every request is served on a
thread of its own (a hanging answer holds no other), and appended to --log as one line, `<path>?<query>`, so that a
test counts what reached "Flickr".

--modes names a JSON file, {"<title>": "<mode>", …}, read at each request: a title's own mode (a browser test
writes it once it knows the titles). MODE says how photos.search answers (anything else under /services/rest or /rest):
  ok       three photos, derived from the title (the same title, the same photos), after --delay seconds
  empty    no photos
  fail     {"stat":"fail","code":100,"message":"Invalid API Key (Key has invalid format)"}
  garbage  an HTML page with status 200
  hang     never answers (until the process ends)
  slow     answers `ok` after --delay seconds (default 30)
  status   HTTP 500
  big      2 MiB of JSON
A path ending in /search/movie is TMDb's search (`query`, `year`; the title's own mode from --modes first); its log
line ends with ` auth=<Authorization header>` when the request has one. MODE says how it answers:
  ok       a result of that title and year, whose poster_path follows from both, after two of another title and
           another year, after --delay seconds
  other    results of another year and of another title only
  empty    no results
  fail     401 {"status_code":7,"status_message":"Invalid API key: You must be granted a valid key.","success":false}
  limit    429 {"status_code":25,"status_message":"Your request count (41) is over the allowed limit of 40."}
  garbage  an HTML page with status 200
  hang     never answers
  status   HTTP 500
Any path ending in .jpg is an image: a 400x300 PNG (Chromium sniffs the type), for the page's photo grid. With
--tls, it speaks HTTPS with that certificate (a test's self-signed one), to stand for live.staticflickr.com.
"""
import argparse
import hashlib
import json
import ssl
import struct
import sys
import threading
import time
import urllib.parse
import zlib
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


def png(width, height, rgb):
    """A PNG of one colour, written by hand (no imaging library needed)."""
    row = b"\x00" + bytes(rgb) * width
    raw = row * height

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")


def photos_for(title):
    """Three photos whose ids, secrets and owners follow from the title alone."""
    digest = hashlib.sha256(title.encode("utf-8")).hexdigest()
    photos = []
    for n in range(3):
        photos.append({
            "id": str(int(digest[n * 8:n * 8 + 8], 16)), "owner": "%d@N0%d" % (1000 + n, n),
            "secret": digest[40 + n * 6:46 + n * 6], "server": "65535", "farm": 66,
            "title": "%s %d" % (title, n + 1), "ispublic": 1, "isfriend": 0, "isfamily": 0,
        })
    return photos


def mode_for(options, title):
    """The mode for a title: its entry in the --modes file when there is one (read at each request, so that a test
    can change it while the stand-in runs), else --mode."""
    if options.modes:
        try:
            with open(options.modes) as file:
                return json.load(file).get(title, options.mode)
        except (OSError, ValueError):
            pass
    return options.mode


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, status, body, content_type="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        options = self.server.options
        path, _, query = self.path.partition("?")
        if options.log:
            line = self.path
            if path.endswith("/search/movie") and self.headers.get("Authorization"):
                line += " auth=" + self.headers.get("Authorization")
            with self.server.log_lock, open(options.log, "a") as log:
                log.write(line + "\n")
        if path.endswith("/search/movie"):
            return self.tmdb_search(options, urllib.parse.parse_qs(query))
        if path.endswith(".jpg"):
            digest = hashlib.sha256(path.encode()).digest()
            return self.send(200, png(400, 300, digest[:3]), "image/png")
        title = urllib.parse.parse_qs(query).get("text", [""])[0]
        mode = mode_for(options, title)
        if mode == "hang":
            time.sleep(24 * 3600)
            return
        if mode in ("ok", "slow") and options.delay:
            time.sleep(options.delay)
        if mode in ("ok", "slow"):
            answer = {"photos": {"page": 1, "pages": 1, "perpage": 10, "total": 3, "photo": photos_for(title)},
                      "stat": "ok"}
            return self.send(200, json.dumps(answer).encode())
        if mode == "empty":
            return self.send(200, b'{"photos":{"page":1,"pages":0,"perpage":10,"total":0,"photo":[]},"stat":"ok"}')
        if mode == "fail":
            return self.send(200, b'{"stat":"fail","code":100,"message":"Invalid API Key (Key has invalid format)"}')
        if mode == "garbage":
            return self.send(200, b"<html><body>Service Unavailable</body></html>", "text/html")
        if mode == "status":
            return self.send(500, b"{}")
        if mode == "big":
            return self.send(200, b'{"photos":{"photo":[' + b'{"id":"1"},' * ((2 << 20) // 11) + b'{}]},"stat":"ok"}')
        return self.send(404, b"{}")


    def tmdb_search(self, options, parameters):
        """TMDb's search/movie as the mode says (see the module's help)."""
        title = parameters.get("query", [""])[0]
        year = parameters.get("year", ["0"])[0]
        mode = mode_for(options, title)
        if mode == "hang":
            time.sleep(24 * 3600)
            return
        if mode == "ok" and options.delay:
            time.sleep(options.delay)
        digest = hashlib.sha256(("%s|%s" % (title, year)).encode("utf-8")).hexdigest()
        try:
            other_year = "%04d" % (int(year) - 1)
        except ValueError:
            other_year = "1900"
        others = [
            {"id": 1, "title": title, "release_date": other_year + "-05-01", "poster_path": "/other-year.jpg"},
            {"id": 2, "title": title + " II", "release_date": year + "-05-01", "poster_path": "/other-title.jpg"},
        ]
        if mode == "ok":
            match = {"id": 3, "title": title.upper(), "release_date": year + "-10-20",
                     "poster_path": "/%s.jpg" % digest[:24]}
            return self.send(200, json.dumps({"page": 1, "results": others + [match], "total_results": 3}).encode())
        if mode == "other":
            return self.send(200, json.dumps({"page": 1, "results": others, "total_results": 2}).encode())
        if mode == "empty":
            return self.send(200, b'{"page":1,"results":[],"total_pages":0,"total_results":0}')
        if mode == "fail":
            return self.send(401, b'{"status_code":7,"status_message":"Invalid API key: You must be granted a valid '
                             b'key.","success":false}')
        if mode == "limit":
            return self.send(429, b'{"status_code":25,"status_message":"Your request count (41) is over the allowed '
                             b'limit of 40."}')
        if mode == "garbage":
            return self.send(200, b"<html><body>Service Unavailable</body></html>", "text/html")
        return self.send(500, b"{}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", default="ok",
                        choices=["ok", "empty", "fail", "garbage", "hang", "slow", "status", "big", "other", "limit"])
    parser.add_argument("--modes")
    parser.add_argument("--delay", type=float, default=None)
    parser.add_argument("--log")
    parser.add_argument("--tls", nargs=2, metavar=("CERT", "KEY"))
    options = parser.parse_args()
    if options.mode == "slow" and options.delay is None:
        options.delay = 30
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    server.options = options
    server.log_lock = threading.Lock()
    if options.tls:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(options.tls[0], options.tls[1])
        server.socket = context.wrap_socket(server.socket, server_side=True)
    print("listening on %d" % server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
