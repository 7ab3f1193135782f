"""What every benchmark anchor shares: reading catalogs and queries, the timing loop, the figures, the answers.

Figures use the keys of `moviesearch bench --json`; times are microseconds over every timed call (queries x
passes), percentiles by nearest rank.
Answers are JSON lines shaped like `moviesearch query --stdin`: {"query", "total", "years": [{"year", "count",
"movies": [{"id"}]}]}; the anchors list ids only, which is what the agreement check compares.
"""

import gc
import json
import math
import os
import resource
import sys
import time


EVERYTHING = 1_000_000_000  # --per-year that lists every match (the agreement check's full match sets)


def fail(message):
    sys.exit(f"{os.path.basename(sys.argv[0])}: {message}")


def load_catalog(path, details=False):
    """The movies of a catalog file (SEARCH-SPEC "Input catalog"): a list of (title, year, rating or None), id =
    position, with (cast, genres) after them when `details` is true. The benchmark catalogs are valid; an invalid
    movie stops the run rather than shifting ids."""
    with open(path, encoding="utf-8") as file:
        data = json.load(file)
    movies = data.get("movies") if isinstance(data, dict) else data
    if not isinstance(movies, list):
        fail(f"{path}: neither an array nor an object with a 'movies' array")
    result = []
    for position, movie in enumerate(movies):
        title = movie.get("title") if isinstance(movie, dict) else None
        year = movie.get("year") if isinstance(movie, dict) else None
        rating = movie.get("rating") if isinstance(movie, dict) else None
        if not isinstance(title, str) or not title.strip():
            fail(f"{path}: movie {position}: 'title' missing, not a string or blank")
        if isinstance(year, float) and year.is_integer():
            year = int(year)  # `2010.0`, `2.01e3` (a literal whose fraction a double rounds away passes too)
        if not isinstance(year, int) or isinstance(year, bool):
            fail(f"{path}: movie {position}: 'year' missing or not an integer")
        if rating is not None and (isinstance(rating, bool) or not isinstance(rating, (int, float))):
            fail(f"{path}: movie {position}: 'rating' is not a number")
        if details:
            result.append((title, year, rating, movie.get("cast") or [], movie.get("genres") or []))
        else:
            result.append((title, year, rating))
    return result


def read_queries(path):
    """One query per line, kept exactly (trailing spaces matter: "the " is a keystroke)."""
    with open(path, encoding="utf-8", newline="\n") as file:
        text = file.read()
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def order_key(year, rating, id):
    """SEARCH-SPEC order: year descending, then rating descending, unrated last, then id ascending."""
    return (-year, rating is None, -(rating or 0), id)


def answer(query, groups, total):
    """`groups`: [(year, count, [id, ...])] newest year first."""
    return {
        "query": query,
        "total": total,
        "years": [{"year": year, "count": count, "movies": [{"id": id} for id in ids]} for year, count, ids in groups],
    }


def read_answers(path):
    """The answers of a JSON-lines file written by `answer` or `moviesearch query --stdin`, in order."""
    with open(path, encoding="utf-8") as file:
        return [json.loads(line) for line in file if line.strip()]


def add_bench_arguments(command):
    """The options every anchor's `bench` command takes, named alike so that Scripts/compare drives them alike."""
    command.add_argument("--queries", required=True)
    command.add_argument("--passes", type=int, default=5)
    command.add_argument("--per-year", type=int, default=5)
    command.add_argument("--max-seconds", type=float, help="stop after the pass that exceeds this budget")
    command.add_argument("--answers", help="write the warm-up pass's answers here (JSON lines)")


def time_queries(queries, search, passes, max_seconds=None, answers_path=None):
    """`search(query)` returns the answer as (total, [(year, count, [id, ...])]), newest year first.
    Runs every query once (warm-up; its answers go to `answers_path` as JSON lines, if given), then `passes`
    timed passes, each call timed on its own with the monotonic clock; stops after a pass once `max_seconds` of
    timed passes are spent (at least one pass). Garbage collection is off while timing.
    Returns (samples in ns, passes run)."""
    if answers_path:
        with open(answers_path, "w", encoding="utf-8") as out:
            for query in queries:
                total, groups = search(query)
                out.write(json.dumps(answer(query, groups, total), ensure_ascii=False, separators=(",", ":")))
                out.write("\n")
    else:
        for query in queries:
            search(query)
    gc.collect()
    gc.disable()
    try:
        samples = []
        started = time.monotonic()
        done = 0
        clock = time.perf_counter_ns
        for _ in range(passes):
            for query in queries:
                start = clock()
                search(query)
                samples.append(clock() - start)
            done += 1
            if max_seconds is not None and time.monotonic() - started > max_seconds:
                break
    finally:
        gc.enable()
    return samples, done


def percentile(sorted_samples, p):
    """Nearest rank: the smallest sample with at least p% of the samples at or below it."""
    if not sorted_samples:
        return 0
    return sorted_samples[max(0, math.ceil(p / 100 * len(sorted_samples)) - 1)]


def figures(query_count, samples_ns, passes, open_ns, size_bytes, **extra):
    ordered = sorted(samples_ns)
    total_ns = sum(ordered)
    result = {
        "queries": query_count,
        "passes": passes,
        "p50_us": percentile(ordered, 50) / 1000,
        "p90_us": percentile(ordered, 90) / 1000,
        "p99_us": percentile(ordered, 99) / 1000,
        "max_us": (ordered[-1] if ordered else 0) / 1000,
        "mean_us": total_ns / len(ordered) / 1000 if ordered else 0,
        "qps": len(ordered) / (total_ns / 1e9) if total_ns else 0,
        "open_us": open_ns / 1000,
        "cache_bytes": size_bytes,
        "peak_rss_bytes": peak_rss_bytes(),
    }
    result.update(extra)
    return result


def peak_rss_bytes():
    """This process's peak resident memory: VmHWM, which starts afresh at exec (getrusage's ru_maxrss carries the
    parent's peak across fork and exec on Linux), else ru_maxrss."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    maxrss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return maxrss if sys.platform == "darwin" else maxrss * 1024


def print_json(value):
    print(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def path_size(path):
    """Bytes of a file, or of every file under a folder."""
    if os.path.isfile(path):
        return os.path.getsize(path)
    return sum(os.path.getsize(os.path.join(folder, name)) for folder, _, names in os.walk(path) for name in names)
