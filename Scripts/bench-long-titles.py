#!/usr/bin/env python3
"""Time per word of indexing one long title and of running it as one query (issue 14, item 8).

    Scripts/bench-long-titles.py                       # K = 1,000, 10,000, 100,000 and 1,000,000 words
    Scripts/bench-long-titles.py 1000 10000 --runs 3   # chosen K, 3 timed runs each
    Scripts/bench-long-titles.py --root /tmp/old-checkout 1000 10000    # another checkout, to compare

For each K, a catalog of one movie whose title is K distinct words (a, b, ..., z, aa, ab, ...: short words are
prefixes of longer ones) is indexed by the release binary, `moviesearch index`, timed as a whole process; then the
same K words are run as one query in-process (Scripts/bench-long-titles.swift compiled with the library's sources by
`swiftc -O`: the CLI caps a query line at 1 MiB, and a process per query would time its start-up). Every figure is
the median of --runs runs.

Indexing is also shown net of a one-word title's (process start-up, reading and writing the file), so that its
time per word reflects the words alone: flat from 1k to 1M words means linear. Everything it makes goes to
.build-long-titles/ (git-ignored) in this checkout.
"""
import argparse
import hashlib
import json
import pathlib
import statistics
import subprocess
import sys
import time

HERE = pathlib.Path(__file__).resolve().parent.parent


def word(n):
    """Word n of the bijective base-26 numbering a, b, ..., z, aa, ...: as LongTitleWords.word in the Swift part."""
    n += 1
    letters = []
    while n > 0:
        n -= 1
        letters.append(chr(ord("a") + n % 26))
        n //= 26
    return "".join(reversed(letters))


def run(command, **kwargs):
    return subprocess.run(command, check=True, **kwargs)


def build(root, work):
    """The release binary of `root`, and the in-process query timer compiled with `root`'s library sources."""
    print(f"== building {root} (release)", file=sys.stderr)
    run(["swift", "build", "-c", "release", "--product", "moviesearch"], cwd=root, stdout=subprocess.DEVNULL)
    bin_path = run(["swift", "build", "-c", "release", "--show-bin-path"], cwd=root, capture_output=True, text=True)
    binary = pathlib.Path(bin_path.stdout.strip()) / "moviesearch"
    sources = sorted((root / "Sources" / "MovieSearch").rglob("*.swift")) + [HERE / "Scripts" / "bench-long-titles.swift"]
    timer = work / f"query-timer-{hashlib.sha1(str(root).encode()).hexdigest()[:10]}"
    if not timer.exists() or any(s.stat().st_mtime > timer.stat().st_mtime for s in sources):
        print("== compiling the query timer (swiftc -O, one module with the library)", file=sys.stderr)
        run(["swiftc", "-O", "-wmo", "-parse-as-library", "-swift-version", "6",
             "-module-name", "MovieSearch", "-package-name", "moviesearch",
             "-I", str(root / "Sources" / "CZlib"), *map(str, sources), "-o", str(timer)])
    return binary, timer


def median_time(command, runs):
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        run(command, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("counts", nargs="*", type=int, default=[1000, 10_000, 100_000, 1_000_000],
                        help="title lengths in words (default: 1000 10000 100000 1000000)")
    parser.add_argument("--runs", type=int, default=5, help="timed runs per figure, median printed (default 5)")
    parser.add_argument("--root", type=pathlib.Path, default=HERE,
                        help="checkout whose binary and library are measured (default: this one)")
    args = parser.parse_args()
    if args.runs < 1 or any(count < 1 for count in args.counts):
        parser.error("--runs and every K must be 1 or more")

    work = HERE / ".build-long-titles"
    work.mkdir(exist_ok=True)
    binary, timer = build(args.root.resolve(), work)

    def catalog(count):
        path = work / f"title-{count}.json"
        if not path.exists():
            title = " ".join(word(n) for n in range(count))
            path.write_text(json.dumps({"movies": [{"title": title, "year": 2000}]}))
        return path

    def index(count):
        cache = work / f"title-{count}.mscache"
        return median_time([str(binary), "index", str(catalog(count)), "-o", str(cache)], args.runs), cache

    baseline, _ = index(1)
    print(f"binary: {binary}")
    print(f"one-word title: index {baseline * 1e3:.1f} ms (subtracted below); median of {args.runs} runs")
    print()
    print(f"{'words':>9} | {'index':>9} | {'net':>9} | {'µs/word':>7} | {'query':>9} | {'µs/word':>7}")
    print(f"{'-' * 9} | {'-' * 9} | {'-' * 9} | {'-' * 7} | {'-' * 9} | {'-' * 7}")
    for count in args.counts:
        seconds, cache = index(count)
        net = max(seconds - baseline, 0)
        answer = run([str(timer), str(cache), str(count), str(args.runs)], capture_output=True, text=True)
        query_seconds, total = answer.stdout.split()
        if total != "1":
            sys.exit(f"bench-long-titles: the query of {count} words found {total} movies, not its title")
        query_seconds = float(query_seconds)
        print(f"{count:>9,} | {seconds * 1e3:>7.1f}ms | {net * 1e3:>7.1f}ms | {net / count * 1e6:>7.3f} | "
              f"{query_seconds * 1e3:>7.2f}ms | {query_seconds / count * 1e6:>7.3f}", flush=True)


if __name__ == "__main__":
    main()
