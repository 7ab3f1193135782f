#!/usr/bin/env python3
"""What a favorites file of many moved entries adds to a `moviesearch query`, side by side for one or more binaries.

    Scripts/bench-favorites.py --binary .build/release/moviesearch [--binary OLD ...] \
        [--catalog ../shared/data/century-movies.json] [--entries 20000] [--rounds 15] [--seed 23]

The script indexes the catalog with the first binary, then writes a favorites file (version 1, no external ids, as
an old file is) of `--entries` entries drawn with a seeded generator from the catalog's movies, each saved with an
id that now holds another movie (as after a rebuild from a changed catalog), and a tenth of them of movies that are
gone (titles no movie has). Each round runs, for every binary in turn, `query dark` with no favorites file and with
that file; the figures are the medians over the rounds of each, and the median of the per-round differences (what
resolving the file added). Figures are printed, never asserted: shared machines are noisy.
"""
import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time


def run(binary, arguments, environment):
    start = time.perf_counter()
    result = subprocess.run([binary] + arguments, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env=environment)
    elapsed = time.perf_counter() - start
    if result.returncode != 0:
        sys.exit(f"bench-favorites: {binary} {' '.join(arguments)} failed: {result.stderr.decode()}")
    return elapsed


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", action="append", required=True, help="a moviesearch binary (repeat to compare)")
    parser.add_argument("--catalog", default=os.path.join(root, "..", "shared", "data", "century-movies.json"))
    parser.add_argument("--entries", type=int, default=20_000)
    parser.add_argument("--rounds", type=int, default=15)
    parser.add_argument("--seed", type=int, default=23)
    parser.add_argument("--query", default="dark")
    options = parser.parse_args()

    with open(options.catalog, encoding="utf-8") as file:
        catalog = json.load(file)
    movies = catalog["movies"] if isinstance(catalog, dict) else catalog
    generator = random.Random(options.seed)
    entries = []
    for number in range(options.entries):
        position = generator.randrange(len(movies))
        movie = movies[position]
        if not isinstance(movie, dict) or not isinstance(movie.get("title"), str) or not isinstance(movie.get("year"), int):
            continue
        moved_to = (position + 1 + generator.randrange(len(movies) - 1)) % len(movies)
        title = movie["title"] if number % 10 else f"Gone {number} {movie['title']}"
        entries.append({"id": moved_to, "title": title, "year": movie["year"]})

    with tempfile.TemporaryDirectory() as folder:
        cache = os.path.join(folder, "catalog.mscache")
        subprocess.run([options.binary[0], "index", options.catalog, "-o", cache, "--quiet", "--skip-invalid"],
                       check=True)
        favorites = os.path.join(folder, "favorites.json")
        with open(favorites, "w", encoding="utf-8") as file:
            file.write('{"version":1,"favorites":[\n')
            file.write(",\n".join(json.dumps(entry, ensure_ascii=False, separators=(",", ":")) for entry in entries))
            file.write("\n]}\n")
        environment = dict(os.environ, XDG_DATA_HOME=os.path.join(folder, "data"))
        environment.pop("MOVIESEARCH_CACHE", None)
        empty = os.path.join(folder, "none.json")
        times = {binary: {"without": [], "with": [], "added": []} for binary in options.binary}
        for _ in range(options.rounds):
            for binary in options.binary:
                base = ["query", options.query, "--cache", cache, "--favorites"]
                without = run(binary, base + [empty], environment)
                with_file = run(binary, base + [favorites], environment)
                times[binary]["without"].append(without)
                times[binary]["with"].append(with_file)
                times[binary]["added"].append(with_file - without)
        print(f"query {options.query!r} on {os.path.basename(options.catalog)} ({len(movies):,} movies), "
              f"{len(entries):,} moved favorites, {options.rounds} rounds (medians):")
        print(f"{'binary':<50} {'no file':>10} {'with file':>10} {'added':>10}")
        for binary in options.binary:
            figures = times[binary]
            print(f"{binary:<50} {statistics.median(figures['without']) * 1000:>8.1f} ms "
                  f"{statistics.median(figures['with']) * 1000:>7.1f} ms {statistics.median(figures['added']) * 1000:>7.1f} ms")


if __name__ == "__main__":
    main()
